/* Drawing the event rows. Only the rows on screen are formatted, so a catalogue of
 * thousands scrolls as fast as one of ten. */
#include "evlist.h"

#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "paint.h"
#include "text.h"

#define PMU_W 18
#define NAME_MIN 20

bool evlist_counted(const struct uspec *s, const char *name)
{
	for (unsigned i = 0; s && i < s->nev; i++)
		if (strcmp(s->ev[i], name) == 0)
			return true;
	return false;
}

/* The name column fits the longest name on screen, up to half the width. */
static int name_width(const struct evlist_view *v, const struct scroll *s, int rows, int w)
{
	int nw = NAME_MIN;
	for (int k = 0; k < rows && s->top + (size_t)k < v->n; k++) {
		const struct catalog_event *e = catalog_event(v->c, v->hits[s->top + (size_t)k]);
		int l = e ? (int)strlen(e->name) : 0;
		if (l > nw)
			nw = l;
	}
	return nw > w / 2 ? (w / 2 > NAME_MIN ? w / 2 : NAME_MIN) : nw;
}

static void row(const struct evlist_view *v, const struct catalog_event *e, bool pmu_col, bool sel,
		int nw, int y, int w)
{
	char pmu[PMU_W * 4 + 1], name[512], desc[512], line[1200];
	text_sanitize(e->heading, pmu, sizeof(pmu), colors_utf8());
	text_sanitize(e->name, name, sizeof(name), colors_utf8());
	text_sanitize(e->desc, desc, sizeof(desc), colors_utf8());
	char mark = evlist_counted(v->mine, e->name) ? '*' : ' ';
	if (pmu_col)
		snprintf(line, sizeof(line), "%c %-*.*s %-*.*s %s", mark, PMU_W, PMU_W, pmu, nw, nw,
			 name, desc);
	else
		snprintf(line, sizeof(line), "%c %-*.*s %s", mark, nw, nw, name, desc);
	attr_t a = sel ? colors_attr(CLR_SELECTED) : A_NORMAL;
	paint_fill(y, 0, w, a);
	paint_text(y, 0, w, line, a);
}

/* The selected event in full on two lines under the list: the columns cut long
 * libpfm4 names and descriptions, and this is what Enter adds. */
static void detail(const struct evlist_view *v, const struct scroll *s, int y, int w)
{
	char name[512], pmu[128], desc[1024], line[700];
	const struct catalog_event *e = s->sel < v->n ? catalog_event(v->c, v->hits[s->sel]) : NULL;
	paint_fill(y, 0, w, colors_attr(CLR_COLHDR));
	if (!e)
		return;
	text_sanitize(e->name, name, sizeof(name), colors_utf8());
	text_sanitize(e->heading, pmu, sizeof(pmu), colors_utf8());
	text_sanitize(e->desc, desc, sizeof(desc), colors_utf8());
	snprintf(line, sizeof(line), " %s  (%s)", name, pmu);
	paint_text(y, 0, w, line, colors_attr(CLR_COLHDR));
	paint_text(y + 1, 1, w - 1, desc, A_NORMAL);
}

void evlist_draw(const struct evlist_view *v, struct scroll *s, int y, int h, int w)
{
	char t[256];
	if (h < 2)
		return;
	int rows = h >= 8 ? h - 3 : h - 1; /* title, and the detail when there is room */
	bool pmu_col = v->show_pmu && w >= 100;
	scroll_set(s, v->n);
	scroll_fit(s, (size_t)rows);
	int nw = name_width(v, s, rows, w);
	if (pmu_col)
		snprintf(t, sizeof(t), "  %-*s %-*s %s", PMU_W, "PMU", nw, "EVENT", "DESCRIPTION");
	else
		snprintf(t, sizeof(t), "  %-*s %s", nw, "EVENT", "DESCRIPTION");
	paint_fill(y, 0, w, colors_attr(CLR_COLHDR));
	paint_text(y, 0, w, t, colors_attr(CLR_COLHDR));
	if (v->n == 0) {
		paint_text(y + 1, 2, w - 2, v->empty ? v->empty : "", colors_attr(CLR_MISSING));
		return;
	}
	for (int k = 0; k < rows && s->top + (size_t)k < v->n; k++) {
		size_t i = s->top + (size_t)k;
		const struct catalog_event *e = catalog_event(v->c, v->hits[i]);
		if (e)
			row(v, e, pmu_col, i == s->sel, nw, y + 1 + k, w);
	}
	if (rows < h - 1)
		detail(v, s, y + 1 + rows, w);
}
