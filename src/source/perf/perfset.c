/* The event set as perf counts it: its layout's part that is perf's (which groups roots
 * hold, the probed group), and changing it while it runs: groups that stay keep their
 * descriptors and their history, new ones open on every task and root, dropped ones
 * close (the CPUs' part is srcbase_switch). */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine_priv.h"
#include "evgroup.h"
#include "tasktab.h"

static void open_new_groups(struct engine *e, const int *gmap, const struct proc *p, pid_t pid,
			    int cpu, bool root, struct counts *c)
{
	for (unsigned g = 0; g < e->b.set->specs.n; g++) {
		if (gmap[g] >= 0)
			continue;
		/* Hardware: the threads' own groups count it. Software, without thread rows
		 * of a watched process: its roots do. */
		if ((root && !e->rootable[g]) || (!root && pid > 0 && targets_lean_task(e, p, g)))
			memset(c->why + e->b.set->groups[g].first, WHY_GONE, e->b.set->groups[g].n);
		else
			targets_open_group(e, g, pid, cpu, false, root, c);
	}
}

/* A rooted process's new groups open on its roots that still run. */
static int move_roots(struct engine *e, const struct srcremap *r, struct proc *p)
{
	for (unsigned k = 0; k < p->nroots; k++) {
		int err = srcremap_move(r, &p->roots[k].c);
		if (err)
			return err;
		if (p->roots[k].state == ROOT_LIVE)
			open_new_groups(e, r->gmap, p, p->roots[k].tid, -1, true, &p->roots[k].c);
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
		if (!rooted && !targets_add_root(e, p, t->tid, false, gmap))
			return -ENOMEM;
	}
	return 0;
}

int perfset_switch(struct engine *e, const struct evset *ns)
{
	/* Cgroups' counters open again in the new layout at the next tick. */
	cgown_close(e);
	struct srcremap r;
	int err = srcbase_switch(&e->b, ns, &r);
	if (!err)
		err = perfset_layout(e, ns);
	for (struct proc *p = err ? NULL : tasktab_first(e->tab); p; p = p->next) {
		for (struct task *t = p->threads; t; t = t->sibling) {
			if ((err = srcremap_move(&r, &t->c)))
				goto out;
			if (t->state == TASK_LIVE && !p->ignored)
				open_new_groups(e, r.gmap, p, t->tid, -1, false, &t->c);
		}
		if (p->rooted && (err = move_roots(e, &r, p)))
			goto out;
	}
	if (err || (err = tasktab_set_layout(e->tab, &e->b.l, r.emap)))
		goto out;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->rooted && (err = root_new_threads(e, r.gmap, p)))
			goto out;
out:
	srcremap_free(&r);
	return err;
}

/* What the layout of a set is to perf alone: which groups roots may hold, the probed
 * group (after srcbase_layout). */
void perfset_layout_free(struct engine *e)
{
	free(e->rootable);
	e->rootable = NULL;
}

int perfset_layout(struct engine *e, const struct evset *set)
{
	unsigned ng = set->specs.n;
	perfset_layout_free(e);
	e->rootable = calloc(ng + 1, 1);
	if (!e->rootable)
		return -ENOMEM;
	/* The probed group: the first probeable one that counts. None when an event of any
	 * group may count into a task that is asleep. */
	e->probe_g = -1;
	bool remote = false;
	for (unsigned g = 0; g < ng; g++)
		remote = remote || evgroup_spec_remote(&set->specs.g[g]);
	for (unsigned g = 0; g < ng && e->probe_g < 0 && !remote; g++) {
		if (evgroup_spec_probeable(&set->specs.g[g]) && !e->b.dead[set->groups[g].first]) {
			e->probe_g = (int)g;
			e->probe_ev = set->groups[g].first;
		}
	}
	/* Roots hold software groups: a hardware group opened twice on one thread would take
	 * counters from itself. With --children they hold every group: the children's
	 * processes are counted by inheritance alone. */
	for (unsigned g = 0; g < ng; g++) {
		e->rootable[g] = 1;
		for (unsigned k = 0; k < set->specs.g[g].n && !e->b.o.inherit; k++)
			e->rootable[g] = e->rootable[g] && set->specs.g[g].ev[k].software;
	}
	return 0;
}
