/* What /proc says about tasks and CPUs. Read when a task is first seen (or execs),
 * never per tick per task. */
#ifndef PMUTOP_PROCFS_H
#define PMUTOP_PROCFS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define PROCFS_COMM_MAX 64

struct procfs_task {
	pid_t pid, tid, ppid;
	uid_t uid;
	bool kthread;
	bool dead;	      /* a zombie (Z) or dying (X): its counters are final */
	unsigned nthreads;    /* threads of its process (num_threads) */
	int cpu;	      /* the CPU it last ran on (processor), or -1 */
	uint64_t cpu_ticks;   /* its time on a CPU so far, user and system (clock ticks) */
	uint64_t start_ticks; /* when it started, in clock ticks after boot */
	int nice;	      /* its nice value (-20 .. 19), with have_nice */
	bool have_nice;
	bool rt_running;  /* runnable (R) under a real-time policy (FIFO, RR, DEADLINE) */
	char state;	  /* R, S, D, T, Z, I ... */
	uint64_t rss_kb;  /* resident memory of its process */
	uint64_t virt_kb; /* its virtual memory (vsize) */
	int prio;	  /* its priority (PRI), with have_nice */
	char comm[PROCFS_COMM_MAX];
};

/* Call cb for every numeric entry of <root>/proc (processes), or of
 * <root>/proc/<pid>/task (threads) when pid > 0. Stops early when cb returns non-zero
 * and returns that; -errno when the directory cannot be read. */
int procfs_each(const char *root, pid_t pid, int (*cb)(void *ctx, pid_t id), void *ctx);

/* Fill t for thread tid of process pid: comm, uid, ppid, kernel-thread flag, dead. -ESRCH
 * when it is gone. */
int procfs_task_info(const char *root, pid_t pid, pid_t tid, struct procfs_task *t);

/* Time thread tid has spent on a CPU, in ns (schedstat), into *ns. 0 or -errno. */
int procfs_task_runtime(const char *root, pid_t pid, pid_t tid, uint64_t *ns);
/* The same read again and again through a descriptor kept open (no path looked up at
 * each read): procfs_task_runtime_open gives it (or -ESRCH, -errno), and
 * procfs_task_runtime_fd reads it (-ESRCH once the thread is gone). */
int procfs_task_runtime_open(const char *root, pid_t pid, pid_t tid);
int procfs_task_runtime_fd(int fd, uint64_t *ns);

/* The kernel's own per-task accounting of thread tid, which equals perf's software
 * counts of the task to the count: switches (nr_switches of sched, or the voluntary and
 * involuntary switches of status where sched is not built in) and page faults (minflt and
 * majflt of stat). */
struct procfs_acct {
	uint64_t switches, minflt, majflt;
	uint64_t start_ticks; /* when the task started (stat's 22nd), 0 if not said */
	bool dead;	      /* a zombie (Z) or dying (X): its counts are final */
};
/* One read of thread tid's accounting into a (tid 0: the process's own files,
 * /proc/<pid>). 0, or -ESRCH when it is gone, or -errno. */
int procfs_task_acct(const char *root, pid_t pid, pid_t tid, struct procfs_acct *a);
/* The same for the task that started at start_ticks (an earlier read's): -ESRCH too when
 * tid is now another task's, one started since (a tid is reused once its task is reaped),
 * whose counts are not the first one's. start_ticks 0: whichever task it is. */
int procfs_task_acct_of(const char *root, pid_t pid, pid_t tid, uint64_t start_ticks,
			struct procfs_acct *a);

/* Process pid's arguments from /proc/<pid>/cmdline, separated by spaces, into buf
 * (truncated to len). Returns the length, 0 when it has none (a kernel thread, a zombie),
 * or -errno. */
int procfs_cmdline(const char *root, pid_t pid, char *buf, size_t len);

