/* The packed rows of a recorded tick (src/recpack): what is written reads back the same,
 * bit for bit, and a damaged record is an error at every cut and every flipped byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recpack.h"

#define NEV 13
#define NGR 4

struct row {
	struct recpack_row r;
	struct val v[NEV];
	struct val_delta g[NGR];
};

static void make_rows(struct row *rows, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		struct row *x = &rows[k];
		memset(x, 0, sizeof(*x));
		x->r.task = 1 + 3 * (int64_t)k + (k > 5 ? 1000000 : 0);
		x->r.cpu_pct = k % 4 == 1 ? 37.123456789 : -1;
		x->r.exited = k % 5 == 2;
		if (k % 3 == 0) {
			x->r.cells = "x-x-a-c-s-x-x-x-x-x-x-x-x-,4:512";
			x->r.ncells = strlen(x->r.cells);
		}
		x->r.mem = k % 2;
		x->r.rss_kb = 123456789ull * k;
		x->r.state = "RSDZ"[k % 4];
		for (unsigned i = 0; i < NEV; i++) {
			double v = 0;
			switch ((i + k) % 6) {
			case 1:
				v = 1;
				break;
			case 2:
				v = 999999999999.0;
				break;
			case 3:
				v = 1234.5678; /* scaled */
				break;
			case 4:
				v = 9007199254740993.0 * 4; /* beyond whole doubles */
				break;
			case 5:
				v = -3;
				break;
			default:
				break;
			}
			x->v[i].v = v;
		}
		for (unsigned g = 0; g < NGR; g++) {
			if ((g + k) % 3 == 0)
				continue;
			x->g[g].ena = 1000000000ull + 17 * g + k;
			x->g[g].run = g == 2 ? x->g[g].ena / 3 : x->g[g].ena;
		}
		if (k == 4) /* a group that ran longer than it was enabled reads back too */
			x->g[1].run = x->g[1].ena + 5;
	}
}

static size_t pack_fmt(unsigned fmt, const struct row *rows, unsigned n, struct recpack_buf *b)
{
	int64_t prev = 0;
	for (unsigned k = 0; k < n; k++) {
		assert_int_equal(
			recpack_put_fmt(b, fmt, prev, &rows[k].r, rows[k].v, NEV, rows[k].g, NGR),
			0);
		prev = rows[k].r.task;
	}
	return b->len;
}

static size_t pack(const struct row *rows, unsigned n, struct recpack_buf *b)
{
	return pack_fmt(2, rows, n, b);
}

/* Formats 2 and 3 (the first group's enabled time from the first value). */
static void test_round_trip(void **state)
{
	(void)state;
	for (unsigned fmt = 2; fmt <= 3; fmt++) {
		struct row rows[12], got;
		make_rows(rows, 12);
		struct recpack_buf b = {0};
		size_t len = pack_fmt(fmt, rows, 12, &b);
		size_t pos = 0;
		int64_t prev = 0;
		for (unsigned k = 0; k < 12; k++) {
			assert_int_equal(recpack_next_fmt(fmt, b.b, len, &pos, prev, &got.r, got.v,
							  NEV, got.g, NGR),
					 1);
			const struct recpack_row *w = &rows[k].r;
			assert_int_equal(got.r.task, w->task);
			assert_int_equal(got.r.exited, w->exited);
			assert_memory_equal(&got.r.cpu_pct, &w->cpu_pct, sizeof(double));
			assert_int_equal(got.r.cells != NULL, w->cells != NULL);
			if (w->cells) {
				assert_int_equal(got.r.ncells, w->ncells);
				assert_memory_equal(got.r.cells, w->cells, w->ncells);
			}
			assert_int_equal(got.r.mem, w->mem);
			if (w->mem) {
				assert_int_equal(got.r.rss_kb, w->rss_kb);
				assert_int_equal(got.r.state, w->state);
			}
			for (unsigned i = 0; i < NEV; i++)
				assert_memory_equal(&got.v[i].v, &rows[k].v[i].v, sizeof(double));
			for (unsigned g = 0; g < NGR; g++) {
				assert_int_equal(got.g[g].ena, rows[k].g[g].ena);
				assert_int_equal(got.g[g].run, rows[k].g[g].run);
			}
			prev = got.r.task;
		}
		assert_int_equal(
			recpack_next_fmt(fmt, b.b, len, &pos, prev, &got.r, got.v, NEV, got.g, NGR),
			0);
		assert_int_equal(pos, len);
		recpack_free(&b);
	}
}

