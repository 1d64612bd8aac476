/* The live screen (screen.c): a sink of the run loop, the front end it calls up into,
 * and its keys. Each is a no-op (false) without the screen. */
#ifndef PMUTOP_SCREEN_H
#define PMUTOP_SCREEN_H

#include "app.h"

/* The run's front end (app.h): the live and the replay screen. */
extern const struct frontend_ops screen_frontend;
/* 0 (the first frame due: a->fe->draw), or the exit code after saying why not. */
int screen_open(struct app *a);
void screen_close(struct app *a);
bool screen_input(struct app *a); /* keys; true: quit */
/* One command from the screen, for whichever source: true to quit. */
bool screen_command(struct app *a, const struct ui_cmd *cmd);
/* The screen told what the source can take (k, F7, F8, a refused before their dialogs). */
void screen_source_changed(struct app *a);

#endif
