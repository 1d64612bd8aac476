/* The bpf backend as a source (source.h): a BPF program sums per-CPU counters per task
 * at each context switch (events/bpfcount.h); its rows are bpfrows.c's. */
#include "bpfsource_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgrows.h"
#include "procfs.h"
#include "procinfo.h"

/* Room for twice the tasks there are now and 4096 more, at least 16384: the map is
 * preallocated, each entry some 600 bytes. */
static unsigned max_tasks(const struct bpfsource *e)
{
	const struct bpfopts *bo = e->b.o.own;
	if (bo && bo->tasks)
		return bo->tasks;
	char path[4096];
	snprintf(path, sizeof(path), "%s/proc/loadavg", e->b.o.root);
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
	struct bpfsource *e;
	pid_t pid;
	const struct procfs_task *lead; /* pid's own thread, read already, or NULL */
	unsigned flags;			/* for each of its tasks: PMUTOP_BPF_TREE, _PRE_EXEC */
};

/* Thread tid of c->pid, as /proc read it (t): its entry, unless gone. */
static void seed_task(struct seed_ctx *c, pid_t tid, const struct procfs_task *t)
{
	if (t->dead)
		return;
	struct bpfstate *s = c->e->bpf;
	if (tid == c->pid) /* read already: not again at the first tick */
		procinfo_seed(s->pi, t, c->e->b.m.tick + 1);
	unsigned flags = (t->kthread ? PMUTOP_BPF_KTHREAD : 0) | c->flags;
	int err = bpfcount_seed(s->bc, tid, c->pid, t->uid, flags, t->comm);
	/* Gone before its entry was made, which no switch will now mark: drop it. */
	if (!err && syscall(SYS_tgkill, c->pid, tid, 0) < 0 && errno == ESRCH) {
		unsigned key = (unsigned)tid;
		bpfcount_forget(s->bc, &key, 1);
	}
}

static int seed_thread(void *vctx, pid_t tid)
{
	struct seed_ctx *c = vctx;
	struct procfs_task t;
	if (tid == c->pid && c->lead)
		seed_task(c, tid, c->lead);
	else if (procfs_task_info(c->e->b.o.root, c->pid, tid, &t) == 0)
		seed_task(c, tid, &t);
	return 0;
}

/* A process of one thread (most of them) is its own thread: read once, its task
 * directory not listed. A thread it starts meanwhile runs, and so has an entry. */
static int seed_proc(void *vctx, pid_t pid)
{
	struct seed_ctx *c = vctx;
	struct procfs_task t;
	bool read = procfs_task_info(c->e->b.o.root, pid, pid, &t) == 0;
	struct seed_ctx tc = {c->e, pid, read ? &t : NULL, c->flags};
	if (read && t.nthreads == 1) {
		seed_task(&tc, pid, &t);
		return 0;
	}
	procfs_each(c->e->b.o.root, pid, seed_thread, &tc);
	return 0;
}

/* Tasks that were there before the program: rows from the first tick, even asleep. A
 * command (-- COMMAND) is parked before its exec until it has exec'd; its tree is the
 * processes of tree (n of them), carried from the program before a restart. */
static void seed(struct bpfsource *e, const pid_t *tree, size_t n)
{
	struct bpfstate *s = e->bpf;
	struct seed_ctx c = {e, 0, NULL, 0};
	if (e->b.o.scope == SCOPE_PIDS) {
		for (unsigned i = 0; i < e->b.o.npids; i++) {
			pid_t pid = e->b.pids[i];
			c.flags = e->b.o.enable_on_exec && !e->execd ? PMUTOP_BPF_PRE_EXEC : 0;
			c.flags |= s->root == pid ? PMUTOP_BPF_TREE : 0;
			seed_proc(&c, pid);
		}
		c.flags = PMUTOP_BPF_TREE;
		for (size_t i = 0; s->root && i < n; i++)
			if (tree[i] != s->root)
				seed_proc(&c, tree[i]);
		return;
	}
	procfs_each(e->b.o.root, 0, seed_proc, &c);
}

