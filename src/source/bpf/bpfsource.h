/* The bpf backend as a source (source.h): per-CPU counters summed per task (and per
 * cgroup) by a BPF program at each context switch, written as the same process and
 * thread rows as the perf path's. */
#ifndef PMUTOP_BPFSOURCE_H
#define PMUTOP_BPFSOURCE_H

#include "evset.h"
#include "source.h"
#include "srcbase.h"

/* Its own options (srcopts.own), all optional. */
struct bpfopts {
	unsigned tasks; /* entries of its task map; 0 sizes it from the tasks there are (tests
			   give a small one) */
};

/* Its row of the app's table: it counts SCOPE_ALL, or (named by --backend) SCOPE_PIDS
 * too, and gives up mid-run for perf. */
extern const struct source_kind bpfsource_kind;
/* o->scope SCOPE_ALL, or SCOPE_PIDS filtered by process id. The set must outlive the
 * source; source_close frees it. NULL with *err set: -ESRCH (a watched pid does not
 * exist), -ENOMEM, or why BPF could not be used here (bpfsource_why): -ENOTSUP in a build
 * without BPF or for SCOPE_CGROUPS, -E2BIG, -EPERM... A source that later cannot go on
 * (an event set it cannot load) fails its tick or control with -errno, and the app
 * swaps in the next source of its table (perf). */
struct source *bpfsource_new(const struct evset *set, const struct srcopts *o, int *err);
/* Why the bpf backend could not start or go on, in words. */
const char *bpfsource_why(int err);

#endif
