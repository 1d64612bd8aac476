/* From counts to rows: sums per process, scaling, thread rows, totals. */
#include "engine_priv.h"

#include <stdlib.h>
#include <string.h>

#include "procfs.h"
#include "procinfo.h"
#include "tasktab.h"

/* The values of the dead events (and groups) in one row: the same in every task row. */
static void fill_dead(const struct engine *e, struct val *v, struct val_delta *gd)
{
	for (unsigned ev = 0; ev < e->b.set->nevents; ev++)
		if (e->b.dead[ev])
			v[ev] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		if (e->b.gdead[g])
			gd[g] = (struct val_delta){0, 0, 0};
}

static bool ensure_rows(struct engine *e, size_t need)
{
	long first = mstore_reserve(&e->b.rows, need, e->b.set->nevents, engine_ngroups(e));
	if (first < 0)
		return false;
	for (size_t i = (size_t)first; i < e->b.rows.cap; i++) {
		struct mrow_w w = mstore_at(&e->b.rows, i);
		fill_dead(e, w.v, w.g);
	}
	return true;
}

static uint64_t comm_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h | 1; /* never 0: 0 is "not read" */
}

/* A process's arguments, read once (and again after an exec renamed it). A process
 * gone meanwhile, or a kernel thread, has none: "". */
