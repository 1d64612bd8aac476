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
#include "evspec.h"
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

/* Which events to print: those of row (>= 0), of usable PMUs (all false), or every one;
 * with a glob, only names it matches (case-insensitive); with an event (ev), the
 * catalogue's entries for what -e makes of it. */
struct want {
	int row;
	bool all;
	const char *glob;
	const char *ev; /* as typed: "cs", "sched:sched_switch", "INST_RETIRED:ANY" */
	const struct evdesc *d;
	const struct pmu_set *pmus;
};

/* The length of s's first field (up to a ':' or the end). */
static size_t field(const char *s)
{
	return strcspn(s, ":");
}

/* Whether catalogue name is the event -e resolved: the same name, the same tracepoint,
 * the same libpfm4 event (its name without "pmu::"), or a generic, software or sysfs name
 * that encodes the same (perf's aliases: "cs" is context-switches). */
static bool same_event(const struct want *w, const char *name)
{
	if (strcasecmp(name, w->ev) == 0)
		return true;
	if (w->d->attr.type == PERF_TYPE_TRACEPOINT) {
		size_t n = field(w->ev), m = n + 1 + field(w->ev + n + 1);
		return strncmp(name, w->ev, m) == 0 && name[m] == '\0';
	}
	const char *pfm = strstr(name, "::");
	if (pfm)
		return strncasecmp(pfm + 2, w->ev, field(w->ev)) == 0 &&
		       pfm[2 + field(w->ev)] == '\0';
	if (strchr(name, ':'))
		return false; /* a tracepoint */
	struct evdesc d;
	if (evspec_parse_one(name, w->pmus, &d, NULL) != 0)
		return false;
	return d.attr.type == w->d->attr.type && d.attr.config == w->d->attr.config &&
	       d.attr.config1 == w->d->attr.config1 && d.attr.config2 == w->d->attr.config2;
}

static bool wanted(const struct catalog *c, const struct catalog_event *e, const struct want *w)
{
	if (w->row >= 0 && e->pmu != (unsigned)w->row)
		return false;
	if (!w->all && w->row < 0 && !usable(catalog_pmu(c, e->pmu)))
		return false;
	if (w->ev)
		return same_event(w, e->name);
	return !w->glob || fnmatch(w->glob, e->name, FNM_CASEFOLD) == 0;
}

static bool has_match(const struct catalog *c, unsigned row, const struct want *w)
{
	for (unsigned i = 0; i < catalog_nevents(c); i++)
		if (catalog_event(c, i)->pmu == row && wanted(c, catalog_event(c, i), w))
			return true;
	return false;
}

static unsigned print_events(FILE *f, const struct catalog *c, const struct want *w)
{
	char safe[512];
	const char *heading = NULL;
	unsigned n = 0;
	for (unsigned i = 0; i < catalog_nevents(c); i++) {
		const struct catalog_event *e = catalog_event(c, i);
		if (!wanted(c, e, w))
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

/* Not a PMU or heading: the event -e would count for filter, under its catalogue names
 * (every PMU's, as a glob that matched nothing here). Returns the catalogue, or NULL
 * with *err -ENOENT (-e refuses it too: main says why, as -e does) or -ENOMEM. */
static struct catalog *as_event(const struct pmu_set *pmus, const char *filter, struct evdesc *d,
				struct want *w, int *err)
{
	if (evspec_parse_one(filter, pmus, d, NULL) != 0) {
		*err = -ENOENT;
		return NULL;
	}
	struct catalog *c = catalog_new_filtered(pmus, NULL, d->attr.type == PERF_TYPE_TRACEPOINT);
	*err = c ? 0 : -ENOMEM;
	*w = (struct want){.row = -1, .all = true, .ev = filter, .d = d, .pmus = pmus};
	if (c && print_events(NULL, c, w) == 0) {
		catalog_free(c);
		*err = -ENOENT;
		return NULL;
	}
	return c;
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
	struct want w = {
		.row = pmu ? catalog_find_pmu(c, pmu) : -1, .all = all, .glob = glob, .pmus = pmus};
	struct evdesc d;
	if (pmu && w.row < 0) {
		int err;
		catalog_free(c);
		if (!(c = as_event(pmus, pmu, &d, &w, &err)))
			return err;
	}
	/* A glob looks at the PMUs this machine has, then at every one. */
	if (glob && print_events(NULL, c, &w) == 0)
		w.all = true;
	if (glob && print_events(NULL, c, &w) == 0) {
		catalog_free(c);
		return -ENOENT;
	}
	fprintf(f, "%-24s %6s %-10s %-8s %9s  %s\n", "PMU", "TYPE", "CPUS", "PRESENT", "COUNTERS",
		"DESCRIPTION");
	unsigned hidden = 0;
	bool some = glob || w.ev;
	for (unsigned i = 0; i < catalog_npmus(c); i++) {
		const struct catalog_pmu *p = catalog_pmu(c, i);
		if (some	 ? has_match(c, i, &w)
		    : w.row >= 0 ? i == (unsigned)w.row
				 : w.all || usable(p))
			print_pmu(f, p);
		else if (w.row < 0 && !some)
			hidden++;
	}
	if (hidden)
		fprintf(f, "(%u more that this machine does not have: pmutop --list all)\n",
			hidden);
	print_events(f, c, &w);
	catalog_free(c);
	return 0;
}
