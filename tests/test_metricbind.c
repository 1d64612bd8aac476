/* Metrics per model row, without the hardware: the fixture CPUs of tests/fixtures/metrics,
 * a model built by hand with the groups the metrics ask for and counter values fed in,
 * and each metric of the Top-down pane compared with the value computed here from the
 * vendor's formula (docs/TOPDOWN.md). */
#include "metrichand.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "metricpane.h"
#include "hybrid.h"
#include "pmu.h"
#include "promacc.h"
#include "promtext.h"

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

static void test_sapphire_rapids_rows(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/spr", NULL);
	/* Without -M: TopdownL1, the Top-down pane's four. */
	assert_int_equal(metric_bind_count(b), 4);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 4);
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, sw_feed, "");
	hand_group(&h, spr_feed, ":W");
	double sum = 400000.0 + 100000 + 250000 + 250000;
	const struct mrow *rows[] = {&h.proc, &h.cpu};
	for (unsigned i = 0; i < 2; i++) {
		hand_expect(&h, rows[i], "tma_frontend_bound",
			    100 * (250000 / sum - 20000.0 / 1e6));
		hand_expect(&h, rows[i], "tma_backend_bound", 100 * (250000 / sum));
		hand_expect(&h, rows[i], "tma_retiring", 100 * (400000 / sum));
		hand_expect(&h, rows[i], "tma_bad_speculation",
			    100 * (100000 / sum + 20000.0 / 1e6));
	}
	assert_null(metric_bind_topdown_reason(b, &h.m));
	/* The pane shows the same numbers, sorted by its first share. */
	struct pane p[8];
	unsigned np = metric_bind_panes(&h.m, p, 8);
	int td = -1;
	for (unsigned i = 0; i < np; i++)
		if (strcmp(p[i].name, "Top-down") == 0)
			td = (int)i;
	assert_true(td >= 0);
	unsigned nm = 0;
	for (unsigned i = 0; i < p[td].ncols; i++) {
		const struct column *c = &p[td].cols[i];
		if (c->kind != COL_METRIC)
			continue;
		nm++;
		struct val v = column_value(c, &h.m, &h.proc);
		struct val w = metric_bind_value(b, &h.m, &h.proc, (unsigned)c->a, NULL);
		assert_true(v.v == w.v && v.state == VAL_EXACT);
	}
	assert_int_equal(nm, 4);
	assert_int_equal(p[td].cols[p[td].sort_default].kind, COL_METRIC);
	char cell[32];
	int ret = pane_find_column(&p[td], "tma_retiring");
	assert_true(ret >= 0);
	column_format(&p[td].cols[ret], &h.m, &h.proc, cell, sizeof(cell));
	assert_string_equal(cell, "40.0");
	assert_false(pane_unsupported(&h.m, &p[td]));
	/* A machine where none of them can count: the pane goes, its reason in one line. */
	for (unsigned e = h.gr[1].first; e < h.m.nevents; e++)
		h.ev[e].status = WHY_UNSUPPORTED;
	assert_true(pane_unsupported(&h.m, &p[td]));
	const char *why = metric_bind_topdown_reason(b, &h.m);
	assert_non_null(why);
	assert_non_null(strstr(why, "cannot be counted here"));
	assert_null(strchr(why, '\n'));
	np = metric_bind_panes(&h.m, p, 8);
	for (unsigned i = 0; i < np; i++)
		assert_string_not_equal(p[i].name, "Top-down");
	metric_bind_free(b);
}

/* Scaled inputs make the metric scaled, a group not counted n/c, and an idle thread a
 * gap that says why, never 0%. */
