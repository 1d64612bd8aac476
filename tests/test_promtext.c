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
#define C10 "{cgroup=\"/x\",comm=\"a\\\"b\\\\c\\nd\xef\xbf\xbd\",event="
#define C20 "{comm=\"idle\",event="
#define G "{cgroup=\"/x\",event="

/* HELP, TYPE (and in OpenMetrics UNIT) of a family; fam is the OpenMetrics name. */
static void hdr(char *w, size_t cap, int om, const char *fam, const char *type, const char *unit,
		const char *help)
{
	const char *suffix = om				? ""
			     : !strcmp(type, "counter") ? "_total"
			     : !strcmp(type, "info")	? "_info"
							: "";
	const char *ty = om || strcmp(type, "info") ? type : "gauge";
	size_t n = strlen(w);
	snprintf(w + n, cap - n, "# HELP %s%s %s\n# TYPE %s%s %s\n", fam, suffix, help, fam, suffix,
		 ty);
	n = strlen(w);
	if (om && unit)
		snprintf(w + n, cap - n, "# UNIT %s %s\n", fam, unit);
}

static void cat(char *w, size_t cap, const char *s)
{
	size_t n = strlen(w);
	snprintf(w + n, cap - n, "%s", s);
}

#define K_CMD "the processes of one command name (comm) in one cgroup v2, exited ones included."
#define K_PROC "a process (pid), summed over its threads."
#define K_CG "a cgroup v2: its processes and its descendants' (exited ones included)."

/* The four counter families of one kind: page-faults and task-clock of two targets
 * (pre1, pre2; pre2 NULL: one) with their values. */
static void kind(char *w, size_t cap, int om, const char *k, const char *what, const char *pre1,
		 const char *pre2, const char *const v1[6], const char *const v2[6])
{
	static const char *const fam[] = {"_events", "_clock_seconds", "_events_enabled_seconds",
					  "_events_running_seconds"};
	static const char *const help[] = {
		"Events counted since pmutop began counting it (scaled per interval when "
		"multiplexed), per event; for",
		"Seconds of task-clock or cpu-clock (event) counted since pmutop began counting "
		"it; for",
		"Seconds the event's group was enabled (summed over threads); for",
		"Seconds the event's group was on the PMU (summed over threads); for"};
	for (int f = 0; f < 4; f++) {
		char name[96], h[320], line[512];
		snprintf(name, sizeof(name), "pmutop_%s%s", k, fam[f]);
		snprintf(h, sizeof(h), "%s %s", help[f], what);
		hdr(w, cap, om, name, "counter", f ? "seconds" : NULL, h);
		for (int t = 0; t < 2; t++) {
			const char *pre = t ? pre2 : pre1;
			const char *const *v = t ? v2 : v1;
			if (!pre)
				continue;
			/* [0] page-faults, [1] clock, [2..3] enabled, [4..5] running */
			if (f == 0 || f == 1) {
				snprintf(line, sizeof(line), "%s_total%s\"%s\"} %s\n", name, pre,
					 f ? "task-clock" : "page-faults", v[f]);
				cat(w, cap, line);
			} else {
				snprintf(line, sizeof(line),
					 "%s_total%s\"task-clock\"} %s\n%s_total%s\"page-faults\"} "
					 "%s\n",
					 name, pre, v[2 * f - 2], name, pre, v[2 * f - 1]);
				cat(w, cap, line);
			}
		}
	}
}

