/* Sparklines: a series of values as one glyph per interval, scaled from 0 to the
 * series' largest value or to a top given. Pure functions: no curses, tested for exact output. */
#ifndef PMUTOP_SPARK_H
#define PMUTOP_SPARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "value.h"

#define SPARK_MAX 32 /* cells at most */

/* The glyph of level 0..7: "▁".."█" in UTF-8, "_.-:=+*#" otherwise. */
const char *spark_glyph(int level, bool utf8);

/* The largest number in v[0..n), or 0 when none is above 0 (gaps, n/c and n/a left out). */
double spark_max(const struct val *v, unsigned n);
/* Render v[0..n) (oldest first, n <= SPARK_MAX) into out: one glyph per value, a blank
 * where an interval has no number (before the row existed, n/c, n/a, nothing to divide:
 * a gap, never a zero). Bit i of *scaled (when not NULL) is set for values scaled for
 * multiplexing, which the caller draws dim. Returns the cells written (n, or fewer when
 * out is short). */
unsigned spark_render(const struct val *v, unsigned n, bool utf8, char *out, size_t len,
		      uint32_t *scaled);
/* The same scaled from 0 to top, which rows drawn side by side share (a value above it
 * is the full glyph); top <= 0: the series' own largest value, as spark_render. */
unsigned spark_render_to(const struct val *v, unsigned n, double top, bool utf8, char *out,
			 size_t len, uint32_t *scaled);

#endif
