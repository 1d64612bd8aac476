/* The main view's key table. */
#include "bindings.h"

#include "curs.h"

#define CTRL(c) ((c)&0x1f)
#define KEY_ESC 27

/* In the order of the key bar and the help screen. */
static const struct binding table[] = {
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
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
	{{'T'}, BIND_STEP_BACK, "T", "a replay: one tick back", BAR_NEVER, NULL, NULL, 0},
	{{'b'},
	 BIND_JUMP,
	 "b",
	 "a replay: jump to a time (HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m from the end)",
	 BAR_NEVER,
	 NULL,
	 NULL,
	 0},
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
	 "set the interval in seconds (0.1 to 3600)",
	 BAR_ALWAYS,
	 "d",
	 "Delay",
	 5},
	{{'u'}, BIND_USER, "u", "show one user's tasks", BAR_ALWAYS, "u", "User", 4},
	{{'H'}, BIND_THREADS, "H", "show or hide thread rows", BAR_ALWAYS, "H", "Threads", 3},
	{{'k', KEY_F(9)},
	 BIND_KILL,
	 "k F9",
	 "send a signal to the selected process (a menu, SIGTERM first, as htop)",
	 BAR_ALWAYS,
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
static const struct binding detail[] = {
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
	{{' '}, BIND_PAUSE, "Space", "pause / resume", BAR_ALWAYS, "Spc", "Pause", 7},
	{{CTRL('l')}, BIND_REDRAW, "Ctrl-L", "redraw the screen", BAR_NEVER, NULL, NULL, 0},
	{{'q', KEY_F(10)}, BIND_QUIT, "q F10", "quit", BAR_ALWAYS, "F10", "Quit", 9},
};

static const struct binding *find(const struct binding *t, size_t n, int key)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < BIND_KEYS && t[i].keys[k]; k++)
			if (t[i].keys[k] == key)
				return &t[i];
	return NULL;
}

const struct binding *bindings_main(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct binding *bindings_find(int key)
{
	return find(table, sizeof(table) / sizeof(table[0]), key);
}

const struct binding *bindings_detail(size_t *n)
{
	*n = sizeof(detail) / sizeof(detail[0]);
	return detail;
}

const struct binding *bindings_find_detail(int key)
{
	return find(detail, sizeof(detail) / sizeof(detail[0]), key);
}
