/* The key tables of every mode. */
#include "bindings.h"

#include <stdio.h>
#include <string.h>

#include "curs.h"

#define CTRL(c) ((c)&0x1f)
#define KEY_ESC 27

/* Each table in the order of its key bar and the help screen. */
static const struct binding main_keys[] = {
	{{'h', '?', KEY_F(1)}, BIND_HELP, "h ? F1", "this help", BAR_ALWAYS, "F1", "Help", 9},
	{{'e', KEY_F(2)},
	 BIND_EVENTS,
	 "e F2",
	 "choose events while counting: browse the PMUs, search events by name or description "
	 "(/), add one (Enter, or g into a group); remove (x) and regroup (g) yours; derived "
	 "columns (m); any -e spec as text (:)",
	 BAR_ALWAYS,
	 "F2",
	 "Events",
	 7},
	{{'\t', KEY_RIGHT}, BIND_PANE_NEXT, "Tab Right", "next pane", BAR_ALWAYS, "Tab", "Pane", 7},
	{{KEY_BTAB, KEY_LEFT},
	 BIND_PANE_PREV,
	 "Shift-Tab Left",
	 "previous pane",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'1', '2', '3', '4', '5'},
	 BIND_PANE_N,
	 "1 .. 9",
	 "pane by number",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'6', '7', '8', '9'}, BIND_PANE_N, NULL, NULL, BAR_NEVER, NULL, NULL, 0},
	{{'/', KEY_F(4)},
	 BIND_FILTER,
	 "/ F4",
	 "filter by command name, as you type; Esc clears it",
	 BAR_ALWAYS,
	 "F4",
	 "Filter",
	 6},
	{{KEY_F(6)},
	 BIND_SORT_MENU,
	 "F6",
	 "choose the sort column from a list",
	 BAR_ALWAYS,
	 "F6",
	 "Sort",
	 6},
	{{'<', ','},
	 BIND_SORT_PREV,
	 "< ,",
	 "sort by the previous column",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'>', '.'}, BIND_SORT_NEXT, "> .", "sort by the next column", BAR_NEVER, NULL, NULL, 0},
	{{'R', 'r'}, BIND_REVERSE, "R r", "reverse the sort order", BAR_NEVER, NULL, NULL, 0},
	{{' '},
	 BIND_PAUSE,
	 "Space",
	 "pause / resume (a replay: play / stop)",
	 BAR_ALWAYS,
	 "Spc",
	 "Pause",
	 8},
	{{'M'},
	 BIND_METERS,
	 "M",
	 "the CPU meters show busy %, IPC (full bar: 4 a cycle), the clock (GHz), or no meters, in "
	 "turn",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{KEY_F(5)},
	 BIND_TREE,
	 "F5",
	 "tree view: processes under their parents, siblings sorted; - folds a subtree into "
	 "its row (its sum, marked [+]), + unfolds",
	 BAR_ALWAYS,
	 "F5",
	 "Tree",
	 0},
	{{'c'},
	 BIND_CMDLINE,
	 "c",
	 "COMMAND: the full command line, or the name again (as top)",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'o'},
	 BIND_OUTPUT,
	 "o",
	 "pmutop -- COMMAND: what the command printed (its last lines); any key returns",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'-'},
	 BIND_FOLD,
	 "-",
	 "the tree view and cgroup rows: fold the selected row's subtree into it (its sum)",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'+', '='}, BIND_UNFOLD, "+", "unfold it again", BAR_NEVER, NULL, NULL, 0},
	{{'t'},
	 BIND_STEP_FWD,
	 "t",
	 "the tree view, as F5 (in a replay, -r: one tick forward)",
	 BAR_REPLAY,
	 "t",
	 "Step",
	 7},
	{{'T'}, BIND_STEP_BACK, "T", "a replay: one tick back", BAR_REPLAY, "T", "Back", 7},
	{{'b'},
	 BIND_JUMP,
	 "b",
	 "a replay: jump to a time (HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m from the end)",
	 BAR_REPLAY,
	 "b",
	 "Jump",
	 6},
	{{'x'},
	 BIND_SPEED,
	 "x",
	 "a replay: the play speed, 1x, 10x, 60x in turn (Space plays)",
	 BAR_REPLAY,
	 "x",
	 "Speed",
	 6},
	{{'}', '{'},
	 BIND_SPIKE,
	 "} {",
	 "a replay: to the next spike of the sort column, or the one before: a run of ticks "
	 "whose largest value among processes (cgroups under G) is more than twice the median "
	 "of that over the 20 ticks before (CPU%: and 1 point above it), shown at its highest "
	 "tick (any key stops the search)",
	 BAR_REPLAY,
	 "}",
	 "Spike",
	 6},
	{{KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END},
	 BIND_MOVE,
	 "Up Down PgUp PgDn Home End",
	 "move the selection; the order holds still for a few seconds, or until another key",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'\n', '\r', KEY_ENTER},
	 BIND_DETAIL,
	 "Enter",
	 "the selected row's detail view: charts of its metrics over the last 120 intervals "
	 "and its threads (Enter there watches the process alone, or shows a cgroup's "
	 "processes; Esc comes back)",
	 BAR_ALWAYS,
	 "Enter",
	 "Detail",
	 3},
	{{KEY_ESC},
	 BIND_ESCAPE,
	 "Esc",
	 "watch all processes again (or clear the filter)",
	 BAR_FOCUSED,
	 "Esc",
	 "All",
	 8},
	{{'d', 's'},
	 BIND_INTERVAL,
	 "d s",
	 "set the interval in seconds (0.1 to 3600; not in a replay)",
	 BAR_LIVE,
	 "d",
	 "Delay",
	 5},
	{{'u'}, BIND_USER, "u", "show one user's tasks", BAR_ALWAYS, "u", "User", 4},
	{{'H'}, BIND_THREADS, "H", "show or hide thread rows", BAR_ALWAYS, "H", "Threads", 3},
	{{'k', KEY_F(9)},
	 BIND_KILL,
	 "k F9",
	 "send a signal to the selected process (a menu, SIGTERM first, as htop; not in a "
	 "replay)",
	 BAR_LIVE,
	 "F9",
	 "Kill",
	 2},
	{{'G'},
	 BIND_CGROUPS,
	 "G",
	 "a row per cgroup (services, containers, pods), summed; again for processes",
	 BAR_ALWAYS,
	 "G",
	 "Cgroups",
	 1},
	{{'K'},
	 BIND_KERNEL,
	 "K",
	 "count kernel mode too, or user mode only",
	 BAR_ALWAYS,
	 "K",
	 "Kernel",
	 2},
	{{'p'}, BIND_WATCH_PID, "p", "watch a process by PID", BAR_UNFOCUSED, "p", "PID", 1},
	{{'W'},
	 BIND_SAVE,
	 "W",
	 "save the setup (interval, sort, pane, events, columns)",
	 BAR_ALWAYS,
	 "W",
	 "Save",
	 0},
	{{CTRL('l')}, BIND_REDRAW, "Ctrl-L", "redraw the screen", BAR_NEVER, NULL, NULL, 0},
	{{'q', KEY_F(10)}, BIND_QUIT, "q F10", "quit", BAR_ALWAYS, "F10", "Quit", 9},
};

