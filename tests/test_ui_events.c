/* The events setup against the off-screen UI and a catalogue from a fixture sysfs tree:
 * the PMU browser, the event browser and its search, adding, removing and regrouping
 * events (UI_SET_EVENTS with the right spec), the free-text spec line, ui_message, the
 * derived-column dialog (UI_SET_METRICS) and the save key (UI_SAVE_CONFIG). */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "curs.h"
#include "pmu.h"
#include "testutil.h"
#include "test_ui_fake.h"
#include "uistate.h"

#define KEY_ESC 27

struct fixture {
	struct fake f;
	struct term t;
	struct pmu_set *pmus;
	struct catalog *cat;
};

static int setup_size(void **state, int cols, int lines)
{
	setlocale(LC_ALL, "C");
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	fake_init(&fx->f);
	fx->t = fake_ui(cols, lines);
	fx->pmus = pmu_set_new(testutil_path("fixtures/sysfs-x86"), false);
	fx->cat = catalog_new(fx->pmus);
	if (!fx->t.u || !fx->cat)
		return -1;
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	ui_set_catalog(fx->t.u, fx->cat);
	*state = fx;
	return 0;
}

static int setup(void **state)
{
	return setup_size(state, 120, 30);
}

static int setup_small(void **state)
{
	return setup_size(state, 80, 24);
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	fake_close(&fx->t);
	catalog_free(fx->cat);
	pmu_set_free(fx->pmus);
	free(fx);
	return 0;
}

static struct ui *U(void **state)
{
	return ((struct fixture *)*state)->t.u;
}

static const char *screen(void **state)
{
	const char *s = fake_screen(U(state));
	if (getenv("UI_TEST_DUMP"))
		fprintf(stderr, "----\n%s----\n", s);
	return s;
}

static const char *last_line(const char *s)
{
	static char buf[1024];
	return fake_line(s, fake_lines(s) - 1, buf, sizeof(buf));
}

/* The user's events in force as main.c would report them, with the model to match. */
static void with_user_events(void **state)
{
	struct fixture *fx = *state;
	fake_user(&fx->f);
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	ui_set_user_spec(fx->t.u, "{cycles,instructions}:u,cs");
}

/* Open the event list of the PMU called name from the PMU browser, which lists the PMUs
 * present here (as pmutop --list). */
static void open_pmu(void **state, const char *name)
{
	struct fixture *fx = *state;
	int row = catalog_find_pmu(fx->cat, name);
	assert_true(row >= 0);
	fake_key(U(state), 'e');
	fake_key(U(state), KEY_HOME);
	for (int i = 0; i < row; i++)
		if (catalog_pmu(fx->cat, (unsigned)i)->present &&
		    !catalog_pmu(fx->cat, (unsigned)i)->pfm_only)
			fake_key(U(state), KEY_DOWN);
	fake_key(U(state), '\n');
}

static void test_pmu_browser(void **state)
{
	struct ui_cmd cmd = fake_key(U(state), 'e');
	assert_int_equal(cmd.kind, UI_REDRAW);
	const char *s = screen(state);
	assert_true(fake_find(s, "Events setup") == 0);
	assert_non_null(strstr(s, "[1 PMUs]"));
	int title = fake_find(s, "PMU ");
	assert_true(title > 0);
	assert_non_null(strstr(s, "COUNTERS"));
	/* every row of the fixture: type, presence and event counts */
	int cpu = fake_find(s, "cpu ");
	assert_true(cpu > title);
	char line[256];
	fake_line(s, cpu, line, sizeof(line));
	assert_non_null(strstr(line, " 4 "));
	assert_non_null(strstr(line, "yes"));
	assert_non_null(strstr(line, " 12")); /* its sysfs aliases */
	assert_true(fake_find(s, "generic") > title);
	assert_true(fake_find(s, "msr ") > title);
	assert_true(fake_find(s, "power ") > title);
	assert_non_null(strstr(last_line(s), "Enter"));
	/* Esc goes back to the table */
	fake_key(U(state), KEY_ESC);
	s = screen(state);
	assert_true(fake_find(s, "PID") >= 0);
	assert_int_equal(fake_find(s, "Events setup"), -1);
}

