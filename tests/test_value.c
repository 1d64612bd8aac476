/* val_scale and val_ratio: the honesty of every number pmutop shows. Edge cases first:
 * never scheduled, multiplexed, exact, a task that never ran, huge values. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "value.h"

static struct val scale(uint64_t ena, uint64_t run, uint64_t v)
{
	return val_scale((struct val_delta){.ena = ena, .run = run, .val = v});
}

static struct val num(double v, enum val_state st, uint16_t run_pm)
{
	return (struct val){.v = v, .state = (uint8_t)st, .why = WHY_NONE, .run_pm = run_pm};
}

static void test_scale_never_scheduled(void **state)
{
	(void)state;
	/* Enabled but never on the PMU: not counted, and no number to show. */
	struct val v = scale(1000, 0, 0);
	assert_int_equal(v.state, VAL_NC);
	assert_int_equal(v.why, WHY_NOT_RUN);
	assert_int_equal(v.run_pm, 0);
	assert_false(val_has_number(v));
	assert_string_equal(val_mark(v), "n/c");
	/* A stray value with run == 0 is still not a count. */
	v = scale(1000, 0, 5);
	assert_int_equal(v.state, VAL_NC);
	assert_false(val_has_number(v));
}

static void test_scale_multiplexed(void **state)
{
	(void)state;
	/* Ran a third of the time: 100 counted becomes 300, marked scaled. */
	struct val v = scale(3000, 1000, 100);
	assert_int_equal(v.state, VAL_SCALED);
	assert_true(val_has_number(v));
	assert_null(val_mark(v));
	assert_true(v.v == 300.0);
	assert_int_equal(v.run_pm, 333);
	/* Two thirds: 666.67 per mille rounds to 667. */
	v = scale(3, 2, 10);
	assert_int_equal(v.state, VAL_SCALED);
	assert_true(fabs(v.v - 15.0) < 1e-12);
	assert_int_equal(v.run_pm, 667);
	/* Half: the extrapolation is exact. */
	v = scale(2000000000ULL, 1000000000ULL, 123456789);
	assert_true(v.v == 246913578.0);
	assert_int_equal(v.run_pm, 500);
}

static void test_scale_almost_full_never_100(void **state)
{
	(void)state;
	/* 99.999% rounds to 1000 per mille: a scaled value must never look unscaled. */
	struct val v = scale(100000, 99999, 99999);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 999);
	assert_true(fabs(v.v - 100000.0) < 1e-6);
	/* And a tiny share still says "scaled", with 0 per mille. */
	v = scale(1000000, 1, 1);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 0);
	assert_true(v.v == 1000000.0);
}

static void test_scale_exact(void **state)
{
	(void)state;
	struct val v = scale(5000, 5000, 4242);
	assert_int_equal(v.state, VAL_EXACT);
	assert_int_equal(v.why, WHY_NONE);
	assert_int_equal(v.run_pm, 1000);
	assert_true(v.v == 4242.0);
	assert_null(val_mark(v));
	/* An exact zero is a number, not a mark. */
	v = scale(5000, 5000, 0);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(val_has_number(v));
	assert_true(v.v == 0.0);
}

static void test_scale_never_ran(void **state)
{
	(void)state;
	/* A task event's clocks only move while the task runs: an idle interval is an
	 * exact zero, not "not counted". */
	struct val v = scale(0, 0, 0);
	assert_int_equal(v.state, VAL_EXACT);
	assert_int_equal(v.run_pm, 1000);
	assert_true(v.v == 0.0);
	assert_true(val_has_number(v));
}

static void test_scale_large_values(void **state)
{
	(void)state;
	/* Deltas of 64-bit counters near the top of their range keep their magnitude. */
	struct val v = scale(1, 1, UINT64_MAX);
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == (double)UINT64_MAX);
	v = scale(10, 10, 1ULL << 62);
	assert_true(v.v == 4611686018427387904.0);
	/* val * ena would overflow in integers: the extrapolation must not. */
	v = scale(4000000000000ULL, 1000000000000ULL, 1ULL << 60);
	assert_int_equal(v.state, VAL_SCALED);
	assert_true(v.v == 4.0 * (double)(1ULL << 60));
	assert_int_equal(v.run_pm, 250);
}

static void test_scale_run_pm_long_totals(void **state)
{
	(void)state;
	/* Run totals summed over many threads and a long run (engine_totals) pass 2^64/1000
	 * ns (213 CPU-days): a 256-CPU job for a day. The running share is still half. */
	struct val v = scale(200000000000000000ULL, 100000000000000000ULL, 1000);
	assert_int_equal(v.state, VAL_SCALED);
	assert_true(v.v == 2000.0);
	assert_int_equal(v.run_pm, 500);
}

