/* pmutop --prometheus against Debian's prometheus (1 s scrapes, its own temporary TSDB)
 * scraping three pmutop exporters on 127.0.0.2, .3 and .4: a workload that knows its rate
 * (STEADY_RATE page faults a second, by absolute deadlines) ranks on every instance with
 * that rate within a scrape interval's share of the query window, as a command's row and
 * (--cgroups) as its cgroup's row, and a killed exporter's rows read n/c (stale), never
 * zeros, as every host's do once all are killed, in a run that goes on through it; and
 * pmutop --connect to one of the three equals that host's own rows. */
#include "cgroup.h"
#include "testutil.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STEADY_PAGES 10
#define STEADY_PERIOD_NS 10000000L /* 10 pages every 10 ms: 1,000 faults a second */
#define STEADY_RATE 1000.0
#define WAIT_S 90.0
#define NHOST 3

static char tmpdir[] = "/tmp/pmutop-fleet-XXXXXX";
static pid_t steady, prom, exporter[NHOST], live;
static unsigned eport, pport;
static char ecsv[NHOST][600]; /* each exporter's own batch CSV */
/* pq_steady's cgroup: its path under the cgroup2 mount, and relative to it (the label) */
static char cgdir[600], cgrel[64];
/* The workload's command name, this run's own: the fleet's rows are per command, and
 * another run of this test on the machine (another engineer's) has a workload too. */
static char steady_comm[16];

/* STEADY_PAGES fresh pages each period, on absolute deadlines: a late period is made up
 * at once, so the rate over any window of a second or more is STEADY_RATE. */
static pid_t start_steady(void)
{
	pid_t p = fork();
	if (p == 0) {
		prctl(PR_SET_NAME, steady_comm);
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
	snprintf(steady_comm, sizeof(steady_comm), "pq_steady%d", (int)getpid() % 100000);
	steady = start_steady();
	char mnt[512];
	snprintf(cgrel, sizeof(cgrel), "/pmutop-fleet-%d", (int)getpid());
	if (steady < 0 || geteuid() != 0 || cgroup_mount("", mnt, sizeof(mnt)) != 0)
		cgdir[0] = '\0'; /* test_fleet_cgroups skips */
	else if (snprintf(cgdir, sizeof(cgdir), "%s%s", mnt, cgrel) > 0 && mkdir(cgdir, 0755) == 0)
		testutil_cgroup_enter(cgdir, steady);
	else {
		/* cmocka runs no teardown when setup fails */
		cgdir[0] = '\0';
		kill(steady, SIGKILL);
		waitpid(steady, NULL, 0);
		testutil_teardown(0, tmpdir);
		return -1;
	}
	eport = testutil_free_port();
	pport = testutil_free_port();
	char listen[NHOST][32], out[600], err[600];
	for (int i = 0; i < NHOST; i++) {
		snprintf(listen[i], sizeof(listen[i]), "127.0.0.%d:%u", i + 2, eport);
		snprintf(ecsv[i], sizeof(ecsv[i]), "%s/ex%d.csv", tmpdir, i);
		/* each also writes its own rows (batch CSV), for --connect to be compared with */
		char *a[] = {PMUTOP_BINARY,
			     "--listen",
			     listen[i],
			     "-d",
			     "0.5",
			     "-e",
			     "task-clock,page-faults",
			     "-b",
			     "--format",
			     "csv",
			     "-o",
			     ecsv[i],
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
	pid_t all[] = {live, steady, prom, exporter[0], exporter[1], exporter[2]};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i] > 0) {
			kill(all[i], SIGKILL);
			waitpid(all[i], NULL, 0);
		}
	int rc = testutil_teardown(0, tmpdir);
	/* empty once pq_steady's exit is done (EBUSY until then) */
	for (double end = testutil_now() + 10; cgdir[0] && rmdir(cgdir) != 0;) {
		if (errno != EBUSY || testutil_now() > end)
			return -1;
		testutil_nap_ms(100);
	}
	return rc;
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
		if (!strcmp(comm, steady_comm))
			rate[h] = strcmp(flt, "n/c") ? count_of(flt) / 2.0 : -2;
		else if (!strcmp(flt, "n/c") && rate[h] == -1)
			rate[h] = -2;
	}
}

/* One --prometheus --cgroups -b --format FMT run of two 2 s ticks into text: its status. */
static int fleet_cgroups(const char *fmt, char *text, size_t cap)
{
	char url[64], err[1024];
	snprintf(url, sizeof(url), "http://127.0.0.1:%u", pport);
	char *a[] = {PMUTOP_BINARY, "--prometheus", url, "--cgroups", "-b",	   "-n",
		     "2",	    "-d",	    "2", "--format",  (char *)fmt, NULL};
	return testutil_run(a, text, cap, err, sizeof(err));
}

/* The host (0 to NHOST-1) an instance label names, or -1. */
static int host_of(const char *inst)
{
	for (int i = 0; i < NHOST; i++) {
		char want[32];
		snprintf(want, sizeof(want), "127.0.0.%d:%u", i + 2, eport);
		if (!strcmp(inst, want))
			return i;
	}
	return -1;
}

