/* The catalogue behind the PMU and event browsers: PMU rows from pmu_set_info, events
 * from evspec_catalogue, regrouped by PMU, with lower-case copies for searching. */
#include "catalog.h"

#include <ctype.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evspec.h"
#include "pmu.h"

#define CHUNK_SIZE 65536
#define QUERY_WORDS 8
#define MAX_ATTRS 256

/* Strings live in chunks that never move, so pointers into them stay valid while the
 * catalogue grows. */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

struct catalog {
	struct catalog_pmu *pmu;
	unsigned npmu, cap_pmu;
	struct catalog_event *ev;
	const char **lname, **ldesc; /* lower-case name and description, per event */
	const char **lumask;	     /* lower-case umask names and descriptions, or NULL */
	unsigned nev, cap_ev;
	struct chunk *chunks;
	bool oom;
	/* while building: the last heading seen and its row, as events come in runs */
	const char *last_heading;
	unsigned last_pmu;
};

static char *cat_alloc(struct catalog *c, size_t n)
{
	struct chunk *k = c->chunks;
	if (!k || k->cap - k->used < n) {
		size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;
		k = malloc(sizeof(*k) + cap);
		if (!k) {
			c->oom = true;
			return NULL;
		}
		k->cap = cap;
		k->used = 0;
		k->next = c->chunks;
		c->chunks = k;
	}
	char *p = k->data + k->used;
	k->used += n;
	return p;
}

/* Room for n attributes, aligned for them. */
static struct catalog_attr *cat_alloc_attrs(struct catalog *c, unsigned n)
{
	size_t al = alignof(struct catalog_attr);
	char *p = cat_alloc(c, n * sizeof(struct catalog_attr) + al - 1);
	if (!p)
		return NULL;
	return (struct catalog_attr *)(((uintptr_t)p + al - 1) & ~(uintptr_t)(al - 1));
}

/* A copy of s (NULL stays NULL), lower-cased when lower. */
static const char *cat_dup(struct catalog *c, const char *s, bool lower)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = cat_alloc(c, n);
	if (!p)
		return "";
	for (size_t i = 0; i < n; i++)
		p[i] = lower ? (char)tolower((unsigned char)s[i]) : s[i];
	return p;
}

static struct catalog_pmu *add_pmu(struct catalog *c)
{
	if (c->npmu == c->cap_pmu) {
		unsigned cap = c->cap_pmu ? 2 * c->cap_pmu : 64;
		void *p = realloc(c->pmu, cap * sizeof(*c->pmu));
		if (!p) {
			c->oom = true;
			return NULL;
		}
		c->pmu = p;
		c->cap_pmu = cap;
	}
	struct catalog_pmu *r = &c->pmu[c->npmu++];
	memset(r, 0, sizeof(*r));
	r->type = r->counters = r->fixed = -1;
	r->desc = "";
	return r;
}

static void add_heading(struct catalog *c, const char *name, const char *desc, bool present)
{
	struct catalog_pmu *r = add_pmu(c);
	if (!r)
		return;
	r->name = cat_dup(c, name, false);
	r->desc = cat_dup(c, desc, false);
	r->present = present;
	r->heading_only = true;
}

/* sysfs says nothing about its PMUs: a line for the ones every kernel has. */
static const char *known_desc(const char *name)
{
	static const char *const known[][2] = {
		{"software", "the kernel's software events"},
		{"tracepoint", "static kernel tracepoints"},
		{"breakpoint", "hardware breakpoints"},
		{"kprobe", "dynamic kernel probes"},
		{"uprobe", "dynamic user-space probes"},
		{"msr", "model-specific registers (TSC, APERF, MPERF)"},
		{"power", "RAPL energy counters"},
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(name, known[i][0]) == 0)
			return known[i][1];
	return "";
}

static void add_info(struct catalog *c, const struct pmu_set *pmus, const struct pmu_info *pi)
{
	struct catalog_pmu *r = add_pmu(c);
	if (!r)
		return;
	r->name = cat_dup(c, pi->name, false);
	r->pfm_name = cat_dup(c, pi->pfm_name, false);
	r->desc = cat_dup(c, pi->desc ? pi->desc : known_desc(pi->name), false);
	r->cpus = cat_dup(c, pi->cpus, false);
	r->type = pi->type;
	r->counters = pi->nr_counters;
	r->fixed = pi->nr_fixed;
	/* libpfm4 detects PMUs from the CPU model: only the kernel makes them countable */
	r->present = pi->present;
	r->pfm_only = pi->present && !pi->in_kernel && pmu_set_uses_pfm(pmus);
	if (r->pfm_only)
		r->counters = r->fixed = -1; /* none of them can be used here */
	r->core = pi->core;
}

