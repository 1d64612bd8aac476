/* Keys of the events setup screen. Every change is made to a copy of the spec in force
 * and sent to main.c whole; what is shown stays the spec in force until main.c says
 * otherwise (ui_set_user_spec), so a change that fails never looks applied. Keys change
 * the setup's own state; what they ask of the UI comes back in struct setup_res. */
#include "setupkeys.h"

#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "catalog.h"
#include "colors.h"
#include "colpick.h"
#include "pmulist.h"
#include "text.h"
#include "userev.h"

static void send_spec_text(struct setup *s, struct setup_res *r, const char *text)
{
	s->spec_typed = false;
	snprintf(s->spec_out, sizeof(s->spec_out), "%s", text);
	r->cmd = SETUP_CMD_EVENTS;
	r->spec = s->spec_out;
}

static bool send_spec(struct setup *s, struct setup_res *r, const struct uspec *sp)
{
	char text[USPEC_TEXT];
	if (uspec_format(sp, text, sizeof(text))) {
		snprintf(s->msg, sizeof(s->msg),
			 "That would make the spec longer than %d bytes: "
			 "remove events first",
			 USPEC_TEXT - 1);
		return false;
	}
	send_spec_text(s, r, text);
	return true;
}

/* Back to the table, on the Events pane once main.c has built it. */
static void show_events_pane(struct setup_res *r)
{
	r->close = true;
	r->events_pane = true;
}

static const struct catalog_event *selected_event(struct setup *s, const struct setup_in *in)
{
	setup_refresh_hits(s, in->cat);
	if (s->view != SETUP_EVENTS || s->events.sel >= s->nhits)
		return NULL;
	return catalog_event(in->cat, s->hits[s->events.sel]);
}

/* Add the selected catalogue event to group g (< 0: a group of its own). */
static void add_event(struct setup *s, const struct setup_in *in, struct setup_res *r, int g)
{
	const struct catalog_event *e = selected_event(s, in);
	struct uspec sp;
	char name[64];
	if (!e)
		return;
	if (!s->split_ok) {
		/* A spec this screen cannot split still takes one more group at its end. */
		char text[USPEC_TEXT * 2];
		snprintf(text, sizeof(text), "%s%s%s", in->spec, *in->spec ? "," : "", e->name);
		if (strlen(text) >= USPEC_TEXT) {
			snprintf(s->msg, sizeof(s->msg), "The spec is full: remove events first");
			return;
		}
		send_spec_text(s, r, text);
	} else {
		sp = s->spec;
		if (uspec_add(&sp, e->name, g) || !send_spec(s, r, &sp)) {
			if (!*s->msg)
				snprintf(s->msg, sizeof(s->msg),
					 "Too many events: remove some first");
			return;
		}
	}
	text_sanitize(e->name, name, sizeof(name), colors_utf8());
	snprintf(s->msg, sizeof(s->msg),
		 "Adding %s: its column in the Events pane fills in "
		 "from the next tick",
		 name);
	show_events_pane(r);
}

static const struct userev_row *selected_row(struct setup *s, const struct setup_in *in,
					     struct userev_row *rows)
{
	struct userev_view v = setup_userev_view(s, in);
	unsigned n = userev_rows(&v, rows, USEREV_ROWS);
	return s->view == SETUP_MINE && s->mine.sel < n ? &rows[s->mine.sel] : NULL;
}

static void send_metrics(struct setup *s, struct setup_res *r, unsigned n)
{
	r->cmd = SETUP_CMD_METRICS;
	r->metrics = s->metrics_out;
	r->nmetrics = n;
}

static void remove_metric(struct setup *s, const struct setup_in *in, struct setup_res *r,
			  unsigned i)
{
	unsigned n = 0;
	for (unsigned k = 0; k < in->nmetrics; k++)
		if (k != i)
			s->metrics_out[n++] = in->metrics[k];
	send_metrics(s, r, n);
}

/* x, Delete: an event, a whole group, or a derived column. */
static void remove_selected(struct setup *s, const struct setup_in *in, struct setup_res *r)
{
	struct userev_row rows[USEREV_ROWS];
	const struct userev_row *row = selected_row(s, in, rows);
	struct uspec sp = s->spec;
	if (!row || row->kind == UREV_METRICS)
		return;
	if (row->kind == UREV_METRIC) {
		remove_metric(s, in, r, row->i);
		return;
	}
	if (row->kind == UREV_EVENT) {
		uspec_remove(&sp, row->i);
	} else {
		unsigned n, first = uspec_group_first(&sp, row->i, &n);
		while (n--)
			uspec_remove(&sp, first);
	}
	send_spec(s, r, &sp);
}

