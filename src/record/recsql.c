/* `readings`, an eponymous virtual table over a recording's packed rows (format 2) or
 * its blocks' chunks (format 3; the runner of --sql is recquery.c). A constraint on seq
 * or time narrows the ticks read (through the ticks table's key and its wall index);
 * every other filter is SQLite's. */
#include "recsql.h"

#include <errno.h>
#include <math.h>
#ifdef PMUTOP_SQLITE_EXT
#include <sqlite3ext.h> /* built into pmutopsql.so: SQLite's calls through its host's table */
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "recblock.h"
#include "recfmt.h"
#include "recpack.h"
#include "text.h"

enum col {
	C_SEQ,
	C_TIME,
	C_AT,
	C_KIND,
	C_PID,
	C_TID,
	C_CPU,
	C_USER,
	C_COMMAND,
	C_CGROUP,
	C_EVENT,
	C_VALUE,
	C_STATE
};

/* Bounds the planner can hand over: idxNum has a bit a bound, argv follows their order. */
enum { B_SEQ_EQ, B_SEQ_LO, B_SEQ_HI, B_TIME_EQ, B_TIME_LO, B_TIME_HI, B_COUNT };

struct rtab {
	sqlite3_vtab base;
	sqlite3 *db;
};

struct rcur {
	sqlite3_vtab_cursor base;
	sqlite3 *db;
	sqlite3_stmt *ticks, *task, *evnames, *span;
	sqlite3_stmt *span_all; /* the span without a time bound: the ticks, not ticks_wall */
	bool eof;
	int64_t seen; /* format 4: the last tick read in this scan (-1: none yet) */
	int64_t from; /* format 4: the first tick the scan must read (its block's key) */
	/* Format 4: the ticks the recording must hold (recsql_meta_check), read once. */
	bool held_read;
	int64_t kept, held_last;
	int fmt; /* 2: tasks table; 3: blocks (src/recblock.h), read from a block's key */
	struct recblock blk;
	struct recpack_tick tick; /* format 3: the tick's rows, read whole */
	int64_t first, last;	  /* format 3: the ticks asked for (the block before is read) */
	double wlo, whi;
	/* The tick. */
	int64_t seq, evset;
	double wall;
	unsigned char *rec;
	size_t reclen, pos;
	int64_t prev;
	/* Format 4's sums: the block's chunks read, the header's and event set's (by id). */
	uint32_t blk_sum, header_sum, evset_sum;
	int64_t header_of, evset_of;
	/* Its event set. */
	int64_t names_of;
	char **names;
	unsigned nevents, ngroups;
	struct val *usual, *v;
	struct val_delta *g;
	/* The row: its values, cells and task. */
	struct recpack_row pr;
	int kind, pid, tid, cpu;
	char *user, *comm, *cgroup;
	unsigned ev;
};

static int rt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		      char **errp)
{
	(void)aux;
	(void)argc;
	(void)argv;
	(void)errp;
	int rc = sqlite3_declare_vtab(
		db, "CREATE TABLE x(seq INTEGER, time REAL, at TEXT, kind TEXT, pid INTEGER,"
		    " tid INTEGER, cpu INTEGER, user TEXT, command TEXT, cgroup TEXT, event TEXT,"
		    " value, state TEXT)");
	if (rc != SQLITE_OK)
		return rc;
	struct rtab *t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->db = db;
	*out = &t->base;
	return SQLITE_OK;
}

static int rt_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

static int rt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	int slot[B_COUNT];
	for (int b = 0; b < B_COUNT; b++)
		slot[b] = -1;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (!c->usable || (c->iColumn != C_SEQ && c->iColumn != C_TIME))
			continue;
		int base = c->iColumn == C_SEQ ? B_SEQ_EQ : B_TIME_EQ;
		switch (c->op) {
		case SQLITE_INDEX_CONSTRAINT_EQ:
			slot[base] = i;
			break;
		case SQLITE_INDEX_CONSTRAINT_GT:
		case SQLITE_INDEX_CONSTRAINT_GE:
			slot[base + 1] = i;
			break;
		case SQLITE_INDEX_CONSTRAINT_LT:
		case SQLITE_INDEX_CONSTRAINT_LE:
			slot[base + 2] = i;
			break;
		default:
			break;
		}
	}
	int n = 0, mask = 0;
	for (int b = 0; b < B_COUNT; b++) {
		if (slot[b] < 0)
			continue;
		mask |= 1 << b;
		/* SQLite checks the constraint again: a bound here only narrows the ticks. */
		info->aConstraintUsage[slot[b]].argvIndex = ++n;
	}
	info->idxNum = mask;
	info->estimatedCost = mask ? 1000.0 / n : 1e9;
	/* Rows come in order of seq. */
	if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == C_SEQ && !info->aOrderBy[0].desc)
		info->orderByConsumed = 1;
	return SQLITE_OK;
}

