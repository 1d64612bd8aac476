/* The screen rendered off-screen from a hand-built model: tabs, column titles, sort
 * order and marks, honest cells, sanitised names, the notice, the 80x24 layout, help. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "curs.h"
#include "testutil.h"
#include "test_ui_fake.h"

static int setup(void **state)
{
	return fake_fixture_setup(state, 80, 24);
}

static int setup_utf8(void **state)
{
	return fake_fixture_setup_locale(state, 80, 24, "C.UTF-8");
}

static int teardown(void **state)
{
	fake_fixture_teardown(state);
	setlocale(LC_ALL, "C");
	return 0;
}

static const char *screen(void **state)
{
	struct fake_fixture *fx = *state;
	const char *s = fake_screen(fx->t.u);
	if (getenv("UI_TEST_DUMP"))
		fprintf(stderr, "----\n%s----\n", s);
	return s;
}

static struct ui *ui_of(void **state)
{
	return ((struct fake_fixture *)*state)->t.u;
}

/* The line of column titles: the one with "COMMAND". */
static const char *titles(const char *s, char *buf, size_t len)
{
	int n = fake_find(s, "COMMAND");
	assert_true(n >= 0);
	return fake_line(s, n, buf, len);
}

/* Column of the end of title name in the title line (-1 if absent). A title is a word:
 * "IPC" is not found inside "CMPKI". */
static int title_end(const char *line, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
		bool start = p == line || p[-1] == ' ';
		char after = p[n];
		bool end = !after || after == ' ' || after == 'v' || after == '^';
		if (start && end)
			return (int)(p - line + (ptrdiff_t)n);
	}
	return -1;
}

/* The cell of column title in the row line containing who: the text right-aligned
 * before the title's end, plus the one-character mark slot after it. */
static void cell(const char *s, const char *who, const char *title, char *out, size_t len)
{
	char tl[1024], row[1024];
	titles(s, tl, sizeof(tl));
	int end = title_end(tl, title);
	assert_true(end > 0);
	int n = fake_find(s, who);
	assert_true(n >= 0);
	fake_line(s, n, row, sizeof(row));
	assert_true((int)strlen(row) >= end);
	int start = end;
	while (start > 0 && row[start - 1] != ' ')
		start--;
	snprintf(out, len, "%.*s%c", end - start, row + start, row[end] ? row[end] : ' ');
}

static void test_tabs_and_titles(void **state)
{
	char tl[1024];
	const char *s = screen(state);
	assert_non_null(strstr(s, "[1 IPC]"));
	assert_non_null(strstr(s, " 2 Cache "));
	assert_non_null(strstr(s, " 3 Branch "));
	assert_non_null(strstr(s, " 4 Software"));
	titles(s, tl, sizeof(tl));
	const char *ipc[] = {"PID", "USER", "THR", "GHz", "CYCLES", "INSNS", "IPC", "RUN%"};
	for (size_t i = 0; i < sizeof(ipc) / sizeof(ipc[0]); i++)
		assert_true(title_end(tl, ipc[i]) > 0);

	fake_key(ui_of(state), '2');
	s = screen(state);
	assert_non_null(strstr(s, "[2 Cache]"));
	assert_null(strstr(s, "[1 IPC]"));
	titles(s, tl, sizeof(tl));
	assert_true(title_end(tl, "CREFS") > 0);
	assert_true(title_end(tl, "CMISS%") > 0);
	assert_true(title_end(tl, "CMPKI") > 0);
	assert_int_equal(title_end(tl, "IPC"), -1);

	fake_key(ui_of(state), '\t');
	s = screen(state);
	assert_non_null(strstr(s, "[3 Branch]"));
	assert_true(title_end(titles(s, tl, sizeof(tl)), "BMISS%") > 0);

	fake_key(ui_of(state), KEY_BTAB);
	assert_non_null(strstr(screen(state), "[2 Cache]"));

	fake_key(ui_of(state), '4');
	s = screen(state);
	assert_non_null(strstr(s, "[4 Software]"));
	titles(s, tl, sizeof(tl));
	assert_true(title_end(tl, "CSW") > 0);
	assert_true(title_end(tl, "FAULTS") > 0);
	assert_int_equal(title_end(tl, "CYCLES"), -1);

	fake_key(ui_of(state), KEY_RIGHT); /* wraps around */
	assert_non_null(strstr(screen(state), "[1 IPC]"));
	fake_key(ui_of(state), KEY_LEFT);
	assert_non_null(strstr(screen(state), "[4 Software]"));
	fake_key(ui_of(state), '9'); /* no such pane: nothing happens */
	assert_non_null(strstr(screen(state), "[4 Software]"));
}

