/* The whole screen composed from the widgets, for the current size and mode. */
#ifndef PMUTOP_LAYOUT_H
#define PMUTOP_LAYOUT_H

#include "ui.h"

void layout_draw(struct ui *u);

#endif
