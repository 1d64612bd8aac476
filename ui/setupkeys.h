/* Keys of the events setup screen: moving through its views, searching, adding,
 * removing and regrouping events, the spec line, the derived-column dialog, the column
 * chooser, saving. */
#ifndef PMUTOP_SETUPKEYS_H
#define PMUTOP_SETUPKEYS_H

#include "setup.h"

/* Act on one key over what in shows; what the UI must do comes back in r (its
 * pointers into s, valid until the next key). */
void setupkeys_handle(struct setup *s, const struct setup_in *in, int key, struct setup_res *r);

#endif