/* The process row of beta ends in " beta"; its thread rows have a tree mark before. */
static bool beta_row(const char *line)
{
	size_t L = strlen(line);
	return L > 5 && strcmp(line + L - 5, " beta") == 0 && !strstr(line, "- beta") &&
	       !strstr(line, "\xe2\x94\x80 beta");
}

/* Line numbers of the rows of alpha, beta, gamma, the hostile one and idle. */
static void order(const char *s, int *ln)
{
	const char *who[] = {" alpha", NULL, " gamma", "evil", " idle"};
	char line[1024];
	for (int i = 0; i < 5; i++) {
		ln[i] = -1;
		for (int n = 0; n < fake_lines(s) && ln[i] < 0; n++) {
			fake_line(s, n, line, sizeof(line));
			if (who[i] ? strstr(line, who[i]) != NULL : beta_row(line))
				ln[i] = n;
		}
		assert_true(ln[i] >= 0);
	}
}

enum { ALPHA, BETA, GAMMA, EVIL, IDLE };

static void test_default_sort_cpu_desc(void **state)
{
	int ln[5];
	char tl[1024];
	const char *s = screen(state);
	order(s, ln);
	/* CPU%: beta 80, alpha 50, evil 30, gamma 10, idle 0. */
	assert_true(ln[BETA] < ln[ALPHA]);
	assert_true(ln[ALPHA] < ln[EVIL]);
	assert_true(ln[EVIL] < ln[GAMMA]);
	assert_true(ln[GAMMA] < ln[IDLE]);
	/* The sort column is marked with the direction (ASCII terminal here). */
	titles(s, tl, sizeof(tl));
	assert_non_null(strstr(tl, "CPU%v"));
	/* beta's threads follow it, before alpha. */
	int worker = fake_find(s, "beta-worker");
	assert_true(worker > ln[BETA] && worker < ln[ALPHA]);
}

static void test_reverse_and_move_sort(void **state)
{
	int ln[5];
	char tl[1024];
	fake_key(ui_of(state), 'R');
	const char *s = screen(state);
	order(s, ln);
	assert_true(ln[IDLE] < ln[GAMMA]);
	assert_true(ln[GAMMA] < ln[EVIL]);
	assert_true(ln[EVIL] < ln[ALPHA]);
	assert_true(ln[ALPHA] < ln[BETA]);
	assert_non_null(strstr(titles(s, tl, sizeof(tl)), "CPU%^"));

	/* 'r' flips back. */
	fake_key(ui_of(state), 'r');
	order(screen(state), ln);
	assert_true(ln[BETA] < ln[ALPHA]);

	/* '>' moves to the next column (GHz), descending first: alpha (2.00) leads. */
	fake_key(ui_of(state), '>');
	s = screen(state);
	titles(s, tl, sizeof(tl));
	assert_non_null(strstr(tl, "GHzv"));
	assert_null(strstr(tl, "CPU%v"));
	order(s, ln);
	assert_true(ln[ALPHA] < ln[BETA]);
	/* Values without a number sort last whatever the direction. */
	assert_true(ln[BETA] < ln[GAMMA] && ln[BETA] < ln[EVIL]);

	/* '<' twice: back past CPU% to THR. */
	fake_key(ui_of(state), '<');
	fake_key(ui_of(state), '<');
	assert_non_null(strstr(titles(screen(state), tl, sizeof(tl)), "THRv"));
}

