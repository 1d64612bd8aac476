/* The metric expression engine: perf's grammar, the gaps it must give instead of numbers,
 * metric sets, selection as perf stat -M, and the JSON files of tests/fixtures/metrics. */
#include "testutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric.h"
#include "metricjson.h"
#include "mexpr.h"

/* Counters fed in by hand: name, value, state, running share. */
struct feed {
	const char *name;
	double v;
	enum val_state st;
	uint16_t run_pm;
};

static const struct feed *feed_now;

static int feed_lookup(void *ctx, const char *name, struct mval *out)
{
	(void)ctx;
	for (const struct feed *f = feed_now; f && f->name; f++) {
		if (strcmp(f->name, name))
			continue;
		memset(out, 0, sizeof(*out));
		out->v.v = f->v;
		out->v.state = (uint8_t)f->st;
		out->v.run_pm = f->st == VAL_EXACT ? 1000 : f->run_pm;
		if (f->st == VAL_NC)
			out->v.why = WHY_NOT_RUN;
		return 0;
	}
	return -ENOENT;
}

static int feed_literal(void *ctx, const char *name, double *out)
{
	(void)ctx;
	if (!strcmp(name, "slots")) {
		*out = 5;
		return 0;
	}
	if (!strcmp(name, "smt_on")) {
		*out = 1;
		return 0;
	}
	return -ENOENT;
}

static const struct mexpr_env env = {.lookup = feed_lookup, .literal = feed_literal};

/* The last tree evaluated: a gap's name (what) lives in it. */
static struct mexpr *last;

static struct mval eval_text(const char *text, const struct feed *feed)
{
	char err[128];
	mexpr_free(last);
	last = mexpr_parse(text, err, sizeof(err));
	if (!last)
		fail_msg("'%s' does not parse: %s", text, err);
	feed_now = feed;
	return mexpr_eval(last, &env);
}

static double num(const char *text)
{
	struct mval r = eval_text(text, NULL);
	if (r.v.state != VAL_EXACT)
		fail_msg("'%s' is %s (%s), not a number", text, val_state_str(r.v.state),
			 r.why ? r.why : "");
	return r.v.v;
}

static void test_arithmetic_and_precedence(void **state)
{
	(void)state;
	assert_true(num("1 + 2 * 3") == 7);
	assert_true(num("(1 + 2) * 3") == 9);
	assert_true(num("10 - 4 - 3") == 3); /* left-associative */
	assert_true(num("64 / 4 / 2") == 8); /* left-associative */
	assert_true(num("-2 * 3") == -6);
	assert_true(num("- -2") == 2);
	assert_true(num("7 % 3") == 1);
	assert_true(num("1e3 / 4") == 250);
	assert_true(fabs(num("2.5e-3") - 0.0025) < 1e-15);
	assert_true(num(".5 + 1.") == 1.5);
	/* Comparison binds looser than arithmetic, | looser than & looser than <. */
	assert_true(num("1 + 1 > 1") == 1);
	assert_true(num("0 | 2 & 3 < 4") == 1);
	assert_true(num("2 ^ 3") == 0); /* logical, as perf's expr.y: both true */
	assert_true(num("min(3, max(1, 2))") == 2);
	assert_true(num("d_ratio(6, 3)") == 2);
	assert_true(num("#slots * 2") == 10);
}

static void test_if_else(void **state)
{
	(void)state;
	assert_true(num("1 if 1 else 2") == 1);
	assert_true(num("1 if 0 else 2") == 2);
	/* The condition is a whole expression; the else part nests to the right. */
	assert_true(num("10 if 2 > 3 else 20 if 1 else 30") == 20);
	assert_true(num("1 + 1 if #slots - 5 else 7") == 7);
	assert_true(num("(4 if #slots - 5 else 3) * 2") == 6);
}

