/* The exporter's totals and exposition text on hand-built models: exact text in both
 * formats, label escaping, --top, pid reuse, exited targets, and promtool's verdict. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "promacc.h"
#include "promtext.h"

#define NEV 3
#define MAXR 8

static const struct mevent events[NEV] = {
	{.name = "task-clock",
	 .key = "task-clock",
	 .group = 0,
	 .member = 0,
	 .role = ROLE_TASK_CLOCK},
	{.name = "page-faults", .key = "page-faults", .group = 0, .member = 1, .role = ROLE_FAULTS},
	{.name = "cycles",
	 .key = "cycles",
	 .group = 1,
	 .member = 0,
	 .role = ROLE_CYCLES,
	 .status = WHY_UNSUPPORTED,
	 .hardware = true},
};
static const struct mgroup groups[2] = {{.first = 0, .n = 2}, {.first = 2, .n = 1}};

struct fake {
	struct model m;
	struct mrow rows[MAXR];
	struct val v[MAXR][NEV];
	struct val_delta g[MAXR][2];
};

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->m.nevents = NEV;
	f->m.events = events;
	f->m.ngroups = 2;
	f->m.groups = groups;
	f->m.rows = f->rows;
}

static struct val ex(double v)
{
	struct val x = {.v = v, .state = VAL_EXACT, .run_pm = 1000};
	return x;
}

/* A row: task-clock tc and page-faults pf (state st), its group's times in ns. */
static struct mrow *add(struct fake *f, enum row_kind k, pid_t pid, const char *comm,
			const char *cg, double tc, struct val pf, uint64_t ena, uint64_t run)
{
	unsigned i = f->m.nrows++;
	struct mrow *r = &f->rows[i];
	r->kind = k;
	r->pid = r->tid = pid;
	r->comm = comm;
	r->cgroup = cg;
	f->v[i][0] = ex(tc);
	f->v[i][1] = pf;
	f->v[i][2] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	if (pf.state == VAL_NC)
		f->v[i][0] = pf;
	f->g[i][0].ena = ena;
	f->g[i][0].run = run;
	r->v = f->v[i];
	r->g = f->g[i];
	return r;
}

static const char *const COMM = "a\"b\\c\nd\xff";

static struct promacc *two_ticks(unsigned top)
{
	struct promacc_opts o = {.top = top};
	struct promacc *a = promacc_new(&o);
	struct fake f;
	fake_init(&f);
	struct val scaled = {.v = 3.5, .state = VAL_SCALED, .run_pm = 500};
	add(&f, ROW_PROC, 10, COMM, "/x", 5e6, ex(100), 1000000000, 1000000000);
	add(&f, ROW_THREAD, 11, "thr", "/x", 1e6, ex(40), 1000000000, 1000000000);
	add(&f, ROW_PROC, 20, "idle", NULL, 0, scaled, 500000000, 250000000);
	add(&f, ROW_CGROUP, 0, NULL, "/x", 1e6, ex(10), 2000000000, 2000000000);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	fake_init(&f);
	add(&f, ROW_PROC, 10, COMM, "/x", 2e6, ex(50), 1000000000, 1000000000);
	add(&f, ROW_PROC, 20, "idle", NULL, 0, val_missing(VAL_NC, WHY_NOT_RUN), 1000000000, 0)
		->exited = true;
	add(&f, ROW_CGROUP, 0, NULL, "/x", 1e6, ex(10), 2000000000, 2000000000);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	return a;
}

#define P10 "{pid=\"10\",comm=\"a\\\"b\\\\c\\nd\xef\xbf\xbd\",cgroup=\"/x\",event="
#define P20 "{pid=\"20\",comm=\"idle\",event="
static const char *const BODY_PROC = "pmutop_process_events_total" P10 "\"task-clock\"} 7000000\n"
				     "pmutop_process_events_total" P10 "\"page-faults\"} 150\n"
				     "pmutop_process_events_total" P20 "\"task-clock\"} 0\n"
				     "pmutop_process_events_total" P20 "\"page-faults\"} 3.5\n";
static const char *const BODY_ENA =
	"pmutop_process_events_enabled_seconds_total" P10 "\"task-clock\"} 2\n"
	"pmutop_process_events_enabled_seconds_total" P10 "\"page-faults\"} 2\n"
	"pmutop_process_events_enabled_seconds_total" P20 "\"task-clock\"} 1.5\n"
	"pmutop_process_events_enabled_seconds_total" P20 "\"page-faults\"} 1.5\n";
