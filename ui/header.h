/* The header: host, kernel, CPUs, PMUs, interval, tick, tasks, paused state, and the
 * notice (wrapped) when hardware counters are missing. */
#ifndef PMUTOP_HEADER_H
#define PMUTOP_HEADER_H

#include <stdbool.h>

#include "model.h"

/* Lines the header wants for m at w columns: the notice wraps (up to 3 lines). */
int header_height(const struct model *m, int w);
/* Draw at most h lines from y; the most important first (identity, notice, tasks).
 * paused: the user asked for a pause that the model may not show yet. */
/* replay: the REPLAY field's text on a replay's screen, or NULL. rec: while -w records,
 * "SIZE\tPATH" (the REC field), else NULL or "". */
void header_draw(const struct model *m, bool paused, const char *replay, const char *rec, int y,
		 int h, int w);

#endif
