/* Key dispatch: one handler per mode (main view, help, prompt, menu, events setup). */
#ifndef PMUTOP_KEYS_H
#define PMUTOP_KEYS_H

#include "ui.h"

/* Act on one key in the current mode; commands for main.c come back in cmd. */
void keys_handle(struct ui *u, int key, struct ui_cmd *cmd);

#endif