/* g: pick the group to add the selected event to, or to move the selected member to. */
static void pick_group(struct setup *s, const struct setup_in *in, struct setup_res *r)
{
	struct userev_row rows[USEREV_ROWS];
	if (!s->split_ok)
		return;
	if (s->view == SETUP_EVENTS) {
		if (!selected_event(s, in))
			return;
		if (s->spec.ng == 0) {
			add_event(s, in, r, -1); /* nothing to pick from */
			return;
		}
		s->moving = -1;
		userev_group_menu(&s->menu, &s->spec, "Add to group");
	} else {
		const struct userev_row *row = selected_row(s, in, rows);
		if (!row || row->kind != UREV_EVENT)
			return;
		s->moving = (int)row->i;
		userev_group_menu(&s->menu, &s->spec, "Move to group");
	}
	s->sub = SUB_GROUP;
}

static void group_key(struct setup *s, const struct setup_in *in, int key, struct setup_res *r)
{
	enum menu_res res = menu_key(&s->menu, key);
	if (res == MENU_STAY)
		return;
	s->sub = SUB_NONE;
	if (res == MENU_CANCEL)
		return;
	int g = (int)menu_value(&s->menu);
	if (s->moving < 0) {
		add_event(s, in, r, g);
		return;
	}
	struct uspec sp = s->spec;
	if (uspec_move(&sp, (unsigned)s->moving, g) == 0)
		send_spec(s, r, &sp);
}

static void open_metric(struct setup *s, const struct setup_in *in)
{
	if (in->nmetrics >= USER_METRICS_MAX) {
		snprintf(s->msg, sizeof(s->msg), "At most %d derived columns: remove one first (x)",
			 USER_METRICS_MAX);
		return;
	}
	if (!metricdlg_open(&s->dlg, in->m)) {
		snprintf(s->msg, sizeof(s->msg),
			 "No events of your own to divide yet: add two "
			 "in one group first");
		return;
	}
	s->sub = SUB_METRIC;
}

static void metric_key(struct setup *s, const struct setup_in *in, int key, struct setup_res *r)
{
	enum metricdlg_res res = metricdlg_key(&s->dlg, key);
	if (res == MDLG_CANCEL)
		s->sub = SUB_NONE;
	if (res != MDLG_DONE || !metricdlg_check(&s->dlg, in->m, in->metrics, in->nmetrics))
		return;
	if (in->nmetrics)
		memcpy(s->metrics_out, in->metrics, in->nmetrics * sizeof(in->metrics[0]));
	metricdlg_metric(&s->dlg, &s->metrics_out[in->nmetrics]);
	send_metrics(s, r, in->nmetrics + 1);
	s->sub = SUB_NONE;
	snprintf(s->msg, sizeof(s->msg), "Column %s goes into the Events pane", s->dlg.name);
}

static void open_search(struct setup *s)
{
	if (s->view != SETUP_EVENTS) {
		/* From the PMU list a search spans every PMU. */
		s->view = SETUP_EVENTS;
		s->pmu = -1;
		s->stale = true;
	}
	s->sub = SUB_SEARCH;
	prompt_open(&s->prompt, "Search:", s->search);
}

static void search_key(struct setup *s, int key)
{
	enum prompt_res r = prompt_key(&s->prompt, key);
	if (r == PROMPT_IGNORED) {
		scroll_key(&s->events, key); /* move through the hits while typing */
		return;
	}
	if (r == PROMPT_ACCEPT) {
		s->sub = SUB_NONE;
		return;
	}
	if (r == PROMPT_CANCEL)
		s->sub = SUB_NONE;
	snprintf(s->search, sizeof(s->search), "%s", r == PROMPT_CANCEL ? "" : s->prompt.text);
	s->events.sel = s->events.top = 0;
	s->stale = true;
}

static void spec_key(struct setup *s, int key, struct setup_res *r)
{
	enum prompt_res res = prompt_key(&s->prompt, key);
	if (res == PROMPT_CANCEL)
		s->sub = SUB_NONE;
	if (res != PROMPT_ACCEPT)
		return;
	s->sub = SUB_NONE;
	send_spec_text(s, r, s->prompt.text);
	s->spec_typed = true; /* setup_refused opens the line again */
	if (*s->prompt.text)
		show_events_pane(r);
	else
		r->close = true;
}

static void enter(struct setup *s, const struct setup_in *in, struct setup_res *r)
{
	int row = pmulist_row(in->cat, s->all_pmus, s->pmus.sel);
	if (s->view == SETUP_PMUS && row >= 0) {
		s->pmu = row;
		s->search[0] = '\0';
		s->view = SETUP_EVENTS;
		s->events = (struct scroll){0};
		s->stale = true;
	} else if (s->view == SETUP_EVENTS) {
		add_event(s, in, r, -1);
	}
}

