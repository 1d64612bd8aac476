/* The recorder: a tick's model into SQLite, in one transaction. Rows are interned as
 * tasks (their identity), defined in the chunk of the tick they start and gone in the
 * one they end (src/recblock.h); a tick stores only its rows that did something, packed
 * by column (src/recpack.h): an idle row (every value zero, cells as the tick's usual
 * ones) is a task alive at that tick without a stored row, and the replay builds it
 * back. A block of ticks is one deflate stream. Schema: docs/RECORDING.md. */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "recfmt.h"
#include "recpack.h"
#include "record_priv.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void set_err(char *err, size_t len, const char *path, const char *what, sqlite3 *db)
{
	if (db)
		snprintf(err, len, "%s: %s (%s)", path, what, sqlite3_errmsg(db));
	else
		snprintf(err, len, "%s: %s", path, what);
}

int rec_exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

int64_t rec_pragma_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int rec_step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_FULL ? -ENOSPC : -EIO;
}

void rec_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static bool same_cell(const struct val *a, const struct val *b)
{
	return a->state == b->state && a->why == b->why && a->run_pm == b->run_pm;
}

/* The tick's usual cell of each event: the one most task rows have (a majority vote),
 * what an idle row reads. */
static int usual_cells(struct recorder *r, const struct model *m)
{
	if (r->nusual < m->nevents) {
		struct val *u = realloc(r->usual, m->nevents * sizeof(*u));
		if (!u)
			return -ENOMEM;
		r->usual = u;
		r->nusual = m->nevents;
	}
	for (unsigned i = 0; i < m->nevents; i++) {
		struct val cand = {.state = VAL_EXACT, .run_pm = 1000};
		unsigned votes = 0;
		for (unsigned k = 0; k < m->nrows; k++) {
			const struct val *v = &m->rows[k].v[i];
			if (votes == 0) {
				cand = *v;
				votes = 1;
			} else {
				votes += same_cell(&cand, v) ? 1 : (unsigned)-1;
			}
		}
		r->usual[i] =
			(struct val){.state = cand.state, .why = cand.why, .run_pm = cand.run_pm};
	}
	return 0;
}

/* A row with nothing to say: the replay rebuilds it from the task and the usual cells. */
static bool idle_row(const struct recorder *r, const struct model *m, const struct mrow *row)
{
	if (row->kind == ROW_CPU || row->exited || row->cpu_pct != -1)
		return false;
	for (unsigned i = 0; i < m->nevents; i++)
		if (row->v[i].v != 0 || !same_cell(&row->v[i], &r->usual[i]))
			return false;
	for (unsigned g = 0; g < m->ngroups; g++)
		if (row->g[g].ena || row->g[g].run)
			return false;
	return true;
}

static int cells_text(struct recorder *r, const struct val *v, unsigned n)
{
	size_t need = 2 * (size_t)n + 1 + (size_t)n * 12;
	if (r->cells_len < need) {
		char *c = realloc(r->cells, need);
		if (!c)
			return -ENOMEM;
		r->cells = c;
		r->cells_len = need;
	}
	return recfmt_cells(v, n, r->cells, r->cells_len) ? 0 : -EINVAL;
}

static void index_rebuild(struct recorder *r)
{
	for (unsigned i = 0; i < r->icap; i++)
		r->index[i] = -1;
	for (unsigned k = 0; k < r->nlive; k++) {
		unsigned i = (unsigned)r->live[k].hash & (r->icap - 1);
		while (r->index[i] >= 0)
			i = (i + 1) & (r->icap - 1);
		r->index[i] = (int)k;
	}
}

