/* A recording as a source (source.h) over an open replay (replay.h). */
#ifndef PMUTOP_REPLAYSRC_H
#define PMUTOP_REPLAYSRC_H

#include <stdint.h>

#include "replay.h"
#include "source.h"

/* Ticks from first on, while they were recorded at end or before; rp stays the
 * caller's. NULL: -ENOMEM. */
struct source *replaysrc_new(struct replay *rp, uint64_t first, double end);
/* The model becomes tick seq (and the next tick the one after): 0, -ENOENT (pruned
 * meanwhile), or an error with one line in err (a damaged tick: the model is as it
 * was). */
int replaysrc_seek(struct source *s, uint64_t seq, char *err, size_t len);
/* Ticks that could not be read and were left out, with the first one's line and which
 * they were (" (lost: ticks 5 to 9, 14)", by sequence number). */
long replaysrc_lost(struct source *s, const char **first);

#endif
