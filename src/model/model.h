/* The model: what one tick measured, as a const view for the screen and the writers.
 * Rows hold per-interval values already scaled for multiplexing; nothing here knows
 * about file descriptors or curses. */
#ifndef PMUTOP_MODEL_H
#define PMUTOP_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "value.h"

/* Roles of the built-in events, so that built-in columns can find their inputs. */
enum ev_role {
	ROLE_NONE = 0,
	ROLE_TASK_CLOCK,
	ROLE_CS,
	ROLE_MIGRATIONS,
	ROLE_FAULTS,
	ROLE_MAJ_FAULTS,
	ROLE_CYCLES, /* in the IPC group */
	ROLE_INSNS,  /* in the IPC group */
	ROLE_CACHE_REFS,
	ROLE_CACHE_MISSES,
	ROLE_CACHE_INSNS, /* instructions counted beside the cache events (for MPKI) */
	ROLE_BRANCHES,
	ROLE_BRANCH_MISSES,
	ROLE_BRANCH_INSNS,
	ROLE_COUNT
};

/* One event of the configured set. */
struct mevent {
	const char *name; /* as the user wrote it */
	const char *key;  /* unique in the set: name, or name#GROUP when it repeats */
	unsigned group;	  /* group index */
	unsigned member;  /* member within its group */
	enum ev_role role;
	uint8_t status; /* worst open status seen for it (enum val_why; WHY_NONE = ok) */
	bool hardware;	/* needs a PMU counter (not a software event) */
	/* Hybrid CPUs: a generic event is counted once per core PMU ("cycles[cpu_core]",
	 * "cycles[cpu_atom]", real members of their groups), and a logical event ("cycles")
	 * sums them per target. A logical event is no group member: group is its first
	 * instance's group, and sum[] are the instances' event indices. */
	bool logical;
	unsigned nsum;
	unsigned sum[4];
};

struct mgroup {
	unsigned first; /* index of its first event in model.events */
	unsigned n;
	bool user; /* chosen by the user (-e, or added on the screen) */
};

enum row_kind { ROW_PROC, ROW_THREAD, ROW_CPU, ROW_CGROUP };

/* A process's I/O, as its /proc/PID/io says. */
enum mproc_io {
	MIO_NA = 0, /* not readable (another user's process without root, not read): n/a */
	MIO_FIRST,  /* read once: no interval yet */
	MIO_OK,	    /* io_rd and io_wr are this interval's */
};

/* What /proc says of a process beside its counters, for htop's PRI, VIRT, SHR and I/O
 * columns: read as it ran (a replay has none). */
struct mproc_more {
	bool have_prio, have_virt, have_shr;
	int prio;	  /* PRI: the kernel's priority (20 + nice for normal tasks) */
	uint64_t virt_kb; /* virtual memory */
	uint64_t shr_kb;  /* resident shared memory (file-backed and shmem) */
	uint8_t io;	  /* enum mproc_io */
	uint64_t io_rd;	  /* bytes it caused to be read from storage this interval */
	uint64_t io_wr;	  /* and written (read_bytes, write_bytes) */
};

struct mrow {
	enum row_kind kind;
	pid_t pid;  /* process id (ROW_PROC/ROW_THREAD) */
	pid_t tid;  /* thread id (ROW_THREAD; == pid for ROW_PROC) */
	pid_t ppid; /* parent process (ROW_PROC, ROW_THREAD), when the source knows it */
	int cpu;    /* ROW_CPU */
	uid_t uid;
	const char *user;     /* user name, or the uid as text */
	const char *comm;     /* raw command name: sanitise before it reaches a terminal */
	const char *cmdline;  /* its arguments, raw, when the source read them (the screen's
				 c), else NULL; a kernel thread's is "" */
	const char *instance; /* the Prometheus target the row came from (--prometheus),
				 else NULL; job: its scrape job */
	const char *job;
	const char *cgroup; /* cgroup v2 path relative to the cgroup2 root ("/" for the
			       root; ROW_CGROUP: the cgroup itself), NULL when unknown or for
			       CPU rows */
	unsigned nthreads;
	uint64_t rss_kb;	   /* resident memory when it last ran (processes), 0 unknown */
	uint64_t start_ticks;	   /* when the process started, in clock ticks after boot (as
				      /proc's stat), 0 unknown: with pid, who it is */
	char state;		   /* its state as /proc says (R, S, D, T, Z, I), '\0' unknown */
	bool have_sched;	   /* cpu_ns and nice read from /proc (not in a replay) */
	int nice;		   /* its nice value (-20 .. 19) when it last ran */
	uint64_t cpu_ns;	   /* CPU time so far, user and system, as /proc says (top's
				      TIME+): the process's whole life, not this run's */
	struct mproc_more more;	   /* ROW_PROC: PRI, VIRT, SHR, I/O */
	bool exited;		   /* the task ended during this interval; final values */
	bool kthread;		   /* a kernel thread */
	bool subtree;		   /* the screen's tree: a folded process summed with its
				      descendants (a row of its own for the history) */
	double cpu_pct;		   /* ROW_CPU: busy % from /proc/stat (-1 unreadable, -2 no time
				      went by); tasks: -1 (see the CPU% column: task-clock) */
	double cpu_split[3];	   /* ROW_CPU with cpu_pct >= 0: its user (and nice), system
				      (and irq) and steal %, parts of cpu_pct; all 0 when not read */
	const struct val *v;	   /* one per model event */
	const struct val_delta *g; /* one per group: its enabled/running deltas (val unused) */
};