static const char *const BODY_RUN =
	"pmutop_process_events_running_seconds_total" P10 "\"task-clock\"} 2\n"
	"pmutop_process_events_running_seconds_total" P10 "\"page-faults\"} 2\n"
	"pmutop_process_events_running_seconds_total" P20 "\"task-clock\"} 0.25\n"
	"pmutop_process_events_running_seconds_total" P20 "\"page-faults\"} 0.25\n";
static const char *const BODY_CG =
	"pmutop_cgroup_events_total{cgroup=\"/x\",event=\"task-clock\"} 2000000\n"
	"pmutop_cgroup_events_total{cgroup=\"/x\",event=\"page-faults\"} 20\n";
static const char *const BODY_CG_ENA =
	"pmutop_cgroup_events_enabled_seconds_total{cgroup=\"/x\",event=\"task-clock\"} 4\n"
	"pmutop_cgroup_events_enabled_seconds_total{cgroup=\"/x\",event=\"page-faults\"} 4\n";
static const char *const BODY_CG_RUN =
	"pmutop_cgroup_events_running_seconds_total{cgroup=\"/x\",event=\"task-clock\"} 4\n"
	"pmutop_cgroup_events_running_seconds_total{cgroup=\"/x\",event=\"page-faults\"} 4\n";

#define H_TOTAL                                                                                    \
	"Events counted since pmutop began counting the target (scaled per interval "              \
	"when multiplexed).\n"
#define H_ENA "Seconds the event's group was enabled (a process: summed over its threads).\n"
#define H_RUN "Seconds the event's group was on the PMU (a process: summed over its threads).\n"

static void expect(const char *got, size_t len, int om)
{
	char want[16384];
	const char *cnt = om ? "counter" : "counter";
	const char *tot = om ? "" : "_total";
	snprintf(want, sizeof(want),
		 "# HELP pmutop_build%s pmutop version.\n"
		 "# TYPE pmutop_build%s %s\n"
		 "pmutop_build_info{version=\"1.2.3\"} 1\n"
		 "# HELP pmutop_scrape_duration_seconds Seconds the last exposition took to build "
		 "(at a tick, not at the scrape).\n"
		 "# TYPE pmutop_scrape_duration_seconds gauge\n"
		 "pmutop_scrape_duration_seconds 0.5\n"
		 "# HELP pmutop_targets Processes, cgroups and CPUs whose totals are kept.\n"
		 "# TYPE pmutop_targets gauge\npmutop_targets 3\n"
		 "# HELP pmutop_tasks Tasks (threads) being counted.\n"
		 "# TYPE pmutop_tasks gauge\npmutop_tasks 4\n"
		 "# HELP pmutop_open_fds Descriptors the counter engine holds.\n"
		 "# TYPE pmutop_open_fds gauge\npmutop_open_fds 7\n"
		 "# HELP pmutop_event_unavailable%s An event that cannot be counted here (n/a): "
		 "it has no samples.\n"
		 "# TYPE pmutop_event_unavailable%s %s\n"
		 "pmutop_event_unavailable_info{event=\"cycles\",reason=\"unsupported\"} 1\n"
		 "# HELP pmutop_process_events%s " H_TOTAL "# TYPE pmutop_process_events%s %s\n%s"
		 "# HELP pmutop_process_events_enabled_seconds%s " H_ENA
		 "# TYPE pmutop_process_events_enabled_seconds%s %s\n%s"
		 "# HELP pmutop_process_events_running_seconds%s " H_RUN
		 "# TYPE pmutop_process_events_running_seconds%s %s\n%s"
		 "# HELP pmutop_cgroup_events%s " H_TOTAL "# TYPE pmutop_cgroup_events%s %s\n%s"
		 "# HELP pmutop_cgroup_events_enabled_seconds%s " H_ENA
		 "# TYPE pmutop_cgroup_events_enabled_seconds%s %s\n%s"
		 "# HELP pmutop_cgroup_events_running_seconds%s " H_RUN
		 "# TYPE pmutop_cgroup_events_running_seconds%s %s\n%s%s",
		 om ? "" : "_info", om ? "" : "_info", om ? "info" : "gauge", om ? "" : "_info",
		 om ? "" : "_info", om ? "info" : "gauge", tot, tot, cnt, BODY_PROC, tot, tot, cnt,
		 BODY_ENA, tot, tot, cnt, BODY_RUN, tot, tot, cnt, BODY_CG, tot, tot, cnt,
		 BODY_CG_ENA, tot, tot, cnt, BODY_CG_RUN, om ? "# EOF\n" : "");
	if (len != strlen(want) || memcmp(got, want, len) != 0) {
		fprintf(stderr, "--- want\n%s--- got\n%.*s---\n", want, (int)len, got);
		fail();
	}
}

