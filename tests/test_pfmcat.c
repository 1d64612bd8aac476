/* libpfm4 events in the catalogue, in pmutop --list and in parse errors, made
 * deterministic with LIBPFM_FORCE_PMU: umasks and modifiers per event, a PMU libpfm4
 * detects but the kernel lacks, and errors that say why (a missing umask, an absent PMU)
 * instead of "cannot parse" or suggesting the input itself.
 *
 * libpfm4 reads LIBPFM_FORCE_PMU once per process: each case runs in a child, which
 * reports the first failed check through a pipe. A PMU this libpfm4 does not have (an
 * arm64 build has no amd64 tables) is skipped, never passed. */
#include "catalog.h"
#include "evspec.h"
#include "listing.h"
#include "pmu.h"
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ZEN3 "amd64_fam19h_zen3"
#define NOSYSFS "/nonexistent/sysfs" /* no sysfs PMUs: the kernel has no core PMU */
#define SKIP_MSG "skip"

static char msg[512];

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			snprintf(msg, sizeof(msg), "line %d: %s", __LINE__, #cond);                \
			return;                                                                    \
		}                                                                                  \
	} while (0)

typedef void (*child_fn)(struct pmu_set *s);

/* Run fn in a child with force set and pmus loaded from root; fail with its message. */
static void run(const char *force, const char *root, child_fn fn)
{
	char got[sizeof(msg)] = "";
	int fd[2], st;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		setenv("LIBPFM_FORCE_PMU", force, 1);
		struct pmu_set *s = pmu_set_new(root, true);
		struct pmu_info pi;
		int i = s ? pmu_set_find(s, force) : -1;
		if (!s)
			snprintf(msg, sizeof(msg), "pmu_set_new failed");
		else if (i < 0 || pmu_set_info(s, (unsigned)i, &pi) < 0)
			snprintf(msg, sizeof(msg), SKIP_MSG);
		else
			fn(s);
		pmu_set_free(s);
		_exit(write(fd[1], msg, strlen(msg)) < 0);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], got, sizeof(got) - 1);
	close(fd[0]);
	got[n > 0 ? n : 0] = '\0';
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (strcmp(got, SKIP_MSG) == 0)
		skip();
	if (*got)
		fail_msg("%s", got);
}

static const struct catalog_event *find_event(const struct catalog *c, const char *name)
{
	for (unsigned i = 0; i < catalog_nevents(c); i++)
		if (strcmp(catalog_event(c, i)->name, name) == 0)
			return catalog_event(c, i);
	return NULL;
}

static const struct catalog_attr *find_attr(const struct catalog_event *e, const char *name)
{
	for (unsigned i = 0; e && i < e->nattr; i++)
		if (strcmp(e->attr[i].name, name) == 0)
			return &e->attr[i];
	return NULL;
}

/* LS_DISPATCH has three umasks (no default) and the AMD modifiers; INST_RETIRED's
 * umask of skl is its default. */
static void child_attrs(struct pmu_set *s)
{
	struct catalog *c = catalog_new(s);
	CHECK(c);
	const struct catalog_event *e = find_event(c, ZEN3 "::LS_DISPATCH");
	CHECK(e);
	CHECK(e->numask == 3);
	const struct catalog_attr *a = find_attr(e, "LD_DISPATCH");
	CHECK(a && a->umask && !a->dfl && strcmp(a->desc, "Load ops dispatched") == 0);
	CHECK(a - e->attr < (long)e->numask); /* umasks first */
	a = find_attr(e, "u");
	CHECK(a && !a->umask && !a->value);
	a = find_attr(e, "c");
	CHECK(a && !a->umask && a->value);
	CHECK(!find_attr(e, "period")); /* sampling only: pmutop counts */
	/* the search reaches umask descriptions */
	unsigned hits[4096];
	size_t n = catalog_search(c, -1, "load ops dispatched", hits, 4096);
	bool found = false;
	for (size_t i = 0; i < n; i++)
		found |= catalog_event(c, hits[i]) == e;
	CHECK(found);
	catalog_free(c);
}

