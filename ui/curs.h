/* The one place ui/ includes curses from, so that every file gets the wide-character
 * API (cchar_t, getcchar) whatever the feature macros say. */
#ifndef PMUTOP_CURS_H
#define PMUTOP_CURS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#endif
