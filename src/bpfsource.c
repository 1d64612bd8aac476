/* The bpf backend's rows (engine_opts.bpf): every task's sums from the BPF maps
 * (events/bpfcount.h), turned into the same process and thread rows as the perf
 * engine's, with each task's own enabled and running times. */
#include "engine_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpfcount.h"
#include "cgroup.h"
#include "hybrid.h"
#include "procfs.h"
#include "procinfo.h"

/* One task as last read: who it is and its sums (tot, nev per task, kept apart). */
struct brec {
	pid_t tgid, tid;
	uid_t uid;
	unsigned flags;
	uint64_t cgid;
	const char *cgroup;
	size_t src; /* its index in the map's read, while the sums are copied */
	char comm[PMUTOP_BPF_COMM];
};

struct brecs {
	size_t n, cap;
	struct brec *r;
	struct pmutop_bpf_ev *tot; /* n * nev */
};

struct bpfsource {
	struct bpfcount *bc;
	unsigned nev;	 /* events the program counts: the set's group members */
	unsigned *ev_of; /* per counted event: its model event index */
	uint8_t *why;	 /* per model event */
	struct brecs cur, old;
	size_t *oldi; /* per cur record: its index in old, or SIZE_MAX */
	size_t oldi_cap;
	struct val_delta *d; /* per model event: one task's deltas */
	unsigned *dead;	     /* tids to forget once read */
	size_t ndead, capdead;
	struct val_delta *gone; /* per watched pid * nevents: its ended threads' totals */
	uint64_t lost;
	struct procinfo *pi; /* parents, state, memory, arguments: /proc, by pid */
	char note[128];
};

/* Room for twice the tasks there are now and 4096 more, at least 16384: the map is
 * preallocated, each entry some 600 bytes. */
static unsigned max_tasks(const struct engine *e)
{
	if (e->o.bpf_tasks)
		return e->o.bpf_tasks;
	char path[4096];
	snprintf(path, sizeof(path), "%s/proc/loadavg", e->o.root);
	long threads = 0;
	FILE *f = fopen(path, "re");
	if (f) {
		double a, b, c;
		long run;
		if (fscanf(f, "%lf %lf %lf %ld/%ld", &a, &b, &c, &run, &threads) != 5)
			threads = 0;
		fclose(f);
	}
	long want = 2 * threads + 4096;
	return want < 16384 ? 16384 : want > 262144 ? 262144 : (unsigned)want;
}

struct seed_ctx {
	struct engine *e;
	pid_t pid;
};

static int seed_thread(void *vctx, pid_t tid)
{
	struct seed_ctx *c = vctx;
	struct procfs_task t;
	if (procfs_task_info(c->e->o.root, c->pid, tid, &t) != 0 || t.dead)
		return 0;
	int err = bpfcount_seed(c->e->bpf->bc, tid, c->pid, t.uid, t.kthread, t.comm);
	/* Gone before its entry was made, which no switch will now mark: drop it. */
	if (!err && syscall(SYS_tgkill, c->pid, tid, 0) < 0 && errno == ESRCH) {
		unsigned key = (unsigned)tid;
		bpfcount_forget(c->e->bpf->bc, &key, 1);
	}
	return 0;
}

static int seed_proc(void *vctx, pid_t pid)
{
	struct seed_ctx *c = vctx;
	struct seed_ctx tc = {c->e, pid};
	procfs_each(c->e->o.root, pid, seed_thread, &tc);
	return 0;
}

/* Tasks that were there before the program: rows from the first tick, even asleep. */
static void seed(struct engine *e)
{
	struct seed_ctx c = {e, 0};
	if (e->o.scope == SCOPE_PIDS) {
		for (unsigned i = 0; i < e->o.npids; i++)
			seed_proc(&c, e->pids[i]);
		return;
	}
	procfs_each(e->o.root, 0, seed_proc, &c);
}