static void render(struct promacc *a, struct promtext_out *o)
{
	struct promtext_info in = {.version = "1.2.3",
				   .build_seconds = 0.5,
				   .targets = promacc_targets(a),
				   .open_fds = 7,
				   .tasks = 4};
	assert_int_equal(promtext_render(a, &in, o), 0);
}

static void test_exact_text(void **state)
{
	(void)state;
	struct promacc *a = two_ticks(100);
	struct promtext_out o = {0};
	render(a, &o);
	expect(o.text.p, o.text.len, 0);
	expect(o.om.p, o.om.len, 1);
	/* Steady state: a second render reuses the buffers. */
	char *p = o.text.p;
	render(a, &o);
	assert_ptr_equal(p, o.text.p);
	promtext_out_free(&o);
	promacc_free(a);
}

static int check_with_promtool(const char *text, size_t len)
{
	char path[] = "/tmp/pmutop-promtext-XXXXXX", cmd[128];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s >/dev/null 2>&1", path);
	int st = system(cmd);
	unlink(path);
	return st;
}

static void test_promtool(void **state)
{
	(void)state;
	if (access("/usr/bin/promtool", X_OK) != 0)
		fail_msg("promtool missing: install Debian's prometheus package");
	struct promacc *a = two_ticks(100);
	struct promtext_out o = {0};
	render(a, &o);
	assert_int_equal(check_with_promtool(o.text.p, o.text.len), 0);
	/* promtool can fail: a duplicate sample is refused. */
	const char dup[] = "# TYPE x counter\nx_total 1\nx_total 2\n";
	assert_int_not_equal(check_with_promtool(dup, sizeof(dup) - 1), 0);
	promtext_out_free(&o);
	promacc_free(a);
}

static void test_label_escaping(void **state)
{
	(void)state;
	struct pbuf b = {0};
	assert_int_equal(promtext_label(&b, "q\"b\\n\nok\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
					    "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82"),
			 0);
	const char want[] = "q\\\"b\\\\n\\nok\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
			    "\xef\xbf\xbd\xef\xbf\xbd"		   /* overlong C0 AF */
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" /* surrogate ED A0 80 */
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" /* > U+10FFFF */
			    "\xef\xbf\xbd\xef\xbf\xbd";			       /* cut short */
	assert_int_equal(b.len, sizeof(want) - 1);
	assert_memory_equal(b.p, want, b.len);
	pbuf_free(&b);
}

