/* The replay screen's recorded clock: the header's times (a damaged file's time reads
 * "?", never a slice past the end of an empty string) and play's pace (a gap, forward or
 * backward, is played as one interval; a screen slower than the speed keeps the pace). */
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

/* A recording as replay_pace_pass's next: its ticks' recorded times, one interval. */
struct rec {
	const double *wall;
	unsigned n, at;
	double iv;
};

static int rec_next(void *ctx, double *wall, double *iv)
{
	struct rec *r = ctx;
	if (r->at + 1 >= r->n)
		return 1;
	r->at++;
	*wall = r->wall[r->at];
	*iv = r->iv;
	return 0;
}

/* Play r from its first tick at speed as the replay screen does: a pass when the wait
 * the last one returned is over (10 ms at least), or `slow` seconds later when the
 * screen takes that long. shown[i]: the monotonic time tick i came on the screen. */
static void play(struct rec *r, double speed, double slow, double *shown)
{
	struct replay_pace p;
	double now = 1000, wait = r->iv / speed;
	replay_pace_anchor(&p, now, r->wall[0], speed);
	shown[0] = now;
	while (r->at + 1 < r->n) {
		now += wait > slow ? wait : slow > 0.01 ? slow : 0.01;
		unsigned before = r->at;
		wait = replay_pace_pass(&p, now, r->wall[r->at], 100, rec_next, r);
		assert_true(r->at > before); /* a pass comes when a tick is due */
		for (unsigned i = before + 1; i <= r->at; i++)
			shown[i] = now;
		if (wait < 0)
			break;
	}
	assert_int_equal(r->at, r->n - 1);
}

enum { NT = 600 };

/* Each tick one interval over the speed after the one before, across a jump of the
 * recorded clock by `jump` seconds at tick 10. */
static void check_steady(double jump, double speed)
{
	static double wall[NT], shown[NT];
	for (unsigned i = 0; i < 40; i++)
		wall[i] = 1.8e9 + i + (i >= 10 ? jump : 0);
	struct rec r = {wall, 40, 0, 1.0};
	play(&r, speed, 0, shown);
	for (unsigned i = 1; i < 40; i++) {
		double d = shown[i] - shown[i - 1];
		if (fabs(d - 1.0 / speed) > 1e-6)
			fail_msg("jump %g at %gx: tick %u came %g s after the one before, not %g",
				 jump, speed, i, d, 1.0 / speed);
	}
}

static void test_pace_steady(void **state)
{
	(void)state;
	check_steady(0, 1);
	check_steady(0, 10);
	/* pmutop stopped for an hour, then recorded again: not waited out. */
	check_steady(3600, 1);
	check_steady(3600, 60);
}

/* The recorded clock stepped back (an NTP step, a VM resumed): the tick after the step
 * comes one interval after the one before, and play goes on at its pace from there, not
 * racing through the hour at once. */
static void test_pace_clock_back(void **state)
{
	(void)state;
	check_steady(-3600, 1);
	check_steady(-3600, 10);
	check_steady(-3600, 60);
	check_steady(-1.5, 10); /* less than an interval back: still in order, one apart */
}

/* A screen slower than the speed (a pass every 0.5 s at 60x, 1 s ticks): ticks due
 * together are stepped through in one pass, 30 of them, and the recording is played
 * at 60x all the same, a backward step of the clock in it or not. */
static void test_pace_slow_screen(void **state)
{
	(void)state;
	static double wall[NT], shown[NT];
	for (int back = 0; back < 2; back++) {
		for (unsigned i = 0; i < NT; i++)
			wall[i] = 1.8e9 + i - (back && i >= 300 ? 7200 : 0);
		struct rec r = {wall, NT, 0, 1.0};
		play(&r, 60, 0.5, shown);
		double took = shown[NT - 1] - shown[0];
		/* 599 s of recording at 60x: 10 s, give or take a pass (and the step's one). */
		if (took < 9.98 - 1.0 || took > 9.98 + 1.0)
			fail_msg("the slow screen played 599 s at 60x in %g s (back %d)", took,
				 back);
		unsigned most = 0, run = 0;
		for (unsigned i = 1; i < NT; i++) {
			run = shown[i] == shown[i - 1] ? run + 1 : 1;
			most = run > most ? run : most;
		}
		assert_in_range(most, 25, 35);
	}
}

/* The end of the recording: -1, nothing stepped past it. */
static void test_pace_end(void **state)
{
	(void)state;
	double wall[2] = {100, 101};
	struct rec r = {wall, 2, 1, 1.0};
	struct replay_pace p;
	replay_pace_anchor(&p, 0, 101, 1);
	assert_true(replay_pace_pass(&p, 5, 101, 100, rec_next, &r) < 0);
	assert_int_equal(r.at, 1);
	/* max: no more ticks in one pass than that, and the next pass is due at once. */
	static double many[NT];
	for (unsigned i = 0; i < NT; i++)
		many[i] = i;
	struct rec m = {many, NT, 0, 1.0};
	replay_pace_anchor(&p, 0, 0, 1);
	assert_true(replay_pace_pass(&p, 500, 0, 100, rec_next, &m) == 0);
	assert_int_equal(m.at, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_one_day),
		cmocka_unit_test(test_header_days),
		cmocka_unit_test(test_header_damaged_time),
		cmocka_unit_test(test_pace_steady),
		cmocka_unit_test(test_pace_clock_back),
		cmocka_unit_test(test_pace_slow_screen),
		cmocka_unit_test(test_pace_end),
	};
	return cmocka_run_group_tests(tests, setup_utc, NULL);
}
