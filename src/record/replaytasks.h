/* The replay's state, shared by replay.c (the file, its ticks, headers and event sets)
 * and replaytasks.c (the tasks alive at a tick and its rows). */
#ifndef PMUTOP_REPLAYTASKS_H
#define PMUTOP_REPLAYTASKS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "recblock.h"

struct ptask {
	int64_t id;
	struct mrow r;			    /* identity; strings as arena offsets until resolved */
	size_t user, comm, cgroup, cmdline; /* arena offsets, (size_t)-1 for NULL */
	long sample;			    /* index into the samples read, -1: idle */
};

struct replay {
	sqlite3 *db;
	char *path;
	char lost[320]; /* what the replay could not read of the file, or "" */
	int fmt;	/* the file's format: 2 (a tasks table) or 3 (blocks, src/recblock.h) */
	sqlite3_stmt *tick, *tasks, *chunks, *next, *prev, *find, *last;
	struct recblock blk;	   /* format 3: the block read up to the loaded tick */
	struct recpack_tick ptick; /* and its rows, read whole */
	/* The header and event set of the loaded tick, cached by id. */
	int64_t header_id, evset_id;
	char *host, *kernel, *pmus, *notice, *backend;
	int ncpus;
	struct mevent *events;
	char **names; /* name and key of each event, 2 a event */
	unsigned nevents;
	struct mgroup *groups;
	unsigned ngroups;
	bool user;
	/* The tick. */
	struct model m;
	struct metric_bind *metrics; /* meta('metrics'): the recorded run's, or NULL */
	double wall;
	uint64_t seq;
	struct ptask *tk;
	size_t ntk, tkcap;
	char *arena;
	size_t alen, acap;
	struct mstore rows, cpus, cgs; /* cgs: cgroups counted themselves beside processes */
	bool cg_own;		       /* the loaded tick has such cgroups */
	struct val *usual, *sv;	       /* the tick's usual cells; a stored row's values */
	unsigned nusual;	       /* room in both */
	struct val_delta *sg;	       /* a stored row's groups' times */
	unsigned nsg;
	unsigned char *rec; /* format 2: the tick's stored rows (src/recpack.h) */
	size_t reclen, reccap;
	int64_t key; /* format 3: the tick's block */
	/* Format 4's checksums: the loaded header's and event set's bodies', the block's
	 * chunks read (key to blk.seq), and the tick's stored one. */
	uint32_t header_sum, evset_sum, blk_sum, ck;
	int64_t idle;	      /* the tick's usual cells' id, as its sum covers it */
	int64_t missing_upto; /* the last of the ticks missing from the one load asked for */
	int64_t expect_last;  /* format 4: meta('last') (the recorder's last tick) or the last found
			       */
	bool unclosed;	      /* format 4 without meta('last'): its recorder never closed it */
};

/* One line in err saying the file is damaged (what: SQLite's message or ours, made safe
 * for a terminal). Returns -EINVAL. */
int replay_damaged(struct replay *p, char *err, size_t len, const char *what);
/* replayend.c: an SQLite file in WAL mode, no recording yet, with no -wal beside it. */
bool replay_wal_left_behind(const char *path);
/* replayend.c: the line of a recording with no tick, and why when unclosed. */
void replay_say_no_tick(struct replay *p, bool unclosed, char *err, size_t errlen);
/* The loaded tick's rows (p->seq, its usual cells, event set and record or block read):
 * every task alive then, idle, under the rows it stored. Returns 0, -ENOMEM, or -EINVAL
 * with one line in err. */
int replay_rows(struct replay *p, char *err, size_t len);

#endif
