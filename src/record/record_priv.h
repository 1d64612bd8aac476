/* The recorder's state and the pieces record.c and recschema.c share: the schema, the
 * header and event-set tables, and pruning. Not for other files: replay.c reads the
 * file through SQL and src/recpack.h alone. */
#ifndef PMUTOP_RECORD_PRIV_H
#define PMUTOP_RECORD_PRIV_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "recblock.h"
#include "recfmt.h"
#include "record.h"
#include "recpack.h"

/* A task alive at the last tick: its identity key and id (src/recblock.h). */
struct live {
	char *key;
	uint64_t hash;
	int64_t id;
	uint64_t seen; /* seq of the last tick that had its row */
	uint64_t rss;  /* the task's resident memory and state at rest (in its def): */
	char state;    /* what its idle rows read */
	bool defd;     /* defined in the block's chunks (alive at its ticks since) */
};

/* A task defined in the tick's chunk: its id and the row that names it. */
struct def {
	int64_t id;
	const struct mrow *row;
};

struct recorder {
	sqlite3 *db;
	char *path;
	int lock_fd;
	struct record_opts o;
	uint64_t seq, written;
	int64_t header_id, evset_id;
	char *header_body, *evset_body;
	bool metrics_new; /* meta('metrics') written in this tick: meta's sum again */
	uint32_t header_sum, evset_sum, usual_sum;
	uint32_t chunks_sum;
	/* recfmt_chunk_sum of the block's chunks so far */ /* their crc32, in each tick's
							       sum */
	bool metrics_saved; /* the model's metrics are in meta('metrics') */
	sqlite3_stmt *ins_tick, *ins_cells, *get_cells;
	int64_t next_id; /* the next task's id */
	/* The block of ticks (src/recblock.h): its key (first seq), ticks and bytes. */
	int64_t key;
	double key_wall; /* --retain: a block spans an eighth of DAYS at most */
	unsigned block_ticks;
	size_t block_bytes, block_cap;
	bool newblock; /* the next tick starts a block */
	struct recblock_z z;
	struct def *defs; /* the tick's new tasks */
	size_t ndefs, defcap;
	int64_t *gone; /* the tick's tasks gone */
	size_t ngone, gonecap;
	struct recpack_buf raw, chunk;
	unsigned kinds, kinds_saved; /* a bit a row kind recorded: meta('kinds') */
	struct live *live;
	unsigned nlive, cap;
	int *index; /* open addressing over live[], -1 empty; icap a power of two */
	unsigned icap;
	struct val *usual; /* nevents: the tick's usual cells */
	unsigned nusual;
	char *usual_text; /* the last usual cells written, and their id in cells */
	int64_t usual_id;
	char *cells;
	size_t cells_len;
	struct pend *pend; /* the tick's stored rows, before they are packed */
	size_t npend, pendcap;
	/* pack_rows' arrays, a row each (packcap of them), and the rows' own cells: kept
	 * from tick to tick so that a tick allocates nothing once they are big enough */
	struct recpack_row *prow;
	const struct val **pval;
	const struct val_delta **pgrp;
	size_t *coff;
	size_t packcap;
	struct recpack_buf pcells;
	struct recpack_buf pack;
	uint64_t wal_cap; /* --max-size: the bytes of it the WAL may take */
	uint64_t need;	  /* -EFBIG: what the newest tick took with the WAL's share */
};

/* The tables of a new recording (docs/RECORDING.md), with its format version. */
extern const char rec_schema[];

int rec_exec(sqlite3 *db, const char *sql);
/* The first column of the first row of sql, or -1. */
int64_t rec_pragma_int(sqlite3 *db, const char *sql);
/* Step a statement that returns no row, then reset it: 0, -ENOSPC or -EIO. */
int rec_step_done(sqlite3_stmt *st);
/* The model's metrics (metric_bind_save) into meta('metrics'), once: replay computes
 * the same Top-down and Metrics columns from the recorded events. */
int rec_put_metrics(struct recorder *r, const struct model *m);
int rec_put_meta_sum(struct recorder *r);
void rec_bind_text(sqlite3_stmt *st, int i, const char *s);

/* The tick's header facts and event set, interned: a new row when one changed. */
int rec_put_header(struct recorder *r, const struct model *m);
int rec_put_evset(struct recorder *r, const struct model *m);
/* --retain and --max-size: the oldest ticks go, inside the tick's transaction.
 * -EFBIG: the newest tick alone takes more than --max-size leaves it. */
int rec_prune(struct recorder *r, double wall, bool *freed);
/* --max-size: the WAL's share of it, kept by checkpoints (wal_autocheckpoint,
 * journal_size_limit). Returns 0, or -EFBIG with one line in err when SIZE cannot hold
 * even an empty recording. */
int rec_bound_wal(struct recorder *r, char *err, size_t errlen);
/* After a commit: the WAL back into the file when it outgrew a quarter of its share, or when
 * pages were given back (the file shrinks). */
void rec_trim_wal(struct recorder *r, bool freed);

#endif
