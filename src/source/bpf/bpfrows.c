/* The bpf backend's rows: every task's sums from the BPF maps (events/bpfcount.h),
 * turned into the same process and thread rows as the perf path's, with each task's own
 * enabled and running times. */
#include "bpfsource_priv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "cgrows.h"
#include "hybrid.h"
#include "procfs.h"
#include "procinfo.h"

static int cmp_rec(const struct brec *x, const struct brec *y)
{
	return bpf_task_cmp(x->tgid, x->tid, y->tgid, y->tid);
}

static int cmp_key(const struct bkey *x, const struct bkey *y)
{
	return bpf_task_cmp(x->tgid, x->tid, y->tgid, y->tid);
}

static void sift(struct bkey *r, size_t i, size_t n)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && cmp_key(&r[c], &r[c + 1]) < 0)
			c++;
		if (cmp_key(&r[i], &r[c]) >= 0)
			return;
		struct bkey t = r[i];
		r[i] = r[c];
		r[c] = t;
	}
}

/* Heapsort of the small keys (the records are copied once, in order): glibc's qsort
 * allocates a buffer at every call, and a steady tick allocates nothing. */
static void sort_keys(struct bkey *r, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(r, i, n);
	for (size_t end = n; end-- > 1;) {
		struct bkey t = r[0];
		r[0] = r[end];
		r[end] = t;
		sift(r, 0, end);
	}
}

static bool wanted(const struct bpfsource *e, pid_t tgid, uid_t uid, unsigned flags)
{
	if (e->b.o.scope == SCOPE_PIDS) {
		if (e->bpf->root && (flags & PMUTOP_BPF_TREE))
			return true;
		for (unsigned i = 0; i < e->b.o.npids; i++)
			if (e->b.pids[i] == tgid)
				return true;
		return false;
	}
	return !e->b.o.only_uid || uid == e->b.o.uid;
}

static void note_dead(struct bpfstate *s, pid_t tid)
{
	if (s->ndead == s->capdead) {
		size_t cap = s->capdead ? 2 * s->capdead : 256;
		unsigned *p = realloc(s->dead, cap * sizeof(*p));
		if (!p)
			return; /* forgotten at a later tick */
		s->dead = p;
		s->capdead = cap;
	}
	s->dead[s->ndead++] = (unsigned)tid;
}

/* The CPUs' unattributed sums into s->unattr (the last read's kept in unattr_was). */
static int read_unattr(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	const struct pmutop_bpf_last *l;
	int n;
	int err = bpfcount_read_cpus(s->bc, &l, &n);
	if (err)
		return err;
	memcpy(s->unattr_was, s->unattr, s->nev * sizeof(*s->unattr));
	memset(s->unattr, 0, s->nev * sizeof(*s->unattr));
	for (int k = 0; k < e->b.cpu.n; k++) {
		int cpu = e->b.cpu.id[k];
		for (unsigned i = 0; cpu < n && i < s->nev; i++) {
			s->unattr[i].val += l[cpu].unattr[i].val;
			s->unattr[i].ena += l[cpu].unattr[i].ena;
			s->unattr[i].run += l[cpu].unattr[i].run;
		}
	}
	return 0;
}

