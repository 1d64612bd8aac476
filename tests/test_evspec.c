/* Event specification parser: names, modifiers, groups, sysfs forms, errors, suggestions
 * and the catalogue. Sysfs forms use the fixture trees; libpfm4 is in test_pfm.c. */
#include "evspec.h"

#include "pmu.h"
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pmu_set *load(const char *fixture)
{
	struct pmu_set *s = pmu_set_new(testutil_path(fixture), false);

	assert_non_null(s);
	return s;
}

/* Parse one event and check type and config; returns the descriptor for more checks. */
static struct evdesc one(const char *spec, const struct pmu_set *pmus, uint32_t type,
			 uint64_t config)
{
	struct evdesc d;
	struct evspec_err err;
	int ret = evspec_parse_one(spec, pmus, &d, &err);

	if (ret != 0)
		print_error("%s: %d at %zu (%s)\n", spec, ret, err.pos, err.token);
	assert_int_equal(ret, 0);
	assert_int_equal(d.attr.type, type);
	assert_int_equal(d.attr.config, config);
	assert_int_equal(d.attr.size, sizeof(struct perf_event_attr));
	return d;
}

static void plm(const struct evdesc *d, int eu, int ek, int eh, bool explicit_plm)
{
	assert_int_equal(d->attr.exclude_user, eu);
	assert_int_equal(d->attr.exclude_kernel, ek);
	assert_int_equal(d->attr.exclude_hv, eh);
	assert_int_equal(d->explicit_plm, explicit_plm);
}

/* evspec_parse must fail with ret at pos, naming token (if not NULL). */
static void bad(const char *spec, const struct pmu_set *pmus, int ret, size_t pos,
		const char *token)
{
	struct evspec_list l = {0};
	struct evspec_err err;
	int got = evspec_parse(spec, pmus, &l, &err);

	if (got != ret || err.pos != pos)
		print_error("\"%s\": %d at %zu (%s)\n", spec, got, err.pos, err.token);
	assert_int_equal(got, ret);
	assert_int_equal(err.pos, pos);
	if (token)
		assert_string_equal(err.token, token);
	assert_int_equal(l.n, 0);
	assert_null(l.g);
}