static int cur_error(struct rcur *c, const char *what)
{
	sqlite3_vtab *vt = c->base.pVtab;
	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = sqlite3_mprintf("damaged recording: %s", what);
	return SQLITE_CORRUPT;
}

static int rt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct rcur *c = calloc(1, sizeof(*c));
	if (!c)
		return SQLITE_NOMEM;
	c->db = ((struct rtab *)vt)->db;
	c->eof = true;
	c->names_of = -1;
	c->header_of = c->evset_of = -1;
	recblock_init(&c->blk);
	sqlite3_stmt *v;
	if (sqlite3_prepare_v2(c->db, "PRAGMA user_version", -1, &v, NULL) == SQLITE_OK &&
	    sqlite3_step(v) == SQLITE_ROW)
		c->fmt = sqlite3_column_int(v, 0);
	sqlite3_finalize(v);
	bool blocks = c->fmt >= 3;
	if (sqlite3_prepare_v2(
		    c->db,
		    c->fmt >= RECFMT_SUMMED
			    ? "SELECT t.seq, t.wall, t.evset, c.text, t.rows, t.key,"
			      " t.tick, t.time, t.interval, t.elapsed, t.header, t.flags,"
			      " t.exit_status, t.ntasks, t.nfd_short, t.idle, t.ck FROM"
			      " ticks t LEFT JOIN cells c ON c.id = t.idle WHERE t.seq"
			      " BETWEEN ?1 AND ?2 ORDER BY t.seq"
		    : blocks ? "SELECT t.seq, t.wall, t.evset, c.text, t.rows, t.key"
			       " FROM ticks t LEFT JOIN cells c ON c.id = t.idle"
			       " WHERE t.seq BETWEEN ?1 AND ?2 ORDER BY t.seq"
			     : "SELECT t.seq, t.wall, t.evset, c.text, t.rows, 0 FROM"
			       " ticks t LEFT JOIN cells c ON c.id = t.idle WHERE t.seq"
			       " BETWEEN ?1 AND ?2 AND t.wall BETWEEN ?3 AND ?4 ORDER BY"
			       " t.seq",
		    -1, &c->ticks, NULL) != SQLITE_OK ||
	    (blocks && sqlite3_prepare_v2(c->db,
					  "SELECT s.lo, s.hi, (SELECT key FROM ticks WHERE seq ="
					  " s.lo) FROM (SELECT min(seq) AS lo, max(seq) AS hi FROM"
					  " ticks WHERE seq BETWEEN ?1 AND ?2 AND wall BETWEEN ?3"
					  " AND ?4) s",
					  -1, &c->span, NULL) != SQLITE_OK) ||
	    (blocks && sqlite3_prepare_v2(c->db,
					  "SELECT s.lo, s.hi, (SELECT key FROM ticks WHERE seq ="
					  " s.lo) FROM (SELECT min(seq) AS lo, max(seq) AS hi FROM"
					  " ticks NOT INDEXED WHERE seq BETWEEN ?1 AND ?2) s",
					  -1, &c->span_all, NULL) != SQLITE_OK) ||
	    (!blocks && sqlite3_prepare_v2(c->db,
					   "SELECT kind, pid, tid, cpu, user, comm, cgroup FROM"
					   " tasks WHERE id = ?",
					   -1, &c->task, NULL) != SQLITE_OK) ||
	    sqlite3_prepare_v2(c->db, "SELECT key FROM events WHERE evset = ? ORDER BY idx", -1,
			       &c->evnames, NULL) != SQLITE_OK) {
		sqlite3_free(vt->zErrMsg);
		vt->zErrMsg = sqlite3_mprintf("not a pmutop recording: %s", sqlite3_errmsg(c->db));
		sqlite3_finalize(c->ticks);
		sqlite3_finalize(c->task);
		sqlite3_finalize(c->span);
		sqlite3_finalize(c->span_all);
		sqlite3_finalize(c->evnames);
		free(c);
		return SQLITE_ERROR;
	}
	*out = &c->base;
	return SQLITE_OK;
}

