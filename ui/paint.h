/* Width-aware text output shared by the widgets: strings are UTF-8 (or ASCII) and
 * already sanitised; everything is clipped to the columns it is given. */
#ifndef PMUTOP_PAINT_H
#define PMUTOP_PAINT_H

#include "curs.h"

/* Display columns of s (one per byte on ASCII terminals). */
int paint_width(const char *s);
/* Draw s at (y, x) in at most w columns with attribute a; returns the columns used. */
int paint_text(int y, int x, int w, const char *s, attr_t a);
/* Draw s right-aligned in exactly w columns (clipped on the left if too long). */
void paint_right(int y, int x, int w, const char *s, attr_t a);
/* Fill w columns with blanks in attribute a. */
void paint_fill(int y, int x, int w, attr_t a);

#endif
