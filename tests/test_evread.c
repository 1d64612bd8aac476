/* evread_parse_group over hand-built PERF_FORMAT_GROUP buffers: every layout the
 * read_format bits allow, ids in any order, and every malformed buffer refused. */
#include "testutil.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include "evread.h"

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

#define F_GROUP PERF_FORMAT_GROUP
#define F_TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define F_ID PERF_FORMAT_ID

/* A sentinel so that a parse that wrongly succeeds or wrongly writes shows up. */
static void poison(struct evread_group *g)
{
	memset(g, 0xa5, sizeof(*g));
}

static void test_words(void **state)
{
	(void)state;
	assert_int_equal(evread_group_words(F_GROUP, 3), 1 + 3);
	assert_int_equal(evread_group_words(F_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED, 3), 2 + 3);
	assert_int_equal(evread_group_words(F_GROUP | F_TIMES, 3), 3 + 3);
	assert_int_equal(evread_group_words(F_GROUP | F_TIMES | F_ID, 3), 3 + 6);
	assert_int_equal(evread_group_words(F_GROUP | F_TIMES | F_ID | PERF_FORMAT_LOST, 3), 3 + 9);
	assert_int_equal(evread_group_words(F_GROUP | F_TIMES | PERF_FORMAT_LOST, 2), 3 + 4);
	assert_int_equal(evread_group_words(F_GROUP | F_TIMES | F_ID, EVGROUP_MAX),
			 3 + 2 * EVGROUP_MAX);
}

static void test_group_only(void **state)
{
	(void)state;
	/* No times asked: ena and run read 0, values in order. */
	const uint64_t buf[] = {2, 11, 22};
	struct evread_group g;
	poison(&g);
	assert_int_equal(evread_parse_group(buf, 3, F_GROUP, 2, NULL, &g), 0);
	assert_int_equal(g.nr, 2);
	assert_int_equal(g.ena, 0);
	assert_int_equal(g.run, 0);
	assert_int_equal(g.val[0], 11);
	assert_int_equal(g.val[1], 22);
	assert_int_equal(g.lost[0], 0);
	assert_int_equal(g.lost[1], 0);
}

static void test_without_id(void **state)
{
	(void)state;
	const uint64_t buf[] = {3, 1000, 600, 7, 8, 9};
	struct evread_group g;
	poison(&g);
	assert_int_equal(evread_parse_group(buf, 6, F_GROUP | F_TIMES, 3, NULL, &g), 0);
	assert_int_equal(g.nr, 3);
	assert_int_equal(g.ena, 1000);
	assert_int_equal(g.run, 600);
	assert_int_equal(g.val[0], 7);
	assert_int_equal(g.val[1], 8);
	assert_int_equal(g.val[2], 9);
}

static void test_only_enabled_time(void **state)
{
	(void)state;
	/* TIME_ENABLED alone: the word after nr is ena, and run stays 0. */
	const uint64_t buf[] = {1, 500, 42};
	struct evread_group g;
	assert_int_equal(
		evread_parse_group(buf, 3, F_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED, 1, NULL, &g),
		0);
	assert_int_equal(g.ena, 500);
	assert_int_equal(g.run, 0);
	assert_int_equal(g.val[0], 42);
}

static void test_with_id_in_order(void **state)
{
	(void)state;
	const uint64_t ids[] = {100, 101, 102};
	const uint64_t buf[] = {3, 2000, 2000, 5, 100, 6, 101, 7, 102};
	struct evread_group g;
	poison(&g);
	assert_int_equal(evread_parse_group(buf, 9, F_GROUP | F_TIMES | F_ID, 3, ids, &g), 0);
	assert_int_equal(g.ena, 2000);
	assert_int_equal(g.run, 2000);
	assert_int_equal(g.val[0], 5);
	assert_int_equal(g.val[1], 6);
	assert_int_equal(g.val[2], 7);
}

