/* A recording cut short (a copy that stopped, a disk that failed): what its header says is
 * missing, and what SQLite can still read of it, for replay to go on with. */
#ifndef PMUTOP_RECSALVAGE_H
#define PMUTOP_RECSALVAGE_H

#include <stddef.h>

struct sqlite3;

/* "N of its M bytes are there (n of m pages)" (after "cut short: " when why is not NULL)
 * into buf, returning buf, when path is shorter than its header says; else why. */
const char *recsalvage_cut_short(const char *path, const char *why, char *buf, size_t len);

/* What SQLite can still read of path, copied into a temporary database, or NULL. */
struct sqlite3 *recsalvage_copy(const char *path);

#endif