static const char *proc_cmdline(const struct engine *e, struct proc *p)
{
	uint64_t h = comm_hash(p->comm);
	if (p->cmdline && p->cmd_hash == h)
		return p->cmdline;
	char buf[4096];
	if (p->kthread || procfs_cmdline(e->b.o.root, p->pid, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	char *c = strdup(buf);
	if (!c)
		return p->cmdline; /* the old one, or none, until memory comes back */
	free(p->cmdline);
	p->cmdline = c;
	p->cmd_hash = h;
	return c;
}

static void proc_row(const struct engine *e, struct proc *p, struct mrow *r)
{
	r->kind = ROW_PROC;
	r->pid = r->tid = p->pid;
	r->ppid = p->ppid;
	r->rss_kb = p->rss_kb;
	r->start_ticks = p->start_ticks;
	r->state = p->state;
	r->have_sched = p->have_sched;
	r->nice = p->nice;
	r->cpu_ns = p->cpu_ns;
	r->more = p->more;
	r->uid = p->uid;
	if (!p->user || p->user_uid != p->uid) { /* the name looked up once per owner */
		p->user = procfs_user_name(p->uid);
		p->user_uid = p->uid;
	}
	r->user = p->user;
	r->comm = p->comm;
	r->cmdline = e->b.cmdline ? proc_cmdline(e, p) : NULL;
	r->cgroup = p->cgroup;
	r->kthread = p->kthread;
}

/* A thread's row as its process's (pr), but for what is its own; values not written. */
static void thread_row_head(const struct mrow *pr, const struct task *t, struct mrow_w tr)
{
	*tr.r = *pr;
	tr.r->v = tr.v;
	tr.r->g = tr.g;
	tr.r->kind = ROW_THREAD;
	tr.r->tid = t->tid;
	tr.r->comm = t->comm;
	tr.r->nthreads = 1;
	tr.r->exited = t->state == TASK_EXITED;
}

static void thread_row(struct engine *e, const struct mrow *pr, const struct task *t,
		       struct mrow_w tr)
{
	thread_row_head(pr, t, tr);
	srcbase_fill(&e->b, t->c.d, t->c.why, t->c.fresh, tr.v, tr.g, true);
}

/* Add block c to the sums: every group (sel -1), or only the groups that roots hold
 * (sel 1) or do not (sel 0). */
static void rowbuild_acc_add(struct engine *e, const struct counts *c, int sel)
{
	srcbase_acc_add(&e->b, c, sel < 0 ? NULL : e->rootable, sel);
}

/* Whether every thread of p was probed asleep this tick with all its live events
 * counting, and its totals count every event: its rows are then the same zeros as a
 * full sum would write (val_scale of nothing, no group fresh), and its totals stay. */
bool rowbuild_asleep(const struct engine *e, const struct proc *p)
{
	if (p->rooted || p->nroots || e->b.totals || !p->tot_clean || !p->threads)
		return false;
	for (const struct task *t = p->threads; t; t = t->sibling)
		if (t->state != TASK_LIVE || !t->c.d_zero || !t->c.clean)
			return false;
	return true;
}

static void zero_values(const struct engine *e, const struct mrow_w *w)
{
	const struct val zero = val_scale((struct val_delta){0, 0, 0});
	for (unsigned i = 0; i < e->b.nlive; i++)
		w->v[e->b.live[i]] = zero;
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		w->g[g] = (struct val_delta){0, 0, 0};
}

/* The rows of a process asleep (proc_asleep): neither its counters nor its totals are
 * looked at. */
static size_t build_asleep(struct engine *e, struct proc *p, size_t i)
{
	p->asleep_tick = e->b.m.tick + 1; /* the tick this is (m.tick counts after) */
	if (p->state == 'R')
		p->state = 'S'; /* it did not run this interval: asleep, not read again */
	procinfo_more_idle(e->b.o.root, p->pid, &p->io, &p->more);
	struct mrow_w pr = mstore_row(&e->b.rows, i++);
	proc_row(e, p, pr.r);
	for (struct task *t = p->threads; t; t = t->sibling)
		pr.r->nthreads++;
	zero_values(e, &pr);
	for (struct task *t = p->threads; e->b.o.threads && t; t = t->sibling) {
		struct mrow_w tr = mstore_row(&e->b.rows, i++);
		thread_row_head(pr.r, t, tr);
		zero_values(e, &tr);
	}
	return i;
}

/* e->b.acc into p's run totals. */
static void acc_to_tot(struct engine *e, struct proc *p)
{
	p->tot_clean = true;
	for (unsigned j = 0; j < e->b.nlive; j++) {
		unsigned ev = e->b.live[j];
		p->tot[ev].ena += e->b.acc[ev].ena;
		p->tot[ev].run += e->b.acc[ev].run;
		p->tot[ev].val += e->b.acc[ev].val;
		p->tot_parts[ev].ena += e->b.acc_ok[ev];
		p->tot_parts[ev].run += e->b.acc_miss[ev];
		if (e->b.acc_miss[ev] && !p->tot_parts[ev].val)
			p->tot_parts[ev].val = e->b.acc_miss_why[ev]; /* the first reason */
		if (e->b.acc_ok[ev])
			p->tot_why[ev] = WHY_NONE;
		else if (p->tot_why[ev] != WHY_NONE)
			p->tot_why[ev] = e->b.acc_why[ev];
		p->tot_clean = p->tot_clean && p->tot_why[ev] == WHY_NONE;
	}
}

/* Sum a process's threads and roots into e->b.acc (raw deltas: scaled once, as the kernel
 * does for inherited counters) and add them to its run totals. A command counting its
 * tree is the exception: its roots, which count every process it started, make its
 * totals, and once it has started one (own), its threads alone its row. Returns the
 * threads summed; *all_exited says whether every one has ended. */
unsigned rowbuild_sum_proc(struct engine *e, struct proc *p, bool add_tot, bool *all_exited)
{
	unsigned n = 0;
	bool tree = p->rooted && e->ctree, own = tree && p->own;
	srcbase_acc_clear(&e->b);
	for (unsigned k = 0; k < p->nroots; k++)
		if (p->roots[k].state != ROOT_DONE)
			rowbuild_acc_add(e, &p->roots[k].c, 1);
	if (tree && add_tot)
		acc_to_tot(e, p);
	if (own)
		srcbase_acc_clear(&e->b);
	*all_exited = true;
	for (struct task *t = p->threads; t; t = t->sibling) {
		if (t->state == TASK_EXITED && t->vanished)
			continue;
		n++;
		*all_exited = *all_exited && t->state == TASK_EXITED;
		rowbuild_acc_add(e, &t->c, p->rooted && !own ? 0 : -1);
	}
	if (add_tot && !tree)
		acc_to_tot(e, p);
	p->own = p->own || p->own_open; /* its groups' first reads were this tick's */
	return n;
}

/* A process's values from the parts of it counted, some others not: lower bounds. */
static void mark_partial(const struct engine *e, struct val *v)
{
	for (unsigned i = 0; i < e->b.nlive; i++) {
		unsigned ev = e->b.live[i];
		if (e->b.acc_miss[ev] && e->b.acc_ok[ev])
			v[ev] = val_partial(v[ev], e->b.acc_ok[ev], e->b.acc_miss[ev],
					    (enum val_why)e->b.acc_miss_why[ev]);
	}
}

/* Sum a process (sum_proc) and write its rows. Returns the next free row. */
static size_t build_proc(struct engine *e, struct proc *p, size_t i, bool add_tot)
{
	if (rowbuild_asleep(e, p))
		return build_asleep(e, p, i);
	/* It ran: its state, resident memory and cgroup now (a process moved to another
	 * cgroup, by cgroup.procs, counts there from the next tick); a process that did not
	 * run keeps what it had, so the cost scales with what runs. */
	struct procfs_now now = {0};
	if (!p->exited && procfs_proc_now(e->b.o.root, p->pid, &now, NULL) == 0) {
		discover_cgroup(e, p);
		p->state = now.state;
		p->rss_kb = now.rss_kb;
		p->have_sched = now.have_sched;
		p->nice = now.nice;
		p->cpu_ns = now.cpu_ns;
		procinfo_more_ran(e->b.o.root, p->pid, &now, &p->io, &p->more);
	} else {
		p->more.io = MIO_NA; /* gone: its last interval's I/O was not read */
		if (!p->state)
			p->state = '?';
	}
	/* A fork seen by its parent's event was not read: its start, once. */
	struct procfs_task info;
	if (!p->start_ticks && !p->exited &&
	    procfs_task_info(e->b.o.root, p->pid, p->pid, &info) == 0)
		p->start_ticks = info.start_ticks;
	struct mrow_w pr = mstore_row(&e->b.rows, i++);
	proc_row(e, p, pr.r);
	bool all_exited;
	pr.r->nthreads = rowbuild_sum_proc(e, p, add_tot, &all_exited);
	pr.r->exited = all_exited;
	bool rows = e->b.o.threads && !e->b.totals && !targets_single(e, p);
	for (struct task *t = rows ? p->threads : NULL; t; t = t->sibling)
		if (!(t->state == TASK_EXITED && t->vanished))
			thread_row(e, pr.r, t, mstore_row(&e->b.rows, i++));
	if (e->b.totals) {
		srcbase_fill(&e->b, p->tot, p->tot_why, NULL, pr.v, pr.g, true);
		for (unsigned j = 0; j < e->b.nlive; j++) {
			unsigned ev = e->b.live[j];
			const struct val_delta *n = &p->tot_parts[ev];
			if (n->run && n->ena)
				pr.v[ev] = val_partial(pr.v[ev], (unsigned)n->ena, (unsigned)n->run,
						       (enum val_why)n->val);
		}
	} else {
		srcbase_fill(&e->b, e->b.acc, e->b.acc_why, e->b.acc_fresh, pr.v, pr.g, true);
		mark_partial(e, pr.v);
	}
	return i;
}

void rowbuild_rows(struct engine *e, bool add_tot)
{
	size_t need = tasktab_procs(e->tab) + (e->b.o.threads ? tasktab_tasks(e->tab) : 0);
	size_t n = 0;
	unsigned short_count = 0, ntasks = 0;
	if (ensure_rows(e, need)) {
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
			/* A command's total block is its row alone: its roots' counts, the
			 * whole tree's (the rows of the processes it started count each from
			 * when it was found). */
			if (p->ignored || (e->b.totals && e->ctree && !p->keep))
				continue;
			for (struct task *t = p->threads; t; t = t->sibling) {
				short_count += t->fd_short;
				ntasks++;
			}
			size_t before = n;
			n = build_proc(e, p, n, add_tot);
			/* A process none of whose threads could be counted has no row. */
			if (e->b.rows.rows[before].nthreads == 0 && !p->keep)
				n = before;
		}
	}
	e->b.m.rows = e->b.rows.rows;
	e->b.m.nrows = (unsigned)n;
	e->b.m.ntasks = ntasks;
	e->b.m.nfd_short = short_count;
}
