/* The key bar on the last line, htop style: only keys that work in the current mode. */
#ifndef PMUTOP_KEYBAR_H
#define PMUTOP_KEYBAR_H

#include <stdbool.h>

enum keybar_set {
	KEYBAR_MAIN,
	KEYBAR_DETAIL,
	KEYBAR_HELP,
	KEYBAR_MENU,
	KEYBAR_DIALOG,
	KEYBAR_SETUP_PMUS,
	KEYBAR_SETUP_EVENTS,
	KEYBAR_SETUP_MINE,
	KEYBAR_SETUP_COLUMNS,
};

void keybar_draw(enum keybar_set set, bool paused, bool focused, int y, int w);

#endif
