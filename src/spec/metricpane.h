/* The metric panes of a model (metricpane.c). */
#ifndef PMUTOP_METRICPANE_H
#define PMUTOP_METRICPANE_H

#include "columns.h"
#include "model.h"

/* The Top-down pane (level-1 shares: sorted by the first; left out when none of them
 * can count here, metric_bind_topdown_reason says why) and the Metrics pane (the other
 * chosen metrics, level 2 among them) for m, into out. Returns how many (at most max). */
unsigned metric_bind_panes(const struct model *m, struct pane *out, unsigned max);

#endif
