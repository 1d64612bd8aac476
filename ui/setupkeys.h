/* Keys of the events setup screen: moving through its views, searching, adding,
 * removing and regrouping events, the spec line, the derived-column dialog, saving. */
#ifndef PMUTOP_SETUPKEYS_H
#define PMUTOP_SETUPKEYS_H

#include "ui.h"

void setupkeys_handle(struct ui *u, int key, struct ui_cmd *cmd);

#endif
