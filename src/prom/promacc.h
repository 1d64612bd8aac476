/* Totals for the exporter: each tick's per-interval model values added up per target
 * (command within a cgroup, process, cgroup, CPU) and event since pmutop began counting
 * that target, with the times its group was enabled and running, so that PromQL's rate()
 * and increase() work. */
#ifndef PMUTOP_PROMACC_H
#define PMUTOP_PROMACC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

struct promacc;

enum promacc_kind { PROMACC_COMM, PROMACC_PROC, PROMACC_CGROUP, PROMACC_CPU };

/* Command series (processes summed by command name within their cgroup, exited ones
 * included) live while a process of theirs was seen in the last PROMACC_LINGER_S
 * seconds; at most PROMACC_MAX_COMMANDS at once, processes beyond go to one series whose
 * comm is PROMACC_OTHER and that has no cgroup. */
#define PROMACC_LINGER_S 600.0
#define PROMACC_MAX_COMMANDS 1000u
#define PROMACC_OTHER "(other)"

struct promacc_opts {
	unsigned top;	      /* per-pid series: N processes, the ones with the most task-clock
				 since first seen, each kept until it exits (0: none) */
	const pid_t *watched; /* always exported (-p) */
	unsigned nwatched;
	bool per_cpu; /* export CPU series */
};

/* One target's totals, as the renderer reads them. val/ena/run hold nevents entries:
 * the value (scaled for multiplexing per interval, as the screen shows it), and the
 * nanoseconds its group was enabled and running (summed over a process's threads). counted[i] is
 * false while event i has never had a number for this target (n/a): it gets no sample. */
struct promacc_series {
	enum promacc_kind kind;
	pid_t pid;
	int cpu;
	const char *comm;   /* PROMACC_PROC, PROMACC_COMM */
	const char *cgroup; /* NULL when unknown */
	const double *val;
	const uint64_t *ena, *run;
	const bool *counted;
	/* The model's metrics (promacc_nmetrics of them) over the last interval the target
	 * had a row: mhas[k] false when it was a gap (n/a, n/c, division by zero). */
	const double *mval;
	const bool *mhas;
};

struct promacc *promacc_new(const struct promacc_opts *o);
void promacc_free(struct promacc *a);

/* Take m's event set (and what is known of their status) without adding anything: what
 * the exposition says before the first tick. Returns 0 or -ENOMEM. */
int promacc_set_events(struct promacc *a, const struct model *m);

/* Add one tick's model. scraped: the exposition built after the last update has been
 * served at least once, so targets that had exited by then may go. Returns 0 or
 * -ENOMEM (the totals stay as they were). */
int promacc_update(struct promacc *a, const struct model *m, bool scraped);

/* The events the totals are kept for (the model's of the last update). The name is what
 * the user typed (mevent.name); an event whose name repeats in another group has a group
 * label too (the key of that group's first member), else NULL. Clock events (task-clock,
 * cpu-clock) count nanoseconds: promacc_event_seconds says so. */
unsigned promacc_nevents(const struct promacc *a);
const char *promacc_event_name(const struct promacc *a, unsigned i);
const char *promacc_event_group(const struct promacc *a, unsigned i);
bool promacc_event_seconds(const struct promacc *a, unsigned i);
/* Why event i cannot be counted anywhere (enum val_why), or WHY_NONE. */
unsigned promacc_event_why(const struct promacc *a, unsigned i);

/* The model's metrics: a gauge family each. The name's part ("tma_retiring_ratio": a
 * percentage is exported as a ratio) and its help. Commands have none (their processes'
 * ratios do not add up). */
unsigned promacc_nmetrics(const struct promacc *a);
const char *promacc_metric_name(const struct promacc *a, unsigned k);
const char *promacc_metric_help(const struct promacc *a, unsigned k);

/* Series to export: commands (by cgroup, then comm), processes (the top N and watched
 * ones) in pid order, then cgroups, then CPUs. Valid until the next update. */
unsigned promacc_count(const struct promacc *a);
void promacc_get(const struct promacc *a, unsigned i, struct promacc_series *out);
/* Every target being summed, exported or not. */
unsigned promacc_targets(const struct promacc *a);

#endif
