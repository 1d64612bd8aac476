/* A recording whose clock stepped back while it recorded (an NTP step, a VM resumed):
 * pmutop -r FILE -b prints every tick in the order recorded, from the first, not from
 * the earliest in time (that left out every tick before the step); --begin still finds
 * the first tick recorded at or after the time it gives. */
#include "testutil.h"

#include <sqlite3.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256], out[8 << 20], err[8192];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/pmutop-replayorder.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The tick numbers of the batch blocks in out ("... - tick N at ..."), into t. */
static unsigned ticks_printed(unsigned *t, unsigned max)
{
	unsigned n = 0;
	for (const char *s = out; (s = strstr(s, " - tick ")) && n < max; s++)
		t[n++] = (unsigned)strtoul(s + 8, NULL, 10);
	return n;
}

/* A tick's checksum (recfmt_tick_sum: crc32 over 18 numbers of 8 little-endian bytes,
 * the wall time the 11th) with its wall time changed: crc32 is linear, so the sum moves
 * by the sum of the change alone (and of as many zero bytes). */
static uint32_t rewall_sum(uint32_t ck, double from, double to)
{
	unsigned char d[18 * 8] = {0}, z[18 * 8] = {0};
	uint64_t a, b;
	memcpy(&a, &from, sizeof(a));
	memcpy(&b, &to, sizeof(b));
	for (int i = 0; i < 8; i++)
		d[80 + i] = (unsigned char)((a ^ b) >> (8 * i));
	return ck ^ (uint32_t)crc32(0, d, sizeof(d)) ^ (uint32_t)crc32(0, z, sizeof(z));
}

static void test_clock_back(void **state)
{
	(void)state;
	char file[300], begin[64];
	snprintf(file, sizeof(file), "%s/back.pmutop", dir);
	char *rec[] = {PMUTOP_BINARY, "-b", "-q", "-n", "6", "-d", "0.1", "-w", file, NULL};
	int st = testutil_run(rec, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* Ticks 4 to 6 an hour before ticks 1 to 3, their checksums made again. */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT seq, wall, ck FROM ticks WHERE seq > 3", -1,
					    &q, NULL),
			 SQLITE_OK);
	/* The new time bound as a double, not printed into the SQL: SQLite's text-to-double
	 * conversion uses long double, which valgrind runs at double precision, so a
	 * printed time could read back one unit apart and fail its sum. */
	sqlite3_stmt *up;
	assert_int_equal(sqlite3_prepare_v2(db,
					    "UPDATE ticks SET wall = ?1, ck = ?2 WHERE seq = ?3",
					    -1, &up, NULL),
			 SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		double w = sqlite3_column_double(q, 1);
		sqlite3_bind_double(up, 1, w - 3600);
		sqlite3_bind_int64(up, 2,
				   rewall_sum((uint32_t)sqlite3_column_int64(q, 2), w, w - 3600));
		sqlite3_bind_int64(up, 3, sqlite3_column_int64(q, 0));
		assert_int_equal(sqlite3_step(up), SQLITE_DONE);
		sqlite3_reset(up);
	}
	sqlite3_finalize(up);
	sqlite3_finalize(q);
	assert_int_equal(
		sqlite3_prepare_v2(db, "SELECT wall FROM ticks WHERE seq = 5", -1, &q, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	snprintf(begin, sizeof(begin), "@%.3f", sqlite3_column_double(q, 0) - 0.01);
	sqlite3_finalize(q);
	sqlite3_close(db);

	char *rep[] = {PMUTOP_BINARY, "-r", file, "-b", NULL};
	st = testutil_run(rep, out, sizeof(out), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("-r -b exit %d: %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
	unsigned t[16];
	unsigned n = ticks_printed(t, 16);
	if (n != 6)
		fail_msg("-r -b printed %u ticks of 6 (the first: %u)", n, n ? t[0] : 0);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(t[i], i + 1);

	/* --begin just before tick 5's time: from tick 5, in the file's order after it. */
	char *from[] = {PMUTOP_BINARY, "-r", file, "-b", "--begin", begin, NULL};
	st = testutil_run(from, out, sizeof(out), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("-r -b --begin %s exit %d: %s", begin,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
	n = ticks_printed(t, 16);
	assert_int_equal(n, 2);
	assert_int_equal(t[0], 5);
	assert_int_equal(t[1], 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_back),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
