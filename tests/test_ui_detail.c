/* Trends and the detail view off-screen: a hand-built model fed to a history over a few
 * ticks, the TREND column in UTF-8 and ASCII, gaps for n/c, and Enter's charts. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "curs.h"
#include "history.h"
#include "metricbind.h"
#include "testutil.h"
#include "test_ui_fake.h"

struct fixture {
	struct fake f;
	struct term t;
	struct history *h;
};

/* alpha's CPU% goes 10, 20, 30, 40, 50 over five ticks. */
static int setup_locale(const char *loc, int cols, int lines, void **state)
{
	setlocale(LC_ALL, loc);
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	fake_init(&fx->f);
	fx->t = fake_ui(cols, lines);
	fx->h = history_new();
	if (!fx->t.u || !fx->h)
		return -1;
	ui_set_history(fx->t.u, fx->h);
	for (int k = 1; k <= 5; k++) {
		fx->f.v[0][E_TCLK] = fake_exact(k * 10 / 100.0 * 1e9);
		fx->f.m.tick = (uint64_t)k;
		ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
		history_track(fx->h, ui_sort_column(fx->t.u));
		if (history_feed(fx->h, &fx->f.m))
			return -1;
	}
	*state = fx;
	return 0;
}

static int setup_utf8(void **state)
{
	return setup_locale("C.UTF-8", 120, 30, state);
}

static int setup_ascii(void **state)
{
	return setup_locale("C", 120, 30, state);
}

/* A watched command's run as the screen fed it: a first short interval, whole ones, a
 * last partial one when it exited, then its totals (final, elapsed: the whole run). */
static int setup_run(void **state)
{
	static const double lens[] = {0.2, 1, 1, 1, 1, 1, 0.8};
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	fake_init(&fx->f);
	fx->t = fake_ui(120, 30);
	fx->h = history_new();
	if (!fx->t.u || !fx->h)
		return -1;
	ui_set_history(fx->t.u, fx->h);
	double time = 0;
	for (unsigned k = 0; k <= sizeof(lens) / sizeof(lens[0]); k++) {
		bool totals = k == sizeof(lens) / sizeof(lens[0]);
		time += totals ? 0 : lens[k];
		fx->f.m.tick = k + 1;
		fx->f.m.time = time;
		fx->f.m.elapsed = totals ? time : lens[k];
		fx->f.m.final = totals;
		ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
		history_track(fx->h, ui_sort_column(fx->t.u));
		if (history_feed(fx->h, &fx->f.m))
			return -1;
	}
	*state = fx;
	return 0;
}

static int setup_tiny(void **state)
{
	return setup_locale("C.UTF-8", 40, 10, state);
}

/* beta's row a cgroup's, from a Prometheus host (instance set, no process count) or from
 * this machine (3 processes). */
static int setup_cgroup(bool fleet, void **state)
{
	if (setup_locale("C.UTF-8", 120, 30, state))
		return -1;
	struct fixture *fx = *state;
	struct mrow *r = &fx->f.rows[1];
	r->kind = ROW_CGROUP;
	r->pid = r->tid = 0;
	r->cgroup = "/a.slice";
	r->instance = fleet ? "a:9465" : NULL;
	r->job = fleet ? "pmutop" : NULL;
	r->nthreads = fleet ? 0 : 3;
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	return 0;
}

static int setup_fleet_cgroup(void **state)
{
	return setup_cgroup(true, state);
}

static int setup_local_cgroup(void **state)
{
	return setup_cgroup(false, state);
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	fake_close(&fx->t);
	history_free(fx->h);
	free(fx);
	setlocale(LC_ALL, "C");
	return 0;
}

static const char *screen(void **state)
{
	struct fixture *fx = *state;
	const char *s = fake_screen(fx->t.u);
	if (getenv("UI_TEST_DUMP"))
		fprintf(stderr, "----\n%s----\n", s);
	return s;
}

#define U(state) (((struct fixture *)*(state))->t.u)

static const char *row_of(const char *s, const char *name, char *buf, size_t len)
{
	return fake_line(s, fake_find(s, name), buf, len);
}

