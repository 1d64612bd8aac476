/* The detail view: content is laid out as lines of a page that scrolls; charts take the
 * room the screen has, down to one line each. */
#include "detail.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bindings.h"
#include "chart.h"
#include "colors.h"
#include "history.h"
#include "metricbind.h"
#include "numfmt.h"
#include "paint.h"
#include "table.h"
#include "text.h"

#define AXIS_W 9 /* "   2.50 |" */
#define MAX_CHART_LINES 6

/* Metrics in the order the view shows them, with their names there. */
static const struct {
	int k;
	const char *label;
} shown[] = {
	{HM_IPC, "IPC"},	{HM_CMISS, "cache-miss %"},
	{HM_CMPKI, "LLC MPKI"}, {HM_BMISS, "branch-miss %"},
	{HM_CPU, "CPU%"},	{HM_GHZ, "GHz"},
};
#define NSHOWN (int)(sizeof(shown) / sizeof(shown[0]))
_Static_assert(NSHOWN == DETAIL_CHARTS, "a kept chart per metric shown");

/* The page: content line at goes to screen line y + at - top when that is in view. */
struct page {
	int y, h, w, top, at;
};

static int line(struct page *p)
{
	int k = p->at++ - p->top;
	return k >= 0 && k < p->h ? p->y + k : -1;
}

