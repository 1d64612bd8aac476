/* The event set's layout (slots, sums, dead events, the row writer's tables), and
 * changing what is counted while it runs: groups that stay keep their descriptors and
 * their history, new ones open, dropped ones close. */
#include "srcbase.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void srcbase_layout_free(struct srcbase *b)
{
	free(b->slot);
	free(b->acc);
	free(b->acc_ok);
	free(b->acc_miss);
	free(b->acc_miss_why);
	free(b->acc_why);
	free(b->acc_fresh);
	free(b->res_ena);
	free(b->res_d);
	free(b->dead);
	free(b->gdead);
	free(b->live);
}

int srcbase_layout(struct srcbase *b, const struct evset *set)
{
	unsigned ng = set->specs.n, ne = set->nevents;
	srcbase_layout_free(b);
	b->dead = calloc(ne + 1, 1);
	b->gdead = calloc(ng + 1, 1);
	b->live = calloc(ne + 1, sizeof(*b->live));
	b->acc_fresh = calloc(ng + 1, 1);
	b->res_ena = calloc(ng + 1, sizeof(*b->res_ena));
	b->res_d = calloc(ne + 1, sizeof(*b->res_d));
	b->slot = calloc(ng + 1, sizeof(*b->slot));
	b->acc = calloc(ne + 1, sizeof(*b->acc));
	b->acc_ok = calloc(ne + 1, sizeof(*b->acc_ok));
	b->acc_miss = calloc(ne + 1, sizeof(*b->acc_miss));
	b->acc_miss_why = calloc(ne + 1, 1);
	b->acc_why = calloc(ne + 1, 1);
	if (!b->slot || !b->acc || !b->acc_ok || !b->acc_why || !b->acc_fresh || !b->res_ena ||
	    !b->res_d || !b->dead || !b->gdead || !b->live || !b->acc_miss || !b->acc_miss_why)
		return -ENOMEM;
	b->nlive = 0;
	for (unsigned g = 0; g < ng; g++) {
		const struct mgroup *mg = &set->groups[g];
		b->gdead[g] = set->preset != NULL && mg->n > 0;
		for (unsigned k = 0; k < mg->n; k++) {
			b->dead[mg->first + k] =
				set->preset && set->preset[g][k] == EVS_UNSUPPORTED;
			b->gdead[g] = b->gdead[g] && b->dead[mg->first + k];
		}
	}
	for (unsigned ev = 0; ev < ne; ev++) {
		const struct mevent *me = &set->events[ev];
		if (me->logical) {
			b->dead[ev] = me->nsum > 0;
			for (unsigned k = 0; k < me->nsum; k++)
				b->dead[ev] = b->dead[ev] && b->dead[me->sum[k]];
		}
		if (!b->dead[ev])
			b->live[b->nlive++] = ev;
	}
	b->logical = false;
	for (unsigned ev = 0; ev < ne; ev++)
		b->logical = b->logical || set->events[ev].logical;
	b->set = set;
	b->fill = (struct rowfill){.events = set->events,
				   .nevents = ne,
				   .groups = set->groups,
				   .ngroups = ng,
				   .dead = b->dead,
				   .gdead = b->gdead,
				   .live = b->live,
				   .nlive = b->nlive};
	b->l = (struct counts_layout){.ngroups = ng, .nevents = ne};
	for (unsigned g = 0; g < ng; g++) {
		b->slot[g] = b->l.nslots;
		b->l.nslots += 2 + set->groups[g].n;
	}
	b->m.nevents = ne;
	b->m.events = set->events;
	b->m.ngroups = ng;
	b->m.groups = set->groups;
	return 0;
}

static bool same_group(const struct evgroup_spec *a, const struct evgroup_spec *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned k = 0; k < a->n; k++)
		if (strcmp(a->ev[k].name, b->ev[k].name) != 0 ||
		    memcmp(&a->ev[k].attr, &b->ev[k].attr, sizeof(a->ev[k].attr)) != 0)
			return false;
	return true;
}

