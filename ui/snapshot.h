/* The virtual screen read back as text, for tests: what a terminal would show. */
#ifndef PMUTOP_SNAPSHOT_H
#define PMUTOP_SNAPSHOT_H

#include <stddef.h>

/* stdscr as UTF-8 (or ASCII) lines separated by '\n', trailing blanks dropped. */
void snapshot_text(char *buf, size_t len);

#endif
