/* A recording back into models: a tick's header, its event set, the tasks alive then
 * and the rows it stored; a task without a stored row was idle (every value zero, the
 * tick's usual cells). Everything read from the file is checked before it is used: a
 * damaged or hostile file gives an error, never a wild index. */
#include "replay.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metricbind.h"
#include "recfmt.h"
#include "replayend.h"
#include "recpack.h"
#include "recsalvage.h"
#include "recsql.h"
#include "replaytasks.h"
#include "text.h"

/* what may be SQLite's message quoting the file's own bytes (a damaged schema): one line,
 * nothing that steers a terminal. */
int replay_damaged(struct replay *p, char *err, size_t len, const char *what)
{
	char safe[256];
	text_sanitize(what, safe, sizeof(safe), true);
	snprintf(err, len, "%s: damaged recording: %s", p->path, safe);
	return -EINVAL;
}

static void free_evset(struct replay *p)
{
	for (unsigned i = 0; i < 2 * p->nevents; i++)
		free(p->names[i]);
	free(p->names);
	free(p->events);
	free(p->groups);
	p->names = NULL;
	p->events = NULL;
	p->groups = NULL;
	p->nevents = p->ngroups = 0;
	p->evset_id = 0;
}

static void free_header(struct replay *p)
{
	free(p->host);
	free(p->kernel);
	free(p->pmus);
	free(p->notice);
	free(p->backend);
	p->host = p->kernel = p->pmus = p->notice = p->backend = NULL;
	p->header_id = 0;
}

void replay_close(struct replay *p)
{
	if (!p)
		return;
	sqlite3_finalize(p->tick);
	sqlite3_finalize(p->tasks);
	sqlite3_finalize(p->chunks);
	recblock_free(&p->blk);
	recpack_tick_free(&p->ptick);
	sqlite3_finalize(p->next);
	sqlite3_finalize(p->prev);
	sqlite3_finalize(p->find);
	sqlite3_finalize(p->last);
	if (p->db)
		sqlite3_close(p->db);
	free_evset(p);
	free_header(p);
	free(p->tk);
	free(p->arena);
	free(p->usual);
	free(p->sv);
	free(p->sg);
	free(p->rec);
	mstore_free(&p->rows);
	mstore_free(&p->cpus);
	mstore_free(&p->cgs);
	metric_bind_free(p->metrics);
	free(p->path);
	free(p);
}
static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? strdup((const char *)s) : NULL;
}

