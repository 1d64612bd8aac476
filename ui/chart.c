/* The Braille chart renderer and its labels. */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double chart_nice(double x)
{
	if (!(x > 0))
		return 1;
	double p = pow(10, floor(log10(x)));
	static const double steps[] = {1, 2, 2.5, 5, 10};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= x * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

/* The dot at column dx (0, 1) and row dy (0 top .. 3) of a Braille cell. */
static unsigned dot_bit(int dx, int dy)
{
	static const unsigned bits[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
	return bits[dx][dy];
}

static size_t put_cell(char *out, unsigned bits, bool utf8)
{
	if (!utf8 || !bits) { /* a blank, not U+2800: some fonts draw that as dots */
		out[0] = bits == 0xff ? '#' : (bits & 0x1b) ? ':' : bits ? '.' : ' ';
		return 1;
	}
	unsigned cp = 0x2800 + bits;
	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

void chart_render(const struct val *v, unsigned n, int w, int h, double top, bool utf8,
		  char lines[][CHART_MAX_W * 3 + 1])
{
	unsigned char cells[CHART_MAX_H][CHART_MAX_W];
	if (w > CHART_MAX_W)
		w = CHART_MAX_W;
	if (h > CHART_MAX_H)
		h = CHART_MAX_H;
	if (w <= 0 || h <= 0)
		return;
	memset(cells, 0, sizeof(cells));
	int dots_w = 2 * w, dots_h = 4 * h;
	unsigned first = n > (unsigned)dots_w ? n - (unsigned)dots_w : 0;
	int x0 = dots_w - (int)(n - first);
	for (unsigned i = first; i < n; i++) {
		if (!val_has_number(v[i]) || !(top > 0))
			continue;
		int x = x0 + (int)(i - first);
		double f = v[i].v / top;
		int hgt = (int)lround(f * dots_h);
		if (hgt > dots_h)
			hgt = dots_h;
		if (hgt < 1)
			hgt = 1; /* a zero is a floor of dots: only a gap is empty */
		for (int k = 0; k < hgt; k++) {
			int y = dots_h - 1 - k;
			cells[y / 4][x / 2] |= (unsigned char)dot_bit(x % 2, y % 4);
		}
	}
	for (int r = 0; r < h; r++) {
		size_t at = 0;
		for (int c = 0; c < w; c++)
			at += put_cell(lines[r] + at, cells[r][c], utf8);
		lines[r][at] = '\0';
	}
}

void chart_span(double seconds, char *buf, size_t len)
{
	long s = lround(seconds);
	if (s < 60)
		snprintf(buf, len, "%lds", s);
	else if (s < 3600)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
}

bool chart_stats(const struct val *v, unsigned n, double *min, double *max, struct val *last)
{
	bool any = false;
	for (unsigned i = 0; i < n; i++) {
		if (!val_has_number(v[i]))
			continue;
		if (!any || v[i].v < *min)
			*min = v[i].v;
		if (!any || v[i].v > *max)
			*max = v[i].v;
		*last = v[i];
		any = true;
	}
	return any;
}
