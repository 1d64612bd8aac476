/* Numbers as the cells show them (numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy n bytes of s as snprintf would copy them into buf. */
static size_t out_copy(const char *s, size_t n, char *buf, size_t len)
{
	if (!len)
		return 0;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return n;
}

/* "%s", in one pass: names are short, shorter than a call to strnlen and memcpy. */
size_t numfmt_str(const char *s, char *buf, size_t len)
{
	if (!len)
		return 0;
	size_t n = 0;
	for (; n + 1 < len && s[n]; n++)
		buf[n] = s[n];
	buf[n] = '\0';
	return n;
}

/* A whole number ("%llu"). */
size_t numfmt_uint(unsigned long long n, char *buf, size_t len)
{
	char tmp[24];
	size_t k = sizeof(tmp);
	do
		tmp[--k] = (char)('0' + n % 10);
	while ((n /= 10) && k > 0);
	return out_copy(tmp + k, sizeof(tmp) - k, buf, len);
}

/* "%.*f" for dec 0..9. printf rounds the exact binary value, so 0.15 (0.1499999...) is
 * "0.1" and 0.25 (a true tie, to even) "0.2", which no rounding of v * 10 can tell
 * apart. The product is off by at most half an ulp, under 1.2e-7 below 1e9: a fraction
 * that far from one half rounds as the exact value does, and the few closer (or larger,
 * or not finite) go to printf. */
size_t numfmt_fixed(double v, int dec, char *buf, size_t len)
{
	static const double scale[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
	bool neg = signbit(v);
	double t = (neg ? -v : v) * scale[dec < 0 ? 0 : dec > 9 ? 9 : dec];
	double whole = floor(t), frac = t - whole;
	if (dec < 0 || dec > 9 || !(t < 1e9) || fabs(frac - 0.5) < 1e-6) {
		snprintf(buf, len, "%.*f", dec, v);
		return len ? strlen(buf) : 0;
	}
	unsigned long n = (unsigned long)whole + (frac > 0.5);
	char tmp[24];
	size_t k = sizeof(tmp);
	for (int d = 0; d < dec; d++, n /= 10)
		tmp[--k] = (char)('0' + n % 10);
	if (dec)
		tmp[--k] = '.';
	do
		tmp[--k] = (char)('0' + n % 10);
	while (n /= 10);
	if (neg)
		tmp[--k] = '-';
	return out_copy(tmp + k, sizeof(tmp) - k, buf, len);
}

/* "%.*f%c" */
size_t numfmt_fixed_unit(double v, int dec, char unit, char *buf, size_t len)
{
	char tmp[400]; /* more than "%.9f" of DBL_MAX */
	size_t n = numfmt_fixed(v, dec, tmp, sizeof(tmp) - 1);
	tmp[n++] = unit;
	return out_copy(tmp, n, buf, len);
}

/* Four significant characters for counts: 999, 12.3K, 456K, 7.89M, ... */
size_t numfmt_count(double v, char *buf, size_t len)
{
	static const char unit[] = " KMGTPE";
	if (v >= 0 && v < 99999.5 && v == (double)(unsigned long long)v)
		return numfmt_uint((unsigned long long)v, buf, len); /* what "%.0f" prints for it */
	if (v < 99999.5)
		return numfmt_fixed(v, 0, buf, len);
	int u = 0;
	while (v >= 999.5 && u < 6) {
		v /= 1000;
		u++;
	}
	return numfmt_fixed_unit(v, v < 9.995 ? 2 : v < 99.95 ? 1 : 0, unit[u], buf, len);
}

/* a (|v|, mag its power of ten) in e-notation with sig digits: "6.1e-8". */
static void exp_text(double v, double a, int mag, int sig, char *tmp, size_t len)
{
	double mant = a / pow(10, mag);
	int ex = mag;
	if (mant >= 10 - 0.5 * pow(10, 1 - sig)) {
		mant /= 10;
		ex++;
	}
	snprintf(tmp, len, "%s%.*fe%d", v < 0 ? "-" : "", sig - 1, mant, ex);
}

size_t numfmt_exp(double v, int sig, char *buf, size_t len)
{
	if (!isfinite(v) || v == 0)
		return numfmt_sig(v, 8, buf, len);
	char tmp[64];
	exp_text(v, fabs(v), (int)floor(log10(fabs(v))), sig < 1 ? 1 : sig, tmp, sizeof(tmp));
	return numfmt_str(tmp, buf, len);
}

/* Three significant digits in at most w characters (two, one, then e-notation if it
 * must), k/M/G above 1000: a non-zero value never reads 0.00. */
size_t numfmt_sig(double v, int w, char *buf, size_t len)
{
	static const char unit[] = " kMGTPE";
	if (w < 4)
		w = 4;
	if (!isfinite(v))
		return numfmt_str(isnan(v) ? "-" : v > 0 ? "inf" : "-inf", buf, len);
	if (v == 0)
		return numfmt_str("0", buf, len);
	double a = fabs(v), v0 = v; /* v0: e-notation has no unit */
	int u = 0;
	while (a >= 999.5 && u < 6) {
		a /= 1000;
		v /= 1000;
		u++;
	}
	/* Fixed with 3 or 2 digits, e-notation with 2, fixed with 1, e-notation with 1. */
	static const struct {
		int sig;
		bool exp;
	} tries[] = {{3, false}, {2, false}, {2, true}, {1, false}, {1, true}};
	int mag = (int)floor(log10(a));
	char tmp[64];
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		int sig = tries[i].sig;
		if (tries[i].exp) {
			exp_text(v0, fabs(v0), (int)floor(log10(fabs(v0))), sig, tmp, sizeof(tmp));
		} else {
			int dec = sig - 1 - mag;
			numfmt_fixed_unit(v, dec < 0 ? 0 : dec, unit[u], tmp, sizeof(tmp));
			if (!u)
				tmp[strlen(tmp) - 1] = '\0';
		}
		/* Rounding down to zero digits would say 0: never for a non-zero value. A
		 * plain decimal is zero unless it has a digit that is not; e-notation near
		 * the denormals ("1e-324") is left to strtod. */
		if ((int)strlen(tmp) <= w &&
		    (tries[i].exp ? strtod(tmp, NULL) != 0 : strpbrk(tmp, "123456789") != NULL))
			return numfmt_str(tmp, buf, len);
	}
	return numfmt_str(tmp, buf, len);
}

/* Nanoseconds as time: "850ns", "12.3us", "345ms", "1.02s". */
size_t numfmt_time(double ns, char *buf, size_t len)
{
	static const char *const unit[] = {"ns", "us", "ms", "s"};
	int u = 0;
	while (ns >= 999.5 && u < 3) {
		ns /= 1000;
		u++;
	}
	if (u == 3 && ns >= 999.5)
		return numfmt_fixed_unit(ns, 0, 's', buf, len);
	char num[40];
	size_t n = numfmt_sig(ns, 4, num, 32);
	strcpy(num + n, unit[u]);
	return numfmt_str(num, buf, len);
}

size_t numfmt_mem(double v, char *buf, size_t len)
{
	static const char unit[] = "BKMGTPE";
	int u = 0;
	while (v >= 1023.5 && u < 6) {
		v /= 1024;
		u++;
	}
	return numfmt_fixed_unit(v,
				 u == 0 || v >= 99.95 ? 0
				 : v < 9.995	      ? 2
						      : 1,
				 unit[u], buf, len);
}
