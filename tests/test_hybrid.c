/* Hybrid CPUs on a fixture sysfs tree (cpu_core type 4, cpu_atom type 10): generic
 * events are copied per core PMU with the type in config bits 32-63, and a logical event
 * sums the copies per target. */
#include "testutil.h"

#include <string.h>

#include "evset.h"
#include "hybrid.h"
#include "pmu.h"

static struct pmu_set *fixture(const char *name)
{
	struct pmu_set *p = pmu_set_new(testutil_path(name), false);
	assert_non_null(p);
	return p;
}

static int find(const struct evset *s, const char *name)
{
	for (unsigned i = 0; i < s->nevents; i++)
		if (strcmp(s->events[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int role(const struct evset *s, enum ev_role r)
{
	for (unsigned i = 0; i < s->nevents; i++)
		if (s->events[i].role == r)
			return (int)i;
	return -1;
}

static const struct evdesc *desc(const struct evset *s, int ev)
{
	return &s->specs.g[s->events[ev].group].ev[s->events[ev].member];
}

static void test_default_set_is_copied_per_core_pmu(void **state)
{
	(void)state;
	struct pmu_set *p = fixture("fixtures/sysfs-hybrid");
	struct evset s;
	struct evspec_err err;
	assert_int_equal(evset_default(&s, p, &err), 0);
	/* software, then IPC, cache and branch groups twice each */
	assert_int_equal(s.specs.n, 7);
	int core = find(&s, "cycles[cpu_core]"), atom = find(&s, "cycles[cpu_atom]");
	assert_true(core >= 0 && atom >= 0);
	assert_int_equal(desc(&s, core)->attr.config, PERF_COUNT_HW_CPU_CYCLES | (4ULL << 32));
	assert_int_equal(desc(&s, atom)->attr.config, PERF_COUNT_HW_CPU_CYCLES | (10ULL << 32));
	assert_int_not_equal(s.events[core].group, s.events[atom].group);
	/* Software events are not copied. */
	assert_int_equal(find(&s, "task-clock[cpu_atom]"), -1);
	assert_true(find(&s, "task-clock") >= 0);

	/* The roles are on the logical sums, so built-in columns read both kinds of core. */
	int cyc = role(&s, ROLE_CYCLES), ins = role(&s, ROLE_INSNS);
	assert_true(cyc >= 0 && ins >= 0);
	assert_true(s.events[cyc].logical);
	assert_string_equal(s.events[cyc].name, "cycles");
	assert_int_equal(s.events[cyc].nsum, 2);
	assert_int_equal(s.events[cyc].sum[0], (unsigned)core);
	assert_int_equal(s.events[cyc].sum[1], (unsigned)atom);
	assert_int_equal(s.events[ins].group, s.events[cyc].group);
	assert_true(s.events[role(&s, ROLE_CACHE_MISSES)].logical);
	/* Keys stay unique across instances and sums. */
	for (unsigned i = 0; i < s.nevents; i++)
		for (unsigned j = i + 1; j < s.nevents; j++)
			assert_string_not_equal(s.events[i].key, s.events[j].key);
	evset_free(&s);
	pmu_set_free(p);
}

static void test_explicit_pmu_and_single_core_pmu_are_left_alone(void **state)
{
	(void)state;
	struct evspec_err err;
	struct evset s;
	struct pmu_set *h = fixture("fixtures/sysfs-hybrid");
	assert_int_equal(evset_parse(&s, "cpu_atom/cpu-cycles/,task-clock", h, &err), 0);
	assert_int_equal(s.specs.n, 2);
	for (unsigned i = 0; i < s.nevents; i++)
		assert_false(s.events[i].logical);
	evset_free(&s);
	pmu_set_free(h);

	struct pmu_set *x = fixture("fixtures/sysfs-x86");
	assert_int_equal(evset_default(&s, x, &err), 0);
	assert_int_equal(s.specs.n, 4);
	assert_true(find(&s, "cycles") >= 0);
	assert_int_equal(desc(&s, find(&s, "cycles"))->attr.config, PERF_COUNT_HW_CPU_CYCLES);
	evset_free(&s);
	pmu_set_free(x);
}

static void test_fold_sums_instances(void **state)
{
	(void)state;
	struct pmu_set *p = fixture("fixtures/sysfs-hybrid");
	struct evset s;
	struct evspec_err err;
	assert_int_equal(evset_parse(&s, "{cycles,instructions}", p, &err), 0);
	int cyc = find(&s, "cycles");
	int core = find(&s, "cycles[cpu_core]"), atom = find(&s, "cycles[cpu_atom]");
	assert_true(cyc >= 0 && core >= 0 && atom >= 0);
	struct val_delta d[16];
	uint8_t why[16];
	memset(d, 0, sizeof(d));
	memset(why, WHY_NONE, sizeof(why));

	/* A task that ran 100 ns: 70 on a big core, 30 on a small one, no multiplexing. */
	d[core] = (struct val_delta){.ena = 100, .run = 70, .val = 700};
	d[atom] = (struct val_delta){.ena = 100, .run = 30, .val = 300};
	hybrid_fold(s.events, s.nevents, d, why);
	struct val v = val_scale(d[cyc]);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 1000);

	/* Multiplexed on the big core: counted 35 of its 70 ns; the sum is scaled, and
	 * says by how much. */
	d[core] = (struct val_delta){.ena = 100, .run = 35, .val = 350};
	hybrid_fold(s.events, s.nevents, d, why);
	v = val_scale(d[cyc]);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 650);

	/* A CPU of one kind cannot open the other's PMU: the sum is the one that counts. */
	why[atom] = WHY_UNSUPPORTED;
	d[core] = (struct val_delta){.ena = 100, .run = 100, .val = 5000};
	hybrid_fold(s.events, s.nevents, d, why);
	assert_int_equal(why[cyc], WHY_NONE);
	assert_true(val_scale(d[cyc]).v == 5000);

	/* Neither counts: the sum is missing, with the reason. */
	why[core] = WHY_NOPERM;
	why[atom] = WHY_NOPERM;
	hybrid_fold(s.events, s.nevents, d, why);
	assert_int_equal(why[cyc], WHY_NOPERM);
	evset_free(&s);
	pmu_set_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_set_is_copied_per_core_pmu),
		cmocka_unit_test(test_explicit_pmu_and_single_core_pmu_are_left_alone),
		cmocka_unit_test(test_fold_sums_instances),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