static void test_trend_utf8(void **state)
{
	char line[1024];
	const char *s = screen(state);
	/* CPU% (the sort column): every row on one scale, 0 to 100 (beta's 80, rounded up
	 * as a chart's axis), said in the title; alpha's 10..50 reach half of it, gamma's
	 * steady 10 stays low beside beta's steady 80. */
	assert_true(fake_find(s, "TREND █=100.0 ") >= 0);
	assert_non_null(strstr(row_of(s, " alpha", line, sizeof(line)), "▂▂▃▄▅ alpha"));
	assert_non_null(strstr(row_of(s, " gamma", line, sizeof(line)), "▂▂▂▂▂ gamma"));
	assert_non_null(strstr(row_of(s, "200 alice       2", line, sizeof(line)), "▇▇▇▇▇ beta"));
	/* IPC: alpha's is a steady 1.5 against beta's 2.5 (the top); gamma's never counted
	 * (a gap, not a floor). */
	for (int i = 0; i < 4; i++)
		fake_key(U(state), '>');
	s = screen(state);
	assert_true(fake_find(s, "TREND █=2.50 ") >= 0);
	assert_non_null(strstr(row_of(s, " alpha", line, sizeof(line)), "▅▅▅▅▅ alpha"));
	row_of(s, " gamma", line, sizeof(line));
	assert_null(strstr(line, "▁"));
	assert_null(strstr(line, "█"));
}

static void test_trend_ascii(void **state)
{
	char line[1024];
	const char *s = screen(state);
	assert_true(fake_find(s, "TREND #=100.0 ") >= 0);
	assert_non_null(strstr(row_of(s, " alpha", line, sizeof(line)), "..-:= alpha"));
	assert_null(strstr(s, "█"));
}

static void test_detail_view(void **state)
{
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN, '\n'};
	fake_keys(U(state), keys, 5);
	const char *s = screen(state);
	assert_true(fake_find(s, "PID 100  alpha  user root") >= 0);
	assert_true(fake_find(s, "CPU%           last 50.0  min 10.0  max 50.0  over 5s") >= 0);
	assert_true(fake_find(s, "IPC            last 1.5") >= 0);
	assert_true(fake_find(s, "events: instructions 100%  cycles 100%") >= 0);
	assert_true(fake_find(s, "⣿") >= 0); /* a Braille chart */
	assert_true(fake_find(s, "EscBack") >= 0);
	fake_key(U(state), 27);
	/* gamma's hardware groups were never on a counter: its charts say so. */
	int down[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN, KEY_DOWN, KEY_DOWN, '\n'};
	fake_keys(U(state), down, 7);
	s = screen(state);
	assert_true(fake_find(s, "PID 300  gamma") >= 0);
	assert_true(fake_find(s, "IPC            n/c: not counted") >= 0);
	assert_true(fake_find(s, "events: instructions n/c (not counted)  cycles n/c") >= 0);
}

static void test_detail_tiny(void **state)
{
	int keys[] = {KEY_HOME, '\n'};
	fake_keys(U(state), keys, 2);
	const char *s = screen(state);
	assert_true(fake_find(s, "PID 200") >= 0);
	assert_int_equal(fake_lines(s), 10);
	/* Scrolling reaches the charts further down. */
	for (int i = 0; i < 30; i++)
		fake_key(U(state), KEY_DOWN);
	s = screen(state);
	assert_true(fake_find(s, "GHz") >= 0 || fake_find(s, "Threads") >= 0);
	assert_int_equal(fake_find(s, "PID 200"), -1);
}

/* A process's threads: their trends on one scale, said in the title, so that beta's
 * thread at a steady 20% draws low beside its thread at 60% (each on its own scale, both
 * would be full). */
static void test_detail_threads_scale(void **state)
{
	char line[1024];
	int keys[] = {KEY_HOME, '\n'};
	fake_keys(U(state), keys, 2);
	screen(state); /* the page's length, for End */
	fake_key(U(state), KEY_END);
	const char *s = screen(state);
	assert_true(fake_find(s, "Threads     CPU%  TREND █=100.0") >= 0);
	assert_non_null(strstr(row_of(s, "    200   60.0", line, sizeof(line)), "▅▅▅▅▅ beta"));
	assert_non_null(strstr(row_of(s, "    201   20.0", line, sizeof(line)), "▂▂▂▂▂ beta"));
}

