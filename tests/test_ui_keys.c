/* Keys against the off-screen UI: filter, user, interval and PID dialogs with their
 * validation, focus, engine commands, the sort menu, and a selection that follows its
 * row while the order holds still. */
#include <locale.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bindings.h"
#include "colors.h"
#include "curs.h"
#include "menu.h"
#include "siglist.h"
#include "testutil.h"
#include "test_ui_fake.h"

static int setup(void **state)
{
	return fake_fixture_setup(state, 80, 24);
}

static int teardown(void **state)
{
	return fake_fixture_teardown(state);
}

static struct ui *U(void **state)
{
	return ((struct fake_fixture *)*state)->t.u;
}

static const char *screen(void **state)
{
	const char *s = fake_screen(U(state));
	if (getenv("UI_TEST_DUMP"))
		fprintf(stderr, "----\n%s----\n", s);
	return s;
}

static const char *last_line(const char *s, char *buf, size_t len)
{
	return fake_line(s, fake_lines(s) - 1, buf, len);
}

static void test_filter_incremental(void **state)
{
	char line[1024];
	struct ui_cmd cmd = fake_key(U(state), '\\');
	assert_int_equal(cmd.kind, UI_REDRAW);
	fake_type(U(state), "ga");
	const char *s = screen(state);
	/* The prompt is on the last line, and the table already follows it. */
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "Filter: ga"));
	assert_true(fake_find(s, " gamma") >= 0);
	assert_int_equal(fake_find(s, " alpha"), -1);
	assert_int_equal(fake_find(s, " beta"), -1);
	fake_key(U(state), KEY_BACKSPACE); /* "g": beta-worker? no; gamma only */
	fake_type(U(state), "A");	   /* "gA": case-insensitive */
	assert_true(fake_find(screen(state), " gamma") >= 0);
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_REDRAW);
	s = screen(state);
	assert_non_null(strstr(s, "Filter: gA")); /* shown on the tab bar */
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "F10Quit"));
	assert_int_equal(fake_find(s, " alpha"), -1);
	/* Esc in the main view clears it. */
	fake_key(U(state), 27);
	s = screen(state);
	assert_true(fake_find(s, " alpha") >= 0);
	assert_null(strstr(s, "Filter:"));
}

static void test_filter_escape_clears(void **state)
{
	fake_key(U(state), KEY_F(4));
	fake_type(U(state), "zzz");
	const char *s = screen(state);
	assert_true(fake_find(s, "no task matches") >= 0);
	fake_key(U(state), 27);
	s = screen(state);
	assert_true(fake_find(s, " alpha") >= 0);
	assert_null(strstr(s, "Filter:"));
}

static void test_filter_sanitized(void **state)
{
	char line[1024];
	fake_key(U(state), '\\');
	fake_key(U(state), 0x1b + 0x80); /* a C1 byte: stored, never drawn raw */
	fake_key(U(state), 7);		 /* BEL: not taken at all */
	const char *s = screen(state);
	assert_null(strchr(s, '\a'));
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "Filter: ?"));
}

static void test_interval(void **state)
{
	char line[1024];
	struct ui_cmd cmd = fake_key(U(state), 'd');
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "Interval"));
	fake_key(U(state), KEY_BACKSPACE); /* the prompt starts with "1" */
	cmd = fake_type(U(state), "0.5\n");
	assert_int_equal(cmd.kind, UI_SET_INTERVAL);
	assert_true(cmd.interval > 0.49 && cmd.interval < 0.51);

	/* What -d refuses, the prompt refuses: one parser (it took hex and blanks). */
	const char *bad[] = {"abc", "0.01", "5000", "",	  "1x",	 "nan",
			     "-1",  "0x1",  " 2",   "2 ", "inf", "1e999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_key(U(state), 'd');
		fake_key(U(state), 21); /* ^U: clear the line */
		fake_type(U(state), bad[i]);
		cmd = fake_key(U(state), '\n');
		assert_int_not_equal(cmd.kind, UI_SET_INTERVAL);
		last_line(screen(state), line, sizeof(line));
		assert_non_null(strstr(line, "Not an interval"));
		assert_non_null(strstr(line, "0.1 to 3600"));
	}
	/* The message goes with the next key. */
	fake_key(U(state), KEY_DOWN);
	assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "F10Quit"));
	fake_key(U(state), 'd');
	fake_key(U(state), 21);
	cmd = fake_type(U(state), "3600\n");
	assert_int_equal(cmd.kind, UI_SET_INTERVAL);
	assert_true(cmd.interval == 3600);
	/* Esc cancels: no command. */
	fake_key(U(state), 'd');
	cmd = fake_key(U(state), 27);
	assert_int_equal(cmd.kind, UI_REDRAW);
	/* s, its alias, opens the same prompt. */
	fake_key(U(state), 's');
	assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "Interval"));
	cmd = fake_key(U(state), 27);
	assert_int_equal(cmd.kind, UI_REDRAW);
}

/* A thread of this process that waits until told to end. */
struct sleeper {
	pthread_t th;
	int fd[2];
	volatile pid_t tid;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	s->tid = (pid_t)syscall(SYS_gettid);
	char c;
	while (read(s->fd[0], &c, 1) < 0)
		;
	return NULL;
}

static void sleeper_start(struct sleeper *s)
{
	s->tid = 0;
	assert_int_equal(pipe(s->fd), 0);
	assert_int_equal(pthread_create(&s->th, NULL, sleeper_main, s), 0);
	while (!s->tid)
		sched_yield();
}

static void sleeper_stop(struct sleeper *s)
{
	assert_int_equal(write(s->fd[1], "x", 1), 1);
	pthread_join(s->th, NULL);
	close(s->fd[0]);
	close(s->fd[1]);
}

