/* The events setup screen from top to bottom: its tab line, a line saying what the view
 * shows, the view's list, and the bottom line (a prompt, a message or its keys), with
 * the pick list or the dialog over the list. */
#include "setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "colors.h"
#include "colpick.h"
#include "evlist.h"
#include "keybar.h"
#include "paint.h"
#include "pmulist.h"
#include "text.h"
#include "userev.h"

static const char *const view_names[SETUP_VIEWS] = {"PMUs", "Events", "Your events", "Columns"};

void setup_init(struct setup *s)
{
	memset(s, 0, sizeof(*s));
	s->pmu = -1;
	setup_spec_changed(s, "");
}

void setup_open(struct setup *s)
{
	s->view = SETUP_PMUS;
	s->sub = SUB_NONE;
	s->stale = true;
	s->msg[0] = '\0'; /* the last visit's message is not this one's */
}

void setup_free(struct setup *s)
{
	free(s->hits);
	s->hits = NULL;
	s->cap = s->nhits = 0;
}

void setup_spec_changed(struct setup *s, const char *spec)
{
	s->split_ok = uspec_parse(spec, &s->spec) == 0;
	/* A pick list holds member and group numbers of the old spec. */
	if (s->sub == SUB_GROUP)
		s->sub = SUB_NONE;
}

void setup_catalog_changed(struct setup *s)
{
	s->stale = true;
	s->pmu = -1;
	s->pmus = (struct scroll){0};
	s->events = (struct scroll){0};
}

bool setup_refused(struct setup *s)
{
	if (!s->spec_typed)
		return false;
	s->spec_typed = false;
	s->sub = SUB_SPEC;
	return true;
}

void setup_refresh_hits(struct setup *s, const struct catalog *cat)
{
	if (!s->stale)
		return;
	s->stale = false;
	size_t need = catalog_nevents(cat);
	if (need > s->cap) {
		unsigned *h = realloc(s->hits, need * sizeof(*h));
		if (!h) {
			s->nhits = 0;
			snprintf(s->msg, sizeof(s->msg), "out of memory: the search found nothing");
			return;
		}
		s->hits = h;
		s->cap = need;
	}
	s->nhits = catalog_search(cat, s->pmu, s->search, s->hits, s->cap);
	scroll_set(&s->events, s->nhits);
}

static void tab_line(const struct setup *s, int y, int w)
{
	int x = paint_text(y, 0, w, "Events setup  ", colors_attr(CLR_LABEL) | A_BOLD);
	for (int i = 0; i < SETUP_VIEWS && x < w; i++) {
		char tab[48];
		bool on = (int)s->view == i;
		snprintf(tab, sizeof(tab), on ? "[%d %s]" : " %d %s ", i + 1, view_names[i]);
		x += paint_text(y, x, w - x, tab, colors_attr(on ? CLR_TAB_ACTIVE : CLR_TAB));
		x += paint_text(y, x, w - x, " ", A_NORMAL);
	}
}

static void pmus_context(const struct catalog *cat, bool all, char *buf, size_t len)
{
	size_t present = pmulist_rows(cat, false);
	char open[16], search[16];
	bindings_key_name(BIND_MODE_SETUP_PMUS, BIND_OPEN_PMU, 0, open, sizeof(open));
	bindings_key_name(BIND_MODE_SETUP_PMUS, BIND_SEARCH, 0, search, sizeof(search));
	if (all)
		snprintf(buf, len,
			 "%u PMUs and headings, %zu present; %u events. %s lists a PMU's events, "
			 "%s searches them all",
			 catalog_npmus(cat), present, catalog_nevents(cat), open, search);
	else
		snprintf(buf, len,
			 "%zu PMUs and headings on this machine; %u events. %s lists a PMU's "
			 "events, %s searches them all",
			 present, catalog_nevents(cat), open, search);
}

static void events_context(const struct setup *s, const struct catalog *cat, char *buf, size_t len)
{
	const struct catalog_pmu *p = s->pmu >= 0 ? catalog_pmu(cat, (unsigned)s->pmu) : NULL;
	char name[64], search[PROMPT_MAX];
	text_sanitize(p ? p->name : "all PMUs", name, sizeof(name), colors_utf8());
	text_sanitize(s->search, search, sizeof(search), colors_utf8());
	size_t o = (size_t)snprintf(buf, len, "Events of %s: %zu shown", name, s->nhits);
	if (*s->search && o < len)
		snprintf(buf + o, len - o, ", matching '%s'", search);
	else if (o < len) {
		char add[16], group[16];
		bindings_key_name(BIND_MODE_SETUP_EVENTS, BIND_ADD, 0, add, sizeof(add));
		bindings_key_name(BIND_MODE_SETUP_EVENTS, BIND_ADD_GROUP, 0, group, sizeof(group));
		snprintf(buf + o, len - o, ". %s adds one as its own group, %s into a group", add,
			 group);
	}
}

/* The keys it names are the table's (bindings.c). */
static void columns_context(const struct pane *shown, char *buf, size_t len)
{
	enum bind_mode m = BIND_MODE_SETUP_COLUMNS;
	char toggle[16], left[16], right[16], save[16];
	bindings_key_name(m, BIND_COL_TOGGLE, 0, toggle, sizeof(toggle));
	bindings_key_name(m, BIND_COL_MOVE, 0, left, sizeof(left));
	bindings_key_name(m, BIND_COL_MOVE, 1, right, sizeof(right));
	bindings_key_name(m, BIND_SAVE, 0, save, sizeof(save));
	snprintf(buf, len,
		 "Columns of the %s pane: %s shows or hides one, %s and %s move it, %s saves",
		 shown ? shown->name : "?", toggle, left, right, save);
}