static int open_counters(struct bpfsource *e, const pid_t *tree, size_t n)
{
	struct bpfstate *s = e->bpf;
	s->root = e->tree ? e->b.pids[0] : 0;
	struct bpfcount_opts bo = {.cpus = e->b.cpu.id,
				   .ncpus = e->b.cpu.n,
				   .user_only = e->b.o.user_only,
				   .no_kernel = e->b.o.no_kernel,
				   .max_tasks = max_tasks(e),
				   .preset = (const uint8_t(*)[EVGROUP_MAX])e->b.set->preset,
				   .tree = s->root != 0};
	int err = bpfcount_open(&e->b.set->specs, &bo, &s->bc);
	if (err)
		return err;
	s->nev = 0;
	memset(s->why, WHY_UNSUPPORTED, e->b.set->nevents);
	unsigned i = 0; /* the program's event: the set's group members in order */
	for (unsigned g = 0; g < srcbase_ngroups(&e->b); g++)
		for (unsigned k = 0; k < e->b.set->groups[g].n; k++, i++) {
			unsigned m = e->b.set->groups[g].first + k;
			s->why[m] = (uint8_t)srcbase_why(bpfcount_status(s->bc, i));
			s->at_sw[m] = bpfcount_at_switch(s->bc, i);
			s->clk[m] = bpfcount_is_clock(s->bc, i);
			int slot = bpfcount_slot(s->bc, i);
			if (slot >= 0)
				s->ev_of[s->nev++] = m; /* slots are in the events' order */
		}
	s->vsize = bpfcount_value_size(s->bc);
	seed(e, tree, n);
	return 0;
}

static void recs_free(struct brecs *r)
{
	free(r->r);
	free(r->tot);
	memset(r, 0, sizeof(*r));
}

static void state_free(struct bpfstate *s)
{
	if (!s)
		return;
	bpfcount_free(s->bc);
	recs_free(&s->cur);
	recs_free(&s->old);
	free(s->oldi);
	free(s->keys);
	free(s->pkeys);
	free(s->skeys);
	free(s->tkeys);
	free(s->hash);
	free(s->taken);
	free(s->ev_of);
	free(s->why);
	free(s->at_sw);
	free(s->clk);
	free(s->d);
	mstore_free(&s->zero);
	bpfrows_rt_free(s);
	free(s->dead);
	free(s->gone);
	free(s->unattr);
	free(s->unattr_was);
	procinfo_free(s->pi);
	cgrows_free(s->cg);
	free(s);
}

static int state_alloc(struct bpfsource *e)
{
	struct bpfstate *s = calloc(1, sizeof(*s));
	size_t ne = e->b.set->nevents + 1;
	if (!s)
		return -ENOMEM;
	e->bpf = s;
	s->ev_of = calloc(ne, sizeof(*s->ev_of));
	s->why = calloc(ne, 1);
	s->at_sw = calloc(ne, 1);
	s->clk = calloc(ne, 1);
	s->d = calloc(ne, sizeof(*s->d));
	s->gone = calloc((e->b.o.npids + 1) * ne, sizeof(*s->gone));
	s->unattr = calloc(ne, sizeof(*s->unattr));
	s->unattr_was = calloc(ne, sizeof(*s->unattr_was));
	s->pi = procinfo_new();
	return s->ev_of && s->why && s->at_sw && s->clk && s->d && s->gone && s->unattr &&
			       s->unattr_was && s->pi
		       ? 0
		       : -ENOMEM;
}

static int state_open(struct bpfsource *e, const pid_t *tree, size_t n)
{
	if (e->b.o.scope == SCOPE_CGROUPS)
		return -ENOTSUP;
	int err = state_alloc(e);
	if (!err)
		err = open_counters(e, tree, n);
	if (err) {
		state_free(e->bpf);
		e->bpf = NULL;
	}
	return err;
}

static void state_close(struct bpfsource *e)
{
	state_free(e->bpf);
	e->bpf = NULL;
	e->b.m.source_notice = NULL; /* it was in e->bpf */
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* From the program's map as it is now: whether the command has exec'd (e->execd), and
 * the processes of its tree still alive (*tree, *n, sorted, each once; NULL when none). */
static int carry_tree(struct bpfsource *e, pid_t **tree, size_t *n)
{
	*tree = NULL;
	*n = 0;
	if (!e->bpf || !e->b.o.enable_on_exec)
		return 0;
	const unsigned *tids;
	const void *v;
	size_t nt;
	int err = bpfcount_read(e->bpf->bc, &tids, &v, &nt);
	if (err)
		return err;
	pid_t *p = e->tree && nt ? malloc(nt * sizeof(*p)) : NULL;
	if (e->tree && nt && !p)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < nt; i++) {
		const struct pmutop_bpf_task *x = bpfcount_task(v, e->bpf->vsize, i);
		if (tids[i] == (unsigned)e->b.pids[0] && x->tgid &&
		    !(x->flags & PMUTOP_BPF_PRE_EXEC))
			e->execd = true;
		if (p && x->tgid && (x->flags & PMUTOP_BPF_TREE) &&
		    !(x->flags & (PMUTOP_BPF_DEAD | PMUTOP_BPF_EXITING)))
			p[k++] = (pid_t)x->tgid;
	}
	if (k)
		qsort(p, k, sizeof(*p), cmp_pid);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || p[u - 1] != p[i])
			p[u++] = p[i];
	*tree = p;
	*n = u;
	return 0;
}