/* Room for n keys in each of the key arrays: 0 or -ENOMEM. */
int bpfrows_keys_room(struct bpfstate *s, size_t n)
{
	if (n <= s->keys_cap)
		return 0;
	struct bkey **k[4] = {&s->keys, &s->skeys, &s->pkeys, &s->tkeys};
	for (int i = 0; i < 4; i++) {
		struct bkey *p = realloc(*k[i], n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		*k[i] = p;
	}
	unsigned bits = 4;
	while (((size_t)1 << bits) < 2 * n)
		bits++;
	unsigned *h = realloc(s->hash, ((size_t)1 << bits) * sizeof(*h));
	if (h)
		s->hash = h;
	uint8_t *t = realloc(s->taken, n);
	if (t)
		s->taken = t;
	if (!h || !t)
		return -ENOMEM;
	s->hbits = bits;
	s->keys_cap = n;
	return 0;
}

static size_t hash_cell(const struct bpfstate *s, pid_t tid)
{
	return ((uint32_t)tid * 0x9E3779B1u) >> (32 - s->hbits);
}

/* The index in s->keys (k of them) of each tid, into s->hash. */
static void hash_keys(struct bpfstate *s, size_t k)
{
	size_t mask = ((size_t)1 << s->hbits) - 1;
	memset(s->hash, 0xff, (mask + 1) * sizeof(*s->hash));
	for (size_t i = 0; i < k; i++) {
		size_t c = hash_cell(s, s->keys[i].tid);
		while (s->hash[c] != UINT_MAX)
			c = (c + 1) & mask;
		s->hash[c] = (unsigned)i;
	}
}

/* The index in s->keys of tid, or SIZE_MAX. */
static size_t find_key(const struct bpfstate *s, pid_t tid)
{
	size_t mask = ((size_t)1 << s->hbits) - 1;
	for (size_t c = hash_cell(s, tid); s->hash[c] != UINT_MAX; c = (c + 1) & mask)
		if (s->keys[s->hash[c]].tid == tid)
			return s->hash[c];
	return SIZE_MAX;
}

/* s->keys (k of them) sorted into s->skeys, from the last tick's order there (was keys):
 * the tasks in both keep it, at their index in this read; those new are sorted alone and
 * merged in. Linear in the tasks but for the new ones (docs/PERFORMANCE.md). */
void bpfrows_resort_keys(struct bpfstate *s, size_t k, size_t was)
{
	if (k == 0)
		return;
	hash_keys(s, k);
	memset(s->taken, 0, k);
	size_t m = 0;
	for (size_t j = 0; j < was; j++) {
		size_t i = find_key(s, s->skeys[j].tid);
		if (i == SIZE_MAX || s->taken[i] || s->keys[i].tgid != s->skeys[j].tgid)
			continue;
		s->taken[i] = 1;
		s->tkeys[m++] = s->keys[i];
	}
	size_t t = m;
	for (size_t i = 0; i < k; i++)
		if (!s->taken[i])
			s->tkeys[t++] = s->keys[i];
	sort_keys(s->tkeys + m, k - m);
	const struct bkey *a = s->tkeys, *b = s->tkeys + m, *ae = b, *be = s->tkeys + k;
	struct bkey *o = s->skeys;
	while (a < ae && b < be)
		*o++ = cmp_key(a, b) <= 0 ? *a++ : *b++;
	while (a < ae)
		*o++ = *a++;
	while (b < be)
		*o++ = *b++;
}

/* The tasks wanted, in the map's order, into s->keys; then s->skeys sorted by process
 * then thread. The map's order does not change while no task comes or goes: the last
 * tick's sorted keys then stand, and nothing is sorted. */
static void sorted_keys(struct bpfsource *e, const unsigned *tids, const void *vals, size_t n)
{
	struct bpfstate *s = e->bpf;
	size_t k = 0;
	s->ndead = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pmutop_bpf_task *v = bpfcount_task(vals, s->vsize, i);
		/* Being made (pmutop.bpf.h): read whole at the next tick, since its start. */
		if (v->tgid == 0)
			continue;
		if (v->flags & PMUTOP_BPF_DEAD) /* read for the last time */
			note_dead(s, (pid_t)tids[i]);
		if (wanted(e, (pid_t)v->tgid, v->uid, v->flags))
			s->keys[k++] = (struct bkey){(pid_t)v->tgid, (pid_t)tids[i], (unsigned)i};
	}
	bool same = k == s->nkeys && memcmp(s->keys, s->pkeys, k * sizeof(*s->keys)) == 0;
	if (!same)
		bpfrows_resort_keys(s, k, s->nkeys);
	struct bkey *t = s->pkeys;
	s->pkeys = s->keys;
	s->keys = t;
	s->nkeys = k;
}

