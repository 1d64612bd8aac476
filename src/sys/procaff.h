/* A process's CPU affinity, read and set as htop's affinity panel does: the set of
 * its main thread, and a new set on every one of its threads. */
#ifndef PMUTOP_PROCAFF_H
#define PMUTOP_PROCAFF_H

#include <stdbool.h>
#include <sys/types.h>

/* The online CPUs (<root>/sys) into cpus and whether pid may run on each into on (at
 * most max). Returns how many, or -errno (sched_getaffinity's: -ESRCH gone). */
int procaff_get(const char *root, pid_t pid, int *cpus, bool *on, int max);

/* Run pid and each of its threads (<root>/proc/<pid>/task) on the n CPUs given. *done
 * and *failed count the threads; returns 0 when every one took it, else the first
 * failure's -errno (-EINVAL: none of the CPUs is usable). */
int procaff_set(const char *root, pid_t pid, const int *cpus, unsigned n, unsigned *done,
		unsigned *failed);

#endif
