/* The dialogs' pieces without a screen: PID validation, line editing,
 * and the pick list's keys. */
#include <string.h>

#include "curs.h"
#include "menu.h"
#include "prompt.h"
#include "testutil.h"

#define CTRL_U 0x15

static void test_pid(void **state)
{
	(void)state;
	pid_t p = 0;
	assert_true(prompt_parse_pid("1", &p));
	assert_int_equal(p, 1);
	assert_true(prompt_parse_pid(" 4194304 ", &p));
	assert_int_equal(p, 4194304);
	const char *bad[] = {"", "0", "-1", "+5", "12a", "1 2", "99999999999999999999", "0x10"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = 7;
		assert_false(prompt_parse_pid(bad[i], &p));
		assert_int_equal(p, 7);
	}
}

static void test_editing(void **state)
{
	(void)state;
	struct prompt p;
	prompt_open(&p, "Filter:", "ab");
	assert_string_equal(p.text, "ab");
	assert_int_equal(prompt_key(&p, 'c'), PROMPT_CHANGED);
	assert_string_equal(p.text, "abc");
	assert_int_equal(prompt_key(&p, KEY_BACKSPACE), PROMPT_CHANGED);
	assert_string_equal(p.text, "ab");
	/* A UTF-8 character typed byte by byte goes away whole. */
	prompt_key(&p, 0xc3);
	prompt_key(&p, 0xa9);
	assert_string_equal(p.text, "ab\xc3\xa9");
	prompt_key(&p, 127);
	assert_string_equal(p.text, "ab");
	/* Control characters and function keys are not text. */
	assert_int_equal(prompt_key(&p, 7), PROMPT_IGNORED);
	assert_int_equal(prompt_key(&p, KEY_F(3)), PROMPT_IGNORED);
	assert_string_equal(p.text, "ab");
	assert_int_equal(prompt_key(&p, 21), PROMPT_CHANGED); /* ^U */
	assert_string_equal(p.text, "");
	assert_int_equal(prompt_key(&p, KEY_BACKSPACE), PROMPT_CHANGED); /* empty: fine */
	assert_int_equal(prompt_key(&p, '\n'), PROMPT_ACCEPT);
	assert_int_equal(prompt_key(&p, 27), PROMPT_CANCEL);
	/* Bounded: typing past the end is refused, not overflowed. */
	for (int i = 0; i < 2 * PROMPT_MAX; i++)
		prompt_key(&p, 'x');
	assert_int_equal(strlen(p.text), PROMPT_MAX - 1);
	assert_int_equal(prompt_key(&p, 'x'), PROMPT_IGNORED);
}

/* An offered value (the interval's): a character typed replaces it, Backspace edits it,
 * a key that is not text leaves it offered, Enter takes it as it is. */
static void test_offered(void **state)
{
	(void)state;
	struct prompt p;
	prompt_offer(&p, "Interval:", "1");
	assert_true(p.offered);
	assert_int_equal(prompt_key(&p, KEY_F(3)), PROMPT_IGNORED);
	assert_int_equal(prompt_key(&p, '5'), PROMPT_CHANGED);
	assert_string_equal(p.text, "5");
	assert_int_equal(prompt_key(&p, '0'), PROMPT_CHANGED);
	assert_string_equal(p.text, "50");
	prompt_offer(&p, "Interval:", "20");
	assert_int_equal(prompt_key(&p, KEY_BACKSPACE), PROMPT_CHANGED);
	assert_int_equal(prompt_key(&p, '5'), PROMPT_CHANGED);
	assert_string_equal(p.text, "25");
	prompt_offer(&p, "Interval:", "2");
	assert_int_equal(prompt_key(&p, '\n'), PROMPT_ACCEPT);
	assert_string_equal(p.text, "2");
	prompt_offer(&p, "Interval:", "");
	assert_false(p.offered);
	/* prompt_open offers nothing: typing appends (the filter). */
	prompt_open(&p, "Filter:", "ab");
	prompt_key(&p, 'c');
	assert_string_equal(p.text, "abc");
}

/* A paste longer than the prompt holds (issue 37, item 8): Enter takes nothing and the
 * prompt says why; Ctrl-U starts anew. */
static void test_too_long(void **state)
{
	(void)state;
	struct prompt p;
	prompt_open(&p, "Events:", "");
	for (int i = 0; i < PROMPT_MAX + 100; i++)
		prompt_key(&p, 'a');
	assert_int_equal(p.len, PROMPT_MAX - 1);
	assert_int_not_equal(prompt_key(&p, '\r'), PROMPT_ACCEPT);
	assert_non_null(strstr(p.label, "Too long"));
	prompt_key(&p, CTRL_U);
	prompt_key(&p, 'x');
	assert_int_equal(prompt_key(&p, '\r'), PROMPT_ACCEPT);
	assert_string_equal(p.text, "x");
}

static void test_menu(void **state)
{
	(void)state;
	struct menu m;
	menu_clear(&m, "Pick");
	assert_int_equal(menu_key(&m, '\n'), MENU_CANCEL); /* nothing to pick */
	assert_int_equal(menu_value(&m), -1);
	assert_int_equal(menu_add(&m, "a", 10), 0);
	assert_int_equal(menu_add(&m, "b", 20), 1);
	assert_int_equal(menu_add(&m, "c", 30), 2);
	assert_int_equal(menu_key(&m, KEY_UP), MENU_STAY); /* clamped at the top */
	assert_int_equal(menu_value(&m), 10);
	menu_key(&m, KEY_DOWN);
	assert_int_equal(menu_value(&m), 20);
	menu_key(&m, KEY_END);
	menu_key(&m, KEY_DOWN); /* clamped at the bottom */
	assert_int_equal(menu_value(&m), 30);
	menu_key(&m, KEY_HOME);
	assert_int_equal(menu_value(&m), 10);
	assert_int_equal(menu_key(&m, KEY_ENTER), MENU_PICK);
	assert_int_equal(menu_key(&m, 27), MENU_CANCEL);
	for (int i = 3; i < MENU_MAX; i++)
		assert_true(menu_add(&m, "x", i) >= 0);
	assert_int_equal(menu_add(&m, "full", 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pid),	 cmocka_unit_test(test_editing),
		cmocka_unit_test(test_offered),	 cmocka_unit_test(test_menu),
		cmocka_unit_test(test_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
