/* The counter engine: new, free, the tick's outline and the setters. Discovery, opening,
 * reads, the descriptor budget, rows and CPU rows have files of their own (engine_priv.h
 * lists them). */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cgroup.h"
#include "evclock.h"
#include "evgroup.h"
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
	} else if (e->bpf) {
		bpfsource_tick(e);
		engine_set_restart_rows(e);
	} else {
		discover_free_exited(e);
		discover_tick(e);
		fdbudget_retry(e);
		/* Sleeping tasks probed through a mapped page, without a syscall, where the
		 * kernel keeps that page up to date at each run: tried once, on a child, after
		 * the first tick (not to delay the first block), and the pages mapped as tasks
		 * go idle. */
		e->map_probe =
			e->o.map_probes && e->probe_g >= 0 && e->m.tick >= 1 && evgroup_seq_works();
		probe_read_tasks(e);
		rowbuild_rows(e, true);
		fdbudget_balance(e);
		cgcount_rows_tick(e);
	}
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

const struct model *engine_model(const struct engine *e)
{
	return &e->m;
}

void engine_set_cmdline(struct engine *e, bool on)
{
	e->cmdline = on;
}

void engine_set_cgroup_rows(struct engine *e, bool on)
{
	e->o.cgroup_rows = on;
	e->cgo.on = on && e->o.scope == SCOPE_ALL && !e->o.only_uid;
	if (!e->cgo.on)
		cgcount_rows_close(e);
}

void engine_set_threads(struct engine *e, bool on)
{
	/* Thread rows of watched processes need the groups their roots made unneeded. */
	for (unsigned g = 0; on && g < engine_ngroups(e); g++) {
		if (!engine_lean_group(e, g) || cmdtree_iter_on(e))
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

void engine_set_paused(struct engine *e, bool paused)
{
	/* Resuming: what every group counted while paused goes into the run's totals, not
	 * into the next interval, which counts from now. */
	if (e->paused && !paused && e->m.tick > 0) {
		e->last = evclock_now();
		probe_baseline(e, true);
	}
	e->paused = paused;
}

int engine_set_user_only(struct engine *e, bool on)
{
	if (e->o.user_only == on)
		return 0;
	e->o.user_only = on;
	e->m.user_only = on;
	if (e->bpf) {
		e->bpf_restarted = true;
		return bpfsource_restart(e);
	}
	targets_reopen_hw(e);
	return 0;
}

void engine_rescan(struct engine *e)
{
	if (e->bpf)
		return; /* every task is in the BPF maps once it runs */
	discover_scan(e);
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
	if (cgroup_mount(e->o.root, mnt, sizeof(mnt)) == 0 &&
	    (!(e->cgnames = cgroup_names_new()) || !(e->cgids = cgroup_ids_new(mnt, e->cgnames))))
		goto fail;

	if (o->scope == SCOPE_PIDS && discover_pid_gone(e)) {
		*err = -ESRCH;
		goto fail;
	}
	if (o->bpf) {
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
		if (o->enable_on_exec && discover_command(e) != 0)
			goto fail;
	} else if (o->scope == SCOPE_CGROUPS) {
		/* No task: each cgroup per CPU (cgcount.c). */
		if ((*err = cgcount_open(e)) != 0) {
			if (*err != -EMFILE && *err != -ENFILE)
				*err = -ENOMEM;
			goto fail;
		}
	} else {
		discover_watch_open(e);
	}
	if (o->scope != SCOPE_CGROUPS)
		discover_scan(e);
	if (o->scope == SCOPE_PIDS && !o->enable_on_exec && (*err = discover_check_watched(e)) != 0)
		goto fail;
	cgcount_rows_start(e);
	for (unsigned i = 0; e->roots && i < o->npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, o->pids[i]);
		if (p && !p->rooted)
			targets_root_proc(e, p);
	}
	if (e->ctree && o->tree_iter)
		cmdtree_load(e); /* before the first interval starts: loading takes a while */
	/* Baseline: the first interval counts from here, as its length does, not from each
	 * group's opening during start-up. The clock is read before the pass, as a tick
	 * reads it before its reads: each task's window then lasts one interval. */
baseline:
	e->m.backend = e->bpf ? "bpf" : "perf";
	e->start = evclock_now();
	e->last = e->start;
	probe_baseline(e, false);
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
	cgroup_ids_free(e->cgids);
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
