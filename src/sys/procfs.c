/* Reading /proc and /sys for task names, owners and CPU times. */
#include "procfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A getdents64 record (linux_dirent64 in getdents(2)). */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

int procfs_each(const char *root, pid_t pid, int (*cb)(void *ctx, pid_t id), void *ctx)
{
	char path[256];
	if (pid > 0)
		snprintf(path, sizeof(path), "%s/proc/%d/task", root, (int)pid);
	else
		snprintf(path, sizeof(path), "%s/proc", root);
	/* getdents64 into a buffer of its own, not opendir's: that one is allocated at each
	 * call, and a scan runs at every tick (a watched process's threads), which then
	 * allocated once a tick however still the process was. */
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	_Alignas(struct dent64) char buf[4096];
	int ret = 0;
	long n;
	while (!ret && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && !ret;) {
			const struct dent64 *e = (const struct dent64 *)(buf + off);
			off += e->reclen;
			if (isdigit((unsigned char)e->name[0]))
				ret = cb(ctx, (pid_t)atoi(e->name));
		}
	}
	close(fd);
	return ret;
}

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t r = read(fd, buf, len - 1);
	int err = errno;
	close(fd);
	if (r < 0)
		return -err;
	buf[r] = '\0';
	return r;
}

/* The flags field of /proc/PID/stat: the 9th, counted after the ")" that ends comm
 * (comm may itself hold ") "). */
#define PF_KTHREAD 0x00200000

/* The start of the k-th field at or after p (k = 1: the one p is in or before), or NULL
 * when the line ends first. */
static const char *next_field(const char *p, int k)
{
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			return NULL;
		if (--k == 0)
			return p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
	}
}

/* The decimal number at p (a '-' allowed), into *v; false when there is none. */
static bool stat_num(const char *p, long long *v)
{
	if (!p)
		return false;
	char *end;
	errno = 0;
	*v = strtoll(p, &end, 10);
	return end != p && errno == 0 && (*end == ' ' || *end == '\n' || *end == '\0');
}

/* state(3) ppid(4) flags(9) utime(14) stime(15) num_threads(20) starttime(22) rss(24)
 * processor(39) policy(41), nice(19), walked once rather than scanned field by field
 * with sscanf: start-up reads it for every task. */
static int parse_stat(const char *buf, struct procfs_task *t)
{
	const char *p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	static const int want[] = {3, 4, 9, 14, 15, 20, 22, 39, 41, 24};
	const char *at[10] = {NULL};
	const char *q = next_field(p + 1, 1); /* field 3 */
	for (unsigned i = 0; i < 9 && q; i++) {
		if (i > 0)
			q = next_field(q, want[i] - want[i - 1] + 1);
		at[i] = q;
	}
	long long ppid, flags, utime, stime, nthreads, start, cpu, policy, rss, nice, prio, vsize;
	if (!at[0] || !stat_num(at[1], &ppid) || !stat_num(at[2], &flags))
		return -EINVAL;
	char state = *at[0];
	at[9] = at[6] ? next_field(at[6], 24 - 22 + 1) : NULL;
	const char *at_prio = at[4] ? next_field(at[4], 18 - 15 + 1) : NULL;
	const char *at_nice = at_prio ? next_field(at_prio, 2) : NULL;
	const char *at_vsize = at[6] ? next_field(at[6], 23 - 22 + 1) : NULL;
	t->have_nice = stat_num(at_nice, &nice) && nice >= -20 && nice <= 19 &&
		       stat_num(at_prio, &prio) && prio >= -101 && prio <= 139;
	t->nice = t->have_nice ? (int)nice : 0;
	t->prio = t->have_nice ? (int)prio : 0;
	t->virt_kb = stat_num(at_vsize, &vsize) && vsize > 0 ? (uint64_t)vsize / 1024 : 0;
	t->state = state;
	t->rss_kb = at[9] && stat_num(at[9], &rss) && rss > 0
			    ? (uint64_t)rss * ((uint64_t)sysconf(_SC_PAGESIZE) / 1024)
			    : 0;
	t->cpu_ticks =
		stat_num(at[3], &utime) && stat_num(at[4], &stime) && utime >= 0 && stime >= 0
			? (uint64_t)utime + (uint64_t)stime
			: 0;
	t->nthreads = stat_num(at[5], &nthreads) && nthreads > 0 ? (unsigned)nthreads : 0;
	t->start_ticks = stat_num(at[6], &start) && start >= 0 ? (uint64_t)start : 0;
	t->cpu = stat_num(at[7], &cpu) && cpu >= 0 && cpu < INT_MAX ? (int)cpu : -1;
	t->ppid = (pid_t)ppid;
	t->kthread = ((unsigned long long)flags & PF_KTHREAD) != 0;
	t->dead = state == 'Z' || state == 'X' || state == 'x';
	/* SCHED_FIFO 1, SCHED_RR 2, SCHED_DEADLINE 6 */
	t->rt_running = state == 'R' && stat_num(at[8], &policy) &&
			(policy == 1 || policy == 2 || policy == 6);
	return 0;
}

