/* Opening, closing and reading one task's groups (or a watched process's root's). */
#include "engine_priv.h"

#include <errno.h>
#include <string.h>

#include "evgroup.h"
#include "tasktab.h"

/* Open group g of one task (or a watched process's root) into c. Returns -ESRCH when
 * the task is gone, -EMFILE/-ENFILE when out of descriptors, else 0. */
int targets_open_group(struct engine *e, unsigned g, pid_t pid, int cpu, bool on_exec, bool root,
		       struct counts *c)
{
	/* A root inherits into the threads (with --children, the processes too) its task
	 * starts. Without roots (an old kernel), --children makes every group inherit. */
	if (!root && pid > 0 && cpu < 0 && procacct_group(e, g))
		return procacct_open(e, g, pid, c);
	bool inherit = pid > 0 && (root || (!e->roots && e->b.o.inherit));
	struct evgroup_opts o = {.pid = pid,
				 .cpu = cpu,
				 .enable_on_exec = on_exec,
				 .inherit = inherit,
				 .inherit_thread = !e->b.o.inherit,
				 .probe = (int)g == e->probe_g && pid > 0 && !inherit};
	return srcbase_open_group(&e->b, g, &o, c);
}

bool targets_lean_group(const struct engine *e, unsigned g)
{
	/* A command that started a process: its row counts itself, its roots the tree. */
	return e->roots && !e->tree_split && !e->b.o.threads && e->rootable[g];
}

/* A second set of the roots' events on the one thread would be switched out and in with
 * them at every context switch (perf stat -p has one); thread rows come with a second
 * thread. A command's processes keep theirs (-- COMMAND -H: its tree's rows). */
bool targets_single(const struct engine *e, const struct proc *p)
{
	return p && e->roots && p->keep && !p->multi && !e->b.o.enable_on_exec;
}

bool targets_lean_task(const struct engine *e, const struct proc *p, unsigned g)
{
	return targets_lean_group(e, g) || (targets_single(e, p) && e->rootable[g]);
}

void targets_thread_added(struct engine *e, struct task *t)
{
	struct proc *p = t->proc;
	if (!targets_single(e, p))
		return;
	bool other = false;
	for (struct task *q = p->threads; q; q = q->sibling)
		other = other || (q != t && q->state == TASK_LIVE && !q->vanished);
	if (!other)
		return;
	p->multi = true;
	for (struct task *q = p->threads; q; q = q->sibling)
		for (unsigned g = 0; q != t && q->state == TASK_LIVE && g < engine_ngroups(e); g++)
			if (!q->c.grp[g] && !e->b.gdead[g] && !targets_lean_task(e, p, g))
				targets_open_group(e, g, q->tid, -1, false, false, &q->c);
}

/* Open every group of one target (a watched thread: not those its roots count, while
 * no thread row needs them). Stops at -ESRCH; reports -EMFILE/-ENFILE. */
int targets_open(struct engine *e, const struct proc *p, pid_t pid, int cpu, bool on_exec,
		 struct counts *c)
{
	int ret = 0;
	for (unsigned g = 0; g < engine_ngroups(e); g++) {
		if (pid > 0 && targets_lean_task(e, p, g)) {
			/* Its process row comes from the roots: a second copy of the same
			 * events on the thread would only cost (two event sets to switch at
			 * each context switch, and no inherited context to swap). */
			memset(c->why + e->b.set->groups[g].first, WHY_GONE, e->b.set->groups[g].n);
			continue;
		}
		if (c->grp[g])
			continue; /* already open: targets_thread_added got there first */
		int err = targets_open_group(e, g, pid, cpu, on_exec, false, c);
		if (err)
			ret = err;
		if (err == -ESRCH)
			break;
	}
	return ret;
}

void targets_close(struct engine *e, struct counts *c)
{
	if (counts_close(c, &e->b.l))
		e->fds_freed = true;
}