static void test_states(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/spr", "tma_retiring");
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, spr_feed, ":W");
	const char *why;
	h.v[3].state = VAL_SCALED;
	h.v[3].run_pm = 500;
	struct val v = metric_bind_value(b, &h.m, &h.proc, 0, &why);
	assert_int_equal(v.state, VAL_SCALED);
	assert_true(fabs(v.v - 40) < 1e-9);
	for (unsigned e = 0; e < h.m.nevents; e++)
		h.v[e] = val_missing(VAL_NC, WHY_NOT_RUN);
	v = metric_bind_value(b, &h.m, &h.proc, 0, &why);
	assert_int_equal(v.state, VAL_NC);
	for (unsigned e = 0; e < h.m.nevents; e++)
		h.v[e] = (struct val){.v = 0, .state = VAL_EXACT, .run_pm = 1000};
	v = metric_bind_value(b, &h.m, &h.proc, 0, &why);
	assert_int_equal(v.state, VAL_EMPTY);
	assert_int_equal(v.why, WHY_DIVZERO);
	assert_string_equal(why, "division by zero");
	assert_string_equal(val_why_str((enum val_why)v.why), "division by zero");
	/* Without its group in the model: n/a, not a number. */
	h.m.ngroups = 0;
	h.m.nevents = 0;
	v = metric_bind_value(b, &h.m, &h.proc, 0, &why);
	assert_int_equal(v.state, VAL_NA);
	metric_bind_free(b);
}

