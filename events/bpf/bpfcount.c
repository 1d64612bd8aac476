/* The bpf backend's loader (libbpf, with the skeleton bpftool generates at build time):
 * per-CPU groups into the program's perf-event array, the program attached to
 * sched_switch, folds on every CPU and reads of the per-task map's entries written since the
 * last read (the program lists them), all of them in batches where it cannot say. */
#include "bpfcount.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evgroup.h"
#include "pmutop.skel.h"
#include "tidhash.h"

struct bpfcount {
	struct pmutop_bpf *skel;
	int ncpus;
	int *cpus;
	unsigned ngroups, nev;
	struct evgroup **grp;		  /* ncpus * ngroups: CPU i's group g at i * ngroups + g */
	uint8_t status[PMUTOP_BPF_MAXEV]; /* per event: its first failure */
	bool counts[PMUTOP_BPF_MAXEV];	  /* per event: open on some CPU */
	bool at_switch[PMUTOP_BPF_MAXEV]; /* per event: context switches */
	bool clock[PMUTOP_BPF_MAXEV];	  /* per event: task-clock or cpu-clock */
	uint8_t slot[PMUTOP_BPF_MAXEV];	  /* per event: its slot, NO_SLOT when none counts it */
	unsigned nslot;
	size_t vsize; /* a task's value: PMUTOP_BPF_TASK_SIZE(nslot) */
	unsigned max_tasks;
	unsigned fds;
	int tasks_fd, stats_fd, fold_fd;
	unsigned *keys;		       /* max_tasks */
	void *vals;		       /* max_tasks values of vsize */
	struct pmutop_bpf_task *one;   /* a value of vsize (seed) */
	unsigned long long *percpu;    /* one per possible CPU */
	struct pmutop_bpf_last *lasts; /* one per possible CPU */
	int last_fd;
	int npossible;
	/* on_arrive is loaded but waits for a switch not seen (bpfcount_read_cpus) */
	bool arrive_later;
	/* The entries read (img of them at keys, vals), kept between ticks: a tick reads
	 * again those the program listed as written (pmutop_bpf_list), the others keep
	 * their values. tid -> index in keys: open addressing, 1 << hbits cells, UINT_MAX
	 * free. */
	size_t img;
	unsigned *hash;
	unsigned hbits;
	struct pmutop_bpf_list *lists; /* the program's, mapped: npossible */
	size_t lists_len;
	unsigned list_cap;
	unsigned *seen; /* per possible CPU: its list of the last tick read, as far as read */
	unsigned *want; /* tids listed, to read (nwant of them, room for cap_want) */
	size_t nwant, cap_want;
	bool folded;	/* the tick's epoch closed by a fold, its lists not read yet */
	bool full;	/* the next read reads every entry */
	uint64_t nfull; /* reads of every entry */
};

#define NO_SLOT 0xff

/* libbpf would print its warnings on stderr: the caller says what failed instead. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static unsigned count_fds(void)
{
	unsigned n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 0;
	for (struct dirent *de; (de = readdir(d));)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Counted from the kernel clock by the program rather than read (pmutop.bpf.h: t_in). */