static void test_pid_focus(void **state)
{
	char line[1024];
	fake_key(U(state), 'p');
	struct ui_cmd cmd = fake_type(U(state), "300\n");
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, 300);
	const char *s = screen(state);
	assert_non_null(strstr(s, "Watching PID 300"));
	assert_true(fake_find(s, " gamma") >= 0);
	assert_int_equal(fake_find(s, " alpha"), -1);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "EscAll"));
	cmd = fake_key(U(state), 27);
	assert_int_equal(cmd.kind, UI_UNFOCUS);
	s = screen(state);
	assert_null(strstr(s, "Watching"));
	assert_true(fake_find(s, " alpha") >= 0);
	/* Esc with nothing focused is no command for the engine. */
	cmd = fake_key(U(state), 27);
	assert_int_not_equal(cmd.kind, UI_UNFOCUS);

	const char *bad[] = {"0", "-5", "12a", "", "99999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_key(U(state), 'p');
		fake_type(U(state), bad[i]);
		cmd = fake_key(U(state), '\n');
		assert_int_not_equal(cmd.kind, UI_FOCUS_PID);
		assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "Not a PID"));
	}
	/* A pid no process has: said so, and the view stays as it was. */
	fake_key(U(state), 'p');
	cmd = fake_type(U(state), "99999999\n");
	assert_int_not_equal(cmd.kind, UI_FOCUS_PID);
	s = screen(state);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "no such process 99999999"));
	assert_null(strstr(s, "Watching"));
	assert_true(fake_find(s, " alpha") >= 0);
	/* A thread's id, as -p refuses it: the model's thread 201 of process 200, and a
	fake_key(U(state), 'p');
	cmd = fake_type(U(state), "201\n");
	assert_int_not_equal(cmd.kind, UI_FOCUS_PID);
	s = screen(state);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "201 is a thread of process 200"));
	assert_null(strstr(s, "Watching"));
	 * thread of ours outside the model: the screen reads no /proc, so that one goes to the
	 * app, which refuses it (tests/tmux/focus.sh) and the view is all rows again. */
	struct sleeper sl;
	sleeper_start(&sl);
	char tid[32];
	snprintf(tid, sizeof(tid), "%d\n", (int)sl.tid);
	fake_key(U(state), 'p');
	cmd = fake_type(U(state), tid);
	sleeper_stop(&sl);
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, sl.tid);
	char want[96];
	snprintf(want, sizeof(want), "%d is a thread of process %d", (int)sl.tid, (int)getpid());
	ui_focus_refused(U(state), want);
	s = screen(state);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), want));
	assert_null(strstr(s, "Watching"));
	assert_true(fake_find(s, " alpha") >= 0);
	/* A live process outside the model: ours. */
	fake_key(U(state), 'p');
	char me[32];
	snprintf(me, sizeof(me), "%d\n", (int)getpid());
	cmd = fake_type(U(state), me);
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, getpid());
}

/* k lists every signal the kernel has by number, as htop's signals panel: 1 to 31
 * (SIGSTKFLT, SIGPWR where they exist), then SIGRTMIN to SIGRTMAX as kill -l names them;
 * the selection starts on SIGTERM. */
static void test_kill_every_signal(void **state)
{
	struct menu mn;
	menu_clear(&mn, "t");
	unsigned n = siglist_fill(&mn);
	assert_int_equal(n, mn.n);
	assert_true(n >= 31 + 30);
	assert_string_equal(mn.label[mn.sel], "15 SIGTERM");
	for (unsigned i = 1; i < n; i++)
		assert_true(mn.value[i] > mn.value[i - 1]);
	assert_string_equal(mn.label[0], " 1 SIGHUP");
	char want[32];
	snprintf(want, sizeof(want), "%d SIGRTMAX", SIGRTMAX);
	assert_string_equal(mn.label[n - 1], want);
	snprintf(want, sizeof(want), "%d SIGRTMIN+1", SIGRTMIN + 1);
	assert_string_equal(mn.label[n - (unsigned)(SIGRTMAX - SIGRTMIN)], want);
	/* The name the message says after it is sent (sigabbrev_np has none for these). */
	char nm[24];
	snprintf(want, sizeof(want), "SIGRTMIN+%d", 3);
	assert_string_equal(siglist_name(SIGRTMIN + 3, nm, sizeof(nm)), want);
	assert_string_equal(siglist_name(SIGRTMAX - 1, nm, sizeof(nm)), "SIGRTMAX-1");
	assert_string_equal(siglist_name(SIGKILL, nm, sizeof(nm)), "SIGKILL");

	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN}; /* alpha, pid 100 */
	fake_keys(U(state), keys, 4);
	fake_key(U(state), 'k');
	assert_true(fake_find(screen(state), "15 SIGTERM") >= 0);
	fake_key(U(state), KEY_END);
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SIGNAL);
	assert_int_equal(cmd.sig, SIGRTMAX);
	fake_key(U(state), 'k');
	fake_key(U(state), KEY_UP);
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.sig, SIGALRM); /* 14, above SIGTERM */
}

/* k: the signal goes with the start time the model gave the row (the app sends it only
 * to the process that started then); a recording's rows are no live processes. */
static void test_kill_start(void **state)
{
	struct fake_fixture *fx = *state;
	for (unsigned i = 0; i < fx->f.m.nrows; i++)
		fx->f.rows[i].start_ticks = 4000 + (uint64_t)fx->f.rows[i].pid;
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN}; /* alpha, pid 100 */
	fake_keys(U(state), keys, 4);
	fake_key(U(state), 'k');
	assert_true(fake_find(screen(state), "Send to 100 alpha") >= 0);
	struct ui_cmd cmd = fake_key(U(state), '\n'); /* SIGTERM, the first */
	assert_int_equal(cmd.kind, UI_SIGNAL);
	assert_int_equal(cmd.pid, 100);
	assert_int_equal(cmd.sig, SIGTERM);
	assert_int_equal(cmd.start, 4100);

	char line[1024];
	/* A source whose rows are not this machine's processes: one line, no menu. */
	ui_refuse_acts(
		U(state),
		"a recording: kill, renice and affinity act on this machine's processes only");
	cmd = fake_key(U(state), 'k');
	assert_int_not_equal(cmd.kind, UI_SIGNAL);
	const char *s = screen(state);
	assert_int_equal(fake_find(s, "Send to"), -1);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "a recording: kill"));
}

/* The pid the selection is on: Enter (its detail view), Enter (watch it). */
static pid_t selected_pid(void **state)
{
	fake_key(U(state), '\n');
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	fake_key(U(state), 27); /* watch all again */
	return cmd.pid;
}

/* / jumps to a match as it is typed and hides nothing; n, N, F3 and Shift-F3 go on;
 * a command line matches only while c shows them. */