/* A row's detail view: keys that mean the same as in the main view keep their action. */
static const struct binding detail_keys[] = {
	{{'h', '?', KEY_F(1)}, BIND_HELP, "h ? F1", "this help", BAR_ALWAYS, "F1", "Help", 9},
	{{KEY_ESC, KEY_LEFT, KEY_BACKSPACE},
	 BIND_BACK,
	 "Esc Left",
	 "back to the table",
	 BAR_ALWAYS,
	 "Esc",
	 "Back",
	 9},
	{{KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END},
	 BIND_MOVE,
	 "Up Down PgUp PgDn",
	 "scroll the charts and threads",
	 BAR_ALWAYS,
	 "Up/Dn",
	 "Scroll",
	 5},
	{{'\n', '\r', KEY_ENTER},
	 BIND_WATCH_SEL,
	 "Enter",
	 "watch this process alone (Esc in the table watches all again)",
	 BAR_ALWAYS,
	 "Enter",
	 "Watch",
	 6},
	{{'p'}, BIND_WATCH_PID, "p", "watch a process by PID", BAR_NEVER, NULL, NULL, 0},
	{{'t'}, BIND_STEP_FWD, "t", "a replay: one tick forward", BAR_REPLAY, "t", "Step", 8},
	{{'T'}, BIND_STEP_BACK, "T", "a replay: one tick back", BAR_REPLAY, "T", "Back", 8},
	{{'b'}, BIND_JUMP, "b", "a replay: jump to a time", BAR_REPLAY, "b", "Jump", 6},
	{{'x'}, BIND_SPEED, "x", "a replay: the play speed", BAR_REPLAY, "x", "Speed", 5},
	{{'}', '{'},
	 BIND_SPIKE,
	 "} {",
	 "a replay: the next spike, or the one before",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{' '}, BIND_PAUSE, "Space", "pause / resume", BAR_ALWAYS, "Spc", "Pause", 7},
	{{CTRL('l')}, BIND_REDRAW, "Ctrl-L", "redraw the screen", BAR_NEVER, NULL, NULL, 0},
	{{'q', KEY_F(10)}, BIND_QUIT, "q F10", "quit", BAR_ALWAYS, "F10", "Quit", 9},
};

