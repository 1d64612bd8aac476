/* statform: perf stat's counters without perf, for machines that have no perf binary (the
 * emulated-PMU guest of bench/emucost.sh). Opens N software events as one group the way
 * perf stat -e '{...}' opens them, so that what the kernel does at each context switch of
 * the counted program is perf stat's:
 *   statform [-n N] -- COMMAND [ARG...]     perf stat --: on the command, inherited into
 *                                           its children, enabled at its exec
 *   statform [-n N] -i -- COMMAND [ARG...]  perf stat -i: the command's task alone
 *   statform [-n N] -a -- COMMAND [ARG...]  perf stat -a: per CPU, while the command runs
 *   statform [-n N] -p PID                  perf stat -p: each thread of PID (inherited),
 *                                           until the process ends
 * N is 1 to 8 (task-clock, context-switches, cpu-migrations, page-faults, major-faults,
 * minor-faults, alignment-faults, emulation-faults), 5 by default. Prints each event's
 * total to stderr; exits with the command's status. */
#define _GNU_SOURCE
#include <dirent.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_SPAWN
#include "benchutil.h"

#define MAXEV 8
#define MAXT 256 /* targets: CPUs or threads */

static const uint64_t cfg[MAXEV] = {PERF_COUNT_SW_TASK_CLOCK,	    PERF_COUNT_SW_CONTEXT_SWITCHES,
				    PERF_COUNT_SW_CPU_MIGRATIONS,   PERF_COUNT_SW_PAGE_FAULTS,
				    PERF_COUNT_SW_PAGE_FAULTS_MAJ,  PERF_COUNT_SW_PAGE_FAULTS_MIN,
				    PERF_COUNT_SW_ALIGNMENT_FAULTS, PERF_COUNT_SW_EMULATION_FAULTS};

static int nev = 5;
static int slow; /* -r: inherit with PERF_SAMPLE_READ (Linux 6.12): no context swap */
static int fds[MAXT][MAXEV];
static int ntarget;

/* One group on (pid, cpu): the leader disabled (enabled at exec with on_exec, else by
 * the caller), the members following it, as perf stat opens a {} group. */
static int open_group(pid_t pid, int cpu, int inherit, int on_exec)
{
	if (ntarget == MAXT)
		return -1;
	int *fd = fds[ntarget];
	for (int i = 0; i < nev; i++) {
		struct perf_event_attr a = {.size = sizeof(a),
					    .type = PERF_TYPE_SOFTWARE,
					    .config = cfg[i],
					    .inherit = (unsigned)inherit,
					    .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
							   PERF_FORMAT_TOTAL_TIME_RUNNING};
		if (slow && inherit)
			a.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
		a.disabled = i == 0;
		a.enable_on_exec = i == 0 && on_exec;
		fd[i] = (int)syscall(SYS_perf_event_open, &a, pid, cpu, i ? fd[0] : -1,
				     PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0) {
			perror("statform: perf_event_open");
			return -1;
		}
	}
	ntarget++;
	return 0;
}

static void enable_all(void)
{
	for (int t = 0; t < ntarget; t++)
		ioctl(fds[t][0], PERF_EVENT_IOC_ENABLE, 0);
}

static void report(void)
{
	for (int i = 0; i < nev; i++) {
		uint64_t sum = 0;
		for (int t = 0; t < ntarget; t++) {
			uint64_t v[3];
			if (read(fds[t][i], v, sizeof(v)) == sizeof(v))
				sum += v[0];
		}
		fprintf(stderr, "statform: event %d: %llu\n", i, (unsigned long long)sum);
	}
}

static int attach(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int ret = 0;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && open_group(atoi(e->d_name), -1, 1, 0))
			ret = -1;
	closedir(d);
	enable_all();
	/* Until the process ends: not our child, so poll as perf stat -p does. */
	struct timespec nap = {0, 10 * 1000 * 1000};
	while (kill(pid, 0) == 0) {
		char st[64];
		snprintf(st, sizeof(st), "/proc/%d/stat", (int)pid);
		FILE *f = fopen(st, "r");
		char state = 'Z';
		if (f) {
			if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
				state = 'Z';
			fclose(f);
		}
		if (state == 'Z' || state == 'X')
			break;
		nanosleep(&nap, NULL);
	}
	report();
	return ret;
}

int main(int argc, char **argv)
{
	int mode = 0; /* 0: --, 'i', 'a', 'p' */
	pid_t pid = 0;
	int k = 1;
	for (; k < argc && argv[k][0] == '-' && strcmp(argv[k], "--"); k++) {
		if (!strcmp(argv[k], "-n") && k + 1 < argc)
			nev = atoi(argv[++k]);
		else if (!strcmp(argv[k], "-p") && k + 1 < argc) {
			mode = 'p';
			pid = atoi(argv[++k]);
		} else if (!strcmp(argv[k], "-r")) {
			slow = 1;
		} else if (!strcmp(argv[k], "-i") || !strcmp(argv[k], "-a"))
			mode = argv[k][1];
		else
			break;
	}
	if (nev < 1 || nev > MAXEV) {
		fputs("statform: -n takes 1 to 8\n", stderr);
		return 2;
	}
	if (mode == 'p')
		return pid > 0 && attach(pid) == 0 ? 0 : 1;
	if (k >= argc || strcmp(argv[k], "--") || k + 1 >= argc) {
		fputs("usage: statform [-n N] [-i|-a] -- COMMAND [ARG...] | statform [-n N] -p "
		      "PID\n",
		      stderr);
		return 2;
	}
	char **cmd = argv + k + 1;
	int go;
	pid_t kid = bench_spawn_held(cmd, &go);
	if (kid < 0)
		return 1;
	if (mode == 'a') {
		int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
		for (int c = 0; c < ncpu; c++)
			if (open_group(-1, c, 0, 0))
				return 1;
		enable_all();
	} else if (open_group(kid, -1, mode != 'i', 1)) {
		return 1;
	}
	if (write(go, "x", 1) != 1)
		return 1;
	int st = 0;
	waitpid(kid, &st, 0);
	report();
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
