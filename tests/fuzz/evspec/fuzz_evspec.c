/* libFuzzer harness for evspec_parse, evspec_parse_one and evspec_suggest: the -e text a
 * user types. The first byte picks the PMU set, the rest is the spec.
 *
 * PMU sets: the x86 and hybrid sysfs fixtures without libpfm4, the x86 fixture merged with
 * libpfm4, and none (NULL). libpfm4 is in every set anyway, since "pmu::EVENT" names go to
 * it whatever the set says; LIBPFM_FORCE_PMU makes it deterministic (libpfm4 then ignores
 * the host CPU), so a crash found here reproduces on any x86 machine.
 *
 * Checks the header's contract: the return value is one of the documented errors; on error
 * the list is left as it was and err->token is a terminated string at a position inside the
 * spec; on success every group has 1..EVGROUP_MAX members with terminated names and
 * attr.size set; parsing is pure (the same spec parses to the same attrs twice, appended);
 * every suggestion for an unknown name is itself a name -e knows. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evspec.h"
#include "pmu.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSETS 4
static struct pmu_set *sets[NSETS]; /* sets[3] stays NULL: "pmus may be NULL" */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Read once, at libpfm4's first initialisation: before any pmu_set_new. */
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	sets[0] = pmu_set_new(PMUTOP_FIXTURES "/sysfs-x86", false);
	sets[1] = pmu_set_new(PMUTOP_FIXTURES "/sysfs-hybrid", false);
	sets[2] = pmu_set_new(PMUTOP_FIXTURES "/sysfs-x86", true);
	if (!sets[0] || !sets[1] || !sets[2] || pmu_set_count(sets[0]) == 0 ||
	    pmu_set_count(sets[1]) == 0) {
		fprintf(stderr, "fuzz_evspec: cannot load the sysfs fixtures below %s\n",
			PMUTOP_FIXTURES);
		abort();
	}
	/* An Alder Lake: the hybrid PMUs' names reach perf's JSON table too. */
	if (pmu_set_set_cpuid(sets[1], "GenuineIntel-6-97-2") < 0)
		abort();
	return 0;
}

static void check_terminated(const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		abort();
}

static void check_err(int ret, const struct evspec_err *err, size_t speclen)
{
	if (ret != -ENOENT && ret != -EINVAL && ret != -E2BIG && ret != -ENOMEM)
		abort();
	check_terminated(err->token, sizeof(err->token));
	if (err->pos > speclen)
		abort();
}

static void check_list(const struct evspec_list *l)
{
	if (l->n == 0 || !l->g)
		abort();
	for (unsigned i = 0; i < l->n; i++) {
		const struct evgroup_spec *g = &l->g[i];
		if (g->n == 0 || g->n > EVGROUP_MAX)
			abort();
		for (unsigned m = 0; m < g->n; m++) {
			check_terminated(g->ev[m].name, sizeof(g->ev[m].name));
			if (!g->ev[m].name[0] || g->ev[m].attr.size != sizeof(g->ev[m].attr))
				abort();
		}
	}
}

/* Equal attrs and names: struct padding aside, the parser fills both the same way. */
static int same_group(const struct evgroup_spec *a, const struct evgroup_spec *b)
{
	if (a->n != b->n)
		return 0;
	for (unsigned m = 0; m < a->n; m++)
		if (strcmp(a->ev[m].name, b->ev[m].name) ||
		    memcmp(&a->ev[m].attr, &b->ev[m].attr, sizeof(a->ev[m].attr)) ||
		    a->ev[m].explicit_plm != b->ev[m].explicit_plm ||
		    a->ev[m].software != b->ev[m].software)
			return 0;
	return 1;
}

static void check_suggest(const char *token, const struct pmu_set *pmus)
{
	char sugg[4][EV_NAME_MAX];
	struct evspec_err err;
	struct evdesc d;

	memset(sugg, 0x5a, sizeof(sugg));
	unsigned n = evspec_suggest(token, pmus, sugg, 4);
	if (n > 4)
		abort();
	for (unsigned i = 0; i < n; i++) {
		check_terminated(sugg[i], sizeof(sugg[i]));
		/* "spelled as -e takes them": a known name. It may still be incomplete: a
		 * libpfm4 event without a default unit mask (skl::IDQ) is -EINVAL as is. */
		if (evspec_parse_one(sugg[i], pmus, &d, &err) == -ENOENT) {
			fprintf(stderr, "suggestion '%s' for '%s' is unknown\n", sugg[i], token);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const struct pmu_set *pmus = sets[data[0] % NSETS];
	size_t len = size - 1;
	/* Exactly len+1 bytes, so that a read past the terminator is caught. */
	char *spec = malloc(len + 1);
	if (!spec)
		return 0;
	memcpy(spec, data + 1, len);
	spec[len] = '\0';
	len = strlen(spec);

	struct evspec_list l = {0};
	struct evspec_err err;
	memset(&err, 0x5a, sizeof(err));
	int ret = evspec_parse(spec, pmus, &l, &err);
	if (ret == 0) {
		check_list(&l);
		/* Pure and appending: a second parse adds the same groups after the first. */
		unsigned n = l.n;
		struct evspec_err err2;
		if (evspec_parse(spec, pmus, &l, &err2) != 0 || l.n != 2 * n)
			abort();
		for (unsigned i = 0; i < n; i++)
			if (!same_group(&l.g[i], &l.g[n + i]))
				abort();
	} else {
		check_err(ret, &err, len);
		if (l.n != 0 || l.g != NULL) /* "On error out is left as it was" */
			abort();
		if (ret == -ENOENT)
			check_suggest(err.token, pmus);
	}
	evspec_list_free(&l);

	/* The one-event entry point must hold the same contract. */
	struct evdesc d;
	memset(&d, 0x5a, sizeof(d));
	struct evdesc before = d;
	ret = evspec_parse_one(spec, pmus, &d, &err);
	if (ret == 0) {
		check_terminated(d.name, sizeof(d.name));
		if (d.attr.size != sizeof(d.attr))
			abort();
	} else {
		check_err(ret, &err, len);
		if (memcmp(&d, &before, sizeof(d)) != 0)
			abort();
	}
	free(spec);
	return 0;
}
