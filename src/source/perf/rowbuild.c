/* From counts to rows: sums per process, scaling, thread rows, totals. */
#include "engine_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "evclock.h"
#include "evgroup.h"
#include "hybrid.h"
#include "procfs.h"
#include "taskwatch.h"
#include "tasktab.h"

/* The values of the dead events (and groups) in one row: the same in every task row. */
static void fill_dead(const struct engine *e, struct val *v, struct val_delta *gd)
{
	for (unsigned ev = 0; ev < e->set->nevents; ev++)
		if (e->dead[ev])
			v[ev] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		if (e->gdead[g])
			gd[g] = (struct val_delta){0, 0, 0};
}

static bool ensure_rows(struct engine *e, size_t need)
{
	long first = mstore_reserve(&e->rows, need, e->set->nevents, engine_ngroups(e));
	if (first < 0)
		return false;
	for (size_t i = (size_t)first; i < e->rows.cap; i++) {
		struct mrow_w w = mstore_at(&e->rows, i);
		fill_dead(e, w.v, w.g);
	}
	return true;
}

/* A target's (or a sum's) deltas into a row's values (rowfill.h). On a hybrid CPU a task
 * row's groups of one core type scale by the task's time on that type, not by all its
 * time (hybrid_residency). */
void rowbuild_fill(struct engine *e, const struct val_delta *d, const uint8_t *why,
		   const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live)
{
	if (live && e->set->core) {
		hybrid_residency(e->set->groups, e->set->core, engine_ngroups(e), d, why,
				 e->res_ena);
		for (unsigned ev = 0; ev < e->set->nevents; ev++) {
			e->res_d[ev] = d[ev];
			if (!e->set->events[ev].logical)
				e->res_d[ev].ena = e->res_ena[e->set->events[ev].group];
		}
		d = e->res_d;
	}
	rowfill(&e->fill, d, why, fresh, v, gd, live);
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
	if (p->kthread || procfs_cmdline(e->o.root, p->pid, buf, sizeof(buf)) < 0)
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
	r->uid = p->uid;
	if (!p->user || p->user_uid != p->uid) { /* the name looked up once per owner */
		p->user = procfs_user_name(p->uid);
		p->user_uid = p->uid;
	}
	r->user = p->user;
	r->comm = p->comm;
	r->cmdline = e->cmdline ? proc_cmdline(e, p) : NULL;
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
	rowbuild_fill(e, t->c.d, t->c.why, t->c.fresh, tr.v, tr.g, true);
}

/* A part that should have counted and could not (out of descriptors, a failed read):
 * the sum is then partial. Not a part left to others (a watched thread's groups its roots
 * count, a root's hardware groups: WHY_GONE), nor an event this machine lacks. */
static bool part_missing(uint8_t why)
{
	return why == WHY_FDLIMIT || why == WHY_NOFIT || why == WHY_ERROR;
}

/* Add block c to the sums: every group (sel -1), or only the groups that roots hold
 * (sel 1) or do not (sel 0). */
void rowbuild_acc_add(struct engine *e, const struct counts *c, int sel)
{
	for (unsigned i = 0; i < e->nlive; i++) {
		unsigned ev = e->live[i];
		unsigned g = e->set->events[ev].group;
		if (sel >= 0 && e->rootable[g] != sel)
			continue;
		if (c->why[ev] != WHY_NONE) {
			if (!e->acc_ok[ev])
				e->acc_why[ev] = c->why[ev];
			if (part_missing(c->why[ev]) && !e->acc_miss[ev]++)
				e->acc_miss_why[ev] = c->why[ev];
			continue;
		}
		/* A sum is fresh where every part that counts is: a new thread's first counts
		 * belong in its process's interval, a new process's alone do not. */
		if (c->fresh[g] != FRESH_FIRST_READ)
			e->acc_fresh[g] = FRESH_NO;
		e->acc_ok[ev]++;
		e->acc_why[ev] = WHY_NONE;
		e->acc[ev].ena += c->d[ev].ena;
		e->acc[ev].run += c->d[ev].run;
		e->acc[ev].val += c->d[ev].val;
	}
}