static int live_grow(struct recorder *r)
{
	if (r->nlive < r->cap && 2 * (r->nlive + 1) <= r->icap)
		return 0;
	unsigned cap = r->cap ? 2 * r->cap : 256;
	struct live *l = realloc(r->live, cap * sizeof(*l));
	if (!l)
		return -ENOMEM;
	r->live = l;
	r->cap = cap;
	int *idx = malloc(2 * (size_t)cap * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	memset(idx, 0xff, 2 * (size_t)cap * sizeof(*idx)); /* every slot -1, empty */
	free(r->index);
	r->index = idx;
	r->icap = 2 * cap;
	index_rebuild(r);
	return 0;
}

static int add_gone(struct recorder *r, int64_t id)
{
	if (r->ngone == r->gonecap) {
		size_t cap = r->gonecap ? 2 * r->gonecap : 256;
		int64_t *g = realloc(r->gone, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		r->gone = g;
		r->gonecap = cap;
	}
	r->gone[r->ngone++] = id;
	return 0;
}

/* A task's memory at rest (what its def holds) for a row: its memory when its state is
 * known. */
static uint64_t rest_rss(const struct mrow *row)
{
	return row->state ? row->rss_kb : 0;
}

/* The task of a row: found among the live ones, or a new one. An idle row whose
 * memory or state differs from its task's at rest (it ran since, and stopped) starts a
 * new task from this tick, with these at rest: a replay's idle rows read them there. */
static int task_of(struct recorder *r, const struct mrow *row, bool idle, struct live **out)
{
	char key[6144];
	snprintf(key, sizeof(key), "%d|%d|%d|%d|%d|%u|%d|%u|%zu:%s|%zu:%s|%zu:%s|%s",
		 (int)row->kind, (int)row->pid, (int)row->tid, (int)row->ppid, row->cpu,
		 (unsigned)row->uid, row->kthread, row->nthreads, row->user ? strlen(row->user) : 0,
		 row->user ? row->user : "", row->comm ? strlen(row->comm) : 0,
		 row->comm ? row->comm : "", row->cmdline ? strlen(row->cmdline) : 0,
		 row->cmdline ? row->cmdline : "\x01", row->cgroup ? row->cgroup : "\x01");
	uint64_t h = hash_str(key);
	if (live_grow(r))
		return -ENOMEM;
	unsigned i = (unsigned)h & (r->icap - 1);
	for (; r->index[i] >= 0; i = (i + 1) & (r->icap - 1)) {
		struct live *l = &r->live[r->index[i]];
		if (l->hash == h && strcmp(l->key, key) == 0) {
			if (l->seen == r->seq)
				break; /* two rows of one identity in a tick: a task each */
			l->seen = r->seq;
			if (idle && (l->rss != rest_rss(row) || l->state != row->state)) {
				/* a task of its own from this tick, with these at rest */
				if (l->defd && add_gone(r, l->id))
					return -ENOMEM;
				l->id = r->next_id++;
				l->defd = false;
				l->rss = rest_rss(row);
				l->state = row->state;
			}
			*out = l;
			return 0;
		}
	}
	int64_t id = r->next_id++;
	char *k = strdup(key);
	if (!k)
		return -ENOMEM;
	struct live *l = &r->live[r->nlive];
	*l = (struct live){.key = k,
			   .hash = h,
			   .id = id,
			   .seen = r->seq,
			   .rss = rest_rss(row),
			   .state = row->state};
	*out = l;
	while (r->index[i] >= 0)
		i = (i + 1) & (r->icap - 1);
	r->index[i] = (int)r->nlive++;
	return 0;
}

/* Tasks without a row this tick ended at the last one: gone, when the block knows them. */
static int end_tasks(struct recorder *r)
{
	unsigned k = 0;
	int rc = 0;
	for (unsigned i = 0; i < r->nlive; i++) {
		struct live *l = &r->live[i];
		if (l->seen == r->seq) {
			r->live[k++] = *l;
			continue;
		}
		if (!rc && l->defd)
			rc = add_gone(r, l->id);
		free(l->key);
	}
	if (k != r->nlive) {
		r->nlive = k;
		index_rebuild(r);
	}
	return rc;
}

/* A stored row waiting for the tick's record: rows go into it in order of task id. */
struct pend {
	int64_t task;
	const struct mrow *row;
	bool mem; /* its memory or state is not its task's at rest */
};

static int by_task(const void *x, const void *y)
{
	const struct pend *a = x, *b = y;
	return a->task < b->task ? -1 : a->task > b->task;
}

static int put_rows(struct recorder *r, const struct model *m, const struct mrow *rows, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const struct mrow *row = &rows[k];
		bool idle = idle_row(r, m, row);
		struct live *l;
		int rc = task_of(r, row, idle, &l);
		if (rc)
			return rc;
		r->kinds |= 1u << row->kind;
		if (!l->defd) {
			/* new, or alive at the block's key: defined in this tick's chunk */
			if (r->ndefs == r->defcap) {
				size_t cap = r->defcap ? 2 * r->defcap : 256;
				struct def *d = realloc(r->defs, cap * sizeof(*d));
				if (!d)
					return -ENOMEM;
				r->defs = d;
				r->defcap = cap;
			}
			r->defs[r->ndefs++] = (struct def){.id = l->id, .row = row};
			l->defd = true;
		}
		if (idle)
			continue;
		if (r->npend == r->pendcap) {
			size_t cap = r->pendcap ? 2 * r->pendcap : 256;
			struct pend *p = realloc(r->pend, cap * sizeof(*p));
			if (!p)
				return -ENOMEM;
			r->pend = p;
			r->pendcap = cap;
		}
		r->pend[r->npend++] = (struct pend){
			.task = l->id,
			.row = row,
			.mem = row->state && (row->rss_kb != l->rss || row->state != l->state)};
	}
	return 0;
}

/* Room in pack_rows' arrays for n rows. */
static int grow_pack(struct recorder *r, size_t n)
{
	if (n <= r->packcap)
		return 0;
	size_t cap = r->packcap ? 2 * r->packcap : 256;
	while (cap < n)
		cap *= 2;
	struct recpack_row *pr = realloc(r->prow, cap * sizeof(*pr));
	if (pr)
		r->prow = pr;
	const struct val **pv = realloc(r->pval, cap * sizeof(*pv));
	if (pv)
		r->pval = pv;
	const struct val_delta **pg = realloc(r->pgrp, cap * sizeof(*pg));
	if (pg)
		r->pgrp = pg;
	size_t *coff = realloc(r->coff, cap * sizeof(*coff));
	if (coff)
		r->coff = coff;
	if (!pr || !pv || !pg || !coff)
		return -ENOMEM;
	r->packcap = cap;
	return 0;
}

/* The tick's stored rows, packed (src/recpack.h). */
static int pack_rows(struct recorder *r, const struct model *m)
{
	if (r->npend) /* none: pend may be NULL, which qsort must not be given */
		qsort(r->pend, r->npend, sizeof(*r->pend), by_task);
	r->pack.len = 0;
	size_t n = r->npend;
	int rc = grow_pack(r, n);
	if (rc)
		return rc;
	struct recpack_row *pr = r->prow;
	const struct val **pv = r->pval;
	const struct val_delta **pg = r->pgrp;
	size_t *coff = r->coff;
	struct recpack_buf *cells = &r->pcells; /* the rows' own cells, one after the other */
	cells->len = 0;
	for (size_t k = 0; k < n; k++) {
		const struct mrow *row = r->pend[k].row;
		pr[k] = (struct recpack_row){.task = r->pend[k].task,
					     .exited = row->exited,
					     .cpu_pct = row->cpu_pct,
					     .mem = r->pend[k].mem,
					     .rss_kb = row->rss_kb,
					     .state = row->state};
		pv[k] = row->v;
		pg[k] = row->g;
		bool usual = row->kind != ROW_CPU;
		for (unsigned i = 0; i < m->nevents && usual; i++)
			usual = same_cell(&row->v[i], &r->usual[i]);
		if (usual)
			continue;
		if ((rc = cells_text(r, row->v, m->nevents)))
			return rc;
		size_t len = strlen(r->cells);
		if (recpack_grow(cells, len))
			return -ENOMEM;
		memcpy(cells->b + cells->len, r->cells, len);
		coff[k] = cells->len;
		pr[k].ncells = len;
		pr[k].cells = ""; /* pointed into cells below, once it stops moving */
		cells->len += len;
	}
	for (size_t k = 0; k < n; k++)
		if (pr[k].cells)
			pr[k].cells = (const char *)cells->b + coff[k];
	return recpack_put_tick(&r->pack, pr, pv, pg, n, m->nevents, m->ngroups);
}

static int by_id(const void *x, const void *y)
{
	const int64_t *a = x, *b = y;
	return *a < *b ? -1 : *a > *b;
}

static int by_def(const void *x, const void *y)
{
	const struct def *a = x, *b = y;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* The tick's chunk (src/recblock.h): tasks gone, tasks defined, the packed rows, then
 * compressed after the block's earlier ticks. */
static int put_chunk(struct recorder *r, bool key)
{
	if (r->ngone)
		qsort(r->gone, r->ngone, sizeof(*r->gone), by_id);
	if (r->ndefs)
		qsort(r->defs, r->ndefs, sizeof(*r->defs), by_def);
	recblock_begin(&r->raw, r->ngone);
	int rc = 0;
	for (size_t k = 0; k < r->ngone && !rc; k++)
		rc = recblock_gone(&r->raw, k ? r->gone[k - 1] : 0, r->gone[k]);
	if (!rc)
		rc = recblock_ndefs(&r->raw, r->ndefs);
	for (size_t k = 0; k < r->ndefs && !rc; k++)
		rc = recblock_def(&r->raw, r->defs[k].id, r->defs[k].row, k ? r->defs[k - 1].id : 0,
				  k ? r->defs[k - 1].row : NULL);
	if (rc)
		return rc;
	if (recpack_grow(&r->raw, r->pack.len))
		return -ENOMEM;
	if (r->pack.len)
		memcpy(r->raw.b + r->raw.len, r->pack.b, r->pack.len);
	r->raw.len += r->pack.len;
	return recblock_deflate(&r->z, key, &r->raw, &r->chunk);
}

/* meta('kinds'): the kinds of rows recorded (a bit a kind), for a replay to say what the
 * file holds. */
static int put_kinds(struct recorder *r)
{
	if (r->kinds == r->kinds_saved)
		return 0;
	char sql[96];
	snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO meta VALUES('kinds', %u)", r->kinds);
	return rec_exec(r->db, sql);
}

/* The tick's usual cells as an id of the cells table (a new row when they change). */
static int put_usual(struct recorder *r, const struct model *m)
{
	int rc = cells_text(r, r->usual, m->nevents);
	if (rc)
		return rc;
	if (r->usual_text && strcmp(r->usual_text, r->cells) == 0)
		return 0;
	sqlite3_bind_text(r->ins_cells, 1, r->cells, -1, SQLITE_STATIC);
	if ((rc = rec_step_done(r->ins_cells)))
		return rc;
	sqlite3_bind_text(r->get_cells, 1, r->cells, -1, SQLITE_STATIC);
	if (sqlite3_step(r->get_cells) != SQLITE_ROW) {
		sqlite3_reset(r->get_cells);
		return -EIO;
	}
	r->usual_id = sqlite3_column_int64(r->get_cells, 0);
	sqlite3_reset(r->get_cells);
	char *t = strdup(r->cells);
	if (!t)
		return -ENOMEM;
	free(r->usual_text);
	r->usual_text = t;
	r->usual_sum = recfmt_text_sum(t);
	return 0;
}

/* The tick's row: its place, its model fields, its chunk and the sums over them. */
static int put_tick_row(struct recorder *r, const struct model *m, double wall)
{
	sqlite3_stmt *st = r->ins_tick;
	int flags = (m->paused ? 1 : 0) | (m->user_only ? 2 : 0) | (m->threads ? 4 : 0) |
		    (m->final ? 8 : 0);
	sqlite3_bind_int64(st, 1, (int64_t)r->seq);
	sqlite3_bind_double(st, 2, wall);
	sqlite3_bind_int64(st, 3, (int64_t)m->tick);
	sqlite3_bind_double(st, 4, m->time);
	sqlite3_bind_double(st, 5, m->interval);
	sqlite3_bind_double(st, 6, m->elapsed);
	sqlite3_bind_int64(st, 7, r->evset_id);
	sqlite3_bind_int64(st, 8, r->header_id);
	sqlite3_bind_int(st, 9, flags);
	sqlite3_bind_int(st, 10, m->exit_status);
	sqlite3_bind_int64(st, 11, m->ntasks);
	sqlite3_bind_int64(st, 12, m->nfd_short);
	sqlite3_bind_int64(st, 13, r->usual_id);
	sqlite3_bind_blob(st, 14, r->chunk.b ? (const void *)r->chunk.b : "", (int)r->chunk.len,
			  SQLITE_STATIC);
	sqlite3_bind_int64(st, 15, r->key);
	struct recfmt_tick t = {
		.seq = (int64_t)r->seq,
		.wall = wall,
		.tick = (int64_t)m->tick,
		.time = m->time,
		.interval = m->interval,
		.elapsed = m->elapsed,
		.evset = r->evset_id,
		.header = r->header_id,
		.flags = flags,
		.exit_status = m->exit_status,
		.ntasks = m->ntasks,
		.nfd_short = m->nfd_short,
		.idle = r->usual_id,
		.key = r->key,
		.chunks_sum = r->chunks_sum,
		.cells_sum = r->usual_sum,
		.header_sum = r->header_sum,
		.evset_sum = r->evset_sum,
	};
	sqlite3_bind_int64(st, 16, recfmt_tick_sum(&t));
	return rec_step_done(st);
}

/* The one line that says why the recording stopped. */
static void stop_err(const struct recorder *r, int rc, char *err, size_t errlen)
{
	if (rc == -ENOSPC)
		snprintf(err, errlen, "%s: the disk is full: recording stopped after %llu ticks",
			 r->path, (unsigned long long)r->written);
	else if (rc == -EFBIG)
		snprintf(err, errlen,
			 "%s: --max-size %llu KiB is less than one tick takes here (%llu "
			 "KiB with the WAL's share): recording stopped after %llu ticks; "
			 "give more",
			 r->path, (unsigned long long)(r->o.max_size >> 10),
			 (unsigned long long)(r->need >> 10), (unsigned long long)r->written);
	else
		set_err(err, errlen, r->path, "recording stopped", r->db);
}

int recorder_write(struct recorder *r, const struct model *m, double wall, char *err, size_t errlen)
{
	if (rec_exec(r->db, "BEGIN IMMEDIATE")) {
		set_err(err, errlen, r->path, "cannot record", r->db);
		return -EIO;
	}
	r->seq++;
	r->npend = r->ndefs = r->ngone = 0;
	/* A new block: every task alive is defined again in its first tick's chunk. */
	bool key = r->newblock || r->key <= 0 || r->block_ticks >= RECFMT_BLOCK_TICKS ||
		   r->block_bytes >= r->block_cap ||
		   (r->o.retain_days > 0 && wall - r->key_wall >= r->o.retain_days * 86400 / 8);
	if (key) {
		for (unsigned i = 0; i < r->nlive; i++)
			r->live[i].defd = false;
		r->key = (int64_t)r->seq;
		r->key_wall = wall;
		r->block_ticks = 0;
		r->block_bytes = 0;
		r->newblock = false;
	}
	int rc = rec_put_header(r, m);
	if (!rc)
		rc = rec_put_evset(r, m);
	if (!rc)
		rc = rec_put_metrics(r, m);
	if (!rc)
		rc = usual_cells(r, m);
	if (!rc)
		rc = put_usual(r, m);
	if (!rc)
		rc = put_rows(r, m, m->rows, m->nrows);
	if (!rc)
		rc = put_rows(r, m, m->cpu_rows, m->ncpu_rows);
	if (!rc)
		rc = put_rows(r, m, m->cg_rows, m->ncg_rows);
	if (!rc)
		rc = end_tasks(r);
	if (!rc)
		rc = pack_rows(r, m);
	if (!rc)
		rc = put_chunk(r, key);
	if (!rc)
		r->chunks_sum = recfmt_chunk_sum(key ? 0 : r->chunks_sum, r->chunk.b, r->chunk.len);
	bool meta = r->kinds != r->kinds_saved || r->written == 0 || r->metrics_new;
	if (!rc)
		rc = put_kinds(r);
	/* A recorder's first tick: the file is open again until this one closes it. */
	if (!rc && r->written == 0)
		rc = rec_exec(r->db, "DELETE FROM meta WHERE key = 'last'");
	if (!rc && meta)
		rc = rec_put_meta_sum(r);
	if (!rc)
		rc = put_tick_row(r, m, wall);
	bool freed = false;
	if (!rc && (r->o.retain_days > 0 || r->o.max_size))
		rc = rec_prune(r, wall, &freed);
	/* The pages pruned given back in the same transaction: their frames and the tick's
	 * go into the WAL once. */
	if (!rc && freed)
		rc = rec_exec(r->db, "PRAGMA incremental_vacuum");
	if (!rc && rec_exec(r->db, "COMMIT"))
		rc = sqlite3_extended_errcode(r->db) == SQLITE_FULL ? -ENOSPC : -EIO;
	if (rc) {
		stop_err(r, rc, err, errlen);
		rec_exec(r->db, "ROLLBACK");
		r->seq--;
		r->newblock = true; /* the deflate stream took the tick rolled back */
		return rc;
	}
	r->written++;
	r->kinds_saved = r->kinds;
	r->metrics_new = false;
	r->block_ticks++;
	r->block_bytes += r->chunk.len;
	rec_trim_wal(r, freed);
	return 0;
}

uint64_t recorder_ticks(const struct recorder *r)
{
	return r ? r->written : 0;
}

/* Whether path holds bytes that are not an SQLite database's (SQLite takes a file shorter
 * than its header for an empty database). */
static bool foreign_bytes(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char h[sizeof(magic)];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, h, sizeof(h));
	close(fd);
	return n > 0 && (n < (ssize_t)sizeof(h) || memcmp(h, magic, sizeof(h)) != 0);
}

static int check_format(struct recorder *r, char *err, size_t errlen)
{
	int64_t app = rec_pragma_int(r->db, "PRAGMA application_id");
	int64_t ver = rec_pragma_int(r->db, "PRAGMA user_version");
	int64_t tables = rec_pragma_int(r->db, "SELECT count(*) FROM sqlite_schema");
	if (app < 0 || tables < 0 || (tables == 0 && foreign_bytes(r->path))) {
		set_err(err, errlen, r->path, "not a pmutop recording: refusing to write into it",
			NULL);
		return -EINVAL;
	}
	if (tables == 0) {
		if (rec_exec(r->db, rec_schema) == 0)
			return 0;
		if ((sqlite3_extended_errcode(r->db) & 0xff) == SQLITE_FULL)
			set_err(err, errlen, r->path, "the disk is full: cannot create it", NULL);
		else
			set_err(err, errlen, r->path, "cannot create", r->db);
		return -EIO;
	}
	if (app != RECFMT_APP_ID) {
		set_err(err, errlen, r->path, "not a pmutop recording: refusing to write into it",
			NULL);
		return -EINVAL;
	}
	if (ver != RECFMT_VERSION) {
		snprintf(err, errlen,
			 "%s: recorded in format %lld, this pmutop writes %d: record into another "
			 "file",
			 r->path, (long long)ver, RECFMT_VERSION);
		return -EINVAL;
	}
	return rec_exec(r->db, "PRAGMA journal_mode = WAL") ? -EIO : 0;
}

struct recorder *recorder_open(const char *path, const struct record_opts *o, char *err,
			       size_t errlen)
{
	struct recorder *r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->lock_fd = -1;
	if (o)
		r->o = *o;
	/* One recorder a file: an advisory lock beside SQLite's own, held while recording. */
	r->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (r->lock_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen, "%s: another pmutop is recording into it", path);
		goto fail;
	}
	if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		set_err(err, errlen, path, "cannot open", r->db);
		goto fail;
	}
	sqlite3_busy_timeout(r->db, 2000);
	if (check_format(r, err, errlen) || rec_bound_wal(r, err, errlen))
		goto fail;
	/* A power cut loses no committed tick: every commit reaches the disk. */
	if (rec_exec(r->db, "PRAGMA synchronous = FULL") ||
	    sqlite3_prepare_v2(
		    r->db,
		    "INSERT INTO ticks(seq, wall, tick, time, interval, elapsed, evset,"
		    " header, flags, exit_status, ntasks, nfd_short, idle, rows, key, ck)"
		    " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    -1, &r->ins_tick, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT OR IGNORE INTO cells(text) VALUES(?)", -1,
			       &r->ins_cells, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "SELECT id FROM cells WHERE text = ?", -1, &r->get_cells,
			       NULL) != SQLITE_OK) {
		set_err(err, errlen, path, "cannot record", r->db);
		goto fail;
	}
	/* Going on with a recording: sequence numbers go on, in a block of its own (the
	 * tasks a killed recorder left alive end at its last tick). */
	int64_t last = rec_pragma_int(r->db, "SELECT coalesce(max(seq), 0) FROM ticks");
	int64_t kinds = rec_pragma_int(r->db, "SELECT value FROM meta WHERE key = 'kinds'");
	if (last < 0) {
		set_err(err, errlen, path, "cannot record", r->db);
		goto fail;
	}
	r->seq = (uint64_t)last;
	r->kinds = r->kinds_saved = kinds > 0 ? (unsigned)kinds : 0;
	r->next_id = 1;
	/* Blocks small beside --max-size: the oldest block is what pruning frees. */
	r->block_cap = RECFMT_BLOCK_BYTES;
	if (r->o.max_size && r->o.max_size / 32 < r->block_cap)
		r->block_cap = (size_t)(r->o.max_size / 32);
	return r;