static void free_names(struct rcur *c)
{
	for (unsigned i = 0; i < c->nevents; i++)
		free(c->names[i]);
	free(c->names);
	free(c->usual);
	free(c->v);
	free(c->g);
	c->names = NULL;
	c->usual = c->v = NULL;
	c->g = NULL;
	c->nevents = c->ngroups = 0;
	c->names_of = -1; /* none loaded (a damaged file may name set 0) */
}

static void free_task(struct rcur *c)
{
	free(c->user);
	free(c->comm);
	free(c->cgroup);
	c->user = c->comm = c->cgroup = NULL;
}

static int rt_close(sqlite3_vtab_cursor *cur)
{
	struct rcur *c = (struct rcur *)cur;
	sqlite3_finalize(c->ticks);
	sqlite3_finalize(c->task);
	sqlite3_finalize(c->span);
	sqlite3_finalize(c->span_all);
	sqlite3_finalize(c->evnames);
	recblock_free(&c->blk);
	recpack_tick_free(&c->tick);
	free_names(c);
	free_task(c);
	free(c->rec);
	free(c);
	return SQLITE_OK;
}

static char *dup_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? strdup((const char *)s) : NULL;
}

/* The event names and group count of set id. */
static int load_names(struct rcur *c, int64_t id)
{
	if (id == c->names_of)
		return SQLITE_OK;
	free_names(c);
	char sql[96];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM groups WHERE evset = %lld", (long long)id);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return cur_error(c, "no event groups");
	if (sqlite3_step(st) == SQLITE_ROW)
		c->ngroups = (unsigned)sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	size_t cap = 16;
	c->names = malloc(cap * sizeof(*c->names));
	if (!c->names)
		return SQLITE_NOMEM;
	sqlite3_bind_int64(c->evnames, 1, id);
	while (sqlite3_step(c->evnames) == SQLITE_ROW && c->nevents < 4096) {
		if (c->nevents == cap) {
			char **n = realloc(c->names, 2 * cap * sizeof(*n));
			if (!n) {
				sqlite3_reset(c->evnames);
				return SQLITE_NOMEM;
			}
			c->names = n;
			cap *= 2;
		}
		char *name = dup_text(c->evnames, 0);
		if (!name) {
			sqlite3_reset(c->evnames);
			return cur_error(c, "an event has no name");
		}
		c->names[c->nevents++] = name;
	}
	sqlite3_reset(c->evnames);
	if (c->ngroups > 4096)
		return cur_error(c, "an event set is incomplete");
	c->usual = calloc(c->nevents + 1, sizeof(*c->usual));
	c->v = calloc(c->nevents + 1, sizeof(*c->v));
	c->g = calloc(c->ngroups + 1, sizeof(*c->g));
	if (!c->usual || !c->v || !c->g)
		return SQLITE_NOMEM;
	c->names_of = id;
	return SQLITE_OK;
}

/* Format 4: the tick read against its checksum (recfmt_tick_sum), as the replay reads
 * it: a damaged one ends the query with an error, never a number. */
static int check_tick(struct rcur *c, const char *idle)
{
	sqlite3_stmt *t = c->ticks;
	int64_t header = sqlite3_column_int64(t, 10);
	if (header != c->header_of) {
		if (recsql_header_sum(c->db, header, &c->header_sum))
			return cur_error(c, "a tick's header is missing");
		c->header_of = header;
	}
	if (c->evset != c->evset_of) {
		if (recsql_evset_sum(c->db, c->evset, &c->evset_sum))
			return cur_error(c, "an event set cannot be read");
		c->evset_of = c->evset;
	}
	struct recfmt_tick sum = {
		.seq = c->seq,
		.wall = c->wall,
		.evset = c->evset,
		.key = sqlite3_column_int64(t, 5),
		.tick = sqlite3_column_int64(t, 6),
		.time = sqlite3_column_double(t, 7),
		.interval = sqlite3_column_double(t, 8),
		.elapsed = sqlite3_column_double(t, 9),
		.header = header,
		.flags = sqlite3_column_int64(t, 11),
		.exit_status = sqlite3_column_int64(t, 12),
		.ntasks = sqlite3_column_int64(t, 13),
		.nfd_short = sqlite3_column_int64(t, 14),
		.idle = sqlite3_column_int64(t, 15),
		.cells_sum = recfmt_text_sum(idle),
		.header_sum = c->header_sum,
		.evset_sum = c->evset_sum,
		.chunks_sum = c->blk_sum,
	};
	int64_t ck = sqlite3_column_int64(t, 16);
	if (ck != (int64_t)recfmt_tick_sum(&sum))
		return cur_error(c, "a tick fails its checksum");
	return SQLITE_OK;
}