/* One open: stat holds the name (between the parentheses) and the flags, and the file's
 * owner is the task's. */
int procfs_task_info(const char *root, pid_t pid, pid_t tid, struct procfs_task *t)
{
	char path[256], buf[1024];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->cpu = -1;
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/stat", root, (int)pid, (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	struct stat st;
	ssize_t r = fstat(fd, &st) == 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	int err = errno;
	close(fd);
	if (r < 0)
		return err == ENOENT ? -ESRCH : -err;
	buf[r] = '\0';
	t->uid = st.st_uid;
	const char *open_paren = strchr(buf, '(');
	const char *close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return -EINVAL;
	size_t len = (size_t)(close_paren - open_paren - 1);
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, open_paren + 1, len);
	t->comm[len] = '\0';
	return parse_stat(buf, t);
}

static void runtime_path(char *path, size_t len, const char *root, pid_t pid, pid_t tid)
{
	snprintf(path, len, "%s/proc/%d/task/%d/schedstat", root, (int)pid, (int)tid);
}

int procfs_task_runtime_open(const char *root, pid_t pid, pid_t tid)
{
	char path[256];
	runtime_path(path, sizeof(path), root, pid, tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	return fd;
}

static int runtime_parse(const char *buf, uint64_t *ns)
{
	char *end;
	unsigned long long v = strtoull(buf, &end, 10);
	if (end == buf)
		return -EINVAL;
	*ns = v;
	return 0;
}

int procfs_task_runtime_fd(int fd, uint64_t *ns)
{
	char buf[128];
	ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	return runtime_parse(buf, ns);
}

int procfs_task_runtime(const char *root, pid_t pid, pid_t tid, uint64_t *ns)
{
	char path[256], buf[128];
	runtime_path(path, sizeof(path), root, pid, tid);
	ssize_t r = read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : (int)r;
	return runtime_parse(buf, ns);
}

/* The number after "key" and its ':' in a "key : value" listing (sched, status), into
 * *v; false when the key is not there. */
static bool keyed_num(const char *buf, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	for (const char *p = buf; (p = strstr(p, key)) != NULL; p += n) {
		if (p != buf && p[-1] != '\n')
			continue;
		const char *q = p + n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != ':')
			continue;
		char *end;
		errno = 0;
		unsigned long long x = strtoull(q + 1, &end, 10);
		if (end == q + 1 || errno)
			return false;
		*v = x;
		return true;
	}
	return false;
}

