/* The recording's text parts: cells as the recorder writes them and the replay reads
 * them back, the times --begin, --end and b take, and --max-size. */
#include "testutil.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recfmt.h"

static void test_cells_round_trip(void **state)
{
	(void)state;
	struct val v[5] = {
		{.v = 12, .state = VAL_EXACT, .why = WHY_NONE, .run_pm = 1000},
		{.v = 0, .state = VAL_NA, .why = WHY_UNSUPPORTED, .run_pm = 0},
		{.v = 0, .state = VAL_NC, .why = WHY_NOT_RUN, .run_pm = 0},
		{.v = 3.5, .state = VAL_SCALED, .why = WHY_NONE, .run_pm = 512},
		{.v = 0, .state = VAL_NA, .why = WHY_FDLIMIT, .run_pm = 0},
	};
	char buf[64];
	assert_int_equal(recfmt_cells(v, 5, buf, sizeof(buf)), strlen("x-aucrs-af,3:512"));
	assert_string_equal(buf, "x-aucrs-af,3:512");
	struct val back[5];
	memset(back, 0xff, sizeof(back));
	assert_int_equal(recfmt_parse_cells(buf, back, 5), 0);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(back[i].state, v[i].state);
		assert_int_equal(back[i].why, v[i].why);
		assert_int_equal(back[i].run_pm, v[i].run_pm);
	}
	/* An exact value that did not run the whole time keeps its share too. */
	struct val odd = {.v = 1, .state = VAL_EXACT, .run_pm = 999};
	assert_true(recfmt_cells(&odd, 1, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "x-,0:999");
	/* A partial sum keeps its state, reason and share of parts counted. */
	struct val part = {.v = 7, .state = VAL_PARTIAL, .why = WHY_FDLIMIT, .run_pm = 250};
	assert_true(recfmt_cells(&part, 1, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "pf,0:250");
	memset(back, 0xff, sizeof(back));
	assert_int_equal(recfmt_parse_cells(buf, back, 1), 0);
	assert_int_equal(back[0].state, VAL_PARTIAL);
	assert_int_equal(back[0].why, WHY_FDLIMIT);
	assert_int_equal(back[0].run_pm, 250);
	/* Too small a buffer: nothing half written is taken for cells. */
	assert_int_equal(recfmt_cells(v, 5, buf, 8), 0);
}

/* Every reason a value is n/a or n/c has its letter in a recording, and its words. */
static void test_every_why(void **state)
{
	(void)state;
	for (unsigned w = WHY_NONE; w <= WHY_SWITCH; w++) {
		struct val v = {.state = VAL_NC, .why = (uint8_t)w}, back;
		char buf[16];
		assert_int_equal(recfmt_cells(&v, 1, buf, sizeof(buf)), 2);
		assert_int_equal(recfmt_parse_cells(buf, &back, 1), 0);
		assert_int_equal(back.why, w);
		if (w != WHY_ERROR)
			assert_string_not_equal(val_why_str((enum val_why)w), "error");
	}
	assert_string_equal(val_why_str(WHY_UNSEEN), "switch not seen");
	assert_string_equal(val_why_str(WHY_SWITCH), "switch window counted");
}

static void test_cells_refused(void **state)
{
	(void)state;
	struct val v[2];
	assert_int_equal(recfmt_parse_cells("x-", v, 2), -EINVAL);	 /* one short */
	assert_int_equal(recfmt_parse_cells("x-x-x-", v, 2), -EINVAL);	 /* one over */
	assert_int_equal(recfmt_parse_cells("q-x-", v, 2), -EINVAL);	 /* no such state */
	assert_int_equal(recfmt_parse_cells("x-x-,2:5", v, 2), -EINVAL); /* no value 2 */
	assert_int_equal(recfmt_parse_cells("x-x-,1:1001", v, 2), -EINVAL);
	assert_int_equal(recfmt_parse_cells("x-x-,1:", v, 2), -EINVAL);
	assert_int_equal(recfmt_parse_cells("x-x-,1:5", v, 2), 0);
	assert_int_equal(v[1].run_pm, 5);
}

static void test_times(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	double first = 1795510000.0; /* 2026-11-24 08:46:40 UTC */
	double last = first + 7200, t;
	assert_int_equal(recfmt_parse_time("09:00", first, last, &t), 0);
	assert_true(t == 1795510800.0);
	assert_int_equal(recfmt_parse_time("08:50:05", first, last, &t), 0);
	assert_true(t == 1795510000.0 + 205);
	/* Before the recording began that day: the next day's. */
	assert_int_equal(recfmt_parse_time("01:30", first, last, &t), 0);
	assert_true(t == 1795570200.0);
	assert_int_equal(recfmt_parse_time("-10m", first, last, &t), 0);
	assert_true(t == last - 600);
	assert_int_equal(recfmt_parse_time("+1h", first, last, &t), 0);
	assert_true(t == first + 3600);
	assert_int_equal(recfmt_parse_time("-90", first, last, &t), 0);
	assert_true(t == last - 90);
	assert_int_equal(recfmt_parse_time("2026-11-25 00:00", first, last, &t), 0);
	assert_true(t == 1795564800.0);
	assert_int_equal(recfmt_parse_time("2026-11-25T00:00:30", first, last, &t), 0);
	assert_true(t == 1795564830.0);
	assert_int_equal(recfmt_parse_time("@1795510001.5", first, last, &t), 0);
	assert_true(t == 1795510001.5);
	/* As pmutop prints a tick's time (CSV's wall and at, rounded to the millisecond;
	 * whole seconds cut): the instants printed so, a tick stored with more digits in. */
	double lo, hi, tick = 1795510205.30712;
	const char *as_printed[] = {"08:50:05.307", "@1795510205.307",
				    "2026-11-24T08:50:05.307+00:00",
				    "2026-11-24T09:50:05.307+01:00", "2026-11-24 08:50:05.307"};
	for (size_t i = 0; i < sizeof(as_printed) / sizeof(as_printed[0]); i++) {
		assert_int_equal(recfmt_parse_when(as_printed[i], first, last, &lo, &hi), 0);
		if (!(lo <= tick && tick <= hi && hi - lo < 0.0011 && lo > tick - 0.0011))
			fail_msg("%s: %.6f to %.6f", as_printed[i], lo, hi);
	}
	assert_int_equal(recfmt_parse_when("08:50:05", first, last, &lo, &hi), 0);
	assert_true(lo == 1795510205.0 && hi > 1795510205.999 && hi < 1795510206.0);
	assert_int_equal(recfmt_parse_when("-10m", first, last, &lo, &hi), 0);
	assert_true(lo == last - 600 && hi == lo);
	assert_int_equal(recfmt_parse_when("2026-11-24T08:50:05.307+0100x", first, last, &lo, &hi),
			 -EINVAL);
	const char *bad[] = {"",     "9",    "25:00", "12:60",	    "12:00:61x",    "-",
			     "-10x", "--5m", "+-5",   "2026-11-25", "2026-11-25 9", "@",
			     "@x",   "noon"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (recfmt_parse_time(bad[i], first, last, &t) != -EINVAL)
			fail_msg("'%s' was taken for a time", bad[i]);
	char buf[32];
	assert_string_equal(recfmt_time_text(1795510000.0, buf, sizeof(buf)),
			    "2026-11-24 08:46:40");
	/* A damaged file's times: no text, and no conversion out of time_t's range (UBSan). */
	const double wild[] = {1e300, -1e300, NAN, INFINITY};
	for (size_t i = 0; i < sizeof(wild) / sizeof(wild[0]); i++)
		assert_string_equal(recfmt_time_text(wild[i], buf, sizeof(buf)), "");
}

static void test_sizes(void **state)
{
	(void)state;
	uint64_t n;
	assert_int_equal(recfmt_parse_size("500M", &n), 0);
	assert_true(n == 500ull << 20);
	assert_int_equal(recfmt_parse_size("2G", &n), 0);
	assert_true(n == 2ull << 30);
	assert_int_equal(recfmt_parse_size("10MB", &n), 0);
	assert_true(n == 10ull << 20);
	assert_int_equal(recfmt_parse_size("1048576", &n), 0);
	assert_true(n == 1048576);
	const char *bad[] = {"", "0", "M", "-1", "5X", "5MBB", "1e3", "99999999999T"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (recfmt_parse_size(bad[i], &n) != -EINVAL)
			fail_msg("'%s' was taken for a size", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells_round_trip),
		cmocka_unit_test(test_cells_refused),
		cmocka_unit_test(test_every_why),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
