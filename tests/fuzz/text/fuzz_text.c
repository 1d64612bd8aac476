/* libFuzzer harness for text_sanitize, text_csv_field and text_json_string: command and
 * user names are written by other processes, so every byte is hostile.
 *
 * Input: one flags byte (bit 7: utf8; bits 0-6: the output size for text_sanitize, 0..127,
 * or the full 4096 when 127), then the text (cut at its first NUL, as a C string is).
 *
 * Invariants checked, from text.h:
 * - sanitize: returns strlen(out) < outlen; no byte < 0x20 or 0x7f; valid UTF-8 (no
 *   overlong form, surrogate or code point above U+10FFFF) and no C1 control; pure ASCII
 *   without utf8; a printable ASCII input that fits is copied unchanged; sanitising the
 *   output again changes nothing; a shorter buffer gets a prefix of the longer result.
 * - CSV: one RFC 4180 field, quoted exactly when it holds a comma or quote (CR and LF are
 *   already gone), whose unquoted value is the sanitised text.
 * - JSON: one valid JSON string (RFC 8259) whose decoded value is the input itself when
 *   the input is valid UTF-8 without C1 controls. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BIG 4096

/* Length of the UTF-8 sequence at s and its code point, or 0 when invalid (strict). */
static size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t n;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0)
		n = 2, *cp = c & 0x1f;
	else if ((c & 0xf0) == 0xe0)
		n = 3, *cp = c & 0x0f;
	else if ((c & 0xf8) == 0xf0)
		n = 4, *cp = c & 0x07;
	else
		return 0;
	if (n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (*cp < min[n] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

/* Valid UTF-8 with no C0, DEL or C1 control. */
static bool clean_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t l = utf8_decode(s + i, n - i, &cp);
		if (l == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
			return false;
		i += l;
	}
	return true;
}

/* Valid UTF-8 and free of C1 controls (C0 allowed: JSON escapes them reversibly). */
static bool json_roundtrips(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t l = utf8_decode(s + i, n - i, &cp);
		if (l == 0 || (cp >= 0x80 && cp <= 0x9f))
			return false;
		i += l;
	}
	return true;
}

static void check_sanitize(const char *in, size_t outlen, bool utf8)
{
	static char out[BIG + 16], again[BIG + 16], longer[BIG + 16];
	memset(out, 0x5a, sizeof(out));
	size_t r = text_sanitize(in, out, outlen, utf8);
	if (outlen == 0) {
		if (r != 0 || out[0] != 0x5a) /* nothing may be written */
			abort();
		return;
	}
	if (r >= outlen || strlen(out) != r || out[outlen] != 0x5a)
		abort();
	const unsigned char *o = (const unsigned char *)out;
	if (!clean_utf8(o, r))
		abort();
	for (size_t i = 0; !utf8 && i < r; i++)
		if (o[i] >= 0x80)
			abort();
	size_t inlen = strlen(in);
	bool printable = true;
	for (size_t i = 0; i < inlen; i++)
		printable &= in[i] >= 0x20 && in[i] < 0x7f;
	if (printable && inlen < outlen && strcmp(out, in) != 0)
		abort();
	/* Idempotent. */
	if (text_sanitize(out, again, outlen, utf8) != r || strcmp(again, out) != 0)
		abort();
	/* Cutting never changes what is kept: a shorter buffer holds a prefix. */
	text_sanitize(in, longer, BIG, utf8);
	if (strncmp(longer, out, r) != 0)
		abort();
}

static char *capture(void (*fn)(FILE *, const char *), const char *s, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		abort();
	fn(f, s);
	if (fclose(f) != 0)
		abort();
	return buf;
}

static void check_csv(const char *in)
{
	static char want[1024];
	size_t len;
	char *csv = capture(text_csv_field, in, &len);
	text_sanitize(in, want, sizeof(want), true);
	if (strlen(csv) != len)
		abort();
	/* Unquote per RFC 4180 and compare. */
	char *val = malloc(len + 1);
	size_t v = 0;
	if (!val)
		abort();
	if (len >= 2 && csv[0] == '"') {
		if (csv[len - 1] != '"')
			abort();
		for (size_t i = 1; i < len - 1; i++) {
			if (csv[i] == '"') {
				if (csv[i + 1] != '"' || i + 1 == len - 1)
					abort();
				i++;
			}
			val[v++] = csv[i];
		}
		if (!strpbrk(want, ",\"")) /* quoted only when needed */
			abort();
	} else {
		if (strpbrk(csv, ",\"\r\n"))
			abort();
		memcpy(val, csv, len);
		v = len;
	}
	val[v] = '\0';
	if (strcmp(val, want) != 0)
		abort();
	free(val);
	free(csv);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Put code point cp as UTF-8 at out. */
static size_t utf8_put(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | cp >> 12);
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

static void check_json(const char *in)
{
	size_t len;
	char *js = capture(text_json_string, in, &len);
	const unsigned char *p = (const unsigned char *)js;
	if (strlen(js) != len || len < 2 || js[0] != '"' || js[len - 1] != '"')
		abort();
	char *dec = malloc(len * 3 + 1);
	size_t d = 0;
	if (!dec)
		abort();
	for (size_t i = 1; i < len - 1;) {
		if (p[i] == '"' || p[i] < 0x20)
			abort(); /* unescaped quote or control */
		if (p[i] == '\\') {
			if (i + 1 >= len - 1)
				abort();
			const char *esc = strchr("\"\\/bfnrt", p[i + 1]);
			if (esc && p[i + 1]) {
				static const char map[] = "\"\\/\b\f\n\r\t";
				dec[d++] = map[esc - "\"\\/bfnrt"];
				i += 2;
				continue;
			}
			if (p[i + 1] != 'u' || i + 6 > len - 1)
				abort();
			uint32_t cp = 0;
			for (int k = 2; k < 6; k++) {
				int h = hexval(p[i + k]);
				if (h < 0)
					abort();
				cp = cp << 4 | (uint32_t)h;
			}
			if (cp >= 0xd800 && cp <= 0xdfff) /* never needed: no surrogate halves */
				abort();
			d += utf8_put(cp, dec + d);
			i += 6;
			continue;
		}
		uint32_t cp;
		size_t l = utf8_decode(p + i, len - 1 - i, &cp);
		if (l == 0)
			abort(); /* invalid UTF-8 in a JSON text */
		memcpy(dec + d, p + i, l);
		d += l;
		i += l;
	}
	dec[d] = '\0';
	if (json_roundtrips((const unsigned char *)in, strlen(in)) && strcmp(dec, in) != 0)
		abort();
	free(dec);
	free(js);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	bool utf8 = data[0] & 0x80;
	size_t outlen = data[0] & 0x7f;
	if (outlen == 0x7f)
		outlen = BIG;
	char *in = malloc(size);
	if (!in)
		return 0;
	memcpy(in, data + 1, size - 1);
	in[size - 1] = '\0';

	check_sanitize(in, outlen, utf8);
	check_csv(in);
	check_json(in);
	free(in);
	return 0;
}
