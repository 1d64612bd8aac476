/* The counter engine: new, free, the tick's outline, and the three sources it is (perf,
 * bpf, cgroup: one ops table each, source.h). Discovery, opening, reads, the descriptor
 * budget, rows and CPU rows have files of their own (engine_priv.h lists them). */
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

static void set_threads(struct engine *e, bool on)
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

static void set_paused(struct engine *e, bool paused)
{
	/* Resuming: what every group counted while paused goes into the run's totals, not
	 * into the next interval, which counts from now. */
	if (e->paused && !paused && e->m.tick > 0) {
		e->last = evclock_now();
		probe_baseline(e, true);
	}
	e->paused = paused;
}

static struct engine *of(struct source *s)
{
	return (struct engine *)s;
}

static const struct engine *of_c(const struct source *s)
{
	return (const struct engine *)s;
}

/* A tick's outline, whatever counts: the interval's clock, the source's rows, CPU rows. */
static void tick_begin(struct engine *e)
{
	double now = evclock_now();
	e->m.elapsed = now - e->last;
	e->m.time = now - e->start;
	e->last = now;
}

static int tick_end(struct engine *e)
{
	if (!e->o.no_cpu_rows)
		cpurows_tick(e);
	e->m.tick++;
	return 0;
}

static int perf_tick(struct source *s)
{
	struct engine *e = of(s);
	tick_begin(e);
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
	cgcount_rows_tick(e);
	return tick_end(e);
}

/* -ENODEV once the backend gave up (an event set or mode it could not load). */
static int bpf_tick(struct source *s)
{
	struct engine *e = of(s);
	if (e->bpf && e->bpf_give_up && e->m.tick + 1 >= e->bpf_give_up)
		bpfsource_close(e);
	if (!e->bpf)
		return -ENODEV;
	tick_begin(e);
	bpfsource_tick(e);
	engine_set_restart_rows(e);
	return tick_end(e);
}

static int cgroup_tick(struct source *s)
{
	struct engine *e = of(s);
	tick_begin(e);
	cgcount_tick(e);
	return tick_end(e);
}

static void totals_begin(struct engine *e)
{
	e->totals = true;
	e->m.final = true;
	/* What it counted itself: since the start, or since it took over from a source. */
	e->m.elapsed = e->m.time - (e->began - e->start);
}

static int perf_totals(struct source *s)
{
	struct engine *e = of(s);
	totals_begin(e);
	rowbuild_rows(e, false);
	return 0;
}

static int bpf_totals(struct source *s)
{
	struct engine *e = of(s);
	if (!e->bpf)
		return -ENODEV;
	totals_begin(e);
	bpfsource_totals(e);
	return 0;
}

static const struct model *model_of(const struct source *s)
{
	return &of_c(s)->m;
}

/* What every counting source does alike: 0, or -ENOTSUP for what is the source's own. */
static int common_control(struct engine *e, enum source_ctl what, const void *arg)
{
	switch (what) {
	case SRC_INTERVAL:
		e->o.interval = *(const double *)arg;
		e->m.interval = e->o.interval;
		return 0;
	case SRC_PAUSE:
		set_paused(e, *(const bool *)arg);
		return 0;
	case SRC_THREADS:
		set_threads(e, *(const bool *)arg);
		return 0;
	case SRC_CGROUP_ROWS:
		e->o.cgroup_rows = *(const bool *)arg;
		e->cgo.on = e->o.cgroup_rows && e->o.scope == SCOPE_ALL && !e->o.only_uid;
		if (!e->cgo.on)
			cgcount_rows_close(e);
		return 0;
	case SRC_CMDLINE:
		e->cmdline = *(const bool *)arg;
		return 0;
	case SRC_OPEN_FDS:
		*(unsigned *)arg = fdbudget_open_fds(e);
		return 0;
	case SRC_USER_ONLY:
		e->o.user_only = *(const bool *)arg;
		e->m.user_only = e->o.user_only;
		return 0;
	case SRC_EVSET:
		return engine_switch_set(e, arg);
	default:
		return -ENOTSUP;
	}
}

static int perf_control(struct source *s, enum source_ctl what, const void *arg)
{
	struct engine *e = of(s);
	switch (what) {
	case SRC_USER_ONLY:
		if (e->o.user_only == *(const bool *)arg)
			return 0;
		common_control(e, what, arg);
		targets_reopen_hw(e);
		return 0;
	case SRC_RESCAN:
		discover_scan(e);
		return 0;
	case SRC_WATCHED_ALIVE:
		*(bool *)arg = discover_watched_alive(e);
		return 0;
	default:
		return common_control(e, what, arg);
	}
}

/* The backend starts over on a new event set or mode: the next tick's task rows read
 * n/c (starting). When it cannot (too many events for the program), it is gone and
 * says why: the app counts with perf instead. */
