/* The recording's cells text and the times users type. */
#include "recfmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static const char STATE_CH[] = "acexsp"; /* enum val_state order */
static const char WHY_CH[] = "-upfgirosk"
			     "ewcdtx"; /* enum val_why order */

static unsigned usual_pm(uint8_t state)
{
	return state == VAL_EXACT ? 1000 : 0;
}

size_t recfmt_cells(const struct val *v, unsigned n, char *out, size_t len)
{
	size_t k = 0;
	if (len < 2 * (size_t)n + 1)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		out[k++] = v[i].state < sizeof(STATE_CH) - 1 ? STATE_CH[v[i].state] : '?';
		out[k++] = v[i].why < sizeof(WHY_CH) - 1 ? WHY_CH[v[i].why] : '?';
	}
	out[k] = '\0';
	for (unsigned i = 0; i < n; i++) {
		if (v[i].run_pm == usual_pm(v[i].state))
			continue;
		int w = snprintf(out + k, len - k, ",%u:%u", i, (unsigned)v[i].run_pm);
		if (w < 0 || (size_t)w >= len - k)
			return 0;
		k += (size_t)w;
	}
	return k;
}

int recfmt_parse_cells(const char *s, struct val *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const char *st = s[0] ? strchr(STATE_CH, s[0]) : NULL;
		const char *why = st && s[1] ? strchr(WHY_CH, s[1]) : NULL;
		if (!st || !why)
			return -EINVAL;
		v[i].state = (uint8_t)(st - STATE_CH);
		v[i].why = (uint8_t)(why - WHY_CH);
		v[i].run_pm = (uint16_t)usual_pm(v[i].state);
		s += 2;
	}
	while (*s == ',') {
		char *end;
		unsigned long i = strtoul(s + 1, &end, 10);
		if (end == s + 1 || *end != ':' || i >= n)
			return -EINVAL;
		const char *num = end + 1;
		unsigned long pm = strtoul(num, &end, 10);
		if (end == num || pm > 1000)
			return -EINVAL;
		v[i].run_pm = (uint16_t)pm;
		s = end;
	}
	return *s ? -EINVAL : 0;
}

/* HH:MM[:SS[.FFF]], then (zone) an offset as ISO 8601 prints it (+01:00, -0500, Z).
 * *frac: the fraction; *unit: what the last digit typed counts (60, 1, 0.1, 0.01, ...);
 * *off: the offset in seconds east when one was given (*zoned). */
static int parse_clock(const char *s, struct tm *tm, bool zone, double *frac, double *unit,
		       long *off, bool *zoned)
{
	int h, m, sec = 0, used = 0;
	*frac = 0;
	*unit = 60;
	*zoned = false;
	if (sscanf(s, "%2d:%2d%n", &h, &m, &used) != 2)
		return -EINVAL;
	if (s[used] == ':') {
		int more = 0;
		if (sscanf(s + used + 1, "%2d%n", &sec, &more) != 1)
			return -EINVAL;
		used += 1 + more;
		*unit = 1;
		if (s[used] == '.' && s[used + 1] >= '0' && s[used + 1] <= '9') {
			for (used++; s[used] >= '0' && s[used] <= '9'; used++) {
				*unit /= 10;
				*frac += (s[used] - '0') * *unit;
			}
		}
	}
	if (zone && (s[used] == '+' || s[used] == '-')) {
		int oh, om = 0, n = 0;
		const char *z = s + used + 1;
		if (sscanf(z, "%2d%n", &oh, &n) != 1 || n != 2)
			return -EINVAL;
		z += 2;
		if (*z == ':')
			z++;
		if (*z && (sscanf(z, "%2d%n", &om, &n) != 1 || n != 2 || z[2]))
			return -EINVAL;
		*off = (s[used] == '-' ? -1 : 1) * (oh * 3600L + om * 60L);
		*zoned = true;
		used = (int)strlen(s);
	} else if (zone && s[used] == 'Z' && !s[used + 1]) {
		*off = 0;
		*zoned = true;
		used++;
	}
	if (s[used] || h > 23 || m > 59 || sec > 60 || h < 0 || m < 0 || sec < 0)
		return -EINVAL;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = sec;
	return 0;
}

static int parse_span(const char *s, double *out)
{
	char *end;
	double n = strtod(s, &end);
	if (end == s || !isfinite(n) || n < 0 || s[0] == '-' || s[0] == '+')
		return -EINVAL;
	double mul = 1;
	switch (*end) {
	case 's':
	case '\0':
		break;
	case 'm':
		mul = 60;
		break;
	case 'h':
		mul = 3600;
		break;
	case 'd':
		mul = 86400;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1])
		return -EINVAL;
	*out = n * mul;
	return 0;
}

/* recfmt_parse_time's time, and what its last digit counts (0: an exact instant). */
static int parse_when(const char *s, double first, double last, double *out, double *unit)
{
	double span, frac;
	long off = 0;
	bool zoned;
	*unit = 0;
	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '-' || s[0] == '+') {
		if (parse_span(s + 1, &span))
			return -EINVAL;
		*out = s[0] == '-' ? last - span : first + span;
		return 0;
	}
	if (s[0] == '@') {
		char *end;
		double t = strtod(s + 1, &end);
		if (end == s + 1 || *end || !isfinite(t))
			return -EINVAL;
		const char *dot = strchr(s, '.');
		*unit = 1;
		for (const char *d = dot ? dot + 1 : end; d < end && *d >= '0' && *d <= '9'; d++)
			*unit /= 10;
		*out = t;
		return 0;
	}
	time_t base = (time_t)first;
	struct tm tm;
	if (!localtime_r(&base, &tm))
		return -EINVAL;
	if (strlen(s) > 10 && (s[10] == ' ' || s[10] == 'T')) {
		int y, mo, d, used = 0;
		if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 || used != 10)
			return -EINVAL;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		if (parse_clock(s + 11, &tm, true, &frac, unit, &off, &zoned))
			return -EINVAL;
		tm.tm_isdst = -1;
		/* With an offset (as CSV's `at` prints it): that instant, whatever the zone
		 * here. */
		*out = (zoned ? (double)timegm(&tm) - (double)off : (double)mktime(&tm)) + frac;
		return 0;
	}
	if (parse_clock(s, &tm, false, &frac, unit, &off, &zoned))
		return -EINVAL;
	tm.tm_isdst = -1;
	double t = (double)mktime(&tm);
	/* A time of day before the recording began: the next day's (a recording from
	 * 23:00 asked for 01:30). */
	if (t + 1 <= floor(first)) {
		tm.tm_mday++;
		tm.tm_isdst = -1;
		t = (double)mktime(&tm);
	}
	*out = t + frac;
	return 0;
}

