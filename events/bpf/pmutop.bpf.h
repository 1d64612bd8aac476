/* What the BPF program (pmutop.bpf.c) and its loader (bpfcount.c) share: the layout of
 * the per-task map's values. Plain C types only: both sides include it. */
#ifndef PMUTOP_BPF_SHARED_H
#define PMUTOP_BPF_SHARED_H

/* Events one set may count under the bpf backend (bpfcount_open says -E2BIG past it). */
#define PMUTOP_BPF_MAXEV 24
#define PMUTOP_BPF_COMM 16

/* flags of a task's value */
#define PMUTOP_BPF_DEAD 1u	/* its last slice is in: it switched out as TASK_DEAD */
#define PMUTOP_BPF_KTHREAD 2u	/* a kernel thread */
#define PMUTOP_BPF_EXITING 4u	/* past sched_process_exit: perf's counters of it are closed */
#define PMUTOP_BPF_TREE 8u	/* a watched command's, or forked by a task of its tree */
#define PMUTOP_BPF_PRE_EXEC 16u /* a command before its exec: counted from it, as perf does */
#define PMUTOP_BPF_KBASE 32u	/* kbase holds its own counters as first seen */

/* The task's own counters the kernel keeps (task_struct), counted from them rather than
 * from the per-CPU counters: they equal perf's per-task counts (docs/PERFORMANCE.md). */
enum {
	PMUTOP_BPF_K_SWITCHES = 0, /* nvcsw + nivcsw: context-switches */
	PMUTOP_BPF_K_MIGRATIONS,   /* se.nr_migrations: cpu-migrations */
	PMUTOP_BPF_NK
};

struct pmutop_bpf_ev {
	unsigned long long val, ena, run;
};

/* Per task (keyed by tid): its sums since the entry was made. The program writes it
 * while the loader reads it: tgid 0 is an entry still being made (its identity is not
 * whole yet), and PMUTOP_BPF_DEAD is set after everything else. It has one ev[] slot per
 * event counted (opened on some CPU), not PMUTOP_BPF_MAXEV: the map's values are
 * PMUTOP_BPF_TASK_SIZE(slots) bytes, set by the loader, and the reader copies those
 * written since its last read (epoch, pmutop_bpf_list) at each tick. */
struct pmutop_bpf_task {
	unsigned int tgid;
	unsigned int flags;
	unsigned int uid;
	unsigned int missed;  /* its slices that a switch not seen ended: nothing of them known */
	unsigned int cut;     /* its slices that a switch not seen began: all but its own switch
				 at their end went to unattr */
	unsigned int slices;  /* its slices that a seen switch ended (cut ones included) */
	unsigned int exitsw;  /* its own switches once exiting: in no task's sums (perf -p does
				 not count them), in its cgroup's (perf -G does) */
	unsigned int exitmig; /* its migrations once exiting: as exitsw (perf -G counts them) */
	unsigned int epoch;   /* the tick it was last written in, listed then (pmutop_bpf_list) */
	/* The clock time of the switches that brought it in (from sched_switch to the end of
	 * __schedule), measured where a hardware event and a clock are counted (want_win):
	 * the hardware event's count holds it, perf -p's does not. */
	unsigned long long win;
	unsigned long long cgid; /* its cgroup v2 id as it last left a CPU (or was read) */
	/* Its own counters (PMUTOP_BPF_K_*) when first seen, or at its exec: an event
	 * counted from them is "now minus kbase" (PMUTOP_BPF_KBASE), whatever switches the
	 * program did not see; but migrations, counted as perf does (one a slice that began
	 * after a move), whose kbase is the kernel's count at the program's last look. */
	unsigned long long kbase[PMUTOP_BPF_NK];
	char comm[PMUTOP_BPF_COMM];
	struct pmutop_bpf_ev ev[]; /* per slot */
};

/* The size of a task's value with n slots. */
#define PMUTOP_BPF_TASK_SIZE(n)                                                                    \
	(sizeof(struct pmutop_bpf_task) + (n) * sizeof(struct pmutop_bpf_ev))

/* Per CPU (indexed by slot, as the tasks' ev[]): each counter as last read there, the task the last
 * seen switch brought in (cur), and what the counters counted there that went to no task's sums:
 * the idle task's slices (idle), and unattr, each gap between a switch that brought cur in and one
 * that took another task out (a switch the program did not see: hidden by the kernel, or missed), a
 * task not in the map (full), the switches of exiting tasks and a command's counts before its exec,
 * which perf does not count for them either. The counters' deltas since the first read (ev - base)
 * are the sums of every task plus idle plus unattr. */
struct pmutop_bpf_last {
	struct pmutop_bpf_ev ev[PMUTOP_BPF_MAXEV];
	struct pmutop_bpf_ev base[PMUTOP_BPF_MAXEV]; /* ev at the CPU's first read */
	struct pmutop_bpf_ev idle[PMUTOP_BPF_MAXEV];
	struct pmutop_bpf_ev unattr[PMUTOP_BPF_MAXEV];
	unsigned int primed;
	unsigned int cur;
	unsigned int busy; /* an arrival's read under way (interrupts on): folds wait */
	/* The last read's by_clock events read (a bit each), and the slot whose times it read
	 * last: kept here, not in the program's registers, for the verifier to see the paths
	 * of each event read (read or not) as one, and check the program in time linear in
	 * the events, not exponential. */
	unsigned int read, timed_src;
	unsigned long long gaps; /* switches not seen, as found */
	/* Clock events (task-clock, cpu-clock) are not read from the counters: cur's slice
	 * is the kernel clock from t_in (the switch that brought it in, or its arrival at
	 * the end of __schedule when that switch was not seen) to the switch that takes it
	 * out: perf switches a task's counters in a little after the first and out a little
	 * after the second (docs/PERFORMANCE.md, issue 40). */
	unsigned long long t_in;
	unsigned long long win; /* the window of cur's arrival, not yet in its entry (win) */
};

/* Per CPU: the tasks whose entries were written in a tick (epoch), each listed once a tick
 * by the first write (its entry's epoch then set to the tick's), for the reader to look
 * up those alone. Two lists, by the epoch's parity: the one of the tick being read, and the
 * one being written. n past the list's room (the loader's list_cap): more tasks ran there
 * than it holds, and the reader reads every entry for that tick. */
#define PMUTOP_BPF_LIST 2048
struct pmutop_bpf_list {
	unsigned int tag[2]; /* the epoch each list is of */
	unsigned int n[2];
	unsigned int tid[2][PMUTOP_BPF_LIST];
};

/* Per-CPU statistics slots */
enum { PMUTOP_BPF_LOST = 0, PMUTOP_BPF_NSTATS = 2 };

#endif