static int acct_dir(const char *root, pid_t pid, pid_t tid, const char *file, char *path,
		    size_t len)
{
	int n = tid > 0 ? snprintf(path, len, "%s/proc/%d/task/%d/%s", root, (int)pid, (int)tid,
				   file)
			: snprintf(path, len, "%s/proc/%d/%s", root, (int)pid, file);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Switches from status, where the kernel has no sched file. */
static int acct_status(const char *root, pid_t pid, pid_t tid, struct procfs_acct *a)
{
	char path[256], buf[4096];
	int e = acct_dir(root, pid, tid, "status", path, sizeof(path));
	ssize_t r = e ? e : read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : (int)r;
	uint64_t vol, invol;
	if (!keyed_num(buf, "voluntary_ctxt_switches", &vol) ||
	    !keyed_num(buf, "nonvoluntary_ctxt_switches", &invol))
		return -EINVAL;
	a->switches = vol + invol;
	return 0;
}

int procfs_task_acct(const char *root, pid_t pid, pid_t tid, struct procfs_acct *a)
{
	char path[256], buf[4096];
	memset(a, 0, sizeof(*a));
	int e = acct_dir(root, pid, tid, "stat", path, sizeof(path));
	ssize_t r = e ? e : read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : (int)r;
	/* minflt(10) and majflt(12), counted after the ")" that ends comm. */
	const char *p = strrchr(buf, ')');
	const char *at_min = p ? next_field(p + 1, 10 - 3 + 1) : NULL;
	const char *at_maj = at_min ? next_field(at_min, 12 - 10 + 1) : NULL;
	long long mn, mj;
	if (!stat_num(at_min, &mn) || !stat_num(at_maj, &mj) || mn < 0 || mj < 0)
		return -EINVAL;
	a->minflt = (uint64_t)mn;
	a->majflt = (uint64_t)mj;
	const char *at_start = next_field(at_maj, 22 - 12 + 1);
	long long start;
	a->start_ticks = stat_num(at_start, &start) && start > 0 ? (uint64_t)start : 0;
	const char *st = next_field(p + 1, 1);
	a->dead = *st == 'Z' || *st == 'X' || *st == 'x';
	e = acct_dir(root, pid, tid, "sched", path, sizeof(path));
	r = e ? e : read_small(path, buf, sizeof(buf));
	if (r == -ENOENT) {
		/* No sched file: gone, or a kernel without CONFIG_SCHED_DEBUG. */
		return acct_status(root, pid, tid, a);
	}
	if (r < 0)
		return (int)r;
	if (!keyed_num(buf, "nr_switches", &a->switches))
		return acct_status(root, pid, tid, a);
	return 0;
}

int procfs_task_acct_of(const char *root, pid_t pid, pid_t tid, uint64_t start_ticks,
			struct procfs_acct *a)
{
	int err = procfs_task_acct(root, pid, tid, a);
	if (!err && start_ticks && a->start_ticks != start_ticks)
		return -ESRCH;
	return err;
}

pid_t procfs_tgid(const char *root, pid_t tid)
{
	char path[256], buf[2048];
	snprintf(path, sizeof(path), "%s/proc/%d/status", root, (int)tid);
	ssize_t r = read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : (pid_t)r;
	const char *p = strstr(buf, "\nTgid:");
	if (!p)
		return -EINVAL;
	return (pid_t)atoi(p + 6);
}

int procfs_cpu_times(const char *root, int *fd, uint64_t *busy, uint64_t *total, int max)
{
	return procfs_cpu_times_split(root, fd, busy, total, NULL, max);
}

int procfs_cpu_times_split(const char *root, int *fd, uint64_t *busy, uint64_t *total,
			   uint64_t *part, int max)
{
	if (*fd < 0) {
		char path[256];
		snprintf(path, sizeof(path), "%s/proc/stat", root);
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return -errno;
	}
	char buf[16384];
	ssize_t r = pread(*fd, buf, sizeof(buf) - 1, 0);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	int ncpu = 0;
	for (char *line = buf; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		int cpu;
		unsigned long long v[10] = {0};
		if (strncmp(line, "cpu", 3) != 0 || !isdigit((unsigned char)line[3]))
			continue;
		int n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			       &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
			       &v[9]);
		if (n < 5 || cpu < 0 || cpu >= max)
			continue;
		/* user nice system idle iowait irq softirq steal (guest is inside user). */
		uint64_t idle = v[3] + v[4];
		uint64_t all = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		busy[cpu] = all - idle;
		total[cpu] = all;
		if (part) {
			part[3 * cpu] = v[0] + v[1];
			part[3 * cpu + 1] = v[2] + v[5] + v[6];
			part[3 * cpu + 2] = v[7];
		}
		if (cpu + 1 > ncpu)
			ncpu = cpu + 1;
	}
	return ncpu;
}

