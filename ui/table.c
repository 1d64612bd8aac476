/* Drawing the table. Each column takes its width plus one slot after it: the slot of a
 * numeric cell holds '~' when the value was scaled for multiplexing, '+' when it is a
 * partial sum, the slot of the sort column's title holds the direction arrow. */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "colors.h"
#include "history.h"
#include "numfmt.h"
#include "paint.h"
#include "sort.h"
#include "spark.h"
#include "text.h"

#define CELL_MAX 256
#define CMD_TEXT_MAX 8192 /* a command line (4 KiB as read) sanitised, and its prefix */

#define CMD_MIN 16   /* a whole command name (TASK_COMM_LEN - 1) */
#define CMD_NARROW 8 /* the command's least, before the sort column goes */
#define COLS_MAX (sizeof(((struct pane *)0)->cols) / sizeof(((struct pane *)0)->cols[0]))

/* Where each column goes on a screen w wide. */
struct plan {
	int x[COLS_MAX], w[COLS_MAX];
	bool shown[COLS_MAX];
	bool sci[COLS_MAX]; /* its values below 1 in e-notation, all of them (one_format) */
	unsigned hidden;
	int trend_x, trend_w; /* the TREND column; trend_w 0: not shown */
	int trend;	      /* the history metric it draws */
	double trend_top;     /* the scale every row's trend shares; 0: none has a number */
	char trend_title[48];
};

#define TREND_MIN 8 /* narrower than this, the trend goes */

static bool is_command(const struct pane *p, unsigned i)
{
	return i + 1 == p->ncols && p->cols[i].left;
}

#define TITLE_MAX 24 /* a right-aligned column grows to its title up to this */

/* A right-aligned title keeps a blank before it: the slot of the column to its left
 * may hold the sort arrow. */
static int natural_width(const struct column *c)
{
	const char *t = c->title;
	while (*t == ' ')
		t++;
	int tl = (int)strlen(t);
	if (c->width <= 0)
		return tl;
	if (!c->left && tl + 1 > c->width)
		return tl + 1 < TITLE_MAX ? tl + 1 : c->width > TITLE_MAX ? c->width : TITLE_MAX;
	return c->width;
}

/* A column the table must keep however narrow the screen: who the row is, what it is
 * sorted by, and how long its counters ran. */
static bool keep(const struct table_view *t, unsigned i)
{
	const struct column *c = &t->pane->cols[i];
	return c->kind == COL_PID || c->kind == COL_RUN_PCT || (int)i == t->sort_col;
}

/* Which columns go first when the screen is narrow: where a task runs (its cgroup),
 * memory and state are facts top shows too; rates repeat the counts, counts matter less
 * than the ratios made of them, and the ratios are what a pane is for. */
static const enum col_kind drop_order[] = {
	COL_CGROUP, COL_PRIO,	COL_VIRT,  COL_SHR,  COL_MEM_PCT, COL_IO_RD,
	COL_IO_WR,  COL_RES,	COL_STATE, COL_RATE, COL_THREADS, COL_COUNT,
	COL_TID,    COL_CPU_ID, COL_GHZ,   COL_USER, COL_RATIO,	  COL_CPU_PCT,
};

/* Columns keep their widths; the command takes the rest. When the rest is less than a
 * command name, columns go in drop_order, right to left within a kind, except those
 * keep() protects; then those but the PID and the sort column; then the command
 * narrows; then the sort column goes; the command stays. */
