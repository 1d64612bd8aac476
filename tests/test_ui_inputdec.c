/* The input decoder (ui/inputdec.c), bytes in, events out: keys, sequences split over
 * reads, unknown sequences consumed whole, SGR and X10 mouse reports, the terminal
 * description's own keys, and sequences too long to hold. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "inputdec.h"
#include "testutil.h"

/* Everything the bytes give, as text: "k<key>" for a key, "m<button><p|r>@x,y" for
 * the mouse, one a line. timed_out: the wait after the last byte is over. */
static const char *events(struct indec *d, const char *bytes, size_t n, bool timed_out)
{
	static char out[4096];
	size_t len = 0;
	out[0] = '\0';
	size_t fed = 0;
	for (;;) {
		fed += indec_feed(d, (const unsigned char *)bytes + fed, n - fed);
		struct indec_event ev;
		int got = indec_next(d, fed == n && timed_out, &ev);
		if (!got && fed == n)
			break;
		if (!got)
			continue;
		if (ev.kind == INDEC_KEY)
			len += (size_t)snprintf(out + len, sizeof(out) - len, "k%d\n", ev.key);
		else
			len += (size_t)snprintf(out + len, sizeof(out) - len, "m%d%c%s@%d,%d\n",
						ev.button, ev.press ? 'p' : 'r',
						ev.motion ? "+" : "", ev.x, ev.y);
		assert_true(len < sizeof(out));
	}
	return out;
}

static const char *ev_str(struct indec *d, const char *s, bool timed_out)
{
	return events(d, s, strlen(s), timed_out);
}

static void test_plain_keys(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	assert_string_equal(ev_str(&d, "ab\r", false), "k97\nk98\nk13\n");
	assert_int_equal(indec_wait(&d), 0);
	/* UTF-8 goes through byte by byte, as the prompt takes it. */
	assert_string_equal(ev_str(&d, "\xc3\xa9", false), "k195\nk169\n");
}

static void test_escape_alone_waits(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	assert_string_equal(ev_str(&d, "\x1b", false), "");
	assert_int_equal(indec_wait(&d), INDEC_ESC_MS);
	assert_string_equal(ev_str(&d, "", true), "k27\n");
	assert_int_equal(indec_wait(&d), 0);
	/* Esc Esc: two; Esc then a letter (Alt): both, as curses gives them. */
	assert_string_equal(ev_str(&d, "\x1b\x1b", true), "k27\nk27\n");
	assert_string_equal(ev_str(&d, "\x1bx", false), "k27\nk120\n");
}

static void test_known_keys(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	char want[256];
	snprintf(want, sizeof(want), "k%d\nk%d\nk%d\nk%d\nk%d\nk%d\n", INDEC_K_UP, INDEC_K_DOWN,
		 INDEC_K_F0 + 1, INDEC_K_F0 + 9, INDEC_K_NPAGE, INDEC_K_BTAB);
	assert_string_equal(ev_str(&d, "\x1b[A\x1bOB\x1bOP\x1b[20~\x1b[6~\x1b[Z", false), want);
	/* Shift-F3 both ways xterm sends it: F15, as curses numbers it. */
	snprintf(want, sizeof(want), "k%d\nk%d\n", INDEC_K_F0 + 15, INDEC_K_F0 + 15);
	assert_string_equal(ev_str(&d, "\x1b[1;2R\x1b[13;2~", false), want);
	/* A modified arrow is the arrow. */
	snprintf(want, sizeof(want), "k%d\n", INDEC_K_LEFT);
	assert_string_equal(ev_str(&d, "\x1b[1;5D", false), want);
}

/* The sequences: each consumed whole, none a key. */
static void test_unknown_consumed(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	assert_string_equal(ev_str(&d, "\x1b[12;5R", false), "");
	assert_string_equal(ev_str(&d, "\x1b[>0;276;0c", false), "");
	assert_string_equal(ev_str(&d, "\x1bOZ", false), "");
	assert_string_equal(ev_str(&d, "\x1bP1$r0m\x1b\\", false), "");
	assert_string_equal(ev_str(&d, "\x1b]11;rgb:0000/0000/0000\a", false), "");
	assert_string_equal(ev_str(&d, "\x1b[?1;2c\x1b[3 q\x1b[1:2A", false), "");
	assert_int_equal(indec_wait(&d), 0);
	/* What follows one is read as usual. */
	assert_string_equal(ev_str(&d, "\x1b[99zq", false), "k113\n");
	/* A CSI broken by a control byte: dropped, the byte kept. */
	assert_string_equal(ev_str(&d, "\x1b[12\r", false), "k13\n");
}

