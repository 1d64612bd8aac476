/* How the screen looks: colour pairs (or plain attributes on terminals without colour)
 * and the glyphs to use on UTF-8 or ASCII terminals. */
#ifndef PMUTOP_COLORS_H
#define PMUTOP_COLORS_H

#include <stdbool.h>

#include "curs.h"

enum clr {
	CLR_NORMAL,
	CLR_LABEL,  /* header labels */
	CLR_VALUE,  /* header values */
	CLR_NOTICE, /* the one-line notice: why hardware counters are missing */
	CLR_PAUSED,
	CLR_TAB,
	CLR_TAB_ACTIVE,
	CLR_COLHDR,	 /* column titles */
	CLR_COLHDR_SORT, /* the sort column's title */
	CLR_SELECTED,
	CLR_MISSING, /* n/a, n/c, - */
	CLR_SCALED,  /* multiplexed values and their '~' */
	CLR_EXITED,
	CLR_THREAD,
	CLR_KTHREAD,
	CLR_KEY, /* key names in the key bar */
	CLR_KEY_LABEL,
	CLR_BAR,     /* meter bars */
	CLR_MESSAGE, /* errors from dialogs */
	CLR_COUNT
};

enum glyph {
	GLYPH_SORT_DOWN,
	GLYPH_SORT_UP,
	GLYPH_THREAD, /* before a thread's command name */
	GLYPH_COUNT
};

/* Call once curses is up. color: use colour pairs when the terminal has them. */
void colors_init(bool color, bool utf8);
attr_t colors_attr(enum clr c);
const char *colors_glyph(enum glyph g);
bool colors_utf8(void);
bool colors_color(void);

#endif
