/* The F6 menu: the active pane's columns, to sort by. */
#ifndef PMUTOP_SORTMENU_H
#define PMUTOP_SORTMENU_H

#include "columns.h"
#include "menu.h"

/* Fill mn with p's columns (values are column indices), the current one selected. */
void sortmenu_fill(struct menu *mn, const struct pane *p, int current);

#endif