static void test_names_and_escapes(void **state)
{
	(void)state;
	char err[128];
	struct mexpr *e = mexpr_parse("topdown\\-fe\\-bound + cpu@event\\=0x3c\\,cmask\\=1@ + "
				      "cpu_core@INT_MISC.UOP_DROPPING@ + inst_retired.any + "
				      "topdown\\-fe\\-bound + #smt_on + ifx",
				      err, sizeof(err));
	assert_non_null(e);
	const char *ids[8];
	unsigned n = mexpr_ids(e, NULL, ids, 8);
	assert_int_equal(n, 5); /* each once; literals are not events */
	assert_string_equal(ids[0], "topdown-fe-bound");
	assert_string_equal(ids[1], "cpu/event=0x3c,cmask=1/");
	assert_string_equal(ids[2], "cpu_core/INT_MISC.UOP_DROPPING/");
	assert_string_equal(ids[3], "inst_retired.any");
	assert_string_equal(ids[4], "ifx"); /* a keyword only when whole */
	mexpr_free(e);
}

static void test_ids_fold_literal_branches(void **state)
{
	(void)state;
	/* Neoverse N2's formula: with 5 slots only the else branch's events are needed. */
	struct mexpr *e = mexpr_parse(
		"((stall_slot_frontend) if (#slots - 5) else (stall_slot_frontend - cpu_cycles))"
		" / (#slots * cpu_cycles) + (a if b else c)",
		NULL, 0);
	assert_non_null(e);
	const char *ids[8];
	unsigned n = mexpr_ids(e, &env, ids, 8);
	/* a if b else c depends on a counted b: all three stay. */
	assert_int_equal(n, 5);
	assert_string_equal(ids[0], "stall_slot_frontend");
	assert_string_equal(ids[1], "cpu_cycles");
	mexpr_free(e);
	e = mexpr_parse("x if #slots - 5 else y", NULL, 0);
	n = mexpr_ids(e, &env, ids, 8);
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "y");
	/* Without literals both branches are collected. */
	assert_int_equal(mexpr_ids(e, NULL, ids, 8), 2);
	mexpr_free(e);
}

