/* Room in a growing byte buffer: what the tick's wire form (modelwire) and the
 * recording's packed rows (record/recpack) both append to. */
#ifndef PMUTOP_BYTEBUF_H
#define PMUTOP_BYTEBUF_H

#include <stddef.h>

/* Make room for more bytes after len in *b of *cap bytes (realloc'd, doubling from first
 * when empty): 0, or -ENOMEM with *b and *cap as they were. */
int bytebuf_room(unsigned char **b, size_t len, size_t *cap, size_t more, size_t first);

#endif
