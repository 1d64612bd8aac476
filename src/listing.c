/* The catalogue on stdout: the PMU table, then each PMU's events under its heading, each
 * libpfm4 event followed by its umasks and modifiers. The same catalogue as the screen's
 * browsers (src/catalog.c), so both show the same PMUs and events. */
#include "listing.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

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

/* Whether a PMU row's events can be counted here: the kernel has it (libpfm4 detecting
 * the CPU model is not enough). */
static bool usable(const struct catalog_pmu *p)
{
	return p->present && !p->pfm_only;
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The events to print: those of row (>= 0), of usable PMUs (all false), or every one;
 * with a glob, only names it matches (case-insensitive). */
static bool wanted(const struct catalog *c, const struct catalog_event *e, int row, bool all,
		   const char *glob)
{
	if (row >= 0 && e->pmu != (unsigned)row)
		return false;
	if (!all && row < 0 && !usable(catalog_pmu(c, e->pmu)))
		return false;
	return !glob || fnmatch(glob, e->name, FNM_CASEFOLD) == 0;
}

static bool has_match(const struct catalog *c, unsigned row, bool all, const char *glob)
{
	for (unsigned i = 0; i < catalog_nevents(c); i++)
		if (catalog_event(c, i)->pmu == row &&
		    wanted(c, catalog_event(c, i), -1, all, glob))
			return true;
	return false;
}

static unsigned print_events(FILE *f, const struct catalog *c, int row, bool all, const char *glob)
{
	char safe[512];
	const char *heading = NULL;
	unsigned n = 0;
	for (unsigned i = 0; i < catalog_nevents(c); i++) {
		const struct catalog_event *e = catalog_event(c, i);
		if (!wanted(c, e, row, all, glob))
			continue;
		n++;
		if (!f)
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
	return n;
}

int listing_print(FILE *f, const struct pmu_set *pmus, const char *filter)
{
	if (filter && !*filter)
		filter = NULL;
	bool all = filter && strcasecmp(filter, "all") == 0;
	const char *glob = filter && is_glob(filter) ? filter : NULL;
	const char *pmu = all || glob ? NULL : filter;
	/* Tracepoints (thousands) when asked for: --list tracepoint, or 'sched:*'. */
	struct catalog *c = catalog_new_filtered(pmus, pmu, glob && strchr(glob, ':'));
	if (!c)
		return -ENOMEM;
	int row = pmu ? catalog_find_pmu(c, pmu) : -1;
	/* A glob looks at the PMUs this machine has, then at every one. */
	if (glob && print_events(NULL, c, row, false, glob) == 0)
		all = true;
	if ((pmu && row < 0) || (glob && print_events(NULL, c, row, true, glob) == 0)) {
		catalog_free(c);
		return -ENOENT;
	}
	fprintf(f, "%-24s %6s %-10s %-8s %9s  %s\n", "PMU", "TYPE", "CPUS", "PRESENT", "COUNTERS",
		"DESCRIPTION");
	unsigned hidden = 0;
	for (unsigned i = 0; i < catalog_npmus(c); i++) {
		const struct catalog_pmu *p = catalog_pmu(c, i);
		if (glob       ? has_match(c, i, all, glob)
		    : row >= 0 ? i == (unsigned)row
			       : all || usable(p))
			print_pmu(f, p);
		else if (row < 0 && !glob)
			hidden++;
	}
	if (hidden)
		fprintf(f, "(%u more that this machine does not have: pmutop --list all)\n",
			hidden);
	print_events(f, c, row, all, glob);
	catalog_free(c);
	return 0;
}
