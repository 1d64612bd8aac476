/* A counting source's common state: made, freed, its tick's outline and its clock, and the
 * controls every source handles alike. */
#include "srcbase.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cgroup.h"
#include "evclock.h"
#include "procfs.h"

static void header_init(struct srcbase *b)
{
	struct utsname u;
	if (uname(&u) == 0) {
		/* Truncation is fine: these are header text. */
		memcpy(b->hostname, u.nodename, sizeof(b->hostname) - 1);
		memcpy(b->kernel, u.release, strnlen(u.release, sizeof(b->kernel) - 1));
	}
	b->m.hostname = b->hostname;
	b->m.kernel = b->kernel;
	b->m.ncpus = b->cpu.n;
	b->m.interval = b->o.interval;
	b->m.user_only = b->o.user_only;
	b->m.threads = b->o.threads;
	b->m.exit_status = -1;
}

int srcbase_init(struct srcbase *b, const struct evset *set, const struct srcopts *o)
{
	b->o = *o;
	b->o.root = o->root ? o->root : "";
	b->cpu.stat_fd = -1;
	b->pids = calloc(o->npids + 1, sizeof(*b->pids));
	if (!b->pids || srcbase_layout(b, set))
		return -ENOMEM;
	if (o->npids)
		memcpy(b->pids, o->pids, o->npids * sizeof(*b->pids));
	if (cpurows_open(b))
		return -ENOMEM;
	header_init(b);
	char mnt[512];
	if (cgroup_mount(b->o.root, mnt, sizeof(mnt)) == 0 &&
	    (!(b->cgnames = cgroup_names_new()) || !(b->cgids = cgroup_ids_new(mnt, b->cgnames))))
		return -ENOMEM;
	return 0;
}

void srcbase_fini(struct srcbase *b)
{
	cgroup_ids_free(b->cgids);
	cgroup_names_free(b->cgnames);
	cpurows_close(b);
	srcbase_layout_free(b);
	free(b->pids);
	mstore_free(&b->rows);
}

void srcbase_start_clock(struct srcbase *b)
{
	b->last = evclock_now();
	b->began = b->last;
	b->start = b->o.start > 0 && b->o.start <= b->last ? b->o.start : b->last;
	b->m.tick = b->o.tick;
}

void srcbase_tick_begin(struct srcbase *b)
{
	double now = evclock_now();
	b->m.elapsed = now - b->last;
	b->m.time = now - b->start;
	b->last = now;
}

void srcbase_tick_end(struct srcbase *b)
{
	if (!b->o.no_cpu_rows)
		cpurows_tick(b);
	cpurows_sys(b);
	b->m.tick++;
}

void srcbase_totals_begin(struct srcbase *b)
{
	b->totals = true;
	b->m.final = true;
	/* What it counted itself: since the start, or since it took over from a source. */
	b->m.elapsed = b->m.time - (b->began - b->start);
}

bool srcbase_pause(struct srcbase *b, bool paused)
{
	/* Resuming: what every group counted while paused goes into the run's totals, not
	 * into the next interval, which counts from now. */
	bool resume = b->paused && !paused && b->m.tick > 0;
	if (resume)
		b->last = evclock_now();
	b->paused = paused;
	return resume;
}

void srcbase_baseline(struct srcbase *b)
{
	for (int i = 0; b->o.per_cpu && i < b->cpu.n; i++)
		srcbase_read(b, &b->cpu.cnt[i]);
	struct cpuset *c = &b->cpu;
	if (!b->o.no_cpu_rows)
		procfs_cpu_times_split(b->o.root, &c->stat_fd, c->pbusy, c->ptotal, c->ppart,
				       c->maxid + 1);
}

unsigned srcbase_open_fds(const struct srcbase *b)
{
	unsigned n = 0;
	for (int i = 0; i < b->cpu.n; i++)
		n += counts_open_fds(&b->cpu.cnt[i], &b->l);
	return n;
}

int srcbase_control(struct srcbase *b, enum source_ctl what, const void *arg)
{
	switch (what) {
	case SRC_INTERVAL:
		b->o.interval = *(const double *)arg;
		b->m.interval = b->o.interval;
		return 0;
	case SRC_THREADS:
		b->o.threads = *(const bool *)arg;
		b->m.threads = b->o.threads;
		return 0;
	case SRC_CMDLINE:
		b->cmdline = *(const bool *)arg;
		return 0;
	case SRC_USER_ONLY:
		b->o.user_only = *(const bool *)arg;
		b->m.user_only = b->o.user_only;
		return 0;
	default:
		return -ENOTSUP;
	}
}

bool srcbase_pid_gone(const struct srcbase *b)
{
	for (unsigned i = 0; i < b->o.npids; i++)
		if (kill(b->pids[i], 0) < 0 && errno == ESRCH) {
			if (b->o.failed_pid)
				*b->o.failed_pid = b->pids[i];
			return true;
		}
	return false;
}
