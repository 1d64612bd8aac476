/* Cgroup rows: the model's process rows summed per cgroup v2 path, parents holding their
 * children's sums and their own processes', with honest states. A pure function over a
 * model (any source's: live or a recording); the rows are written into storage the
 * caller keeps from tick to tick. */
#ifndef PMUTOP_CGROWS_H
#define PMUTOP_CGROWS_H

#include "model.h"

struct cgrows;

struct cgrows *cgrows_new(void);
void cgrows_free(struct cgrows *c);

/* Build one row of kind ROW_CGROUP per cgroup holding a process row of m, and per
 * ancestor of one, in tree order (a parent before its children). Each event's value is
 * the sum of its processes' (exited ones included): exact when every part is, scaled
 * (~) when a part is scaled or missing (n/c, or n/a while others count), n/c or n/a
 * when no part has a number; the groups' enabled and running times are summed, so RUN%
 * is the parts' share. A cgroup the source counted itself (the model's cg_rows) has its
 * own values instead, and a row even when no process row is in it. comm is the cgroup's readable
 * name (cgroup_name), cgroup its path, nthreads its processes, pid and tid a number the path gives
 * (the same every tick), not a process. Returns the rows (valid until the next build or free) and
 * their count in *n; NULL with *n 0 when out of memory. */
const struct mrow *cgrows_build(struct cgrows *c, const struct model *m, unsigned *n);

/* Add n to event ev of the last build's row of cgroup path and of each of its ancestors'
 * (a count the process rows do not hold: a source's own cg_rows), where it has a number. */
void cgrows_add(struct cgrows *c, const char *path, unsigned ev, double n);

#endif
