/* Out of descriptors: the busiest tasks keep their counters (a budget at start-up,
 * balancing after), and a descriptor is kept aside for /proc. */
#include "engine_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "evgroup.h"
#include "procfs.h"
#include "tasktab.h"

/* Out of descriptors, the reads of /proc would fail too (no name, no owner, no way to
 * tell which task is busy): one descriptor is kept aside for them. */
void fdbudget_reserve_release(struct engine *e)
{
	if (e->reserve_fd >= 0)
		close(e->reserve_fd);
	e->reserve_fd = -1;
}

void fdbudget_reserve_take(struct engine *e)
{
	if (e->reserve_fd < 0)
		e->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int busiest_first(const void *a, const void *b)
{
	const struct pending_task *x = a, *y = b;
	if (x->busy != y->busy)
		return x->busy > y->busy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Descriptors one task's groups take (those it opens itself). */
static unsigned fds_per_task(const struct engine *e)
{
	unsigned n = 0;
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		if (!e->b.gdead[g] && !targets_lean_group(e, g))
			n += e->b.set->groups[g].n;
	return n;
}

/* Descriptors this process may still open, or -1 when it cannot tell or plainly has
 * enough for need more (every task counted twice over and a margin: no listing then). */
static long fds_left(const struct engine *e, unsigned long need)
{
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
		return -1;
	unsigned long most = need + (unsigned long)tasktab_tasks(e->tab) * fds_per_task(e) +
			     e->b.cpu.n * fds_per_task(e) + 256;
	if (most < r.rlim_cur)
		return -1;
	DIR *d = opendir("/proc/self/fd");
	if (!d) /* no descriptor left to list them with is none left, not plenty */
		return errno == EMFILE || errno == ENFILE ? 0 : -1;
	/* The kernel gives the lowest number free below the limit: those numbers are what is
	 * left, whatever is open above it (the limit lowered since, memcheck's own). */
	long used = 0;
	for (struct dirent *de; (de = readdir(d));) {
		long fd = de->d_name[0] != '.' ? strtol(de->d_name, NULL, 10) : -1;
		used += fd >= 0 && fd != dirfd(d) && (rlim_t)fd < r.rlim_cur;
	}
	closedir(d);
	return used < (long)r.rlim_cur ? (long)r.rlim_cur - used : 0;
}

/* Out of descriptors, the busiest tasks are the ones worth counting: when the tasks
 * noted cannot all have theirs, the busiest so far (time on a CPU, from the scan's
 * /proc read) keep the place and the rest are set aside as short (n/c (fd limit)) for
 * balance_fds to weigh, instead of whichever came first in /proc (kernel threads). */
void fdbudget_pending(struct engine *e)
{
	struct pending *q = &e->pending;
	unsigned per = fds_per_task(e);
	long left = per ? fds_left(e, (unsigned long)q->n * per) : -1;
	if (left < 0)
		return;
	long fit = (left - 2) / (long)per; /* and /proc's read and the output's */
	if (fit < 0)
		fit = 0;
	if ((unsigned long)fit >= q->n)
		return;
	qsort(q->t, q->n, sizeof(*q->t), busiest_first);
	for (unsigned i = (unsigned)fit; i < q->n; i++) {
		struct task *t = q->t[i].t;
		memset(t->c.why, WHY_FDLIMIT, e->b.l.nevents);
		t->fd_short = true;
	}
	q->n = (unsigned)fit;
}

void fdbudget_retry(struct engine *e)
{
	if (!e->fds_freed)
		return;
	e->fds_freed = false;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			if (t->fd_short && t->state == TASK_LIVE) {
				targets_close(e, &t->c);
				targets_task_open(e, t);
				if (t->fd_short)
					return; /* still short: try again when more are freed */
			}
}

/* Out of descriptors: the busiest tasks are the ones worth counting. At most twice a
 * second, the tasks left without descriptors are ranked by their time on a CPU (from
 * /proc: they have no counters), the counted ones by their task-clock, and up to
 * BALANCE_SWAPS of the least busy counted tasks give their descriptors to busier ones.
 * Only while some task is short: no /proc read in a steady tick otherwise. */
#define BALANCE_SWAPS 32

struct cand {
	struct task *t;
	double rate; /* ns on a CPU per second */
};

/* Keep the BALANCE_SWAPS best of a list (most first when desc, least first if not). */
static void cand_add(struct cand *c, unsigned *n, struct task *t, double rate, bool desc)
{
	unsigned i = *n < BALANCE_SWAPS ? (*n)++ : BALANCE_SWAPS;
	while (i > 0 && (desc ? rate > c[i - 1].rate : rate < c[i - 1].rate)) {
		if (i < BALANCE_SWAPS)
			c[i] = c[i - 1];
		i--;
	}
	if (i < BALANCE_SWAPS)
		c[i] = (struct cand){t, rate};
}

static int task_clock_event(const struct engine *e)
{
	for (unsigned ev = 0; ev < e->b.set->nevents; ev++)
		if (e->b.set->events[ev].role == ROLE_TASK_CLOCK && !e->b.set->events[ev].logical)
			return (int)ev;
	return -1;
}

/* Task t's descriptors closed for another's use: n/c (fd limit) until it has them back. */
static void give_up(struct engine *e, struct task *t)
{
	targets_close(e, &t->c);
	memset(t->c.why, WHY_FDLIMIT, e->b.l.nevents);
	t->fd_short = true;
	t->counted = false;
	t->run_known = false;
	e->fds_freed = false;
}

void fdbudget_balance(struct engine *e)
{
	double dt = e->b.m.time - e->last_balance;
	if (!e->b.m.nfd_short || dt < 0.5 || e->b.m.elapsed <= 0)
		return;
	int tc = task_clock_event(e);
	if (tc < 0)
		return;
	e->last_balance = e->b.m.time;
	unsigned g = e->b.set->events[tc].group;
	struct cand busy[BALANCE_SWAPS], idle[BALANCE_SWAPS];
	unsigned nb = 0, ni = 0;
	fdbudget_reserve_release(e);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (p->ignored)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling) {
			if (t->state != TASK_LIVE)
				continue;
			uint64_t ns;
			if (t->fd_short) {
				if (procfs_task_runtime(e->b.o.root, p->pid, t->tid, &ns) != 0)
					continue;
				if (t->run_known)
					cand_add(busy, &nb, t, (double)(ns - t->run_ns) / dt, true);
				t->run_ns = ns;
				t->run_known = true;
			} else if (!p->keep && t->c.grp[g] && t->c.why[tc] == WHY_NONE &&
				   t->c.fresh[g] == FRESH_NO) {
				cand_add(idle, &ni, t, (double)t->c.d[tc].val / e->b.m.elapsed,
					 false);
			}
		}
	}
	fdbudget_reserve_take(e);
	/* Swap while the short task is clearly busier (twice, and 1 ms/s more). */
	for (unsigned k = 0; k < nb && k < ni; k++) {
		if (busy[k].rate <= 2 * idle[k].rate + 1e6)
			break;
		struct task *in = busy[k].t;
		give_up(e, idle[k].t);
		targets_task_open(e, in);
		if (in->fd_short)
			e->fds_freed = true; /* it did not take them: let others try */
		in->run_known = false;
	}
}

