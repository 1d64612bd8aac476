/* Keys of the events setup screen. Every change is made to a copy of the spec in force
 * and sent to main.c whole; what is shown stays the spec in force until main.c says
 * otherwise (ui_set_user_spec), so a change that fails never looks applied. */
#include "setupkeys.h"

#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "catalog.h"
#include "colors.h"
#include "colpick.h"
#include "text.h"
#include "uistate.h"
#include "userev.h"

static void send_spec_text(struct ui *u, struct ui_cmd *cmd, const char *text)
{
	u->setup.spec_typed = false;
	snprintf(u->spec_out, sizeof(u->spec_out), "%s", text);
	cmd->kind = UI_SET_EVENTS;
	cmd->spec = u->spec_out;
}

static bool send_spec(struct ui *u, struct ui_cmd *cmd, const struct uspec *sp)
{
	char text[USPEC_TEXT];
	if (uspec_format(sp, text, sizeof(text))) {
		snprintf(u->msg, sizeof(u->msg),
			 "That would make the spec longer than %d bytes: "
			 "remove events first",
			 USPEC_TEXT - 1);
		return false;
	}
	send_spec_text(u, cmd, text);
	return true;
}

/* Back to the table, on the Events pane once main.c has built it. */
static void show_events_pane(struct ui *u)
{
	u->mode = MODE_MAIN;
	snprintf(u->want_pane, sizeof(u->want_pane), "Events");
}

static const struct catalog_event *selected_event(struct ui *u)
{
	struct setup *s = &u->setup;
	setup_refresh_hits(u);
	if (s->view != SETUP_EVENTS || s->events.sel >= s->nhits)
		return NULL;
	return catalog_event(u->cat, s->hits[s->events.sel]);
}

/* Add the selected catalogue event to group g (< 0: a group of its own). */
static void add_event(struct ui *u, struct ui_cmd *cmd, int g)
{
	const struct catalog_event *e = selected_event(u);
	struct uspec sp;
	char name[64];
	if (!e)
		return;
	if (!u->setup.split_ok) {
		/* A spec this screen cannot split still takes one more group at its end. */
		char text[USPEC_TEXT * 2];
		snprintf(text, sizeof(text), "%s%s%s", u->spec, *u->spec ? "," : "", e->name);
		if (strlen(text) >= USPEC_TEXT) {
			snprintf(u->msg, sizeof(u->msg), "The spec is full: remove events first");
			return;
		}
		send_spec_text(u, cmd, text);
	} else {
		sp = u->setup.spec;
		if (uspec_add(&sp, e->name, g) || !send_spec(u, cmd, &sp)) {
			if (!*u->msg)
				snprintf(u->msg, sizeof(u->msg),
					 "Too many events: remove some first");
			return;
		}
	}
	text_sanitize(e->name, name, sizeof(name), colors_utf8());
	snprintf(u->msg, sizeof(u->msg),
		 "Adding %s: its column in the Events pane fills in "
		 "from the next tick",
		 name);
	show_events_pane(u);
}

static const struct userev_row *selected_row(struct ui *u, struct userev_row *rows)
{
	struct setup *s = &u->setup;
	struct userev_view v = setup_userev_view(u);
	unsigned n = userev_rows(&v, rows, USEREV_ROWS);
	return s->view == SETUP_MINE && s->mine.sel < n ? &rows[s->mine.sel] : NULL;
}

static void send_metrics(struct ui *u, struct ui_cmd *cmd, unsigned n)
{
	cmd->kind = UI_SET_METRICS;
	cmd->metrics = u->metrics_out;
	cmd->nmetrics = n;
}

static void remove_metric(struct ui *u, struct ui_cmd *cmd, unsigned i)
{
	unsigned n = 0;
	for (unsigned k = 0; k < u->nmetrics; k++)
		if (k != i)
			u->metrics_out[n++] = u->metrics[k];
	send_metrics(u, cmd, n);
}

/* x, Delete: an event, a whole group, or a derived column. */
static void remove_selected(struct ui *u, struct ui_cmd *cmd)
{
	struct userev_row rows[USEREV_ROWS];
	const struct userev_row *r = selected_row(u, rows);
	struct uspec sp = u->setup.spec;
	if (!r || r->kind == UREV_METRICS)
		return;
	if (r->kind == UREV_METRIC) {
		remove_metric(u, cmd, r->i);
		return;
	}
	if (r->kind == UREV_EVENT) {
		uspec_remove(&sp, r->i);
	} else {
		unsigned n, first = uspec_group_first(&sp, r->i, &n);
		while (n--)
			uspec_remove(&sp, first);
	}
	send_spec(u, cmd, &sp);
}

/* g: pick the group to add the selected event to, or to move the selected member to. */
static void pick_group(struct ui *u, struct ui_cmd *cmd)
{
	struct setup *s = &u->setup;
	struct userev_row rows[USEREV_ROWS];
	if (!s->split_ok)
		return;
	if (s->view == SETUP_EVENTS) {
		if (!selected_event(u))
			return;
		if (s->spec.ng == 0) {
			add_event(u, cmd, -1); /* nothing to pick from */
			return;
		}
		s->moving = -1;
		userev_group_menu(&s->menu, &s->spec, "Add to group");
	} else {
		const struct userev_row *r = selected_row(u, rows);
		if (!r || r->kind != UREV_EVENT)
			return;
		s->moving = (int)r->i;
		userev_group_menu(&s->menu, &s->spec, "Move to group");
	}
	s->sub = SUB_GROUP;
}

