/* pmutop --prometheus against Debian's prometheus (1 s scrapes, its own temporary TSDB)
 * scraping three pmutop exporters on 127.0.0.2, .3 and .4: a workload that knows its rate
 * (STEADY_RATE page faults a second, by absolute deadlines) ranks on every instance with
 * that rate within a scrape interval's share of the query window, and a killed exporter's
 * rows read n/c (stale), never zeros. */
#include "testutil.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STEADY_PAGES 10
#define STEADY_PERIOD_NS 10000000L /* 10 pages every 10 ms: 1,000 faults a second */
#define STEADY_RATE 1000.0
#define WAIT_S 90.0
#define NHOST 3

static char tmpdir[] = "/tmp/pmutop-fleet-XXXXXX";
static pid_t steady, prom, exporter[NHOST];
static unsigned eport, pport;

/* STEADY_PAGES fresh pages each period, on absolute deadlines: a late period is made up
 * at once, so the rate over any window of a second or more is STEADY_RATE. */
static pid_t start_steady(void)
{
	pid_t p = fork();
	if (p == 0) {
		prctl(PR_SET_NAME, "pq_steady");
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		for (;;) {
			testutil_touch_pages(STEADY_PAGES);
			t.tv_nsec += STEADY_PERIOD_NS;
			t.tv_sec += t.tv_nsec / 1000000000L;
			t.tv_nsec %= 1000000000L;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		}
	}
	return p;
}

static int setup(void **state)
{
	(void)state;
	if (access("/usr/bin/prometheus", X_OK) != 0) {
		fprintf(stderr, "prometheus not installed (apt-get install prometheus)\n");
		return -1;
	}
	if (!mkdtemp(tmpdir))
		return -1;
	steady = start_steady();
	eport = testutil_free_port();
	pport = testutil_free_port();
	char listen[NHOST][32], out[600], err[600];
	for (int i = 0; i < NHOST; i++) {
		snprintf(listen[i], sizeof(listen[i]), "127.0.0.%d:%u", i + 2, eport);
		char *a[] = {PMUTOP_BINARY,
			     "--listen",
			     listen[i],
			     "-d",
			     "0.5",
			     "-e",
			     "task-clock,page-faults",
			     NULL};
		snprintf(out, sizeof(out), "%s/ex%d.out", tmpdir, i);
		snprintf(err, sizeof(err), "%s/ex%d.err", tmpdir, i);
		exporter[i] = testutil_spawn(a, out, err);
	}
	char cfg[512], data[600], web[64];
	snprintf(cfg, sizeof(cfg), "%s/prometheus.yml", tmpdir);
	FILE *f = fopen(cfg, "w");
	if (!f)
		return -1;
	fprintf(f,
		"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
		"scrape_configs:\n  - job_name: pmutop\n    static_configs:\n"
		"      - targets: ['%s', '%s', '%s']\n",
		listen[0], listen[1], listen[2]);
	fclose(f);
	snprintf(data, sizeof(data), "--storage.tsdb.path=%s/data", tmpdir);
	snprintf(web, sizeof(web), "--web.listen-address=127.0.0.1:%u", pport);
	char cfgarg[600];
	snprintf(cfgarg, sizeof(cfgarg), "--config.file=%s/prometheus.yml", tmpdir);
	char *pa[] = {"/usr/bin/prometheus", cfgarg, data, web, NULL};
	snprintf(out, sizeof(out), "%s/prom.out", tmpdir);
	snprintf(err, sizeof(err), "%s/prom.err", tmpdir);
	prom = testutil_spawn(pa, out, err);
	return steady > 0 && prom > 0 && exporter[0] > 0 && exporter[1] > 0 && exporter[2] > 0 ? 0
											       : -1;
}

static int teardown(void **state)
{
	(void)state;
	pid_t all[] = {steady, prom, exporter[0], exporter[1], exporter[2]};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i] > 0) {
			kill(all[i], SIGKILL);
			waitpid(all[i], NULL, 0);
		}
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A count as the batch text writes it: 1234, 12.3k, 1.2M. */
static double count_of(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s)
		return -1;
	return *end == 'k' ? v * 1e3 : *end == 'M' ? v * 1e6 : v;
}

/* One --prometheus -b run of two 2 s ticks: for each host, pq_steady's page faults a
 * second at the last tick (-1: no row, -2: its row n/c) into rate[]. */
static void fleet_rates(double rate[NHOST], char *text, size_t cap)
{
	char url[64];
	snprintf(url, sizeof(url), "http://127.0.0.1:%u", pport);
	char *a[] = {PMUTOP_BINARY, "--prometheus", url, "-b", "-n", "2", "-d", "2", NULL};
	char err[1024];
	int st = testutil_run(a, text, cap, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (int i = 0; i < NHOST; i++)
		rate[i] = -1;
	const char *last = text, *p;
	while ((p = strstr(last + 1, "pmutop - ")))
		last = p;
	char line[512];
	for (const char *l = last; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 l);
		char pid[16], inst[64], job[32], cpu[32], flt[32], comm[64];
		if (sscanf(line, "%15s %63s %31s %31s %31s %63s", pid, inst, job, cpu, flt, comm) !=
		    6)
			continue;
		int h = -1;
		for (int i = 0; i < NHOST; i++) {
			char want[32];
			snprintf(want, sizeof(want), "127.0.0.%d:%u", i + 2, eport);
			if (!strcmp(inst, want))
				h = i;
		}
		if (h < 0)
			continue;
		assert_string_equal(pid, "n/a"); /* a command's processes on another host */
		if (!strcmp(comm, "pq_steady"))
			rate[h] = strcmp(flt, "n/c") ? count_of(flt) / 2.0 : -2;
		else if (!strcmp(flt, "n/c") && rate[h] == -1)
			rate[h] = -2;
	}
}

static void test_fleet(void **state)
{
	(void)state;
	static char text[1 << 20];
	double rate[NHOST] = {-1, -1, -1}, end = testutil_now() + WAIT_S;
	bool ok = false;
	/* Every host ranks the workload once Prometheus holds a few scrapes of each. */
	while (!ok && testutil_now() < end) {
		testutil_nap_ms(1000);
		fleet_rates(rate, text, sizeof(text));
		ok = true;
		for (int i = 0; i < NHOST; i++)
			ok = ok && rate[i] > 0;
	}
	for (int i = 0; i < NHOST; i++) {
		fprintf(stderr, "127.0.0.%d: pq_steady %.0f faults/s (truth %.0f)\n", i + 2,
			rate[i], STEADY_RATE);
		/* a 4 s window: one scrape more or less is 25% of it */
		assert_true(fabs(rate[i] - STEADY_RATE) <= 0.3 * STEADY_RATE);
	}
	assert_non_null(strstr(text, "3 targets up, 0 down"));
	/* A killed exporter: its rows n/c, the others still counted. */
	kill(exporter[2], SIGKILL);
	waitpid(exporter[2], NULL, 0);
	exporter[2] = 0;
	ok = false;
	end = testutil_now() + WAIT_S;
	while (!ok && testutil_now() < end) {
		testutil_nap_ms(1000);
		fleet_rates(rate, text, sizeof(text));
		ok = rate[2] == -2;
	}
	assert_true(ok);
	assert_true(rate[0] > 0 && rate[1] > 0);
	/* the header counts the fleet's targets, not this machine's CPUs */
	assert_non_null(strstr(text, "2 targets up, 1 down"));
	assert_null(strstr(text, " CPUs "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_fleet)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
