/* perf's JSON events that sysfs lacks (events/pmujson.c): which CPUs the table is for,
 * the encodings of its events through the fixture PMUs' format/ files compared with the
 * config computed here from perf's JSON (tests/fixtures/metrics/json/adl-events.json),
 * the refusal of a field format/ lacks, and Alder Lake's built-in metrics bound and
 * evaluated end to end on the fixture with the table, n/a without it. */
#define MAXEV 160
#define MAXGR 48
#include "metrichand.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evspec.h"
#include "pmu.h"
#include "pmujson.h"

#define ADL_CPUID "GenuineIntel-6-97-2"

/* The PMUs of fixture cpu's sysfs, said to be the CPU cpuid (NULL: none). */
static struct pmu_set *fixture_pmus(const char *cpu, const char *cpuid)
{
	char sys[256];
	snprintf(sys, sizeof(sys), "%s/sys", testutil_path(cpu));
	struct pmu_set *p = pmu_set_new(sys, false);
	assert_non_null(p);
	assert_null(pmu_set_cpuid(p)); /* a fixture's CPU is the test's to say */
	if (cpuid)
		assert_int_equal(pmu_set_set_cpuid(p, cpuid), 0);
	return p;
}

/* The CPUID of the fixture's cpuinfo, and which ids the table takes: perf's mapfile.csv
 * line for alderlake, "GenuineIntel-6-(97|9A|B7|BA|BF)", with or without a stepping. */
/* The CPUID of fixture cpu's cpuinfo, into id. */
static void fixture_cpuid(const char *cpu, char id[PMUJSON_CPUID_MAX])
{
	char path[256];
	snprintf(path, sizeof(path), "%s/cpuinfo", testutil_path(cpu));
	assert_int_equal(pmujson_cpuid_read(path, id, PMUJSON_CPUID_MAX), 0);
}

static void test_cpuid(void **state)
{
	(void)state;
	char id[PMUJSON_CPUID_MAX];
	fixture_cpuid("fixtures/metrics/adl", id);
	assert_string_equal(id, ADL_CPUID); /* model 151 is 0x97 */
	fixture_cpuid("fixtures/metrics/zen4", id);
	assert_string_equal(id, "AuthenticAMD-25-11-1");
	assert_int_equal(pmujson_cpuid_read("/nonexistent/cpuinfo", id, sizeof(id)), -ENOENT);
	assert_int_equal(
		pmujson_cpuid_read(testutil_path("fixtures/metrics/n2/cpuinfo"), id, sizeof(id)),
		-ENOENT); /* Arm: no x86 CPUID */

	static const char *const adl[] = {ADL_CPUID,
					  "GenuineIntel-6-9A-3",
					  "GenuineIntel-6-B7-1",
					  "GenuineIntel-6-BA-2",
					  "GenuineIntel-6-BF-5",
					  "GenuineIntel-6-97"};
	for (size_t i = 0; i < sizeof(adl) / sizeof(adl[0]); i++)
		if (!pmujson_model(adl[i]) || strcmp(pmujson_model(adl[i]), "alderlake"))
			fail_msg("%s is not alderlake", adl[i]);
	assert_string_equal(pmujson_model("GenuineIntel-6-8F-8"), "sapphirerapids");
	assert_string_equal(pmujson_model("GenuineIntel-6-CF-2"), "emeraldrapids");
	assert_string_equal(pmujson_model("GenuineIntel-6-AD-1"), "graniterapids");
	assert_string_equal(pmujson_model("GenuineIntel-6-AE-1"), "graniterapids");
	static const char *const other[] = {
		"GenuineIntel-6-BE-0",	/* Alder Lake N: alderlaken, no cpu_core */
		"GenuineIntel-6-AA-4",	/* Meteor Lake: files of its own */
		"GenuineIntel-6-977-2", /* the pattern matches a prefix only */
		"GenuineIntel-6-97-2-1", "xGenuineIntel-6-97-2", "AuthenticAMD-27-11-1", "",
	};
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (pmujson_model(other[i]))
			fail_msg("%s taken as %s", other[i], pmujson_model(other[i]));
	assert_null(pmujson_model(NULL));
}

/* perf's encodings, by hand from the JSON entries (EventCode into config:0-7, UMask into
 * config:8-15 as the fixture's format/ files say, the kernel's x86 fields). */