static void expect_syntax_error(const char *text, const char *msg)
{
	char err[128];
	struct mexpr *e = mexpr_parse(text, err, sizeof(err));
	if (e) {
		mexpr_free(e);
		fail_msg("'%s' parsed", text);
	}
	if (!strstr(err, msg))
		fail_msg("'%s': '%s' does not say '%s'", text, err, msg);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	expect_syntax_error("", "end of the expression");
	expect_syntax_error("(1 + 2", "at 7: expected ')'");
	expect_syntax_error("1 +", "end of the expression");
	expect_syntax_error("1 2", "expected an operator");
	expect_syntax_error("a if b", "expected 'else'");
	expect_syntax_error("a else b", "'else' without 'if'");
	expect_syntax_error("min(1)", "expected ','");
	expect_syntax_error("has_event(1 + 2)", "expected an event name");
	expect_syntax_error("a $ b", "not a number, name or operator");
	expect_syntax_error("# + 1", "not a number, name or operator");
	expect_syntax_error("a\\+b", "not a number, name or operator"); /* only \- \, \= */
	/* Deep nesting is refused, not a stack overflow. */
	char deep[4096];
	memset(deep, '(', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	expect_syntax_error(deep, "nested too deep");
	memset(deep, '-', sizeof(deep) - 2);
	deep[sizeof(deep) - 2] = '1';
	expect_syntax_error(deep, "nested too deep");
	/* A long chain nests no parenthesis but makes as tall a tree. */
	size_t o = 0;
	for (unsigned i = 0; i < 600; i++)
		o += (size_t)snprintf(deep + o, sizeof(deep) - o, i ? "+a" : "a");
	expect_syntax_error(deep, "expression too long or nested too deep");
}

static void test_long_sums_evaluate(void **state)
{
	(void)state;
	/* 500 terms: within the limit, every event collected and summed. */
	static char text[8192];
	size_t o = 0;
	for (unsigned i = 0; i < 500; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%se%u", i ? " + " : "", i % 7);
	static const struct feed f[] = {{"e0", 1, VAL_EXACT, 1000}, {"e1", 1, VAL_EXACT, 1000},
					{"e2", 1, VAL_EXACT, 1000}, {"e3", 1, VAL_EXACT, 1000},
					{"e4", 1, VAL_EXACT, 1000}, {"e5", 1, VAL_EXACT, 1000},
					{"e6", 1, VAL_EXACT, 1000}, {NULL, 0, 0, 0}};
	struct mval r = eval_text(text, f);
	assert_int_equal(r.v.state, VAL_EXACT);
	assert_true(r.v.v == 500);
	const char *ids[8];
	assert_int_equal(mexpr_ids(last, NULL, ids, 8), 7);
}

static void test_division_by_zero_is_a_gap(void **state)
{
	(void)state;
	static const struct feed idle[] = {{"cycles", 0, VAL_EXACT, 1000},
					   {"instructions", 0, VAL_EXACT, 1000},
					   {NULL, 0, 0, 0}};
	struct mval r = eval_text("instructions / cycles", idle);
	assert_int_equal(r.v.state, VAL_EMPTY);
	assert_string_equal(r.why, "division by zero");
	/* perf reads d_ratio(x, 0) as 0; here it is the same gap, never a silent zero. */
	r = eval_text("d_ratio(instructions, cycles)", idle);
	assert_int_equal(r.v.state, VAL_EMPTY);
	assert_string_equal(r.why, "division by zero");
	r = eval_text("5 % cycles", idle);
	assert_int_equal(r.v.state, VAL_EMPTY);
	/* A gap inside stays a gap whatever surrounds it. */
	r = eval_text("1 + 0 * (1 / cycles)", idle);
	assert_int_equal(r.v.state, VAL_EMPTY);
	assert_false(val_has_number(r.v));
}

static void test_unknown_names_are_na(void **state)
{
	(void)state;
	static const struct feed some[] = {{"cycles", 100, VAL_EXACT, 1000}, {NULL, 0, 0, 0}};
	struct mval r = eval_text("cycles / no_such_event", some);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "unknown event");
	assert_string_equal(r.what, "no_such_event");
	r = eval_text("cycles * #no_such_literal", some);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "unknown literal");
	assert_string_equal(r.what, "no_such_literal");
	/* Retire latency (:R) needs sampling: a counter monitor shows a gap. */
	r = eval_text("cycles + MEM_INST_RETIRED.STLB_HIT_LOADS:R", some);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "needs sampling (retire latency)");
	/* has_event answers without a gap; source_count of an unknown event is n/a. */
	assert_true(eval_text("has_event(cycles)", some).v.v == 1);
	r = eval_text("has_event(no_such_event)", some);
	assert_int_equal(r.v.state, VAL_EXACT);
	assert_true(r.v.v == 0);
	assert_true(eval_text("source_count(cycles)", some).v.v == 1);
	assert_int_equal(eval_text("source_count(nope)", some).v.state, VAL_NA);
	assert_int_equal(eval_text("strcmp_cpuid_str(0x410fd490)", some).v.state, VAL_NA);
}

static void test_worst_state_wins(void **state)
{
	(void)state;
	static const struct feed mixed[] = {{"a", 300, VAL_SCALED, 333},
					    {"b", 100, VAL_EXACT, 1000},
					    {"c", 50, VAL_PARTIAL, 700},
					    {"nc", 0, VAL_NC, 0},
					    {NULL, 0, 0, 0}};
	struct mval r = eval_text("a / b", mixed);
	assert_int_equal(r.v.state, VAL_SCALED);
	assert_int_equal(r.v.run_pm, 333);
	assert_true(r.v.v == 3);
	r = eval_text("(a + c) / b", mixed);
	assert_int_equal(r.v.state, VAL_PARTIAL);
	assert_int_equal(r.v.run_pm, 333);
	r = eval_text("b / b", mixed);
	assert_int_equal(r.v.state, VAL_EXACT);
	assert_int_equal(r.v.run_pm, 1000);
	/* Not counted beats a division by zero, and unknown beats not counted. */
	r = eval_text("nc / (b - b)", mixed);
	assert_int_equal(r.v.state, VAL_NC);
	assert_string_equal(r.why, "not counted");
	assert_string_equal(r.what, "nc");
	r = eval_text("nc + nope", mixed);
	assert_int_equal(r.v.state, VAL_NA);
	r = eval_text("max(a, nc)", mixed);
	assert_int_equal(r.v.state, VAL_NC);
	/* The branch not taken does not count; the condition does. */
	r = eval_text("b if 1 else nc", mixed);
	assert_int_equal(r.v.state, VAL_EXACT);
	r = eval_text("b if a > 0 else nc", mixed);
	assert_int_equal(r.v.state, VAL_SCALED);
	r = eval_text("b if nc else b", mixed);
	assert_int_equal(r.v.state, VAL_NC);
}

