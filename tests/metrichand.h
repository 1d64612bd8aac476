/* A model built by hand for the metric tests (test_metricbind, test_metriclevel2): the
 * groups the metrics ask for with counter values fed in, one process row and one CPU row
 * reading the same values, and the checks that compare a metric with the value the test
 * computed from the vendor's formula. Header-only: each program has its own copy. */
#ifndef PMUTOP_TEST_METRICHAND_H
#define PMUTOP_TEST_METRICHAND_H

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metricbind.h"

#ifndef MAXEV
#define MAXEV 40 /* events of a model; a program may ask for more */
#endif
#ifndef MAXGR
#define MAXGR 8 /* and groups */
#endif

struct hand {
	struct mevent ev[MAXEV];
	char names[MAXEV][96];
	struct mgroup gr[MAXGR];
	struct val v[MAXEV];
	struct val_delta g[MAXGR];
	struct mrow proc, cpu;
	struct model m;
};

struct feed {
	const char *name;
	double v;
};

static inline void hand_init(struct hand *h, struct metric_bind *b)
{
	memset(h, 0, sizeof(*h));
	h->m.events = h->ev;
	h->m.groups = h->gr;
	h->m.elapsed = 1;
	h->m.metrics = b;
	h->proc = (struct mrow){.kind = ROW_PROC, .pid = 42, .tid = 42, .comm = "work"};
	h->cpu = (struct mrow){.kind = ROW_CPU, .cpu = 3, .comm = "cpu3"};
	h->proc.v = h->cpu.v = h->v;
	h->proc.g = h->cpu.g = h->g;
}

/* A group named as evspec names a metric's weak group's members ("x:W", "pmu/x/W"),
 * with values. */
static inline void hand_group(struct hand *h, const struct feed *f, const char *mod)
{
	unsigned g = h->m.ngroups++;
	assert_true(g < MAXGR);
	h->gr[g].first = h->m.nevents;
	for (; f->name; f++) {
		unsigned e = h->m.nevents++;
		assert_true(e < MAXEV);
		/* As evspec names them: "cpu_core/slots/W", "slots:W". */
		size_t len = strlen(f->name);
		bool pmu = len && f->name[len - 1] == '/' && mod[0] == ':';
		snprintf(h->names[e], sizeof(h->names[e]), "%s%s", f->name, pmu ? mod + 1 : mod);
		h->ev[e] = (struct mevent){.name = h->names[e],
					   .key = h->names[e],
					   .group = g,
					   .member = e - h->gr[g].first,
					   .hardware = true};
		h->v[e] = (struct val){.v = f->v, .state = VAL_EXACT, .run_pm = 1000};
		h->gr[g].n++;
	}
	h->g[g] = (struct val_delta){.ena = 1000000, .run = 1000000};
}

/* The metrics of the fixture CPU under tests/<cpu>, chosen by list (NULL: the default). */
static inline struct metric_bind *hand_load(const char *cpu, const char *list)
{
	char sys[256], info[256], err[300];
	snprintf(sys, sizeof(sys), "%s/sys", testutil_path(cpu));
	snprintf(info, sizeof(info), "%s/cpuinfo", testutil_path(cpu));
	struct metric_bind *b = NULL;
	int r = metric_bind_load(sys, info, NULL, list, &b, err, sizeof(err));
	if (r)
		fail_msg("%s: %s", cpu, err);
	return b;
}

static inline int hand_find(const struct metric_bind *b, const char *name)
{
	for (unsigned k = 0; k < metric_bind_count(b); k++)
		if (strcmp(metric_bind_name(b, k), name) == 0)
			return (int)k;
	fail_msg("no metric %s chosen", name);
	return -1;
}

/* The row's value is the hand-computed share, in percent, counted exactly. */
static inline void hand_expect(struct hand *h, const struct mrow *r, const char *name, double want)
{
	int k = hand_find(h->m.metrics, name);
	const char *why;
	struct val v = metric_bind_value(h->m.metrics, &h->m, r, (unsigned)k, &why);
	if (v.state != VAL_EXACT)
		fail_msg("%s: %s (%s)", name, val_state_str((enum val_state)v.state),
			 why ? why : "");
	if (fabs(v.v - want) > 1e-9)
		fail_msg("%s: %.12g, by hand %.12g", name, v.v, want);
}

/* Metric name's state on row r (the value unchecked). */
static inline enum val_state hand_state(struct hand *h, const struct mrow *r, const char *name)
{
	int k = hand_find(h->m.metrics, name);
	return (enum val_state)metric_bind_value(h->m.metrics, &h->m, r, (unsigned)k, NULL).state;
}

/* The fed event name ("topdown-heavy-ops", "cpu_atom/LD_HEAD.ANY_AT_RET/") now counts v. */
static inline void hand_set(struct hand *h, const char *name, double v)
{
	for (unsigned e = 0; e < h->m.nevents; e++)
		if (metric_bind_event_is(&h->ev[e], name)) {
			h->v[e].v = v;
			return;
		}
	fail_msg("no event %s fed", name);
}

#endif
