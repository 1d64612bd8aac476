/* A watched command's tree (-- COMMAND without -i): the processes it starts, and theirs,
 * found by their parent in /proc at each scan, each with rows of its own, read from the
 * command's inherited counters by a BPF task iterator (treeiter.h) or, where it cannot
 * load, counted by a group per task. */
#include "engine_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgroup.h"
#include "procfs.h"
#include "tasktab.h"
#include "treeiter.h"

/* Per task the iterator found: its inherited events' counts so far, one per root event
 * (slot). */
struct cum {
	pid_t tid;
	struct val_delta *v; /* nslot */
};

struct tcum {
	unsigned n, cap;
	struct cum *t;
	struct val_delta *v; /* cap * nslot */
};

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

	/* The tree iterator: the roots' events by slot, each task's counts at the last
	 * pass, and per event what the rows had beyond the roots' read, given back by a
	 * later tick. */
	struct treeiter *it;
	int iter_err; /* why it could not load (-errno), or 0 */
	unsigned nslot;
	unsigned slot_ev[TREEITER_MAXEV];
	struct tcum last, now;
	int64_t owed[TREEITER_MAXEV][3];
	char note[160];
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
	treeiter_free(c->it);
	free(c->last.t);
	free(c->last.v);
	free(c->now.t);
	free(c->now.v);
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
	int err = procfs_task_info(e->o.root, pid, pid, t);
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

/* The iterator on the command's roots: their events' ids, by slot. 0, or -errno (its
 * rows are then counted by a group per task, and the model says so). */
int cmdtree_load(struct engine *e)
{
	struct cmdtree *c = e->ctree;
	if (!e->o.tree_iter)
		return -ENOTSUP;
	if (c->it || c->iter_err)
		return c->iter_err;
	uint64_t ids[TREEITER_MAXEV];
	unsigned n = 0;
	int err = 0;
	for (struct proc *p = tasktab_first(e->tab); p && !err; p = p->next) {
		for (unsigned k = 0; p->rooted && k < p->nroots && !err; k++) {
			const struct counts *rc = &p->roots[k].c;
			for (unsigned g = 0; g < engine_ngroups(e) && !err; g++) {
				const struct mgroup *mg = &e->set->groups[g];
				for (unsigned m = 0; rc->grp[g] && m < mg->n; m++) {
					uint64_t id =
						treeiter_event_id(evgroup_member_fd(rc->grp[g], m));
					if (!id)
						continue;
					if (n == TREEITER_MAXEV) {
						err = -E2BIG;
						break;
					}
					c->slot_ev[n] = mg->first + m;
					ids[n++] = id;
				}
			}
		}
	}
	if (!err && n == 0)
		err = -ENOENT; /* no root open yet */
	if (!err)
		err = treeiter_open(ids, n, &c->it);
	if (err == -ENOENT && n == 0)
		return err; /* tried again later */
	if (err) {
		c->iter_err = err;
		snprintf(c->note, sizeof(c->note),
			 "tree rows from a group per process (slower than perf stat): "
			 "its BPF iterator did not load (%s)",
			 strerror(-err));
		e->m.source_notice = c->note;
		return err;
	}
	c->nslot = n;
	snprintf(c->note, sizeof(c->note),
		 "tree rows read from its inherited counters; a task's counts between the last "
		 "tick and its end are in the command's row");
	e->m.source_notice = c->note;
	e->tree_split = true;
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->rooted)
			p->own_open = p->own = true;
	return 0;
}

bool cmdtree_iter_on(const struct engine *e)
{
	return e->ctree && e->ctree->it;
}

