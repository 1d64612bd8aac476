/* Per-core-PMU copies of generic events on hybrid CPUs, and their per-target sums. */
#include "hybrid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"

/* Generic hardware and cache events name no PMU: the kernel picks one, and on hybrid
 * machines needs to be told which (its type in config bits 32-63). */
static bool expandable(const struct evdesc *d)
{
	return (d->attr.type == PERF_TYPE_HARDWARE || d->attr.type == PERF_TYPE_HW_CACHE) &&
	       (d->attr.config >> 32) == 0;
}

static unsigned core_pmus(const struct pmu_set *pmus, int *types, const char **names)
{
	unsigned n = 0;
	for (unsigned i = 0; pmus && i < pmu_set_count(pmus) && n < HYBRID_MAX; i++) {
		struct pmu_info info;
		if (pmu_set_info(pmus, i, &info) == 0 && info.core && info.type >= 0) {
			types[n] = info.type;
			names[n] = info.name;
			n++;
		}
	}
	return n;
}

/* Copy k of group g: copy 0 keeps every member, the others only the instances. */
static void make_copy(const struct evgroup_spec *g, unsigned k, int type, const char *pmu,
		      struct evgroup_spec *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned m = 0; m < g->n; m++) {
		struct evdesc d = g->ev[m];
		if (expandable(&d)) {
			d.attr.config |= (uint64_t)(uint32_t)type << 32;
			size_t len = strlen(d.name);
			snprintf(d.name + len, sizeof(d.name) - len, "[%s]", pmu);
		} else if (k > 0) {
			continue;
		}
		out->ev[out->n++] = d;
	}
}

int hybrid_expand(struct evspec_list *specs, const struct pmu_set *pmus, bool **user,
		  unsigned **copy_of, unsigned **copy_no)
{
	int types[HYBRID_MAX];
	const char *names[HYBRID_MAX];
	unsigned ncore = core_pmus(pmus, types, names);
	unsigned n = 0;
	for (unsigned g = 0; g < specs->n; g++) {
		bool any = false;
		for (unsigned m = 0; m < specs->g[g].n; m++)
			any = any || expandable(&specs->g[g].ev[m]);
		n += any && ncore > 1 ? ncore : 1;
	}
	struct evgroup_spec *ng = calloc(n + 1, sizeof(*ng));
	bool *nu = calloc(n + 1, sizeof(*nu));
	unsigned *of = calloc(n + 1, sizeof(*of)), *no = calloc(n + 1, sizeof(*no));
	if (!ng || !nu || !of || !no) {
		free(ng);
		free(nu);
		free(of);
		free(no);
		return -ENOMEM;
	}
	unsigned o = 0;
	for (unsigned g = 0; g < specs->n; g++) {
		bool any = false;
		for (unsigned m = 0; m < specs->g[g].n; m++)
			any = any || expandable(&specs->g[g].ev[m]);
		unsigned copies = any && ncore > 1 ? ncore : 1, first = o;
		for (unsigned k = 0; k < copies; k++, o++) {
			if (copies > 1)
				make_copy(&specs->g[g], k, types[k], names[k], &ng[o]);
			else
				ng[o] = specs->g[g];
			nu[o] = (*user)[g];
			of[o] = first;
			no[o] = k;
		}
	}
	free(specs->g);
	specs->g = ng;
	specs->n = n;
	free(*user);
	*user = nu;
	*copy_of = of;
	*copy_no = no;
	return 0;
}

/* Each logical event's instances summed: values and running times add up; enabled times
 * add up too when they are disjoint (percpu), else the longest is the task's. */
static void fold(const struct mevent *events, unsigned n, struct val_delta *d, uint8_t *why,
		 bool percpu)
{
	for (unsigned i = 0; i < n; i++) {
		const struct mevent *l = &events[i];
		if (!l->logical)
			continue;
		struct val_delta sum = {0, 0, 0};
		uint8_t w = why[l->sum[0]];
		bool any = false;
		for (unsigned k = 0; k < l->nsum; k++) {
			unsigned ev = l->sum[k];
			if (why[ev] != WHY_NONE)
				continue;
			any = true;
			if (percpu)
				sum.ena += d[ev].ena;
			else if (d[ev].ena > sum.ena)
				sum.ena = d[ev].ena;
			sum.run += d[ev].run;
			sum.val += d[ev].val;
		}
		d[i] = sum;
		why[i] = any ? WHY_NONE : w;
	}
}

void hybrid_fold(const struct mevent *events, unsigned n, struct val_delta *d, uint8_t *why)
{
	/* Each instance is enabled whenever the task runs, and runs only on its own kind of
	 * core: values and running times add, enabled time does not. */
	fold(events, n, d, why, false);
}

/* One logical event's value from its instances' values, each scaled by its own times:
 * the sum of the estimates; partial (a lower bound) when an instance has no number, n/c
 * (or n/a when every instance is) when none has. RUN% is the share of the task's time,
 * over the instances' disjoint enabled times, during which its counters counted. */
