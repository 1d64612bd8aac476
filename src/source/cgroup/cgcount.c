/* -G: cgroups counted themselves, as perf stat -a -G counts them: each group of the set
 * opened once per CPU per cgroup in perf's cgroup mode (the cgroup's directory as the
 * pid, PERF_FLAG_PID_CGROUP), so that every task that runs in the cgroup counts, even
 * one too short-lived for a /proc scan. Each tick the CPUs' raw deltas are summed and
 * scaled once, as perf stat aggregates them, into a row of kind ROW_CGROUP. With
 * --cgroups and perf, the same counters on each cgroup holding a process row: what its
 * processes born and gone between two ticks counted is in its row. */
#include "engine_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "tasktab.h"

/* One cgroup (its directory dirfd) on each CPU into cnt[cpu.n]: 0, -ENOMEM, or
 * -EMFILE/-ENFILE. */
static int open_cgroup(struct engine *e, int dirfd, struct counts *cnt)
{
	for (int c = 0; c < e->cpu.n; c++) {
		if (counts_alloc(&cnt[c], &e->l))
			return -ENOMEM;
		int err = targets_open(e, dirfd, e->cpu.id[c], false, &cnt[c]);
		if (err == -EMFILE || err == -ENFILE)
			return err;
	}
	return 0;
}

/* One cgroup's reads on every CPU, summed raw and scaled once, as perf stat aggregates
 * them, into w's values. */
static void count_cgroup(struct engine *e, struct counts *cnt, struct mrow_w w)
{
	unsigned ne = e->set->nevents;
	memset(e->acc, 0, ne * sizeof(*e->acc));
	memset(e->acc_why, WHY_GONE, ne);
	memset(e->acc_fresh, FRESH_FIRST_READ, engine_ngroups(e));
	memset(e->acc_ok, 0, ne * sizeof(*e->acc_ok));
	for (int c = 0; c < e->cpu.n; c++) {
		targets_read(e, &cnt[c]);
		rowbuild_acc_add(e, &cnt[c], -1);
	}
	rowbuild_fill(e, e->acc, e->acc_why, e->acc_fresh, w.v, w.g, false);
}

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
		int err = open_cgroup(e, e->o.cgroup_fds[i], &g->cnt[i * (unsigned)e->cpu.n]);
		if (err)
			return err;
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
	cgcount_rows_close(e);
	free(e->cgo.c);
	mstore_free(&e->cgo.rows);
	memset(&e->cgo, 0, sizeof(e->cgo));
}

void cgcount_tick(struct engine *e)
{
	struct cgcount *g = &e->cg;
	size_t n = 0;
	if (mstore_reserve(&e->rows, g->n, e->set->nevents, engine_ngroups(e)) >= 0) {
		for (unsigned i = 0; i < g->n; i++) {
			struct mrow_w w = mstore_row(&e->rows, n++);
			w.r->kind = ROW_CGROUP;
			w.r->cgroup = e->o.cgroup_paths[i];
			w.r->comm = g->names[i].s;
			w.r->user = "";
			w.r->pid = w.r->tid = (pid_t)i + 1;
			count_cgroup(e, &g->cnt[i * (unsigned)e->cpu.n], w);
		}
	}
	e->m.rows = e->rows.rows;
	e->m.nrows = (unsigned)n;
	e->m.ntasks = 0;
	e->m.nfd_short = 0;
}

static void cgone_close(struct engine *e, struct cgone *o)
{
	for (int c = 0; o->cnt && c < e->cpu.n; c++)
		counts_free(&o->cnt[c], &e->l);
	free(o->cnt);
	o->cnt = NULL;
}

void cgcount_rows_close(struct engine *e)
{
	struct cgown *g = &e->cgo;
	for (unsigned i = 0; i < g->n; i++)
		cgone_close(e, &g->c[i]);
	g->n = 0;
	e->m.cg_rows = NULL;
	e->m.ncg_rows = 0;
}

static long cgone_find(const struct cgown *g, const char *path)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->c[i].path == path)
			return (long)i;
	return -1;
}

/* Counters on cgroup o (its directory under the cgroup2 mount mnt), when the
 * descriptors left allow: else it stays unopened, fd_short, tried again next tick. */
static void cgone_open(struct engine *e, const char *mnt, struct cgone *o)
{
	unsigned per = 0;
	for (unsigned k = 0; k < engine_ngroups(e); k++)
		per += e->gdead[k] ? 0 : e->set->groups[k].n;
	o->fd_short = true;
	if (!fdbudget_room(e, (unsigned long)per * (unsigned long)e->cpu.n + 1))
		return;
	char dir[4096 + 512];
	snprintf(dir, sizeof(dir), "%s%s", mnt, o->path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		o->fd_short = errno == EMFILE || errno == ENFILE;
		o->gone = errno == ENOENT;
		return;
	}
	o->cnt = calloc((size_t)e->cpu.n, sizeof(*o->cnt));
	e->cgo.opening = true;
	int err = o->cnt ? open_cgroup(e, fd, o->cnt) : -ENOMEM;
	e->cgo.opening = false;
	close(fd);
	o->fd_short = err == -EMFILE || err == -ENFILE;
	if (err)
		cgone_close(e, o);
}

