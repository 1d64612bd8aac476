/* The catalogue behind the screen's browsers: PMU rows and events from fixture sysfs
 * trees and from this machine, grouping by PMU, and the search over names and
 * descriptions. */
#include "catalog.h"

#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "pmu.h"

struct fx {
	struct pmu_set *pmus;
	struct catalog *c;
	unsigned *hits;
	size_t cap;
};

static struct fx load(const char *root, bool pfm)
{
	struct fx f = {0};
	f.pmus = pmu_set_new(root, pfm);
	assert_non_null(f.pmus);
	f.c = catalog_new(f.pmus);
	assert_non_null(f.c);
	f.cap = catalog_nevents(f.c) + 1;
	f.hits = calloc(f.cap, sizeof(*f.hits));
	assert_non_null(f.hits);
	return f;
}

static void unload(struct fx *f)
{
	catalog_free(f->c);
	pmu_set_free(f->pmus);
	free(f->hits);
}

static size_t search(struct fx *f, const char *pmu, const char *q)
{
	int p = -1;
	if (pmu) {
		p = catalog_find_pmu(f->c, pmu);
		assert_true(p >= 0);
	}
	return catalog_search(f->c, p, q, f->hits, f->cap);
}

/* Index in the hits of the event called name, or -1. */
static int hit(struct fx *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(catalog_event(f->c, f->hits[i])->name, name) == 0)
			return (int)i;
	return -1;
}

static void test_fixture_pmus(void **state)
{
	(void)state;
	struct fx f = load(testutil_path("fixtures/sysfs-x86"), false);
	const struct catalog_pmu *p = catalog_pmu(f.c, 0);
	/* "generic" first, present because the tree has a core PMU */
	assert_string_equal(p->name, "generic");
	assert_true(p->heading_only);
	assert_true(p->present);
	int cpu = catalog_find_pmu(f.c, "cpu");
	assert_true(cpu > 0);
	p = catalog_pmu(f.c, (unsigned)cpu);
	assert_int_equal(p->type, 4);
	assert_true(p->core);
	assert_true(p->present);
	assert_false(p->heading_only);
	assert_null(p->cpus); /* no cpus file: all CPUs */
	/* its sysfs aliases are its events */
	struct pmu_info pi;
	assert_int_equal(pmu_set_info(f.pmus, (unsigned)pmu_set_find(f.pmus, "cpu"), &pi), 0);
	assert_true(pi.nr_aliases > 0);
	assert_int_equal(p->nevents, pi.nr_aliases);
	/* every sysfs PMU of the tree has a row, and nothing else but "generic" */
	assert_int_equal(catalog_npmus(f.c), 1 + pmu_set_count(f.pmus));
	assert_true(catalog_find_pmu(f.c, "msr") > 0);
	assert_true(catalog_find_pmu(f.c, "power") > 0);
	assert_true(catalog_find_pmu(f.c, "software") > 0);
	assert_int_equal(catalog_find_pmu(f.c, "nosuch"), -1);
	assert_null(catalog_pmu(f.c, catalog_npmus(f.c)));
	unload(&f);
}

/* Events are grouped by PMU row, whatever order the walk gave them in, and each row's
 * count is the size of its run. */
static void test_grouped_by_pmu(void **state)
{
	(void)state;
	struct fx f = load(testutil_path("fixtures/sysfs-x86"), false);
	unsigned *count = calloc(catalog_npmus(f.c), sizeof(*count));
	assert_non_null(count);
	assert_true(catalog_nevents(f.c) > 50);
	for (unsigned i = 0; i < catalog_nevents(f.c); i++) {
		const struct catalog_event *e = catalog_event(f.c, i);
		if (i > 0)
			assert_true(catalog_event(f.c, i - 1)->pmu <= e->pmu);
		count[e->pmu]++;
	}
	for (unsigned p = 0; p < catalog_npmus(f.c); p++)
		assert_int_equal(count[p], catalog_pmu(f.c, p)->nevents);
	/* hardware names and cache names both under "generic": one run */
	int g = catalog_find_pmu(f.c, "generic");
	size_t n = search(&f, "generic", "");
	assert_int_equal(n, catalog_pmu(f.c, (unsigned)g)->nevents);
	assert_true(hit(&f, n, "cpu-cycles") >= 0);
	assert_true(hit(&f, n, "LLC-load-misses") >= 0);
	assert_null(catalog_event(f.c, catalog_nevents(f.c)));
	free(count);
	unload(&f);
}

static void test_search_name_and_description(void **state)
{
	(void)state;
	struct fx f = load(testutil_path("fixtures/sysfs-x86"), false);
	/* by name, in every PMU: the generic name and the sysfs alias */
	size_t n = search(&f, NULL, "cycles");
	assert_true(hit(&f, n, "cpu-cycles") >= 0);
	assert_true(hit(&f, n, "cpu/cpu-cycles/") >= 0);
	assert_true(hit(&f, n, "ref-cycles") >= 0);
	assert_int_equal(hit(&f, n, "instructions"), -1);
	/* case does not matter */
	assert_int_equal(search(&f, NULL, "CYCLES"), n);
	/* by words of the description: "Reference cycles, not scaled by frequency" */
	n = search(&f, NULL, "scaled frequency");
	assert_true(hit(&f, n, "ref-cycles") >= 0);
	assert_int_equal(hit(&f, n, "cpu-cycles"), -1);
	/* every word must match somewhere */
	assert_int_equal(search(&f, NULL, "cycles zzzz"), 0);
	/* name matches come before description-only ones: "retired" names no generic
	 * event, but "instructions retired" describes "instructions" */
	n = search(&f, "generic", "instructions");
	assert_true(n >= 1);
	assert_string_equal(catalog_event(f.c, f.hits[0])->name, "instructions");
	n = search(&f, NULL, "retired");
	assert_true(hit(&f, n, "instructions") >= 0);
	unload(&f);
}

