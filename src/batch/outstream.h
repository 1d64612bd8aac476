/* Batch output that a stop signal can cut short. pmutop blocks its signals and takes
 * them on a signalfd between ticks; a write to a reader that stopped reading (a full
 * pipe) would hold it in write() with SIGINT and SIGTERM never seen. This stream writes
 * only what the descriptor can take without blocking, and waits for room or for SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT pending, whichever comes first. */
#ifndef PMUTOP_OUTSTREAM_H
#define PMUTOP_OUTSTREAM_H

#include <stdbool.h>
#include <stdio.h>

/* A stdio stream over fd, fully buffered (the batch writer flushes a block at a time).
 * A write cut short by a stop signal fails with EINTR, and so does every later one: the
 * stream's error flag is set and fflush() returns EOF. The signals must be blocked (the
 * run loop blocks them); the signal stays pending for the loop to take. fclose() closes
 * fd only when own. NULL with errno on failure. */
FILE *outstream_open(int fd, bool own);

#endif