static void plan_columns(const struct table_view *t, int w, struct plan *pl)
{
	const struct pane *p = t->pane;
	unsigned n = p->ncols < COLS_MAX ? p->ncols : COLS_MAX;
	int need = 0;
	memset(pl, 0, sizeof(*pl));
	for (unsigned i = 0; i < n; i++) {
		pl->shown[i] = true;
		need += is_command(p, i) ? CMD_MIN : natural_width(&p->cols[i]) + 1;
	}
	/* The trend goes first: narrower, then away. */
	pl->trend_w = t->hist ? TABLE_TREND_W : 0;
	if (pl->trend_w && need + pl->trend_w + 1 > w)
		pl->trend_w = w - need - 1 >= TREND_MIN ? w - need - 1 : 0;
	need += pl->trend_w ? pl->trend_w + 1 : 0;
	for (size_t k = 0; k < sizeof(drop_order) / sizeof(drop_order[0]); k++) {
		for (unsigned i = n; i-- > 0 && need > w;) {
			if (p->cols[i].kind != drop_order[k] || is_command(p, i) || keep(t, i))
				continue;
			pl->shown[i] = false;
			pl->hidden++;
			need -= natural_width(&p->cols[i]) + 1;
		}
	}
	/* Narrower still: the protected ones too, right to left, but the sort column; then
	 * the command narrows to CMD_NARROW; then the sort column goes. The PID and the
	 * command stay. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && need > w)
			need -= CMD_MIN - CMD_NARROW;
		for (unsigned i = n; i-- > 0 && need > w;) {
			if (!pl->shown[i] || is_command(p, i) ||
			    (i == 0 && p->cols[i].kind == COL_PID) ||
			    (pass == 0 && (int)i == t->sort_col))
				continue;
			pl->shown[i] = false;
			pl->hidden++;
			need -= natural_width(&p->cols[i]) + 1;
		}
	}
	int x = 0;
	bool after_sort = false;
	for (unsigned i = 0; i < n; i++) {
		if (!pl->shown[i])
			continue;
		/* The sort arrow fills the slot after its column: the left-aligned title
		 * after it (the trend's, the command's) keeps a blank from it all the same. */
		if (after_sort && is_command(p, i))
			x++;
		after_sort = (int)i == t->sort_col && !p->cols[i].left;
		if (is_command(p, i) && pl->trend_w) {
			pl->trend_x = x;
			x += pl->trend_w + 1;
		}
		pl->x[i] = x;
		pl->w[i] = is_command(p, i) ? (w - x > 1 ? w - x : 1) : natural_width(&p->cols[i]);
		x += pl->w[i] + 1;
	}
}

/* Titles carry their own padding ("  IPC"); the table aligns them itself. Titles of
 * user events are what the user typed: sanitised too. */
static const char *trim(const char *s, char *buf, size_t len)
{
	char tmp[64];
	while (*s == ' ')
		s++;
	snprintf(tmp, sizeof(tmp), "%s", s);
	size_t n = strlen(tmp);
	while (n && tmp[n - 1] == ' ')
		tmp[--n] = '\0';
	text_sanitize(tmp, buf, len, colors_utf8());
	return buf;
}

static void draw_title(const struct table_view *t, unsigned i, const struct plan *pl, int y)
{
	const struct column *c = &t->pane->cols[i];
	bool sorted = (int)i == t->sort_col;
	attr_t a = colors_attr(sorted ? CLR_COLHDR_SORT : CLR_COLHDR);
	int x = pl->x[i], cw = pl->w[i];
	char title[96];
	trim(c->title, title, sizeof(title));
	if (is_command(t->pane, i) && t->hscroll > 0) {
		/* Scrolled sideways (Ctrl-F): from which character on. */
		size_t n = strlen(title);
		snprintf(title + n, sizeof(title) - n, " [+%d]", t->hscroll);
	}
	if (is_command(t->pane, i) && pl->hidden) {
		/* Say that columns did not fit (the help screen says what "(+N)" means). */
		size_t n = strlen(title);
		snprintf(title + n, sizeof(title) - n, " (+%u)", pl->hidden);
	}
	const char *arrow = colors_glyph(t->descending ? GLYPH_SORT_DOWN : GLYPH_SORT_UP);
	if (c->left) {
		int used = paint_text(y, x, cw, title, a);
		if (sorted)
			paint_text(y, x + used, cw + 1 - used, arrow, a);
	} else {
		/* Too long for its column: cut, with a blank before it all the same. */
		if (paint_width(title) >= cw && cw > 1)
			paint_right(y, x + 1, cw - 1, title, a);
		else
			paint_right(y, x, cw, title, a);
		if (sorted)
			paint_text(y, x + cw, 1, arrow, a);
	}
}

static void draw_titles(const struct table_view *t, const struct plan *pl, int y, int w)
{
	paint_fill(y, 0, w, colors_attr(CLR_COLHDR));
	for (unsigned i = 0; i < t->pane->ncols && i < COLS_MAX; i++)
		if (pl->shown[i] && pl->x[i] < w)
			draw_title(t, i, pl, y);
	if (pl->trend_w)
		paint_text(y, pl->trend_x, pl->trend_w, pl->trend_title, colors_attr(CLR_COLHDR));
}

double table_trend_max(const struct history *h, const struct mrow *r, int k, int w)
{
	struct val v[SPARK_MAX];
	if (w > SPARK_MAX)
		w = SPARK_MAX;
	long s = history_find(h, history_id_of(r));
	if (w <= 0 || s < 0)
		return 0;
	history_get(h, s, k, (unsigned)w, v);
	return spark_max(v, (unsigned)w);
}