static void test_search(void **state)
{
	struct fake_fixture *fx = *state;
	char line[1024];
	fake_key(U(state), '/');
	fake_type(U(state), "gam");
	const char *s = screen(state);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "Search: gam"));
	assert_true(fake_find(s, " alpha") >= 0 && fake_find(s, " idle") >= 0);
	fake_key(U(state), '\n');
	assert_int_equal(selected_pid(state), 300);
	/* "a": beta (its process row, then its thread rows), alpha, gamma, down the list. */
	fake_key(U(state), KEY_HOME);
	fake_key(U(state), '/');
	fake_type(U(state), "lph");
	fake_key(U(state), '\n');
	assert_int_equal(selected_pid(state), 100);
	fake_key(U(state), 'n'); /* the only match: stays */
	assert_int_equal(selected_pid(state), 100);
	fx->f.rows[6].cmdline = "idle --alpha";
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	fake_key(U(state), 'n');
	assert_int_equal(selected_pid(state), 100); /* command lines not shown */
	fake_key(U(state), 'c');
	fake_key(U(state), 'n');
	assert_int_equal(selected_pid(state), 500);
	fake_key(U(state), 'N');
	assert_int_equal(selected_pid(state), 100);
	/* / Enter: the last search, offered and taken, goes on as n does. */
	fake_key(U(state), '/');
	fake_key(U(state), '\n');
	assert_int_equal(selected_pid(state), 500);
	fake_key(U(state), 'N');
	fake_key(U(state), KEY_F(3));
	assert_int_equal(selected_pid(state), 500);
	fake_key(U(state), KEY_F(15));
	assert_int_equal(selected_pid(state), 100);
	/* No match: said, the selection stays. */
	fake_key(U(state), '/');
	fake_type(U(state), "zzz");
	assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "no match"));
	fake_key(U(state), 27);
	fake_key(U(state), 'n');
	assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "no row matches"));
	assert_int_equal(selected_pid(state), 100);
}

/* Space tags and moves down, k F7 F8 act on the tagged ones, U untags; a replay
 * or a remote host, renices nothing. */
static void test_tags(void **state)
{
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN}; /* alpha, pid 100 */
	fake_keys(U(state), keys, 4);
	fake_key(U(state), ' ');
	fake_key(U(state), ' '); /* the row below alpha */
	const char *s = screen(state);
	assert_true(fake_find(s, "Tagged: 2") >= 0);
	assert_true(fake_find(s, "    100*") >= 0);
	struct ui_cmd cmd = fake_key(U(state), KEY_F(8));
	assert_int_equal(cmd.kind, UI_RENICE);
	assert_int_equal(cmd.step, 1);
	assert_int_equal(cmd.npids, 2);
	assert_true(cmd.pids[0] == 100 || cmd.pids[1] == 100);
	fake_key(U(state), 'k');
	assert_true(fake_find(screen(state), "Send to 2 tagged") >= 0);
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SIGNAL);
	assert_int_equal(cmd.npids, 2);
	fake_key(U(state), ' '); /* the third */
	fake_key(U(state), 'U');
	s = screen(state);
	assert_int_equal(fake_find(s, "Tagged:"), -1);
	assert_int_equal(fake_find(s, "*"), -1);
	fake_key(U(state), KEY_HOME);
	cmd = fake_key(U(state), KEY_F(7)); /* none tagged: the selected one */
	assert_int_equal(cmd.kind, UI_RENICE);
	assert_int_equal(cmd.step, -1);
	assert_int_equal(cmd.npids, 1);
	assert_int_equal(cmd.pids[0], 200);
	char line[1024];
	ui_refuse_acts(U(state), "rows of web1 (--connect): kill, renice and affinity act on "
				 "this machine's processes only");
	cmd = fake_key(U(state), KEY_F(8));
	assert_int_not_equal(cmd.kind, UI_RENICE);
	assert_non_null(
		strstr(last_line(screen(state), line, sizeof(line)), "rows of web1 (--connect)"));
}

/* F: the rows re-sort under the followed row and the selection stays on it; it ends
 * when the row goes, or the selection moves. */
static void test_follow(void **state)
{
	struct fake_fixture *fx = *state;
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN, 'F'}; /* alpha, pid 100 */
	fake_keys(U(state), keys, 5);
	assert_true(fake_find(screen(state), "Following 100") >= 0);
	fx->f.v[0][E_TCLK] = fake_exact(0.01e9); /* alpha sinks below gamma at once */
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	const char *s = screen(state);
	assert_true(fake_find(s, " alpha") > fake_find(s, " gamma"));
	assert_int_equal(selected_pid(state), 100);
	fx->f.rows[0].pid = fx->f.rows[0].tid = 101; /* gone: another pid */
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	s = screen(state);
	assert_int_equal(fake_find(s, "Following"), -1);
	assert_true(fake_find(s, "100 is no longer listed") >= 0);
	fake_key(U(state), 'F');
	assert_true(fake_find(screen(state), "Following") >= 0);
	fake_key(U(state), KEY_DOWN);
	assert_int_equal(fake_find(screen(state), "Following"), -1);
	/* A row whose process has exited goes at the next tick: nothing to follow. */
	pid_t sel = selected_pid(state);
	for (unsigned i = 0; i < fx->f.m.nrows; i++)
		fx->f.rows[i].exited = fx->f.rows[i].pid == sel;
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	fake_key(U(state), 'F');
	s = screen(state);
	assert_int_equal(fake_find(s, "Following"), -1);
	char want[64];
	snprintf(want, sizeof(want), "F: %d has exited", (int)sel);
	assert_true(fake_find(s, want) >= 0);
}

/* P M T sort by CPU%, RES and TIME+, showing a hidden one; Ctrl-F scrolls COMMAND. */
static void test_quick_sort_and_scroll(void **state)
{
	struct fake_fixture *fx = *state;
	char line[1024];
	/* Panes without their hidden columns: nothing to show, and it says so. */
	struct ui_cmd cmd = fake_key(U(state), 'T');
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_non_null(strstr(last_line(screen(state), line, sizeof(line)), "no TIME+ column"));
	/* As the app builds them: every column a pane can show. */
	fx->f.npanes = columns_build_panes_all(&fx->f.m, false, NULL, 0, fx->f.panes, 8);
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	cmd = fake_key(U(state), 'T');
	assert_int_equal(cmd.kind, UI_SET_COLUMNS);
	assert_non_null(strstr(cmd.columns, "TIME+"));
	const char *s = screen(state);
	assert_true(fake_find(s, "TIME+v") >= 0 || fake_find(s, "TIME+\xe2\x96\xbc") >= 0);
	fake_key(U(state), 'M');
	s = screen(state);
	assert_true(fake_find(s, "RESv") >= 0 || fake_find(s, "RES\xe2\x96\xbc") >= 0);
	fake_key(U(state), 'P');
	s = screen(state);
	assert_true(fake_find(s, "CPU%v") >= 0 || fake_find(s, "CPU%\xe2\x96\xbc") >= 0);
	assert_true(fake_find(s, " alpha") >= 0);
	fake_key(U(state), 6); /* Ctrl-F */
	s = screen(state);
	assert_true(fake_find(s, "COMMAND [+8]") >= 0);
	assert_int_equal(fake_find(s, " alpha"), -1); /* short names scrolled away */
	fake_key(U(state), 1);			      /* Ctrl-A */
	s = screen(state);
	assert_int_equal(fake_find(s, "COMMAND [+"), -1);
	assert_true(fake_find(s, " alpha") >= 0);
}

