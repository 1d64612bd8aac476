/* What replay can still read of a recording cut short (recsalvage.h). */
#include "recsalvage.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recfmt.h"
#include "recsql.h"

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* What SQLite's error hides when the file was cut short: the header's page count (valid
 * when its change counter says so) against the bytes there. */
const char *recsalvage_cut_short(const char *path, const char *why, char *buf, size_t len)
{
	unsigned char h[100];
	struct stat sb;
	FILE *f = fopen(path, "rbe");
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0;
	if (f)
		fclose(f);
	/* With a -wal holding pages the file alone may be shorter than its header says. */
	if (n != sizeof(h) || stat(path, &sb) < 0 || be32(h + 24) != be32(h + 92) ||
	    recsql_wal_pending(path))
		return why;
	uint64_t page = h[16] << 8 | h[17];
	page = page == 1 ? 65536 : page;
	uint64_t want = page * be32(h + 28);
	if ((uint64_t)sb.st_size >= want || page < 512)
		return why;
	snprintf(buf, len, "%s%llu of its %llu bytes are there (%llu of %llu pages)",
		 why ? "cut short: " : "", (unsigned long long)sb.st_size, (unsigned long long)want,
		 (unsigned long long)((uint64_t)sb.st_size / page),
		 (unsigned long long)(want / page));
	return buf;
}

