/* Finding tasks: /proc scans and task records, and opening what a scan found CPU by
 * CPU from each CPU. */
#include "engine_priv.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "evclock.h"
#include "procfs.h"
#include "procinfo.h"
#include "tasktab.h"
#include "taskwatch.h"

/* Opening a task's counters installs each event, and enabling it switches it on, by a
 * call on the CPU the task last ran on: an IPI from any other CPU, which on a VM is a
 * trap to the hypervisor and, when that CPU is idle, a wait for it to wake. So a scan
 * that finds many tasks (start-up, a rescan) only notes them, then opens them CPU
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
	fdbudget_pending(e);
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
			targets_task_open(e, q->t[k].t);
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
	int err = procfs_task_info(e->b.o.root, pid, tid, info);
	if (err == -EMFILE || err == -ENFILE) {
		fdbudget_reserve_release(e);
		err = procfs_task_info(e->b.o.root, pid, tid, info);
		fdbudget_reserve_take(e);
	}
	return err;
}

/* A process's name, owner, state and use as /proc gave them for its task. */
static void proc_from_info(struct proc *p, const struct procfs_task *in)
{
	snprintf(p->comm, sizeof(p->comm), "%s", in->comm);
	p->uid = in->uid;
	p->kthread = in->kthread;
	p->ppid = in->ppid;
	p->state = in->state;
	p->rss_kb = in->rss_kb;
	p->start_ticks = in->start_ticks;
	p->have_sched = in->have_nice;
	p->nice = in->nice;
	p->cpu_ns = procfs_ticks_ns(in->cpu_ticks);
	procinfo_more_task(&p->more, in);
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
		proc_from_info(p, known);
	} else if (from) {
		/* A fork copies its parent's name and owner: no /proc read needed. */
		snprintf(t->comm, sizeof(t->comm), "%s", from->comm);
		if (p->nthreads == 1) {
			snprintf(p->comm, sizeof(p->comm), "%s", from->comm);
			p->uid = from->proc->uid;
			p->kthread = from->proc->kthread;
			p->ppid = from->proc->pid;
		}
	} else {
		struct procfs_task info;
		if (task_info(e, pid, tid, &info) == 0) {
			where = info;
			snprintf(t->comm, sizeof(t->comm), "%s", info.comm);
			if (p->nthreads == 1 || tid == pid)
				proc_from_info(p, &info);
		}
	}
	if (!p->cgroup)
		discover_cgroup(e, p);
	/* Its owner's name now, while a descriptor for the user database can still be had
	 * (out of descriptors, a lookup at the first row failed, and USER read 0 for root). */
	if (!p->user || p->user_uid != p->uid) {
		p->user = procfs_user_name(p->uid);
		p->user_uid = p->uid;
	}
	for (unsigned i = 0; i < e->b.o.npids; i++)
		if (e->b.pids[i] == pid)
			p->keep = true;
	/* Another user's process cannot be counted without privileges: remember it, so that
	 * scans do not read it again, but give it no descriptors and no row. */
	if (e->b.o.only_uid && p->uid != e->b.o.uid && !p->keep)
		p->ignored = true;
	targets_thread_added(e, t);
	if (!p->ignored && !(e->pending.on && where.cpu >= 0 && pending_add(e, t, &where)))
		targets_task_open(e, t);
	return t;
}

/* A process's cgroup, read when it is first seen, after an exec (a service manager
 * moves a process before it execs its program) and at a tick in which it ran. */
