/* The column chooser: see colpick.h. */
#include "colpick.h"

#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "colors.h"
#include "curs.h"
#include "paint.h"

unsigned colpick_rows(const struct pane *shown, const struct pane *all, struct colpick_row *rows,
		      unsigned max)
{
	unsigned n = 0;
	if (!shown || !all)
		return 0;
	for (unsigned i = 0; i < shown->ncols && n < max; i++)
		if (shown->cols[i].kind != COL_COMMAND) {
			int k = pane_find_column(all, shown->cols[i].name);
			if (k >= 0)
				rows[n++] = (struct colpick_row){&all->cols[k], true};
		}
	for (unsigned i = 0; i < all->ncols && n < max; i++)
		if (all->cols[i].kind != COL_COMMAND &&
		    pane_find_column(shown, all->cols[i].name) < 0)
			rows[n++] = (struct colpick_row){&all->cols[i], false};
	return n;
}

void colpick_draw(const struct pane *shown, const struct pane *all, struct scroll *s, int y, int h,
		  int w)
{
	struct colpick_row rows[40];
	unsigned n = colpick_rows(shown, all, rows, 40);
	scroll_set(s, n);
	scroll_fit(s, (size_t)(h > 0 ? h : 1));
	if (n == 0) {
		paint_text(y, 1, w - 1, "no pane to choose columns for", colors_attr(CLR_MISSING));
		return;
	}
	for (int k = 0; k < h; k++) {
		size_t i = s->top + (size_t)k;
		if (i >= n)
			break;
		char line[256];
		snprintf(line, sizeof(line), " [%c] %-10s %s", rows[i].shown ? 'x' : ' ',
			 rows[i].c->name, rows[i].c->help ? rows[i].c->help : "");
		attr_t a = i == s->sel	   ? colors_attr(CLR_SELECTED)
			   : rows[i].shown ? A_NORMAL
					   : colors_attr(CLR_MISSING);
		paint_fill(y + k, 0, w, a);
		paint_text(y + k, 0, w, line, a);
	}
}

/* The shown columns' names in order, after the change. */
static void shown_list(const struct colpick_row *rows, unsigned n, char *list, size_t len)
{
	size_t k = 0;
	list[0] = '\0';
	for (unsigned i = 0; i < n && k < len; i++)
		if (rows[i].shown)
			k += (size_t)snprintf(list + k, len - k, "%s%s", k ? "," : "",
					      rows[i].c->name);
}

enum colpick_res colpick_key(const struct pane *shown, const struct pane *all, struct scroll *s,
			     int key, char *list, size_t len)
{
	struct colpick_row rows[40];
	unsigned n = colpick_rows(shown, all, rows, 40);
	size_t i = s->sel;
	if (i >= n)
		return COLPICK_IGNORED;
	const struct binding *b = bindings_find(BIND_MODE_SETUP_COLUMNS, key);
	switch (b ? b->act : BIND_NONE) {
	case BIND_COL_TOGGLE: {
		unsigned nshown = 0;
		for (unsigned k = 0; k < n; k++)
			nshown += rows[k].shown;
		if (rows[i].shown && nshown == 1)
			return COLPICK_LAST;
		rows[i].shown = !rows[i].shown;
		const char *name = rows[i].c->name;
		shown_list(rows, n, list, len);
		/* The selection follows the column to its new place: the pane as it will be
		 * shown is the same pane_select of the list. */
		struct pane next = *all;
		pane_select(&next, list);
		n = colpick_rows(&next, all, rows, 40);
		for (unsigned k = 0; k < n; k++)
			if (strcmp(rows[k].c->name, name) == 0)
				s->sel = k;
		return COLPICK_CHANGED;
	}
	case BIND_COL_MOVE: {
		bool left = key == b->keys[0]; /* [ */
		size_t j = left ? i - 1 : i + 1;
		if ((left && i == 0) || j >= n || !rows[i].shown || !rows[j].shown)
			return COLPICK_STAY;
		struct colpick_row t = rows[i];
		rows[i] = rows[j];
		rows[j] = t;
		s->sel = j;
		shown_list(rows, n, list, len);
		return COLPICK_CHANGED;
	}
	default:
		return COLPICK_IGNORED;
	}
}