static struct metric_set *load(const char *const *files, unsigned n)
{
	struct metric_set *s = metric_set_new();
	assert_non_null(s);
	for (unsigned i = 0; i < n; i++) {
		char err[256], rel[128];
		snprintf(rel, sizeof(rel), "fixtures/metrics/json/%s", files[i]);
		int r = metric_set_load_json(s, testutil_path(rel), err, sizeof(err));
		if (r <= 0)
			fail_msg("%s: %d %s", files[i], r, err);
	}
	return s;
}

static void test_every_fixture_expression_parses(void **state)
{
	(void)state;
	static const char *const files[] = {
		"amdzen4-pipeline.json", "sbsa.json",	 "neoverse-n2-v2-metrics.json",
		"spr-topdown-l1.json",	 "grammar.json", "amdzen5-pipeline.json",
		"adl-topdown-l2.json"};
	/* The N2 file's ArchStdEvent entries refine sbsa.json's metrics: alone, 7 of 11. */
	static const int metrics[] = {14, 4, 7, 5, 7, 14, 30};
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct metric_set *s = metric_set_new();
		char err[256], rel[128];
		snprintf(rel, sizeof(rel), "fixtures/metrics/json/%s", files[i]);
		int r = metric_set_load_json(s, testutil_path(rel), err, sizeof(err));
		if (r != metrics[i])
			fail_msg("%s: %d metrics, expected %d (%s)", files[i], r, metrics[i], err);
		metric_set_free(s);
	}
}

static void test_fixture_thresholds_parse(void **state)
{
	(void)state;
	/* MetricThreshold is the same grammar: each in spr-topdown-l1.json parses. */
	FILE *f = fopen(testutil_path("fixtures/metrics/json/spr-topdown-l1.json"), "r");
	assert_non_null(f);
	char line[1024];
	unsigned n = 0;
	while (fgets(line, sizeof(line), f)) {
		const char *key = strstr(line, "\"MetricThreshold\": \"");
		if (!key)
			continue;
		const char *start = key + strlen("\"MetricThreshold\": \"");
		char text[512];
		snprintf(text, sizeof(text), "%.*s", (int)strcspn(start, "\""), start);
		char err[128];
		struct mexpr *e = mexpr_parse(text, err, sizeof(err));
		if (!e)
			fail_msg("'%s': %s", text, err);
		mexpr_free(e);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 4);
}

