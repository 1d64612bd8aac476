/* The counter engine: discovery, opening, one read() per group per tick, deltas and
 * scaling into the model. */
#include "engine.h"

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
#include "engine_priv.h"

static void read_target(struct engine *e, struct counts *c);

static unsigned ngroups(const struct engine *e)
{
	return e->set->specs.n;
}

static enum val_why why_of(enum ev_status st)
{
	switch (st) {
	case EVS_OK:
		return WHY_NONE;
	case EVS_UNSUPPORTED:
		return WHY_UNSUPPORTED;
	case EVS_NOPERM:
		return WHY_NOPERM;
	case EVS_NOFD:
		return WHY_FDLIMIT;
	case EVS_NOTASK:
		return WHY_GONE;
	case EVS_INVALID:
		return WHY_INVALID;
	case EVS_NOFIT:
		return WHY_NOFIT;
	case EVS_KERNEL_ONLY:
		return WHY_KERNEL_ONLY;
	default:
		return WHY_ERROR;
	}
}

/* Open group g of one target (a task, or a CPU with pid -1) into c. Returns -ESRCH when
 * the task is gone, -EMFILE/-ENFILE when out of descriptors, else 0. */
int engine_open_group(struct engine *e, unsigned g, pid_t pid, int cpu, bool on_exec, bool root,
		      struct counts *c)
{
	const struct mgroup *mg = &e->set->groups[g];
	/* A root inherits into the threads (with --children, the processes too) its task
	 * starts. Without roots (an old kernel), --children makes every group inherit. */
	bool inherit = pid > 0 && (root || (!e->roots && e->o.inherit));
	struct evgroup_opts o = {.pid = pid,
				 .cpu = cpu,
				 .enable_on_exec = on_exec,
				 .inherit = inherit,
				 .inherit_thread = !e->o.inherit,
				 .user_only = e->o.user_only,
				 .no_kernel = e->o.no_kernel,
				 .preset = e->set->preset[g],
				 .probe = (int)g == e->probe_g && pid > 0 && !inherit};
	c->idle = c->d_zero = false;
	int err = evgroup_open(&e->set->specs.g[g], &o, &c->grp[g]);
	memset(c->prev + e->slot[g], 0, (2 + mg->n) * sizeof(*c->prev));
	for (unsigned k = 0; k < mg->n; k++) {
		c->why[mg->first + k] =
			c->grp[g] ? (uint8_t)why_of(evgroup_status(c->grp[g], k)) : WHY_ERROR;
		c->d[mg->first + k] = (struct val_delta){0, 0, 0};
	}
	if (c->grp[g] && evgroup_open_count(c->grp[g]) == 0) {
		evgroup_free(c->grp[g]);
		c->grp[g] = NULL;
	}
	c->fresh[g] = c->grp[g] ? FRESH_OPENED : FRESH_NO;
	return err == -ESRCH || err == -EMFILE || err == -ENFILE ? err : 0;
}

bool engine_lean_group(const struct engine *e, unsigned g)
{
	return e->roots && !e->o.threads && e->rootable[g];
}

/* Open every group of one target (a watched thread: not those its roots count, while
 * no thread row needs them). Stops at -ESRCH; reports -EMFILE/-ENFILE. */
static int open_target(struct engine *e, pid_t pid, int cpu, bool on_exec, struct counts *c)
{
	int ret = 0;
	for (unsigned g = 0; g < ngroups(e); g++) {
		if (pid > 0 && engine_lean_group(e, g)) {
			/* Its process row comes from the roots: a second copy of the same
			 * events on the thread would only cost (two event sets to switch at
			 * each context switch, and no inherited context to swap). */
			memset(c->why + e->set->groups[g].first, WHY_GONE, e->set->groups[g].n);
			continue;
		}
		int err = engine_open_group(e, g, pid, cpu, on_exec, false, c);
		if (err)
			ret = err;
		if (err == -ESRCH)
			break;
	}
	return ret;
}

static void close_target(struct engine *e, struct counts *c)
{
	if (counts_close(c, &e->l))
		e->fds_freed = true;
}

static void task_open(struct engine *e, struct task *t)
{
	int err = open_target(e, t->tid, -1, t->enable_on_exec, &t->c);
	t->fd_short = err == -EMFILE || err == -ENFILE;
	for (unsigned g = 0; g < ngroups(e); g++)
		if (t->c.grp[g])
			t->counted = true;
	if (err == -ESRCH) {
		/* Gone before we could count it: it leaves without a row. */
		close_target(e, &t->c);
		t->vanished = true;
		t->state = TASK_EXITED;
		e->nexited++;
	}
}

struct root *engine_add_root(struct engine *e, struct proc *p, pid_t tid, bool on_exec,
			     const int *gmap)
{
	struct root *r = tasktab_add_root(e->tab, p, tid);
	if (!r)
		return NULL;
	for (unsigned g = 0; g < ngroups(e); g++) {
		if ((gmap && gmap[g] >= 0) || !e->rootable[g]) {
			/* Counted by the roots the process already has, or (hardware) by
			 * its threads' own groups: a second copy on the same thread would
			 * take PMU counters from the first and multiplex both. */
			memset(r->c.why + e->set->groups[g].first, WHY_GONE, e->set->groups[g].n);
			continue;
		}
		if (engine_open_group(e, g, tid, -1, on_exec, true, &r->c) == -ESRCH) {
			counts_close(&r->c, &e->l);
			r->state = ROOT_DONE;
			break;
		}
	}
	return r;
}

/* Root p on each of its live threads (when watching starts, or starts over). */
static void root_proc(struct engine *e, struct proc *p)
{
	tasktab_drop_roots(e->tab, p);
	p->rooted = true;
	for (struct task *t = p->threads; t; t = t->sibling)
		if (t->state == TASK_LIVE && !t->vanished)
			engine_add_root(e, p, t->tid, t->enable_on_exec, NULL);
}

/* After the threads' reads: the roots' reads. When the process is gone, their last. */
static void read_roots(struct engine *e, struct proc *p)
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
		read_target(e, &r->c);
		if (gone) {
			/* Every thread has exited, and with it folded its counts into its
			 * parent event (perf_event_exit_task) before leaving /proc. */
			counts_close(&r->c, &e->l);
			r->state = ROOT_FINAL;
		}
	}
}

/* Out of descriptors, the reads of /proc would fail too (no name, no owner, no way to
 * tell which task is busy): one descriptor is kept aside for them. */
static void reserve_release(struct engine *e)
{
	if (e->reserve_fd >= 0)
		close(e->reserve_fd);
	e->reserve_fd = -1;
}

