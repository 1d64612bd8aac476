/* A source swapped mid-run (issue 27 item 2): the bpf backend gives up (forced by
 * PMUTOP_TEST_BPF_GIVE_UP, as when its program can no longer be read), the app counts
 * with perf from then on, and batch mode, the recording and /metrics all go on, with one
 * notice line, the same numbers in each, and the worker's page faults counted by perf. */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEADLINE_S 60.0
#define PAGES 3000u
#define METRIC "pmutop_process_events_total"
#define MAXT 4096

#ifdef PMUTOP_NO_BPF
#define NO_BPF true
#else
#define NO_BPF false
#endif

static char dir[] = "/tmp/pmutop-itswap-XXXXXX";

static const char *in_dir(const char *name)
{
	static char buf[8][320];
	static unsigned k;
	char *b = buf[k++ % 8];
	snprintf(b, sizeof(buf[0]), "%s/%s", dir, name);
	return b;
}

static uint64_t worker_touch(int to, int from, uint32_t n)
{
	uint64_t own = 0;
	assert_int_equal(write(to, &n, sizeof(n)), sizeof(n));
	if (n)
		assert_int_equal(read(from, &own, sizeof(own)), sizeof(own));
	return own;
}

static bool file_has(const char *path, const char *what)
{
	char *t = testutil_slurp(path);
	bool has = strstr(t, what) != NULL;
	free(t);
	return has;
}

