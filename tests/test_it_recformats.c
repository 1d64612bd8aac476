/* Recording formats: a format 2 file (tests/fixtures/recording, written by the pmutop of
 * before format 3) replays as it did, and format 3's blocks read the same whichever tick
 * is loaded first (a block is read from its key, or on from the tick read before). */
#include "testutil.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replay.h"

static char out[1 << 20], err[8192], dir[] = "/tmp/pmutop-recformats.XXXXXX";

static const char *path(const char *name)
{
	static char buf[2][512];
	static int k;
	k = (k + 1) % 2;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* A fixture's bytes into buf (NUL-terminated), or a failure. */
static size_t slurp(const char *file, char *buf, size_t cap)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		fail_msg("cannot read %s", file);
	size_t n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

static void copy(const char *from, const char *to)
{
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, to);
	assert_int_equal(system(cmd), 0);
}

static char want[1 << 20];

static void expect_output(char **argv, const char *fixture, const char *what)
{
	slurp(testutil_path(fixture), want, sizeof(want));
	int st = testutil_run(argv, out, sizeof(out), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("%s: status %#x: %s", what, st, err);
	if (strcmp(out, want) != 0)
		fail_msg("%s differs from %s (%zu bytes, want %zu)", what, fixture, strlen(out),
			 strlen(want));
}

/* A format 2 file (a tasks table, rows not compressed): the same CSV and readings as the
 * pmutop that wrote it printed, and its states as codes (files of before they were
 * letters) the same again. */
static void test_format2(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1); /* the fixture's CSV was printed in UTC */
	const char *file = path("format2.pmutop");
	copy(testutil_path("fixtures/recording/format2.pmutop"), file);
	char *csv[] = {PMUTOP_BINARY, "-r",  (char *)file, "-b",
		       "--format",    "csv", "--per-cpu",  NULL};
	expect_output(csv, "fixtures/recording/format2.csv", "format 2 replayed as CSV");
	char *sql[] = {PMUTOP_BINARY,
		       "-r",
		       (char *)file,
		       "--sql",
		       "SELECT seq, time, kind, pid, tid, cpu, user, command, cgroup, event,"
		       " value, state FROM readings ORDER BY seq, kind, pid, tid, cpu, event",
		       NULL};
	expect_output(sql, "fixtures/recording/format2-sql.csv", "format 2's readings");
	/* Memory and state (RES, S), idle rows' from their task. */
	const char *cfg = path("cols.rc");
	FILE *cf = fopen(cfg, "w");
	assert_non_null(cf);
	fputs("columns Software PID,CPU%,RES,S,FAULTS\n", cf);
	fclose(cf);
	char *mem[] = {PMUTOP_BINARY, "-c",	(char *)cfg, "-r", (char *)file,
		       "-b",	      "--pane", "Software",  NULL};
	expect_output(mem, "fixtures/recording/format2-mem.txt", "format 2's RES and S");
	sqlite3 *db;
	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql ="
				      " replace(sql, 'state TEXT', 'state INTEGER') WHERE name ="
				      " 'tasks'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(db, "UPDATE tasks SET state = unicode(state) WHERE state IS NOT NULL",
			     NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);
	expect_output(mem, "fixtures/recording/format2-mem.txt", "format 2 with states as codes");
}

/* What a loaded tick holds, as one number: its rows' identities and values. */
static double digest(const struct model *m)
{
	double d = m->nrows * 1e6 + m->ncpu_rows * 1e3 + m->ncg_rows;
	for (unsigned k = 0; k < m->nrows; k++) {
		const struct mrow *r = &m->rows[k];
		d += r->pid * 3.0 + r->tid * 5.0 + r->kind + r->state + (double)r->rss_kb;
		for (const char *c = r->comm; c && *c; c++)
			d += (unsigned char)*c;
		for (unsigned i = 0; i < m->nevents; i++)
			d += r->v[i].v * (i + 1) + r->v[i].state;
	}
	for (unsigned k = 0; k < m->ncpu_rows; k++)
		for (unsigned i = 0; i < m->nevents; i++)
			d += m->cpu_rows[k].v[i].v;
	return d;
}