/* Whether every thread of p was probed asleep this tick with all its live events
 * counting, and its totals count every event: its rows are then the same zeros as a
 * full sum would write (val_scale of nothing, no group fresh), and its totals stay. */
bool rowbuild_asleep(const struct engine *e, const struct proc *p)
{
	if (p->rooted || p->nroots || e->totals || !p->tot_clean || !p->threads)
		return false;
	for (const struct task *t = p->threads; t; t = t->sibling)
		if (t->state != TASK_LIVE || !t->c.d_zero || !t->c.clean)
			return false;
	return true;
}

static void zero_values(const struct engine *e, const struct mrow_w *w)
{
	const struct val zero = val_scale((struct val_delta){0, 0, 0});
	for (unsigned i = 0; i < e->nlive; i++)
		w->v[e->live[i]] = zero;
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		w->g[g] = (struct val_delta){0, 0, 0};
}

/* The rows of a process asleep (proc_asleep): neither its counters nor its totals are
 * looked at. */
static size_t build_asleep(struct engine *e, struct proc *p, size_t i)
{
	p->asleep_tick = e->m.tick + 1; /* the tick this is (m.tick counts after) */
	if (p->state == 'R')
		p->state = 'S'; /* it did not run this interval: asleep, not read again */
	struct mrow_w pr = mstore_row(&e->rows, i++);
	proc_row(e, p, pr.r);
	for (struct task *t = p->threads; t; t = t->sibling)
		pr.r->nthreads++;
	zero_values(e, &pr);
	for (struct task *t = p->threads; e->o.threads && t; t = t->sibling) {
		struct mrow_w tr = mstore_row(&e->rows, i++);
		thread_row_head(pr.r, t, tr);
		zero_values(e, &tr);
	}
	return i;
}

static void acc_clear(struct engine *e)
{
	unsigned ne = e->set->nevents;
	memset(e->acc, 0, ne * sizeof(*e->acc));
	memset(e->acc_ok, 0, ne * sizeof(*e->acc_ok));
	memset(e->acc_miss, 0, ne * sizeof(*e->acc_miss));
	memset(e->acc_why, WHY_GONE, ne);
	memset(e->acc_fresh, FRESH_FIRST_READ, engine_ngroups(e));
}

/* e->acc into p's run totals. */
static void acc_to_tot(struct engine *e, struct proc *p)
{
	p->tot_clean = true;
	for (unsigned j = 0; j < e->nlive; j++) {
		unsigned ev = e->live[j];
		p->tot[ev].ena += e->acc[ev].ena;
		p->tot[ev].run += e->acc[ev].run;
		p->tot[ev].val += e->acc[ev].val;
		p->tot_parts[ev].ena += e->acc_ok[ev];
		p->tot_parts[ev].run += e->acc_miss[ev];
		if (e->acc_miss[ev] && !p->tot_parts[ev].val)
			p->tot_parts[ev].val = e->acc_miss_why[ev]; /* the first reason */
		if (e->acc_ok[ev])
			p->tot_why[ev] = WHY_NONE;
		else if (p->tot_why[ev] != WHY_NONE)
			p->tot_why[ev] = e->acc_why[ev];
		p->tot_clean = p->tot_clean && p->tot_why[ev] == WHY_NONE;
	}
}

/* Sum a process's threads and roots into e->acc (raw deltas: scaled once, as the kernel
 * does for inherited counters) and add them to its run totals. A command counting its
 * tree is the exception: its roots, which count every process it started, make its
 * totals, and once it has started one (own), its threads alone its row. Returns the
 * threads summed; *all_exited says whether every one has ended. */