static void test_select_like_perf_stat_M(void **state)
{
	(void)state;
	static const char *const f[] = {"amdzen4-pipeline.json"};
	struct metric_set *s = load(f, 1);
	unsigned idx[16];
	char err[128];
	int n = metric_set_select(s, "PipelineL1", idx, 16, err, sizeof(err));
	assert_int_equal(n, 5);
	/* Group names in any case, and metric names mixed in, each chosen once. */
	assert_int_equal(metric_set_select(s, "pipelinel1,retiring", idx, 16, err, sizeof(err)), 5);
	assert_int_equal(metric_set_select(s, "NoSuchGroup", idx, 16, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "no metric or metric group called 'NoSuchGroup'");
	/* PipelineL1 needs six events, total_dispatch_slots resolved to ls_not_halted_cyc. */
	n = metric_set_select(s, "PipelineL1", idx, 16, err, sizeof(err));
	const char *ev[16];
	unsigned ne = metric_set_events(s, idx, (unsigned)n, NULL, ev, 16);
	assert_int_equal(ne, 6);
	static const char *const want[] = {"de_no_dispatch_per_slot.no_ops_from_frontend",
					   "ls_not_halted_cyc",
					   "de_src_op_disp.all",
					   "ex_ret_ops",
					   "de_no_dispatch_per_slot.backend_stalls",
					   "de_no_dispatch_per_slot.smt_contention"};
	for (unsigned i = 0; i < 6; i++)
		assert_string_equal(ev[i], want[i]);
	char spec[512];
	metric_set_group_spec(s, idx[0], NULL, spec, sizeof(spec));
	assert_string_equal(spec,
			    "{de_no_dispatch_per_slot.no_ops_from_frontend,ls_not_halted_cyc}:W");
	metric_set_free(s);
}

static void test_metric_references(void **state)
{
	(void)state;
	static const char *const f[] = {"amdzen4-pipeline.json"};
	struct metric_set *s = load(f, 1);
	static const struct feed zen[] = {{"ls_not_halted_cyc", 1000, VAL_EXACT, 1000},
					  {"de_src_op_disp.all", 3000, VAL_EXACT, 1000},
					  {"ex_ret_ops", 2400, VAL_EXACT, 1000},
					  {"ex_ret_ucode_ops", 600, VAL_SCALED, 500},
					  {NULL, 0, 0, 0}};
	feed_now = zen;
	/* retiring_microcode = retiring * d_ratio(ucode, ret_ops): two levels of reference. */
	int i = metric_set_find(s, "retiring_microcode");
	assert_true(i >= 0);
	struct mval r = metric_set_eval(s, (unsigned)i, &env, METRIC_SCOPE_TASK, true);
	assert_int_equal(r.v.state, VAL_SCALED);
	assert_int_equal(r.v.run_pm, 500);
	assert_true(fabs(r.v.v - (2400.0 / 6000.0) * (600.0 / 2400.0)) < 1e-12);
	/* A missing event in a referenced metric reaches the top with its name. */
	i = metric_set_find(s, "frontend_bound");
	r = metric_set_eval(s, (unsigned)i, &env, METRIC_SCOPE_TASK, true);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.what, "de_no_dispatch_per_slot.no_ops_from_frontend");
	const char *unit;
	assert_true(metric_scale(metric_set_def(s, (unsigned)i), &unit) == 100);
	assert_string_equal(unit, "%");
	metric_set_free(s);
}

static void test_reference_cycles_are_gaps(void **state)
{
	(void)state;
	struct metric_set *s = metric_set_new();
	char err[128];
	struct metric_def a = {.name = "a", .expr = "b + 1"}, b = {.name = "b", .expr = "a * 2"};
	assert_int_equal(metric_set_add(s, &a, err, sizeof(err)), 0);
	assert_int_equal(metric_set_add(s, &b, err, sizeof(err)), 0);
	struct mval r = metric_set_eval(s, 0, &env, METRIC_SCOPE_TASK, false);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "metric refers to itself");
	/* A bad expression is refused with the metric's name. */
	struct metric_def bad = {.name = "bad", .expr = "1 +"};
	assert_int_equal(metric_set_add(s, &bad, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "metric bad: at 4"));
	metric_set_free(s);
}

