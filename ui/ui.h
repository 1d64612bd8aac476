/* The live screen: curses only. Reads a const view of the model and turns keys into
 * commands for main.c; owns no counters. */
#ifndef PMUTOP_UI_H
#define PMUTOP_UI_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "columns.h"
#include "model.h"

struct ui;
struct catalog;
struct history;

struct ui_opts {
	bool color;	   /* false with --no-color; NO_COLOR (not empty), TERM=dumb and
			      terminals without colours need no telling */
	const char *pane;  /* initial pane name, or NULL */
	bool pane_default; /* pane is pmutop's choice, not --pane's: not said when not shown */
	const char *sort;  /* initial sort column name, or NULL */
	bool reverse;
	FILE *in, *out;	  /* NULL: the controlling terminal (stdin/stdout). Tests pass
			     their own streams to render off-screen. */
	const char *term; /* NULL: $TERM */
	int cols, lines;  /* 0: the terminal's size (tests set them) */
	bool no_mouse;	  /* --no-mouse: leave the mouse to the terminal */
};

enum ui_cmd_kind {
	UI_NONE = 0,
	UI_QUIT,
	UI_REDRAW,	 /* screen state changed: draw again */
	UI_SET_INTERVAL, /* .interval */
	UI_TOGGLE_PAUSE,
	UI_TOGGLE_THREADS,
	UI_TOGGLE_CGROUPS,
	UI_SIGNAL, /* send sig to pid, if it is still the process that started at start */
	UI_TOGGLE_KERNEL,
	UI_FOCUS_PID, /* .pid */
	UI_UNFOCUS,
	UI_SET_EVENTS,	   /* .spec: count these user events (perf -e syntax; "" none) */
	UI_SET_METRICS,	   /* .metrics, .nmetrics: the user's derived columns */
	UI_SAVE_CONFIG,	   /* write the setup file */
	UI_TOGGLE_CMDLINE, /* c: COMMAND shows the arguments (or the name again) */
	UI_SET_COLUMNS,	   /* the column chooser: pane .spec shows .columns ("" default) */
	UI_STEP,	   /* a replay: one tick forward (.step 1) or back (-1) */
	UI_JUMP,	   /* a replay: to the time typed (.spec) */
	UI_SHOW_OUTPUT,	   /* o: the watched command's last lines */
	UI_RENICE,	   /* F7/F8: nice + .step for .pids (each if it still started at
			      .starts[i]) */
	UI_SPEED,	   /* a replay: the next play speed (x) */
	UI_SPIKE,	   /* a replay: to the next spike (.step 1) or the one before (-1) */
	UI_AFFINITY_ASK,   /* a: .pid's CPUs, for ui_affinity_open (if it started at .start) */
	UI_AFFINITY,	   /* run .pid and its threads on .cpus (if it started at .start) */
};

struct ui_cmd {
	enum ui_cmd_kind kind;
	double interval;
	pid_t pid;
	int sig;		  /* UI_SIGNAL: the signal for pid */
	int step;		  /* UI_STEP, UI_SPIKE */
	const char *columns;	  /* UI_SET_COLUMNS */
	unsigned long long start; /* UI_SIGNAL: pid's start time when it was picked */
	/* UI_SIGNAL, UI_RENICE: every process it is for (the tagged ones, or pid alone), each
	 * with its start time as the model had it (0 unknown); UI-owned as spec is. */
	const pid_t *pids;
	const unsigned long long *starts;
	unsigned npids;
	const int *cpus; /* UI_AFFINITY: the CPUs chosen, UI-owned */
	unsigned ncpus;
	/* UI-owned, valid until the next ui_* call: */
	const char *spec;
	const struct user_metric *metrics;
	unsigned nmetrics;
};

/* Set up the terminal. Returns NULL (and leaves the terminal as it was) when it cannot;
 * err gets one line saying why. */
struct ui *ui_new(const struct ui_opts *o, char *err, size_t errlen);
/* Restore the terminal. Safe to call twice, and with NULL. */
void ui_free(struct ui *u);

/* Give the UI the model to show (valid until the next call) and its panes. */
void ui_set_model(struct ui *u, const struct model *m, const struct pane *panes, unsigned npanes);
void ui_draw(struct ui *u);
/* The rows' history (a sink main.c feeds at each tick), read for the TREND column and
 * the detail view; NULL: neither shows. Not owned. */
