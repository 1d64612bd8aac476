/* A watched command's tree (-- COMMAND without -i): the processes it starts, and theirs,
 * found by their parent in /proc at each scan, each with rows of its own, counted by a
 * group per task. */
#include "engine_priv.h"

#include <errno.h>
#include <stdlib.h>

#include "procfs.h"
#include "tasktab.h"

/* Processes of the last listing that are not in the tree, sorted: none of them can join
 * it (a process's parent only changes to a reaper), so their stat is read once, not at
 * every scan. A pid leaves the list with its process: it is given again only after the
 * kernel's pids wrap, long after the next listing has seen it gone. */
struct cmdtree {
	pid_t *out, *next; /* the last listing's outsiders, and this one's */
	unsigned nout, nnext, cap;
	struct procfs_task *cand; /* processes new in this listing */
	unsigned ncand, capcand;
	int err; /* out of memory in this listing */
};

struct cmdtree *cmdtree_new(void)
{
	return calloc(1, sizeof(struct cmdtree));
}

void cmdtree_free(struct cmdtree *c)
{
	if (!c)
		return;
	free(c->out);
	free(c->next);
	free(c->cand);
	free(c);
}

static bool outsider(const struct cmdtree *c, pid_t pid)
{
	unsigned lo = 0, hi = c->nout;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (c->out[mid] == pid)
			return true;
		if (c->out[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void add_outsider(struct cmdtree *c, pid_t pid)
{
	if (c->nnext == c->cap) {
		unsigned cap = c->cap ? 2 * c->cap : 1024;
		pid_t *a = realloc(c->out, cap * sizeof(*a));
		if (a)
			c->out = a;
		pid_t *b = a ? realloc(c->next, cap * sizeof(*b)) : NULL;
		if (b)
			c->next = b;
		if (!a || !b) {
			c->err = -ENOMEM;
			return;
		}
		c->cap = cap;
	}
	c->next[c->nnext++] = pid;
}

static void add_cand(struct engine *e, struct cmdtree *c, pid_t pid)
{
	if (c->ncand == c->capcand) {
		unsigned cap = c->capcand ? 2 * c->capcand : 64;
		struct procfs_task *a = realloc(c->cand, cap * sizeof(*a));
		if (!a) {
			c->err = -ENOMEM;
			return;
		}
		c->cand = a;
		c->capcand = cap;
	}
	struct procfs_task *t = &c->cand[c->ncand];
	int err = procfs_task_info(e->b.o.root, pid, pid, t);
	if (err == 0 && t->dead)
		add_outsider(c, pid); /* a zombie: nothing left to count */
	else if (err == 0)
		c->ncand++;
}

static int list_one(void *vctx, pid_t pid)
{
	struct engine *e = vctx;
	struct cmdtree *c = e->ctree;
	if (tasktab_find_proc(e->tab, pid))
		return 0;
	if (outsider(c, pid))
		add_outsider(c, pid);
	else
		add_cand(e, c, pid);
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The command's first process found: from now on the command's threads count for its
 * row with groups of their own (read from this tick, its row's from the next). Until
 * then its roots counted it alone, with no second set of counters on its threads to
 * take hardware counters from them. */
static void split(struct engine *e)
{
	e->tree_split = true;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (!p->rooted)
			continue;
		p->own_open = true;
		for (struct task *t = p->threads; t; t = t->sibling)
			for (unsigned g = 0; t->state == TASK_LIVE && g < engine_ngroups(e); g++)
				if (!t->c.grp[g] && !e->b.gdead[g] &&
				    !procacct_counting(e, &t->c, g))
					targets_open_group(e, g, t->tid, -1, false, false, &t->c);
	}
}

/* A new process whose parent is in the tree joins it (its parent may be new too: a
 * listing in pid order sees a child before its parent once pids have wrapped). */
static void adopt(struct engine *e, struct cmdtree *c)
{
	bool more = true;
	while (more) {
		more = false;
		for (unsigned i = 0; i < c->ncand; i++) {
			const struct procfs_task *t = &c->cand[i];
			struct proc *pp = t->pid ? tasktab_find_proc(e->tab, t->ppid) : NULL;
			if (!pp || !pp->tree)
				continue;
			if (!e->tree_split)
				split(e);
			struct task *k = t->nthreads == 1 ? discover_task_new(e, t->pid, t) : NULL;
			if (k)
				k->seen = true;
			else
				discover_scan_proc(e, t->pid);
			struct proc *p = tasktab_find_proc(e->tab, t->pid);
			if (p)
				p->tree = true;
			c->cand[i].pid = 0; /* done */
			more = true;
		}
	}
	for (unsigned i = 0; i < c->ncand; i++)
		if (c->cand[i].pid)
			add_outsider(c, c->cand[i].pid);
}

void cmdtree_scan(struct engine *e)
{
	struct cmdtree *c = e->ctree;
	/* Its processes already known: their threads, names and ends. */
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->tree && !p->keep)
			discover_scan_proc(e, p->pid);
	c->nnext = c->ncand = 0;
	c->err = 0;
	procfs_each(e->b.o.root, 0, list_one, e);
	adopt(e, c);
	if (c->err) {
		c->nout = 0; /* every process is read again at the next scan */
		return;
	}
	qsort(c->next, c->nnext, sizeof(*c->next), cmp_pid);
	pid_t *t = c->out;
	c->out = c->next;
	c->next = t;
	c->nout = c->nnext;
}
