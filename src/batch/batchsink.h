/* Batch mode's writer (batch.h) as one of a run's sinks. */
#ifndef PMUTOP_BATCHSINK_H
#define PMUTOP_BATCHSINK_H

#include <stdbool.h>

#include "batch.h"
#include "cgrows.h"
#include "sink.h"

/* Takes b (freed on failure too). cgroups: cgroup rows for process rows (--cgroups).
 * count: interval blocks written at most (-n; 0: no limit); totals always are. NULL:
 * out of memory. */
struct sink *batchsink_new(struct batch *b, bool cgroups, long count);
/* Interval blocks written so far. */
long batchsink_blocks(const struct sink *s);

#endif
