/* The process table: a generic widget over struct column. It knows how to draw a title
 * line and cells of any column; panes are only lists of columns. */
#ifndef PMUTOP_TABLE_H
#define PMUTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "curs.h"
#include "model.h"
#include "rows.h"

struct history;

#define TABLE_TREND_W 20 /* intervals in the TREND column */

struct table_view {
	const struct model *m;
	const struct pane *pane;
	int sort_col; /* index into pane->cols; -1: none */
	bool descending;
	const struct rows *rows;
	const char *empty;	      /* shown when there are no rows */
	bool cmdline;		      /* COMMAND shows the arguments where the row has them */
	const char *const *collapsed; /* cgroup rows shown folded ([+]) */
	unsigned ncollapsed;
	const unsigned char *depth;	/* the tree view: each shown row's depth, or NULL */
	const struct mrow *const *over; /* the tree view: a folded row's sum, or NULL */
	const uint64_t *bars;		/* the tree view: its lines (tree.h), or NULL */
	const struct history *hist;	/* NULL: no TREND column */
	const pid_t *tags;		/* tagged tasks (a * after the PID), ntags of them */
	unsigned ntags;
	int hscroll; /* characters of COMMAND scrolled off to the left */
};

/* Draw the title line at y and rows below it, h lines in all, w columns wide. */
void table_draw(const struct table_view *t, int y, int h, int w);

/* The column shown at screen column x of a table w wide, or -1 (the mouse). */
int table_column_at(const struct table_view *t, int w, int x);

/* The text a cell shows, sanitised, without marks: for tests and the help screen. */
void table_cell_text(const struct model *m, const struct column *c, const struct mrow *r, char *buf,
		     size_t len);

/* Draw row r's trend of history metric k (HM_COUNT: the tracked column) in w cells at
 * (y, x), scaled from 0 to top (rows drawn together share it; <= 0: the row's own
 * largest): scaled intervals dim, intervals without a number blank. */
void table_trend(const struct history *h, const struct mrow *r, int k, double top, int y, int x,
		 int w, attr_t base, bool selected);
/* The largest number in the last w intervals of row r's metric k (0: none). */
double table_trend_max(const struct history *h, const struct mrow *r, int k, int w);
/* A trend's title with its scale for w cells: "TREND █=100.0" (the full glyph is top, in
 * column c's format), "█=100.0", or "TREND" when there is no scale or no room. */
void table_trend_title(const struct column *c, double top, int w, char *buf, size_t len);

#endif