/* F2 opens the setup too; Tab still changes panes in the table. */
static void test_f2_and_tab(void **state)
{
	fake_key(U(state), KEY_F(2));
	assert_true(fake_find(screen(state), "Events setup") == 0);
	fake_key(U(state), KEY_ESC);
	const char *s = screen(state);
	assert_non_null(strstr(s, "[1 "));
	fake_key(U(state), '\t');
	s = screen(state);
	assert_non_null(strstr(s, "[2 "));
	assert_int_equal(fake_find(s, "Events setup"), -1);
	assert_non_null(strstr(last_line(s), "F2Events"));
}

static void test_event_browser_search(void **state)
{
	open_pmu(state, "cpu");
	const char *s = screen(state);
	assert_non_null(strstr(s, "[2 Events]"));
	assert_non_null(strstr(s, "Events of cpu"));
	assert_true(fake_find(s, "cpu/cpu-cycles/") >= 0);
	assert_true(fake_find(s, "cpu/instructions/") >= 0);
	assert_int_equal(fake_find(s, " page-faults"), -1); /* another PMU's */
	/* incremental: each keystroke narrows the list */
	fake_key(U(state), '/');
	fake_type(U(state), "mem");
	s = screen(state);
	assert_non_null(strstr(last_line(s), "Search: mem"));
	assert_true(fake_find(s, "cpu/mem-loads/") >= 0);
	assert_true(fake_find(s, "cpu/mem-stores/") >= 0);
	assert_int_equal(fake_find(s, "cpu/cpu-cycles/"), -1);
	fake_type(U(state), "-s");
	s = screen(state);
	assert_int_equal(fake_find(s, "cpu/mem-loads/"), -1);
	assert_true(fake_find(s, "cpu/mem-stores/") >= 0);
	/* Esc clears the search: all of the PMU's events again */
	fake_key(U(state), KEY_ESC);
	s = screen(state);
	assert_true(fake_find(s, "cpu/cpu-cycles/") >= 0);
}

/* From the PMU list, / searches every PMU; descriptions match too. */
static void test_search_all(void **state)
{
	fake_key(U(state), 'e');
	fake_key(U(state), '/');
	fake_type(U(state), "cycles");
	const char *s = screen(state);
	assert_non_null(strstr(s, "Events of all PMUs"));
	assert_true(fake_find(s, "cpu-cycles") >= 0);
	assert_true(fake_find(s, "cpu/cpu-cycles/") >= 0);
	fake_key(U(state), KEY_BACKSPACE);
	for (int i = 0; i < 6; i++)
		fake_key(U(state), KEY_BACKSPACE);
	fake_type(U(state), "not scaled"); /* ref-cycles: "not scaled by frequency" */
	s = screen(state);
	assert_true(fake_find(s, "ref-cycles") >= 0);
	assert_int_equal(fake_find(s, "cpu-cycles "), -1);
}

