/* The engine's insides, the private header of source/perf (no file outside the folder
 * includes it): engine.c (new, free, the tick's outline, controls), perfset.c (the
 * event set's layout and switches), targets.c (one target's groups), discover.c (finding
 * tasks), cmdtree.c (a watched command's tree), fdbudget.c (out of descriptors), probe.c
 * (reads and the idle probe), rowbuild.c (rows) and cgown.c (--cgroups' rows). What every
 * source shares (the layout, the CPUs, the model) is source/base's srcbase.h. */
#ifndef PMUTOP_ENGINE_PRIV_H
#define PMUTOP_ENGINE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine.h"
#include "srcbase.h"

struct cmdtree;
struct proc;
struct procfs_task;
struct taskwatch;
struct tasktab;

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

/* The perf path: each task counted by groups of its own (or a watched process's by
 * roots that inherit), over the state every counting source has (srcbase.h). */
struct engine {
	struct source src; /* first: perf's ops (engine.c) */
	struct srcbase b;
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
	int reserve_fd;	 /* held for /proc reads when descriptors run out */
	struct pending pending;
	double last_balance; /* when descriptors last went to the busiest tasks */
	uint8_t *rootable;   /* per group: software events only, so roots may hold it */
	int probe_g;	     /* the group led by task-clock (its leader is probed), or -1 */
	unsigned probe_ev;   /* with probe_g: its task-clock's event index */
	bool map_probe;	     /* probes' pages mapped (evgroup_seq_works()) */
	unsigned nexited;    /* tasks set TASK_EXITED since discover_free_exited() last ran */
	/* --cgroups (cgown.c): each cgroup holding a process row, and its ancestors, counted
	 * per CPU as -G counts them, for the model's cg_rows. */
	struct cgown {
		bool on;       /* o.cgroup_rows, where it can be had */
		char mnt[512]; /* the cgroup2 mount, read once (out of descriptors, it
				  could not be read again), or "" */
		unsigned n, cap;
		struct cgone {
			const char *path;   /* interned in cgnames */
			struct counts *cnt; /* cpu.n, NULL when not open */
			bool fd_short;	    /* could not be opened: out of descriptors */
			bool gone;	    /* could not be opened: removed already */
		} * c;
		struct mstore rows;
	} cgo;
};

static inline unsigned engine_ngroups(const struct engine *e)
{
	return e->b.set->specs.n;
}

/* perfset.c: the layout's part that is perf's (roots' groups, the probe), and a new
 * event set: groups that stay keep their descriptors. */
int perfset_layout(struct engine *e, const struct evset *set);
int perfset_switch(struct engine *e, const struct evset *set);
void perfset_layout_free(struct engine *e);

/* targets.c: one target's groups (a task, a root). */
int targets_open_group(struct engine *e, unsigned g, pid_t pid, int cpu, bool on_exec, bool root,
		       struct counts *c);
/* Group g is left to the roots on a watched process's threads (no thread rows; never in
 * a command's tree, whose rows count themselves). */
bool targets_lean_group(const struct engine *e, unsigned g);
/* A watched process (-p) with one thread: its roots count the thread, which opens no
 * group of theirs and has no row of its own (the process row is its). */
bool targets_single(const struct engine *e, const struct proc *p);
/* Group g is left to the roots on p's threads (targets_lean_group, or p single). */
bool targets_lean_task(const struct engine *e, const struct proc *p, unsigned g);
/* t was added to its process: a watched process's second thread gives every thread
 * groups and rows of their own. */
void targets_thread_added(struct engine *e, struct task *t);
/* Open a root of p on thread tid: every group it holds, or (gmap) only those gmap marks -1. */
struct root *targets_add_root(struct engine *e, struct proc *p, pid_t tid, bool on_exec,
			      const int *gmap);
int targets_open(struct engine *e, const struct proc *p, pid_t pid, int cpu, bool on_exec,
		 struct counts *c);
