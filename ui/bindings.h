/* Every key binding of every mode, declared once (as tmux's key-bindings.c does): each
 * mode's key dispatch, the key bar (keybar.c) and the help screen (help.c) all read these
 * tables, so a key can never work one way and be described another. */
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
	BIND_HIDE_KTHREADS, /* X: htop's K (K counts kernel mode here) */
	BIND_HIDE_EXITED,   /* E */
	BIND_AFFINITY,	    /* a */
	BIND_MARK,	    /* the CPU dialog's Space */
	BIND_PAUSE,
	BIND_EVENTS,
	BIND_SAVE,
	BIND_INTERVAL,
	BIND_REDRAW,
	BIND_HELP,
	BIND_QUIT,
	BIND_CMDLINE,  /* c */
	BIND_OUTPUT,   /* o: the watched command's output */
	BIND_TREE,     /* F5 (and t on the live screen) */
	BIND_METERS,   /* M */
	BIND_FOLD,     /* - on a cgroup row */
	BIND_UNFOLD,   /* + */
	BIND_STEP_FWD, /* a replay: t */
	BIND_STEP_BACK,
	BIND_JUMP,
	BIND_SPEED, /* a replay: x */
	BIND_SPIKE, /* a replay: } the next spike, { the one before */
	BIND_BACK,  /* the detail view's, the help's and the events setup's Esc */
	/* A pick list's and the derived-column dialog's. */
	BIND_PICK,
	BIND_CANCEL,
	BIND_FIELD,  /* the dialog: the next or previous field (the key says which) */
	BIND_CHOOSE, /* the dialog: the next or previous choice */
	BIND_EDIT,   /* the dialog: edit the name */
	/* The events setup's. */
	BIND_VIEW_NEXT,
	BIND_VIEW_PREV,
	BIND_VIEW_N, /* 1 .. 4 */
	BIND_SEARCH,
	BIND_SPEC,
	BIND_METRIC,
	BIND_OPEN_PMU,
	BIND_ALL_PMUS, /* the PMU list: those absent here too, or not */
	BIND_ADD,
	BIND_ADD_GROUP,
	BIND_REMOVE,
	BIND_REGROUP,
	BIND_COL_TOGGLE,
	BIND_COL_MOVE, /* [ left, ] right */
	/* The main view's, as htop has them. */
	BIND_SEARCH_NEXT, /* n F3: the next row that matches the search */
	BIND_SEARCH_PREV, /* N Shift-F3 */
	BIND_TAG,	  /* Space */
	BIND_UNTAG,	  /* U */
	BIND_FOLLOW,	  /* F */
	BIND_QUICK_SORT,  /* P M (T live): by CPU%, RES (TIME+) */
	BIND_NICE,	  /* F7 nice -1, F8 nice +1 */
	BIND_HSCROLL,	  /* Ctrl-F Ctrl-B Ctrl-A: the command column sideways */
};

/* The key tables. A setup view's table is looked up before the one all views share. */
enum bind_mode {
	BIND_MODE_MAIN,
	BIND_MODE_DETAIL,
	BIND_MODE_SETUP, /* every view of the events setup */
	BIND_MODE_SETUP_PMUS,
	BIND_MODE_SETUP_EVENTS,
	BIND_MODE_SETUP_MINE,
	BIND_MODE_SETUP_COLUMNS,
	BIND_MODE_DIALOG, /* the derived-column dialog */
	BIND_MODE_MENU,	  /* a pick list */
	BIND_MODE_HELP,
	BIND_MODES
};

/* When a key shows on the key bar: BAR_FOCUSED while a process is watched, BAR_BROWSING
 * in the events setup's PMU and event lists only. BAR_LIVE keys are the live screen's
 * only (a replay neither shows them nor opens their dialogs), BAR_REPLAY a replay's. */
enum bind_bar {
	BAR_NEVER,
	BAR_ALWAYS,
	BAR_FOCUSED,
	BAR_UNFOCUSED,
	BAR_BROWSING,
	BAR_LIVE,
	BAR_REPLAY
};

#define BIND_KEYS 8

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

/* A mode's own bindings, in the order of its key bar and the help screen. */
const struct binding *bindings_table(enum bind_mode mode, size_t *n);
/* The table looked up after mode's (a setup view's: the one all views share), or
 * BIND_MODES for none. */
enum bind_mode bindings_parent(enum bind_mode mode);
/* The help screen's heading over mode's keys. */
const char *bindings_title(enum bind_mode mode);
/* The binding key dispatches to in mode (or its parent), or NULL. */
const struct binding *bindings_find(enum bind_mode mode, int key);
/* What the help screen calls the i-th key of act's binding in mode ("Space", "Enter", "["),
 * for hints that name a key; "?" when there is none. */
void bindings_key_name(enum bind_mode mode, enum bind_act act, int i, char *buf, size_t len);

#endif