/* A partial value (a process some of whose threads were not counted) is marked '+' in
 * its cell, and what is derived from it too. */
static void test_partial_marked(void **state)
{
	struct fake_fixture *fx = *state;
	fx->f.v[0][E_TCLK] =
		(struct val){.v = 0.5e9, .state = VAL_PARTIAL, .why = WHY_FDLIMIT, .run_pm = 185};
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	char c[64];
	const char *s = screen(state);
	cell(s, "alpha", "CPU%", c, sizeof(c));
	assert_string_equal(c, "50.0+");
	cell(s, " beta", "CPU%", c, sizeof(c));
	assert_string_equal(c, "80.0 "); /* exact: no mark */
}

static void test_marks_in_cells(void **state)
{
	char c[64];
	const char *s = screen(state);
	cell(s, " beta", "IPC", c, sizeof(c));
	assert_string_equal(c, "2.50~"); /* scaled: marked */
	cell(s, " beta", "RUN%", c, sizeof(c));
	assert_string_equal(c, "50.0 "); /* and how long it ran */
	cell(s, "alpha", "IPC", c, sizeof(c));
	assert_string_equal(c, "1.50 "); /* exact: no mark */
	cell(s, "alpha", "RUN%", c, sizeof(c));
	assert_string_equal(c, "100.0 ");
	cell(s, "gamma", "IPC", c, sizeof(c));
	assert_string_equal(c, "n/c ");
	cell(s, "gamma", "CYCLES", c, sizeof(c));
	assert_string_equal(c, "n/c ");
	cell(s, "evil", "IPC", c, sizeof(c));
	assert_string_equal(c, "n/a ");
	cell(s, "evil", "INSNS", c, sizeof(c));
	assert_string_equal(c, "n/a ");
	cell(s, "idle", "IPC", c, sizeof(c));
	assert_string_equal(c, "- "); /* 0 / 0: nothing to divide */
	cell(s, "alpha", "CYCLES", c, sizeof(c));
	assert_string_equal(c, "2.00G ");

	/* Marks in the Cache pane too: the table is generic. */
	fake_key(ui_of(state), '2');
	s = screen(state);
	cell(s, " beta", "CMISS%", c, sizeof(c));
	assert_string_equal(c, "10.0~");
	cell(s, "gamma", "CMPKI", c, sizeof(c));
	assert_string_equal(c, "n/c ");
}

static void test_sanitized_names(void **state)
{
	struct fake_fixture *fx = *state;
	const char *s = screen(state);
	assert_null(strchr(s, '\x1b'));
	assert_null(strchr(s, '\a'));
	assert_null(strstr(s, "^[")); /* curses' own rendering of ESC */
	int n = fake_find(s, "?[31mevil??name?");
	assert_true(n >= 0);
	/* The name did not break its line: the next line is another row. */
	char line[1024];
	assert_null(strstr(fake_line(s, n + 1, line, sizeof(line)), "name"));

	/* What reached the terminal: no name-borne escape, no bell. */
	fflush(fx->t.out);
	long size = ftell(fx->t.out);
	assert_true(size > 0);
	char *raw = calloc(1, (size_t)size + 1);
	assert_non_null(raw);
	rewind(fx->t.out);
	assert_int_equal(fread(raw, 1, (size_t)size, fx->t.out), (size_t)size);
	assert_null(memmem(raw, (size_t)size, "\x1b[31mevil", 9));
	assert_null(memmem(raw, (size_t)size, "\a", 1));
	assert_non_null(memmem(raw, (size_t)size, "?[31mevil", 9));
	free(raw);
	fseek(fx->t.out, 0, SEEK_END);
}

