/* The counter engine: finds the tasks to count, opens their groups, reads every group
 * once per tick, and turns raw totals into the model's scaled per-interval values. */
#ifndef PMUTOP_ENGINE_H
#define PMUTOP_ENGINE_H

#include <stdbool.h>
#include <sys/types.h>

#include "evset.h"
#include "model.h"
#include "source.h"

struct engine;

enum engine_scope {
	SCOPE_ALL,     /* every process on the machine */
	SCOPE_PIDS,    /* only the given processes, with their threads */
	SCOPE_CGROUPS, /* only the given cgroups, per CPU in perf's cgroup mode (-G): rows
			  of kind ROW_CGROUP, no task */
};

struct engine_opts {
	const char *root; /* prefix for /proc and /sys ("" on a live system) */
	enum engine_scope scope;
	const pid_t *pids; /* SCOPE_PIDS */
	unsigned npids;
	const int *cgroup_fds;		 /* SCOPE_CGROUPS: each cgroup's open directory */
	const char *const *cgroup_paths; /* and its path relative to the cgroup2 root */
	unsigned ncgroups;
	bool threads;	 /* thread rows in the model */
	bool per_cpu;	 /* count per-CPU groups too */
	const int *cpus; /* -C: only these CPUs for per-CPU rows and -G (NULL: all online) */
	int ncpus;
	bool no_cpu_rows; /* nothing shows CPU rows (batch without --per-cpu): no
			     /proc/stat read per tick, model.ncpu_rows 0 */
	bool user_only;	  /* hardware events exclude kernel mode */
	bool no_kernel;	  /* every event excludes kernel mode (not allowed to count it) */
	bool only_uid;	  /* SCOPE_ALL: only processes of uid (not allowed to count others) */
	uid_t uid;
	bool enable_on_exec; /* SCOPE_PIDS: the processes are about to exec (pmutop -- CMD) */
	bool inherit;	     /* count children forked later into their parent (--children) */
	bool map_probes;     /* probe sleeping tasks through a mapped page (a page pinned per
				task: with CAP_IPC_LOCK, past the user's perf_event_mlock_kb
				budget, which they use up first; see pmutop(1), FILES) */
	bool bpf;	     /* the bpf backend: per-CPU counters summed per task in BPF
				(SCOPE_ALL, or SCOPE_PIDS filtered by process id) */
	int *bpf_err;	     /* with bpf: where engine_new says why BPF could not be used
				(-errno, see engine_bpf_why), or NULL */
	unsigned bpf_tasks;  /* with bpf: entries of its task map; 0 sizes it from the tasks
				there are (tests give a small one) */
	bool cgroup_rows;    /* SCOPE_ALL with perf: the model's cg_rows (engine_set_cgroup_rows) */
	double interval;
	/* Taking over from another source mid-run: when the run started (evclock_now()'s
	 * clock) and the ticks it counted, which the model's time and tick go on from. */
	double start;
	unsigned long tick;
	pid_t *failed_pid; /* where engine_new says which watched pid failed, or NULL */
};

/* Why the bpf backend could not start, in words, for engine_new's *o->bpf_err. */
const char *engine_bpf_why(int err);

/* Create the engine: tasks are found and their groups opened. The set must outlive the
 * engine. Returns NULL with *err set: -ESRCH when a watched pid does not exist, -EACCES
 * when it may not be counted (o->failed_pid says which), -ENOMEM. */
struct engine *engine_new(const struct evset *set, const struct engine_opts *o, int *err);
void engine_free(struct engine *e);
/* The engine as a source (source.h): "perf", "bpf" or "cgroup" as engine_new chose, each
 * with its own tick, totals and controls; source_close frees the engine. The engine_*
 * calls below are the same ops, for tests and benchmarks. */
struct source *engine_source(struct engine *e);

/* Read every group once and build the model for the interval since the last tick. */
int engine_tick(struct engine *e);
const struct model *engine_model(const struct engine *e);

/* Totals over the whole run instead of the last interval (for a watched command's end). */
void engine_totals(struct engine *e);

/* True while any watched process (SCOPE_PIDS) has a live thread. */
bool engine_watched_alive(const struct engine *e);
/* The group whose task-clock leader is read alone for tasks that did not run (a
 * software-only group, in a set no event of which counts into a sleeping task), or -1. */
int engine_probe_group(const struct engine *e);
/* Whether the last tick wrote process pid's rows without summing its counters: every
 * thread was probed asleep (see build_asleep in rowbuild.c). For tests. */
bool engine_built_asleep(const struct engine *e, pid_t pid);
/* How many tasks (of process pid, or of all with 0) have their probe's page mapped.
 * For tests. */
unsigned engine_mapped_probes(const struct engine *e, pid_t pid);

void engine_set_threads(struct engine *e, bool on);
/* Cgroup rows are shown (--cgroups, the screen's G): with perf and every process, each
 * cgroup holding a process row, and its ancestors, is counted per CPU in perf's cgroup
 * mode, as -G counts it (processes born and gone between ticks included), into the
 * model's cg_rows from the next tick (n/c (starting) at its first), a cgroup the
 * descriptors left cannot count n/c (fd limit). Elsewhere nothing changes: the bpf
 * backend's rows already hold every task, and -p's rows are the processes'. */
void engine_set_cgroup_rows(struct engine *e, bool on);
/* Read each process's arguments (model rows' cmdline) from now on: once a process, and
 * again after an exec. */
void engine_set_cmdline(struct engine *e, bool on);
void engine_set_interval(struct engine *e, double interval);
/* Paused, nothing is read; at the resume every group is read and the next interval
 * counts from then (the model's paused is the composition's to set). */
void engine_set_paused(struct engine *e, bool paused);
/* Reopen every group with or without kernel mode on hardware events. */
int engine_set_user_only(struct engine *e, bool on);
/* Count set from now on (it must outlive the engine; the old set may be freed once this
 * returns). Groups equal to one of the old set keep their descriptors and history; new
 * ones open on every target; dropped ones close. Rows come back at the next tick. */
int engine_set_evset(struct engine *e, const struct evset *set);

/* Look for new tasks now (and, for watched processes, their names after an exec). */
void engine_rescan(struct engine *e);

/* Descriptors the engine holds (for benchmarks and the fd-limit logic). */
unsigned engine_open_fds(const struct engine *e);

#endif