static void test_accept(void **state)
{
	(void)state;
	assert_true(promtext_wants_openmetrics(
		"application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
		"version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
	assert_false(promtext_wants_openmetrics("text/plain;version=0.0.4"));
	assert_false(promtext_wants_openmetrics(NULL));
	assert_false(promtext_wants_openmetrics("application/openmetrics-text;q=0,text/plain"));
}

static unsigned pids(const struct promacc *a, pid_t *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < promacc_count(a); i++) {
		struct promacc_series s;
		promacc_get(a, i, &s);
		if (s.kind == PROMACC_PROC)
			out[n++] = s.pid;
	}
	return n;
}

static void test_top_and_watched(void **state)
{
	(void)state;
	pid_t w = 1, got[8];
	struct promacc_opts o = {.top = 2, .watched = &w, .nwatched = 1};
	struct promacc *a = promacc_new(&o);
	struct fake f;
	fake_init(&f);
	for (pid_t p = 1; p <= 5; p++)
		add(&f, ROW_PROC, p, "w", NULL, (double)(p == 3 ? 9 : p), ex(1), 1, 1);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	assert_int_equal(pids(a, got), 3);
	assert_int_equal(got[0], 1);
	assert_int_equal(got[1], 3);
	assert_int_equal(got[2], 5);
	assert_int_equal(promacc_targets(a), 5);
	/* The quiet ones were summed all along: pid 2 busy now shows its whole total. */
	f.v[1][0] = ex(100);
	f.v[1][1] = ex(5);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	assert_int_equal(pids(a, got), 3);
	assert_int_equal(got[1], 2);
	struct promacc_series s;
	promacc_get(a, 1, &s);
	assert_int_equal((int)s.val[1], 6);
	promacc_free(a);
}

/* Without cgroup rows of its own (-G) the model's processes are summed per cgroup and
 * its ancestors, as the screen's cgroup view: pmutop_cgroup_events_total per service. */
static void test_cgroups_from_processes(void **state)
{
	(void)state;
	struct promacc_opts o = {.top = 10};
	struct promacc *a = promacc_new(&o);
	struct fake f;
	for (int tick = 0; tick < 2; tick++) {
		fake_init(&f);
		add(&f, ROW_PROC, 10, "a", "/sys/one", 1e6, ex(3), 1000, 1000);
		add(&f, ROW_PROC, 11, "b", "/sys/one", 2e6, ex(4), 1000, 1000);
		add(&f, ROW_PROC, 12, "c", "/sys/two", 4e6, ex(5), 1000, 1000);
		assert_int_equal(promacc_update(a, &f.m, false), 0);
	}
	double one = -1, two = -1, sys = -1;
	for (unsigned i = 0; i < promacc_count(a); i++) {
		struct promacc_series s;
		promacc_get(a, i, &s);
		if (s.kind != PROMACC_CGROUP)
			continue;
		if (strcmp(s.cgroup, "/sys/one") == 0)
			one = s.val[1];
		else if (strcmp(s.cgroup, "/sys/two") == 0)
			two = s.val[1];
		else if (strcmp(s.cgroup, "/sys") == 0)
			sys = s.val[1];
	}
	/* Page faults over two ticks: 2 x (3 + 4), 2 x 5, and the parent both. */
	assert_true(one == 14);
	assert_true(two == 10);
	assert_true(sys == 24);
	promacc_free(a);
}

static void test_exited_and_reused(void **state)
{
	(void)state;
	struct promacc *a = two_ticks(100);
	struct fake f;
	fake_init(&f);
	add(&f, ROW_PROC, 10, COMM, "/x", 1, ex(1), 1, 1);
	add(&f, ROW_CGROUP, 0, NULL, "/x", 1, ex(1), 1, 1);
	/* Not scraped since pid 20 exited: its final totals stay. */
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	pid_t got[4];
	assert_int_equal(pids(a, got), 2);
	/* Scraped: gone. */
	assert_int_equal(promacc_update(a, &f.m, true), 0);
	assert_int_equal(pids(a, got), 1);
	assert_int_equal(got[0], 10);
	/* pid 10 exits, and a new process gets pid 10 before any scrape: a new series. */
	f.rows[0].exited = true;
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	f.rows[0].exited = false;
	f.v[0][1] = ex(7);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	struct promacc_series s;
	promacc_get(a, 0, &s);
	assert_int_equal(s.pid, 10);
	assert_int_equal((int)s.val[1], 7);
	promacc_free(a);
}

/* A partial value (a process some of whose threads were not counted) adds what was
 * counted, and enabled time for the share not counted: running / enabled says 25%. */
static void test_partial_marks_share(void **state)
{
	(void)state;
	struct promacc_opts o = {.top = 10};
	struct promacc *a = promacc_new(&o);
	assert_non_null(a);
	struct fake f;
	fake_init(&f);
	struct val part = {.v = 300, .state = VAL_PARTIAL, .why = WHY_FDLIMIT, .run_pm = 250};
	add(&f, ROW_PROC, 30, "part", NULL, 5e6, part, 1000000000, 1000000000);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	bool found = false;
	for (unsigned i = 0; i < promacc_count(a); i++) {
		struct promacc_series s;
		promacc_get(a, i, &s);
		if (s.kind != PROMACC_PROC || s.pid != 30)
			continue;
		found = true;
		assert_true(s.val[1] == 300);
		assert_true(s.run[1] == 1000000000);
		assert_true(s.ena[1] == 4000000000); /* 1 s counted of 4 */
		assert_true(s.ena[0] == 1000000000); /* the exact event: its own time */
	}
	assert_true(found);
	promacc_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial_marks_share),
		cmocka_unit_test(test_exact_text),
		cmocka_unit_test(test_promtool),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_top_and_watched),
		cmocka_unit_test(test_exited_and_reused),
		cmocka_unit_test(test_cgroups_from_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