void targets_close(struct engine *e, struct counts *c);
void targets_task_open(struct engine *e, struct task *t);
void targets_root_proc(struct engine *e, struct proc *p);
void targets_read_roots(struct engine *e, struct proc *p);
/* Reopen every target's hardware groups the way each opened them (user-only mode
 * changed); software groups keep counting. */
void targets_reopen_hw(struct engine *e);

/* discover.c: tasks found by /proc scans and task records. */
void discover_cgroup(struct engine *e, struct proc *p);
void discover_scan(struct engine *e);
void discover_free_exited(struct engine *e);
void discover_tick(struct engine *e);
/* Scan process pid's threads (a watched process, or one of a command's tree). */
void discover_scan_proc(struct engine *e, pid_t pid);
/* A single-threaded process first seen, as info (its /proc stat) has it. */
struct task *discover_task_new(struct engine *e, pid_t pid, const struct procfs_task *info);
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

/* procacct.c: a command's tree counted by the kernel's per-task accounting. */
/* Group g is counted on the tree's tasks from /proc: a command's tree (ctree), every
 * event of g one whose /proc count equals perf's (context switches, page faults; not
 * cpu-migrations, which sched counts at each move and perf at the next switch in). */
bool procacct_group(const struct engine *e, unsigned g);
/* Group g of thread tid from /proc from now (its values' start): no descriptor. 0, or
 * -ESRCH when it is gone. */
int procacct_open(struct engine *e, unsigned g, pid_t tid, struct counts *c);
/* Group g of c counts from /proc already (a thread row's, -H). */
bool procacct_counting(const struct engine *e, const struct counts *c, unsigned g);
/* This interval's deltas of t's /proc groups (after srcbase_read). */
void procacct_read(struct engine *e, struct task *t);
/* Before a rescan (the command ended, not yet reaped): what its ended tasks counted, kept
 * for the reads that find them reaped. */
void procacct_final(struct engine *e);

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
/* Out of descriptors for need more (a cgroup's counters): the least busy counted tasks
 * give theirs up (n/c (fd limit)) until they fit, or none is left to. */
void fdbudget_make_room(struct engine *e, unsigned long need);
/* Descriptors of the perf groups (tasks, roots, CPUs, cgroups). */
unsigned fdbudget_open_fds(const struct engine *e);

/* probe.c: every task's reads, skipping those the probe finds asleep. */
const volatile uint32_t *probe_seq(const struct engine *e, const struct counts *c);
void probe_read_tasks(struct engine *e);
/* Every group read, as the first interval's start or a resume's (resume: what the pause
 * counted goes into the totals). */
void probe_baseline(struct engine *e, bool resume);

/* rowbuild.c: rows from counts (srcbase_fill: one row's values from raw deltas). */
bool rowbuild_asleep(const struct engine *e, const struct proc *p);
unsigned rowbuild_sum_proc(struct engine *e, struct proc *p, bool add_tot, bool *all_exited);
void rowbuild_rows(struct engine *e, bool add_tot);

/* cgown.c: --cgroups with perf. */
/* The cgroups of the tick's process rows opened (those that can be, within the
 * descriptors left), every open one read into the model's cg_rows. */
void cgown_tick(struct engine *e);
/* Every cgroup's counters closed (off, a new event layout). */
void cgown_close(struct engine *e);
/* ... and the rest freed, at the end. */
void cgown_free(struct engine *e);
/* The reads the next interval counts from. */
void cgown_baseline(struct engine *e);
/* At start-up, before the baseline: the cgroups of the processes found, opened when
 * o.cgroup_rows asks (every process, perf, allowed to count them all). */
void cgown_start(struct engine *e);
/* The rows asked for or not (SRC_CGROUP_ROWS). */
void cgown_set(struct engine *e, bool on);
/* Descriptors of the cgroups' counters. */
unsigned cgown_open_fds(const struct engine *e);

#endif
