/* Built-in top-down per CPU, without the hardware: fixture sysfs trees and cpuinfo of
 * tests/fixtures/metrics, counter values fed in, and each metric compared with the value
 * computed here by hand from the vendor's formula (docs/TOPDOWN.md). */
#include "testutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric.h"
#include "metricjson.h"
#include "metriccpu.h"

struct feed {
	const char *name;
	double v;
};

static const struct feed *feed_now;
static struct metric_cpu cpu_now;

static int lookup(void *ctx, const char *name, struct mval *out)
{
	(void)ctx;
	for (const struct feed *f = feed_now; f && f->name; f++) {
		if (!strcmp(f->name, name)) {
			memset(out, 0, sizeof(*out));
			out->v = (struct val){.v = f->v, .state = VAL_EXACT, .run_pm = 1000};
			return 0;
		}
	}
	return -ENOENT;
}

static const struct mexpr_env env = {
	.lookup = lookup, .literal = metric_cpu_literal, .ctx = &cpu_now};

static struct metric_set *setup(const char *fixture, enum metric_cpu_kind kind)
{
	char sys[256], info[256];
	snprintf(sys, sizeof(sys), "%s", testutil_path(fixture));
	snprintf(info, sizeof(info), "%s/cpuinfo", sys);
	strcat(sys, "/sys");
	assert_int_equal(metric_cpu_detect(sys, info, &cpu_now), 0);
	if (cpu_now.kind != kind)
		fail_msg("%s: detected %s, not %s", fixture, metric_cpu_kind_name(cpu_now.kind),
			 metric_cpu_kind_name(kind));
	struct metric_set *s = metric_set_new();
	assert_int_equal(metric_builtin_load(s, &cpu_now), 0);
	return s;
}

static int find(const struct metric_set *s, const char *name, const char *pmu)
{
	for (unsigned i = 0; i < metric_set_count(s); i++) {
		const struct metric_def *d = metric_set_def(s, i);
		if (!strcmp(d->name, name) &&
		    ((!pmu && !d->pmu) || (pmu && d->pmu && !strcmp(pmu, d->pmu))))
			return (int)i;
	}
	fail_msg("no metric %s (%s)", name, pmu ? pmu : "-");
	return -1;
}

static struct mval value(const struct metric_set *s, const char *name, const char *pmu,
			 enum metric_scope scope)
{
	return metric_set_eval(s, (unsigned)find(s, name, pmu), &env, scope, cpu_now.smt_on);
}

static void expect(const struct metric_set *s, const char *name, const char *pmu, double want)
{
	struct mval r = value(s, name, pmu, METRIC_SCOPE_TASK);
	if (r.v.state != VAL_EXACT)
		fail_msg("%s: %s (%s %s)", name, val_state_str(r.v.state), r.why ? r.why : "",
			 r.what ? r.what : "");
	if (fabs(r.v.v - want) > 1e-12)
		fail_msg("%s: %.15g, by hand %.15g", name, r.v.v, want);
}

/* Every metric of perf's file json against the built-in of the same name and PMU, over
 * the feed f: the same state and the same value. The built-in set must have each. */
static void same_as_file(const struct metric_set *s, const char *json, unsigned nfile,
			 const struct feed *f)
{
	char err[300];
	struct metric_set *j = metric_set_new();
	int n = metric_set_load_json(j, testutil_path(json), err, sizeof(err));
	if (n < 0)
		fail_msg("%s: %s", json, err);
	assert_int_equal(n, nfile);
	feed_now = f;
	for (unsigned i = 0; i < metric_set_count(j); i++) {
		const struct metric_def *d = metric_set_def(j, i);
		struct mval a = metric_set_eval(j, i, &env, METRIC_SCOPE_TASK, cpu_now.smt_on);
		struct mval b = value(s, d->name, d->pmu, METRIC_SCOPE_TASK);
		if (a.v.state != VAL_EXACT || b.v.state != VAL_EXACT || fabs(a.v.v - b.v.v) > 1e-12)
			fail_msg("%s (%s): perf's file %s %.15g (%s %s), built-in %s %.15g (%s %s)",
				 d->name, d->pmu ? d->pmu : "-", val_state_str(a.v.state), a.v.v,
				 a.why ? a.why : "", a.what ? a.what : "", val_state_str(b.v.state),
				 b.v.v, b.why ? b.why : "", b.what ? b.what : "");
	}
	metric_set_free(j);
}

