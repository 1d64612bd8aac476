/* A tick's stored rows as one packed record (ticks.rows in a recording): what the
 * recorder writes and the replay and the readings table read, without SQLite. Rows go
 * in order of their task id; each is a varint stream (docs/RECORDING.md):
 *
 *   (task id - previous row's task id) << 1, | 1 when flags follow
 *   flags: 1 exited, 2 CPU% (8-byte double follows), 4 cells (length, text), 8 memory
 *          and state (rss KiB, state letter) when not the task's at rest, 16 doubles
 *   the map of values stored (those not 0), 7 bits a byte with the high bit saying
 *          more follow; with flag 16 a second map, of the values that are doubles
 *   each stored value: a varint, or a double's 8 bytes (little-endian)
 *   the map of groups that have times, then each one's enabled time (the first as it
 *          is, the others zigzag from the first) and its enabled minus running time
 *          (zigzag)
 *
 * Nothing that reads a record trusts it: a damaged one is -EINVAL, never a wild read. */
#ifndef PMUTOP_RECPACK_H
#define PMUTOP_RECPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "value.h"

/* A growing byte buffer; zeroed, it is empty. */
struct recpack_buf {
	unsigned char *b;
	size_t len, cap;
};

/* One stored row, apart from its values and groups' times. */
struct recpack_row {
	int64_t task;
	bool exited;
	double cpu_pct;	   /* -1: none stored */
	const char *cells; /* the row's own cells (recfmt_cells), NULL: the tick's usual */
	size_t ncells;
	bool mem; /* rss_kb and state stored */
	uint64_t rss_kb;
	char state;
};

/* Append row (after the row of task prev, 0 for the first) with nev values and ngr
 * groups' times. Returns 0, -EINVAL (task ids not increasing) or -ENOMEM. */
int recpack_put(struct recpack_buf *out, int64_t prev, const struct recpack_row *row,
		const struct val *v, unsigned nev, const struct val_delta *g, unsigned ngr);
/* The same in a format version: 3 writes the first group's enabled time as the
 * difference (zigzag) from the row's first value when that is a whole number (the
 * default set's task-clock: a task's enabled time is the time it ran). recpack_put and
 * recpack_next are format 2's. */
int recpack_put_fmt(struct recpack_buf *out, unsigned fmt, int64_t prev,
		    const struct recpack_row *row, const struct val *v, unsigned nev,
		    const struct val_delta *g, unsigned ngr);
/* The varints both packed rows and recblock's chunks are made of. recpack_grow makes
 * room for more bytes (-ENOMEM); recpack_put_u writes an unsigned varint into room made
 * (10 bytes at most); zigzag maps signed to unsigned, small magnitudes small;
 * recpack_get_u reads one at *pos (-EINVAL: cut short or longer than 64 bits). */
int recpack_grow(struct recpack_buf *o, size_t more);
void recpack_put_u(struct recpack_buf *o, uint64_t u);
uint64_t recpack_zigzag(int64_t s);
int64_t recpack_unzigzag(uint64_t u);
int recpack_get_u(const unsigned char *rec, size_t len, size_t *pos, uint64_t *out);

void recpack_free(struct recpack_buf *b);

/* Reading a record: *pos starts at 0. Each call reads the next row into row (its cells
 * point into the record, not terminated), v[i].v (values not stored are 0; states are
 * the caller's) and g[k].ena/.run. Returns 1 with a row, 0 at the end, -EINVAL when the
 * record is damaged. prev is the last row's task id (0 before the first). */
int recpack_next(const unsigned char *rec, size_t len, size_t *pos, int64_t prev,
		 struct recpack_row *row, struct val *v, unsigned nev, struct val_delta *g,
		 unsigned ngr);
int recpack_next_fmt(unsigned fmt, const unsigned char *rec, size_t len, size_t *pos, int64_t prev,
		     struct recpack_row *row, struct val *v, unsigned nev, struct val_delta *g,
		     unsigned ngr);

/* Format 3: a tick's rows by column, so that deflate meets like bytes together: their
 * count, then each row's task (as above), each flags, CPU%, cells, memory, value map and
 * doubles' map in turn; each event's values, row after row; the groups' maps; each
 * group's enabled times (the first a row has from its first value, as format 3 above;
 * the others from that first group's), then its running times. */
int recpack_put_tick(struct recpack_buf *out, const struct recpack_row *rows,
		     const struct val *const *v, const struct val_delta *const *g, size_t n,
		     unsigned nev, unsigned ngr);
/* A tick's rows read whole: rows[r], its values v[r * (nev + 1) + i].v and groups'
 * times g[r * (ngr + 1) + k]; cells point into rec. Zeroed, t is empty; it is reused. */
struct recpack_tick {
	size_t n, rcap, vcap, gcap, bcap; /* rows, and the room of each array */
	struct recpack_row *rows;
	struct val *v;
	struct val_delta *g;
	unsigned char *bits;
};
/* Returns 0 (t->n rows), -ENOMEM or -EINVAL (damaged: t->n is 0). */
int recpack_get_tick(const unsigned char *rec, size_t len, unsigned nev, unsigned ngr,
		     struct recpack_tick *t);
void recpack_tick_free(struct recpack_tick *t);

#endif
