/* The recorder (pmutop -w FILE): every tick's model into an SQLite file, one
 * transaction a tick, so that a replay (replay.h) needs nothing from this machine. The
 * schema is in docs/RECORDING.md. */
#ifndef PMUTOP_RECORD_H
#define PMUTOP_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct recorder;

struct record_opts {
	double retain_days; /* --retain: ticks older than this are pruned; 0: kept */
	uint64_t max_size;  /* --max-size in bytes: the oldest ticks go beyond it; 0: none */
};

/* Create FILE, or go on with the recording it holds. Returns NULL with one line in err:
 * another pmutop records into it, it is no recording, it cannot be written. */
struct recorder *recorder_open(const char *path, const struct record_opts *o, char *err,
			       size_t errlen);
/* Record one tick: m, measured at wall (seconds since the epoch). Returns 0, or -errno
 * with one line in err (-ENOSPC: the disk is full); the file keeps every tick committed
 * before it, and the recorder should be closed. */
int recorder_write(struct recorder *r, const struct model *m, double wall, char *err,
		   size_t errlen);
/* Ticks committed so far by this recorder. */
uint64_t recorder_ticks(const struct recorder *r);
void recorder_close(struct recorder *r);

#endif