static void test_missing(void **state)
{
	(void)state;
	struct val v = val_missing(VAL_NA, WHY_NOPERM);
	assert_int_equal(v.state, VAL_NA);
	assert_int_equal(v.why, WHY_NOPERM);
	assert_false(val_has_number(v));
	assert_string_equal(val_mark(v), "n/a");
	assert_string_equal(val_why_str((enum val_why)v.why), "no permission");
	v = val_missing(VAL_NC, WHY_NOT_RUN);
	assert_string_equal(val_mark(v), "n/c");
}

static void test_marks_and_names(void **state)
{
	(void)state;
	assert_string_equal(val_mark(num(0, VAL_NA, 0)), "n/a");
	assert_string_equal(val_mark(num(0, VAL_NC, 0)), "n/c");
	assert_string_equal(val_mark(num(0, VAL_EMPTY, 0)), "-");
	assert_null(val_mark(num(1, VAL_EXACT, 1000)));
	assert_null(val_mark(num(1, VAL_SCALED, 500)));
	/* The CSV and JSON "state" field. */
	assert_string_equal(val_state_str(VAL_NA), "n/a");
	assert_string_equal(val_state_str(VAL_NC), "n/c");
	assert_string_equal(val_state_str(VAL_EMPTY), "empty");
	assert_string_equal(val_state_str(VAL_EXACT), "exact");
	assert_string_equal(val_state_str(VAL_SCALED), "scaled");
	assert_string_equal(val_why_str(WHY_NONE), "");
	assert_string_equal(val_why_str(WHY_UNSUPPORTED), "unsupported");
	assert_string_equal(val_why_str(WHY_NOT_RUN), "not counted");
	assert_string_equal(val_why_str(WHY_GONE), "task gone");
}

static void test_ratio_exact(void **state)
{
	(void)state;
	struct val r = val_ratio(num(3e9, VAL_EXACT, 1000), num(2e9, VAL_EXACT, 1000), 1);
	assert_int_equal(r.state, VAL_EXACT);
	assert_true(r.v == 1.5);
	assert_int_equal(r.run_pm, 1000);
	/* mul: misses per reference in percent. */
	r = val_ratio(num(50, VAL_EXACT, 1000), num(200, VAL_EXACT, 1000), 100);
	assert_true(r.v == 25.0);
	/* A zero numerator is a real zero. */
	r = val_ratio(num(0, VAL_EXACT, 1000), num(7, VAL_EXACT, 1000), 1);
	assert_int_equal(r.state, VAL_EXACT);
	assert_true(r.v == 0.0);
}

static void test_ratio_zero_denominator(void **state)
{
	(void)state;
	/* An idle task's IPC: nothing to divide, shown as "-", never inf or nan. */
	struct val r = val_ratio(num(0, VAL_EXACT, 1000), num(0, VAL_EXACT, 1000), 1);
	assert_int_equal(r.state, VAL_EMPTY);
	assert_false(val_has_number(r));
	assert_string_equal(val_mark(r), "-");
	r = val_ratio(num(5, VAL_SCALED, 400), num(0, VAL_EXACT, 1000), 1);
	assert_int_equal(r.state, VAL_EMPTY);
}

static void test_ratio_scaled(void **state)
{
	(void)state;
	/* A scaled input makes a scaled result with the lower running share. */
	struct val r = val_ratio(num(10, VAL_SCALED, 400), num(5, VAL_EXACT, 1000), 1);
	assert_int_equal(r.state, VAL_SCALED);
	assert_true(r.v == 2.0);
	assert_int_equal(r.run_pm, 400);
	r = val_ratio(num(10, VAL_EXACT, 1000), num(5, VAL_SCALED, 250), 1);
	assert_int_equal(r.state, VAL_SCALED);
	assert_int_equal(r.run_pm, 250);
}