/* The map's contents into cur, sorted by process then thread. */
int bpfrows_snapshot(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	const unsigned *tids;
	const void *v;
	size_t n;
	int err = bpfcount_fold(s->bc);
	if (!err)
		err = bpfcount_read(s->bc, &tids, &v, &n);
	if (err)
		return err;
	struct brecs *c = &s->cur;
	if (n > c->cap) {
		struct brec *r = realloc(c->r, n * sizeof(*r));
		if (r)
			c->r = r;
		struct pmutop_bpf_ev *t = realloc(c->tot, n * s->nev * sizeof(*t) + 1);
		if (t)
			c->tot = t;
		if (!r || !t)
			return -ENOMEM;
		c->cap = n;
	}
	if (n > s->oldi_cap) { /* cur and old swap: each has its own cap */
		size_t *oi = realloc(s->oldi, n * sizeof(*oi));
		if (!oi)
			return -ENOMEM;
		s->oldi = oi;
		s->oldi_cap = n;
	}
	if (bpfrows_keys_room(s, n))
		return -ENOMEM;
	sorted_keys(e, tids, v, n);
	c->n = s->nkeys;
	for (size_t i = 0; i < c->n; i++) {
		const struct pmutop_bpf_task *x = bpfcount_task(v, s->vsize, s->skeys[i].src);
		struct brec *r = &c->r[i];
		r->tgid = s->skeys[i].tgid;
		r->tid = s->skeys[i].tid;
		r->uid = x->uid;
		r->flags = x->flags;
		r->missed = x->missed;
		r->cut = x->cut;
		r->slices = x->slices;
		r->exitsw = x->exitsw;
		r->exitmig = x->exitmig;
		r->win = x->win;
		r->hidden = 0;
		r->ran_ns = 0;
		r->cgid = x->cgid;
		r->cgroup = NULL;
		r->src = s->skeys[i].src;
		memcpy(r->comm, x->comm, sizeof(r->comm));
		r->comm[sizeof(r->comm) - 1] = '\0';
		memcpy(&c->tot[i * s->nev], x->ev, s->nev * sizeof(*c->tot));
	}
	return read_unattr(e);
}

/* A task's deltas from its sums now and at the last read (was; NULL: since its entry
 * was made) into s->d. */
static void task_delta(struct bpfsource *e, const struct pmutop_bpf_ev *now,
		       const struct pmutop_bpf_ev *was)
{
	struct bpfstate *s = e->bpf;
	memset(s->d, 0, e->b.set->nevents * sizeof(*s->d));
	for (unsigned i = 0; i < s->nev; i++) {
		struct val_delta *d = &s->d[s->ev_of[i]];
		d->val = now[i].val - (was ? was[i].val : 0);
		d->ena = now[i].ena - (was ? was[i].ena : 0);
		d->run = now[i].run - (was ? was[i].run : 0);
	}
}

/* Where the totals of a watched process's ended threads go (of its tree's, with -- CMD). */
static struct val_delta *gone_of(struct bpfsource *e, pid_t tgid)
{
	if (e->bpf->root)
		return e->bpf->gone;
	for (unsigned i = 0; i < e->b.o.npids; i++)
		if (e->b.pids[i] == tgid)
			return &e->bpf->gone[(size_t)i * (e->b.set->nevents + 1)];
	return NULL;
}

static void add_deltas(struct val_delta *acc, const struct val_delta *d, unsigned n)
{
	for (unsigned ev = 0; ev < n; ev++) {
		acc[ev].val += d[ev].val;
		acc[ev].ena += d[ev].ena;
		acc[ev].run += d[ev].run;
	}
}

/* Task i of cur, of a watched process, ended and read for the last time: its totals go
 * to its process's gone. */
void bpfrows_gone_add(struct bpfsource *e, size_t i)
{
	struct bpfstate *s = e->bpf;
	const struct brec *r = &s->cur.r[i];
	struct val_delta *g = gone_of(e, r->tgid);
	if (!g || !(r->flags & PMUTOP_BPF_DEAD))
		return;
	task_delta(e, &s->cur.tot[i * s->nev], NULL);
	add_deltas(g, s->d, e->b.set->nevents);
	g[e->b.set->nevents].val += r->missed + r->hidden;
	g[e->b.set->nevents].ena += r->cut;
	g[e->b.set->nevents].run += r->slices;
}

