/* One target's counters (a task's or a CPU's): its open groups, the raw totals of the
 * last read, this interval's deltas and why any event is missing. One allocation. */
#ifndef PMUTOP_COUNTS_H
#define PMUTOP_COUNTS_H

#include <stdint.h>

#include "rowfill.h"
#include "value.h"

struct evgroup;

struct counts_layout {
	unsigned ngroups;
	unsigned nevents;
	unsigned nslots; /* per group: ena, run, then one value per member */
};

struct counts {
	/* A task that did not run at its last read is probed next tick (probe.c,
	 * still_idle) from these alone: no other line of the block is touched while it
	 * sleeps. Any open or close of a group clears idle. First, to share the task's
	 * first cache line (struct task). */
	bool idle;	     /* the probe fields below are valid */
	bool d_zero;	     /* d holds this interval's zeros: the probe found it asleep */
	bool clean;	     /* with idle: every live event counting (why WHY_NONE) */
	int probe_fd;	     /* its task-clock leader */
	uint32_t probe_lock; /* with probe_seq: the count before that read */
	uint64_t probe_val, probe_ena;	    /* the leader's value and time enabled at that read */
	const volatile uint32_t *probe_seq; /* its mapped page's count, or NULL: read */
	struct evgroup **grp;		    /* per group, NULL when not open */
	uint64_t *prev;			    /* nslots raw totals */
	struct val_delta *d;		    /* per event: this interval's raw delta */
	uint8_t *why;			    /* per event: enum val_why, WHY_NONE when counting */
	uint8_t *fresh;			    /* per group: FRESH_* */
};

/* A group's first read after it opened covers the time since its opening, not the
 * interval: its values read n/c (starting) that once, and count from the next tick. */
/* FRESH_*: rowfill.h */

/* Returns 0 or -ENOMEM; everything starts zeroed and closed. */
int counts_alloc(struct counts *c, const struct counts_layout *l);
/* Close every group and free the block. */
void counts_free(struct counts *c, const struct counts_layout *l);
/* Close every group; returns how many were open. */
unsigned counts_close(struct counts *c, const struct counts_layout *l);
/* The descriptors c's open groups hold. */
unsigned counts_open_fds(const struct counts *c, const struct counts_layout *l);

#endif