/* Skylake with SMT on: the 4-slot events count for the whole core. */
static void test_skylake_per_core(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/skl", NULL);
	static const struct feed f[] = {
		{"topdown-total-slots", 4000},	   {"topdown-slots-issued", 2500},
		{"topdown-slots-retired", 2000},   {"topdown-fetch-bubbles", 800},
		{"topdown-recovery-bubbles", 100}, {NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, f, ":W");
	static const char *const names[] = {"tma_frontend_bound", "tma_bad_speculation",
					    "tma_retiring", "tma_backend_bound"};
	struct pane p[8];
	unsigned np = metric_bind_panes(&h.m, p, 8);
	const struct pane *td = NULL;
	for (unsigned i = 0; i < np; i++)
		if (strcmp(p[i].name, "Top-down") == 0)
			td = &p[i];
	assert_non_null(td);
	for (unsigned i = 0; i < 4; i++) {
		const char *why;
		struct val v =
			metric_bind_value(b, &h.m, &h.proc, (unsigned)hand_find(b, names[i]), &why);
		assert_int_equal(v.state, VAL_NA);
		assert_int_equal(v.why, WHY_PER_CORE);
		assert_string_equal(why, "per-core metric");
		char cell[32];
		column_format(&td->cols[pane_find_column(td, names[i])], &h.m, &h.proc, cell,
			      sizeof(cell));
		assert_string_equal(cell, "n/a");
	}
	/* topdown.txt's formulas, on the CPU row. */
	hand_expect(&h, &h.cpu, "tma_frontend_bound", 100 * 800.0 / 4000);
	hand_expect(&h, &h.cpu, "tma_bad_speculation", 100 * (2500.0 - 2000 + 100) / 4000);
	hand_expect(&h, &h.cpu, "tma_retiring", 100 * 2000.0 / 4000);
	hand_expect(&h, &h.cpu, "tma_backend_bound", 100 * (1 - (800.0 + 600 + 2000) / 4000));
	metric_bind_free(b);
}

/* Zen 4: five shares, SMT contention among them, adding up to all the slots. */
static void test_zen4_rows(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/zen4", NULL);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 5);
	static const struct feed f[] = {
		{"ls_not_halted_cyc", 1000},
		{"de_no_dispatch_per_slot.no_ops_from_frontend", 1200},
		{"de_no_dispatch_per_slot.backend_stalls", 1800},
		{"de_no_dispatch_per_slot.smt_contention", 600},
		{"ex_ret_ops", 1500},
		{"de_src_op_disp.all", 2400},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, f, ":W");
	double slots = 6 * 1000;
	hand_expect(&h, &h.proc, "frontend_bound", 100 * 1200 / slots);
	hand_expect(&h, &h.proc, "backend_bound", 100 * 1800 / slots);
	hand_expect(&h, &h.proc, "smt_contention", 100 * 600 / slots);
	hand_expect(&h, &h.proc, "retiring", 100 * 1500 / slots);
	hand_expect(&h, &h.proc, "bad_speculation", 100 * (2400.0 - 1500) / slots);
	assert_string_equal(metric_bind_title(b, (unsigned)hand_find(b, "smt_contention")), "SMT%");
	double sum = 0;
	for (unsigned k = 0; k < metric_bind_count(b); k++)
		sum += metric_bind_value(b, &h.m, &h.proc, k, NULL).v;
	assert_true(fabs(sum - 100) < 1e-9);
	metric_bind_free(b);
}

/* Alder Lake: cpu_core's and cpu_atom's shares, each from its own PMU's groups, told
 * apart by name. */
static void test_alder_lake_rows(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/adl", NULL);
	assert_int_equal(metric_bind_count_role(b, MROLE_TOPDOWN1), 8);
	static const struct feed core[] = {
		{"cpu_core/slots/", 600000},
		{"cpu_core/topdown-fe-bound/", 90000},
		{"cpu_core/topdown-bad-spec/", 60000},
		{"cpu_core/topdown-retiring/", 300000},
		{"cpu_core/topdown-be-bound/", 150000},
		{"cpu_core/INT_MISC.UOP_DROPPING/", 6000},
		{NULL, 0},
	};
	static const struct feed atom[] = {
		{"cpu_atom/TOPDOWN_RETIRING.ALL/", 1000},
		{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1500},
		{"cpu_atom/TOPDOWN_BE_BOUND.ALL/", 2000},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.ALL/", 450},
		{"cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, core, ":W");
	hand_group(&h, atom, ":W");
	double sum = 300000.0 + 60000 + 90000 + 150000;
	hand_expect(&h, &h.proc, "tma_frontend_bound", 100 * (90000 / sum - 6000.0 / 600000));
	hand_expect(&h, &h.proc, "tma_retiring", 100 * 300000 / sum);
	hand_expect(&h, &h.proc, "tma_frontend_bound.cpu_atom", 100 * 1500.0 / 5000);
	hand_expect(&h, &h.proc, "tma_backend_bound.cpu_atom", 100 * 2000.0 / 5000);
	/* adl-metrics.json: the slots the other three leave, not the event's 450 */
	hand_expect(&h, &h.proc, "tma_bad_speculation.cpu_atom",
		    100 * (5000 - (1500.0 + 2000 + 1000)) / 5000);
	hand_expect(&h, &h.proc, "tma_retiring.cpu_atom", 100 * 1000.0 / 5000);
	/* The IPC pane's cycles, once per core PMU and summed (src/spec/hybrid.c): each
	 * instance runs only while the task is on its kind of core. */
	static const struct feed cyc_core[] = {{"cycles[cpu_core]", 3000}, {NULL, 0}};
	static const struct feed cyc_atom[] = {{"cycles[cpu_atom]", 1000}, {NULL, 0}};
	hand_group(&h, cyc_core, "");
	hand_group(&h, cyc_atom, "");
	unsigned ic = h.m.nevents - 2, ia = h.m.nevents - 1, l = h.m.nevents++;
	h.ev[l] = (struct mevent){.name = "cycles",
				  .key = "cycles",
				  .group = h.ev[ic].group,
				  .role = ROLE_CYCLES,
				  .hardware = true,
				  .logical = true,
				  .nsum = 2,
				  .sum = {ic, ia}};
	h.g[h.ev[ic].group] = (struct val_delta){.ena = 400, .run = 300};
	h.g[h.ev[ia].group] = (struct val_delta){.ena = 400, .run = 100};
	struct pane p[8];
	unsigned np = metric_bind_panes(&h.m, p, 8);
	assert_true(np >= 1);
	assert_string_equal(p[0].name, "Top-down");
	int c = pane_find_column(&p[0], "CORE%"), a = pane_find_column(&p[0], "ATOM%");
	assert_true(c >= 0 && a >= 0);
	/* Time on each core type, not multiplexing: 300 and 100 of 400 ns running. */
	struct val vc = column_value(&p[0].cols[c], &h.m, &h.proc);
	struct val va = column_value(&p[0].cols[a], &h.m, &h.proc);
	assert_int_equal(vc.state, VAL_EXACT);
	assert_true(fabs(vc.v - 75) < 1e-9 && fabs(va.v - 25) < 1e-9);
	/* cpu_core's shares and cpu_atom's have columns of their own. */
	assert_true(pane_find_column(&p[0], "tma_retiring") >= 0);
	assert_true(pane_find_column(&p[0], "tma_retiring.cpu_atom") >= 0);
	/* A thread that did not run: no share, never 0%. */
	h.g[h.ev[ic].group].run = h.g[h.ev[ia].group].run = 0;
	assert_int_equal(column_value(&p[0].cols[c], &h.m, &h.proc).state, VAL_EMPTY);
	metric_bind_free(b);
}

/* A task on Alder Lake that spent 57% of its time on small cores: its cpu_core group ran
 * 43% of the time it was enabled. That is residency, not multiplexing (perf's
 * intel-hybrid.txt): scaled by the task's time on big cores (hybrid_residency, as the
 * engine's task rows are), the shares read exact. */
static void test_alder_lake_residency(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/adl", NULL);
	static const struct feed core[] = {
		{"cpu_core/slots/", 600000},
		{"cpu_core/topdown-fe-bound/", 90000},
		{"cpu_core/topdown-bad-spec/", 60000},
		{"cpu_core/topdown-retiring/", 300000},
		{"cpu_core/topdown-be-bound/", 150000},
		{"cpu_core/INT_MISC.UOP_DROPPING/", 6000},
		{NULL, 0},
	};
	static const struct feed atom[] = {
		{"cpu_atom/TOPDOWN_RETIRING.ALL/", 1000},
		{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1500},
		{"cpu_atom/TOPDOWN_BE_BOUND.ALL/", 2000},
		{"cpu_atom/TOPDOWN_BAD_SPECULATION.ALL/", 450},
		{"cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000},
		{NULL, 0},
	};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, core, ":W");
	hand_group(&h, atom, ":W");
	const int kind[] = {0, 1}; /* cpu_core, cpu_atom */
	const uint64_t run[] = {430000, 570000};
	struct val_delta d[MAXEV];
	uint8_t why[MAXEV];
	uint64_t ena[8];
	memset(why, WHY_NONE, sizeof(why));
	for (unsigned e = 0; e < h.m.nevents; e++)
		d[e] = (struct val_delta){
			.ena = 1000000, .run = run[h.ev[e].group], .val = (uint64_t)h.v[e].v};
	hybrid_residency(h.gr, kind, h.m.ngroups, d, why, ena);
	assert_true(ena[0] == 430000 && ena[1] == 570000);
	for (unsigned e = 0; e < h.m.nevents; e++)
		h.v[e] = val_scale((struct val_delta){ena[h.ev[e].group], d[e].run, d[e].val});
	for (unsigned g = 0; g < h.m.ngroups; g++)
		h.g[g] = (struct val_delta){.ena = ena[g], .run = run[g]};
	double sum = 300000.0 + 60000 + 90000 + 150000;
	hand_expect(&h, &h.proc, "tma_frontend_bound", 100 * (90000 / sum - 6000.0 / 600000));
	hand_expect(&h, &h.proc, "tma_backend_bound", 100 * 150000 / sum);
	hand_expect(&h, &h.proc, "tma_bad_speculation", 100 * (60000 / sum + 6000.0 / 600000));
	hand_expect(&h, &h.proc, "tma_retiring", 100 * 300000 / sum);
	hand_expect(&h, &h.proc, "tma_retiring.cpu_atom", 100 * 1000.0 / 5000);
	hand_expect(&h, &h.proc, "tma_backend_bound.cpu_atom", 100 * 2000.0 / 5000);

	/* Scaled by all of the task's time, as a multiplexed group is: the same shares, but
	 * marked scaled at 43%, which is what the engine did before it knew residency. */
	for (unsigned e = 0; e < h.m.nevents; e++)
		h.v[e] = val_scale(d[e]);
	struct val v =
		metric_bind_value(b, &h.m, &h.proc, (unsigned)hand_find(b, "tma_retiring"), NULL);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 430);
	assert_true(fabs(v.v - 100 * 300000 / sum) < 1e-9);
	metric_bind_free(b);
}

/* The groups the set gets: a metric whose events a group already holds reads that
 * group; the others get perf's weak group, each once. */
static void test_spec(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/zen4", "ipc,ghz,cache_mpki");
	char spec[512];
	assert_int_equal(metric_bind_spec(b, NULL, NULL, spec, sizeof(spec)), 0);
	/* In the set's order, as -M chooses them. */
	assert_string_equal(spec, "{instructions,cycles}:W,{cache-misses,instructions}:W,"
				  "{cycles,task-clock}:W");
	assert_int_equal(metric_bind_spec(b,
					  "{task-clock},{cycles,instructions},"
					  "{cache-references,cache-misses,instructions}",
					  NULL, spec, sizeof(spec)),
			 0);
	assert_string_equal(spec, "{cycles,task-clock}:W");
	/* ipc reads the IPC pane's group, the same counts as the IPC column. */
	static const struct feed ipc[] = {{"cycles", 2000}, {"instructions", 3000}, {NULL, 0}};
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, sw_feed, "");
	hand_group(&h, ipc, "");
	hand_expect(&h, &h.proc, "ipc", 1.5);
	/* An event this machine lacks: the metric is n/a, and the reason names the event. */
	struct metric_bind *z = hand_load("fixtures/metrics/zen4", NULL);
	assert_int_equal(metric_bind_spec(z, NULL, NULL, spec, sizeof(spec)), 0);
	assert_string_equal(spec, "");
	hand_init(&h, z);
	hand_group(&h, sw_feed, "");
	assert_int_equal(metric_bind_value(z, &h.m, &h.proc, 0, NULL).state, VAL_NA);
	const char *why = metric_bind_topdown_reason(z, &h.m);
	assert_non_null(why);
	assert_non_null(strstr(why, "AMD Zen 4"));
	assert_non_null(strstr(why, "not on this machine"));
	metric_bind_free(z);
	metric_bind_free(b);
	/* A chosen metric's title is its name whole, not cut at 10 ("BRANCH_MPK"). */
	b = hand_load("fixtures/metrics/zen4", "branch_mpki");
	assert_string_equal(metric_bind_title(b, (unsigned)hand_find(b, "branch_mpki")),
			    "BRANCH_MPKI");
	metric_bind_free(b);
}

static void test_bad_list(void **state)
{
	(void)state;
	struct metric_bind *b = NULL;
	char err[300];
	char sys[256], info[256];
	snprintf(sys, sizeof(sys), "%s/sys", testutil_path("fixtures/metrics/a57"));
	snprintf(info, sizeof(info), "%s/cpuinfo", testutil_path("fixtures/metrics/a57"));
	assert_int_equal(metric_bind_load(sys, info, NULL, "TopdownL1", &b, err, sizeof(err)),
			 -ENOENT);
	assert_null(b);
	assert_non_null(strstr(err, "TopdownL1"));
	/* The line says why, and what there is instead: no "no metric called TopdownL1"
	 * beside a list that names it. */
	assert_non_null(strstr(err, "has no top-down metrics"));
	assert_non_null(strstr(err, "here: Basic, Stalls, ipc, cache_mpki"));
	assert_int_equal(metric_bind_load(sys, info, NULL, "ipc,nosuch", &b, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "no metric or metric group called 'nosuch'"));
	assert_non_null(strstr(err, "branch_mpki"));
	assert_null(strstr(err, "has no top-down"));
	/* Cortex-A57 has none: no -M is no Top-down pane, and the reason says so. */
	assert_int_equal(metric_bind_load(sys, info, NULL, NULL, &b, err, sizeof(err)), 0);
	assert_int_equal(metric_bind_count(b), 0);
	struct model m = {.metrics = b};
	const char *why = metric_bind_topdown_reason(b, &m);
	assert_non_null(why);
	assert_non_null(strstr(why, "has no top-down"));
	assert_non_null(strstr(why, "-M chooses metrics"));
	metric_bind_free(b);
	/* With -M the user chose: the reason says why, no hint to use -M (issue 37). */
	assert_int_equal(metric_bind_load(sys, info, NULL, "ipc", &b, err, sizeof(err)), 0);
	m.metrics = b;
	why = metric_bind_topdown_reason(b, &m);
	assert_non_null(why);
	assert_non_null(strstr(why, "no top-down"));
	assert_null(strstr(why, "-M"));
	metric_bind_free(b);
}

/* The exporter: a gauge family per metric, with its own HELP, its value a ratio (the
 * screen's percent / 100) per target; a target whose value is a gap has no sample. */
static void test_exporter(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/spr", NULL);
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, sw_feed, "");
	hand_group(&h, spr_feed, ":W");
	h.ev[0].role = ROLE_TASK_CLOCK;
	struct mrow rows[2] = {h.proc, h.proc};
	rows[1].pid = rows[1].tid = 43;
	rows[1].comm = "idle";
	struct val idle[MAXEV];
	memcpy(idle, h.v, sizeof(idle));
	for (unsigned e = h.gr[1].first; e < h.m.nevents; e++)
		idle[e].v = 0;
	rows[1].v = idle;
	h.m.rows = rows;
	h.m.nrows = 2;
	struct promacc_opts o = {.top = 10};
	struct promacc *a = promacc_new(&o);
	assert_non_null(a);
	assert_int_equal(promacc_update(a, &h.m, false), 0);
	assert_int_equal(promacc_nmetrics(a), 4);
	struct promtext_out out = {0};
	struct promtext_info in = {.version = "test"};
	assert_int_equal(promtext_render(a, &in, &out), 0);
	char *text = strndup(out.text.p, out.text.len);
	assert_non_null(text);
	assert_non_null(strstr(text,
			       "# HELP pmutop_process_metric_tma_retiring_ratio Slots that "
			       "retired, over the last interval (metric tma_retiring, a ratio: "
			       "1 is 100%).\n# TYPE pmutop_process_metric_tma_retiring_ratio "
			       "gauge\n"));
	const char *sample = "pmutop_process_metric_tma_retiring_ratio{pid=\"42\",comm=\"work\"} ";
	const char *at = strstr(text, sample);
	assert_non_null(at);
	assert_true(strtod(at + strlen(sample), NULL) == 400000.0 / 1e6);
	/* The idle process divided by zero: no sample, never 0. */
	assert_null(strstr(text, "comm=\"idle\"} "));
	assert_non_null(strstr(text, "pmutop_process_metric_tma_frontend_bound_ratio{pid=\"42\""));
	free(text);
	promtext_out_free(&out);
	promacc_free(a);
	metric_bind_free(b);
}