static void test_add_event(void **state)
{
	struct fixture *fx = *state;
	fake_key(U(state), '4'); /* on the Software pane */
	assert_non_null(strstr(screen(state), "[4 Software]"));
	fake_key(U(state), 'e');
	fake_key(U(state), '/');
	fake_type(U(state), "page-faults");
	struct ui_cmd cmd = fake_key(U(state), '\n'); /* keep the search */
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_true(fake_find(screen(state), "page-faults") >= 0);
	cmd = fake_key(U(state), '\n'); /* add the first hit */
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_non_null(cmd.spec);
	assert_string_equal(cmd.spec, "page-faults");
	/* back on the table, saying what happens next */
	const char *s = screen(state);
	assert_int_equal(fake_find(s, "Events setup"), -1);
	assert_non_null(strstr(last_line(s), "Adding page-faults"));
	/* main.c applies it: the Events pane appears and is shown */
	fake_user(&fx->f);
	ui_set_user_spec(U(state), "page-faults");
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	s = screen(state);
	/* after the built-in panes, which keep their keys */
	assert_non_null(strstr(s, "[5 Events]"));
	assert_non_null(strstr(s, " 1 IPC "));
	/* the user removes it again: back to the pane they were on */
	fx->f.m.nevents = NEV;
	fx->f.m.ngroups = NGRP;
	fx->f.npanes = columns_build_panes(&fx->f.m, false, fx->f.panes, 8);
	ui_set_user_spec(U(state), "");
	ui_set_model(U(state), &fx->f.m, fx->f.panes, fx->f.npanes);
	s = screen(state);
	assert_non_null(strstr(s, "[4 Software]"));
	/* The setup opened again says nothing of the last visit: its key bar, no message. */
	fake_key(U(state), 'e');
	s = screen(state);
	assert_true(fake_find(s, "Events setup") >= 0);
	assert_null(strstr(last_line(s), "Adding page-faults"));
	fake_key(U(state), KEY_ESC);
}

/* Events counted already are marked in the list. */
static void test_counted_marked(void **state)
{
	char line[256];
	ui_set_user_spec(U(state), "page-faults,{cpu-clock,task-clock}");
	open_pmu(state, "software");
	const char *s = screen(state);
	fake_line(s, fake_find(s, " page-faults "), line, sizeof(line));
	assert_int_equal(line[0], '*');
	fake_line(s, fake_find(s, " task-clock "), line, sizeof(line));
	assert_int_equal(line[0], '*');
	fake_line(s, fake_find(s, " major-faults "), line, sizeof(line));
	assert_int_equal(line[0], ' ');
}

/* An absent PMU (libpfm4 knows it, this machine has not got it) says why it lists
 * nothing; a search that finds nothing says so too. */
static void test_absent_pmu(void **state)
{
	struct fixture *fx = *state;
	struct pmu_set *p = pmu_set_new(testutil_path("fixtures/sysfs-x86"), true);
	struct catalog *c = catalog_new(p);
	assert_non_null(c);
	unsigned row = 0;
	while (row < catalog_npmus(c) && catalog_pmu(c, row)->present)
		row++;
	if (row == catalog_npmus(c))
		skip(); /* libpfm4 built for this machine's PMUs only */
	ui_set_catalog(U(state), c);
	fake_key(U(state), 'e');
	fake_key(U(state), 'a'); /* every PMU: row is the catalogue's */
	for (unsigned i = 0; i < row; i++)
		fake_key(U(state), KEY_DOWN);
	fake_key(U(state), '\n');
	assert_true(fake_find(screen(state), "not present on this machine") >= 0);
	fake_key(U(state), '/');
	fake_type(U(state), "zzz");
	assert_true(fake_find(screen(state), "no event matches") >= 0);
	ui_set_catalog(U(state), fx->cat);
	catalog_free(c);
	pmu_set_free(p);
}

/* The PMU browser lists the PMUs this machine has, as pmutop --list does; a shows the
 * ones only libpfm4 knows, and hides them again. */