static void test_enter_focuses_selected(void **state)
{
	/* Rows: beta, its threads 200 and 201, alpha, ... Down three times: alpha. Enter
	 * opens its detail view (no command), Enter there watches it; Esc comes back. */
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN};
	fake_keys(U(state), keys, 4);
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_REDRAW);
	const char *s = screen(state);
	assert_true(fake_find(s, "PID 100  alpha") >= 0);
	assert_int_equal(fake_find(s, "COMMAND"), -1);
	assert_true(fake_find(s, "EscBack") >= 0);
	cmd = fake_key(U(state), 27);
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_true(fake_find(screen(state), "COMMAND") >= 0);
	fake_key(U(state), '\n');
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, 100);
	assert_true(fake_find(screen(state), "COMMAND") >= 0);
	/* On a thread row: its process. */
	fake_key(U(state), 27);
	int up[] = {KEY_HOME, KEY_DOWN, KEY_DOWN};
	fake_keys(U(state), up, 3);
	fake_key(U(state), KEY_ENTER);
	assert_true(fake_find(screen(state), "of PID 200") >= 0);
	cmd = fake_key(U(state), KEY_ENTER);
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, 200);
	/* End, then Enter: the last row (idle, 0%). */
	fake_key(U(state), 27);
	fake_key(U(state), KEY_END);
	fake_key(U(state), '\r');
	cmd = fake_key(U(state), '\r');
	assert_int_equal(cmd.pid, 500);
}

/* The mouse (ungetmouse queues what a terminal would send): a press on a row selects it,
 * on a column title sorts by that column and again the other way; the wheel moves. */
static void test_mouse(void **state)
{
	const char *s = screen(state);
	int title = 0;
	for (const char *p = s; p < strstr(s, "COMMAND"); p++)
		title += *p == '\n';
	/* The wheel: three rows down from the top: alpha (beta, its threads 200 and 201,
	 * alpha). */
	fake_key(U(state), KEY_HOME);
	MEVENT ev = {.x = 5, .y = title + 2, .bstate = BUTTON5_PRESSED};
	assert_int_equal(ungetmouse(&ev), OK);
	fake_key(U(state), KEY_MOUSE);
	fake_key(U(state), '\n'); /* its detail view; Enter there watches it */
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, 100);
	fake_key(U(state), 27);
	fake_key(U(state), KEY_END);
	/* A press on row 4 below the titles: alpha again. */
	ev = (MEVENT){.x = 10, .y = title + 4, .bstate = BUTTON1_PRESSED};
	assert_int_equal(ungetmouse(&ev), OK);
	fake_key(U(state), KEY_MOUSE);
	fake_key(U(state), '\n');
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, 100);
	fake_key(U(state), 27);
	/* The COMMAND title: sorted by name (alpha first), then the other way. */
	s = screen(state);
	const char *line = s;
	for (int i = 0; i < title; i++)
		line = strchr(line, '\n') + 1;
	ev = (MEVENT){.x = (int)(strstr(line, "COMMAND") - line) + 1,
		      .y = title,
		      .bstate = BUTTON1_PRESSED};
	assert_int_equal(ungetmouse(&ev), OK);
	fake_key(U(state), KEY_MOUSE);
	s = screen(state);
	assert_true(fake_find(s, " alpha") < fake_find(s, " beta"));
	assert_int_equal(ungetmouse(&ev), OK);
	fake_key(U(state), KEY_MOUSE);
	s = screen(state);
	assert_true(fake_find(s, " alpha") > fake_find(s, " beta"));
}

/* Where name is drawn as a child in the tree: after ├─ or └─, |- or `- without UTF-8. */
static int kid(const char *s, const char *name, bool last)
{
	char a[64], b[64];
	snprintf(a, sizeof(a), "%s %s",
		 last ? "\xe2\x94\x94\xe2\x94\x80" : "\xe2\x94\x9c\xe2\x94\x80", name);
	snprintf(b, sizeof(b), "%s %s", last ? "`-" : "|-", name);
	int i = fake_find(s, a);
	return i >= 0 ? i : fake_find(s, b);
}

/* The tree view (F5, t): processes under their parents, on the tree's lines (├─ for a
 * child with a sibling below, └─ for the last); - folds a subtree into its row, which
 * then holds the subtree's sum (marked [+]); + unfolds; F5 again: flat. */
static void test_tree_view(void **state)
{
	struct fake_fixture *fx = *state;
	fx->f.rows[4].ppid = 100; /* gamma (10%) and idle (0%) under alpha (50%) */
	fx->f.rows[6].ppid = 100;
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	fake_key(U(state), KEY_F(5));
	const char *s = screen(state);
	assert_true(kid(s, "gamma", false) > fake_find(s, " alpha"));
	assert_true(kid(s, "idle", true) > kid(s, "gamma", false));
	/* Flat, gamma (10%) came after the hostile name (30%); in the tree, under alpha. */
	assert_true(kid(s, "gamma", false) < fake_find(s, "evil"));
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN}; /* alpha */
	fake_keys(U(state), keys, 4);
	fake_key(U(state), '-');
	s = screen(state);
	assert_true(fake_find(s, "[+] alpha") >= 0);
	assert_int_equal(fake_find(s, " gamma"), -1);
	/* Its CPU%: 50 + 10 + 0. */
	const char *row = s + fake_find(s, "[+] alpha");
	while (row > s && row[-1] != '\n')
		row--;
	assert_non_null(strstr(row, "60.0"));
	assert_true(strstr(row, "60.0") < strstr(row, "alpha"));
	fake_key(U(state), '+');
	s = screen(state);
	assert_int_equal(fake_find(s, "[+]"), -1);
	assert_true(kid(s, "gamma", false) >= 0);
	fake_key(U(state), KEY_F(5));
	s = screen(state);
	assert_int_equal(kid(s, "gamma", false), -1);
	assert_true(fake_find(s, " gamma") > fake_find(s, "evil"));
}

/* Thread rows in the tree: their process's children, on its lines (issue 37, item 3):
 * beta under alpha with gamma below it, so its threads keep alpha's line down. */
static void test_tree_threads(void **state)
{
	struct fake_fixture *fx = *state;
	fx->f.rows[1].ppid = 100; /* beta (80%) and gamma (10%) under alpha */
	fx->f.rows[4].ppid = 100;
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	fake_key(U(state), KEY_F(5));
	const char *s = screen(state);
	/* The threads: alpha's line (│) down past them, ├─ then └─ for the last. */
	int t1 = fake_find(s, "\xe2\x94\x82 \xe2\x94\x9c\xe2\x94\x80 beta");
	int t2 = fake_find(s, "\xe2\x94\x82 \xe2\x94\x94\xe2\x94\x80 beta-worker");
	if (t1 < 0)
		t1 = fake_find(s, "| |- beta");
	if (t2 < 0)
		t2 = fake_find(s, "| `- beta-worker");
	assert_true(kid(s, "beta", false) >= 0);
	assert_true(t1 > kid(s, "beta", false));
	assert_true(t2 > t1);
	assert_true(kid(s, "gamma", true) > t2);
}

