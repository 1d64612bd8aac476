/* Honest sums of rows: see rowsum.h. */
#include "rowsum.h"

#include <string.h>

void rowsum_add(const struct model *m, const struct mrow *r, struct rowsum_part *parts,
		struct val_delta *g)
{
	for (unsigned e = 0; e < m->nevents; e++) {
		struct val v = r->v[e];
		struct rowsum_part *p = &parts[e];
		switch (v.state) {
		case VAL_EXACT:
		case VAL_SCALED:
			p->sum += v.v;
			v.state == VAL_EXACT ? p->exact++ : p->scaled++;
			break;
		case VAL_PARTIAL:
			p->sum += v.v;
			p->partial_pm += v.run_pm;
			if (!p->partial++)
				p->partial_why = v.why;
			break;
		case VAL_NC:
			if (!p->nc++)
				p->nc_why = v.why;
			break;
		default:
			if (!p->na++)
				p->na_why = v.why;
			break;
		}
	}
	for (unsigned i = 0; i < m->ngroups; i++) {
		g[i].ena += r->g[i].ena;
		g[i].run += r->g[i].run;
	}
}

struct val rowsum_val(const struct rowsum_part *p, const struct val_delta *g)
{
	if (p->exact + p->scaled + p->partial == 0)
		return p->nc ? val_missing(VAL_NC, (enum val_why)p->nc_why)
			     : val_missing(VAL_NA, (enum val_why)p->na_why);
	struct val v = {.v = p->sum, .state = VAL_EXACT, .run_pm = 1000};
	if (p->partial || p->nc || p->na) {
		/* A lower bound: the share of parts counted, a partial part for its own. */
		double parts = p->exact + p->scaled + p->partial + p->nc + p->na;
		double pm = (1000.0 * (p->exact + p->scaled) + p->partial_pm) / parts;
		v.state = VAL_PARTIAL;
		v.why = p->partial ? p->partial_why : p->nc ? p->nc_why : p->na_why;
		v.run_pm = val_pm_some(pm);
		return v;
	}
	if (p->scaled)
		v.state = VAL_SCALED;
	if (g->ena && g->run < g->ena)
		v.run_pm = (uint16_t)(1000 * g->run / g->ena);
	return v;
}

void rowsum_rows(const struct model *m, const unsigned *idx, size_t n, struct mrow_w out,
		 struct rowsum_part *parts)
{
	memset(parts, 0, m->nevents * sizeof(*parts));
	memset(out.g, 0, m->ngroups * sizeof(*out.g));
	for (size_t i = 0; i < n; i++)
		rowsum_add(m, &m->rows[idx[i]], parts, out.g);
	struct val *v = out.v;
	for (unsigned e = 0; e < m->nevents; e++)
		v[e] = rowsum_val(&parts[e], &out.g[m->events[e].group]);
}