/* The cgroup of process tgid, read again only when its first thread moved: from the id
 * the program read from the task, which names it after the task has left /proc (a
 * short-lived process's counts then still sum into its cgroup), else from /proc (a task
 * seeded from /proc has no id until the program sees it again). */
static const char *proc_cgroup(struct bpfsource *e, const struct brec *r, const struct brec *was)
{
	if (was && was->cgid == r->cgid && was->cgroup)
		return was->cgroup;
	if (!e->b.cgnames)
		return NULL;
	const char *p = r->cgid ? cgroup_ids_path(e->b.cgids, r->cgid, e->b.m.tick) : NULL;
	char path[4096];
	if (!p && cgroup_of(e->b.o.root, r->tgid, path, sizeof(path)) == 0)
		p = cgroup_names_intern(e->b.cgnames, path);
	return p;
}

/* Slices of a row's tasks in the interval (or with totals, since their entries were
 * made): ended by a seen switch (slices, cut ones included), begun by a switch not seen
 * (cut: all but the own switch that ended it went to unattributed) and ended by one
 * (missed: nothing of it known); and the clock time of the switches that brought them in
 * (win, pmutop.bpf.h). */
struct unseen {
	uint64_t slices, cut, missed, win;
};

static void unseen_add(struct unseen *u, const struct unseen *x)
{
	u->slices += x->slices;
	u->cut += x->cut;
	u->missed += x->missed;
	u->win += x->win;
}

/* A hardware event's count read at the switch holds the switch windows that brought the
 * row's tasks in (win), which perf -p counts for no task: where they are over 1% of the
 * time the event counted for them, the cell is ~ (WHY_SWITCH), its value unscaled, run_pm
 * the share of that time that was the tasks' own. Clocks and the software events the
 * program counts exactly are never marked. */
static void mark_window(const struct bpfsource *e, const struct val_delta *d, struct val *v,
			uint64_t win)
{
	const struct bpfstate *s = e->bpf;
	for (unsigned i = 0; win && i < e->b.set->nevents; i++) {
		if (!e->b.set->events[i].hardware || s->clk[i] || s->at_sw[i] ||
		    v[i].state != VAL_EXACT || win * 100 <= d[i].ena)
			continue;
		double own =
			d[i].ena > win ? 1000.0 * (double)(d[i].ena - win) / (double)d[i].ena : 0;
		v[i].state = VAL_SCALED;
		v[i].why = WHY_SWITCH;
		v[i].run_pm = val_pm_some(own);
	}
}

/* A row some of whose slices a switch not seen cut short holds what its whole slices
 * counted: a lower bound (partial), RUN% the share of its slices counted whole, or n/c
 * where none was. A cut slice's own switch was seen and counted: at_switch events stay
 * exact unless a slice went missing. */
static void fill(struct bpfsource *e, const struct val_delta *d, struct mrow_w w,
		 const struct unseen *u)
{
	struct val *v = w.v;
	unsigned ne = e->b.set->nevents;
	uint8_t *wy = e->b.acc_why;
	memcpy(wy, e->bpf->why, ne);
	struct val_delta *dd = e->bpf->d;
	if (dd != d)
		memcpy(dd, d, ne * sizeof(*dd));
	rowfill(&e->b.fill, dd, wy, NULL, v, w.g, false);
	if (u)
		mark_window(e, dd, v, u->win);
	if (e->b.logical) /* per-CPU counters: each instance enabled only on its core type */
		hybrid_fold_percpu(e->b.set->events, e->b.set->nevents, dd, wy, v);
	if (!u || u->cut + u->missed == 0)
		return;
	uint64_t all = u->slices + u->missed, whole = u->slices > u->cut ? u->slices - u->cut : 0;
	double pm = all ? 1000.0 * (double)whole / (double)all : 0;
	for (unsigned i = 0; i < ne; i++) {
		if (wy[i] != WHY_NONE || !val_has_number(v[i]))
			continue;
		if (!u->missed && e->bpf->at_sw[i])
			continue;
		if (!whole) {
			v[i] = val_missing(VAL_NC, WHY_UNSEEN);
			continue;
		}
		v[i].state = VAL_PARTIAL;
		v[i].why = WHY_UNSEEN;
		v[i].run_pm = val_pm_some(pm);
	}
}