/* What the options asked for and cannot have is said on the first screen (issue 37, item
 * 4): a first sort by a column n/a on every row goes to the first that counts; --pane
 * and --sort naming what is not shown. */
static void test_options_said(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	for (unsigned i = 0; i < f.m.nrows; i++)
		f.v[i][E_TCLK] = (struct val){.state = VAL_NA};
	struct term t = fake_ui(120, 24);
	assert_non_null(t.u);
	ui_set_model(t.u, &f.m, f.panes, f.npanes);
	const char *s = fake_screen(t.u);
	assert_true(fake_find(s, "CPU% reads n/a here: sorted by ") >= 0);
	assert_null(strstr(s, "CPU%v"));
	fake_close(&t);

	fake_init(&f);
	struct term t2 = {NULL, fopen("/dev/null", "r"), tmpfile()};
	struct ui_opts o = {.in = t2.in,
			    .out = t2.out,
			    .term = "xterm-256color",
			    .cols = 120,
			    .lines = 24,
			    .pane = "Nope",
			    .sort = "NOSUCH"};
	char err[256];
	t2.u = ui_new(&o, err, sizeof(err));
	assert_non_null(t2.u);
	ui_set_model(t2.u, &f.m, f.panes, f.npanes);
	assert_true(fake_find(fake_screen(t2.u), "--pane Nope: not shown") >= 0);
	fake_close(&t2);
	o.pane = NULL;
	t2 = (struct term){NULL, fopen("/dev/null", "r"), tmpfile()};
	o.in = t2.in;
	o.out = t2.out;
	t2.u = ui_new(&o, err, sizeof(err));
	assert_non_null(t2.u);
	ui_set_model(t2.u, &f.m, f.panes, f.npanes);
	assert_true(fake_find(fake_screen(t2.u), "--sort NOSUCH: the ") >= 0);
	fake_close(&t2);
}

/* Keys that cannot act here say so (issue 37, item 9): a pane number past the last, Tab
 * with one pane. */
static void test_keys_without_use_said(void **state)
{
	struct fake_fixture *fx = *state;
	char line[1024];
	struct ui_cmd cmd = fake_key(U(state), '9');
	assert_int_equal(cmd.kind, UI_REDRAW);
	const char *s = screen(state);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "no pane 9: there are"));
	ui_set_model(U(state), &fx->f.m, fx->f.panes, 1);
	fake_key(U(state), '\t');
	s = screen(state);
	assert_non_null(strstr(last_line(s, line, sizeof(line)), "one pane only"));
}

static void test_selection_follows_row(void **state)
{
	struct fake_fixture *fx = *state;
	int keys[] = {KEY_DOWN, KEY_DOWN, KEY_DOWN}; /* alpha */
	fake_keys(U(state), keys, 3);
	/* Next tick: gamma jumps to the top by CPU%. The order holds under the moving
	 * selection. */
	fx->f.v[4][E_TCLK] = fake_exact(0.99e9);
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	const char *s = screen(state);
	assert_true(fake_find(s, " gamma") > fake_find(s, " alpha"));
	assert_non_null(strstr(s, "99.0")); /* values still update */
	/* A key that is not a move ends the hold: gamma goes first. */
	fake_key(U(state), 'x');
	s = screen(state);
	assert_true(fake_find(s, " gamma") < fake_find(s, " alpha"));
	/* And the selection stayed on alpha, wherever it went. */
	fake_key(U(state), '\n');
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_FOCUS_PID);
	assert_int_equal(cmd.pid, 100);
}

/* The row the user chose stays chosen across views that do not list it (G's cgroup rows,
 * a filter): when it is listed again, the selection is on it, and k names it. */
static void test_selection_survives_views(void **state)
{
	struct fake_fixture *fx = *state;
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN, KEY_DOWN}; /* alpha, pid 100 */
	fake_keys(U(state), keys, 4);
	fake_key(U(state), 'k');
	assert_true(fake_find(screen(state), "Send to 100 alpha") >= 0);
	fake_key(U(state), 27);
	/* A filter that hides it, then cleared. */
	fake_key(U(state), '\\');
	fake_key(U(state), 'g');
	fake_key(U(state), 'a');
	fake_key(U(state), 27);
	fake_key(U(state), 'k');
	assert_true(fake_find(screen(state), "Send to 100 alpha") >= 0);
	fake_key(U(state), 27);
	/* A model without it (G shows cgroup rows), then with it again. */
	struct model other = fx->f.m;
	struct mrow rows[NROWS];
	unsigned n = 0;
	for (unsigned i = 0; i < fx->f.m.nrows; i++)
		if (fx->f.rows[i].pid != 100)
			rows[n++] = fx->f.rows[i];
	other.rows = rows;
	other.nrows = n;
	ui_set_model(U(state), &other, fx->f.panes, fx->f.npanes);
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	fake_key(U(state), 'k');
	assert_true(fake_find(screen(state), "Send to 100 alpha") >= 0);
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SIGNAL);
	assert_int_equal(cmd.pid, 100);
}

static void test_selection_scrolls(void **state)
{
	struct fake_fixture *fx = *state;
	/* A 10-line screen shows few rows: the selection drags the view down. */
	ui_set_size(U(state), 80, 10);
	fake_key(U(state), KEY_END);
	const char *s = screen(state);
	assert_true(fake_find(s, "idle (exited)") >= 0);
	assert_int_equal(fake_find(s, " beta"), -1);
	fake_key(U(state), KEY_PPAGE);
	fake_key(U(state), KEY_HOME);
	assert_true(fake_find(screen(state), " beta") >= 0);
	(void)fx;
}

/* Shrinking the screen and growing it back: the rows above the selection come back
 * first (the busiest, beta, had stayed scrolled off the top). */
static void test_resize_back(void **state)
{
	int keys[] = {KEY_HOME, KEY_DOWN, KEY_DOWN};
	fake_keys(U(state), keys, 3);
	ui_set_size(U(state), 30, 8); /* one row: the selection, beta-worker */
	screen(state);
	ui_set_size(U(state), 80, 10); /* three rows, of seven */
	const char *s = screen(state);
	assert_true(fake_find(s, " 80.0 ") >= 0); /* beta's row, the busiest */
	assert_true(fake_find(s, "beta-worker") >= 0);
}