unsigned fdbudget_open_fds(const struct engine *e)
{
	unsigned n = 0;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			n += counts_open_fds(&t->c, &e->b.l);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (unsigned k = 0; k < p->nroots; k++)
			n += counts_open_fds(&p->roots[k].c, &e->b.l);
	n += srcbase_open_fds(&e->b);
	n += cgown_open_fds(e);
	return n;
}

bool fdbudget_room(const struct engine *e, unsigned long need)
{
	long left = fds_left(e, need);
	/* A margin for the tasks found next and for /proc's reads. */
	return left < 0 || (unsigned long)left >= need + 64;
}

/* The least busy counted tasks give their descriptors up until need more fit: a cgroup's
 * counters count every task of it, those born and gone between two ticks too, where a
 * task's count only itself. A task read so far ranks by its task-clock, one not read yet
 * (or with no task-clock counted) first. */
void fdbudget_make_room(struct engine *e, unsigned long need)
{
	unsigned per = fds_per_task(e);
	int tc = task_clock_event(e);
	unsigned g = tc >= 0 ? e->b.set->events[tc].group : 0;
	while (per && !fdbudget_room(e, need)) {
		long left = fds_left(e, need);
		if (left < 0)
			return;
		unsigned long want = (need + 64 - (unsigned long)left + per - 1) / per;
		struct cand idle[BALANCE_SWAPS];
		unsigned ni = 0;
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
			if (p->ignored || p->keep)
				continue;
			for (struct task *t = p->threads; t; t = t->sibling) {
				if (t->state != TASK_LIVE || !counts_open_fds(&t->c, &e->b.l))
					continue;
				bool read = tc >= 0 && t->c.grp[g] && t->c.why[tc] == WHY_NONE &&
					    t->c.fresh[g] == FRESH_NO && e->b.m.elapsed > 0;
				cand_add(idle, &ni, t,
					 read ? (double)t->c.d[tc].val / e->b.m.elapsed : 0, false);
			}
		}
		if (!ni)
			return;
		for (unsigned k = 0; k < ni && k < want; k++)
			give_up(e, idle[k].t);
	}
}
