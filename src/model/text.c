/* Sanitising and escaping untrusted text. */
#include "text.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

size_t text_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char b = s[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
	uint32_t v;

	if (n == 0)
		return 0;
	if (b < 0x80) {
		if (cp)
			*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf)
		len = 2, v = b & 0x1f;
	else if (b >= 0xe0 && b <= 0xef)
		len = 3, v = b & 0x0f, lo = b == 0xe0 ? 0xa0 : 0x80, hi = b == 0xed ? 0x9f : 0xbf;
	else if (b >= 0xf0 && b <= 0xf4)
		len = 4, v = b & 0x07, lo = b == 0xf0 ? 0x90 : 0x80, hi = b == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (i > 1 && (s[i] < 0x80 || s[i] > 0xbf))
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (cp)
		*cp = v;
	return len;
}

/* The sequence at s of a NUL-terminated string: a NUL is no continuation byte, so no
 * read goes past it. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cpo)
{
	return text_utf8_seq(s, 4, cpo);
}

/* Characters that steer a terminal or the text around them rather than show: C0 and DEL,
 * C1 controls (some terminals take U+009B for ESC [), and the bidirectional controls
 * that would make a name display reversed or reorder the columns after it. */
static bool steers(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c ||
	       cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

size_t text_sanitize(const char *in, char *out, size_t outlen, bool utf8)
{
	if (outlen == 0)
		return 0;
	const unsigned char *s = (const unsigned char *)(in ? in : "");
	size_t o = 0;
	while (*s && o + 1 < outlen) {
		/* Printable ASCII, most names, is itself: no decoding. */
		if (*s >= 0x20 && *s < 0x7f) {
			out[o++] = (char)*s++;
			continue;
		}
		uint32_t cp = 0;
		size_t n = utf8_decode(s, &cp);
		if (n && steers(cp)) {
			/* One '?' for the character, whatever its length. */
			out[o++] = '?';
			s += n;
			continue;
		}
		if (n > 1 && !utf8) {
			/* One '?' per character, not per byte: the width stays right. */
			out[o++] = '?';
			s += n;
			continue;
		}
		if (n == 0) {
			out[o++] = '?';
			s++;
			continue;
		}
		if (o + n >= outlen)
			break;
		memcpy(out + o, s, n);
		o += n;
		s += n;
	}
	out[o] = '\0';
	return o;
}

void text_csv_field(FILE *f, const char *s)
{
	char buf[1024];
	text_sanitize(s, buf, sizeof(buf), true);
	if (!strpbrk(buf, ",\"")) {
		fputs(buf, f);
		return;
	}
	fputc('"', f);
	for (const char *p = buf; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

void text_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	fputc('"', f);
	while (*p) {
		uint32_t cp = 0;
		size_t n = utf8_decode(p, &cp);
		if (n && steers(cp)) {
			/* Kept exactly, as an escape: JSON readers get the character, a terminal
			 * showing the raw line only ASCII. */
			fprintf(f, "\\u%04x", (unsigned)cp);
		} else if (n == 1) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		} else if (n == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else {
			fwrite(p, 1, n, f);
		}
		p += n;
	}
	fputc('"', f);
}

const char *text_iso_time(double wall, char *buf, size_t len)
{
	/* A damaged recording's time: out of time_t's range the conversion is undefined. */
	if (!(wall >= 0 && wall < 1e15)) {
		snprintf(buf, len, "?");
		return buf;
	}
	time_t t = (time_t)wall;
	int ms = (int)((wall - (double)t) * 1000.0 + 0.5);
	if (ms >= 1000) {
		t++;
		ms -= 1000;
	}
	struct tm tm;
	char day[32], off[8];
	if (!localtime_r(&t, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm) ||
	    strftime(off, sizeof(off), "%z", &tm) != 5)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s.%03d%.3s:%s", day, ms, off, off + 3);
	return buf;
}