static void test_notice_and_fd_short(void **state)
{
	const char *s = screen(state);
	int n = fake_find(s, "! no hardware PMU: showing software events");
	assert_true(n >= 0 && n < 4); /* prominent: in the header */
	/* At 80 columns, beside every state field, in its short form; whole when wider. */
	assert_non_null(strstr(s, "3 not counted (fd)"));
	ui_set_size(ui_of(state), 120, 24);
	assert_non_null(strstr(screen(state), "3 tasks not counted (fd limit)"));

	struct fake_fixture *fx = *state;
	fx->f.m.notice = NULL;
	fx->f.m.nfd_short = 0;
	s = screen(state);
	assert_null(strstr(s, "no hardware PMU"));
	assert_null(strstr(s, "not counted (fd limit)"));
}

/* The source's own notice (the bpf task map full) shows after the composition's, and
 * alone when there is no other. */
static void test_source_notice(void **state)
{
	struct fake_fixture *fx = *state;
	ui_set_size(ui_of(state), 120, 24);
	fx->f.m.source_notice = "BPF task map full (8 tasks): 3 slices of new tasks not counted";
	const char *s = screen(state);
	assert_non_null(strstr(s, "! no hardware PMU: showing software events; BPF task map full "
				  "(8 tasks)"));
	fx->f.m.notice = NULL;
	s = screen(state);
	int n = fake_find(s, "! BPF task map full (8 tasks): 3 slices");
	assert_true(n >= 0 && n < 4);
	fx->f.m.source_notice = NULL;
	assert_null(strstr(screen(state), "BPF task map"));
}

/* The real notices are long: at 80 columns they wrap, whole, and the state fields of
 * the tasks line stay in sight beside an fd shortage. */
#define REAL_NOTICE                                                                                \
	"no hardware PMU (a VM without PMU passthrough?): hardware counters read n/a; "            \
	"showing software events"

static void test_header_80_real_notice(void **state)
{
	struct fake_fixture *fx = *state;
	char line[1024];
	fx->f.m.notice = REAL_NOTICE;
	const char *s = screen(state);
	for (int n = 0; n < 24; n++)
		assert_true(strlen(fake_line(s, n, line, sizeof(line))) <= 80);
	int n = fake_find(s, "! no hardware PMU");
	assert_true(n == 2);
	assert_true(fake_find(s, "showing software events") == 3);
	/* Line 2 keeps the state: threads and user+kernel, with the fd shortage. */
	fake_line(s, 1, line, sizeof(line));
	assert_non_null(strstr(line, "Tasks 4")); /* htop's processes; threads when wider */
	assert_non_null(strstr(line, "threads on"));
	assert_non_null(strstr(line, "user+kernel"));
	assert_non_null(strstr(line, "3 "));
	/* A config error before it: the PMU explanation still shows, in at most three
	 * lines; cut short, it says where the rest is. */
	fx->f.m.notice = "/home/someone/.config/pmutop/pmutoprc:1: events: cannot parse "
			 "'{bogus-event-xyz,another-bad-one},more-bogus-stuff-here' at "
			 "'{bogus-event-xyz' (offset 2): see pmutop(1) for the syntax "
			 "(ignored); " REAL_NOTICE;
	s = screen(state);
	assert_true(fake_find(s, "! /home/someone") == 2);
	assert_true(fake_find(s, "(h: help)") == 4);
	assert_true(fake_find(s, "[1 IPC]") > 4);
	/* Wide enough, all of it. */
	ui_set_size(ui_of(state), 200, 40);
	s = screen(state);
	assert_true(fake_find(s, "showing software events") >= 2);
	assert_int_equal(fake_find(s, "(h: help)"), -1);
	/* The help has the whole text. */
	ui_set_size(ui_of(state), 80, 24);
	fake_key(ui_of(state), 'h');
	fake_key(ui_of(state), KEY_END);
	s = screen(state);
	assert_true(fake_find(s, "showing software events") >= 0);
}

/* No core PMU, software events counting: not a bare "none". */
static void test_header_pmu_none(void **state)
{
	struct fake_fixture *fx = *state;
	fx->f.m.pmus = "none";
	assert_non_null(strstr(screen(state), "PMU none (software events only)"));
	fx->f.m.pmus = "";
	assert_non_null(strstr(screen(state), "PMU none (software events only)"));
}