static void test_sapphire_rapids(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/spr", MCPU_INTEL_GOLDEN_COVE);
	assert_string_equal(cpu_now.pmu, "cpu");
	assert_true(cpu_now.smt_on);
	assert_int_equal(cpu_now.num_cpus, 112);
	assert_string_equal(cpu_now.cpuid, "GenuineIntel-6-8F-8");
	static const struct feed f[] = {
		{"slots", 1000000},	      {"topdown-retiring", 400000},
		{"topdown-bad-spec", 100000}, {"topdown-fe-bound", 250000},
		{"topdown-be-bound", 250000}, {"INT_MISC.UOP_DROPPING", 20000},
		{"instructions", 3000000},    {"cycles", 1500000},
		{"cache-misses", 4500},	      {"branch-misses", 1200},
		{"task-clock", 600000},	      {NULL, 0},
	};
	feed_now = f;
	/* spr-metrics.json: each share over the four, frontend less UOP_DROPPING / slots. */
	double sum = 400000.0 + 100000 + 250000 + 250000;
	expect(s, "tma_frontend_bound", NULL, 250000 / sum - 20000.0 / 1000000);
	expect(s, "tma_backend_bound", NULL, 250000 / sum);
	expect(s, "tma_retiring", NULL, 400000 / sum);
	/* Bad speculation is what the other three leave, the dropped uops included. */
	expect(s, "tma_bad_speculation", NULL, 100000 / sum + 20000.0 / 1000000);
	double all = 0;
	static const char *const l1[] = {"tma_frontend_bound", "tma_backend_bound", "tma_retiring",
					 "tma_bad_speculation"};
	for (unsigned i = 0; i < 4; i++)
		all += value(s, l1[i], NULL, METRIC_SCOPE_TASK).v.v;
	assert_true(fabs(all - 1) < 1e-12); /* the four are all the slots, as in perf */
	expect(s, "ipc", NULL, 2.0);
	expect(s, "cache_mpki", NULL, 1.5);
	expect(s, "branch_mpki", NULL, 0.4);
	expect(s, "ghz", NULL, 2.5);
	/* The kernel wants slots to lead the PERF_METRICS events, in one group. */
	char spec[512];
	metric_set_group_spec(s, (unsigned)find(s, "tma_frontend_bound", NULL), &env, spec,
			      sizeof(spec));
	assert_string_equal(spec, "{slots,topdown-fe-bound,topdown-bad-spec,topdown-retiring,"
				  "topdown-be-bound,INT_MISC.UOP_DROPPING}:W");
	unsigned idx[16];
	char err[128];
	int n = metric_set_select(s, "TopdownL1", idx, 16, err, sizeof(err));
	assert_int_equal(n, 4);
	const char *ev[16];
	assert_int_equal(metric_set_events(s, idx, (unsigned)n, &env, ev, 16), 6);
	/* No counter at all: every share is a gap, never 0%. */
	feed_now = NULL;
	struct mval r = value(s, "tma_retiring", NULL, METRIC_SCOPE_TASK);
	assert_int_equal(r.v.state, VAL_NA);
	static const struct feed idle[] = {{"slots", 0},
					   {"topdown-retiring", 0},
					   {"topdown-bad-spec", 0},
					   {"topdown-fe-bound", 0},
					   {"topdown-be-bound", 0},
					   {"INT_MISC.UOP_DROPPING", 0},
					   {NULL, 0}};
	feed_now = idle;
	r = value(s, "tma_frontend_bound", NULL, METRIC_SCOPE_TASK);
	assert_int_equal(r.v.state, VAL_EMPTY);
	assert_string_equal(r.why, "division by zero");
	metric_set_free(s);
}