static bool is_clock(const struct evdesc *d)
{
	return d->attr.type == PERF_TYPE_SOFTWARE && (d->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
						      d->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static bool is_at_switch(const struct evdesc *d)
{
	return d->attr.type == PERF_TYPE_SOFTWARE &&
	       d->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES;
}

/* The task's own counter an event is counted from (pmutop.bpf.h: PMUTOP_BPF_K_*), or -1
 * for one read from the per-CPU counters. */
static int own_kind(const struct evdesc *d)
{
	if (d->attr.type != PERF_TYPE_SOFTWARE)
		return -1;
	if (d->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES)
		return PMUTOP_BPF_K_SWITCHES;
	if (d->attr.config == PERF_COUNT_SW_CPU_MIGRATIONS)
		return PMUTOP_BPF_K_MIGRATIONS;
	return -1;
}

/* The tracepoint at the end of __schedule (Linux 6.16 and later): a raw tracepoint of
 * that name opens, for an empty program attached for the moment of the call. Looking its
 * type up in vmlinux BTF instead took a parse of the whole BTF (7-11 ms of the start-up
 * here), which libbpf then parses again to load. */
static int has_sched_exit(void)
{
	const struct bpf_insn ret0[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	int prog = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL, "GPL", ret0, 2, NULL);
	if (prog < 0)
		return prog;
	int link = bpf_raw_tracepoint_open("sched_exit_tp", prog);
	if (link >= 0)
		close(link);
	close(prog);
	/* Only its absence says no: out of descriptors or memory, the load fails as such. */
	return link >= 0 ? 1 : link == -ENOENT ? 0 : link;
}

static int load(struct bpfcount *b, const struct evspec_list *specs, bool tree)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		return -ENOENT;
	b->skel = pmutop_bpf__open();
	if (!b->skel)
		return errno ? -errno : -EINVAL;
	struct pmutop_bpf *s = b->skel;
	s->rodata->nslot = b->nslot;
	unsigned ev = 0, nlive = 0, nclock = 0, nown = 0, ntimed = 0;
	bool hw = false; /* a live event read with its times */
	for (unsigned g = 0; g < specs->n; g++) {
		unsigned src = PMUTOP_BPF_MAXEV; /* the slot of the group's first live member
						    read: its times are the group's */
		/* Software events only: enabled and running are the slice's clock time. */
		bool sw = true;
		for (unsigned k = 0; k < specs->g[g].n; k++)
			sw = sw && specs->g[g].ev[k].attr.type == PERF_TYPE_SOFTWARE;
		for (unsigned k = 0; k < specs->g[g].n; k++, ev++) {
			const struct evdesc *d = &specs->g[g].ev[k];
			b->at_switch[ev] = is_at_switch(d);
			bool clock = is_clock(d);
			int kind = own_kind(d);
			b->clock[ev] = clock;
			unsigned char i = b->slot[ev];
			if (i == NO_SLOT)
				continue;
			s->rodata->at_switch[i] = b->at_switch[ev];
			if (!clock && kind < 0 && src == PMUTOP_BPF_MAXEV)
				src = i;
			s->rodata->time_of[i] = (unsigned char)(src < PMUTOP_BPF_MAXEV ? src : i);
			if (clock) {
				s->rodata->clock[nclock++] = i;
			} else if (kind >= 0) {
				s->rodata->own_kind[nown] = (unsigned char)kind;
				s->rodata->own_ev[nown++] = i;
			} else {
				s->rodata->live[nlive++] = i;
				s->rodata->by_clock[i] = sw;
				hw = hw || !sw;
				if (sw)
					s->rodata->timed[ntimed++] = i;
			}
		}
	}
	s->rodata->nlive = nlive;
	s->rodata->nclock = nclock;
	s->rodata->nown = nown;
	s->rodata->ntimed = ntimed;
	s->rodata->want_win = hw && nclock;
	int arrive = has_sched_exit();
	if (arrive < 0)
		return arrive;
	bpf_program__set_autoload(s->progs.on_arrive, arrive);
	bpf_program__set_autoload(s->progs.on_fork, tree);
	/* A switch window to measure at each arrival, or none until the kernel is found
	 * not reporting some switch (one program a switch where it reports them all). */
	b->arrive_later = arrive && !s->rodata->want_win;
	unsigned keys = (unsigned)b->npossible * b->nslot;
	int err = bpf_map__set_max_entries(s->maps.counters, keys ? keys : 1);
	if (!err)
		err = bpf_map__set_max_entries(s->maps.tasks, b->max_tasks);
	if (!err)
		err = bpf_map__set_value_size(s->maps.tasks, (unsigned)b->vsize);
	if (!err)
		err = bpf_map__set_value_size(s->maps.blank, (unsigned)b->vsize);
	if (!err)
		err = bpf_map__set_max_entries(s->maps.listed, (unsigned)b->npossible);
	s->rodata->list_cap = b->list_cap;
	if (!err)
		err = pmutop_bpf__load(s);
	if (err)
		/* -E2BIG here is not the set's size: the verifier's "program too large", or a
		 * map the kernel would not create (libbpf unloads all, so which is not known). */
		return err == -EACCES ? -EPERM : err == -E2BIG ? -ENOEXEC : err;
	b->tasks_fd = bpf_map__fd(s->maps.tasks);
	b->stats_fd = bpf_map__fd(s->maps.stats);
	b->last_fd = bpf_map__fd(s->maps.last);
	b->fold_fd = bpf_program__fd(s->progs.fold);
	b->lists_len = (size_t)b->npossible * sizeof(*b->lists);
	void *m = mmap(NULL, b->lists_len, PROT_READ, MAP_SHARED, bpf_map__fd(s->maps.listed), 0);
	if (m == MAP_FAILED)
		return -errno;
	b->lists = m;
	return 0;
}

/* Each CPU's groups, before the program is loaded: which events opened decides what it
 * reads. */
static int open_counters(struct bpfcount *b, const struct evspec_list *specs,
			 const struct bpfcount_opts *o)
{
	for (int i = 0; i < b->ncpus; i++) {
		unsigned ev = 0;
		for (unsigned g = 0; g < b->ngroups; g++) {
			struct evgroup_opts go = {.pid = -1,
						  .cpu = b->cpus[i],
						  .user_only = o->user_only,
						  .no_kernel = o->no_kernel,
						  .preset = o->preset ? o->preset[g] : NULL};
			struct evgroup **eg = &b->grp[i * b->ngroups + g];
			int err = evgroup_open(&specs->g[g], &go, eg);
			if (!*eg)
				return err ? err : -ENOMEM;
			if (err == -EMFILE || err == -ENFILE)
				return err;
			for (unsigned k = 0; k < specs->g[g].n; k++, ev++) {
				enum ev_status st = evgroup_status(*eg, k);
				if (b->status[ev] == EVS_OK)
					b->status[ev] = (uint8_t)st;
				b->counts[ev] = b->counts[ev] || st == EVS_OK;
			}
		}
	}
	return 0;
}

/* The counters into the program's perf-event array, at key cpu * nslot + slot. */
static int fill_counters(struct bpfcount *b)
{
	int map = bpf_map__fd(b->skel->maps.counters);
	for (int i = 0; i < b->ncpus; i++) {
		unsigned ev = 0;
		for (unsigned g = 0; g < b->ngroups; g++) {
			const struct evgroup *eg = b->grp[i * b->ngroups + g];
			for (unsigned k = 0; k < evgroup_members(eg); k++, ev++) {
				int fd = evgroup_member_fd(eg, k);
				unsigned key = (unsigned)b->cpus[i] * b->nslot + b->slot[ev];
				if (fd >= 0 && b->slot[ev] != NO_SLOT &&
				    bpf_map_update_elem(map, &key, &fd, BPF_ANY))
					return -errno;
			}
		}
	}
	return 0;
}

int bpfcount_open(const struct evspec_list *specs, const struct bpfcount_opts *o,
		  struct bpfcount **out)
{
	*out = NULL;
	unsigned nev = 0;
	for (unsigned g = 0; g < specs->n; g++)
		nev += specs->g[g].n;
	if (nev > PMUTOP_BPF_MAXEV)
		return -E2BIG;
	if (nev == 0 || o->ncpus <= 0)
		return -EINVAL;
	libbpf_set_print(quiet);
	unsigned fds0 = count_fds();
	struct bpfcount *b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->ncpus = o->ncpus;
	b->ngroups = specs->n;
	b->nev = nev;
	b->max_tasks = o->max_tasks ? o->max_tasks : 16384;
	b->list_cap = o->list_cap && o->list_cap < PMUTOP_BPF_LIST ? o->list_cap : PMUTOP_BPF_LIST;
	b->full = true; /* the first read: the map's entries seeded since the attach */
	b->npossible = libbpf_num_possible_cpus();
	int err = -ENOMEM;
	if (b->npossible <= 0)
		goto fail;
	b->cpus = calloc((size_t)o->ncpus, sizeof(*b->cpus));
	b->grp = calloc((size_t)o->ncpus * specs->n, sizeof(*b->grp));
	b->keys = calloc(b->max_tasks, sizeof(*b->keys));
	b->percpu = calloc((size_t)b->npossible, sizeof(*b->percpu));
	b->lasts = calloc((size_t)b->npossible, sizeof(*b->lasts));
	b->seen = calloc((size_t)b->npossible, sizeof(*b->seen));
	b->cap_want = 2 * (size_t)b->max_tasks;
	b->want = calloc(b->cap_want, sizeof(*b->want));
	b->hbits = 4;
	while (((size_t)1 << b->hbits) < 2 * (size_t)b->max_tasks)
		b->hbits++;
	b->hash = malloc(((size_t)1 << b->hbits) * sizeof(*b->hash));
	if (!b->cpus || !b->grp || !b->keys || !b->percpu || !b->lasts || !b->seen || !b->want ||
	    !b->hash)
		goto fail;
	memcpy(b->cpus, o->cpus, (size_t)o->ncpus * sizeof(*b->cpus));
	for (int i = 0; i < o->ncpus; i++)
		if (o->cpus[i] >= b->npossible) {
			err = -EINVAL;
			goto fail;
		}
	if ((err = open_counters(b, specs, o)) != 0)
		goto fail;
	/* A slot for each event opened on some CPU, in order: the tasks' values are as big
	 * as the set counted. */
	for (unsigned ev = 0; ev < nev; ev++)
		b->slot[ev] = b->counts[ev] ? (uint8_t)b->nslot++ : NO_SLOT;
	b->vsize = PMUTOP_BPF_TASK_SIZE(b->nslot);
	err = -ENOMEM;
	b->vals = calloc(b->max_tasks, b->vsize);
	b->one = calloc(1, b->vsize);
	if (!b->vals || !b->one)
		goto fail;
	if ((err = load(b, specs, o->tree)) != 0 || (err = fill_counters(b)) != 0)
		goto fail;
	b->skel->links.on_switch = bpf_program__attach(b->skel->progs.on_switch);
	b->skel->links.on_exit = bpf_program__attach(b->skel->progs.on_exit);
	b->skel->links.on_exec = bpf_program__attach(b->skel->progs.on_exec);
	if (o->tree)
		b->skel->links.on_fork = bpf_program__attach(b->skel->progs.on_fork);
	bool arrive = bpf_program__autoload(b->skel->progs.on_arrive) && !b->arrive_later;
	if (arrive)
		b->skel->links.on_arrive = bpf_program__attach(b->skel->progs.on_arrive);
	if (!b->skel->links.on_switch || !b->skel->links.on_exit || !b->skel->links.on_exec ||
	    (o->tree && !b->skel->links.on_fork) || (arrive && !b->skel->links.on_arrive)) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	/* Each CPU's first read is its baseline: counted from here on. */
	if ((err = bpfcount_fold(b)) != 0)
		goto fail;
	unsigned fds1 = count_fds();
	b->fds = fds1 > fds0 ? fds1 - fds0 : 0;
	*out = b;
	return 0;
fail:
	bpfcount_free(b);
	return err;
}

void bpfcount_free(struct bpfcount *b)
{
	if (!b)
		return;
	if (b->lists)
		munmap(b->lists, b->lists_len);
	pmutop_bpf__destroy(b->skel);
	for (size_t i = 0; b->grp && i < (size_t)b->ncpus * b->ngroups; i++)
		evgroup_free(b->grp[i]);
	free(b->grp);
	free(b->cpus);
	free(b->keys);
	free(b->vals);
	free(b->one);
	free(b->percpu);
	free(b->lasts);
	free(b->seen);
	free(b->want);
	free(b->hash);
	free(b);
}

enum ev_status bpfcount_status(const struct bpfcount *b, unsigned ev)
{
	if (ev >= b->nev)
		return EVS_INVALID;
	/* Hybrid CPUs: a core PMU's event opens on its own kind of CPU only. */
	return b->counts[ev] ? EVS_OK : (enum ev_status)b->status[ev];
}

int bpfcount_seed(struct bpfcount *b, pid_t tid, pid_t tgid, uid_t uid, unsigned flags,
		  const char *comm)
{
	struct pmutop_bpf_task *v = b->one;
	memset(v, 0, b->vsize);
	v->tgid = (unsigned)tgid;
	v->uid = uid;
	v->flags = flags;
	strncpy(v->comm, comm, sizeof(v->comm) - 1);
	unsigned key = (unsigned)tid;
	b->full = true; /* in no list: the next read reads every entry */
	if (bpf_map_update_elem(b->tasks_fd, &key, v, BPF_NOEXIST) == 0)
		return 0;
	int err = errno == ENOMEM || errno == E2BIG ? -E2BIG : -errno;
	/* Entered by a switch since the attach: a command still, or what it forks is lost. */
	unsigned add = flags & (PMUTOP_BPF_TREE | PMUTOP_BPF_PRE_EXEC);
	if (err == -EEXIST && add && bpf_map_lookup_elem(b->tasks_fd, &key, v) == 0) {
		v->flags |= add;
		bpf_map_update_elem(b->tasks_fd, &key, v, BPF_EXIST);
	}
	return err;
}

bool bpfcount_at_switch(const struct bpfcount *b, unsigned ev)
{
	return ev < b->nev && b->at_switch[ev];
}

bool bpfcount_is_clock(const struct bpfcount *b, unsigned ev)
{
	return ev < b->nev && b->clock[ev];
}

int bpfcount_slot(const struct bpfcount *b, unsigned ev)
{
	return ev < b->nev && b->slot[ev] != NO_SLOT ? b->slot[ev] : -1;
}

size_t bpfcount_value_size(const struct bpfcount *b)
{
	return b->vsize;
}

/* The tids of list p of CPU c's lists from entry from on into want; false when they do not
 * all fit (in the list or in want): every entry is read then. */
static bool want_listed(struct bpfcount *b, const struct pmutop_bpf_list *l, unsigned p,
			unsigned from, unsigned n)
{
	if (n > b->list_cap || b->nwant + (n > from ? n - from : 0) > b->cap_want)
		return false;
	for (unsigned i = from; i < n; i++)
		b->want[b->nwant++] = l->tid[p][i];
	return true;
}

/* CPU c's list of epoch e (the one of its two with e's parity): true and its length in
 * *n if it is e's, false if it still holds an older epoch's (nothing listed in e). */
static bool list_of(const struct bpfcount *b, int c, unsigned e, unsigned *n)
{
	const struct pmutop_bpf_list *l = &b->lists[c];
	if (__atomic_load_n(&l->tag[e & 1], __ATOMIC_ACQUIRE) != e)
		return false;
	*n = __atomic_load_n(&l->n[e & 1], __ATOMIC_ACQUIRE);
	return true;
}

/* Before a tick's epoch is closed: what the last tick's lists gained after they were read
 * (a program that read the epoch just before the fold closed it, and listed its task
 * after), while no program writes them yet. */
static void want_late(struct bpfcount *b)
{
	unsigned e = b->skel->data->epoch - 1;
	for (int c = 0; e && c < b->npossible; c++) {
		unsigned n;
		if (!list_of(b, c, e, &n))
			continue;
		if (n > b->seen[c] && !want_listed(b, &b->lists[c], e & 1, b->seen[c], n))
			b->full = true;
		b->seen[c] = n;
	}
}

/* The next epoch, never 0 (a blank entry's). */
static void next_epoch(struct bpfcount *b)
{
	unsigned e = b->skel->data->epoch;
	__atomic_store_n(&b->skel->data->epoch, e == UINT_MAX ? 1 : e + 1, __ATOMIC_SEQ_CST);
}

int bpfcount_fold(struct bpfcount *b)
{
	/* The lists of one epoch are read at a time: a second fold before a read (its
	 * epoch's lists not read) makes that read read every entry. */
	if (b->folded) {
		b->full = true;
	} else if (b->lists) {
		want_late(b);
		next_epoch(b);
		b->folded = true;
	}
	for (int i = 0; i < b->ncpus; i++) {
		struct bpf_test_run_opts opts = {.sz = sizeof(opts),
						 .flags = BPF_F_TEST_RUN_ON_CPU,
						 .cpu = (unsigned)b->cpus[i]};
		int err = bpf_prog_test_run_opts(b->fold_fd, &opts);
		/* A CPU that went offline has nothing running to fold. */
		if (err && err != -ENXIO)
			return err;
	}
	return 0;
}

/* The index in keys of tid, or SIZE_MAX; *cell: its cell, or the free one it would take. */
static size_t img_find(const struct bpfcount *b, unsigned tid, size_t *cell)
{
	return tidhash_find(b->hash, b->hbits, b->keys, tid, cell);
}

static void img_rehash(struct bpfcount *b)
{
	memset(b->hash, 0xff, ((size_t)1 << b->hbits) * sizeof(*b->hash));
	for (size_t i = 0; i < b->img; i++) {
		size_t c;
		if (img_find(b, b->keys[i], &c) == SIZE_MAX)
			b->hash[c] = (unsigned)i;
	}
}

/* Entry at of the image (in hash cell cell) out of it, in a step: out of the hash, and
 * the image's last entry takes its place. */
static void img_remove(struct bpfcount *b, size_t at, size_t cell)
{
	b->img = tidhash_take(b->hash, b->hbits, b->keys, b->img, at, cell);
	if (at != b->img)
		memcpy((char *)b->vals + at * b->vsize, (char *)b->vals + b->img * b->vsize,
		       b->vsize);
}

/* Every entry, in batches: the image made again. */
static int read_all(struct bpfcount *b)
{
	struct bpf_map_batch_opts opts = {.sz = sizeof(opts)};
	size_t got = 0;
	unsigned batch = 0; /* where the next batch starts: read, then written */
	void *inp = NULL;
	for (;;) {
		__u32 count = (__u32)(b->max_tasks - got);
		if (count == 0)
			break;
		int err = bpf_map_lookup_batch(b->tasks_fd, inp, &batch, b->keys + got,
					       (char *)b->vals + got * b->vsize, &count, &opts);
		got += count;
		if (err == -ENOENT)
			break;
		if (err) {
			b->img = 0;
			img_rehash(b);
			b->full = true;
			return err;
		}
		inp = &batch;
	}
	b->img = got;
	img_rehash(b);
	b->nfull++;
	return 0;
}

/* The entries listed (want) into the image: a new one at its end. */
static void read_listed(struct bpfcount *b)
{
	for (size_t i = 0; i < b->nwant; i++) {
		unsigned tid = b->want[i];
		if (bpf_map_lookup_elem(b->tasks_fd, &tid, b->one) != 0)
			continue; /* forgotten since it was listed */
		size_t c, at = img_find(b, tid, &c);
		if (at == SIZE_MAX) {
			if (b->img == b->max_tasks)
				continue; /* cannot be: the map holds max_tasks */
			at = b->img++;
			b->keys[at] = tid;
			b->hash[c] = (unsigned)at;
		}
		memcpy((char *)b->vals + at * b->vsize, b->one, b->vsize);
	}
}

int bpfcount_read(struct bpfcount *b, const unsigned **tids, const void **vals, size_t *n)
{
	/* The epoch the last fold closed: its lists are whole (the programs that wrote in it
	 * ran before the fold on their CPU), and the late ones' were read before it. */
	unsigned e = b->skel->data->epoch - 1;
	if (!b->folded)
		b->full = true; /* the epoch read is still open */
	for (int c = 0; b->folded && c < b->npossible; c++) {
		unsigned k = 0;
		if (list_of(b, c, e, &k) && !b->full && !want_listed(b, &b->lists[c], e & 1, 0, k))
			b->full = true;
		b->seen[c] = k;
	}
	/* And those of the epoch the fold opened, so far: the tick's fold lists the task it
	 * finds running there, and a switch between the epoch's opening and the fold on its
	 * CPU lists there too. Read now, they are read again at the next tick (the run's
	 * last has none). */
	for (int c = 0; b->folded && !b->full && c < b->npossible; c++) {
		unsigned k;
		if (list_of(b, c, e + 1, &k) && !want_listed(b, &b->lists[c], (e + 1) & 1, 0, k))
			b->full = true;
	}
	b->folded = false;
	int err = 0;
	if (b->full) {
		b->full = false;
		err = read_all(b);
	} else {
		read_listed(b);
	}
	b->nwant = 0;
	*tids = b->keys;
	*vals = b->vals;
	*n = b->img;
	return err;
}

int bpfcount_forget(struct bpfcount *b, const unsigned *tids, size_t n)
{
	struct bpf_map_batch_opts opts = {.sz = sizeof(opts)};
	__u32 count = (__u32)n;
	if (n == 0)
		return 0;
	if (bpf_map_delete_batch(b->tasks_fd, tids, &count, &opts) != 0)
		for (size_t i = count; i < n; i++)
			bpf_map_delete_elem(b->tasks_fd, &tids[i]);
	/* Out of the image too: each in a step, whatever the image's size. */
	for (size_t i = 0; i < n; i++) {
		size_t c, at = img_find(b, tids[i], &c);
		if (at != SIZE_MAX)
			img_remove(b, at, c);
	}
	return 0;
}

/* The arrival program attached once some CPU found a switch not seen: from then on a
 * task brought in by one has its slice counted whole. */
static int arrive_if_unseen(struct bpfcount *b)
{
	if (!b->arrive_later || !b->skel->links.on_switch)
		return 0;
	unsigned long long gaps = 0;
	for (int i = 0; i < b->npossible; i++)
		gaps += b->lasts[i].gaps;
	if (!gaps)
		return 0;
	b->skel->links.on_arrive = bpf_program__attach(b->skel->progs.on_arrive);
	if (!b->skel->links.on_arrive)
		return errno ? -errno : -EINVAL;
	b->arrive_later = false;
	b->fds++;
	return 0;
}

uint64_t bpfcount_full_reads(const struct bpfcount *b)
{
	return b->nfull;
}

int bpfcount_read_cpus(struct bpfcount *b, const struct pmutop_bpf_last **cpus, int *n)
{
	unsigned key = 0;
	if (bpf_map_lookup_elem(b->last_fd, &key, b->lasts))
		return -errno;
	int err = arrive_if_unseen(b);
	if (err)
		return err;
	*cpus = b->lasts;
	*n = b->npossible;
	return 0;
}

int bpfcount_stop(struct bpfcount *b)
{
	/* Every program the kernel runs: an exit's fold (and a command's exec's) reads the
	 * counters too, and one after the picture was taken gives its task what the CPU's
	 * sums were read without. */
	struct bpf_link **links[] = {&b->skel->links.on_switch, &b->skel->links.on_arrive,
				     &b->skel->links.on_exit, &b->skel->links.on_exec,
				     &b->skel->links.on_fork};
	int err = 0;
	b->arrive_later = false;
	for (size_t i = 0; i < sizeof(links) / sizeof(*links); i++) {
		int e = bpf_link__destroy(*links[i]);
		*links[i] = NULL;
		err = err ? err : e;
	}
	return err;
}

uint64_t bpfcount_lost(const struct bpfcount *b)
{
	unsigned key = PMUTOP_BPF_LOST;
	if (bpf_map_lookup_elem(b->stats_fd, &key, b->percpu))
		return 0;
	uint64_t n = 0;
	for (int i = 0; i < b->npossible; i++)
		n += b->percpu[i];
	return n;
}

unsigned bpfcount_max_tasks(const struct bpfcount *b)
{
	return b->max_tasks;
}

unsigned bpfcount_open_fds(const struct bpfcount *b)
{
	return b->fds;
}
