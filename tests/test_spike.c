/* The replay's spikes: a value above twice the median of the 20 before it, found where
 * it begins; gaps (no number) skipped, not read as zeros; nothing before 5 values. */
#include "testutil.h"

#include <math.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spike_start),
		cmocka_unit_test(test_spike_not_before_enough),
		cmocka_unit_test(test_spike_gaps_and_zero),
		cmocka_unit_test(test_spike_window_slides),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