static long long sql_int(const char *file, const char *q)
{
	char *argv[] = {PMUTOP_BINARY, "-r", (char *)file, "--sql", (char *)q, NULL};
	int st = testutil_run(argv, out, sizeof(out), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("%s: %s", q, err);
	const char *nl = strchr(out, '\n');
	assert_non_null(nl);
	return atoll(nl + 1);
}

/* Two blocks (a recording, then more ticks appended): every tick loads the same from its
 * block's key, on from the tick before, or after a tick of the other block; readings of
 * one tick mid-block are those of the whole file's for it. */
static void test_blocks(void **state)
{
	(void)state;
	const char *file = path("blocks.pmutop");
	char *rec[] = {PMUTOP_BINARY, "-b",	   "-q", "-n",	       "3", "-d",
		       "0.2",	      "--per-cpu", "-w", (char *)file, NULL};
	for (int i = 0; i < 2; i++) {
		int st = testutil_run(rec, out, sizeof(out), err, sizeof(err));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fail_msg("recording: status %#x: %s", st, err);
	}
	assert_int_equal(sql_int(file,
				 "SELECT group_concat(key, '') FROM (SELECT DISTINCT key FROM ticks"
				 " ORDER BY key)"),
			 14);
	char e[512];
	struct replay *p = replay_open(file, e, sizeof(e));
	if (!p)
		fail_msg("%s", e);
	double d[7];
	/* This test's own process, as /proc says: its parent, uid and command read back
	 * (defined among others, from the def before it). */
	char comm[64] = "";
	FILE *cf = fopen("/proc/self/comm", "r");
	assert_non_null(cf);
	assert_non_null(fgets(comm, sizeof(comm), cf));
	fclose(cf);
	comm[strcspn(comm, "\n")] = '\0';
	for (unsigned s = 1; s <= 6; s++) {
		if (replay_load(p, s, e, sizeof(e)))
			fail_msg("tick %u: %s", s, e);
		const struct model *m = replay_model(p);
		d[s] = digest(m);
		assert_true(m->nrows > 0);
		unsigned self = 0;
		for (unsigned k = 0; k < m->nrows; k++) {
			const struct mrow *r = &m->rows[k];
			if (r->kind != ROW_PROC || r->pid != getpid())
				continue;
			self++;
			assert_int_equal(r->ppid, getppid());
			assert_int_equal(r->uid, getuid());
			assert_string_equal(r->comm, comm);
		}
		assert_int_equal(self, 1);
	}
	static const unsigned order[] = {5, 2, 6, 1, 3, 3, 4, 2, 6, 5, 1};
	for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
		unsigned s = order[k];
		if (replay_load(p, s, e, sizeof(e)))
			fail_msg("tick %u: %s", s, e);
		if (digest(replay_model(p)) != d[s])
			fail_msg("tick %u loaded after tick %u differs from its first load", s,
				 k ? order[k - 1] : 6);
	}
	replay_close(p);
	for (unsigned s = 2; s <= 5; s += 3) {
		char q[256];
		snprintf(q, sizeof(q), "SELECT count(*) FROM readings WHERE seq = %u", s);
		long long one = sql_int(file, q);
		snprintf(q, sizeof(q),
			 "SELECT n FROM (SELECT seq, count(*) AS n FROM readings GROUP BY seq)"
			 " WHERE seq = %u",
			 s);
		assert_true(one > 0);
		assert_int_equal(one, sql_int(file, q));
		snprintf(q, sizeof(q),
			 "SELECT count(*) FROM readings WHERE time >= (SELECT wall FROM ticks WHERE"
			 " seq = %u) AND time <= (SELECT wall FROM ticks WHERE seq = %u)",
			 s, s);
		assert_int_equal(one, sql_int(file, q));
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format2),
		cmocka_unit_test(test_blocks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