static void test_ids_out_of_order(void **state)
{
	(void)state;
	/* The buffer lists member 2, then 0, then 1: each value lands on its member. */
	const uint64_t ids[] = {100, 101, 102};
	const uint64_t buf[] = {3, 10, 10, 777, 102, 555, 100, 666, 101};
	struct evread_group g;
	assert_int_equal(evread_parse_group(buf, 9, F_GROUP | F_TIMES | F_ID, 3, ids, &g), 0);
	assert_int_equal(g.val[0], 555);
	assert_int_equal(g.val[1], 666);
	assert_int_equal(g.val[2], 777);
}

static void test_with_id_no_map(void **state)
{
	(void)state;
	/* ids NULL: the ids in the buffer are skipped, values kept in buffer order. */
	const uint64_t buf[] = {2, 1, 1, 31, 9001, 32, 9000};
	struct evread_group g;
	assert_int_equal(evread_parse_group(buf, 7, F_GROUP | F_TIMES | F_ID, 2, NULL, &g), 0);
	assert_int_equal(g.val[0], 31);
	assert_int_equal(g.val[1], 32);
}

static void test_with_lost(void **state)
{
	(void)state;
	/* value, id, lost per member; out of order so lost must follow its value. */
	const uint64_t ids[] = {40, 41};
	const uint64_t fmt = F_GROUP | F_TIMES | F_ID | PERF_FORMAT_LOST;
	const uint64_t buf[] = {2, 900, 300, 222, 41, 3, 111, 40, 0};
	struct evread_group g;
	poison(&g);
	assert_int_equal(evread_parse_group(buf, 9, fmt, 2, ids, &g), 0);
	assert_int_equal(g.ena, 900);
	assert_int_equal(g.run, 300);
	assert_int_equal(g.val[0], 111);
	assert_int_equal(g.lost[0], 0);
	assert_int_equal(g.val[1], 222);
	assert_int_equal(g.lost[1], 3);
}

static void test_lost_without_id(void **state)
{
	(void)state;
	const uint64_t buf[] = {2, 5, 5, 10, 1, 20, 2};
	struct evread_group g;
	assert_int_equal(
		evread_parse_group(buf, 7, F_GROUP | F_TIMES | PERF_FORMAT_LOST, 2, NULL, &g), 0);
	assert_int_equal(g.val[0], 10);
	assert_int_equal(g.lost[0], 1);
	assert_int_equal(g.val[1], 20);
	assert_int_equal(g.lost[1], 2);
}

static void test_full_group_reversed(void **state)
{
	(void)state;
	/* EVGROUP_MAX members listed last to first. */
	uint64_t ids[EVGROUP_MAX], buf[3 + 2 * EVGROUP_MAX];
	buf[0] = EVGROUP_MAX;
	buf[1] = buf[2] = 77;
	for (unsigned i = 0; i < EVGROUP_MAX; i++)
		ids[i] = 1000 + 7 * i;
	for (unsigned i = 0; i < EVGROUP_MAX; i++) {
		unsigned from = EVGROUP_MAX - 1 - i;
		buf[3 + 2 * i] = 50 + from;
		buf[4 + 2 * i] = ids[from];
	}
	struct evread_group g;
	assert_int_equal(evread_parse_group(buf, 3 + 2 * EVGROUP_MAX, F_GROUP | F_TIMES | F_ID,
					    EVGROUP_MAX, ids, &g),
			 0);
	assert_int_equal(g.nr, EVGROUP_MAX);
	for (unsigned i = 0; i < EVGROUP_MAX; i++)
		assert_int_equal(g.val[i], 50 + i);
}

static void test_longer_buffer_ok(void **state)
{
	(void)state;
	/* Words after the last member are not the parser's business. */
	const uint64_t buf[] = {1, 3, 3, 99, 12345, 12345};
	struct evread_group g;
	assert_int_equal(evread_parse_group(buf, 6, F_GROUP | F_TIMES, 1, NULL, &g), 0);
	assert_int_equal(g.val[0], 99);
}

static void test_unknown_id(void **state)
{
	(void)state;
	const uint64_t ids[] = {100, 101};
	const uint64_t buf[] = {2, 1, 1, 5, 100, 6, 999};
	struct evread_group g;
	assert_int_equal(evread_parse_group(buf, 7, F_GROUP | F_TIMES | F_ID, 2, ids, &g), -EINVAL);
}