/* A binding's help text: its own, or that of the binding before it with the same action
 * (1 .. 9 is one line for two entries). */
static const char *help_of(const struct binding *t, size_t i)
{
	for (size_t k = i + 1; k-- > 0;)
		if (t[k].act == t[i].act && t[k].help)
			return t[k].help;
	return NULL;
}

/* The tables themselves: within a mode (its own table and the one looked up after it)
 * no key is bound twice, every key dispatches to its binding, and every binding has
 * help text and, if it shows on the bar, a key and a label there. */
static void test_bindings_table(void **state)
{
	(void)state;
	for (int mode = 0; mode < BIND_MODES; mode++) {
		size_t nb;
		assert_non_null(bindings_table((enum bind_mode)mode, &nb));
		assert_true(nb > 0);
		assert_true(*bindings_title((enum bind_mode)mode));
		for (enum bind_mode t = (enum bind_mode)mode; t < BIND_MODES;
		     t = bindings_parent(t)) {
			const struct binding *b = bindings_table(t, &nb);
			for (size_t i = 0; i < nb; i++) {
				if (!help_of(b, i))
					fail_msg("mode %d: binding %zu has no help text", t, i);
				if (b[i].bar != BAR_NEVER && (!b[i].bar_key || !b[i].bar_label))
					fail_msg("mode %d: binding %zu has no bar entry", t, i);
				assert_true(b[i].keys[0] != 0);
				for (int k = 0; k < BIND_KEYS && b[i].keys[k]; k++)
					if (bindings_find((enum bind_mode)mode, b[i].keys[k]) !=
					    &b[i])
						fail_msg("mode %d: key %d is bound twice", mode,
							 b[i].keys[k]);
			}
		}
	}
}

/* Every key each mode took before its keys moved into the tables still dispatches there,
 * with help text: a binding dropped from a table fails here. */
static void test_bindings_keys(void **state)
{
	(void)state;
	static const struct {
		enum bind_mode mode;
		int keys[24];
	} want[] = {
		{BIND_MODE_SETUP,
		 {'/',	     KEY_F(3), ':',	'm', 'W', '\t',	    KEY_RIGHT, KEY_BTAB,
		  KEY_LEFT,  '1',      '2',	'3', '4', KEY_UP,   KEY_DOWN,  KEY_PPAGE,
		  KEY_NPAGE, KEY_HOME, KEY_END, 27,  'q', KEY_F(10)}},
		{BIND_MODE_SETUP_PMUS, {'\n', '\r', KEY_ENTER, 'a'}},
		{BIND_MODE_SETUP_EVENTS, {'\n', '\r', KEY_ENTER, 'g'}},
		{BIND_MODE_SETUP_MINE, {'x', KEY_DC, 'g'}},
		{BIND_MODE_SETUP_COLUMNS, {' ', '\n', '\r', KEY_ENTER, '[', ']'}},
		{BIND_MODE_DIALOG,
		 {27, '\n', '\r', KEY_ENTER, KEY_UP, KEY_DOWN, '\t', KEY_BTAB, KEY_LEFT, KEY_RIGHT,
		  ' ', KEY_BACKSPACE, 127, 8, 21}},
		{BIND_MODE_MENU,
		 {KEY_UP, KEY_DOWN, KEY_HOME, KEY_END, '\n', '\r', KEY_ENTER, 27, 'q'}},
		{BIND_MODE_HELP,
		 {KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, ' ', KEY_HOME, KEY_END, KEY_F(10), 27,
		  'q', 'h', '?', KEY_F(1)}},
		{BIND_MODE_DETAIL,
		 {27, KEY_LEFT, KEY_BACKSPACE, KEY_UP, KEY_DOWN, '\n', 'p', 'Z', 'q', KEY_F(10),
		  'h'}},
	};
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++)
		for (int k = 0; want[w].keys[k]; k++) {
			const struct binding *b = bindings_find(want[w].mode, want[w].keys[k]);
			if (!b)
				fail_msg("mode %d: key %d is not bound", want[w].mode,
					 want[w].keys[k]);
			if (!b->help && !b->help_keys)
				fail_msg("mode %d: key %d has no help", want[w].mode,
					 want[w].keys[k]);
		}
	/* Keys no view of the setup takes stay unbound there (x only in Your events). */
	assert_null(bindings_find(BIND_MODE_SETUP_PMUS, 'x'));
	assert_null(bindings_find(BIND_MODE_SETUP_COLUMNS, 'g'));
	assert_null(bindings_find(BIND_MODE_SETUP_EVENTS, 'a'));
}

/* The key bar of mode, as the screen shows it now, holds every entry its tables say
 * shows there (and, in the setup's Your events and Columns, not the browsers' Search),
 * and is what it was before the keys moved into the tables (was, or NULL). */
static void check_bar(void **state, enum bind_mode mode, const char *was)
{
	char bar[1024];
	last_line(screen(state), bar, sizeof(bar));
	for (size_t n = strlen(bar); n > 0 && bar[n - 1] == ' '; n--)
		bar[n - 1] = '\0';
	if (was && strcmp(bar, was) != 0)
		fail_msg("mode %d: key bar '%s', was '%s'", mode, bar, was);
	for (enum bind_mode t = mode; t < BIND_MODES; t = bindings_parent(t)) {
		size_t nb;
		const struct binding *b = bindings_table(t, &nb);
		for (size_t i = 0; i < nb; i++) {
			bool browsing =
				mode == BIND_MODE_SETUP_PMUS || mode == BIND_MODE_SETUP_EVENTS;
			bool shown = b[i].bar == BAR_ALWAYS || b[i].bar == BAR_UNFOCUSED ||
				     (b[i].bar == BAR_BROWSING && browsing);
			char want[64];
			snprintf(want, sizeof(want), "%s%s", b[i].bar_key ? b[i].bar_key : "",
				 b[i].bar_label ? b[i].bar_label : "");
			if (shown && !strstr(bar, want))
				fail_msg("mode %d: key bar lacks %s: %s", mode, want, bar);
			if (b[i].bar == BAR_BROWSING && !browsing && strstr(bar, want))
				fail_msg("mode %d: key bar has %s: %s", mode, want, bar);
		}
	}
}

