/* How a recording ended, read from outside it (replayend.c). */
#ifndef PMUTOP_REPLAYEND_H
#define PMUTOP_REPLAYEND_H

#include <stdbool.h>

struct replay;

/* Whether a recorder holds the file now (its flock, as /proc/locks lists it): an
 * unclosed recording still being written, whose end moves on. */
bool replay_being_written(const struct replay *p);

#endif
