/* The engine's insides, the private header of source/perf: engine.c (new, free, the
 * tick's outline, setters), engine_set.c (event set layout and switches), targets.c (one
 * target's groups), discover.c (finding tasks), cmdtree.c (a watched command's tree),
 * fdbudget.c (out of descriptors), probe.c (reads and the idle probe), rowbuild.c
 * (rows) and cpurows.c (CPU rows). Outside the folder, source/bpf/bpfsource.c (the bpf
 * backend's rows) and source/cgroup/cgcount.c (-G: cgroups counted themselves) include
 * it too, until each source owns its state. */
#ifndef PMUTOP_ENGINE_PRIV_H
#define PMUTOP_ENGINE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "counts.h"
#include "engine.h"
#include "evset.h"
#include "evstatus.h"
#include "model.h"
#include "rowfill.h"
#include "source.h"

struct cmdtree;
struct proc;
struct procfs_task;
struct taskwatch;
struct tasktab;

#define MAX_CPUS 4096

struct cpuset {
	int n;
	int *id;
	struct counts *cnt; /* n */
	int maxid;
	int stat_fd;
	uint64_t *busy, *total, *pbusy, *ptotal; /* indexed by CPU number */
	uint64_t *part, *ppart;			 /* user, system, steal: 3 per CPU number */
};

/* Tasks a scan found, opened once it ends (pending_open() in discover.c). */
struct pending_task {
	struct task *t;
	int cpu;	/* the CPU it last ran on */
	bool rt;	/* runnable under a real-time policy there */
	double busy;	/* its share of a CPU since it started: the busiest go first */
	unsigned order; /* found order, kept within a CPU */
};

struct pending {
	bool on; /* a scan is running: note new tasks here */
	unsigned n, cap;
	struct pending_task *t;
};

/* The perf path, the bpf backend and -G: one struct source each (engine.c's ops), over
 * what they share: the event layout, the CPUs, the model and its rows. */
struct engine {
	struct source src; /* first: the ops of the backend engine_new chose */
	const struct evset *set;
	struct engine_opts o;
	pid_t *pids;
	struct tasktab *tab;
	struct taskwatch *watch;
	bool rescan;
	bool fds_freed;
	bool roots; /* watched processes count through roots (tasktab.h) */
	/* -- COMMAND counting its children (not -i), where roots inherit: each process of
	 * its tree gets rows of its own (proc.tree), the command's roots count the whole
	 * tree for its total, and once it has started a process (tree_split) its threads
	 * count for its row. NULL otherwise. */
	struct cmdtree *ctree;
	bool tree_split; /* the command started a process: its threads count for its row */
	bool cmdline;	 /* rows carry their process's arguments (engine_set_cmdline) */
	int reserve_fd;	 /* held for /proc reads when descriptors run out */
	struct pending pending;
	double last_balance; /* when descriptors last went to the busiest tasks */
	struct counts_layout l;
	unsigned *slot;	       /* per group: offset of its ena in a prev block */
	struct val_delta *acc; /* per event: one process's sums, reused */
	uint8_t *acc_why;
	uint8_t *rootable;	 /* per group: software events only, so roots may hold it */
	uint8_t *acc_fresh;	 /* per group: FRESH_FIRST_READ while every part is */
	uint64_t *res_ena;	 /* per group: a task row's enabled times (hybrid_residency) */
	struct val_delta *res_d; /* per event: a task row's deltas with those times */
	/* Events the start-up probe found this machine cannot count (every hardware event on
	 * a VM without a PMU): n/a in every task row, written once per row array, never
	 * read, summed or scaled per tick. */
	uint8_t *dead;	/* per event */
	uint8_t *gdead; /* per group: every member dead */
	unsigned *live; /* the other events, in order */
	unsigned nlive;

	/* The set, dead, gdead and live above: what the shared row writer reads. */
	struct rowfill fill;