static void test_pmus_present_only(void **state)
{
	struct fixture *fx = *state;
	struct pmu_set *p = pmu_set_new(testutil_path("fixtures/sysfs-x86"), true);
	struct catalog *c = catalog_new(p);
	assert_non_null(c);
	int absent = -1;
	unsigned nabsent = 0;
	for (unsigned i = 0; i < catalog_npmus(c); i++) {
		const struct catalog_pmu *r = catalog_pmu(c, i);
		if (!r->present || r->pfm_only) {
			nabsent++;
			if (absent < 0 && !r->present)
				absent = (int)i;
		}
	}
	if (absent < 0)
		skip(); /* libpfm4 built for this machine's PMUs only */
	char name[64], more[96];
	snprintf(name, sizeof(name), "%s ", catalog_pmu(c, (unsigned)absent)->name);
	snprintf(more, sizeof(more), "%u more not on this machine: a shows them", nabsent);
	ui_set_catalog(U(state), c);
	fake_key(U(state), 'e');
	fake_key(U(state), KEY_END);
	const char *s = screen(state);
	assert_int_equal(fake_find(s, name), -1);
	assert_true(fake_find(s, "cpu ") > 0);
	assert_true(fake_find(s, more) > fake_find(s, "cpu "));
	assert_non_null(strstr(last_line(s), "aAllPMUs"));
	fake_key(U(state), 'a');
	fake_key(U(state), KEY_HOME);
	for (int i = 0; i < absent; i++)
		fake_key(U(state), KEY_DOWN);
	s = screen(state);
	assert_true(fake_find(s, name) > 0);
	assert_int_equal(fake_find(s, more), -1);
	/* Enter opens the PMU selected, counted among every row now. */
	fake_key(U(state), '\n');
	char title[96];
	snprintf(title, sizeof(title), "Events of %s", catalog_pmu(c, (unsigned)absent)->name);
	assert_true(fake_find(screen(state), title) >= 0);
	fake_key(U(state), '1');
	fake_key(U(state), 'a');
	s = screen(state);
	assert_int_equal(fake_find(s, name), -1);
	assert_true(fake_find(s, more) > 0);
	ui_set_catalog(U(state), fx->cat);
	catalog_free(c);
	pmu_set_free(p);
}

/* Adding to a spec in force appends a group of its own. */
static void test_add_appends(void **state)
{
	with_user_events(state);
	open_pmu(state, "software");
	fake_key(U(state), '/');
	fake_type(U(state), "task-clock\n");
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "{cycles,instructions}:u,cs,task-clock");
}

static void test_add_into_group(void **state)
{
	with_user_events(state);
	fake_key(U(state), 'e');
	fake_key(U(state), '/');
	fake_type(U(state), "page-faults\n");
	struct ui_cmd cmd = fake_key(U(state), 'g');
	assert_int_equal(cmd.kind, UI_REDRAW);
	const char *s = screen(state);
	assert_true(fake_find(s, "Add to group") >= 0);
	assert_true(fake_find(s, "Group 1: {cycles,instructions}:u") >= 0);
	assert_true(fake_find(s, "A group of its own") >= 0);
	fake_key(U(state), KEY_DOWN);
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "{cycles,instructions,page-faults}:u,cs");
}

static void test_your_events(void **state)
{
	with_user_events(state);
	fake_key(U(state), 'e');
	fake_key(U(state), '3');
	const char *s = screen(state);
	assert_non_null(strstr(s, "[3 Your events]"));
	assert_non_null(strstr(s, "In force: {cycles,instructions}:u,cs"));
	int g1 = fake_find(s, "Group 1");
	int g2 = fake_find(s, "Group 2");
	assert_true(g1 > 0 && g2 > g1);
	assert_true(fake_find(s, "    cycles") > g1);
	/* statuses from the model: cs is n/a there */
	char line[256];
	fake_line(s, fake_find(s, "    cs"), line, sizeof(line));
	assert_non_null(strstr(line, "n/a"));
	fake_line(s, fake_find(s, "    cycles"), line, sizeof(line));
	assert_non_null(strstr(line, "counting"));
}

static void test_remove(void **state)
{
	with_user_events(state);
	fake_key(U(state), 'e');
	fake_key(U(state), '3');
	fake_key(U(state), KEY_END); /* cs, the last row */
	struct ui_cmd cmd = fake_key(U(state), 'x');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "{cycles,instructions}:u");
	/* not applied yet: the list still shows what is in force */
	assert_true(fake_find(screen(state), "    cs") >= 0);
	/* instructions (row 2), with Delete */
	fake_key(U(state), KEY_HOME);
	fake_key(U(state), KEY_DOWN);
	fake_key(U(state), KEY_DOWN);
	cmd = fake_key(U(state), KEY_DC);
	assert_string_equal(cmd.spec, "{cycles}:u,cs");
	/* a whole group from its heading */
	fake_key(U(state), KEY_HOME);
	cmd = fake_key(U(state), 'x');
	assert_string_equal(cmd.spec, "cs");
	/* main.c applies one: the list follows */
	ui_set_user_spec(U(state), "cs");
	const char *s = screen(state);
	assert_int_equal(fake_find(s, "Group 2"), -1);
	assert_int_equal(fake_find(s, "    cycles"), -1);
	cmd = fake_key(U(state), 'x'); /* the heading of cs's group */
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "");
}