static void reserve_take(struct engine *e)
{
	if (e->reserve_fd < 0)
		e->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* Opening a task's counters installs each event, and enabling it switches it on, by a
 * call on the CPU the task last ran on: an IPI from any other CPU, which on a VM is a
 * trap to the hypervisor and, when that CPU is idle, a wait for it to wake (5 events
 * and an enable cost 72-80 us per idle task here against 29 us from its own CPU). So a
 * scan that finds many tasks (start-up, a rescan) only notes them, then opens them CPU
 * by CPU from that CPU, as the scan's /proc read placed them. A task that has moved
 * since is opened all the same, by IPI. */
#define PENDING_PIN_MIN 16 /* fewer tasks on a CPU are not worth moving there */

/* A task's time on a CPU over its life so far (from its stat): how busy it is, as far
 * as one read can tell. */
static double cpu_share(const struct procfs_task *info)
{
	struct timespec now;
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
		return (double)info->cpu_ticks;
	double age = ((double)now.tv_sec + (double)now.tv_nsec * 1e-9) * (double)hz -
		     (double)info->start_ticks;
	return (double)info->cpu_ticks / (age > 1 ? age : 1);
}

static bool pending_add(struct engine *e, struct task *t, const struct procfs_task *info)
{
	struct pending *q = &e->pending;
	if (q->n == q->cap) {
		unsigned cap = q->cap ? 2 * q->cap : 256;
		struct pending_task *nt = realloc(q->t, cap * sizeof(*nt));
		if (!nt)
			return false;
		q->t = nt;
		q->cap = cap;
	}
	q->t[q->n] = (struct pending_task){t, info->cpu, info->rt_running, cpu_share(info), q->n};
	q->n++;
	return true;
}

static int pending_cmp(const void *a, const void *b)
{
	const struct pending_task *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
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
	for (unsigned g = 0; g < ngroups(e); g++)
		if (!e->gdead[g] && !engine_lean_group(e, g))
			n += e->set->groups[g].n;
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
			     e->cpu.n * fds_per_task(e) + 256;
	if (most < r.rlim_cur)
		return -1;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	long used = -1; /* the listing's own */
	for (struct dirent *de; (de = readdir(d));)
		used += de->d_name[0] != '.';
	closedir(d);
	return (long)r.rlim_cur - used;
}

/* Out of descriptors, the busiest tasks are the ones worth counting: when the tasks
 * noted cannot all have theirs, the busiest so far (time on a CPU, from the scan's
 * /proc read) keep the place and the rest are set aside as short (n/c (fd limit)) for
 * balance_fds to weigh, instead of whichever came first in /proc (kernel threads). */
static void pending_budget(struct engine *e)
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
		memset(t->c.why, WHY_FDLIMIT, e->l.nevents);
		t->fd_short = true;
	}
	q->n = (unsigned)fit;
}

/* May this thread move to CPUs for pending_open()? Not when it runs under a real-time
 * policy itself (it would preempt what runs there). */
static bool may_pin(void)
{
	int pol = sched_getscheduler(0);
	return pol == SCHED_OTHER || pol == SCHED_BATCH || pol == SCHED_IDLE;
}

static void pending_open(struct engine *e)
{
	struct pending *q = &e->pending;
	q->on = false;
	if (q->n == 0)
		return;
	cpu_set_t mine;
	bool can_pin = q->n >= PENDING_PIN_MIN && may_pin() &&
		       sched_getaffinity(0, sizeof(mine), &mine) == 0;
	bool moved = false;
	pending_budget(e);
	qsort(q->t, q->n, sizeof(*q->t), pending_cmp);
	for (unsigned i = 0, j; i < q->n; i = j) {
		int cpu = q->t[i].cpu;
		bool rt = false;
		for (j = i; j < q->n && q->t[j].cpu == cpu; j++)
			rt = rt || q->t[j].rt;
		/* Only to CPUs we may run on (a user's taskset is kept), and not behind a
		 * real-time task that holds one: we would wait for it to sleep. */
		if (can_pin && !rt && j - i >= PENDING_PIN_MIN && cpu < CPU_SETSIZE &&
		    CPU_ISSET(cpu, &mine)) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			double t0 = evclock_now();
			if (sched_setaffinity(0, sizeof(one), &one) == 0)
				moved = true;
			/* A move that waited (a busy CPU) is dearer than the IPIs it saves. */
			if (evclock_now() - t0 > 0.005)
				can_pin = false;
		}
		for (unsigned k = i; k < j; k++)
			task_open(e, q->t[k].t);
	}
	if (moved && sched_setaffinity(0, sizeof(mine), &mine) != 0) {
		/* Not back to our own mask: at least not held on one CPU. */
		cpu_set_t all;
		CPU_ZERO(&all);
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &all);
		sched_setaffinity(0, sizeof(all), &all);
	}
	q->n = 0;
}

static int task_info(struct engine *e, pid_t pid, pid_t tid, struct procfs_task *info)
{
	int err = procfs_task_info(e->o.root, pid, tid, info);
	if (err == -EMFILE || err == -ENFILE) {
		reserve_release(e);
		err = procfs_task_info(e->o.root, pid, tid, info);
		reserve_take(e);
	}
	return err;
}

/* A task first seen: its name and owner from the task it forked from, from info when the
 * caller has read it, or from /proc. */
static struct task *task_new_info(struct engine *e, pid_t pid, pid_t tid, const struct task *from,
				  const struct procfs_task *known)
{
	struct task *t = tasktab_add(e->tab, pid, tid);
	if (!t)
		return NULL;
	struct proc *p = t->proc;
	struct procfs_task where = {.cpu = -1}; /* where it last ran, when /proc said */
	if (known) {
		where = *known;
		snprintf(t->comm, sizeof(t->comm), "%s", known->comm);
		snprintf(p->comm, sizeof(p->comm), "%s", known->comm);
		p->uid = known->uid;
		p->kthread = known->kthread;
	} else if (from) {
		/* A fork copies its parent's name and owner: no /proc read needed. */
		snprintf(t->comm, sizeof(t->comm), "%s", from->comm);
		if (p->nthreads == 1) {
			snprintf(p->comm, sizeof(p->comm), "%s", from->comm);
			p->uid = from->proc->uid;
			p->kthread = from->proc->kthread;
		}
	} else {
		struct procfs_task info;
		if (task_info(e, pid, tid, &info) == 0) {
			where = info;
			snprintf(t->comm, sizeof(t->comm), "%s", info.comm);
			if (p->nthreads == 1 || tid == pid) {
				snprintf(p->comm, sizeof(p->comm), "%s", info.comm);
				p->uid = info.uid;
				p->kthread = info.kthread;
			}
		}
	}
	/* Its owner's name now, while a descriptor for the user database can still be had
	 * (out of descriptors, a lookup at the first row failed, and USER read 0 for root). */
	if (!p->user || p->user_uid != p->uid) {
		p->user = procfs_user_name(p->uid);
		p->user_uid = p->uid;
	}
	for (unsigned i = 0; i < e->o.npids; i++)
		if (e->pids[i] == pid)
			p->keep = true;
	/* Another user's process cannot be counted without privileges: remember it, so that
	 * scans do not read it again, but give it no descriptors and no row. */
	if (e->o.only_uid && p->uid != e->o.uid && !p->keep)
		p->ignored = true;
	if (!p->ignored && !(e->pending.on && where.cpu >= 0 && pending_add(e, t, &where)))
		task_open(e, t);
	return t;
}