/* The worst state wins, whichever side it is on: NA > NC > EMPTY > SCALED > EXACT. */
static void test_ratio_state_order(void **state)
{
	(void)state;
	const enum val_state order[] = {VAL_NA, VAL_NC, VAL_EMPTY, VAL_SCALED, VAL_EXACT};
	const enum val_why why[] = {WHY_UNSUPPORTED, WHY_NOT_RUN, WHY_NONE, WHY_NONE, WHY_NONE};
	for (unsigned i = 0; i < 5; i++) {
		for (unsigned j = i; j < 5; j++) {
			struct val worse = num(6, order[i], i == 0 || i == 1 ? 0 : 700);
			worse.why = (uint8_t)why[i];
			struct val better = num(3, order[j], 900);
			better.why = (uint8_t)why[j];
			struct val r1 = val_ratio(worse, better, 1);
			struct val r2 = val_ratio(better, worse, 1);
			assert_int_equal(r1.state, order[i]);
			assert_int_equal(r2.state, order[i]);
			assert_int_equal(r1.why, why[i]);
			assert_int_equal(r2.why, why[i]);
			if (!val_has_number(r1)) {
				assert_true(r1.v == 0.0);
				assert_true(r2.v == 0.0);
			}
		}
	}
	/* n/a beats a zero denominator: the reason is the missing event, not the idle task. */
	struct val r = val_ratio(val_missing(VAL_NA, WHY_UNSUPPORTED), num(0, VAL_EXACT, 1000), 1);
	assert_int_equal(r.state, VAL_NA);
	assert_int_equal(r.why, WHY_UNSUPPORTED);
	r = val_ratio(num(0, VAL_EXACT, 1000), val_missing(VAL_NC, WHY_NOT_RUN), 1);
	assert_int_equal(r.state, VAL_NC);
}

/* A sum some of whose parts were not counted: a lower bound with the share counted,
 * never exact; nothing counted is n/c; a partial part counts for its own share. */
static void test_partial(void **state)
{
	(void)state;
	struct val v = val_partial(num(1200, VAL_EXACT, 1000), 3, 1, WHY_FDLIMIT);
	assert_int_equal(v.state, VAL_PARTIAL);
	assert_true(v.v == 1200);
	assert_int_equal(v.run_pm, 750);
	assert_int_equal(v.why, WHY_FDLIMIT);
	assert_true(val_has_number(v));
	assert_null(val_mark(v));
	assert_int_equal(val_suffix(v), '+');
	assert_string_equal(val_state_str(VAL_PARTIAL), "partial");
	/* Every part counted: unchanged. */
	v = val_partial(num(5, VAL_SCALED, 400), 4, 0, WHY_FDLIMIT);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 400);
	/* None counted: n/c with the reason, never a 0. */
	v = val_partial(num(0, VAL_EXACT, 1000), 0, 7, WHY_FDLIMIT);
	assert_int_equal(v.state, VAL_NC);
	assert_int_equal(v.why, WHY_FDLIMIT);
	/* 1 of 2000 counted: some share, never shown as 0% or 100%. */
	v = val_partial(num(3, VAL_EXACT, 1000), 1, 1999, WHY_FDLIMIT);
	assert_int_equal(v.run_pm, 1);
	v = val_partial(num(3, VAL_EXACT, 1000), 1999, 1, WHY_FDLIMIT);
	assert_int_equal(v.run_pm, 999);
	/* A derived metric of a partial input is partial, below scaled and exact. */
	struct val r = val_ratio(num(10, VAL_SCALED, 500), num(2, VAL_PARTIAL, 300), 1);
	assert_int_equal(r.state, VAL_PARTIAL);
	assert_true(r.v == 5);
	r = val_ratio(num(10, VAL_PARTIAL, 300), val_missing(VAL_NC, WHY_NOT_RUN), 1);
	assert_int_equal(r.state, VAL_NC);
	assert_int_equal(val_suffix(num(1, VAL_SCALED, 500)), '~');
	assert_int_equal(val_suffix(num(1, VAL_EXACT, 1000)), 0);
	/* Worst first, whatever the enum's numbers (partial is last, for recordings). */
	assert_true(val_worse(num(1, VAL_PARTIAL, 500), num(1, VAL_EXACT, 1000)));
	assert_true(val_worse(num(1, VAL_PARTIAL, 500), num(1, VAL_SCALED, 500)));
	assert_false(val_worse(num(1, VAL_PARTIAL, 500), val_missing(VAL_NC, WHY_NOT_RUN)));
	assert_false(val_worse(num(1, VAL_EXACT, 1000), num(1, VAL_EXACT, 1000)));
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_never_scheduled),
		cmocka_unit_test(test_scale_multiplexed),
		cmocka_unit_test(test_scale_almost_full_never_100),
		cmocka_unit_test(test_scale_exact),
		cmocka_unit_test(test_scale_never_ran),
		cmocka_unit_test(test_scale_large_values),
		cmocka_unit_test(test_scale_run_pm_long_totals),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_marks_and_names),
		cmocka_unit_test(test_ratio_exact),
		cmocka_unit_test(test_ratio_zero_denominator),
		cmocka_unit_test(test_ratio_scaled),
		cmocka_unit_test(test_ratio_state_order),
		cmocka_unit_test(test_partial),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