static int bpf_control(struct source *s, enum source_ctl what, const void *arg)
{
	struct engine *e = of(s);
	int err;
	switch (what) {
	case SRC_USER_ONLY:
		if (e->o.user_only == *(const bool *)arg)
			return 0;
		common_control(e, what, arg);
		e->bpf_restarted = true;
		return bpfsource_restart(e);
	case SRC_EVSET:
		if ((err = engine_switch_set(e, arg)) != 0)
			return err;
		e->bpf_restarted = true;
		return bpfsource_restart(e);
	case SRC_PAUSE:
		/* Resuming: the threads of a watched process that ended meanwhile still go
		 * into its totals. */
		if (e->bpf && e->paused && !*(const bool *)arg && e->m.tick > 0)
			bpfsource_rebase(e);
		return common_control(e, what, arg);
	case SRC_CGROUP_ROWS: /* its rows already hold every task with its cgroup */
		e->o.cgroup_rows = *(const bool *)arg;
		return 0;
	case SRC_RESCAN: /* every task is in the BPF maps once it runs */
		return 0;
	case SRC_WATCHED_ALIVE:
		*(bool *)arg = e->bpf && bpfsource_watched_alive(e);
		return 0;
	case SRC_OPEN_FDS:
		*(unsigned *)arg = bpfsource_open_fds(e) + fdbudget_open_fds(e);
		return 0;
	default:
		return common_control(e, what, arg);
	}
}

static int cgroup_control(struct source *s, enum source_ctl what, const void *arg)
{
	struct engine *e = of(s);
	switch (what) {
	case SRC_USER_ONLY:
		return perf_control(s, what, arg);
	case SRC_RESCAN: /* no task is counted */
		return 0;
	case SRC_WATCHED_ALIVE:
		*(bool *)arg = false;
		return 0;
	default:
		return common_control(e, what, arg);
	}
}

static void close_of(struct source *s)
{
	engine_free(of(s));
}

static const struct source_ops perf_ops = {.name = "perf",
					   .tick = perf_tick,
					   .totals = perf_totals,
					   .model = model_of,
					   .control = perf_control,
					   .free = close_of};
static const struct source_ops bpf_ops = {.name = "bpf",
					  .tick = bpf_tick,
					  .totals = bpf_totals,
					  .model = model_of,
					  .control = bpf_control,
					  .free = close_of};
static const struct source_ops cgroup_ops = {.name = "cgroup",
					     .tick = cgroup_tick,
					     .model = model_of,
					     .control = cgroup_control,
					     .free = close_of};

struct source *engine_source(struct engine *e)
{
	return e ? &e->src : NULL;
}

int engine_tick(struct engine *e)
{
	return source_tick(&e->src);
}

void engine_totals(struct engine *e)
{
	source_totals(&e->src);
}

const struct model *engine_model(const struct engine *e)
{
	return &e->m;
}

void engine_set_cmdline(struct engine *e, bool on)
{
	source_set(&e->src, SRC_CMDLINE, on);
}

void engine_set_cgroup_rows(struct engine *e, bool on)
{
	source_set(&e->src, SRC_CGROUP_ROWS, on);
}

void engine_set_threads(struct engine *e, bool on)
{
	source_set(&e->src, SRC_THREADS, on);
}

void engine_set_interval(struct engine *e, double interval)
{
	source_control(&e->src, SRC_INTERVAL, &interval);
}

void engine_set_paused(struct engine *e, bool paused)
{
	source_set(&e->src, SRC_PAUSE, paused);
}

int engine_set_user_only(struct engine *e, bool on)
{
	return source_set(&e->src, SRC_USER_ONLY, on);
}

int engine_set_evset(struct engine *e, const struct evset *set)
{
	return source_control(&e->src, SRC_EVSET, set);
}

void engine_rescan(struct engine *e)
{
	source_control(&e->src, SRC_RESCAN, NULL);
}

bool engine_watched_alive(const struct engine *e)
{
	bool alive = false;
	source_control((struct source *)&e->src, SRC_WATCHED_ALIVE, &alive);
	return alive;
}

unsigned engine_open_fds(const struct engine *e)
{
	unsigned n = 0;
	source_control((struct source *)&e->src, SRC_OPEN_FDS, &n);
	return n;
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

/* The first interval counts from now; the run's time from o.start when this engine
 * takes over from another source (its ticks carry on from o.tick). */
static void start_clock(struct engine *e)
{
	e->last = evclock_now();
	e->began = e->last;
	e->start = e->o.start > 0 && e->o.start <= e->last ? e->o.start : e->last;
	e->m.tick = e->o.tick;
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
		e->src.ops = &bpf_ops;
		if ((*err = bpfsource_open(e)) != 0) {
			if (o->bpf_err)
				*o->bpf_err = *err;
			goto fail;
		}
		e->m.backend = "bpf";
		const char *give_up = getenv("PMUTOP_TEST_BPF_GIVE_UP");
		e->bpf_give_up = give_up ? strtoul(give_up, NULL, 10) : 0;
		start_clock(e);
		bpfsource_rebase(e);
		goto baseline;
	}
	e->src.ops = o->scope == SCOPE_CGROUPS ? &cgroup_ops : &perf_ops;
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
	/* Baseline: the first interval counts from here, as its length does, not from each
	 * group's opening during start-up. The clock is read before the pass, as a tick
	 * reads it before its reads: each task's window then lasts one interval. */
	e->m.backend = "perf";
	start_clock(e);
baseline:
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
