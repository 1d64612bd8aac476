/* Hybrid CPUs (cpu_core + cpu_atom, each with its own PMU type and CPUs): a generic
 * hardware event is opened once per core PMU, with the PMU's type in the high config
 * bits, and the instances are summed per target. */
#ifndef PMUTOP_HYBRID_H
#define PMUTOP_HYBRID_H

#include <stdbool.h>
#include <stdint.h>

#include "evspec.h"
#include "model.h"
#include "value.h"

struct pmu_set;

#define HYBRID_MAX 4

/* Replace every group holding generic hardware or cache events by one group per core
 * PMU when the machine has more than one. user[] (one flag per group, at least
 * specs->n + extra entries room: see below) is carried to the copies. Copy 0 keeps the
 * group's other members; the rest hold only the per-PMU instances. copy_of[g] gets the
 * index of the group's copy 0 (g itself for groups not copied) and copy_no[g] its
 * number. Returns 0, -ENOMEM, or -E2BIG when the expanded set is too large. */
int hybrid_expand(struct evspec_list *specs, const struct pmu_set *pmus, bool **user,
		  unsigned **copy_of, unsigned **copy_no);

/* Sum each logical event of events[0..n) (an evset's) from its instances' deltas: values
 * and running times add up (each instance runs only while the task is on its kind of
 * core), enabled time is the task's. A logical event counts when any instance does. */
void hybrid_fold(const struct mevent *events, unsigned n, struct val_delta *d, uint8_t *why);

/* The same for deltas summed from per-CPU counters over a task's slices (the bpf
 * backend's): an instance opens only on its own kind of core, so its enabled time is
 * already the task's time on that kind (residency) and its running time within it the
 * multiplexing there. The instances' enabled times are disjoint and add up to the task's
 * time: d[i] gets the summed deltas (enabled times added). A sum scaled as one,
 * Σval·Σena/Σrun, is biased when the kinds are multiplexed differently; so v (the row's
 * values as rowfill wrote them from d, each instance scaled by its own times) gets, for
 * each logical event, the sum of its instances' estimates Σ(val·ena/run): exact when
 * every instance is, scaled when one is, RUN% the share of the task's time (the sum of
 * the instances' enabled times) during which they counted, Σrun/Σena; partial (a lower
 * bound, RUN% that share) when an instance has no number (why != WHY_NONE, never run,
 * unsupported), n/c when none has (n/a when every one is n/a). v NULL: deltas only. Call
 * it after rowfill. Such deltas need no hybrid_residency. */
void hybrid_fold_percpu(const struct mevent *events, unsigned n, struct val_delta *d, uint8_t *why,
			struct val *v);

/* The core PMU each group of specs counts on when pmus has more than one: its index
 * among them, or -1 for a group that may count on any CPU (software events only, or
 * generic events not yet given a PMU), in *out (NULL when pmus has one core PMU).
 * Returns 0 or -ENOMEM. */
int hybrid_group_cores(const struct evspec_list *specs, const struct pmu_set *pmus, int **out);

/* Each group's enabled time to scale by, from one task's (or one sum of tasks')
 * deltas: a group of one core type is enabled whenever the task runs but can count only
 * while it is on that type of core, and that time is residency, not multiplexing
 * (tools/perf/Documentation/intel-hybrid.txt). It is the group's enabled time less what
 * the other core types' groups ran (time the task was surely elsewhere), and never less
 * than its own type's longest running group. A group that ran all of it is exact; one
 * multiplexed within it is scaled by it; with no group of another type counting, the
 * group's own enabled time (as any group's). core: hybrid_group_cores's; ena[g] gets 0
 * for a group none of whose members counts. */
void hybrid_residency(const struct mgroup *groups, const int *core, unsigned ngroups,
		      const struct val_delta *d, const uint8_t *why, uint64_t *ena);

#endif
