/* The replay's spikes: a value above twice the median of the 20 before it, or out of
 * their spread over a high baseline, found where it begins; gaps (no number) skipped, not read as
 * zeros; nothing before 5 values. */
#include "testutil.h"

#include <math.h>
#include <stdint.h>

#include "spike.h"

/* Feed v[0..n); the index of each spike's start into at (returns how many). */
static unsigned feed_rise(const double *v, unsigned n, double rise, unsigned *at)
{
	struct spike_win w;
	unsigned k = 0;
	spike_reset(&w, rise);
	for (unsigned i = 0; i < n; i++)
		if (spike_feed(&w, v[i]))
			at[k++] = i;
	return k;
}

static unsigned feed(const double *v, unsigned n, unsigned *at)
{
	return feed_rise(v, n, 0, at);
}

static void test_spike_start(void **state)
{
	(void)state;
	/* Idle at 1-3, a rise to 40 for three values, idle, a second rise. */
	double v[] = {2, 1, 3, 2, 2, 1, 2, 40, 45, 38, 2, 3, 2, 9, 2};
	unsigned at[8];
	assert_int_equal(feed(v, 15, at), 2);
	assert_int_equal(at[0], 7);  /* the first value of the rise, not 8 or 9 */
	assert_int_equal(at[1], 13); /* 9 > 2 x 2 */
}

/* A blip is a spike in a quiet window, and noise in one that holds a peak: it must rise
 * above the median by a tenth of the window's range (the exited shell's 1.4% of CPU
 * after two busy loops' 200% was taken for the next spike). */
static void test_spike_small_after_peak(void **state)
{
	(void)state;
	struct spike_win w;
	spike_reset(&w, 1);
	for (int i = 0; i < 10; i++)
		assert_false(spike_feed(&w, 0.3));
	assert_true(spike_feed(&w, 1.5));
	spike_reset(&w, 1);
	for (int i = 0; i < 8; i++)
		spike_feed(&w, 0.3);
	assert_true(spike_feed(&w, 200));
	for (int i = 0; i < 4; i++)
		spike_feed(&w, 200);
	for (int i = 0; i < 3; i++)
		assert_false(spike_feed(&w, 0.3));
	assert_false(spike_feed(&w, 1.5)); /* 0.3 + (200 - 0.3) / 10 = 20.3 */
	assert_true(spike_feed(&w, 25));
}

static void test_spike_not_before_enough(void **state)
{
	(void)state;
	/* 100 after 1, 1, 1: too few values before it to say. */
	double v[] = {1, 1, 1, 100, 1, 1, 1, 1};
	unsigned at[8];
	assert_int_equal(feed(v, 8, at), 0);
	struct spike_win w;
	spike_reset(&w, 0);
	for (int i = 0; i < 4; i++)
		spike_feed(&w, 1);
	assert_true(isnan(spike_median(&w)));
	spike_feed(&w, 5);
	assert_true(spike_median(&w) == 1);
}

static void test_spike_gaps_and_zero(void **state)
{
	(void)state;
	/* n/c in the middle is skipped: the value after it is compared with the numbers
	 * before the gap, and the gap does not end a spike. A median of 0 makes any positive
	 * value a spike; equal values are none. */
	double v[] = {0, 0, 0, 0, 0, NAN, NAN, 0, 0.5, NAN, 0.6, 0, 0, 0};
	unsigned at[8];
	assert_int_equal(feed(v, 14, at), 1);
	assert_int_equal(at[0], 8);
	/* With a rise of 1 (CPU%'s): 0.5 and 0.6 after zeros are no spike, 3 is. */
	assert_int_equal(feed_rise(v, 14, 1, at), 0);
	double w[] = {0, 0, 0, 0, 0, 0.4, 0, 3, 0};
	assert_int_equal(feed_rise(w, 9, 1, at), 1);
	assert_int_equal(at[0], 7);
	double flat[30];
	for (int i = 0; i < 30; i++)
		flat[i] = 7;
	assert_int_equal(feed(flat, 30, at), 0);
}

