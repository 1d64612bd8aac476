/* The column chooser, the events setup's fourth view: which columns the active pane
 * shows, in which order. Space shows or hides one, [ and ] move it, W saves (the setup
 * file's columns lines). */
#ifndef PMUTOP_COLPICK_H
#define PMUTOP_COLPICK_H

#include "columns.h"
#include "scroll.h"
#include "ui.h"

struct colpick_row {
	const struct column *c;
	bool shown;
};

/* The active pane's columns but COMMAND: those shown, in order, then the others. */
unsigned colpick_rows(const struct ui *u, struct colpick_row *rows, unsigned max);
void colpick_draw(struct ui *u, struct scroll *s, int y, int h, int w);
/* Space, Enter, [ and ]: true when the key was the chooser's. */
bool colpick_key(struct ui *u, struct scroll *s, int key, struct ui_cmd *cmd);

#endif