static void test_regroup(void **state)
{
	with_user_events(state);
	fake_key(U(state), 'e');
	fake_key(U(state), '3');
	fake_key(U(state), KEY_END); /* cs */
	struct ui_cmd cmd = fake_key(U(state), 'g');
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_true(fake_find(screen(state), "Move to group") >= 0);
	fake_key(U(state), KEY_DOWN); /* Group 1 */
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "{cycles,instructions,cs}:u");
	/* instructions into a group of its own (the first item) */
	fake_key(U(state), KEY_HOME);
	fake_key(U(state), KEY_DOWN);
	fake_key(U(state), KEY_DOWN);
	fake_key(U(state), 'g');
	cmd = fake_key(U(state), '\n');
	assert_string_equal(cmd.spec, "{cycles}:u,cs,{instructions}:u");
	/* Esc in the pick list changes nothing */
	fake_key(U(state), 'g');
	cmd = fake_key(U(state), KEY_ESC);
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_true(fake_find(screen(state), "[3 Your events]") >= 0);
}

static void test_free_text_verbatim(void **state)
{
	const char *spec = "{cycles,instructions}:u,cpu/event=0x3c,umask=0x00/k,"
			   "skl::INST_RETIRED:ANY_P, cs";
	fake_key(U(state), 'e');
	fake_key(U(state), ':');
	assert_non_null(strstr(last_line(screen(state)), "perf -e syntax"));
	fake_type(U(state), spec);
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, spec);
	/* it starts from the spec in force, which can be edited or cleared */
	ui_set_user_spec(U(state), "cs");
	fake_key(U(state), 'e');
	fake_key(U(state), ':');
	assert_non_null(strstr(last_line(screen(state)), "syntax): cs"));
	fake_type(U(state), ",page-faults");
	cmd = fake_key(U(state), '\n');
	assert_string_equal(cmd.spec, "cs,page-faults");
	fake_key(U(state), 'e');
	fake_key(U(state), ':');
	fake_key(U(state), 'u' & 0x1f);
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "");
	/* Esc sends nothing */
	fake_key(U(state), 'e');
	fake_key(U(state), ':');
	fake_type(U(state), "x");
	cmd = fake_key(U(state), KEY_ESC);
	assert_int_equal(cmd.kind, UI_REDRAW);
}

static void test_message(void **state)
{
	ui_message(U(state), "unknown event 'cyles': did you mean cycles?\x1b[2J\a");
	const char *s = screen(state);
	assert_non_null(strstr(last_line(s), "unknown event 'cyles': did you mean cycles?"));
	assert_null(strchr(s, '\x1b'));
	assert_null(strchr(s, '\a'));
	/* shown in the setup too */
	ui_message(U(state), "the rest keeps counting");
	fake_key(U(state), 'e');
	ui_message(U(state), "saved to /tmp/pmutoprc");
	assert_non_null(strstr(last_line(screen(state)), "saved to /tmp/pmutoprc"));
	fake_key(U(state), KEY_ESC);
	/* a key clears it */
	ui_message(U(state), "going soon");
	fake_key(U(state), KEY_DOWN);
	assert_null(strstr(screen(state), "going soon"));
	/* and so does time */
	ui_message(U(state), "going later");
	assert_non_null(strstr(screen(state), "going later"));
	U(state)->msg_until = ui_now() - 1;
	s = screen(state);
	assert_null(strstr(s, "going later"));
	assert_non_null(strstr(last_line(s), "F1Help"));
}