/* Every mode's key bar comes from its table. */
static void test_bindings_bars(void **state)
{
	struct fake_fixture *fx = *state;
	fake_user(&fx->f);
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	ui_set_user_spec(U(state), "{cycles,instructions}:u,cs");
	ui_set_size(U(state), 200, 40);
	check_bar(state, BIND_MODE_MAIN, NULL);
	fake_key(U(state), KEY_F(6));
	check_bar(state, BIND_MODE_MENU, "Up/DnMove EnterSelect EscCancel");
	fake_key(U(state), 27);
	fake_key(U(state), '\n');
	check_bar(state, BIND_MODE_DETAIL, NULL);
	fake_key(U(state), 27);
	fake_key(U(state), 'h');
	check_bar(state, BIND_MODE_HELP, "EscBack Up/DnScroll qBack");
	fake_key(U(state), 27);
	fake_key(U(state), 'e');
	static const struct {
		enum bind_mode mode;
		const char *was, *hint; /* the view's line that names its keys */
	} views[] = {
		{BIND_MODE_SETUP_PMUS,
		 "EnterEvents aAllPMUs /Search mColumn :Spec TabView WSave EscBack",
		 "Enter lists a PMU's events, / searches them all"},
		{BIND_MODE_SETUP_EVENTS,
		 "EnterAdd gAddToGroup /Search mColumn :Spec TabView WSave EscBack",
		 "Enter adds one as its own group, g into a group"},
		{BIND_MODE_SETUP_MINE, "xRemove gRegroup mColumn :Spec TabView WSave EscBack",
		 "In force: {cycles,instructions}:u,cs"},
		{BIND_MODE_SETUP_COLUMNS,
		 "SpcShow/Hide [ ]Move mColumn :Spec TabView WSave EscBack",
		 "Space shows or hides one, [ and ] move it, W saves"},
	};
	for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
		check_bar(state, views[v].mode, views[v].was);
		assert_true(fake_find(screen(state), views[v].hint) >= 0);
		fake_key(U(state), '\t');
	}
	fake_key(U(state), 'm');
	assert_true(fake_find(screen(state), "New derived column") >= 0);
	check_bar(state, BIND_MODE_DIALOG, "Up/DnField Lt/RtChoose EnterAdd EscCancel");
	fake_key(U(state), 27);
	fake_key(U(state), '3');
	fake_key(U(state), KEY_DOWN);
	fake_key(U(state), 'g');
	assert_true(fake_find(screen(state), "Move to group") >= 0);
	check_bar(state, BIND_MODE_MENU, "Up/DnMove EnterSelect EscCancel");
}

/* The help screen lists every mode's keys under the mode's heading. */
static void test_bindings_help(void **state)
{
	ui_set_size(U(state), 200, 40);
	fake_key(U(state), 'h');
	static char all[1 << 17];
	all[0] = '\0';
	char last[SCREEN_MAX] = "";
	for (int page = 0; page < 32; page++) {
		const char *s = screen(state);
		if (strcmp(s, last) == 0)
			break;
		snprintf(last, sizeof(last), "%s", s);
		strncat(all, s, sizeof(all) - strlen(all) - 1);
		fake_key(U(state), KEY_NPAGE);
	}
	for (int mode = 0; mode < BIND_MODES; mode++) {
		size_t nb;
		const struct binding *b = bindings_table((enum bind_mode)mode, &nb);
		if (!strstr(all, bindings_title((enum bind_mode)mode)))
			fail_msg("help lacks the heading '%s'",
				 bindings_title((enum bind_mode)mode));
		for (size_t i = 0; i < nb; i++) {
			if (!b[i].help)
				continue;
			char want[96];
			snprintf(want, sizeof(want), "%-16s  %.20s", b[i].help_keys, b[i].help);
			if (!strstr(all, want))
				fail_msg("help lacks '%s'", want);
		}
	}
}

static void test_engine_commands(void **state)
{
	assert_int_equal(fake_key(U(state), 'H').kind, UI_TOGGLE_THREADS);
	assert_int_equal(fake_key(U(state), 'K').kind, UI_TOGGLE_KERNEL);
	assert_int_equal(fake_key(U(state), 'Z').kind, UI_TOGGLE_PAUSE);
	assert_int_equal(fake_key(U(state), 'q').kind, UI_QUIT);
	assert_int_equal(fake_key(U(state), KEY_F(10)).kind, UI_QUIT);
	assert_int_equal(fake_key(U(state), 12).kind, UI_REDRAW); /* ^L */
	/* Unbound: no command, but a hint on the message line. */
	assert_int_equal(fake_key(U(state), 'z').kind, UI_REDRAW);
	char line[1024];
	assert_non_null(
		strstr(last_line(screen(state), line, sizeof(line)), "unknown key: h for help"));
	/* In a prompt, 'q' is text, not quit. */
	fake_key(U(state), '/');
	assert_int_not_equal(fake_key(U(state), 'q').kind, UI_QUIT);
}

static void test_sort_menu(void **state)
{
	char tl[1024];
	fake_key(U(state), KEY_F(6));
	const char *s = screen(state);
	assert_true(fake_find(s, "Sort by") >= 0);
	assert_true(fake_find(s, "IPC      instructions per cycle") >= 0);
	/* A framed box as tall as its items: the table shows below it, not through it. */
	int top = fake_find(s, "+- Sort by -");
	assert_true(top >= 0);
	int bottom = top + 1;
	char ln[1024];
	while (bottom < 24 && fake_line(s, bottom, ln, sizeof(ln))[0] == '|')
		bottom++;
	assert_int_equal(strncmp(fake_line(s, bottom, ln, sizeof(ln)), "+---", 4), 0);
	assert_true(bottom - top - 1 >= 4 && bottom - top - 1 <= 12); /* 12 columns */
	/* Right of the box, the table goes on. */
	assert_non_null(strstr(fake_line(s, top, ln, sizeof(ln)), "COMMAND"));
	/* On a wide screen each help line is whole (they were cut at 47 bytes). */
	fake_key(U(state), 27);
	ui_set_size(U(state), 160, 45);
	fake_key(U(state), KEY_F(6));
	s = screen(state);
	assert_true(fake_find(s, "share of enabled time the group was on the PMU; <100 means "
				 "scaled") >= 0);
	fake_key(U(state), 27);
	ui_set_size(U(state), 80, 24);
	fake_key(U(state), KEY_F(6));
	s = screen(state);
	/* From CPU% down three: GHZ, CYCLES, INSNS. */
	int keys[] = {KEY_DOWN, KEY_DOWN, KEY_DOWN, '\n'};
	fake_keys(U(state), keys, 4);
	s = screen(state);
	assert_int_equal(fake_find(s, "Sort by"), -1);
	int n = fake_find(s, "COMMAND");
	fake_line(s, n, tl, sizeof(tl));
	assert_non_null(strstr(tl, "INSNSv"));
	/* Esc leaves it as it was. */
	fake_key(U(state), KEY_F(6));
	fake_key(U(state), KEY_UP);
	fake_key(U(state), 27);
	s = screen(state);
	assert_non_null(strstr(fake_line(s, fake_find(s, "COMMAND"), tl, sizeof(tl)), "INSNSv"));
}

