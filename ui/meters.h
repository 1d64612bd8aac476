/* Per-CPU meters: busy % as a bar, and IPC when the IPC column has a number for that
 * CPU. */
#ifndef PMUTOP_METERS_H
#define PMUTOP_METERS_H

#include "columns.h"
#include "model.h"

/* Lines the meters take in w columns with at most budget lines: per-CPU meters in as
 * many columns as fit, else one summary line, else none. */
int meters_height(const struct model *m, int mode, int w, int budget);
/* The same for a model that has no CPU rows yet (the first frame, before the first
 * interval; the tick after the events changed): the lines ncpus CPUs' meters and the
 * machine's two lines will take, so that their place is kept and the table does not
 * move when they come. */
int meters_height_expected(const struct model *m, unsigned ncpus, int mode, int w, int budget);
/* What the bars show (M cycles): busy %, IPC, the clock (GHz), or no meters at all
 * (METER_OFF: the table has their lines). */
enum meter_mode { METER_CPU, METER_IPC, METER_GHZ, METER_OFF, METER_MODES };

/* ipc, ghz: the IPC and GHZ columns of any pane, or NULL. */
void meters_draw(const struct model *m, const struct column *ipc, const struct column *ghz,
		 enum meter_mode mode, int y, int w, int budget);

#endif