static int open_counters(struct engine *e)
{
	struct bpfsource *s = e->bpf;
	struct bpfcount_opts bo = {.cpus = e->cpu.id,
				   .ncpus = e->cpu.n,
				   .user_only = e->o.user_only,
				   .no_kernel = e->o.no_kernel,
				   .max_tasks = max_tasks(e),
				   .preset = (const uint8_t(*)[EVGROUP_MAX])e->set->preset};
	int err = bpfcount_open(&e->set->specs, &bo, &s->bc);
	if (err)
		return err;
	s->nev = 0;
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		for (unsigned k = 0; k < e->set->groups[g].n; k++)
			s->ev_of[s->nev++] = e->set->groups[g].first + k;
	memset(s->why, WHY_UNSUPPORTED, e->set->nevents);
	for (unsigned i = 0; i < s->nev; i++) {
		enum ev_status st = bpfcount_status(s->bc, i);
		s->why[s->ev_of[i]] = (uint8_t)targets_why(st);
	}
	seed(e);
	return 0;
}

static void recs_free(struct brecs *r)
{
	free(r->r);
	free(r->tot);
	memset(r, 0, sizeof(*r));
}

static void source_free(struct bpfsource *s)
{
	if (!s)
		return;
	bpfcount_free(s->bc);
	recs_free(&s->cur);
	recs_free(&s->old);
	free(s->oldi);
	free(s->ev_of);
	free(s->why);
	free(s->d);
	free(s->dead);
	free(s->gone);
	procinfo_free(s->pi);
	free(s);
}

static int source_alloc(struct engine *e)
{
	struct bpfsource *s = calloc(1, sizeof(*s));
	size_t ne = e->set->nevents + 1;
	if (!s)
		return -ENOMEM;
	e->bpf = s;
	s->ev_of = calloc(ne, sizeof(*s->ev_of));
	s->why = calloc(ne, 1);
	s->d = calloc(ne, sizeof(*s->d));
	s->gone = calloc((e->o.npids + 1) * ne, sizeof(*s->gone));
	s->pi = procinfo_new();
	return s->ev_of && s->why && s->d && s->gone && s->pi ? 0 : -ENOMEM;
}

int bpfsource_open(struct engine *e)
{
	if (e->o.scope == SCOPE_CGROUPS)
		return -ENOTSUP;
	int err = source_alloc(e);
	if (!err)
		err = open_counters(e);
	if (err) {
		source_free(e->bpf);
		e->bpf = NULL;
	}
	return err;
}

void bpfsource_close(struct engine *e)
{
	source_free(e->bpf);
	e->bpf = NULL;
	e->m.source_notice = NULL; /* it was in e->bpf */
}

int bpfsource_restart(struct engine *e)
{
	bpfsource_close(e);
	return bpfsource_open(e);
}

static int cmp_rec(const void *a, const void *b)
{
	const struct brec *x = a, *y = b;
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void sift(struct brec *r, size_t i, size_t n)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && cmp_rec(&r[c], &r[c + 1]) < 0)
			c++;
		if (cmp_rec(&r[i], &r[c]) >= 0)
			return;
		struct brec t = r[i];
		r[i] = r[c];
		r[c] = t;
	}
}

/* Heapsort: glibc's qsort allocates a buffer at every call, and a steady tick allocates
 * nothing. */
static void sort_recs(struct brec *r, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(r, i, n);
	for (size_t end = n; end-- > 1;) {
		struct brec t = r[0];
		r[0] = r[end];
		r[end] = t;
		sift(r, 0, end);
	}
}

static bool wanted(const struct engine *e, pid_t tgid, uid_t uid)
{
	if (e->o.scope == SCOPE_PIDS) {
		for (unsigned i = 0; i < e->o.npids; i++)
			if (e->pids[i] == tgid)
				return true;
		return false;
	}
	return !e->o.only_uid || uid == e->o.uid;
}

static void note_dead(struct bpfsource *s, pid_t tid)
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

