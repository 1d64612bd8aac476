/* The perf path as a source: new, free, the tick's outline, its controls. Discovery,
 * opening, reads, the descriptor budget and rows have files of their own (engine_priv.h
 * lists them); what every source shares is source/base's. */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>

#include "engine_priv.h"
#include "evgroup.h"
#include "tasktab.h"
#include "taskwatch.h"

static void set_threads(struct engine *e, bool on)
{
	/* Thread rows of watched processes need the groups their roots made unneeded. */
	for (unsigned g = 0; on && g < engine_ngroups(e); g++) {
		if (!targets_lean_group(e, g))
			continue;
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
			for (struct task *t = p->threads; p->rooted && !targets_single(e, p) && t;
			     t = t->sibling)
				if (t->state == TASK_LIVE && !t->c.grp[g])
					targets_open_group(e, g, t->tid, -1, false, false, &t->c);
	}
	srcbase_control(&e->b, SRC_THREADS, &on);
}

static struct engine *of(struct source *s)
{
	return (struct engine *)s;
}

static const struct engine *of_c(const struct source *s)
{
	return (const struct engine *)s;
}

static int perf_tick(struct source *s)
{
	struct engine *e = of(s);
	srcbase_tick_begin(&e->b);
	discover_free_exited(e);
	discover_tick(e);
	fdbudget_retry(e);
	/* Sleeping tasks probed through a mapped page, without a syscall, where the kernel
	 * keeps that page up to date at each run: tried once, on a child, after the first
	 * tick (not to delay the first block), and the pages mapped as tasks go idle. */
	e->map_probe =
		e->b.o.map_probes && e->probe_g >= 0 && e->b.m.tick >= 1 && evgroup_seq_works();
	probe_read_tasks(e);
	rowbuild_rows(e, true);
	fdbudget_balance(e);
	cgown_tick(e);
	srcbase_tick_end(&e->b);
	return 0;
}

static int perf_totals(struct source *s)
{
	struct engine *e = of(s);
	srcbase_totals_begin(&e->b);
	rowbuild_rows(e, false);
	return 0;
}

static const struct model *model_of(const struct source *s)
{
	return &of_c(s)->b.m;
}

static int perf_control(struct source *s, enum source_ctl what, const void *arg)
{
	struct engine *e = of(s);
	switch (what) {
	case SRC_PAUSE:
		if (srcbase_pause(&e->b, *(const bool *)arg))
			probe_baseline(e, true);
		return 0;
	case SRC_THREADS:
		set_threads(e, *(const bool *)arg);
		return 0;
	case SRC_USER_ONLY:
		if (e->b.o.user_only == *(const bool *)arg)
			return 0;
		srcbase_control(&e->b, what, arg);
		targets_reopen_hw(e);
		return 0;
	case SRC_CGROUP_ROWS:
		cgown_set(e, *(const bool *)arg);
		return 0;
	case SRC_OPEN_FDS:
		*(unsigned *)arg = fdbudget_open_fds(e);
		return 0;
	case SRC_EVSET:
		return perfset_switch(e, arg);
	case SRC_RESCAN:
		if (e->ctree)
			procacct_final(e);
		discover_scan(e);
		return 0;
	case SRC_WATCHED_ALIVE:
		*(bool *)arg = discover_watched_alive(e);
		return 0;
	default:
		return srcbase_control(&e->b, what, arg);
	}
}

static void close_of(struct source *s)
{
	engine_free(of(s));
}

static const struct source_ops perf_ops = {.name = "perf",
					   .caps = SRC_CAN_COUNT | SRC_CAN_ACT,
					   .tick = perf_tick,
					   .totals = perf_totals,
					   .model = model_of,
					   .control = perf_control,
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
	return &e->b.m;
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

/* For tests. */
int engine_probe_group(const struct engine *e)
{
	return e->probe_g;
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
	return p && p->asleep_tick != 0 && p->asleep_tick == e->b.m.tick;
}

struct engine *engine_new(const struct evset *set, const struct srcopts *o, int *err)
{
	*err = -EINVAL;
	if (o->scope == SCOPE_CGROUPS)
		return NULL;
	struct engine *e = calloc(1, sizeof(*e));
	*err = -ENOMEM;
	if (!e)
		return NULL;
	e->src.ops = &perf_ops;
	e->reserve_fd = -1;
	fdbudget_reserve_take(e);
	if (srcbase_init(&e->b, set, o) || perfset_layout(e, set))
		goto fail;
	e->tab = tasktab_new(&e->b.l);
	if (!e->tab)
		goto fail;
	if (o->scope == SCOPE_PIDS && srcbase_pid_gone(&e->b)) {
		*err = -ESRCH;
		goto fail;
	}
	/* Watched processes: exact whole-process counts, threads started later included. */
	e->roots = o->scope == SCOPE_PIDS && evgroup_can_inherit(!o->inherit);
	if (e->roots && o->enable_on_exec && o->inherit && !(e->ctree = cmdtree_new()))
		goto fail;
	if (o->scope == SCOPE_PIDS) {
		if (o->enable_on_exec && discover_command(e) != 0)
			goto fail;
	} else {
		discover_watch_open(e);
	}
	discover_scan(e);
	if (o->scope == SCOPE_PIDS && !o->enable_on_exec && (*err = discover_check_watched(e)) != 0)
		goto fail;
	cgown_start(e);
	for (unsigned i = 0; e->roots && i < o->npids; i++) {
		struct proc *p = tasktab_find_proc(e->tab, o->pids[i]);
		if (p && !p->rooted)
			targets_root_proc(e, p);
	}
	/* Baseline: the first interval counts from here, as its length does, not from each
	 * group's opening during start-up. The clock is read before the pass, as a tick
	 * reads it before its reads: each task's window then lasts one interval. */
	e->b.m.backend = "perf";
	srcbase_start_clock(&e->b);
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
	cgown_free(e);
	if (e->tab) {
		for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
			for (struct task *t = p->threads; t; t = t->sibling)
				targets_close(e, &t->c);
		tasktab_free(e->tab);
	}
	fdbudget_reserve_release(e);
	free(e->pending.t);
	perfset_layout_free(e);
	srcbase_fini(&e->b);
	free(e);
}

static bool perf_can(const struct srcopts *o, bool named)
{
	(void)named;
	return o->scope != SCOPE_CGROUPS;
}

static struct source *perf_open(const struct evset *set, const struct srcopts *o, int *err)
{
	return engine_source(engine_new(set, o, err));
}

const struct source_kind engine_kind = {.name = "perf",
					.what = "per task",
					.flags = SOURCE_BACKEND,
					.can = perf_can,
					.open = perf_open};