/* The next tick with stored rows: its set, usual cells and record. */
static int next_tick(struct rcur *c)
{
	for (;;) {
		int rc = sqlite3_step(c->ticks);
		if (rc == SQLITE_DONE) {
			c->eof = true;
			/* The scan ends at the last tick the span found. */
			if (c->fmt >= RECFMT_SUMMED && c->seen != c->last)
				return cur_error(c, "ticks are missing");
			return SQLITE_OK;
		}
		if (rc != SQLITE_ROW)
			return rc == SQLITE_NOMEM ? rc : cur_error(c, sqlite3_errmsg(c->db));
		c->seq = sqlite3_column_int64(c->ticks, 0);
		/* The scan is a range of seq from its block's key: a tick not the one after
		 * the last read is missing from it (a damaged b-tree hid it, or showed
		 * another twice). */
		if (c->fmt >= RECFMT_SUMMED && c->seq != (c->seen >= 0 ? c->seen + 1 : c->from))
			return cur_error(c, "ticks are missing");
		c->seen = c->seq;
		c->wall = sqlite3_column_double(c->ticks, 1);
		c->evset = sqlite3_column_int64(c->ticks, 2);
		size_t n = (size_t)sqlite3_column_bytes(c->ticks, 4);
		const unsigned char *rows = sqlite3_column_blob(c->ticks, 4);
		if (c->fmt >= 3) {
			/* Every tick of the block read, those asked for give their rows. */
			int64_t key = sqlite3_column_int64(c->ticks, 5);
			c->blk_sum = recfmt_chunk_sum(c->seq == key ? 0 : c->blk_sum, rows, n);
			rc = recblock_apply(&c->blk, c->seq, key, rows ? (const void *)rows : "",
					    n);
			if (rc == -ENOMEM)
				return SQLITE_NOMEM;
			if (rc == -ESRCH)
				return cur_error(c, "a tick of its block is missing");
			if (rc)
				return cur_error(c, "a tick's rows cannot be read");
			/* Every tick read against its sum, before its seq or time is trusted. */
			const char *idle = (const char *)sqlite3_column_text(c->ticks, 3);
			if (c->fmt >= RECFMT_SUMMED && !idle)
				return cur_error(c, "a tick's usual cells cannot be read");
			if (c->fmt >= RECFMT_SUMMED && (rc = check_tick(c, idle)) != SQLITE_OK)
				return rc;
			if (c->seq < c->first || c->wall < c->wlo || c->wall > c->whi)
				continue;
			rows = c->blk.buf + c->blk.rows;
			n = c->blk.len - c->blk.rows;
		}
		if (n == 0)
			continue;
		if ((rc = load_names(c, c->evset)) != SQLITE_OK)
			return rc;
		const char *idle = (const char *)sqlite3_column_text(c->ticks, 3);
		if (!idle || recfmt_parse_cells(idle, c->usual, c->nevents))
			return cur_error(c, "a tick's usual cells cannot be read");
		unsigned char *rec = realloc(c->rec, n);
		if (!rec)
			return SQLITE_NOMEM;
		c->rec = rec;
		memcpy(c->rec, rows, n);
		c->reclen = n;
		c->pos = 0;
		c->prev = 0;
		if (c->fmt >= 3) {
			/* by column: read whole, then row after row (c->pos) */
			rc = recpack_get_tick(c->rec, n, c->nevents, c->ngroups, &c->tick);
			if (rc == -ENOMEM)
				return SQLITE_NOMEM;
			if (rc)
				return cur_error(c, "a tick's rows cannot be read");
		}
		return SQLITE_OK;
	}
}

