/* The column chooser, the events setup's fourth view: which columns the active pane
 * shows, in which order. Space shows or hides one, [ and ] move it, W saves (the setup
 * file's columns lines). It reads the pane as shown and the same pane with every column
 * it can show, and answers with the list of columns to show. */
#ifndef PMUTOP_COLPICK_H
#define PMUTOP_COLPICK_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "scroll.h"

struct colpick_row {
	const struct column *c;
	bool shown;
};

/* The pane's columns but COMMAND: those shown, in order, then the others. shown NULL:
 * no pane, no rows. */
unsigned colpick_rows(const struct pane *shown, const struct pane *all, struct colpick_row *rows,
		      unsigned max);
void colpick_draw(const struct pane *shown, const struct pane *all, struct scroll *s, int y, int h,
		  int w);

enum colpick_res {
	COLPICK_IGNORED, /* not the chooser's key, or nothing to choose */
	COLPICK_STAY,	 /* nothing changed */
	COLPICK_LAST,	 /* refused: the last column shown cannot go */
	COLPICK_CHANGED, /* show list (pane_select's), the selection on the same column */
};

/* Space, Enter, [ and ] (the column chooser's binding table). */
enum colpick_res colpick_key(const struct pane *shown, const struct pane *all, struct scroll *s,
			     int key, char *list, size_t len);

#endif