/* The watched command's end: its exit status in the final header. */
static void test_final_exit_status(void **state)
{
	struct fake_fixture *fx = *state;
	fx->f.m.final = true;
	fx->f.m.exit_status = 3 << 8; /* exited with 3, as waitpid says it */
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	const char *s = screen(state);
	assert_true(fake_find(s, "FINAL totals (exit 3)") == 1);
	fx->f.m.exit_status = 9; /* killed by SIGKILL */
	s = screen(state);
	assert_true(fake_find(s, "killed by SIGKILL") == 1);
	fx->f.m.exit_status = -1;
	s = screen(state);
	char line[1024];
	assert_true(fake_find(s, "FINAL totals") == 1);
	assert_null(strstr(fake_line(s, 1, line, sizeof(line)), "(exit"));
}

/* Every help line fits 80 columns; none is cut. */
static void test_help_fits_80(void **state)
{
	char line[1024];
	fake_key(ui_of(state), 'h');
	const char *s;
	for (int page = 0; page < 12; page++) {
		s = screen(state);
		for (int n = 0; n < 23; n++)
			assert_true(strlen(fake_line(s, n, line, sizeof(line))) < 80);
		fake_key(ui_of(state), KEY_NPAGE);
	}
	/* The long key line wrapped whole: its last words are there. */
	fake_key(ui_of(state), KEY_HOME);
	bool seen = false;
	for (int page = 0; page < 12 && !seen; page++) {
		seen = fake_find(screen(state), "spec as text (:)") >= 0;
		fake_key(ui_of(state), KEY_NPAGE);
	}
	assert_true(seen);
}

static void test_layout_80x24(void **state)
{
	char line[1024];
	const char *s = screen(state);
	assert_int_equal(fake_lines(s), 24);
	for (int n = 0; n < 24; n++)
		assert_true(strlen(fake_line(s, n, line, sizeof(line))) <= 80);
	/* The command column shows whole names at 80 columns. */
	assert_true(fake_find(s, "`- beta-worker") >= 0);
	assert_true(fake_find(s, "idle (exited)") >= 0);
	fake_line(s, 23, line, sizeof(line));
	assert_true(strncmp(line, "F1Help", 6) == 0);
	assert_non_null(strstr(line, "F10Quit"));
	assert_non_null(strstr(line, "F6Sort"));
	/* Header facts. */
	assert_non_null(strstr(s, "testhost"));
	assert_non_null(strstr(s, "6.1.0-test"));
	assert_non_null(strstr(s, "CPUs 2"));
	assert_non_null(strstr(s, "PMU cpu"));
	assert_non_null(strstr(s, "interval 1s"));
	/* htop's "Tasks: N, M thr; R running": 4 processes (the exited one left out), the
	 * second thread of beta; at 80 columns beside the fd notice the threads go before
	 * the tick, which shows the screen is live. */
	assert_non_null(strstr(s, "Tasks 4  "));
	assert_non_null(strstr(s, "tick #42"));
	assert_non_null(strstr(s, "user+kernel"));
	assert_null(strstr(s, "running"));
	ui_set_size(ui_of(state), 120, 24);
	struct fake_fixture *fx = *state;
	fx->f.m.sys.have_running = true;
	fx->f.m.sys.nr_running = 3;
	s = screen(state);
	assert_non_null(strstr(s, "#42 0:01:23"));
	assert_non_null(strstr(s, "Tasks 4, 1 thr  3 running"));
	/* A fleet's rows are its hosts' commands or cgroups (--prometheus): counted as such,
	 * never as this machine's tasks. */
	fx->f.m.fleet = true;
	fx->f.m.fleet_rows = 7;
	s = screen(state);
	assert_non_null(strstr(s, "commands 7  "));
	assert_null(strstr(s, "Tasks"));
	fx->f.m.fleet_cgroups = true;
	s = screen(state);
	assert_non_null(strstr(s, "cgroups 7  "));
	assert_null(strstr(s, "commands"));
	fx->f.m.fleet = fx->f.m.fleet_cgroups = false;
}