/* The next stored row (of this tick or a later one) and its task's identity. */
static int next_row(struct rcur *c)
{
	for (;;) {
		int rc;
		if (c->fmt >= 3) {
			rc = c->reclen && c->pos < c->tick.n;
			if (rc) {
				size_t r = c->pos++;
				c->pr = c->tick.rows[r];
				for (unsigned i = 0; i < c->nevents; i++)
					c->v[i].v = c->tick.v[r * (c->nevents + 1) + i].v;
			}
		} else {
			rc = recpack_next_fmt((unsigned)c->fmt, c->rec, c->reclen, &c->pos, c->prev,
					      &c->pr, c->v, c->nevents, c->g, c->ngroups);
		}
		if (rc < 0)
			return cur_error(c, "a tick's rows cannot be read");
		if (rc == 0) {
			c->reclen = c->pos = 0;
			if ((rc = next_tick(c)) != SQLITE_OK || c->eof)
				return rc;
			continue;
		}
		c->prev = c->pr.task;
		for (unsigned i = 0; i < c->nevents; i++) {
			c->v[i].state = c->usual[i].state;
			c->v[i].why = c->usual[i].why;
		}
		if (c->pr.cells) {
			char text[8192];
			if (c->pr.ncells >= sizeof(text))
				return cur_error(c, "a row's cells cannot be read");
			memcpy(text, c->pr.cells, c->pr.ncells);
			text[c->pr.ncells] = '\0';
			if (recfmt_parse_cells(text, c->v, c->nevents))
				return cur_error(c, "a row's cells cannot be read");
		}
		free_task(c);
		if (c->fmt >= 3) {
			const struct rectask *t = recblock_task(&c->blk, c->pr.task);
			if (!t)
				return cur_error(c, "a row of a task that is not recorded");
			c->kind = t->kind;
			c->pid = t->pid;
			c->tid = t->tid;
			c->cpu = t->cpu;
			c->user = t->user ? strdup(t->user) : NULL;
			c->comm = t->comm ? strdup(t->comm) : NULL;
			c->cgroup = t->cgroup ? strdup(t->cgroup) : NULL;
			c->ev = 0;
			if (c->nevents)
				return SQLITE_OK;
			continue;
		}
		sqlite3_bind_int64(c->task, 1, c->pr.task);
		if (sqlite3_step(c->task) != SQLITE_ROW) {
			sqlite3_reset(c->task);
			return cur_error(c, "a row of a task that is not recorded");
		}
		c->kind = sqlite3_column_int(c->task, 0);
		c->pid = sqlite3_column_int(c->task, 1);
		c->tid = sqlite3_column_int(c->task, 2);
		c->cpu = sqlite3_column_int(c->task, 3);
		c->user = dup_text(c->task, 4);
		c->comm = dup_text(c->task, 5);
		c->cgroup = dup_text(c->task, 6);
		sqlite3_reset(c->task);
		c->ev = 0;
		if (c->nevents)
			return SQLITE_OK;
	}
}

static int rt_next(sqlite3_vtab_cursor *cur)
{
	struct rcur *c = (struct rcur *)cur;
	if (++c->ev < c->nevents)
		return SQLITE_OK;
	return next_row(c);
}

