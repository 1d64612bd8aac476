/* -G: cgroups counted themselves, as perf stat -a -G counts them: each group of the set
 * opened once per CPU per cgroup in perf's cgroup mode (the cgroup's directory as the
 * pid, PERF_FLAG_PID_CGROUP), so that every task that runs in the cgroup counts, even
 * one too short-lived for a /proc scan. Each tick the CPUs' raw deltas are summed and
 * scaled once, as perf stat aggregates them, into a row of kind ROW_CGROUP. */
#include "cgsource.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

struct cgsource {
	struct source src; /* first: cgsource_ops */
	struct srcbase b;
	unsigned n;
	struct counts *cnt; /* n * cpu.n: cgroup i on CPU c at i * cpu.n + c */
	struct {
		char s[96];
	} * names; /* cgroup_name of each */
};

static struct cgsource *of(struct source *s)
{
	return (struct cgsource *)s;
}

static int open_all(struct cgsource *g)
{
	struct srcbase *b = &g->b;
	g->n = b->o.ncgroups;
	g->cnt = calloc((size_t)g->n * (size_t)b->cpu.n + 1, sizeof(*g->cnt));
	g->names = calloc(g->n + 1, sizeof(*g->names));
	if (!g->cnt || !g->names)
		return -ENOMEM;
	for (unsigned i = 0; i < g->n; i++) {
		cgroup_name(b->o.cgroup_paths[i], g->names[i].s, sizeof(g->names[i].s));
		int err =
			srcbase_open_cgroup(b, b->o.cgroup_fds[i], &g->cnt[i * (unsigned)b->cpu.n]);
		if (err)
			return err;
	}
	return 0;
}

static size_t ntargets(const struct cgsource *g)
{
	return (size_t)g->n * (size_t)g->b.cpu.n;
}

static void cg_free(struct cgsource *g)
{
	if (!g)
		return;
	for (size_t i = 0; g->cnt && i < ntargets(g); i++)
		counts_free(&g->cnt[i], &g->b.l);
	free(g->cnt);
	free(g->names);
	srcbase_fini(&g->b);
	free(g);
}

static void baseline(struct cgsource *g)
{
	for (size_t i = 0; i < ntargets(g); i++)
		srcbase_read(&g->b, &g->cnt[i]);
	srcbase_baseline(&g->b);
}

static int cg_tick(struct source *s)
{
	struct cgsource *g = of(s);
	struct srcbase *b = &g->b;
	srcbase_tick_begin(b);
	size_t n = 0;
	if (mstore_reserve(&b->rows, g->n, b->set->nevents, srcbase_ngroups(b)) >= 0) {
		for (unsigned i = 0; i < g->n; i++) {
			struct mrow_w w = mstore_row(&b->rows, n++);
			w.r->kind = ROW_CGROUP;
			w.r->cgroup = b->o.cgroup_paths[i];
			w.r->comm = g->names[i].s;
			w.r->user = "";
			w.r->pid = w.r->tid = (pid_t)i + 1;
			srcbase_count_cgroup(b, &g->cnt[i * (unsigned)b->cpu.n], w);
		}
	}
	b->m.rows = b->rows.rows;
	b->m.nrows = (unsigned)n;
	b->m.ntasks = 0;
	b->m.nfd_short = 0;
	srcbase_tick_end(b);
	return 0;
}

static const struct model *cg_model(const struct source *s)
{
	return &((const struct cgsource *)s)->b.m;
}

/* A new event set: each cgroup's counters on each CPU moved, the new groups opened. */
static int switch_set(struct cgsource *g, const struct evset *set)
{
	struct srcbase *b = &g->b;
	struct srcremap r;
	int err = srcbase_switch(b, set, &r);
	for (size_t i = 0; !err && b->cpu.n > 0 && i < ntargets(g); i++) {
		if ((err = srcremap_move(&r, &g->cnt[i])))
			break;
		srcbase_open_new(b, r.gmap, b->o.cgroup_fds[i / (size_t)b->cpu.n],
				 b->cpu.id[i % (size_t)b->cpu.n], true, &g->cnt[i]);
	}
	srcremap_free(&r);
	return err;
}

static int cg_control(struct source *s, enum source_ctl what, const void *arg)
{
	struct cgsource *g = of(s);
	struct srcbase *b = &g->b;
	switch (what) {
	case SRC_PAUSE:
		if (srcbase_pause(b, *(const bool *)arg))
			baseline(g);
		return 0;
	case SRC_USER_ONLY:
		if (b->o.user_only == *(const bool *)arg)
			return 0;
		srcbase_control(b, what, arg);
		for (size_t i = 0; b->cpu.n > 0 && i < ntargets(g); i++)
			srcbase_reopen_hw(b, &g->cnt[i], b->o.cgroup_fds[i / (size_t)b->cpu.n],
					  b->cpu.id[i % (size_t)b->cpu.n], true);
		cpurows_reopen_hw(b);
		return 0;
	case SRC_EVSET:
		return switch_set(g, arg);
	case SRC_OPEN_FDS: {
		unsigned n = srcbase_open_fds(b);
		for (size_t i = 0; i < ntargets(g); i++)
			n += counts_open_fds(&g->cnt[i], &b->l);
		*(unsigned *)arg = n;
		return 0;
	}
	case SRC_CGROUP_ROWS: /* its rows are cgroups already */
		b->o.cgroup_rows = *(const bool *)arg;
		return 0;
	case SRC_RESCAN: /* no task is counted */
		return 0;
	case SRC_WATCHED_ALIVE:
		*(bool *)arg = false;
		return 0;
	default:
		return srcbase_control(b, what, arg);
	}
}

static void cg_close(struct source *s)
{
	cg_free(of(s));
}

static const struct source_ops cgsource_ops = {.name = "cgroup",
					       .caps = SRC_CAN_COUNT | SRC_CAN_ACT,
					       .tick = cg_tick,
					       .model = cg_model,
					       .control = cg_control,
					       .free = cg_close};

struct source *cgsource_new(const struct evset *set, const struct srcopts *o, int *err)
{
	*err = -EINVAL;
	if (o->scope != SCOPE_CGROUPS)
		return NULL;
	struct cgsource *g = calloc(1, sizeof(*g));
	*err = -ENOMEM;
	if (!g)
		return NULL;
	g->src.ops = &cgsource_ops;
	if (srcbase_init(&g->b, set, o))
		goto fail;
	if ((*err = open_all(g)) != 0) {
		if (*err != -EMFILE && *err != -ENFILE)
			*err = -ENOMEM;
		goto fail;
	}
	g->b.m.backend = "perf";
	srcbase_start_clock(&g->b);
	baseline(g);
	*err = 0;
	return &g->src;
fail:
	cg_free(g);
	return NULL;
}

static bool cg_can(const struct srcopts *o, bool named)
{
	(void)named;
	return o->scope == SCOPE_CGROUPS;
}

/* perf's too: -G counts cgroups per CPU with perf. */
const struct source_kind cgsource_kind = {.name = "perf",
					  .what = "per cgroup",
					  .flags = SOURCE_BACKEND,
					  .can = cg_can,
					  .open = cgsource_new};
