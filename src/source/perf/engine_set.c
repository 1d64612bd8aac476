/* Changing what is counted while it runs: groups that stay keep their descriptors and
 * their history, new ones open on every target, dropped ones close. */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine_priv.h"
#include "evgroup.h"
#include "tasktab.h"

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

struct remap {
	const struct evset *os, *ns;
	const unsigned *oslot, *nslot;
	const int *gmap;
	struct counts_layout ol, nl;
};

/* Move the kept groups of c into a block for the new layout; close the dropped ones. */
static int move_counts(const struct remap *r, struct counts *c)
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

static void open_new_groups(struct engine *e, const int *gmap, pid_t pid, int cpu, bool root,
			    struct counts *c)
{
	for (unsigned g = 0; g < e->set->specs.n; g++) {
		if (gmap[g] >= 0)
			continue;
		/* Hardware: the threads' own groups count it. Software, without thread rows
		 * of a watched process: its roots do. */
		if ((root && !e->rootable[g]) || (!root && pid > 0 && engine_lean_group(e, g)))
			memset(c->why + e->set->groups[g].first, WHY_GONE, e->set->groups[g].n);
		else
			engine_open_group(e, g, pid, cpu, false, root, c);
	}
}

/* A rooted process's new groups open on its roots that still run. */
static int move_roots(struct engine *e, const struct remap *r, struct proc *p)
{
	for (unsigned k = 0; k < p->nroots; k++) {
		int err = move_counts(r, &p->roots[k].c);
		if (err)
			return err;
		if (p->roots[k].state == ROOT_LIVE)
			open_new_groups(e, r->gmap, p->roots[k].tid, -1, true, &p->roots[k].c);
	}
	return 0;
}

/* ... and on its threads that started since it was rooted: the old groups count them
 * through inheritance, no root of the new ones does. (With the new layout in place.) */
static int root_new_threads(struct engine *e, const int *gmap, struct proc *p)
{
	unsigned n = p->nroots;
	for (struct task *t = p->threads; t; t = t->sibling) {
		if (t->state != TASK_LIVE)
			continue;
		bool rooted = false;
		for (unsigned k = 0; k < n && !rooted; k++)
			rooted = p->roots[k].tid == t->tid && p->roots[k].state == ROOT_LIVE;
		if (!rooted && !engine_add_root(e, p, t->tid, false, gmap))
			return -ENOMEM;
	}
	return 0;
}

int engine_switch_set(struct engine *e, const struct evset *ns)
{
	const struct evset *os = e->set;
	int *gmap = calloc(ns->specs.n + 1, sizeof(*gmap));
	int *emap = calloc(ns->nevents + 1, sizeof(*emap));
	unsigned *oslot = calloc(os->specs.n + 1, sizeof(*oslot));
	int err = -ENOMEM;
	if (!gmap || !emap || !oslot)
		goto out;
	map_groups(os, ns, gmap);
	for (unsigned i = 0; i < ns->nevents; i++) {
		int og = gmap[ns->events[i].group];
		emap[i] = og < 0 ? -1 : (int)(os->groups[og].first + ns->events[i].member);
		if (og >= 0 && ns->events[i].logical)
			emap[i] = logical_in(os, (unsigned)og, ns->events[i].name);
	}
	memcpy(oslot, e->slot, os->specs.n * sizeof(*oslot));
	/* Cgroups' counters open again in the new layout at the next tick. */
	cgcount_rows_close(e);
	struct counts_layout ol = e->l;
	if ((err = engine_layout(e, ns)))
		goto out;
	/* Rows are rebuilt for the new columns at the next tick; until then there are none
	 * rather than rows in the old layout (also when what follows fails: the next rows
	 * are made, and their unsupported cells written, for the new one). */
	mstore_free(&e->rows);
	e->m.nrows = 0;
	e->m.ncpu_rows = 0;
	if ((err = engine_cpu_rows_alloc(e)))
		goto out;
	struct remap r = {.os = os,
			  .ns = ns,
			  .oslot = oslot,
			  .nslot = e->slot,
			  .gmap = gmap,
			  .ol = ol,
			  .nl = e->l};

	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		for (struct task *t = p->threads; t; t = t->sibling) {
			if ((err = move_counts(&r, &t->c)))
				goto out;
			if (t->state == TASK_LIVE && !p->ignored)
				open_new_groups(e, gmap, t->tid, -1, false, &t->c);
		}
		if (p->rooted && (err = move_roots(e, &r, p)))
			goto out;
	}
	if ((err = tasktab_set_layout(e->tab, &e->l, emap)))
		goto out;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->rooted && (err = root_new_threads(e, gmap, p)))
			goto out;
	for (int i = 0; i < e->cpu.n; i++) {
		if ((err = move_counts(&r, &e->cpu.cnt[i])))
			goto out;
		if (e->o.per_cpu)
			open_new_groups(e, gmap, -1, e->cpu.id[i], false, &e->cpu.cnt[i]);
		else
			memset(e->cpu.cnt[i].why, WHY_UNSUPPORTED, e->l.nevents);
	}
	/* -G: each cgroup on each CPU, as cgcount_open laid them out. */
	for (size_t i = 0; e->cpu.n > 0 && i < (size_t)e->cg.n * (size_t)e->cpu.n; i++) {
		if ((err = move_counts(&r, &e->cg.cnt[i])))
			goto out;
		open_new_groups(e, gmap, e->o.cgroup_fds[i / (size_t)e->cpu.n],
				e->cpu.id[i % (size_t)e->cpu.n], false, &e->cg.cnt[i]);
	}
