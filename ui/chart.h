/* Charts over time in Braille dots (2x4 per cell), with an ASCII fallback, and the
 * labels of their axes. Pure functions: no curses, tested for exact output. */
#ifndef PMUTOP_CHART_H
#define PMUTOP_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "value.h"

#define CHART_MAX_W 256 /* cells */
#define CHART_MAX_H 16

/* The top of a chart's scale for values up to x: the smallest of 1, 2, 2.5, 5 times a
 * power of ten that is >= x (1 for x <= 0). */
double chart_nice(double x);

/* Draw v[0..n) (oldest first) as filled columns, one sample per dot column, the newest
 * at the right edge, in w x h cells scaled from 0 to top; every number takes one dot at
 * least (a zero is the bottom row). Values without a number leave their column empty
 * (a gap). lines[k] (k < h, top line first) get the cells as UTF-8
 * Braille (U+2800..U+28FF) or, without utf8, ASCII: '#' a full cell, ':' more than
 * half, '.' less; an empty cell is a blank in both. Each line holds at least w * 3 + 1 bytes. */
void chart_render(const struct val *v, unsigned n, int w, int h, double top, bool utf8,
		  char lines[][CHART_MAX_W * 3 + 1]);

/* A time span as the axis says it: "45s", "2m00s", "1h05m". */
void chart_span(double seconds, char *buf, size_t len);

/* min, max and last of v[0..n) over the values with a number; false when none has. */
bool chart_stats(const struct val *v, unsigned n, double *min, double *max, struct val *last);

#endif
