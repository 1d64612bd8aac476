/* Reading cells back with win_wchnstr keeps wide characters whole: winnstr would give
 * bytes of the narrow rendition. */
#include "snapshot.h"

#include <limits.h>
#include <string.h>
#include <wchar.h>

#include "curs.h"

/* One cell as multibyte text into out (at least MB_LEN_MAX * CCHARW_MAX bytes); *cols
 * gets how many cells its character covers. */
static size_t cell_text(const cchar_t *c, char *out, int *cols)
{
	wchar_t wch[CCHARW_MAX + 1];
	attr_t a;
	short pair;
	*cols = 1;
	if (getcchar(c, wch, &a, &pair, NULL) == ERR)
		return 0;
	if (wch[0] && wcwidth(wch[0]) > 1)
		*cols = wcwidth(wch[0]);
	size_t n = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	for (int i = 0; i < CCHARW_MAX && wch[i]; i++) {
		size_t k = wcrtomb(out + n, wch[i], &st);
		if (k == (size_t)-1) {
			out[n++] = '?';
			continue;
		}
		n += k;
	}
	return n;
}

static size_t line_text(int y, char *out, size_t len)
{
	cchar_t cells[1024];
	int w = COLS < 1023 ? COLS : 1023;
	size_t n = 0, keep = 0;
	if (mvwin_wchnstr(stdscr, y, 0, cells, w) == ERR)
		return 0;
	for (int x = 0; x < w; x++) {
		char buf[MB_LEN_MAX * (CCHARW_MAX + 1)];
		int cols;
		size_t k = cell_text(&cells[x], buf, &cols);
		x += cols - 1; /* the right half of a wide character holds nothing more */
		if (k == 0 || n + k >= len)
			continue;
		memcpy(out + n, buf, k);
		n += k;
		if (!(k == 1 && buf[0] == ' '))
			keep = n;
	}
	return keep;
}

void snapshot_text(char *buf, size_t len)
{
	size_t n = 0;
	if (len == 0)
		return;
	for (int y = 0; y < LINES && n + 1 < len; y++) {
		n += line_text(y, buf + n, len - n - 1);
		buf[n++] = '\n';
	}
	buf[n < len ? n : len - 1] = '\0';
}