/* The fields of the CSV line at l (its own copy in line, up to the newline) into f: how many
 * (strsep keeps the empty fields: a cgroup row has no pid). Fields: tick,time,interval,kind,
 * pid,tid,cpu,command,event,value,state,running,why,exited,cgroup,instance,job. */
static size_t csv_fields(const char *l, char line[1024], char *f[20])
{
	size_t n = strcspn(l, "\n"), k = 0;
	snprintf(line, 1024, "%.*s", (int)(n < 1024 ? n : 1023), l);
	for (char *p = line, *t; k < 20 && (t = strsep(&p, ","));)
		f[k++] = t;
	return k;
}

/* From --cgroups CSV: each host's page faults a second in pq_steady's cgroup at tick 2 (-1:
 * no row, -2: n/c or n/a). Fields: tick,time,interval,kind,pid,tid,cpu,command,event,value,
 * state,running,why,exited,cgroup,instance,job. */
static void cgroup_rates(const char *text, double rate[NHOST])
{
	for (int i = 0; i < NHOST; i++)
		rate[i] = -1;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char line[1024], *f[20];
		size_t k = csv_fields(l, line, f);
		int h;
		if (k < 17 || strcmp(f[0], "2") || strcmp(f[3], "cgroup") ||
		    strcmp(f[8], "page-faults") || strcmp(f[14], cgrel) || (h = host_of(f[15])) < 0)
			continue;
		rate[h] = strcmp(f[10], "n/c") && strcmp(f[10], "n/a") ? strtod(f[9], NULL) / 2.0
								       : -2;
	}
}

/* --cgroups: a row per (instance, job, cgroup) from the exporters' pmutop_cgroup_* series,
 * pq_steady's cgroup with its rate on every host, in CSV and JSON. */
static void test_fleet_cgroups(void **state)
{
	(void)state;
	if (!cgdir[0])
		skip(); /* not root, or no cgroup2 */
	static char text[1 << 20];
	double rate[NHOST] = {-1, -1, -1}, end = testutil_now() + WAIT_S;
	bool ok = false;
	/* every host's rate within the bound, asked until the deadline: a series born in the
	 * query's window has its rate from two or three samples, which Prometheus extrapolates
	 * by half a scrape interval only (500 or 750/s of 1,000); a wrong rate is wrong in
	 * every round and fails at the deadline with the last round's values */
	while (!ok && testutil_now() < end) {
		testutil_nap_ms(1000);
		int st = fleet_cgroups("csv", text, sizeof(text));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		cgroup_rates(text, rate);
		ok = true;
		for (int i = 0; i < NHOST; i++)
			ok = ok && fabs(rate[i] - STEADY_RATE) <= 0.3 * STEADY_RATE;
		if (!ok && rate[0] > 0 && rate[1] > 0 && rate[2] > 0)
			fprintf(stderr, "not yet: %.0f %.0f %.0f faults/s\n", rate[0], rate[1],
				rate[2]);
	}
	for (int i = 0; i < NHOST; i++) {
		fprintf(stderr, "127.0.0.%d: cgroup %s %.0f faults/s (truth %.0f)\n", i + 2, cgrel,
			rate[i], STEADY_RATE);
		assert_true(fabs(rate[i] - STEADY_RATE) <= 0.3 * STEADY_RATE);
	}
	/* no process rows: every row is a cgroup's */
	assert_null(strstr(text, ",process,"));
	/* JSON: the cgroup's row with its host and job, and no process count it does not have */
	int st = fleet_cgroups("json", text, sizeof(text));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[200];
	snprintf(want, sizeof(want),
		 "\"kind\":\"cgroup\",\"name\":\"pmutop-fleet-%d\",\"instance\":\"127.0.0.2:%u\","
		 "\"job\":\"pmutop\",\"processes\":null,\"cgroup\":\"%s\"",
		 (int)getpid(), eport, cgrel);
	assert_non_null(strstr(text, want));
}

/* In the CSV at path, tick's values of each host: how many are n/c because the host is
 * down (stale: "host not answering") and how many are anything else (other: a number, or
 * n/c for another reason). */
static void tick_states(const char *path, long tick, unsigned stale[NHOST], unsigned other[NHOST])
{
	char *text = testutil_slurp(path);
	for (int i = 0; i < NHOST; i++)
		stale[i] = other[i] = 0;
	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		char line[1024], *f[20];
		int h;
		if (csv_fields(l, line, f) < 17 || strtol(f[0], NULL, 10) != tick ||
		    (h = host_of(f[15])) < 0)
			continue;
		if (!strcmp(f[10], "n/c") && !strcmp(f[12], "host not answering") && !f[9][0])
			stale[h]++;
		else
			other[h]++;
	}
	free(text);
}

