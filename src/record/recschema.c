/* The recording's schema and what grows or trims it: the tables, the header and
 * event-set rows, and pruning. */
#include "record_priv.h"

#include "metricbind.h"
#include "recsql.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char rec_schema[] =
	"PRAGMA page_size = 16384;"
	"PRAGMA auto_vacuum = INCREMENTAL;"
	"PRAGMA journal_mode = WAL;"
	"BEGIN;"
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
	"CREATE TABLE headers(id INTEGER PRIMARY KEY, host TEXT, kernel TEXT, ncpus INTEGER,"
	" pmus TEXT, notice TEXT, backend TEXT);"
	"CREATE TABLE evsets(id INTEGER PRIMARY KEY, nevents INTEGER NOT NULL,"
	" ngroups INTEGER NOT NULL, body TEXT NOT NULL);"
	"CREATE TABLE events(evset INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL,"
	" key TEXT NOT NULL, grp INTEGER NOT NULL, member INTEGER NOT NULL,"
	" role INTEGER NOT NULL, status INTEGER NOT NULL, hardware INTEGER NOT NULL,"
	" logical INTEGER NOT NULL, sums TEXT, PRIMARY KEY(evset, idx)) WITHOUT ROWID;"
	"CREATE TABLE groups(evset INTEGER NOT NULL, idx INTEGER NOT NULL,"
	" first INTEGER NOT NULL, n INTEGER NOT NULL, user INTEGER NOT NULL,"
	" PRIMARY KEY(evset, idx)) WITHOUT ROWID;"
	"CREATE TABLE ticks(seq INTEGER PRIMARY KEY, wall REAL NOT NULL, tick INTEGER NOT NULL,"
	" time REAL, interval REAL, elapsed REAL, evset INTEGER NOT NULL,"
	" header INTEGER NOT NULL, flags INTEGER NOT NULL, exit_status INTEGER,"
	" ntasks INTEGER, nfd_short INTEGER, idle INTEGER NOT NULL, rows BLOB NOT NULL,"
	" key INTEGER NOT NULL, ck INTEGER NOT NULL);"
	"CREATE INDEX ticks_wall ON ticks(wall);"
	"CREATE TABLE cells(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);"
	"INSERT INTO meta VALUES('format', 4), ('created_by', 'pmutop " PMUTOP_VERSION "');"
	"PRAGMA application_id = 1886221684;" /* RECFMT_APP_ID */
	"PRAGMA user_version = 4;"	      /* RECFMT_VERSION, and meta's format */
	"COMMIT;";

