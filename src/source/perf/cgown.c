/* --cgroups with perf: each cgroup holding a process row, and its ancestors, counted per
 * CPU in perf's cgroup mode as -G counts them (the cgroup's directory as the pid,
 * PERF_FLAG_PID_CGROUP), into the model's cg_rows: what its processes born and gone
 * between two ticks counted is in its row. */
#include "engine_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "evgroup.h"
#include "tasktab.h"

static void cgone_close(struct engine *e, struct cgone *o)
{
	for (int c = 0; o->cnt && c < e->b.cpu.n; c++)
		counts_free(&o->cnt[c], &e->b.l);
	free(o->cnt);
	o->cnt = NULL;
}

void cgown_close(struct engine *e)
{
	struct cgown *g = &e->cgo;
	for (unsigned i = 0; i < g->n; i++)
		cgone_close(e, &g->c[i]);
	g->n = 0;
	e->b.m.cg_rows = NULL;
	e->b.m.ncg_rows = 0;
}

void cgown_free(struct engine *e)
{
	cgown_close(e);
	free(e->cgo.c);
	mstore_free(&e->cgo.rows);
	memset(&e->cgo, 0, sizeof(e->cgo));
}

static long cgone_find(const struct cgown *g, const char *path)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->c[i].path == path)
			return (long)i;
	return -1;
}

/* Counters on cgroup o (its directory under the cgroup2 mount mnt), before the tasks':
 * out of descriptors, the least busy tasks give theirs up (the rows asked for come
 * first). With none left to give, it stays unopened, fd_short, tried again next tick. */
static void cgone_open(struct engine *e, const char *mnt, struct cgone *o)
{
	unsigned per = 0;
	for (unsigned k = 0; k < engine_ngroups(e); k++)
		per += e->b.gdead[k] ? 0 : e->b.set->groups[k].n;
	unsigned long need = (unsigned long)per * (unsigned long)e->b.cpu.n + 1;
	o->fd_short = true;
	fdbudget_make_room(e, need);
	if (!fdbudget_room(e, need))
		return;
	char dir[4096 + 512];
	snprintf(dir, sizeof(dir), "%s%s", mnt, o->path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		o->fd_short = errno == EMFILE || errno == ENFILE;
		o->gone = errno == ENOENT;
		return;
	}
	o->cnt = calloc((size_t)e->b.cpu.n, sizeof(*o->cnt));
	int err = o->cnt ? srcbase_open_cgroup(&e->b, fd, o->cnt) : -ENOMEM;
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
		const char *in = cgroup_names_intern(e->b.cgnames, *up ? up : "/");
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
void cgown_start(struct engine *e)
{
	const char *mnt = e->cgo.mnt;
	if (e->b.cgnames && cgroup_mount(e->b.o.root, e->cgo.mnt, sizeof(e->cgo.mnt)) != 0)
		e->cgo.mnt[0] = '\0';
	e->cgo.on = e->b.o.cgroup_rows && e->b.o.scope == SCOPE_ALL && !e->b.o.only_uid;
	if (!e->cgo.on || !e->b.cgnames || !*mnt)
		return;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->cgroup && !p->ignored)
			cgone_add(e, p->cgroup);
	for (unsigned i = 0; i < e->cgo.n; i++)
		cgone_open(e, mnt, &e->cgo.c[i]);
}

void cgown_baseline(struct engine *e)
{
	struct cgown *g = &e->cgo;
	for (unsigned i = 0; i < g->n; i++)
		for (int c = 0; g->c[i].cnt && c < e->b.cpu.n; c++)
			srcbase_read(&e->b, &g->c[i].cnt[c]);
}

void cgown_tick(struct engine *e)
{
	struct cgown *g = &e->cgo;
	const char *mnt = g->mnt;
	if (!g->on || !e->b.cgnames || !*mnt) {
		if (g->n)
			cgown_close(e);
		return;
	}
	for (unsigned i = 0; i < e->b.m.nrows; i++)
		if (e->b.m.rows[i].kind == ROW_PROC && e->b.m.rows[i].cgroup)
			cgone_add(e, e->b.m.rows[i].cgroup);
	/* Opened now, a cgroup's first read is this tick's: n/c (starting) once, as a new
	 * process's. */
	for (unsigned i = 0; i < g->n; i++)
		if (!g->c[i].cnt)
			cgone_open(e, mnt, &g->c[i]);
	e->b.m.cg_rows = NULL;
	e->b.m.ncg_rows = 0;
	if (mstore_reserve(&g->rows, g->n, e->b.set->nevents, engine_ngroups(e)) < 0)
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
			srcbase_count_cgroup(&e->b, g->c[i].cnt, w);
			continue;
		}
		enum val_why why = g->c[i].fd_short ? WHY_FDLIMIT : WHY_ERROR;
		for (unsigned k = 0; k < e->b.set->nevents; k++)
			w.v[k] = val_missing(g->c[i].fd_short ? VAL_NC : VAL_NA, why);
		memset(w.g, 0, engine_ngroups(e) * sizeof(*w.g));
	}
	e->b.m.cg_rows = g->rows.rows;
	e->b.m.ncg_rows = n;
	cgone_sweep(e, mnt);
}

void cgown_set(struct engine *e, bool on)
{
	e->b.o.cgroup_rows = on;
	e->cgo.on = on && e->b.o.scope == SCOPE_ALL && !e->b.o.only_uid;
	if (!e->cgo.on)
		cgown_close(e);
}

unsigned cgown_open_fds(const struct engine *e)
{
	unsigned n = 0;
	for (unsigned i = 0; i < e->cgo.n; i++)
		for (int c = 0; e->cgo.c[i].cnt && c < e->b.cpu.n; c++)
			n += counts_open_fds(&e->cgo.c[i].cnt[c], &e->b.l);
	return n;
}
