/* The key bar on the last line, htop style: only keys that work in the current mode. */
#ifndef PMUTOP_KEYBAR_H
#define PMUTOP_KEYBAR_H

#include <stdbool.h>

#include "bindings.h"

/* The bar of mode's binding table (bindings.c): paused relabels Pause, focused says
 * whether a process is watched. */
void keybar_draw(enum bind_mode mode, bool paused, bool focused, bool replay, int y, int w);
/* The key a click at (y, x) on the last bar drawn presses (htop's F-key labels), or 0. */
int keybar_key_at(int y, int x);
/* The bottom line shows something else now (a message, a prompt): no key to click. */
void keybar_forget(void);

#endif