static struct ui_cmd metric_keys(void **state, const char *name, int a, int b, int kind)
{
	fake_type(U(state), name);
	fake_key(U(state), KEY_DOWN);
	for (int i = 0; i < a; i++)
		fake_key(U(state), KEY_RIGHT);
	fake_key(U(state), KEY_DOWN);
	for (int i = 0; i < b; i++)
		fake_key(U(state), KEY_RIGHT);
	fake_key(U(state), KEY_DOWN);
	for (int i = 0; i < kind; i++)
		fake_key(U(state), KEY_RIGHT);
	return fake_key(U(state), '\n');
}

static void test_metric_dialog(void **state)
{
	with_user_events(state);
	fake_key(U(state), 'e');
	struct ui_cmd cmd = fake_key(U(state), 'm');
	const char *s = screen(state);
	assert_true(fake_find(s, "New derived column") >= 0);
	assert_true(fake_find(s, "cycles:u") >= 0);
	/* choices: cycles:u, instructions:u (group 1), cs (group 2); A starts on the
	 * first, B on the second. B = cs: different groups, refused and explained */
	cmd = metric_keys(state, "BAD", 0, 1, 0);
	assert_int_equal(cmd.kind, UI_REDRAW);
	s = screen(state);
	assert_true(fake_find(s, "different groups") >= 0);
	assert_true(fake_find(s, "New derived column") >= 0); /* still open */
	/* B back to instructions:u and A to instructions, B to cycles: per cycle */
	fake_key(U(state), KEY_UP);    /* B */
	fake_key(U(state), KEY_LEFT);  /* instructions:u */
	fake_key(U(state), KEY_LEFT);  /* cycles:u */
	fake_key(U(state), KEY_UP);    /* A */
	fake_key(U(state), KEY_RIGHT); /* instructions:u */
	fake_key(U(state), KEY_UP);    /* name */
	for (int i = 0; i < 3; i++)
		fake_key(U(state), KEY_BACKSPACE);
	fake_type(U(state), "IPC2");
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_METRICS);
	assert_int_equal(cmd.nmetrics, 1);
	assert_non_null(cmd.metrics);
	assert_string_equal(cmd.metrics[0].name, "IPC2");
	assert_string_equal(cmd.metrics[0].a, "instructions:u");
	assert_string_equal(cmd.metrics[0].b, "cycles:u");
	assert_true(cmd.metrics[0].mul == 1);
	assert_int_equal(fake_find(screen(state), "New derived column"), -1);
}

/* The metrics in force come first; kinds; names must be new; x removes one. */
static void test_metric_more(void **state)
{
	with_user_events(state);
	struct user_metric ipc = {.name = "IPC2", .a = "instructions:u", .b = "cycles:u", .mul = 1};
	ui_set_metrics(U(state), &ipc, 1);
	fake_key(U(state), 'e');
	fake_key(U(state), 'm');
	struct ui_cmd cmd = metric_keys(state, "IPC2", 0, 0, 1);
	assert_int_equal(cmd.kind, UI_REDRAW);
	assert_true(fake_find(screen(state), "already a column 'IPC2'") >= 0);
	fake_key(U(state), KEY_UP);
	fake_key(U(state), KEY_UP);
	fake_key(U(state), KEY_UP);
	fake_type(U(state), "%");
	cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_METRICS);
	assert_int_equal(cmd.nmetrics, 2);
	assert_string_equal(cmd.metrics[0].name, "IPC2");
	assert_string_equal(cmd.metrics[1].name, "IPC2%");
	assert_true(cmd.metrics[1].mul == 100);
	/* the list shows the one in force, and x removes it */
	fake_key(U(state), '3');
	const char *s = screen(state);
	assert_true(fake_find(s, "Derived columns") >= 0);
	assert_true(fake_find(s, "IPC2") >= 0);
	assert_true(fake_find(s, "in the Events pane") >= 0);
	fake_key(U(state), KEY_END);
	cmd = fake_key(U(state), 'x');
	assert_int_equal(cmd.kind, UI_SET_METRICS);
	assert_int_equal(cmd.nmetrics, 0);
}

