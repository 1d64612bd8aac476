/* treeacct: a command's whole tree counted two ways in one run, perf stat's inherited
 * counters and the kernel's own per-task accounting, printed side by side (issue 40
 * item 5; bench/treeacct.sh runs it):
 *   treeacct -- COMMAND [ARG...]   run COMMAND, print one line of pairs to stderr
 *   treeacct work PAGES NAPS       a child for a tree: touches PAGES fresh pages in NAPS
 *                                  steps, sleeping 1 ms after each
 *   treeacct forks N               per task: N short children, each counted by its own
 *                                  perf counters and read from /proc as a zombie
 * perf's side: task-clock, context-switches, cpu-migrations, page-faults, minor-faults and
 * major-faults opened on the command each alone, disabled, inherit, enable_on_exec,
 * exclude_guest, cpu -1: what `perf stat -e ... -- COMMAND` opens (read off strace perf
 * stat, perf 6.1).
 * The kernel's side: getrusage(RUSAGE_CHILDREN) once the tree has ended, which holds
 * every task of the tree reaped by its parent (treeacct is the tree's subreaper, so
 * orphans come back to it and are reaped too): ru_nvcsw + ru_nivcsw, ru_minflt +
 * ru_majflt, ru_utime + ru_stime (the tasks' sum_exec_runtime, split by scaling, to the
 * microsecond). The command's own usage before its exec (the fork, the wait for the go,
 * perf's counters not yet enabled) is read by the command itself just before execve and
 * taken off (a COMMAND without a slash is searched in PATH after that reading: its
 * search's own stack pages then count on the kernel's side alone; give a path). What the
 * first execve does before perf enables the counters stays in the kernel's count.
 * Migrations have no rusage field: the kernel keeps se.nr_migrations per task only
 * (/proc/PID/sched), gone when the task's parent reaps it, so kernel=n/a.
 * Output: switches=PERF/KERNEL faults=PERF/KERNEL task_clock_us=PERF/KERNEL
 * migrations=PERF/n/a minmaj=PERF (minor-faults + major-faults, counted where the kernel
 * counts min_flt and maj_flt, but only for faults taken with the task's registers)
 * pre_exec=SWITCHES/FAULTS/US; exits with the command's status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
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

/* What /proc keeps of task pid (the kernel's side, per task): 0, or -1 gone. */
struct acct {
	long long sw, mig, flt;
	double rt_ms;
};

static long long sched_field(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);
	return p ? atoll(strchr(p, ':') + 1) : -1;
}

/* /proc/PID/NAME into buf, NUL-terminated: its length, or -1. */
static ssize_t proc_read(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return n;
}

static int acct_read(pid_t pid, struct acct *a)
{
	static char buf[8192]; /* static: its pages touched once, no fault inside a window */
	if (proc_read(pid, "sched", buf, sizeof(buf)) < 0)
		return -1;
	a->sw = sched_field(buf, "\nnr_switches");
	a->mig = sched_field(buf, "se.nr_migrations");
	const char *rt = strstr(buf, "se.sum_exec_runtime");
	a->rt_ms = rt ? atof(strchr(rt, ':') + 1) : -1;
	if (proc_read(pid, "stat", buf, sizeof(buf)) < 0)
		return -1;
	long long minflt = 0, majflt = 0;
	const char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %lld %*u %lld", &minflt, &majflt) != 2)
		return -1;
	a->flt = minflt + majflt;
	return 0;
}

/* 1 if task pid sleeps in read(go) (S, in the read system call), else 0: asleep
 * anywhere else (a fault's lock), it could still be moved and run before its go. -1
 * where /proc cannot say (no ptrace rights for its syscall file). */
static int held_in_read(pid_t pid)
{
	char buf[512];
	if (proc_read(pid, "stat", buf, sizeof(buf)) < 0)
		return -1;
	const char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] != 'S')
		return 0;
	if (proc_read(pid, "syscall", buf, sizeof(buf)) < 0)
		return -1;
	return atol(buf) == SYS_read;
}