/* The recorded run's metrics, when it had any (a recording without them has none). */
static int load_metrics(struct replay *p, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(p->db, "SELECT value FROM meta WHERE key = 'metrics'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	int rc = 0;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		char why[256];
		p->metrics = metric_bind_restore((const char *)sqlite3_column_text(st, 0), why,
						 sizeof(why));
		if (!p->metrics) {
			snprintf(err, errlen, "%s: %s", p->path, why);
			rc = -EINVAL;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Format 4: meta's rows against their sum (the metrics, the kinds recorded and the last
 * tick are read from them), and meta('last'). */
static int check_meta(struct replay *p, char *err, size_t errlen)
{
	if (recsql_meta_check(p->db, &p->expect_last))
		return replay_damaged(p, err, errlen, "its meta table fails its checksum");
	p->unclosed = p->expect_last <= 0;
	return 0;
}

/* A recording cut short: its ticks SQLite can still read, copied into memory and read
 * from there, with the line that says what was lost in p->lost. */
static int open_salvaged(struct replay *p, const char *path, char *err, size_t errlen)
{
	char cut[192];
	int rc;
	if (recsalvage_cut_short(path, NULL, cut, sizeof(cut)) != cut)
		return 0;
	sqlite3 *mem = recsalvage_copy(path);
	int64_t n = mem ? recsql_int(mem, "SELECT count(*) FROM ticks", &rc) : 0;
	if (n <= 0) {
		char what[256];
		snprintf(what, sizeof(what), "cut short: %s, and no tick can be read", cut);
		replay_damaged(p, err, errlen, what);
		sqlite3_close(mem);
		return -EIO;
	}
	sqlite3_close(p->db);
	p->db = mem;
	int64_t lo = recsql_int(mem, "SELECT min(seq) FROM ticks", &rc);
	int64_t hi = recsql_int(mem, "SELECT max(seq) FROM ticks", &rc);
	snprintf(p->lost, sizeof(p->lost),
		 "%s: damaged recording: cut short, %s: replaying the %lld ticks SQLite "
		 "can still read (%lld to %lld, %lld missing between them; any after %lld "
		 "are lost)",
		 path, cut, (long long)n, (long long)lo, (long long)hi,
		 (long long)(hi - lo + 1 - n), (long long)hi);
	return 0;
}

/* The statements that read a recording of format ver. */
static int prepare_reads(struct replay *p, int64_t ver, char *err, size_t errlen)
{
	/* Format 2 holds a tick's rows in its record and its tasks in a table; format 3
	 * both in its chunk of a block (src/recblock.h), read through chunks. */
	char tsql[320];
	snprintf(tsql, sizeof(tsql),
		 "SELECT t.wall, t.tick, t.time, t.interval, t.elapsed, t.evset, t.header,"
		 " t.flags, t.exit_status, t.ntasks, t.nfd_short, c.text, %s, %s, %s, t.idle"
		 " FROM ticks t LEFT JOIN cells c ON c.id = t.idle WHERE t.seq = ?",
		 ver >= 3 ? "x''" : "t.rows", ver >= 3 ? "t.key" : "0",
		 ver >= RECFMT_SUMMED ? "t.ck" : "0");
	if (sqlite3_prepare_v2(p->db, tsql, -1, &p->tick, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(p->db,
			       ver >= 3 ? "SELECT seq, key, rows FROM ticks WHERE seq BETWEEN ?1"
					  " AND ?2 ORDER BY seq"
					: "SELECT id, kind, pid, tid, cpu, uid, user, comm, cgroup,"
					  " kthread, nthreads, cmdline, ppid, rss, state FROM tasks"
					  " WHERE first <= ?1 AND (last IS NULL OR last >= ?1)",
			       -1, ver >= 3 ? &p->chunks : &p->tasks, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(p->db, "SELECT min(seq) FROM ticks WHERE seq > ?", -1, &p->next,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(p->db, "SELECT max(seq) FROM ticks WHERE seq < ?", -1, &p->prev,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(p->db,
			       "SELECT seq, wall, (SELECT wall FROM ticks NOT INDEXED WHERE seq ="
			       " t.seq) FROM ticks t WHERE wall >= ? ORDER BY wall LIMIT 1",
			       -1, &p->find, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(p->db,
			       "SELECT min(seq), max(seq), (SELECT wall FROM ticks ORDER BY seq"
			       " LIMIT 1), (SELECT wall FROM ticks ORDER BY seq DESC LIMIT 1)"
			       " FROM ticks NOT INDEXED",
			       -1, &p->last, NULL) != SQLITE_OK) {
		char cut[192];
		replay_damaged(
			p, err, errlen,
			recsalvage_cut_short(p->path, sqlite3_errmsg(p->db), cut, sizeof(cut)));
		return -EIO;
	}
	return 0;
}

struct replay *replay_open(const char *path, char *err, size_t errlen)
{
	struct replay *p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(path))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	int rc;
	if (recsql_open(path, &p->db, err, errlen))
		goto fail;
	if (open_salvaged(p, path, err, errlen))
		goto fail;
	int64_t app = recsql_int(p->db, "PRAGMA application_id", &rc);
	if (rc == SQLITE_NOTADB || (rc == SQLITE_OK && app != RECFMT_APP_ID)) {
		/* Nothing tells a copy made without the -wal from a recorder killed before
		 * its first commit (neither has a table yet: another program's database
		 * does); one still starting holds the file. */
		int mrc;
		bool left = replay_wal_left_behind(path) &&
			    recsql_int(p->db, "SELECT count(*) FROM sqlite_master", &mrc) == 0 &&
			    mrc == SQLITE_OK;
		if (left && replay_being_written(p))
			replay_say_no_tick(p, true, err, errlen);
		else if (left)
			snprintf(err, errlen,
				 "%s: no tick can be read from it: its recorder did not close it, "
				 "and no -wal with its ticks is beside it (killed before its first "
				 "tick, or copied without the -wal that was beside the original: "
				 "copy that too, as %s-wal)",
				 path, path);
		else
			snprintf(err, errlen, "%s: not a pmutop recording", path);
		goto fail;
	}
	if (rc != SQLITE_OK) {
		char cut[192];
		replay_damaged(p, err, errlen,
			       recsalvage_cut_short(path, sqlite3_errmsg(p->db), cut, sizeof(cut)));
		goto fail;
	}
	int64_t ver = recsql_int(p->db, "PRAGMA user_version", &rc);
	if (rc == SQLITE_OK && ver > RECFMT_VERSION) {
		snprintf(err, errlen,
			 "%s: recorded by a newer pmutop (format %lld; this one reads %d)", path,
			 (long long)ver, RECFMT_VERSION);
		goto fail;
	}
	if (rc == SQLITE_OK && ver >= 1 && ver < RECFMT_OLDEST) {
		snprintf(err, errlen,
			 "%s: recorded by an older pmutop (format %lld; this one reads %d to %d)",
			 path, (long long)ver, RECFMT_OLDEST, RECFMT_VERSION);
		goto fail;
	}
	if (rc != SQLITE_OK || ver < 1) {
		char cut[192];
		replay_damaged(p, err, errlen,
			       rc == SQLITE_OK ? "no format version"
					       : recsalvage_cut_short(path, sqlite3_errmsg(p->db),
								      cut, sizeof(cut)));
		goto fail;
	}
	p->fmt = (int)ver;
	recblock_init(&p->blk);
	if (prepare_reads(p, ver, err, errlen))
		goto fail;
	if (ver >= RECFMT_SUMMED && check_meta(p, err, errlen))
		goto fail;
	uint64_t a, b;
	double wa, wb;
	if (replay_span(p, &a, &b, &wa, &wb)) {
		replay_say_no_tick(p, p->unclosed, err, errlen);
		goto fail;
	}
	if (load_metrics(p, err, errlen))
		goto fail;
	/* Without meta('last') (a recorder killed), the last tick found. */
	if (ver >= RECFMT_SUMMED && p->expect_last <= 0)
		p->expect_last = (int64_t)b;
	return p;
fail:
	replay_close(p);
	return NULL;
}

int replay_recorded(struct replay *p, bool *threads, bool *cpus)
{
	int rc1, rc2;
	if (p->fmt >= 3) {
		/* meta('kinds'): a bit a kind of row recorded (1 << 1 threads, 1 << 2 CPUs) */
		int64_t k = recsql_int(p->db, "SELECT value FROM meta WHERE key = 'kinds'", &rc1);
		if (rc1 == SQLITE_ROW || rc1 == SQLITE_DONE)
			rc1 = SQLITE_OK; /* no row: none of either */
		*threads = k > 0 && (k & 2);
		*cpus = k > 0 && (k & 4);
		return rc1 == SQLITE_OK ? 0 : -EIO;
	}
	*threads =
		recsql_int(p->db, "SELECT EXISTS (SELECT 1 FROM tasks WHERE kind = 1)", &rc1) > 0;
	*cpus = recsql_int(p->db, "SELECT EXISTS (SELECT 1 FROM tasks WHERE kind = 2)", &rc2) > 0;
	return rc1 == SQLITE_OK && rc2 == SQLITE_OK ? 0 : -EIO;
}

int replay_span(struct replay *p, uint64_t *first, uint64_t *last, double *wfirst, double *wlast)
{
	int rc = -ENOENT;
	if (sqlite3_step(p->last) == SQLITE_ROW && sqlite3_column_type(p->last, 0) != SQLITE_NULL) {
		*first = (uint64_t)sqlite3_column_int64(p->last, 0);
		*last = (uint64_t)sqlite3_column_int64(p->last, 1);
		*wfirst = sqlite3_column_double(p->last, 2);
		*wlast = sqlite3_column_double(p->last, 3);
		/* Format 4: ticks before the first found and after the first kept are lost:
		 * a replay starts at the first kept, to count them. */
		if (p->fmt >= RECFMT_SUMMED) {
			int64_t kept = recsql_first_kept(p->db);
			if (kept < (int64_t)*first)
				*first = (uint64_t)kept;
		}
		rc = 0;
	}
	sqlite3_reset(p->last);
	return rc;
}

static int one_seq(sqlite3_stmt *st, uint64_t *out)
{
	int rc = -ENOENT;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*out = (uint64_t)sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_reset(st);
	return rc;
}

static int replay_sql_next(struct replay *p, uint64_t seq, uint64_t *out)
{
	sqlite3_bind_int64(p->next, 1, (int64_t)seq);
	int rc = one_seq(p->next, out);
	return rc == 0 && (int64_t)*out > (int64_t)seq ? 0 : -ENOENT;
}

bool replay_unclosed(const struct replay *p)
{
	return p->unclosed;
}

uint64_t replay_missing_upto(const struct replay *p, uint64_t seq)
{
	return p->missing_upto > (int64_t)seq ? (uint64_t)p->missing_upto : seq;
}

int replay_step(struct replay *p, uint64_t seq, int dir, uint64_t *out)
{
	if (dir > 0 && p->missing_upto > (int64_t)seq)
		seq = (uint64_t)p->missing_upto; /* the ticks missing after it are counted */
	/* Format 4: each tick up to the recorder's last in turn, so that one a damaged
	 * b-tree hides is counted lost, not passed over. */
	if (dir > 0 && p->fmt >= RECFMT_SUMMED && (int64_t)seq >= 0 &&
	    (int64_t)seq < p->expect_last) {
		*out = seq + 1;
		return 0;
	}
	sqlite3_stmt *st = dir > 0 ? p->next : p->prev;
	sqlite3_bind_int64(st, 1, (int64_t)seq);
	uint64_t to;
	int rc = one_seq(st, &to);
	/* A damaged b-tree can answer seq itself, or one behind it: stepping on would never
	 * end. Signed, as SQLite orders them (a damaged file can hold seq -94). */
	if (rc == 0 && (dir > 0 ? (int64_t)to <= (int64_t)seq : (int64_t)to >= (int64_t)seq))
		rc = -ENOENT;
	if (rc == 0)
		*out = to;
	return rc;
}

int replay_find(struct replay *p, double wall, uint64_t *out)
{
	sqlite3_bind_double(p->find, 1, wall);
	int rc = sqlite3_step(p->find);
	bool found = rc == SQLITE_ROW;
	/* The index answers with its own copy of the wall time: one that is not the
	 * tick's, or an error, is a damaged index; then the ticks are read, not it. */
	if (found && sqlite3_column_double(p->find, 1) == sqlite3_column_double(p->find, 2) &&
	    sqlite3_column_double(p->find, 1) >= wall) {
		*out = (uint64_t)sqlite3_column_int64(p->find, 0);
		sqlite3_reset(p->find);
		return 0;
	}
	sqlite3_reset(p->find);
	if (found || rc != SQLITE_DONE) {
		if (!*p->lost)
			snprintf(
				p->lost, sizeof(p->lost),
				"%s: damaged recording: its index of ticks by time (ticks_wall) is "
				"damaged: the ticks are found by reading them all",
				p->path);
		char sql[128];
		snprintf(sql, sizeof(sql),
			 "SELECT seq FROM ticks NOT INDEXED WHERE wall >= %.17g ORDER BY wall, seq"
			 " LIMIT 1",
			 wall);
		int64_t seq = recsql_int(p->db, sql, &rc);
		if (rc == SQLITE_OK && seq >= 0) {
			*out = (uint64_t)seq;
			return 0;
		}
	}
	uint64_t a;
	double wa, wb;
	return replay_span(p, &a, out, &wa, &wb);
}

static int load_header(struct replay *p, int64_t id, char *err, size_t len)
{
	if (id == p->header_id)
		return 0;
	free_header(p);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    p->db,
		    "SELECT host, kernel, ncpus, pmus, notice, backend FROM headers WHERE id = ?",
		    -1, &st, NULL) != SQLITE_OK)
		return replay_damaged(p, err, len, sqlite3_errmsg(p->db));
	sqlite3_bind_int64(st, 1, id);
	int rc = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		p->host = dup_col(st, 0);
		p->kernel = dup_col(st, 1);
		p->ncpus = sqlite3_column_int(st, 2);
		p->pmus = dup_col(st, 3);
		p->notice = dup_col(st, 4);
		p->backend = dup_col(st, 5);
		p->header_id = id;
		char body[4096];
		p->header_sum = recfmt_text_sum(recfmt_header_body(body, sizeof(body), p->host,
								   p->kernel, p->ncpus, p->pmus,
								   p->notice, p->backend));
	} else {
		rc = replay_damaged(p, err, len, "a tick's header is missing");
	}
	sqlite3_finalize(st);
	return rc;
}

static int check_evset(struct replay *p, char *err, size_t len)
{
	unsigned next = 0;
	for (unsigned g = 0; g < p->ngroups; g++) {
		if (p->groups[g].first != next || p->groups[g].n > p->nevents - next)
			return replay_damaged(p, err, len, "event groups do not fit the events");
		next += p->groups[g].n;
	}
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct mevent *e = &p->events[i];
		if (e->group >= p->ngroups || e->role >= ROLE_COUNT || e->nsum > 4 ||
		    (!e->logical && (e->member >= p->groups[e->group].n ||
				     p->groups[e->group].first + e->member != i)))
			return replay_damaged(p, err, len, "an event is outside its group");
		for (unsigned k = 0; k < e->nsum; k++)
			if (e->sum[k] >= p->nevents)
				return replay_damaged(p, err, len,
						      "an event sums events that do not exist");
	}
	return 0;
}

static int load_evset(struct replay *p, int64_t id, char *err, size_t len)
{
	if (id == p->evset_id)
		return 0;
	free_evset(p);
	int rc;
	char sql[160];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM events WHERE evset = %lld", (long long)id);
	int64_t ne = recsql_int(p->db, sql, &rc);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM groups WHERE evset = %lld", (long long)id);
	int64_t ng = recsql_int(p->db, sql, &rc);
	if (rc != SQLITE_OK || ne < 0 || ng < 0 || ne > 4096 || ng > ne)
		return replay_damaged(p, err, len, "an event set cannot be read");
	p->events = calloc((size_t)ne + 1, sizeof(*p->events));
	p->names = calloc(2 * (size_t)ne + 1, sizeof(*p->names));
	p->groups = calloc((size_t)ng + 1, sizeof(*p->groups));
	if (!p->events || !p->names || !p->groups)
		return -ENOMEM;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    p->db,
		    "SELECT idx, name, key, grp, member, role, status, hardware, logical,"
		    " sums FROM events WHERE evset = ? ORDER BY idx",
		    -1, &st, NULL) != SQLITE_OK)
		return replay_damaged(p, err, len, sqlite3_errmsg(p->db));
	sqlite3_bind_int64(st, 1, id);
	unsigned n = 0;
	rc = 0;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		struct mevent *e = &p->events[n];
		if (n >= ne || sqlite3_column_int64(st, 0) != n) {
			rc = replay_damaged(p, err, len, "events are not numbered in order");
			break;
		}
		p->names[2 * n] = dup_col(st, 1);
		p->names[2 * n + 1] = dup_col(st, 2);
		p->nevents = ++n;
		if (!p->names[2 * n - 2] || !p->names[2 * n - 1]) {
			rc = replay_damaged(p, err, len, "an event has no name");
			break;
		}
		e->name = p->names[2 * n - 2];
		e->key = p->names[2 * n - 1];
		e->group = (unsigned)sqlite3_column_int(st, 3);
		e->member = (unsigned)sqlite3_column_int(st, 4);
		e->role = (enum ev_role)(unsigned)sqlite3_column_int(st, 5);
		e->status = (uint8_t)sqlite3_column_int(st, 6);
		e->hardware = sqlite3_column_int(st, 7) != 0;
		e->logical = sqlite3_column_int(st, 8) != 0;
		e->nsum = recfmt_parse_sums((const char *)sqlite3_column_text(st, 9), e->sum);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(
		    p->db, "SELECT idx, first, n, user FROM groups WHERE evset = ? ORDER BY idx",
		    -1, &st, NULL) != SQLITE_OK)
		return replay_damaged(p, err, len, sqlite3_errmsg(p->db));
	sqlite3_bind_int64(st, 1, id);
	unsigned g = 0;
	while (sqlite3_step(st) == SQLITE_ROW && g < ng) {
		if (sqlite3_column_int64(st, 0) != g)
			break;
		p->groups[g].first = (unsigned)sqlite3_column_int(st, 1);
		p->groups[g].n = (unsigned)sqlite3_column_int(st, 2);
		p->groups[g].user = sqlite3_column_int(st, 3) != 0;
		p->user = p->user || p->groups[g].user;
		g++;
	}
	sqlite3_finalize(st);
	p->ngroups = g;
	if (n != ne || g != ng)
		return replay_damaged(p, err, len, "an event set is incomplete");
	if ((rc = check_evset(p, err, len)))
		return rc;
	char *body = recfmt_evset_body(p->events, p->nevents, p->groups, p->ngroups);
	if (!body)
		return -ENOMEM;
	p->evset_sum = recfmt_text_sum(body);
	free(body);
	p->evset_id = id;
	return 0;
}