/* Present PMUs first: they are the ones whose events can be counted here; then those
 * libpfm4 detects but the kernel lacks, then the rest libpfm4 knows. */
static void add_pmus(struct catalog *c, const struct pmu_set *pmus)
{
	int types[4];
	add_heading(c, "generic", "the kernel's generic hardware and cache events (core PMU)",
		    pmu_set_core_types(pmus, types, 4) > 0);
	if (pmu_set_find(pmus, "software") < 0)
		add_heading(c, "software", "the kernel's software events", true);
	for (int pass = 0; pass < 3; pass++) {
		for (unsigned i = 0; i < pmu_set_count(pmus); i++) {
			struct pmu_info pi;
			if (pmu_set_info(pmus, i, &pi) < 0)
				continue;
			bool in = pi.present && (pi.in_kernel || !pmu_set_uses_pfm(pmus));
			int want = in ? 0 : pi.present ? 1 : 2;
			if (want == pass)
				add_info(c, pmus, &pi);
		}
	}
}

int catalog_find_pmu(const struct catalog *c, const char *name)
{
	if (!c || !name)
		return -1;
	for (unsigned i = 0; i < c->npmu; i++) {
		const struct catalog_pmu *p = &c->pmu[i];
		if (strcmp(p->name, name) == 0 || (p->pfm_name && strcmp(p->pfm_name, name) == 0))
			return (int)i;
	}
	return -1;
}

/* The row an event heading belongs to; a heading no row has gets one of its own. */
static unsigned heading_row(struct catalog *c, const char *heading)
{
	if (c->last_heading && strcmp(c->last_heading, heading) == 0)
		return c->last_pmu;
	int i = catalog_find_pmu(c, heading);
	if (i < 0) {
		add_heading(c, heading, "", true);
		i = (int)c->npmu - 1;
	}
	c->last_heading = c->pmu[i].pfm_name && strcmp(c->pmu[i].pfm_name, heading) == 0
				  ? c->pmu[i].pfm_name
				  : c->pmu[i].name;
	c->last_pmu = (unsigned)i;
	return (unsigned)i;
}

static bool grow_events(struct catalog *c)
{
	if (c->nev < c->cap_ev)
		return true;
	unsigned cap = c->cap_ev ? 2 * c->cap_ev : 1024;
	void *e = realloc(c->ev, cap * sizeof(*c->ev));
	if (e)
		c->ev = e;
	void *n = realloc(c->lname, cap * sizeof(*c->lname));
	if (n)
		c->lname = n;
	void *d = realloc(c->ldesc, cap * sizeof(*c->ldesc));
	if (d)
		c->ldesc = d;
	void *u = realloc(c->lumask, cap * sizeof(*c->lumask));
	if (u)
		c->lumask = u;
	if (!e || !n || !d || !u) {
		c->oom = true;
		return false;
	}
	c->cap_ev = cap;
	return true;
}

struct attr_buf {
	struct catalog_attr a[MAX_ATTRS];
	unsigned n;
	size_t text; /* bytes of "name desc\n" for the umasks */
};

static int collect_attr(void *ctx, const struct evpfm_attr *a)
{
	struct attr_buf *b = ctx;
	if (b->n == MAX_ATTRS)
		return 1;
	b->a[b->n++] = (struct catalog_attr){.name = a->name,
					     .desc = a->desc,
					     .umask = a->umask,
					     .dfl = a->dfl,
					     .value = a->value};
	if (a->umask)
		b->text += strlen(a->name) + strlen(a->desc) + 2;
	return 0;
}

/* The umasks and modifiers of a libpfm4 event, and its umasks lower-cased for search.
 * libpfm4's strings are static: copies keep the catalogue self-contained all the same. */
