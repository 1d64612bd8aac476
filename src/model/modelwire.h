/* A tick's model as bytes for another pmutop (--listen serves it, --connect reads it):
 * the header, the event set and its groups, and every process, thread, CPU and cgroup row
 * with each value's state, reason and counted share, so that the reader shows the same
 * marks (n/a, n/c, ~, +). Fixed-width little-endian fields, strings with their length;
 * nothing that reads it trusts it: a damaged one is -EINVAL, never a wild read. */
#ifndef PMUTOP_MODELWIRE_H
#define PMUTOP_MODELWIRE_H

#include <stddef.h>

#include "model.h"

#define MODELWIRE_TYPE "application/x-pmutop-tick"

/* A growing byte buffer; zeroed, it is empty. */
struct mwbuf {
	unsigned char *b;
	size_t len, cap;
};

/* m appended to out (emptied first). 0 or -ENOMEM. */
int modelwire_put(const struct model *m, struct mwbuf *out);
void mwbuf_free(struct mwbuf *b);

/* A model read from bytes: m points into its storage until the next get or the free. */
struct modelwire {
	struct model m;
	unsigned char *body; /* the bytes read last: the strings point into them */
	struct mevent *ev;
	struct mgroup *gr;
	struct mstore rows, cpus, cgs;
};

/* body (malloc'd, len bytes; taken whatever the result) into w->m. 0, -EINVAL (damaged),
 * -EPROTONOSUPPORT (another version of the format) or -ENOMEM; on an error w->m is empty
 * (a reader that keeps the last model reads into a second struct modelwire). */
int modelwire_get(struct modelwire *w, unsigned char *body, size_t len);
/* Everything w holds (the struct itself is the caller's). */
void modelwire_clear(struct modelwire *w);

#endif
