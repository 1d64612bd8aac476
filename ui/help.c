/* The help text is built on each draw: its event and column sections follow the model
 * and the active pane. */
#include "help.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bindings.h"
#include "colors.h"
#include "paint.h"
#include "text.h"

#define HELP_LINES 512
#define HELP_WIDTH 160

struct page {
	char text[HELP_LINES][HELP_WIDTH];
	bool heading[HELP_LINES];
	int n;
	int w; /* the screen's width: longer lines wrap */
};

/* Where a wrapped line goes on: under the text after the first run of two blanks
 * ("  Enter            watch ..."), else under the line's own indent. */
static int hang_indent(const char *s, int w)
{
	int lead = (int)strspn(s, " ");
	const char *gap = strstr(s + lead, "  ");
	int at = gap ? (int)(gap - s) + (int)strspn(gap, " ") : lead;
	return at < w / 2 ? at : lead < w / 2 ? lead : 0;
}

static void add_line(struct page *pg, bool heading, const char *s, size_t n)
{
	if (pg->n >= HELP_LINES)
		return;
	if (n >= HELP_WIDTH)
		n = HELP_WIDTH - 1;
	snprintf(pg->text[pg->n], HELP_WIDTH, "%.*s", (int)n, s);
	pg->heading[pg->n++] = heading;
}

static void add(struct page *pg, bool heading, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One logical line, word-wrapped to the screen (the texts are ASCII, sanitised). */
static void add(struct page *pg, bool heading, const char *fmt, ...)
{
	char buf[2048], line[2048 + HELP_WIDTH];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int w = pg->w < HELP_WIDTH ? pg->w : HELP_WIDTH - 1;
	if (w < 20)
		w = 20;
	int hang = hang_indent(buf, w);
	const char *p = buf;
	bool first = true;
	while (first || *p) {
		int indent = first ? 0 : hang;
		snprintf(line, sizeof(line), "%*s%s", indent, "", p);
		size_t n = strlen(line);
		size_t cut = n;
		if ((int)n >= w) { /* the last column is left free: no terminal wraps there */
			cut = (size_t)w - 1;
			while (cut > (size_t)indent && line[cut] != ' ')
				cut--;
			if (cut <= (size_t)indent)
				cut = (size_t)w - 1; /* one long word: break it */
		}
		add_line(pg, heading, line, cut);
		p += cut - (size_t)indent;
		while (*p == ' ')
			p++;
		first = false;
	}
}

static void marks(struct page *pg)
{
	add(pg, true, "Marks in the cells");
	add(pg, false, "  n/a    cannot be counted here (the reason is under Events below)");
	add(pg, false, "  n/c    enabled but never scheduled on a counter this interval");
	add(pg, false, "  1.23~  scaled: counted only part of the time, extrapolated to the whole");
	add(pg, false, "         interval (the RUN%% column of the group says how long it ran);");
	add(pg, false, "         bpf: also a hardware event of a task whose switches in (perf -p");
	add(pg, false, "         counts them for no task) took over 1%% of its counted time: not");
	add(pg, false, "         scaled, its own share in the detail (switch window counted)");
	add(pg, false, "  1.23+  partial: a sum some of whose parts (threads, processes) were not");
	add(pg, false, "         counted (fd limit, starting): at least this much");
	add(pg, false, "  -      nothing to divide: a ratio over zero (IPC of an idle task)");
	add(pg, false, "  (exited)  the task ended during this interval: its final values");
	add(pg, false, "  COMMAND (+N)  N columns did not fit: widen the window (F6 lists all)");
	add(pg, false, "  COMMAND [+N]  scrolled N characters to the right (Ctrl-F; Ctrl-A back)");
	add(pg, false, "  1234*  after the PID: a tagged process (Space; U untags)");
	add(pg, false,
	    "  TREND  the sort column over the last 20 intervals (CPU%% when it is not a");
	add(pg, false, "         number), from 0 to the top its title says (=100.0: a full glyph");
	add(pg, false, "         is 100.0), one scale for every row; a gap where an interval");
	add(pg, false, "         has no number (n/c, n/a), dim where it was scaled; Enter: charts");
}

/* An event that several panes' groups count (instructions for IPC, Cache and Branch) is
 * listed once, unless it reads differently in another group. */
static bool listed_before(const struct model *m, unsigned i)
{
	for (unsigned j = 0; j < i; j++)
		if (strcmp(m->events[j].name, m->events[i].name) == 0 &&
		    m->events[j].status == m->events[i].status &&
		    m->events[j].hardware == m->events[i].hardware)
			return true;
	return false;
}

static void events(struct page *pg, const struct model *m)
{
	add(pg, true, "Events");
	for (unsigned i = 0; i < m->nevents; i++) {
		const struct mevent *e = &m->events[i];
		if (listed_before(m, i))
			continue;
		char name[64];
		text_sanitize(e->name, name, sizeof(name), colors_utf8());
		if (e->status == WHY_NONE)
			add(pg, false, "  %-24s counting%s", name,
			    e->hardware ? " (hardware)" : "");
		else
			add(pg, false, "  %-24s n/a: %s%s", name,
			    val_why_str((enum val_why)e->status), e->hardware ? " (hardware)" : "");
	}
	char raw[2048];
	if (*model_notice_text(m, raw, sizeof(raw))) {
		char clean[2048];
		text_sanitize(raw, clean, sizeof(clean), colors_utf8());
		add(pg, false, "  %s", clean);
	}
}

static void columns(struct page *pg, const struct pane *p)
{
	char name[32];
	text_sanitize(p->name, name, sizeof(name), colors_utf8());
	add(pg, true, "Columns of the %s pane", name);
	for (unsigned i = 0; i < p->ncols; i++) {
		char cname[64];
		text_sanitize(p->cols[i].name, cname, sizeof(cname), colors_utf8());
		add(pg, false, "  %-10s %s", cname, p->cols[i].help ? p->cols[i].help : "");
	}
}

static void build(struct page *pg, const struct model *m, const struct pane *p, bool replay, int w)
{
	pg->n = 0;
	pg->w = w;
	add(pg, true, "pmutop: perf_event counters per task, live");
	add(pg, false, " ");
	/* Marks first: they are why most people open this screen. */
	marks(pg);
	add(pg, false, " ");
	/* Every mode's keys, from the tables that dispatch them. */
	for (int mode = 0; mode < BIND_MODES; mode++) {
		size_t nb;
		const struct binding *b = bindings_table((enum bind_mode)mode, &nb);
		if (mode > 0)
			add(pg, false, " ");
		add(pg, true, "%s", bindings_title((enum bind_mode)mode));
		for (size_t i = 0; i < nb; i++)
			if (b[i].help && !(replay && b[i].bar == BAR_LIVE))
				add(pg, false, "  %-16s  %s", b[i].help_keys, b[i].help);
	}
	if (m) {
		add(pg, false, " ");
		events(pg, m);
	}
	if (p) {
		add(pg, false, " ");
		columns(pg, p);
	}
}

void help_draw(const struct model *m, const struct pane *p, bool replay, int *top, int y, int h,
	       int w)
{
	struct page *pg = malloc(sizeof(*pg));
	if (!pg || h <= 0)
		goto out;
	build(pg, m, p, replay, w);
	if (*top > pg->n - h)
		*top = pg->n - h;
	if (*top < 0)
		*top = 0;
	for (int k = 0; k < h && *top + k < pg->n; k++) {
		int i = *top + k;
		paint_text(y + k, 0, w, pg->text[i],
			   pg->heading[i] ? colors_attr(CLR_LABEL) | A_BOLD : A_NORMAL);
	}
out:
	free(pg);
}