static void child_skl_default(struct pmu_set *s)
{
	struct catalog *c = catalog_new(s);
	CHECK(c);
	const struct catalog_event *e = find_event(c, "skl::INST_RETIRED");
	CHECK(e);
	const struct catalog_attr *a = find_attr(e, "ANY_P");
	CHECK(a && a->umask && a->dfl);
	catalog_free(c);
}

static void test_attrs(void **state)
{
	(void)state;
	run(ZEN3, NOSYSFS, child_attrs);
}

static void test_attrs_default_umask(void **state)
{
	(void)state;
	run("skl", NOSYSFS, child_skl_default);
}

static char *list_to_string(const struct pmu_set *s, const char *filter, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	*rc = listing_print(f, s, filter);
	fclose(f);
	return buf;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* --list shows the catalogue of the browser: every PMU row once, each heading once, and
 * the umasks and modifiers of each libpfm4 event indented under it. The forced PMU has
 * no kernel PMU behind it here: it says so and shows no counters. */
static void child_listing(struct pmu_set *s)
{
	int rc = 1;
	struct catalog *c = catalog_new(s);
	char *all = list_to_string(s, "all", &rc);
	CHECK(c && all && rc == 0);
	CHECK(count(all, "\ngeneric:\n") == 1);
	CHECK(count(all, "\nsoftware:\n") == 1);
	/* the table: a title, then one line per catalogue row */
	const char *ev = strstr(all, "\n\n");
	CHECK(ev);
	unsigned lines = 0;
	for (const char *p = all; p <= ev; p++)
		lines += *p == '\n';
	CHECK(lines == 1 + catalog_npmus(c));
	char *one = list_to_string(s, ZEN3, &rc);
	CHECK(one && rc == 0);
	CHECK(strstr(one, "\n  " ZEN3 "::LS_DISPATCH "));
	CHECK(strstr(one, "\n      :LD_DISPATCH "));
	CHECK(strstr(one, "Load ops dispatched"));
	CHECK(strstr(one, "      modifiers: "));
	CHECK(strstr(one, " c=N"));
	const char *row = strstr(one, "\n" ZEN3 " ");
	CHECK(row);
	CHECK(strstr(row, " libpfm "));
	CHECK(strstr(row, "not in the kernel (no sysfs PMU)"));
	CHECK(!strstr(row, "6+0"));
	char *none = list_to_string(s, "no_such_pmu", &rc);
	CHECK(none && rc == -ENOENT);
	free(none);
	/* Without "all": the PMUs the kernel has, a line for the rest, their events only. */
	char *mine = list_to_string(s, NULL, &rc);
	CHECK(mine && rc == 0);
	CHECK(strstr(mine, "\nsoftware "));
	CHECK(!strstr(mine, "\n" ZEN3 " "));
	CHECK(!strstr(mine, ZEN3 "::"));
	CHECK(strstr(mine, " more that this machine does not have: pmutop --list all)\n"));
	CHECK(strstr(mine, "\n  task-clock "));
	free(mine);
	/* A glob over event names, without case. */
	char *glob = list_to_string(s, "TASK-*", &rc);
	CHECK(glob && rc == 0);
	CHECK(strstr(glob, "\n  task-clock "));
	CHECK(!strstr(glob, "page-faults"));
	CHECK(!strstr(glob, "\n" ZEN3 " "));
	free(glob);
	glob = list_to_string(s, "zzz*", &rc);
	CHECK(glob && rc == -ENOENT);
	free(glob);
	int r = catalog_find_pmu(c, ZEN3);
	CHECK(r >= 0 && catalog_pmu(c, (unsigned)r)->pfm_only);
	free(all);
	free(one);
	catalog_free(c);
}

static void test_listing(void **state)
{
	(void)state;
	run(ZEN3, NOSYSFS, child_listing);
}

/* With a sysfs core PMU, the forced one merges into cpu: countable, not pfm_only. */
static void child_with_core(struct pmu_set *s)
{
	struct catalog *c = catalog_new(s);
	CHECK(c);
	int r = catalog_find_pmu(c, ZEN3);
	CHECK(r >= 0);
	const struct catalog_pmu *p = catalog_pmu(c, (unsigned)r);
	CHECK(p->present && !p->pfm_only && p->type >= 0 && p->counters == 6);
	struct pmu_info pi;
	CHECK(pmu_set_info(s, (unsigned)pmu_set_find(s, ZEN3), &pi) == 0 && pi.in_kernel);
	catalog_free(c);
}

static void test_pfm_pmu_with_core(void **state)
{
	(void)state;
	run(ZEN3, testutil_path("fixtures/sysfs-amd"), child_with_core);
}

static void child_no_core(struct pmu_set *s)
{
	struct pmu_info pi;
	CHECK(pmu_set_info(s, (unsigned)pmu_set_find(s, ZEN3), &pi) == 0);
	CHECK(pi.present && !pi.in_kernel && pi.type < 0);
}

static void test_pfm_pmu_without_kernel(void **state)
{
	(void)state;
	run(ZEN3, NOSYSFS, child_no_core);
}

static int parse(struct pmu_set *s, const char *spec, struct evspec_err *e)
{
	struct evspec_list l = {0};
	int rc = evspec_parse(spec, s, &l, e);
	evspec_list_free(&l);
	return rc;
}

/* Errors say why: a missing umask lists them, an unknown one lists what there is, a PMU
 * libpfm4 knows but did not detect, or one the kernel has not got, is named as such. */
static void child_errors(struct pmu_set *s)
{
	struct evspec_err e;
	CHECK(parse(s, ZEN3 "::LS_DISPATCH", &e) == -EINVAL);
	CHECK(strstr(e.reason,
		     "needs a umask: one of LD_ST_DISPATCH, STORE_DISPATCH, LD_DISPATCH"));
	CHECK(parse(s, "LS_DISPATCH", &e) == -EINVAL); /* bare: the same help */
	CHECK(strstr(e.reason, "needs a umask"));
	CHECK(parse(s, ZEN3 "::LS_DISPATCH:LD_DISPATCH", &e) == 0);
	CHECK(parse(s, ZEN3 "::LS_DISPATCH:FOO", &e) == -EINVAL);
	CHECK(strstr(e.reason, "'FOO'") && strstr(e.reason, "LD_DISPATCH"));
	CHECK(parse(s, "amd64_fam17h::RETIRED_INSTRUCTIONS", &e) == -ENOENT);
	CHECK(strstr(e.reason, "PMU amd64_fam17h") && strstr(e.reason, "not on this machine"));
	CHECK(parse(s, "nosuchpmu::X", &e) == -ENOENT);
	CHECK(strstr(e.reason, "no PMU called 'nosuchpmu'"));
	CHECK(parse(s, "cpu/event=0x3c/", &e) == -ENOENT);
	CHECK(strstr(e.reason, "PMU cpu is not on this machine"));
	CHECK(parse(s, ZEN3 "/event=0x3c/", &e) == -ENOENT);
	CHECK(strstr(e.reason, "detected by libpfm4 but not available in the kernel"));
	/* a plain typo keeps no reason: suggestions help there, and never the input */
	CHECK(parse(s, ZEN3 "::RETIRED_INSTRUCTIONZ", &e) == -ENOENT);
	CHECK(e.reason[0] == '\0');
	char sug[4][EV_NAME_MAX];
	unsigned n = evspec_suggest(ZEN3 "::RETIRED_INSTRUCTIONS", s, sug, 4);
	for (unsigned i = 0; i < n; i++)
		CHECK(strcmp(sug[i], ZEN3 "::RETIRED_INSTRUCTIONS") != 0);
	n = evspec_suggest("cycles", s, sug, 4);
	for (unsigned i = 0; i < n; i++)
		CHECK(strcmp(sug[i], "cycles") != 0);
	CHECK(evspec_suggest(ZEN3 "::RETIRED_INSTRUCTIONZ", s, sug, 4) >= 1);
	CHECK(strcmp(sug[0], ZEN3 "::RETIRED_INSTRUCTIONS") == 0);
}

static void test_errors(void **state)
{
	(void)state;
	run(ZEN3, NOSYSFS, child_errors);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_attrs_default_umask),
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_pfm_pmu_with_core),
		cmocka_unit_test(test_pfm_pmu_without_kernel),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