unsigned rowbuild_sum_proc(struct engine *e, struct proc *p, bool add_tot, bool *all_exited)
{
	unsigned n = 0;
	bool tree = p->rooted && e->ctree, own = tree && p->own;
	acc_clear(e);
	for (unsigned k = 0; k < p->nroots; k++)
		if (p->roots[k].state != ROOT_DONE)
			rowbuild_acc_add(e, &p->roots[k].c, 1);
	if (tree && add_tot)
		acc_to_tot(e, p);
	if (own)
		acc_clear(e);
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
	for (unsigned i = 0; i < e->nlive; i++) {
		unsigned ev = e->live[i];
		if (e->acc_miss[ev] && e->acc_ok[ev])
			v[ev] = val_partial(v[ev], e->acc_ok[ev], e->acc_miss[ev],
					    (enum val_why)e->acc_miss_why[ev]);
	}
}

/* Sum a process (sum_proc) and write its rows. Returns the next free row. */
static size_t build_proc(struct engine *e, struct proc *p, size_t i, bool add_tot)
{
	if (rowbuild_asleep(e, p))
		return build_asleep(e, p, i);
	/* It ran: its state and resident memory now (one read; a process that did not run
	 * keeps what it had, so the cost scales with what runs). */
	struct procfs_now now = {0};
	if (!p->exited && procfs_proc_now(e->o.root, p->pid, &now, NULL) == 0) {
		p->state = now.state;
		p->rss_kb = now.rss_kb;
		p->have_sched = now.have_sched;
		p->nice = now.nice;
		p->cpu_ns = now.cpu_ns;
	} else if (!p->state) {
		p->state = '?';
	}
	/* A fork seen by its parent's event was not read: its start, once. */
	struct procfs_task info;
	if (!p->start_ticks && !p->exited &&
	    procfs_task_info(e->o.root, p->pid, p->pid, &info) == 0)
		p->start_ticks = info.start_ticks;
	struct mrow_w pr = mstore_row(&e->rows, i++);
	proc_row(e, p, pr.r);
	bool all_exited;
	pr.r->nthreads = rowbuild_sum_proc(e, p, add_tot, &all_exited);
	pr.r->exited = all_exited;
	for (struct task *t = p->threads; e->o.threads && !e->totals && t; t = t->sibling)
		if (!(t->state == TASK_EXITED && t->vanished))
			thread_row(e, pr.r, t, mstore_row(&e->rows, i++));
	if (e->totals) {
		rowbuild_fill(e, p->tot, p->tot_why, NULL, pr.v, pr.g, true);
		for (unsigned j = 0; j < e->nlive; j++) {
			unsigned ev = e->live[j];
			const struct val_delta *n = &p->tot_parts[ev];
			if (n->run && n->ena)
				pr.v[ev] = val_partial(pr.v[ev], (unsigned)n->ena, (unsigned)n->run,
						       (enum val_why)n->val);
		}
	} else {
		rowbuild_fill(e, e->acc, e->acc_why, e->acc_fresh, pr.v, pr.g, true);
		mark_partial(e, pr.v);
	}
	return i;
}

void rowbuild_rows(struct engine *e, bool add_tot)
{
	size_t need = tasktab_procs(e->tab) + (e->o.threads ? tasktab_tasks(e->tab) : 0);
	size_t n = 0;
	unsigned short_count = 0, ntasks = 0;
	if (ensure_rows(e, need)) {
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
			/* A command's total block is its row alone: its roots' counts, the
			 * whole tree's (the rows of the processes it started count each from
			 * when it was found). */
			if (p->ignored || (e->totals && e->ctree && !p->keep))
				continue;
			for (struct task *t = p->threads; t; t = t->sibling) {
				short_count += t->fd_short;
				ntasks++;
			}
			size_t before = n;
			n = build_proc(e, p, n, add_tot);
			/* A process none of whose threads could be counted has no row. */
			if (e->rows.rows[before].nthreads == 0 && !p->keep)
				n = before;
		}
	}
	e->m.rows = e->rows.rows;
	e->m.nrows = (unsigned)n;
	e->m.ntasks = ntasks;
	e->m.nfd_short = short_count;
}

bool engine_built_asleep(const struct engine *e, pid_t pid)
{
	const struct proc *p = tasktab_find_proc(e->tab, pid);
	return p && p->asleep_tick != 0 && p->asleep_tick == e->m.tick;
}
