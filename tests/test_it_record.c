/* pmutop -w and -r end to end: the replay of a recording prints the live batch output
 * byte for byte; a recorder killed with SIGKILL leaves every committed tick; bad files
 * get one line and exit 2; one recorder a file; a full disk stops the recording and
 * leaves the file readable; --retain and --max-size prune while a replay reads. Root
 * (a tmpfs is mounted for the full disk). The machine's tasks may be thousands (tests
 * beside this one): ticks are checked by loading them, not by printing them all. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "recsql.h"
#include "replay.h"

static char dir[256];
static char pub[64], pub_ro[96]; /* test_read_only's directory and read-only mount */
static pid_t kids[2];		 /* test_retention's children of threads, for teardown */
static char out1[1 << 20], out2[1 << 20], err[8192];

static const char *path(const char *name)
{
	static char buf[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/pmutop-record.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	for (int i = 0; i < 2; i++)
		if (kids[i] > 0) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
	umount2(path("small"), MNT_DETACH);
	if (*pub_ro)
		umount2(pub_ro, MNT_DETACH);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, pub);
	return system(cmd) == 0 ? 0 : -1;
}

/* pmutop with args, in the background, its output to log. */
static pid_t start(char *const args[], const char *log)
{
	pid_t p = fork();
	if (p == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(PMUTOP_BINARY, args);
		_exit(127);
	}
	return p;
}

/* The recorded ticks of file (first to last), 0 when it cannot be read yet. */
static uint64_t ticks_in(const char *file, uint64_t *first)
{
	char e[256];
	uint64_t f = 0, l = 0;
	double wf, wl;
	struct replay *p = replay_open(file, e, sizeof(e));
	if (p && replay_span(p, &f, &l, &wf, &wl) == 0) {
		replay_close(p);
		if (first)
			*first = f;
		return l - f + 1;
	}
	replay_close(p);
	return 0;
}

static void wait_ticks(const char *file, uint64_t n)
{
	for (int i = 0; i < 300 && ticks_in(file, NULL) < n; i++)
		usleep(100000);
	if (ticks_in(file, NULL) < n)
		fail_msg("%s: fewer than %llu ticks recorded in 30 s", file, (unsigned long long)n);
}

static unsigned count_lines(const char *s, const char *prefix)
{
	unsigned n = 0;
	size_t len = strlen(prefix);
	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += strncmp(l, prefix, len) == 0;
	return n;
}

/* A replay shows only what was recorded: -H or --per-cpu on a file recorded without them
 * says so in one line (and prints what there is); on a file with them, nothing. */