	int probe_g;	   /* the group led by task-clock (its leader is probed), or -1 */
	unsigned probe_ev; /* with probe_g: its task-clock's event index */
	bool map_probe;	   /* probes' pages mapped (evgroup_seq_works()) */
	bool logical;	   /* the set has hybrid sums (hybrid_fold has work) */
	unsigned nexited;  /* tasks set TASK_EXITED since free_exited() last ran */
	unsigned *acc_ok;
	unsigned *acc_miss; /* per event: parts of the sum that should have counted and did not */
	uint8_t *acc_miss_why;
	struct cpuset cpu;
	double start, last; /* evclock_now() */
	double began;	    /* this engine's own start: later than start when it took over */
	bool totals;
	bool paused; /* engine_set_paused */
	/* The bpf backend started over within this interval (new events, user-only mode):
	 * what it read counted only since, so the next tick's task rows read n/c
	 * (starting). */
	bool bpf_restarted;
	/* PMUTOP_TEST_BPF_GIVE_UP=N (tests): the backend gives up at its Nth tick, as if its
	 * program could no longer be read, for the app's swap to perf to be tested. 0: no. */
	unsigned long bpf_give_up;

	struct cgroup_names *cgnames; /* the cgroup paths rows point to; NULL: no cgroup2 */
	struct cgroup_ids *cgids;     /* with cgnames: cgroup ids to those paths */
	struct cgcount {
		unsigned n;
		struct counts *cnt; /* n * cpu.n: cgroup i on CPU c at i * cpu.n + c */
		struct {
			char s[96];
		} * names; /* cgroup_name of each */
	} cg;		   /* SCOPE_CGROUPS (cgcount.c) */
	/* --cgroups with perf (cgcount.c): each cgroup holding a process row, and its
	 * ancestors, counted per CPU as -G counts them, for the model's cg_rows. */
	struct cgown {
		bool on;       /* o.cgroup_rows, where it can be had */
		bool opening;  /* targets_open is opening a cgroup's counters */
		char mnt[512]; /* the cgroup2 mount, read once (out of descriptors, it
				  could not be read again), or "" */
		unsigned n, cap;
		struct cgone {
			const char *path;   /* interned in cgnames */
			struct counts *cnt; /* cpu.n, NULL when not open */
			bool fd_short;	    /* could not be opened: out of descriptors */
			bool gone;	    /* could not be opened: removed already */
			bool seen;	    /* its directory still there at the last check */
		} * c;
		struct mstore rows;
	} cgo;
	struct bpfsource *bpf; /* the bpf backend (bpfsource.c), or NULL: perf's */
	struct model m;
	struct mstore rows; /* m.rows: processes and threads */
	struct mstore cpus; /* m.cpu_rows */
	char hostname[65];
	char kernel[160];
};

static inline unsigned engine_ngroups(const struct engine *e)
{
	return e->set->specs.n;
}

int engine_layout(struct engine *e, const struct evset *set);
/* The event set's layout switched (engine_set_evset's work for every backend): groups
 * that stay keep their descriptors; the bpf backend then starts over. */
int engine_switch_set(struct engine *e, const struct evset *set);
/* The arrays engine_layout sizes for a set, freed. */
void engine_layout_free(struct engine *e);
/* After a tick: every task row's value n/c (starting) when the bpf backend started over
 * within the interval. */
void engine_set_restart_rows(struct engine *e);
int engine_open_group(struct engine *e, unsigned g, pid_t pid, int cpu, bool on_exec, bool root,
		      struct counts *c);
/* Group g is left to the roots on a watched process's threads (no thread rows; never in
 * a command's tree, whose rows count themselves). */
bool engine_lean_group(const struct engine *e, unsigned g);
/* Open a root of p on thread tid: every group it holds, or (gmap) only those gmap marks -1. */
struct root *engine_add_root(struct engine *e, struct proc *p, pid_t tid, bool on_exec,
			     const int *gmap);
int engine_cpu_rows_alloc(struct engine *e);

/* targets.c: one target's groups (a task, a root, a CPU with pid -1). */
int targets_open(struct engine *e, pid_t pid, int cpu, bool on_exec, struct counts *c);
void targets_close(struct engine *e, struct counts *c);
void targets_task_open(struct engine *e, struct task *t);
void targets_root_proc(struct engine *e, struct proc *p);
void targets_read_roots(struct engine *e, struct proc *p);
void targets_read(struct engine *e, struct counts *c);
/* Reopen every target's hardware groups the way each opened them (user-only mode
 * changed); software groups keep counting. */
void targets_reopen_hw(struct engine *e);

enum val_why targets_why(enum ev_status st);

