/* treeacct: a command's whole tree counted two ways in one run, perf stat's inherited
 * counters and the kernel's own per-task accounting, printed side by side (issue 40
 * item 5):
 *   treeacct -- COMMAND [ARG...]   run COMMAND, print one line of pairs to stderr
 *   treeacct work PAGES NAPS       a child for a tree: touches PAGES fresh pages in NAPS
 *                                  steps, sleeping 1 ms after each
 * perf's side: task-clock, context-switches, cpu-migrations, page-faults, minor-faults and
 * major-faults opened on the
 * command each alone, disabled, inherit, enable_on_exec, exclude_guest, cpu -1: what
 * `perf stat -e ... -- COMMAND` opens (read off strace perf stat, perf 6.1).
 * The kernel's side: getrusage(RUSAGE_CHILDREN) once the tree has ended, which holds
 * every task of the tree reaped by its parent (treeacct is the tree's subreaper, so
 * orphans come back to it and are reaped too): ru_nvcsw + ru_nivcsw, ru_minflt +
 * ru_majflt, ru_utime + ru_stime (the tasks' sum_exec_runtime, split by scaling, to the
 * microsecond). The command's own usage before its exec (the fork, the wait for the go,
 * perf's counters not yet enabled) is read by the command itself just before execve and
 * taken off (a COMMAND without a slash is searched in PATH after that reading: its
 * search's own stack pages then count on the kernel's side alone; give a path). What the
 * first execve does before perf enables the counters (copy the arguments, move the task
 * to another CPU) stays in the kernel's count. Migrations have no rusage field: the kernel keeps
 * se.nr_migrations per task only (/proc/PID/sched), gone when the task's parent reaps it, so
 * kernel=n/a. Output: switches=PERF/KERNEL faults=PERF/KERNEL task_clock_us=PERF/KERNEL
 * migrations=PERF/n/a minmaj=PERF (minor-faults + major-faults, counted where the kernel
 * counts min_flt and maj_flt, but only for faults taken with the task's registers)
 * pre_exec=SWITCHES/FAULTS/US; exits with the command's status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EV_CLOCK, EV_SWITCH, EV_MIGR, EV_FAULT, EV_MIN, EV_MAJ, NEV };

static const uint64_t cfg[NEV] = {PERF_COUNT_SW_TASK_CLOCK,	 PERF_COUNT_SW_CONTEXT_SWITCHES,
				  PERF_COUNT_SW_CPU_MIGRATIONS,	 PERF_COUNT_SW_PAGE_FAULTS,
				  PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ};

static int work(long pages, long naps)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)(pages * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	struct timespec ms = {0, 1000 * 1000};
	long done = 0;
	for (long s = 1; s <= naps; s++) {
		for (; done < pages * s / naps; done++)
			m[done * pg] = (char)done;
		nanosleep(&ms, NULL);
	}
	return 0;
}

static uint64_t tv_us(struct timeval a, struct timeval b)
{
	return (uint64_t)(a.tv_sec + b.tv_sec) * 1000000u + (uint64_t)(a.tv_usec + b.tv_usec);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "work"))
		return work(atol(argv[2]), atol(argv[3]));
	if (argc < 3 || strcmp(argv[1], "--")) {
		fputs("usage: treeacct -- COMMAND [ARG...] | treeacct work PAGES NAPS\n", stderr);
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		perror("treeacct: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	int go[2], pre[2];
	if (pipe(go) || pipe2(pre, O_CLOEXEC))
		return 1;
	pid_t kid = fork();
	if (kid < 0)
		return 1;
	if (kid == 0) {
		struct rusage ru;
		char c;
		close(go[1]);
		close(pre[0]);
		memset(&ru, 0, sizeof(ru)); /* its page our own before the reading, not after */
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		getrusage(RUSAGE_SELF, &ru);
		if (write(pre[1], &ru, sizeof(ru)) != (ssize_t)sizeof(ru))
			_exit(126);
		if (strchr(argv[2], '/'))
			execv(argv[2], argv + 2);
		else
			execvp(argv[2], argv + 2);
		_exit(127);
	}
	close(go[0]);
	close(pre[1]);
	int fd[NEV];
	for (int i = 0; i < NEV; i++) {
		struct perf_event_attr a = {.size = sizeof(a),
					    .type = PERF_TYPE_SOFTWARE,
					    .config = cfg[i],
					    .sample_type = PERF_SAMPLE_IDENTIFIER,
					    .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
							   PERF_FORMAT_TOTAL_TIME_RUNNING,
					    .disabled = 1,
					    .inherit = 1,
					    .enable_on_exec = 1,
					    .exclude_guest = 1};
		fd[i] = (int)syscall(SYS_perf_event_open, &a, kid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0) {
			perror("treeacct: perf_event_open");
			return 1;
		}
	}
	if (write(go[1], "x", 1) != 1)
		return 1;
	close(go[1]);
	int st = 0, kst = 1;
	pid_t w;
	while ((w = waitpid(-1, &st, 0)) > 0 || (w < 0 && errno == EINTR))
		if (w == kid)
			kst = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	/* Read once the tree has ended: a reader waiting would be woken by the command's
	 * write and could preempt it before its exec, a switch perf does not count. */
	struct rusage pr = {0};
	int havepre = read(pre[0], &pr, sizeof(pr)) == (ssize_t)sizeof(pr);
	if (!havepre) {
		fputs("treeacct: the command did not reach its exec\n", stderr);
		return 1;
	}
	uint64_t v[NEV][3];
	for (int i = 0; i < NEV; i++)
		if (read(fd[i], v[i], sizeof(v[i])) != (ssize_t)sizeof(v[i])) {
			perror("treeacct: read");
			return 1;
		}
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	long psw = pr.ru_nvcsw + pr.ru_nivcsw, pflt = pr.ru_minflt + pr.ru_majflt;
	uint64_t pus = tv_us(pr.ru_utime, pr.ru_stime);
	fprintf(stderr,
		"switches=%llu/%ld faults=%llu/%ld task_clock_us=%.1f/%llu migrations=%llu/n/a "
		"minmaj=%llu pre_exec=%ld/%ld/%llu\n",
		(unsigned long long)v[EV_SWITCH][0], ru.ru_nvcsw + ru.ru_nivcsw - psw,
		(unsigned long long)v[EV_FAULT][0], ru.ru_minflt + ru.ru_majflt - pflt,
		(double)v[EV_CLOCK][0] / 1e3,
		(unsigned long long)(tv_us(ru.ru_utime, ru.ru_stime) - pus),
		(unsigned long long)v[EV_MIGR][0],
		(unsigned long long)(v[EV_MIN][0] + v[EV_MAJ][0]), psw, pflt,
		(unsigned long long)pus);
	return kst;
}