static void text_line(struct page *p, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void text_line(struct page *p, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int y = line(p);
	if (y >= 0)
		paint_text(y, 0, p->w, buf, a);
}

static bool same_row(const struct detail *d, const struct mrow *r)
{
	if (r->kind != d->kind || r->pid != d->pid || r->tid != d->tid || r->subtree != d->subtree)
		return false;
	if (!r->instance != !d->on_host)
		return false;
	if (d->on_host && (strncmp(r->instance, d->instance, sizeof(d->instance) - 1) != 0 ||
			   strncmp(r->job ? r->job : "", d->job, sizeof(d->job) - 1) != 0 ||
			   (r->kind != ROW_CGROUP &&
			    strncmp(r->comm ? r->comm : "", d->name, sizeof(d->name) - 1) != 0)))
		return false;
	return r->kind != ROW_CGROUP || (r->cgroup && strcmp(r->cgroup, d->cgroup) == 0);
}

static const struct mrow *find_row(const struct detail *d, const struct model *m,
				   const struct mrow *sums, unsigned nsums)
{
	for (unsigned i = 0; d->subtree && sums && i < nsums; i++)
		if (same_row(d, &sums[i]))
			return &sums[i];
	for (unsigned i = 0; !d->subtree && m && i < m->nrows; i++)
		if (same_row(d, &m->rows[i]))
			return &m->rows[i];
	return NULL;
}

void detail_open(struct detail *d, const struct mrow *r)
{
	memset(d, 0, sizeof(*d));
	d->kind = r->kind;
	d->pid = r->pid;
	d->tid = r->tid;
	d->subtree = r->subtree;
	if (r->kind == ROW_CGROUP && r->cgroup)
		snprintf(d->cgroup, sizeof(d->cgroup), "%s", r->cgroup);
	if (r->instance) {
		d->on_host = true;
		snprintf(d->instance, sizeof(d->instance), "%s", r->instance);
		snprintf(d->job, sizeof(d->job), "%s", r->job ? r->job : "");
		snprintf(d->name, sizeof(d->name), "%s", r->comm ? r->comm : "");
	}
}

/* Who the row is, from what was kept of it (the row itself while it lives). */
static void keep_identity(struct detail *d, const struct model *m, const struct mrow *r)
{
	text_sanitize(r->comm ? r->comm : "", d->comm, sizeof(d->comm), colors_utf8());
	text_sanitize(r->cgroup && *r->cgroup ? r->cgroup : "-", d->row_cgroup,
		      sizeof(d->row_cgroup), colors_utf8());
	text_sanitize(r->user ? r->user : "?", d->user, sizeof(d->user), colors_utf8());
	d->nthreads = r->nthreads;
	d->fleet = r->instance != NULL;
	d->exited = r->exited;
	d->state = r->state;
	d->rss_kb = r->rss_kb;
	d->start = m && m->sys.boot > 0 && m->sys.clk_tck > 0 && r->start_ticks
			   ? m->sys.boot + (double)r->start_ticks / (double)m->sys.clk_tck
			   : 0;
	d->have_cmdline = r->cmdline != NULL;
	if (r->cmdline)
		text_sanitize(*r->cmdline ? r->cmdline : "-", d->cmdline, sizeof(d->cmdline),
			      colors_utf8());
}

static const char *state_name(char s)
{
	switch (s) {
	case 'R':
		return "running";
	case 'S':
		return "sleeping";
	case 'D':
		return "disk sleep";
	case 'T':
		return "stopped";
	case 't':
		return "traced";
	case 'Z':
		return "zombie";
	case 'X':
		return "dead";
	case 'I':
		return "idle";
	default:
		return "unknown";
	}
}

/* State, memory and start time, then the command line, as /proc last said them. */
static void process_lines(const struct detail *d, struct page *p)
{
	char res[16] = "?", when[32] = "?";
	if (d->rss_kb)
		numfmt_mem((double)d->rss_kb * 1024, res, sizeof(res));
	time_t t = (time_t)d->start;
	struct tm tm;
	if (d->start > 0 && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	text_line(p, A_NORMAL, "state %c (%s)  RES %s  %sstarted %s", d->state ? d->state : '?',
		  state_name(d->state), res, d->kind == ROW_THREAD ? "process " : "", when);
	if (d->have_cmdline)
		text_line(p, A_NORMAL, "command %s", d->cmdline);
	else
		text_line(p, colors_attr(CLR_MISSING), "command line not read (c reads it)");
}

static void identity(const struct detail *d, bool live, struct page *p)
{
	attr_t bold = colors_attr(CLR_LABEL) | A_BOLD;
	const char *id = d->kind == ROW_THREAD ? "TID" : "PID";
	if (!live && !d->kept && d->kind == ROW_CGROUP) {
		text_line(p, bold, "cgroup %s: gone before an interval was kept (Esc: back)",
			  d->row_cgroup);
		return;
	}
	if (!live && !d->kept) {
		text_line(p, bold, "%s %d: gone before an interval was kept (Esc: back)", id,
			  (int)d->tid);
		return;
	}
	if (!live)
		text_line(p, colors_attr(CLR_MISSING) | A_BOLD,
			  "ended: its last values and charts, as they were (Esc: back)");
	const char *ex = d->exited || !live ? " (exited)" : "";
	if (d->kind == ROW_CGROUP) {
		if (d->fleet) /* Prometheus has no process count: none shown, never 0 */
			text_line(p, bold, "cgroup %s%s", d->row_cgroup, live ? "" : " (ended)");
		else
			text_line(p, bold, "cgroup %s  (%u processes)%s", d->row_cgroup,
				  d->nthreads, live ? "" : " (ended)");
		return;
	}
	if (d->kind == ROW_THREAD)
		text_line(p, bold, "TID %d of PID %d  %s%s  user %s", (int)d->tid, (int)d->pid,
			  d->comm, ex, d->user);
	else
		text_line(p, bold, "PID %d  %s%s  user %s  %u thread%s%s", (int)d->pid, d->comm, ex,
			  d->user, d->nthreads, d->nthreads == 1 ? "" : "s",
			  d->subtree ? "  [+] with its descendants, summed" : "");
	text_line(p, A_NORMAL, "cgroup %s", d->row_cgroup);
	process_lines(d, p);
}

/* "cycles 100%", "instructions ~43%", "cycles n/a (unsupported)" for event e. */
static size_t event_text(const struct model *m, const struct mrow *r, int e, char *buf, size_t len)
{
	if (e < 0 || (unsigned)e >= m->nevents || !len)
		return 0;
	char name[64];
	text_sanitize(m->events[e].name, name, sizeof(name), colors_utf8());
	struct val v = r->v[e];
	int n;
	if (!val_has_number(v) && v.state != VAL_EMPTY)
		n = snprintf(buf, len, "%s %s (%s)  ", name, val_mark(v),
			     val_why_str((enum val_why)v.why));
	else if (v.state == VAL_PARTIAL || (v.state == VAL_SCALED && v.why != WHY_NONE))
		/* the share of its parts counted, or of its time that was the task's own */
		n = snprintf(buf, len, "%s %c%.0f%% (%s)  ", name, val_suffix(v), v.run_pm / 10.0,
			     val_why_str((enum val_why)v.why));
	else
		n = snprintf(buf, len, "%s %s%.0f%%  ", name, v.state == VAL_SCALED ? "~" : "",
			     v.run_pm / 10.0);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* Under a chart: the events it is made of, with their RUN% this interval. */
static void events_text(const struct model *m, const struct mrow *r, const struct column *c,
			char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "  events: ");
	if (c->kind != COL_CPU_PCT && n < len)
		n += event_text(m, r, c->a, buf + n, len - n);
	if (c->kind == COL_RATIO && n < len)
		event_text(m, r, c->b, buf + n, len - n);
	if (c->kind == COL_CPU_PCT && r->kind != ROW_CPU && n < len)
		event_text(m, r, c->a, buf + n, len - n);
}

/* Why a metric has no chart: its last interval's mark and reason. */
static void no_chart(const char *label, const struct val *v, unsigned have, struct page *p)
{
	attr_t a = colors_attr(CLR_MISSING);
	struct val last = v[HIST_LEN - 1];
	if (!have)
		text_line(p, a, "%-14s no interval yet", label);
	else if (last.state == VAL_EMPTY)
		text_line(p, a, "%-14s -: nothing to divide (no cycles, references or branches)",
			  label);
	else
		text_line(p, a, "%-14s %s: %s", label, val_mark(last) ? val_mark(last) : "n/a",
			  *val_why_str((enum val_why)last.why) ? val_why_str((enum val_why)last.why)
							       : "no number");
}

/* Chart i as the row's history has it now. */
static void keep_chart(struct detail_chart *k, const struct model *m, const struct history *hist,
		       const struct mrow *r, long slot, int i)
{
	const struct column *c = history_column(hist, shown[i].k);
	k->have_col = c != NULL;
	if (!c)
		return;
	k->col = *c;
	k->have = history_get(hist, slot, shown[i].k, HIST_LEN, k->v);
	k->span = history_span(hist, k->have);
	events_text(m, r, c, k->events, sizeof(k->events));
}

static void chart_block(const struct detail_chart *k, int i, int ch, struct page *p)
{
	const struct column *c = &k->col;
	const char *label = shown[i].label;
	if (!k->have_col) {
		text_line(p, colors_attr(CLR_MISSING),
			  "%-14s n/a: its events are not counted (e chooses events)", label);
		return;
	}
	const struct val *v = k->v;
	double lo = 0, hi = 0;
	struct val last = v[HIST_LEN - 1];
	struct val any;
	if (!chart_stats(v, HIST_LEN, &lo, &hi, &any)) {
		no_chart(label, v, k->have, p);
		text_line(p, colors_attr(CLR_MISSING), "%s", k->events);
		return;
	}
	char slo[32], shi[32], slast[32], span[16], stop[32];
	column_format_val(c, (struct val){.v = lo, .state = VAL_EXACT}, slo, sizeof(slo));
	column_format_val(c, (struct val){.v = hi, .state = VAL_EXACT}, shi, sizeof(shi));
	column_format_val(c, last, slast, sizeof(slast));
	chart_span(k->span, span, sizeof(span));
	text_line(p, colors_attr(CLR_LABEL) | A_BOLD, "%-14s last %s%s  min %s  max %s  over %s",
		  label, slast,
		  last.state == VAL_SCALED    ? "~"
		  : last.state == VAL_PARTIAL ? "+"
					      : "",
		  slo, shi, span);
	double top = chart_nice(hi);
	column_format_val(c, (struct val){.v = top, .state = VAL_EXACT}, stop, sizeof(stop));
	int cw = p->w - AXIS_W;
	if (cw > HIST_LEN / 2)
		cw = HIST_LEN / 2;
	static char lines[CHART_MAX_H][CHART_MAX_W * 3 + 1];
	if (cw > 0)
		chart_render(v, HIST_LEN, cw, ch, top, colors_utf8(), lines);
	for (int j = 0; j < ch; j++) {
		int y = line(p);
		if (y < 0)
			continue;
		char axis[32];
		snprintf(axis, sizeof(axis), "%*s |", AXIS_W - 2,
			 j == 0	       ? stop
			 : j == ch - 1 ? "0"
				       : "");
		paint_text(y, 0, AXIS_W, axis, colors_attr(CLR_LABEL));
		if (cw > 0)
			paint_text(y, AXIS_W, cw, lines[j], colors_attr(CLR_VALUE));
	}
	text_line(p, colors_attr(CLR_MISSING), "%s", k->events);
}

/* Top-down level 2 of the row (docs/TOPDOWN.md): each chosen metric's last value, or
 * its gap and why; one line on how to choose it when the CPU has it and none is. */
static void level2(const struct model *m, const struct mrow *r, struct page *p)
{
	struct metric_bind *b = m ? m->metrics : NULL;
	if (!r || !metric_bind_has_role(b, MROLE_TOPDOWN2))
		return;
	attr_t label = colors_attr(CLR_LABEL) | A_BOLD;
	if (!metric_bind_count_role(b, MROLE_TOPDOWN2)) {
		text_line(p, colors_attr(CLR_MISSING),
			  "Top-down level 2: not counted (-M TopdownL1,TopdownL2 counts it)");
		return;
	}
	text_line(p, label, "Top-down level 2");
	for (unsigned k = 0; k < metric_bind_count(b); k++) {
		if (metric_bind_role(b, k) != MROLE_TOPDOWN2)
			continue;
		const char *why = NULL;
		struct val v = metric_bind_value(b, m, r, k, &why);
		const struct metric_def *d = metric_bind_def(b, k);
		char name[64], desc[160], cell[48];
		text_sanitize(metric_bind_name(b, k), name, sizeof(name), colors_utf8());
		text_sanitize(d->desc ? d->desc : "", desc, sizeof(desc), colors_utf8());
		if (!val_has_number(v)) {
			const char *w = why && *why ? why : val_why_str((enum val_why)v.why);
			text_line(p, colors_attr(CLR_MISSING), "  %-34s %8s  %s", name,
				  val_mark(v) ? val_mark(v) : "n/a", *w ? w : desc);
			continue;
		}
		char sfx[2] = {val_suffix(v), 0};
		if (metric_bind_is_pct(b, k))
			snprintf(cell, sizeof(cell), "%.1f%%%s", v.v, sfx);
		else
			snprintf(cell, sizeof(cell), "%.3f%s", v.v, sfx);
		text_line(p, colors_attr(sfx[0] ? CLR_SCALED : CLR_VALUE), "  %-34s %8s  %s", name,
			  cell, desc);
	}
}

/* A process's threads, each with its CPU% and that trend. */
static void threads(const struct model *m, const struct history *hist, const struct mrow *r,
		    struct page *p)
{
	if (!r || r->kind != ROW_PROC)
		return;
	const struct column *cpu = history_column(hist, HM_CPU);
	unsigned n = 0;
	/* The threads' trends share a scale, as the table's rows do. */
	double hi = 0;
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct mrow *t = &m->rows[i];
		double x = t->kind == ROW_THREAD && t->pid == r->pid
				   ? table_trend_max(hist, t, HM_CPU, TABLE_TREND_W)
				   : 0;
		hi = x > hi ? x : hi;
	}
	double top = hi > 0 ? chart_nice(hi) : 0;
	char title[48];
	table_trend_title(cpu, top, TABLE_TREND_W, title, sizeof(title));
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct mrow *t = &m->rows[i];
		if (t->kind != ROW_THREAD || t->pid != r->pid)
			continue;
		if (n++ == 0)
			text_line(p, colors_attr(CLR_LABEL) | A_BOLD, "Threads     CPU%%  %s",
				  title);
		char comm[64], pct[16] = "";
		text_sanitize(t->comm ? t->comm : "", comm, sizeof(comm), colors_utf8());
		if (cpu)
			column_format(cpu, m, t, pct, sizeof(pct));
		int y = line(p);
		if (y < 0)
			continue;
		char head[48];
		snprintf(head, sizeof(head), "%7d %6s  ", (int)t->tid, pct);
		paint_text(y, 0, p->w, head, A_NORMAL);
		int x = (int)strlen(head);
		table_trend(hist, t, HM_CPU, top, y, x, TABLE_TREND_W, A_NORMAL, false);
		paint_text(y, x + TABLE_TREND_W + 1, p->w - x - TABLE_TREND_W - 1, comm,
			   colors_attr(CLR_THREAD));
	}
	if (n == 0 && r->nthreads > 1)
		text_line(p, colors_attr(CLR_MISSING), "%u threads: H shows a row for each",
			  r->nthreads);
}

