/* The events setup screen (e, F2): four views, the PMU browser, the event browser with
 * its incremental search, the user's own events and derived columns, and the column
 * chooser; with a spec line, a group pick list and the derived-column dialog over them.
 * It keeps its own state and reads what it shows from struct setup_in, which the UI
 * fills; what a key asks of the UI comes back as struct setup_res. State and drawing
 * here, keys in setupkeys.c. */
#ifndef PMUTOP_SETUP_H
#define PMUTOP_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "bindings.h"
#include "columns.h"
#include "menu.h"
#include "metricdlg.h"
#include "model.h"
#include "prompt.h"
#include "scroll.h"
#include "userev.h"
#include "uspec.h"

struct catalog;

enum setup_view { SETUP_PMUS, SETUP_EVENTS, SETUP_MINE, SETUP_COLUMNS, SETUP_VIEWS };

/* What is open over the view. */
enum setup_sub {
	SUB_NONE,
	SUB_SEARCH, /* the search line: the event list follows each keystroke */
	SUB_SPEC,   /* the spec line: any -e spec, returned as typed */
	SUB_GROUP,  /* the group pick list, to add or move an event */
	SUB_METRIC, /* the derived-column dialog */
};

struct setup {
	enum setup_view view;
	enum setup_sub sub;
	struct scroll pmus, events, mine, cols;
	bool all_pmus; /* the PMU browser lists those absent here too (a) */
	int pmu;       /* catalogue PMU row the event list shows; -1: all */
	char search[PROMPT_MAX];
	unsigned *hits; /* the event list: catalogue indices */
	size_t nhits, cap;
	bool stale;	   /* the search or the PMU changed: search again */
	struct uspec spec; /* the spec in force, split */
	bool split_ok;
	int moving;	      /* SUB_GROUP: member being moved, or -1: adding an event */
	struct prompt prompt; /* SUB_SEARCH, SUB_SPEC */
	bool spec_typed;      /* the last spec sent was typed at the spec line */
	struct menu menu;     /* SUB_GROUP */
	struct metricdlg dlg; /* SUB_METRIC */
	char msg[256];	      /* for the message line: what the last key has to say */
	/* What setup_res points to, valid until the next key. */
	char spec_out[USPEC_TEXT];
	struct user_metric metrics_out[USER_METRICS_MAX + 1];
	char columns_out[512];
};

/* What the setup shows and edits, from the UI at each call (none of it owned). */
struct setup_in {
	const struct catalog *cat; /* NULL: the browsers say there is none */
	const struct model *m;
	const char *spec; /* the user's spec in force ("": none) */
	const struct user_metric *metrics;
	unsigned nmetrics;
	const struct pane *shown; /* the active pane as shown, NULL: none */
	const struct pane *all;	  /* the same with every column it can show */
	bool paused;		  /* for the key bar */
	const char *msg;	  /* the message line's text, NULL: none now */
};

/* What a key asks of the UI. */
enum setup_cmd {
	SETUP_CMD_NONE,
	SETUP_CMD_QUIT,
	SETUP_CMD_SAVE,
	SETUP_CMD_EVENTS,  /* count .spec instead */
	SETUP_CMD_METRICS, /* the derived columns are .metrics */
	SETUP_CMD_COLUMNS, /* the active pane shows .columns */
};

struct setup_res {
	enum setup_cmd cmd;
	bool close;	  /* back to the table */
	bool events_pane; /* and to the Events pane when it is there */
	const char *spec;
	const struct user_metric *metrics;
	unsigned nmetrics;
	const char *columns;
	const char *msg; /* for the message line, or NULL */
};

void setup_init(struct setup *s);
/* Open on the PMU browser. */
void setup_open(struct setup *s);
void setup_free(struct setup *s);
/* The spec in force changed (ui_set_user_spec): split it again. */
void setup_spec_changed(struct setup *s, const char *spec);
/* The catalogue changed: forget the hits. */
void setup_catalog_changed(struct setup *s);
/* Events sent were refused: true when they were typed at the spec line, which is open
 * again over the setup with the text as typed. */
bool setup_refused(struct setup *s);
/* Search again if the search or the PMU changed (s->msg says when that failed). */
void setup_refresh_hits(struct setup *s, const struct catalog *cat);
/* The lists' lengths from the catalogue, the hits and the spec, before keys move in
 * them. */
void setup_sync(struct setup *s, const struct setup_in *in);
/* What the "Your events" list shows: the spec in force, the metrics and the model. */
struct userev_view setup_userev_view(const struct setup *s, const struct setup_in *in);
void setup_draw(struct setup *s, const struct setup_in *in);
/* The key table in force: the view's, or the pick list's or the dialog's over it. */
enum bind_mode setup_bind_mode(const struct setup *s);

#endif
