/* SQL over a recording (pmutop -r FILE --sql QUERY): the recording's tables as they are,
 * and `readings`, one row per recorded value of a row that did something (seq, time,
 * at, kind, pid, tid, cpu, user, command, cgroup, event, value, state), read from the
 * ticks' packed rows (src/recpack.h) as the query walks them. */
#ifndef PMUTOP_RECSQL_H
#define PMUTOP_RECSQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Run one statement over the recording at path, opened read-only (a statement that
 * writes fails), and write its rows to out as CSV with a header line. Returns 0, or -EINVAL with
 * one line in err (a bad query, a damaged file) and -EIO when out cannot be written. */
int recsql_run(const char *path, const char *sql, FILE *out, char *err, size_t errlen);

/* Open the recording at path read-only, as any user who can read the file and on
 * read-only media: a closed recording that was left in WAL mode (no -shm beside it, and
 * none can be made) is opened as immutable. Returns 0, or -errno with one line in err
 * (no such file, a directory, no permission, newest ticks in a -wal that cannot be read
 * here). Format checks are the caller's. */
struct sqlite3;
int recsql_open(const char *path, struct sqlite3 **db, char *err, size_t errlen);

/* The first column of sql's first row, or -1; *rc is SQLite's code (SQLITE_OK for a row). */
int64_t recsql_int(struct sqlite3 *db, const char *sql, int *rc);

/* The crc32 of meta's rows but 'sum' (key order: each key, its value's type and text),
 * which format 4 keeps in meta('sum'). Returns 0, or -EIO. */
int recsql_meta_sum(struct sqlite3 *db, uint32_t *out);

/* Format 4's sums of a tick's header and event set as a replay rebuilds them from
 * their rows (recfmt_header_body, recfmt_evset_body). Return 0, -ENOENT (no such
 * header) or -EIO. */
int recsql_header_sum(struct sqlite3 *db, int64_t id, uint32_t *out);
int recsql_evset_sum(struct sqlite3 *db, int64_t id, uint32_t *out);

/* Format 4: the ticks a recording must hold, each one from the first kept to the
 * recorder's last (a replay and `readings` call any other missing). recsql_meta_check
 * reads meta's rows against meta('sum') and *last from meta('last'), 0 when the recorder
 * did not close the file (then the last tick found is its last); a file with neither sum
 * nor tick (a recorder stopped before its first tick) has none. Returns 0, or -EIO (meta
 * fails its checksum). recsql_first_kept is meta('first'), 1 when no tick was pruned. */
int recsql_meta_check(struct sqlite3 *db, int64_t *last);
int64_t recsql_first_kept(struct sqlite3 *db);

/* Whether a -wal beside path holds pages: then the file alone is not the recording. */
bool recsql_wal_pending(const char *path);
/* path as an SQLite URI that opens it immutable (no lock, no -shm, no -wal read), to
 * free, or NULL. */
char *recsql_immutable_uri(const char *path);
/* recsql_run's query over an open recording: `readings` made on db, the rows to out. */
int recsql_query(struct sqlite3 *db, const char *sql, FILE *out, char *err, size_t errlen);

/* Make `readings` on connection db, as recsql_run does and as pmutopsql.so does for the
 * sqlite3 shell or any SQLite program that loads it. Returns an SQLite result code. */
int recsql_register(struct sqlite3 *db);

#endif
