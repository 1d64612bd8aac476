/* The recorder (-w FILE) as one of a run's sinks. */
#ifndef PMUTOP_RECSINK_H
#define PMUTOP_RECSINK_H

#include "record.h"
#include "sink.h"

/* Takes r (closed on failure too). NULL: out of memory. */
struct sink *recsink_new(struct recorder *r);

#endif