static int tcum_reserve(struct tcum *t, unsigned n, unsigned nslot)
{
	if (n <= t->cap)
		return 0;
	unsigned cap = t->cap ? 2 * t->cap : 64;
	while (cap < n)
		cap *= 2;
	struct cum *a = realloc(t->t, cap * sizeof(*a));
	if (!a)
		return -ENOMEM;
	t->t = a;
	struct val_delta *v = realloc(t->v, (size_t)cap * nslot * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->v = v;
	t->cap = cap;
	return 0;
}

static const struct cum *tcum_find(const struct tcum *t, pid_t tid)
{
	unsigned lo = 0, hi = t->n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (t->t[mid].tid == tid)
			return &t->t[mid];
		if (t->t[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct treeiter_rec *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void add_delta(struct val_delta *to, const struct val_delta *a, const struct val_delta *b)
{
	to->val += a->val - b->val;
	to->ena += a->ena - b->ena;
	to->run += a->run - b->run;
}

/* One pass's records into c->now, by task in tid order. */
static int gather(struct cmdtree *c, struct treeiter_rec *r, size_t n)
{
	qsort(r, n, sizeof(*r), cmp_rec);
	c->now.n = 0;
	for (size_t i = 0; i < n; i++) {
		if (r[i].idx >= c->nslot)
			continue;
		if (!c->now.n || c->now.t[c->now.n - 1].tid != (pid_t)r[i].tid) {
			if (tcum_reserve(&c->now, c->now.n + 1, c->nslot))
				return -ENOMEM;
			c->now.t[c->now.n].tid = (pid_t)r[i].tid;
			memset(&c->now.v[(size_t)c->now.n * c->nslot], 0,
			       c->nslot * sizeof(*c->now.v));
			c->now.n++;
		}
		struct val_delta *v = &c->now.v[(size_t)(c->now.n - 1) * c->nslot + r[i].idx];
		v->val += r[i].count;
		v->ena += r[i].enabled;
		v->run += r[i].running;
	}
	for (unsigned i = 0; i < c->now.n; i++) /* once the array has stopped moving */
		c->now.t[i].v = &c->now.v[(size_t)i * c->nslot];
	return 0;
}

/* The command's row takes what no other row had: the last counts of tasks that ended
 * since the last pass, and the counts of tasks not found yet. */
static struct task *owed_task(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->rooted && p->tree && p->threads)
			return p->threads;
	return NULL;
}

/* What the roots read this tick, event ev: the tree's total, as perf stat reads it. */
static struct val_delta roots_delta(struct engine *e, unsigned ev)
{
	struct val_delta d = {0, 0, 0};
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (unsigned k = 0; p->rooted && k < p->nroots; k++) {
			const struct root *r = &p->roots[k];
			if (r->state == ROOT_DONE || r->c.why[ev] != WHY_NONE)
				continue;
			d.val += r->c.d[ev].val;
			d.ena += r->c.d[ev].ena;
			d.run += r->c.d[ev].run;
		}
	return d;
}

static bool slot_first(const struct cmdtree *c, unsigned s)
{
	for (unsigned i = 0; i < s; i++)
		if (c->slot_ev[i] == c->slot_ev[s])
			return false;
	return true;
}

void cmdtree_read(struct engine *e)
{
	struct cmdtree *c = e->ctree;
	if (!c || (!c->it && cmdtree_load(e)))
		return;
	const struct treeiter_rec *rec;
	size_t n;
	if (treeiter_read(c->it, &rec, &n) || gather(c, (struct treeiter_rec *)rec, n))
		return; /* the rows keep their last values' reasons: read next tick */
	/* Every tree task's inherited events start from nothing this tick. */
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->tree ? p->threads : NULL; t; t = t->sibling)
			for (unsigned s = 0; s < c->nslot; s++) {
				t->c.d[c->slot_ev[s]] = (struct val_delta){0, 0, 0};
				t->c.why[c->slot_ev[s]] = WHY_NONE;
			}
	/* Per event, the rows' sum this tick (rows), against the roots' (perf stat's). */
	struct val_delta rows[TREEITER_MAXEV] = {0};
	static const struct val_delta none[TREEITER_MAXEV];
	for (unsigned i = 0; i < c->now.n; i++) {
		const struct cum *k = &c->now.t[i], *was = tcum_find(&c->last, k->tid);
		struct task *t = tasktab_find(e->tab, k->tid);
		if (!t || !t->proc->tree || t->vanished)
			continue; /* not found yet: owed to the command's row */
		for (unsigned s = 0; s < c->nslot; s++) {
			struct val_delta d = {0, 0, 0};
			add_delta(&d, &k->v[s], was ? &was->v[s] : &none[s]);
			add_delta(&t->c.d[c->slot_ev[s]], &d, &none[s]);
			add_delta(&rows[s], &d, &none[s]);
		}
	}
	struct task *to = owed_task(e);
	for (unsigned s = 0; s < c->nslot; s++) {
		if (!slot_first(c, s))
			continue;
		unsigned ev = c->slot_ev[s];
		struct val_delta got = {0, 0, 0};
		for (unsigned x = s; x < c->nslot; x++)
			if (c->slot_ev[x] == ev)
				add_delta(&got, &rows[x], &none[x]);
		struct val_delta tot = roots_delta(e, ev);
		/* Signed: a task that ran between the roots' read and the pass has more in
		 * its row than the roots read; the next tick's roots give it back. */
		int64_t o[3] = {(int64_t)(tot.val - got.val) + c->owed[s][0],
				(int64_t)(tot.ena - got.ena) + c->owed[s][1],
				(int64_t)(tot.run - got.run) + c->owed[s][2]};
		bool give = to && o[0] >= 0 && o[1] >= 0 && o[2] >= 0;
		for (int f = 0; f < 3; f++)
			c->owed[s][f] = give ? 0 : o[f];
		if (give) {
			struct val_delta *d = &to->c.d[ev];
			d->val += (uint64_t)o[0];
			d->ena += (uint64_t)o[1];
			d->run += (uint64_t)o[2];
		}
	}
	struct tcum t = c->last;
	c->last = c->now;
	c->now = t;
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
				if (!t->c.grp[g] && !e->gdead[g])
					engine_open_group(e, g, t->tid, -1, false, false, &t->c);
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
	if (!c->it)
		cmdtree_load(e); /* before any process of the tree is found: no group to open */
	/* Its processes already known: their threads, names and ends. */
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		if (p->tree && !p->keep)
			discover_scan_proc(e, p->pid);
	c->nnext = c->ncand = 0;
	c->err = 0;
	procfs_each(e->o.root, 0, list_one, e);
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
