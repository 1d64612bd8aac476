/* Metrics end to end on software events (this machine has no hardware PMU): perf's JSON
 * format loaded with --metrics and chosen with -M, computed per row by the real binary
 * from the same row's counts, recorded with -w and replayed with -r to the same bytes;
 * bad -M and --metrics get one line and exit 2. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char out1[1 << 20], out2[1 << 20], err[8192];
static char rec[256], json[512];

/* A process that switches (sleeps) and faults (sh starting sleep), then ends. */
#define WORK "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 0.2; sleep 0.2"

static int setup(void **state)
{
	(void)state;
	snprintf(rec, sizeof(rec), "/tmp/pmutop-metric-%d.rec", (int)getpid());
	snprintf(json, sizeof(json), "%s",
		 testutil_path("fixtures/metrics/json/software-test.json"));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char p[300];
	unlink(rec);
	snprintf(p, sizeof(p), "%s-wal", rec);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", rec);
	unlink(p);
	return 0;
}

/* CSV fields: tick,time,interval,kind,pid,tid,cpu,command,event,value,state,running,why */
struct cell {
	char tick[16], pid[16], value[32], state[16], why[48];
};

static bool csv_cell(const char *line, const char *event, struct cell *c)
{
	char f[15][64];
	unsigned n = 0;
	const char *p = line;
	while (n < 15) {
		const char *e = strpbrk(p, ",\n");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		snprintf(f[n++], sizeof(f[0]), "%.*s", (int)(len < 63 ? len : 63), p);
		if (!e || *e == '\n')
			break;
		p = e + 1;
	}
	if (n < 13 || strcmp(f[3], "process") != 0 || strcmp(f[8], event) != 0)
		return false;
	snprintf(c->tick, sizeof(c->tick), "%s", f[0]);
	snprintf(c->pid, sizeof(c->pid), "%s", f[4]);
	snprintf(c->value, sizeof(c->value), "%s", f[9]);
	snprintf(c->state, sizeof(c->state), "%s", f[10]);
	snprintf(c->why, sizeof(c->why), "%s", f[12]);
	return true;
}

/* The cell of event in the process row of tick and pid, or false. */
static bool find_cell(const char *out, const char *tick, const char *pid, const char *event,
		      struct cell *c)
{
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (csv_cell(l, event, c) && !strcmp(c->tick, tick) && !strcmp(c->pid, pid))
			return true;
	return false;
}

/* Each process row's sw_faults_per_switch is its page-faults over its context-switches,
 * or a gap for division by zero when it did not switch; sw_cpu_share is its CPU%.
 * Returns how many rows had a number. */
static unsigned check_rows(const char *out)
{
	unsigned numbers = 0, gaps = 0;
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		struct cell m, pf, cs, share, cpu;
		if (!csv_cell(l, "sw_faults_per_switch", &m))
			continue;
		assert_true(find_cell(out, m.tick, m.pid, "page-faults", &pf));
		assert_true(find_cell(out, m.tick, m.pid, "context-switches", &cs));
		assert_true(find_cell(out, m.tick, m.pid, "sw_cpu_share", &share));
		assert_true(find_cell(out, m.tick, m.pid, "CPU%", &cpu));
		if (strcmp(cs.state, "exact") == 0 && strcmp(pf.state, "exact") == 0) {
			double f = atof(pf.value), s = atof(cs.value);
			if (s == 0) {
				assert_string_equal(m.state, "empty");
				assert_string_equal(m.value, "");
				assert_string_equal(m.why, "division by zero");
				gaps++;
			} else {
				assert_string_equal(m.state, "exact");
				if (fabs(atof(m.value) - f / s) > 0.00005 + 1e-9)
					fail_msg("tick %s pid %s: %s faults / %s switches = %s",
						 m.tick, m.pid, pf.value, cs.value, m.value);
				numbers++;
			}
		} else if (strcmp(cs.state, "n/c") == 0) {
			assert_string_equal(m.state, "n/c");
		}
		/* duration_time is the interval: the metric is the CPU% column. */
		assert_string_equal(share.value, cpu.value);
		assert_string_equal(share.state, cpu.state);
	}
	(void)gaps;
	return numbers;
}

static void test_live_and_replay(void **state)
{
	(void)state;
	char *live[] = {PMUTOP_BINARY, "-b", "-d", "0.15",   "--format", "csv",
			"--metrics",   json, "-M", "SwTest", "-w",	 rec,
			"--",	       "sh", "-c", WORK,     NULL};
	int st = testutil_run(live, out1, sizeof(out1), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("pmutop exited %d: %s", st, err);
	unsigned n = check_rows(out1);
	if (n == 0)
		fail_msg("no process row with a number for sw_faults_per_switch:\n%.2000s", out1);
	/* The Metrics pane's columns, and nothing of a Top-down pane this machine lacks. */
	assert_non_null(strstr(out1, ",sw_cpu_share,"));
	assert_null(strstr(out1, "tma_"));
	assert_non_null(strstr(err, "no top-down"));
	char *rep[] = {PMUTOP_BINARY, "-r", rec, "-b", "--format", "csv", NULL};
	st = testutil_run(rep, out2, sizeof(out2), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("replay exited %d: %s", st, err);
	assert_true(check_rows(out2) == n);
	if (strcmp(out1, out2) != 0)
		fail_msg("the replay differs from the live output (%zu vs %zu bytes)", strlen(out1),
			 strlen(out2));
}

static void test_bad_input(void **state)
{
	(void)state;
	char *unknown[] = {PMUTOP_BINARY, "-b", "-n", "1", "-M", "NoSuchGroup", NULL};
	int st = testutil_run(unknown, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "'NoSuchGroup'"));
	assert_true(strchr(err, '\n') == err + strlen(err) - 1);
	char *missing[] = {PMUTOP_BINARY, "-b", "-n", "1", "--metrics", "/nonexistent.json", NULL};
	st = testutil_run(missing, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "/nonexistent.json"));
	assert_true(strchr(err, '\n') == err + strlen(err) - 1);
	char *notjson[] = {PMUTOP_BINARY, "-b", "-n", "1", "--metrics", rec, NULL};
	FILE *f = fopen(rec, "w");
	assert_non_null(f);
	fputs("[{\"MetricName\": \"x\", \"MetricExpr\": \"a +\"}]", f);
	fclose(f);
	st = testutil_run(notjson, out1, sizeof(out1), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_non_null(strstr(err, "metric x"));
	unlink(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_and_replay),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