static struct task *task_new(struct engine *e, pid_t pid, pid_t tid, const struct task *from)
{
	return task_new_info(e, pid, tid, from, NULL);
}

/* /proc scans: on start, when the kernel's records were lost, and every tick where the
 * records are not available (no CAP_PERFMON) or only a few processes are watched. */
struct scan_ctx {
	struct engine *e;
	pid_t pid;
};

static int scan_thread(void *vctx, pid_t tid)
{
	struct scan_ctx *c = vctx;
	struct task *t = tasktab_find(c->e->tab, tid);
	if (!t) {
		t = task_new(c->e, c->pid, tid, NULL);
	} else if (c->e->o.scope == SCOPE_PIDS || (!c->e->watch && !t->c.idle)) {
		/* A few watched processes, or without task records (no CAP_PERFMON) a task
		 * that ran since it was last found idle (an exec needs a CPU): follow their
		 * names by reading them. A zombie stays in /proc until its parent reaps it,
		 * but it has exited: its counts are final (top shows it as Z, and so it ends
		 * here). */
		struct procfs_task info;
		int r = procfs_task_info(c->e->o.root, c->pid, tid, &info);
		if (r == 0) { /* a zombie's name too: its last exec's */
			snprintf(t->comm, sizeof(t->comm), "%s", info.comm);
			if (tid == c->pid)
				snprintf(t->proc->comm, sizeof(t->proc->comm), "%s", info.comm);
		}
		if (r == 0 && info.dead)
			return 0;
	}
	if (t)
		t->seen = true;
	return 0;
}

static void scan_proc(struct engine *e, pid_t pid)
{
	struct scan_ctx c = {e, pid};
	procfs_each(e->o.root, pid, scan_thread, &c);
}

static int scan_one(void *vctx, pid_t pid)
{
	struct engine *e = vctx;
	/* A process not seen before: its stat says how many threads it has. With one (most
	 * processes), that thread is the process: no task directory to list. */
	if (!tasktab_find_proc(e->tab, pid)) {
		struct procfs_task info;
		if (task_info(e, pid, pid, &info) == 0 && info.nthreads == 1 && !info.dead) {
			struct task *t = task_new_info(e, pid, pid, NULL, &info);
			if (t)
				t->seen = true;
			return 0;
		}
	}
	scan_proc(e, pid);
	return 0;
}

static void scan(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			t->seen = false;
	e->pending.on = true;
	if (e->o.scope == SCOPE_ALL)
		procfs_each(e->o.root, 0, scan_one, e);
	else
		for (unsigned i = 0; i < e->o.npids; i++)
			scan_proc(e, e->pids[i]);
	pending_open(e);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			if (!t->seen && t->state == TASK_LIVE)
				t->state = TASK_EXITING;
	e->rescan = false;
}

static void on_record(void *vctx, const struct taskwatch_rec *r)
{
	struct engine *e = vctx;
	struct task *t = tasktab_find(e->tab, r->tid);
	switch (r->kind) {
	case TW_FORK:
		if (!t)
			task_new(e, r->pid, r->tid, tasktab_find(e->tab, r->ptid));
		break;
	case TW_EXIT:
		if (t && t->state == TASK_LIVE)
			t->state = TASK_EXITING;
		break;
	case TW_COMM:
		/* Rings are drained one CPU after another: an exec on another CPU than the
		 * fork can come first. Read the task now; its fork record will find it. */
		if (!t) {
			task_new(e, r->pid, r->tid, NULL);
			break;
		}
		snprintf(t->comm, sizeof(t->comm), "%s", r->comm);
		if (r->tid == r->pid || r->exec) {
			snprintf(t->proc->comm, sizeof(t->proc->comm), "%s", r->comm);
			struct procfs_task info;
			/* An exec may change the owner (setuid): the one /proc read it costs. */
			if (r->exec && procfs_task_info(e->o.root, r->pid, r->pid, &info) == 0)
				t->proc->uid = info.uid;
		}
		break;
	case TW_LOST:
		e->rescan = true;
		break;
	}
}

/* Tasks that ended by the last tick leave the table. Most ticks none did: no walk. */
static void free_exited(struct engine *e)
{
	if (e->nexited == 0)
		return;
	e->nexited = 0;
	struct proc *p = tasktab_first(e->tab);
	while (p) {
		struct proc *next = p->next;
		struct task *t = p->threads;
		while (t) {
			struct task *tn = t->sibling;
			if (t->state == TASK_EXITED) {
				close_target(e, &t->c);
				tasktab_remove(e->tab, t);
			}
			t = tn;
		}
		p = next;
	}
}

static void retry_fd_short(struct engine *e)
{
	if (!e->fds_freed)
		return;
	e->fds_freed = false;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			if (t->fd_short && t->state == TASK_LIVE) {
				close_target(e, &t->c);
				task_open(e, t);
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
	for (unsigned ev = 0; ev < e->set->nevents; ev++)
		if (e->set->events[ev].role == ROLE_TASK_CLOCK && !e->set->events[ev].logical)
			return (int)ev;
	return -1;
}

static void balance_fds(struct engine *e)
{
	double dt = e->m.time - e->last_balance;
	if (!e->m.nfd_short || dt < 0.5 || e->m.elapsed <= 0)
		return;
	int tc = task_clock_event(e);
	if (tc < 0)
		return;
	e->last_balance = e->m.time;
	unsigned g = e->set->events[tc].group;
	struct cand busy[BALANCE_SWAPS], idle[BALANCE_SWAPS];
	unsigned nb = 0, ni = 0;
	reserve_release(e);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (p->ignored)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling) {
			if (t->state != TASK_LIVE)
				continue;
			uint64_t ns;
			if (t->fd_short) {
				if (procfs_task_runtime(e->o.root, p->pid, t->tid, &ns) != 0)
					continue;
				if (t->run_known)
					cand_add(busy, &nb, t, (double)(ns - t->run_ns) / dt, true);
				t->run_ns = ns;
				t->run_known = true;
			} else if (!p->keep && t->c.grp[g] && t->c.why[tc] == WHY_NONE &&
				   t->c.fresh[g] == FRESH_NO) {
				cand_add(idle, &ni, t, (double)t->c.d[tc].val / e->m.elapsed,
					 false);
			}
		}
	}
	reserve_take(e);
	/* Swap while the short task is clearly busier (twice, and 1 ms/s more). */
	for (unsigned k = 0; k < nb && k < ni; k++) {
		if (busy[k].rate <= 2 * idle[k].rate + 1e6)
			break;
		struct task *out = idle[k].t, *in = busy[k].t;
		close_target(e, &out->c);
		memset(out->c.why, WHY_FDLIMIT, e->l.nevents);
		out->fd_short = true;
		out->counted = false;
		out->run_known = false;
		e->fds_freed = false;
		task_open(e, in);
		if (in->fd_short)
			e->fds_freed = true; /* it did not take them: let others try */
		in->run_known = false;
	}
}