fail:
	recorder_close(r);
	return NULL;
}

void recorder_close(struct recorder *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nlive; i++)
		free(r->live[i].key);
	/* Closed, the recording is one file that needs no -shm: read-only media and readers
	 * who cannot write its directory replay it. (With a replay still reading, the mode
	 * stays WAL, and the replay opens it immutable.) */
	if (r->db && r->ins_tick) {
		/* meta('last'): the last tick, for a replay to tell a lost end (a damaged
		 * b-tree) from the end. */
		char sql[96];
		snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO meta VALUES('last', %llu)",
			 (unsigned long long)r->seq);
		if (r->written && rec_exec(r->db, "BEGIN IMMEDIATE") == 0) {
			if (rec_exec(r->db, sql) || rec_put_meta_sum(r) ||
			    rec_exec(r->db, "COMMIT"))
				rec_exec(r->db, "ROLLBACK");
		}
		rec_exec(r->db, "PRAGMA wal_checkpoint(TRUNCATE)");
		rec_exec(r->db, "PRAGMA journal_mode = DELETE");
	}
	sqlite3_finalize(r->ins_tick);
	recblock_deflate_end(&r->z);
	recpack_free(&r->raw);
	recpack_free(&r->chunk);
	free(r->defs);
	free(r->gone);
	sqlite3_finalize(r->ins_cells);
	sqlite3_finalize(r->get_cells);
	recpack_free(&r->pack);
	free(r->pend);
	free(r->prow);
	free(r->pval);
	free(r->pgrp);
	free(r->coff);
	recpack_free(&r->pcells);
	free(r->usual_text);
	if (r->db)
		sqlite3_close(r->db);
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	free(r->live);
	free(r->index);
	free(r->usual);
	free(r->cells);
	free(r->header_body);
	free(r->evset_body);
	free(r->path);
	free(r);
}
