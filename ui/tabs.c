/* The tab bar. The active tab is in brackets as well as highlighted, so that it shows
 * on terminals without colour or reverse video. */
#include "tabs.h"

#include <stdio.h>

#include "colors.h"
#include "paint.h"

#define TABS_MAX 32

/* Where the last tab bar was drawn, for the mouse. */
static int tab_end[TABS_MAX];
static unsigned ntabs;
static int tabs_y = -1;

void tabs_draw(const struct pane *panes, unsigned npanes, unsigned active, const char *state, int y,
	       int w)
{
	int x = 0;
	ntabs = 0;
	tabs_y = y;
	for (unsigned i = 0; i < npanes && x < w; i++) {
		char tab[48];
		bool on = i == active;
		snprintf(tab, sizeof(tab), on ? "[%u %s]" : " %u %s ", i + 1, panes[i].name);
		x += paint_text(y, x, w - x, tab, colors_attr(on ? CLR_TAB_ACTIVE : CLR_TAB));
		if (ntabs < TABS_MAX)
			tab_end[ntabs++] = x;
		x += paint_text(y, x, w - x, " ", A_NORMAL);
	}
	if (!state || !*state)
		return;
	int sw = paint_width(state);
	int sx = w - sw > x + 1 ? w - sw : x + 1;
	paint_text(y, sx, w - sx, state, colors_attr(CLR_VALUE));
}

int tabs_at(int y, int x)
{
	if (y != tabs_y)
		return -1;
	for (unsigned i = 0, x0 = 0; i < ntabs; x0 = (unsigned)tab_end[i++] + 1)
		if (x >= (int)x0 && x < tab_end[i])
			return (int)i;
	return -1;
}
