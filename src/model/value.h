/* A counted value and how honest it is: exact, scaled for multiplexing, partial (a sum
 * some of whose parts were not counted), not counted, or not available. Delta first, then
 * scale, as tools/perf does. */
#ifndef PMUTOP_VALUE_H
#define PMUTOP_VALUE_H

#include <stdbool.h>
#include <stdint.h>

enum val_state {
	VAL_NA = 0, /* cannot exist here: unsupported, no permission, no descriptor */
	VAL_NC,	    /* enabled but never on the PMU this interval ("n/c") */
	VAL_EMPTY,  /* nothing to show: a ratio over zero (an idle task's IPC) */
	VAL_EXACT,  /* counted the whole time it was enabled */
	VAL_SCALED, /* multiplexed: extrapolated from run_pm/1000 of the time */
	/* A sum of parts (threads, processes) some of which were not counted: a lower bound,
	 * from run_pm/1000 of the parts. Last: recordings store states by number. */
	VAL_PARTIAL,
};

/* Why a value is n/a or n/c. */
enum val_why {
	WHY_NONE = 0,
	WHY_UNSUPPORTED,
	WHY_NOPERM,
	WHY_FDLIMIT,
	WHY_GONE,
	WHY_INVALID,
	WHY_NOT_RUN,	 /* n/c: the group never got a counter */
	WHY_NOFIT,	 /* n/c: the group is larger than the PMU can schedule at once */
	WHY_STARTING,	 /* n/c: opened during this interval, counted from the next one */
	WHY_KERNEL_ONLY, /* n/a: a kernel-mode event counted in user mode only (:u) */
	WHY_ERROR,
	WHY_UNSEEN,   /* n/c: a slice of the task ended in a context switch the bpf backend
			 did not see (the kernel did not report it): its values are not known */
	WHY_PER_CORE, /* n/a: a metric valid only per core, on a process or thread row */
	WHY_DIVZERO,  /* a gap: a metric divided by zero */
	WHY_STALE,    /* n/c: a remote host (--connect) did not answer for this tick */
	/* ~ (VAL_SCALED, its value unscaled): the bpf backend charged the clock time of the
	 * switches that brought the task in (perf -p charges it to no task) to a hardware
	 * event; run_pm is the share of the counted time that was the task's own. */
	WHY_SWITCH,
};

struct val {
	double v;
	uint8_t state;	 /* enum val_state */
	uint8_t why;	 /* enum val_why */
	uint16_t run_pm; /* running time / enabled time, per mille */
};

/* Raw deltas of one member over one interval, summed over any number of tasks. */
struct val_delta {
	uint64_t ena, run, val;
};

/* Scale a delta: run == 0 with ena > 0 is n/c, run < ena is scaled, an interval in
 * which the task never ran (ena == 0) is an exact zero. */
struct val val_scale(struct val_delta d);

/* An n/a (or n/c) value with its reason. */
struct val val_missing(enum val_state st, enum val_why why);

/* Sum v of the parts counted, made partial when missing of counted + missing parts were
 * not counted (v unchanged when none was). counted 0: n/c for why. */
struct val val_partial(struct val v, unsigned counted, unsigned missing, enum val_why why);

/* A share of the time that is some but not all of it (pm per mille) as a run_pm: 1 to 999,
 * never 0% nor 100%. */
uint16_t val_pm_some(double pm);

/* a op b for derived metrics: the worst state of the two; a zero denominator gives
 * VAL_EMPTY. */
struct val val_ratio(struct val a, struct val b, double mul);

bool val_has_number(struct val v);
/* Whether a is less honest than b: n/a, n/c, empty, partial, scaled, exact (worst first). */
bool val_worse(struct val a, struct val b);
/* "n/a", "n/c" or "-" for values without a number, NULL otherwise. */
const char *val_mark(struct val v);
/* The mark after a number: '~' scaled, '+' partial (at least this much), 0 otherwise. */
char val_suffix(struct val v);
const char *val_why_str(enum val_why why);
const char *val_state_str(enum val_state st);

#endif
