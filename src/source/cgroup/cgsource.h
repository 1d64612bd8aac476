/* -G as a source (source.h): cgroups counted themselves, as perf stat -a -G counts them,
 * a row of kind ROW_CGROUP each and no task. */
#ifndef PMUTOP_CGSOURCE_H
#define PMUTOP_CGSOURCE_H

#include "evset.h"
#include "source.h"
#include "srcbase.h"

/* o->scope SCOPE_CGROUPS: each of o's cgroups (o->cgroup_fds, o->cgroup_paths) opened on
 * every CPU. The set must outlive the source; source_close frees it. NULL with *err set:
 * -EMFILE/-ENFILE when out of descriptors, -EINVAL for another scope, else -ENOMEM. */
/* Its row of the app's table: perf's for SCOPE_CGROUPS (-G). */
extern const struct source_kind cgsource_kind;
struct source *cgsource_new(const struct evset *set, const struct srcopts *o, int *err);

#endif
