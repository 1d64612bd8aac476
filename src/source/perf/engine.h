/* The perf path, a source (source.h): finds the tasks to count, opens their groups, reads
 * every group once per tick, and turns raw totals into the model's scaled per-interval
 * values. The bpf backend (bpfsource.h) and -G (cgsource.h) are sources of their own. */
#ifndef PMUTOP_ENGINE_H
#define PMUTOP_ENGINE_H

#include <stdbool.h>
#include <sys/types.h>

#include "evset.h"
#include "model.h"
#include "source.h"
#include "srcbase.h"

struct engine;

/* Create the engine: tasks are found and their groups opened (o->scope SCOPE_ALL or
 * SCOPE_PIDS). The set must outlive the engine. Returns NULL
 * with *err set: -ESRCH when a watched pid does not exist, -EACCES when it may not be
 * counted (o->failed_pid says which), -EINVAL for SCOPE_CGROUPS, -ENOMEM. */
struct engine *engine_new(const struct evset *set, const struct srcopts *o, int *err);
void engine_free(struct engine *e);
/* The engine as a source (source.h), "perf"; source_close frees the engine. The engine_*
 * calls below are the same ops, for tests and benchmarks. */
struct source *engine_source(struct engine *e);
/* Its row of the app's table: every scope but SCOPE_CGROUPS. */
extern const struct source_kind engine_kind;

/* Read every group once and build the model for the interval since the last tick. */
int engine_tick(struct engine *e);
const struct model *engine_model(const struct engine *e);

/* Totals over the whole run instead of the last interval (for a watched command's end). */
void engine_totals(struct engine *e);

/* True while any watched process (SCOPE_PIDS) has a live thread. */
bool engine_watched_alive(const struct engine *e);
/* The group whose task-clock leader is read alone for tasks that did not run (a
 * software-only group, in a set no event of which counts into a sleeping task), or -1. */
int engine_probe_group(const struct engine *e);
/* Whether the last tick wrote process pid's rows without summing its counters: every
 * thread was probed asleep (see build_asleep in rowbuild.c). For tests. */
bool engine_built_asleep(const struct engine *e, pid_t pid);
/* How many tasks (of process pid, or of all with 0) have their probe's page mapped.
 * For tests. */
unsigned engine_mapped_probes(const struct engine *e, pid_t pid);

void engine_set_threads(struct engine *e, bool on);
/* Cgroup rows are shown (--cgroups, the screen's G): with perf and every process, each
 * cgroup holding a process row, and its ancestors, is counted per CPU in perf's cgroup
 * mode, as -G counts it (processes born and gone between ticks included), into the
 * model's cg_rows from the next tick (n/c (starting) at its first), a cgroup the
 * descriptors left cannot count n/c (fd limit). Elsewhere nothing changes: the bpf
 * backend's rows already hold every task, and -p's rows are the processes'. */
void engine_set_cgroup_rows(struct engine *e, bool on);
/* Read each process's arguments (model rows' cmdline) from now on: once a process, and
 * again after an exec. */
void engine_set_cmdline(struct engine *e, bool on);
/* Paused, nothing is read; at the resume every group is read and the next interval
 * counts from then (the model's paused is the composition's to set). */
void engine_set_paused(struct engine *e, bool paused);
/* Reopen every group with or without kernel mode on hardware events. */
int engine_set_user_only(struct engine *e, bool on);
/* Count set from now on (it must outlive the engine; the old set may be freed once this
 * returns). Groups equal to one of the old set keep their descriptors and history; new
 * ones open on every target; dropped ones close. Rows come back at the next tick. */
int engine_set_evset(struct engine *e, const struct evset *set);

/* Look for new tasks now (and, for watched processes, their names after an exec). */
void engine_rescan(struct engine *e);

/* Descriptors the engine holds (for benchmarks and the fd-limit logic). */
unsigned engine_open_fds(const struct engine *e);

#endif