/* The values of a row with nothing counted and nothing missed in the interval: the same
 * for every such row of a tick, so filled once a tick (zero_make) and copied (zero_fill).
 * A task that did not run reads 0, exactly as its zero deltas filled would. */
static void zero_make(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	s->zero_ok = false;
	if (mstore_reserve(&s->zero, 1, e->b.set->nevents, srcbase_ngroups(&e->b)) < 0)
		return;
	memset(s->d, 0, e->b.set->nevents * sizeof(*s->d));
	fill(e, s->d, mstore_row(&s->zero, 0), NULL);
	s->zero_ok = true;
}

static void zero_fill(struct bpfsource *e, struct mrow_w w)
{
	const struct mstore *z = &e->bpf->zero;
	memcpy(w.v, z->vals, z->nevents * sizeof(*w.v));
	memcpy(w.g, z->gds, z->ngroups * sizeof(*w.g));
}

/* Task i of cur as it was at its last read (index j of old): nothing of it counted, no
 * slice ended, cut, missed or hidden since: its deltas are 0 and its row zero_fill's. */
static bool unchanged(const struct bpfstate *s, size_t i, size_t j)
{
	const struct brec *r = &s->cur.r[i], *w = &s->old.r[j];
	return s->zero_ok && r->slices == w->slices && r->cut == w->cut && r->missed == w->missed &&
	       r->hidden == w->hidden && r->win == w->win &&
	       memcmp(&s->cur.tot[i * s->nev], &s->old.tot[j * s->nev],
		      s->nev * sizeof(*s->cur.tot)) == 0;
}

/* Task i of cur's slices in the interval (with totals, since its entry was made). */
static struct unseen unseen(const struct bpfstate *s, size_t i, const size_t *oldi, bool totals)
{
	const struct brec *r = &s->cur.r[i];
	const struct brec *was = oldi[i] != SIZE_MAX && !totals ? &s->old.r[oldi[i]] : NULL;
	return (struct unseen){.slices = r->slices - (was ? was->slices : 0),
			       .cut = r->cut - (was ? was->cut : 0),
			       .missed = r->missed + r->hidden -
					 (was ? was->missed + was->hidden : 0),
			       .win = r->win - (was ? was->win : 0)};
}

/* Did task i of cur (read before as was) run in the interval with nothing of it seen by
 * the program: no slice, no fold, yet its run time in /proc grew? */
static bool ran_unseen(struct bpfsource *e, size_t i, const struct brec *was)
{
	struct bpfstate *s = e->bpf;
	struct brec *r = &s->cur.r[i];
	uint64_t ns;
	int err = bpfrows_rt_read(e, r, &ns);
	if (!err)
		r->ran_ns = ns;
	/* New, or something of its runs seen in the interval: not a run unseen. */
	if (!was || r->slices != was->slices || r->missed != was->missed)
		return false;
	const struct pmutop_bpf_ev *now = &s->cur.tot[i * s->nev];
	const struct pmutop_bpf_ev *then = &s->old.tot[(size_t)(was - s->old.r) * s->nev];
	for (unsigned k = 0; k < s->nev; k++)
		if (now[k].ena != then[k].ena)
			return false;
	/* Gone: its exit folded what it ran. Unreadable (no descriptor left, a file that
	 * does not parse): whether it ran is not known, so n/c. */
	if (err)
		return err != -ESRCH;
	return was->ran_ns && ns > was->ran_ns;
}

/* The threads of a process some of whose slices a switch not seen ended (the kernel
 * does not report some tasks' switches, pid 1's threads here) may run begun and ended
 * by such switches, never seen at all: their run time in /proc is read at each tick,
 * and a thread that ran so counts as a slice missed (n/c, not 0). Others keep theirs. */
