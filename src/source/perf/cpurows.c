/* Per-CPU rows: their groups and /proc/stat busy time. */
#include "engine_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "evclock.h"
#include "evgroup.h"
#include "hybrid.h"
#include "procfs.h"
#include "taskwatch.h"
#include "tasktab.h"

/* Per-CPU rows: their groups (with --per-cpu or on the screen) and /proc/stat busy time
 * for the header's meters. */
int engine_cpu_rows_alloc(struct engine *e)
{
	return mstore_reserve(&e->cpus, (size_t)e->cpu.n, e->set->nevents, engine_ngroups(e)) < 0
		       ? -ENOMEM
		       : 0;
}

int cpurows_open(struct engine *e)
{
	struct cpuset *c = &e->cpu;
	int ids[MAX_CPUS];
	int n = procfs_online_cpus(e->o.root, ids, MAX_CPUS);
	if (n <= 0) {
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
		for (int i = 0; i < n && i < MAX_CPUS; i++)
			ids[i] = i;
	}
	if (e->o.cpus) {
		/* -C: the online CPUs of the list (main.c refused the others). */
		int k = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < e->o.ncpus; j++)
				if (e->o.cpus[j] == ids[i]) {
					ids[k++] = ids[i];
					break;
				}
		n = k;
	}
	int maxid = 0;
	for (int i = 0; i < n; i++)
		maxid = ids[i] > maxid ? ids[i] : maxid;
	c->n = n;
	c->maxid = maxid;
	c->id = calloc((size_t)n + 1, sizeof(*c->id));
	c->cnt = calloc((size_t)n + 1, sizeof(*c->cnt));
	c->busy = calloc((size_t)maxid + 1, 4 * sizeof(uint64_t));
	c->part = calloc((size_t)maxid + 1, 6 * sizeof(uint64_t));
	if (!c->id || !c->cnt || !c->busy || !c->part || engine_cpu_rows_alloc(e))
		return -ENOMEM;
	c->total = c->busy + maxid + 1;
	c->pbusy = c->total + maxid + 1;
	c->ptotal = c->pbusy + maxid + 1;
	c->ppart = c->part + 3 * ((size_t)maxid + 1);
	memcpy(c->id, ids, (size_t)n * sizeof(*ids));
	for (int i = 0; i < n; i++) {
		if (counts_alloc(&c->cnt[i], &e->l))
			return -ENOMEM;
		if (e->o.per_cpu)
			targets_open(e, -1, ids[i], false, &c->cnt[i]);
		else
			memset(c->cnt[i].why, WHY_UNSUPPORTED, e->l.nevents);
	}
	procfs_cpu_times_split(e->o.root, &c->stat_fd, c->pbusy, c->ptotal, c->ppart, maxid + 1);
	return 0;
}

void cpurows_tick(struct engine *e)
{
	struct cpuset *c = &e->cpu;
	int got = procfs_cpu_times_split(e->o.root, &c->stat_fd, c->busy, c->total, c->part,
					 c->maxid + 1);
	for (int i = 0; i < c->n && (size_t)i < e->cpus.cap; i++) {
		struct mrow_w w = mstore_row(&e->cpus, (size_t)i);
		struct mrow *r = w.r;
		r->kind = ROW_CPU;
		r->cpu = c->id[i];
		r->comm = "";
		r->user = "";
		int id = c->id[i];
		uint64_t dt = c->total[id] - c->ptotal[id];
		/* -1: /proc/stat unreadable; -2: no jiffy went by (a very short interval). */
		r->cpu_pct = got <= id ? -1
			     : dt      ? 100.0 * (double)(c->busy[id] - c->pbusy[id]) / (double)dt
				       : -2;
		for (int k = 0; k < 3 && r->cpu_pct >= 0; k++)
			r->cpu_split[k] = 100.0 *
					  (double)(c->part[3 * id + k] - c->ppart[3 * id + k]) /
					  (double)dt;
		memcpy(&c->ppart[3 * id], &c->part[3 * id], 3 * sizeof(uint64_t));
		c->pbusy[id] = c->busy[id];
		c->ptotal[id] = c->total[id];
		if (e->o.per_cpu)
			targets_read(e, &c->cnt[i]);
		rowbuild_fill(e, c->cnt[i].d, c->cnt[i].why, c->cnt[i].fresh, w.v, w.g, false);
	}
	struct procfs_sys sys;
	procfs_sys_read(e->o.root, &sys);
	e->m.sys = (struct msys){.have_mem = sys.have_mem,
				 .have_load = sys.have_load,
				 .have_uptime = sys.have_uptime,
				 .mem_total_kb = sys.mem_total_kb,
				 .mem_avail_kb = sys.mem_avail_kb,
				 .swap_total_kb = sys.swap_total_kb,
				 .swap_free_kb = sys.swap_free_kb,
				 .load = {sys.load[0], sys.load[1], sys.load[2]},
				 .uptime = sys.uptime,
				 .boot = sys.boot,
				 .clk_tck = sys.clk_tck};
	e->m.ncpu_rows = (size_t)c->n < e->cpus.cap ? (unsigned)c->n : (unsigned)e->cpus.cap;
	e->m.cpu_rows = e->cpus.rows;
}

void cpurows_close(struct engine *e)
{
	struct cpuset *c = &e->cpu;
	for (int i = 0; c->cnt && i < c->n; i++)
		counts_free(&c->cnt[i], &e->l);
	if (c->stat_fd >= 0)
		close(c->stat_fd);
	free(c->id);
	free(c->cnt);
	free(c->busy);
	free(c->part);
	mstore_free(&e->cpus);
}