/* The rows of select into main's table through ins, as far as SQLite reads them. */
static void salvage_rows(sqlite3 *mem, const char *select, sqlite3_stmt *ins, int n)
{
	sqlite3_stmt *sel;
	if (sqlite3_prepare_v2(mem, select, -1, &sel, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(sel) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
		sqlite3_step(ins);
		sqlite3_reset(ins);
	}
	sqlite3_finalize(sel);
}

/* The rowids of table t that SQLite can read, by any path (its own tree both ways, an
 * index), into *keys. Returns how many, or -1 for a table without rowid. */
static long salvage_keys(sqlite3 *mem, const char *t, int64_t **keys)
{
	static const char *const how[] = {"", " ORDER BY rowid", " ORDER BY rowid DESC"};
	long n = 0, cap = 0;
	int64_t *k = NULL;
	*keys = NULL;
	for (int h = 0; h < 3; h++) {
		char sql[128];
		sqlite3_stmt *st;
		snprintf(sql, sizeof(sql), "SELECT rowid FROM d.\"%s\"%s", t, how[h]);
		if (sqlite3_prepare_v2(mem, sql, -1, &st, NULL) != SQLITE_OK) {
			if (h == 0)
				return -1; /* a table without rowid */
			break;
		}
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (n == cap) {
				int64_t *more =
					realloc(k, (size_t)(cap ? 2 * cap : 1024) * sizeof(*k));
				if (!more)
					break;
				k = more;
				cap = cap ? 2 * cap : 1024;
			}
			k[n++] = sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
	}
	*keys = k;
	return n;
}

/* Table t of the attached file d into main, every row SQLite can still read: a row at a
 * time by rowid (a missing page loses the rows on it, not the ones after it), or for a
 * table without rowid forwards until a page is missing, then backwards from the end. */
static void salvage_table(sqlite3 *mem, const char *t)
{
	char sql[192];
	sqlite3_stmt *ins, *sel;
	snprintf(sql, sizeof(sql), "SELECT * FROM d.\"%s\" LIMIT 0", t);
	if (sqlite3_prepare_v2(mem, sql, -1, &sel, NULL) != SQLITE_OK)
		return;
	int n = sqlite3_column_count(sel);
	sqlite3_finalize(sel);
	size_t k =
		(size_t)snprintf(sql, sizeof(sql), "INSERT OR IGNORE INTO main.\"%s\" VALUES(", t);
	for (int i = 0; i < n && k + 3 < sizeof(sql); i++)
		k += (size_t)snprintf(sql + k, sizeof(sql) - k, "%s?", i ? "," : "");
	snprintf(sql + k, sizeof(sql) - k, ")");
	if (sqlite3_prepare_v2(mem, sql, -1, &ins, NULL) != SQLITE_OK)
		return;
	int64_t *keys;
	long nk = salvage_keys(mem, t, &keys);
	if (nk < 0) {
		for (int dir = 0; dir < 2; dir++) {
			snprintf(sql, sizeof(sql), "SELECT * FROM d.\"%s\" ORDER BY 1 %s", t,
				 dir ? "DESC" : "ASC");
			salvage_rows(mem, sql, ins, n);
		}
	}
	snprintf(sql, sizeof(sql), "SELECT * FROM d.\"%s\" WHERE rowid = ?", t);
	if (nk > 0 && sqlite3_prepare_v2(mem, sql, -1, &sel, NULL) == SQLITE_OK) {
		for (long i = 0; i < nk; i++) {
			sqlite3_bind_int64(sel, 1, keys[i]);
			if (sqlite3_step(sel) == SQLITE_ROW) {
				for (int c = 0; c < n; c++)
					sqlite3_bind_value(ins, c + 1,
							   sqlite3_column_value(sel, c));
				sqlite3_step(ins);
				sqlite3_reset(ins);
			}
			sqlite3_reset(sel);
		}
		sqlite3_finalize(sel);
	}
	free(keys);
	sqlite3_finalize(ins);
}

/* A file cut short: what SQLite can still read of it, copied into a temporary database
 * (SQLite's own, on disk beyond its cache: a recording may be gigabytes), where the
 * replay reads it. Returns the copy, or NULL. */
sqlite3 *recsalvage_copy(const char *path)
{
	sqlite3 *mem = NULL;
	sqlite3_stmt *st = NULL;
	char *uri = recsql_immutable_uri(path);
	/* writable_schema: a table whose root page is past the end does not make SQLite
	 * refuse the whole schema (as in the shell's .dump). */
	if (!uri ||
	    sqlite3_open_v2("", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
			    NULL) != SQLITE_OK ||
	    sqlite3_exec(mem,
			 "PRAGMA writable_schema = ON; PRAGMA journal_mode = OFF;"
			 " PRAGMA synchronous = OFF",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(mem, "ATTACH ? AS d", -1, &st, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE ||
	    sqlite3_prepare_v2(mem,
			       "SELECT type, name, sql FROM d.sqlite_schema WHERE sql IS NOT NULL"
			       " AND type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'"
			       " ORDER BY type DESC",
			       -1, &st, NULL) != SQLITE_OK)
		goto fail;
	char names[16][32];
	int nt = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *sql = (const char *)sqlite3_column_text(st, 2);
		/* The file may be hostile: one plain CREATE TABLE or INDEX a row, named in
		 * letters and underscores, or nothing. */
		if (!type || !name || !sql || !*name || strlen(name) >= 32 ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz_") != strlen(name) ||
		    (strncmp(sql, "CREATE TABLE ", 13) != 0 &&
		     strncmp(sql, "CREATE INDEX ", 13) != 0))
			continue;
		sqlite3_stmt *mk = NULL;
		const char *tail = NULL;
		bool made = sqlite3_prepare_v2(mem, sql, -1, &mk, &tail) == SQLITE_OK && mk &&
			    tail && !*tail && sqlite3_step(mk) == SQLITE_DONE;
		sqlite3_finalize(mk);
		if (made && strcmp(type, "table") == 0 && nt < 16)
			snprintf(names[nt++], sizeof(names[0]), "%s", name);
	}
	sqlite3_finalize(st);
	st = NULL;
	/* No transaction around them (SQLite rolls one back at a corrupt page): a row a
	 * statement, cheap with no journal and no sync. */
	for (int i = 0; i < nt; i++)
		salvage_table(mem, names[i]);
	char sql[128];
	int rc1, rc2;
	int64_t app = recsql_int(mem, "PRAGMA d.application_id", &rc1);
	int64_t ver = recsql_int(mem, "PRAGMA d.user_version", &rc2);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %lld; PRAGMA user_version = %lld",
		 (long long)app, (long long)ver);
	if (rc1 != SQLITE_OK || rc2 != SQLITE_OK || sqlite3_exec(mem, sql, NULL, NULL, NULL) ||
	    sqlite3_exec(mem, "DETACH d; PRAGMA writable_schema = OFF", NULL, NULL, NULL))
		goto fail;
	free(uri);
	return mem;
fail:
	sqlite3_finalize(st);
	sqlite3_close(mem);
	free(uri);
	return NULL;
}
