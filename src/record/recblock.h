/* Format 3's ticks: each tick's chunk (ticks.rows) holds what changed in the tasks and
 * the rows it stored, and the chunks of a block of ticks are one deflate stream (raw
 * deflate, a sync flush at the end of each tick, its last 4 bytes 00 00 ff ff left out).
 * A block's first tick (its key) defines every task alive then: a tick is read by
 * inflating its block from the key up to it. Before deflate a chunk is
 *
 *   gone:  count, then the ids (ascending, each as the difference from the previous) of
 *          the tasks alive at the block's previous tick that are not at this one
 *   defs:  count, then each new task (ascending ids): id difference, kind + 4 kthread,
 *          pid (zigzag from the previous def's), tid - pid, ppid (zigzag from the
 *          previous def's; the first: pid - ppid), cpu (zigzag), uid (zigzag from the
 *          previous def's), threads, memory at rest (KiB), state letter (a byte, 0
 *          unknown), then user, command, cgroup and arguments, each 0 (NULL), 1 (the
 *          previous def's) or the length of what it does not share with the previous
 *          def's + 2, the length it shares (when there is a previous def's) and the
 *          rest's bytes
 *   rows:  the rest: the tick's stored rows (src/recpack.h) naming the tasks by id
 *
 * Nothing read is trusted: a damaged chunk is -EINVAL, never a wild read. Shared by the
 * recorder, the replay and the readings table (pmutopsql.so too). */
#ifndef PMUTOP_RECBLOCK_H
#define PMUTOP_RECBLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "model.h"
#include "recpack.h"

/* A task of a block: its id and identity. */
struct rectask {
	int64_t id;
	int kind, pid, tid, ppid, cpu;
	uint32_t uid;
	bool kthread;
	unsigned nthreads;
	uint64_t rss;
	char state;
	char *user, *comm, *cgroup, *cmdline;
};

/* Writing. A chunk's parts into raw, in order: recblock_gone for each id gone (after
 * recblock_begin), recblock_def for each new task, then the rows. */
void recblock_begin(struct recpack_buf *raw, size_t ngone);
int recblock_gone(struct recpack_buf *raw, int64_t prev, int64_t id);
int recblock_ndefs(struct recpack_buf *raw, size_t ndefs);
/* prev: the previous def of this chunk (NULL for the first), prev_id its id (0). */
int recblock_def(struct recpack_buf *raw, int64_t id, const struct mrow *row, int64_t prev_id,
		 const struct mrow *prev);

/* The block's deflate stream. */
struct recblock_z {
	z_stream z;
	bool open;
};
/* raw, compressed after the block's earlier chunks (a new stream when key), into out.
 * Returns 0, -ENOMEM or -EIO. */
int recblock_deflate(struct recblock_z *w, bool key, const struct recpack_buf *raw,
		     struct recpack_buf *out);
void recblock_deflate_end(struct recblock_z *w);

/* Reading: the tasks alive at the last tick applied, ascending ids. */
struct recblock {
	z_stream z;
	bool zinit;
	int64_t key, seq; /* the block and its tick applied; -1: none */
	struct rectask *t;
	size_t n, cap;
	unsigned char *buf; /* the tick's chunk inflated */
	size_t len, bufcap;
	size_t rows; /* where its rows start in buf */
};
void recblock_init(struct recblock *b);
void recblock_free(struct recblock *b);
/* Apply tick seq of block key: its chunk. seq must be key (the block starts again) or
 * the next tick after the last applied of the same block. Returns 0, -ESRCH (not the
 * next tick: start from the key), -ENOMEM or -EINVAL (damaged; the block must be read
 * again from its key). */
int recblock_apply(struct recblock *b, int64_t seq, int64_t key, const void *chunk, size_t n);
/* The task of id among those alive, or NULL. */
const struct rectask *recblock_task(const struct recblock *b, int64_t id);

#endif