/* One read() per open group; deltas against the previous totals. */
static void read_target(struct engine *e, struct counts *c)
{
	for (unsigned g = 0; g < ngroups(e); g++) {
		if (e->gdead[g] && !c->grp[g])
			continue; /* never opened: its deltas stay 0, its reasons n/a */
		const struct mgroup *mg = &e->set->groups[g];
		struct evread_group r;
		uint64_t *pv = c->prev + e->slot[g];
		int err = c->grp[g] ? evgroup_read(c->grp[g], &r) : -ENODATA;
		for (unsigned k = 0; k < mg->n; k++) {
			unsigned ev = mg->first + k;
			if (err || c->why[ev] != WHY_NONE) {
				c->d[ev] = (struct val_delta){0, 0, 0};
				if (err && c->why[ev] == WHY_NONE)
					c->why[ev] = WHY_ERROR;
				continue;
			}
			/* Unsigned differences: a counter that wraps still gives the right delta.
			 */
			c->d[ev].ena = r.ena - pv[0];
			c->d[ev].run = r.run - pv[1];
			c->d[ev].val = r.val[k] - pv[2 + k];
			pv[2 + k] = r.val[k];
		}
		if (!err) {
			pv[0] = r.ena;
			pv[1] = r.run;
			c->fresh[g] = c->fresh[g] == FRESH_OPENED ? FRESH_FIRST_READ : FRESH_NO;
		}
	}
	if (e->logical)
		hybrid_fold(e->set, c->d, c->why);
}

/* The values of the dead events (and groups) in one row: the same in every task row. */
static void fill_dead(const struct engine *e, struct val *v, struct val_delta *gd)
{
	for (unsigned ev = 0; ev < e->set->nevents; ev++)
		if (e->dead[ev])
			v[ev] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	for (unsigned g = 0; g < ngroups(e); g++)
		if (e->gdead[g])
			gd[g] = (struct val_delta){0, 0, 0};
}

static bool ensure_rows(struct engine *e, size_t need)
{
	if (need <= e->cap)
		return true;
	size_t cap = need + need / 2 + 16;
	unsigned ne = e->set->nevents, ng = ngroups(e);
	struct mrow *rows = realloc(e->rows, cap * sizeof(*rows));
	if (rows)
		e->rows = rows;
	struct val *vals = realloc(e->vals, cap * ne * sizeof(*vals));
	if (vals)
		e->vals = vals;
	struct val_delta *gds = realloc(e->gds, cap * ng * sizeof(*gds));
	if (gds)
		e->gds = gds;
	if (!rows || !vals || !gds)
		return false;
	e->cap = cap;
	for (size_t i = 0; i < cap; i++)
		fill_dead(e, vals + i * ne, gds + i * ng);
	return true;
}

/* Scale a target's (or a sum's) deltas into a row's values. fresh (per group, or NULL)
 * marks the groups read for the first time: not an interval's worth. Task rows (live)
 * skip the dead events, which their row arrays already hold (fill_dead). */
static void fill_values(struct engine *e, const struct val_delta *d, const uint8_t *why,
			const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live)
{
	unsigned n = live ? e->nlive : e->set->nevents;
	for (unsigned i = 0; i < n; i++) {
		unsigned ev = live ? e->live[i] : i;
		if (why[ev] == WHY_NONE && fresh &&
		    fresh[e->set->events[ev].group] == FRESH_FIRST_READ)
			v[ev] = val_missing(VAL_NC, WHY_STARTING);
		else if (why[ev] == WHY_NONE)
			v[ev] = val_scale(d[ev]);
		else /* out of descriptors is a state of the machine, not of the event */
			v[ev] = val_missing(why[ev] == WHY_FDLIMIT || why[ev] == WHY_NOFIT ? VAL_NC
											   : VAL_NA,
					    (enum val_why)why[ev]);
	}
	for (unsigned g = 0; g < ngroups(e); g++) {
		if (live && e->gdead[g])
			continue;
		const struct mgroup *mg = &e->set->groups[g];
		gd[g] = (struct val_delta){0, 0, 0};
		for (unsigned k = 0; k < mg->n; k++)
			if (why[mg->first + k] == WHY_NONE) {
				gd[g] = d[mg->first + k];
				break;
			}
	}
}

static struct mrow *next_row(struct engine *e, size_t i)
{
	struct mrow *r = &e->rows[i];
	memset(r, 0, sizeof(*r));
	r->v = e->vals + i * e->set->nevents;
	r->g = e->gds + i * ngroups(e);
	r->cpu = -1;
	r->cpu_pct = -1;
	return r;
}

static void proc_row(struct proc *p, struct mrow *r)
{
	r->kind = ROW_PROC;
	r->pid = r->tid = p->pid;
	r->uid = p->uid;
	if (!p->user || p->user_uid != p->uid) { /* the name looked up once per owner */
		p->user = procfs_user_name(p->uid);
		p->user_uid = p->uid;
	}
	r->user = p->user;
	r->comm = p->comm;
	r->kthread = p->kthread;
}

/* A thread's row as its process's (pr), but for what is its own; values not written. */
static void thread_row_head(const struct mrow *pr, const struct task *t, struct mrow *tr)
{
	const struct val *v = tr->v;
	const struct val_delta *g = tr->g;
	*tr = *pr;
	tr->v = v;
	tr->g = g;
	tr->kind = ROW_THREAD;
	tr->tid = t->tid;
	tr->comm = t->comm;
	tr->nthreads = 1;
	tr->exited = t->state == TASK_EXITED;
}

static void thread_row(struct engine *e, const struct mrow *pr, const struct task *t,
		       struct mrow *tr)
{
	thread_row_head(pr, t, tr);
	fill_values(e, t->c.d, t->c.why, t->c.fresh, (struct val *)tr->v,
		    (struct val_delta *)tr->g, true);
}

/* Add block c to the sums: every group (sel -1), or only the groups that roots hold
 * (sel 1) or do not (sel 0). */
