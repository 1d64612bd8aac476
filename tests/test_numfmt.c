/* The cell number formatters: exact bytes, the same as snprintf's where they stand in
 * for it, cut the same way. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "testutil.h"

#define CHECK(call, want)                                                                          \
	do {                                                                                       \
		char b_[64];                                                                       \
		size_t n_ = (call);                                                                \
		assert_string_equal(b_, want);                                                     \
		assert_int_equal(n_, strlen(want));                                                \
	} while (0)

static void test_fixed_as_printf(void **state)
{
	(void)state;
	static const double vs[] = {0,	   0.05,       0.15, 0.25,   1.005, 2.5,
				    -3.75, 123456.789, 1e12, 999.95, -0.0};
	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		for (int dec = 0; dec <= 3; dec++) {
			char want[64], got[64];
			snprintf(want, sizeof(want), "%.*f", dec, vs[i]);
			assert_int_equal(numfmt_fixed(vs[i], dec, got, sizeof(got)), strlen(want));
			assert_string_equal(got, want);
		}
	CHECK(numfmt_fixed_unit(1.5, 1, 'K', b_, sizeof(b_)), "1.5K");
	/* numfmt_sig's digits: "%.*f%c" for ties and near-ties of every decimal it writes,
	 * and values of any size. */
	uint64_t r = 0x9e3779b97f4a7c15ull;
	for (unsigned i = 0; i < 200000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		int dec = (int)(r % 12);
		double v = i % 2 ? (double)(r >> 20 & 0xfffff) / pow(10, (double)(r >> 40 & 7)) +
					   5 * pow(10, -(double)(dec + 1))
				 : ldexp((double)(r >> 11), (int)(r >> 3 & 127) - 120);
		if (i % 3 == 0)
			v = nextafter(v, r & 1 ? INFINITY : -INFINITY);
		v = r & 2 ? -v : v;
		char want[400], got[400];
		snprintf(want, sizeof(want), "%.*f%c", dec, v, "kMG"[r % 3]);
		numfmt_fixed_unit(v, dec, "kMG"[r % 3], got, sizeof(got));
		if (strcmp(got, want))
			fail_msg("%a with %d decimals: '%s' want '%s'", v, dec, got, want);
	}
	CHECK(numfmt_uint(0, b_, sizeof(b_)), "0");
	CHECK(numfmt_uint(18446744073709551615ull, b_, sizeof(b_)), "18446744073709551615");
}

/* Try (sig digits, e-notation or fixed) of numfmt_sig's order for v, as printf writes
 * it: fixed in k/M/G... from 999.5 on, e-notation's exponent as %d ("1.2e-4"). */
static void sig_try(double v, int sig, bool exp, char *out, size_t cap)
{
	char m[64];
	if (exp) {
		snprintf(m, sizeof(m), "%.*e", sig - 1, v);
		char *e = strchr(m, 'e');
		int ex = atoi(e + 1);
		*e = '\0';
		snprintf(out, cap, "%se%d", m, ex);
		return;
	}
	int u = 0;
	while (fabs(v) >= 999.5 && u < 6)
		v /= 1000, u++;
	int dec = sig - 1 - (int)floor(log10(fabs(v)));
	snprintf(out, cap, "%.*f%.*s", dec < 0 ? 0 : dec, v, u ? 1 : 0, &" kMGTPE"[u]);
}

/* The value text t reads as (its unit applied), and the size of its last digit's unit. */
static double sig_parse(const char *t, double *ulp)
{
	char *end;
	double x = strtod(t, &end);
	const char *dot = strchr(t, '.');
	int ndec = dot ? (int)strcspn(dot + 1, "ekMGTPE") : 0;
	const char *u = strchr(" kMGTPE", *end);
	double scale = !*end || !u ? 1 : pow(1000, (double)(u - " kMGTPE"));
	const char *e = strchr(t, 'e');
	int ex = e ? atoi(e + 1) : 0;
	*ulp = pow(10, ex - ndec) * scale;
	return x * scale;
}

/* numfmt_sig over random values of every size and widths 4 to 8: it fits w unless
 * nothing does, never reads 0 for a non-zero value, reads within half its last digit
 * of v, and is the first of its tries (3 digits fixed, 2 fixed, 2 e-notation, 1 fixed,
 * 1 e-notation) that fits and does not read 0. */
