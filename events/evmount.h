/* Where the kernel's pseudo-filesystems are mounted (cgroup2, tracefs), from
 * <root>/proc/self/mountinfo: never a hard-coded path. */
#ifndef PMUTOP_EVMOUNT_H
#define PMUTOP_EVMOUNT_H

#include <stddef.h>

/* The first mount point of filesystem type fstype ("cgroup2", "tracefs") into out. 0,
 * -ENOENT when there is none, -ENAMETOOLONG, or -errno. */
int evmount_find(const char *root, const char *fstype, char *out, size_t len);

#endif