static void escape(struct setup *s, struct setup_res *r)
{
	if (s->view == SETUP_EVENTS && *s->search) {
		s->search[0] = '\0';
		s->stale = true;
	} else {
		r->close = true;
	}
}

/* The column chooser's Space, Enter, [ and ]: the pane's new columns for the UI. */
static void colpick(struct setup *s, const struct setup_in *in, int key, struct setup_res *r)
{
	switch (colpick_key(in->shown, in->all, &s->cols, key, s->columns_out,
			    sizeof(s->columns_out))) {
	case COLPICK_LAST:
		snprintf(s->msg, sizeof(s->msg), "a pane shows one column at least");
		break;
	case COLPICK_CHANGED:
		r->cmd = SETUP_CMD_COLUMNS;
		r->columns = s->columns_out;
		break;
	default:
		break;
	}
}

/* a: the PMUs absent here too, or only those present; the selection stays on its PMU
 * (on the first row when it is no longer listed). */
static void all_pmus(struct setup *s, const struct catalog *cat)
{
	int row = pmulist_row(cat, s->all_pmus, s->pmus.sel);
	s->all_pmus = !s->all_pmus;
	s->pmus.n = pmulist_rows(cat, s->all_pmus);
	s->pmus.sel = pmulist_pos(cat, s->all_pmus, row);
	s->pmus.top = 0;
}

static void view_switch(struct setup *s, enum bind_act act, int key)
{
	int v = (int)s->view;
	if (act == BIND_VIEW_NEXT)
		v = (v + 1) % SETUP_VIEWS;
	else if (act == BIND_VIEW_PREV)
		v = (v + SETUP_VIEWS - 1) % SETUP_VIEWS;
	else if (key >= '1' && key < '1' + SETUP_VIEWS)
		v = key - '1';
	s->view = (enum setup_view)v;
}

static struct scroll *view_scroll(struct setup *s)
{
	return s->view == SETUP_PMUS	  ? &s->pmus
	       : s->view == SETUP_EVENTS  ? &s->events
	       : s->view == SETUP_COLUMNS ? &s->cols
					  : &s->mine;
}

/* A key of the view, as its binding table (bindings.c) maps it. */
static void view_key(struct setup *s, const struct setup_in *in, int key, struct setup_res *r)
{
	const struct binding *b = bindings_find(setup_bind_mode(s), key);
	enum bind_act act = b ? b->act : BIND_NONE;
	switch (act) {
	case BIND_VIEW_NEXT:
	case BIND_VIEW_PREV:
	case BIND_VIEW_N:
		view_switch(s, act, key);
		break;
	case BIND_MOVE:
		scroll_key(view_scroll(s), key);
		break;
	case BIND_COL_TOGGLE:
	case BIND_COL_MOVE:
		colpick(s, in, key, r);
		break;
	case BIND_QUIT:
		r->cmd = SETUP_CMD_QUIT;
		break;
	case BIND_BACK:
		escape(s, r);
		break;
	case BIND_OPEN_PMU:
	case BIND_ADD:
		enter(s, in, r);
		break;
	case BIND_SEARCH:
		open_search(s);
		break;
	case BIND_SPEC:
		s->sub = SUB_SPEC;
		prompt_open(&s->prompt, "Events (perf -e syntax):", in->spec);
		break;
	case BIND_ADD_GROUP:
	case BIND_REGROUP:
		pick_group(s, in, r);
		break;
	case BIND_REMOVE:
		remove_selected(s, in, r);
		break;
	case BIND_METRIC:
		open_metric(s, in);
		break;
	case BIND_SAVE:
		r->cmd = SETUP_CMD_SAVE;
		break;
	case BIND_ALL_PMUS:
		all_pmus(s, in->cat);
		break;
	default:
		break;
	}
}

void setupkeys_handle(struct setup *s, const struct setup_in *in, int key, struct setup_res *r)
{
	memset(r, 0, sizeof(*r));
	s->msg[0] = '\0';
	setup_sync(s, in);
	switch (s->sub) {
	case SUB_SEARCH:
		search_key(s, key);
		break;
	case SUB_SPEC:
		spec_key(s, key, r);
		break;
	case SUB_GROUP:
		group_key(s, in, key, r);
		break;
	case SUB_METRIC:
		metric_key(s, in, key, r);
		break;
	case SUB_NONE:
		view_key(s, in, key, r);
		break;
	}
	r->msg = *s->msg ? s->msg : NULL;
}
