/* Hybrid CPUs on a fixture sysfs tree (cpu_core type 4, cpu_atom type 10): generic
 * events are copied per core PMU with the type in config bits 32-63, and a logical event
 * sums the copies per target. */
#include "testutil.h"

#include <math.h>
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

/* {cycles,instructions} on the hybrid fixture: the logical cycles and their instances. */
static struct pmu_set *cycles_set(struct evset *s, int *cyc, int *core, int *atom)
{
	struct pmu_set *p = fixture("fixtures/sysfs-hybrid");
	struct evspec_err err;
	assert_int_equal(evset_parse(s, "{cycles,instructions}", p, &err), 0);
	*cyc = find(s, "cycles");
	*core = find(s, "cycles[cpu_core]");
	*atom = find(s, "cycles[cpu_atom]");
	assert_true(*cyc >= 0 && *core >= 0 && *atom >= 0);
	return p;
}

/* The cycles set on the hybrid fixture (its pmu_set returned, to free), no deltas yet
 * in d, every event openable in why (16 each). */
static struct pmu_set *fold_set(struct evset *s, int *cyc, int *core, int *atom,
				struct val_delta *d, uint8_t *why)
{
	struct pmu_set *p = cycles_set(s, cyc, core, atom);
	memset(d, 0, 16 * sizeof(*d));
	memset(why, WHY_NONE, 16);
	return p;
}

static void test_fold_sums_instances(void **state)
{
	(void)state;
	struct evset s;
	int cyc, core, atom;
	struct val_delta d[16];
	uint8_t why[16];
	struct pmu_set *p = fold_set(&s, &cyc, &core, &atom, d, why);

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

/* The row's values as rowfill writes them from the deltas (each instance scaled by its
 * own times, a failed one missing), then the logical events' sums of hybrid_fold_percpu. */
static struct val fold_percpu(const struct evset *s, struct val_delta *d, uint8_t *why, int ev)
{
	struct val v[16];
	for (unsigned i = 0; i < s->nevents; i++)
		v[i] = why[i] == WHY_NONE ? val_scale(d[i])
					  : val_missing(VAL_NA, (enum val_why)why[i]);
	hybrid_fold_percpu(s->events, s->nevents, d, why, v);
	return v[ev];
}

/* The bpf backend's deltas: each instance is read from per-CPU counters over the task's
 * slices, and a cpu_core counter is open only on cpu_core CPUs, so its enabled time is the
 * task's time on big cores and its running time the part of it counted there. A task of
 * 1000 ns, 430 on big cores and 570 on small ones. */
static void test_fold_percpu(void **state)
{
	(void)state;
	struct evset s;
	int cyc, core, atom;
	struct val_delta d[16];
	uint8_t why[16];
	struct pmu_set *p = fold_set(&s, &cyc, &core, &atom, d, why);

	/* Counted all the time on both: the sum is exact. */
	d[core] = (struct val_delta){.ena = 430, .run = 430, .val = 4300};
	d[atom] = (struct val_delta){.ena = 570, .run = 570, .val = 2850};
	struct val v = fold_percpu(&s, d, why, cyc);
	assert_true(d[cyc].ena == 1000 && d[cyc].run == 1000);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 7150);

	/* Multiplexed on big cores: counted 215 of their 430 ns, 2150 there, so 4300 by
	 * their own estimate; the small cores counted 2850 exactly. The sum is the sum of
	 * the estimates, 7150, scaled, RUN% the share of the task's time counted, 785 of
	 * 1000 ns. Scaling the summed count as one (5000 * 1000 / 785 = 6369) would stretch
	 * the exact small-core part too; hybrid_fold's longest enabled time (570) would
	 * call it exact, 215 ns of big-core counts missing. */
	d[core] = (struct val_delta){.ena = 430, .run = 215, .val = 2150};
	d[atom] = (struct val_delta){.ena = 570, .run = 570, .val = 2850};
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 785);
	if (fabs(v.v - 7150) > 1e-6)
		fail_msg("sum %.3f, per-instance estimates 7150", v.v);
	hybrid_fold(s.events, s.nevents, d, why);
	assert_int_equal(val_scale(d[cyc]).state, VAL_EXACT); /* the wrong reading */

	/* Multiplexed on both, half the time each: 4300 + 2850, RUN% 50. */
	d[core] = (struct val_delta){.ena = 430, .run = 215, .val = 2150};
	d[atom] = (struct val_delta){.ena = 570, .run = 285, .val = 1425};
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 500);
	assert_true(fabs(v.v - 7150) < 1e-6);

	/* All on small cores: the big-core instance was never enabled; the sum is the
	 * small cores' count, exact. */
	d[core] = (struct val_delta){0, 0, 0};
	d[atom] = (struct val_delta){.ena = 1000, .run = 1000, .val = 5000};
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 5000);

	/* The big-core instance enabled but never counted: what the small cores counted is a
	 * lower bound, RUN% the 570 of 1000 ns counted; never exact. */
	d[core] = (struct val_delta){.ena = 430, .run = 0, .val = 0};
	d[atom] = (struct val_delta){.ena = 570, .run = 570, .val = 2850};
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_PARTIAL);
	assert_int_equal(v.run_pm, 570);
	assert_true(v.v == 2850);

	/* The small-core instance failed to open (why set): partial too, with its reason. */
	d[core] = (struct val_delta){.ena = 430, .run = 430, .val = 4300};
	d[atom] = (struct val_delta){0, 0, 0};
	why[atom] = WHY_NOPERM;
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_PARTIAL);
	assert_int_equal(v.why, WHY_NOPERM);
	assert_true(v.v == 4300);

	/* None counted: n/c (one enabled and never run), n/a when both failed. */
	d[core] = (struct val_delta){.ena = 430, .run = 0, .val = 0};
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_NC);
	why[core] = WHY_NOPERM;
	v = fold_percpu(&s, d, why, cyc);
	assert_int_equal(v.state, VAL_NA);
	assert_int_equal(v.why, WHY_NOPERM);
	evset_free(&s);
	pmu_set_free(p);
}

