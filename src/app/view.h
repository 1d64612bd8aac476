/* What the live and the replay screen share (view.c): the model on the screen, its
 * trends, the metrics and the saved setup. */
#ifndef PMUTOP_VIEW_H
#define PMUTOP_VIEW_H

#include "app.h"

#ifdef PMUTOP_HAVE_UI
/* m on the screen (with G's cgroup rows), its trends fed: the screen sink's write. */
void app_show_model(struct app *a, struct ui *ui, const struct model *m);
/* The current model on the screen (app_current). */
void app_show(struct app *a, struct ui *ui);
/* The current model into the history (a replay's ticks before the one shown). */
void app_feed_history(struct app *a, struct ui *ui);
void app_apply_metrics(struct app *a, struct ui *ui, const struct user_metric *m, unsigned n);
void app_save_config(struct app *a, struct ui *ui);
#endif

#endif
