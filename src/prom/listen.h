/* pmutop --listen as one of a run's sinks: each tick's model goes into the exporter's
 * totals and a new exposition is published; scrapes are served meanwhile by the
 * exporter's own threads from what was published last. */
#ifndef PMUTOP_LISTEN_H
#define PMUTOP_LISTEN_H

#include "exporter.h"
#include "promacc.h"
#include "sink.h"

/* Takes x (freed on failure too). first: the model before the first tick, for the event
 * set and backend (NULL: not known). open_fds(ctx): the descriptors the source holds, for
 * pmutop_open_fds. Publishes a first exposition (pmutop's facts, no counts) and says
 * "pmutop: listening on ADDR:PORT" on stderr, and one line of warning after it when that
 * is plain HTTP beyond loopback. NULL: out of memory. */
struct sink *listen_sink_new(struct exporter *x, const struct promacc_opts *o,
			     const struct model *first, unsigned (*open_fds)(const void *ctx),
			     const void *ctx);

#endif
