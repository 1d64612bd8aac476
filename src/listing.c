/* The catalogue on stdout: one PMU table, then "heading: name  description" lines. */
#include "listing.h"

#include <errno.h>
#include <string.h>

#include "evspec.h"
#include "pmu.h"
#include "text.h"

struct list_ctx {
	FILE *f;
	char heading[EV_NAME_MAX];
	unsigned n;
};

static int print_event(void *vctx, const char *pmu, const char *name, const char *desc)
{
	struct list_ctx *c = vctx;
	char safe[512];
	if (strcmp(c->heading, pmu) != 0) {
		snprintf(c->heading, sizeof(c->heading), "%s", pmu);
		fprintf(c->f, "\n%s:\n", pmu);
	}
	fprintf(c->f, "  %-40s", name);
	if (desc && *desc) {
		text_sanitize(desc, safe, sizeof(safe), true);
		fprintf(c->f, " %s", safe);
	}
	fputc('\n', c->f);
	c->n++;
	return 0;
}

static unsigned print_pmus(FILE *f, const struct pmu_set *pmus, const char *filter)
{
	unsigned n = 0;
	for (unsigned i = 0; i < pmu_set_count(pmus); i++) {
		struct pmu_info p;
		if (pmu_set_info(pmus, i, &p))
			continue;
		if (filter && strcmp(filter, p.name) != 0 &&
		    !(p.pfm_name && strcmp(filter, p.pfm_name) == 0))
			continue;
		if (!filter && !p.present)
			continue;
		if (n++ == 0)
			fprintf(f, "%-24s %6s %-10s %-8s %9s  %s\n", "PMU", "TYPE", "CPUS", "PRESENT",
				"COUNTERS", "DESCRIPTION");
		char type[16] = "-", ctr[24] = "?";
		if (p.type >= 0)
			snprintf(type, sizeof(type), "%d", p.type);
		if (p.nr_counters >= 0)
			snprintf(ctr, sizeof(ctr), "%d+%d", p.nr_counters, p.nr_fixed > 0 ? p.nr_fixed : 0);
		fprintf(f, "%-24s %6s %-10s %-8s %9s  %s\n", p.name, type, p.cpus ? p.cpus : "all",
			p.present ? "yes" : "no", ctr, p.desc ? p.desc : "");
	}
	return n;
}

int listing_print(FILE *f, const struct pmu_set *pmus, const char *filter)
{
	unsigned npmu = print_pmus(f, pmus, filter);
	struct list_ctx c = {.f = f};
	evspec_catalogue(pmus, filter, print_event, &c);
	if (filter && npmu == 0 && c.n == 0)
		return -ENOENT;
	return 0;
}