/* N short children, one at a time, each held asleep until perf's per-task counters are open
 * on it and /proc read, then working (16 pages, a 200 us sleep, 16 pages) and ending; its
 * counts read as a zombie 1 ms after waitid (its last switch done) and from perf, then
 * reaped. Per task: the kernel's minus perf's, summed, and how many tasks differed. */
static int forks(long n)
{
	long long dsw = 0, dmig = 0, dflt = 0, psw = 0, pmig = 0, pflt = 0;
	long swoff = 0, migoff = 0, fltoff = 0;
	double pclk = 0, krt = 0;
	for (long i = 0; i < n; i++) {
		int go[2];
		if (pipe(go))
			return 1;
		pid_t kid = fork();
		if (kid < 0)
			return 1;
		if (kid == 0) {
			static char page[32 * 4096];
			char c;
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(126);
			for (unsigned p = 0; p < sizeof(page) / 2; p += 4096)
				page[p] = 1;
			struct timespec nap = {0, 200 * 1000};
			nanosleep(&nap, NULL);
			for (unsigned p = sizeof(page) / 2; p < sizeof(page); p += 4096)
				page[p] = 1;
			_exit(0);
		}
		close(go[0]);
		int held;
		while ((held = held_in_read(kid)) == 0) /* nothing of it moves until go */
			sched_yield();
		if (held < 0) {
			fprintf(stderr, "treeacct: cannot read /proc/%d/syscall\n", (int)kid);
			kill(kid, SIGKILL);
			return 1;
		}
		int fd[EV_MIN];
		for (int e = 0; e < EV_MIN; e++) {
			struct perf_event_attr a = {.size = sizeof(a),
						    .type = PERF_TYPE_SOFTWARE,
						    .config = cfg[e],
						    .exclude_guest = 1};
			fd[e] = (int)syscall(SYS_perf_event_open, &a, kid, -1, -1,
					     PERF_FLAG_FD_CLOEXEC);
			if (fd[e] < 0) {
				perror("treeacct: perf_event_open");
				return 1;
			}
		}
		struct acct a0, a1;
		if (acct_read(kid, &a0) || write(go[1], "x", 1) != 1)
			return 1;
		close(go[1]);
		siginfo_t si;
		if (waitid(P_PID, (id_t)kid, &si, WEXITED | WNOWAIT))
			return 1;
		struct timespec ms = {0, 1000 * 1000};
		nanosleep(&ms, NULL);
		if (acct_read(kid, &a1))
			return 1;
		uint64_t v[EV_MIN];
		for (int e = 0; e < EV_MIN; e++) {
			if (read(fd[e], &v[e], sizeof(v[e])) != (ssize_t)sizeof(v[e]))
				return 1;
			close(fd[e]);
		}
		waitpid(kid, NULL, 0);
		long long s = a1.sw - a0.sw - (long long)v[EV_SWITCH];
		long long m = a1.mig - a0.mig - (long long)v[EV_MIGR];
		long long f = a1.flt - a0.flt - (long long)v[EV_FAULT];
		dsw += s, dmig += m, dflt += f;
		swoff += s != 1, migoff += m != 0, fltoff += f != 0;
		psw += (long long)v[EV_SWITCH], pmig += (long long)v[EV_MIGR];
		pflt += (long long)v[EV_FAULT];
		pclk += (double)v[EV_CLOCK] / 1e6, krt += a1.rt_ms - a0.rt_ms;
	}
	fprintf(stderr,
		"tasks=%ld switches=%lld/%+lld (tasks not +1: %ld) migrations=%lld/%+lld (tasks "
		"not equal: %ld) faults=%lld/%+lld (tasks not equal: %ld) "
		"task_clock_ms=%.3f/%.3f\n",
		n, psw, dsw, swoff, pmig, dmig, migoff, pflt, dflt, fltoff, pclk, krt);
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
	if (argc == 3 && !strcmp(argv[1], "forks"))
		return forks(atol(argv[2]));
	if (argc < 3 || strcmp(argv[1], "--")) {
		fputs("usage: treeacct -- COMMAND [ARG...] | treeacct work PAGES NAPS | treeacct "
		      "forks N\n",
		      stderr);
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