static unsigned count_of(const char *text, const char *what)
{
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

struct scrapes {
	unsigned port;
	pid_t w;
	double v[MAXT];
	unsigned n;
};

static void scrape(struct scrapes *s)
{
	double v = testutil_scrape(s->port, METRIC, s->w, "page-faults");
	if (v >= 0 && s->n < MAXT && (s->n == 0 || s->v[s->n - 1] != v))
		s->v[s->n++] = v;
}

/* pmutop -b --backend bpf -w F --listen P whose bpf backend gives up at its 3rd tick:
 * the run goes on with perf, and every output with it. */
static void test_swap_keeps_every_output(void **state)
{
	(void)state;
	if (NO_BPF || geteuid() != 0)
		skip();
	int to, from;
	pid_t w = testutil_worker_start(&to, &from);
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)w);
	const char *db = in_dir("run.pmutop"), *out = in_dir("run.csv"), *err = in_dir("run.err");
	char *argv[] = {PMUTOP_BINARY, "-b",	      "-d",	  "0.3",	 "--format",  "csv",
			"-e",	       "page-faults", "-p",	  pid,		 "--backend", "bpf",
			"-w",	       (char *)db,    "--listen", "127.0.0.1:0", NULL};
	setenv("PMUTOP_TEST_BPF_GIVE_UP", "3", 1);
	pid_t m = testutil_spawn(argv, out, err);
	unsetenv("PMUTOP_TEST_BPF_GIVE_UP");
	assert_true(m > 0);
	struct scrapes s = {.w = w};
	double end = testutil_now() + DEADLINE_S;
	while (!(s.port = testutil_listening_port(err)) && testutil_now() < end &&
	       waitpid(m, NULL, WNOHANG) == 0)
		testutil_nap_ms(10);
	if (!s.port && file_has(err, "--backend bpf:")) {
		worker_touch(to, from, 0);
		skip(); /* no BPF here: nothing to swap */
	}
	if (!s.port)
		fail_msg("no 'listening on' line: %s", testutil_slurp(err));
	/* Pages while bpf counts, then the swap, then pages while perf counts. */
	uint64_t own1 = worker_touch(to, from, PAGES);
	while (!file_has(err, "bpf backend gave up") && testutil_now() < end) {
		scrape(&s);
		testutil_nap_ms(5);
	}
	if (!file_has(err, "bpf backend gave up"))
		fail_msg("no swap within %.0f s: %s", DEADLINE_S, testutil_slurp(err));
	uint64_t own2 = worker_touch(to, from, PAGES);
	/* Two more ticks: the one that holds the pages' end has been written by all. */
	long after = testutil_csv_ticks(out) + 2;
	while (testutil_csv_ticks(out) < after && testutil_now() < end &&
	       waitpid(m, NULL, WNOHANG) == 0) {
		scrape(&s);
		testutil_nap_ms(5);
	}
	scrape(&s);
	assert_true(testutil_csv_ticks(out) >= after);
	kill(m, SIGINT);
	int st = testutil_reap(m, DEADLINE_S);
	worker_touch(to, from, 0);
	waitpid(w, NULL, 0);
	close(to);
	close(from);
	char *e = testutil_slurp(err);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("pmutop: status %#x: %s", st, e);
	/* One notice line, whatever the number of ticks after it. */
	assert_int_equal(count_of(e, "bpf backend gave up"), 1);

	/* Batch: every tick once, numbered on across the swap. */
	char *csv = testutil_slurp(out);
	double faults[MAXT], sums[MAXT + 1] = {0};
	unsigned ticks = testutil_csv_faults(csv, w, faults, MAXT);
	assert_true(ticks >= 4);
	assert_int_equal(testutil_csv_ticks(out), (long)ticks);
	for (unsigned i = 0; i < ticks; i++)
		sums[i + 1] = sums[i] + faults[i];
	/* The recording: the same ticks, bpf's, then perf's from the swap on. */
	char rout[256 * 1024], rerr[4096];
	char *text[] = {PMUTOP_BINARY, "-r", (char *)db, "-b", NULL};
	assert_int_equal(testutil_run(text, rout, sizeof(rout), rerr, sizeof(rerr)), 0);
	unsigned nbpf = count_of(rout, "tasks (bpf)"), nperf = count_of(rout, "tasks (perf)");
	const char *last_bpf = strstr(rout, "tasks (bpf)"),
		   *first_perf = strstr(rout, "tasks (perf)");
	for (const char *p = last_bpf; p && (p = strstr(p + 1, "tasks (bpf)"));)
		last_bpf = p;
	print_message("  %u ticks: %u bpf, %u perf; page faults %.0f (bpf) + %.0f (perf), the "
		      "worker made %llu + %llu; %u distinct /metrics values\n",
		      ticks, nbpf, nperf, sums[nbpf], sums[ticks] - sums[nbpf],
		      (unsigned long long)own1, (unsigned long long)own2, s.n);
	assert_int_equal(nbpf + nperf, ticks);
	assert_true(nbpf >= 1 && nperf >= 2);
	assert_true(last_bpf && first_perf && last_bpf < first_perf);
	/* Perf counted the pages touched after the swap, and nothing was counted twice. */
	assert_true(sums[ticks] - sums[nbpf] >= (double)own2);
	assert_true(sums[ticks] <= (double)(own1 + own2) + 64);
	/* /metrics: every exposition a running sum of the batch's ticks, across the swap,
	 * and the pages perf counted served. */
	bool served = false;
	for (unsigned i = 0; i < s.n; i++) {
		bool found = false;
		for (unsigned k = 0; k <= ticks && !found; k++)
			found = s.v[i] == sums[k];
		if (!found)
			fail_msg("/metrics served %.0f page faults, no tick's running sum of the "
				 "batch (%.0f after %u ticks)",
				 s.v[i], sums[ticks], ticks);
		served = served || s.v[i] >= sums[nbpf] + (double)own2;
	}
	assert_true(served);
	/* The recording replays as the same CSV. */
	char *rep[] = {PMUTOP_BINARY, "-r", (char *)db, "-b", "--format", "csv", NULL};
	assert_int_equal(testutil_run(rep, rout, sizeof(rout), rerr, sizeof(rerr)), 0);
	assert_string_equal(rout, csv);
	free(csv);
	free(e);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swap_keeps_every_output),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
