/* Names for cgroup v2 paths: a readable name for a systemd unit, a container or a pod,
 * and a set that stores each distinct path once. Pure string work, no syscalls. */
#ifndef PMUTOP_CGROUP_NAME_H
#define PMUTOP_CGROUP_NAME_H

#include <stddef.h>

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

#endif