static void acc_add(struct engine *e, const struct counts *c, int sel)
{
	for (unsigned i = 0; i < e->nlive; i++) {
		unsigned ev = e->live[i];
		unsigned g = e->set->events[ev].group;
		if (sel >= 0 && e->rootable[g] != sel)
			continue;
		if (c->why[ev] != WHY_NONE) {
			if (!e->acc_ok[ev])
				e->acc_why[ev] = c->why[ev];
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
static bool proc_asleep(const struct engine *e, const struct proc *p)
{
	if (p->rooted || p->nroots || e->totals || !p->tot_clean || !p->threads)
		return false;
	for (const struct task *t = p->threads; t; t = t->sibling)
		if (t->state != TASK_LIVE || !t->c.d_zero || !t->c.clean)
			return false;
	return true;
}

static void zero_values(const struct engine *e, struct mrow *r)
{
	const struct val zero = val_scale((struct val_delta){0, 0, 0});
	struct val *v = (struct val *)r->v;
	struct val_delta *gd = (struct val_delta *)r->g;
	for (unsigned i = 0; i < e->nlive; i++)
		v[e->live[i]] = zero;
	for (unsigned g = 0; g < ngroups(e); g++)
		gd[g] = (struct val_delta){0, 0, 0};
}

/* The rows of a process asleep (proc_asleep): neither its counters nor its totals are
 * looked at. */
static size_t build_asleep(struct engine *e, struct proc *p, size_t i)
{
	p->asleep_tick = e->m.tick + 1; /* the tick this is (m.tick counts after) */
	struct mrow *pr = next_row(e, i++);
	proc_row(p, pr);
	for (struct task *t = p->threads; t; t = t->sibling)
		pr->nthreads++;
	zero_values(e, pr);
	for (struct task *t = p->threads; e->o.threads && t; t = t->sibling) {
		struct mrow *tr = next_row(e, i++);
		thread_row_head(pr, t, tr);
		zero_values(e, tr);
	}
	return i;
}

/* Sum a process's threads and roots into e->acc (raw deltas: scaled once, as the kernel
 * does for inherited counters) and add them to its run totals. Returns the threads
 * summed; *all_exited says whether every one has ended. */
static unsigned sum_proc(struct engine *e, struct proc *p, bool add_tot, bool *all_exited)
{
	unsigned ne = e->set->nevents, n = 0;
	memset(e->acc, 0, ne * sizeof(*e->acc));
	memset(e->acc_ok, 0, ne * sizeof(*e->acc_ok));
	memset(e->acc_why, WHY_GONE, ne);
	memset(e->acc_fresh, FRESH_FIRST_READ, ngroups(e));
	*all_exited = true;
	for (struct task *t = p->threads; t; t = t->sibling) {
		if (t->state == TASK_EXITED && t->vanished)
			continue;
		n++;
		*all_exited = *all_exited && t->state == TASK_EXITED;
		acc_add(e, &t->c, p->rooted ? 0 : -1);
	}
	for (unsigned k = 0; k < p->nroots; k++)
		if (p->roots[k].state != ROOT_DONE)
			acc_add(e, &p->roots[k].c, 1);
	if (!add_tot)
		return n;
	p->tot_clean = true;
	for (unsigned j = 0; j < e->nlive; j++) {
		unsigned ev = e->live[j];
		p->tot[ev].ena += e->acc[ev].ena;
		p->tot[ev].run += e->acc[ev].run;
		p->tot[ev].val += e->acc[ev].val;
		if (e->acc_ok[ev])
			p->tot_why[ev] = WHY_NONE;
		else if (p->tot_why[ev] != WHY_NONE)
			p->tot_why[ev] = e->acc_why[ev];
		p->tot_clean = p->tot_clean && p->tot_why[ev] == WHY_NONE;
	}
	return n;
}

/* Sum a process (sum_proc) and write its rows. Returns the next free row. */
static size_t build_proc(struct engine *e, struct proc *p, size_t i, bool add_tot)
{
	if (proc_asleep(e, p))
		return build_asleep(e, p, i);
	struct mrow *pr = next_row(e, i++);
	proc_row(p, pr);
	bool all_exited;
	pr->nthreads = sum_proc(e, p, add_tot, &all_exited);
	pr->exited = all_exited;
	for (struct task *t = p->threads; e->o.threads && !e->totals && t; t = t->sibling)
		if (!(t->state == TASK_EXITED && t->vanished))
			thread_row(e, pr, t, next_row(e, i++));
	if (e->totals)
		fill_values(e, p->tot, p->tot_why, NULL, (struct val *)pr->v,
			    (struct val_delta *)pr->g, true);
	else
		fill_values(e, e->acc, e->acc_why, e->acc_fresh, (struct val *)pr->v,
			    (struct val_delta *)pr->g, true);
	return i;
}

/* Per-CPU rows: their groups (with --per-cpu or on the screen) and /proc/stat busy time
 * for the header's meters. */
int engine_cpu_rows_alloc(struct engine *e)
{
	size_t n = (size_t)e->cpu.n;
	free(e->cpu_vals);
	free(e->cpu_gds);
	e->cpu_vals = calloc(n * e->set->nevents + 1, sizeof(*e->cpu_vals));
	e->cpu_gds = calloc(n * ngroups(e) + 1, sizeof(*e->cpu_gds));
	return e->cpu_vals && e->cpu_gds ? 0 : -ENOMEM;
}

static int cpus_open(struct engine *e)
{
	struct cpuset *c = &e->cpu;
	int ids[MAX_CPUS];
	int n = procfs_online_cpus(e->o.root, ids, MAX_CPUS);
	if (n <= 0) {
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
		for (int i = 0; i < n && i < MAX_CPUS; i++)
			ids[i] = i;
	}
	int maxid = 0;
	for (int i = 0; i < n; i++)
		maxid = ids[i] > maxid ? ids[i] : maxid;
	c->n = n;
	c->maxid = maxid;
	c->id = calloc((size_t)n, sizeof(*c->id));
	c->cnt = calloc((size_t)n, sizeof(*c->cnt));
	c->busy = calloc((size_t)maxid + 1, 4 * sizeof(uint64_t));
	e->cpu_rows = calloc((size_t)n, sizeof(*e->cpu_rows));
	if (!c->id || !c->cnt || !c->busy || !e->cpu_rows || engine_cpu_rows_alloc(e))
		return -ENOMEM;
	c->total = c->busy + maxid + 1;
	c->pbusy = c->total + maxid + 1;
	c->ptotal = c->pbusy + maxid + 1;
	memcpy(c->id, ids, (size_t)n * sizeof(*ids));
	for (int i = 0; i < n; i++) {
		if (counts_alloc(&c->cnt[i], &e->l))
			return -ENOMEM;
		if (e->o.per_cpu)
			open_target(e, -1, ids[i], false, &c->cnt[i]);
		else
			memset(c->cnt[i].why, WHY_UNSUPPORTED, e->l.nevents);
	}
	procfs_cpu_times(e->o.root, &c->stat_fd, c->pbusy, c->ptotal, maxid + 1);
	return 0;
}

static void cpus_tick(struct engine *e)
{
	struct cpuset *c = &e->cpu;
	int got = procfs_cpu_times(e->o.root, &c->stat_fd, c->busy, c->total, c->maxid + 1);
	for (int i = 0; i < c->n && e->cpu_vals && e->cpu_gds; i++) {
		struct mrow *r = &e->cpu_rows[i];
		memset(r, 0, sizeof(*r));
		r->kind = ROW_CPU;
		r->cpu = c->id[i];
		r->comm = "";
		r->user = "";
		r->v = e->cpu_vals + (size_t)i * e->l.nevents;
		r->g = e->cpu_gds + (size_t)i * ngroups(e);
		int id = c->id[i];
		uint64_t dt = c->total[id] - c->ptotal[id];
		/* -1: /proc/stat unreadable; -2: no jiffy went by (a very short interval). */
		r->cpu_pct = got <= id ? -1
			     : dt      ? 100.0 * (double)(c->busy[id] - c->pbusy[id]) / (double)dt
				       : -2;
		c->pbusy[id] = c->busy[id];
		c->ptotal[id] = c->total[id];
		if (e->o.per_cpu)
			read_target(e, &c->cnt[i]);
		fill_values(e, c->cnt[i].d, c->cnt[i].why, c->cnt[i].fresh, (struct val *)r->v,
			    (struct val_delta *)r->g, false);
	}
	e->m.ncpu_rows = (unsigned)c->n;
	e->m.cpu_rows = e->cpu_rows;
}

static void cpus_close(struct engine *e)
{
	struct cpuset *c = &e->cpu;
	for (int i = 0; c->cnt && i < c->n; i++)
		counts_free(&c->cnt[i], &e->l);
	if (c->stat_fd >= 0)
		close(c->stat_fd);
	free(c->id);
	free(c->cnt);
	free(c->busy);
	free(e->cpu_rows);
	free(e->cpu_vals);
	free(e->cpu_gds);
}

static void discover(struct engine *e)
{
	if (e->watch) {
		taskwatch_drain(e->watch, on_record, e);
		if (e->rescan)
			scan(e);
	} else {
		scan(e);
	}
}

static uint32_t seq_load(const volatile uint32_t *seq)
{
#if defined(__GNUC__)
	return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
#else
	return *seq;
#endif
}

/* The probe's page count, if mapped. */
static const volatile uint32_t *probe_seq(const struct engine *e, const struct counts *c)
{
	return e->probe_g >= 0 && c->grp[e->probe_g] ? evgroup_probe_seq(c->grp[e->probe_g])
						     : NULL;
}

/* Has the task run since its last full read? With its probe's page mapped, the kernel
 * says without a syscall: the page is rewritten whenever the task is scheduled in, so
 * a count unchanged since before a read that found the task idle (so not on a CPU)
 * means it has not been since. Without it, one read of the leader: value and time
 * enabled unchanged. Such a read, with the count taken before it, starts the count's
 * watch as well as a full read does: the page is mapped at the task's first probe. */
static bool has_run(const struct engine *e, struct counts *c)
{
	if (c->probe_seq)
		return seq_load(c->probe_seq) != c->probe_lock;
	const volatile uint32_t *seq = NULL;
	if (e->map_probe && evgroup_map_probe(c->grp[e->probe_g]) == 0)
		seq = probe_seq(e, c);
	uint32_t lock = seq ? seq_load(seq) : 0;
	uint64_t v, ena;
	if (evgroup_probe_read(c->probe_fd, &v, &ena) != 0 || v != c->probe_val ||
	    ena != c->probe_ena)
		return true;
	c->probe_seq = seq;
	c->probe_lock = lock;
	return false;
}

/* A task that did not run in the last interval is asked first whether it has run since
 * (has_run): a look at its probe's page, or one read of its task-clock leader, and
 * nothing else while it sleeps, whatever the number of groups. Every event of a task
 * counts only while it is on a CPU: not having run means every delta is 0, exactly
 * what reading them all would have said. A task that ran is read in full and not
 * probed on the next tick, so a busy task costs no more than one read per group. */
static bool still_idle(struct engine *e, struct task *t)
{
	struct counts *c = &t->c;
	if (!c->idle || t->state != TASK_LIVE || has_run(e, c))
		return false;
	if (c->d_zero)
		return true; /* asleep the interval before too: d is as it was */
	/* Every delta 0: the dead events' are already, so only the others are written. */
	for (unsigned i = 0; i < e->nlive; i++)
		c->d[e->live[i]] = (struct val_delta){0, 0, 0};
	if (e->logical)
		hybrid_fold(e->set, c->d, c->why); /* the sums' reasons, as a read sets them */
	c->d_zero = true;
	return true;
}

/* After a full read: whether the task can be probed next tick, and what the probe must
 * find for it to have slept (seq and lock: the mapped count, and its value before the
 * read). Not before a group's first read has set its baseline, nor while the task-clock
 * is missing. */
static void mark_idle(const struct engine *e, struct counts *c, const volatile uint32_t *seq,
		      uint32_t lock)
{
	c->d_zero = false;
	c->idle = false;
	if (e->probe_g < 0 || !c->grp[e->probe_g] || c->why[e->probe_ev] != WHY_NONE ||
	    c->d[e->probe_ev].val != 0 || c->d[e->probe_ev].ena != 0)
		return;
	for (unsigned g = 0; g < ngroups(e); g++)
		if (c->fresh[g] != FRESH_NO)
			return;
	const uint64_t *pv = c->prev + e->slot[e->probe_g];
	c->probe_fd = evgroup_probe_fd(c->grp[e->probe_g]);
	c->probe_val = pv[2];
	c->probe_ena = pv[0];
	c->probe_seq = seq;
	c->probe_lock = lock;
	c->idle = c->probe_fd >= 0;
	c->clean = true;
	for (unsigned i = 0; i < e->nlive; i++)
		c->clean = c->clean && c->why[e->live[i]] == WHY_NONE;
}

static void read_tasks(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (p->ignored)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling) {
			if (t->state == TASK_EXITED || still_idle(e, t))
				continue;
			const volatile uint32_t *seq = probe_seq(e, &t->c);
			uint32_t lock = seq ? seq_load(seq) : 0;
			read_target(e, &t->c);
			mark_idle(e, &t->c, seq, lock); /* task-clock stood still: probe it next */
			if (t->state == TASK_EXITING) {
				/* Its last values are in: the descriptors can go now. */
				close_target(e, &t->c);
				t->state = TASK_EXITED;
				e->nexited++;
			}
		}
		if (p->rooted)
			read_roots(e, p);
	}
}

static void build_rows(struct engine *e, bool add_tot)
{
	size_t need = tasktab_procs(e->tab) + (e->o.threads ? tasktab_tasks(e->tab) : 0);
	size_t n = 0;
	unsigned short_count = 0, ntasks = 0;
	if (ensure_rows(e, need)) {
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
			if (p->ignored)
				continue;
			for (struct task *t = p->threads; t; t = t->sibling) {
				short_count += t->fd_short;
				ntasks++;
			}
			size_t before = n;
			n = build_proc(e, p, n, add_tot);
			/* A process none of whose threads could be counted has no row. */
			if (e->rows[before].nthreads == 0 && !p->keep)
				n = before;
		}
	}
	e->m.rows = e->rows;
	e->m.nrows = (unsigned)n;
	e->m.ntasks = ntasks;
	e->m.nfd_short = short_count;
}

