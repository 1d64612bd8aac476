/* The per-process /proc cache: see procinfo.h. */
#include "procinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

struct procinfo {
	struct procinfo_ent *v;
	size_t n, cap;
	int *idx; /* open addressing over v by pid, -1 empty; icap a power of two */
	size_t icap;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h | 1;
}

static void reindex(struct procinfo *p)
{
	for (size_t i = 0; i < p->icap; i++)
		p->idx[i] = -1;
	for (size_t k = 0; k < p->n; k++) {
		size_t i = (size_t)p->v[k].pid * 2654435761u & (p->icap - 1);
		while (p->idx[i] >= 0)
			i = (i + 1) & (p->icap - 1);
		p->idx[i] = (int)k;
	}
}

struct procinfo *procinfo_new(void)
{
	return calloc(1, sizeof(struct procinfo));
}

void procinfo_free(struct procinfo *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].cmdline);
	free(p->v);
	free(p->idx);
	free(p);
}

static struct procinfo_ent *find(struct procinfo *p, pid_t pid)
{
	if (!p->icap)
		return NULL;
	for (size_t i = (size_t)pid * 2654435761u & (p->icap - 1); p->idx[i] >= 0;
	     i = (i + 1) & (p->icap - 1))
		if (p->v[p->idx[i]].pid == pid)
			return &p->v[p->idx[i]];
	return NULL;
}

static struct procinfo_ent *add(struct procinfo *p, pid_t pid)
{
	if (p->n == p->cap || 2 * (p->n + 1) > p->icap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct procinfo_ent *v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		p->v = v;
		p->cap = cap;
		int *idx = malloc(2 * cap * sizeof(*idx));
		if (!idx)
			return NULL;
		free(p->idx);
		p->idx = idx;
		p->icap = 2 * cap;
		reindex(p);
	}
	struct procinfo_ent *e = &p->v[p->n];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	size_t i = (size_t)pid * 2654435761u & (p->icap - 1);
	while (p->idx[i] >= 0)
		i = (i + 1) & (p->icap - 1);
	p->idx[i] = (int)p->n++;
	return e;
}

/* e from its stat line (t), as when it is first seen. */
static void fill_task(struct procinfo_ent *e, const struct procfs_task *t)
{
	e->ppid = t->ppid;
	e->state = t->state;
	e->rss_kb = t->rss_kb;
	e->start_ticks = t->start_ticks;
	e->have_sched = t->have_nice;
	e->nice = t->nice;
	e->cpu_ns = procfs_ticks_ns(t->cpu_ticks);
	procinfo_more_task(&e->more, t);
	snprintf(e->comm, sizeof(e->comm), "%s", t->comm);
}

void procinfo_seed(struct procinfo *p, const struct procfs_task *t, uint64_t tick)
{
	struct procinfo_ent *e = find(p, t->pid);
	if (!e && !(e = add(p, t->pid)))
		return;
	e->seen = tick;
	fill_task(e, t);
}

const struct procinfo_ent *procinfo_get(struct procinfo *p, const char *root, pid_t pid,
					const char *comm, bool ran, bool want_cmdline,
					uint64_t tick)
{
	struct procinfo_ent *e = find(p, pid);
	bool fresh = !e;
	if (!e && !(e = add(p, pid)))
		return NULL;
	e->seen = tick;
	if (fresh) {
		struct procfs_task t;
		if (procfs_task_info(root, pid, pid, &t) == 0)
			fill_task(e, &t);
		procinfo_more_idle(root, pid, &e->io, &e->more);
	} else if (ran) {
		struct procfs_now now = {0};
		if (procfs_proc_now(root, pid, &now, e->comm) == 0) {
			e->state = now.state;
			e->rss_kb = now.rss_kb;
			e->have_sched = now.have_sched;
			e->nice = now.nice;
			e->cpu_ns = now.cpu_ns;
			procinfo_more_ran(root, pid, &now, &e->io, &e->more);
		} else {
			e->more.io = MIO_NA; /* gone: no interval's I/O */
		}
	} else {
		if (e->state == 'R')
			e->state = 'S'; /* it did not run this interval */
		procinfo_more_idle(root, pid, &e->io, &e->more);
	}
	uint64_t h = want_cmdline ? name_hash(e->comm[0] ? e->comm : comm) : 0;
	if (want_cmdline && (!e->cmdline || e->cmd_hash != h)) {
		char buf[4096];
		if (procfs_cmdline(root, pid, buf, sizeof(buf)) < 0)
			buf[0] = '\0';
		char *c = strdup(buf);
		if (c) {
			free(e->cmdline);
			e->cmdline = c;
			e->cmd_hash = h;
		}
	}
	return e;
}

void procinfo_sweep(struct procinfo *p, uint64_t tick)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].seen == tick) {
			if (k != i) /* no copy onto itself of each kept entry */
				p->v[k] = p->v[i];
			k++;
		} else
			free(p->v[i].cmdline);
	}
	if (k != p->n) {
		p->n = k;
		reindex(p);
	}
}

void procinfo_more_task(struct mproc_more *x, const struct procfs_task *t)
{
	x->have_prio = t->have_nice;
	x->prio = t->prio;
	x->have_virt = t->virt_kb != 0;
	x->virt_kb = t->virt_kb;
}

/* statm and io, read once more: the interval's I/O is the difference from the last
 * read, unknown (MIO_FIRST) at the first. */
static void read_more(const char *root, pid_t pid, struct procinfo_io *io, struct mproc_more *x)
{
	x->have_shr = procfs_proc_shr(root, pid, &x->shr_kb) == 0;
	uint64_t rd, wr;
	bool was = io->ok;
	io->tried = true;
	io->ok = procfs_proc_io(root, pid, &rd, &wr) == 0;
	if (!io->ok) {
		x->io = MIO_NA;
		return;
	}
	x->io = was && rd >= io->rd && wr >= io->wr ? MIO_OK : MIO_FIRST;
	x->io_rd = x->io == MIO_OK ? rd - io->rd : 0;
	x->io_wr = x->io == MIO_OK ? wr - io->wr : 0;
	io->rd = rd;
	io->wr = wr;
}

void procinfo_more_ran(const char *root, pid_t pid, const struct procfs_now *now,
		       struct procinfo_io *io, struct mproc_more *x)
{
	x->have_prio = now->have_sched;
	x->prio = now->prio;
	x->have_virt = now->virt_kb != 0;
	x->virt_kb = now->virt_kb;
	read_more(root, pid, io, x);
}

void procinfo_more_idle(const char *root, pid_t pid, struct procinfo_io *io, struct mproc_more *x)
{
	if (!io->tried) {
		read_more(root, pid, io, x);
		return;
	}
	/* A task that did not run caused no reads or writes: its totals stand. */
	x->io = io->ok ? MIO_OK : MIO_NA;
	x->io_rd = x->io_wr = 0;
}