/* What /proc/<pid>/stat says of a process now: state, memory, CPU time and nice. */
struct procfs_now {
	char state;
	uint64_t rss_kb;
	uint64_t cpu_ns; /* user and system time so far, with have_sched */
	int nice;	 /* -20 .. 19, with have_sched */
	int prio;	 /* priority (PRI: 20 + nice for a normal task), with have_sched */
	bool have_sched;
	uint64_t virt_kb; /* virtual memory (vsize) */
};
/* One read of /proc/<pid>/stat into o, and its name now into comm (PROCFS_COMM_MAX bytes)
 * when comm is not NULL. 0 or -errno. */
int procfs_proc_now(const char *root, pid_t pid, struct procfs_now *o, char *comm);
/* Process pid's resident shared memory (KiB), statm's third field, into *shr_kb. 0 or
 * -errno. */
int procfs_proc_shr(const char *root, pid_t pid, uint64_t *shr_kb);
/* Bytes process pid caused to be read from and written to storage so far (read_bytes,
 * write_bytes of /proc/<pid>/io: root, or its own user, may read it). 0 or -errno
 * (-EACCES: another user's). */
int procfs_proc_io(const char *root, pid_t pid, uint64_t *rd, uint64_t *wr);
/* Clock ticks (/proc's utime, stime) in nanoseconds; 0 when the tick rate is unknown. */
uint64_t procfs_ticks_ns(uint64_t ticks);

/* Process pid's state letter and resident memory (KiB) from /proc/<pid>/stat. 0 or
 * -errno. */
int procfs_proc_mem(const char *root, pid_t pid, char *state, uint64_t *rss_kb);
/* The same, and its name now (a process renames itself with prctl(PR_SET_NAME) or by
 * writing /proc/<pid>/comm, not only by exec) into comm (PROCFS_COMM_MAX bytes). */
int procfs_proc_stat(const char *root, pid_t pid, char *state, uint64_t *rss_kb, char *comm);

/* The process a thread id belongs to (Tgid), or -errno. */
pid_t procfs_tgid(const char *root, pid_t tid);

/* Busy and total jiffies of each CPU from <root>/proc/stat into busy[]/total[] (indexed
 * by CPU number, at most max). Returns the highest CPU number + 1, or -errno. fd caches
 * the open file between calls (start with -1; one pread per tick). */
int procfs_cpu_times(const char *root, int *fd, uint64_t *busy, uint64_t *total, int max);
/* The same, and (part non-NULL) each CPU's jiffies in user (with nice), system (with irq
 * and softirq) and steal into part[3 * cpu + 0, 1, 2]. */
int procfs_cpu_times_split(const char *root, int *fd, uint64_t *busy, uint64_t *total,
			   uint64_t *part, int max);

/* The machine: memory and swap (/proc/meminfo), load (/proc/loadavg), time since boot
 * (/proc/uptime), boot time and clock ticks. have_mem, have_load, have_uptime: what could be read.
 */
struct procfs_sys {
	bool have_mem, have_load, have_uptime;
	bool have_running; /* nr_running: loadavg's fourth field, runnable tasks now */
	unsigned nr_running;
	uint64_t mem_total_kb, mem_avail_kb, swap_total_kb, swap_free_kb;
	double load[3];
	double uptime;
	double boot;  /* when it booted, seconds since the epoch (0: no clock) */
	long clk_tck; /* clock ticks a second, as /proc counts start times */
};
void procfs_sys_read(const char *root, struct procfs_sys *s);

/* Online CPU numbers from <root>/sys/devices/system/cpu/online into cpus (at most max);
 * returns how many, or -errno. */
int procfs_online_cpus(const char *root, int *cpus, int max);

/* Parse a CPU list such as "0-3,8,10-11". Returns how many, or -EINVAL. */
int procfs_parse_cpulist(const char *s, int *cpus, int max);

/* User name for uid (cached), or the uid as text. */
const char *procfs_user_name(uid_t uid);

#endif