static void find_hidden(struct bpfsource *e, const size_t *oldi)
{
	struct brecs *c = &e->bpf->cur, *o = &e->bpf->old;
	bpfrows_rt_begin(e->bpf);
	for (size_t a = 0, b; a < c->n; a = b) {
		bool hides = false;
		for (b = a; b < c->n && c->r[b].tgid == c->r[a].tgid; b++)
			hides = hides || c->r[b].missed;
		for (size_t i = a; i < b; i++) {
			const struct brec *was = oldi[i] != SIZE_MAX ? &o->r[oldi[i]] : NULL;
			c->r[i].hidden = was ? was->hidden : 0;
			c->r[i].ran_ns = was ? was->ran_ns : 0;
			if (hides && ran_unseen(e, i, was))
				c->r[i].hidden++;
		}
	}
	bpfrows_rt_end(e->bpf);
}

/* One process: its rows (process, then threads when shown) from cur[a, b). */
static size_t build_proc(struct bpfsource *e, size_t row, size_t a, size_t b, const size_t *oldi,
			 bool totals, pid_t lead_tid)
{
	struct bpfstate *s = e->bpf;
	struct brecs *c = &s->cur;
	unsigned ne = e->b.set->nevents;
	struct val_delta *acc = e->b.acc;
	memset(acc, 0, ne * sizeof(*acc));
	struct val_delta *gone = totals ? gone_of(e, a < b ? c->r[a].tgid : lead_tid) : NULL;
	if (gone)
		add_deltas(acc, gone, ne);
	bool all_dead = true;
	struct unseen any_unseen = {0};
	if (gone)
		any_unseen = (struct unseen){
			.slices = gone[ne].run, .cut = gone[ne].ena, .missed = gone[ne].val};
	size_t lead = b;
	/* The tree's totals: the command's row alone, as under perf. */
	bool tree_total = totals && s->root;
	bool thread_rows = e->b.o.threads && !tree_total;
	/* Every task as at its last read: the process row is zero_fill's too. */
	bool all_same = !totals;
	for (size_t i = a; i < b; i++) {
		bool dead = c->r[i].flags & PMUTOP_BPF_DEAD;
		if (!totals && oldi[i] != SIZE_MAX && unchanged(s, i, oldi[i])) {
			if (thread_rows)
				zero_fill(e, mstore_at(&e->b.rows, row + 1 + (i - a)));
		} else {
			all_same = false;
			struct unseen ui = unseen(s, i, oldi, totals);
			if (!(gone && dead)) /* else in gone already */
				unseen_add(&any_unseen, &ui);
			const struct brec *was = oldi[i] != SIZE_MAX ? &s->old.r[oldi[i]] : NULL;
			task_delta(e, &c->tot[i * s->nev],
				   was && !totals ? &s->old.tot[oldi[i] * s->nev] : NULL);
			if (!(gone && dead)) /* else in gone already */
				add_deltas(acc, s->d, ne);
			/* Its thread row's values now, its head once the process row is
			 * written. */
			if (thread_rows)
				fill(e, s->d, mstore_at(&e->b.rows, row + 1 + (i - a)), &ui);
		}
		all_dead = all_dead && (c->r[i].flags & PMUTOP_BPF_DEAD);
		if (c->r[i].tid == lead_tid)
			lead = i;
	}
	/* Who the row is: its lead thread; for the tree's totals the command's own thread, as
	 * last read when this read no longer has it (ended, the command's end seen a tick
	 * late, or its tree's other tasks still there). */
	if (lead == b && !(tree_total && s->root_seen))
		lead = a;
	struct brec *lr = lead < b ? &c->r[lead] : &s->root_last;
	const struct brec *lwas = lead < b && oldi[lead] != SIZE_MAX ? &s->old.r[oldi[lead]] : NULL;
	const char *cg = proc_cgroup(e, lr, lwas);
	struct mrow_w pw = mstore_row(&e->b.rows, row);
	struct mrow *pr = pw.r;
	pr->kind = ROW_PROC;
	pr->pid = pr->tid = lr->tgid;
	pr->uid = lr->uid;
	pr->user = procfs_user_name(lr->uid);
	pr->comm = lr->comm;
	pr->cgroup = cg;
	pr->kthread = lr->flags & PMUTOP_BPF_KTHREAD;
	pr->nthreads = 0;
	for (size_t i = a; i < b; i++)
		pr->nthreads += !tree_total || c->r[i].tgid == lr->tgid;
	pr->exited = all_dead;
	/* Its parent, state, memory (and arguments, while shown), as the perf engine has
	 * them: read when first seen and again when it ran. */
	bool ran = false;
	for (unsigned i = 0; i < ne && !ran; i++)
		ran = acc[i].ena != 0;
	const struct procinfo_ent *pe = procinfo_get(s->pi, e->b.o.root, lr->tgid, lr->comm, ran,
						     e->b.cmdline, e->b.m.tick + 1);
	if (pe) {
		/* Renamed since its map entry's name was read (prctl, /proc/PID/comm): /proc's,
		 * read as it ran. */
		if (pe->comm[0])
			snprintf(lr->comm, sizeof(lr->comm), "%s", pe->comm);
		pr->ppid = pe->ppid;
		pr->state = pe->state;
		pr->rss_kb = pe->rss_kb;
		pr->start_ticks = pe->start_ticks;
		pr->have_sched = pe->have_sched;
		pr->nice = pe->nice;
		pr->cpu_ns = pe->cpu_ns;
		pr->more = pe->more;
		pr->cmdline = e->b.cmdline ? (pe->cmdline ? pe->cmdline : "") : NULL;
	}
	if (all_same)
		zero_fill(e, pw);
	else
		fill(e, acc, pw, &any_unseen);
	row++;
	for (size_t i = a; i < b; i++) {
		c->r[i].cgroup = cg;
		if (!totals)
			bpfrows_gone_add(e, i);
		if (!thread_rows)
			continue;
		struct mrow_w tw = mstore_row(&e->b.rows, row++);
		*tw.r = *pr;
		tw.r->v = tw.v;
		tw.r->g = tw.g;
		tw.r->kind = ROW_THREAD;
		tw.r->tid = c->r[i].tid;
		tw.r->comm = c->r[i].comm;
		tw.r->nthreads = 1;
		tw.r->exited = c->r[i].flags & PMUTOP_BPF_DEAD;
	}
	return row;
}