static void expect(const char *got, size_t len, int om)
{
	static char w[32768];
	w[0] = '\0';
	hdr(w, sizeof(w), om, "pmutop_build", "info", NULL, "pmutop's version.");
	cat(w, sizeof(w), "pmutop_build_info{version=\"1.2.3\"} 1\n");
	hdr(w, sizeof(w), om, "pmutop_start_time_seconds", "gauge", "seconds",
	    "When pmutop started, in seconds since the Unix epoch.");
	cat(w, sizeof(w), "pmutop_start_time_seconds 1700000000\n");
	hdr(w, sizeof(w), om, "pmutop_backend", "info", NULL,
	    "How pmutop counts tasks: perf (an event per task) or bpf (per CPU).");
	cat(w, sizeof(w), "pmutop_backend_info{backend=\"perf\"} 1\n");
	hdr(w, sizeof(w), om, "pmutop_event", "info", NULL,
	    "An event of the set pmutop counts: its name as -e takes it, the group that tells "
	    "a repeated name apart, and whether it needs a hardware counter.");
	cat(w, sizeof(w),
	    "pmutop_event_info{event=\"task-clock\",unit=\"seconds\"} 1\n"
	    "pmutop_event_info{event=\"page-faults\"} 1\n"
	    "pmutop_event_info{event=\"cycles\"} 1\n");
	hdr(w, sizeof(w), om, "pmutop_event_unavailable", "info", NULL,
	    "An event that cannot be counted here (n/a): it has no samples.");
	cat(w, sizeof(w),
	    "pmutop_event_unavailable_info{event=\"cycles\",reason=\"unsupported\"} 1\n");
	hdr(w, sizeof(w), om, "pmutop_exposition_build_seconds", "gauge", "seconds",
	    "Seconds the previous exposition took to build (at a tick, not at the scrape).");
	cat(w, sizeof(w), "pmutop_exposition_build_seconds 0.5\n");
	hdr(w, sizeof(w), om, "pmutop_targets", "gauge", NULL,
	    "Commands, processes, cgroups and CPUs whose totals are kept.");
	cat(w, sizeof(w), "pmutop_targets 5\n");
	hdr(w, sizeof(w), om, "pmutop_tasks", "gauge", NULL, "Tasks (threads) being counted.");
	cat(w, sizeof(w), "pmutop_tasks 4\n");
	hdr(w, sizeof(w), om, "pmutop_open_fds", "gauge", NULL,
	    "Descriptors the counter engine holds.");
	cat(w, sizeof(w), "pmutop_open_fds 7\n");
	/* pid 10: 7 ms of task-clock, 150 faults, 2 s enabled and running; pid 20 (NC in its
	 * second interval): 3.5 faults (scaled), 1.5 s enabled, 0.25 s running. */
	static const char *const p10[6] = {"150", "0.007", "2", "2", "2", "2"};
	static const char *const p20[6] = {"3.5", "0", "1.5", "1.5", "0.25", "0.25"};
	static const char *const cg[6] = {"20", "0.002", "4", "4", "4", "4"};
	kind(w, sizeof(w), om, "command", K_CMD, C20, C10, p20, p10); /* "" before "/x" */
	kind(w, sizeof(w), om, "process", K_PROC, P10, P20, p10, p20);
	kind(w, sizeof(w), om, "cgroup", K_CG, G, NULL, cg, NULL);
	if (om)
		cat(w, sizeof(w), "# EOF\n");
	if (len != strlen(w) || memcmp(got, w, len) != 0) {
		fprintf(stderr, "--- want\n%s--- got\n%.*s---\n", w, (int)len, got);
		fail();
	}
}

