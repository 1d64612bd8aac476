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

/* The umasks of e on one line: with their descriptions when they all fit in w columns,
 * else names alone; the default one marked. */
static void umask_line(const struct catalog_event *e, char *buf, size_t len, int w, bool descs)
{
	char name[128], desc[256];
	size_t o = (size_t)snprintf(buf, len, "umasks:");
	for (unsigned i = 0; i < e->numask && o < len; i++) {
		const struct catalog_attr *a = &e->attr[i];
		text_sanitize(a->name, name, sizeof(name), colors_utf8());
		text_sanitize(a->desc, desc, sizeof(desc), colors_utf8());
		if (descs && *desc)
			o += (size_t)snprintf(buf + o, len - o, "%s %s%s (%s)", i ? "," : "", name,
					      a->dfl ? " [default]" : "", desc);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s %s%s", i ? "," : "", name,
					      a->dfl ? " [default]" : "");
	}
	if (descs && o >= (size_t)w)
		umask_line(e, buf, len, w, false);
}

static void modifier_line(const struct catalog_event *e, char *buf, size_t len)
{
	char name[64];
	size_t o = (size_t)snprintf(buf, len, "modifiers:");
	for (unsigned i = e->numask; i < e->nattr && o < len; i++) {
		text_sanitize(e->attr[i].name, name, sizeof(name), colors_utf8());
		o += (size_t)snprintf(buf + o, len - o, " %s%s", name,
				      e->attr[i].value ? "=N" : "");
	}
	if (o < len)
		snprintf(buf + o, len - o, "   (as EVENT:UMASK:u)");
}

/* The selected event in full under the list: the columns cut long libpfm4 names and
 * descriptions, and this is what Enter adds. lines is 2 (name, description) or 4 (and its
 * umasks, and its modifiers). */
static void detail(const struct evlist_view *v, const struct scroll *s, int y, int lines, int w)
{
	char name[512], pmu[128], desc[1024], line[4096];
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
	if (lines < 4)
		return;
	if (e->numask) {
		umask_line(e, line, sizeof(line), w - 1, true);
		paint_text(y + 2, 1, w - 1, line, A_NORMAL);
	}
	if (e->nattr > e->numask) {
		modifier_line(e, line, sizeof(line));
		paint_text(y + 3, 1, w - 1, line, A_NORMAL);
	}
}

void evlist_draw(const struct evlist_view *v, struct scroll *s, int y, int h, int w)
{
	char t[256];
	if (h < 2)
		return;
	/* title, and the detail when there is room: umasks and modifiers too when there is more */
	int lines = h >= 12 ? 4 : h >= 8 ? 2 : 0;
	int rows = h - 1 - lines;
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
	if (lines)
		detail(v, s, y + 1 + rows, lines, w);
}
