/* The bpf backend as a source (source.h): per-CPU counters summed per task (and per
 * cgroup) by a BPF program at each context switch, written as the same process and
 * thread rows as the perf path's. */
#ifndef PMUTOP_BPFSOURCE_H
#define PMUTOP_BPFSOURCE_H

#include "evset.h"
#include "source.h"
#include "srcbase.h"

/* o->scope SCOPE_ALL, or SCOPE_PIDS filtered by process id. The set must outlive the
 * source; source_close frees it. NULL with *err (and *o->bpf_err, when given) set to why
 * BPF could not be used (bpfsource_why): -ENOTSUP in a build without BPF or for
 * SCOPE_CGROUPS, -E2BIG, -EPERM... A source that later cannot go on (an event set it
 * cannot load) fails its tick or control with -errno, and the app counts with perf. */
struct source *bpfsource_new(const struct evset *set, const struct srcopts *o, int *err);
/* Why the bpf backend could not start or go on, in words. */
const char *bpfsource_why(int err);

#endif