static void test_sig_properties(void **state)
{
	(void)state;
	static const struct {
		int sig;
		bool exp;
	} tries[] = {{3, false}, {2, false}, {2, true}, {1, false}, {1, true}};
	uint64_t r = 0x2545f4914f6cdd1dull;
	for (unsigned i = 0; i < 100000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		double v = ((double)(r >> 11) / 9007199254740992.0 + 0.1) *
			   pow(10, (double)(r % 38) - 16) * (r & 1 << 8 ? -1 : 1);
		int w = 4 + (int)(r >> 9 & 0xff) % 5;
		char got[64], want[64] = "";
		size_t n = numfmt_sig(v, w, got, sizeof(got));
		assert_int_equal(n, strlen(got));
		int first = -1;
		for (int k = 0; k < 5 && first < 0; k++) {
			sig_try(v, tries[k].sig, tries[k].exp, want, sizeof(want));
			double ulp;
			if ((int)strlen(want) <= w && sig_parse(want, &ulp) != 0)
				first = k;
		}
		double ulp, x = sig_parse(got, &ulp);
		if (x == 0 || fabs(x - v) > 0.5 * ulp * (1 + 1e-9))
			fail_msg("%.17g in %d: '%s' reads %.17g", v, w, got, x);
		if (first < 0 && (int)n <= w)
			fail_msg("%.17g in %d: '%s' fits where no try does", v, w, got);
		if (first < 0)
			continue;
		/* the first that fits: its form and length (a tie may round either way) */
		if ((int)n > w || (strchr(got, 'e') != NULL) != tries[first].exp ||
		    n != strlen(want))
			fail_msg("%.17g in %d: '%s', want the try '%s'", v, w, got, want);
	}
}

static void test_count_sig_time(void **state)
{
	(void)state;
	CHECK(numfmt_count(999, b_, sizeof(b_)), "999");
	CHECK(numfmt_count(99999, b_, sizeof(b_)), "99999");
	CHECK(numfmt_count(123456, b_, sizeof(b_)), "123K");
	CHECK(numfmt_count(7890000, b_, sizeof(b_)), "7.89M");
	CHECK(numfmt_count(12345678, b_, sizeof(b_)), "12.3M");
	CHECK(numfmt_sig(0, 5, b_, sizeof(b_)), "0");
	CHECK(numfmt_sig(1.2345, 5, b_, sizeof(b_)), "1.23");
	CHECK(numfmt_sig(0.000123, 5, b_, sizeof(b_)), "1e-4"); /* what fits 5 */
	CHECK(numfmt_sig(0.000123, 6, b_, sizeof(b_)), "1.2e-4");
	CHECK(numfmt_sig(2500, 5, b_, sizeof(b_)), "2.50k");
	CHECK(numfmt_sig(NAN, 5, b_, sizeof(b_)), "-");
	/* Each of its tries: 3 digits, 2, e-notation with 2, 1, e-notation with 1. */
	CHECK(numfmt_sig(123.456, 8, b_, sizeof(b_)), "123");
	CHECK(numfmt_sig(1234567, 8, b_, sizeof(b_)), "1.23M");
	CHECK(numfmt_sig(99999, 4, b_, sizeof(b_)), "100k");
	CHECK(numfmt_sig(7.77e-5, 6, b_, sizeof(b_)), "7.8e-5");
	CHECK(numfmt_sig(-0.5, 4, b_, sizeof(b_)), "-0.5");
	CHECK(numfmt_sig(-2.5e-7, 4, b_, sizeof(b_)), "-2e-7");
	/* e-notation has no unit: the value's own power of ten, never the k/M/G one's. */
	CHECK(numfmt_sig(-123456789, 4, b_, sizeof(b_)), "-1e8");
	CHECK(numfmt_sig(-999000, 4, b_, sizeof(b_)), "-1e6");
	CHECK(numfmt_sig(1e21, 4, b_, sizeof(b_)), "1e21");
	CHECK(numfmt_mem(0, b_, sizeof(b_)), "0B");
	CHECK(numfmt_mem(512, b_, sizeof(b_)), "512B");
	CHECK(numfmt_mem(1023, b_, sizeof(b_)), "1023B");
	CHECK(numfmt_mem(1024, b_, sizeof(b_)), "1.00K");
	CHECK(numfmt_mem(11.7 * 1024 * 1024, b_, sizeof(b_)), "11.7M");
	CHECK(numfmt_mem(812.0 * 1024, b_, sizeof(b_)), "812K");
	CHECK(numfmt_mem(3.0 * 1024 * 1024 * 1024, b_, sizeof(b_)), "3.00G");
	CHECK(numfmt_time(850, b_, sizeof(b_)), "850ns");
	CHECK(numfmt_time(12300, b_, sizeof(b_)), "12.3us");
	CHECK(numfmt_time(1.02e9, b_, sizeof(b_)), "1.02s");
	/* A non-zero value never reads 0. */
	char b[16];
	numfmt_sig(1e-9, 5, b, sizeof(b));
	assert_string_not_equal(b, "0");
	assert_true(strpbrk(b, "123456789") != NULL);
}

static void test_cut_as_snprintf(void **state)
{
	(void)state;
	char b[4];
	assert_int_equal(numfmt_str("abcdef", b, sizeof(b)), 3);
	assert_string_equal(b, "abc");
	assert_int_equal(numfmt_uint(123456, b, sizeof(b)), 3);
	assert_string_equal(b, "123");
	assert_int_equal(numfmt_str("x", b, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_as_printf),
		cmocka_unit_test(test_count_sig_time),
		cmocka_unit_test(test_sig_properties),
		cmocka_unit_test(test_cut_as_snprintf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