/* The keys every view of the events setup shares. */
static const struct binding setup_keys[] = {
	{{'/', KEY_F(3)},
	 BIND_SEARCH,
	 "/ F3",
	 "search events by name or description, as you type (from the PMU list: every "
	 "PMU's); Esc clears the search",
	 BAR_BROWSING,
	 "/",
	 "Search",
	 8},
	{{'m'},
	 BIND_METRIC,
	 "m",
	 "a derived column of the Events pane: A / B of two of your events in one group",
	 BAR_ALWAYS,
	 "m",
	 "Column",
	 5},
	{{':'},
	 BIND_SPEC,
	 ":",
	 "your events as text, any -e spec (perf syntax)",
	 BAR_ALWAYS,
	 ":",
	 "Spec",
	 6},
	{{'\t', KEY_RIGHT}, BIND_VIEW_NEXT, "Tab Right", "next view", BAR_ALWAYS, "Tab", "View", 6},
	{{KEY_BTAB, KEY_LEFT},
	 BIND_VIEW_PREV,
	 "Shift-Tab Left",
	 "previous view",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'1', '2', '3', '4'}, BIND_VIEW_N, "1 .. 4", "view by number", BAR_NEVER, NULL, NULL, 0},
	{{'W'},
	 BIND_SAVE,
	 "W",
	 "save the setup (interval, sort, pane, events, columns)",
	 BAR_ALWAYS,
	 "W",
	 "Save",
	 3},
	{{KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END},
	 BIND_MOVE,
	 "Up Down PgUp PgDn Home End",
	 "move the selection",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{KEY_ESC, 'q'},
	 BIND_BACK,
	 "Esc q",
	 "clear the search, else back to the table",
	 BAR_ALWAYS,
	 "Esc",
	 "Back",
	 9},
	{{KEY_F(10)}, BIND_QUIT, "F10", "quit", BAR_NEVER, NULL, NULL, 0},
};

static const struct binding pmus_keys[] = {
	{{'\n', '\r', KEY_ENTER},
	 BIND_OPEN_PMU,
	 "Enter",
	 "list the selected PMU's events",
	 BAR_ALWAYS,
	 "Enter",
	 "Events",
	 9},
	{{'a'},
	 BIND_ALL_PMUS,
	 "a",
	 "list the PMUs libpfm4 knows but this machine lacks too, or again only those it has",
	 BAR_ALWAYS,
	 "a",
	 "AllPMUs",
	 7},
};

