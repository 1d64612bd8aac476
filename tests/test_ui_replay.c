/* A replay's screen off-screen: the header's REPLAY field and the recording's range in
 * full on a wide screen and short at 80 columns, and x, } and { as commands in a replay
 * (a line saying why not on the live screen). */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "curs.h"
#include "testutil.h"
#include "test_ui_fake.h"

static int setup(void **state)
{
	return fake_fixture_setup(state, 140, 30);
}

static int teardown(void **state)
{
	return fake_fixture_teardown(state);
}

#define U(state) (((struct fake_fixture *)*(state))->t.u)

static const char *screen(void **state)
{
	const char *s = fake_screen(U(state));
	if (getenv("UI_TEST_DUMP"))
		fprintf(stderr, "----\n%s----\n", s);
	return s;
}

#define FIELD                                                                                      \
	"REPLAY 2026-11-27 23:22:43 (4/120) 10x\tREPLAY 23:22:43 (4/120) 10x\t2026-11-27 "         \
	"23:22:41 to 23:24:40\t23:22:41-23:24:40"

static void test_header_wide_and_narrow(void **state)
{
	char line[1024];
	ui_set_replay(U(state), FIELD);
	const char *s = screen(state);
	fake_line(s, 1, line, sizeof(line));
	assert_non_null(strstr(line, " REPLAY 2026-11-27 23:22:43 (4/120) 10x "));
	assert_non_null(strstr(line, "recorded 2026-11-27 23:22:41 to 23:24:40"));
	assert_null(strchr(line, '\t'));
	/* 80 columns: the short forms, the range kept before threads and user mode. */
	ui_set_size(U(state), 80, 24);
	s = screen(state);
	fake_line(s, 1, line, sizeof(line));
	assert_non_null(strstr(line, " REPLAY 23:22:43 (4/120) 10x "));
	assert_non_null(strstr(line, "recorded 23:22:41-23:24:40"));
	assert_non_null(strstr(line, "Tasks "));
	assert_true(strlen(line) <= 80);
	/* One part only (a recording without a span): the field as given. */
	ui_set_replay(U(state), "REPLAY 2026-11-27 23:22:43 1x");
	s = screen(state);
	fake_line(s, 1, line, sizeof(line));
	assert_non_null(strstr(line, " REPLAY 2026-11-27 23:22:43 1x "));
	assert_null(strstr(line, "recorded"));
}

static void test_replay_keys(void **state)
{
	char line[1024];
	/* The live screen: why not, no command. */
	struct ui_cmd cmd = fake_key(U(state), 'x');
	assert_int_not_equal(cmd.kind, UI_SPEED);
	const char *s = screen(state);
	assert_true(fake_find(s, "play a recording: pmutop -r FILE") >= 0);
	cmd = fake_key(U(state), '}');
	assert_int_not_equal(cmd.kind, UI_SPIKE);
	/* A replay: x the speed, } the next spike, { the one before; the key bar has them. */
	ui_set_replay(U(state), FIELD);
	cmd = fake_key(U(state), 'x');
	assert_int_equal(cmd.kind, UI_SPEED);
	cmd = fake_key(U(state), '}');
	assert_int_equal(cmd.kind, UI_SPIKE);
	assert_int_equal(cmd.step, 1);
	cmd = fake_key(U(state), '{');
	assert_int_equal(cmd.kind, UI_SPIKE);
	assert_int_equal(cmd.step, -1);
	s = screen(state);
	fake_line(s, fake_lines(s) - 1, line, sizeof(line));
	assert_non_null(strstr(line, "xSpeed"));
	assert_non_null(strstr(line, "}Spike"));
	/* In a row's detail view too. */
	fake_key(U(state), '\n');
	cmd = fake_key(U(state), 'x');
	assert_int_equal(cmd.kind, UI_SPEED);
	cmd = fake_key(U(state), '}');
	assert_int_equal(cmd.kind, UI_SPIKE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_header_wide_and_narrow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_keys, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