static void test_split_sequences(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	/* The click, in two reads: one press, no keys. */
	assert_string_equal(ev_str(&d, "\x1b[<0;4", false), "");
	assert_int_equal(indec_wait(&d), INDEC_SEQ_MS);
	assert_string_equal(ev_str(&d, "2;9M", false), "m1p@41,8\n");
	/* Split anywhere, byte by byte. */
	const char *all = "\x1b[<0;42;9M\x1b[<0;42;9m\x1bP1$r0m\x1b\\\x1b[20~x";
	char want[256];
	snprintf(want, sizeof(want), "m1p@41,8\nm1r@41,8\nk%d\nk120\n", INDEC_K_F0 + 9);
	char got[1024] = "";
	for (size_t i = 0; all[i]; i++)
		strcat(got, events(&d, all + i, 1, false));
	assert_string_equal(got, want);
	/* Never finished: dropped once the wait is over, whole. */
	assert_string_equal(ev_str(&d, "\x1b[<0;4", false), "");
	assert_string_equal(ev_str(&d, "", true), "");
	assert_int_equal(d.n, 0);
	assert_string_equal(ev_str(&d, "\x1bP", true), "");
	assert_string_equal(ev_str(&d, "\x1bO", true), "");
	assert_string_equal(ev_str(&d, "q", false), "k113\n");
}

static void test_mouse(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	/* SGR: wheel up and down, button 3, motion with button 1. */
	assert_string_equal(
		ev_str(&d, "\x1b[<64;1;1M\x1b[<65;2;3M\x1b[<2;5;6M\x1b[<32;7;8M", false),
		"m4p@0,0\nm5p@1,2\nm3p@4,5\nm1p+@6,7\n");
	/* X10 (each byte + 32): a press of button 1 at 10,5, then the release. */
	assert_string_equal(ev_str(&d, "\x1b[M +&\x1b[M#+&", false), "m1p@10,5\nm0r@10,5\n");
	/* Half an X10 report waits for its rest. */
	assert_string_equal(ev_str(&d, "\x1b[M ", false), "");
	assert_string_equal(ev_str(&d, "!!", false), "m1p@0,0\n");
	/* Sideways wheel and a bad SGR report: nothing. */
	assert_string_equal(ev_str(&d, "\x1b[<66;1;1M\x1b[<0;1M", false), "");
}

static void test_added_sequences(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	assert_int_equal(indec_add(&d, "\x1b[[A", 1001), 0); /* the Linux console's F1 */
	assert_int_equal(indec_add(&d, "\x7f", 1002), 0);
	assert_int_equal(indec_add(&d, "", 1), -EINVAL);
	assert_string_equal(ev_str(&d, "\x1b[[A\x7f", false), "k1001\nk1002\n");
	/* A prefix of one waits for the rest. */
	assert_string_equal(ev_str(&d, "\x1b[[", false), "");
	assert_string_equal(ev_str(&d, "A", false), "k1001\n");
	for (int i = 2; i < INDEC_SEQS; i++)
		assert_int_equal(indec_add(&d, "\x1b[9999~", i), 0);
	assert_int_equal(indec_add(&d, "\x1b[9998~", 1), -ENOSPC);
}

/* Longer than the buffer: dropped whole, its rest too, then keys again. */
static void test_too_long(void **state)
{
	(void)state;
	struct indec d;
	indec_init(&d);
	char big[3 * INDEC_BUF];
	memset(big, 'a', sizeof(big));
	memcpy(big, "\x1b]", 2);
	memcpy(big + sizeof(big) - 4, "\a", 1);
	memcpy(big + sizeof(big) - 3, "qq", 2);
	assert_string_equal(events(&d, big, sizeof(big) - 1, false), "k113\nk113\n");
	memset(big, '1', sizeof(big));
	memcpy(big, "\x1b[", 2);
	memcpy(big + sizeof(big) - 3, "~q", 2);
	assert_string_equal(events(&d, big, sizeof(big) - 1, false), "k113\n");
	/* A string that never ends: what follows the wait is read again. */
	memset(big, 'a', sizeof(big));
	memcpy(big, "\x1bP", 2);
	assert_string_equal(events(&d, big, sizeof(big), false), "");
	assert_int_equal(indec_wait(&d), INDEC_SEQ_MS);
	assert_string_equal(ev_str(&d, "", true), "");
	assert_string_equal(ev_str(&d, "q", false), "k113\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_keys),	cmocka_unit_test(test_escape_alone_waits),
		cmocka_unit_test(test_known_keys),	cmocka_unit_test(test_unknown_consumed),
		cmocka_unit_test(test_split_sequences), cmocka_unit_test(test_mouse),
		cmocka_unit_test(test_added_sequences), cmocka_unit_test(test_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
