/* Untrusted text (command names) made safe: no byte may steer a terminal, a CSV field
 * stays one field, a JSON string stays valid. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Sanitise with a roomy buffer and check the returned length. */
static const char *san(const char *in, bool utf8)
{
	static char out[256];
	size_t n = text_sanitize(in, out, sizeof(out), utf8);
	assert_int_equal(n, strlen(out));
	return out;
}

/* No byte of s is a C0 control, DEL, or a C1 control byte left as raw text. */
static void assert_terminal_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		assert_false(*p < 0x20 || *p == 0x7f);
		/* 0x9b alone is CSI on 8-bit terminals; it may only appear as a continuation
		 * byte of a valid character that is not itself a C1 control. */
		if (*p == 0xc2)
			assert_true(p[1] >= 0xa0);
	}
}

static void test_sanitize_plain(void **state)
{
	(void)state;
	assert_string_equal(san("bash", true), "bash");
	assert_string_equal(san("kworker/0:1-events", false), "kworker/0:1-events");
	assert_string_equal(san("", true), "");
	assert_string_equal(san(NULL, true), "");
}

static void test_sanitize_c0_and_del(void **state)
{
	(void)state;
	/* ESC [ 2 J would clear the screen: only the ESC needs to go. */
	assert_string_equal(san("\x1b[2Jevil", true), "?[2Jevil");
	assert_string_equal(san("a\ab", true), "a?b");
	assert_string_equal(san("a\nb\rc\td", true), "a?b?c?d");
	assert_string_equal(san("x\x7fy", true), "x?y");
	assert_string_equal(san("\x01\x1f", false), "??");
}

static void test_sanitize_c1_in_utf8(void **state)
{
	(void)state;
	/* U+009B (CSI) written as C2 9B is valid UTF-8 and still a control. */
	const char *s = san("a\302\23331mb", true);
	assert_terminal_safe(s);
	assert_null(strchr(s, '\x9b'));
	assert_non_null(strstr(s, "31mb"));
	assert_int_equal(s[0], 'a');
	assert_int_equal(s[1], '?');
	/* The raw 8-bit byte alone. */
	assert_string_equal(san("a\233b", true), "a?b");
	/* U+00A0 (no-break space) is the first character after C1: kept. */
	assert_string_equal(san("\xc2\xa0", true), "\xc2\xa0");
}

static void test_sanitize_bidi(void **state)
{
	(void)state;
	/* U+202E (right-to-left override) would show "evil\u202Egnp.exe" reversed and turn
	 * the columns after it around: one '?' for it, and for the other bidi controls. */
	assert_string_equal(san("evil\xe2\x80\xaegnp", true), "evil?gnp");
	assert_string_equal(san("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", true), "???");
	assert_string_equal(san("\xe2\x81\xa6x\xe2\x81\xa9", true), "?x?");
	/* Their neighbours are ordinary text: kept. */
	assert_string_equal(san("\xe2\x80\xa9\xe2\x81\xaa", true), "\xe2\x80\xa9\xe2\x81\xaa");
}

static void test_sanitize_invalid(void **state)
{
	(void)state;
	/* Every byte of an invalid sequence becomes one '?'. */
	assert_string_equal(san("\xff", true), "?");
	assert_string_equal(san("\xfe\xff", true), "??");
	assert_string_equal(san("\xc3\x28", true), "?(");      /* lead without continuation */
	assert_string_equal(san("\x80x", true), "?x");	       /* stray continuation */
	assert_string_equal(san("\xc0\xaf", true), "??");      /* overlong '/' */
	assert_string_equal(san("\xc1\xbf", true), "??");      /* overlong DEL */
	assert_string_equal(san("\xe0\x80\xaf", true), "???"); /* overlong, 3 bytes */
	assert_string_equal(san("\xf0\x80\x80\xaf", true), "????");
	assert_string_equal(san("\xed\xa0\x80", true), "???");	    /* surrogate U+D800 */
	assert_string_equal(san("\xed\xbf\xbf", true), "???");	    /* surrogate U+DFFF */
	assert_string_equal(san("\xf4\x90\x80\x80", true), "????"); /* above U+10FFFF */
	/* The last characters before the forbidden ranges are fine. */
	assert_string_equal(san("\xed\x9f\xbf", true), "\xed\x9f\xbf");		/* U+D7FF */
	assert_string_equal(san("\xf4\x8f\xbf\xbf", true), "\xf4\x8f\xbf\xbf"); /* U+10FFFF */
}

