/* libpfm4 encoding made deterministic with LIBPFM_FORCE_PMU. libpfm4 reads the variable
 * once, at its first initialisation, so every forced PMU is tried in a child process of
 * its own; the child only collects results and the parent asserts on them.
 *
 * A distribution's libpfm4 holds the tables of its own architecture only: arm_ac57 exists
 * in an arm64 build (the emulated-PMU lane), skl in an x86 one. A test whose PMU is not
 * compiled in is skipped, never passed. */
#include "evspec.h"

#include "pmu.h"
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXEV 4
#define NOSYSFS "/nonexistent/sysfs" /* no sysfs PMUs: only libpfm4's */

struct result {
	int known; /* the forced PMU is compiled into this libpfm4 */
	int present;
	int type; /* its sysfs type once merged into a sysfs core PMU, else -1 */
	int nr_counters;
	int nr_fixed;
	int rc; /* evspec_parse */
	struct evspec_err err;
	unsigned n; /* members of the first group */
	struct evdesc ev[MAXEV];
	unsigned listed; /* catalogue entries under the forced PMU */
	int listed_inst; /* ... including <pmu>::INST_RETIRED */
	unsigned nsug;
	char sug[4][EV_NAME_MAX];
};

struct listing {
	const char *want;
	struct result *r;
};

static int list_cb(void *ctx, const char *pmu, const char *name, const char *desc)
{
	struct listing *l = ctx;

	(void)pmu;
	(void)desc;
	l->r->listed++;
	l->r->listed_inst |= strcmp(name, l->want) == 0;
	return 0;
}

/* In the child: force, load root (a fixture, or none), parse spec, list, suggest. */
static void child(const char *force, const char *root, const char *spec, const char *suggest,
		  struct result *r)
{
	struct evspec_list l = {0};
	struct pmu_set *s;
	struct pmu_info pi;
	char want[64];
	int i;

	setenv("LIBPFM_FORCE_PMU", force, 1);
	s = pmu_set_new(root ? testutil_path(root) : NOSYSFS, true);
	if (!s)
		return;
	i = pmu_set_find(s, force);
	if (i >= 0 && pmu_set_info(s, (unsigned)i, &pi) == 0) {
		r->known = 1;
		r->present = pi.present;
		r->type = pi.type;
		r->nr_counters = pi.nr_counters;
		r->nr_fixed = pi.nr_fixed;
	}
	r->rc = evspec_parse(spec, s, &l, &r->err);
	if (r->rc == 0) {
		r->n = l.g[0].n < MAXEV ? l.g[0].n : MAXEV;
		memcpy(r->ev, l.g[0].ev, r->n * sizeof(r->ev[0]));
	}
	evspec_list_free(&l);
	snprintf(want, sizeof(want), "%s::INST_RETIRED", force);
	evspec_catalogue(s, force, list_cb, &(struct listing){.want = want, .r = r});
	if (suggest)
		r->nsug = evspec_suggest(suggest, s, r->sug, 4);
	pmu_set_free(s);
}

static void run(const char *force, const char *root, const char *spec, const char *suggest,
		struct result *r)
{
	int fd[2], st;
	size_t got = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		child(force, root, spec, suggest, r);
		_exit(write(fd[1], r, sizeof(*r)) == (ssize_t)sizeof(*r) ? 0 : 1);
	}
	close(fd[1]);
	while (got < sizeof(*r)) {
		ssize_t n = read(fd[0], (char *)r + got, sizeof(*r) - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(got, sizeof(*r));
}

/* Run, and skip when this libpfm4 does not have the PMU. */
static void run_or_skip(const char *force, const char *root, const char *spec, const char *suggest,
			struct result *r)
{
	run(force, root, spec, suggest, r);
	if (!r->known)
		skip();
	assert_true(r->present); /* forcing makes it present */
	if (r->rc != 0)
		print_error("%s: %d at %zu (%s)\n", spec, r->rc, r->err.pos, r->err.token);
}

static void raw(const struct evdesc *d, uint64_t config)
{
	assert_int_equal(d->attr.type, PERF_TYPE_RAW);
	assert_int_equal(d->attr.config, config);
	assert_int_equal(d->attr.size, sizeof(struct perf_event_attr));
}

static void test_arm_ac57(void **state)
{
	struct result r;
	(void)state;

	run_or_skip("arm_ac57", NULL, "arm_ac57::INST_RETIRED,arm_ac57::CPU_CYCLES", NULL, &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0x08);
	assert_string_equal(r.ev[0].name, "arm_ac57::INST_RETIRED");
	/* user and kernel by default: PFM_PLM3 alone would have set exclude_kernel */
	assert_int_equal(r.ev[0].attr.exclude_kernel, 0);
	assert_int_equal(r.ev[0].attr.exclude_user, 0);
	assert_false(r.ev[0].explicit_plm);
	assert_true(r.listed > 50);
	assert_true(r.listed_inst);

	run("arm_ac57", NULL, "arm_ac57::CPU_CYCLES", NULL, &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0x11);

	run("arm_ac57", NULL, "arm_ac57::INST_RETIRED:u", NULL, &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0x08);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 1);
	assert_int_equal(r.ev[0].attr.exclude_user, 0);
	assert_true(r.ev[0].explicit_plm);

	run("arm_ac57", NULL, "arm_ac57::INST_RETIRED:u=1", NULL, &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 1);
	assert_true(r.ev[0].explicit_plm);

	/* a bare name goes to the PMU libpfm4 found present, as on the real machine */
	run("arm_ac57", NULL, "INST_RETIRED", "INST_RETIRD", &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0x08);
	assert_true(r.nsug >= 1);
	assert_string_equal(r.sug[0], "arm_ac57::INST_RETIRED");
}