static void add_attrs(struct catalog *c, struct catalog_event *e, unsigned i)
{
	static struct attr_buf b;
	b.n = 0;
	b.text = 0;
	c->lumask[i] = NULL;
	if (evspec_attrs(e->name, collect_attr, &b) < 0 || b.n == 0)
		return;
	struct catalog_attr *a = cat_alloc_attrs(c, b.n);
	char *t = b.text ? cat_alloc(c, b.text + 1) : NULL;
	if (!a || (b.text && !t))
		return;
	size_t o = 0;
	for (unsigned k = 0; k < b.n; k++) {
		a[k] = b.a[k];
		a[k].name = cat_dup(c, b.a[k].name, false);
		a[k].desc = cat_dup(c, b.a[k].desc, false);
		if (!a[k].umask || !t)
			continue;
		e->numask++;
		for (const char *s = b.a[k].name; *s; s++)
			t[o++] = (char)tolower((unsigned char)*s);
		t[o++] = ' ';
		for (const char *s = b.a[k].desc; *s; s++)
			t[o++] = (char)tolower((unsigned char)*s);
		t[o++] = '\n';
	}
	if (t)
		t[o] = '\0';
	e->attr = a;
	e->nattr = b.n;
	c->lumask[i] = t;
}

static int add_event(void *ctx, const char *heading, const char *name, const char *desc)
{
	struct catalog *c = ctx;
	if (!grow_events(c))
		return 1;
	unsigned row = heading_row(c, heading);
	if (c->oom)
		return 1;
	struct catalog_event *e = &c->ev[c->nev];
	e->pmu = row;
	e->heading = c->last_heading;
	e->name = cat_dup(c, name, false);
	e->desc = cat_dup(c, desc ? desc : "", false);
	c->lname[c->nev] = cat_dup(c, name, true);
	c->ldesc[c->nev] = cat_dup(c, desc ? desc : "", true);
	e->attr = NULL;
	e->nattr = e->numask = 0;
	add_attrs(c, e, c->nev);
	c->pmu[row].nevents++;
	c->nev++;
	return c->oom;
}

/* Events come from the walk in its own order ("generic" twice: hardware names, then
 * cache names after the software ones): put them in PMU-row order, keeping the walk's
 * order within a row. A counting sort does that in one pass. */
static bool group_by_pmu(struct catalog *c)
{
	unsigned *start = calloc(c->npmu + 1, sizeof(*start));
	struct catalog_event *ev = malloc((c->nev + 1) * sizeof(*ev));
	const char **ln = malloc((c->nev + 1) * sizeof(*ln));
	const char **ld = malloc((c->nev + 1) * sizeof(*ld));
	const char **lu = malloc((c->nev + 1) * sizeof(*lu));
	bool ok = start && ev && ln && ld && lu;
	if (ok) {
		for (unsigned i = 0; i < c->npmu; i++)
			start[i + 1] = start[i] + c->pmu[i].nevents;
		for (unsigned i = 0; i < c->nev; i++) {
			unsigned k = start[c->ev[i].pmu]++;
			ev[k] = c->ev[i];
			ln[k] = c->lname[i];
			ld[k] = c->ldesc[i];
			lu[k] = c->lumask[i];
		}
		free(c->ev);
		free(c->lname);
		free(c->ldesc);
		free(c->lumask);
		c->ev = ev;
		c->lname = ln;
		c->ldesc = ld;
		c->lumask = lu;
		ev = NULL;
		ln = ld = lu = NULL;
	}
	free(start);
	free(ev);
	free(ln);
	free(ld);
	free(lu);
	return ok;
}

/* The tracepoints, or on the tracepoint PMU's row why there are none. */
static void tracepoints_why(struct catalog *c)
{
	unsigned before = c->nev;
	evspec_tracepoints(add_event, c);
	if (c->nev > before)
		return;
	for (unsigned i = 0; i < c->npmu; i++)
		if (!c->pmu[i].heading_only && strcmp(c->pmu[i].name, "tracepoint") == 0)
			c->pmu[i].desc =
				cat_dup(c,
					evspec_tracefs_mounted()
						? "none readable in tracefs"
						: "none listed: tracefs is not mounted (mount "
						  "-t tracefs nodev /sys/kernel/tracing)",
					false);
}

struct catalog *catalog_new(const struct pmu_set *pmus)
{
	return catalog_new_filtered(pmus, NULL, true);
}