void table_trend_title(const struct column *c, double top, int w, char *buf, size_t len)
{
	char num[32] = "";
	const char *full = spark_glyph(7, colors_utf8());
	bool ratio = c && (c->format == column_fmt_ratio || c->format == column_fmt_ratio_pct);
	if (ratio && top > 0 && top < 1e-3) /* as its column writes it (one_format) */
		numfmt_exp(top, 2, num, sizeof(num));
	else if (c && top > 0)
		column_format_val(c, (struct val){.v = top, .state = VAL_EXACT}, num, sizeof(num));
	const char *n = num;
	while (*n == ' ')
		n++;
	snprintf(buf, len, "TREND %s=%s", full, n);
	if (!*n || paint_width(buf) > w)
		snprintf(buf, len, *n && (int)strlen(n) + 2 <= w ? "%s=%s" : "TREND", full, n);
}

void table_trend(const struct history *h, const struct mrow *r, int k, double top, int y, int x,
		 int w, attr_t base, bool selected)
{
	struct val v[SPARK_MAX];
	char text[SPARK_MAX * 4 + 1];
	uint32_t scaled;
	if (w > SPARK_MAX)
		w = SPARK_MAX;
	long s = history_find(h, history_id_of(r));
	if (w <= 0 || s < 0)
		return;
	history_get(h, s, k, (unsigned)w, v);
	bool utf8 = colors_utf8();
	spark_render_to(v, (unsigned)w, top, utf8, text, sizeof(text), &scaled);
	attr_t dim = selected ? base | A_DIM : colors_attr(CLR_SCALED) | A_DIM;
	/* One glyph per cell: walk the rendered text. */
	const char *g = text;
	for (int i = 0; i < w && *g; i++) {
		size_t n = utf8 ? ((unsigned char)*g >= 0xe0 ? 3 : 1) : 1;
		char cell[4] = {0};
		memcpy(cell, g, n);
		g += n;
		paint_text(y, x + i, 1, cell, (scaled >> i) & 1 ? dim : base);
	}
}

/* The trend a table shows: the sort column's series when the history keeps it (every
 * numeric column of the panes, and the tracked one), else CPU%; *col its column. */
static int trend_metric(const struct table_view *t, const struct column **col)
{
	const struct column *c = t->sort_col >= 0 ? &t->pane->cols[t->sort_col] : NULL;
	int k = history_kept(t->hist, c);
	*col = k >= 0 ? c : history_column(t->hist, HM_CPU);
	return k >= 0 ? k : HM_CPU;
}

/* Row i of the table as drawn: a folded tree row's sum, or the model's row. */
static const struct mrow *row_at(const struct table_view *t, size_t pos)
{
	return t->over && t->over[pos] ? t->over[pos] : &t->m->rows[t->rows->idx[pos]];
}

/* Every trend on screen shares one scale, so that a row at 0.1% does not draw as tall
 * as one at 300%: the largest value the visible rows' trends hold, rounded up as the
 * detail charts' axes are (1, 2, 2.5, 5 times a power of ten), said in the title. */
static void trend_scale(const struct table_view *t, struct plan *pl, int h)
{
	const struct column *c = NULL;
	pl->trend = trend_metric(t, &c);
	double hi = 0;
	for (int k = 1; k < h; k++) {
		size_t pos = t->rows->top + (size_t)(k - 1);
		if (pos >= t->rows->n)
			break;
		double x = table_trend_max(t->hist, row_at(t, pos), pl->trend, pl->trend_w);
		hi = x > hi ? x : hi;
	}
	pl->trend_top = hi > 0 ? chart_nice(hi) : 0;
	table_trend_title(c, pl->trend_top, pl->trend_w, pl->trend_title, sizeof(pl->trend_title));
}

void table_cell_text(const struct model *m, const struct column *c, const struct mrow *r, char *buf,
		     size_t len)
{
	char raw[CELL_MAX];
	column_format(c, m, r, raw, sizeof(raw));
	/* Numbers are ours; names come from other processes and may try to steer the
	 * terminal. Sanitise every text cell, whatever the column. */
	text_sanitize(raw, buf, len, colors_utf8());
}

/* The command cell: threads hang under their process, exited tasks say so. */
/* A cgroup row: indented by its depth in the tree, [+] when its subtree is folded. */
static void cgroup_prefix(const struct table_view *t, const struct mrow *r, char *buf, size_t len)
{
	unsigned d = r->cgroup ? sort_cgroup_depth(r->cgroup) : 0;
	bool folded = false;
	for (unsigned i = 0; r->cgroup && i < t->ncollapsed && !folded; i++)
		folded = strcmp(t->collapsed[i], r->cgroup) == 0;
	snprintf(buf, len, "%*s%s", (int)(d > 8 ? 16 : 2 * d), "", folded ? "[+] " : "");
}