/* bpfsource.c: the bpf backend's rows, from per-CPU counters summed per task in BPF. */
int bpfsource_open(struct engine *e);
/* Open again on the engine's current set and options (history restarts). */
int bpfsource_restart(struct engine *e);
void bpfsource_close(struct engine *e);
void bpfsource_tick(struct engine *e);
void bpfsource_totals(struct engine *e);
void bpfsource_rebase(struct engine *e);
bool bpfsource_watched_alive(const struct engine *e);
unsigned bpfsource_open_fds(const struct engine *e);

/* discover.c: tasks found by /proc scans and task records. */
void discover_cgroup(struct engine *e, struct proc *p);
void discover_scan(struct engine *e);
void discover_free_exited(struct engine *e);
void discover_tick(struct engine *e);
/* Scan process pid's threads (a watched process, or one of a command's tree). */
void discover_scan_proc(struct engine *e, pid_t pid);
/* A single-threaded process first seen, as info (its /proc stat) has it. */
struct task *discover_task_new(struct engine *e, pid_t pid, const struct procfs_task *info);
bool discover_pid_gone(struct engine *e);
/* SCOPE_PIDS with perf: a watched process has a live thread. */
bool discover_watched_alive(const struct engine *e);
/* -- COMMAND: its task, opened to count from its exec. 0 or -ENOMEM. */
int discover_command(struct engine *e);
/* Task records from each CPU (taskwatch), or none (e->watch NULL): /proc scans only. */
void discover_watch_open(struct engine *e);
/* 0 when each watched process is there to count, -ESRCH or -EACCES (o.failed_pid). */
int discover_check_watched(struct engine *e);

/* cmdtree.c: a command's tree, its descendants found by their parents in /proc. */
struct cmdtree *cmdtree_new(void);
void cmdtree_free(struct cmdtree *c);
/* At each scan: the tree's known processes scanned, new ones whose parent is in it added
 * (proc.tree). */
void cmdtree_scan(struct engine *e);

/* fdbudget.c: descriptors kept aside for /proc, a start-up budget for the busiest, the
 * balance that follows and retries when descriptors are freed. */
void fdbudget_reserve_release(struct engine *e);
void fdbudget_reserve_take(struct engine *e);
void fdbudget_pending(struct engine *e);
void fdbudget_retry(struct engine *e);
void fdbudget_balance(struct engine *e);
/* Whether need more descriptors can be opened with room left for the tasks' counters
 * and for /proc. */
bool fdbudget_room(const struct engine *e, unsigned long need);
/* Descriptors of the perf groups (tasks, roots, CPUs, cgroups). */
unsigned fdbudget_open_fds(const struct engine *e);

/* probe.c: every task's reads, skipping those the probe finds asleep. */
const volatile uint32_t *probe_seq(const struct engine *e, const struct counts *c);
void probe_read_tasks(struct engine *e);
/* Every group read, as the first interval's start or a resume's (resume: what the pause
 * counted goes into the totals). */
void probe_baseline(struct engine *e, bool resume);

/* rowbuild.c: rows from counts (rowbuild_fill: one row's values from raw deltas). */
void rowbuild_fill(struct engine *e, const struct val_delta *d, const uint8_t *why,
		   const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live);
bool rowbuild_asleep(const struct engine *e, const struct proc *p);
void rowbuild_acc_add(struct engine *e, const struct counts *c, int sel);
unsigned rowbuild_sum_proc(struct engine *e, struct proc *p, bool add_tot, bool *all_exited);
void rowbuild_rows(struct engine *e, bool add_tot);

/* cgcount.c: -G, each cgroup counted per CPU in cgroup mode. */
int cgcount_open(struct engine *e);
void cgcount_tick(struct engine *e);
void cgcount_close(struct engine *e);
/* --cgroups with perf: the cgroups of the tick's process rows opened (those that can be,
 * within the descriptors left), every open one read into the model's cg_rows. */
void cgcount_rows_tick(struct engine *e);
/* Every cgroup's counters closed (off, a new event layout, the end). */
void cgcount_rows_close(struct engine *e);
/* The reads the next interval counts from. */
void cgcount_rows_baseline(struct engine *e);
/* At start-up, before the baseline: the cgroups of the processes found, opened when
 * o.cgroup_rows asks (every process, perf, allowed to count them all). */
void cgcount_rows_start(struct engine *e);

/* cpurows.c: per-CPU groups and busy time. */
int cpurows_open(struct engine *e);
void cpurows_tick(struct engine *e);
void cpurows_close(struct engine *e);

#endif