struct model {
	/* Header. pmus, notice, paused and exit_status are set by whoever knows them (pmutop's
	 * composition on the live engine's model, the recording on a replayed one), never
	 * through the source. */
	const char *hostname;
	const char *kernel; /* release, as uname -r */
	int ncpus;
	const char *pmus;	   /* PMUs in use, comma separated */
	const char *notice;	   /* one line: why hardware counters are missing, or NULL */
	const char *source_notice; /* the source's own line on what it could not count (its
				      BPF task map full), or NULL; see model_notice_text */
	double interval;	   /* configured interval, seconds */
	double elapsed;		   /* seconds this interval really lasted (CLOCK_MONOTONIC) */
	double time;		   /* seconds since start */
	uint64_t tick;		   /* 1, 2, ... ; 0 before the first complete interval */
	bool paused;
	bool user_only;	    /* hardware events exclude kernel mode */
	bool threads;	    /* thread rows present */
	bool fleet;	    /* rows are many hosts' (instance and job set: --prometheus) */
	bool remote;	    /* rows are one other host's, hostname (--connect) */
	bool final;	    /* totals over the whole run (the watched command exited) */
	int exit_status;    /* with final and a watched command: its wait status as
			       waitpid gives it; -1 otherwise (see model_exit_text) */
	unsigned ntasks;    /* tasks being counted */
	unsigned nfd_short; /* tasks not counted for lack of descriptors */
	/* fleet: its targets answering their scrapes, and not; its rows of commands or
	 * (fleet_cgroups) of cgroups, a down target's one "[target down]" row left out */
	unsigned fleet_up, fleet_down, fleet_rows;
	bool fleet_cgroups;

	unsigned nevents;
	const struct mevent *events;
	unsigned ngroups;
	const struct mgroup *groups;

	unsigned nrows; /* process rows, each followed by its thread rows if any */
	const struct mrow *rows;
	unsigned ncpu_rows;
	const struct mrow *cpu_rows;
	/* Cgroups the source counted themselves for cgroup rows (ROW_CGROUP, cgroup set):
	 * their values stand for the sum of their process rows (cgrows.h). */
	unsigned ncg_rows;
	const struct mrow *cg_rows;

	/* The machine at this tick, as /proc says (the htop meters); have_*: false when not
	 * read (unreadable, or a replay, whose recording has none of it). */
	struct msys {
		bool have_mem, have_load, have_uptime;
		bool have_running;
		unsigned nr_running; /* tasks runnable now, machine-wide (/proc/loadavg) */
		uint64_t mem_total_kb, mem_avail_kb, swap_total_kb, swap_free_kb;
		double load[3];
		double uptime; /* seconds since boot */
		double boot;   /* when it booted, seconds since the epoch; 0 unknown */
		long clk_tck;  /* clock ticks a second (start_ticks'), 0 unknown */
	} sys;

	const char *backend; /* how tasks are counted: "bpf" or "perf"; NULL: not said */

	/* The chosen metrics (metricbind.h), computed per row from the row's values by the
	 * Top-down and Metrics panes' columns; NULL: none. Set, like pmus, by whoever knows
	 * them. Not const: it keeps where it found each metric's events in this model. */
	struct metric_bind *metrics;
};

/* A source's storage behind a model's rows (process and thread rows, or CPU rows): rows
 * with their values, grown as needed and reused from tick to tick. Sinks never see it:
 * they read the const model; a source writes a row through mstore_row's handle and
 * publishes by pointing its model's rows at the store's (and setting nrows). Zeroed, it
 * is empty; mstore_free(NULL) is a no-op. */
struct mstore {
	struct mrow *rows;
	struct val *vals;      /* cap * nevents */
	struct val_delta *gds; /* cap * ngroups */
	size_t cap;
	unsigned nevents, ngroups;
};

/* One row to write: its identity, its values and its groups' times, all writable. */
struct mrow_w {
	struct mrow *r;
	struct val *v;	     /* nevents */
	struct val_delta *g; /* ngroups */
};

/* Room for n rows of nevents values and ngroups groups. A change of either empties the
 * store first. Returns the first row whose values are new (the caller's to fill: n/a
 * cells that never change, say), cap when none are, or -ENOMEM (the store as it was). */
long mstore_reserve(struct mstore *s, size_t n, unsigned nevents, unsigned ngroups);
/* Row i (< cap) as a handle: the row zeroed but for its value pointers, cpu and cpu_pct
 * -1. Its values are left as they were. */
struct mrow_w mstore_row(struct mstore *s, size_t i);
/* The handle of row i without clearing it. */
struct mrow_w mstore_at(struct mstore *s, size_t i);
void mstore_free(struct mstore *s);

/* Index of the event playing role, or -1. */
int model_role(const struct model *m, enum ev_role role);

/* "exit 0", "exit 3", "killed by SIGKILL" for m->exit_status into buf, or "" when there
 * is none. Returns buf. */
const char *model_exit_text(const struct model *m, char *buf, unsigned len);
/* htop's "Tasks: N, M thr, K kthr; R running" over the model's rows: processes, their
 * threads beside the first, kernel threads (exited rows left out), cgroup rows (those
 * with a path); running is the machine's (sys.nr_running), -1 when unknown. */
struct model_tasks {
	unsigned procs, threads, kthreads;
	unsigned cgroups; /* cgroup rows (G, -G): a cgroup each */
	long running;
};
void model_tasks(const struct model *m, struct model_tasks *t);

/* The notice a sink shows: m->notice and m->source_notice, "; " between them, into buf,
 * or "" when there is neither. Returns buf. */
const char *model_notice_text(const struct model *m, char *buf, unsigned len);

#endif
