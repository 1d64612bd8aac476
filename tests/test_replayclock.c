/* The replay screen's recorded clock: the header's times (a damaged file's time reads
 * "?", never a slice past the end of an empty string). */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replayclock.h"

static double utc(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = {.tm_year = y - 1900,
			.tm_mon = mo - 1,
			.tm_mday = d,
			.tm_hour = h,
			.tm_min = mi,
			.tm_sec = s};
	return (double)timegm(&tm);
}

static int setup_utc(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static void test_header_one_day(void **state)
{
	(void)state;
	char buf[256];
	double range[2] = {utc(2026, 11, 27, 23, 22, 41), utc(2026, 11, 27, 23, 40, 2)};
	replay_header_text(buf, sizeof(buf), "REPLAY", 10, range[0] + 60.5, 3, 120, range);
	assert_string_equal(buf, "REPLAY 2026-11-27 23:23:41 (3/120) 10x\t"
				 "REPLAY 23:23:41 (3/120) 10x\t"
				 "2026-11-27 23:22:41 to 23:40:02\t"
				 "23:22:41-23:40:02");
}

static void test_header_days(void **state)
{
	(void)state;
	char buf[256];
	/* Another day, and another year: the dates are said. */
	double range[2] = {utc(2026, 11, 27, 23, 22, 41), utc(2026, 11, 28, 1, 0, 9)};
	replay_header_text(buf, sizeof(buf), "PLAY", 60, range[1], 7, 7, range);
	assert_string_equal(buf, "PLAY 2026-11-28 01:00:09 (7/7) 60x\t"
				 "PLAY 01:00:09 (7/7) 60x\t"
				 "2026-11-27 23:22:41 to 2026-11-28 01:00:09\t"
				 "11-27 23:22-11-28 01:00");
	range[0] = utc(2025, 11, 28, 0, 0, 0); /* the same day of the year a year before */
	range[1] = utc(2026, 11, 28, 0, 0, 0);
	replay_header_text(buf, sizeof(buf), "REPLAY", 1, range[0], 1, 2, range);
	assert_non_null(strstr(buf, "\t2025-11-28 00:00:00 to 2026-11-28 00:00:00\t"));
	/* No range known: the field alone. */
	replay_header_text(buf, sizeof(buf), "REPLAY", 1, range[0], 1, 2, NULL);
	assert_string_equal(buf, "REPLAY 2025-11-28 00:00:00 1x");
}

/* A damaged or hand-edited file: a time out of range is "?", in every part, and the
 * text is whole (it was a slice 5 and 11 characters into "": stack read past it). */
static void test_header_damaged_time(void **state)
{
	(void)state;
	char buf[256];
	double ok = utc(2026, 11, 27, 23, 22, 41);
	double bad[] = {1e16, -1e16, NAN, INFINITY};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 'Z', sizeof(buf));
		double all_bad[2] = {bad[i], bad[i]};
		replay_header_text(buf, sizeof(buf), "REPLAY", 1, bad[i], 1, 3, all_bad);
		assert_string_equal(buf, "REPLAY ? (1/3) 1x\tREPLAY ? (1/3) 1x\t? to ?\t?-?");
		/* One end damaged: the other is said whole, never sliced by a day's test. */
		double one_bad[2] = {ok, bad[i]};
		replay_header_text(buf, sizeof(buf), "PLAY", 10, ok, 1, 3, one_bad);
		assert_string_equal(buf, "PLAY 2026-11-27 23:22:41 (1/3) 10x\t"
					 "PLAY 23:22:41 (1/3) 10x\t"
					 "2026-11-27 23:22:41 to ?\t11-27 23:22-?");
		double first_bad[2] = {bad[i], ok};
		replay_header_text(buf, sizeof(buf), "PLAY", 10, ok, 1, 3, first_bad);
		assert_non_null(strstr(buf, "\t? to 2026-11-27 23:22:41\t?-11-27 23:22"));
		replay_header_text(buf, sizeof(buf), "REPLAY", 1, bad[i], 1, 3, NULL);
		assert_string_equal(buf, "REPLAY ? 1x");
	}
	/* A short buffer is cut, still terminated. */
	double range[2] = {ok, ok};
	memset(buf, 'Z', sizeof(buf));
	replay_header_text(buf, 12, "REPLAY", 1, ok, 1, 3, range);
	assert_string_equal(buf, "REPLAY 2026");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_one_day),
		cmocka_unit_test(test_header_days),
		cmocka_unit_test(test_header_damaged_time),
	};
	return cmocka_run_group_tests(tests, setup_utc, NULL);
}