static const struct binding events_keys[] = {
	{{'\n', '\r', KEY_ENTER},
	 BIND_ADD,
	 "Enter",
	 "add the selected event as a group of its own",
	 BAR_ALWAYS,
	 "Enter",
	 "Add",
	 9},
	{{'g'},
	 BIND_ADD_GROUP,
	 "g",
	 "add it into one of your groups (a pick list)",
	 BAR_ALWAYS,
	 "g",
	 "AddToGroup",
	 7},
};

static const struct binding mine_keys[] = {
	{{'x', KEY_DC},
	 BIND_REMOVE,
	 "x Del",
	 "remove the selected event, group or derived column",
	 BAR_ALWAYS,
	 "x",
	 "Remove",
	 9},
	{{'g'},
	 BIND_REGROUP,
	 "g",
	 "move the selected event into another group (a pick list)",
	 BAR_ALWAYS,
	 "g",
	 "Regroup",
	 8},
};

static const struct binding columns_keys[] = {
	{{' ', '\n', '\r', KEY_ENTER},
	 BIND_COL_TOGGLE,
	 "Space Enter",
	 "show or hide the selected column (a pane shows one at least)",
	 BAR_ALWAYS,
	 "Spc",
	 "Show/Hide",
	 9},
	{{'[', ']'},
	 BIND_COL_MOVE,
	 "[ ]",
	 "move the selected column left or right among those shown",
	 BAR_ALWAYS,
	 "[ ]",
	 "Move",
	 8},
};

static const struct binding dialog_keys[] = {
	{{KEY_UP, KEY_DOWN, '\t', KEY_BTAB},
	 BIND_FIELD,
	 "Up Down Tab",
	 "the previous or next field",
	 BAR_ALWAYS,
	 "Up/Dn",
	 "Field",
	 5},
	{{KEY_LEFT, KEY_RIGHT, ' '},
	 BIND_CHOOSE,
	 "Left Right Space",
	 "choose event A, event B and the kind (ratio, percent, per 1000)",
	 BAR_ALWAYS,
	 "Lt/Rt",
	 "Choose",
	 6},
	{{KEY_BACKSPACE, 127, CTRL('h'), CTRL('u')},
	 BIND_EDIT,
	 "Backspace Ctrl-U",
	 "the name (typed): delete a character, or all of it",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'\n', '\r', KEY_ENTER},
	 BIND_PICK,
	 "Enter",
	 "add the column; refused, with the reason, when A and B are not in one group",
	 BAR_ALWAYS,
	 "Enter",
	 "Add",
	 9},
	{{KEY_ESC}, BIND_CANCEL, "Esc", "cancel", BAR_ALWAYS, "Esc", "Cancel", 9},
};

static const struct binding menu_keys[] = {
	{{KEY_UP, KEY_DOWN, KEY_HOME, KEY_END},
	 BIND_MOVE,
	 "Up Down Home End",
	 "move through the list",
	 BAR_ALWAYS,
	 "Up/Dn",
	 "Move",
	 5},
	{{'\n', '\r', KEY_ENTER},
	 BIND_PICK,
	 "Enter",
	 "take the selected item",
	 BAR_ALWAYS,
	 "Enter",
	 "Select",
	 9},
	{{KEY_ESC, 'q'},
	 BIND_CANCEL,
	 "Esc q",
	 "close the list, taking nothing",
	 BAR_ALWAYS,
	 "Esc",
	 "Cancel",
	 9},
};

