/* The main view's prompts (keys.c and mainkeys.c hand them over). Part of the screen
 * module: it reads and changes struct ui (uistate.h). */
#ifndef PMUTOP_PROMPTKEYS_H
#define PMUTOP_PROMPTKEYS_H

#include "uistate.h"

/* Open the prompt for what: its label, and the text it offers (the filter, the last
 * search, the interval). */
void promptkeys_open(struct ui *u, enum ui_ask what);
/* A key while a prompt is open: typed, taken (Enter acts on it) or dropped (Esc). */
void promptkeys_key(struct ui *u, int key, struct ui_cmd *cmd);

#endif
