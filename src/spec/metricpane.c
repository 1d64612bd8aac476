/* The chosen metrics as panes (metricbind.h): the Top-down pane's level-1 shares, with
 * the time on each core type of a hybrid CPU, and the Metrics pane's others. */
#include "metricbind.h"
#include "metricpane.h"

#include <stdint.h>
#include <string.h>

static struct val column_metric(const struct column *c, const struct model *m, const struct mrow *r)
{
	return metric_bind_value(m->metrics, m, r, (unsigned)c->a, NULL);
}

static bool column_never(const struct column *c, const struct model *m)
{
	return metric_bind_unsupported(m->metrics, m, (unsigned)c->a);
}

/* A hybrid CPU's cycles are counted once per core PMU, each instance running only while
 * the task is on that kind of core: its share of their running time is the task's share
 * of time on that core type (residency, never multiplexing: tools/perf/Documentation/
 * intel-hybrid.txt). a: the logical event, b: its instance. */
static struct val column_core_share(const struct column *c, const struct model *m,
				    const struct mrow *r)
{
	const struct mevent *l = &m->events[c->a];
	uint64_t total = 0, mine = 0;
	for (unsigned k = 0; k < l->nsum; k++) {
		uint64_t run = r->g[m->events[l->sum[k]].group].run;
		total += run;
		mine += (int)k == c->b ? run : 0;
	}
	if (!total)
		return val_missing(VAL_EMPTY, WHY_NONE);
	return (struct val){
		.v = 100.0 * (double)mine / (double)total, .state = VAL_EXACT, .run_pm = 1000};
}

/* The share columns of the logical cycles (the IPC pane's), by core PMU. */
static void core_share_columns(const struct model *m, struct pane *p)
{
	static const struct {
		const char *pmu, *title;
	} kinds[] = {{"[cpu_core]", "CORE%"}, {"[cpu_atom]", "ATOM%"}};
	int l = model_role(m, ROLE_CYCLES);
	if (l < 0 || !m->events[l].logical)
		return;
	for (unsigned k = 0; k < m->events[l].nsum; k++) {
		const char *name = m->events[m->events[l].sum[k]].name;
		for (size_t j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++) {
			if (!strstr(name, kinds[j].pmu))
				continue;
			struct column c = {
				.name = kinds[j].title,
				.title = kinds[j].title,
				.width = 7,
				.desc_first = true,
				.kind = COL_METRIC,
				.a = l,
				.b = (int)k,
				.mul = 1,
				.value = column_core_share,
				.fmt = FMT_PCT,
				.format = column_fmt_pct,
				.help = "share of its time on this core type (hybrid CPU)"};
			columns_pane_add(p, &c);
		}
	}
}

/* The metrics of one role as columns: their ids and titles are the binding's. */
static void metric_pane(const struct model *m, const char *name, enum metric_role role,
			struct pane *p)
{
	struct metric_bind *b = m->metrics;
	columns_pane_start(p, name, m);
	unsigned first = p->ncols;
	for (unsigned k = 0; k < metric_bind_count(b); k++) {
		/* Level 2 (TopdownL2, PipelineL2) goes with the other metrics. */
		enum metric_role r = metric_bind_role(b, k);
		if ((r == MROLE_TOPDOWN2 ? MROLE_OTHER : r) != role)
			continue;
		const char *title = metric_bind_title(b, k);
		const struct metric_def *d = metric_bind_def(b, k);
		int w = (int)strlen(title) + 2;
		bool pct = metric_bind_is_pct(b, k);
		struct column c = {.name = metric_bind_name(b, k),
				   .title = title,
				   .width = w < 7 ? 7 : w,
				   .desc_first = true,
				   .kind = COL_METRIC,
				   .a = (int)k,
				   .b = -1,
				   .mul = 1,
				   .value = column_metric,
				   .never = column_never,
				   .help = d->desc ? d->desc : d->name};
		c.fmt = pct ? FMT_PCT : FMT_RATIO;
		c.format = pct ? column_fmt_ratio_pct : column_fmt_ratio;
		columns_pane_add(p, &c);
	}
	if (role == MROLE_TOPDOWN1)
		core_share_columns(m, p);
	columns_pane_end(p);
	if (p->cols[first].kind == COL_METRIC)
		p->sort_default = (int)first;
}

unsigned metric_bind_panes(const struct model *m, struct pane *out, unsigned max)
{
	unsigned n = 0;
	struct metric_bind *b = m->metrics;
	if (!b)
		return 0;
	if (n < max && metric_bind_count_role(b, MROLE_TOPDOWN1) &&
	    !metric_bind_topdown_reason(b, m))
		metric_pane(m, "Top-down", MROLE_TOPDOWN1, &out[n++]);
	if (n < max &&
	    metric_bind_count_role(b, MROLE_OTHER) + metric_bind_count_role(b, MROLE_TOPDOWN2))
		metric_pane(m, "Metrics", MROLE_OTHER, &out[n++]);
	return n;
}