out:
	free(gmap);
	free(emap);
	free(oslot);
	return err;
}

void engine_set_restart_rows(struct engine *e)
{
	if (!e->bpf_restarted)
		return;
	e->bpf_restarted = false;
	for (unsigned i = 0; i < e->m.nrows; i++) {
		struct mrow_w w = mstore_at(&e->rows, i);
		for (unsigned k = 0; k < e->nlive; k++)
			if (w.v[e->live[k]].state != VAL_NA)
				w.v[e->live[k]] = val_missing(VAL_NC, WHY_STARTING);
	}
}

/* Slots, scratch sums and the model's event tables for set. */
void engine_layout_free(struct engine *e)
{
	free(e->slot);
	free(e->acc);
	free(e->acc_ok);
	free(e->acc_miss);
	free(e->acc_miss_why);
	free(e->acc_why);
	free(e->acc_fresh);
	free(e->res_ena);
	free(e->res_d);
	free(e->rootable);
	free(e->dead);
	free(e->gdead);
	free(e->live);
}

int engine_layout(struct engine *e, const struct evset *set)
{
	unsigned ng = set->specs.n, ne = set->nevents;
	engine_layout_free(e);
	e->dead = calloc(ne + 1, 1);
	e->gdead = calloc(ng + 1, 1);
	e->live = calloc(ne + 1, sizeof(*e->live));
	e->acc_fresh = calloc(ng + 1, 1);
	e->res_ena = calloc(ng + 1, sizeof(*e->res_ena));
	e->res_d = calloc(ne + 1, sizeof(*e->res_d));
	e->rootable = calloc(ng + 1, 1);
	e->slot = calloc(ng + 1, sizeof(*e->slot));
	e->acc = calloc(ne + 1, sizeof(*e->acc));
	e->acc_ok = calloc(ne + 1, sizeof(*e->acc_ok));
	e->acc_miss = calloc(ne + 1, sizeof(*e->acc_miss));
	e->acc_miss_why = calloc(ne + 1, 1);
	e->acc_why = calloc(ne + 1, 1);
	if (!e->slot || !e->acc || !e->acc_ok || !e->acc_why || !e->acc_fresh || !e->res_ena ||
	    !e->res_d || !e->rootable || !e->dead || !e->gdead || !e->live || !e->acc_miss ||
	    !e->acc_miss_why)
		return -ENOMEM;
	e->nlive = 0;
	for (unsigned g = 0; g < ng; g++) {
		const struct mgroup *mg = &set->groups[g];
		e->gdead[g] = set->preset != NULL && mg->n > 0;
		for (unsigned k = 0; k < mg->n; k++) {
			e->dead[mg->first + k] =
				set->preset && set->preset[g][k] == EVS_UNSUPPORTED;
			e->gdead[g] = e->gdead[g] && e->dead[mg->first + k];
		}
	}
	for (unsigned ev = 0; ev < ne; ev++) {
		const struct mevent *me = &set->events[ev];
		if (me->logical) {
			e->dead[ev] = me->nsum > 0;
			for (unsigned k = 0; k < me->nsum; k++)
				e->dead[ev] = e->dead[ev] && e->dead[me->sum[k]];
		}
		if (!e->dead[ev])
			e->live[e->nlive++] = ev;
	}
	e->logical = false;
	for (unsigned ev = 0; ev < ne; ev++)
		e->logical = e->logical || set->events[ev].logical;
	/* The probed group: the first probeable one that counts. None when an event of any
	 * group may count into a task that is asleep. */
	e->probe_g = -1;
	bool remote = false;
	for (unsigned g = 0; g < ng; g++)
		remote = remote || evgroup_spec_remote(&set->specs.g[g]);
	for (unsigned g = 0; g < ng && e->probe_g < 0 && !remote; g++) {
		if (evgroup_spec_probeable(&set->specs.g[g]) && !e->dead[set->groups[g].first]) {
			e->probe_g = (int)g;
			e->probe_ev = set->groups[g].first;
		}
	}
	/* Roots hold software groups: a hardware group opened twice on one thread would take
	 * counters from itself. With --children they hold every group: the children's
	 * processes are counted by inheritance alone. */
	for (unsigned g = 0; g < ng; g++) {
		e->rootable[g] = 1;
		for (unsigned k = 0; k < set->specs.g[g].n && !e->o.inherit; k++)
			e->rootable[g] = e->rootable[g] && set->specs.g[g].ev[k].software;
	}
	e->set = set;
	e->fill = (struct rowfill){.events = set->events,
				   .nevents = ne,
				   .groups = set->groups,
				   .ngroups = ng,
				   .dead = e->dead,
				   .gdead = e->gdead,
				   .live = e->live,
				   .nlive = e->nlive};
	e->l = (struct counts_layout){.ngroups = ng, .nevents = ne};
	for (unsigned g = 0; g < ng; g++) {
		e->slot[g] = e->l.nslots;
		e->l.nslots += 2 + set->groups[g].n;
	}
	e->m.nevents = ne;
	e->m.events = set->events;
	e->m.ngroups = ng;
	e->m.groups = set->groups;
	return 0;
}