static void test_duplicated_id(void **state)
{
	(void)state;
	/* Two values claiming member 1: member 0 would silently keep a stale value. */
	const uint64_t ids[] = {100, 101};
	const uint64_t buf[] = {2, 1, 1, 5, 101, 6, 101};
	struct evread_group g;
	assert_int_equal(evread_parse_group(buf, 7, F_GROUP | F_TIMES | F_ID, 2, ids, &g), -EINVAL);
}

static void test_nr_mismatch(void **state)
{
	(void)state;
	const uint64_t three[] = {3, 1, 1, 5, 6, 7};
	const uint64_t one[] = {1, 1, 1, 5, 6, 7};
	const uint64_t zero[] = {0, 1, 1, 5, 6, 7};
	struct evread_group g;
	assert_int_equal(evread_parse_group(three, 6, F_GROUP | F_TIMES, 2, NULL, &g), -EINVAL);
	assert_int_equal(evread_parse_group(one, 6, F_GROUP | F_TIMES, 2, NULL, &g), -EINVAL);
	assert_int_equal(evread_parse_group(zero, 6, F_GROUP | F_TIMES, 2, NULL, &g), -EINVAL);
}

static void test_short_buffer(void **state)
{
	(void)state;
	const uint64_t buf[] = {2, 1, 1, 5, 100, 6, 101};
	const uint64_t ids[] = {100, 101};
	struct evread_group g;
	/* One word short, for each layout. */
	assert_int_equal(evread_parse_group(buf, 6, F_GROUP | F_TIMES | F_ID, 2, ids, &g), -EINVAL);
	assert_int_equal(evread_parse_group(buf, 4, F_GROUP | F_TIMES, 2, NULL, &g), -EINVAL);
	assert_int_equal(evread_parse_group(buf, 2, F_GROUP, 2, NULL, &g), -EINVAL);
	/* Not even nr. */
	assert_int_equal(evread_parse_group(buf, 0, F_GROUP, 2, NULL, &g), -EINVAL);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	const uint64_t buf[] = {2, 1, 1, 5, 6};
	struct evread_group g;
	/* Without PERF_FORMAT_GROUP the layout is a single event's. */
	assert_int_equal(evread_parse_group(buf, 5, F_TIMES, 2, NULL, &g), -EINVAL);
	/* No members expected, or more than a group can hold. */
	assert_int_equal(evread_parse_group(buf, 5, F_GROUP | F_TIMES, 0, NULL, &g), -EINVAL);
	uint64_t big[3 + EVGROUP_MAX + 1] = {EVGROUP_MAX + 1};
	assert_int_equal(evread_parse_group(big, 3 + EVGROUP_MAX + 1, F_GROUP | F_TIMES,
					    EVGROUP_MAX + 1, NULL, &g),
			 -EINVAL);
}

static void test_error_leaves_out_alone(void **state)
{
	(void)state;
	/* A refused buffer must not be half-applied to the caller's previous read. */
	const uint64_t ids[] = {100, 101};
	const uint64_t buf[] = {2, 9, 9, 5, 100, 6, 555};
	struct evread_group g, before;
	poison(&g);
	before = g;
	assert_int_equal(evread_parse_group(buf, 7, F_GROUP | F_TIMES | F_ID, 2, ids, &g), -EINVAL);
	assert_memory_equal(&g, &before, sizeof(g));
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_group_only),
		cmocka_unit_test(test_without_id),
		cmocka_unit_test(test_only_enabled_time),
		cmocka_unit_test(test_with_id_in_order),
		cmocka_unit_test(test_ids_out_of_order),
		cmocka_unit_test(test_with_id_no_map),
		cmocka_unit_test(test_with_lost),
		cmocka_unit_test(test_lost_without_id),
		cmocka_unit_test(test_full_group_reversed),
		cmocka_unit_test(test_longer_buffer_ok),
		cmocka_unit_test(test_unknown_id),
		cmocka_unit_test(test_duplicated_id),
		cmocka_unit_test(test_nr_mismatch),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_error_leaves_out_alone),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