/* Growing the screen back with the last sort key selected: the menu keeps the selection
 * on its last line and fills the lines above it, with no blank line at its bottom and
 * no item hidden above that would fit (PID..MIGR stayed scrolled off). */
static void test_sort_menu_resize_back(void **state)
{
	char ln[1024], want[1024];
	fake_key(U(state), KEY_F(6));
	fake_key(U(state), KEY_END);
	ui_set_size(U(state), 80, 11);
	screen(state);
	for (int h = 12; h <= 13; h++) {
		ui_set_size(U(state), 80, h);
		const char *s = screen(state);
		int top = fake_find(s, "+- Sort by -");
		assert_true(top >= 0);
		int bottom = top + 1;
		while (bottom < h && fake_line(s, bottom, ln, sizeof(ln))[0] == '|')
			bottom++;
		assert_int_equal(strncmp(fake_line(s, bottom, ln, sizeof(ln)), "+---", 4), 0);
		assert_true(bottom - top - 1 >= 2);
		/* The last framed line is the selection, the one above it the item before. */
		fake_line(s, bottom - 1, ln, sizeof(ln));
		assert_non_null(strstr(ln, "COMMAND"));
		fake_line(s, bottom - 2, ln, sizeof(ln));
		snprintf(want, sizeof(want), "%.4s", ln + 2);
		assert_string_not_equal(want, "    ");
	}
}

/* What W saves follows the screen: Tab to another pane, another sort, R reverses. */
static void test_view_for_save(void **state)
{
	char pane[32], sort[32];
	bool rev = true;
	ui_view(U(state), pane, sizeof(pane), sort, sizeof(sort), &rev);
	assert_string_equal(pane, "IPC");
	assert_string_equal(sort, "CPU%");
	assert_false(rev);
	fake_key(U(state), '\t');
	ui_view(U(state), pane, sizeof(pane), sort, sizeof(sort), &rev);
	assert_string_equal(pane, "Cache");
	fake_key(U(state), '>');
	fake_key(U(state), 'R');
	char sort2[32];
	ui_view(U(state), pane, sizeof(pane), sort2, sizeof(sort2), &rev);
	assert_string_equal(pane, "Cache");
	assert_string_not_equal(sort2, "CPU%");
	assert_true(rev);
	fake_key(U(state), 'R');
	ui_view(U(state), pane, sizeof(pane), sort2, sizeof(sort2), &rev);
	assert_false(rev);
}

static void test_user_menu(void **state)
{
	fake_key(U(state), 'u');
	const char *s = screen(state);
	assert_true(fake_find(s, "All users") >= 0);
	assert_true(fake_find(s, "root (0)") >= 0);
	assert_true(fake_find(s, "alice (1000)") >= 0);
	/* Users in row order: root (alpha comes first in the model), then alice. */
	int keys[] = {KEY_DOWN, KEY_DOWN, '\n'};
	fake_keys(U(state), keys, 3);
	s = screen(state);
	assert_non_null(strstr(s, "User: alice"));
	assert_true(fake_find(s, " gamma") >= 0);
	assert_int_equal(fake_find(s, " alpha"), -1);
	/* Back to all. */
	int all[] = {'u', KEY_HOME, '\n'};
	fake_keys(U(state), all, 3);
	assert_true(fake_find(screen(state), " alpha") >= 0);
}

static void test_free_twice_and_bad_terminals(void **state)
{
	(void)state;
	struct term t = fake_ui(80, 24);
	assert_non_null(t.u);
	ui_free(t.u);
	ui_free(t.u); /* second call: nothing left to do */
	ui_free(NULL);
	ui_restore_terminal(); /* no screen up: harmless */
	fclose(t.in);
	fclose(t.out);

	char err[256] = "";
	FILE *in = fopen("/dev/null", "r"), *out = tmpfile();
	struct ui_opts o = {.in = in, .out = out, .term = "no-such-terminal-xyz"};
	assert_null(ui_new(&o, err, sizeof(err)));
	assert_non_null(strstr(err, "no-such-terminal-xyz"));
	o.term = "dumb";
	err[0] = '\0';
	assert_null(ui_new(&o, err, sizeof(err)));
	assert_true(strlen(err) > 0);
	fclose(in);
	fclose(out);
}

static void test_colors_and_no_color(void **state)
{
	(void)state;
	unsetenv("NO_COLOR");
	struct term t = fake_ui(80, 24);
	assert_non_null(t.u);
	assert_true(colors_color()); /* xterm-256color has colours */
	fake_close(&t);

	setenv("NO_COLOR", "1", 1);
	t = fake_ui(80, 24);
	assert_non_null(t.u);
	assert_false(colors_color());
	fake_close(&t);
	unsetenv("NO_COLOR");

	/* vt100 has none: attributes only, and the screen still works. */
	FILE *in = fopen("/dev/null", "r"), *out = tmpfile();
	struct ui_opts o = {
		.color = true, .in = in, .out = out, .term = "vt100", .cols = 80, .lines = 24};
	char err[256];
	struct ui *u = ui_new(&o, err, sizeof(err));
	assert_non_null(u);
	assert_false(colors_color());
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fake_init(f);
	ui_set_model(u, &f->m, f->panes, f->npanes);
	assert_non_null(strstr(fake_screen(u), "[1 IPC]"));
	ui_free(u);
	free(f);
	fclose(in);
	fclose(out);
}

static void test_suspend_resume(void **state)
{
	ui_suspend(U(state));
	ui_suspend(U(state)); /* twice: harmless */
	char buf[64] = "x";
	ui_screen_text(U(state), buf, sizeof(buf));
	assert_string_equal(buf, ""); /* nothing is drawn while suspended */
	ui_resume(U(state));
	assert_non_null(strstr(screen(state), "[1 IPC]"));
	ui_resume(U(state));
	assert_non_null(strstr(screen(state), "F10Quit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_filter_incremental, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_escape_clears, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_sanitized, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_focus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill_every_signal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enter_focuses_selected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_follow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quick_sort_and_scroll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selection_follows_row, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selection_survives_views, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_view, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keys_without_use_said, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selection_scrolls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resize_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bindings_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bindings_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bindings_bars, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bindings_help, setup, teardown),
		cmocka_unit_test_setup_teardown(test_engine_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_menu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_menu_resize_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_for_save, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_menu, setup, teardown),
		cmocka_unit_test(test_free_twice_and_bad_terminals),
		cmocka_unit_test(test_options_said),
		cmocka_unit_test(test_colors_and_no_color),
		cmocka_unit_test_setup_teardown(test_suspend_resume, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