/* A process row's place in the tree: a line down for each ancestor with a sibling
 * below, then ├─ or └─ (|, |- and `- without UTF-8); up to 8 levels shown. */
static void tree_prefix(const struct table_view *t, size_t pos, char *buf, size_t len)
{
	unsigned d = t->depth[pos];
	bool utf8 = colors_utf8();
	uint64_t b = t->bars ? t->bars[pos] : 0;
	size_t at = 0;
	buf[0] = '\0';
	for (unsigned l = 1; d > 0 && l <= d; l++) {
		const char *seg;
		if (l < d && l + 7 < d)
			continue; /* deeper than 8: the nearest 8 levels */
		if (l < d)
			seg = b >> l & 1 ? (utf8 ? "\xe2\x94\x82 " : "| ") : "  ";
		else
			seg = b & 1 ? (utf8 ? "\xe2\x94\x9c\xe2\x94\x80" : "|-")
				    : (utf8 ? "\xe2\x94\x94\xe2\x94\x80" : "`-");
		int n = snprintf(buf + at, len - at, "%s", seg);
		if (n < 0 || (size_t)n >= len - at)
			break;
		at += (size_t)n;
	}
	if (t->over && t->over[pos])
		snprintf(buf + at, len - at, "%s[+] ", d ? " " : "");
	else if (d && at + 1 < len)
		snprintf(buf + at, len - at, " ");
}

static void command_text(const struct table_view *t, const struct column *c, const struct mrow *r,
			 size_t pos, char *buf, size_t len)
{
	char name[CMD_TEXT_MAX], pre[128] = "";
	table_cell_text(t->m, c, r, name, sizeof(name));
	if (t->cmdline && r->cmdline && r->kind == ROW_PROC) {
		/* As top's c: the arguments, sanitised; a kernel thread's name in brackets. A
		 * user process without arguments (a zombie, one that ended) keeps its name. */
		char raw[CMD_TEXT_MAX];
		if (*r->cmdline)
			snprintf(raw, sizeof(raw), "%s", r->cmdline);
		else if (r->kthread)
			snprintf(raw, sizeof(raw), "[%s]", r->comm ? r->comm : "?");
		else
			snprintf(raw, sizeof(raw), "%s", r->comm ? r->comm : "?");
		text_sanitize(raw, name, sizeof(name), colors_utf8());
	}
	if (r->kind == ROW_CGROUP) {
		cgroup_prefix(t, r, pre, sizeof(pre));
	} else if (t->depth && (r->kind == ROW_PROC || r->kind == ROW_THREAD)) {
		/* The tree view: its lines (a thread is its process's child); [+] a folded
		 * subtree's sum. */
		tree_prefix(t, pos, pre, sizeof(pre));
	} else if (t->depth) {
		unsigned d = t->depth[pos];
		snprintf(pre, sizeof(pre), "%*s", (int)(d > 8 ? 17 : d ? 2 * d + 1 : 0), "");
	}
	char full[CMD_TEXT_MAX + 160];
	snprintf(full, sizeof(full), "%s%s%s%s", pre,
		 r->kind == ROW_THREAD && !t->depth ? colors_glyph(GLYPH_THREAD) : "", name,
		 r->exited ? " (exited)" : "");
	/* Scrolled sideways: its first hscroll characters off to the left. */
	const char *p = full;
	for (int k = 0; k < t->hscroll && *p; k++)
		for (p++; ((unsigned char)*p & 0xc0) == 0x80; p++)
			;
	snprintf(buf, len, "%s", p);
}

static attr_t row_attr(const struct mrow *r, bool selected)
{
	if (selected)
		return colors_attr(CLR_SELECTED);
	if (r->exited)
		return colors_attr(CLR_EXITED);
	if (r->kthread)
		return colors_attr(CLR_KTHREAD);
	return colors_attr(CLR_NORMAL);
}

/* A value below 1 as a column of e-notation writes it. */
static bool sci_value(struct val v)
{
	return val_has_number(v) && v.v != 0 && fabs(v.v) < 1;
}

/* One format per column: where a visible ratio (a chosen metric's, whose values may be
 * anywhere from 1e-12 up) needs e-notation in its width, every value of it below 1 takes
 * it, not 0.000000061 beside 2.0e-9. */