void targets_task_open(struct engine *e, struct task *t)
{
	int err = targets_open(e, t->proc, t->tid, -1, t->enable_on_exec, &t->c);
	t->fd_short = err == -EMFILE || err == -ENFILE;
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		if (t->c.grp[g])
			t->counted = true;
	if (err == -ESRCH) {
		/* Gone before we could count it: it leaves without a row. */
		targets_close(e, &t->c);
		t->vanished = true;
		t->state = TASK_EXITED;
		e->nexited++;
	}
}

struct root *targets_add_root(struct engine *e, struct proc *p, pid_t tid, bool on_exec,
			      const int *gmap)
{
	struct root *r = tasktab_add_root(e->tab, p, tid);
	if (!r)
		return NULL;
	for (unsigned g = 0; g < engine_ngroups(e); g++) {
		if ((gmap && gmap[g] >= 0) || !e->rootable[g]) {
			/* Counted by the roots the process already has, or (hardware) by
			 * its threads' own groups: a second copy on the same thread would
			 * take PMU counters from the first and multiplex both. */
			memset(r->c.why + e->b.set->groups[g].first, WHY_GONE,
			       e->b.set->groups[g].n);
			continue;
		}
		if (targets_open_group(e, g, tid, -1, on_exec, true, &r->c) == -ESRCH) {
			counts_close(&r->c, &e->b.l);
			r->state = ROOT_DONE;
			break;
		}
	}
	return r;
}

/* Root p on each of its live threads (when watching starts, or starts over). */
void targets_root_proc(struct engine *e, struct proc *p)
{
	tasktab_drop_roots(e->tab, p);
	p->rooted = true;
	for (struct task *t = p->threads; t; t = t->sibling)
		if (t->state == TASK_LIVE && !t->vanished)
			targets_add_root(e, p, t->tid, t->enable_on_exec, NULL);
}

/* After the threads' reads: the roots' reads. When the process is gone, their last. */
void targets_read_roots(struct engine *e, struct proc *p)
{
	bool gone = true;
	for (struct task *t = p->threads; t && gone; t = t->sibling)
		gone = t->state == TASK_EXITED;
	for (unsigned i = 0; i < p->nroots; i++) {
		struct root *r = &p->roots[i];
		if (r->state == ROOT_FINAL)
			r->state = ROOT_DONE; /* no longer summed */
		if (r->state != ROOT_LIVE)
			continue;
		srcbase_read(&e->b, &r->c);
		if (gone) {
			/* Every thread has exited, and with it folded its counts into its
			 * parent event (perf_event_exit_task) before leaving /proc. */
			counts_close(&r->c, &e->b.l);
			r->state = ROOT_FINAL;
		}
	}
}

/* Reopen the hardware groups of one task or root the way it opened them; its software
 * groups keep counting and their history. */
static void reopen_hw(struct engine *e, const struct proc *p, struct counts *c, pid_t pid, int cpu,
		      bool root)
{
	for (unsigned g = 0; g < engine_ngroups(e); g++) {
		if (!srcbase_group_hw(&e->b, g) || e->b.gdead[g] || (root && !e->rootable[g]) ||
		    (pid > 0 && !root && targets_lean_task(e, p, g)))
			continue;
		if (c->grp[g]) {
			evgroup_free(c->grp[g]);
			c->grp[g] = NULL;
			e->fds_freed = true;
		}
		targets_open_group(e, g, pid, cpu, false, root, c);
	}
}

void targets_reopen_hw(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (p->ignored)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling)
			if (t->state == TASK_LIVE && !t->fd_short)
				reopen_hw(e, p, &t->c, t->tid, -1, false);
		for (unsigned k = 0; k < p->nroots; k++)
			if (p->roots[k].state == ROOT_LIVE)
				reopen_hw(e, p, &p->roots[k].c, p->roots[k].tid, -1, true);
	}
	cpurows_reopen_hw(&e->b);
}