/* No events of the user's own: nothing to divide, and the dialog says so. */
static void test_metric_needs_events(void **state)
{
	fake_key(U(state), 'e');
	struct ui_cmd cmd = fake_key(U(state), 'm');
	assert_int_equal(cmd.kind, UI_REDRAW);
	const char *s = screen(state);
	assert_int_equal(fake_find(s, "New derived column"), -1);
	assert_non_null(strstr(last_line(s), "No events of your own"));
}

static void test_save_key(void **state)
{
	struct ui_cmd cmd = fake_key(U(state), 'W');
	assert_int_equal(cmd.kind, UI_SAVE_CONFIG);
	fake_key(U(state), 'e');
	cmd = fake_key(U(state), 'W');
	assert_int_equal(cmd.kind, UI_SAVE_CONFIG);
	assert_true(fake_find(screen(state), "Events setup") == 0);
}

/* Long lists scroll: the selection stays on screen from the first row to the last. */
static void test_scrolling(void **state)
{
	struct fixture *fx = *state;
	fake_key(U(state), 'e');
	fake_key(U(state), '/');
	fake_key(U(state), '\n'); /* every event of every PMU */
	unsigned n = catalog_nevents(fx->cat);
	assert_true(n > 40);	    /* more than a 24-line screen */
	char first[128], last[128]; /* whole names: "cpu-cycles" is in "cpu/cpu-cycles/" */
	snprintf(first, sizeof(first), " %s ", catalog_event(fx->cat, 0)->name);
	snprintf(last, sizeof(last), " %s ", catalog_event(fx->cat, n - 1)->name);
	const char *s = screen(state);
	assert_true(fake_find(s, first) >= 0);
	assert_int_equal(fake_find(s, last), -1);
	fake_key(U(state), KEY_END);
	s = screen(state);
	assert_true(fake_find(s, last) >= 0);
	/* the selection in full under the list, with its PMU (no PMU column at 80) */
	char detail[160];
	snprintf(detail, sizeof(detail), "%s  (%s)", catalog_event(fx->cat, n - 1)->name,
		 catalog_event(fx->cat, n - 1)->heading);
	assert_true(fake_find(s, detail) > fake_find(s, last));
	assert_int_equal(fake_find(s, "PMU "), -1);
	assert_int_equal(fake_find(s, first), -1);
	fake_key(U(state), KEY_HOME);
	fake_key(U(state), KEY_NPAGE);
	fake_key(U(state), KEY_NPAGE);
	s = screen(state);
	assert_int_equal(fake_find(s, first), -1);
	/* Enter adds the selected row, not the first */
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_not_equal(cmd.spec, catalog_event(fx->cat, 0)->name);
}

/* Spec text from the setup file or -e never reaches the terminal raw. */
static void test_hostile_spec(void **state)
{
	ui_set_user_spec(U(state), "cs,\x1b[31mevil\a");
	fake_key(U(state), 'e');
	fake_key(U(state), '3');
	const char *s = screen(state);
	assert_null(strchr(s, '\x1b'));
	assert_null(strchr(s, '\a'));
	assert_true(fake_find(s, "evil") >= 0);
}

/* Without a catalogue the browsers say so and the spec line still works. */
static void test_no_catalog(void **state)
{
	ui_set_catalog(U(state), NULL);
	fake_key(U(state), 'e');
	assert_true(fake_find(screen(state), "no PMU catalogue") >= 0);
	fake_key(U(state), ':');
	fake_type(U(state), "cs");
	struct ui_cmd cmd = fake_key(U(state), '\n');
	assert_int_equal(cmd.kind, UI_SET_EVENTS);
	assert_string_equal(cmd.spec, "cs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pmu_browser, setup, teardown),
		cmocka_unit_test_setup_teardown(test_f2_and_tab, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_browser_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_appends, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counted_marked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absent_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pmus_present_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_into_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_your_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
		cmocka_unit_test_setup_teardown(test_regroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_text_verbatim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metric_dialog, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metric_more, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metric_needs_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scrolling, setup_small, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_spec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_catalog, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