static void test_generic(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
	} t[] = {
		{"cycles", PERF_COUNT_HW_CPU_CYCLES},
		{"cpu-cycles", PERF_COUNT_HW_CPU_CYCLES},
		{"instructions", PERF_COUNT_HW_INSTRUCTIONS},
		{"cache-references", PERF_COUNT_HW_CACHE_REFERENCES},
		{"cache-misses", PERF_COUNT_HW_CACHE_MISSES},
		{"branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
		{"branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
		{"branch-misses", PERF_COUNT_HW_BRANCH_MISSES},
		{"bus-cycles", PERF_COUNT_HW_BUS_CYCLES},
		{"ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES},
		{"stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
		{"idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
		{"stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
		{"idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct evdesc d = one(t[i].name, NULL, PERF_TYPE_HARDWARE, t[i].config);

		assert_string_equal(d.name, t[i].name);
		assert_false(d.software);
		assert_false(evspec_is_software(&d));
		/* user and kernel by default, as perf stat */
		plm(&d, 0, 0, 0, false);
		assert_int_equal(d.attr.disabled, 0); /* the parser leaves open policy alone */
		assert_int_equal(d.attr.read_format, 0);
	}
	one("Instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
}

static void test_software(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
	} t[] = {
		{"cpu-clock", PERF_COUNT_SW_CPU_CLOCK},
		{"task-clock", PERF_COUNT_SW_TASK_CLOCK},
		{"page-faults", PERF_COUNT_SW_PAGE_FAULTS},
		{"faults", PERF_COUNT_SW_PAGE_FAULTS},
		{"context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES},
		{"cs", PERF_COUNT_SW_CONTEXT_SWITCHES},
		{"cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
		{"migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
		{"minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN},
		{"major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ},
		{"alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS},
		{"emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS},
		{"dummy", PERF_COUNT_SW_DUMMY},
	};
	struct evdesc d;
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		d = one(t[i].name, NULL, PERF_TYPE_SOFTWARE, t[i].config);
		assert_true(d.software);
		assert_true(evspec_is_software(&d));
	}
	assert_false(evspec_is_software(NULL));
}

#define CACHE(c, op, res)                                                                          \
	(PERF_COUNT_HW_CACHE_##c | PERF_COUNT_HW_CACHE_OP_##op << 8 |                              \
	 PERF_COUNT_HW_CACHE_RESULT_##res << 16)

static void test_cache(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
	} t[] = {
		{"L1-dcache-loads", CACHE(L1D, READ, ACCESS)},
		{"L1-dcache-load-misses", CACHE(L1D, READ, MISS)},
		{"L1-dcache-stores", CACHE(L1D, WRITE, ACCESS)},
		{"L1-dcache-store-misses", CACHE(L1D, WRITE, MISS)},
		{"L1-dcache-prefetches", CACHE(L1D, PREFETCH, ACCESS)},
		{"L1-icache-load-misses", CACHE(L1I, READ, MISS)},
		{"LLC-loads", CACHE(LL, READ, ACCESS)},
		{"LLC-load-misses", CACHE(LL, READ, MISS)},
		{"LLC-stores", CACHE(LL, WRITE, ACCESS)},
		{"LLC-prefetch-misses", CACHE(LL, PREFETCH, MISS)},
		{"dTLB-loads", CACHE(DTLB, READ, ACCESS)},
		{"dTLB-load-misses", CACHE(DTLB, READ, MISS)},
		{"iTLB-load-misses", CACHE(ITLB, READ, MISS)},
		{"branch-loads", CACHE(BPU, READ, ACCESS)},
		{"branch-load-misses", CACHE(BPU, READ, MISS)},
		{"node-loads", CACHE(NODE, READ, ACCESS)},
		{"node-store-misses", CACHE(NODE, WRITE, MISS)},
		/* perf's other spellings, and its defaults: load, accesses */
		{"l1d-loads", CACHE(L1D, READ, ACCESS)},
		{"L1-dcache-load-miss", CACHE(L1D, READ, MISS)},
		{"llc-LOADS", CACHE(LL, READ, ACCESS)},
		{"LLC", CACHE(LL, READ, ACCESS)},
		{"dTLB-misses", CACHE(DTLB, READ, MISS)},
		{"L1-dcache-speculative-read-misses", CACHE(L1D, PREFETCH, MISS)},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		one(t[i].name, NULL, PERF_TYPE_HW_CACHE, t[i].config);
	/* combinations no CPU counts, and noise */
	bad("L1-icache-stores", NULL, -ENOENT, 0, "L1-icache-stores");
	bad("iTLB-prefetches", NULL, -ENOENT, 0, NULL);
	bad("LLC-foo", NULL, -ENOENT, 0, NULL);
	bad("LLC-load-misses-misses", NULL, -ENOENT, 0, NULL);
	bad("LLC-loads-stores", NULL, -ENOENT, 0, NULL);
}

static void test_raw(void **state)
{
	struct evdesc d;
	(void)state;

	d = one("r1a2b", NULL, PERF_TYPE_RAW, 0x1a2b);
	assert_false(d.software);
	one("rFF", NULL, PERF_TYPE_RAW, 0xff);
	one("rffffffffffffffff", NULL, PERF_TYPE_RAW, ~0ULL);
	d = one("r1a2b:u", NULL, PERF_TYPE_RAW, 0x1a2b);
	plm(&d, 0, 1, 1, true);
	bad("r", NULL, -EINVAL, 1, "r");
	bad("rxyz", NULL, -EINVAL, 1, "rxyz");
	bad("r12g4", NULL, -EINVAL, 3, "r12g4");
	bad("r1ffffffffffffffff", NULL, -EINVAL, 1, NULL); /* 65 bits */
}

static void test_modifiers(void **state)
{
	struct evdesc d;
	(void)state;

	d = one("cycles:u", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	plm(&d, 0, 1, 1, true);
	assert_string_equal(d.name, "cycles:u");
	d = one("cycles:k", NULL, PERF_TYPE_HARDWARE, 0);
	plm(&d, 1, 0, 1, true);
	d = one("cycles:uk", NULL, PERF_TYPE_HARDWARE, 0);
	plm(&d, 0, 0, 1, true);
	d = one("cycles:h", NULL, PERF_TYPE_HARDWARE, 0);
	plm(&d, 1, 1, 0, true);
	d = one("task-clock:u", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	plm(&d, 0, 1, 1, true);
	assert_true(d.software);
	d = one("LLC-load-misses:k", NULL, PERF_TYPE_HW_CACHE, CACHE(LL, READ, MISS));
	plm(&d, 1, 0, 1, true);
	/* sampling and pinning letters are accepted and change nothing */
	d = one("cycles:ppp", NULL, PERF_TYPE_HARDWARE, 0);
	plm(&d, 0, 0, 0, false);
	assert_int_equal(d.attr.precise_ip, 0);
	d = one("cycles:SDP", NULL, PERF_TYPE_HARDWARE, 0);
	plm(&d, 0, 0, 0, false);
	d = one("cycles:uI", NULL, PERF_TYPE_HARDWARE, 0);
	assert_int_equal(d.attr.exclude_idle, 1);
	d = one("cycles:G", NULL, PERF_TYPE_HARDWARE, 0);
	assert_int_equal(d.attr.exclude_host, 1);
	assert_int_equal(d.attr.exclude_guest, 0);
	d = one("cycles:H", NULL, PERF_TYPE_HARDWARE, 0);
	assert_int_equal(d.attr.exclude_guest, 1);
	d = one("  cycles:u\t", NULL, PERF_TYPE_HARDWARE, 0);
	assert_string_equal(d.name, "cycles:u");

	bad("cycles:q", NULL, -EINVAL, 7, "q");
	bad("cycles:uq", NULL, -EINVAL, 8, "q");
	bad("cycles:", NULL, -EINVAL, 7, NULL);
	bad("cycles:u:k", NULL, -EINVAL, 8, NULL);
	bad(":u", NULL, -EINVAL, 0, NULL);
}

static void test_groups(void **state)
{
	struct evspec_list l = {0};
	struct evspec_err err;
	(void)state;

	assert_int_equal(evspec_parse("{cycles,instructions,branches}", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.g[0].n, 3);
	assert_string_equal(l.g[0].ev[0].name, "cycles");
	assert_string_equal(l.g[0].ev[2].name, "branches");
	assert_int_equal(l.g[0].ev[1].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	evspec_list_free(&l);
	assert_int_equal(l.n, 0);
	assert_null(l.g);

	/* ungrouped events become groups of one; whitespace around names is fine */
	assert_int_equal(evspec_parse(" cycles , { instructions ,branch-misses } ,task-clock ",
				      NULL, &l, &err),
			 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.g[0].n, 1);
	assert_int_equal(l.g[1].n, 2);
	assert_int_equal(l.g[2].n, 1);
	assert_string_equal(l.g[1].ev[0].name, "instructions");
	assert_string_equal(l.g[1].ev[1].name, "branch-misses");
	assert_true(l.g[2].ev[0].software);

	/* a second parse appends */
	assert_int_equal(evspec_parse("cs", NULL, &l, &err), 0);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.g[3].ev[0].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	evspec_list_free(&l);
	evspec_list_free(&l);
	evspec_list_free(NULL);
}

static void test_group_modifiers(void **state)
{
	struct evspec_list l = {0};
	struct evspec_err err;
	(void)state;

	assert_int_equal(evspec_parse("{cycles,instructions}:u,branches", NULL, &l, &err), 0);
	assert_int_equal(l.n, 2);
	for (unsigned i = 0; i < 2; i++)
		plm(&l.g[0].ev[i], 0, 1, 1, true);
	assert_string_equal(l.g[0].ev[0].name, "cycles:u");
	assert_string_equal(l.g[0].ev[1].name, "instructions:u");
	plm(&l.g[1].ev[0], 0, 0, 0, false); /* outside the group: untouched */
	evspec_list_free(&l);

	/* a member's own levels stay and gain the group's */
	assert_int_equal(evspec_parse("{cycles:k,instructions}:u", NULL, &l, &err), 0);
	plm(&l.g[0].ev[0], 0, 0, 1, true);
	assert_string_equal(l.g[0].ev[0].name, "cycles:ku");
	plm(&l.g[0].ev[1], 0, 1, 1, true);
	evspec_list_free(&l);

	bad("{cycles,instructions}:q", NULL, -EINVAL, 22, "q");
	bad("{cycles}:", NULL, -EINVAL, 9, NULL);
	/* the group modifier is checked before names are looked up */
	bad("{nosuch}:q", NULL, -EINVAL, 9, NULL);
}

static void test_group_limits(void **state)
{
	char spec[512] = "{";
	struct evspec_list l = {0};
	struct evspec_err err;
	size_t pos = 0;
	(void)state;

	for (unsigned i = 0; i < EVGROUP_MAX; i++)
		strcat(spec, i ? ",cs" : "cs");
	strcat(spec, "}");
	assert_int_equal(evspec_parse(spec, NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.g[0].n, EVGROUP_MAX);
	evspec_list_free(&l);

	pos = strlen(spec) - 1 + 1; /* where the extra member starts, after the ',' */
	spec[strlen(spec) - 1] = '\0';
	strcat(spec, ",cycles}");
	bad(spec, NULL, -E2BIG, pos, "cycles");
}

static void test_sysfs_x86(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	struct evspec_list l = {0};
	struct evspec_err err;
	struct evdesc d;
	(void)state;

	d = one("cpu/cpu-cycles/", s, 4, 0x3c);
	assert_string_equal(d.name, "cpu/cpu-cycles/");
	plm(&d, 0, 0, 0, false);
	one("cpu/event=0x3c,umask=0x1/", s, 4, 0x13c);
	d = one("cpu/mem-loads,cmask=2/", s, 4, 0x020001cd);
	assert_int_equal(d.attr.config1, 3);
	one("cpu/config=0x1234/", s, 4, 0x1234);
	one("cpu/event=0x3c, umask=1/", s, 4, 0x13c);
	one("cpu/event=0xc0,edge,inv/", s, 4, 0xc0 | 1 << 18 | 1 << 23);
	d = one("cpu/event=0xc0/u", s, 4, 0xc0);
	plm(&d, 0, 1, 1, true);
	assert_string_equal(d.name, "cpu/event=0xc0/u");
	d = one("cpu/event=0xc0/:k", s, 4, 0xc0);
	plm(&d, 1, 0, 1, true);
	one("msr/tsc/", s, 9, 0);
	one("power/energy-pkg/", s, 12, 2);
	d = one("software/config=1/", s, 1, 1);
	assert_true(d.software);
	assert_true(evspec_is_software(&d));
	/* a bare name that is not generic: the core PMU's alias, as perf does */
	d = one("mem-loads", s, 4, 0x1cd);
	assert_int_equal(d.attr.config1, 3);
	d = one("topdown-retiring:u", s, 4, 0x8000);
	plm(&d, 0, 1, 1, true);
	/* generic names stay generic even when the core PMU has the same alias */
	one("cpu-cycles", s, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	/* commas inside pmu/.../ separate terms, not events */
	assert_int_equal(
		evspec_parse("{cpu/event=0x3c,umask=1/,instructions}:u,msr/aperf/", s, &l, &err),
		0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.g[0].n, 2);
	assert_int_equal(l.g[0].ev[0].attr.config, 0x13c);
	assert_string_equal(l.g[0].ev[0].name, "cpu/event=0x3c,umask=1/u");
	plm(&l.g[0].ev[0], 0, 1, 1, true);
	assert_int_equal(l.g[1].ev[0].attr.type, 9);
	assert_int_equal(l.g[1].ev[0].attr.config, 1);
	evspec_list_free(&l);

	bad("cpu/nosuchterm=1/", s, -EINVAL, 4, "nosuchterm=1");
	bad("cpu/event=0x100/", s, -EINVAL, 4, "event=0x100");
	bad("cpu/event=0x3c,umask=zz/", s, -EINVAL, 15, "umask=zz");
	bad("cpu/nosuchalias/", s, -ENOENT, 4, "cpu/nosuchalias/");
	bad("nosuchpmu/event=1/", s, -ENOENT, 0, "nosuchpmu");
	bad("cpu/event=1", s, -EINVAL, 3, NULL);
	bad("cpu/event=1/x", s, -EINVAL, 12, "x");
	bad("/event=1/", s, -EINVAL, 0, NULL);
	bad("cycles,cpu//", s, -EINVAL, 11, NULL);
	bad("cpu/cpu-cycles/", NULL, -ENOENT, 0, "cpu"); /* no PMU set: no PMUs */
	pmu_set_free(s);
}

static void test_sysfs_arm64_hybrid(void **state)
{
	struct pmu_set *arm = load("fixtures/sysfs-arm64");
	struct pmu_set *hyb = load("fixtures/sysfs-hybrid");
	struct evdesc d;
	(void)state;

	/* "inst_retired" on arm is armv8_pmuv3/inst_retired/ */
	d = one("inst_retired", arm, 8, 0x08);
	assert_string_equal(d.name, "inst_retired");
	d = one("cpu_cycles:u", arm, 8, 0x11);
	plm(&d, 0, 1, 1, true);
	one("armv8_pmuv3/br_mis_pred/", arm, 8, 0x10);
	one("armv8_pmuv3/event=0x1b/", arm, 8, 0x1b);
	one("instructions", arm, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	/* hybrid: the first core PMU (cpu_core, type 4) answers a bare alias */
	one("topdown-retiring", hyb, 4, 0x8000);
	one("cpu_atom/topdown-retiring/", hyb, 10, 0x02c2);
	one("cpu_core/event=0x3c/", hyb, 4, 0x3c);
	bad("nosuchevent", arm, -ENOENT, 0, "nosuchevent");
	pmu_set_free(arm);
	pmu_set_free(hyb);
}

static void test_syntax_errors(void **state)
{
	(void)state;

	bad("{cycles", NULL, -EINVAL, 7, NULL);
	bad("{cycles,", NULL, -EINVAL, 8, NULL);
	bad("cycles}", NULL, -EINVAL, 6, "}");
	bad("}", NULL, -EINVAL, 0, "}");
	bad("{}", NULL, -EINVAL, 1, "}");
	bad("{ }", NULL, -EINVAL, 2, "}");
	bad("cycles,,", NULL, -EINVAL, 7, NULL);
	bad("cycles,", NULL, -EINVAL, 7, NULL);
	bad(",cycles", NULL, -EINVAL, 0, NULL);
	bad("{cycles,}", NULL, -EINVAL, 8, NULL);
	bad("{a,{b}}", NULL, -EINVAL, 3, NULL);
	bad("{cycles}{instructions}", NULL, -EINVAL, 8, NULL);
	bad("cycles instructions", NULL, -EINVAL, 7, "instructions");
	bad("", NULL, -EINVAL, 0, "");
	bad("   ", NULL, -EINVAL, 3, NULL);
	bad("nosuchevent", NULL, -ENOENT, 0, "nosuchevent");
	bad("cycles,nosuchevent:u", NULL, -ENOENT, 7, "nosuchevent");
	bad("{cycles,nosuchevent}", NULL, -ENOENT, 8, "nosuchevent");
}

static void test_unchanged_on_error(void **state)
{
	struct evspec_list l = {0};
	struct evspec_err err;
	struct evgroup_spec *g;
	struct evdesc d, before;
	(void)state;

	assert_int_equal(evspec_parse("cycles", NULL, &l, &err), 0);
	g = l.g;
	assert_int_equal(evspec_parse("instructions,{cs,nosuchevent}", NULL, &l, &err), -ENOENT);
	assert_int_equal(err.pos, 17);
	assert_int_equal(l.n, 1);
	assert_ptr_equal(l.g, g);
	assert_string_equal(l.g[0].ev[0].name, "cycles");
	assert_int_equal(evspec_parse("instructions,{", NULL, &l, &err), -EINVAL);
	assert_int_equal(l.n, 1);
	evspec_list_free(&l);

	memset(&d, 0x5a, sizeof(d));
	before = d;
	assert_int_equal(evspec_parse_one("nosuchevent", NULL, &d, &err), -ENOENT);
	assert_memory_equal(&d, &before, sizeof(d));
	assert_int_equal(evspec_parse_one("cycles:q", NULL, &d, &err), -EINVAL);
	assert_memory_equal(&d, &before, sizeof(d));
	/* parse_one takes one event: no lists, no groups */
	assert_int_equal(evspec_parse_one("cycles,instructions", NULL, &d, &err), -EINVAL);
	assert_int_equal(err.pos, 6);
	assert_int_equal(evspec_parse_one("{cycles}", NULL, &d, &err), -EINVAL);
	assert_int_equal(err.pos, 0);
	assert_memory_equal(&d, &before, sizeof(d));
}

static bool has(char out[][EV_NAME_MAX], unsigned n, const char *want)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(out[i], want) == 0)
			return true;
	return false;
}

static void test_suggest(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	char out[5][EV_NAME_MAX];
	unsigned n;
	(void)state;

	n = evspec_suggest("cyles", NULL, out, 5);
	assert_true(n >= 1 && n <= 5);
	assert_string_equal(out[0], "cycles"); /* the closest first */
	n = evspec_suggest("instrutions", NULL, out, 5);
	assert_true(has(out, n, "instructions"));
	n = evspec_suggest("INSTRUTIONS:u", NULL, out, 5);
	assert_true(has(out, n, "instructions"));
	n = evspec_suggest("LLC-load-mises", NULL, out, 5);
	assert_true(has(out, n, "LLC-load-misses"));
	n = evspec_suggest("task-clok", NULL, out, 1);
	assert_int_equal(n, 1);
	assert_string_equal(out[0], "task-clock");
	/* nothing close: nothing at all, rather than noise */
	assert_int_equal(evspec_suggest("xqzwvjk", NULL, out, 5), 0);
	assert_int_equal(evspec_suggest("cyles", NULL, out, 0), 0);
	/* sysfs aliases, as pmu/alias/, by their alias or whole */
	n = evspec_suggest("mem-load", s, out, 5);
	assert_true(has(out, n, "cpu/mem-loads/"));
	n = evspec_suggest("cpu/mem-lods/", s, out, 5);
	assert_true(has(out, n, "cpu/mem-loads/"));
	assert_false(has(out, n, "cycles"));
	pmu_set_free(s);
}

struct cat {
	const struct pmu_set *pmus;
	unsigned n, bad;
	bool cycles, alias, task_clock, llc, mem_loads;
};

static int cat_cb(void *ctx, const char *pmu, const char *name, const char *desc)
{
	struct cat *c = ctx;
	struct evdesc d;
	struct evspec_err err;

	c->n++;
	assert_non_null(desc);
	/* everything listed must parse */
	if (evspec_parse_one(name, c->pmus, &d, &err) != 0) {
		print_error("catalogue name %s does not parse\n", name);
		c->bad++;
	}
	c->cycles |= strcmp(pmu, "generic") == 0 && strcmp(name, "cpu-cycles") == 0;
	c->alias |= strcmp(name, "cycles") == 0;
	c->task_clock |= strcmp(pmu, "software") == 0 && strcmp(name, "task-clock") == 0;
	c->llc |= strcmp(pmu, "generic") == 0 && strcmp(name, "LLC-load-misses") == 0;
	c->mem_loads |= strcmp(pmu, "cpu") == 0 && strcmp(name, "cpu/mem-loads/") == 0 &&
			strcmp(desc, "event=0xcd,umask=0x1,ldlat=3") == 0;
	return 0;
}

static int stop_cb(void *ctx, const char *pmu, const char *name, const char *desc)
{
	(void)pmu;
	(void)name;
	(void)desc;
	++*(unsigned *)ctx;
	return 7;
}

static void test_catalogue(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	struct cat c = {.pmus = s};
	unsigned calls = 0, all;
	(void)state;

	assert_int_equal(evspec_catalogue(s, NULL, cat_cb, &c), 0);
	assert_int_equal(c.bad, 0);
	assert_true(c.cycles && c.task_clock && c.llc && c.mem_loads);
	assert_false(c.alias); /* one line per event: perf's second spellings are not listed */
	all = c.n;
	/* 10 hardware + 11 software + 32 cache + 12 cpu + 3 msr + 1 power */
	assert_int_equal(all, 10 + 11 + 32 + 12 + 3 + 1);

	memset(&c, 0, sizeof(c));
	c.pmus = s;
	assert_int_equal(evspec_catalogue(s, "software", cat_cb, &c), 0);
	assert_int_equal(c.n, 11);
	assert_true(c.task_clock && !c.cycles);

	memset(&c, 0, sizeof(c));
	c.pmus = s;
	assert_int_equal(evspec_catalogue(s, "msr", cat_cb, &c), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(evspec_catalogue(s, "nosuchpmu", stop_cb, &calls), 0);
	assert_int_equal(calls, 0);

	assert_int_equal(evspec_catalogue(s, "", stop_cb, &calls), 7);
	assert_int_equal(calls, 1);
	pmu_set_free(s);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_group_modifiers),
		cmocka_unit_test(test_group_limits),
		cmocka_unit_test(test_sysfs_x86),
		cmocka_unit_test(test_sysfs_arm64_hybrid),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_unchanged_on_error),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_catalogue),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