/* Format 3: a task's enabled time, about the task-clock it ran, costs a byte or two as
 * the difference, not the 3 to 5 of the time itself; and reads back the same. */
static void test_enabled_from_clock(void **state)
{
	(void)state;
	struct row x, got;
	memset(&x, 0, sizeof(x));
	x.r.task = 7;
	x.r.cpu_pct = -1;
	x.v[0].v = 1084936; /* task-clock, ns */
	x.v[1].v = 14;
	x.g[0].ena = 1084764;
	x.g[0].run = 1084764;
	struct recpack_buf b2 = {0}, b3 = {0};
	assert_int_equal(recpack_put_fmt(&b2, 2, 0, &x.r, x.v, NEV, x.g, NGR), 0);
	assert_int_equal(recpack_put_fmt(&b3, 3, 0, &x.r, x.v, NEV, x.g, NGR), 0);
	assert_int_equal(b2.len - b3.len, 1); /* 3 bytes of 1,084,764 against 2 of -172 */
	size_t pos = 0;
	assert_int_equal(recpack_next_fmt(3, b3.b, b3.len, &pos, 0, &got.r, got.v, NEV, got.g, NGR),
			 1);
	assert_int_equal(got.g[0].ena, 1084764);
	assert_int_equal(got.g[0].run, 1084764);
	/* A first value that is no whole number (scaled): the time as it is. */
	x.v[0].v = 1084936.5;
	b3.len = 0;
	assert_int_equal(recpack_put_fmt(&b3, 3, 0, &x.r, x.v, NEV, x.g, NGR), 0);
	pos = 0;
	assert_int_equal(recpack_next_fmt(3, b3.b, b3.len, &pos, 0, &got.r, got.v, NEV, got.g, NGR),
			 1);
	assert_int_equal(got.g[0].ena, 1084764);
	recpack_free(&b2);
	recpack_free(&b3);
}

/* An idle-looking row of an active task costs a few bytes: the size target rests on it. */
static void test_small_rows(void **state)
{
	(void)state;
	struct row x;
	memset(&x, 0, sizeof(x));
	x.r.task = 7;
	x.r.cpu_pct = -1;
	x.v[0].v = 300000; /* task-clock, ns */
	x.v[1].v = 10;	   /* context switches */
	x.g[0].ena = x.g[0].run = 310000;
	struct recpack_buf b = {0};
	assert_int_equal(recpack_put(&b, 6, &x.r, x.v, NEV, x.g, NGR), 0);
	/* delta and no flags 1, value map 1, 3 + 1 value bytes, group map 1, 3 + 1 group
	 * bytes */
	assert_int_equal(b.len, 11);
	recpack_free(&b);
}

static void test_order_enforced(void **state)
{
	(void)state;
	struct row rows[1];
	make_rows(rows, 1);
	struct recpack_buf b = {0};
	assert_int_equal(
		recpack_put(&b, rows[0].r.task, &rows[0].r, rows[0].v, NEV, rows[0].g, NGR),
		-EINVAL);
	recpack_free(&b);
}

/* Every cut of a record and every byte changed reads as damage or as some rows, never
 * past the end (ASan and valgrind watch the reads). */
static void test_damage(void **state)
{
	(void)state;
	struct row rows[8], got;
	make_rows(rows, 8);
	struct recpack_buf b = {0};
	size_t len = pack(rows, 8, &b);
	unsigned errors = 0;
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *copy = malloc(cut ? cut : 1);
		assert_non_null(copy);
		memcpy(copy, b.b, cut);
		size_t pos = 0;
		int64_t prev = 0;
		int rc;
		while ((rc = recpack_next(copy, cut, &pos, prev, &got.r, got.v, NEV, got.g, NGR)) ==
		       1) {
			assert_true(pos <= cut);
			prev = got.r.task;
		}
		errors += rc < 0;
		free(copy);
	}
	/* A cut inside a row is damage; only cuts at row boundaries end cleanly (8 rows). */
	assert_true(errors >= len - 8);
	unsigned char *copy = malloc(len);
	assert_non_null(copy);
	for (size_t i = 0; i < len; i++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			memcpy(copy, b.b, len);
			copy[i] ^= (unsigned char)(1u << bit);
			size_t pos = 0;
			int64_t prev = 0;
			while (recpack_next(copy, len, &pos, prev, &got.r, got.v, NEV, got.g,
					    NGR) == 1) {
				assert_true(pos <= len);
				assert_true(got.r.task > prev);
				prev = got.r.task;
			}
		}
	}
	free(copy);
	/* A map bit past the last event is damage. */
	struct recpack_buf one = {0};
	struct row x;
	memset(&x, 0, sizeof(x));
	x.r.task = 1;
	x.r.cpu_pct = -1;
	assert_int_equal(recpack_put(&one, 0, &x.r, x.v, NEV, x.g, NGR), 0);
	size_t pos = 0;
	assert_int_equal(recpack_next(one.b, one.len, &pos, 0, &got.r, got.v, 3, got.g, NGR), 1);
	one.b[1] |= 0x20; /* the value map's bit 5: event 5 of 3 */
	pos = 0;
	assert_int_equal(recpack_next(one.b, one.len, &pos, 0, &got.r, got.v, 3, got.g, NGR),
			 -EINVAL);
	recpack_free(&one);
	recpack_free(&b);
}

