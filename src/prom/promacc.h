/* Totals for the exporter: each tick's per-interval model values added up per target
 * (process, cgroup, CPU) and event since pmutop began counting that target, with the
 * times its group was enabled and running, so that PromQL's rate() and increase() work. */
#ifndef PMUTOP_PROMACC_H
#define PMUTOP_PROMACC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

struct promacc;

enum promacc_kind { PROMACC_PROC, PROMACC_CGROUP, PROMACC_CPU };

struct promacc_opts {
	unsigned top;	      /* process series exported: the N busiest (0: none) */
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
	const char *comm;
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

/* Add one tick's model. scraped: the exposition built after the last update has been
 * served at least once, so targets that had exited by then may go. Returns 0 or
 * -ENOMEM (the totals stay as they were). */
int promacc_update(struct promacc *a, const struct model *m, bool scraped);

/* The events the totals are kept for (the model's of the last update). */
unsigned promacc_nevents(const struct promacc *a);
const char *promacc_event_name(const struct promacc *a, unsigned i);
/* Why event i cannot be counted anywhere (enum val_why), or WHY_NONE. */
unsigned promacc_event_why(const struct promacc *a, unsigned i);

/* The model's metrics: a gauge family each. The name's part ("tma_retiring_ratio": a
 * percentage is exported as a ratio) and its help. */
unsigned promacc_nmetrics(const struct promacc *a);
const char *promacc_metric_name(const struct promacc *a, unsigned k);
const char *promacc_metric_help(const struct promacc *a, unsigned k);

/* Series to export, processes (the top N and watched ones) first in pid order, then
 * cgroups, then CPUs. Valid until the next update. */
unsigned promacc_count(const struct promacc *a);
void promacc_get(const struct promacc *a, unsigned i, struct promacc_series *out);
/* Every target being summed, exported or not. */
unsigned promacc_targets(const struct promacc *a);

#endif