int engine_tick(struct engine *e)
{
	double now = evclock_now();
	e->m.elapsed = now - e->last;
	e->m.time = now - e->start;
	e->last = now;

	free_exited(e);
	discover(e);
	retry_fd_short(e);
	/* Sleeping tasks probed through a mapped page, without a syscall, where the kernel
	 * keeps that page up to date at each run: tried once, on a child, after the first
	 * tick (not to delay the first block), and the pages mapped as tasks go idle. */
	e->map_probe = e->o.map_probes && e->probe_g >= 0 && e->m.tick >= 1 &&
		       evgroup_seq_works();
	read_tasks(e);
	build_rows(e, true);
	balance_fds(e);
	if (!e->o.no_cpu_rows)
		cpus_tick(e);
	e->m.tick++;
	return 0;
}

void engine_totals(struct engine *e)
{
	e->totals = true;
	e->m.final = true;
	e->m.elapsed = e->m.time;
	build_rows(e, false);
}

void engine_set_exit_status(struct engine *e, int status)
{
	e->m.exit_status = status;
}

const struct model *engine_model(const struct engine *e)
{
	return &e->m;
}

unsigned engine_mapped_probes(const struct engine *e, pid_t pid)
{
	unsigned n = 0;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; (pid == 0 || p->pid == pid) && t; t = t->sibling)
			n += probe_seq(e, &t->c) != NULL;
	return n;
}