/* Format 3's ticks by column: the rows read back the same, bit for bit; a record cut
 * anywhere is an error, a flipped byte never a wild read. */
static void test_tick_columns(void **state)
{
	(void)state;
	struct row rows[12];
	make_rows(rows, 12);
	struct recpack_row pr[12];
	const struct val *pv[12];
	const struct val_delta *pg[12];
	for (unsigned k = 0; k < 12; k++) {
		pr[k] = rows[k].r;
		pv[k] = rows[k].v;
		pg[k] = rows[k].g;
	}
	struct recpack_buf b = {0};
	assert_int_equal(recpack_put_tick(&b, pr, pv, pg, 12, NEV, NGR), 0);
	struct recpack_tick t = {0};
	assert_int_equal(recpack_get_tick(b.b, b.len, NEV, NGR, &t), 0);
	assert_int_equal(t.n, 12);
	for (unsigned k = 0; k < 12; k++) {
		const struct recpack_row *w = &rows[k].r, *got = &t.rows[k];
		assert_int_equal(got->task, w->task);
		assert_int_equal(got->exited, w->exited);
		assert_memory_equal(&got->cpu_pct, &w->cpu_pct, sizeof(double));
		assert_int_equal(got->cells != NULL, w->cells != NULL);
		if (w->cells) {
			assert_int_equal(got->ncells, w->ncells);
			assert_memory_equal(got->cells, w->cells, w->ncells);
		}
		assert_int_equal(got->mem, w->mem);
		if (w->mem) {
			assert_int_equal(got->rss_kb, w->rss_kb);
			assert_int_equal(got->state, w->state);
		}
		for (unsigned i = 0; i < NEV; i++)
			assert_memory_equal(&t.v[k * (NEV + 1) + i].v, &rows[k].v[i].v,
					    sizeof(double));
		for (unsigned g = 0; g < NGR; g++) {
			assert_int_equal(t.g[k * (NGR + 1) + g].ena, rows[k].g[g].ena);
			assert_int_equal(t.g[k * (NGR + 1) + g].run, rows[k].g[g].run);
		}
	}
	/* Task ids that do not increase are refused. */
	struct recpack_buf bad = {0};
	pr[3].task = pr[2].task;
	assert_int_equal(recpack_put_tick(&bad, pr, pv, pg, 12, NEV, NGR), -EINVAL);
	recpack_free(&bad);
	unsigned char *copy = malloc(b.len);
	assert_non_null(copy);
	for (size_t cut = 1; cut < b.len; cut++) {
		memcpy(copy, b.b, cut);
		assert_int_equal(recpack_get_tick(copy, cut, NEV, NGR, &t), -EINVAL);
		assert_int_equal(t.n, 0);
	}
	for (size_t at = 0; at < b.len; at++)
		for (unsigned bit = 0; bit < 8; bit++) {
			memcpy(copy, b.b, b.len);
			copy[at] ^= (unsigned char)(1u << bit);
			int rc = recpack_get_tick(copy, b.len, NEV, NGR, &t);
			assert_true(rc == 0 || rc == -EINVAL);
		}
	free(copy);
	recpack_tick_free(&t);
	recpack_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),	   cmocka_unit_test(test_small_rows),
		cmocka_unit_test(test_enabled_from_clock), cmocka_unit_test(test_tick_columns),
		cmocka_unit_test(test_order_enforced),	   cmocka_unit_test(test_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