static void test_recorded_without(void **state)
{
	(void)state;
	char *plain = strdup(path("plain")), *full = strdup(path("full"));
	char *rp[] = {PMUTOP_BINARY, "-b", "-q", "-n", "1", "-d", "0.1", "-w", plain, NULL};
	int st = testutil_run(rp, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *rf[] = {PMUTOP_BINARY, "-b", "-q",	"-n", "1",  "-d",
		      "0.1",	     "-H", "--per-cpu", "-w", full, NULL};
	st = testutil_run(rf, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	const struct {
		char *file, *opt;
		const char *want; /* NULL: no such line */
	} cases[] = {
		{plain, "-H", "recorded without -H: it holds no thread rows"},
		{plain, "--per-cpu", "recorded without --per-cpu: it holds no CPU rows"},
		{full, "-H", NULL},
		{full, "--per-cpu", NULL},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *rep[] = {PMUTOP_BINARY, "-r", cases[i].file, "-b", cases[i].opt, NULL};
		st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		assert_true(strncmp(out1, "pmutop - ", 9) == 0); /* what there is, printed */
		unsigned n = 0;
		for (const char *e = err; (e = strstr(e, "was recorded without")); e++)
			n++;
		if (n != (cases[i].want ? 1u : 0u) ||
		    (cases[i].want && !strstr(err, cases[i].want)))
			fail_msg("-r %s %s: %u lines saying what is missing: %s", cases[i].file,
				 cases[i].opt, n, err);
	}
	free(plain);
	free(full);
}

/* The wall-clock time of each block (text) or line (CSV, JSON) of out: epoch seconds
 * within [t0, t1] and the same instant as ISO 8601 with its offset. Returns how many. */
static unsigned check_wall_times(const char *fmt, const char *out, double t0, double t1)
{
	unsigned n = 0;
	for (const char *l = out, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		if (!e) /* the end of a buffer that filled */
			break;
		char line[4096];
		snprintf(line, sizeof(line), "%.*s", (int)(e - l), l);
		const char *at;
		double wall = 0;
		if (strcmp(fmt, "text") == 0) {
			if (strncmp(line, "pmutop - ", 9) != 0)
				continue;
			at = strstr(line, " at ");
			assert_non_null(at);
			at += 4;
		} else if (strcmp(fmt, "csv") == 0) {
			if (strncmp(line, "tick,", 5) == 0)
				continue;
			char *c = strrchr(line, ',');
			assert_non_null(c);
			*c = '\0';
			at = c + 1;
			c = strrchr(line, ',');
			assert_non_null(c);
			wall = strtod(c + 1, NULL);
		} else {
			const char *w = strstr(line, "\"wall\":"), *a = strstr(line, "\"at\":\"");
			assert_true(w && a);
			wall = strtod(w + 7, NULL);
			at = a + 6;
		}
		/* The ISO text back into epoch seconds (its offset applied). */
		struct tm tm = {0};
		int ms, oh, om;
		char sign;
		if (sscanf(at, "%d-%d-%dT%d:%d:%d.%3d%c%2d:%2d", &tm.tm_year, &tm.tm_mon,
			   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms, &sign, &oh,
			   &om) != 10 ||
		    (sign != '+' && sign != '-'))
			fail_msg("%s: no ISO 8601 time with an offset: %s", fmt, line);
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		double iso = (double)timegm(&tm) + ms / 1000.0 -
			     (sign == '+' ? 1 : -1) * (oh * 3600.0 + om * 60.0);
		if (wall == 0)
			wall = iso;
		if (wall < t0 - 0.001 || wall > t1 + 0.001 || iso < wall - 0.0015 ||
		    iso > wall + 0.0015)
			fail_msg("%s: wall time %.3f (%s) outside the run [%.3f, %.3f]: %s", fmt,
				 wall, at, t0, t1, line);
		n++;
	}
	return n;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Live batch output and the replay of the same ticks: the same bytes, in every format,
 * with thread rows and per-CPU rows. */
static void test_replay_equals_live(void **state)
{
	(void)state;
	const char *fmts[] = {"text", "csv", "json"};
	for (int i = 0; i < 3; i++) {
		char *file = strdup(path(fmts[i]));
		char *live[] = {PMUTOP_BINARY, "-b", "-n",	  "3",	      "-d",
				"0.2",	       "-H", "--per-cpu", "--format", (char *)fmts[i],
				"-w",	       file, NULL};
		double t0 = wall_now();
		int st = testutil_run(live, out1, sizeof(out1), err, sizeof(err));
		double t1 = wall_now();
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		/* Every block or line says when, within the run; the replay's the same. */
		unsigned stamped = check_wall_times(fmts[i], out1, t0, t1);
		bool whole = strlen(out1) < sizeof(out1) - 1; /* thousands of tasks fill it */
		if (stamped < (strcmp(fmts[i], "text") == 0 ? (whole ? 3u : 1u) : 30u))
			fail_msg("%s: %u lines with a wall time", fmts[i], stamped);
		char *rep[] = {PMUTOP_BINARY,	"-r", file, "-b", "--per-cpu", "--format",
			       (char *)fmts[i], NULL};
		st = testutil_run(rep, out2, sizeof(out2), err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		assert_true(strlen(out1) > 1000);
		if (strcmp(out1, out2) != 0)
			fail_msg("%s: the replay differs from the live output (%zu vs %zu bytes)",
				 fmts[i], strlen(out1), strlen(out2));
		free(file);
	}
	/* Memory and state (RES, S) as the setup file chose them: the same in the replay,
	 * idle rows included (their task holds them at rest). */
	char *cfg = strdup(path("cols.rc")), *memfile = strdup(path("mem"));
	FILE *cf = fopen(cfg, "w");
	assert_non_null(cf);
	fputs("columns Software PID,CPU%,RES,S,FAULTS\n", cf);
	fclose(cf);
	char *mlive[] = {PMUTOP_BINARY, "-c",	  cfg,	      "-b", "-n",    "4", "-d",
			 "0.2",		"--pane", "Software", "-w", memfile, NULL};
	int mst = testutil_run(mlive, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(mst) && WEXITSTATUS(mst) == 0);
	assert_non_null(strstr(out1, "  RES S"));
	char *mrep[] = {PMUTOP_BINARY, "-c", cfg, "-r", memfile, "-b", "--pane", "Software", NULL};
	mst = testutil_run(mrep, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(mst) && WEXITSTATUS(mst) == 0);
	if (strcmp(out1, out2) != 0)
		fail_msg("RES and S: the replay differs from the live output");
	/* meta's format is the user_version. (States as codes, in format 2 files of
	 * before: test_it_recformats.) */
	sqlite3 *sdb;
	assert_int_equal(sqlite3_open(memfile, &sdb), SQLITE_OK);
	sqlite3_stmt *sq;
	assert_int_equal(sqlite3_prepare_v2(sdb,
					    "SELECT (SELECT value FROM meta WHERE key = 'format'),"
					    " (SELECT user_version FROM pragma_user_version)",
					    -1, &sq, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(sq), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(sq, 0), 4);
	assert_int_equal(sqlite3_column_int(sq, 0), sqlite3_column_int(sq, 1));
	sqlite3_finalize(sq);
	sqlite3_close(sdb);
	free(cfg);
	free(memfile);
	/* --begin and -n pick ticks: the second and third of three. +0.01 s after the first
	 * is the second, however unevenly a busy machine spaced the ticks (+0.15 was not,
	 * after a late first tick). */
	char *file = strdup(path("csv"));
	char *part[] = {PMUTOP_BINARY, "-r", file,	"-b",	 "--format", "csv",
			"-n",	       "1",  "--begin", "+0.01", NULL};
	int st = testutil_run(part, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(count_lines(out2, "1,"), 0);
	assert_true(count_lines(out2, "2,") > 0);
	assert_int_equal(count_lines(out2, "3,"), 0);
	/* --sql answers over the readings table: task-clock of pmutop's own process, exact
	 * (other pmutops may run beside this test: some reading of the name counts). */
	char *q[] = {PMUTOP_BINARY,
		     "-r",
		     file,
		     "--sql",
		     "SELECT count(*), max(value) > 0, count(DISTINCT seq) FROM readings WHERE"
		     " command = 'pmutop' AND kind = 'process' AND event = 'task-clock' AND"
		     " state = 'exact' AND seq >= 2",
		     NULL};
	st = testutil_run(q, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	long n = 0, positive = 0, ticks = 0;
	assert_non_null(strstr(out2, "count(*),max(value) > 0,count(DISTINCT seq)\n"));
	assert_int_equal(sscanf(strchr(out2, '\n') + 1, "%ld,%ld,%ld", &n, &positive, &ticks), 3);
	assert_true(n >= 2);
	assert_int_equal(positive, 1);
	assert_int_equal(ticks, 2); /* seq >= 2 of three ticks */
	/* The readings equal the replayed CSV's: the value of one stored cell, both ways. */
	char *one[] = {PMUTOP_BINARY,
		       "-r",
		       file,
		       "--sql",
		       "SELECT pid, value FROM readings WHERE seq = 3 AND kind = 'process' AND"
		       " event = 'task-clock' AND value > 0 ORDER BY pid LIMIT 1",
		       NULL};
	st = testutil_run(one, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	long pid = 0;
	unsigned long long val = 0;
	assert_int_equal(sscanf(strchr(out2, '\n') + 1, "%ld,%llu", &pid, &val), 2);
	char *third[] = {PMUTOP_BINARY, "-r",	 file, "-b", "--format", "csv",
			 "--begin",	"+0.01", "-n", "2",  NULL};
	/* Room for two ticks of a crowded machine (other tests' thousands of threads). */
	size_t cap = 64u << 20;
	char *csv = malloc(cap);
	assert_non_null(csv);
	st = testutil_run(third, csv, cap, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[96];
	snprintf(want, sizeof(want), ",process,%ld,%ld,,", pid, pid);
	bool found = false;
	for (char *l = csv; l && *l && !found; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "3,", 2) != 0 || !strstr(l, want) || !strstr(l, ",task-clock,"))
			continue;
		char *v = strstr(l, ",task-clock,") + strlen(",task-clock,");
		found = strtoull(v, NULL, 10) == val;
	}
	if (!found)
		fail_msg("the readings' task-clock of pid %ld at tick 3 is %llu: not in the "
			 "replayed CSV's tick 3 (%zu bytes)",
			 pid, val, strlen(csv));
	free(csv);
#ifdef PMUTOPSQL_MODULE
	/* pmutopsql.so gives any SQLite program the same readings (here through the C API,
	 * as the sqlite3 shell's .load does). */
	char *agg[] = {PMUTOP_BINARY,
		       "-r",
		       file,
		       "--sql",
		       "SELECT count(*), sum(value), count(DISTINCT pid) FROM readings WHERE"
		       " event = 'task-clock' AND seq >= 2",
		       NULL};
	st = testutil_run(agg, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_enable_load_extension(db, 1), SQLITE_OK);
	char *lerr = NULL;
	if (sqlite3_load_extension(db, PMUTOPSQL_MODULE, NULL, &lerr) != SQLITE_OK)
		fail_msg("cannot load %s: %s", PMUTOPSQL_MODULE, lerr ? lerr : "?");
	sqlite3_stmt *q2;
	assert_int_equal(sqlite3_prepare_v2(db, agg[4], -1, &q2, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q2), SQLITE_ROW);
	char got[128];
	snprintf(got, sizeof(got), "%lld,%lld,%lld\n", sqlite3_column_int64(q2, 0),
		 sqlite3_column_int64(q2, 1), sqlite3_column_int64(q2, 2));
	sqlite3_finalize(q2);
	sqlite3_close(db);
	assert_non_null(strchr(out2, '\n'));
	assert_string_equal(strchr(out2, '\n') + 1, got);
	assert_true(strncmp(got, "0,", 2) != 0);
#endif
	/* Bounds that are not numbers: every number sorts before text and blobs, and a
	 * comment after the statement is no second statement. */
	char *cmp[] = {PMUTOP_BINARY,
		       "-r",
		       file,
		       "--sql",
		       "SELECT (SELECT count(*) FROM readings) > 0,"
		       " (SELECT count(*) FROM readings WHERE seq < 'abc') ="
		       " (SELECT count(*) FROM readings),"
		       " (SELECT count(*) FROM readings WHERE time < '2026-01-01') ="
		       " (SELECT count(*) FROM readings),"
		       " (SELECT count(*) FROM readings WHERE seq > 'abc'),"
		       " (SELECT count(*) FROM readings WHERE time >= x'41'),"
		       " (SELECT count(*) FROM readings WHERE seq = 'abc');"
		       " -- one statement",
		       NULL};
	st = testutil_run(cmp, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(strchr(out2, '\n') + 1, "1,1,1,0,0,0\n");
	/* A query that does not parse, or writes: one line, exit 2. */
	char *bad[] = {PMUTOP_BINARY, "-r", file, "--sql", "DELETE FROM ticks", NULL};
	st = testutil_run(bad, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "readonly"));
	free(file);
}

/* A recorder of task-clock every 0.1 s into file, in the background, once file holds
 * n ticks; killed with SIGKILL by kill_recorder. */
static pid_t start_recorder(char *file, const char *log, uint64_t n)
{
	char *args[] = {PMUTOP_BINARY, "-b",	     "-q", "-d", "0.1",
			"-e",	       "task-clock", "-w", file, NULL};
	pid_t p = start(args, log);
	wait_ticks(file, n);
	return p;
}

static void kill_recorder(pid_t p)
{
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
}

static void expect_refusal(const char *file, const char *words);

/* SIGKILL mid-recording: every committed tick replays, with no error. */
static void test_sigkill(void **state)
{
	(void)state;
	char *file = strdup(path("killed"));
	pid_t p = start_recorder(file, path("killed.log"), 8);
	/* While it records: still being written, said so (its recorder holds it), exit 0. */
	char *now[] = {PMUTOP_BINARY, "-r", file, "--sql", "SELECT count(*) FROM ticks", NULL};
	int st = testutil_run(now, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!strstr(err, "is still being written (a pmutop records into it): its last tick is ") ||
	    strstr(err, "not closed") || count_lines(err, "pmutop: ") != 1)
		fail_msg("a recording being written: want one line saying so, got: %s", err);
	kill_recorder(p);
	/* The file copied without its -wal (before anything opens it and checkpoints): the
	 * replay names the -wal to copy. */
	char *alone = strdup(path("killed-alone")), cmd[1200];
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", file, alone);
	assert_int_equal(system(cmd), 0);
	expect_refusal(alone,
		       "no -wal with its ticks is beside it (killed before its first tick, or "
		       "copied without the -wal that was beside the original: copy that too, as ");
	free(alone);
	uint64_t n = ticks_in(file, NULL);
	assert_true(n >= 8);
	/* Every tick loads (the machine's tasks may be thousands: read here, not printed). */
	char e[256];
	struct replay *rp = replay_open(file, e, sizeof(e));
	assert_non_null(rp);
	for (uint64_t t = 1; t <= n; t++)
		if (replay_load(rp, t, e, sizeof(e)) != 0 || replay_model(rp)->tick != t)
			fail_msg("tick %llu of %llu does not replay: %s", (unsigned long long)t,
				 (unsigned long long)n, e);
	replay_close(rp);
	char *rep[] = {PMUTOP_BINARY, "-r",	 file,	  "-b", "--format",
		       "csv",	      "--begin", "-0.01", NULL};
	st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[32];
	snprintf(want, sizeof(want), "%llu,", (unsigned long long)n);
	assert_true(count_lines(out1, want) > 0);
	/* Said, in one line: the file was not closed, and where it ends. */
	snprintf(want, sizeof(want), "it ends at tick %llu, ", (unsigned long long)n);
	if (!strstr(err, "was not closed by its recorder") || !strstr(err, want))
		fail_msg("no line saying the file ends at tick %llu unclosed: %s",
			 (unsigned long long)n, err);
	/* --sql says it too, on stderr after its rows, with exit 0 (every tick checks). */
	char *sql[] = {PMUTOP_BINARY, "-r", file, "--sql", "SELECT count(*) FROM ticks", NULL};
	st = testutil_run(sql, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_non_null(strchr(out2, '\n'));
	assert_int_equal(strtoull(strchr(out2, '\n') + 1, NULL, 10), n);
	if (!strstr(err, "was not closed by its recorder") || !strstr(err, want) ||
	    count_lines(err, "pmutop: ") != 1)
		fail_msg("--sql: no one line saying the file ends at tick %llu unclosed: %s",
			 (unsigned long long)n, err);
	/* Going on with it: the next recorder appends after the last committed tick. */
	char *more[] = {PMUTOP_BINARY, "-b", "-q", "-n", "2", "-d", "0.1", "-w", file, NULL};
	st = testutil_run(more, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(ticks_in(file, NULL), n + 2);
	/* Closed by that recorder: nothing to say. */
	st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (strstr(err, "not closed"))
		fail_msg("a closed recording said: %s", err);
	st = testutil_run(sql, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (*err)
		fail_msg("--sql on a closed recording said: %s", err);
	/* Appended to again, and that recorder killed: open again, whatever came before. */
	kill_recorder(start_recorder(file, path("killed2.log"), n + 4));
	st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!strstr(err, "was not closed by its recorder"))
		fail_msg("appended to, then killed: no line saying so: %s", err);
	st = testutil_run(sql, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!strstr(err, "was not closed by its recorder"))
		fail_msg("--sql: appended to, then killed: no line saying so: %s", err);
	free(file);
}

/* The -wal of a recording: its page size and the offsets of its commit frames (those
 * that end a transaction), up to the first frame of another checkpoint's salts. */
static unsigned wal_commits(const char *wal, long *commits, unsigned cap, long *pgsz)
{
	unsigned char h[32], f[24];
	FILE *w = fopen(wal, "rb");
	assert_non_null(w);
	assert_int_equal(fread(h, 1, sizeof(h), w), sizeof(h));
	assert_int_equal(h[0] << 24 | h[1] << 16 | h[2] << 8 | (h[3] & 0xfe), 0x377f0682);
	*pgsz = (long)h[8] << 24 | (long)h[9] << 16 | (long)h[10] << 8 | h[11];
	assert_int_equal(*pgsz, 16384);
	unsigned n = 0;
	for (long off = 32; fseek(w, off, SEEK_SET) == 0 && fread(f, 1, 24, w) == 24;
	     off += 24 + *pgsz) {
		if (memcmp(f + 8, h + 16, 8) != 0)
			break; /* a frame of before the WAL started again */
		if ((f[4] | f[5] | f[6] | f[7]) && n < cap)
			commits[n++] = off;
	}
	fclose(w);
	return n;
}

/* Copy file and its -wal to name (no -shm: the reader builds its own), then damage the
 * -wal at byte at: cut there (cut) or flip it. */
static char *torn_copy(const char *file, const char *name, long at, bool cut)
{
	char *copy = strdup(path(name)), cmd[1600];
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && cp '%s-wal' '%s-wal'", file, copy, file, copy);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s-wal", copy);
	if (cut) {
		assert_int_equal(truncate(cmd, at), 0);
		return copy;
	}
	FILE *w = fopen(cmd, "r+b");
	assert_non_null(w);
	assert_int_equal(fseek(w, at, SEEK_SET), 0);
	int c = fgetc(w);
	assert_int_equal(fseek(w, at, SEEK_SET), 0);
	fputc(c ^ 0x40, w);
	assert_int_equal(fclose(w), 0);
	return copy;
}

/* A recorder killed while it wrote a tick leaves a torn transaction at the end of its
 * -wal (a frame cut short, or one whose bytes did not all reach the disk): SQLite's
 * frame checksums drop it whole. The replay ends at the tick before, says so as for any
 * unclosed file (exit 0), and every tick before replays as it did from the whole file.
 * A frame damaged further back drops its transaction and every one after it: the file
 * then ends earlier, said the same way, and what is printed is still as recorded. */
static void test_torn_wal(void **state)
{
	(void)state;
	char *file = strdup(path("torn"));
	kill_recorder(start_recorder(file, path("torn.log"), 6));
	/* The copies first: nothing has opened the -wal since the recorder died. */
	char wal[600];
	snprintf(wal, sizeof(wal), "%s-wal", file);
	long commits[4096], pgsz;
	unsigned nc = wal_commits(wal, commits, 4096, &pgsz);
	assert_true(nc >= 6);
	long last = commits[nc - 1], mid = commits[nc - 3];
	struct {
		char *copy;
		const char *what;
		uint64_t ticks; /* 0: fewer than the whole file's less one */
	} cases[] = {
		{torn_copy(file, "torn-cut", last + 24 + pgsz / 2, true), "cut in its last frame",
		 1},
		{torn_copy(file, "torn-flip", last + 24 + pgsz / 2, false),
		 "a byte flipped in its last frame", 1},
		{torn_copy(file, "torn-hdr", last + 12, true), "cut in its last frame's header", 1},
		{torn_copy(file, "torn-mid", mid + 24 + 100, false),
		 "a byte flipped three transactions back", 0},
	};
	uint64_t n = ticks_in(file, NULL);
	assert_true(n >= 6);
	size_t cap = 64u << 20;
	char *whole = malloc(cap), *torn = malloc(cap);
	assert_non_null(whole);
	assert_non_null(torn);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t m = ticks_in(cases[i].copy, NULL);
		if (cases[i].ticks ? m != n - 1 : (m >= n - 1 || m < 1))
			fail_msg("%s: %llu of %llu ticks replay", cases[i].what,
				 (unsigned long long)m, (unsigned long long)n);
		char count[24];
		snprintf(count, sizeof(count), "%llu", (unsigned long long)m);
		char *ref[] = {PMUTOP_BINARY, "-r", file,  "-b", "--format",
			       "csv",	      "-n", count, NULL};
		int st = testutil_run(ref, whole, cap, err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		char *rep[] = {PMUTOP_BINARY, "-r", cases[i].copy, "-b", "--format", "csv", NULL};
		st = testutil_run(rep, torn, cap, err, sizeof(err));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fail_msg("%s: exit %d, want 0: %s", cases[i].what,
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
		char want[96];
		snprintf(want, sizeof(want),
			 "was not closed by its recorder (killed, or the "
			 "machine stopped): it ends at tick %llu, ",
			 (unsigned long long)m);
		if (!strstr(err, want) || count_lines(err, "pmutop: ") != 1)
			fail_msg("%s: want one line '%s', got: %s", cases[i].what, want, err);
		assert_true(strlen(whole) < cap - 1 && strlen(whole) > 100);
		if (strcmp(whole, torn) != 0)
			fail_msg("%s: its %llu ticks differ from the whole file's (%zu vs %zu "
				 "bytes)",
				 cases[i].what, (unsigned long long)m, strlen(torn), strlen(whole));
		/* --sql reads the same ticks. */
		char *q[] = {PMUTOP_BINARY,
			     "-r",
			     cases[i].copy,
			     "--sql",
			     "SELECT count(*), max(seq) FROM ticks",
			     NULL};
		st = testutil_run(q, out2, sizeof(out2), err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		snprintf(want, sizeof(want), "count(*),max(seq)\n%llu,%llu\n",
			 (unsigned long long)m, (unsigned long long)m);
		assert_string_equal(out2, want);
		free(cases[i].copy);
	}
	free(whole);
	free(torn);
	free(file);
}

/* Whether file's meta holds its format yet (its recorder made it), read as a reader. */
static bool has_format(const char *file)
{
	sqlite3 *db;
	int rc = -1;
	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
		recsql_int(db, "SELECT value FROM meta WHERE key = 'format'", &rc);
	sqlite3_close(db);
	return rc == SQLITE_OK;
}

/* A recorder stopped before its first tick (which writes meta's sum) leaves a file with
 * meta and no tick: it holds no tick, said so in one line with exit 2, never "damaged";
 * while that recorder still runs, that its first tick is to come. */
static void test_killed_before_first(void **state)
{
	(void)state;
	char *file = strdup(path("nofirst"));
	/* the largest interval -d takes: no first tick however slow the checks below */
	char *args[] = {PMUTOP_BINARY, "-b",	     "-q", "-d", "3600",
			"-e",	       "task-clock", "-w", file, NULL};
	pid_t p = start(args, path("nofirst.log"));
	for (int i = 0; i < 300 && !has_format(file); i++)
		usleep(100000);
	assert_true(has_format(file));
	const char *said[] = {
		"the recording holds no tick yet (a pmutop records into it: its first comes after "
		"one interval)",
		"the recording holds no tick (its recorder stopped before its first: killed, or "
		"the machine stopped)",
	};
	for (unsigned i = 0; i < 2; i++) {
		if (i == 1)
			kill_recorder(p);
		expect_refusal(file, said[i]);
		char *sql[] = {PMUTOP_BINARY, "-r", file, "--sql", "SELECT 1", NULL};
		int st = testutil_run(sql, out1, sizeof(out1), err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
		if (!strstr(err, said[i]) || strstr(err, "damaged"))
			fail_msg("--sql: want '%s', got: %s", said[i], err);
	}
	/* Killed before its first commit: a file in WAL mode with no table, no -wal (or an
	 * empty one) beside it, as a copy made without its -wal: the line says both; held
	 * by a recorder (its flock, taken here), its first tick is to come. Another
	 * program's database so is no recording. */
	const char *sql[] = {"SELECT 1", "CREATE TABLE t(x)"};
	for (unsigned i = 0; i < 2; i++) {
		char *f = strdup(path(i ? "otherdb" : "nocommit")), wal[600];
		sqlite3 *db;
		assert_int_equal(sqlite3_open(f, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, sql[i], NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
		snprintf(wal, sizeof(wal), "%s-wal", f);
		int fd = open(wal, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		close(fd);
		if (i == 0) {
			int lk = open(f, O_RDONLY);
			assert_int_equal(flock(lk, LOCK_EX), 0);
			expect_refusal(f, said[0]);
			close(lk);
		}
		expect_refusal(f, i ? "not a pmutop recording"
				    : "no -wal with its ticks is beside it (killed before its "
				      "first tick, or copied without the -wal");
		free(f);
	}
	free(file);
}

static void expect_refusal(const char *file, const char *words)
{
	char *rep[] = {PMUTOP_BINARY, "-r", (char *)file, "-b", NULL};
	int st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 2)
		fail_msg("%s: exit %d, want 2", file, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (!strstr(err, words) || count_lines(err, "pmutop: ") != 1 ||
	    strchr(err, '\n') != err + strlen(err) - 1)
		fail_msg("%s: want one line saying '%s', got: %s", file, words, err);
	assert_string_equal(out1, "");
}

static pid_t threads_child(int n, int how);

static void test_bad_files(void **state)
{
	(void)state;
	char *junk = strdup(path("junk")), *empty = strdup(path("empty"));
	char *future = strdup(path("future")), *cut = strdup(path("cut"));
	FILE *f = fopen(junk, "w");
	for (int i = 0; i < 2000; i++)
		fprintf(f, "not a recording %d\n", i);
	fclose(f);
	fclose(fopen(empty, "w"));
	expect_refusal(junk, "not a pmutop recording");
	expect_refusal(empty, "not a pmutop recording");
	expect_refusal(path("none"), "No such file");

	char *args[] = {PMUTOP_BINARY, "-b", "-q", "-n",   "3", "-d",
			"0.1",	       "-H", "-w", future, NULL};
	int st = testutil_run(args, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* The one cut short: a watched child's 64 threads, so that what is lost with half the
	 * file does not depend on what else the machine runs meanwhile. */
	pid_t kid = kids[0] = threads_child(64, true);
	char kp[16];
	snprintf(kp, sizeof(kp), "%d", (int)kid);
	char *ca[] = {PMUTOP_BINARY, "-b", "-q", "-n", "3", "-d", "0.1",
		      "-H",	     "-p", kp,	 "-w", cut, NULL};
	st = testutil_run(ca, out1, sizeof(out1), err, sizeof(err));
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	kids[0] = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char cmd[1200];
	char *old = strdup(path("old")), *packed = strdup(path("packed"));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && cp '%s' '%s'", future, old, future, packed);
	assert_int_equal(system(cmd), 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(future, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 9", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	expect_refusal(future, "recorded by a newer pmutop (format 9");
	assert_int_equal(sqlite3_open(old, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	expect_refusal(old, "recorded by an older pmutop (format 1");
	/* A tick's packed rows damaged: its replay and --sql say so, one line, exit 2. (The
	 * last tick: the ones of its block before it do not need it.) */
	assert_int_equal(sqlite3_open(packed, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "UPDATE ticks SET rows = x'05ff' WHERE seq = (SELECT max(seq)"
				      " FROM ticks)",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	/* The others are printed, and the line says how many were left out. */
	char *pk[] = {PMUTOP_BINARY, "-r", packed, "-b", "--format", "csv", NULL};
	size_t cap = 64 << 20; /* every row of two ticks, however many tasks run beside */
	char *csv = malloc(cap);
	assert_non_null(csv);
	st = testutil_run(pk, csv, cap, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	if (!strstr(err, "damaged recording: a tick's rows cannot be read (lost: tick 3): 1 tick "
			 "could not be read and was left out, 2 printed") ||
	    count_lines(err, "pmutop: ") != 1 + (strstr(err, "PMU") != NULL))
		fail_msg("want one line: 1 tick left out, 2 printed; got: %s", err);
	assert_int_equal(count_lines(csv, "3,"), 0);
	assert_true(count_lines(csv, "1,") > 0 && count_lines(csv, "2,") > 0);
	free(csv);
	char *q[] = {PMUTOP_BINARY, "-r", packed, "--sql", "SELECT count(*) FROM readings", NULL};
	st = testutil_run(q, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "damaged recording: a tick's rows cannot be read"));
	free(old);
	free(packed);
	/* Cut short: the half that is left is not the file SQLite wrote. */
	struct stat sb;
	assert_int_equal(stat(cut, &sb), 0);
	assert_int_equal(truncate(cut, sb.st_size / 2), 0);
	char half[96];
	snprintf(half, sizeof(half), "%lld of its %lld bytes are there", (long long)sb.st_size / 2,
		 (long long)sb.st_size);
	char *rc[] = {PMUTOP_BINARY, "-r", cut, "-b", NULL};
	st = testutil_run(rc, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 2)
		fail_msg("a recording cut in half: status %#x, want exit 2: %s", st, err);
	if (!strstr(err, "damaged recording: cut short") || !strstr(err, half))
		fail_msg("want a line saying '%s', got: %s", half, err);
	/* And a recording is never written into by a replay. */
	assert_int_equal(stat(future, &sb), 0);
	time_t before = sb.st_mtime;
	sleep(1);
	expect_refusal(future, "newer");
	assert_int_equal(stat(future, &sb), 0);
	assert_true(sb.st_mtime == before);
	/* Nor does a recorder write into what is no recording of its. */
	char *into[] = {PMUTOP_BINARY, "-b", "-q", "-n", "1", "-w", junk, NULL};
	st = testutil_run(into, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "not a pmutop recording: refusing to write into it"));
	/* One byte and fifteen, shorter than SQLite's header: SQLite takes them for empty
	 * databases, but they are somebody's bytes. */
	for (int len = 1; len <= 15; len += 14) {
		char *tiny = strdup(path(len == 1 ? "onebyte" : "fifteen"));
		f = fopen(tiny, "w");
		fprintf(f, "%.*s", len, "xxxxxxxxxxxxxxx");
		fclose(f);
		into[6] = tiny;
		st = testutil_run(into, out1, sizeof(out1), err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
		assert_non_null(strstr(err, "not a pmutop recording: refusing to write into it"));
		assert_int_equal(stat(tiny, &sb), 0);
		assert_int_equal(sb.st_size, len);
		free(tiny);
	}
	free(junk);
	free(empty);
	free(future);
	free(cut);
}

/* What a recording from someone else and a query typed by the user can put on the
 * terminal: one line, no control byte (SQLite's messages quote both as they are), and
 * --sql writes nothing, not even a new file (VACUUM INTO works on a read-only file). */
static void expect_one_clean_line(const char *what)
{
	if (count_lines(err, "pmutop: ") != 1 || strchr(err, '\n') != err + strlen(err) - 1 ||
	    strchr(err, '\033'))
		fail_msg("%s: want one line without control bytes, got: %s", what, err);
}

static void test_sql_untrusted(void **state)
{
	(void)state;
	char *file = strdup(path("untrusted")), *copy = strdup(path("untrusted-copy"));
	char *args[] = {PMUTOP_BINARY, "-b", "-q", "-n", "2", "-d", "0.1", "-w", file, NULL};
	int st = testutil_run(args, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	char vacuum[600];
	snprintf(vacuum, sizeof(vacuum), "VACUUM INTO '%s'", copy);
	char *v[] = {PMUTOP_BINARY, "-r", file, "--sql", vacuum, NULL};
	st = testutil_run(v, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "this statement writes"));
	assert_int_equal(access(copy, F_OK), -1);

	char *bad[] = {PMUTOP_BINARY, "-r", file, "--sql", "SELECT 'a\nb\033[2J", NULL};
	st = testutil_run(bad, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "unrecognized token"));
	expect_one_clean_line("a query with a newline and an escape");
	/* The modules' own err is one line too (pmutop's app_say cleans what it prints, the
	 * screen's message line and other callers rely on the module). */
	char line[512];
	FILE *sink = fopen("/dev/null", "w");
	assert_non_null(sink);
	assert_int_equal(recsql_run(file, "SELECT 'a\nb\033[2J", sink, line, sizeof(line)),
			 -EINVAL);
	assert_null(strpbrk(line, "\n\033"));
	/* Blobs as hex: raw, a packed row's bytes would break the CSV line. */
	char *hex = NULL;
	size_t hexlen = 0;
	FILE *hf = open_memstream(&hex, &hexlen);
	assert_non_null(hf);
	assert_int_equal(
		recsql_run(file, "SELECT x'000a2cff' AS b, 'x' AS t", hf, line, sizeof(line)), 0);
	fclose(hf);
	assert_string_equal(hex, "b,t\n000a2cff,x\n");
	free(hex);
	/* readings.at: ISO 8601 with the offset, as batch CSV's at. */
	hf = open_memstream(&hex, &hexlen);
	assert_non_null(hf);
	assert_int_equal(
		recsql_run(file,
			   "SELECT count(*) > 0 AS n, sum(at NOT GLOB '[0-9][0-9][0-9][0-9]-"
			   "[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9]"
			   "[0-9][+-][0-9][0-9]:[0-9][0-9]') AS bad FROM readings",
			   hf, line, sizeof(line)),
		0);
	fclose(hf);
	assert_string_equal(hex, "n,bad\n1,0\n");
	free(hex);

	/* A schema that is not SQL: SQLite's message quotes it. */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql ="
				      " 'CREATE TABLE evsets(''' || char(10) || char(27) || '[2J'"
				      " WHERE name = 'evsets'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	char *rep[] = {PMUTOP_BINARY, "-r", file, "-b", NULL};
	st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "damaged recording: malformed database schema"));
	expect_one_clean_line("a damaged schema");
	assert_null(replay_open(file, line, sizeof(line)));
	assert_non_null(strstr(line, "malformed database schema"));
	assert_null(strpbrk(line, "\n\033"));
	assert_int_equal(recsql_run(file, "SELECT count(*) FROM ticks", sink, line, sizeof(line)),
			 -EINVAL);
	assert_null(strpbrk(line, "\n\033"));
	fclose(sink);
	char *q[] = {PMUTOP_BINARY, "-r", file, "--sql", "SELECT count(*) FROM readings", NULL};
	st = testutil_run(q, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	expect_one_clean_line("--sql over a damaged schema");
	free(file);
	free(copy);
}

/* Damaged recordings found by fuzz_replay: a ticks b-tree that answers "the tick after 5"
 * with 5 or less (pmutop -r -b spun at 50% CPU), and a negative seq. Stepping ends, never
 * loops, and follows SQLite's order. */
static void test_step_damaged(void **state)
{
	(void)state;
	char line[512];
	struct replay *p = replay_open(testutil_path("fuzz/replay/regressions/step-not-forward"),
				       line, sizeof(line));
	assert_non_null(p);
	uint64_t first, last, seq, next;
	double wf, wl;
	assert_int_equal(replay_span(p, &first, &last, &wf, &wl), 0);
	seq = first;
	int steps = 0;
	while (replay_step(p, seq, 1, &next) == 0) {
		assert_true(next > seq);
		seq = next;
		assert_true(++steps < 1000);
	}
	while (replay_step(p, seq, -1, &next) == 0) {
		assert_true(next < seq);
		seq = next;
		assert_true(++steps < 2000);
	}
	replay_close(p);
	/* Its ticks_wall index says -94, 1, 3, 4, 5 (a damaged seq); the ticks themselves
	 * say 1 to 5, and the span is read from them. Stepping ends. */
	p = replay_open(testutil_path("fuzz/replay/regressions/negative-seq"), line, sizeof(line));
	assert_non_null(p);
	assert_int_equal(replay_span(p, &first, &last, &wf, &wl), 0);
	assert_int_equal((int64_t)first, 1);
	steps = 0;
	for (seq = first; replay_step(p, seq, 1, &next) == 0; seq = next)
		assert_true(++steps < 1000);
	assert_true(steps >= 3); /* its b-tree is damaged too: how many it answers is its own */
	replay_close(p);
}

/* The distinct ticks of a CSV replay (its lines' first fields after the header). */
static long csv_ticks(const char *csv)
{
	long n = 0, last = -1;
	for (const char *l = strchr(csv, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		long t = strtol(l + 1, NULL, 10);
		n += t != last;
		last = t;
	}
	return n;
}

/* Its ticks_wall index (ticks by time) zeroed: a replay reads the ticks without it, the
 * same output; --begin finds the tick by reading the ticks and says the index is
 * damaged (exit 2). */
static void test_index_damaged(void **state)
{
	(void)state;
	char *file = strdup(path("index")), *bad = strdup(path("index-bad"));
	char *rec[] = {PMUTOP_BINARY, "-b", "-q",	  "-n", "5",  "-d",
		       "0.1",	      "-e", "task-clock", "-w", file, NULL};
	int st = testutil_run(rec, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(
		sqlite3_prepare_v2(db,
				   "SELECT (SELECT rootpage FROM sqlite_schema WHERE name ="
				   " 'ticks_wall'), (SELECT printf('@%.3f', wall) FROM ticks"
				   " WHERE seq = 3)",
				   -1, &q, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	long root = sqlite3_column_int(q, 0);
	char at[64];
	snprintf(at, sizeof(at), "%s", (const char *)sqlite3_column_text(q, 1));
	sqlite3_finalize(q);
	sqlite3_close(db);
	char cmd[1200];
	snprintf(cmd, sizeof(cmd),
		 "cp '%s' '%s' && dd if=/dev/zero of='%s' bs=16384 seek=%ld count=1 "
		 "conv=notrunc status=none",
		 file, bad, bad, root - 1);
	assert_int_equal(system(cmd), 0);
	char *good[] = {PMUTOP_BINARY, "-r", file, "-b", "--format", "csv", NULL};
	char *dmg[] = {PMUTOP_BINARY, "-r", bad, "-b", "--format", "csv", NULL};
	st = testutil_run(good, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	st = testutil_run(dmg, out2, sizeof(out2), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || strcmp(out1, out2) != 0)
		fail_msg("the index zeroed: exit %d, the output %s: %s",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			 strcmp(out1, out2) ? "differs" : "the same", err);
	char *one[] = {PMUTOP_BINARY, "-r", file,    "-b", "--format", "csv",
		       "--begin",     at,   "--end", at,   NULL};
	st = testutil_run(one, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(count_lines(out1, "3,") > 0 && count_lines(out1, "2,") == 0 &&
		    count_lines(out1, "4,") == 0);
	one[2] = bad;
	st = testutil_run(one, out2, sizeof(out2), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 2 || strcmp(out1, out2) != 0 ||
	    !strstr(err, "its index of ticks by time (ticks_wall) is damaged"))
		fail_msg("--begin over the index zeroed: exit %d, %s: %s",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			 strcmp(out1, out2) ? "another tick" : "the tick", err);
	free(file);
	free(bad);
}

/* A recording cut short (its last page gone): the ticks SQLite can still read are
 * replayed, one line says how many, and one more how many were left out (those it
 * could not read, and those after up to the recorder's last). */
static void test_cut_short(void **state)
{
	(void)state;
	char *file = strdup(path("whole")), *cut = strdup(path("cutlast"));
	char *rec[] = {PMUTOP_BINARY, "-b", "-q",	  "-n", "30", "-d",
		       "0.1",	      "-e", "task-clock", "-w", file, NULL};
	int st = testutil_run(rec, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", file, cut);
	assert_int_equal(system(cmd), 0);
	struct stat sb;
	assert_int_equal(stat(cut, &sb), 0);
	assert_int_equal(truncate(cut, sb.st_size - 16384), 0);
	char *rep[] = {PMUTOP_BINARY, "-r", cut, "-b", "--format", "csv", NULL};
	size_t cap = 64 << 20; /* every row of 30 ticks, however many tasks run beside */
	char *csv = malloc(cap);
	assert_non_null(csv);
	st = testutil_run(rep, csv, cap, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_true(strlen(csv) < cap - 1);
	const char *said = strstr(err, "replaying the ");
	long n = 0, left = 0, printed = csv_ticks(csv);
	free(csv);
	if (!strstr(err, "damaged recording: cut short, ") || !said ||
	    sscanf(said, "replaying the %ld ticks", &n) != 1)
		fail_msg("want a line saying how many ticks are replayed, got: %s", err);
	assert_true(n > 0 && n <= 30);
	const char *out = strstr(err, " could not be read and ");
	if (out) {
		while (out > err && out[-1] != ':')
			out--;
		const char *p = strstr(out, "left out, ");
		assert_int_equal(sscanf(out, "%ld", &left), 1);
		assert_non_null(p);
		long q = -1;
		assert_int_equal(sscanf(p, "left out, %ld printed", &q), 1);
		assert_int_equal(q, printed);
		assert_int_equal(count_lines(err, "pmutop: "), 2 + (strstr(err, "PMU") != NULL));
	} else {
		assert_int_equal(count_lines(err, "pmutop: "), 1 + (strstr(err, "PMU") != NULL));
	}
	/* The recorder's last tick is in meta (format 4): the ticks after those SQLite
	 * can read are counted lost too. */
	assert_true(printed <= n);
	assert_int_equal(left + printed, 30);
	assert_true(printed > 0);
	/* --sql reads the same ticks. */
	char *q[] = {PMUTOP_BINARY, "-r", cut, "--sql", "SELECT count(*) FROM ticks", NULL};
	st = testutil_run(q, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	char want[64];
	snprintf(want, sizeof(want), "count(*)\n%ld\n", n);
	assert_string_equal(out1, want);
	free(file);
	free(cut);
}

/* A second recorder on the same file: one line, exit 2; the first goes on. */
static void test_one_recorder(void **state)
{
	(void)state;
	char *file = strdup(path("shared"));
	char *args[] = {PMUTOP_BINARY, "-b", "-q", "-d", "0.1", "-w", file, NULL};
	pid_t p = start(args, path("shared.log"));
	wait_ticks(file, 2);
	int st = testutil_run(args, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "another pmutop is recording into it"));
	uint64_t n = ticks_in(file, NULL);
	wait_ticks(file, n + 2);
	kill(p, SIGTERM);
	waitpid(p, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(file);
}

/* A full disk (a 2 MiB tmpfs): one line, recording stops (exit 1 with -q: nothing else
 * to do), and the file replays every tick it committed. */
static void test_full_disk(void **state)
{
	(void)state;
	char *small = strdup(path("small"));
	assert_int_equal(mkdir(small, 0755), 0);
	if (mount("tmpfs", small, "tmpfs", 0, "size=2m") != 0)
		skip();
	char file[600];
	snprintf(file, sizeof(file), "%s/rec", small);
	char *args[] = {PMUTOP_BINARY, "-b", "-q", "-d", "0.1", "-H", "-w", file, NULL};
	pid_t p = start(args, path("full.log"));
	int st = 0;
	for (int i = 0; i < 600; i++) {
		if (waitpid(p, &st, WNOHANG) == p)
			break;
		usleep(100000);
	}
	if (waitpid(p, NULL, WNOHANG) == 0) {
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		fail_msg("2 MiB did not fill in 60 s");
	}
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	FILE *f = fopen(path("full.log"), "r");
	size_t n = fread(err, 1, sizeof(err) - 1, f);
	err[n] = '\0';
	fclose(f);
	assert_non_null(strstr(err, "the disk is full: recording stopped after"));
	uint64_t ticks = ticks_in(file, NULL);
	assert_true(ticks > 0);
	/* The last committed tick (the whole run is more than out1 holds). */
	char *rep[] = {PMUTOP_BINARY, "-r",	 file,	  "-b", "--format",
		       "csv",	      "--begin", "-0.01", NULL};
	st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[32];
	snprintf(want, sizeof(want), "%llu,", (unsigned long long)ticks);
	assert_true(count_lines(out1, want) > 0);
	umount2(small, MNT_DETACH);
	free(small);
}

/* --max-size and --retain prune the oldest ticks as recording goes on, while a replay
 * reads: it never fails, it sees the start move on. */
/* Pages in use in file (what --max-size bounds). */
static long long used_bytes(const char *file)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	long long used = -1;
	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db,
			       "SELECT (page_count - freelist_count) * page_size FROM"
			       " pragma_page_count, pragma_freelist_count, pragma_page_size",
			       -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		used = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return used;
}

/* What file takes on the disk: the file and its WAL. */
static long long disk_bytes(const char *file)
{
	struct stat sb;
	char wal[600];
	long long n = stat(file, &sb) == 0 ? (long long)sb.st_size : 0;
	snprintf(wal, sizeof(wal), "%s-wal", file);
	return n + (stat(wal, &sb) == 0 ? (long long)sb.st_size : 0);
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Awake every 20 ms: a row with something to store at every tick. */
static void *napper(void *arg)
{
	(void)arg;
	for (;;)
		usleep(20000);
	return NULL;
}

/* A thread asleep under a name of its own, random: its rows do not compress. */
static void *named_sleeper(void *arg)
{
	static const char abc[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u ^ (unsigned)getpid();
	char name[16];
	for (int i = 0; i < 15; i++)
		name[i] = abc[rand_r(&seed) % 64];
	name[15] = '\0';
	prctl(PR_SET_NAME, name);
	for (;;)
		pause();
	return NULL;
}

/* A child with n threads more, asleep (how 0), napping (1) or asleep under random names
 * (2), once /proc shows them. */
static pid_t threads_child(int n, int how)
{
	pid_t p = fork();
	if (p == 0) {
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 64 * 1024);
		for (int i = 0; i < n; i++) {
			pthread_t t;
			if (pthread_create(&t, &a,
					   how == 2   ? named_sleeper
					   : how == 1 ? napper
						      : sleeper,
					   (void *)(uintptr_t)i))
				_exit(3);
		}
		for (;;)
			pause();
	}
	char status[64], line[256];
	snprintf(status, sizeof(status), "/proc/%d/status", (int)p);
	/* However long the machine takes (2,000 threads under valgrind: more than 10 s),
	 * within a deadline that only a child that cannot start them reaches. */
	for (double end = testutil_now() + 300; testutil_now() < end;) {
		FILE *f = fopen(status, "r");
		int threads = 0;
		while (f && fgets(line, sizeof(line), f))
			sscanf(line, "Threads: %d", &threads);
		if (f)
			fclose(f);
		if (threads >= n)
			return p;
		if (waitpid(p, NULL, WNOHANG) == p)
			fail_msg("the child could not start %d threads", n);
		usleep(50000);
	}
	fail_msg("the child did not start %d threads in 300 s", n);
	return p;
}

static void test_retention(void **state)
{
	(void)state;
	/* The rows of one child of 64 threads that nap (-p): the floor (its tasks) cannot
	 * move with what other tests run beside this one. The floor first, by a short
	 * recording; then a bound that leaves the WAL its share (a quarter, at least 32
	 * pages) and 128 KiB (eight pages; at 0.1 s ticks 64 rows that did something grow
	 * the file by about 10 KB a second) to ticks, going on with the same file. */
	char *file = strdup(path("bounded"));
	pid_t nap = kids[0] = threads_child(64, true);
	char napid[16];
	snprintf(napid, sizeof(napid), "%d", (int)nap);
	char *pre[] = {PMUTOP_BINARY, "-b", "-q",  "-n", "2",  "-d",
		       "0.1",	      "-p", napid, "-w", file, NULL};
	int st0 = testutil_run(pre, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st0) && WEXITSTATUS(st0) == 0);
	long long floor = used_bytes(file), bound = floor + 128 * 1024 + 512 * 1024, most = 0;
	assert_true(floor > 0);
	if (bound < (floor + 128 * 1024) * 4 / 3)
		bound = (floor + 128 * 1024) * 4 / 3;
	char max[32];
	snprintf(max, sizeof(max), "%lld", bound);
	char *args[] = {PMUTOP_BINARY, "-b",	     "-q", "-d", "0.1", "-p",
			napid,	       "--max-size", max,  "-w", file,	NULL};
	pid_t p = start(args, path("bounded.log"));
	wait_ticks(file, 4);
	char e[256];
	struct replay *rp = replay_open(file, e, sizeof(e));
	assert_non_null(rp);
	uint64_t first = 1, f, l;
	double wf, wl;
	/* Until pruning has gone on for 3 s: the file and its WAL within the bound. */
	for (int i = 0, after = 0; i < 900 && after < 30; i++) {
		if (waitpid(p, NULL, WNOHANG) == p) {
			FILE *lf = fopen(path("bounded.log"), "r");
			size_t ln = lf ? fread(err, 1, sizeof(err) - 1, lf) : 0;
			err[ln] = '\0';
			if (lf)
				fclose(lf);
			fail_msg("the recorder ended at --max-size %s: %s", max, err);
		}
		assert_int_equal(replay_span(rp, &f, &l, &wf, &wl), 0);
		int r = replay_load(rp, f, e, sizeof(e));
		if (r != 0 && r != -ENOENT)
			fail_msg("the replay failed while pruning went on: %s", e);
		first = f;
		after += first > 1;
		long long disk = disk_bytes(file);
		most = disk > most ? disk : most;
		usleep(100000);
	}
	replay_close(rp);
	kill(p, SIGTERM);
	waitpid(p, NULL, 0);
	kill(nap, SIGKILL);
	waitpid(nap, NULL, 0);
	kids[0] = 0;
	if (first == 1)
		fail_msg("no tick was pruned in 90 s at --max-size %s", max);
	if (most > bound)
		fail_msg("the file and its WAL took %lld bytes at --max-size %lld", most, bound);
	/* Closed, it is one file within the bound. */
	assert_true(disk_bytes(file) <= bound);
	/* A size that cannot hold an empty recording: one line, exit 2. */
	char *tiny[] = {PMUTOP_BINARY,	      "-b", "-q", "-n", "1", "--max-size", "100K", "-w",
			(char *)path("tiny"), NULL};
	int st1 = testutil_run(tiny, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st1) && WEXITSTATUS(st1) == 2);
	const char *at = strstr(err, "--max-size 100 KiB: a recording takes at least ");
	assert_non_null(at);
	/* The least it takes, with 2,000 threads more to record (-H), each of a random name
	 * (compressed, the same names would fit): their tasks need more pages than that
	 * leaves a tick, which stops the recording with one line. */
	long least = 0;
	assert_int_equal(
		sscanf(at, "--max-size 100 KiB: a recording takes at least %ld KiB", &least), 1);
	pid_t many = kids[1] = threads_child(2000, 2);
	char lim[32];
	snprintf(lim, sizeof(lim), "%ldK", least);
	char *big[] = {PMUTOP_BINARY, "-b", "-q",	  "-n", "3",  "-d",
		       "0.1",	      "-H", "--max-size", lim,	"-w", (char *)path("onetick"),
		       NULL};
	st1 = testutil_run(big, out1, sizeof(out1), err, sizeof(err));
	kill(many, SIGKILL);
	waitpid(many, NULL, 0);
	kids[1] = 0;
	assert_true(WIFEXITED(st1) && WEXITSTATUS(st1) == 1);
	if (!strstr(err, "is less than one tick takes here") ||
	    !strstr(err, "recording stopped after 0 ticks"))
		fail_msg("want one line saying a tick does not fit, got: %s", err);

	/* --retain: 0.00003 days is 2.6 s of ticks. */
	char *aged = strdup(path("aged"));
	char *old[] = {PMUTOP_BINARY, "-b",	  "-q",	     "-n", "50", "-d",
		       "0.1",	      "--retain", "0.00003", "-w", aged, NULL};
	int st = testutil_run(old, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	rp = replay_open(aged, e, sizeof(e));
	assert_non_null(rp);
	assert_int_equal(replay_span(rp, &f, &l, &wf, &wl), 0);
	replay_close(rp);
	assert_true(l == 50 && f > 1);
	/* Whole blocks go, each an eighth of DAYS at most: 2.6 s and a block's 0.32 s. */
	if (wl - wf > 0.00003 * 86400 * 9 / 8 + 0.05)
		fail_msg("%.2f s of ticks kept at --retain 0.00003 (2.6 s, 2.9 with a block)",
			 wl - wf);
	free(aged);
	free(file);
}

/* Repeated events (-e '{task-clock,cs},{task-clock,page-faults}'): `readings` names each
 * by its key (task-clock#1, task-clock#2), as CSV and Prometheus do, so neither is
 * counted twice. */
static void test_readings_keys(void **state)
{
	(void)state;
	char *file = strdup(path("repeat"));
	char *rec[] = {PMUTOP_BINARY, "-b", "-q",
		       "-n",	      "3",  "-d",
		       "0.2",	      "-e", "{task-clock,cs},{task-clock,page-faults}",
		       "-w",	      file, NULL};
	int st = testutil_run(rec, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *csv[] = {PMUTOP_BINARY, "-r", file, "-b", "--format", "csv", NULL};
	st = testutil_run(csv, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_non_null(strstr(out1, ",task-clock#1,"));
	assert_non_null(strstr(out1, ",task-clock#2,"));
	/* The CSV's keys: every stored row has both task-clocks, as many readings of each
	 * as of cs. */
	char *q[] = {PMUTOP_BINARY,
		     "-r",
		     file,
		     "--sql",
		     "SELECT (SELECT count(*) FROM readings WHERE event = 'task-clock#1'),"
		     " (SELECT count(*) FROM readings WHERE event = 'task-clock#2'),"
		     " (SELECT count(*) FROM readings WHERE event = 'cs')",
		     NULL};
	st = testutil_run(q, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	long one = 0, two = 0, cs = 0;
	assert_non_null(strchr(out2, '\n'));
	assert_int_equal(sscanf(strchr(out2, '\n') + 1, "%ld,%ld,%ld", &one, &two, &cs), 3);
	assert_true(one > 0);
	assert_int_equal(one, cs);
	assert_int_equal(two, cs);
	free(file);
}

/* A window outside the recording prints nothing and says so in one line, exit 2. */
static void expect_window(const char *file, char *begin, char *end, int code, const char *words)
{
	char *args[] = {PMUTOP_BINARY, "-r", (char *)file, "-b", "--format", "csv",
			NULL,	       NULL, NULL,	   NULL, NULL};
	int k = 6;
	if (begin) {
		args[k++] = "--begin";
		args[k++] = begin;
	}
	if (end) {
		args[k++] = "--end";
		args[k++] = end;
	}
	int st = testutil_run(args, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != code)
		fail_msg("--begin %s --end %s: exit %d, want %d (%s)", begin ? begin : "-",
			 end ? end : "-", WIFEXITED(st) ? WEXITSTATUS(st) : -1, code, err);
	if (code == 0) {
		assert_true(count_lines(out1, "1,") > 0);
		return;
	}
	assert_string_equal(out1, "");
	if (!strstr(err, words) || count_lines(err, "pmutop: ") != 1 ||
	    strchr(err, '\n') != err + strlen(err) - 1)
		fail_msg("want one line saying '%s', got: %s", words, err);
}

/* The ticks a -r -b --format csv run printed: a bit a tick (1 to 63), from each line's
 * first field. */
static uint64_t csv_tick_set(const char *csv)
{
	uint64_t set = 0;
	for (const char *l = csv; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *end;
		unsigned long k = strtoul(l, &end, 10);
		if (end != l && *end == ',' && k >= 1 && k < 64)
			set |= 1ull << k;
	}
	return set;
}

/* The text after key in the line that starts with start, up to stop, into buf. */
static bool field_after(const char *out, const char *start, const char *key, char stop, char *buf,
			size_t len)
{
	const char *l = out;
	size_t n = strlen(start);
	while (l && strncmp(l, start, n) != 0)
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
	const char *eol = l ? strchr(l, '\n') : NULL;
	const char *v = l ? strstr(l, key) : NULL;
	if (!v || (eol && v > eol))
		return false;
	v += strlen(key);
	const char *e = strchr(v, stop);
	if (!e || (eol && e > eol) || (size_t)(e - v) >= len)
		return false;
	memcpy(buf, v, (size_t)(e - v));
	buf[e - v] = '\0';
	return true;
}

/* --begin T --end T: the ticks -r -b prints. */
static uint64_t window_ticks(const char *file, char *t)
{
	char *args[] = {PMUTOP_BINARY, "-r", (char *)file, "-b", "--format", "csv",
			"--begin",     t,    "--end",	   t,	 NULL};
	int st = testutil_run(args, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("--begin %s --end %s: exit %d (%s)", t, t,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
	return csv_tick_set(out1);
}

/* --begin T --end T with T as pmutop printed a tick's time selects that tick alone, in
 * every form it prints one: the clock time with its fraction (text's header), @ and CSV's
 * wall, CSV's and JSON's ISO at (that instant, in any zone); its whole second, alone
 * or after its date as the replay screen's header prints it, selects the ticks printed
 * in that second. Recorded in a zone half an hour off UTC. */
static void test_window_printed(void **state)
{
	(void)state;
	char *file = strdup(path("printed")), pid[16];
	const char *tz = getenv("TZ");
	char *saved = tz ? strdup(tz) : NULL;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("TZ", "Asia/Kolkata", 1);
	char *rec[] = {PMUTOP_BINARY, "-b", "-n", "8",	"-d",	    "0.15", "-e", "task-clock",
		       "-p",	      pid,  "-w", file, "--format", "csv",  NULL};
	int st = testutil_run(rec, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *live = strdup(out2); /* the live CSV: its wall and at */
	char *txt[] = {PMUTOP_BINARY, "-r", file, "-b", "--format", "text", NULL};
	st = testutil_run(txt, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *text = strdup(out2);
	setenv("TZ", "America/St_Johns", 1); /* -03:30 or -02:30: JSON's at, read here */
	char *js[] = {PMUTOP_BINARY, "-r", file, "-b", "--format", "json", NULL};
	st = testutil_run(js, out2, sizeof(out2), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *json = strdup(out2);
	for (unsigned k = 1; k <= 8; k++) {
		char start[32], at[64], wall[64], iso[64], clock[32], sec[32], jat[64], day[32];
		uint64_t want = 1ull << k;
		/* CSV's wall and at: the line's last two fields. */
		snprintf(start, sizeof(start), "%u,", k);
		char line[512];
		assert_true(field_after(live, start, start, '\n', line, sizeof(line)));
		char *c2 = strrchr(line, ',');
		assert_non_null(c2);
		snprintf(at, sizeof(at), "%s", c2 + 1);
		*c2 = '\0';
		assert_non_null(strrchr(line, ','));
		snprintf(wall, sizeof(wall), "@%s", strrchr(line, ',') + 1);
		snprintf(start, sizeof(start), "{\"tick\":%u,", k);
		assert_true(field_after(json, start, "\"at\":\"", '"', jat, sizeof(jat)));
		char key[32];
		snprintf(key, sizeof(key), " - tick %u at ", k);
		const char *h = strstr(text, key);
		assert_non_null(h);
		assert_true(sscanf(h + strlen(key), "%63[^,]", iso) == 1);
		/* 2026-11-29T07:10:35.900+05:30: the clock time with its fraction, its second */
		assert_true(strlen(iso) == 29 && iso[10] == 'T' && iso[19] == '.');
		snprintf(clock, sizeof(clock), "%.12s", iso + 11);
		snprintf(sec, sizeof(sec), "%.8s", iso + 11);
		/* The same instant, printed in the other zone (JSON's) */
		assert_true(strcmp(jat, at) != 0 && strncmp(at + 23, "+05:30", 6) == 0);
		setenv("TZ", "Asia/Kolkata", 1);
		uint64_t got = window_ticks(file, clock);
		if (got != want)
			fail_msg("tick %u: --begin/--end %s (text's clock time) select ticks %#llx",
				 k, clock, (unsigned long long)got);
		uint64_t same = 0;
		for (unsigned j = 1; j <= 8; j++) {
			char kj[32];
			snprintf(kj, sizeof(kj), " - tick %u at ", j);
			const char *hj = strstr(text, kj);
			assert_non_null(hj);
			if (strncmp(hj + strlen(kj) + 11, sec, 8) == 0)
				same |= 1ull << j;
		}
		if ((got = window_ticks(file, sec)) != same)
			fail_msg("tick %u: --begin/--end %s (its second) select ticks %#llx, want "
				 "%#llx",
				 k, sec, (unsigned long long)got, (unsigned long long)same);
		/* The replay screen's header: the date and the whole second. */
		snprintf(day, sizeof(day), "%.10s %.8s", iso, iso + 11);
		if ((got = window_ticks(file, day)) != same)
			fail_msg("tick %u: --begin/--end '%s' (the screen's) select ticks %#llx, "
				 "want "
				 "%#llx",
				 k, day, (unsigned long long)got, (unsigned long long)same);
		setenv("TZ", "America/St_Johns", 1);
		if ((got = window_ticks(file, wall)) != want)
			fail_msg("tick %u: --begin/--end %s (CSV's wall) select ticks %#llx", k,
				 wall, (unsigned long long)got);
		if ((got = window_ticks(file, at)) != want)
			fail_msg("tick %u: --begin/--end %s (CSV's at, in another zone) select "
				 "ticks %#llx",
				 k, at, (unsigned long long)got);
		if ((got = window_ticks(file, jat)) != want)
			fail_msg("tick %u: --begin/--end %s (JSON's at, in another zone) select "
				 "ticks %#llx",
				 k, jat, (unsigned long long)got);
	}
	/* --sql reads the whole file: a window with it is refused, not dropped. */
	char *sql[] = {PMUTOP_BINARY, "-r",   file, "--sql", "SELECT count(*) FROM ticks",
		       "--begin",     "+0.1", NULL};
	st = testutil_run(sql, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_string_equal(out1, "");
	if (!strstr(err, "--sql reads the whole recording") || count_lines(err, "pmutop: ") != 1)
		fail_msg("--sql --begin: want one line, got: %s", err);
	if (saved)
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	free(saved);
	free(live);
	free(text);
	free(json);
	free(file);
}

static void test_window_outside(void **state)
{
	(void)state;
	char *file = strdup(path("window"));
	char *rec[] = {PMUTOP_BINARY, "-b", "-q", "-n", "3", "-d", "0.2", "-w", file, NULL};
	int st = testutil_run(rec, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char e[256];
	uint64_t f, l;
	double wf, wl;
	struct replay *rp = replay_open(file, e, sizeof(e));
	assert_non_null(rp);
	assert_int_equal(replay_span(rp, &f, &l, &wf, &wl), 0);
	replay_close(rp);
	char after[64], before[64], last[64], gap_lo[64], gap_hi[64];
	snprintf(after, sizeof(after), "@%.3f", wl + 100);
	snprintf(before, sizeof(before), "@%.3f", wf - 100);
	snprintf(last, sizeof(last), "@%.3f", wl);
	snprintf(gap_lo, sizeof(gap_lo), "@%.3f", wf + 0.001);
	snprintf(gap_hi, sizeof(gap_hi), "@%.3f", wf + 0.002);
	expect_window(file, after, NULL, 2, "is after the last recorded tick");
	expect_window(file, NULL, before, 2, "is before the first recorded tick");
	expect_window(file, gap_lo, gap_hi, 2, "no tick was recorded between");
	/* A begin before the first tick with an end inside is a window. */
	expect_window(file, before, last, 0, NULL);
	/* And a directory is no recording. */
	expect_refusal(dir, "is a directory");
	free(file);
}

/* argv run as nobody: out and err filled, the exit status returned. */
static int run_nobody(char *const argv[])
{
	char *args[32] = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup",
			  "--clear-groups"};
	int k = 4;
	for (int i = 0; argv[i] && k < 31; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	return testutil_run(args, out1, sizeof(out1), err, sizeof(err));
}

/* The recording at file replays (-b and --sql), as root or as nobody. */
static void expect_replay(const char *file, bool nobody)
{
	char *rep[] = {PMUTOP_BINARY, "-r", (char *)file, "-b", "-n", "1", NULL};
	char *sql[] = {PMUTOP_BINARY,
		       "-r",
		       (char *)file,
		       "--sql",
		       "SELECT count(*), (SELECT count(*) > 0 FROM readings) FROM ticks",
		       NULL};
	int st = nobody ? run_nobody(rep) : testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !strstr(out1, "PID"))
		fail_msg("%s%s: -r -b exit %d: %s", file, nobody ? " as nobody" : "",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
	st = nobody ? run_nobody(sql) : testutil_run(sql, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !strstr(out1, "\n3,1\n"))
		fail_msg("%s%s: --sql exit %d: %s%s", file, nobody ? " as nobody" : "",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1, out1, err);
}

/* A closed recording replays from read-only media and for any user who can read it:
 * as pmutop leaves it, and left in WAL mode (an older pmutop's, or closed while a
 * replay read it). Ticks still in a -wal that cannot be read there: one line that says
 * so, not "damaged". */
static void test_read_only(void **state)
{
	(void)state;
	if (access("/usr/bin/setpriv", X_OK) != 0)
		skip();
	snprintf(pub, sizeof(pub), "/tmp/pmutop-ro.%d", (int)getpid());
	snprintf(pub_ro, sizeof(pub_ro), "%s/ro", pub);
	assert_int_equal(mkdir(pub, 0755), 0);
	assert_int_equal(chmod(pub, 0755), 0);
	assert_int_equal(mkdir(pub_ro, 0755), 0);
	char file[128], wal[128], live[128], cmd[1024];
	snprintf(file, sizeof(file), "%s/closed", pub);
	snprintf(wal, sizeof(wal), "%s/walmode", pub);
	snprintf(live, sizeof(live), "%s/killed", pub);
	char *rec[] = {PMUTOP_BINARY, "-b", "-q", "-n", "3", "-d", "0.2", "-w", file, NULL};
	int st = testutil_run(rec, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", file, wal);
	assert_int_equal(system(cmd), 0);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(wal, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	char side[160];
	snprintf(side, sizeof(side), "%s-shm", wal);
	assert_int_equal(access(side, F_OK), -1);
	/* A root-owned 0644 file in a root-owned 0755 directory (the systemd unit's). */
	assert_int_equal(chmod(file, 0644), 0);
	assert_int_equal(chmod(wal, 0644), 0);
	expect_replay(file, true);
	expect_replay(wal, true);
	/* A recorder killed: its last ticks are in the -wal. */
	char *args[] = {PMUTOP_BINARY, "-b",	     "-q", "-d", "0.1",
			"-e",	       "task-clock", "-w", live, NULL};
	pid_t p = start(args, path("killed-ro.log"));
	wait_ticks(live, 3);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	/* Read-only media: a tmpfs with copies, remounted read-only. */
	assert_int_equal(mount("tmpfs", pub_ro, "tmpfs", 0, "size=64m"), 0);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' '%s' '%s-wal' '%s'", file, wal, live, live,
		 pub_ro);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mount("tmpfs", pub_ro, "tmpfs", MS_REMOUNT | MS_RDONLY, NULL), 0);
	char rofile[160], rowal[160], rolive[160];
	snprintf(rofile, sizeof(rofile), "%s/closed", pub_ro);
	snprintf(rowal, sizeof(rowal), "%s/walmode", pub_ro);
	snprintf(rolive, sizeof(rolive), "%s/killed", pub_ro);
	expect_replay(rofile, false);
	expect_replay(rowal, false);
	expect_replay(rowal, true);
#ifdef PMUTOPSQL_MODULE
	/* The sqlite3 shell's way: the closed file needs no -shm, no URI parameter. */
	assert_int_equal(sqlite3_open_v2(rofile, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_enable_load_extension(db, 1), SQLITE_OK);
	assert_int_equal(sqlite3_load_extension(db, PMUTOPSQL_MODULE, NULL, NULL), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM readings", -1, &q, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_true(sqlite3_column_int64(q, 0) > 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
#endif
	char *rep[] = {PMUTOP_BINARY, "-r", rolive, "-b", NULL};
	st = testutil_run(rep, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_string_equal(out1, "");
	if (!strstr(err, "-wal") || !strstr(err, "copy both files") || strstr(err, "damaged") ||
	    count_lines(err, "pmutop: ") != 1)
		fail_msg("want one line naming the -wal, got: %s", err);
	umount2(pub_ro, MNT_DETACH);
}

int main(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "test_it_record: not root, skipped\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_equals_live),
		cmocka_unit_test(test_recorded_without),
		cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_torn_wal),
		cmocka_unit_test(test_killed_before_first),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_one_recorder),
		cmocka_unit_test(test_full_disk),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_readings_keys),
		cmocka_unit_test(test_window_outside),
		cmocka_unit_test(test_window_printed),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_index_damaged),
		cmocka_unit_test(test_sql_untrusted),
		cmocka_unit_test(test_step_damaged),
	};
	if (getenv("PMUTOP_TEST_FILTER"))
		cmocka_set_test_filter(getenv("PMUTOP_TEST_FILTER"));
	return cmocka_run_group_tests(tests, setup, teardown);
}