/* The program starts over: the command still parked if it has not exec'd, and its tree
 * kept, with the forks of its members followed. */
static int state_restart(struct bpfsource *e)
{
	pid_t *tree;
	size_t n;
	int err = carry_tree(e, &tree, &n);
	state_close(e);
	if (!err)
		err = state_open(e, tree, n);
	free(tree);
	return err;
}

/* What a full task map left out, as the model's source notice. */
static void header_note(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	s->lost = bpfcount_lost(s->bc);
	e->b.m.source_notice = NULL;
	if (!s->lost)
		return;
	snprintf(s->note, sizeof(s->note),
		 "BPF task map full (%u tasks): %llu slices of new tasks not counted",
		 bpfcount_max_tasks(s->bc), (unsigned long long)s->lost);
	e->b.m.source_notice = s->note;
}

static void state_tick(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	if (bpfrows_snapshot(e) == 0) {
		bpfrows_build(e, e->b.totals);
		procinfo_sweep(s->pi, e->b.m.tick + 1);
		bpfcount_forget(s->bc, s->dead, s->ndead);
		bpfrows_swap(s);
	}
	header_note(e);
}

static void state_totals(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	/* The last tick's read (now in old) again, as sums since the start. */
	bpfrows_swap(s);
	bpfrows_build(e, true);
	bpfrows_swap(s);
}

/* The next interval counts from now (resuming, or at start): no rows, but a watched
 * process's threads that ended meanwhile still go into its totals. */
static void state_rebase(struct bpfsource *e)
{
	struct bpfstate *s = e->bpf;
	if (bpfrows_snapshot(e) != 0)
		return;
	bpfrows_note_root(s);
	for (size_t i = 0; i < s->cur.n; i++)
		bpfrows_gone_add(e, i);
	bpfcount_forget(s->bc, s->dead, s->ndead);
	bpfrows_swap(s);
}

static bool watched_alive(const struct bpfsource *e)
{
	const struct brecs *o = &e->bpf->old;
	for (size_t i = 0; i < o->n; i++)
		if (!(o->r[i].flags & PMUTOP_BPF_DEAD))
			return true;
	/* None read yet (asleep since before the start), or a zombie: ask /proc. */
	for (unsigned i = 0; i < e->b.o.npids; i++) {
		struct procfs_task t;
		if (procfs_task_info(e->b.o.root, e->b.pids[i], e->b.pids[i], &t) == 0 && !t.dead)
			return true;
	}
	return false;
}

static unsigned state_open_fds(const struct bpfsource *e)
{
	/* and the run times kept open (find_hidden) */
	return e->bpf ? bpfcount_open_fds(e->bpf->bc) + (unsigned)e->bpf->nrt : 0;
}

/* After a tick: every task row's value n/c (starting) when the backend started over
 * within the interval. */
static void restart_rows(struct bpfsource *e)
{
	if (!e->restarted)
		return;
	e->restarted = false;
	for (unsigned i = 0; i < e->b.m.nrows; i++) {
		struct mrow_w w = mstore_at(&e->b.rows, i);
		for (unsigned k = 0; k < e->b.nlive; k++)
			if (w.v[e->b.live[k]].state != VAL_NA)
				w.v[e->b.live[k]] = val_missing(VAL_NC, WHY_STARTING);
	}
}

static struct bpfsource *of(struct source *s)
{
	return (struct bpfsource *)s;
}

/* -ENODEV once the backend gave up (an event set or mode it could not load). */
static int bpf_tick(struct source *s)
{
	struct bpfsource *e = of(s);
	if (e->bpf && e->give_up && e->b.m.tick + 1 >= e->give_up)
		state_close(e);
	if (!e->bpf)
		return -ENODEV;
	srcbase_tick_begin(&e->b);
	state_tick(e);
	restart_rows(e);
	srcbase_tick_end(&e->b);
	return 0;
}

static int bpf_totals(struct source *s)
{
	struct bpfsource *e = of(s);
	if (!e->bpf)
		return -ENODEV;
	srcbase_totals_begin(&e->b);
	state_totals(e);
	return 0;
}

