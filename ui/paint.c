/* Text output clipped by display width, so that wide characters never push a line past
 * the edge of the screen (curses would wrap them onto the next line). */
#include "paint.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Bytes and columns of the character at s; a byte that does not decode counts as one
 * column (it is drawn as it is: strings reaching here were sanitised). */
static size_t char_at(const char *s, int *cols)
{
	mbstate_t st;
	wchar_t wc;
	memset(&st, 0, sizeof(st));
	size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
	if (n == 0 || n == (size_t)-1 || n == (size_t)-2) {
		*cols = 1;
		return 1;
	}
	int w = wcwidth(wc);
	*cols = w < 0 ? 1 : w;
	return n;
}

int paint_width(const char *s)
{
	int total = 0, w;
	while (*s) {
		s += char_at(s, &w);
		total += w;
	}
	return total;
}

/* Bytes of s that fit in w columns; *used gets their width. */
static size_t fit(const char *s, int w, int *used)
{
	size_t b = 0;
	int cols = 0, cw;
	while (s[b]) {
		size_t n = char_at(s + b, &cw);
		if (cols + cw > w)
			break;
		cols += cw;
		b += n;
	}
	*used = cols;
	return b;
}

int paint_text(int y, int x, int w, const char *s, attr_t a)
{
	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	int used;
	size_t n = fit(s, w, &used);
	if (n == 0)
		return 0;
	attrset(a);
	mvaddnstr(y, x, s, (int)n);
	attrset(A_NORMAL);
	return used;
}

void paint_right(int y, int x, int w, const char *s, attr_t a)
{
	int sw = paint_width(s);
	if (sw <= w) {
		paint_fill(y, x, w - sw, a);
		paint_text(y, x + w - sw, sw, s, a);
		return;
	}
	/* Too long (column_format keeps to the width, so this is rare): cut, and say so
	 * with a trailing '+' rather than show a different number. */
	if (w <= 0)
		return;
	int used = paint_text(y, x, w - 1, s, a);
	paint_text(y, x + used, 1, "+", a);
}

void paint_fill(int y, int x, int w, attr_t a)
{
	if (y < 0 || y >= LINES || x >= COLS || w <= 0)
		return;
	if (x + w > COLS)
		w = COLS - x;
	mvhline(y, x, (chtype)' ' | a, w);
}