static void context_line(const struct setup *s, const struct setup_in *in, int y, int w)
{
	char buf[USPEC_TEXT + 64], clean[USPEC_TEXT + 64];
	switch (s->view) {
	case SETUP_PMUS:
		pmus_context(in->cat, s->all_pmus, buf, sizeof(buf));
		break;
	case SETUP_EVENTS:
		events_context(s, in->cat, buf, sizeof(buf));
		break;
	case SETUP_COLUMNS:
		columns_context(in->shown, buf, sizeof(buf));
		break;
	default:
		snprintf(buf, sizeof(buf), "In force: %s", *in->spec ? in->spec : "(none)");
		break;
	}
	text_sanitize(buf, clean, sizeof(clean), colors_utf8());
	paint_text(y, 0, w, clean, A_NORMAL);
}

static const char *empty_text(const struct setup *s, const struct catalog *cat)
{
	const struct catalog_pmu *p = s->pmu >= 0 ? catalog_pmu(cat, (unsigned)s->pmu) : NULL;
	if (!cat)
		return "no event catalogue: ':' still takes any event spec";
	if (*s->search)
		return "no event matches: Backspace, or Esc and / for a new search";
	if (p && !p->present)
		return "not present on this machine: none of its events can be counted here";
	return "no named events here: ':' takes raw ones (pmu/event=0x../, rNNNN)";
}

static void draw_view(struct setup *s, const struct setup_in *in, int y, int h, int w)
{
	if (s->view == SETUP_PMUS) {
		pmulist_draw(in->cat, s->all_pmus, &s->pmus, y, h, w);
	} else if (s->view == SETUP_EVENTS) {
		setup_refresh_hits(s, in->cat);
		struct evlist_view v = {
			.c = in->cat,
			.hits = s->hits,
			.n = s->nhits,
			.show_pmu = s->pmu < 0,
			.mine = s->split_ok ? &s->spec : NULL,
			.empty = empty_text(s, in->cat),
		};
		evlist_draw(&v, &s->events, y, h, w);
	} else if (s->view == SETUP_COLUMNS) {
		colpick_draw(in->shown, in->all, &s->cols, y, h, w);
	} else {
		struct userev_view v = setup_userev_view(s, in);
		userev_draw(&v, &s->mine, y, h, w);
	}
}

static const enum bind_mode view_modes[SETUP_VIEWS] = {BIND_MODE_SETUP_PMUS, BIND_MODE_SETUP_EVENTS,
						       BIND_MODE_SETUP_MINE,
						       BIND_MODE_SETUP_COLUMNS};

enum bind_mode setup_bind_mode(const struct setup *s)
{
	return s->sub == SUB_GROUP    ? BIND_MODE_MENU
	       : s->sub == SUB_METRIC ? BIND_MODE_DIALOG
				      : view_modes[s->view];
}

static void bottom_line(const struct setup *s, const struct setup_in *in, int y, int w)
{
	/* A search out of memory while drawing, when nothing else is said. */
	const char *msg = in->msg && *in->msg ? in->msg : *s->msg ? s->msg : NULL;
	if (s->sub == SUB_SEARCH || s->sub == SUB_SPEC) {
		/* Why a spec was refused stays above the line that mends it. */
		if (msg && y > 2) {
			paint_fill(y - 1, 0, w, colors_attr(CLR_MESSAGE));
			paint_text(y - 1, 0, w, msg, colors_attr(CLR_MESSAGE));
		}
		prompt_draw(&s->prompt, y, w);
	} else if (msg) {
		paint_fill(y, 0, w, colors_attr(CLR_MESSAGE));
		paint_text(y, 0, w, msg, colors_attr(CLR_MESSAGE));
	} else {
		keybar_draw(setup_bind_mode(s), keybar_pause_label(in->paused, false, false), false,
			    false, y, w);
	}
}

struct userev_view setup_userev_view(const struct setup *s, const struct setup_in *in)
{
	return (struct userev_view){.s = s->split_ok ? &s->spec : NULL,
				    .raw = in->spec,
				    .metrics = in->metrics,
				    .nmetrics = in->nmetrics,
				    .m = in->m};
}

void setup_sync(struct setup *s, const struct setup_in *in)
{
	struct userev_row rows[USEREV_ROWS];
	struct userev_view v = setup_userev_view(s, in);
	setup_refresh_hits(s, in->cat);
	scroll_set(&s->pmus, pmulist_rows(in->cat, s->all_pmus));
	scroll_set(&s->events, s->nhits);
	scroll_set(&s->mine, userev_rows(&v, rows, USEREV_ROWS));
	struct colpick_row cols[40];
	scroll_set(&s->cols, colpick_rows(in->shown, in->all, cols, 40));
}

void setup_draw(struct setup *s, const struct setup_in *in)
{
	int h = LINES, w = COLS;
	setup_sync(s, in);
	tab_line(s, 0, w);
	context_line(s, in, 1, w);
	draw_view(s, in, 2, h - 3, w);
	if (s->sub == SUB_GROUP)
		menu_draw(&s->menu, 2, w > 56 ? w - 56 : 0, w < 56 ? w : 56, h - 3);
	if (s->sub == SUB_METRIC) {
		int dw = w < 90 ? w : 90;
		int dy = h / 2 - METRICDLG_LINES / 2;
		metricdlg_draw(&s->dlg, dy > 2 ? dy : 2, (w - dw) / 2, dw);
	}
	bottom_line(s, in, h - 1, w);
}