struct catalog *catalog_new_filtered(const struct pmu_set *pmus, const char *filter,
				     bool tracepoints)
{
	struct catalog *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	add_pmus(c, pmus);
	if (!c->oom)
		evspec_catalogue(pmus, filter, add_event, c);
	/* Tracepoints (tracefs): for the browser, and for --list tracepoint; on a machine
	 * whose kernel has the tracepoint PMU (a sysfs fixture has none). */
	if (!c->oom && pmu_set_find(pmus, "tracepoint") >= 0 &&
	    ((tracepoints && !filter) || (filter && strcmp(filter, "tracepoint") == 0)))
		tracepoints_why(c);
	c->last_heading = NULL;
	if (c->oom || !group_by_pmu(c)) {
		catalog_free(c);
		return NULL;
	}
	return c;
}

void catalog_free(struct catalog *c)
{
	if (!c)
		return;
	while (c->chunks) {
		struct chunk *k = c->chunks;
		c->chunks = k->next;
		free(k);
	}
	free(c->pmu);
	free(c->ev);
	free(c->lname);
	free(c->ldesc);
	free(c->lumask);
	free(c);
}

unsigned catalog_npmus(const struct catalog *c)
{
	return c ? c->npmu : 0;
}

const struct catalog_pmu *catalog_pmu(const struct catalog *c, unsigned i)
{
	return c && i < c->npmu ? &c->pmu[i] : NULL;
}

unsigned catalog_nevents(const struct catalog *c)
{
	return c ? c->nev : 0;
}

const struct catalog_event *catalog_event(const struct catalog *c, unsigned i)
{
	return c && i < c->nev ? &c->ev[i] : NULL;
}

struct query {
	char buf[256];
	const char *word[QUERY_WORDS];
	unsigned n;
};

/* Split a query into lower-case words; words past QUERY_WORDS are ignored. */
static void query_split(const char *q, struct query *out)
{
	size_t n = 0;
	out->n = 0;
	while (q && *q && n + 1 < sizeof(out->buf)) {
		while (isspace((unsigned char)*q))
			q++;
		if (!*q || out->n == QUERY_WORDS)
			break;
		out->word[out->n++] = out->buf + n;
		while (*q && !isspace((unsigned char)*q) && n + 1 < sizeof(out->buf))
			out->buf[n++] = (char)tolower((unsigned char)*q++);
		out->buf[n++] = '\0';
	}
}

/* 2: every word is in the name; 1: each is in the name, the description or the umasks;
 * 0: not. */
static int match(const struct catalog *c, unsigned i, const struct query *q)
{
	int level = 2;
	for (unsigned w = 0; w < q->n; w++) {
		if (strstr(c->lname[i], q->word[w]))
			continue;
		if (!strstr(c->ldesc[i], q->word[w]) &&
		    !(c->lumask[i] && strstr(c->lumask[i], q->word[w])))
			return 0;
		level = 1;
	}
	return level;
}

size_t catalog_search(const struct catalog *c, int pmu, const char *query, unsigned *out,
		      size_t max)
{
	struct query q;
	size_t n = 0;
	if (!c)
		return 0;
	query_split(query, &q);
	unsigned lo = 0, hi = c->nev;
	if (pmu >= 0) {
		/* Events are grouped by row: find the row's run. */
		for (lo = 0; lo < c->nev && c->ev[lo].pmu != (unsigned)pmu; lo++)
			;
		for (hi = lo; hi < c->nev && c->ev[hi].pmu == (unsigned)pmu; hi++)
			;
	}
	for (int want = 2; want >= 1; want--)
		for (unsigned i = lo; i < hi && n < max; i++)
			if (match(c, i, &q) == want)
				out[n++] = i;
	return n;
}

void catalog_pmu_cells(const struct catalog_pmu *p, struct catalog_pmu_cells *out)
{
	snprintf(out->type, sizeof(out->type), "-");
	snprintf(out->ctr, sizeof(out->ctr), "?");
	if (p->type >= 0)
		snprintf(out->type, sizeof(out->type), "%d", p->type);
	if (p->heading_only || p->pfm_only)
		snprintf(out->ctr, sizeof(out->ctr), "-");
	else if (p->counters >= 0)
		snprintf(out->ctr, sizeof(out->ctr), "%d+%d", p->counters,
			 p->fixed > 0 ? p->fixed : 0);
	out->present = p->pfm_only ? "libpfm" : p->present ? "yes" : "no";
	/* libpfm4 knows PMUs from the CPU model: say when the kernel has none to match. */
	out->note = p->pfm_only ? "detected by libpfm4, not in the kernel (no sysfs PMU): " : "";
}