static void test_skl(void **state)
{
	struct result r;
	(void)state;

	run_or_skip("skl", NULL, "skl::INST_RETIRED,skl::UNHALTED_CORE_CYCLES", NULL, &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0xc0);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 0);
	assert_int_equal(r.ev[0].attr.exclude_user, 0);
	assert_false(r.ev[0].explicit_plm);
	assert_false(r.ev[0].software);
	assert_true(r.nr_counters >= 4);
	assert_int_equal(r.nr_fixed, 3);
	assert_true(r.listed > 50);
	assert_true(r.listed_inst);

	run("skl", NULL, "skl::UNHALTED_CORE_CYCLES", NULL, &r);
	raw(&r.ev[0], 0x3c);

	run("skl", NULL, "skl::INST_RETIRED:u", NULL, &r);
	raw(&r.ev[0], 0xc0);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 1);
	assert_int_equal(r.ev[0].attr.exclude_user, 0);
	assert_true(r.ev[0].explicit_plm);

	run("skl", NULL, "skl::INST_RETIRED:k=1:u=0", NULL, &r);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 0);
	assert_int_equal(r.ev[0].attr.exclude_user, 1);
	assert_true(r.ev[0].explicit_plm);

	/* unit mask, cmask and edge through libpfm4's own modifiers */
	run("skl", NULL, "skl::INST_RETIRED:ANY_P:c=2:e", NULL, &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0x020400c0);

	run("skl", NULL, "INST_RETIRED", "INST_RETIRD", &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0xc0);
	assert_true(r.nsug >= 1);
	assert_string_equal(r.sug[0], "skl::INST_RETIRED");
}

static void test_skl_groups_and_errors(void **state)
{
	struct result r;
	(void)state;

	/* a group modifier reaches libpfm4 events too, and shows in their names */
	run_or_skip("skl", NULL, "{skl::INST_RETIRED,cycles}:u", NULL, &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.ev[0].name, "skl::INST_RETIRED:u");
	assert_int_equal(r.ev[0].attr.exclude_kernel, 1);
	assert_true(r.ev[0].explicit_plm);
	assert_string_equal(r.ev[1].name, "cycles:u");

	run("skl", NULL, "skl::NO_SUCH_EVENT", NULL, &r);
	assert_int_equal(r.rc, -ENOENT);
	assert_string_equal(r.err.token, "skl::NO_SUCH_EVENT");
	run("skl", NULL, "cycles,skl::INST_RETIRED:NO_SUCH_UMASK", NULL, &r);
	assert_int_equal(r.rc, -EINVAL);
	assert_int_equal(r.err.pos, 7);
	/* forcing one PMU hides the others */
	run("skl", NULL, "hsw::INST_RETIRED", NULL, &r);
	assert_int_equal(r.rc, -ENOENT);
	run("skl", NULL, "nosuchevent", NULL, &r);
	assert_int_equal(r.rc, -ENOENT);
	assert_string_equal(r.err.token, "nosuchevent");
}

/* On the arm64 fixture: the one sysfs core PMU takes libpfm4's name, a bare name that
 * is a sysfs alias stays a sysfs event, and libpfm4's own modifiers still reach libpfm4. */
static void test_arm_ac57_with_sysfs(void **state)
{
	struct result r;
	(void)state;

	run_or_skip("arm_ac57", "fixtures/sysfs-arm64", "inst_retired:u,INST_RETIRED:u=1", NULL,
		    &r);
	assert_int_equal(r.type, 8); /* arm_ac57 is armv8_pmuv3 */
	assert_int_equal(r.rc, 0);
	run("arm_ac57", "fixtures/sysfs-arm64", "inst_retired:u", NULL, &r);
	assert_int_equal(r.ev[0].attr.type, 8);
	assert_int_equal(r.ev[0].attr.config, 0x08);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 1);
	run("arm_ac57", "fixtures/sysfs-arm64", "INST_RETIRED:u=1", NULL, &r);
	assert_int_equal(r.rc, 0);
	raw(&r.ev[0], 0x08);
	assert_int_equal(r.ev[0].attr.exclude_kernel, 1);
	assert_true(r.ev[0].explicit_plm);
	run("arm_ac57", "fixtures/sysfs-arm64", "L1D_CACHE_REFILL", NULL, &r);
	raw(&r.ev[0], 0x03);
}

static void test_skl_with_sysfs(void **state)
{
	struct result r;
	(void)state;

	run_or_skip("skl", "fixtures/sysfs-x86", "cpu/mem-loads/,skl::INST_RETIRED", NULL, &r);
	assert_int_equal(r.type, 4); /* skl is the sysfs "cpu" */
	assert_int_equal(r.rc, 0);
	run("skl", "fixtures/sysfs-x86", "{cpu/event=0x3c/,skl::UNHALTED_CORE_CYCLES,cycles}", NULL,
	    &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.ev[0].attr.type, 4);
	raw(&r.ev[1], 0x3c);
	assert_int_equal(r.ev[2].attr.type, PERF_TYPE_HARDWARE);
	/* a generic name with a modifier only libpfm4 has: perf's modifier error stands */
	run("skl", "fixtures/sysfs-x86", "instructions:u=1", NULL, &r);
	assert_int_equal(r.rc, -EINVAL);
	assert_int_equal(r.err.pos, 14); /* the "=" */
	/* the catalogue names the merged PMU's libpfm4 events after libpfm4 */
	run("skl", "fixtures/sysfs-x86", "cycles", NULL, &r);
	assert_true(r.listed_inst);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm_ac57),
		cmocka_unit_test(test_skl),
		cmocka_unit_test(test_skl_groups_and_errors),
		cmocka_unit_test(test_arm_ac57_with_sysfs),
		cmocka_unit_test(test_skl_with_sysfs),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