int recfmt_parse_time(const char *s, double first, double last, double *out)
{
	double unit;
	return parse_when(s, first, last, out, &unit);
}

int recfmt_parse_when(const char *s, double first, double last, double *from, double *to)
{
	double t, unit;
	if (parse_when(s, first, last, &t, &unit))
		return -EINVAL;
	/* A fraction is printed rounded (%.3f, the ISO time's milliseconds): the instants
	 * that print so. Whole seconds and minutes are cut (strftime): the second or the
	 * minute that starts there. */
	if (unit > 0 && unit < 1) {
		*from = t - unit / 2;
		*to = t + unit / 2;
	} else {
		*from = t;
		*to = unit > 0 ? t + unit - 1e-6 : t;
	}
	return 0;
}

const char *recfmt_time_text(double wall, char *buf, size_t len)
{
	struct tm tm;
	if (len == 0)
		return buf;
	/* A damaged file's time: out of time_t's range the conversion is undefined. */
	if (!(wall > -1e15 && wall < 1e15)) {
		buf[0] = '\0';
		return buf;
	}
	time_t t = (time_t)wall;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		buf[0] = '\0';
	return buf;
}

int recfmt_parse_size(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !(*s >= '0' && *s <= '9'))
		return -EINVAL;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && !((end[1] == 'B' || end[1] == 'b') && !end[2]))
		return -EINVAL;
	if (errno || n == 0 || n > (UINT64_MAX >> shift))
		return -EINVAL;
	*out = (uint64_t)n << shift;
	return 0;
}

const char *recfmt_header_body(char *buf, size_t len, const char *host, const char *kernel,
			       int ncpus, const char *pmus, const char *notice, const char *backend)
{
	snprintf(buf, len, "%s\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s", host ? host : "",
		 kernel ? kernel : "", ncpus, pmus ? pmus : "", notice ? notice : "\x01",
		 backend ? backend : "\x01");
	return buf;
}

char *recfmt_evset_body(const struct mevent *ev, unsigned n, const struct mgroup *g, unsigned ng)
{
	size_t cap = 64 + (size_t)ng * 32, k = 0;
	for (unsigned i = 0; i < n; i++)
		cap += strlen(ev[i].name) + strlen(ev[i].key) + 96;
	char *b = malloc(cap);
	if (!b)
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		const struct mevent *e = &ev[i];
		k += (size_t)snprintf(
			b + k, cap - k, "%s\x1f%s\x1f%u,%u,%d,%u,%d,%d,%u,%u,%u,%u,%u\x1e", e->name,
			e->key, e->group, e->member, (int)e->role, (unsigned)e->status, e->hardware,
			e->logical, e->nsum, e->sum[0], e->sum[1], e->sum[2], e->sum[3]);
	}
	for (unsigned i = 0; i < ng; i++)
		k += (size_t)snprintf(b + k, cap - k, "%u,%u,%d\x1e", g[i].first, g[i].n,
				      g[i].user);
	b[k] = '\0';
	return b;
}

unsigned recfmt_parse_sums(const char *s, unsigned sum[4])
{
	unsigned n = 0;
	while (s && *s && n < 4) {
		char *end;
		sum[n++] = (unsigned)strtoul(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

uint32_t recfmt_text_sum(const char *s)
{
	uLong c = crc32(0L, Z_NULL, 0);
	if (s)
		c = crc32(c, (const Bytef *)s, (uInt)strlen(s) + 1);
	return (uint32_t)c;
}

/* Numbers in a fixed order and byte order, whatever the machine's. */
static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return u;
}

uint32_t recfmt_chunk_sum(uint32_t sum, const void *chunk, size_t n)
{
	unsigned char b[8];
	put64(b, n);
	uLong c = crc32(sum, b, sizeof(b));
	return (uint32_t)(n ? crc32(c, (const Bytef *)chunk, (uInt)n) : c);
}

uint32_t recfmt_tick_sum(const struct recfmt_tick *t)
{
	const uint64_t v[] = {(uint64_t)t->seq,	   (uint64_t)t->tick,	   (uint64_t)t->evset,
			      (uint64_t)t->header, (uint64_t)t->flags,	   (uint64_t)t->exit_status,
			      (uint64_t)t->ntasks, (uint64_t)t->nfd_short, (uint64_t)t->idle,
			      (uint64_t)t->key,	   bits(t->wall),	   bits(t->time),
			      bits(t->interval),   bits(t->elapsed),	   t->header_sum,
			      t->evset_sum,	   t->cells_sum,	   t->chunks_sum};
	unsigned char b[sizeof(v)];
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		put64(b + 8 * i, v[i]);
	uLong c = crc32(0L, Z_NULL, 0);
	return (uint32_t)crc32(c, b, sizeof(b));
}
