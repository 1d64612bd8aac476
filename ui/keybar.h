/* The key bar on the last line, htop style: only keys that work in the current mode. */
#ifndef PMUTOP_KEYBAR_H
#define PMUTOP_KEYBAR_H

#include <stdbool.h>

#include "bindings.h"

/* What Z does now, its label on the bar: Pause or Resume on the live screen, Play or
 * Stop in a replay. */
const char *keybar_pause_label(bool paused, bool replay, bool playing);
/* The bar of mode's binding table (bindings.c): pause labels Z (keybar_pause_label),
 * focused says whether a process is watched. */
void keybar_draw(enum bind_mode mode, const char *pause, bool focused, bool replay, int y, int w);
/* The key a click at (y, x) on the last bar drawn presses (htop's F-key labels), or 0. */
int keybar_key_at(int y, int x);
/* The bottom line shows something else now (a message, a prompt): no key to click. */
void keybar_forget(void);

#endif
