/* The counter engine: new, free, the tick's outline and the setters. Discovery, opening,
 * reads, the descriptor budget, rows and CPU rows have files of their own (engine_priv.h
 * lists them). */
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

#include "cgroup.h"
#include "evclock.h"
#include "evgroup.h"
#include "hybrid.h"
#include "procfs.h"
#include "taskwatch.h"
#include "tasktab.h"
#include "engine_priv.h"

int engine_tick(struct engine *e)
{
	double now = evclock_now();
	e->m.elapsed = now - e->last;
	e->m.time = now - e->start;
	e->last = now;

	if (e->o.scope == SCOPE_CGROUPS) {
		cgcount_tick(e);
		if (!e->o.no_cpu_rows)
			cpurows_tick(e);
		e->m.tick++;
		return 0;
	}
	if (e->bpf) {
		bpfsource_tick(e);
		if (!e->o.no_cpu_rows)
			cpurows_tick(e);
		e->m.tick++;
		return 0;
	}
	discover_free_exited(e);
	discover_tick(e);
	fdbudget_retry(e);
	/* Sleeping tasks probed through a mapped page, without a syscall, where the kernel
	 * keeps that page up to date at each run: tried once, on a child, after the first
	 * tick (not to delay the first block), and the pages mapped as tasks go idle. */
	e->map_probe = e->o.map_probes && e->probe_g >= 0 && e->m.tick >= 1 && evgroup_seq_works();
	probe_read_tasks(e);
	rowbuild_rows(e, true);
	fdbudget_balance(e);
	if (!e->o.no_cpu_rows)
		cpurows_tick(e);
	e->m.tick++;
	return 0;
}

void engine_totals(struct engine *e)
{
	e->totals = true;
	e->m.final = true;
	e->m.elapsed = e->m.time;
	if (e->bpf)
		bpfsource_totals(e);
	else
		rowbuild_rows(e, false);
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
	if (e->bpf)
		return bpfsource_watched_alive(e);
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

void engine_set_cmdline(struct engine *e, bool on)
{
	e->cmdline = on;
}

void engine_set_threads(struct engine *e, bool on)
{
	/* Thread rows of watched processes need the groups their roots made unneeded. */
	for (unsigned g = 0; on && g < engine_ngroups(e); g++) {
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
	if (e->bpf)
		bpfsource_rebase(e);
	probe_read_tasks(e);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		bool all_exited;
		if (!p->ignored && !rowbuild_asleep(e, p))
			rowbuild_sum_proc(e, p, true, &all_exited);
	}
	if (e->o.no_cpu_rows)
		return;
	struct cpuset *c = &e->cpu;
	procfs_cpu_times(e->o.root, &c->stat_fd, c->pbusy, c->ptotal, c->maxid + 1);
	for (int i = 0; e->o.per_cpu && i < c->n; i++)
		targets_read(e, &c->cnt[i]);
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
	for (unsigned g = 0; g < engine_ngroups(e); g++) {
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
	if (e->bpf)
		return bpfsource_restart(e);
	reopen_hw_all(e);
	return 0;
}

void engine_rescan(struct engine *e)
{
	if (e->bpf)
		return; /* every task is in the BPF maps once it runs */
	discover_scan(e);
}

unsigned engine_open_fds(const struct engine *e)
{
	unsigned n = bpfsource_open_fds(e);
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->threads; t; t = t->sibling)
			for (unsigned g = 0; g < engine_ngroups(e); g++)
				n += t->c.grp[g] ? evgroup_open_count(t->c.grp[g]) : 0;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (unsigned k = 0; k < p->nroots; k++)
			for (unsigned g = 0; g < engine_ngroups(e); g++) {
				struct evgroup *eg = p->roots[k].c.grp[g];
				n += eg ? evgroup_open_count(eg) : 0;
			}
	for (int i = 0; i < e->cpu.n; i++)
		for (unsigned g = 0; g < engine_ngroups(e); g++) {
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
	fdbudget_reserve_take(e);
	e->pids = calloc(o->npids + 1, sizeof(*e->pids));
	if (!e->pids || engine_layout(e, set))
		goto fail;
	if (o->npids)
		memcpy(e->pids, o->pids, o->npids * sizeof(*e->pids));
	e->tab = tasktab_new(&e->l);
	if (!e->tab || cpurows_open(e))
		goto fail;
	header_init(e);
	char mnt[512];
	if (cgroup_mount(e->o.root, mnt, sizeof(mnt)) == 0 && !(e->cgnames = cgroup_names_new()))
		goto fail;

	if (o->bpf) {
		for (unsigned i = 0; o->scope == SCOPE_PIDS && i < o->npids; i++)
			if (kill(o->pids[i], 0) < 0 && errno == ESRCH) {
				if (o->failed_pid)
					*o->failed_pid = o->pids[i];
				*err = -ESRCH;
				goto fail;
			}
		if ((*err = bpfsource_open(e)) != 0) {
			if (o->bpf_err)
				*o->bpf_err = *err;
			goto fail;
		}
		goto baseline;
	}
	/* Watched processes: exact whole-process counts, threads started later included. */
	e->roots = o->scope == SCOPE_PIDS && evgroup_can_inherit(!o->inherit);
	if (e->roots && o->enable_on_exec && o->inherit && !(e->ctree = cmdtree_new()))
		goto fail;
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
				t->proc->tree = e->ctree != NULL;
				t->enable_on_exec = true;
				t->seen = true;
				targets_task_open(e, t);
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
	} else if (o->scope == SCOPE_CGROUPS) {
		/* No task: each cgroup per CPU (cgcount.c). */
		if ((*err = cgcount_open(e)) != 0) {
			if (*err != -EMFILE && *err != -ENFILE)
				*err = -ENOMEM;
			goto fail;
		}
	} else if (watch_open(e) != 0) {
		e->watch = NULL; /* no CAP_PERFMON: rescan /proc every tick instead */
	}
	if (o->scope != SCOPE_CGROUPS)
		discover_scan(e);
	if (o->scope == SCOPE_PIDS && !o->enable_on_exec && (*err = check_watched(e)) != 0)
		goto fail;
	for (unsigned i = 0; e->roots && i < o->npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, o->pids[i]);
		if (p && !p->rooted)
			targets_root_proc(e, p);
	}
	/* Baseline: the first interval counts from here, as its length does, not from each
	 * group's opening during start-up. The clock is read before the pass, as a tick
	 * reads it before its reads: each task's window then lasts one interval. */
baseline:
	e->m.backend = e->bpf ? "bpf" : "perf";
	e->start = evclock_now();
	if (e->bpf)
		bpfsource_rebase(e);
	probe_read_tasks(e);
	for (int i = 0; e->o.per_cpu && i < e->cpu.n; i++)
		targets_read(e, &e->cpu.cnt[i]);
	for (size_t i = 0; i < (size_t)e->cg.n * (size_t)e->cpu.n; i++)
		targets_read(e, &e->cg.cnt[i]);
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
	cmdtree_free(e->ctree);
	bpfsource_close(e);
	cgcount_close(e);
	cgroup_names_free(e->cgnames);
	if (e->tab) {
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
			for (struct task *t = p->threads; t; t = t->sibling)
				targets_close(e, &t->c);
		tasktab_free(e->tab);
	}
	cpurows_close(e);
	fdbudget_reserve_release(e);
	free(e->pending.t);
	engine_layout_free(e);
	free(e->pids);
	mstore_free(&e->rows);
	free(e);
}
