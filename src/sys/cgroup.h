/* cgroup v2: where its hierarchy is mounted, which cgroup a task is in, and the path of
 * a cgroup id (names for paths: cgroup_name.h). */
#ifndef PMUTOP_CGROUP_H
#define PMUTOP_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup_name.h"

/* The cgroup2 mount point from <root>/proc/self/mountinfo (/sys/fs/cgroup on most
 * machines, /sys/fs/cgroup/unified on hybrid ones) into out. 0, -ENOENT when there is
 * none, -ENAMETOOLONG, or -errno. */
int cgroup_mount(const char *root, char *out, size_t len);

/* The cgroup v2 path of process pid ("0::/system.slice/nginx.service" gives
 * "/system.slice/nginx.service"), relative to the cgroup2 root, into out. 0, -ESRCH
 * when the process is gone, -ENOENT when it has no v2 line, or -errno. */
int cgroup_of(const char *root, pid_t pid, char *out, size_t len);

/* Cgroup ids (the kernfs id a BPF program reads from a task, on cgroup v2 the inode number
 * of the cgroup's directory) to paths relative to the cgroup2 root, by walking the
 * mount: so that a task gone from /proc still names its cgroup. */
struct cgroup_ids;
/* A map of the hierarchy under mnt (the cgroup2 mount), paths interned in names (which
 * must outlive it). NULL when out of memory. */
struct cgroup_ids *cgroup_ids_new(const char *mnt, struct cgroup_names *names);
void cgroup_ids_free(struct cgroup_ids *c);
/* The path of cgroup id ("/" for the root), or NULL when no cgroup has it. A miss walks
 * the mount again, at most once per gen (the caller's tick), so that ids of removed
 * cgroups cost one walk, not one each. */
const char *cgroup_ids_path(struct cgroup_ids *c, uint64_t id, uint64_t gen);

#endif
