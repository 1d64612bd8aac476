/* Start-up (start.c): the checks of the options, the setup file, the event set and
 * metrics, and the source from the table of sources. */
#ifndef PMUTOP_START_H
#define PMUTOP_START_H

#include "app.h"

/* -p, -C, the setup file and the event set, -u and -G checked, each refusal one line
 * and exit 2; then the source the options ask for started (exit on failure). */
void app_start_checks(struct app *a);
void app_start_source(struct app *a);
/* An event set from the user's spec on top of the default one. */
int app_make_set(struct app *a, const char *user, struct evset *out, char *msg, size_t len);
/* The setup file, as the command line allows. */
void app_load_config(struct app *a);

#endif