bool engine_built_asleep(const struct engine *e, pid_t pid)
{
	const struct proc *p = tasktab_find_proc(e->tab, pid);
	return p && p->asleep_tick != 0 && p->asleep_tick == e->m.tick;
}

int engine_probe_group(const struct engine *e)
{
	return e->probe_g;
}

bool engine_watched_alive(const struct engine *e)
{
	for (unsigned i = 0; i < e->o.npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, e->pids[i]);
		if (!p)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling)
			if (t->state != TASK_EXITED)
				return true;
	}
	return false;
}

void engine_set_threads(struct engine *e, bool on)
{
	/* Thread rows of watched processes need the groups their roots made unneeded. */
	for (unsigned g = 0; on && g < ngroups(e); g++) {
		if (!engine_lean_group(e, g))
			continue;
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
			for (struct task *t = p->threads; p->rooted && t; t = t->sibling)
				if (t->state == TASK_LIVE && !t->c.grp[g])
					engine_open_group(e, g, t->tid, -1, false, false, &t->c);
	}
	e->o.threads = on;
	e->m.threads = on;
}

void engine_set_interval(struct engine *e, double interval)
{
	e->o.interval = interval;
	e->m.interval = interval;
}

/* Resuming: every group is read now and what it counted while paused goes into the
 * run's totals, not into the next interval, which counts from now (the model keeps the
 * rows of the last interval shown, and its elapsed time will be the time since now).
 * Tasks found in the pause are found at the next tick. */
static void rebase(struct engine *e)
{
	e->last = evclock_now();
	read_tasks(e);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		bool all_exited;
		if (!p->ignored && !proc_asleep(e, p))
			sum_proc(e, p, true, &all_exited);
	}
	if (e->o.no_cpu_rows)
		return;
	struct cpuset *c = &e->cpu;
	procfs_cpu_times(e->o.root, &c->stat_fd, c->pbusy, c->ptotal, c->maxid + 1);
	for (int i = 0; e->o.per_cpu && i < c->n; i++)
		read_target(e, &c->cnt[i]);
}

void engine_set_paused(struct engine *e, bool paused)
{
	if (e->m.paused && !paused && e->m.tick > 0)
		rebase(e);
	e->m.paused = paused;
}

void engine_set_header(struct engine *e, const char *pmus, const char *notice)
{
	e->m.pmus = pmus;
	e->m.notice = notice;
}

/* Whether group g holds a hardware event: the only kind user-only mode changes. */
static bool group_hw(const struct engine *e, unsigned g)
{
	const struct evgroup_spec *gs = &e->set->specs.g[g];
	for (unsigned k = 0; k < gs->n; k++)
		if (!gs->ev[k].software)
			return true;
	return false;
}

/* Reopen the hardware groups of one target (a task, a root, or a CPU with pid -1) the
 * way it opened them; its software groups keep counting and their history. */
static void reopen_hw(struct engine *e, struct counts *c, pid_t pid, int cpu, bool root)
{
	for (unsigned g = 0; g < ngroups(e); g++) {
		if (!group_hw(e, g) || e->gdead[g] || (root && !e->rootable[g]) ||
		    (pid > 0 && !root && engine_lean_group(e, g)))
			continue;
		if (c->grp[g]) {
			evgroup_free(c->grp[g]);
			c->grp[g] = NULL;
			e->fds_freed = true;
		}
		engine_open_group(e, g, pid, cpu, false, root, c);
	}
}

static void reopen_hw_all(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (p->ignored)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling)
			if (t->state == TASK_LIVE && !t->fd_short)
				reopen_hw(e, &t->c, t->tid, -1, false);
		for (unsigned k = 0; k < p->nroots; k++)
			if (p->roots[k].state == ROOT_LIVE)
				reopen_hw(e, &p->roots[k].c, p->roots[k].tid, -1, true);
	}
	for (int i = 0; e->o.per_cpu && i < e->cpu.n; i++)
		reopen_hw(e, &e->cpu.cnt[i], -1, e->cpu.id[i], false);
}

int engine_set_user_only(struct engine *e, bool on)
{
	if (e->o.user_only == on)
		return 0;
	e->o.user_only = on;
	e->m.user_only = on;
	reopen_hw_all(e);
	return 0;
}

void engine_rescan(struct engine *e)
{
	scan(e);
}

unsigned engine_open_fds(const struct engine *e)
{
	unsigned n = 0;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			for (unsigned g = 0; g < ngroups(e); g++)
				n += t->c.grp[g] ? evgroup_open_count(t->c.grp[g]) : 0;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (unsigned k = 0; k < p->nroots; k++)
			for (unsigned g = 0; g < ngroups(e); g++) {
				struct evgroup *eg = p->roots[k].c.grp[g];
				n += eg ? evgroup_open_count(eg) : 0;
			}
	for (int i = 0; i < e->cpu.n; i++)
		for (unsigned g = 0; g < ngroups(e); g++) {
			struct evgroup *eg = e->cpu.cnt[i].grp[g];
			n += eg ? evgroup_open_count(eg) : 0;
		}
	return n;
}

static int watch_open(struct engine *e)
{
	int ids[MAX_CPUS];
	int n = procfs_online_cpus(e->o.root, ids, MAX_CPUS);
	if (n <= 0)
		return -ENODEV;
	return taskwatch_open(ids, n, &e->watch);
}