static void test_json_errors(void **state)
{
	(void)state;
	struct metric_set *s = metric_set_new();
	char err[256];
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"{}", "expected '['"},
		{"[{\"MetricName\": \"x\", \"MetricExpr\": \"1 +\"}]", "entry 1: metric x: at 4"},
		{"[{\"MetricName\": \"x\" \"MetricExpr\": \"1\"}]", "expected ',' or '}'"},
		{"[{\"MetricName\": \"x\", \"MetricExpr\": \"1\"}", "expected ',' or ']'"},
		{"[{\"MetricName\": \"x\\q\"}]", "bad escape"},
		{"[] x", "text after the array"},
		{"[{\"a\": "
		 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]",
		 "nested too deep"},
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = metric_set_load_json_text(s, bad[i].text, strlen(bad[i].text), err,
						  sizeof(err));
		assert_int_equal(r, -EINVAL);
		if (!strstr(err, bad[i].msg))
			fail_msg("%s: '%s' does not say '%s'", bad[i].text, err, bad[i].msg);
	}
	metric_set_free(s);
	s = metric_set_new();
	/* Events (no MetricExpr) are skipped; \u escapes decode. */
	const char *ok = "[{\"EventName\": \"x\"}, {\"MetricName\": \"m\\u0061\", \"MetricExpr\": "
			 "\"1\", \"Other\": {\"n\": [1, true, null]}}]";
	assert_int_equal(metric_set_load_json_text(s, ok, strlen(ok), err, sizeof(err)), 1);
	assert_int_equal(metric_set_find(s, "ma"), 0);
	char missing[] = "/nonexistent/metrics.json";
	assert_int_equal(metric_set_load_json(s, missing, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/metrics.json: "));
	metric_set_free(s);
}

static void test_resolution_levels(void **state)
{
	(void)state;
	/* intel/perfmon's metric files say where a metric is valid: without THREAD, only per
	 * core, so a task row shows n/a. */
	struct metric_set *s = metric_set_new();
	char err[256];
	const char *text = "[{\"MetricName\": \"core_only\", \"MetricExpr\": \"b / b\", "
			   "\"ResolutionLevels\": \"CORE, SOCKET, SYSTEM\"},"
			   "{\"MetricName\": \"per_thread\", \"MetricExpr\": \"b / b\", "
			   "\"ResolutionLevels\": \"THREAD, CORE, SOCKET, SYSTEM\"},"
			   "{\"MetricName\": \"unsaid\", \"MetricExpr\": \"b / b\"}]";
	assert_int_equal(metric_set_load_json_text(s, text, strlen(text), err, sizeof(err)), 3);
	static const struct feed f[] = {{"b", 7, VAL_EXACT, 1000}, {NULL, 0, 0, 0}};
	feed_now = f;
	struct mval r = metric_set_eval(s, 0, &env, METRIC_SCOPE_TASK, false);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "per-core metric");
	r = metric_set_eval(s, 0, &env, METRIC_SCOPE_CPU, false);
	assert_int_equal(r.v.state, VAL_EXACT);
	assert_true(r.v.v == 1);
	assert_int_equal(metric_set_eval(s, 1, &env, METRIC_SCOPE_TASK, false).v.state, VAL_EXACT);
	assert_int_equal(metric_set_eval(s, 2, &env, METRIC_SCOPE_TASK, false).v.state, VAL_EXACT);
	/* A per-thread metric built on a per-core one inherits the gap. */
	struct metric_def d = {.name = "derived", .expr = "core_only * 2"};
	assert_int_equal(metric_set_add(s, &d, err, sizeof(err)), 0);
	r = metric_set_eval(s, 3, &env, METRIC_SCOPE_TASK, false);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "per-core metric");
	metric_set_free(s);
}

static void test_group_spec(void **state)
{
	(void)state;
	/* Tool events stay outside the weak group, as perf leaves duration_time out. */
	struct metric_set *s = metric_set_new();
	char err[128], spec[64];
	struct metric_def d = {.name = "rate", .expr = "(a + b) / duration_time * a"};
	assert_int_equal(metric_set_add(s, &d, err, sizeof(err)), 0);
	assert_int_equal(metric_set_group_spec(s, 0, NULL, spec, sizeof(spec)), 21);
	assert_string_equal(spec, "{a,b}:W,duration_time");
	/* Cut like snprintf: the length it needed, a terminated prefix. */
	assert_int_equal(metric_set_group_spec(s, 0, NULL, spec, 6), 21);
	assert_string_equal(spec, "{a,b}");
	/* Only tool events: no group at all. */
	struct metric_def t = {.name = "wall", .expr = "duration_time / 1e9"};
	assert_int_equal(metric_set_add(s, &t, err, sizeof(err)), 0);
	metric_set_group_spec(s, 1, NULL, spec, sizeof(spec));
	assert_string_equal(spec, "duration_time");
	metric_set_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic_and_precedence),
		cmocka_unit_test(test_if_else),
		cmocka_unit_test(test_names_and_escapes),
		cmocka_unit_test(test_ids_fold_literal_branches),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_long_sums_evaluate),
		cmocka_unit_test(test_division_by_zero_is_a_gap),
		cmocka_unit_test(test_unknown_names_are_na),
		cmocka_unit_test(test_worst_state_wins),
		cmocka_unit_test(test_every_fixture_expression_parses),
		cmocka_unit_test(test_fixture_thresholds_parse),
		cmocka_unit_test(test_select_like_perf_stat_M),
		cmocka_unit_test(test_metric_references),
		cmocka_unit_test(test_reference_cycles_are_gaps),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_resolution_levels),
		cmocka_unit_test(test_group_spec),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	mexpr_free(last);
	return r;
}
