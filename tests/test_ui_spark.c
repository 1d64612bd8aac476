/* The trend and chart renderers, character for character: sparkline ramps (UTF-8 and
 * ASCII), gaps and scaled marks, Braille dots, the ASCII fallback, scale and span
 * labels. */
#include "testutil.h"

#include <string.h>

#include "chart.h"
#include "spark.h"

static struct val ex(double x)
{
	return (struct val){.v = x, .state = VAL_EXACT, .run_pm = 1000};
}

static void test_spark_ramps(void **state)
{
	(void)state;
	struct val v[8];
	for (int i = 0; i < 8; i++)
		v[i] = ex(i);
	char out[64];
	uint32_t sc = 99;
	assert_int_equal(spark_render(v, 8, true, out, sizeof(out), &sc), 8);
	assert_string_equal(out, "▁▂▃▄▅▆▇█");
	assert_int_equal(sc, 0);
	spark_render(v, 8, false, out, sizeof(out), NULL);
	assert_string_equal(out, "_.-:=+*#");
	/* Flat zeros are the floor, not a gap. */
	struct val z[3] = {ex(0), ex(0), ex(0)};
	spark_render(z, 3, true, out, sizeof(out), NULL);
	assert_string_equal(out, "▁▁▁");
}

/* A top shared by rows: values against it, not against their own largest; above it the
 * full glyph; no top (0): the series' own, as spark_render. */
static void test_spark_shared_top(void **state)
{
	(void)state;
	struct val v[4] = {ex(1), ex(5), val_missing(VAL_NC, WHY_NOT_RUN), ex(20)};
	char out[64];
	assert_int_equal(spark_render_to(v, 4, 10, true, out, sizeof(out), NULL), 4);
	assert_string_equal(out, "▂▅ █");
	spark_render_to(v, 4, 0, true, out, sizeof(out), NULL);
	assert_string_equal(out, "▁▃ █");
	struct val low[2] = {ex(0.1), ex(0.1)};
	spark_render_to(low, 2, 100, false, out, sizeof(out), NULL);
	assert_string_equal(out, "__"); /* an idle row beside a busy one stays low */
	spark_render(low, 2, false, out, sizeof(out), NULL);
	assert_string_equal(out, "##"); /* alone on its own scale it would look as busy */
}

static void test_spark_gaps_and_scaled(void **state)
{
	(void)state;
	struct val v[5] = {val_missing(VAL_NA, WHY_NONE), ex(7), val_missing(VAL_NC, WHY_NOT_RUN),
			   (struct val){.v = 3.5, .state = VAL_SCALED, .run_pm = 500}, ex(0)};
	char out[64];
	uint32_t sc = 0;
	spark_render(v, 5, true, out, sizeof(out), &sc);
	assert_string_equal(out, " █ ▅▁");
	assert_int_equal(sc, 1u << 3);
	spark_render(v, 5, false, out, sizeof(out), &sc);
	assert_string_equal(out, " # =_");
	/* A short buffer takes whole glyphs only. */
	assert_int_equal(spark_render(v, 5, true, out, 5, NULL), 2);
	assert_string_equal(out, " █");
}

/* The largest number of a series, which the table and the detail's threads share as their
 * scale: gaps, n/c and n/a are not numbers; nothing above 0 is 0. */
static void test_spark_max(void **state)
{
	(void)state;
	struct val v[5] = {val_missing(VAL_NA, WHY_NONE), ex(7), val_missing(VAL_NC, WHY_NOT_RUN),
			   (struct val){.v = 9.5, .state = VAL_SCALED, .run_pm = 500}, ex(2)};
	assert_true(spark_max(v, 5) == 9.5);
	assert_true(spark_max(v, 3) == 7);
	struct val na[2] = {val_missing(VAL_NA, WHY_NONE), val_missing(VAL_NC, WHY_NOT_RUN)};
	na[1].v = 50; /* a missing value's number is not one */
	assert_true(spark_max(na, 2) == 0);
	assert_true(spark_max(v, 0) == 0);
}

static void test_chart_braille(void **state)
{
	(void)state;
	char lines[CHART_MAX_H][CHART_MAX_W * 3 + 1];
	struct val v[4] = {ex(4), ex(2), ex(1), ex(0)};
	chart_render(v, 4, 2, 1, 4, true, lines);
	assert_string_equal(lines[0], "⣧⣀");
	chart_render(v, 4, 2, 1, 4, false, lines);
	assert_string_equal(lines[0], ":.");
	/* n/c is a gap, whatever number it carries; the newest sample sits at the right
	 * edge. */
	struct val g[2] = {{.v = 4, .state = VAL_NC, .why = WHY_NOT_RUN}, ex(4)};
	chart_render(g, 2, 1, 1, 4, true, lines);
	assert_string_equal(lines[0], "⢸");
	chart_render(&g[1], 1, 2, 1, 4, true, lines);
	assert_string_equal(lines[0], " ⢸");
	/* Two lines: the top line holds the upper half. */
	struct val t[2] = {ex(8), ex(4)};
	chart_render(t, 2, 1, 2, 8, true, lines);
	assert_string_equal(lines[0], "⡇");
	assert_string_equal(lines[1], "⣿");
	chart_render(t, 2, 1, 2, 8, false, lines);
	assert_string_equal(lines[0], ":");
	assert_string_equal(lines[1], "#");
	/* A small value and a zero still show one dot; more samples than dots keep the
	 * newest. */
	struct val s[3] = {ex(100), ex(0.01), ex(0)};
	chart_render(s, 3, 1, 1, 100, true, lines);
	assert_string_equal(lines[0], "⣀");
	struct val z[2] = {ex(0), val_missing(VAL_NC, WHY_NOT_RUN)};
	chart_render(z, 2, 1, 1, 100, true, lines);
	assert_string_equal(lines[0], "⡀");
}

static void test_scale_labels(void **state)
{
	(void)state;
	assert_true(chart_nice(0) == 1);
	assert_true(chart_nice(0.8) == 1);
	assert_true(chart_nice(1) == 1);
	assert_true(chart_nice(1.2) == 2);
	assert_true(chart_nice(2.1) == 2.5);
	assert_true(chart_nice(3) == 5);
	assert_true(chart_nice(7) == 10);
	assert_true(chart_nice(0.013) > 0.0199 && chart_nice(0.013) < 0.0201);
	assert_true(chart_nice(1000) == 1000);
	char buf[16];
	chart_span(45, buf, sizeof(buf));
	assert_string_equal(buf, "45s");
	chart_span(120, buf, sizeof(buf));
	assert_string_equal(buf, "2m00s");
	chart_span(3900, buf, sizeof(buf));
	assert_string_equal(buf, "1h05m");
	double lo, hi;
	struct val last;
	struct val v[4] = {ex(2), val_missing(VAL_NC, WHY_NOT_RUN), ex(0.5), ex(1)};
	assert_true(chart_stats(v, 4, &lo, &hi, &last));
	assert_true(lo == 0.5 && hi == 2 && last.v == 1);
	assert_false(chart_stats(&v[1], 1, &lo, &hi, &last));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spark_ramps),
		cmocka_unit_test(test_spark_shared_top),
		cmocka_unit_test(test_spark_gaps_and_scaled),
		cmocka_unit_test(test_spark_max),
		cmocka_unit_test(test_chart_braille),
		cmocka_unit_test(test_scale_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