static void test_encoding(void **state)
{
	(void)state;
	struct pmu_set *p = fixture_pmus("fixtures/metrics/adl", ADL_CPUID);
	static const struct {
		const char *name;
		int type;
		uint64_t config;
	} want[] = {
		/* "EventCode": "0xad", "UMask": "0x10", "Unit": "cpu_core" */
		{"cpu_core/INT_MISC.UOP_DROPPING/", 4, 0x10ad},
		/* "EventCode": "0x71", "UMask": "0x72", "Unit": "cpu_atom" */
		{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_LATENCY/", 10, 0x7271},
		/* "EventCode": "0x71", no UMask */
		{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", 10, 0x71},
		/* no EventCode, "UMask": "0x2": a fixed-counter name perf encodes as 0x3c */
		{"cpu_atom/CPU_CLK_UNHALTED.CORE/", 10, 0x3c},
		/* "EventCode": "0x05", "UMask": "0xff" */
		{"cpu_atom/LD_HEAD.ANY_AT_RET/", 10, 0xff05},
		/* perf matches JSON names in any case */
		{"cpu_atom/topdown_be_bound.mem_scheduler/", 10, 0x0274},
		/* and takes more terms after the name: CounterMask 1 is config:24-31 */
		{"cpu_atom/TOPDOWN_RETIRING.ALL,cmask=1/", 10, 0x010000c2},
		/* sysfs first: the kernel's alias, not the table */
		{"cpu_core/slots/", 4, 0x0400},
		/* a bare name: the first core PMU that has it */
		{"TOPDOWN_BAD_SPECULATION.MISPREDICT", 10, 0x0473},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct evdesc d;
		struct evspec_err err;
		int r = evspec_parse_one(want[i].name, p, &d, &err);
		if (r)
			fail_msg("%s: %d (%s)", want[i].name, r, err.reason);
		if (d.attr.type != (uint32_t)want[i].type || d.attr.config != want[i].config)
			fail_msg("%s: type %u config %#llx, perf's %d %#llx", want[i].name,
				 d.attr.type, (unsigned long long)d.attr.config, want[i].type,
				 (unsigned long long)want[i].config);
	}
	assert_true(pmu_set_alias_is_json(p, (unsigned)pmu_set_find(p, "cpu_atom"),
					  "TOPDOWN_FE_BOUND.ALL"));
	assert_false(pmu_set_alias_is_json(p, (unsigned)pmu_set_find(p, "cpu_core"), "slots"));
	/* each event on its own unit only: Gracemont's names are not cpu_core's */
	struct evdesc d;
	struct evspec_err err;
	assert_int_equal(evspec_parse_one("cpu_core/TOPDOWN_FE_BOUND.ALL/", p, &d, &err), -ENOENT);
	assert_int_equal(evspec_parse_one("cpu_atom/INT_MISC.UOP_DROPPING/", p, &d, &err), -ENOENT);
	pmu_set_free(p);
}

/* No CPUID, or one whose table is not Alder Lake's (Sapphire Rapids' has no cpu_core or
 * cpu_atom events): the names are unknown as before. */
static void test_other_cpu(void **state)
{
	(void)state;
	static const char *const ids[] = {NULL, "GenuineIntel-6-8F-8", "GenuineIntel-6-AA-4"};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct pmu_set *p = fixture_pmus("fixtures/metrics/adl", ids[i]);
		struct evdesc d;
		struct evspec_err err;
		assert_int_equal(evspec_parse_one("cpu_atom/TOPDOWN_FE_BOUND.ALL/", p, &d, &err),
				 -ENOENT);
		assert_int_equal(evspec_parse_one("cpu_core/INT_MISC.UOP_DROPPING/", p, &d, &err),
				 -ENOENT);
		assert_int_equal(evspec_parse_one("cpu_core/slots/", p, &d, &err), 0);
		pmu_set_free(p);
	}
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A cpu_atom whose format/ has event but no umask: an event of the table that needs
 * umask is refused with one line naming the field; one that needs only event encodes. */
static void test_missing_field(void **state)
{
	(void)state;
	char root[] = "/tmp/pmutop-pmujson-XXXXXX", dir[512];
	assert_non_null(mkdtemp(root));
	const char *const sub[] = {"bus", "bus/event_source", "bus/event_source/devices",
				   "bus/event_source/devices/cpu_atom",
				   "bus/event_source/devices/cpu_atom/format"};
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", root, sub[i]);
		assert_int_equal(mkdir(dir, 0755), 0);
	}
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/cpu_atom", root);
	put_file(dir, "type", "10\n");
	put_file(dir, "format/event", "config:0-7\n");
	struct pmu_set *p = pmu_set_new(root, false);
	assert_non_null(p);
	assert_int_equal(pmu_set_set_cpuid(p, ADL_CPUID), 0);
	struct evdesc d;
	struct evspec_err err;
	assert_int_equal(evspec_parse_one("cpu_atom/TOPDOWN_FE_BOUND.ALL/", p, &d, &err), 0);
	assert_int_equal(d.attr.config, 0x71);
	int r = evspec_parse_one("cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_LATENCY/", p, &d, &err);
	assert_int_equal(r, -EINVAL);
	if (!strstr(err.reason, "'umask'") || !strstr(err.reason, "cpu_atom") ||
	    strchr(err.reason, '\n'))
		fail_msg("reason: %s", err.reason);
	pmu_set_free(p);
	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	assert_int_equal(system(dir), 0);
}

/* Event name's entry in f (it must have one). */
static const struct feed *feed_find(const struct feed *f, const char *name)
{
	while (f->name && strcmp(f->name, name))
		f++;
	if (!f->name)
		fail_msg("no value for %s", name);
	return f;
}

/* The events of spec's groups, as the engine would open them, with values by name
 * from f (every one must have one): one hand group per group of spec. */
static void feed_spec(struct hand *h, const char *spec, const struct pmu_set *p,
		      const struct feed *f)
{
	struct evspec_list l = {0};
	struct evspec_err err;
	if (evspec_parse(spec, p, &l, &err))
		fail_msg("%s does not parse: %s at %zu (%s)", spec, err.token, err.pos, err.reason);
	for (unsigned g = 0; g < l.n; g++) {
		struct feed one[EVGROUP_MAX + 1] = {{0}};
		static char names[EVGROUP_MAX][EV_NAME_MAX];
		for (unsigned k = 0; k < l.g[g].n; k++) {
			/* "cpu_atom/X/W" as the metric names it: "cpu_atom/X/" */
			snprintf(names[k], sizeof(names[k]), "%s", l.g[g].ev[k].name);
			size_t n = strlen(names[k]);
			if (n > 2 && names[k][n - 1] == 'W' && names[k][n - 2] == '/')
				names[k][n - 1] = '\0';
			else if (n > 2 && !strcmp(names[k] + n - 2, ":W"))
				names[k][n - 2] = '\0'; /* "slots:W" */
			one[k] = *feed_find(f, names[k]);
		}
		hand_group(h, one, ":W");
	}
	evspec_list_free(&l);
}

/* Every metric of h's binding counts exactly on the process row of the groups of spec
 * (none "event not on this CPU"). */
static void all_exact(struct hand *h, const char *spec)
{
	struct metric_bind *b = h->m.metrics;
	for (unsigned k = 0; k < metric_bind_count(b); k++) {
		const char *why = NULL;
		struct val v = metric_bind_value(b, &h->m, &h->proc, k, &why);
		if (metric_bind_unsupported(b, &h->m, k) || v.state != VAL_EXACT)
			fail_msg("%s: %s (%s) in %s", metric_bind_name(b, k),
				 val_state_str((enum val_state)v.state), why ? why : "", spec);
	}
}

/* Counts for Alder Lake's events, the same as test_metriclevel2's but for
 * TOPDOWN_BAD_SPECULATION.ALL, which does not make up the four to the slots here. */
static const struct feed adl_feed[] = {
	{"cpu_core/slots/", 600000},
	{"cpu_core/topdown-fe-bound/", 90000},
	{"cpu_core/topdown-bad-spec/", 60000},
	{"cpu_core/topdown-retiring/", 300000},
	{"cpu_core/topdown-be-bound/", 150000},
	{"cpu_core/INT_MISC.UOP_DROPPING/", 6000},
	{"cpu_core/topdown-heavy-ops/", 120000},
	{"cpu_core/topdown-br-mispredict/", 40000},
	{"cpu_core/topdown-fetch-lat/", 70000},
	{"cpu_core/topdown-mem-bound/", 100000},
	{"cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000},
	{"cpu_atom/TOPDOWN_RETIRING.ALL/", 1000},
	{"cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1500},
	{"cpu_atom/TOPDOWN_BE_BOUND.ALL/", 2000},
	{"cpu_atom/TOPDOWN_BAD_SPECULATION.ALL/", 450},
	{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_LATENCY/", 900},
	{"cpu_atom/TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH/", 600},
	{"cpu_atom/TOPDOWN_BAD_SPECULATION.MISPREDICT/", 300},
	{"cpu_atom/TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS/", 200},
	{"cpu_atom/UOPS_RETIRED.MS/", 150},
	{"cpu_atom/TOPDOWN_BE_BOUND.MEM_SCHEDULER/", 800},
	{"cpu_atom/MEM_SCHEDULER_BLOCK.ST_BUF/", 100},
	{"cpu_atom/MEM_SCHEDULER_BLOCK.ALL/", 400},
	{"cpu_atom/LD_HEAD.ANY_AT_RET/", 300},
	{NULL, 0},
};

/* Alder Lake's built-in levels 1 and 2 on the fixture with its CPUID: every metric binds
 * (none is "event not on this CPU"), and cpu_atom's shares and cpu_core's frontend and
 * fetch shares equal the values computed here from adl-metrics.json's formulas. */
static void test_alder_lake_binds(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/adl", "TopdownL1,TopdownL2");
	struct pmu_set *p = fixture_pmus("fixtures/metrics/adl", ADL_CPUID);
	static char spec[8192];
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
#define C(name) feed_find(adl_feed, "cpu_core/" name "/")->v
#define A(name) feed_find(adl_feed, "cpu_atom/" name "/")->v
	const double slots = C("slots"), fe = C("topdown-fe-bound"), bad = C("topdown-bad-spec"),
		     ret = C("topdown-retiring"), be = C("topdown-be-bound"),
		     drop = C("INT_MISC.UOP_DROPPING"), flat = C("topdown-fetch-lat");
	const double clks = A("CPU_CLK_UNHALTED.CORE"), a_ret = A("TOPDOWN_RETIRING.ALL"),
		     a_fe = A("TOPDOWN_FE_BOUND.ALL"), a_be = A("TOPDOWN_BE_BOUND.ALL"),
		     a_flat = A("TOPDOWN_FE_BOUND.FRONTEND_LATENCY"),
		     a_fbw = A("TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH");
#undef A
#undef C
	const struct feed *f = adl_feed;
	static struct hand h;
	hand_init(&h, b);
	feed_spec(&h, spec, p, f);
	all_exact(&h, spec);
	const double sum = fe + bad + ret + be, a_slots = 5 * clks;
	hand_expect(&h, &h.proc, "tma_frontend_bound", 100 * (fe / sum - drop / slots));
	hand_expect(&h, &h.proc, "tma_fetch_latency", 100 * (flat / sum - drop / slots));
	hand_expect(&h, &h.proc, "tma_fetch_bandwidth", 100 * (fe - flat) / sum);
	hand_expect(&h, &h.proc, "tma_frontend_bound.cpu_atom", 100 * a_fe / a_slots);
	hand_expect(&h, &h.proc, "tma_backend_bound.cpu_atom", 100 * a_be / a_slots);
	/* adl-metrics.json: the slots the other three leave (the event says 450, 9%) */
	hand_expect(&h, &h.proc, "tma_bad_speculation.cpu_atom",
		    100 * (a_slots - (a_fe + a_be + a_ret)) / a_slots);
	hand_expect(&h, &h.proc, "tma_retiring.cpu_atom", 100 * a_ret / a_slots);
	hand_expect(&h, &h.cpu, "tma_fetch_latency.cpu_atom", 100 * a_flat / a_slots);
	hand_expect(&h, &h.cpu, "tma_fetch_bandwidth.cpu_atom", 100 * a_fbw / a_slots);
	assert_null(metric_bind_topdown_reason(b, &h.m));
	pmu_set_free(p);
	metric_bind_free(b);
}

/* The same fixture said to be a Sapphire Rapids: the table is not used, and the metrics
 * that name JSON events read n/a, "event not on this CPU", as before; the others bind. */
static void test_alder_lake_other_cpuid(void **state)
{
	(void)state;
	struct metric_bind *b = hand_load("fixtures/metrics/adl", "TopdownL1,TopdownL2");
	struct pmu_set *p = fixture_pmus("fixtures/metrics/adl", "GenuineIntel-6-8F-8");
	static char spec[8192];
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
	assert_null(strstr(spec, "cpu_atom"));
	assert_null(strstr(spec, "UOP_DROPPING"));
	const struct feed f[] = {
		{"cpu_core/slots/", 600000},
		{"cpu_core/topdown-fe-bound/", 90000},
		{"cpu_core/topdown-bad-spec/", 60000},
		{"cpu_core/topdown-retiring/", 300000},
		{"cpu_core/topdown-be-bound/", 150000},
		{"cpu_core/topdown-heavy-ops/", 120000},
		{"cpu_core/topdown-br-mispredict/", 40000},
		{"cpu_core/topdown-fetch-lat/", 70000},
		{"cpu_core/topdown-mem-bound/", 100000},
		{NULL, 0},
	};
	static struct hand h;
	hand_init(&h, b);
	feed_spec(&h, spec, p, f);
	static const char *const na[] = {"tma_frontend_bound", "tma_fetch_latency",
					 "tma_frontend_bound.cpu_atom",
					 "tma_fetch_latency.cpu_atom"};
	for (size_t i = 0; i < sizeof(na) / sizeof(na[0]); i++) {
		unsigned k = (unsigned)hand_find(b, na[i]);
		struct val v = metric_bind_value(b, &h.m, &h.proc, k, NULL);
		if (v.state != VAL_NA || !metric_bind_unsupported(b, &h.m, k))
			fail_msg("%s: %s", na[i], val_state_str((enum val_state)v.state));
	}
	hand_expect(&h, &h.proc, "tma_retiring", 100.0 * 300000 / 600000);
	pmu_set_free(p);
	metric_bind_free(b);
}

/* perf's own Alder Lake file (--metrics, adl-topdown-l2.json): its cpu_atom metrics name
 * their events without a PMU ("TOPDOWN_FE_BOUND.ALL / tma_info_core_slots", Unit
 * cpu_atom), which bind to cpu_atom as perf binds them; cpu_core's slots helper is
 * TOPDOWN.SLOTS, read as the kernel's slots. Every metric of both levels counts. */
static void test_alder_lake_json(void **state)
{
	(void)state;
	char sys[256], info[256], json[256], err[300];
	snprintf(sys, sizeof(sys), "%s/sys", testutil_path("fixtures/metrics/adl"));
	snprintf(info, sizeof(info), "%s/cpuinfo", testutil_path("fixtures/metrics/adl"));
	snprintf(json, sizeof(json), "%s",
		 testutil_path("fixtures/metrics/json/adl-topdown-l2.json"));
	struct metric_bind *b = NULL;
	if (metric_bind_load(sys, info, json, "TopdownL1,TopdownL2", &b, err, sizeof(err)))
		fail_msg("%s", err);
	struct pmu_set *p = fixture_pmus("fixtures/metrics/adl", ADL_CPUID);
	static char spec[8192];
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
	assert_null(strstr(spec, "TOPDOWN.SLOTS"));
	static struct hand h;
	hand_init(&h, b);
	feed_spec(&h, spec, p, adl_feed);
	all_exact(&h, spec);
	const double a_slots = 5 * 1000.0, sum = 90000 + 60000 + 300000 + 150000;
	hand_expect(&h, &h.proc, "tma_frontend_bound.cpu_atom", 100 * 1500 / a_slots);
	hand_expect(&h, &h.proc, "tma_bad_speculation.cpu_atom",
		    100 * (a_slots - (1500 + 2000 + 1000)) / a_slots);
	hand_expect(&h, &h.proc, "tma_fetch_latency.cpu_atom", 100 * 900 / a_slots);
	hand_expect(&h, &h.proc, "tma_ms_uops.cpu_atom", 100 * 150 / a_slots);
	hand_expect(&h, &h.proc, "tma_fetch_latency", 100 * (70000 / sum - 6000 / 600000.0));
	pmu_set_free(p);
	metric_bind_free(b);
	/* A name that is not there: the line lists what is, as many as fit, and counts the
	 * rest; a top-down name here is a plain miss, not "no top-down". */
	b = NULL;
	assert_int_equal(metric_bind_load(sys, info, json, "tma_nosuch", &b, err, sizeof(err)),
			 -ENOENT);
	assert_null(b);
	assert_non_null(strstr(err, "called 'tma_nosuch' (here: "));
	assert_non_null(strstr(err, "TopdownL1, "));
	assert_non_null(strstr(err, " more; more with --metrics"));
	assert_null(strstr(err, "no top-down"));
}

/* Sapphire Rapids (sapphirerapids/pipeline.json), Emerald Rapids and Granite Rapids:
 * INT_MISC.UOP_DROPPING
 * on the one core PMU, cpu, as a bare name the way the built-in metrics write it; the
 * frontend and fetch shares bind and equal spr-metrics.json's formulas. */
static void test_sapphire_rapids(void **state)
{
	(void)state;
	char id[PMUJSON_CPUID_MAX];
	fixture_cpuid("fixtures/metrics/spr", id);
	assert_string_equal(id, "GenuineIntel-6-8F-8");
	static const char *const ids[] = {"GenuineIntel-6-8F-8", "GenuineIntel-6-CF-2",
					  "GenuineIntel-6-AD-1"};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct pmu_set *p = fixture_pmus("fixtures/metrics/spr", ids[i]);
		struct evdesc d;
		struct evspec_err err;
		/* "EventCode": "0xad", "UMask": "0x10", no Unit: the cpu PMU (type 4) */
		assert_int_equal(evspec_parse_one("INT_MISC.UOP_DROPPING", p, &d, &err), 0);
		assert_int_equal(d.attr.type, 4);
		assert_int_equal(d.attr.config, 0x10ad);
		assert_int_equal(evspec_parse_one("cpu/INT_MISC.UOP_DROPPING/", p, &d, &err), 0);
		assert_int_equal(d.attr.config, 0x10ad);
		pmu_set_free(p);
	}
	struct metric_bind *b = hand_load("fixtures/metrics/spr", "TopdownL1,TopdownL2");
	struct pmu_set *p = fixture_pmus("fixtures/metrics/spr", id);
	static char spec[4096];
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
	const double slots = 1000000, fe = 250000, bad = 100000, ret = 400000, be = 250000,
		     drop = 20000, flat = 120000;
	const struct feed f[] = {
		{"slots", slots},
		{"topdown-fe-bound", fe},
		{"topdown-bad-spec", bad},
		{"topdown-retiring", ret},
		{"topdown-be-bound", be},
		{"INT_MISC.UOP_DROPPING", drop},
		{"topdown-heavy-ops", 150000},
		{"topdown-br-mispredict", 70000},
		{"topdown-fetch-lat", flat},
		{"topdown-mem-bound", 100000},
		{NULL, 0},
	};
	static struct hand h;
	hand_init(&h, b);
	feed_spec(&h, spec, p, f);
	all_exact(&h, spec);
	const double sum = fe + bad + ret + be;
	hand_expect(&h, &h.proc, "tma_frontend_bound", 100 * (fe / sum - drop / slots));
	hand_expect(&h, &h.proc, "tma_fetch_latency", 100 * (flat / sum - drop / slots));
	pmu_set_free(p);
	metric_bind_free(b);
}

/* Zen 4 (amdzen4's core.json, branch.json, other.json): its PipelineL1 and PipelineL2
 * events on cpu, whose format/ spreads the event code over config:0-7 and 32-35 as the
 * kernel's AMD PMU does. A Zen 3 CPUID (family 25, models 00-0f and 20-5f: mapfile.csv's
 * amdzen3 line comes first) gets none of them. */
static void test_zen4(void **state)
{
	(void)state;
	char id[PMUJSON_CPUID_MAX];
	fixture_cpuid("fixtures/metrics/zen4", id);
	assert_string_equal(pmujson_model(id), "amdzen4");
	struct pmu_set *p = fixture_pmus("fixtures/metrics/zen4", id);
	static const struct {
		const char *name;
		uint64_t config;
	} want[] = {
		/* "EventCode": "0x76" */
		{"ls_not_halted_cyc", 0x76},
		/* "EventCode": "0x1a0", "UMask": "0x01": 0xa0 in 0-7, 0x1 in 32-35 */
		{"de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001a0},
		/* the level-2 latency share's cmask 6 in config:24-31 */
		{"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/", 0x1060001a0},
		/* "EventCode": "0x1c2" */
		{"ex_ret_ucode_ops", 0x1000000c2},
		/* "EventCode": "0xd6", "UMask": "0xa2" */
		{"ex_no_retire.load_not_complete", 0xa2d6},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct evdesc d;
		struct evspec_err err;
		int r = evspec_parse_one(want[i].name, p, &d, &err);
		if (r || d.attr.type != 4 || d.attr.config != want[i].config)
			fail_msg("%s: %d type %u config %#llx, perf's %#llx", want[i].name, r,
				 d.attr.type, (unsigned long long)d.attr.config,
				 (unsigned long long)want[i].config);
	}
	struct metric_bind *b = hand_load("fixtures/metrics/zen4", "PipelineL1,PipelineL2");
	static char spec[4096];
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
	const double cyc = 1000, fe = 1200, be = 1800, smt = 600, ret = 1500, disp = 2400;
	const struct feed f[] = {
		{"ls_not_halted_cyc", cyc},
		{"de_no_dispatch_per_slot.no_ops_from_frontend", fe},
		{"de_no_dispatch_per_slot.backend_stalls", be},
		{"de_no_dispatch_per_slot.smt_contention", smt},
		{"ex_ret_ops", ret},
		{"de_src_op_disp.all", disp},
		{"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/", 150},
		{"ex_ret_brn_misp", 30},
		{"resyncs_or_nc_redirects", 10},
		{"ex_no_retire.load_not_complete", 700},
		{"ex_no_retire.not_complete", 1000},
		{"ex_ret_ucode_ops", 300},
		{NULL, 0},
	};
	static struct hand h;
	hand_init(&h, b);
	feed_spec(&h, spec, p, f);
	all_exact(&h, spec);
	hand_expect(&h, &h.proc, "frontend_bound", 100 * fe / (6 * cyc));
	hand_expect(&h, &h.proc, "smt_contention", 100 * smt / (6 * cyc));
	hand_expect(&h, &h.proc, "bad_speculation", 100 * (disp - ret) / (6 * cyc));
	metric_bind_free(b);
	/* Zen 3: the first mapfile line that matches is amdzen3's, with no events here */
	static const char *const zen3[] = {"AuthenticAMD-25-21-0", "AuthenticAMD-25-1-1",
					   "AuthenticAMD-25-50-0"};
	for (size_t i = 0; i < sizeof(zen3) / sizeof(zen3[0]); i++) {
		struct evdesc d;
		struct evspec_err err;
		assert_string_equal(pmujson_model(zen3[i]), "amdzen3");
		assert_int_equal(pmu_set_set_cpuid(p, zen3[i]), 0);
		assert_int_equal(evspec_parse_one("ls_not_halted_cyc", p, &d, &err), -ENOENT);
	}
	assert_string_equal(pmujson_model("AuthenticAMD-25-61-2"), "amdzen4");
	pmu_set_free(p);
}

/* Zen 5 (amdzen5's load-store.json, decode.json, branch-prediction.json, execution.json;
 * mapfile.csv's "AuthenticAMD-26-[[:xdigit:]]+"): the events of its PipelineL1 and
 * PipelineL2 on cpu, with the AMD format/ of the fixture (event config:0-7 and 32-35). */

static const struct feed zen5_feed[] = {
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

static void test_zen5(void **state)
{
	(void)state;
	char id[PMUJSON_CPUID_MAX];
	fixture_cpuid("fixtures/metrics/zen5", id);
	assert_string_equal(id, "AuthenticAMD-26-2-1"); /* family 26 is 0x1a */
	assert_string_equal(pmujson_model(id), "amdzen5");
	static const char *const zen5_ids[] = {"AuthenticAMD-26-44-0", "AuthenticAMD-26-0-0",
					       "AuthenticAMD-26-11", "AuthenticAMD-26-24-0"};
	for (size_t i = 0; i < sizeof(zen5_ids) / sizeof(zen5_ids[0]); i++)
		if (!pmujson_model(zen5_ids[i]) || strcmp(pmujson_model(zen5_ids[i]), "amdzen5"))
			fail_msg("%s is not amdzen5", zen5_ids[i]);
	struct pmu_set *p = fixture_pmus("fixtures/metrics/zen5", id);
	static const struct {
		const char *name;
		uint64_t config;
	} want[] = {
		/* "EventCode": "0x76" (load-store.json) */
		{"ls_not_halted_cyc", 0x76},
		/* "EventCode": "0xaa", "UMask": "0x07" (decode.json) */
		{"de_src_op_disp.all", 0x07aa},
		/* "EventCode": "0x1a0", "UMask": "0x01": 0xa0 in 0-7, 0x1 in 32-35, 0x01 in 8-15 */
		{"de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001a0},
		/* the level-2 latency share's cmask 8 in config:24-31 */
		{"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/", 0x1080001a0},
		/* "UMask": "0x1e" and "0x60" */
		{"de_no_dispatch_per_slot.backend_stalls", 0x100001ea0},
		{"de_no_dispatch_per_slot.smt_contention", 0x1000060a0},
		/* "EventCode": "0x9f", "UMask": "0x01" (branch-prediction.json) */
		{"bp_redirects.resync", 0x019f},
		/* execution.json: 0xc1, 0xc3, 0xd6 with UMask 0x02 and 0xa2, 0x1c2 */
		{"ex_ret_ops", 0xc1},
		{"ex_ret_brn_misp", 0xc3},
		{"ex_no_retire.not_complete", 0x02d6},
		{"ex_no_retire.load_not_complete", 0xa2d6},
		{"ex_ret_ucode_ops", 0x1000000c2},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct evdesc d;
		struct evspec_err err;
		int r = evspec_parse_one(want[i].name, p, &d, &err);
		if (r || d.attr.type != 4 || d.attr.config != want[i].config)
			fail_msg("%s: %d type %u config %#llx, perf's %#llx", want[i].name, r,
				 d.attr.type, (unsigned long long)d.attr.config,
				 (unsigned long long)want[i].config);
	}
	/* the built-in PipelineL1 and PipelineL2 bind, and count exactly */
	struct metric_bind *b = hand_load("fixtures/metrics/zen5", "PipelineL1,PipelineL2");
	static char spec[4096];
	assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
	static struct hand h;
	hand_init(&h, b);
	feed_spec(&h, spec, p, zen5_feed);
	all_exact(&h, spec);
	assert_null(metric_bind_topdown_reason(b, &h.m));
	/* amdzen5/pipeline.json's formulas over 8 * ls_not_halted_cyc */
	const double slots = 8 * 1000.0, bad = (3200 - 2000) / slots;
	hand_expect(&h, &h.proc, "frontend_bound", 100 * 1600 / slots);
	hand_expect(&h, &h.proc, "backend_bound", 100 * 2400 / slots);
	hand_expect(&h, &h.proc, "smt_contention", 100 * 800 / slots);
	hand_expect(&h, &h.proc, "retiring", 100 * 2000 / slots);
	hand_expect(&h, &h.proc, "bad_speculation", 100 * bad);
	hand_expect(&h, &h.proc, "frontend_bound_by_latency", 100 * 8 * 120 / slots);
	hand_expect(&h, &h.proc, "bad_speculation_from_pipeline_restarts",
		    100 * bad * 20 / (30 + 20));
	hand_expect(&h, &h.proc, "backend_bound_by_memory", 100 * 2400 / slots * 600 / 1000);
	hand_expect(&h, &h.proc, "retiring_from_microcode", 100 * 2000 / slots * 400 / 2000);
	metric_bind_free(b);
	pmu_set_free(p);
}

/* The Zen 5 fixture with another CPUID: no CPUID, Intel's, a family-27 AMD: none of
 * Zen 5's names is known and every PipelineL1 share reads n/a. Zen 4's CPUID takes Zen 4's
 * table, which has no bp_redirects.resync: the restart shares read n/a there. */
static void test_zen5_other_cpuid(void **state)
{
	(void)state;
	static const char *const ids[] = {NULL, "GenuineIntel-6-97-2", "AuthenticAMD-27-2-1",
					  "AuthenticAMD-25-11-1"};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct pmu_set *p = fixture_pmus("fixtures/metrics/zen5", ids[i]);
		bool zen4 = ids[i] && !strcmp(ids[i], "AuthenticAMD-25-11-1");
		struct evdesc d;
		struct evspec_err err;
		assert_int_equal(evspec_parse_one("bp_redirects.resync", p, &d, &err), -ENOENT);
		assert_int_equal(evspec_parse_one("ls_not_halted_cyc", p, &d, &err),
				 zen4 ? 0 : -ENOENT);
		struct metric_bind *b = hand_load("fixtures/metrics/zen5", "PipelineL1,PipelineL2");
		static char spec[4096];
		assert_int_equal(metric_bind_spec(b, NULL, p, spec, sizeof(spec)), 0);
		assert_null(strstr(spec, "bp_redirects"));
		if (!zen4)
			assert_null(strstr(spec, "ls_not_halted_cyc"));
		static struct hand h;
		hand_init(&h, b);
		if (spec[0]) /* nothing to open when no event is known */
			feed_spec(&h, spec, p, zen5_feed);
		static const char *const na[] = {"bad_speculation_from_mispredicts",
						 "bad_speculation_from_pipeline_restarts",
						 "frontend_bound", "retiring"};
		for (size_t j = 0; j < sizeof(na) / sizeof(na[0]); j++) {
			unsigned k = (unsigned)hand_find(b, na[j]);
			struct val v = metric_bind_value(b, &h.m, &h.proc, k, NULL);
			bool want_na = j < 2 || !zen4;
			if (want_na && (v.state != VAL_NA || !metric_bind_unsupported(b, &h.m, k)))
				fail_msg("%s with %s: %s", na[j], ids[i] ? ids[i] : "no CPUID",
					 val_state_str((enum val_state)v.state));
		}
		metric_bind_free(b);
		pmu_set_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuid),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_other_cpu),
		cmocka_unit_test(test_missing_field),
		cmocka_unit_test(test_alder_lake_binds),
		cmocka_unit_test(test_alder_lake_other_cpuid),
		cmocka_unit_test(test_alder_lake_json),
		cmocka_unit_test(test_sapphire_rapids),
		cmocka_unit_test(test_zen4),
		cmocka_unit_test(test_zen5),
		cmocka_unit_test(test_zen5_other_cpuid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
