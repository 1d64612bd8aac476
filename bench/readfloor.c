/* readfloor: the kernel's share of a tick, without pmutop. Opens one group of the first
 * N software events (pmutop's read_format) on each given task, then every 0.1 s reads
 * each group once, as a tick does, and prints the median cost of one read(). With -p the
 * task-clock leader has a read format of its own and only it is read: what pmutop's
 * probe of a task that did not run costs where it cannot map a page (read_tasks in
 * src/source/perf/engine.c). With -m the leader's first page is mapped and only its sequence count
 * is looked at, without a syscall: pmutop's probe where it can (has_run, evgroup_seq_works).
 * usage: readfloor [-p|-m] N TICKS PID...   prints read_us=MICROSECONDS groups=OPENED */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"

/* task-clock, context-switches, cpu-migrations, page-faults, major-faults */
static const uint64_t sw[] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
			      PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS,
			      PERF_COUNT_SW_PAGE_FAULTS_MAJ};

static int open_one(pid_t pid, uint64_t config, int leader, int alone)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (alone)
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
}

int main(int argc, char **argv)
{
	int map = argc > 1 && strcmp(argv[1], "-m") == 0;
	int probe = map || (argc > 1 && strcmp(argv[1], "-p") == 0);
	argv += probe;
	argc -= probe;
	if (argc < 4) {
		fputs("usage: readfloor [-p|-m] N TICKS PID...\n", stderr);
		return 2;
	}
	int size = atoi(argv[1]), ticks = atoi(argv[2]), n = argc - 3, open = 0;
	if (size < 1 || size > 5 || ticks < 1)
		return 2;
	int *lead = calloc((size_t)n, sizeof(*lead));
	const volatile uint32_t **seq = calloc((size_t)n, sizeof(*seq));
	double *per = calloc((size_t)ticks, sizeof(*per));
	if (!lead || !per || !seq)
		return 1;
	for (int i = 0; i < n; i++) {
		pid_t pid = (pid_t)atoi(argv[i + 3]);
		lead[open] = open_one(pid, sw[0], -1, probe);
		if (lead[open] < 0)
			continue;
		for (int k = 1; k < size; k++)
			if (open_one(pid, sw[k], lead[open], 0) < 0)
				return 1;
		if (map) {
			void *pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
					lead[open], 0);
			if (pg == MAP_FAILED)
				return 1;
			seq[open] = &((volatile struct perf_event_mmap_page *)pg)->lock;
		}
		open++;
	}
	if (open == 0)
		return 1;
	uint64_t buf[3 + 2 * 5];
	for (int t = 0; t < ticks; t++) {
		usleep(100000);
		double t0 = bench_now();
		for (int i = 0; map && i < open; i++)
			(void)*seq[i]; /* a volatile load, as pmutop's */
		for (int i = 0; !map && i < open; i++)
			if (read(lead[i], buf, sizeof(buf)) <= 0)
				return 1;
		per[t] = (bench_now() - t0) / open;
	}
	qsort(per, (size_t)ticks, sizeof(*per), bench_cmp_double);
	printf("read_us=%.3f groups=%d\n", per[ticks / 2] * 1e6, open);
	return 0;
}