static void test_alder_lake_hybrid(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/adl", MCPU_INTEL_HYBRID);
	static const struct feed f[] = {
		{"cpu_core/slots/", 600000},
		{"cpu_core/topdown-retiring/", 300000},
		{"cpu_core/topdown-bad-spec/", 60000},
		{"cpu_core/topdown-fe-bound/", 90000},
		{"cpu_core/topdown-be-bound/", 150000},
		{"cpu_core/INT_MISC.UOP_DROPPING/", 6000},
		{"cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000},
		{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1500},
		{"cpu_atom/TOPDOWN_BE_BOUND.ALL/", 2000},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.ALL/", 450},
		{"cpu_atom/TOPDOWN_RETIRING.ALL/", 1000},
		{NULL, 0},
	};
	feed_now = f;
	/* adl-metrics.json: Golden Cove on cpu_core, 5 slots a cycle on cpu_atom. */
	double sum = 300000.0 + 60000 + 90000 + 150000;
	expect(s, "tma_frontend_bound", "cpu_core", 90000 / sum - 6000.0 / 600000);
	expect(s, "tma_backend_bound", "cpu_core", 150000 / sum);
	expect(s, "tma_retiring", "cpu_core", 300000 / sum);
	expect(s, "tma_bad_speculation", "cpu_core", 60000 / sum + 6000.0 / 600000);
	expect(s, "tma_frontend_bound", "cpu_atom", 1500.0 / (5 * 1000));
	expect(s, "tma_backend_bound", "cpu_atom", 2000.0 / (5 * 1000));
	/* what the other three leave of the slots, as perf's file: 10%; the event itself,
	 * counted apart, says 9% */
	expect(s, "tma_bad_speculation", "cpu_atom",
	       (5 * 1000 - (1500.0 + 2000 + 1000)) / (5 * 1000));
	expect(s, "tma_retiring", "cpu_atom", 1000.0 / (5 * 1000));
	/* -M TopdownL1 chooses both core types' four, each named once per PMU. */
	unsigned idx[16];
	char err[128];
	assert_int_equal(metric_set_select(s, "TopdownL1", idx, 16, err, sizeof(err)), 8);
	/* A group never mixes the two PMUs, and cpu_core's slots lead its own. */
	char spec[512];
	metric_set_group_spec(s, (unsigned)find(s, "tma_frontend_bound", "cpu_core"), &env, spec,
			      sizeof(spec));
	assert_string_equal(spec, "{cpu_core/slots/,cpu_core/topdown-fe-bound/,"
				  "cpu_core/topdown-bad-spec/,cpu_core/topdown-retiring/,"
				  "cpu_core/topdown-be-bound/,cpu_core/INT_MISC.UOP_DROPPING/}:W");
	metric_set_group_spec(s, (unsigned)find(s, "tma_retiring", "cpu_atom"), &env, spec,
			      sizeof(spec));
	assert_string_equal(spec,
			    "{cpu_atom/TOPDOWN_RETIRING.ALL/,cpu_atom/CPU_CLK_UNHALTED.CORE/}:W");
	/* Levels 1 and 2 of both core types as perf's own adl-metrics.json computes them
	 * (its cpu_atom entries name bare events, its cpu_core slots TOPDOWN.SLOTS: the same
	 * counts under both names; Gracemont's four do not add up to its slots, so that
	 * level 1's bad speculation must be perf's remainder, not TOPDOWN_BAD_SPECULATION.ALL). */
	static const struct feed l2[] = {
		{"cpu_core/slots/", 600000},
		{"cpu_core/TOPDOWN.SLOTS/", 600000},
		{"cpu_core/topdown-retiring/", 300000},
		{"cpu_core/topdown-bad-spec/", 60000},
		{"cpu_core/topdown-fe-bound/", 90000},
		{"cpu_core/topdown-be-bound/", 150000},
		{"cpu_core/INT_MISC.UOP_DROPPING/", 6000},
		{"cpu_core/topdown-heavy-ops/", 120000},
		{"cpu_core/topdown-br-mispredict/", 40000},
		{"cpu_core/topdown-fetch-lat/", 70000},
		{"cpu_core/topdown-mem-bound/", 100000},
		{"cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000},
		{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1500},
		{"TOPDOWN_FE_BOUND.ALL", 1500},
		{"cpu_atom/TOPDOWN_BE_BOUND.ALL/", 2000},
		{"TOPDOWN_BE_BOUND.ALL", 2000},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.ALL/", 450},
		{"cpu_atom/TOPDOWN_RETIRING.ALL/", 1000},
		{"TOPDOWN_RETIRING.ALL", 1000},
		{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_LATENCY/", 900},
		{"TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 900},
		{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH/", 600},
		{"TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 600},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.MISPREDICT/", 300},
		{"TOPDOWN_BAD_SPECULATION.MISPREDICT", 300},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS/", 200},
		{"TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 200},
		{"cpu_atom/UOPS_RETIRED.MS/", 150},
		{"UOPS_RETIRED.MS", 150},
		{"cpu_atom/TOPDOWN_BE_BOUND.MEM_SCHEDULER/", 800},
		{"TOPDOWN_BE_BOUND.MEM_SCHEDULER", 800},
		{"cpu_atom/MEM_SCHEDULER_BLOCK.ST_BUF/", 100},
		{"cpu_atom/MEM_SCHEDULER_BLOCK.ALL/", 400},
		{"cpu_atom/LD_HEAD.ANY_AT_RET/", 300},
		{NULL, 0},
	};
	same_as_file(s, "fixtures/metrics/json/adl-topdown-l2.json", 30, l2);
	metric_set_free(s);
}

static void test_skylake_per_core(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/skl", MCPU_INTEL_4SLOT);
	static const struct feed f[] = {
		{"topdown-total-slots", 4000},	   {"topdown-slots-issued", 2500},
		{"topdown-slots-retired", 2000},   {"topdown-fetch-bubbles", 800},
		{"topdown-recovery-bubbles", 100}, {NULL, 0},
	};
	feed_now = f;
	/* SMT on: the 4-slot events count for the core, so no task row may show them. */
	assert_true(cpu_now.smt_on);
	static const char *const names[] = {"tma_frontend_bound", "tma_bad_speculation",
					    "tma_retiring", "tma_backend_bound"};
	for (unsigned i = 0; i < 4; i++) {
		struct mval r = value(s, names[i], NULL, METRIC_SCOPE_TASK);
		assert_int_equal(r.v.state, VAL_NA);
		assert_string_equal(r.why, "per-core metric");
	}
	/* On CPU rows, topdown.txt's formulas. */
	double fe = 800.0 / 4000, bad = (2500.0 - 2000 + 100) / 4000, ret = 2000.0 / 4000;
	struct mval r = value(s, "tma_backend_bound", NULL, METRIC_SCOPE_CPU);
	assert_int_equal(r.v.state, VAL_EXACT);
	assert_true(fabs(r.v.v - (1 - (fe + bad + ret))) < 1e-12);
	/* SMT off: a thread has the core to itself. */
	cpu_now.smt_on = false;
	expect(s, "tma_frontend_bound", NULL, fe);
	expect(s, "tma_bad_speculation", NULL, bad);
	expect(s, "tma_retiring", NULL, ret);
	metric_set_free(s);
}

static const struct feed zen_feed[] = {
	{"ls_not_halted_cyc", 1000},
	{"de_no_dispatch_per_slot.no_ops_from_frontend", 1200},
	{"de_no_dispatch_per_slot.backend_stalls", 1800},
	{"de_no_dispatch_per_slot.smt_contention", 600},
	{"ex_ret_ops", 1500},
	{"de_src_op_disp.all", 2400},
	{NULL, 0},
};

static void check_zen(const struct metric_set *s, double width)
{
	/* amdzen4/amdzen5 pipeline.json: each over width x ls_not_halted_cyc. */
	double slots = width * 1000;
	feed_now = zen_feed;
	expect(s, "frontend_bound", NULL, 1200 / slots);
	expect(s, "backend_bound", NULL, 1800 / slots);
	expect(s, "smt_contention", NULL, 600 / slots);
	expect(s, "retiring", NULL, 1500 / slots);
	expect(s, "bad_speculation", NULL, (2400.0 - 1500) / slots);
}

static void test_zen4(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/zen4", MCPU_AMD_ZEN4);
	assert_string_equal(cpu_now.cpuid, "AuthenticAMD-25-11-1");
	check_zen(s, 6);
	/* The five shares of a Zen 4 slot add up to all of them. */
	double sum = 0;
	static const char *const l1[] = {"frontend_bound", "backend_bound", "smt_contention",
					 "retiring", "bad_speculation"};
	for (unsigned i = 0; i < 5; i++)
		sum += value(s, l1[i], NULL, METRIC_SCOPE_TASK).v.v;
	assert_true(fabs(sum - 1) < 1e-12);
	unsigned idx[16];
	char err[128];
	assert_int_equal(metric_set_select(s, "PipelineL1", idx, 16, err, sizeof(err)), 5);
	/* An idle thread's shares are gaps, not perf's d_ratio zeros. */
	static const struct feed idle[] = {{"ls_not_halted_cyc", 0}, {"ex_ret_ops", 0}, {NULL, 0}};
	feed_now = idle;
	struct mval r = value(s, "retiring", NULL, METRIC_SCOPE_TASK);
	assert_int_equal(r.v.state, VAL_EMPTY);
	assert_string_equal(r.why, "division by zero");
	/* The same numbers from perf's own file, loaded as --metrics would. */
	struct metric_set *j = metric_set_new();
	int n = metric_set_load_json(
		j, testutil_path("fixtures/metrics/json/amdzen4-pipeline.json"), err, sizeof(err));
	assert_int_equal(n, 14);
	check_zen(j, 6);
	metric_set_free(j);
	metric_set_free(s);
}

static void test_zen5(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/zen5", MCPU_AMD_ZEN5);
	check_zen(s, 8);
	/* Levels 1 and 2 as perf's own amdzen5/pipeline.json computes them. */
	static const struct feed f[] = {
		{"ls_not_halted_cyc", 1000},
		{"de_no_dispatch_per_slot.no_ops_from_frontend", 1600},
		{"de_no_dispatch_per_slot.backend_stalls", 2400},
		{"de_no_dispatch_per_slot.smt_contention", 800},
		{"ex_ret_ops", 2000},
		{"de_src_op_disp.all", 3200},
		{"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/", 120},
		{"ex_ret_brn_misp", 30},
		{"bp_redirects.resync", 20},
		{"ex_no_retire.load_not_complete", 600},
		{"ex_no_retire.not_complete", 1000},
		{"ex_ret_ucode_ops", 400},
		{NULL, 0},
	};
	same_as_file(s, "fixtures/metrics/json/amdzen5-pipeline.json", 14, f);
	metric_set_free(s);
}

static const struct feed arm_feed[] = {
	{"cpu_cycles", 1000},	 {"stall_slot_frontend", 1500}, {"stall_slot_backend", 1000},
	{"stall_slot", 2500},	 {"op_retired", 1800},		{"op_spec", 2000},
	{"stall_frontend", 300}, {"stall_backend", 200},	{NULL, 0},
};

static void check_n2(const struct metric_set *s)
{
	/* neoverse-n2-v2/metrics.json with #slots 5: stall slots less one a cycle. */
	double total = 5 * 1000.0, stall = 2500.0 - 1000, ok = 1800.0 / 2000;
	feed_now = arm_feed;
	expect(s, "frontend_bound", NULL, (1500.0 - 1000) / total);
	expect(s, "backend_bound", NULL, 1000.0 / total);
	expect(s, "retiring", NULL, ok * (1 - stall / total));
	expect(s, "bad_speculation", NULL, (1 - ok) * (1 - stall / total));
}

static void test_neoverse_n2(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/n2", MCPU_ARM_NEOVERSE_N2);
	assert_string_equal(cpu_now.pmu, "armv8_pmuv3_0");
	assert_true(cpu_now.slots == 5);
	assert_string_equal(cpu_now.cpuid, "0xd49");
	check_n2(s);
	/* With 5 slots the branch on #slots - 5 is decided: only its events are opened. */
	char spec[256];
	metric_set_group_spec(s, (unsigned)find(s, "frontend_bound", NULL), &env, spec,
			      sizeof(spec));
	assert_string_equal(spec, "{stall_slot_frontend,cpu_cycles}:W");
	/* perf's files: sbsa.json, then N2's ArchStdEvent entries refining three of them. */
	struct metric_set *j = metric_set_new();
	char err[200];
	assert_int_equal(metric_set_load_json(j, testutil_path("fixtures/metrics/json/sbsa.json"),
					      err, sizeof(err)),
			 4);
	assert_int_equal(metric_set_load_json(
				 j,
				 testutil_path("fixtures/metrics/json/neoverse-n2-v2-metrics.json"),
				 err, sizeof(err)),
			 10);
	assert_int_equal(metric_set_count(j), 4 + 7);
	check_n2(j);
	unsigned idx[8];
	assert_int_equal(metric_set_select(j, "TopdownL1", idx, 8, err, sizeof(err)), 4);
	metric_set_free(j);
	/* Another STALL_SLOT core (8 slots): sbsa.json's generic formula. */
	cpu_now.kind = MCPU_ARM_SLOTS;
	cpu_now.slots = 8;
	metric_set_free(s);
	s = metric_set_new();
	assert_int_equal(metric_builtin_load(s, &cpu_now), 0);
	double total = 8 * 1000.0, ok = 1800.0 / 2000;
	expect(s, "frontend_bound", NULL, 1500.0 / total);
	expect(s, "backend_bound", NULL, 1000.0 / total);
	expect(s, "retiring", NULL, ok * (1 - 2500.0 / total));
	expect(s, "bad_speculation", NULL, (1 - ok) * (1 - 2500.0 / total));
	metric_set_free(s);
}

static void test_cortex_a57(void **state)
{
	(void)state;
	struct metric_set *s = setup("fixtures/metrics/a57", MCPU_ARM_GENERIC);
	assert_string_equal(cpu_now.pmu, "armv8_cortex_a57");
	assert_true(cpu_now.slots == 0);
	feed_now = arm_feed;
	expect(s, "frontend_stalled_cycles", NULL, 300.0 / 1000);
	expect(s, "backend_stalled_cycles", NULL, 200.0 / 1000);
	/* No slots: no top-down, said once, not shown as zeros. */
	unsigned idx[8];
	char err[128];
	assert_int_equal(metric_set_select(s, "TopdownL1", idx, 8, err, sizeof(err)), -ENOENT);
	struct mval r;
	struct metric_def d = {.name = "fe", .expr = "stall_slot_frontend / (#slots * cpu_cycles)"};
	assert_int_equal(metric_set_add(s, &d, err, sizeof(err)), 0);
	r = value(s, "fe", NULL, METRIC_SCOPE_TASK);
	assert_int_equal(r.v.state, VAL_NA);
	assert_string_equal(r.why, "unknown literal"); /* no caps/slots on this PMU */
	assert_string_equal(r.what, "slots");
	metric_set_free(s);
}

static void test_unknown_cpu(void **state)
{
	(void)state;
	/* A tree with nothing in it: the common metrics only. */
	struct metric_cpu cpu;
	assert_int_equal(metric_cpu_detect("/nonexistent", "/nonexistent", &cpu), 0);
	assert_int_equal(cpu.kind, MCPU_UNKNOWN);
	struct metric_set *s = metric_set_new();
	assert_int_equal(metric_builtin_load(s, &cpu), 0);
	assert_int_equal(metric_set_count(s), 4);
	double v;
	assert_int_equal(metric_cpu_literal(&cpu, "slots", &v), -ENOENT);
	assert_int_equal(metric_cpu_literal(&cpu, "SMT_ON", &v), 0);
	metric_set_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sapphire_rapids),
		cmocka_unit_test(test_alder_lake_hybrid),
		cmocka_unit_test(test_skylake_per_core),
		cmocka_unit_test(test_zen4),
		cmocka_unit_test(test_zen5),
		cmocka_unit_test(test_neoverse_n2),
		cmocka_unit_test(test_cortex_a57),
		cmocka_unit_test(test_unknown_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