static void test_search_one_pmu(void **state)
{
	(void)state;
	struct fx f = load(testutil_path("fixtures/sysfs-x86"), false);
	size_t n = search(&f, "msr", "");
	assert_int_equal(n, 3); /* aperf, mperf, tsc */
	for (size_t i = 0; i < n; i++)
		assert_string_equal(catalog_event(f.c, f.hits[i])->heading, "msr");
	assert_int_equal(search(&f, "msr", "tsc"), 1);
	assert_string_equal(catalog_event(f.c, f.hits[0])->name, "msr/tsc/");
	assert_int_equal(search(&f, "generic", "tsc"), 0);
	/* the software row holds the software names, not the hardware ones */
	n = search(&f, "software", "");
	assert_true(hit(&f, n, "page-faults") >= 0);
	assert_int_equal(hit(&f, n, "cpu-cycles"), -1);
	/* max is respected */
	assert_int_equal(catalog_search(f.c, -1, "", f.hits, 2), 2);
	unload(&f);
}

/* A hybrid tree: two core PMUs, each with its own aliases under its own row. */
static void test_hybrid(void **state)
{
	(void)state;
	struct fx f = load(testutil_path("fixtures/sysfs-hybrid"), false);
	size_t n = search(&f, "cpu_atom", "mem-loads");
	assert_int_equal(n, 1);
	assert_string_equal(catalog_event(f.c, f.hits[0])->name, "cpu_atom/mem-loads/");
	n = search(&f, NULL, "mem-loads");
	assert_true(hit(&f, n, "cpu_core/mem-loads/") >= 0);
	assert_true(hit(&f, n, "cpu_atom/mem-loads/") >= 0);
	assert_true(catalog_pmu(f.c, (unsigned)catalog_find_pmu(f.c, "cpu_core"))->core);
	unload(&f);
}

/* No sysfs tree: the generic names are listed but not present; software gets a row of
 * its own. */
static void test_empty_tree(void **state)
{
	(void)state;
	struct fx f = load("/nonexistent/sysfs", false);
	assert_false(catalog_pmu(f.c, 0)->present);
	int sw = catalog_find_pmu(f.c, "software");
	assert_true(sw > 0);
	assert_true(catalog_pmu(f.c, (unsigned)sw)->heading_only);
	assert_true(search(&f, "software", "task-clock") >= 1);
	unload(&f);
	catalog_free(NULL);
	assert_int_equal(catalog_npmus(NULL), 0);
	assert_int_equal(catalog_search(NULL, -1, "", NULL, 0), 0);
}

/* This machine: every sysfs PMU is a present row, before every absent one; the
 * generic and software names are searchable; libpfm4's present PMUs list their events. */
static void test_live_machine(void **state)
{
	(void)state;
	struct stat st;
	if (stat("/sys/bus/event_source/devices/software", &st) < 0)
		skip();
	struct fx f = load("/sys", true);
	DIR *d = opendir("/sys/bus/event_source/devices");
	assert_non_null(d);
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		int i = catalog_find_pmu(f.c, de->d_name);
		assert_true(i >= 0);
		assert_true(catalog_pmu(f.c, (unsigned)i)->present);
		assert_true(catalog_pmu(f.c, (unsigned)i)->type >= 0);
	}
	closedir(d);
	bool seen_absent = false;
	for (unsigned i = 1; i < catalog_npmus(f.c); i++) {
		const struct catalog_pmu *p = catalog_pmu(f.c, i);
		if (!p->present && !p->heading_only)
			seen_absent = true;
		else if (p->present && !p->heading_only)
			assert_false(seen_absent);
	}
	size_t n = search(&f, NULL, "cycles");
	assert_true(hit(&f, n, "cpu-cycles") >= 0);
	n = search(&f, "software", "page faults");
	assert_true(hit(&f, n, "page-faults") >= 0);
	/* a present libpfm4 PMU (a CPU model libpfm4 detects) lists its events */
	for (unsigned i = 0; i < catalog_npmus(f.c); i++) {
		const struct catalog_pmu *p = catalog_pmu(f.c, i);
		if (!p->present || !p->pfm_name || p->nevents == 0)
			continue;
		n = catalog_search(f.c, (int)i, "", f.hits, f.cap);
		assert_int_equal(n, p->nevents);
		const char *name = catalog_event(f.c, f.hits[0])->name;
		assert_true(strstr(name, "::") || strchr(name, '/'));
	}
	unload(&f);
}

/* Every keystroke searches: a hundred searches over the whole live catalogue must take
 * far less than a second. */
/* The whole machine's catalogue searched over and over (what typing in the events
 * browser does): every round finds what the first found, and a word in no event finds
 * nothing. How fast it is, bench/ measures, not a test. */
static void test_search_repeated(void **state)
{
	(void)state;
	struct fx f = load("/sys", true);
	const char *q[] = {"c", "cy", "cyc", "cycl", "retired branch", "l", "miss", "zzz"};
	size_t first[8];
	for (int k = 0; k < 100; k++) {
		size_t n = catalog_search(f.c, -1, q[k % 8], f.hits, f.cap);
		if (k < 8)
			first[k] = n;
		else
			assert_int_equal(n, first[k % 8]);
	}
	assert_int_equal(first[7], 0);
	assert_true(first[1] >= first[2] && first[2] >= first[3]);
	unload(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_pmus),
		cmocka_unit_test(test_grouped_by_pmu),
		cmocka_unit_test(test_search_name_and_description),
		cmocka_unit_test(test_search_one_pmu),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_live_machine),
		cmocka_unit_test(test_search_repeated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
