/* How columns write a value: the formatters each descriptor names, the marks (n/a, n/c)
 * before them, and the raw form CSV and JSON take. */
#include "columns.h"

#include <math.h>
#include <stdio.h>

#include "numfmt.h"

void column_format(const struct column *c, const struct model *m, const struct mrow *r, char *buf,
		   size_t len)
{
	if (!column_is_numeric(c)) {
		c->text(r, buf, len);
		return;
	}
	column_format_val(c, column_value(c, m, r), buf, len);
}

/* Fit the column and leave a space before it (8 for a table without widths). */
static int sig_width(const struct column *c)
{
	return c->width > 1 ? c->width - 1 : 8;
}

size_t column_fmt_count(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	return numfmt_count(v.v, buf, len);
}

size_t column_fmt_time(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	return numfmt_time(v.v, buf, len);
}

size_t column_fmt_pct(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	return numfmt_fixed(v.v, v.v < 999.95 ? 1 : 0, buf, len);
}

size_t column_fmt_ratio_pct(const struct column *c, struct val v, char *buf, size_t len)
{
	/* 0.04% is not 0.0%: small shares keep their significant digits. */
	if (v.v != 0 && fabs(v.v) < 0.05)
		return numfmt_sig(v.v, sig_width(c), buf, len);
	return column_fmt_pct(c, v, buf, len);
}

size_t column_fmt_ratio(const struct column *c, struct val v, char *buf, size_t len)
{
	return numfmt_sig(v.v, sig_width(c), buf, len);
}

size_t column_fmt_ghz(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	return numfmt_fixed(v.v, 2, buf, len);
}

size_t column_fmt_mem(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	return numfmt_mem(v.v, buf, len);
}

size_t column_fmt_int(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	int n = snprintf(buf, len, "%.0f", v.v);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len ? len - 1 : 0;
}

/* top's TIME+: 1:23.45 (minutes), 12h03:45 past an hour, 123h past 100 hours. */
size_t column_fmt_cputime(const struct column *c, struct val v, char *buf, size_t len)
{
	(void)c;
	unsigned long long cs = v.v > 0 && isfinite(v.v) ? (unsigned long long)(v.v * 100) : 0;
	unsigned long long s = cs / 100, min = s / 60, h = min / 60;
	int n;
	if (h >= 100)
		n = snprintf(buf, len, "%lluh", h);
	else if (h)
		n = snprintf(buf, len, "%lluh%02llu:%02llu", h, min % 60, s % 60);
	else
		n = snprintf(buf, len, "%llu:%02llu.%02llu", min, s % 60, cs % 100);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len ? len - 1 : 0;
}

size_t column_format_val(const struct column *c, struct val v, char *buf, size_t len)
{
	const char *mark = val_mark(v);
	if (mark)
		return numfmt_str(mark, buf, len);
	return c->format(c, v, buf, len);
}

void column_format_raw(const struct column *c, const struct model *m, const struct mrow *r,
		       char *buf, size_t len)
{
	if (!column_is_numeric(c)) {
		c->text(r, buf, len);
		return;
	}
	struct val v = column_value(c, m, r);
	if (!val_has_number(v)) {
		if (len)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len,
		 c->fmt == FMT_COUNT || c->fmt == FMT_MEM ? "%.0f"
		 : c->fmt == FMT_PCT			  ? "%.2f"
							  : "%.4f",
		 isfinite(v.v) ? v.v : 0.0);
}
