/* The state behind struct ui: the private header of one module, the screen, made of
 * ui.c (lifecycle), layout.c (composing the screen), keys.c (key dispatch) and rowkeys.c
 * (the keys that act on rows). Nothing else includes it: widgets, the detail view and
 * the events setup get what they show as arguments and hand back what a key asks for. */
#ifndef PMUTOP_UISTATE_H
#define PMUTOP_UISTATE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "columns.h"
#include "curs.h"
#include "detail.h"
#include "menu.h"
#include "prompt.h"
#include "rows.h"
#include "tree.h"
#include "setup.h"
#include "inputdec.h"
#include "ui.h"
#include "uspec.h"

#define UI_MAX_PANES 16
#define UI_FREEZE_SECONDS 3.0  /* the order holds still this long after a move */
#define UI_MESSAGE_SECONDS 5.0 /* ui_message's line stays this long, or until a key */

enum ui_mode { MODE_MAIN, MODE_HELP, MODE_PROMPT, MODE_MENU, MODE_SETUP, MODE_DETAIL };
enum ui_ask { ASK_FILTER, ASK_INTERVAL, ASK_PID, ASK_TIME, ASK_SEARCH };

#define UI_MAX_TAGS 256
enum ui_pick { PICK_SORT, PICK_USER, PICK_SIGNAL, PICK_AFFINITY };

/* Each pane keeps its own sort, by names: panes are rebuilt (a THR column comes and
 * goes with thread rows) and indices would drift. */
struct pane_sort {
	char pane[32];
	char col[32]; /* column name; "" until chosen: the pane's default */
	bool descending;
};

struct ui {
	SCREEN *scr;
	FILE *in, *out;
	FILE *own_in;	  /* stdin's terminal opened again without blocking, or NULL */
	struct indec dec; /* the bytes read, decoded into keys and mouse reports */
	MEVENT mev;	  /* a mouse report decoded, for keys_handle's KEY_MOUSE */
	bool have_mev;
	bool mouse;	 /* clicks and the wheel asked for (not --no-mouse) */
	bool fixed_size; /* tests: cols/lines given, no terminal to ask */
	bool ended;	 /* endwin() done (suspended or freed) */

	const struct model *m;
	const struct history *hist; /* NULL: no trends, no charts */
	struct detail detail;	    /* MODE_DETAIL: whose */
	const struct pane *panes;   /* own_panes, in screen order */
	struct pane own_panes[UI_MAX_PANES];
	struct pane full_panes[UI_MAX_PANES]; /* the same with every column they can show */
	struct {
		char pane[32];
		char list[512];
	} colsel[UI_MAX_PANES]; /* the column chooser's choices, by pane name */
	unsigned ncolsel;
	unsigned npanes;
	unsigned pane;	    /* active pane */
	char pane_name[32]; /* the active pane by name, to find it in rebuilt panes */
	char want_pane[32]; /* switch to this pane when it appears ("Events", once the
			       user's first events are counted); "" none */
	char back_pane[32]; /* the pane before that switch: where to go when the pane
			       shown goes away (the user removed all their events) */
	struct pane_sort sort[UI_MAX_PANES];
	unsigned nsort;
	char want_sort[32]; /* from the options: the first sort of every pane */
	bool want_reverse;
	bool opts_checked; /* --pane and --sort said when not shown, the first sort checked */
	char opt_pane[32]; /* --pane as given */

	struct rows rows;
	double freeze_until; /* CLOCK_MONOTONIC seconds; 0: not frozen */

	char filter[PROMPT_MAX];
	char search[PROMPT_MAX]; /* /: the last search (n, N, F3 go on with it) */
	/* Space: the tagged tasks, each by its id (the pid, a thread row's tid) and start
	 * time (0 unknown), so that an id reused meanwhile gets nothing. */
	pid_t tag_ids[UI_MAX_TAGS];
	unsigned long long tag_starts[UI_MAX_TAGS];
	unsigned ntags;
	pid_t follow;		 /* F: the task the selection stays on through re-sorts, 0 none */
	struct rowid follow_row; /* and its row */
	int hscroll;		 /* Ctrl-F: characters of COMMAND scrolled off to the left */
	bool have_uid;
	uid_t uid;
	bool hide_kthreads, hide_exited; /* X, E */
	pid_t focus;			 /* watched process, 0: all */
	char cgroup[512];    /* processes of this cgroup only (Enter on a cgroup row), or "" */
	char *collapsed[32]; /* cgroup rows folded with - (their paths, heap) */
	unsigned ncollapsed;
	bool tree;	  /* t, F5: processes under their parents */
	pid_t folded[64]; /* the tree's folded processes (-) */
	unsigned nfolded;
	struct tree_view tv;	       /* the tree's depths and folded sums */
	bool paused;		       /* as last asked, until the model says */
	char replay[256];	       /* a replay's header fields; "" on the live screen */
	char no_act[256];	       /* k, F7, F8, a refused, in one line; "": taken */
	char rec[640];		       /* -w: "SIZE\tPATH" for the header, else "" */
	bool cmdline;		       /* c: COMMAND shows the arguments */
	int meter_mode;		       /* M: what the CPU meters show (enum meter_mode) */
	unsigned meter_cpus;	       /* CPU rows the last model had (0: none yet) */
	int table_y, table_h, table_w; /* where the table was drawn (titles at table_y) */

	enum ui_mode mode;
	enum ui_ask ask;
	struct prompt prompt;
	enum ui_pick pick;
	pid_t kill_pid; /* PICK_SIGNAL: the process and its start time */
	unsigned long long kill_start;
	struct menu menu;
	/* PICK_AFFINITY (affinity.c): the process, its start time, its CPUs as the menu
	 * lists them, which are marked, and those chosen (the command's) */
	pid_t aff_pid;
	unsigned long long aff_start;
	int aff_cpu[MENU_MAX], aff_chosen[MENU_MAX];
	bool aff_on[MENU_MAX];
	unsigned aff_n;
	int help_top;
	int page;	  /* table rows last drawn: PgUp/PgDn step */
	char msg[256];	  /* one-line message on the key bar, until the next key */
	double msg_until; /* and until then (CLOCK_MONOTONIC seconds); 0: no limit */

	/* The events setup screen and what it edits. */
	const struct catalog *cat;
	struct setup setup;
	char spec[USPEC_TEXT];			      /* the user's event spec in force */
	struct user_metric metrics[USER_METRICS_MAX]; /* in force */
	unsigned nmetrics;
};

/* Re-read the rows from the model; resort false keeps their order (while frozen). */
void ui_refresh_rows(struct ui *u, bool resort);
double ui_now(void);
const struct pane *ui_pane(const struct ui *u);
/* The active pane's sort; the column is an index into ui_pane()'s columns or -1. */
struct pane_sort *ui_sort(struct ui *u, int *col);
void ui_switch_pane(struct ui *u, unsigned pane);
/* What the events setup shows and edits now. */
struct setup_in ui_setup_in(const struct ui *u);

#endif