/* For each group of ns, the group of os it continues, or -1. */
static void map_groups(const struct evset *os, const struct evset *ns, int *gmap)
{
	bool used[256] = {false};
	for (unsigned g = 0; g < ns->specs.n; g++) {
		gmap[g] = -1;
		for (unsigned o = 0; o < os->specs.n && o < 256; o++) {
			if (!used[o] && same_group(&os->specs.g[o], &ns->specs.g[g])) {
				gmap[g] = (int)o;
				used[o] = true;
				break;
			}
		}
	}
}

/* The old set's logical event of the same name over group og, or -1. */
static int logical_in(const struct evset *os, unsigned og, const char *name)
{
	for (unsigned i = 0; i < os->nevents; i++)
		if (os->events[i].logical && os->events[i].group == og &&
		    strcmp(os->events[i].name, name) == 0)
			return (int)i;
	return -1;
}

int srcremap_move(const struct srcremap *r, struct counts *c)
{
	struct counts n;
	if (counts_alloc(&n, &r->nl))
		return -ENOMEM;
	for (unsigned g = 0; g < r->ns->specs.n; g++) {
		const struct mgroup *ng = &r->ns->groups[g];
		int og = r->gmap[g];
		if (og < 0) {
			memset(n.why + ng->first, WHY_GONE, ng->n); /* until opened */
			continue;
		}
		const struct mgroup *oldg = &r->os->groups[og];
		n.grp[g] = c->grp[og];
		c->grp[og] = NULL;
		memcpy(n.prev + r->nslot[g], c->prev + r->oslot[og], (2 + ng->n) * sizeof(*n.prev));
		memcpy(n.d + ng->first, c->d + oldg->first, ng->n * sizeof(*n.d));
		memcpy(n.why + ng->first, c->why + oldg->first, ng->n);
		n.fresh[g] = c->fresh[og];
	}
	counts_free(c, &r->ol);
	*c = n;
	return 0;
}

void srcremap_free(struct srcremap *r)
{
	free(r->gmap);
	free(r->emap);
	free(r->oslot);
	memset(r, 0, sizeof(*r));
}

int srcbase_switch(struct srcbase *b, const struct evset *ns, struct srcremap *r)
{
	const struct evset *os = b->set;
	*r = (struct srcremap){.os = os, .ns = ns, .ol = b->l};
	r->gmap = calloc(ns->specs.n + 1, sizeof(*r->gmap));
	r->emap = calloc(ns->nevents + 1, sizeof(*r->emap));
	r->oslot = calloc(os->specs.n + 1, sizeof(*r->oslot));
	if (!r->gmap || !r->emap || !r->oslot)
		return -ENOMEM;
	map_groups(os, ns, r->gmap);
	for (unsigned i = 0; i < ns->nevents; i++) {
		int og = r->gmap[ns->events[i].group];
		r->emap[i] = og < 0 ? -1 : (int)(os->groups[og].first + ns->events[i].member);
		if (og >= 0 && ns->events[i].logical)
			r->emap[i] = logical_in(os, (unsigned)og, ns->events[i].name);
	}
	memcpy(r->oslot, b->slot, os->specs.n * sizeof(*r->oslot));
	int err = srcbase_layout(b, ns);
	if (err)
		return err;
	r->nslot = b->slot;
	r->nl = b->l;
	/* Rows are rebuilt for the new columns at the next tick; until then there are none
	 * rather than rows in the old layout (also when what follows fails: the next rows
	 * are made, and their unsupported cells written, for the new one). */
	mstore_free(&b->rows);
	b->m.nrows = 0;
	b->m.ncpu_rows = 0;
	if ((err = cpurows_alloc(b)))
		return err;
	for (int i = 0; i < b->cpu.n; i++) {
		if ((err = srcremap_move(r, &b->cpu.cnt[i])))
			return err;
		if (b->o.per_cpu)
			srcbase_open_new(b, r->gmap, -1, b->cpu.id[i], false, &b->cpu.cnt[i]);
		else
			memset(b->cpu.cnt[i].why, WHY_UNSUPPORTED, b->l.nevents);
	}
	return 0;
}
