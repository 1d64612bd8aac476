/* libFuzzer harness for pmutop -r FILE --sql QUERY: the input is the query, run by
 * recsql_query over a real recording (tests/fuzz/replay/corpus/seed4.pmutop, format 4 in
 * two blocks) opened as recsql_run opens it, so that the `readings` table's bounds and
 * constraints (seq, time, pid, ...) meet any SQL. The harness bounds what a query may cost (a VM
 * step budget and a 1 MiB value limit): an endless recursive query is the user's own, not a bug.
 *
 * Checks: 0, or -EINVAL with one line of error; the recording is opened read-only, so it
 * stays byte for byte as it was, and nothing else appears in its folder (the query runs
 * in that folder: VACUUM INTO 'x' or ATTACH 'x' would make a file there). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recsql.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STEP_BUDGET 200000 /* progress callbacks of 100 VM steps each */

static char dir[64], path[96];
static int home = -1; /* the folder libFuzzer was started in: its corpus and artifacts */
static unsigned char orig[1 << 16];
static size_t norig;
static unsigned long steps;

static size_t slurp(const char *p, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(p, "rbe");
	if (!f)
		abort();
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[384];
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pmutop-fuzz-recsql-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	snprintf(path, sizeof(path), "%s/r.pmutop", dir);
	norig = slurp(PMUTOP_FUZZ_DIR "/replay/corpus/seed4.pmutop", orig, sizeof(orig));
	if (norig == 0 || norig == sizeof(orig))
		abort();
	FILE *f = fopen(path, "wbe");
	if (!f || fwrite(orig, 1, norig, f) != norig || fclose(f))
		abort();
}

static int budget(void *cls)
{
	(void)cls;
	return ++steps > STEP_BUDGET;
}

static void check_untouched(void)
{
	static unsigned char now[sizeof(orig)];
	if (slurp(path, now, sizeof(now)) != norig || memcmp(now, orig, norig) != 0) {
		fprintf(stderr, "--sql changed the recording\n");
		abort();
	}
	DIR *d = opendir(dir);
	if (!d)
		abort();
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "r.pmutop")) {
			fprintf(stderr, "--sql made a file: %s\n", e->d_name);
			abort();
		}
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		setup();
	/* In the recording's folder during the query only: VACUUM INTO 'x' lands there. */
	if (home < 0 && (home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		abort();
	if (chdir(dir))
		abort();
	char *sql = malloc(size + 1);
	if (!sql)
		return 0;
	memcpy(sql, data, size);
	sql[size] = '\0';

	char err[512];
	sqlite3 *db = NULL;
	if (recsql_open(path, &db, err, sizeof(err)) != 0)
		abort();
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
	steps = 0;
	sqlite3_progress_handler(db, 100, budget, NULL);
	FILE *out = fopen("/dev/null", "we");
	if (!out)
		abort();
	memset(err, 'x', sizeof(err));
	int rc = recsql_query(db, sql, out, err, sizeof(err));
	fclose(out);
	sqlite3_close(db);
	free(sql);
	if (fchdir(home))
		abort();
	if (rc != 0 && rc != -EINVAL)
		abort();
	if (rc) {
		const char *nul = memchr(err, '\0', sizeof(err));
		if (!nul || nul == err || memchr(err, '\n', (size_t)(nul - err))) {
			fprintf(stderr, "bad error line '%.*s'\n", (int)sizeof(err), err);
			abort();
		}
	}
	check_untouched();
	return 0;
}
