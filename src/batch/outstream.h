/* Batch output that a stop signal can cut short. pmutop blocks its signals and takes
 * them on a signalfd between ticks; a write to a reader that stopped reading (a full
 * pipe, a terminal paused with Ctrl-S, an ssh session whose link stalled) would hold it
 * in write() with SIGINT and SIGTERM never seen. This stream writes what the reader
 * makes room for; when there is none it waits for room, and once SIGINT, SIGTERM, SIGHUP
 * or SIGQUIT is pending it waits two seconds more at the most: a slow reader still gets
 * everything, one that stopped reading does not hold pmutop. A regular file is written
 * as it is (it never waits for a reader). */
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

/* The run took a stop signal (from the loop's signalfd, so no longer pending) and goes
 * on only to finish (a watched command's totals): from now on every outstream waits for
 * room as after a pending stop signal, two seconds at the most. */
void outstream_stopping(void);

#endif
