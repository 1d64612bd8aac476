/* What every counting source (the perf path, the bpf backend, -G) has alike, and nothing
 * of any one of them: the options, the event set's layout and the row writer's inputs,
 * the CPUs with their counters and busy time, the cgroup names rows point to, the model
 * and its row stores, and the tick's clock. Each source embeds a struct srcbase after its
 * struct source and calls these; none reaches into another source's struct. */
#ifndef PMUTOP_SRCBASE_H
#define PMUTOP_SRCBASE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "counts.h"
#include "evgroup.h"
#include "evset.h"
#include "evstatus.h"
#include "model.h"
#include "rowfill.h"
#include "source.h"

struct cgroup_names;
struct cgroup_ids;

enum src_scope {
	SCOPE_ALL,     /* every process on the machine */
	SCOPE_PIDS,    /* only the given processes, with their threads */
	SCOPE_CGROUPS, /* only the given cgroups, per CPU in perf's cgroup mode (-G): rows
			  of kind ROW_CGROUP, no task */
};

/* What the app asks of a source when it makes one (each source reads its part). */
struct srcopts {
	const char *root; /* prefix for /proc and /sys ("" on a live system) */
	enum src_scope scope;
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
	bool cgroup_rows;    /* SCOPE_ALL with perf: the model's cg_rows (SRC_CGROUP_ROWS) */
	double interval;
	/* Taking over from another source mid-run: when the run started (evclock_now()'s
	 * clock) and the ticks it counted, which the model's time and tick go on from. */
	double start;
	unsigned long tick;
	pid_t *failed_pid; /* where a source says which watched pid failed, or NULL */
	/* The chosen source's own options (its header's struct: struct bpfopts for bpf),
	 * which must outlive the source; NULL: its defaults. Only that source reads it. */
	const void *own;
};

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

struct srcbase {
	const struct evset *set;
	struct srcopts o;
	pid_t *pids; /* o.pids, copied */
	struct counts_layout l;
	unsigned *slot; /* per group: offset of its ena in a prev block */
	/* The sums of a row's parts (srcbase_acc_*): one process's, one cgroup's. */
	struct val_delta *acc; /* per event */
	uint8_t *acc_why;
	uint8_t *acc_fresh; /* per group: FRESH_FIRST_READ while every part is */
	unsigned *acc_ok;
	unsigned *acc_miss; /* per event: parts of the sum that should have counted and did not */
	uint8_t *acc_miss_why;
	uint64_t *res_ena;	 /* per group: a task row's enabled times (hybrid_residency) */
	struct val_delta *res_d; /* per event: a task row's deltas with those times */
	/* Events the start-up probe found this machine cannot count (every hardware event on
	 * a VM without a PMU): n/a in every task row, never read, summed or scaled per tick
	 * (on the perf path written once per row array). */
	uint8_t *dead;	/* per event */
	uint8_t *gdead; /* per group: every member dead */
	unsigned *live; /* the other events, in order */
	unsigned nlive;
	bool logical; /* the set has hybrid sums (hybrid_fold has work) */
	/* The set, dead, gdead and live above: what the shared row writer reads. */
	struct rowfill fill;

	struct cpuset cpu;
	double start, last; /* evclock_now() */
	double began;	    /* this source's own start: later than start when it took over */
	bool totals;
	bool paused;
	bool cmdline; /* rows carry their process's arguments (SRC_CMDLINE) */

	struct cgroup_names *cgnames; /* the cgroup paths rows point to; NULL: no cgroup2 */
	struct cgroup_ids *cgids;     /* with cgnames: cgroup ids to those paths */
	struct model m;
	struct mstore rows; /* m.rows */
	struct mstore cpus; /* m.cpu_rows */
	char hostname[65];
	char kernel[160];
};

static inline unsigned srcbase_ngroups(const struct srcbase *b)
{
	return b->set->specs.n;
}

/* srcbase.c */
/* The options copied, the set's layout, the CPUs opened (their groups with o->per_cpu),
 * the model's header and cgroup names: 0 or -ENOMEM. srcbase_fini undoes it, also after
 * a failure. The set must outlive the source. */
int srcbase_init(struct srcbase *b, const struct evset *set, const struct srcopts *o);
void srcbase_fini(struct srcbase *b);
/* The first interval counts from now; the run's time from o.start when this source takes
 * over from another (its ticks carry on from o.tick). */
void srcbase_start_clock(struct srcbase *b);
/* A tick's outline, whatever counts: the interval's clock, the source's rows, CPU rows. */
void srcbase_tick_begin(struct srcbase *b);
void srcbase_tick_end(struct srcbase *b);
/* The model becomes the sums since this source started. */
void srcbase_totals_begin(struct srcbase *b);
/* Resuming from a pause (paused false after true, past the first tick): the next interval
 * counts from now, the caller reads its baseline. Sets b->paused. */