void discover_cgroup(struct engine *e, struct proc *p)
{
	char path[4096];
	if (e->b.cgnames && cgroup_of(e->b.o.root, p->pid, path, sizeof(path)) == 0)
		p->cgroup = cgroup_names_intern(e->b.cgnames, path);
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
	} else if (c->e->b.o.scope == SCOPE_PIDS || (!c->e->watch && !t->c.idle)) {
		/* A few watched processes, or without task records (no CAP_PERFMON) a task
		 * that ran since it was last found idle (an exec needs a CPU): follow their
		 * names by reading them. A zombie stays in /proc until its parent reaps it,
		 * but it has exited: its counts are final (top shows it as Z, and so it ends
		 * here). */
		struct procfs_task info;
		int r = procfs_task_info(c->e->b.o.root, c->pid, tid, &info);
		if (r == 0) { /* a zombie's name too: its last exec's */
			snprintf(t->comm, sizeof(t->comm), "%s", info.comm);
			/* Its cgroup again after an exec (a new name), as a task record's. */
			if (tid == c->pid &&
			    (!t->proc->cgroup || strcmp(t->proc->comm, info.comm) != 0))
				discover_cgroup(c->e, t->proc);
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

/* procfs_each, with the descriptor kept for /proc when they ran out. Without any: -EMFILE
 * or -ENFILE, and nothing is known of the tasks there. */
static int scan_each(struct engine *e, pid_t pid, int (*cb)(void *ctx, pid_t id), void *ctx)
{
	int err = procfs_each(e->b.o.root, pid, cb, ctx);
	if (err == -EMFILE || err == -ENFILE) {
		fdbudget_reserve_release(e);
		err = procfs_each(e->b.o.root, pid, cb, ctx);
		fdbudget_reserve_take(e);
	}
	return err;
}

/* Tasks a scan could not list (out of descriptors) are kept, not taken for gone. */
static void keep_unlisted(struct proc *p)
{
	for (struct task *t = p ? p->threads : NULL; t; t = t->sibling)
		t->seen = true;
}

void discover_scan_proc(struct engine *e, pid_t pid)
{
	struct scan_ctx c = {e, pid};
	int err = scan_each(e, pid, scan_thread, &c);
	if (err == -EMFILE || err == -ENFILE)
		keep_unlisted(tasktab_find_proc(e->tab, pid));
}

struct task *discover_task_new(struct engine *e, pid_t pid, const struct procfs_task *info)
{
	return task_new_info(e, pid, pid, NULL, info);
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
	discover_scan_proc(e, pid);
	return 0;
}

void discover_scan(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			t->seen = false;
	e->pending.on = true;
	if (e->b.o.scope == SCOPE_ALL) {
		int err = scan_each(e, 0, scan_one, e);
		for (struct proc *p = tasktab_first(e->tab);
		     (err == -EMFILE || err == -ENFILE) && p; p = p->next)
			keep_unlisted(p);
	} else
		for (unsigned i = 0; i < e->b.o.npids; i++)
			discover_scan_proc(e, e->b.pids[i]);
	if (e->ctree)
		cmdtree_scan(e);
	/* A watched process's roots make its row: they take descriptors before its threads'
	 * own groups, which only its thread rows need. */
	for (unsigned i = 0; e->roots && !e->b.o.enable_on_exec && i < e->b.o.npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, e->b.pids[i]);
		if (p && !p->rooted)
			targets_root_proc(e, p);
	}
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
			if (r->exec && procfs_task_info(e->b.o.root, r->pid, r->pid, &info) == 0)
				t->proc->uid = info.uid;
			if (r->exec)
				discover_cgroup(e, t->proc);
		}
		break;
	case TW_LOST:
		e->rescan = true;
		break;
	}
}

/* Tasks that ended by the last tick leave the table. Most ticks none did: no walk. */
void discover_free_exited(struct engine *e)
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
				targets_close(e, &t->c);
				tasktab_remove(e->tab, t);
			}
			t = tn;
		}
		p = next;
	}
}

void discover_tick(struct engine *e)
{
	if (e->watch) {
		taskwatch_drain(e->watch, on_record, e);
		if (e->rescan)
			discover_scan(e);
	} else {
		discover_scan(e);
	}
}

int discover_command(struct engine *e)
{
	for (unsigned i = 0; i < e->b.o.npids; i++) {
		pid_t pid = e->b.pids[i];
		/* The command has one thread, parked before its exec. */
		struct task *t = tasktab_add(e->tab, pid, pid);
		if (!t)
			return -ENOMEM;
		t->proc->keep = true;
		t->proc->tree = e->ctree != NULL;
		t->enable_on_exec = true;
		t->seen = true;
		targets_task_open(e, t);
		struct procfs_task info;
		if (procfs_task_info(e->b.o.root, pid, pid, &info) == 0) {
			snprintf(t->comm, sizeof(t->comm), "%s", info.comm);
			snprintf(t->proc->comm, sizeof(t->proc->comm), "%s", info.comm);
			t->proc->uid = info.uid;
		}
		discover_cgroup(e, t->proc);
	}
	return 0;
}

void discover_watch_open(struct engine *e)
{
	int ids[MAX_CPUS];
	int n = procfs_online_cpus(e->b.o.root, ids, MAX_CPUS);
	/* No CAP_PERFMON: a scan of /proc every tick instead. */
	if (n <= 0 || taskwatch_open(ids, n, &e->watch) != 0)
		e->watch = NULL;
}

/* Each watched process must exist, and not be closed to us: a process whose events are
 * all unsupported still gets its rows (n/a), one we may not count is refused. */
int discover_check_watched(struct engine *e)
{
	for (unsigned i = 0; i < e->b.o.npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, e->b.pids[i]);
		int err = -ESRCH;
		bool denied = true;
		for (struct task *t = p ? p->threads : NULL; t; t = t->sibling) {
			if (t->vanished)
				continue;
			err = 0;
			if (t->counted)
				denied = false;
			for (unsigned ev = 0; ev < e->b.l.nevents && denied; ev++)
				if (t->c.why[ev] != WHY_NOPERM && t->c.why[ev] != WHY_UNSUPPORTED)
					denied = false;
			denied = denied && t->c.why[0] == WHY_NOPERM;
		}
		if (!err && denied)
			err = -EACCES;
		if (err) {
			if (e->b.o.failed_pid)
				*e->b.o.failed_pid = e->b.pids[i];
			return err;
		}
	}
	return 0;
}

bool discover_watched_alive(const struct engine *e)
{
	for (unsigned i = 0; i < e->b.o.npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, e->b.pids[i]);
		if (!p)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling)
			if (t->state != TASK_EXITED)
				return true;
	}
	return false;
}