/* The bpf backend marks an instance whose count holds switch windows (WHY_SWITCH, not
 * multiplexed: run_pm its own share of its enabled time): the sum keeps the mark, with
 * the windows' share of the task's whole time, and is not called multiplexed. */
static void test_fold_switch_window(void **state)
{
	(void)state;
	struct evset s;
	int cyc, core, atom;
	struct val_delta d[16];
	uint8_t why[16];
	struct val v[16];
	struct pmu_set *p = fold_set(&s, &cyc, &core, &atom, d, why);
	/* 400 of 1000 ns on big cores, 20 of them switch windows; 600 on small ones, none. */
	d[core] = (struct val_delta){.ena = 400, .run = 400, .val = 4000};
	d[atom] = (struct val_delta){.ena = 600, .run = 600, .val = 3000};
	for (unsigned i = 0; i < s.nevents; i++)
		v[i] = val_scale(d[i]);
	v[core] = (struct val){.v = 4000, .state = VAL_SCALED, .why = WHY_SWITCH, .run_pm = 950};
	hybrid_fold_percpu(s.events, s.nevents, d, why, v);
	assert_int_equal(v[cyc].state, VAL_SCALED);
	assert_int_equal(v[cyc].why, WHY_SWITCH);
	assert_int_equal(v[cyc].run_pm, 980); /* 20 of 1000 ns */
	assert_true(v[cyc].v == 7000);	      /* unscaled */
	/* 5 ns of windows: 0.5% of the task's time, exact. */
	for (unsigned i = 0; i < s.nevents; i++)
		v[i] = val_scale(d[i]);
	v[core] = (struct val){.v = 4000, .state = VAL_SCALED, .why = WHY_SWITCH, .run_pm = 987};
	hybrid_fold_percpu(s.events, s.nevents, d, why, v);
	assert_int_equal(v[cyc].state, VAL_EXACT);
	evset_free(&s);
	pmu_set_free(p);
}

/* Each group's core type: its PMU's, the copies' their own, software none. */
static void test_group_cores(void **state)
{
	(void)state;
	struct pmu_set *p = fixture("fixtures/sysfs-hybrid");
	struct evset s;
	struct evspec_err err;
	assert_int_equal(evset_parse(&s,
				     "{cpu_core/topdown-retiring/,cpu_core/cpu-cycles/},"
				     "{cycles,instructions},task-clock,cpu_atom/cpu-cycles/",
				     p, &err),
			 0);
	assert_non_null(s.core);
	int td = find(&s, "cpu_core/topdown-retiring/");
	int core = find(&s, "cycles[cpu_core]"), atom = find(&s, "cycles[cpu_atom]");
	int tc = find(&s, "task-clock"), ac = find(&s, "cpu_atom/cpu-cycles/");
	assert_true(td >= 0 && core >= 0 && atom >= 0 && tc >= 0 && ac >= 0);
	int kc = s.core[s.events[td].group];
	assert_true(kc >= 0);
	assert_int_equal(s.core[s.events[core].group], kc);
	assert_true(s.core[s.events[atom].group] >= 0);
	assert_int_not_equal(s.core[s.events[atom].group], kc);
	assert_int_equal(s.core[s.events[ac].group], s.core[s.events[atom].group]);
	assert_int_equal(s.core[s.events[tc].group], -1);
	evset_free(&s);
	pmu_set_free(p);

	/* One core PMU: no residency to account for. */
	struct pmu_set *x = fixture("fixtures/sysfs-x86");
	assert_int_equal(evset_default(&s, x, &err), 0);
	assert_null(s.core);
	evset_free(&s);
	pmu_set_free(x);
}

