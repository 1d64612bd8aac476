/* Drawing the user's events. Their status comes from the model's user groups, which
 * follow the spec's groups in order once main.c has applied it. */
#include "userev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "paint.h"
#include "text.h"

unsigned userev_rows(const struct userev_view *v, struct userev_row *out, unsigned max)
{
	unsigned n = 0;
	for (unsigned g = 0; v->s && g < v->s->ng && n < max; g++) {
		unsigned cnt, first = uspec_group_first(v->s, g, &cnt);
		out[n++] = (struct userev_row){UREV_GROUP, g};
		for (unsigned k = 0; k < cnt && n < max; k++)
			out[n++] = (struct userev_row){UREV_EVENT, first + k};
	}
	if (v->nmetrics && n < max)
		out[n++] = (struct userev_row){UREV_METRICS, 0};
	for (unsigned i = 0; i < v->nmetrics && n < max; i++)
		out[n++] = (struct userev_row){UREV_METRIC, i};
	return n;
}

/* The model's event for member k of user group g, when the model's user groups match
 * the spec's; NULL otherwise (not applied yet, or failed). */
static const struct mevent *model_event(const struct userev_view *v, unsigned g, unsigned k)
{
	const struct model *m = v->m;
	unsigned ug = 0, cnt;
	if (!m)
		return NULL;
	for (unsigned i = 0; i < m->ngroups; i++)
		ug += m->groups[i].user;
	if (ug != v->s->ng)
		return NULL;
	ug = 0;
	for (unsigned i = 0; i < m->ngroups; i++) {
		if (!m->groups[i].user || ug++ != g)
			continue;
		uspec_group_first(v->s, g, &cnt);
		if (m->groups[i].n != cnt || k >= cnt)
			return NULL;
		return &m->events[m->groups[i].first + k];
	}
	return NULL;
}

static void event_status(const struct userev_view *v, unsigned member, char *buf, size_t len)
{
	if (!v->s) {
		snprintf(buf, len, "?");
		return;
	}
	unsigned g = v->s->group[member], cnt;
	unsigned k = member - uspec_group_first(v->s, g, &cnt);
	const struct mevent *e = model_event(v, g, k);
	if (!e)
		snprintf(buf, len, "(from the next tick)");
	else if (e->status == WHY_NONE)
		snprintf(buf, len, "counting%s", e->hardware ? " (hardware)" : "");
	else
		snprintf(buf, len, "n/a: %s", val_why_str((enum val_why)e->status));
}

static const char *kind_name(double mul)
{
	return mul == 100 ? "percent" : mul == 1000 ? "per 1000" : "ratio";
}

static void metric_text(const struct userev_view *v, unsigned i, char *buf, size_t len)
{
	const struct user_metric *um = &v->metrics[i];
	const char *state = "";
	if (v->m) {
		int r = columns_check_metric(v->m, um);
		state = r == 0	      ? "in the Events pane"
			: r == -EXDEV ? "left out: its events are in different groups"
				      : "left out: an event of it is not counted";
	}
	snprintf(buf, len, "    %-12s = %s / %s (%s)  %s", um->name, um->a, um->b,
		 kind_name(um->mul), state);
}

static void row_text(const struct userev_view *v, const struct userev_row *r, char *buf, size_t len)
{
	char grp[USPEC_TEXT], st[96];
	switch (r->kind) {
	case UREV_GROUP:
		uspec_group_text(v->s, r->i, grp, sizeof(grp));
		snprintf(buf, len, "Group %u  %s", r->i + 1, grp);
		break;
	case UREV_EVENT:
		event_status(v, r->i, st, sizeof(st));
		snprintf(buf, len, "    %-40s %s", v->s->ev[r->i], st);
		break;
	case UREV_METRICS:
		snprintf(buf, len, "Derived columns");
		break;
	case UREV_METRIC:
		metric_text(v, r->i, buf, len);
		break;
	}
}

static const char *empty_text(const struct userev_view *v)
{
	if (!v->s)
		return "this spec cannot be split for editing here: ':' edits it as text";
	return "no events of your own yet: pick some in the PMUs or Events view";
}

void userev_draw(const struct userev_view *v, struct scroll *sc, int y, int h, int w)
{
	struct userev_row rows[USEREV_ROWS];
	unsigned n = userev_rows(v, rows, USEREV_ROWS);
	if (h < 2)
		return;
	char title[128];
	/* STATUS over the status column: 2 of margin, 4 of indent, 40 of name, 1 gap. */
	snprintf(title, sizeof(title), "  %-45s%s", "YOUR EVENTS BY GROUP (counted together)",
		 "STATUS");
	paint_fill(y, 0, w, colors_attr(CLR_COLHDR));
	paint_text(y, 0, w, title, colors_attr(CLR_COLHDR));
	scroll_set(sc, n);
	scroll_fit(sc, (size_t)(h - 1));
	if (n == 0 || !v->s)
		paint_text(y + 1, 2, w - 2, empty_text(v), colors_attr(CLR_MISSING));
	for (int k = 0; k < h - 1 && sc->top + (size_t)k < n; k++) {
		size_t i = sc->top + (size_t)k;
		char raw[USPEC_TEXT + 64], clean[USPEC_TEXT + 64];
		row_text(v, &rows[i], raw, sizeof(raw));
		text_sanitize(raw, clean, sizeof(clean), colors_utf8());
		bool head = rows[i].kind == UREV_GROUP || rows[i].kind == UREV_METRICS;
		attr_t a = i == sc->sel ? colors_attr(CLR_SELECTED)
			   : head	? colors_attr(CLR_LABEL) | A_BOLD
					: A_NORMAL;
		paint_fill(y + 1 + k, 0, w, a);
		paint_text(y + 1 + k, 2, w - 2, clean, a);
	}
}

void userev_group_menu(struct menu *mn, const struct uspec *s, const char *title)
{
	char grp[USPEC_TEXT], label[MENU_LABEL * 4], clean[MENU_LABEL];
	menu_clear(mn, title);
	menu_add(mn, "A group of its own", -1);
	for (unsigned g = 0; g < s->ng; g++) {
		uspec_group_text(s, g, grp, sizeof(grp));
		snprintf(label, sizeof(label), "Group %u: %s", g + 1, grp);
		text_sanitize(label, clean, sizeof(clean), colors_utf8());
		menu_add(mn, clean, (long)g);
	}
}
