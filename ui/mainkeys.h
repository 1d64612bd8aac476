/* The main view's keys and mouse (keys.c hands them over). Part of the screen module:
 * it reads and changes struct ui (uistate.h). */
#ifndef PMUTOP_MAINKEYS_H
#define PMUTOP_MAINKEYS_H

#include "curs.h"
#include "ui.h"

/* A main-view key, as the binding table (bindings.c) maps it; commands into cmd. */
void mainkeys_key(struct ui *u, int key, struct ui_cmd *cmd);
/* The mouse, as htop: a click on a column title sorts by it (again: the other way), on a
 * row selects it, on a pane's tab shows it; the wheel moves three rows. */
void mainkeys_mouse(struct ui *u, MEVENT ev, struct ui_cmd *cmd);
/* Set the active pane's sort column; its natural direction comes with it. */
void mainkeys_sort_by(struct ui *u, int col);
/* Watch pid alone (p, the detail view's Enter). */
void mainkeys_focus(struct ui *u, pid_t pid, struct ui_cmd *cmd);

#endif