void detail_draw(struct detail *d, const struct model *m, const struct mrow *sums, unsigned nsums,
		 const struct history *hist, int y, int h, int w)
{
	const struct mrow *r = find_row(d, m, sums, nsums);
	long slot = r && hist ? history_find(hist, history_id_of(r)) : -1;
	if (r)
		keep_identity(d, m, r);
	if (slot >= 0) {
		for (int i = 0; i < NSHOWN; i++)
			keep_chart(&d->charts[i], m, hist, r, slot, i);
		d->kept = true;
	}
	bool charts = d->kept && (slot >= 0 || !r);
	/* Charts share what the fixed lines leave: a title and an events line each. */
	int idlines = d->kind != ROW_CGROUP ? 4 : 1, drawable = 0;
	idlines += d->kept && !r;
	for (int i = 0; i < NSHOWN && charts; i++) {
		double lo, hi;
		struct val last;
		drawable += d->charts[i].have_col &&
			    chart_stats(d->charts[i].v, HIST_LEN, &lo, &hi, &last);
	}
	int ch = drawable ? (h - idlines - 2 * NSHOWN) / drawable : 1;
	ch = ch < 1 ? 1 : ch > MAX_CHART_LINES ? MAX_CHART_LINES : ch;
	struct page p = {.y = y, .h = h, .w = w, .top = d->top};
	identity(d, r != NULL, &p);
	if (!hist)
		text_line(&p, colors_attr(CLR_MISSING), "no history kept");
	else if (r && slot < 0)
		text_line(&p, colors_attr(CLR_MISSING),
			  "no interval yet: charts follow the next one");
	for (int i = 0; i < NSHOWN && charts; i++)
		chart_block(&d->charts[i], i, ch, &p);
	if (r)
		level2(m, r, &p);
	if (!d->subtree)
		threads(m, hist, r, &p);
	d->lines = p.at;
	d->room = h;
}

