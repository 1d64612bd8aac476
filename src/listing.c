/* The catalogue on stdout: the PMU table, then each PMU's events under its heading, each
 * libpfm4 event followed by its umasks and modifiers. The same catalogue as the screen's
 * browsers (src/catalog.c), so both show the same PMUs and events. */
#include "listing.h"

#include <errno.h>
#include <string.h>

#include "catalog.h"
#include "text.h"

static void print_pmu(FILE *f, const struct catalog_pmu *p)
{
	char desc[512];
	struct catalog_pmu_cells c;
	catalog_pmu_cells(p, &c);
	text_sanitize(p->desc, desc, sizeof(desc), true);
	fprintf(f, "%-24s %6s %-10s %-8s %9s  %s%s\n", p->name, c.type, p->cpus ? p->cpus : "all",
		c.present, c.ctr, c.note, desc);
}

static void print_attrs(FILE *f, const struct catalog_event *e)
{
	char safe[512];
	for (unsigned i = 0; i < e->nattr && i < e->numask; i++) {
		const struct catalog_attr *a = &e->attr[i];
		text_sanitize(a->desc, safe, sizeof(safe), true);
		fprintf(f, "      :%-34s %s%s\n", a->name, a->dfl ? "(default) " : "", safe);
	}
	if (e->nattr > e->numask) {
		fprintf(f, "      modifiers:");
		for (unsigned i = e->numask; i < e->nattr; i++)
			fprintf(f, " %s%s", e->attr[i].name, e->attr[i].value ? "=N" : "");
		fputc('\n', f);
	}
}

static void print_events(FILE *f, const struct catalog *c, int row)
{
	char safe[512];
	const char *heading = NULL;
	for (unsigned i = 0; i < catalog_nevents(c); i++) {
		const struct catalog_event *e = catalog_event(c, i);
		if (row >= 0 && e->pmu != (unsigned)row)
			continue;
		if (!heading || strcmp(heading, e->heading) != 0) {
			heading = e->heading;
			fprintf(f, "\n%s:\n", heading);
		}
		fprintf(f, "  %-40s", e->name);
		if (*e->desc) {
			text_sanitize(e->desc, safe, sizeof(safe), true);
			fprintf(f, " %s", safe);
		}
		fputc('\n', f);
		print_attrs(f, e);
	}
}

int listing_print(FILE *f, const struct pmu_set *pmus, const char *filter)
{
	if (filter && !*filter)
		filter = NULL;
	struct catalog *c = catalog_new_filtered(pmus, filter);
	if (!c)
		return -ENOMEM;
	int row = filter ? catalog_find_pmu(c, filter) : -1;
	if (filter && row < 0) {
		catalog_free(c);
		return -ENOENT;
	}
	fprintf(f, "%-24s %6s %-10s %-8s %9s  %s\n", "PMU", "TYPE", "CPUS", "PRESENT", "COUNTERS",
		"DESCRIPTION");
	for (unsigned i = 0; i < catalog_npmus(c); i++)
		if (row < 0 || i == (unsigned)row)
			print_pmu(f, catalog_pmu(c, i));
	print_events(f, c, row);
	catalog_free(c);
	return 0;
}
