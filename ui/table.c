/* Drawing the table. Each column takes its width plus one slot after it: the slot of a
 * numeric cell holds '~' when the value was scaled for multiplexing, the slot of the
 * sort column's title holds the direction arrow. */
#include "table.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "paint.h"
#include "text.h"

#define CELL_MAX 256

/* Width of column i: its own, or what is left for the last one (COMMAND). */
static int col_width(const struct pane *p, unsigned i, int x, int w)
{
	const struct column *c = &p->cols[i];
	if (i + 1 == p->ncols && c->left)
		return w - x > 1 ? w - x : 1;
	if (c->width > 0)
		return c->width;
	return (int)strlen(c->title);
}

/* Titles carry their own padding ("  IPC"); the table aligns them itself. */
static const char *trim(const char *s, char *buf, size_t len)
{
	while (*s == ' ')
		s++;
	snprintf(buf, len, "%s", s);
	size_t n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return buf;
}

static void draw_titles(const struct table_view *t, int y, int w)
{
	const struct pane *p = t->pane;
	paint_fill(y, 0, w, colors_attr(CLR_COLHDR));
	int x = 0;
	for (unsigned i = 0; i < p->ncols && x < w; i++) {
		const struct column *c = &p->cols[i];
		int cw = col_width(p, i, x, w);
		bool sorted = (int)i == t->sort_col;
		attr_t a = colors_attr(sorted ? CLR_COLHDR_SORT : CLR_COLHDR);
		char title[64];
		trim(c->title, title, sizeof(title));
		const char *arrow = colors_glyph(t->descending ? GLYPH_SORT_DOWN : GLYPH_SORT_UP);
		if (c->left) {
			int used = paint_text(y, x, cw, title, a);
			if (sorted)
				paint_text(y, x + used, cw + 1 - used, arrow, a);
		} else {
			paint_right(y, x, cw, title, a);
			if (sorted)
				paint_text(y, x + cw, 1, arrow, a);
		}
		x += cw + 1;
	}
}

void table_cell_text(const struct model *m, const struct column *c, const struct mrow *r,
		     char *buf, size_t len)
{
	char raw[CELL_MAX];
	column_format(c, m, r, raw, sizeof(raw));
	/* Numbers are ours; names come from other processes and may try to steer the
	 * terminal. Sanitise every text cell, whatever the column. */
	text_sanitize(raw, buf, len, colors_utf8());
}

/* The command cell: threads hang under their process, exited tasks say so. */
static void command_text(const struct model *m, const struct column *c, const struct mrow *r,
			 char *buf, size_t len)
{
	char name[CELL_MAX];
	table_cell_text(m, c, r, name, sizeof(name));
	snprintf(buf, len, "%s%s%s", r->kind == ROW_THREAD ? colors_glyph(GLYPH_THREAD) : "",
		 name, r->exited ? " (exited)" : "");
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

static void draw_cell(const struct table_view *t, const struct column *c, const struct mrow *r,
		      int y, int x, int cw, attr_t base, bool selected)
{
	char text[CELL_MAX];
	if (!column_is_numeric(c)) {
		attr_t a = base;
		if (c->kind == COL_COMMAND) {
			command_text(t->m, c, r, text, sizeof(text));
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
	column_format(c, t->m, r, text, sizeof(text));
	attr_t a = base;
	if (!selected && !val_has_number(v))
		a = colors_attr(CLR_MISSING);
	else if (!selected && v.state == VAL_SCALED)
		a = colors_attr(CLR_SCALED);
	paint_right(y, x, cw, text, a);
	if (v.state == VAL_SCALED)
		paint_text(y, x + cw, 1, "~", a);
}

static void draw_row(const struct table_view *t, const struct mrow *r, int y, int w,
		     bool selected)
{
	attr_t base = row_attr(r, selected);
	if (selected)
		paint_fill(y, 0, w, base);
	const struct pane *p = t->pane;
	int x = 0;
	for (unsigned i = 0; i < p->ncols && x < w; i++) {
		int cw = col_width(p, i, x, w);
		draw_cell(t, &p->cols[i], r, y, x, cw, base, selected);
		x += cw + 1;
	}
}

void table_draw(const struct table_view *t, int y, int h, int w)
{
	if (h <= 0 || !t->pane)
		return;
	draw_titles(t, y, w);
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
		draw_row(t, &t->m->rows[rs->idx[pos]], y + k, w, pos == rs->sel);
	}
}
