/* The sort menu lists titles with their one-line help, so that "CMPKI" explains
 * itself. */
#include "sortmenu.h"

#include <stdio.h>

#include "colors.h"
#include "text.h"

void sortmenu_fill(struct menu *mn, const struct pane *p, int current)
{
	menu_clear(mn, "Sort by");
	for (unsigned i = 0; i < p->ncols; i++) {
		char raw[MENU_LABEL], clean[MENU_LABEL];
		const struct column *c = &p->cols[i];
		snprintf(raw, sizeof(raw), "%-8s %s", c->name, c->help ? c->help : "");
		text_sanitize(raw, clean, sizeof(clean), colors_utf8());
		int k = menu_add(mn, clean, (long)i);
		if ((int)i == current && k >= 0)
			mn->sel = (unsigned)k;
	}
}