static void test_sanitize_truncated_at_end(void **state)
{
	(void)state;
	/* A sequence cut by the end of the string: no read past the NUL, no raw bytes. */
	assert_string_equal(san("ab\xe2\x82", true), "ab??");
	assert_string_equal(san("ab\xf0\x9f\x98", true), "ab???");
	assert_string_equal(san("\xc3", true), "?");
}

static void test_sanitize_valid_kept(void **state)
{
	(void)state;
	const char *in = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"; /* café € 😀 */
	assert_string_equal(san(in, true), in);
}

static void test_sanitize_ascii_mode(void **state)
{
	(void)state;
	/* One '?' per character, not per byte: the column width stays right. */
	assert_string_equal(san("caf\xc3\xa9", false), "caf?");
	assert_string_equal(san("\xe2\x82\xac\xf0\x9f\x98\x80x", false), "??x");
	/* Invalid bytes are still one '?' each. */
	assert_string_equal(san("\xff\xc3\x28", false), "?\?(");
}

static void test_sanitize_never_splits(void **state)
{
	(void)state;
	char out[8];
	/* "ab€" is 5 bytes: with room for 4 the euro sign is dropped whole. */
	assert_int_equal(text_sanitize("ab\xe2\x82\xac", out, 5, true), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(text_sanitize("ab\xe2\x82\xac", out, 6, true), 5);
	assert_string_equal(out, "ab\xe2\x82\xac");
	/* Four-byte character with three bytes of room. */
	assert_int_equal(text_sanitize("\xf0\x9f\x98\x80", out, 4, true), 0);
	assert_string_equal(out, "");
	/* Plain truncation. */
	assert_int_equal(text_sanitize("abcdef", out, 4, true), 3);
	assert_string_equal(out, "abc");
	/* ASCII mode: the '?' fits where the character would not. */
	assert_int_equal(text_sanitize("a\xe2\x82\xac", out, 3, false), 2);
	assert_string_equal(out, "a?");
}

static void test_sanitize_tiny_buffers(void **state)
{
	(void)state;
	char out[4] = "xyz";
	assert_int_equal(text_sanitize("abc", out, 0, true), 0);
	assert_string_equal(out, "xyz"); /* nothing written, not even the NUL */
	assert_int_equal(text_sanitize("abc", out, 1, true), 0);
	assert_string_equal(out, "");
}

/* Every byte alone: printable ASCII (0x20 to 0x7e) is kept as it is, and nothing else
 * is, whatever the shortcut that plain names take. */
static void test_sanitize_each_byte(void **state)
{
	(void)state;
	for (unsigned c = 1; c < 256; c++) {
		char in[4] = {'a', (char)c, 'z', '\0'};
		const char *out = san(in, true);
		char want[4] = {'a', c >= 0x20 && c < 0x7f ? (char)c : '?', 'z', '\0'};
		assert_string_equal(out, want);
	}
}

/* Plain ASCII is cut at the buffer's end like any other text, and a character after it
 * is left out whole, never split. */
static void test_sanitize_ascii_cut(void **state)
{
	(void)state;
	const char *in = "abcdefgh\xc3\xa9xyz";
	for (size_t len = 1; len < 16; len++) {
		char out[16];
		size_t n = text_sanitize(in, out, len, true);
		/* "abcdefgh" (8), then the 2-byte character whole or not at all, then "xyz". */
		size_t room = len - 1;
		size_t want = room < 8 ? room : room < 10 ? 8 : room < 13 ? room : 13;
		assert_int_equal(n, want);
		assert_int_equal(strlen(out), n);
		assert_memory_equal(out, in, n);
	}
}

/* Run a writer into memory. */
static char *capture_csv(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	text_csv_field(f, s);
	fclose(f);
	return buf;
}

static char *capture_json(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	text_json_string(f, s);
	fclose(f);
	return buf;
}

static void check_csv(const char *in, const char *want)
{
	char *got = capture_csv(in);
	assert_string_equal(got, want);
	free(got);
}

static void check_json(const char *in, const char *want)
{
	char *got = capture_json(in);
	assert_string_equal(got, want);
	free(got);
}

static void test_csv_field(void **state)
{
	(void)state;
	check_csv("bash", "bash");
	check_csv("", "");
	check_csv(NULL, "");
	check_csv("a,b", "\"a,b\"");
	check_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
	check_csv("\"", "\"\"\"\"");
	check_csv("x,\"y\"", "\"x,\"\"y\"\"\"");
	/* A newline would start a new record: it is replaced, so one line stays one. */
	char *got = capture_csv("a\nb\r\nc");
	assert_null(strchr(got, '\n'));
	assert_null(strchr(got, '\r'));
	assert_string_equal(got, "a?b??c");
	free(got);
	/* Escapes never reach the file either. */
	check_csv("\x1b[1m", "?[1m");
	check_csv("caf\xc3\xa9", "caf\xc3\xa9");
}

static void test_json_string(void **state)
{
	(void)state;
	check_json("bash", "\"bash\"");
	check_json("", "\"\"");
	check_json(NULL, "\"\"");
	check_json("a\"b", "\"a\\\"b\"");
	check_json("a\\b", "\"a\\\\b\"");
	check_json("\x01", "\"\\u0001\"");
	check_json("a\nb", "\"a\\u000ab\"");
	check_json("\x1b", "\"\\u001b\"");
	check_json("\x7f", "\"\\u007f\"");
	check_json("\x1f", "\"\\u001f\"");
	/* Invalid UTF-8: each bad byte becomes U+FFFD, so the line stays valid JSON. */
	check_json("\xff", "\"\\ufffd\"");
	check_json("a\xc0\xafz", "\"a\\ufffd\\ufffdz\"");
	check_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	check_json("x\xe2\x82", "\"x\\ufffd\\ufffd\"");
	/* Valid characters pass through. */
	check_json("caf\xc3\xa9 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
	/* Controls that steer a terminal are escaped exactly: the reader gets them back. */
	check_json("a\xc2\x9b"
		   "b",
		   "\"a\\u009bb\"");
	check_json("x\xe2\x80\xaey", "\"x\\u202ey\"");
	/* A C1 control leaves no raw byte. */
	char *got = capture_json("\xc2\x9b");
	assert_null(strchr(got, '\x9b'));
	assert_null(strchr(got, '\xc2'));
	assert_int_equal(got[0], '"');
	assert_int_equal(got[strlen(got) - 1], '"');
	free(got);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sanitize_plain),
		cmocka_unit_test(test_sanitize_c0_and_del),
		cmocka_unit_test(test_sanitize_c1_in_utf8),
		cmocka_unit_test(test_sanitize_bidi),
		cmocka_unit_test(test_sanitize_invalid),
		cmocka_unit_test(test_sanitize_truncated_at_end),
		cmocka_unit_test(test_sanitize_valid_kept),
		cmocka_unit_test(test_sanitize_ascii_mode),
		cmocka_unit_test(test_sanitize_never_splits),
		cmocka_unit_test(test_sanitize_tiny_buffers),
		cmocka_unit_test(test_sanitize_each_byte),
		cmocka_unit_test(test_sanitize_ascii_cut),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_json_string),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
