/* Per-CPU rows: their groups (with --per-cpu or on the screen) and /proc/stat busy time
 * for the header's meters. */
#include "srcbase.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs.h"

/* Room for the CPU rows. */
int cpurows_alloc(struct srcbase *b)
{
	return mstore_reserve(&b->cpus, (size_t)b->cpu.n, b->set->nevents, srcbase_ngroups(b)) < 0
		       ? -ENOMEM
		       : 0;
}

int cpurows_open(struct srcbase *b)
{
	struct cpuset *c = &b->cpu;
	int ids[MAX_CPUS];
	int n = procfs_online_cpus(b->o.root, ids, MAX_CPUS);
	if (n <= 0) {
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
		for (int i = 0; i < n && i < MAX_CPUS; i++)
			ids[i] = i;
	}
	if (b->o.cpus) {
		/* -C: the online CPUs of the list (main.c refused the others). */
		int k = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < b->o.ncpus; j++)
				if (b->o.cpus[j] == ids[i]) {
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
	if (!c->id || !c->cnt || !c->busy || !c->part || cpurows_alloc(b))
		return -ENOMEM;
	c->total = c->busy + maxid + 1;
	c->pbusy = c->total + maxid + 1;
	c->ptotal = c->pbusy + maxid + 1;
	c->ppart = c->part + 3 * ((size_t)maxid + 1);
	memcpy(c->id, ids, (size_t)n * sizeof(*ids));
	for (int i = 0; i < n; i++) {
		if (counts_alloc(&c->cnt[i], &b->l))
			return -ENOMEM;
		if (b->o.per_cpu)
			srcbase_open_target(b, -1, ids[i], false, &c->cnt[i]);
		else
			memset(c->cnt[i].why, WHY_UNSUPPORTED, b->l.nevents);
	}
	procfs_cpu_times_split(b->o.root, &c->stat_fd, c->pbusy, c->ptotal, c->ppart, maxid + 1);
	return 0;
}

void cpurows_tick(struct srcbase *b)
{
	struct cpuset *c = &b->cpu;
	int got = procfs_cpu_times_split(b->o.root, &c->stat_fd, c->busy, c->total, c->part,
					 c->maxid + 1);
	for (int i = 0; i < c->n && (size_t)i < b->cpus.cap; i++) {
		struct mrow_w w = mstore_row(&b->cpus, (size_t)i);
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
		if (b->o.per_cpu)
			srcbase_read(b, &c->cnt[i]);
		srcbase_fill(b, c->cnt[i].d, c->cnt[i].why, c->cnt[i].fresh, w.v, w.g, false);
	}
	b->m.ncpu_rows = (size_t)c->n < b->cpus.cap ? (unsigned)c->n : (unsigned)b->cpus.cap;
	b->m.cpu_rows = b->cpus.rows;
}

void cpurows_sys(struct srcbase *b)
{
	struct procfs_sys sys;
	procfs_sys_read(b->o.root, &sys);
	b->m.sys = (struct msys){.have_mem = sys.have_mem,
				 .have_load = sys.have_load,
				 .have_uptime = sys.have_uptime,
				 .have_running = sys.have_running,
				 .nr_running = sys.nr_running,
				 .mem_total_kb = sys.mem_total_kb,
				 .mem_avail_kb = sys.mem_avail_kb,
				 .swap_total_kb = sys.swap_total_kb,
				 .swap_free_kb = sys.swap_free_kb,
				 .load = {sys.load[0], sys.load[1], sys.load[2]},
				 .uptime = sys.uptime,
				 .boot = sys.boot,
				 .clk_tck = sys.clk_tck};
}

void cpurows_close(struct srcbase *b)
{
	struct cpuset *c = &b->cpu;
	for (int i = 0; c->cnt && i < c->n; i++)
		counts_free(&c->cnt[i], &b->l);
	if (c->stat_fd >= 0)
		close(c->stat_fd);
	free(c->id);
	free(c->cnt);
	free(c->busy);
	free(c->part);
	mstore_free(&b->cpus);
}

void cpurows_reopen_hw(struct srcbase *b)
{
	for (int i = 0; b->o.per_cpu && i < b->cpu.n; i++)
		srcbase_reopen_hw(b, &b->cpu.cnt[i], -1, b->cpu.id[i], false);
}