static int replay_sql_next(struct replay *p, uint64_t seq, uint64_t *out);

/* Tick seq not read (rc from its step): damage where the recording must hold it (the
 * ticks missing from it up to the next one found in p->missing_upto), else -ENOENT. */
static int tick_not_found(struct replay *p, uint64_t seq, int rc, char *err, size_t errlen)
{
	if (rc != SQLITE_DONE)
		return replay_damaged(p, err, errlen, sqlite3_errmsg(p->db));
	/* Format 4: a tick from the first kept (meta('first'), 1 when none was
	 * pruned) to the recorder's last was written: not finding it is damage. */
	if (p->fmt >= RECFMT_SUMMED && (int64_t)seq <= p->expect_last &&
	    (int64_t)seq >= recsql_first_kept(p->db)) {
		/* Every tick up to the next one found is missing too: lost at once. */
		uint64_t next = 0;
		p->missing_upto = (int64_t)seq;
		if (replay_sql_next(p, seq, &next) != 0 || (int64_t)next > p->expect_last)
			p->missing_upto = p->expect_last;
		else if (next > seq)
			p->missing_upto = (int64_t)next - 1;
		return replay_damaged(p, err, errlen, "ticks are missing");
	}
	return -ENOENT;
}

/* Room for the usual and summed values of p's events and groups. */
static int usual_room(struct replay *p)
{
	if (p->nusual < p->nevents + 1) {
		struct val *u = realloc(p->usual, (p->nevents + 1) * sizeof(*u));
		if (u)
			p->usual = u;
		struct val *sv = u ? realloc(p->sv, (p->nevents + 1) * sizeof(*sv)) : NULL;
		if (sv) {
			p->sv = sv;
			p->nusual = p->nevents + 1;
		} else {
			return -ENOMEM;
		}
	}
	if (p->nsg < p->ngroups + 1) {
		struct val_delta *sg = realloc(p->sg, (p->ngroups + 1) * sizeof(*sg));
		if (sg) {
			p->sg = sg;
			p->nsg = p->ngroups + 1;
		} else {
			return -ENOMEM;
		}
	}
	return 0;
}