/* The map's contents into cur, sorted by process then thread. */
static int snapshot(struct engine *e)
{
	struct bpfsource *s = e->bpf;
	const unsigned *tids;
	const struct pmutop_bpf_task *v;
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
	/* Sort the identities with their index into v, then copy the sums in that order. */
	c->n = 0;
	s->ndead = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].flags & PMUTOP_BPF_DEAD) /* read for the last time */
			note_dead(s, (pid_t)tids[i]);
		if (!wanted(e, (pid_t)v[i].tgid, v[i].uid))
			continue;
		struct brec *r = &c->r[c->n++];
		r->tgid = (pid_t)v[i].tgid;
		r->tid = (pid_t)tids[i];
		r->uid = v[i].uid;
		r->flags = v[i].flags;
		r->cgid = v[i].cgid;
		r->cgroup = NULL;
		r->src = i;
		memcpy(r->comm, v[i].comm, sizeof(r->comm));
		r->comm[sizeof(r->comm) - 1] = '\0';
	}
	sort_recs(c->r, c->n);
	for (size_t i = 0; i < c->n; i++)
		memcpy(&c->tot[i * s->nev], v[c->r[i].src].ev, s->nev * sizeof(*c->tot));
	return 0;
}

/* A task's deltas from its sums now and at the last read (was; NULL: since its entry
 * was made) into s->d. */
static void task_delta(struct engine *e, const struct pmutop_bpf_ev *now,
		       const struct pmutop_bpf_ev *was)
{
	struct bpfsource *s = e->bpf;
	memset(s->d, 0, e->set->nevents * sizeof(*s->d));
	for (unsigned i = 0; i < s->nev; i++) {
		struct val_delta *d = &s->d[s->ev_of[i]];
		d->val = now[i].val - (was ? was[i].val : 0);
		d->ena = now[i].ena - (was ? was[i].ena : 0);
		d->run = now[i].run - (was ? was[i].run : 0);
	}
}