/* Tick seq by the ticks table itself: SQLITE_OK with *wall, SQLITE_DONE, or an error. */
static int tick_wall(struct rcur *c, int64_t seq, double *wall)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(c->db, "SELECT wall FROM ticks NOT INDEXED WHERE seq = ?", -1,
				    &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_bind_int64(st, 1, seq)) == SQLITE_OK &&
	    (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*wall = sqlite3_column_double(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Format 4: the span found (c->first to c->last, if any) holds every tick the recording
 * must (recsql_meta_check: from the first kept to the recorder's last) between slo and
 * shi: none missing at either end. With a time bound, the ticks_wall index found the
 * span, and the ticks next to it, read by seq, must be outside the time asked for (when
 * it found none, the first at or after the time asked for, found by seq, must be after
 * it). */
static int span_held(struct rcur *c, int64_t slo, int64_t shi, bool any)
{
	if (!c->held_read) {
		if (recsql_meta_check(c->db, &c->held_last))
			return cur_error(c, "its meta table fails its checksum");
		c->kept = recsql_first_kept(c->db);
		int rc; /* its recorder did not close it: the last tick found is its last */
		if (c->held_last <= 0)
			c->held_last =
				recsql_int(c->db, "SELECT max(seq) FROM ticks NOT INDEXED", &rc);
		c->held_read = true;
	}
	int64_t lo = slo > c->kept ? slo : c->kept;
	int64_t hi = shi < c->held_last ? shi : c->held_last;
	if (lo > hi)
		return SQLITE_OK;
	if (c->wlo <= -1e300 && c->whi >= 1e300)
		return any && c->first == lo && c->last == hi ? SQLITE_OK
							      : cur_error(c, "ticks are missing");
	if (!any) {
		/* None found: by seq, the first tick at or after the time asked for (ticks
		 * are in order of time but when the clock was set back) must be after it. */
		int64_t a = lo, b = hi + 1;
		double wall = 0;
		while (a < b) {
			int64_t mid = a + (b - a) / 2;
			int rc = tick_wall(c, mid, &wall);
			if (rc == SQLITE_NOMEM)
				return rc;
			if (rc != SQLITE_OK)
				return cur_error(c, "ticks are missing");
			if (wall < c->wlo)
				a = mid + 1;
			else
				b = mid;
		}
		if (a <= hi && tick_wall(c, a, &wall) == SQLITE_OK && wall <= c->whi)
			return cur_error(c, "ticks are missing");
		return SQLITE_OK;
	}
	int64_t next[2] = {c->first - 1, c->last + 1};
	for (int i = 0; i < 2; i++) {
		if (next[i] < lo || next[i] > hi)
			continue;
		double wall = 0;
		int rc = tick_wall(c, next[i], &wall);
		if (rc == SQLITE_NOMEM)
			return rc;
		if (rc != SQLITE_OK || (wall >= c->wlo && wall <= c->whi))
			return cur_error(c, "ticks are missing");
	}
	return SQLITE_OK;
}

static int rt_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	(void)idxstr;
	struct rcur *c = (struct rcur *)cur;
	double lo[2] = {-INFINITY, -INFINITY}, hi[2] = {INFINITY, INFINITY};
	for (int b = 0, k = 0; b < B_COUNT && k < argc; b++) {
		if (!(idx & (1 << b)))
			continue;
		sqlite3_value *v = argv[k++];
		int which = b >= B_TIME_EQ;
		int kind = b - (which ? B_TIME_EQ : B_SEQ_EQ);
		int type = sqlite3_value_numeric_type(v);
		if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
			/* Numbers sort before text and blobs, and nothing compares true with
			 * NULL: seq < 'x' holds for every tick, seq = 'x' or > 'x' for none. */
			if (type == SQLITE_NULL || kind != 2)
				lo[which] = INFINITY;
			continue;
		}
		double x = sqlite3_value_double(v);
		if (kind != 2 && x > lo[which])
			lo[which] = x;
		if (kind != 1 && x < hi[which])
			hi[which] = x;
	}
	sqlite3_reset(c->ticks);
	int rc;
	/* seq bounds as whole numbers: 2.5 <= seq is 3 <= seq. */
	int64_t slo = lo[0] < -9e18 ? INT64_MIN : lo[0] > 9e18 ? INT64_MAX : (int64_t)ceil(lo[0]);
	int64_t shi = hi[0] > 9e18 ? INT64_MAX : hi[0] < -9e18 ? INT64_MIN : (int64_t)floor(hi[0]);
	c->wlo = lo[1] < -1e300 ? -1e300 : lo[1];
	c->whi = hi[1] > 1e300 ? 1e300 : hi[1];
	sqlite3_bind_int64(c->ticks, 1, slo);
	sqlite3_bind_int64(c->ticks, 2, shi);
	if (c->fmt >= 3) {
		/* The ticks asked for, read from the key of the first one's block. Without a
		 * time bound, by the ticks themselves (a damaged ticks_wall index hid them). */
		sqlite3_stmt *sp = c->wlo <= -1e300 && c->whi >= 1e300 ? c->span_all : c->span;
		sqlite3_bind_int64(sp, 1, slo);
		sqlite3_bind_int64(sp, 2, shi);
		if (sp == c->span) {
			sqlite3_bind_double(sp, 3, c->wlo);
			sqlite3_bind_double(sp, 4, c->whi);
		}
		int src = sqlite3_step(sp);
		if (src != SQLITE_ROW) {
			sqlite3_reset(sp);
			return src == SQLITE_NOMEM ? src : cur_error(c, sqlite3_errmsg(c->db));
		}
		bool any = sqlite3_column_type(sp, 0) != SQLITE_NULL;
		c->first = any ? sqlite3_column_int64(sp, 0) : 0;
		c->last = any ? sqlite3_column_int64(sp, 1) : 0;
		int64_t key = any ? sqlite3_column_int64(sp, 2) : 0;
		sqlite3_reset(sp);
		if (c->fmt >= RECFMT_SUMMED && (rc = span_held(c, slo, shi, any)) != SQLITE_OK)
			return rc;
		if (!any) {
			c->eof = true;
			return SQLITE_OK;
		}
		c->from = key < c->first ? key : c->first;
		sqlite3_bind_int64(c->ticks, 1, c->from);
		sqlite3_bind_int64(c->ticks, 2, c->last);
		c->blk.key = c->blk.seq = -1;
	} else {
		sqlite3_bind_double(c->ticks, 3, c->wlo);
		sqlite3_bind_double(c->ticks, 4, c->whi);
	}
	c->eof = false;
	c->seen = -1;
	c->reclen = c->pos = 0;
	rc = next_tick(c);
	if (rc != SQLITE_OK || c->eof)
		return rc;
	return next_row(c);
}

static int rt_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct rcur *)cur)->eof;
}