enum detail_res detail_key(struct detail *d, int key)
{
	const struct binding *b = bindings_find(BIND_MODE_DETAIL, key);
	int page = d->room > 1 ? d->room - 1 : 1, last = d->lines - d->room;
	switch (b ? b->act : BIND_NONE) {
	case BIND_BACK:
		return DETAIL_BACK;
	case BIND_MOVE:
		d->top += key == KEY_UP	     ? -1
			  : key == KEY_DOWN  ? 1
			  : key == KEY_PPAGE ? -page
			  : key == KEY_NPAGE ? page
			  : key == KEY_HOME  ? -d->lines
					     : d->lines;
		d->top = d->top > last ? last : d->top;
		d->top = d->top < 0 ? 0 : d->top;
		return DETAIL_STAY;
	case BIND_WATCH_SEL:
		/* A cgroup's processes: back to process rows, narrowed to its tree. */
		if (d->kind == ROW_CGROUP && d->cgroup[0])
			return DETAIL_WATCH_CGROUP;
		if (d->kind != ROW_PROC && d->kind != ROW_THREAD)
			return DETAIL_NO_PROCESS;
		return DETAIL_WATCH_PID;
	case BIND_NONE:
		return DETAIL_UNKNOWN;
	default:
		return DETAIL_PASS;
	}
}
