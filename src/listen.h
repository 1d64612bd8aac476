/* pmutop --listen: no screen; each tick's model goes into the exporter's totals and a
 * new exposition is published, until SIGINT or SIGTERM. */
#ifndef PMUTOP_LISTEN_H
#define PMUTOP_LISTEN_H

#include "engine.h"
#include "exporter.h"
#include "loop.h"
#include "promacc.h"

/* Returns the exit code: 0 when stopped by a signal, 1 on a runtime error. */
int listen_run(struct engine *e, struct loop *l, struct exporter *x, const struct promacc_opts *o);

#endif