/* What the CPUs counted that no task's row has (pmutop.bpf.h), as a row of its own: PID 0,
 * "[unattributed]". With totals, since the start. */
static void unattr_row(struct bpfsource *e, size_t row, bool totals)
{
	struct bpfstate *s = e->bpf;
	struct val_delta *d = e->b.acc;
	memset(d, 0, e->b.set->nevents * sizeof(*d));
	for (unsigned i = 0; i < s->nev; i++) {
		struct val_delta *x = &d[s->ev_of[i]];
		x->val = s->unattr[i].val - (totals ? 0 : s->unattr_was[i].val);
		x->ena = s->unattr[i].ena - (totals ? 0 : s->unattr_was[i].ena);
		x->run = s->unattr[i].run - (totals ? 0 : s->unattr_was[i].run);
	}
	struct mrow_w w = mstore_row(&e->b.rows, row);
	w.r->kind = ROW_PROC;
	w.r->pid = w.r->tid = 0;
	w.r->user = "-";
	w.r->comm = "[unattributed]";
	w.r->nthreads = 0;
	fill(e, d, w, NULL);
}

/* --cgroups: the cgroup rows of the process rows, each with its tasks' switches and
 * migrations once exiting, which are in no process row (perf -p does not count them) but
 * perf -G counts in the cgroup. */