static void one_format(const struct table_view *t, struct plan *pl, int h)
{
	for (unsigned i = 0; i < t->pane->ncols && i < COLS_MAX; i++) {
		const struct column *c = &t->pane->cols[i];
		if (!pl->shown[i] ||
		    (c->format != column_fmt_ratio && c->format != column_fmt_ratio_pct))
			continue;
		for (int k = 1; k < h && !pl->sci[i]; k++) {
			size_t pos = t->rows->top + (size_t)(k - 1);
			if (pos >= t->rows->n)
				break;
			const struct mrow *r = row_at(t, pos);
			char text[CELL_MAX];
			column_format(c, t->m, r, text, sizeof(text));
			pl->sci[i] = sci_value(column_value(c, t->m, r)) && strchr(text, 'e');
		}
	}
}

static void draw_cell(const struct table_view *t, const struct column *c, const struct mrow *r,
		      size_t pos, int y, int x, int cw, attr_t base, bool selected, bool sci)
{
	char text[CMD_TEXT_MAX];
	if (!column_is_numeric(c)) {
		attr_t a = base;
		if (c->kind == COL_COMMAND) {
			command_text(t, c, r, pos, text, sizeof(text));
			if (r->kind == ROW_THREAD && !selected && !r->exited)
				a = colors_attr(CLR_THREAD);
		} else {
			table_cell_text(t->m, c, r, text, sizeof(text));
		}
		if (c->left)
			paint_text(y, x, cw, text, a);
		else
			paint_right(y, x, cw, text, a);
		return;
	}
	struct val v = column_value(c, t->m, r);
	if (sci && sci_value(v))
		numfmt_exp(v.v, 2, text, sizeof(text));
	else
		column_format(c, t->m, r, text, sizeof(text));
	attr_t a = base;
	if (!selected && !val_has_number(v))
		a = colors_attr(CLR_MISSING);
	else if (!selected && val_suffix(v))
		a = colors_attr(CLR_SCALED);
	paint_right(y, x, cw, text, a);
	if (val_suffix(v))
		paint_text(y, x + cw, 1, v.state == VAL_SCALED ? "~" : "+", a);
}

static void draw_row(const struct table_view *t, const struct plan *pl, const struct mrow *r,
		     size_t pos, int y, int w, bool selected)
{
	attr_t base = row_attr(r, selected);
	if (selected)
		paint_fill(y, 0, w, base);
	for (unsigned i = 0; i < t->pane->ncols && i < COLS_MAX; i++)
		if (pl->shown[i] && pl->x[i] < w)
			draw_cell(t, &t->pane->cols[i], r, pos, y, pl->x[i], pl->w[i], base,
				  selected, pl->sci[i]);
	if (pl->trend_w)
		table_trend(t->hist, r, pl->trend, pl->trend_top, y, pl->trend_x, pl->trend_w, base,
			    selected);
	/* Tagged (Space): a mark in the slot after the PID. */
	pid_t id = r->kind == ROW_THREAD ? r->tid : r->pid;
	for (unsigned i = 0;
	     i < t->ntags && t->pane->ncols && pl->shown[0] && t->pane->cols[0].kind == COL_PID &&
	     (r->kind == ROW_PROC || r->kind == ROW_THREAD);
	     i++)
		if (t->tags[i] == id) {
			paint_text(y, pl->x[0] + pl->w[0], 1, "*", base | A_BOLD);
			break;
		}
}

int table_column_at(const struct table_view *t, int w, int x)
{
	struct plan pl;
	if (!t->pane)
		return -1;
	plan_columns(t, w, &pl);
	for (unsigned i = 0; i < t->pane->ncols && i < COLS_MAX; i++)
		if (pl.shown[i] && x >= pl.x[i] && x < pl.x[i] + pl.w[i] + 1)
			return (int)i;
	return -1;
}

void table_draw(const struct table_view *t, int y, int h, int w)
{
	if (h <= 0 || !t->pane)
		return;
	struct plan pl;
	plan_columns(t, w, &pl);
	pl.trend = HM_CPU;
	if (t->hist && pl.trend_w)
		trend_scale(t, &pl, h);
	one_format(t, &pl, h);
	draw_titles(t, &pl, y, w);
	const struct rows *rs = t->rows;
	if (rs->n == 0 && t->empty) {
		if (h > 1)
			paint_text(y + 1, 1, w - 1, t->empty, colors_attr(CLR_MISSING));
		return;
	}
	for (int k = 1; k < h; k++) {
		size_t pos = rs->top + (size_t)(k - 1);
		if (pos >= rs->n)
			break;
		draw_row(t, &pl, row_at(t, pos), pos, y + k, w, pos == rs->sel);
	}
}
