/* The runner of --sql: a recording opened read-only (immutable when its -shm cannot be
 * made), one statement over it with the readings table (recsql.c), rows out as CSV. */
#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recsql.h"
#include "text.h"

/* The file's schema read: SQLITE_OK, or why the file cannot be read. */
static int probe(sqlite3 *db)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		rc = rc == SQLITE_ROW ? SQLITE_OK : sqlite3_extended_errcode(db);
	} else {
		rc = sqlite3_extended_errcode(db);
	}
	sqlite3_finalize(st);
	return rc;
}

char *recsql_immutable_uri(const char *path)
{
	size_t n = strlen(path);
	char *u = malloc(3 * n + 32), *o = u;
	if (!u)
		return NULL;
	o += sprintf(o, "file:");
	for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
		if (*s == '%' || *s == '?' || *s == '#' || *s < 0x21 || *s > 0x7e)
			o += sprintf(o, "%%%02X", *s);
		else
			*o++ = (char)*s;
	}
	strcpy(o, "?immutable=1");
	return u;
}

bool recsql_wal_pending(const char *path)
{
	struct stat sb;
	size_t n = strlen(path) + 8;
	char *wal = malloc(n);
	if (!wal)
		return true;
	snprintf(wal, n, "%s-wal", path);
	bool pending = stat(wal, &sb) == 0 && sb.st_size > 0;
	free(wal);
	return pending;
}

int recsql_open(const char *path, sqlite3 **out, char *err, size_t errlen)
{
	struct stat sb;
	*out = NULL;
	if (stat(path, &sb) < 0 || access(path, R_OK) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: is a directory: give the recording's file", path);
		return -EISDIR;
	}
	if (!S_ISREG(sb.st_mode)) { /* a FIFO's open would wait for a writer */
		snprintf(err, errlen, "%s: not a regular file: give the recording's file", path);
		return -EINVAL;
	}
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db, 2000);
	int rc = probe(db);
	if ((rc & 0xff) != SQLITE_CANTOPEN && (rc & 0xff) != SQLITE_READONLY) {
		*out = db;
		return 0;
	}
	/* A WAL-mode file whose -shm cannot be made (a read-only medium or directory): with
	 * no -wal beside it every tick is in the file, which is then read as immutable. */
	sqlite3_close(db);
	db = NULL;
	if (recsql_wal_pending(path)) {
		snprintf(err, errlen,
			 "%s: its newest ticks are in %s-wal, which needs a %s-shm that cannot be "
			 "made here (a read-only medium or directory): copy both files to a "
			 "writable directory and replay the copy",
			 path, path, path);
		return -EROFS;
	}
	char *uri = recsql_immutable_uri(path);
	if (!uri) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

/* Whether what follows the statement holds another: blanks, semicolons and comments do
 * not make one (SQLite's parser says, preparing the rest yields no statement). */
static bool another_statement(sqlite3 *db, const char *tail)
{
	while (tail && *tail) {
		sqlite3_stmt *next = NULL;
		const char *rest = NULL;
		if (sqlite3_prepare_v2(db, tail, -1, &next, &rest) != SQLITE_OK || next) {
			sqlite3_finalize(next);
			return true;
		}
		if (!rest || rest == tail)
			return false;
		tail = rest;
	}
	return false;
}

int recsql_run(const char *path, const char *sql, FILE *out, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int ret = recsql_open(path, &db, err, errlen) ? -EINVAL
						      : recsql_query(db, sql, out, err, errlen);
	sqlite3_close(db);
	return ret;
}

/* SQLite's messages quote the query and a damaged file's schema as they are: one line,
 * nothing that steers a terminal. */
static void one_line(char *err, size_t errlen)
{
	char safe[512];
	text_sanitize(err, safe, sizeof(safe), true);
	snprintf(err, errlen, "%s", safe);
}

int recsql_query(sqlite3 *db, const char *sql, FILE *out, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int ret = -EINVAL;
	const char *tail = NULL;
	if (recsql_register(db) != SQLITE_OK) {
		snprintf(err, errlen, "--sql: %s", sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK || !st) {
		snprintf(err, errlen, "--sql: %s",
			 st || sqlite3_errcode(db) != SQLITE_OK ? sqlite3_errmsg(db)
								: "no statement");
		goto out;
	}
	/* The file is opened read-only, but VACUUM INTO writes a new file all the same. */
	if (!sqlite3_stmt_readonly(st)) {
		snprintf(err, errlen,
			 "--sql: this statement writes, and the recording is opened readonly");
		goto out;
	}
	if (another_statement(db, tail)) {
		snprintf(err, errlen,
			 "--sql: one statement at a time (a second one starts at '%.40s')", tail);
		goto out;
	}
	int ncol = sqlite3_column_count(st);
	for (int i = 0; i < ncol; i++) {
		if (i)
			fputc(',', out);
		text_csv_field(out, sqlite3_column_name(st, i));
	}
	fputc('\n', out);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < ncol; i++) {
			if (i)
				fputc(',', out);
			if (sqlite3_column_type(st, i) == SQLITE_BLOB) {
				/* Bytes as hex, two digits a byte: raw they would break the line.
				 */
				const unsigned char *b = sqlite3_column_blob(st, i);
				for (int k = 0, n = sqlite3_column_bytes(st, i); k < n; k++)
					fprintf(out, "%02x", b[k]);
				continue;
			}
			const unsigned char *s = sqlite3_column_text(st, i);
			if (s)
				text_csv_field(out, (const char *)s);
		}
		fputc('\n', out);
	}
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "--sql: %s", sqlite3_errmsg(db));
		goto out;
	}
	ret = 0;
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "cannot write the query's rows: %s", strerror(errno));
		ret = -EIO;
	}
out:
	sqlite3_finalize(st);
	if (ret)
		one_line(err, errlen);
	return ret;
}