static const char *kind_name(int kind)
{
	static const char *const names[] = {"process", "thread", "cpu", "cgroup"};
	return kind >= 0 && kind < 4 ? names[kind] : "unknown";
}

static const char *state_name(enum val_state st)
{
	switch (st) {
	case VAL_EXACT:
		return "exact";
	case VAL_SCALED:
		return "scaled";
	case VAL_PARTIAL:
		return "partial";
	case VAL_NC:
		return "n/c";
	case VAL_NA:
		return "n/a";
	default:
		return "empty";
	}
}

static void result_text(sqlite3_context *ctx, const char *s)
{
	if (s)
		sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
}

static int rt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct rcur *c = (struct rcur *)cur;
	const struct val *v = &c->v[c->ev];
	char at[64];
	switch ((enum col)col) {
	case C_SEQ:
		sqlite3_result_int64(ctx, c->seq);
		break;
	case C_TIME:
		sqlite3_result_double(ctx, c->wall);
		break;
	case C_AT:
		result_text(ctx, text_iso_time(c->wall, at, sizeof(at)));
		break;
	case C_KIND:
		result_text(ctx, kind_name(c->kind));
		break;
	case C_PID:
	case C_TID:
		if (c->kind == 2 || c->kind == 3)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int(ctx, col == C_PID ? c->pid : c->tid);
		break;
	case C_CPU:
		if (c->kind == 2)
			sqlite3_result_int(ctx, c->cpu);
		else
			sqlite3_result_null(ctx);
		break;
	case C_USER:
		result_text(ctx, c->user);
		break;
	case C_COMMAND:
		result_text(ctx, c->comm);
		break;
	case C_CGROUP:
		result_text(ctx, c->cgroup);
		break;
	case C_EVENT:
		result_text(ctx, c->names[c->ev]);
		break;
	case C_VALUE:
		if (v->state != VAL_EXACT && v->state != VAL_SCALED && v->state != VAL_PARTIAL)
			sqlite3_result_null(ctx);
		else if (v->v == floor(v->v) && fabs(v->v) < 9007199254740992.0)
			sqlite3_result_int64(ctx, (int64_t)v->v);
		else
			sqlite3_result_double(ctx, v->v);
		break;
	case C_STATE:
		result_text(ctx, state_name((enum val_state)v->state));
		break;
	}
	return SQLITE_OK;
}

static int rt_rowid(sqlite3_vtab_cursor *cur, sqlite_int64 *out)
{
	struct rcur *c = (struct rcur *)cur;
	*out = (sqlite_int64)(((uint64_t)c->seq << 24) ^ ((uint64_t)c->pr.task << 12) ^ c->ev);
	return SQLITE_OK;
}

static const sqlite3_module readings_module = {
	.iVersion = 1,
	.xCreate = NULL, /* eponymous only: `readings` exists on every connection */
	.xConnect = rt_connect,
	.xBestIndex = rt_best_index,
	.xDisconnect = rt_disconnect,
	.xDestroy = rt_disconnect,
	.xOpen = rt_open,
	.xClose = rt_close,
	.xFilter = rt_filter,
	.xNext = rt_next,
	.xEof = rt_eof,
	.xColumn = rt_column,
	.xRowid = rt_rowid,
};

int recsql_register(sqlite3 *db)
{
	return sqlite3_create_module(db, "readings", &readings_module, NULL);
}