static void test_spike_window_slides(void **state)
{
	(void)state;
	/* A plateau at 10 after a long idle at 1: one spike where it begins; once the
	 * window is mostly the plateau, 10 is the median and the plateau is no spike. A
	 * step down and up again inside the window is a second one only when the median
	 * fell back. */
	double v[60];
	for (int i = 0; i < 20; i++)
		v[i] = 1;
	for (int i = 20; i < 60; i++)
		v[i] = 10;
	unsigned at[8];
	assert_int_equal(feed(v, 60, at), 1);
	assert_int_equal(at[0], 20);
	v[45] = 1; /* one dip: 10 after it is not above twice the median (10) */
	assert_int_equal(feed(v, 60, at), 1);
}

/* Over a high baseline a spike cannot double it (a process at 60% of a CPU that goes to
 * 100%): it is one when it stands out of the window's spread, 6 times its median
 * deviation from the median (2% of the median at least). Noise of a count is none. */
static void test_spike_over_high_baseline(void **state)
{
	(void)state;
	double v[40];
	for (int i = 0; i < 40; i++)
		v[i] = 60 + (i * 7 % 5) - 2; /* 58 to 62 */
	v[25] = 100;
	v[26] = 99;
	unsigned at[8];
	assert_int_equal(feed_rise(v, 40, 1, at), 1);
	assert_int_equal(at[0], 25);
	v[25] = 67, v[26] = 60; /* inside the spread (6 x 1 above 60, and 2% of it) */
	assert_int_equal(feed_rise(v, 40, 1, at), 0);
	double count[40]; /* context switches, 40 or 41 a tick: 41 is no spike, 60 is */
	for (int i = 0; i < 40; i++)
		count[i] = 40 + (i % 3 == 0);
	assert_int_equal(feed(count, 40, at), 0);
	count[30] = 60;
	assert_int_equal(feed(count, 40, at), 1);
	assert_int_equal(at[0], 30);
}

/* A series as a spike_src: positions 100.. (a recording's sequence numbers). */
struct series {
	const double *v;
	unsigned n;
	unsigned reads;
};

#define BASE 100

static int series_step(void *ctx, uint64_t seq, int dir, uint64_t *out)
{
	const struct series *sr = ctx;
	if ((dir < 0 && seq <= BASE) || (dir > 0 && seq + 1 >= BASE + sr->n))
		return -1;
	*out = dir < 0 ? seq - 1 : seq + 1;
	return 0;
}

static double series_value(void *ctx, uint64_t seq)
{
	struct series *sr = ctx;
	sr->reads++;
	return sr->v[seq - BASE];
}

/* Every spike of v from one read from the start: where it began, was highest, last
 * high, and where its end was seen (a value below, or the last one). */
struct run {
	unsigned begun, peak, last, seen;
};

static unsigned all_runs(const double *v, unsigned n, double rise, struct run *r)
{
	struct spike_win w;
	unsigned k = 0;
	bool open = false;
	spike_reset(&w, rise);
	for (unsigned i = 0; i < n; i++) {
		bool was = w.in;
		if (spike_feed(&w, v[i])) {
			open = true;
			r[k] = (struct run){i, i, i, 0};
		} else if (open && w.in && v[i] > v[r[k].peak]) {
			r[k].peak = i;
		}
		if (open && w.in)
			r[k].last = i;
		if (open && ((was && !w.in) || i + 1 == n)) {
			r[k++].seen = i;
			open = false;
		}
	}
	return k;
}

static long search(struct series *sr, unsigned origin, int dir, unsigned block)
{
	struct spike_src src = {.ctx = sr, .step = series_step, .value = series_value};
	struct spike_search s;
	spike_search_start(&s, &src, BASE + origin, dir, 1.0, block);
	unsigned guard = 0;
	while (!spike_search_run(&s, 7))
		assert_true(++guard < 100000);
	return s.found ? (long)(s.hit - BASE) : -1;
}

/* The search, forward and backward in blocks, finds what one read from the start does:
 * the first spike beginning after a position, the last one ended before it. */
