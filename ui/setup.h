/* The events setup screen (e, F2): three views, the PMU browser, the event browser with
 * its incremental search, and the user's own events and derived columns; with a spec
 * line, a group pick list and the derived-column dialog over them. State and drawing
 * here, keys in setupkeys.c. */
#ifndef PMUTOP_SETUP_H
#define PMUTOP_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "bindings.h"
#include "menu.h"
#include "metricdlg.h"
#include "prompt.h"
#include "scroll.h"
#include "userev.h"
#include "uspec.h"

struct ui;

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
	int pmu; /* catalogue PMU row the event list shows; -1: all */
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
};

/* Open on the PMU browser. */
void setup_open(struct ui *u);
void setup_free(struct setup *s);
/* The spec in force changed (ui_set_user_spec): split it again. */
void setup_spec_changed(struct ui *u);
/* The catalogue changed: forget the hits. */
void setup_catalog_changed(struct ui *u);
/* Search again if the search or the PMU changed. */
void setup_refresh_hits(struct ui *u);
/* The lists' lengths from the catalogue, the hits and the spec, before keys move in
 * them. */
void setup_sync(struct ui *u);
/* What the "Your events" list shows: the spec in force, the metrics and the model. */
struct userev_view setup_userev_view(const struct ui *u);
void setup_draw(struct ui *u);
/* The key table in force: the view's, or the pick list's or the dialog's over it. */
enum bind_mode setup_bind_mode(const struct setup *s);

#endif