static const struct binding help_keys[] = {
	{{KEY_ESC, 'h', '?', KEY_F(1)},
	 BIND_BACK,
	 "Esc h ? F1",
	 "back (so does any key without a use here)",
	 BAR_ALWAYS,
	 "Esc",
	 "Back",
	 9},
	{{KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, ' ', KEY_HOME, KEY_END},
	 BIND_MOVE,
	 "Up Down PgUp PgDn Space Home End",
	 "scroll this help",
	 BAR_ALWAYS,
	 "Up/Dn",
	 "Scroll",
	 5},
	{{'q'}, BIND_BACK, "q", "back, as in htop", BAR_ALWAYS, "q", "Back", 9},
	{{KEY_F(10)}, BIND_QUIT, "F10", "quit", BAR_NEVER, NULL, NULL, 0},
};

#define TABLE(t) t, sizeof(t) / sizeof(t[0])

static const struct {
	const struct binding *b;
	size_t n;
	enum bind_mode parent;
	const char *title;
} modes[BIND_MODES] = {
	[BIND_MODE_MAIN] = {TABLE(main_keys), BIND_MODES, "Keys"},
	[BIND_MODE_DETAIL] = {TABLE(detail_keys), BIND_MODES,
			      "Keys in a row's detail view (Enter)"},
	[BIND_MODE_SETUP] = {TABLE(setup_keys), BIND_MODES,
			     "Keys in the events setup (e, F2), in every view"},
	[BIND_MODE_SETUP_PMUS] = {TABLE(pmus_keys), BIND_MODE_SETUP,
				  "Keys in the events setup's PMU list"},
	[BIND_MODE_SETUP_EVENTS] = {TABLE(events_keys), BIND_MODE_SETUP,
				    "Keys in the events setup's event list"},
	[BIND_MODE_SETUP_MINE] = {TABLE(mine_keys), BIND_MODE_SETUP,
				  "Keys in the events setup's Your events"},
	[BIND_MODE_SETUP_COLUMNS] = {TABLE(columns_keys), BIND_MODE_SETUP,
				     "Keys in the column chooser (the events setup's Columns)"},
	[BIND_MODE_DIALOG] = {TABLE(dialog_keys), BIND_MODES,
			      "Keys in the derived-column dialog (m in the events setup)"},
	[BIND_MODE_MENU] = {TABLE(menu_keys), BIND_MODES, "Keys in a pick list (F6, u, k, g)"},
	[BIND_MODE_HELP] = {TABLE(help_keys), BIND_MODES, "Keys in this help"},
};

static const struct binding *find(const struct binding *t, size_t n, int key)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < BIND_KEYS && t[i].keys[k]; k++)
			if (t[i].keys[k] == key)
				return &t[i];
	return NULL;
}

const struct binding *bindings_table(enum bind_mode mode, size_t *n)
{
	*n = mode < BIND_MODES ? modes[mode].n : 0;
	return mode < BIND_MODES ? modes[mode].b : NULL;
}

enum bind_mode bindings_parent(enum bind_mode mode)
{
	return mode < BIND_MODES ? modes[mode].parent : BIND_MODES;
}

const char *bindings_title(enum bind_mode mode)
{
	return mode < BIND_MODES ? modes[mode].title : "";
}

const struct binding *bindings_find(enum bind_mode mode, int key)
{
	for (; mode < BIND_MODES; mode = modes[mode].parent) {
		const struct binding *b = find(modes[mode].b, modes[mode].n, key);
		if (b)
			return b;
	}
	return NULL;
}

/* The help screen's words for the keys are the names hints use too. */
void bindings_key_name(enum bind_mode mode, enum bind_act act, int i, char *buf, size_t len)
{
	snprintf(buf, len, "?");
	for (; mode < BIND_MODES; mode = modes[mode].parent)
		for (size_t k = 0; k < modes[mode].n; k++) {
			const char *s = modes[mode].b[k].help_keys;
			if (modes[mode].b[k].act != act || !s)
				continue;
			for (; i > 0 && *s; i--)
				s += strcspn(s, " ") + strspn(s + strcspn(s, " "), " ");
			if (*s)
				snprintf(buf, len, "%.*s", (int)strcspn(s, " "), s);
			return;
		}
}
