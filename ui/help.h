/* The help screen: keys, what the marks in the cells mean, why each event is or is not
 * counted here, and the active pane's columns. */
#ifndef PMUTOP_HELP_H
#define PMUTOP_HELP_H

#include <stdbool.h>

#include "columns.h"
#include "model.h"

/* Draw from line *top (clamped so that the page is full) in h lines from y. m and p may
 * be NULL. */
void help_draw(const struct model *m, const struct pane *p, bool replay, int *top, int y, int h,
	       int w);

#endif