static void render(struct promacc *a, struct promtext_out *o)
{
	struct promtext_info in = {.version = "1.2.3",
				   .start_time = 1700000000,
				   .backend = "perf",
				   .ticked = true,
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

/* Before the counters start: pmutop's facts and nothing that says a count was taken. */
static void test_facts_only(void **state)
{
	(void)state;
	struct promtext_out o = {0};
	struct promtext_info in = {.version = "1.2.3", .start_time = 1700000000};
	assert_int_equal(promtext_render(NULL, &in, &o), 0);
	const char want[] =
		"# HELP pmutop_build_info pmutop's version.\n"
		"# TYPE pmutop_build_info gauge\n"
		"pmutop_build_info{version=\"1.2.3\"} 1\n"
		"# HELP pmutop_start_time_seconds When pmutop started, in seconds since "
		"the Unix epoch.\n"
		"# TYPE pmutop_start_time_seconds gauge\n"
		"pmutop_start_time_seconds 1700000000\n";
	assert_int_equal(o.text.len, sizeof(want) - 1);
	assert_memory_equal(o.text.p, want, o.text.len);
	assert_true(o.om.len > 6 && !memcmp(o.om.p + o.om.len - 6, "# EOF\n", 6));
	promtext_out_free(&o);
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
	/* Accept-Encoding as Prometheus sends it, and what RFC 9110 12.5.3 allows. */
	assert_true(promtext_accepts_gzip("gzip"));
	assert_true(promtext_accepts_gzip("deflate, GZIP;q=0.5"));
	assert_true(promtext_accepts_gzip("br;q=1.0, *;q=0.1"));
	assert_false(promtext_accepts_gzip(NULL));
	assert_false(promtext_accepts_gzip(""));
	assert_false(promtext_accepts_gzip("identity"));
	assert_false(promtext_accepts_gzip("gzip;q=0"));
	assert_false(promtext_accepts_gzip("gzip;q=0.0, *"));
	assert_false(promtext_accepts_gzip("*;q=0"));
	assert_false(promtext_accepts_gzip("gzipx, xgzip"));
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

/* The exported series of process pid, or fail. */
static struct promacc_series proc(const struct promacc *a, pid_t pid)
{
	struct promacc_series s;
	for (unsigned i = 0; i < promacc_count(a); i++) {
		promacc_get(a, i, &s);
		if (s.kind == PROMACC_PROC && s.pid == pid)
			return s;
	}
	fail_msg("no series for pid %d", (int)pid);
	return s;
}

/* --top 2 with -p 1: the watched pid and the two with the most task-clock; a burst of
 * another does not displace them (a stable selection), a slot freed by an exit goes to
 * the busiest other, with its whole total since first seen. */
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
	assert_int_equal(promacc_targets(a), 6); /* 5 processes and their command */
	/* pid 2 busy now: the chosen stay. */
	f.v[1][0] = ex(100);
	f.v[1][1] = ex(5);
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	assert_int_equal(pids(a, got), 3);
	assert_int_equal(got[1], 3);
	/* pid 3 exits: its final totals once, and pid 2 takes its place. */
	f.rows[2].exited = true;
	assert_int_equal(promacc_update(a, &f.m, false), 0);
	assert_int_equal(pids(a, got), 4);
	assert_int_equal(got[1], 2);
	assert_int_equal(got[2], 3);
	f.rows[2] = f.rows[4];
	f.v[2][0] = f.v[4][0];
	f.v[2][1] = f.v[4][1];
	f.rows[2].v = f.v[2];
	f.m.nrows = 4;
	assert_int_equal(promacc_update(a, &f.m, true), 0);
	assert_int_equal(pids(a, got), 3);
	assert_int_equal(got[1], 2);
	assert_int_equal(got[2], 5);
	/* The quiet ones were summed all along: 1 + 5 + 5 + 5 faults. */
	assert_true(proc(a, 2).val[1] == 16);
	promacc_free(a);
}

/* Without --top or -p, no per-pid series at all: processes are summed per command within
 * their cgroup, and a command's totals keep what its exited processes counted. */
static void test_commands_fold_exits(void **state)
{
	(void)state;
	struct promacc_opts o = {0};
	struct promacc *a = promacc_new(&o);
	struct fake f;
	double prev = 0;
	for (pid_t p = 100; p < 160; p++) {
		fake_init(&f);
		f.m.time = p - 100;
		add(&f, ROW_PROC, 1, "sh", "/s", 1e6, ex(2), 1, 1);
		/* a new short-lived pid each tick, seen once, in its last interval */
		add(&f, ROW_PROC, p, "job", "/s", 1e6, ex(3), 1, 1)->exited = true;
		assert_int_equal(promacc_update(a, &f.m, p % 2), 0);
		unsigned ncomm = 0;
		for (unsigned i = 0; i < promacc_count(a); i++) {
			struct promacc_series s;
			promacc_get(a, i, &s);
			assert_int_not_equal(s.kind, PROMACC_PROC);
			if (s.kind != PROMACC_COMM)
				continue;
			ncomm++;
			if (strcmp(s.comm, "job") == 0) {
				assert_true(s.val[1] == prev + 3); /* monotonic: exits folded in */
				prev = s.val[1];
			}
		}
		assert_int_equal(ncomm, 2);
	}
	/* 60 pids, 2 command series and 1 cgroup series held; none per pid. */
	assert_int_equal(promacc_targets(a), 4); /* /s and its parent / */
	/* Gone for longer than PROMACC_LINGER_S: the command goes. */
	fake_init(&f);
	f.m.time = 60 + PROMACC_LINGER_S + 1;
	add(&f, ROW_PROC, 1, "sh", "/s", 1e6, ex(2), 1, 1);
	assert_int_equal(promacc_update(a, &f.m, true), 0);
	assert_int_equal(promacc_update(a, &f.m, true), 0);
	unsigned ncomm = 0;
	for (unsigned i = 0; i < promacc_count(a); i++) {
		struct promacc_series s;
		promacc_get(a, i, &s);
		ncomm += s.kind == PROMACC_COMM;
	}
	assert_int_equal(ncomm, 1);
	promacc_free(a);
}

/* More commands than PROMACC_MAX_COMMANDS: the rest go to one series. */
static void test_commands_capped(void **state)
{
	(void)state;
	struct promacc_opts o = {0};
	struct promacc *a = promacc_new(&o);
	static char names[PROMACC_MAX_COMMANDS + 20][16];
	for (unsigned t = 0; t < PROMACC_MAX_COMMANDS + 20; t += MAXR) {
		struct fake f;
		fake_init(&f);
		for (unsigned k = t; k < t + MAXR && k < PROMACC_MAX_COMMANDS + 20; k++) {
			snprintf(names[k], sizeof(names[k]), "c%u", k);
			add(&f, ROW_PROC, (pid_t)k + 2, names[k], NULL, 1, ex(1), 1, 1);
		}
		assert_int_equal(promacc_update(a, &f.m, false), 0);
	}
	unsigned ncomm = 0;
	double other = 0;
	for (unsigned i = 0; i < promacc_count(a); i++) {
		struct promacc_series s;
		promacc_get(a, i, &s);
		ncomm += s.kind == PROMACC_COMM;
		if (s.kind == PROMACC_COMM && strcmp(s.comm, PROMACC_OTHER) == 0)
			other = s.val[1];
	}
	assert_int_equal(ncomm, PROMACC_MAX_COMMANDS + 1);
	assert_true(other == 20);
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
	s = proc(a, 10);
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
		cmocka_unit_test(test_facts_only),
		cmocka_unit_test(test_promtool),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_top_and_watched),
		cmocka_unit_test(test_commands_fold_exits),
		cmocka_unit_test(test_commands_capped),
		cmocka_unit_test(test_exited_and_reused),
		cmocka_unit_test(test_cgroups_from_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
