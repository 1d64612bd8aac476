/* A recording as a source (pmutop -r FILE): any recorded tick back into a model, equal
 * to the one the live engine built then, for the screen and the batch writers. The file
 * is opened read-only; a recording still being written can be replayed (its new ticks
 * appear). */
#ifndef PMUTOP_REPLAY_H
#define PMUTOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

struct replay;

/* Open FILE. Returns NULL with one line in err: no such file, not a pmutop recording,
 * from a newer pmutop, damaged, or holding no tick. */
struct replay *replay_open(const char *path, char *err, size_t errlen);
void replay_close(struct replay *p);

/* The recorded ticks' first and last sequence numbers and wall-clock times (read again
 * at each call: a recording grows, and --retain prunes its start). Returns 0, or -ENOENT
 * when it holds no tick. */
int replay_span(struct replay *p, uint64_t *first, uint64_t *last, double *wfirst, double *wlast);

/* Whether the file holds thread rows (recorded with -H) and CPU rows (--per-cpu): a
 * replay shows only what was recorded. Reads meta('kinds'), or format 2's tasks table
 * (asked once, when the user wants either). Returns 0, or -EIO. */
int replay_recorded(struct replay *p, bool *threads, bool *cpus);

/* The tick after (dir > 0) or before (dir < 0) seq, or -ENOENT. */
int replay_step(struct replay *p, uint64_t seq, int dir, uint64_t *out);
/* A recording whose recorder never closed it (killed, or the machine lost): it ends at
 * the last tick it committed, and nothing tells what came after. Format 4 only. */
bool replay_unclosed(const struct replay *p);
/* After a load of seq that failed: the last of the ticks missing from seq on (format 4:
 * a damaged b-tree hid them; they are lost together), or seq. */
uint64_t replay_missing_upto(const struct replay *p, uint64_t seq);
/* The first tick at or after wall (the last one when none is). -ENOENT when empty. */
int replay_find(struct replay *p, double wall, uint64_t *out);

/* Load tick seq into the model. Returns 0, -ENOENT (no such tick: pruned), or -EIO /
 * -EINVAL with one line in err (a damaged file). */
int replay_load(struct replay *p, uint64_t seq, char *err, size_t errlen);
/* The loaded tick: its model (valid until the next load or close), wall-clock time and
 * sequence number. */
const struct model *replay_model(const struct replay *p);
double replay_wall(const struct replay *p);
uint64_t replay_seq(const struct replay *p);
/* What the replay could not read of the file, in one line ("" when it read it whole):
 * a file cut short is replayed from what SQLite can still read of it. */
const char *replay_notice(const struct replay *p);
/* One SQL statement over the recording, as recsql_run (src/recsql.h). */
int replay_sql(struct replay *p, const char *sql, FILE *out, char *err, size_t errlen);
/* Whether the loaded tick's events include groups the user chose (-e). */
bool replay_user_events(const struct replay *p);

#endif