static void test_help_screen(void **state)
{
	struct ui_cmd cmd = fake_key(ui_of(state), 'h');
	assert_int_equal(cmd.kind, UI_REDRAW);
	const char *s = screen(state);
	assert_non_null(strstr(s, "n/a    cannot be counted here"));
	assert_non_null(strstr(s, "n/c    enabled but never scheduled on a counter"));
	assert_non_null(strstr(s, "1.23~  scaled"));
	assert_non_null(strstr(s, "1.23+  partial"));
	assert_non_null(strstr(s, "RUN%"));
	assert_non_null(strstr(s, "-      nothing to divide"));
	assert_null(strstr(s, "[1 IPC]"));
	/* Down the page: each event with why it is not counted. */
	fake_key(ui_of(state), KEY_END);
	s = screen(state);
	assert_non_null(strstr(s, "branches"));
	assert_non_null(strstr(s, "n/a: no permission"));
	assert_non_null(strstr(s, "Columns of the IPC pane"));
	fake_key(ui_of(state), 27);
	assert_non_null(strstr(screen(state), "[1 IPC]"));
	fake_key(ui_of(state), '?');
	assert_non_null(strstr(screen(state), "cannot be counted here"));
	fake_key(ui_of(state), 'q'); /* back, not quit */
	assert_non_null(strstr(screen(state), "[1 IPC]"));
}

static void test_exited_and_threads(void **state)
{
	char line[1024];
	const char *s = screen(state);
	assert_true(fake_find(s, "idle (exited)") >= 0);
	assert_int_equal(fake_find(s, "alpha (exited)"), -1);
	int w = fake_find(s, "`- beta-worker");
	assert_true(w >= 0);
	assert_non_null(strstr(fake_line(s, w, line, sizeof(line)), " 201 "));
}

static void test_meters(void **state)
{
	char line[1024];
	const char *s = screen(state);
	int n = fake_find(s, "0[");
	assert_true(n >= 0);
	fake_line(s, n, line, sizeof(line));
	assert_non_null(strstr(line, "25.0% ipc 2.00]"));
	/* CPU 1 has no IPC number: no IPC shown, not a zero. */
	assert_non_null(strstr(line, "1["));
	assert_non_null(strstr(line, "75.0%]"));
	assert_null(strstr(line, "75.0% ipc"));
	/* M: IPC as the bars (half of the 4 a full bar is), n/a where there is none. */
	fake_key(ui_of(state), 'm');
	s = screen(state);
	fake_line(s, fake_find(s, "0["), line, sizeof(line));
	assert_non_null(strstr(line, "ipc 2.00]"));
	assert_non_null(strstr(line, "ipc n/a]"));
	assert_null(strstr(line, "25.0%"));
	/* M again: the clock; again: no meters; again: busy %. */
	fake_key(ui_of(state), 'm');
	s = screen(state);
	fake_line(s, fake_find(s, "0["), line, sizeof(line));
	assert_non_null(strstr(line, "GHz 1.00]"));
	fake_key(ui_of(state), 'm');
	s = screen(state);
	assert_int_equal(fake_find(s, "0["), -1);
	assert_int_equal(fake_find(s, "1["), -1);
	fake_key(ui_of(state), 'm');
	s = screen(state);
	fake_line(s, fake_find(s, "0["), line, sizeof(line));
	assert_non_null(strstr(line, "25.0% ipc 2.00]"));
}

static void test_utf8_glyphs(void **state)
{
	char tl[1024];
	const char *s = screen(state);
	assert_non_null(strstr(titles(s, tl, sizeof(tl)), "CPU%\xe2\x96\xbc")); /* ▼ */
	assert_true(fake_find(s, "\xe2\x94\x94\xe2\x94\x80 beta-worker") >= 0); /* └─ */
	fake_key(ui_of(state), 'R');
	assert_non_null(strstr(titles(screen(state), tl, sizeof(tl)), "CPU%\xe2\x96\xb2"));
	/* Still sanitised (invalid UTF-8 included) on a UTF-8 terminal. */
	assert_true(fake_find(screen(state), "?[31mevil??name?") >= 0);
}