/* pmutop --connect to one of the exporters Prometheus scrapes (127.0.0.3): each tick it
 * prints equals that exporter's own batch rows for the tick. */
static void test_connect_equals_host(void **state)
{
	(void)state;
	char url[64], err[4096];
	double end = testutil_now() + WAIT_S;
	snprintf(err, sizeof(err), "%s/ex1.err", tmpdir);
	while (!testutil_listening_port(err) && testutil_now() < end)
		testutil_nap_ms(100);
	snprintf(url, sizeof(url), "http://127.0.0.3:%u", eport);
	char *a[] = {PMUTOP_BINARY, "--connect", url, "-b", "-n", "3", "--format", "csv", NULL};
	static char got[16 << 20];
	int st = testutil_run(a, got, sizeof(got), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("--connect %s: %s", url, err);
	assert_int_equal(testutil_assert_rows_equal(got, exporter[1], ecsv[1], WAIT_S), 3);
	char want[64];
	snprintf(want, sizeof(want), ",%s,page-faults,", steady_comm);
	assert_non_null(strstr(got, want));
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
		fprintf(stderr, "127.0.0.%d: %s %.0f faults/s (truth %.0f)\n", i + 2, steady_comm,
			rate[i], STEADY_RATE);
		/* a 4 s window: one scrape more or less is 25% of it */
		assert_true(fabs(rate[i] - STEADY_RATE) <= 0.3 * STEADY_RATE);
	}
	assert_non_null(strstr(text, "3 targets up, 0 down"));
	/* A run that goes on while the exporters are killed (CSV each second) */
	char url[64], lout[600], lerr[600];
	snprintf(url, sizeof(url), "http://127.0.0.1:%u", pport);
	snprintf(lout, sizeof(lout), "%s/live.csv", tmpdir);
	snprintf(lerr, sizeof(lerr), "%s/live.err", tmpdir);
	char *la[] = {PMUTOP_BINARY, "--prometheus", url, "-b", "--format", "csv", "-d", "1", NULL};
	live = testutil_spawn(la, lout, lerr);
	assert_true(live > 0 && testutil_wait_tick(live, lout, 2, WAIT_S));
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
	if (!ok)
		fail_msg("127.0.0.4's rows never read n/c in %.0f s (rate %.0f); the last run:\n%s",
			 WAIT_S, rate[2], text);
	assert_true(rate[0] > 0 && rate[1] > 0);
	/* the header counts the fleet's targets, not this machine's CPUs */
	assert_non_null(strstr(text, "2 targets up, 1 down"));
	assert_null(strstr(text, " CPUs "));
	/* and the live run says it on stderr once, its rows going on */
	const char *one = "pmutop: 1 of 3 targets down: their rows n/c";
	char *lines = NULL;
	for (end = testutil_now() + WAIT_S; testutil_now() < end; testutil_nap_ms(500)) {
		free(lines);
		lines = testutil_slurp(lerr);
		if (lines && strstr(lines, one))
			break;
	}
	if (!lines || !strstr(lines, one))
		fail_msg("no '%s' on the live run's stderr: %s", one, lines ? lines : "(none)");
	free(lines);
	/* Every exporter killed: every host's rows n/c, none a number (never zeros), the
	 * header 0 up, a run ending as usual (exit 0) with the one line on stderr. */
	for (int i = 0; i < 2; i++) {
		kill(exporter[i], SIGKILL);
		waitpid(exporter[i], NULL, 0);
		exporter[i] = 0;
	}
	ok = false;
	end = testutil_now() + WAIT_S;
	while (!ok && testutil_now() < end) {
		testutil_nap_ms(1000);
		fleet_rates(rate, text, sizeof(text));
		ok = rate[0] == -2 && rate[1] == -2 && rate[2] == -2;
	}
	assert_true(ok);
	assert_non_null(strstr(text, "0 targets up, 3 down"));
	/* a tick begun after every host read down (the next one's queries may have gone
	 * before): every value of every host n/c, marked stale */
	long t = testutil_csv_ticks(lout) + 2;
	assert_true(testutil_wait_tick(live, lout, t + 1, WAIT_S));
	unsigned stale[NHOST], other[NHOST];
	tick_states(lout, t, stale, other);
	for (int i = 0; i < NHOST; i++) {
		fprintf(stderr, "all down, tick %ld: 127.0.0.%d: %u values stale, %u other\n", t,
			i + 2, stale[i], other[i]);
		assert_true(stale[i] > 0);
		assert_int_equal(other[i], 0);
	}
	kill(live, SIGINT);
	int st = testutil_reap(live, WAIT_S);
	live = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *err = testutil_slurp(lerr);
	fprintf(stderr, "its stderr: %s", err);
	assert_non_null(strstr(err, "pmutop: all 3 targets down: their rows n/c (stale)"));
	free(err);
}

int main(void)
{
	/* test_fleet kills the exporters: it runs last */
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_fleet_cgroups),
					   cmocka_unit_test(test_connect_equals_host),
					   cmocka_unit_test(test_fleet)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
