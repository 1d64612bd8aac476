/* Spikes in a series, for a replay's jump to the next one (} and {): a value more than
 * SPIKE_FACTOR times the median of the SPIKE_WINDOW values before it that have a number.
 * A spike's first value is where a jump lands: the values after it that stay above their
 * own threshold belong to the same spike. Pure: fed one value at a time, oldest first. */
#ifndef PMUTOP_SPIKE_H
#define PMUTOP_SPIKE_H

#include <stdbool.h>

#define SPIKE_WINDOW 20 /* values the median is taken over */
#define SPIKE_MIN 5	/* fewer before it: no value is a spike yet */
#define SPIKE_FACTOR 2.0

struct spike_win {
	double v[SPIKE_WINDOW]; /* the last values with a number, a ring */
	unsigned n, at;
	bool in;     /* the last value with a number was part of a spike */
	double rise; /* how far above the median a spike is at least */
};

/* Empty the window; a spike must be rise above the median at least (0: any amount, so
 * that a median of 0 makes any positive value one). */
void spike_reset(struct spike_win *w, double rise);
/* Feed the next value; NaN (no number: n/c, n/a, no row) is skipped and changes
 * nothing. True when x begins a spike: above SPIKE_FACTOR times the median of the window
 * and above the median by more than the rise, the value before it not. */
bool spike_feed(struct spike_win *w, double x);
/* The median of the window, or NaN while it holds fewer than SPIKE_MIN values. */
double spike_median(const struct spike_win *w);

#endif