static void test_search_as_one_read(void **state)
{
	(void)state;
	enum { N = 3000 };
	static double v[N];
	static struct run r[N];
	uint32_t x = 12345;
	for (unsigned i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = 10 + (x >> 16) % 4;
		if ((x >> 8) % 40 == 0) /* a spike of 1 to 6 values */
			for (unsigned k = 0, len = 1 + (x >> 4) % 6; k < len && i < N; k++, i++)
				v[i] = 40 + (double)((x >> (k + 3)) % 60);
		if (i < N && (x >> 12) % 50 == 0)
			v[i] = 0.5; /* a dip is no spike; the value after it may be none either */
	}
	unsigned nr = all_runs(v, N, 1.0, r);
	assert_true(nr > 40);
	struct series sr = {v, N, 0};
	for (unsigned o = 0; o < N; o += 37) {
		long want = -1;
		for (unsigned k = 0; k < nr && want < 0; k++)
			if (r[k].begun > o)
				want = r[k].peak;
		assert_int_equal(search(&sr, o, 1, 50), want);
		want = -1;
		for (unsigned k = 0; k < nr; k++)
			if (r[k].seen <= o && r[k].last < o)
				want = r[k].peak;
		assert_int_equal(search(&sr, o, -1, 50), want);
		assert_int_equal(search(&sr, o, -1, 1000), want);
	}
	/* A forward search reads from 41 before the origin to the spike's end, not more. */
	sr.reads = 0;
	long hit = search(&sr, 1500, 1, 50);
	assert_true(hit > 1500);
	unsigned k = 0;
	while (r[k].peak != (unsigned)hit)
		k++;
	assert_int_equal(sr.reads, r[k].seen - (1500 - SPIKE_LEAD) + 1);
}

/* The replay's slices: the clock is looked at after each value, so a slice that stops
 * for keys at `until` overruns it by one value's read at most, however slow a read is
 * (a tick of 10,000 rows); the search sliced so finds what it finds unsliced. */
struct slow {
	struct series sr;
	double cost; /* the fake clock's seconds a value takes to read */
};

static double slow_clock(void *ctx)
{
	const struct slow *sl = ctx;
	return sl->sr.reads * sl->cost;
}

static void test_search_until(void **state)
{
	(void)state;
	enum { N = 400 };
	static double v[N];
	for (unsigned i = 0; i < N; i++)
		v[i] = 10 + i % 3;
	v[300] = 90; /* the one spike, far from the start */
	struct slow sl = {{v, N, 0}, 0.02};
	struct spike_src src = {.ctx = &sl.sr, .step = series_step, .value = series_value};
	struct spike_search s;
	spike_search_start(&s, &src, BASE + 5, 1, 1.0, 50);
	/* 20 ms a value, a 50 ms slice: 3 values (the third passes it), not a batch. */
	assert_false(spike_search_until(&s, slow_clock, &sl, 0.05));
	assert_int_equal(sl.sr.reads, 3);
	/* A read slower than the slice: one value, then back to the keys. */
	sl.cost = 1.0;
	assert_false(spike_search_until(&s, slow_clock, &sl, 3.5));
	assert_int_equal(sl.sr.reads, 4);
	/* A clock already past: one value still, so that each slice goes on. */
	assert_false(spike_search_until(&s, slow_clock, &sl, 0));
	assert_int_equal(sl.sr.reads, 5);
	unsigned guard = 0;
	sl.cost = 1e-3;
	while (!spike_search_until(&s, slow_clock, &sl, sl.sr.reads * sl.cost + 0.05))
		assert_true(++guard < 1000);
	assert_true(s.found);
	assert_int_equal(s.hit, BASE + 300);
	assert_int_equal(search(&sl.sr, 5, 1, 50), 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spike_start),
		cmocka_unit_test(test_spike_small_after_peak),
		cmocka_unit_test(test_spike_not_before_enough),
		cmocka_unit_test(test_spike_gaps_and_zero),
		cmocka_unit_test(test_spike_window_slides),
		cmocka_unit_test(test_spike_over_high_baseline),
		cmocka_unit_test(test_search_as_one_read),
		cmocka_unit_test(test_search_until),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
