/* The pick list. */
#include "menu.h"

#include <stdio.h>

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
	switch (key) {
	case KEY_UP:
		if (mn->sel > 0)
			mn->sel--;
		return MENU_STAY;
	case KEY_DOWN:
		if (mn->sel + 1 < mn->n)
			mn->sel++;
		return MENU_STAY;
	case KEY_HOME:
		mn->sel = 0;
		return MENU_STAY;
	case KEY_END:
		mn->sel = mn->n ? mn->n - 1 : 0;
		return MENU_STAY;
	case '\n':
	case '\r':
	case KEY_ENTER:
		return mn->n ? MENU_PICK : MENU_CANCEL;
	case 27:
	case 'q':
		return MENU_CANCEL;
	default:
		return MENU_STAY;
	}
}

long menu_value(const struct menu *mn)
{
	return mn->n ? mn->value[mn->sel] : -1;
}

void menu_draw(struct menu *mn, int y, int x, int w, int h)
{
	if (h < 2 || w < 4)
		return;
	paint_fill(y, x, w, colors_attr(CLR_COLHDR));
	paint_text(y, x, w, mn->title, colors_attr(CLR_COLHDR));
	int rows = h - 1;
	if (mn->sel < mn->top)
		mn->top = mn->sel;
	if ((int)(mn->sel - mn->top) >= rows)
		mn->top = mn->sel - (unsigned)rows + 1;
	for (int k = 0; k < rows; k++) {
		unsigned i = mn->top + (unsigned)k;
		attr_t a = i == mn->sel ? colors_attr(CLR_SELECTED) : colors_attr(CLR_NORMAL);
		paint_fill(y + 1 + k, x, w, a);
		if (i < mn->n)
			paint_text(y + 1 + k, x + 1, w - 1, mn->label[i], a);
	}
}
