/* Spikes in a series, for a replay's jump to the next one (} and {): a value more than
 * SPIKE_FACTOR times the median of the SPIKE_WINDOW values before it that have a number,
 * or above that median by SPIKE_DEVS times their median distance from it (a spike over
 * a high baseline, which cannot double it).
 * A spike's first value is where a jump lands: the values after it that stay above their
 * own threshold belong to the same spike. Pure: fed one value at a time, oldest first. */
#ifndef PMUTOP_SPIKE_H
#define PMUTOP_SPIKE_H

#include <stdbool.h>
#include <stdint.h>

#define SPIKE_WINDOW 20 /* values the median is taken over */
#define SPIKE_MIN 5	/* fewer before it: no value is a spike yet */
#define SPIKE_FACTOR 2.0
#define SPIKE_DEVS 6.0	   /* or above it by this many times the window's spread... */
#define SPIKE_DEV_MIN 0.02 /* ...taken as this share of the median at least */
#define SPIKE_SPAN 0.1	   /* and above the median by this share of the window's range */

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
 * or above it by SPIKE_DEVS times the window's spread, above the median by more than the
 * rise and by SPIKE_SPAN of the window's range (its largest value less the median), the
 * value before it not. */
bool spike_feed(struct spike_win *w, double x);
/* The median of the window, or NaN while it holds fewer than SPIKE_MIN values. */
double spike_median(const struct spike_win *w);

/* A search for the spike after (or before) a tick of a series read one value at a time
 * (a replay's ticks). A spike is a run of values that spike_feed finds high; the search
 * lands on its highest value. Forward, it reads from SPIKE_LEAD values before origin
 * (the window, and whether origin is in a spike already) to the end of the first spike
 * that begins after origin. Backward, it reads blocks of `block` values before origin,
 * each from SPIKE_LEAD earlier, and takes the last spike of the block that ended in it,
 * before origin; a block from the first value counts every spike. Either finds what one
 * read from the first value finds while every spike is shorter than SPIKE_WINDOW and the
 * values in SPIKE_LEAD have numbers. */
#define SPIKE_LEAD (2 * SPIKE_WINDOW + 1)

struct spike_src {
	void *ctx;
	/* The position after (dir > 0) or before seq, or non-zero at an end. */
	int (*step)(void *ctx, uint64_t seq, int dir, uint64_t *out);
	/* The value at seq: NaN when it has no number. */
	double (*value)(void *ctx, uint64_t seq);
};

struct spike_search {
	struct spike_src src;
	int dir;
	double rise;
	unsigned block;
	uint64_t origin; /* where it was asked */
	uint64_t at;	 /* the next position to read */
	uint64_t end;	 /* backward: the block reads up to this position, and it */
	uint64_t exact;	 /* backward: the block's first position whose answer is exact */
	bool from_first; /* backward: the block starts at the first position */
	bool open;	 /* a spike is being read: begun at begun, highest at peak */
	uint64_t begun, peak, last;
	double top;
	bool found; /* hit is the spike's highest position, hit_top its value */
	uint64_t hit;
	double hit_top;
	struct spike_win w;
};

/* dir 1: the next spike after origin, -1: the one before; rise as spike_reset's;
 * block: the backward blocks' length (at least 1). */
void spike_search_start(struct spike_search *s, const struct spike_src *src, uint64_t origin,
			int dir, double rise, unsigned block);
/* Read up to n values. True when the search is over: found, or not (the series read to
 * its end, or back to its start). */
bool spike_search_run(struct spike_search *s, unsigned n);
/* Read values one at a time, looking at the clock (now(ctx), any unit) after each, until
 * the search is over or the clock reaches until; one value at least. A reader that
 * stops for keys at until so overruns it by one value's read at most, however long
 * reading a value takes (a replay's tick of 10,000 rows). True when it is over. */
bool spike_search_until(struct spike_search *s, double (*now)(void *ctx), void *ctx, double until);

#endif