/* The value of "Key:" in meminfo text, in kB; false when absent. */
static bool meminfo_kb(const char *buf, const char *key, uint64_t *kb)
{
	size_t n = strlen(key);
	for (const char *p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, n) == 0 && p[n] == ':') {
			char *end = NULL;
			unsigned long long v = strtoull(p + n + 1, &end, 10);
			if (end == p + n + 1)
				return false;
			*kb = v;
			return true;
		}
	}
	return false;
}

void procfs_sys_read(const char *root, struct procfs_sys *s)
{
	char path[256], buf[8192] = {0};
	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	if (read_small(path, buf, sizeof(buf)) > 0)
		s->have_mem = meminfo_kb(buf, "MemTotal", &s->mem_total_kb) &&
			      meminfo_kb(buf, "MemAvailable", &s->mem_avail_kb) &&
			      meminfo_kb(buf, "SwapTotal", &s->swap_total_kb) &&
			      meminfo_kb(buf, "SwapFree", &s->swap_free_kb);
	snprintf(path, sizeof(path), "%s/proc/loadavg", root);
	if (read_small(path, buf, sizeof(buf)) > 0) {
		int k = sscanf(buf, "%lf %lf %lf %u/", &s->load[0], &s->load[1], &s->load[2],
			       &s->nr_running);
		s->have_load = k >= 3;
		s->have_running = k == 4;
	}
	snprintf(path, sizeof(path), "%s/proc/uptime", root);
	if (read_small(path, buf, sizeof(buf)) > 0)
		s->have_uptime = sscanf(buf, "%lf", &s->uptime) == 1;
	struct timespec real, boot;
	if (clock_gettime(CLOCK_REALTIME, &real) == 0 && clock_gettime(CLOCK_BOOTTIME, &boot) == 0)
		s->boot = (double)(real.tv_sec - boot.tv_sec) +
			  (double)(real.tv_nsec - boot.tv_nsec) * 1e-9;
	long hz = sysconf(_SC_CLK_TCK);
	s->clk_tck = hz > 0 ? hz : 0;
}

uint64_t procfs_ticks_ns(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);
	return hz > 0 ? ticks * (1000000000ULL / (uint64_t)hz) : 0;
}