void ui_set_history(struct ui *u, const struct history *h);
/* The column the active pane is sorted by (the trend it draws), or NULL. */
const struct column *ui_sort_column(struct ui *u);
/* The tree view's folded rows, each its process summed with its descendants
 * (mrow.subtree), as last drawn: n of them, valid until the rows are made again. */
const struct mrow *ui_subtree_rows(const struct ui *u, unsigned *n);

/* The PMUs and events the browsers list (not owned; must outlive the UI or be replaced).
 * NULL: the browsers say there is no catalogue, and the spec line still works. */
void ui_set_catalog(struct ui *u, const struct catalog *c);
/* The user's event spec in force (perf -e syntax, "" or NULL: none): at start, and after
 * every UI_SET_EVENTS, whether it was applied or not. The UI edits from it. */
void ui_set_user_spec(struct ui *u, const char *spec);
/* The user's derived columns in force: at start and after every UI_SET_METRICS. */
void ui_set_metrics(struct ui *u, const struct user_metric *m, unsigned n);
/* One line on the bottom line for a few seconds or until a key (errors, the saved
 * file's path). Sanitised here. */
void ui_message(struct ui *u, const char *text);
/* a: the CPU dialog for pid (which started at start), its n CPUs each marked when on[i]
 * (its affinity now), as the app read them for UI_AFFINITY_ASK. */
void ui_affinity_open(struct ui *u, pid_t pid, unsigned long long start, const int *cpus,
		      const bool *on, unsigned n);
/* The events sent (UI_SET_EVENTS) were refused, for why: said, and a spec typed at the
 * events setup's spec line is shown there again as typed. */
void ui_events_refused(struct ui *u, const char *why);
/* The pid sent (UI_FOCUS_PID) cannot be focused on, for why (a thread's id): said, and
 * the view is the whole list again. */
void ui_focus_refused(struct ui *u, const char *why);

/* Which columns pane shows, in order (pane_select's list; NULL or "": its default).
 * From the setup file at start; the column chooser changes it. */
void ui_set_columns(struct ui *u, const char *pane, const char *list);
/* The list in force for pane ("" when it shows its default). */
const char *ui_columns(const struct ui *u, const char *pane);

/* -w: the header says REC, how big the recording is (its file and WAL) and where;
 * NULL path: not recording. */
void ui_set_recording(struct ui *u, const char *path, long long bytes);
/* A replay (-r): the header's REPLAY field (the tick's recorded time), and t, T and b
 * step and jump. Up to four parts separated by tabs: the field, its short form for a
 * narrow screen, the recording's time range and its short form. NULL: the live screen.
 * A field that begins "PLAY " says it plays (the key bar offers Z to stop). */
void ui_set_replay(struct ui *u, const char *text);

/* k, F7, F8 and a (kill, renice, affinity) answer line and open no dialog (a source
 * whose rows are not this machine's processes); NULL or "": they act. */
void ui_refuse_acts(struct ui *u, const char *line);

/* What W saves of the screen: the active pane's name, its sort column's name ("" for
 * the pane's default) and whether that sort runs against the column's natural
 * direction (the setup file's reverse). */
void ui_view(struct ui *u, char *pane, size_t plen, char *sort, size_t slen, bool *reverse);

/* Read one pending key (non-blocking) and act on it; engine-side actions come back in
 * cmd. Returns 1 if a key was handled, 0 if none was pending. */
int ui_input(struct ui *u, struct ui_cmd *cmd);

/* After SIGWINCH. */
void ui_resize(struct ui *u);
/* Around SIGTSTP/SIGCONT: leave and re-enter curses mode. */
void ui_suspend(struct ui *u);
void ui_resume(struct ui *u);

/* Tests: the visible screen as text, lines separated by '\n'. */
void ui_screen_text(struct ui *u, char *buf, size_t len);

/* Act on key (a curses key code: 'q', KEY_F(6), ...) as if ui_input had read it: the
 * same handler, for tests and for callers that read keys themselves. Returns 1. */
int ui_feed_key(struct ui *u, int key, struct ui_cmd *cmd);

/* Tests: lay out for a fixed size (as after a resize to cols x lines) and draw. */
void ui_set_size(struct ui *u, int cols, int lines);

/* Fatal paths (an error exit, atexit): leave curses mode if a screen is up, without
 * freeing anything, so that the message that follows is readable. */
void ui_restore_terminal(void);

#endif
