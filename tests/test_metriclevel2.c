/* Top-down level 2 without the hardware: for each fixture CPU that has it (Sapphire
 * Rapids, Alder Lake's cpu_core and cpu_atom, Zen 4, Zen 5), a model built by hand with
 * counter values fed in, and each level-2 metric compared with the value computed here
 * from the vendor's formula (perf's pmu-events JSON files, docs/TOPDOWN.md). */
#include "metrichand.h"

#include <stdio.h>
#include <string.h>

#include "pmu.h"

static const struct feed spr_feed[] = {
	{"slots", 1000000},
	{"topdown-fe-bound", 250000},
	{"topdown-bad-spec", 100000},
	{"topdown-retiring", 400000},
	{"topdown-be-bound", 250000},
	{"INT_MISC.UOP_DROPPING", 20000},
	{NULL, 0},
};
static const struct feed sw_feed[] = {{"task-clock", 900000}, {NULL, 0}};

/* Intel's level-1 shares and their level-2 children (TMA's tree, as perf's files group
 * them: tma_<parent>_group). */
static const char *const intel_pairs[][4] = {
	{"tma_retiring", "tma_heavy_operations", "tma_light_operations", NULL},
	{"tma_bad_speculation", "tma_branch_mispredicts", "tma_machine_clears", NULL},
	{"tma_frontend_bound", "tma_fetch_latency", "tma_fetch_bandwidth", NULL},
	{"tma_backend_bound", "tma_memory_bound", "tma_core_bound", NULL},
};

/* Each level-1 share is the sum of its children's
 * values on the process row: pairs of parent and children by name. */
static void sums(struct hand *h, const char *const (*pairs)[4], unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		double v[4] = {0};
		for (unsigned j = 0; j < 4 && pairs[i][j]; j++)
			v[j] = metric_bind_value(h->m.metrics, &h->m, &h->proc,
						 (unsigned)hand_find(h->m.metrics, pairs[i][j]),
						 NULL)
				       .v;
		if (fabs(v[0] - v[1] - v[2] - v[3]) > 1e-9)
			fail_msg("%s %.12g: its children add up to %.12g", pairs[i][0], v[0],
				 v[1] + v[2] + v[3]);
	}
}

/* Sapphire Rapids level 2 (spr-metrics.json's TopdownL2): the PERF_METRICS level-2
 * fractions, and their siblings as what is left of their level-1 parents. */
static void test_sapphire_rapids_level2(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/spr", "TopdownL1,TopdownL2");
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 4);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN2), 8);
	const double slots = 1000000, fe = 250000, bad = 100000, ret = 400000, be = 250000,
		     drop = 20000, heavy = 150000, brmis = 70000, flat = 120000, mem = 100000;
	const struct feed f[] = {
		{"slots", slots},
		{"topdown-fe-bound", fe},
		{"topdown-bad-spec", bad},
		{"topdown-retiring", ret},
		{"topdown-be-bound", be},
		{"INT_MISC.UOP_DROPPING", drop},
		{"topdown-heavy-ops", heavy},
		{"topdown-br-mispredict", brmis},
		{"topdown-fetch-lat", flat},
		{"topdown-mem-bound", mem},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, sw_feed, "");
	hand_group(&h, f, ":W");
	const double sum = fe + bad + ret + be;
	const double t_fe = fe / sum - drop / slots, t_lat = flat / sum - drop / slots;
	/* Level 1's bad speculation: what the other three leave (the dropped uops too). */
	const double t_bad = 1 - (t_fe + be / sum + ret / sum);
	const struct mrow *rows[] = {&h.proc, &h.cpu};
	for (unsigned i = 0; i < 2; i++) {
		hand_expect(&h, rows[i], "tma_heavy_operations", 100 * heavy / sum);
		hand_expect(&h, rows[i], "tma_light_operations",
			    100 * fmax(0, ret / sum - heavy / sum));
		hand_expect(&h, rows[i], "tma_branch_mispredicts", 100 * brmis / sum);
		hand_expect(&h, rows[i], "tma_machine_clears", 100 * fmax(0, t_bad - brmis / sum));
		hand_expect(&h, rows[i], "tma_fetch_latency", 100 * t_lat);
		hand_expect(&h, rows[i], "tma_fetch_bandwidth", 100 * fmax(0, t_fe - t_lat));
		hand_expect(&h, rows[i], "tma_memory_bound", 100 * mem / sum);
		hand_expect(&h, rows[i], "tma_core_bound", 100 * fmax(0, be / sum - mem / sum));
	}
	/* Each level-1 share is the sum of its two children here (no max() cut in). */
	sums(&h, intel_pairs, 4);
	/* Children larger than their parent: the remainder is 0, never negative. */
	hand_set(&h, "topdown-heavy-ops", 500000); /* > topdown-retiring */
	hand_expect(&h, &h.proc, "tma_light_operations", 0);
	/* Without the level-2 events on this CPU (Ice Lake's PERF_METRICS has none): n/a. */
	hand_init(&h, b);
	hand_group(&h, spr_feed, ":W");
	assert_int_equal(hand_state(&h, &h.proc, "tma_memory_bound"), VAL_NA);
	metric_bind_free(b);
}

