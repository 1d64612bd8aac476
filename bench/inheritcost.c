/* inheritcost: a command counted by one group of 5 software events inherited into its
 * children, as perf stat counts it (no flag); -c: the same group per CPU (pid, cpu), as
 * perf record opens it; -s: per CPU with inherit_stat on every member and a ring buffer
 * on each CPU's leader (the members' output set to it), which makes the kernel write a
 * PERF_RECORD_READ per event for every thread of the tree that ends; -t: one group
 * per task (perf stat's way) with inherit_stat on every member and no ring, which makes
 * the kernel keep each task's counts with its task when it swaps cloned contexts.
 *   usage: inheritcost [-c|-s|-t] COMMAND [ARG...]
 * Prints to stderr the totals, the records and their sums per event (matched by id).
 * The issue 28 measurements in docs/PERFORMANCE.md: the cost of each form against
 * perf stat on bench/workload.c's ping-pong. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_SPAWN
#include "benchutil.h"

static const uint64_t cfg[5] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
				PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS,
				PERF_COUNT_SW_PAGE_FAULTS_MAJ};

int main(int argc, char **argv)
{
	int stat = argc > 1 && !strcmp(argv[1], "-s");
	int tstat = argc > 1 && !strcmp(argv[1], "-t");
	int percpu = stat || (argc > 1 && !strcmp(argv[1], "-c"));
	char **cmd = argv + 1 + (percpu || tstat ? 1 : 0);
	if (!*cmd)
		return 2;
	int go;
	pid_t kid = bench_spawn_held(cmd, &go);
	if (kid < 0)
		return 1;
	int ncpu = percpu ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
	int leads[64];
	uint64_t idall[64][5];
	char *rings[64];
	size_t pg = 4096, npg = 64;
	for (int c = 0; c < ncpu; c++) {
		int fd[5], lead = -1;
		uint64_t id[5];
		for (int i = 0; i < 5; i++) {
			struct perf_event_attr a = {.size = sizeof(a),
						    .type = PERF_TYPE_SOFTWARE,
						    .config = cfg[i],
						    .inherit = 1,
						    .read_format = PERF_FORMAT_GROUP |
								   PERF_FORMAT_ID |
								   PERF_FORMAT_TOTAL_TIME_ENABLED |
								   PERF_FORMAT_TOTAL_TIME_RUNNING};
			a.inherit_stat = stat || tstat;
			if (i == 0) {
				a.disabled = 1;
				a.enable_on_exec = 1;
			}
			fd[i] = (int)syscall(SYS_perf_event_open, &a, kid, percpu ? c : -1, lead,
					     0);
			if (fd[i] < 0) {
				perror("perf_event_open");
				return 1;
			}
			if (i == 0)
				lead = fd[0];
			ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]);
			idall[c][i] = id[i];
		}
		char *ring = stat ? mmap(NULL, (npg + 1) * pg, PROT_READ | PROT_WRITE, MAP_SHARED,
					 lead, 0)
				  : NULL;
		if (ring == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (int i = 1; ring && i < 5; i++)
			if (ioctl(fd[i], PERF_EVENT_IOC_SET_OUTPUT, lead)) {
				perror("SET_OUTPUT");
				return 1;
			}
		leads[c] = lead;
		rings[c] = ring;
	}
	if (write(go, "x", 1) != 1)
		return 1;
	int st;
	waitpid(kid, &st, 0);
	uint64_t tot[5] = {0};
	unsigned nrec = 0;
	uint64_t sum[5] = {0};
	for (int c = 0; c < ncpu; c++) {
		uint64_t buf[64];
		if (read(leads[c], buf, sizeof(buf)) <= 0)
			return 1;
		for (int i = 0; i < 5; i++)
			tot[i] += buf[3 + 2 * i];
		char *ring = rings[c];
		if (ring) {
			struct perf_event_mmap_page *m = (void *)ring;
			uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE),
				 tail = m->data_tail;
			while (tail < head) {
				char rec[1024];
				struct perf_event_header *h =
					(void *)(ring + pg + (tail % (npg * pg)));
				size_t sz = h->size;
				for (size_t k = 0; k < sz && k < sizeof(rec); k++)
					rec[k] = ring[pg + ((tail + k) % (npg * pg))];
				h = (void *)rec;
				if (h->type == PERF_RECORD_READ) {
					uint32_t *pt = (uint32_t *)(rec + sizeof(*h));
					uint64_t *v = (uint64_t *)(pt + 2);
					fprintf(stderr, "READ pid %u tid %u nr %llu:", pt[0], pt[1],
						(unsigned long long)v[0]);
					for (unsigned i = 0; i < v[0] && i < 5; i++) {
						fprintf(stderr, " %llu",
							(unsigned long long)v[3 + 2 * i]);
						for (int k = 0; k < 5; k++)
							if (v[4 + 2 * i] == idall[c][k])
								sum[k] += v[3 + 2 * i];
					}
					fputc('\n', stderr);
					nrec++;
				}
				tail += sz;
			}
		}
	}
	fprintf(stderr, "total:");
	for (int i = 0; i < 5; i++)
		fprintf(stderr, " %llu", (unsigned long long)tot[i]);
	fputc('\n', stderr);
	{
		fprintf(stderr, "records: %u, their sums: %llu %llu %llu %llu %llu\n", nrec,
			(unsigned long long)sum[0], (unsigned long long)sum[1],
			(unsigned long long)sum[2], (unsigned long long)sum[3],
			(unsigned long long)sum[4]);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