static void test_resize(void **state)
{
	char line[1024];
	struct ui *u = ui_of(state);
	ui_set_size(u, 120, 40);
	const char *s = screen(state);
	assert_int_equal(fake_lines(s), 40);
	assert_non_null(strstr(fake_line(s, 39, line, sizeof(line)), "F10Quit"));
	/* Wider: the tasks line fits whole now. */
	assert_non_null(strstr(s, "user+kernel"));

	ui_set_size(u, 60, 12);
	s = screen(state);
	assert_int_equal(fake_lines(s), 12);
	for (int n = 0; n < 12; n++)
		assert_true(strlen(fake_line(s, n, line, sizeof(line))) <= 60);
	/* Too narrow for every column: counts and rates go, the IPC and RUN% stay, the
	 * command keeps room for a whole name, and the title says columns are missing. */
	titles(s, line, sizeof(line));
	assert_true(title_end(line, "IPC") > 0);
	assert_true(title_end(line, "RUN%") > 0);
	assert_int_equal(title_end(line, "CYCLES"), -1);
	assert_non_null(strstr(line, "COMMAND (+"));
	assert_true(fake_find(s, "`- beta-worker") >= 0);
	assert_non_null(strstr(fake_line(s, 11, line, sizeof(line)), "F10Quit"));

	ui_set_size(u, 30, 5);
	s = screen(state);
	assert_int_equal(fake_lines(s), 5);
	assert_non_null(strstr(fake_line(s, 4, line, sizeof(line)), "Quit"));

	ui_set_size(u, 12, 2);
	assert_non_null(strstr(screen(state), "pmutop"));

	ui_set_size(u, 80, 24);
	assert_non_null(strstr(screen(state), "[1 IPC]"));
}

static void test_paused_and_final(void **state)
{
	struct ui_cmd cmd = fake_key(ui_of(state), 'Z');
	assert_int_equal(cmd.kind, UI_TOGGLE_PAUSE);
	const char *s = screen(state);
	assert_non_null(strstr(s, "PAUSED"));
	assert_non_null(strstr(s, "ZResume"));
	cmd = fake_key(ui_of(state), 'Z');
	assert_int_equal(cmd.kind, UI_TOGGLE_PAUSE);
	assert_null(strstr(screen(state), "PAUSED"));

	/* The model's word wins when it comes. */
	struct fake_fixture *fx = *state;
	fx->f.m.paused = true;
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	assert_non_null(strstr(screen(state), "PAUSED"));
	fx->f.m.paused = false;
	fx->f.m.final = true;
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	s = screen(state);
	assert_null(strstr(s, "PAUSED"));
	assert_non_null(strstr(s, "FINAL"));
}

static void test_waiting_first_tick(void **state)
{
	struct fake_fixture *fx = *state;
	fx->f.m.tick = 0;
	fx->f.m.nrows = 0;
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	assert_non_null(strstr(screen(state), "waiting for the first interval"));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_tabs_and_titles),
		T(test_default_sort_cpu_desc),
		T(test_reverse_and_move_sort),
		T(test_marks_in_cells),
		T(test_partial_marked),
		T(test_sanitized_names),
		T(test_notice_and_fd_short),
		T(test_source_notice),
		T(test_layout_80x24),
		T(test_header_80_real_notice),
		T(test_header_pmu_none),
		T(test_final_exit_status),
		T(test_help_fits_80),
		T(test_help_screen),
		T(test_exited_and_threads),
		T(test_meters),
		cmocka_unit_test_setup_teardown(test_utf8_glyphs, setup_utf8, teardown),
		T(test_resize),
		T(test_paused_and_final),
		T(test_waiting_first_tick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
