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
		if (procfs_task_info(root, pid, pid, &t) == 0) {
			e->ppid = t.ppid;
			e->state = t.state;
			e->rss_kb = t.rss_kb;
			e->start_ticks = t.start_ticks;
			e->have_sched = t.have_nice;
			e->nice = t.nice;
			e->cpu_ns = procfs_ticks_ns(t.cpu_ticks);
			snprintf(e->comm, sizeof(e->comm), "%s", t.comm);
		}
	} else if (ran) {
		struct procfs_now now = {0};
		if (procfs_proc_now(root, pid, &now, e->comm) == 0) {
			e->state = now.state;
			e->rss_kb = now.rss_kb;
			e->have_sched = now.have_sched;
			e->nice = now.nice;
			e->cpu_ns = now.cpu_ns;
		}
	} else if (e->state == 'R') {
		e->state = 'S'; /* it did not run this interval */
	}
	uint64_t h = name_hash(e->comm[0] ? e->comm : comm);
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
		if (p->v[i].seen == tick)
			p->v[k++] = p->v[i];
		else
			free(p->v[i].cmdline);
	}
	if (k != p->n) {
		p->n = k;
		reindex(p);
	}
}
