/* Whether a terminal type can show the screen, asked before curses starts. */
#ifndef PMUTOP_TERMCHECK_H
#define PMUTOP_TERMCHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when terminfo knows term and it can position the cursor; otherwise err says
 * why, in one line. fd: the output the terminal is on. */
bool termcheck_usable(const char *term, int fd, char *err, size_t errlen);

#endif
