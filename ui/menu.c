/* The pick list. */
#include "menu.h"

#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "colors.h"
#include "curs.h"
#include "paint.h"

void menu_clear(struct menu *mn, const char *title)
{
	snprintf(mn->title, sizeof(mn->title), "%s", title);
	mn->n = mn->sel = mn->top = 0;
}

int menu_add(struct menu *mn, const char *label, long value)
{
	if (mn->n >= MENU_MAX)
		return -1;
	snprintf(mn->label[mn->n], MENU_LABEL, "%s", label);
	mn->value[mn->n] = value;
	return (int)mn->n++;
}

enum menu_res menu_key(struct menu *mn, int key)
{
	const struct binding *b = bindings_find(BIND_MODE_MENU, key);
	switch (b ? b->act : BIND_NONE) {
	case BIND_MOVE:
		if (key == KEY_UP && mn->sel > 0)
			mn->sel--;
		else if (key == KEY_DOWN && mn->sel + 1 < mn->n)
			mn->sel++;
		else if (key == KEY_HOME)
			mn->sel = 0;
		else if (key == KEY_END)
			mn->sel = mn->n ? mn->n - 1 : 0;
		return MENU_STAY;
	case BIND_PICK:
		return mn->n ? MENU_PICK : MENU_CANCEL;
	case BIND_CANCEL:
		return MENU_CANCEL;
	default:
		return MENU_STAY;
	}
}

long menu_value(const struct menu *mn)
{
	return mn->n ? mn->value[mn->sel] : -1;
}

/* A line of the box: left glyph, fill glyph repeated, right glyph, in w columns. */
static void box_line(int y, int x, int w, const char *l, const char *fill, const char *r, attr_t a)
{
	paint_fill(y, x, w, a);
	paint_text(y, x, 1, l, a);
	for (int k = 1; k < w - 1; k++)
		paint_text(y, x + k, 1, fill, a);
	paint_text(y, x + w - 1, 1, r, a);
}

/* A framed box as tall as its items (within h): the title in the top border, the text
 * under it cleared, so that nothing of the table shows through. */
/* Terminal columns of a sanitised label: one per character (no wide ones reach here). */
static int label_cols(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

int menu_width(const struct menu *mn)
{
	int w = label_cols(mn->title) + 6;
	for (unsigned i = 0; i < mn->n; i++) {
		int lw = label_cols(mn->label[i]) + 4;
		w = lw > w ? lw : w;
	}
	return w;
}

void menu_draw(struct menu *mn, int y, int x, int w, int h)
{
	if (menu_width(mn) < w)
		w = menu_width(mn);
	if (h < 3 || w < 6)
		return;
	bool u8 = colors_utf8();
	const char *hz = u8 ? "\xe2\x94\x80" : "-", *vt = u8 ? "\xe2\x94\x82" : "|";
	int rows = (int)(mn->n ? mn->n : 1);
	if (rows > h - 2)
		rows = h - 2;
	attr_t frame = colors_attr(CLR_COLHDR);
	box_line(y, x, w, u8 ? "\xe2\x94\x8c" : "+", hz, u8 ? "\xe2\x94\x90" : "+", frame);
	char title[MENU_LABEL + 4];
	snprintf(title, sizeof(title), " %s ", mn->title);
	paint_text(y, x + 2, w - 4, title, frame);
	/* As the table's rows: as few hidden above as the selection allows, also when the
	 * box grew back taller than it was when the selection scrolled it. */
	unsigned least = mn->sel >= (unsigned)rows ? mn->sel - (unsigned)rows + 1 : 0;
	if (mn->top > least)
		mn->top = least;
	if (mn->sel < mn->top)
		mn->top = mn->sel;
	if ((int)(mn->sel - mn->top) >= rows)
		mn->top = mn->sel - (unsigned)rows + 1;
	for (int k = 0; k < rows; k++) {
		unsigned i = mn->top + (unsigned)k;
		attr_t a = i == mn->sel ? colors_attr(CLR_SELECTED) : colors_attr(CLR_NORMAL);
		paint_fill(y + 1 + k, x, w, colors_attr(CLR_NORMAL));
		paint_text(y + 1 + k, x, 1, vt, frame);
		paint_fill(y + 1 + k, x + 1, w - 2, a);
		if (i < mn->n)
			paint_text(y + 1 + k, x + 2, w - 4, mn->label[i], a);
		paint_text(y + 1 + k, x + w - 1, 1, vt, frame);
	}
	box_line(y + 1 + rows, x, w, u8 ? "\xe2\x94\x94" : "+", hz, u8 ? "\xe2\x94\x98" : "+",
		 frame);
}
