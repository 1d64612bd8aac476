/* cgroup v2: where its hierarchy is mounted, which cgroup a task is in, and a name a
 * person can read for a systemd unit, a container or a pod. */
#ifndef PMUTOP_CGROUP_H
#define PMUTOP_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The cgroup2 mount point from <root>/proc/self/mountinfo (/sys/fs/cgroup on most
 * machines, /sys/fs/cgroup/unified on hybrid ones) into out. 0, -ENOENT when there is
 * none, -ENAMETOOLONG, or -errno. */
int cgroup_mount(const char *root, char *out, size_t len);

/* The cgroup v2 path of process pid ("0::/system.slice/nginx.service" gives
 * "/system.slice/nginx.service"), relative to the cgroup2 root, into out. 0, -ESRCH
 * when the process is gone, -ENOENT when it has no v2 line, or -errno. */
int cgroup_of(const char *root, pid_t pid, char *out, size_t len);

/* A short name for path: a systemd unit's name ("nginx.service"), a container's runtime
 * and id cut to 12 hex digits ("docker:0123456789ab"), a pod's UID ("pod:1f2e...") with
 * its container after it, else the last component ("/" for the root). Returns out. */
const char *cgroup_name(const char *path, char *out, size_t len);

/* Interned paths: each distinct one stored once, kept until cgroup_names_free. */
struct cgroup_names;
struct cgroup_names *cgroup_names_new(void);
void cgroup_names_free(struct cgroup_names *n);
/* The stored copy of path, or NULL when out of memory. */
const char *cgroup_names_intern(struct cgroup_names *n, const char *path);

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