/* The value of event ev scaled by its group's time on its kind of core. */
static struct val scaled(const struct evset *s, const struct val_delta *d, const uint8_t *why,
			 int ev)
{
	uint64_t ena[16];
	hybrid_residency(s->groups, s->core, s->specs.n, d, why, ena);
	struct val_delta x = d[ev];
	x.ena = ena[s->events[ev].group];
	return val_scale(x);
}

/* A task on a hybrid CPU 1000 ns: 430 on big cores, 570 on small ones. A cpu_core group
 * runs 43% of the time it is enabled: residency, not multiplexing, so it is exact. */
static void test_residency_is_not_multiplexing(void **state)
{
	(void)state;
	struct pmu_set *p = fixture("fixtures/sysfs-hybrid");
	struct evset s;
	struct evspec_err err;
	assert_int_equal(evset_parse(&s,
				     "{cpu_core/topdown-retiring/,cpu_core/cpu-cycles/},"
				     "{cycles,instructions},task-clock",
				     p, &err),
			 0);
	int td = find(&s, "cpu_core/topdown-retiring/"), tcyc = find(&s, "cpu_core/cpu-cycles/");
	int core = find(&s, "cycles[cpu_core]"), atom = find(&s, "cycles[cpu_atom]");
	int ci = find(&s, "instructions[cpu_core]"), ai = find(&s, "instructions[cpu_atom]");
	int tc = find(&s, "task-clock");
	assert_true(td >= 0 && tcyc >= 0 && core >= 0 && atom >= 0 && ci >= 0 && ai >= 0 &&
		    tc >= 0);
	struct val_delta d[16];
	uint8_t why[16];
	assert_true(s.nevents <= 16);
	memset(d, 0, sizeof(d));
	memset(why, WHY_NONE, sizeof(why));
	d[td] = d[tcyc] = (struct val_delta){.ena = 1000, .run = 430, .val = 4300};
	d[core] = d[ci] = (struct val_delta){.ena = 1000, .run = 430, .val = 2150};
	d[atom] = d[ai] = (struct val_delta){.ena = 1000, .run = 570, .val = 1140};
	d[tc] = (struct val_delta){.ena = 1000, .run = 1000, .val = 1000};

	struct val v = scaled(&s, d, why, td);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 4300);
	assert_int_equal(scaled(&s, d, why, core).state, VAL_EXACT);
	v = scaled(&s, d, why, atom);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 1140);
	/* Software events run whenever the task does: left alone. */
	assert_int_equal(scaled(&s, d, why, tc).state, VAL_EXACT);
	/* As any group's time would be: 43% of it, extrapolated. */
	assert_int_equal(val_scale(d[td]).state, VAL_SCALED);

	/* Multiplexed on the big cores as well: half of its 430 ns there, scaled by 2. */
	d[td] = d[tcyc] = (struct val_delta){.ena = 1000, .run = 215, .val = 2150};
	v = scaled(&s, d, why, td);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 500);
	assert_true(v.v == 4300);

	/* Nothing counted on the small cores: the time there is unknown, and the group is
	 * scaled by all of the task's time, as before. */
	why[atom] = why[ai] = WHY_UNSUPPORTED;
	d[td] = d[tcyc] = (struct val_delta){.ena = 1000, .run = 430, .val = 4300};
	v = scaled(&s, d, why, td);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 430);

	/* All of it on the small cores: nothing to count on the big ones, an exact 0. */
	why[atom] = why[ai] = WHY_NONE;
	d[atom] = d[ai] = (struct val_delta){.ena = 1000, .run = 1000, .val = 2000};
	d[td] = d[tcyc] = d[core] = d[ci] = (struct val_delta){.ena = 1000, .run = 0, .val = 0};
	v = scaled(&s, d, why, td);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 0);

	/* The small cores' group multiplexed (ran 400 of 570 ns): the big cores' time
	 * is known no better than 600, and a group that ran 430 of it is scaled. */
	d[atom] = d[ai] = (struct val_delta){.ena = 1000, .run = 400, .val = 800};
	d[td] = d[tcyc] = (struct val_delta){.ena = 1000, .run = 430, .val = 4300};
	d[core] = d[ci] = (struct val_delta){.ena = 1000, .run = 430, .val = 2150};
	v = scaled(&s, d, why, td);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 717);
	evset_free(&s);
	pmu_set_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_set_is_copied_per_core_pmu),
		cmocka_unit_test(test_explicit_pmu_and_single_core_pmu_are_left_alone),
		cmocka_unit_test(test_fold_sums_instances),
		cmocka_unit_test(test_fold_percpu),
		cmocka_unit_test(test_fold_switch_window),
		cmocka_unit_test(test_group_cores),
		cmocka_unit_test(test_residency_is_not_multiplexing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