/* The charts span the run (6 s), not the intervals times the totals' 6 s; and a row
 * without a cgroup does not say "cgroup ?". */
static void test_detail_run(void **state)
{
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN, '\n'};
	fake_keys(U(state), keys, 5);
	const char *s = screen(state);
	assert_true(fake_find(s, "PID 100  alpha") >= 0);
	assert_true(fake_find(s, "over 6s") >= 0);
	assert_int_equal(fake_find(s, "over 48s"), -1);
	assert_int_equal(fake_find(s, "cgroup ?"), -1);
	assert_true(fake_find(s, "cgroup -") >= 0);
}

static struct metric_bind *level2_metrics(const char *list)
{
	char sys[256], json[256], err[300];
	struct metric_bind *b = NULL;
	snprintf(sys, sizeof(sys), "%s/sys", testutil_path("fixtures/metrics/a57"));
	snprintf(json, sizeof(json), "%s", testutil_path("fixtures/metrics/json/level2-test.json"));
	if (metric_bind_load(sys, NULL, json, list, &b, err, sizeof(err)))
		fail_msg("%s", err);
	return b;
}

/* Level 2 in the detail view: each chosen metric of the row, a gap with its reason; and
 * when none is chosen, how to choose it. */
static void test_detail_level2(void **state)
{
	struct fixture *fx = *state;
	struct metric_bind *b = level2_metrics("TopdownL2");
	fx->f.m.metrics = b;
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN, '\n'};
	fake_keys(U(state), keys, 5);
	screen(state); /* drawn once: scrolling knows how long the page is */
	for (int i = 0; i < 40; i++)
		fake_key(U(state), KEY_DOWN);
	char line[1024];
	const char *s = screen(state);
	assert_true(fake_find(s, "Top-down level 2") >= 0);
	/* alpha: 10 context switches, 1000 page faults. */
	assert_non_null(strstr(row_of(s, "sw_l2_switch_share", line, sizeof(line)), " 1.0%  "));
	assert_non_null(strstr(row_of(s, "sw_l2_gap", line, sizeof(line)), "-  division by zero"));
	assert_int_equal(fake_find(s, "sw_other"), -1);
	fake_key(U(state), 27);
	metric_bind_free(b);

	b = level2_metrics("SwOther");
	fx->f.m.metrics = b;
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	fake_keys(U(state), keys, 5);
	for (int i = 0; i < 40; i++)
		fake_key(U(state), KEY_DOWN);
	s = screen(state);
	assert_true(fake_find(s, "Top-down level 2: not counted (-M TopdownL1,TopdownL2") >= 0);
	assert_int_equal(fake_find(s, "sw_l2_switch_share"), -1);
	fake_key(U(state), 27);
	fx->f.m.metrics = NULL;
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	metric_bind_free(b);
}

/* A cgroup row's detail: this machine's says how many processes it holds; a host's
 * (--prometheus) does not know, and says no count rather than 0. */
static void test_detail_cgroup(void **state)
{
	struct fixture *fx = *state;
	bool fleet = fx->f.rows[1].instance != NULL;
	int keys[] = {KEY_HOME, '\n'};
	fake_keys(U(state), keys, 2);
	const char *s = screen(state);
	assert_true(fake_find(s, "cgroup /a.slice") >= 0);
	assert_int_equal(fake_find(s, "(0 processes)"), -1);
	assert_int_equal(fake_find(s, "cgroup /a.slice  (3 processes)") >= 0, !fleet);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_trend_utf8, setup_utf8, teardown),
		cmocka_unit_test_setup_teardown(test_trend_ascii, setup_ascii, teardown),
		cmocka_unit_test_setup_teardown(test_detail_view, setup_utf8, teardown),
		cmocka_unit_test_setup_teardown(test_detail_tiny, setup_tiny, teardown),
		cmocka_unit_test_setup_teardown(test_detail_threads_scale, setup_utf8, teardown),
		cmocka_unit_test_setup_teardown(test_detail_run, setup_run, teardown),
		cmocka_unit_test_setup_teardown(test_detail_level2, setup_utf8, teardown),
		cmocka_unit_test_setup_teardown(test_detail_cgroup, setup_fleet_cgroup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_cgroup, setup_local_cgroup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
