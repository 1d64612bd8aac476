/* The tab bar: one tab per pane, the active one bracketed and highlighted, and the
 * view's state (filter, user, watched PID) on the right. */
#ifndef PMUTOP_TABS_H
#define PMUTOP_TABS_H

#include "columns.h"

void tabs_draw(const struct pane *panes, unsigned npanes, unsigned active, const char *state, int y,
	       int w);
/* The pane whose tab the last bar drew at (y, x), or -1 (the blank between tabs too). */
int tabs_at(int y, int x);

#endif