static int load_tick(struct replay *p, uint64_t seq, char *err, size_t errlen)
{
	p->missing_upto = 0;
	sqlite3_stmt *st = p->tick;
	sqlite3_bind_int64(st, 1, (int64_t)seq);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		return tick_not_found(p, seq, rc, err, errlen);
	}
	struct model m = {0};
	double wall = sqlite3_column_double(st, 0);
	m.tick = (uint64_t)sqlite3_column_int64(st, 1);
	m.time = sqlite3_column_double(st, 2);
	m.interval = sqlite3_column_double(st, 3);
	m.elapsed = sqlite3_column_double(st, 4);
	int64_t evset = sqlite3_column_int64(st, 5), header = sqlite3_column_int64(st, 6);
	int flags = sqlite3_column_int(st, 7);
	m.exit_status = sqlite3_column_int(st, 8);
	m.ntasks = (unsigned)sqlite3_column_int64(st, 9);
	m.nfd_short = (unsigned)sqlite3_column_int64(st, 10);
	char *idle = dup_col(st, 11);
	const void *blob = sqlite3_column_blob(st, 12);
	size_t reclen = (size_t)sqlite3_column_bytes(st, 12);
	int64_t key = sqlite3_column_int64(st, 13);
	struct recfmt_tick sum = {
		.seq = (int64_t)seq,
		.wall = wall,
		.tick = (int64_t)m.tick,
		.time = m.time,
		.interval = m.interval,
		.elapsed = m.elapsed,
		.evset = evset,
		.header = header,
		.flags = sqlite3_column_int64(st, 7),
		.exit_status = sqlite3_column_int64(st, 8),
		.ntasks = sqlite3_column_int64(st, 9),
		.nfd_short = sqlite3_column_int64(st, 10),
		.idle = sqlite3_column_int64(st, 15),
		.key = key,
	};
	uint32_t ck = (uint32_t)sqlite3_column_int64(st, 14);
	bool ck_ok = sqlite3_column_int64(st, 14) == (int64_t)ck;
	rc = 0;
	if (reclen > p->reccap) {
		unsigned char *b = realloc(p->rec, reclen);
		if (b) {
			p->rec = b;
			p->reccap = reclen;
		} else {
			rc = -ENOMEM;
		}
	}
	if (!rc && reclen)
		memcpy(p->rec, blob, reclen);
	sqlite3_reset(st);
	if (!idle || rc) {
		free(idle);
		return rc ? rc : replay_damaged(p, err, errlen, "a tick without its usual cells");
	}
	rc = load_header(p, header, err, errlen);
	if (!rc)
		rc = load_evset(p, evset, err, errlen);
	if (!rc)
		rc = usual_room(p);
	if (!rc && recfmt_parse_cells(idle, p->usual, p->nevents))
		rc = replay_damaged(p, err, errlen, "a tick's usual cells cannot be read");
	sum.cells_sum = recfmt_text_sum(idle);
	sum.header_sum = p->header_sum;
	sum.evset_sum = p->evset_sum;
	free(idle);
	if (rc)
		return rc;
	m.hostname = p->host;
	m.kernel = p->kernel;
	m.ncpus = p->ncpus;
	m.pmus = p->pmus;
	m.notice = p->notice;
	m.backend = p->backend;
	m.paused = flags & 1;
	m.user_only = flags & 2;
	m.threads = flags & 4;
	m.final = flags & 8;
	m.nevents = p->nevents;
	m.events = p->events;
	m.ngroups = p->ngroups;
	m.groups = p->groups;
	m.metrics = p->metrics;
	p->m = m;
	p->seq = seq;
	p->wall = wall;
	p->reclen = reclen;
	p->key = key;
	rc = replay_rows(p, err, errlen);
	/* Format 4: what was read is what was written, or the tick is lost (and, when its
	 * chunk is the damage, the rest of its block). */
	if (!rc && p->fmt >= RECFMT_SUMMED) {
		sum.chunks_sum = p->blk_sum;
		if (!ck_ok || recfmt_tick_sum(&sum) != ck) {
			p->blk.key = p->blk.seq = -1;
			rc = replay_damaged(p, err, errlen, "a tick fails its checksum");
		}
	}
	if (rc) {
		p->m.nrows = p->m.ncpu_rows = p->m.ncg_rows = 0;
		return rc;
	}
	return 0;
}

/* The tick, its block's ticks before it and its tasks read in one snapshot: a recorder
 * pruning meanwhile takes the tick whole or not at all (-ENOENT). */
int replay_load(struct replay *p, uint64_t seq, char *err, size_t errlen)
{
	bool txn = sqlite3_get_autocommit(p->db) &&
		   sqlite3_exec(p->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	int rc = load_tick(p, seq, err, errlen);
	if (txn)
		sqlite3_exec(p->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

const char *replay_notice(const struct replay *p)
{
	return p->lost;
}

int replay_sql(struct replay *p, const char *sql, FILE *out, char *err, size_t errlen)
{
	return recsql_query(p->db, sql, out, err, errlen);
}

const struct model *replay_model(const struct replay *p)
{
	return &p->m;
}

double replay_wall(const struct replay *p)
{
	return p->wall;
}

uint64_t replay_seq(const struct replay *p)
{
	return p->seq;
}

bool replay_user_events(const struct replay *p)
{
	return p->user;
}
