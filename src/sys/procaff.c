/* CPU affinity: see procaff.h. */
#include "procaff.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "procfs.h"

int procaff_get(const char *root, pid_t pid, int *cpus, bool *on, int max)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(pid, sizeof(set), &set) != 0)
		return -errno;
	int n = procfs_online_cpus(root, cpus, max);
	for (int i = 0; i < n; i++)
		on[i] = cpus[i] >= 0 && cpus[i] < CPU_SETSIZE && CPU_ISSET(cpus[i], &set);
	return n;
}

struct setctx {
	cpu_set_t set;
	unsigned done, failed;
	int err;
};

static int set_one(void *ctx, pid_t tid)
{
	struct setctx *c = ctx;
	if (sched_setaffinity(tid, sizeof(c->set), &c->set) == 0) {
		c->done++;
	} else if (errno != ESRCH) { /* a thread that ended meanwhile needs none */
		c->failed++;
		if (!c->err)
			c->err = -errno;
	}
	return 0;
}

int procaff_set(const char *root, pid_t pid, const int *cpus, unsigned n, unsigned *done,
		unsigned *failed)
{
	struct setctx c = {.err = 0};
	CPU_ZERO(&c.set);
	for (unsigned i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
			CPU_SET(cpus[i], &c.set);
	*done = *failed = 0;
	if (!CPU_COUNT(&c.set))
		return -EINVAL;
	/* The main thread first: it says whether the process is there and ours. */
	if (sched_setaffinity(pid, sizeof(c.set), &c.set) != 0)
		return -errno;
	int err = procfs_each(root, pid, set_one, &c);
	*done = c.done;
	*failed = c.failed;
	return err < 0 ? err : c.err;
}
