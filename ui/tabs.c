/* The tab bar. The active tab is in brackets as well as highlighted, so that it shows
 * on terminals without colour or reverse video. */
#include "tabs.h"

#include <stdio.h>

#include "colors.h"
#include "paint.h"

void tabs_draw(const struct pane *panes, unsigned npanes, unsigned active, const char *state, int y,
	       int w)
{
	int x = 0;
	for (unsigned i = 0; i < npanes && x < w; i++) {
		char tab[48];
		bool on = i == active;
		snprintf(tab, sizeof(tab), on ? "[%u %s]" : " %u %s ", i + 1, panes[i].name);
		x += paint_text(y, x, w - x, tab, colors_attr(on ? CLR_TAB_ACTIVE : CLR_TAB));
		x += paint_text(y, x, w - x, " ", A_NORMAL);
	}
	if (!state || !*state)
		return;
	int sw = paint_width(state);
	int sx = w - sw > x + 1 ? w - sw : x + 1;
	paint_text(y, sx, w - sx, state, colors_attr(CLR_VALUE));
}