/* Slots, scratch sums and the model's event tables for set. */
int engine_layout(struct engine *e, const struct evset *set)
{
	unsigned ng = set->specs.n, ne = set->nevents;
	free(e->slot);
	free(e->acc);
	free(e->acc_ok);
	free(e->acc_why);
	free(e->acc_fresh);
	free(e->rootable);
	free(e->dead);
	free(e->gdead);
	free(e->live);
	e->dead = calloc(ne + 1, 1);
	e->gdead = calloc(ng + 1, 1);
	e->live = calloc(ne + 1, sizeof(*e->live));
	e->acc_fresh = calloc(ng + 1, 1);
	e->rootable = calloc(ng + 1, 1);
	e->slot = calloc(ng + 1, sizeof(*e->slot));
	e->acc = calloc(ne + 1, sizeof(*e->acc));
	e->acc_ok = calloc(ne + 1, sizeof(*e->acc_ok));
	e->acc_why = calloc(ne + 1, 1);
	if (!e->slot || !e->acc || !e->acc_ok || !e->acc_why || !e->acc_fresh || !e->rootable ||
	    !e->dead || !e->gdead || !e->live)
		return -ENOMEM;
	e->nlive = 0;
	for (unsigned g = 0; g < ng; g++) {
		const struct mgroup *mg = &set->groups[g];
		e->gdead[g] = set->preset != NULL && mg->n > 0;
		for (unsigned k = 0; k < mg->n; k++) {
			e->dead[mg->first + k] = set->preset && set->preset[g][k] == EVS_UNSUPPORTED;
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
	/* The probed group: software only (never multiplexed: it counts whenever its task
	 * runs) and led by task-clock. None when an event may count into a task that is
	 * asleep: a tracepoint such as sched_wakeup is delivered to the task it names. */
	e->probe_g = -1;
	bool remote = false;
	for (unsigned g = 0; g < ng; g++)
		for (unsigned k = 0; k < set->specs.g[g].n; k++)
			remote = remote || set->specs.g[g].ev[k].attr.type == PERF_TYPE_TRACEPOINT;
	for (unsigned g = 0; g < ng && e->probe_g < 0 && !remote; g++) {
		const struct evgroup_spec *gs = &set->specs.g[g];
		bool sw = gs->n > 0;
		for (unsigned k = 0; k < gs->n; k++)
			sw = sw && gs->ev[k].software && gs->ev[k].attr.type == PERF_TYPE_SOFTWARE;
		if (sw && gs->ev[0].attr.config == PERF_COUNT_SW_TASK_CLOCK &&
		    !e->dead[set->groups[g].first]) {
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

static void header_init(struct engine *e)
{
	struct utsname u;
	if (uname(&u) == 0) {
		/* Truncation is fine: these are header text. */
		memcpy(e->hostname, u.nodename, sizeof(e->hostname) - 1);
		memcpy(e->kernel, u.release, strnlen(u.release, sizeof(e->kernel) - 1));
	}
	e->m.hostname = e->hostname;
	e->m.kernel = e->kernel;
	e->m.ncpus = e->cpu.n;
	e->m.interval = e->o.interval;
	e->m.user_only = e->o.user_only;
	e->m.threads = e->o.threads;
	e->m.exit_status = -1;
}

/* Each watched process must exist, and not be closed to us: a process whose events are
 * all unsupported still gets its rows (n/a), one we may not count is refused. */
static int check_watched(struct engine *e)
{
	for (unsigned i = 0; i < e->o.npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, e->pids[i]);
		int err = -ESRCH;
		bool denied = true;
		for (struct task *t = p ? p->threads : NULL; t; t = t->sibling) {
			if (t->vanished)
				continue;
			err = 0;
			if (t->counted)
				denied = false;
			for (unsigned ev = 0; ev < e->l.nevents && denied; ev++)
				if (t->c.why[ev] != WHY_NOPERM && t->c.why[ev] != WHY_UNSUPPORTED)
					denied = false;
			denied = denied && t->c.why[0] == WHY_NOPERM;
		}
		if (!err && denied)
			err = -EACCES;
		if (err) {
			if (e->o.failed_pid)
				*e->o.failed_pid = e->pids[i];
			return err;
		}
	}
	return 0;
}

struct engine *engine_new(const struct evset *set, const struct engine_opts *o, int *err)
{
	struct engine *e = calloc(1, sizeof(*e));
	*err = -ENOMEM;
	if (!e)
		return NULL;
	e->o = *o;
	e->o.root = o->root ? o->root : "";
	e->cpu.stat_fd = -1;
	e->reserve_fd = -1;
	reserve_take(e);
	e->pids = calloc(o->npids + 1, sizeof(*e->pids));
	if (!e->pids || engine_layout(e, set))
		goto fail;
	if (o->npids)
		memcpy(e->pids, o->pids, o->npids * sizeof(*e->pids));
	e->tab = tasktab_new(&e->l);
	if (!e->tab || cpus_open(e))
		goto fail;
	header_init(e);

	/* Watched processes: exact whole-process counts, threads started later included. */
	e->roots = o->scope == SCOPE_PIDS && evgroup_can_inherit(!o->inherit);
	if (o->scope == SCOPE_PIDS) {
		for (unsigned i = 0; i < o->npids; i++) {
			if (kill(o->pids[i], 0) < 0 && errno == ESRCH) {
				if (o->failed_pid)
					*o->failed_pid = o->pids[i];
				*err = -ESRCH;
				goto fail;
			}
			if (o->enable_on_exec) {
				/* The command has one thread, parked before its exec. */
				struct task *t = tasktab_add(e->tab, o->pids[i], o->pids[i]);
				if (!t)
					goto fail;
				t->proc->keep = true;
				t->enable_on_exec = true;
				t->seen = true;
				task_open(e, t);
				struct procfs_task info;
				if (procfs_task_info(e->o.root, o->pids[i], o->pids[i], &info) ==
				    0) {
					snprintf(t->comm, sizeof(t->comm), "%s", info.comm);
					snprintf(t->proc->comm, sizeof(t->proc->comm), "%s",
						 info.comm);
					t->proc->uid = info.uid;
				}
			}
		}
	} else if (watch_open(e) != 0) {
		e->watch = NULL; /* no CAP_PERFMON: rescan /proc every tick instead */
	}
	scan(e);
	if (o->scope == SCOPE_PIDS && !o->enable_on_exec && (*err = check_watched(e)) != 0)
		goto fail;
	for (unsigned i = 0; e->roots && i < o->npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, o->pids[i]);
		if (p && !p->rooted)
			root_proc(e, p);
	}
	/* Baseline: the first interval counts from here, as its length does, not from each
	 * group's opening during start-up. The clock is read before the pass, as a tick
	 * reads it before its reads: each task's window then lasts one interval. */
	e->start = evclock_now();
	read_tasks(e);
	for (int i = 0; e->o.per_cpu && i < e->cpu.n; i++)
		read_target(e, &e->cpu.cnt[i]);
	procfs_cpu_times(e->o.root, &e->cpu.stat_fd, e->cpu.pbusy, e->cpu.ptotal, e->cpu.maxid + 1);
	e->last = e->start;
	*err = 0;
	return e;
fail:
	engine_free(e);
	return NULL;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	taskwatch_free(e->watch);
	if (e->tab) {
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
			for (struct task *t = p->threads; t; t = t->sibling)
				close_target(e, &t->c);
		tasktab_free(e->tab);
	}
	cpus_close(e);
	reserve_release(e);
	free(e->pending.t);
	free(e->slot);
	free(e->acc);
	free(e->acc_ok);
	free(e->acc_why);
	free(e->acc_fresh);
	free(e->rootable);
	free(e->dead);
	free(e->gdead);
	free(e->live);
	free(e->pids);
	free(e->rows);
	free(e->vals);
	free(e->gds);
	free(e);
}