static struct val_delta *gone_of(struct engine *e, pid_t tgid)
{
	for (unsigned i = 0; i < e->o.npids; i++)
		if (e->pids[i] == tgid)
			return &e->bpf->gone[(size_t)i * (e->set->nevents + 1)];
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

/* The cgroup of process tgid, read again only when its first thread moved. */
static const char *proc_cgroup(struct engine *e, const struct brec *r, const struct brec *was)
{
	if (was && was->cgid == r->cgid && was->cgroup)
		return was->cgroup;
	char path[4096];
	if (e->cgnames && cgroup_of(e->o.root, r->tgid, path, sizeof(path)) == 0)
		return cgroup_names_intern(e->cgnames, path);
	return NULL;
}

static void fill(struct engine *e, const struct val_delta *d, struct mrow_w w)
{
	unsigned ne = e->set->nevents;
	uint8_t *wy = e->acc_why;
	memcpy(wy, e->bpf->why, ne);
	struct val_delta *dd = e->bpf->d;
	if (dd != d)
		memcpy(dd, d, ne * sizeof(*dd));
	if (e->logical)
		hybrid_fold(e->set->events, e->set->nevents, dd, wy);
	rowbuild_fill(e, dd, wy, NULL, w.v, w.g, false);
}

/* One process: its rows (process, then threads when shown) from cur[a, b). */
static size_t build_proc(struct engine *e, size_t row, size_t a, size_t b, const size_t *oldi,
			 bool totals)
{
	struct bpfsource *s = e->bpf;
	struct brecs *c = &s->cur;
	unsigned ne = e->set->nevents;
	struct val_delta *acc = e->acc;
	memset(acc, 0, ne * sizeof(*acc));
	struct val_delta *gone = totals ? gone_of(e, c->r[a].tgid) : NULL;
	if (gone)
		add_deltas(acc, gone, ne);
	bool all_dead = true;
	size_t lead = a;
	for (size_t i = a; i < b; i++) {
		const struct brec *was = oldi[i] != SIZE_MAX ? &s->old.r[oldi[i]] : NULL;
		bool dead = c->r[i].flags & PMUTOP_BPF_DEAD;
		task_delta(e, &c->tot[i * s->nev],
			   was && !totals ? &s->old.tot[oldi[i] * s->nev] : NULL);
		if (!(gone && dead)) /* else in gone already */
			add_deltas(acc, s->d, ne);
		all_dead = all_dead && (c->r[i].flags & PMUTOP_BPF_DEAD);
		if (c->r[i].tid == c->r[i].tgid)
			lead = i;
	}
	const struct brec *lr = &c->r[lead];
	const struct brec *lwas = oldi[lead] != SIZE_MAX ? &s->old.r[oldi[lead]] : NULL;
	const char *cg = proc_cgroup(e, lr, lwas);
	struct mrow_w pw = mstore_row(&e->rows, row);
	struct mrow *pr = pw.r;
	pr->kind = ROW_PROC;
	pr->pid = pr->tid = lr->tgid;
	pr->uid = lr->uid;
	pr->user = procfs_user_name(lr->uid);
	pr->comm = lr->comm;
	pr->cgroup = cg;
	pr->kthread = lr->flags & PMUTOP_BPF_KTHREAD;
	pr->nthreads = (unsigned)(b - a);
	pr->exited = all_dead;
	/* Its parent, state, memory (and arguments, while shown), as the perf engine has
	 * them: read when first seen and again when it ran. */
	bool ran = false;
	for (unsigned i = 0; i < ne && !ran; i++)
		ran = acc[i].ena != 0;
	const struct procinfo_ent *pe =
		procinfo_get(s->pi, e->o.root, lr->tgid, lr->comm, ran, e->cmdline, e->m.tick + 1);
	if (pe) {
		/* Renamed since its map entry's name was read (prctl, /proc/PID/comm): /proc's,
		 * read as it ran. */
		if (pe->comm[0])
			snprintf(c->r[lead].comm, sizeof(c->r[lead].comm), "%s", pe->comm);
		pr->ppid = pe->ppid;
		pr->state = pe->state;
		pr->rss_kb = pe->rss_kb;
		pr->cmdline = e->cmdline ? (pe->cmdline ? pe->cmdline : "") : NULL;
	}
	fill(e, acc, pw);
	row++;
	for (size_t i = a; i < b; i++) {
		c->r[i].cgroup = cg;
		struct val_delta *g = gone_of(e, c->r[i].tgid);
		if ((c->r[i].flags & PMUTOP_BPF_DEAD) && g && !totals) {
			task_delta(e, &c->tot[i * s->nev], NULL);
			add_deltas(g, s->d, ne);
		}
		if (!e->o.threads)
			continue;
		const struct brec *was = oldi[i] != SIZE_MAX ? &s->old.r[oldi[i]] : NULL;
		task_delta(e, &c->tot[i * s->nev],
			   was && !totals ? &s->old.tot[oldi[i] * s->nev] : NULL);
		struct mrow_w tw = mstore_row(&e->rows, row++);
		*tw.r = *pr;
		tw.r->v = tw.v;
		tw.r->g = tw.g;
		tw.r->kind = ROW_THREAD;
		tw.r->tid = c->r[i].tid;
		tw.r->comm = c->r[i].comm;
		tw.r->nthreads = 1;
		tw.r->exited = c->r[i].flags & PMUTOP_BPF_DEAD;
		fill(e, s->d, tw);
	}
	return row;
}

/* Rows from cur against old (its previous read): intervals, or with totals the sums
 * since the start. */
static void build_rows(struct engine *e, bool totals)
{
	struct bpfsource *s = e->bpf;
	struct brecs *c = &s->cur, *o = &s->old;
	size_t nproc = 0;
	for (size_t i = 0; i < c->n; i++)
		nproc += i == 0 || c->r[i].tgid != c->r[i - 1].tgid;
	size_t need = nproc + (e->o.threads ? c->n : 0);
	size_t *oldi = s->oldi;
	if (mstore_reserve(&e->rows, need, e->set->nevents, engine_ngroups(e)) < 0)
		return;
	/* Both sorted: each task's previous read by one merge. */
	for (size_t i = 0, j = 0; i < c->n; i++) {
		while (j < o->n && cmp_rec(&o->r[j], &c->r[i]) < 0)
			j++;
		oldi[i] = j < o->n && cmp_rec(&o->r[j], &c->r[i]) == 0 ? j : SIZE_MAX;
	}
	size_t row = 0;
	for (size_t a = 0; a < c->n;) {
		size_t b = a + 1;
		while (b < c->n && c->r[b].tgid == c->r[a].tgid)
			b++;
		row = build_proc(e, row, a, b, oldi, totals);
		a = b;
	}
	e->m.rows = e->rows.rows;
	e->m.nrows = (unsigned)row;
	e->m.ntasks = (unsigned)c->n;
	e->m.nfd_short = 0;
}

static void swap_recs(struct bpfsource *s)
{
	struct brecs t = s->old;
	s->old = s->cur;
	s->cur = t;
}

/* What a full task map left out, as the model's source notice. */
static void header_note(struct engine *e)
{
	struct bpfsource *s = e->bpf;
	s->lost = bpfcount_lost(s->bc);
	e->m.source_notice = NULL;
	if (!s->lost)
		return;
	snprintf(s->note, sizeof(s->note),
		 "BPF task map full (%u tasks): %llu slices of new tasks not counted",
		 bpfcount_max_tasks(s->bc), (unsigned long long)s->lost);
	e->m.source_notice = s->note;
}

void bpfsource_tick(struct engine *e)
{
	struct bpfsource *s = e->bpf;
	if (snapshot(e) == 0) {
		build_rows(e, e->totals);
		procinfo_sweep(s->pi, e->m.tick + 1);
		bpfcount_forget(s->bc, s->dead, s->ndead);
		swap_recs(s);
	}
	header_note(e);
}

void bpfsource_totals(struct engine *e)
{
	struct bpfsource *s = e->bpf;
	/* The last tick's read (now in old) again, as sums since the start. */
	swap_recs(s);
	build_rows(e, true);
	swap_recs(s);
}

/* The next interval counts from now (resuming, or at start): no rows, but a watched
 * process's threads that ended meanwhile still go into its totals. */
void bpfsource_rebase(struct engine *e)
{
	struct bpfsource *s = e->bpf;
	if (snapshot(e) != 0)
		return;
	for (size_t i = 0; i < s->cur.n; i++) {
		struct val_delta *g = gone_of(e, s->cur.r[i].tgid);
		if (g && (s->cur.r[i].flags & PMUTOP_BPF_DEAD)) {
			task_delta(e, &s->cur.tot[i * s->nev], NULL);
			add_deltas(g, s->d, e->set->nevents);
		}
	}
	bpfcount_forget(s->bc, s->dead, s->ndead);
	swap_recs(s);
}

bool bpfsource_watched_alive(const struct engine *e)
{
	const struct brecs *o = &e->bpf->old;
	for (size_t i = 0; i < o->n; i++)
		if (!(o->r[i].flags & PMUTOP_BPF_DEAD))
			return true;
	/* None read yet (asleep since before the start), or a zombie: ask /proc. */
	for (unsigned i = 0; i < e->o.npids; i++) {
		struct procfs_task t;
		if (procfs_task_info(e->o.root, e->pids[i], e->pids[i], &t) == 0 && !t.dead)
			return true;
	}
	return false;
}

unsigned bpfsource_open_fds(const struct engine *e)
{
	return e->bpf ? bpfcount_open_fds(e->bpf->bc) : 0;
}

const char *engine_bpf_why(int err)
{
	switch (err) {
	case -ENOTSUP:
		return "pmutop was built without BPF (PMUTOP_BPF=OFF)";
	case -E2BIG:
		return "it counts 24 events at most";
	case -ENOENT:
		return "the kernel has no BTF (/sys/kernel/btf/vmlinux)";
	case -EPERM:
	case -EACCES:
		return "BPF is not allowed here (it needs CAP_BPF and CAP_PERFMON)";
	case -EMFILE:
	case -ENFILE:
		return "out of file descriptors for the per-CPU counters";
	default:
		return "the BPF program could not be loaded or attached";
	}
}