int procfs_proc_now(const char *root, pid_t pid, struct procfs_now *o, char *comm)
{
	char path[256], buf[1024];
	snprintf(path, sizeof(path), "%s/proc/%d/stat", root, (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int err = errno;
	close(fd);
	if (n <= 0)
		return n < 0 ? -err : -EINVAL;
	buf[n] = '\0';
	/* pid (comm) state(3) ... utime(14) stime(15) ... nice(19) ... rss(24), in pages;
	 * comm may hold ')' and blanks */
	const char *open_ = strchr(buf, '(');
	const char *p = strrchr(buf, ')');
	const char *st = p ? next_field(p + 1, 1) : NULL;
	const char *ut = st ? next_field(st, 14 - 3 + 1) : NULL;
	const char *stm = ut ? next_field(ut, 2) : NULL;
	const char *pr = stm ? next_field(stm, 18 - 15 + 1) : NULL;
	const char *ni = pr ? next_field(pr, 2) : NULL;
	const char *vsz = ni ? next_field(ni, 23 - 19 + 1) : NULL;
	const char *rss = vsz ? next_field(vsz, 2) : NULL;
	long long pages, utime, stime, nice, prio, vsize;
	if (!open_ || open_ > p || !st || !rss || !stat_num(rss, &pages) || pages < 0)
		return -EINVAL;
	o->state = *st;
	o->rss_kb = (uint64_t)pages * ((uint64_t)sysconf(_SC_PAGESIZE) / 1024);
	o->have_sched = stat_num(ut, &utime) && stat_num(stm, &stime) && stat_num(ni, &nice) &&
			stat_num(pr, &prio) && utime >= 0 && stime >= 0 && nice >= -20 &&
			nice <= 19 && prio >= -101 && prio <= 139;
	o->cpu_ns = o->have_sched ? procfs_ticks_ns((uint64_t)utime + (uint64_t)stime) : 0;
	o->nice = o->have_sched ? (int)nice : 0;
	o->prio = o->have_sched ? (int)prio : 0;
	o->virt_kb = stat_num(vsz, &vsize) && vsize > 0 ? (uint64_t)vsize / 1024 : 0;
	if (comm)
		snprintf(comm, PROCFS_COMM_MAX, "%.*s", (int)(p - open_ - 1), open_ + 1);
	return 0;
}

int procfs_proc_shr(const char *root, pid_t pid, uint64_t *shr_kb)
{
	char path[256], buf[256];
	snprintf(path, sizeof(path), "%s/proc/%d/statm", root, (int)pid);
	ssize_t n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* size resident shared text lib data dt, in pages */
	long long pages;
	if (!stat_num(next_field(buf, 3), &pages) || pages < 0)
		return -EINVAL;
	*shr_kb = (uint64_t)pages * ((uint64_t)sysconf(_SC_PAGESIZE) / 1024);
	return 0;
}

static bool io_field(const char *buf, const char *key, uint64_t *v)
{
	const char *p = strstr(buf, key);
	while (p && p != buf && p[-1] != '\n')
		p = strstr(p + 1, key);
	if (!p)
		return false;
	char *end;
	errno = 0;
	unsigned long long u = strtoull(p + strlen(key), &end, 10);
	if (end == p + strlen(key) || errno)
		return false;
	*v = u;
	return true;
}

int procfs_proc_io(const char *root, pid_t pid, uint64_t *rd, uint64_t *wr)
{
	char path[256], buf[512];
	snprintf(path, sizeof(path), "%s/proc/%d/io", root, (int)pid);
	ssize_t n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (!io_field(buf, "read_bytes: ", rd) || !io_field(buf, "write_bytes: ", wr))
		return -EINVAL;
	return 0;
}

int procfs_proc_stat(const char *root, pid_t pid, char *state, uint64_t *rss_kb, char *comm)
{
	struct procfs_now o = {0};
	int err = procfs_proc_now(root, pid, &o, comm);
	if (err)
		return err;
	*state = o.state;
	*rss_kb = o.rss_kb;
	return 0;
}

int procfs_proc_mem(const char *root, pid_t pid, char *state, uint64_t *rss_kb)
{
	return procfs_proc_stat(root, pid, state, rss_kb, NULL);
}

int procfs_cmdline(const char *root, pid_t pid, char *buf, size_t len)
{
	char path[256];
	if (len == 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/proc/%d/cmdline", root, (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int err = errno;
	close(fd);
	if (n < 0)
		return -err;
	/* Arguments end in NULs: spaces between them, none at the end. */
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return (int)n;
}

int procfs_parse_cpulist(const char *s, int *cpus, int max)
{
	int n = 0;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;
		if (end == s || a < 0)
			return -EINVAL;
		s = end;
		b = a;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		for (long c = a; c <= b && n < max; c++)
			cpus[n++] = (int)c;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n;
}

int procfs_online_cpus(const char *root, int *cpus, int max)
{
	char path[256], buf[4096] = "";
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root);
	ssize_t r = read_small(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	return procfs_parse_cpulist(buf, cpus, max);
}

struct user_entry {
	uid_t uid;
	struct user_entry *next;
	char name[33];
};

const char *procfs_user_name(uid_t uid)
{
	/* A handful of users own every process: a small cache avoids NSS per task. An entry
	 * never moves or changes, so a name returned stays right for as long as the caller
	 * keeps it (a process keeps its owner's: proc_row in rowbuild.c). */
	static struct user_entry cache[64];
	static unsigned used;
	static struct user_entry *more; /* past 64 users, a list: rare, and kept */
	for (unsigned i = 0; i < used; i++)
		if (cache[i].uid == uid)
			return cache[i].name;
	for (struct user_entry *m = more; m; m = m->next)
		if (m->uid == uid)
			return m->name;
	bool listed = used >= 64;
	struct user_entry *e = listed ? calloc(1, sizeof(*e)) : &cache[used++];
	if (!e)
		return "?";
	if (listed) {
		e->next = more;
		more = e;
	}
	e->uid = uid;
	struct passwd pw, *res = NULL;
	char buf[1024];
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		snprintf(e->name, sizeof(e->name), "%s", res->pw_name);
	else
		snprintf(e->name, sizeof(e->name), "%u", (unsigned)uid);
	return e->name;
}