/* What a recording keeps: the same values from the restored binding, a description that
 * holds the separators included; and a model whose events moved is bound again. */
static void test_save_restore(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/spr", NULL);
	char *text = metric_bind_save(b);
	assert_non_null(text);
	char err[200];
	struct metric_bind *r = metric_bind_restore(text, err, sizeof(err));
	if (!r)
		fail_msg("restore: %s", err);
	assert_int_equal(metric_bind_count(r), 4);
	assert_true(metric_bind_cpu(r)->smt_on);
	struct hand h;
	hand_init(&h, b);
	hand_group(&h, sw_feed, "");
	hand_group(&h, spr_feed, ":W");
	for (unsigned k = 0; k < 4; k++) {
		int j = hand_find(r, metric_bind_name(b, k));
		struct val v = metric_bind_value(b, &h.m, &h.proc, k, NULL);
		struct val w = metric_bind_value(r, &h.m, &h.proc, (unsigned)j, NULL);
		assert_true(v.v == w.v && v.state == w.state && v.state == VAL_EXACT);
	}
	/* The same memory now holds another set: the groups swapped. */
	struct hand g;
	hand_init(&g, b);
	hand_group(&g, spr_feed, ":W");
	hand_group(&g, sw_feed, "");
	memcpy(h.ev, g.ev, sizeof(h.ev));
	memcpy(h.names, g.names, sizeof(h.names));
	memcpy(h.gr, g.gr, sizeof(h.gr));
	memcpy(h.v, g.v, sizeof(h.v));
	for (unsigned e = 0; e < h.m.nevents; e++)
		h.ev[e].name = h.ev[e].key = h.names[e];
	hand_expect(&h, &h.proc, "tma_retiring", 100 * 400000.0 / 1e6);
	free(text);
	metric_bind_free(r);
	/* A level-2 metric (a --metrics file's TopdownL2) shows in the Metrics pane. */
	struct metric_set *l2 = metric_set_new();
	struct metric_def d2 = {.name = "tma_heavy_operations",
				.groups = "TmaL2;TopdownL2",
				.expr = "topdown\\-heavy\\-ops / slots",
				.unit = "100%"};
	assert_int_equal(metric_set_add(l2, &d2, err, sizeof(err)), 0);
	unsigned i0 = 0;
	struct metric_bind *b2 = metric_bind_new(l2, metric_bind_cpu(b), &i0, 1);
	assert_int_equal(metric_bind_role(b2, 0), MROLE_TOPDOWN2);
	struct hand h2;
	hand_init(&h2, b2);
	static const struct feed heavy[] = {{"slots", 1000}, {"topdown-heavy-ops", 150}, {NULL, 0}};
	hand_group(&h2, heavy, ":W");
	struct pane p2[8];
	assert_int_equal(metric_bind_panes(&h2.m, p2, 8), 1);
	assert_string_equal(p2[0].name, "Metrics");
	int hc = pane_find_column(&p2[0], "tma_heavy_operations");
	assert_true(hc >= 0);
	assert_true(fabs(column_value(&p2[0].cols[hc], &h2.m, &h2.proc).v - 15) < 1e-9);
	metric_bind_free(b2);
	/* Separators inside a field are kept out of the saved form. */
	struct metric_set *set = metric_set_new();
	struct metric_def d = {.name = "odd", .expr = "cycles", .desc = "a\x1f b\x1e c"};
	assert_int_equal(metric_set_add(set, &d, err, sizeof(err)), 0);
	unsigned idx = 0;
	struct metric_bind *o = metric_bind_new(set, metric_bind_cpu(b), &idx, 1);
	text = metric_bind_save(o);
	r = metric_bind_restore(text, err, sizeof(err));
	if (!r)
		fail_msg("restore: %s", err);
	assert_string_equal(metric_bind_def(r, 0)->desc, "a  b  c");
	free(text);
	metric_bind_free(r);
	metric_bind_free(o);
	metric_bind_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sapphire_rapids_rows),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_skylake_per_core),
		cmocka_unit_test(test_zen4_rows),
		cmocka_unit_test(test_alder_lake_rows),
		cmocka_unit_test(test_alder_lake_residency),
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_bad_list),
		cmocka_unit_test(test_exporter),
		cmocka_unit_test(test_save_restore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
