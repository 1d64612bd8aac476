/* pmutop -r FILE (replayrun.c): the replay screen, and batch replay. */
#ifndef PMUTOP_REPLAYRUN_H
#define PMUTOP_REPLAYRUN_H

#include "app.h"

int run_replay(struct app *a);

#endif
