/* -G: cgroups counted themselves, as perf stat -a -G counts them: each group of the set
 * opened once per CPU per cgroup in perf's cgroup mode (the cgroup's directory as the
 * pid, PERF_FLAG_PID_CGROUP), so that every task that runs in the cgroup counts, even
 * one too short-lived for a /proc scan. Each tick the CPUs' raw deltas are summed and
 * scaled once, as perf stat aggregates them, into a row of kind ROW_CGROUP. */
#include "engine_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

int cgcount_open(struct engine *e)
{
	struct cgcount *g = &e->cg;
	g->n = e->o.ncgroups;
	g->cnt = calloc((size_t)g->n * (size_t)e->cpu.n + 1, sizeof(*g->cnt));
	g->names = calloc(g->n + 1, sizeof(*g->names));
	if (!g->cnt || !g->names)
		return -ENOMEM;
	for (unsigned i = 0; i < g->n; i++) {
		cgroup_name(e->o.cgroup_paths[i], g->names[i].s, sizeof(g->names[i].s));
		for (int c = 0; c < e->cpu.n; c++) {
			struct counts *cn = &g->cnt[i * (unsigned)e->cpu.n + (unsigned)c];
			if (counts_alloc(cn, &e->l))
				return -ENOMEM;
			int err = targets_open(e, e->o.cgroup_fds[i], e->cpu.id[c], false, cn);
			if (err == -EMFILE || err == -ENFILE)
				return err;
		}
	}
	return 0;
}

void cgcount_close(struct engine *e)
{
	struct cgcount *g = &e->cg;
	for (size_t i = 0; g->cnt && i < (size_t)g->n * (size_t)e->cpu.n; i++)
		counts_free(&g->cnt[i], &e->l);
	free(g->cnt);
	free(g->names);
	memset(g, 0, sizeof(*g));
}

void cgcount_tick(struct engine *e)
{
	struct cgcount *g = &e->cg;
	unsigned ne = e->set->nevents;
	size_t n = 0;
	if (mstore_reserve(&e->rows, g->n, ne, engine_ngroups(e)) >= 0) {
		for (unsigned i = 0; i < g->n; i++) {
			memset(e->acc, 0, ne * sizeof(*e->acc));
			memset(e->acc_why, WHY_GONE, ne);
			memset(e->acc_fresh, FRESH_FIRST_READ, engine_ngroups(e));
			memset(e->acc_ok, 0, ne * sizeof(*e->acc_ok));
			for (int c = 0; c < e->cpu.n; c++) {
				struct counts *cn = &g->cnt[i * (unsigned)e->cpu.n + (unsigned)c];
				targets_read(e, cn);
				rowbuild_acc_add(e, cn, -1);
			}
			struct mrow_w w = mstore_row(&e->rows, n++);
			w.r->kind = ROW_CGROUP;
			w.r->cgroup = e->o.cgroup_paths[i];
			w.r->comm = g->names[i].s;
			w.r->user = "";
			w.r->pid = w.r->tid = (pid_t)i + 1;
			rowbuild_fill(e, e->acc, e->acc_why, e->acc_fresh, w.v, w.g, false);
		}
	}
	e->m.rows = e->rows.rows;
	e->m.nrows = (unsigned)n;
	e->m.ntasks = 0;
	e->m.nfd_short = 0;
}