static struct val sum_instances(const struct mevent *l, const struct val_delta *d,
				const struct val *v)
{
	struct val out = {.v = 0, .state = VAL_EXACT, .why = WHY_NONE, .run_pm = 1000};
	unsigned counted = 0, missing = 0, na = 0;
	uint8_t why = WHY_NONE;
	bool scaled = false;
	double ena = 0, run = 0;
	double win = 0; /* the switch windows counted by instances marked so (WHY_SWITCH) */
	for (unsigned k = 0; k < l->nsum; k++) {
		const struct val *x = &v[l->sum[k]];
		const struct val_delta *t = &d[l->sum[k]];
		/* an instance never run has its enabled time; one that failed, no times */
		if (val_has_number(*x) || x->why == WHY_NOT_RUN)
			ena += (double)t->ena;
		if (!val_has_number(*x)) {
			missing++;
			na += x->state == VAL_NA;
			why = why == WHY_NONE ? x->why : why;
			continue;
		}
		counted++;
		run += (double)(t->run < t->ena ? t->run : t->ena);
		out.v += x->v;
		/* A count holding switch windows is not scaled: its run_pm is the share of its
		 * enabled time that was the task's own. */
		if (x->state == VAL_SCALED && x->why == WHY_SWITCH)
			win += (double)t->ena * (1000 - x->run_pm) / 1000.0;
		else
			scaled = scaled || x->state == VAL_SCALED || x->state == VAL_PARTIAL;
		if (x->state == VAL_PARTIAL)
			missing++; /* a lower bound itself */
	}
	if (counted == 0)
		return val_missing(na == l->nsum ? VAL_NA : VAL_NC,
				   (enum val_why)(why == WHY_NONE ? WHY_NOT_RUN : why));
	double pm = ena > 0 ? 1000.0 * run / ena : 1000.0;
	if (missing) {
		out.state = VAL_PARTIAL;
		out.why = why == WHY_NONE ? WHY_NOT_RUN : why;
		out.run_pm = (uint16_t)(pm < 1 ? 1 : pm > 999 ? 999 : pm);
	} else if (scaled) {
		out.state = VAL_SCALED;
		out.run_pm = (uint16_t)(pm + 0.5 >= 999 ? 999 : pm + 0.5);
	} else if (ena > 0 && win * 100 > ena) {
		double own = 1000.0 * (1 - win / ena);
		out.state = VAL_SCALED;
		out.why = WHY_SWITCH;
		out.run_pm = (uint16_t)(own < 1 ? 1 : own > 999 ? 999 : own);
	}
	return out;
}

void hybrid_fold_percpu(const struct mevent *events, unsigned n, struct val_delta *d, uint8_t *why,
			struct val *v)
{
	fold(events, n, d, why, true);
	for (unsigned i = 0; v && i < n; i++)
		if (events[i].logical)
			v[i] = sum_instances(&events[i], d, v);
}

/* The core PMU one member counts on: its index in types, -1 any (or none: software). */
static int member_core(const struct evdesc *d, const int *types, unsigned ncore)
{
	if (d->software)
		return -1;
	uint64_t t = d->attr.type;
	if (d->attr.type == PERF_TYPE_HARDWARE || d->attr.type == PERF_TYPE_HW_CACHE)
		t = d->attr.config >> 32;
	for (unsigned k = 0; k < ncore; k++)
		if (t == (uint64_t)types[k])
			return (int)k;
	return -1;
}

int hybrid_group_cores(const struct evspec_list *specs, const struct pmu_set *pmus, int **out)
{
	int types[HYBRID_MAX];
	const char *names[HYBRID_MAX];
	unsigned ncore = core_pmus(pmus, types, names);
	*out = NULL;
	if (ncore < 2)
		return 0;
	int *core = calloc(specs->n + 1, sizeof(*core));
	if (!core)
		return -ENOMEM;
	for (unsigned g = 0; g < specs->n; g++) {
		int k = -2; /* no hardware member yet */
		for (unsigned m = 0; m < specs->g[g].n; m++) {
			if (specs->g[g].ev[m].software)
				continue;
			int c = member_core(&specs->g[g].ev[m], types, ncore);
			k = k == -2 || k == c ? c : -1;
		}
		core[g] = k < 0 ? -1 : k;
	}
	*out = core;
	return 0;
}

void hybrid_residency(const struct mgroup *groups, const int *core, unsigned ngroups,
		      const struct val_delta *d, const uint8_t *why, uint64_t *ena)
{
	uint64_t maxrun[HYBRID_MAX] = {0};
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned g = 0; g < ngroups; g++) {
			const struct val_delta *gd = NULL;
			for (unsigned m = 0; m < groups[g].n && !gd; m++)
				if (why[groups[g].first + m] == WHY_NONE)
					gd = &d[groups[g].first + m];
			int k = core[g];
			if (!gd) {
				ena[g] = 0;
				continue;
			}
			if (pass == 0) {
				if (k >= 0 && k < HYBRID_MAX && gd->run > maxrun[k])
					maxrun[k] = gd->run;
				continue;
			}
			ena[g] = gd->ena;
			if (k < 0 || k >= HYBRID_MAX)
				continue;
			uint64_t elsewhere = 0;
			for (int j = 0; j < HYBRID_MAX; j++)
				elsewhere += j != k ? maxrun[j] : 0;
			uint64_t here = gd->ena > elsewhere ? gd->ena - elsewhere : 0;
			if (here < maxrun[k])
				here = maxrun[k];
			ena[g] = here < gd->ena ? here : gd->ena;
		}
	}
}
