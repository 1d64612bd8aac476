/* The table of tasks being counted: threads grouped into processes, found by id in
 * O(1). Each task carries its open groups and its previous raw totals. */
#ifndef PMUTOP_TASKTAB_H
#define PMUTOP_TASKTAB_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "counts.h"
#include "procfs.h"
#include "procinfo.h"
#include "value.h"

enum task_state {
	TASK_LIVE,
	TASK_EXITING, /* the kernel said it exited: read it once more */
	TASK_EXITED,  /* shown with its final values this tick; freed at the next */
};

struct proc;

/* What a tick reads of a task or process that sleeps (probe_read_tasks in probe.c,
 * rowbuild_rows in rowbuild.c) is in their first 40 and 64 bytes: one or two cache
 * lines, not three. */
struct task {
	pid_t tid;
	enum task_state state;
	struct task *sibling; /* next thread of the same process */
	struct counts c;      /* its probe first */
	struct proc *proc;
	struct task *hnext; /* hash chain */
	bool seen;	    /* found by the last /proc scan */
	bool fd_short;	    /* groups not opened for lack of descriptors */
	bool counted;	    /* at least one group opened */
	bool vanished;	    /* gone before its groups could open: no rows */
	bool enable_on_exec;
	bool run_known;	 /* run_ns holds a sample (fd-short tasks only) */
	uint64_t run_ns; /* time on a CPU at the last sample, from /proc */
	char comm[PROCFS_COMM_MAX];
	/* A command's tree (procacct.c): its accounting read when it was seen ended and
	 * not yet reaped, the last there will be. */
	bool have_final;
	struct procfs_acct final;
};

/* A watched process's whole-process counters: its groups opened with inherit on one of
 * the threads it had when watching began. Every thread started later, however briefly
 * it lives, counts into the root of the thread that started it (as perf stat -p counts),
 * so the process row is exact while thread rows count from when each thread is seen. */
enum root_state {
	ROOT_LIVE,
	ROOT_FINAL, /* read for the last time this tick, closed */
	ROOT_DONE,  /* adds nothing any more */
};

struct root {
	pid_t tid;
	enum root_state state;
	struct counts c;
};

struct proc {
	pid_t pid;
	uid_t uid;
	bool kthread;
	bool exited;	/* every thread has exited */
	bool keep;	/* watched: stays, with its totals, after it exits */
	bool ignored;	/* not ours to count (another user's): no groups, no row */
	bool rooted;	/* its row is the sum of its roots, not of its threads */
	bool tot_clean; /* every live event's tot_why is WHY_NONE (rowbuild.c) */
	bool tree;	/* a watched command or one of its descendants (cmdtree.c) */
	bool multi;	/* watched (-p), with a second thread seen: each thread has its own
			   groups and row (targets_single) */
	/* A tree's command: its threads' own groups are open (cmdtree.c), and make its
	 * row once read (own) instead of its roots. */
	bool own_open, own;
	unsigned nroots;
	uid_t user_uid; /* the uid user names */
	struct task *threads;
	struct proc *next; /* all processes, in discovery order */
	struct root *roots;
	uint64_t asleep_tick; /* the last tick its rows were built asleep (rowbuild.c) */
	const char *user;     /* its owner's name (procfs_user_name), or NULL */
	/* The first cache line ends here. */
	const char *cgroup; /* its cgroup v2 path (interned, engine's), or NULL */
	struct proc *hnext;
	struct proc *prevp;
	struct val_delta *tot; /* per event: raw totals over the whole run */
	uint8_t *tot_why;      /* per event: WHY_NONE once any thread counted it */
	/* per event: parts summed (ena) and parts that should have counted and did not
	 * (run), over the run's ticks, and the first one's reason (val): its totals are
	 * partial when any did not */
	struct val_delta *tot_parts;
	unsigned nthreads;
	pid_t ppid;	   /* its parent when first seen (/proc, or the process it forked from) */
	uint64_t rss_kb;   /* resident memory when it last ran (procfs_proc_mem) */
	char state;	   /* its state then */
	bool have_sched;   /* cpu_ns and nice read (procfs_proc_now) */
	int nice;	   /* then */
	uint64_t cpu_ns;   /* its CPU time so far, then */
	char *cmdline;	   /* its arguments (engine_set_cmdline), or NULL: not read */
	uint64_t cmd_hash; /* of the comm the cmdline was read under: an exec reads again */
	char comm[PROCFS_COMM_MAX];

	/* PRI, VIRT, SHR and the interval's I/O (procinfo_more_*) */
	struct mproc_more more;
	struct procinfo_io io;

	uint64_t start_ticks; /* when it started (/proc), 0 unknown (seen by its fork) */
};

struct tasktab;

struct tasktab *tasktab_new(const struct counts_layout *l);
const struct counts_layout *tasktab_layout(const struct tasktab *t);
/* Reallocate each process's totals for nevents, keeping event old_of_new[i] (or zero
 * when -1). Tasks' counters are the caller's to move. Returns 0 or -ENOMEM. */
int tasktab_set_layout(struct tasktab *t, const struct counts_layout *l, const int *old_of_new);
void tasktab_free(struct tasktab *t);

struct task *tasktab_find(const struct tasktab *t, pid_t tid);
struct proc *tasktab_find_proc(const struct tasktab *t, pid_t pid);
/* Add thread tid of process pid (creating the process). NULL when out of memory. */
struct task *tasktab_add(struct tasktab *t, pid_t pid, pid_t tid);
/* Unlink and free a task; its process goes with its last thread unless kept. */
void tasktab_remove(struct tasktab *t, struct task *task);

/* A new root of p on thread tid, its counters zeroed and closed. NULL when out of
 * memory. Roots are freed (and closed) with their process. */
struct root *tasktab_add_root(struct tasktab *t, struct proc *p, pid_t tid);
/* Free every root of p (closing them). */
void tasktab_drop_roots(struct tasktab *t, struct proc *p);

struct proc *tasktab_first(const struct tasktab *t);
unsigned tasktab_tasks(const struct tasktab *t);
unsigned tasktab_procs(const struct tasktab *t);

#endif