/* Fixture cpu's levels 1 and 2 read one group led by pre"slots"post, with each of
 * PERF_METRICS' events but the fetch latency's, pre"topdown-X"post, in it. */
static void one_group(const char *cpu, const char *pre, const char *post)
{
	struct metric_bind *b = hand_load(cpu, "TopdownL1,TopdownL2");
	char sys[256], spec[2048], lead[64];
	snprintf(sys, sizeof(sys), "%s/sys", testutil_path(cpu));
	struct pmu_set *p = pmu_set_new(sys, false);
	assert_non_null(p);
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
	unsigned groups = 0;
	for (const char *c = spec; *c; c++)
		groups += *c == '{';
	snprintf(lead, sizeof(lead), "{%sslots%s,", pre, post);
	if (groups != 1 || strncmp(spec, lead, strlen(lead)) != 0)
		fail_msg("%u groups: %s", groups, spec);
	static const char *const ev[] = {"fe-bound",  "bad-spec",      "retiring", "be-bound",
					 "heavy-ops", "br-mispredict", "mem-bound"};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		char name[64];
		snprintf(name, sizeof(name), "%stopdown-%s%s", pre, ev[i], post);
		if (!strstr(spec, name))
			fail_msg("no %s in %s", name, spec);
	}
	pmu_set_free(p);
	metric_bind_free(b);
}

static void test_spr_one_group(void **state)
{
	(void)state;
	one_group("fixtures/metrics/spr", "", "");
}

/* Zen 4's PipelineL2 (amdzen4/pipeline.json) over its level 1. */
static void test_zen4_level2(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/zen4", "PipelineL1,PipelineL2");
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 5);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN2), 8);
	const double cyc = 1000, fe = 1200, be = 1800, smt = 600, ret = 1500, disp = 2400,
		     fe6 = 150, brn = 30, resync = 10, ld = 700, nc = 1000, ucode = 300;
	const struct feed f[] = {
		{"ls_not_halted_cyc", cyc},
		{"de_no_dispatch_per_slot.no_ops_from_frontend", fe},
		{"de_no_dispatch_per_slot.backend_stalls", be},
		{"de_no_dispatch_per_slot.smt_contention", smt},
		{"ex_ret_ops", ret},
		{"de_src_op_disp.all", disp},
		{"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/", fe6},
		{"ex_ret_brn_misp", brn},
		{"resyncs_or_nc_redirects", resync},
		{"ex_no_retire.load_not_complete", ld},
		{"ex_no_retire.not_complete", nc},
		{"ex_ret_ucode_ops", ucode},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, f, ":W");
	const double slots = 6 * cyc, badspec = (disp - ret) / slots;
	hand_expect(&h, &h.proc, "frontend_bound_latency", 100 * 6 * fe6 / slots);
	hand_expect(&h, &h.proc, "frontend_bound_bandwidth", 100 * (fe - 6 * fe6) / slots);
	hand_expect(&h, &h.proc, "bad_speculation_mispredicts",
		    100 * badspec * brn / (brn + resync));
	hand_expect(&h, &h.proc, "bad_speculation_pipeline_restarts",
		    100 * badspec * resync / (brn + resync));
	hand_expect(&h, &h.proc, "backend_bound_memory", 100 * be / slots * ld / nc);
	hand_expect(&h, &h.proc, "backend_bound_cpu", 100 * be / slots * (1 - ld / nc));
	hand_expect(&h, &h.proc, "retiring_fastpath", 100 * ret / slots * (1 - ucode / ret));
	hand_expect(&h, &h.proc, "retiring_microcode", 100 * ret / slots * ucode / ret);
	hand_expect(&h, &h.cpu, "backend_bound_memory", 100 * be / slots * ld / nc);
	/* No load that did not complete: d_ratio over 0 is a gap, never 0%. */
	hand_set(&h, "ex_no_retire.not_complete", 0);
	assert_int_equal(hand_state(&h, &h.proc, "backend_bound_memory"), VAL_EMPTY);
	metric_bind_free(b);
}