static const struct model *bpf_model(const struct source *s)
{
	return &((const struct bpfsource *)s)->b.m;
}

/* A new event set: the CPUs' groups follow it (srcbase_switch), the program starts over. */
static int switch_set(struct bpfsource *e, const struct evset *set)
{
	struct srcremap r;
	int err = srcbase_switch(&e->b, set, &r);
	srcremap_free(&r);
	return err;
}

/* The backend starts over on a new event set or mode: the next tick's task rows read
 * n/c (starting). When it cannot (too many events for the program), it is gone and
 * says why: the app counts with perf instead. */
static int bpf_control(struct source *s, enum source_ctl what, const void *arg)
{
	struct bpfsource *e = of(s);
	int err;
	switch (what) {
	case SRC_USER_ONLY:
		if (e->b.o.user_only == *(const bool *)arg)
			return 0;
		srcbase_control(&e->b, what, arg);
		cpurows_reopen_hw(&e->b); /* the CPU rows' groups are perf's */
		e->restarted = true;
		return state_restart(e);
	case SRC_EVSET:
		if ((err = switch_set(e, arg)) != 0)
			return err;
		e->restarted = true;
		return state_restart(e);
	case SRC_PAUSE:
		/* Resuming: the threads of a watched process that ended meanwhile still go
		 * into its totals. */
		if (srcbase_pause(&e->b, *(const bool *)arg)) {
			if (e->bpf)
				state_rebase(e);
			srcbase_baseline(&e->b);
		}
		return 0;
	case SRC_CGROUP_ROWS: /* its rows already hold every task with its cgroup */
		e->b.o.cgroup_rows = *(const bool *)arg;
		return 0;
	case SRC_RESCAN: /* every task is in the BPF maps once it runs */
		return 0;
	case SRC_WATCHED_ALIVE:
		*(bool *)arg = e->bpf && watched_alive(e);
		return 0;
	case SRC_OPEN_FDS:
		*(unsigned *)arg = state_open_fds(e) + srcbase_open_fds(&e->b);
		return 0;
	default:
		return srcbase_control(&e->b, what, arg);
	}
}

static void bpf_free(struct bpfsource *e)
{
	if (!e)
		return;
	state_close(e);
	srcbase_fini(&e->b);
	free(e);
}

static void bpf_close(struct source *s)
{
	bpf_free(of(s));
}

static const struct source_ops bpfsource_ops = {.name = "bpf",
						.caps = SRC_CAN_COUNT | SRC_CAN_ACT,
						.tick = bpf_tick,
						.totals = bpf_totals,
						.model = bpf_model,
						.control = bpf_control,
						.free = bpf_close};

struct source *bpfsource_new(const struct evset *set, const struct srcopts *o, int *err)
{
	struct bpfsource *e = calloc(1, sizeof(*e));
	*err = -ENOMEM;
	if (!e)
		return NULL;
	e->src.ops = &bpfsource_ops;
	if (srcbase_init(&e->b, set, o))
		goto fail;
	if (o->scope == SCOPE_PIDS && srcbase_pid_gone(&e->b)) {
		*err = -ESRCH;
		goto fail;
	}
	e->tree = o->scope == SCOPE_PIDS && o->enable_on_exec && o->inherit && o->npids == 1;
	if ((*err = state_open(e, NULL, 0)) != 0)
		goto fail;
	e->b.m.backend = "bpf";
	const char *give_up = getenv("PMUTOP_TEST_BPF_GIVE_UP");
	e->give_up = give_up ? strtoul(give_up, NULL, 10) : 0;
	srcbase_start_clock(&e->b);
	state_rebase(e);
	srcbase_baseline(&e->b);
	*err = 0;
	return &e->src;
fail:
	bpf_free(e);
	return NULL;
}

const char *bpfsource_why(int err)
{
	switch (err) {
	case -ENOTSUP:
		return "pmutop was built without BPF (PMUTOP_BPF=OFF)";
	case -E2BIG:
		return "it counts 24 events at most";
	case -ENOEXEC:
		return "the kernel refused its program or maps as too large for this event set";
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

static bool bpf_can(const struct srcopts *o, bool named)
{
	return named ? o->scope != SCOPE_CGROUPS : o->scope == SCOPE_ALL;
}

const struct source_kind bpfsource_kind = {.name = "bpf",
					   .what = "per task",
					   .flags = SOURCE_BACKEND | SOURCE_GIVES_UP,
					   .can = bpf_can,
					   .open = bpfsource_new,
					   .why = bpfsource_why};
