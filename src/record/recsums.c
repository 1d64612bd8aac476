/* The checksums of a format-4 recording's header, event set and meta rows, as the
 * recorder wrote them (recfmt.h), and the ticks it must hold (its meta): read back by the
 * replay and by `readings`. */
#include "recsql.h"

#include <errno.h>
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

#include "recfmt.h"

int recsql_header_sum(sqlite3 *db, int64_t id, uint32_t *out)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT host, kernel, ncpus, pmus, notice, backend FROM headers WHERE id = ?",
		    -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	int rc = -ENOENT;
	if (sqlite3_step(st) == SQLITE_ROW) {
		char body[4096];
		const char *col[6];
		for (int i = 0; i < 6; i++)
			col[i] = (const char *)sqlite3_column_text(st, i);
		*out = recfmt_text_sum(recfmt_header_body(body, sizeof(body), col[0], col[1],
							  sqlite3_column_int(st, 2), col[3], col[4],
							  col[5]));
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* crc32 over text (NULL: out of memory) and frees it; the sum goes on from c. */
static int sum_text(uLong *c, char *text, bool nul)
{
	if (!text)
		return -ENOMEM;
	*c = crc32(*c, (const Bytef *)text, (uInt)(strlen(text) + (nul ? 1 : 0)));
	free(text);
	return 0;
}

int recsql_evset_sum(sqlite3 *db, int64_t id, uint32_t *out)
{
	sqlite3_stmt *ev = NULL, *gr = NULL;
	struct mgroup *g = NULL;
	unsigned ng = 0, gcap = 0;
	uLong c = crc32(0L, Z_NULL, 0);
	int rc = -EIO;
	if (sqlite3_prepare_v2(db,
			       "SELECT name, key, grp, member, role, status, hardware, logical,"
			       " sums FROM events WHERE evset = ? ORDER BY idx",
			       -1, &ev, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT first, n, user FROM groups WHERE evset = ? ORDER BY idx",
			       -1, &gr, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(ev, 1, id);
	sqlite3_bind_int64(gr, 1, id);
	/* recfmt_evset_body's text summed an event at a time, then the groups. */
	rc = 0;
	for (unsigned n = 0; !rc && n < 4096 && sqlite3_step(ev) == SQLITE_ROW; n++) {
		struct mevent x = {
			.name = (const char *)sqlite3_column_text(ev, 0),
			.key = (const char *)sqlite3_column_text(ev, 1),
			.group = (unsigned)sqlite3_column_int(ev, 2),
			.member = (unsigned)sqlite3_column_int(ev, 3),
			.role = (enum ev_role)(unsigned)sqlite3_column_int(ev, 4),
			.status = (uint8_t)sqlite3_column_int(ev, 5),
			.hardware = sqlite3_column_int(ev, 6) != 0,
			.logical = sqlite3_column_int(ev, 7) != 0,
		};
		x.nsum = recfmt_parse_sums((const char *)sqlite3_column_text(ev, 8), x.sum);
		rc = !x.name || !x.key ? -EIO
				       : sum_text(&c, recfmt_evset_body(&x, 1, NULL, 0), false);
	}
	while (!rc && ng < 4096 && sqlite3_step(gr) == SQLITE_ROW) {
		if (ng == gcap) {
			gcap = gcap ? 2 * gcap : 8;
			struct mgroup *m = realloc(g, gcap * sizeof(*m));
			if (!m) {
				rc = -ENOMEM;
				break;
			}
			g = m;
		}
		g[ng].first = (unsigned)sqlite3_column_int(gr, 0);
		g[ng].n = (unsigned)sqlite3_column_int(gr, 1);
		g[ng].user = sqlite3_column_int(gr, 2) != 0;
		ng++;
	}
	if (!rc)
		rc = sum_text(&c, recfmt_evset_body(NULL, 0, g, ng), true);
	if (!rc)
		*out = (uint32_t)c;
out:
	sqlite3_finalize(ev);
	sqlite3_finalize(gr);
	free(g);
	return rc;
}

int recsql_meta_sum(sqlite3 *db, uint32_t *out)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta WHERE key <> 'sum' ORDER BY key",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	uLong c = crc32(0L, Z_NULL, 0);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < 2; i++) {
			unsigned char type = (unsigned char)sqlite3_column_type(st, i);
			const unsigned char *t = sqlite3_column_text(st, i);
			c = crc32(c, &type, 1);
			if (t)
				c = crc32(c, t, (uInt)strlen((const char *)t) + 1);
		}
	}
	sqlite3_finalize(st);
	*out = (uint32_t)c;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int64_t recsql_int(sqlite3 *db, const char *sql, int *rc)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	*rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return -1;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW) {
		v = sqlite3_column_int64(st, 0);
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return v;
}

int recsql_meta_check(sqlite3 *db, int64_t *last)
{
	int rc;
	uint32_t sum;
	*last = 0;
	int64_t want = recsql_int(db, "SELECT value FROM meta WHERE key = 'sum'", &rc);
	if (rc == SQLITE_DONE) {
		/* No sum and no tick: a recorder stopped (killed, or still starting) before
		 * its first tick, which writes the sum. */
		sqlite3_stmt *st;
		bool none = sqlite3_prepare_v2(db, "SELECT 1 FROM ticks NOT INDEXED LIMIT 1", -1,
					       &st, NULL) == SQLITE_OK &&
			    sqlite3_step(st) == SQLITE_DONE;
		sqlite3_finalize(st);
		if (none)
			return 0;
	}
	if (recsql_meta_sum(db, &sum) || rc != SQLITE_OK || want != (int64_t)sum)
		return -EIO;
	int64_t l = recsql_int(db, "SELECT value FROM meta WHERE key = 'last'", &rc);
	*last = rc == SQLITE_OK && l > 0 ? l : 0;
	return 0;
}

int64_t recsql_first_kept(sqlite3 *db)
{
	int rc;
	int64_t first = recsql_int(db, "SELECT value FROM meta WHERE key = 'first'", &rc);
	return rc == SQLITE_OK && first >= 1 ? first : 1;
}