bool srcbase_pause(struct srcbase *b, bool paused);
/* The reads an interval counts from that the base holds: the CPUs. */
void srcbase_baseline(struct srcbase *b);
/* What every source does alike: interval, threads, cmdline, user-only. -ENOTSUP for what
 * is a source's own. */
int srcbase_control(struct srcbase *b, enum source_ctl what, const void *arg);
/* The descriptors of the CPUs' groups (a source adds its own for SRC_OPEN_FDS). */
unsigned srcbase_open_fds(const struct srcbase *b);
/* SCOPE_PIDS: a watched process does not exist (o.failed_pid says which). */
bool srcbase_pid_gone(const struct srcbase *b);

/* srclayout.c: the event set's layout, and switching it while counting. */
int srcbase_layout(struct srcbase *b, const struct evset *set);
void srcbase_layout_free(struct srcbase *b);
/* How an old layout's groups map to a new one's (srcbase_switch). */
struct srcremap {
	const struct evset *os, *ns;
	unsigned *oslot; /* the old slots */
	const unsigned *nslot;
	int *gmap; /* per new group: the old group it continues, or -1 */
	int *emap; /* per new event: the old event it continues, or -1 */
	struct counts_layout ol, nl;
};
/* The layout switched to ns: the rows dropped (made again for the new columns at the next
 * tick), the CPUs' counters moved, their new groups opened. The caller moves its own
 * targets with srcremap_move, then frees r. 0 or -errno. */
int srcbase_switch(struct srcbase *b, const struct evset *ns, struct srcremap *r);
void srcremap_free(struct srcremap *r);
/* Move the kept groups of c into a block of the new layout, close the dropped ones. */
int srcremap_move(const struct srcremap *r, struct counts *c);

/* srcgroup.c: one target's groups: a CPU (pid -1), or a cgroup's directory on a CPU. */
enum val_why srcbase_why(enum ev_status st);
/* Open group g with what o names of the target (pid, cpu, cgroup, inherit, on exec,
 * probe); the mode (user-only, no kernel) and the preset are the base's. Returns -ESRCH
 * when the task is gone, -EMFILE/-ENFILE when out of descriptors, else 0. */
int srcbase_open_group(struct srcbase *b, unsigned g, struct evgroup_opts *o, struct counts *c);
/* Every group of a CPU-wide target (pid -1, or a cgroup's directory with cgroup). */
int srcbase_open_target(struct srcbase *b, int pid, int cpu, bool cgroup, struct counts *c);
/* Group g of such a target, where gmap (an evset switch's) says it is new. */
void srcbase_open_new(struct srcbase *b, const int *gmap, int pid, int cpu, bool cgroup,
		      struct counts *c);
/* Whether group g holds a hardware event: the only kind user-only mode changes. */
bool srcbase_group_hw(const struct srcbase *b, unsigned g);
/* Reopen a CPU-wide target's hardware groups (user-only mode changed); its software
 * groups keep counting and their history. */
void srcbase_reopen_hw(struct srcbase *b, struct counts *c, int pid, int cpu, bool cgroup);
/* One read() per open group; deltas against the previous totals. */
void srcbase_read(struct srcbase *b, struct counts *c);
/* The sums start over. */
void srcbase_acc_clear(struct srcbase *b);
/* Add block c to the sums: every group (gsel NULL), or the groups whose gsel is sel. */
void srcbase_acc_add(struct srcbase *b, const struct counts *c, const uint8_t *gsel, int sel);
/* A target's (or a sum's) deltas into a row's values (rowfill.h). On a hybrid CPU a task
 * row's (live) groups of one core type scale by the task's time on that type, not by all
 * its time (hybrid_residency). */
void srcbase_fill(struct srcbase *b, const struct val_delta *d, const uint8_t *why,
		  const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live);
/* One cgroup (its directory dirfd) on each CPU into cnt[cpu.n]: 0, -ENOMEM, or
 * -EMFILE/-ENFILE. */
int srcbase_open_cgroup(struct srcbase *b, int dirfd, struct counts *cnt);
/* One cgroup's reads on every CPU, summed raw and scaled once, as perf stat aggregates
 * them, into w's values. */
void srcbase_count_cgroup(struct srcbase *b, struct counts *cnt, struct mrow_w w);

/* cpurows.c: per-CPU groups and busy time. */
int cpurows_open(struct srcbase *b);
int cpurows_alloc(struct srcbase *b);
void cpurows_tick(struct srcbase *b);
/* The machine's memory, load and uptime into the model (meters, MEM%): every tick, with
 * or without CPU rows. */
void cpurows_sys(struct srcbase *b);
void cpurows_close(struct srcbase *b);
/* The CPUs' hardware groups reopened (user-only mode changed). */
void cpurows_reopen_hw(struct srcbase *b);

#endif