/* The cgroup at path (interned) and its ancestors, noted to be counted. */
static void cgone_add(struct engine *e, const char *path)
{
	struct cgown *g = &e->cgo;
	if (cgone_find(g, path) >= 0) /* rows' paths are interned in cgnames too */
		return;
	char up[4096];
	snprintf(up, sizeof(up), "%s", path);
	for (;;) {
		const char *in = cgroup_names_intern(e->cgnames, *up ? up : "/");
		if (!in || cgone_find(g, in) >= 0)
			return; /* its ancestors are there too */
		if (g->n == g->cap) {
			unsigned cap = g->cap ? 2 * g->cap : 32;
			struct cgone *c = realloc(g->c, cap * sizeof(*c));
			if (!c)
				return;
			g->c = c;
			g->cap = cap;
		}
		g->c[g->n++] = (struct cgone){.path = in};
		char *slash = strrchr(up, '/');
		if (!slash || !up[1])
			return;
		*slash = '\0';
	}
}

/* Cgroups removed (their directory gone, nothing left to count) closed, after their
 * last read. */
static void cgone_sweep(struct engine *e, const char *mnt)
{
	struct cgown *g = &e->cgo;
	unsigned n = 0;
	for (unsigned i = 0; i < g->n; i++) {
		char dir[4096 + 512];
		snprintf(dir, sizeof(dir), "%s%s", mnt, g->c[i].path);
		if (g->c[i].gone || (access(dir, F_OK) != 0 && errno == ENOENT)) {
			cgone_close(e, &g->c[i]);
			continue;
		}
		g->c[n++] = g->c[i];
	}
	g->n = n;
}

/* Rows are asked for (and allowed): where the processes found so far are, counted from
 * the baseline on. */
void cgcount_rows_start(struct engine *e)
{
	const char *mnt = e->cgo.mnt;
	if (e->cgnames && cgroup_mount(e->o.root, e->cgo.mnt, sizeof(e->cgo.mnt)) != 0)
		e->cgo.mnt[0] = '\0';
	e->cgo.on = e->o.cgroup_rows && e->o.scope == SCOPE_ALL && !e->o.only_uid;
	if (!e->cgo.on || !e->cgnames || !*mnt)
		return;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->cgroup && !p->ignored)
			cgone_add(e, p->cgroup);
	for (unsigned i = 0; i < e->cgo.n; i++)
		cgone_open(e, mnt, &e->cgo.c[i]);
}

void cgcount_rows_baseline(struct engine *e)
{
	struct cgown *g = &e->cgo;
	for (unsigned i = 0; i < g->n; i++)
		for (int c = 0; g->c[i].cnt && c < e->cpu.n; c++)
			targets_read(e, &g->c[i].cnt[c]);
}

void cgcount_rows_tick(struct engine *e)
{
	struct cgown *g = &e->cgo;
	const char *mnt = g->mnt;
	if (!g->on || !e->cgnames || !*mnt) {
		if (g->n)
			cgcount_rows_close(e);
		return;
	}
	for (unsigned i = 0; i < e->m.nrows; i++)
		if (e->m.rows[i].kind == ROW_PROC && e->m.rows[i].cgroup)
			cgone_add(e, e->m.rows[i].cgroup);
	/* Opened now, a cgroup's first read is this tick's: n/c (starting) once, as a new
	 * process's. */
	for (unsigned i = 0; i < g->n; i++)
		if (!g->c[i].cnt)
			cgone_open(e, mnt, &g->c[i]);
	e->m.cg_rows = NULL;
	e->m.ncg_rows = 0;
	if (mstore_reserve(&g->rows, g->n, e->set->nevents, engine_ngroups(e)) < 0)
		return;
	unsigned n = 0;
	for (unsigned i = 0; i < g->n; i++) {
		/* Removed before it could be opened: its processes' sums are all there is. */
		if (g->c[i].gone)
			continue;
		struct mrow_w w = mstore_row(&g->rows, n++);
		w.r->kind = ROW_CGROUP;
		w.r->cgroup = g->c[i].path;
		w.r->comm = g->c[i].path;
		w.r->user = "";
		if (g->c[i].cnt) {
			count_cgroup(e, g->c[i].cnt, w);
			continue;
		}
		enum val_why why = g->c[i].fd_short ? WHY_FDLIMIT : WHY_ERROR;
		for (unsigned k = 0; k < e->set->nevents; k++)
			w.v[k] = val_missing(g->c[i].fd_short ? VAL_NC : VAL_NA, why);
		memset(w.g, 0, engine_ngroups(e) * sizeof(*w.g));
	}
	e->m.cg_rows = g->rows.rows;
	e->m.ncg_rows = n;
	cgone_sweep(e, mnt);
}