/* The header's facts, interned: a new headers row when one changes. */
int rec_put_header(struct recorder *r, const struct model *m)
{
	char body[4096], nb[2560];
	/* The notice as shown: a replay's model holds it whole. */
	const char *notice = *model_notice_text(m, nb, sizeof(nb)) ? nb : NULL;
	recfmt_header_body(body, sizeof(body), m->hostname, m->kernel, m->ncpus, m->pmus, notice,
			   m->backend);
	if (r->header_body && strcmp(body, r->header_body) == 0)
		return 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(r->db,
			       "INSERT INTO headers(host, kernel, ncpus, pmus, notice, backend)"
			       " VALUES(?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	rec_bind_text(st, 1, m->hostname);
	rec_bind_text(st, 2, m->kernel);
	sqlite3_bind_int(st, 3, m->ncpus);
	rec_bind_text(st, 4, m->pmus);
	rec_bind_text(st, 5, notice);
	rec_bind_text(st, 6, m->backend);
	int rc = rec_step_done(st);
	sqlite3_finalize(st);
	if (rc)
		return rc;
	char *copy = strdup(body);
	if (!copy)
		return -ENOMEM;
	free(r->header_body);
	r->header_body = copy;
	r->header_sum = recfmt_text_sum(body);
	r->header_id = sqlite3_last_insert_rowid(r->db);
	return 0;
}

/* meta('sum'): the crc32 of meta's other rows (recsql_meta_sum), after any of them
 * changed. */
int rec_put_meta_sum(struct recorder *r)
{
	uint32_t sum;
	if (recsql_meta_sum(r->db, &sum))
		return -EIO;
	char sql[96];
	snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO meta VALUES('sum', %u)", sum);
	return rec_exec(r->db, sql);
}

int rec_put_metrics(struct recorder *r, const struct model *m)
{
	if (r->metrics_saved || !m->metrics)
		return 0;
	char *text = metric_bind_save(m->metrics);
	sqlite3_stmt *st = NULL;
	int rc = text ? -EIO : -ENOMEM;
	if (text && sqlite3_prepare_v2(r->db, "INSERT OR REPLACE INTO meta VALUES('metrics', ?)",
				       -1, &st, NULL) == SQLITE_OK) {
		rec_bind_text(st, 1, text);
		rc = rec_step_done(st);
	}
	sqlite3_finalize(st);
	free(text);
	r->metrics_saved = rc == 0;
	r->metrics_new = rc == 0;
	return rc;
}

int rec_put_evset(struct recorder *r, const struct model *m)
{
	char *body = recfmt_evset_body(m->events, m->nevents, m->groups, m->ngroups);
	if (!body)
		return -ENOMEM;
	if (r->evset_body && strcmp(body, r->evset_body) == 0) {
		free(body);
		return 0;
	}
	sqlite3_stmt *st = NULL, *ev = NULL, *gr = NULL;
	int rc = -EIO;
	if (sqlite3_prepare_v2(r->db, "INSERT INTO evsets(nevents, ngroups, body) VALUES(?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &ev, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO groups VALUES(?, ?, ?, ?, ?)", -1, &gr, NULL) !=
		    SQLITE_OK)
		goto out;
	sqlite3_bind_int(st, 1, (int)m->nevents);
	sqlite3_bind_int(st, 2, (int)m->ngroups);
	rec_bind_text(st, 3, body);
	if ((rc = rec_step_done(st)))
		goto out;
	int64_t id = sqlite3_last_insert_rowid(r->db);
	for (unsigned i = 0; i < m->nevents && !rc; i++) {
		const struct mevent *e = &m->events[i];
		char sums[64] = "";
		for (unsigned k = 0, n = 0; k < e->nsum && k < 4; k++)
			n += (unsigned)snprintf(sums + n, sizeof(sums) - n, "%s%u", k ? "," : "",
						e->sum[k]);
		sqlite3_bind_int64(ev, 1, id);
		sqlite3_bind_int(ev, 2, (int)i);
		rec_bind_text(ev, 3, e->name);
		rec_bind_text(ev, 4, e->key);
		sqlite3_bind_int(ev, 5, (int)e->group);
		sqlite3_bind_int(ev, 6, (int)e->member);
		sqlite3_bind_int(ev, 7, (int)e->role);
		sqlite3_bind_int(ev, 8, e->status);
		sqlite3_bind_int(ev, 9, e->hardware);
		sqlite3_bind_int(ev, 10, e->logical);
		rec_bind_text(ev, 11, e->logical ? sums : NULL);
		rc = rec_step_done(ev);
	}
	for (unsigned g = 0; g < m->ngroups && !rc; g++) {
		sqlite3_bind_int64(gr, 1, id);
		sqlite3_bind_int(gr, 2, (int)g);
		sqlite3_bind_int(gr, 3, (int)m->groups[g].first);
		sqlite3_bind_int(gr, 4, (int)m->groups[g].n);
		sqlite3_bind_int(gr, 5, m->groups[g].user);
		rc = rec_step_done(gr);
	}
	if (!rc) {
		free(r->evset_body);
		r->evset_body = body;
		r->evset_sum = recfmt_text_sum(body);
		body = NULL;
		r->evset_id = id;
	}
out:
	free(body);
	sqlite3_finalize(st);
	sqlite3_finalize(ev);
	sqlite3_finalize(gr);
	return rc;
}

/* The ticks up to cut go, whole blocks at a time: a block is read from its key, so the
 * one cut falls in stays (the first tick after cut tells its key). Returns the ticks
 * deleted, or -1. */
static int64_t prune_upto(struct recorder *r, int64_t cut)
{
	char sql[256];
	if (cut <= 0)
		return 0;
	snprintf(sql, sizeof(sql),
		 "DELETE FROM ticks WHERE seq < (SELECT key FROM ticks WHERE seq > %lld"
		 " ORDER BY seq LIMIT 1)",
		 (long long)cut);
	if (rec_exec(r->db, sql))
		return -1;
	return sqlite3_changes(r->db);
}

/* The oldest block goes, whatever its length; the tick's own block never. Returns the
 * ticks deleted (0: only the tick's block is left), or -1. */
static int64_t prune_oldest(struct recorder *r)
{
	char sql[256];
	snprintf(sql, sizeof(sql),
		 "DELETE FROM ticks WHERE seq < (SELECT min(key) FROM ticks WHERE key >"
		 " (SELECT key FROM ticks ORDER BY seq LIMIT 1)) AND seq < %lld",
		 (long long)r->key);
	if (rec_exec(r->db, sql))
		return -1;
	return sqlite3_changes(r->db);
}

/* --retain and --max-size: the oldest ticks go, inside this tick's transaction. */
int rec_prune(struct recorder *r, double wall, bool *freed)
{
	*freed = false;
	if (r->o.retain_days > 0) {
		char sql[128];
		snprintf(sql, sizeof(sql),
			 "SELECT coalesce(max(seq), 0) FROM ticks WHERE wall < %.3f",
			 wall - r->o.retain_days * 86400.0);
		int64_t cut = rec_pragma_int(r->db, sql);
		if (cut > 0) {
			int64_t n = prune_upto(r, cut);
			if (n < 0)
				return -EIO;
			*freed = n > 0;
		}
	}
	bool pruned = *freed;
	if (r->o.max_size == 0)
		goto done;
	/* The file's pages down to nine tenths of what the WAL leaves of the size, a tenth
	 * of the ticks at a time (their rows are most of the file), whole blocks; the
	 * newest tick's block always stays. */
	int64_t page = rec_pragma_int(r->db, "PRAGMA page_size");
	uint64_t room = r->o.max_size - r->wal_cap;
	for (int round = 0; page > 0; round++) {
		int64_t used = rec_pragma_int(r->db, "PRAGMA page_count") -
			       rec_pragma_int(r->db, "PRAGMA freelist_count");
		uint64_t goal = round == 0 ? room : room / 10 * 9;
		if ((uint64_t)(used * page) <= goal)
			break;
		int64_t lo = rec_pragma_int(r->db, "SELECT coalesce(min(seq), 0) FROM ticks");
		int64_t hi = rec_pragma_int(r->db, "SELECT coalesce(max(seq), 0) FROM ticks");
		int64_t cut = lo + (hi - lo) / 10;
		int64_t n = cut < hi ? prune_upto(r, cut) : 0;
		if (n == 0)
			n = prune_oldest(r);
		if (n < 0)
			return -EIO;
		pruned = pruned || n > 0;
		if (n == 0) {
			/* The tick's block alone: over the size only if its one tick does not
			 * fit at all; else the next tick starts a block, and this one can go. */
			if ((uint64_t)(used * page) > room && hi == r->key) {
				r->need = (uint64_t)(used * page) + r->wal_cap;
				return -EFBIG;
			}
			r->newblock = true;
			break;
		}
	}
	/* Under --max-size the pages pruned are the next ticks' (the file stays at its
	 * size): giving them back would move pages and write them all into the WAL. Only a
	 * file larger than the size (a smaller --max-size than before) shrinks. */
	*freed = (uint64_t)(rec_pragma_int(r->db, "PRAGMA page_count") * page) > room;
done:
	/* meta('first'): the first tick kept, for a replay to tell ticks pruned from ticks a
	 * damaged b-tree lost (absent: 1, nothing was pruned). */
	if (pruned &&
	    (rec_exec(r->db, "INSERT OR REPLACE INTO meta SELECT 'first', min(seq) FROM ticks") ||
	     rec_put_meta_sum(r)))
		return -EIO;
	return 0;
}

int rec_bound_wal(struct recorder *r, char *err, size_t errlen)
{
	if (r->o.max_size == 0)
		return 0;
	int64_t page = rec_pragma_int(r->db, "PRAGMA page_size");
	/* An empty recording: a page a table and index, the first page and a pointer map. */
	int64_t pages =
		rec_pragma_int(r->db, "SELECT count(*) + 2 FROM sqlite_schema WHERE rootpage > 0");
	if (page <= 0 || pages < 0)
		return -EIO;
	/* A quarter of the size, at least 32 pages, at most 64 MiB: checkpoints at a quarter
	 * of it leave room for a tick's own pages and a prune's (a dozen pages here). */
	uint64_t least_wal = 32 * (uint64_t)page;
	r->wal_cap = r->o.max_size / 4;
	if (r->wal_cap < least_wal)
		r->wal_cap = least_wal;
	if (r->wal_cap > 64u << 20)
		r->wal_cap = 64u << 20;
	uint64_t empty = (uint64_t)(pages * page) + r->wal_cap;
	if (r->o.max_size < empty) {
		uint64_t least = (uint64_t)(pages * page) * 4 / 3 + 1;
		if (least < (uint64_t)(pages * page) + least_wal)
			least = (uint64_t)(pages * page) + least_wal;
		snprintf(err, errlen,
			 "--max-size %llu KiB: a recording takes at least %llu KiB here (its "
			 "tables and the WAL's share, before a tick): give more",
			 (unsigned long long)(r->o.max_size >> 10),
			 (unsigned long long)(least >> 10));
		return -EFBIG;
	}
	char sql[160];
	snprintf(sql, sizeof(sql),
		 "PRAGMA wal_autocheckpoint = %llu; PRAGMA journal_size_limit = %llu",
		 (unsigned long long)(r->wal_cap / 4 / (uint64_t)page),
		 (unsigned long long)(r->wal_cap / 4));
	return rec_exec(r->db, sql);
}

void rec_trim_wal(struct recorder *r, bool freed)
{
	if (r->o.max_size == 0)
		return;
	struct stat sb;
	size_t n = strlen(r->path) + 8;
	char *wal = malloc(n);
	if (!wal)
		return;
	snprintf(wal, n, "%s-wal", r->path);
	if (freed || (stat(wal, &sb) == 0 && (uint64_t)sb.st_size > r->wal_cap / 4))
		rec_exec(r->db, "PRAGMA wal_checkpoint(TRUNCATE)");
	free(wal);
}