/* Alder Lake's TopdownL2 (adl-metrics.json): cpu_core's is Sapphire Rapids' over its own
 * PERF_METRICS; cpu_atom's are Gracemont's TOPDOWN_* sub-events over 5 slots a cycle, its
 * memory bound the smaller of the backend share and the cycles the oldest load waited at
 * retirement plus the store-buffer share of the memory scheduler's stalls. */
static void test_alder_lake_level2(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/adl", "TopdownL1,TopdownL2");
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 8);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN2), 8 + 9);
	const double slots = 600000, fe = 90000, bad = 60000, ret = 300000, be = 150000,
		     drop = 6000, heavy = 120000, brmis = 40000, flat = 70000, mem = 100000;
	const struct feed core[] = {
		{"cpu_core/slots/", slots},
		{"cpu_core/topdown-fe-bound/", fe},
		{"cpu_core/topdown-bad-spec/", bad},
		{"cpu_core/topdown-retiring/", ret},
		{"cpu_core/topdown-be-bound/", be},
		{"cpu_core/INT_MISC.UOP_DROPPING/", drop},
		{"cpu_core/topdown-heavy-ops/", heavy},
		{"cpu_core/topdown-br-mispredict/", brmis},
		{"cpu_core/topdown-fetch-lat/", flat},
		{"cpu_core/topdown-mem-bound/", mem},
		{NULL, 0},
	};
	const double clks = 1000, a_ret = 1000, a_fe = 1500, a_be = 2000, a_bad = 500, a_flat = 900,
		     a_fbw = 600, a_misp = 300, a_clear = 200, a_ms = 150, a_sched = 800,
		     a_stbuf = 100, a_block = 400, a_ldhead = 300;
	const struct feed atom[] = {
		{"cpu_atom/CPU_CLK_UNHALTED.CORE/", clks},
		{"cpu_atom/TOPDOWN_RETIRING.ALL/", a_ret},
		{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", a_fe},
		{"cpu_atom/TOPDOWN_BE_BOUND.ALL/", a_be},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.ALL/", a_bad},
		{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_LATENCY/", a_flat},
		{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH/", a_fbw},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.MISPREDICT/", a_misp},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS/", a_clear},
		{"cpu_atom/UOPS_RETIRED.MS/", a_ms},
		{"cpu_atom/TOPDOWN_BE_BOUND.MEM_SCHEDULER/", a_sched},
		{"cpu_atom/MEM_SCHEDULER_BLOCK.ST_BUF/", a_stbuf},
		{"cpu_atom/MEM_SCHEDULER_BLOCK.ALL/", a_block},
		{"cpu_atom/LD_HEAD.ANY_AT_RET/", a_ldhead},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, core, ":W");
	hand_group(&h, atom, ":W");
	const double sum = fe + bad + ret + be;
	const double t_fe = fe / sum - drop / slots, t_lat = flat / sum - drop / slots;
	/* Level 1's bad speculation: what the other three leave (the dropped uops too). */
	const double t_bad = 1 - (t_fe + be / sum + ret / sum);
	const struct mrow *rows[] = {&h.proc, &h.cpu};
	for (unsigned i = 0; i < 2; i++) {
		hand_expect(&h, rows[i], "tma_heavy_operations", 100 * heavy / sum);
		hand_expect(&h, rows[i], "tma_light_operations", 100 * (ret - heavy) / sum);
		hand_expect(&h, rows[i], "tma_branch_mispredicts", 100 * brmis / sum);
		hand_expect(&h, rows[i], "tma_machine_clears", 100 * (t_bad - brmis / sum));
		hand_expect(&h, rows[i], "tma_fetch_latency", 100 * t_lat);
		hand_expect(&h, rows[i], "tma_fetch_bandwidth", 100 * (t_fe - t_lat));
		hand_expect(&h, rows[i], "tma_memory_bound", 100 * mem / sum);
		hand_expect(&h, rows[i], "tma_core_bound", 100 * (be - mem) / sum);
	}
	sums(&h, intel_pairs, 4);
	const double a_slots = 5 * clks;
	const double store = a_sched / a_slots * (a_stbuf / a_block);
	const double a_mem = fmin(a_be / a_slots, a_ldhead / clks + store);
	assert_true(a_mem < a_be / a_slots); /* the loads' branch of min() */
	for (unsigned i = 0; i < 2; i++) {
		hand_expect(&h, rows[i], "tma_fetch_latency.cpu_atom", 100 * a_flat / a_slots);
		hand_expect(&h, rows[i], "tma_fetch_bandwidth.cpu_atom", 100 * a_fbw / a_slots);
		hand_expect(&h, rows[i], "tma_branch_mispredicts.cpu_atom", 100 * a_misp / a_slots);
		hand_expect(&h, rows[i], "tma_machine_clears.cpu_atom", 100 * a_clear / a_slots);
		hand_expect(&h, rows[i], "tma_base.cpu_atom", 100 * (a_ret - a_ms) / a_slots);
		hand_expect(&h, rows[i], "tma_ms_uops.cpu_atom", 100 * a_ms / a_slots);
		hand_expect(&h, rows[i], "tma_memory_bound.cpu_atom", 100 * a_mem);
		hand_expect(&h, rows[i], "tma_core_bound.cpu_atom", 100 * (a_be / a_slots - a_mem));
		hand_expect(&h, rows[i], "tma_resource_bound.cpu_atom", 100 * a_be / a_slots);
	}
	/* Gracemont's sub-events add up to their level-1 parents here. */
	static const char *const atom_pairs[][4] = {
		{"tma_retiring.cpu_atom", "tma_base.cpu_atom", "tma_ms_uops.cpu_atom", NULL},
		{"tma_frontend_bound.cpu_atom", "tma_fetch_latency.cpu_atom",
		 "tma_fetch_bandwidth.cpu_atom", NULL},
		{"tma_bad_speculation.cpu_atom", "tma_branch_mispredicts.cpu_atom",
		 "tma_machine_clears.cpu_atom", NULL},
		{"tma_backend_bound.cpu_atom", "tma_memory_bound.cpu_atom",
		 "tma_core_bound.cpu_atom", NULL},
	};
	sums(&h, atom_pairs, 4);
	/* The oldest load waited longer than the backend share: min() keeps the share, and
	 * core bound is 0, never negative. */
	hand_set(&h, "cpu_atom/LD_HEAD.ANY_AT_RET/", 500);
	hand_expect(&h, &h.proc, "tma_memory_bound.cpu_atom", 100 * a_be / a_slots);
	hand_expect(&h, &h.proc, "tma_core_bound.cpu_atom", 0);
	/* A task that never ran on a small core: Gracemont's shares are gaps, never 0%. */
	for (unsigned e = h.gr[1].first; e < h.m.nevents; e++)
		h.v[e].v = 0;
	assert_int_equal(hand_state(&h, &h.proc, "tma_base.cpu_atom"), VAL_EMPTY);
	hand_expect(&h, &h.proc, "tma_memory_bound", 100 * mem / sum);
	metric_bind_free(b);
}

static void test_alder_lake_one_group(void **state)
{
	(void)state;
	one_group("fixtures/metrics/adl", "cpu_core/", "/");
}

/* Zen 5's PipelineL2 (amdzen5/pipeline.json): Zen 4's formulas over 8 slots a cycle, the
 * frontend's latency share from cycles with all 8 slots empty (cmask 8), restarts from
 * bp_redirects.resync. */
static void test_zen5_level2(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/zen5", "PipelineL1,PipelineL2");
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 5);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN2), 8);
	const double cyc = 1000, fe = 1600, be = 2400, smt = 800, ret = 2000, disp = 3200,
		     fe8 = 120, brn = 30, resync = 20, ld = 600, nc = 1000, ucode = 400;
	const struct feed f[] = {
		{"ls_not_halted_cyc", cyc},
		{"de_no_dispatch_per_slot.no_ops_from_frontend", fe},
		{"de_no_dispatch_per_slot.backend_stalls", be},
		{"de_no_dispatch_per_slot.smt_contention", smt},
		{"ex_ret_ops", ret},
		{"de_src_op_disp.all", disp},
		{"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/", fe8},
		{"ex_ret_brn_misp", brn},
		{"bp_redirects.resync", resync},
		{"ex_no_retire.load_not_complete", ld},
		{"ex_no_retire.not_complete", nc},
		{"ex_ret_ucode_ops", ucode},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, f, ":W");
	const double slots = 8 * cyc, badspec = (disp - ret) / slots;
	const struct mrow *rows[] = {&h.proc, &h.cpu};
	for (unsigned i = 0; i < 2; i++) {
		hand_expect(&h, rows[i], "frontend_bound_by_latency", 100 * 8 * fe8 / slots);
		hand_expect(&h, rows[i], "frontend_bound_by_bandwidth",
			    100 * (fe - 8 * fe8) / slots);
		hand_expect(&h, rows[i], "bad_speculation_from_mispredicts",
			    100 * badspec * brn / (brn + resync));
		hand_expect(&h, rows[i], "bad_speculation_from_pipeline_restarts",
			    100 * badspec * resync / (brn + resync));
		hand_expect(&h, rows[i], "backend_bound_by_memory", 100 * be / slots * ld / nc);
		hand_expect(&h, rows[i], "backend_bound_by_cpu", 100 * be / slots * (1 - ld / nc));
		hand_expect(&h, rows[i], "retiring_from_fastpath",
			    100 * ret / slots * (1 - ucode / ret));
		hand_expect(&h, rows[i], "retiring_from_microcode",
			    100 * ret / slots * ucode / ret);
	}
	static const char *const pairs[][4] = {
		{"frontend_bound", "frontend_bound_by_latency", "frontend_bound_by_bandwidth",
		 NULL},
		{"bad_speculation", "bad_speculation_from_mispredicts",
		 "bad_speculation_from_pipeline_restarts", NULL},
		{"backend_bound", "backend_bound_by_memory", "backend_bound_by_cpu", NULL},
		{"retiring", "retiring_from_fastpath", "retiring_from_microcode", NULL},
	};
	sums(&h, pairs, 4);
	assert_string_equal(
		metric_bind_title(b,
				  (unsigned)hand_find(b, "bad_speculation_from_pipeline_restarts")),
		"RSTRT%");
	/* No branch mispredicted and no resync: d_ratio over 0 is a gap, never 0%. */
	hand_set(&h, "ex_ret_brn_misp", 0);
	hand_set(&h, "bp_redirects.resync", 0);
	assert_int_equal(hand_state(&h, &h.proc, "bad_speculation_from_mispredicts"), VAL_EMPTY);
	metric_bind_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sapphire_rapids_level2),
		cmocka_unit_test(test_spr_one_group),
		cmocka_unit_test(test_zen4_level2),
		cmocka_unit_test(test_alder_lake_level2),
		cmocka_unit_test(test_alder_lake_one_group),
		cmocka_unit_test(test_zen5_level2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
