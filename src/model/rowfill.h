/* A row's values from raw deltas, as every counting source writes them (the perf path's
 * tasks, CPUs and cgroups, and the bpf backend's tasks): pure, over the model's event
 * and group tables alone. */
#ifndef PMUTOP_ROWFILL_H
#define PMUTOP_ROWFILL_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "value.h"

/* A group's counters as a read found them (per group, where a source keeps it). */
enum { FRESH_NO, FRESH_OPENED, FRESH_FIRST_READ };

/* What the row writer reads of an event set: its events and groups (as the model has
 * them), and which events this machine cannot count. */
struct rowfill {
	const struct mevent *events;
	unsigned nevents;
	const struct mgroup *groups;
	unsigned ngroups;
	const uint8_t *dead;  /* per event: found unsupported at start-up (n/a in every row) */
	const uint8_t *gdead; /* per group: every member dead */
	const unsigned *live; /* the other events, in order */
	unsigned nlive;
};

/* Scale deltas d into a row's values v, and each group's first counted delta into gd.
 * why: per event, WHY_NONE where d holds a count. fresh (per group, or NULL) marks the
 * groups read for the first time: not an interval's worth. Task rows (live) skip the
 * dead events, which their row arrays already hold. */
void rowfill(const struct rowfill *l, const struct val_delta *d, const uint8_t *why,
	     const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live);

#endif
