/* A list to pick one item from (sort column, user), drawn as a side panel over the
 * table like htop's "Sort by" panel. */
#ifndef PMUTOP_MENU_H
#define PMUTOP_MENU_H

#include <stddef.h>

#define MENU_MAX 128
#define MENU_LABEL 112 /* a sort column's name and its whole help line */

struct menu {
	char title[32];
	char label[MENU_MAX][MENU_LABEL]; /* sanitised by whoever adds them */
	long value[MENU_MAX];
	unsigned n, sel, top;
};

enum menu_res { MENU_STAY, MENU_PICK, MENU_CANCEL };

void menu_clear(struct menu *mn, const char *title);
/* Returns the item's index, or -1 when the menu is full. */
int menu_add(struct menu *mn, const char *label, long value);
enum menu_res menu_key(struct menu *mn, int key);
long menu_value(const struct menu *mn);
/* Columns the widest label needs, frame included. */
int menu_width(const struct menu *mn);
/* Draw at (y, x), at most w columns wide (narrower where the labels are) and h high. */
void menu_draw(struct menu *mn, int y, int x, int w, int h);

#endif
