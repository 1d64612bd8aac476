/* The main view's key bindings, declared once (as tmux's key-bindings.c does): the key
 * dispatch (keys.c), the key bar (keybar.c) and the help screen (help.c) all read this
 * table, so a key can never work one way and be described another. */
#ifndef PMUTOP_BINDINGS_H
#define PMUTOP_BINDINGS_H

#include <stdbool.h>
#include <stddef.h>

enum bind_act {
	BIND_NONE,
	BIND_MOVE, /* move the selection (the key says how) */
	BIND_PANE_NEXT,
	BIND_PANE_PREV,
	BIND_PANE_N, /* 1 .. 9 */
	BIND_SORT_PREV,
	BIND_SORT_NEXT,
	BIND_SORT_MENU,
	BIND_REVERSE,
	BIND_DETAIL,	/* Enter: the selected row's detail view */
	BIND_WATCH_SEL, /* the detail view's Enter */
	BIND_WATCH_PID, /* p */
	BIND_ESCAPE,
	BIND_FILTER,
	BIND_USER,
	BIND_THREADS,
	BIND_CGROUPS,
	BIND_KILL,
	BIND_KERNEL,
	BIND_PAUSE,
	BIND_EVENTS,
	BIND_SAVE,
	BIND_INTERVAL,
	BIND_REDRAW,
	BIND_HELP,
	BIND_QUIT,
	BIND_CMDLINE,  /* c */
	BIND_TREE,     /* F5 (and t on the live screen) */
	BIND_METERS,   /* M */
	BIND_FOLD,     /* - on a cgroup row */
	BIND_UNFOLD,   /* + */
	BIND_STEP_FWD, /* a replay: t */
	BIND_STEP_BACK,
	BIND_JUMP,
	BIND_BACK, /* the detail view's Esc */
};

/* When a key shows on the key bar. */
enum bind_bar { BAR_NEVER, BAR_ALWAYS, BAR_FOCUSED, BAR_UNFOCUSED };

#define BIND_KEYS 6

struct binding {
	int keys[BIND_KEYS]; /* what dispatches it, 0-terminated */
	enum bind_act act;
	const char *help_keys; /* as the help screen lists them ("/ F4") */
	const char *help;      /* what it does, for the help screen */
	enum bind_bar bar;
	const char *bar_key; /* its key bar entry ("F4" "Filter"), with bar */
	const char *bar_label;
	int keep; /* key bar: higher stays longer on a narrow screen */
};

/* The main view's bindings, in the order the help screen lists them. */
const struct binding *bindings_main(size_t *n);
/* The binding key dispatches to in the main view, or NULL. */
const struct binding *bindings_find(int key);
/* The same for a row's detail view (Enter). */
const struct binding *bindings_detail(size_t *n);
const struct binding *bindings_find_detail(int key);

#endif