static void group_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	struct setup *s = &u->setup;
	enum menu_res r = menu_key(&s->menu, key);
	if (r == MENU_STAY)
		return;
	s->sub = SUB_NONE;
	if (r == MENU_CANCEL)
		return;
	int g = (int)menu_value(&s->menu);
	if (s->moving < 0) {
		add_event(u, cmd, g);
		return;
	}
	struct uspec sp = s->spec;
	if (uspec_move(&sp, (unsigned)s->moving, g) == 0)
		send_spec(u, cmd, &sp);
}

static void open_metric(struct ui *u)
{
	struct setup *s = &u->setup;
	if (u->nmetrics >= CONFIG_METRICS_MAX) {
		snprintf(u->msg, sizeof(u->msg), "At most %d derived columns: remove one first (x)",
			 CONFIG_METRICS_MAX);
		return;
	}
	if (!metricdlg_open(&s->dlg, u->m)) {
		snprintf(u->msg, sizeof(u->msg),
			 "No events of your own to divide yet: add two "
			 "in one group first");
		return;
	}
	s->sub = SUB_METRIC;
}

static void metric_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	struct setup *s = &u->setup;
	enum metricdlg_res r = metricdlg_key(&s->dlg, key);
	if (r == MDLG_CANCEL)
		s->sub = SUB_NONE;
	if (r != MDLG_DONE || !metricdlg_check(&s->dlg, u->m, u->metrics, u->nmetrics))
		return;
	memcpy(u->metrics_out, u->metrics, u->nmetrics * sizeof(u->metrics[0]));
	metricdlg_metric(&s->dlg, &u->metrics_out[u->nmetrics]);
	send_metrics(u, cmd, u->nmetrics + 1);
	s->sub = SUB_NONE;
	snprintf(u->msg, sizeof(u->msg), "Column %s goes into the Events pane", s->dlg.name);
}

static void open_search(struct ui *u)
{
	struct setup *s = &u->setup;
	if (s->view != SETUP_EVENTS) {
		/* From the PMU list a search spans every PMU. */
		s->view = SETUP_EVENTS;
		s->pmu = -1;
		s->stale = true;
	}
	s->sub = SUB_SEARCH;
	prompt_open(&s->prompt, "Search:", s->search);
}

static void search_key(struct ui *u, int key)
{
	struct setup *s = &u->setup;
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

static void spec_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	struct setup *s = &u->setup;
	enum prompt_res r = prompt_key(&s->prompt, key);
	if (r == PROMPT_CANCEL)
		s->sub = SUB_NONE;
	if (r != PROMPT_ACCEPT)
		return;
	s->sub = SUB_NONE;
	send_spec_text(u, cmd, s->prompt.text);
	s->spec_typed = true; /* ui_events_refused opens the line again */
	if (*s->prompt.text)
		show_events_pane(u);
	else
		u->mode = MODE_MAIN;
}

static void enter(struct ui *u, struct ui_cmd *cmd)
{
	struct setup *s = &u->setup;
	if (s->view == SETUP_PMUS && s->pmus.sel < catalog_npmus(u->cat)) {
		s->pmu = (int)s->pmus.sel;
		s->search[0] = '\0';
		s->view = SETUP_EVENTS;
		s->events = (struct scroll){0};
		s->stale = true;
	} else if (s->view == SETUP_EVENTS) {
		add_event(u, cmd, -1);
	}
}

static void escape(struct ui *u)
{
	struct setup *s = &u->setup;
	if (s->view == SETUP_EVENTS && *s->search) {
		s->search[0] = '\0';
		s->stale = true;
	} else {
		u->mode = MODE_MAIN;
	}
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
static void view_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	struct setup *s = &u->setup;
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
		colpick_key(u, &s->cols, key, cmd);
		break;
	case BIND_QUIT:
		cmd->kind = UI_QUIT;
		break;
	case BIND_BACK:
		escape(u);
		break;
	case BIND_OPEN_PMU:
	case BIND_ADD:
		enter(u, cmd);
		break;
	case BIND_SEARCH:
		open_search(u);
		break;
	case BIND_SPEC:
		s->sub = SUB_SPEC;
		prompt_open(&s->prompt, "Events (perf -e syntax):", u->spec);
		break;
	case BIND_ADD_GROUP:
	case BIND_REGROUP:
		pick_group(u, cmd);
		break;
	case BIND_REMOVE:
		remove_selected(u, cmd);
		break;
	case BIND_METRIC:
		open_metric(u);
		break;
	case BIND_SAVE:
		cmd->kind = UI_SAVE_CONFIG;
		break;
	default:
		break;
	}
}

void setupkeys_handle(struct ui *u, int key, struct ui_cmd *cmd)
{
	setup_sync(u);
	switch (u->setup.sub) {
	case SUB_SEARCH:
		search_key(u, key);
		break;
	case SUB_SPEC:
		spec_key(u, key, cmd);
		break;
	case SUB_GROUP:
		group_key(u, key, cmd);
		break;
	case SUB_METRIC:
		metric_key(u, key, cmd);
		break;
	case SUB_NONE:
		view_key(u, key, cmd);
		break;
	}
	if (cmd->kind == UI_NONE)
		cmd->kind = UI_REDRAW;
}