static void cg_rows(struct bpfsource *e, const size_t *oldi, bool totals)
{
	struct bpfstate *s = e->bpf;
	struct model *m = &e->b.m;
	m->cg_rows = NULL;
	m->ncg_rows = 0;
	if (!e->b.o.cgroup_rows || (!s->cg && !(s->cg = cgrows_new())))
		return;
	unsigned n;
	const struct mrow *rows = cgrows_build(s->cg, m, &n);
	if (!rows)
		return;
	for (size_t i = 0; i < s->cur.n; i++) {
		const struct brec *r = &s->cur.r[i];
		const struct brec *was = oldi[i] != SIZE_MAX && !totals ? &s->old.r[oldi[i]] : NULL;
		unsigned x = r->exitsw - (was ? was->exitsw : 0);
		unsigned xm = r->exitmig - (was ? was->exitmig : 0);
		for (unsigned k = 0; (x || xm) && r->cgroup && k < m->nevents; k++)
			if (s->at_sw[k])
				cgrows_add(s->cg, r->cgroup, k, x);
			else if (xm && m->events[k].role == ROLE_MIGRATIONS)
				cgrows_add(s->cg, r->cgroup, k, xm);
	}
	m->cg_rows = rows;
	m->ncg_rows = n;
}

static unsigned pr_threads(struct bpfsource *e, size_t row)
{
	return row ? mstore_at(&e->b.rows, 0).r->nthreads : 0;
}

void bpfrows_note_root(struct bpfstate *s)
{
	for (size_t i = 0; s->root && i < s->cur.n; i++)
		if (s->cur.r[i].tid == s->root) {
			s->root_last = s->cur.r[i];
			s->root_seen = true;
			break;
		}
}

/* Rows from cur against old (its previous read): intervals, or with totals the sums
 * since the start. */
void bpfrows_build(struct bpfsource *e, bool totals)
{
	struct bpfstate *s = e->bpf;
	struct brecs *c = &s->cur, *o = &s->old;
	size_t nproc = 0;
	for (size_t i = 0; i < c->n; i++)
		nproc += i == 0 || c->r[i].tgid != c->r[i - 1].tgid;
	bool ua = e->b.o.scope == SCOPE_ALL && !e->b.o.only_uid;
	/* and the tree's totals row when none of its tasks is in the read */
	size_t need = nproc + (e->b.o.threads ? c->n : 0) + ua + (totals && s->root && !c->n);
	size_t *oldi = s->oldi;
	if (mstore_reserve(&e->b.rows, need, e->b.set->nevents, srcbase_ngroups(&e->b)) < 0)
		return;
	/* Both sorted: each task's previous read by one merge. */
	for (size_t i = 0, j = 0; i < c->n; i++) {
		while (j < o->n && cmp_rec(&o->r[j], &c->r[i]) < 0)
			j++;
		oldi[i] = j < o->n && cmp_rec(&o->r[j], &c->r[i]) == 0 ? j : SIZE_MAX;
	}
	if (!totals)
		find_hidden(e, oldi);
	zero_make(e);
	size_t row = 0;
	if (!totals)
		bpfrows_note_root(s);
	/* The tree's totals: one row, the command's; its counts all in gone when every task
	 * of the tree ended before the last read (the command's end seen a tick late). */
	bool one = totals && s->root && (c->n || s->root_seen);
	if (one)
		row = build_proc(e, row, 0, c->n, oldi, totals, s->root);
	for (size_t a = one ? c->n : 0; a < c->n;) {
		size_t b = a + 1;
		while (b < c->n && c->r[b].tgid == c->r[a].tgid)
			b++;
		row = build_proc(e, row, a, b, oldi, totals, c->r[a].tgid);
		a = b;
	}
	if (ua)
		unattr_row(e, row++, totals);
	e->b.m.rows = e->b.rows.rows;
	e->b.m.nrows = (unsigned)row;
	e->b.m.ntasks = one ? pr_threads(e, row) : (unsigned)c->n;
	e->b.m.nfd_short = 0;
	cg_rows(e, oldi, totals);
}

void bpfrows_swap(struct bpfstate *s)
{
	struct brecs t = s->old;
	s->old = s->cur;
	s->cur = t;
}
