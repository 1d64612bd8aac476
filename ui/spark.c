/* The sparkline renderer. */
#include "spark.h"

#include <math.h>
#include <string.h>

static const char *const ramp_utf8[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
					 "\u2585", "\u2586", "\u2587", "\u2588"};

const char *spark_glyph(int level, bool utf8)
{
	static const char *const ascii[8] = {"_", ".", "-", ":", "=", "+", "*", "#"};
	if (level < 0)
		level = 0;
	if (level > 7)
		level = 7;
	return utf8 ? ramp_utf8[level] : ascii[level];
}

double spark_max(const struct val *v, unsigned n)
{
	double hi = 0;
	for (unsigned i = 0; i < n; i++)
		if (val_has_number(v[i]) && v[i].v > hi)
			hi = v[i].v;
	return hi;
}

unsigned spark_render(const struct val *v, unsigned n, bool utf8, char *out, size_t len,
		      uint32_t *scaled)
{
	return spark_render_to(v, n, 0, utf8, out, len, scaled);
}

unsigned spark_render_to(const struct val *v, unsigned n, double top, bool utf8, char *out,
			 size_t len, uint32_t *scaled)
{
	if (n > SPARK_MAX)
		n = SPARK_MAX;
	double hi = top > 0 ? top : spark_max(v, n);
	if (scaled)
		*scaled = 0;
	size_t at = 0;
	unsigned i = 0;
	if (len)
		out[0] = '\0';
	for (; i < n; i++) {
		const char *g = " ";
		if (val_has_number(v[i])) {
			int level = hi > 0 ? (int)lround((v[i].v < hi ? v[i].v : hi) / hi * 7) : 0;
			g = spark_glyph(level, utf8);
			if ((v[i].state == VAL_SCALED || v[i].state == VAL_PARTIAL) && scaled)
				*scaled |= 1u << i;
		}
		size_t gl = strlen(g);
		if (at + gl + 1 > len)
			break;
		memcpy(out + at, g, gl);
		at += gl;
		out[at] = '\0';
	}
	return i;
}
