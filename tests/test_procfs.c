/* procfs: CPU lists, /proc/stat busy time and task facts, on fixture trees with known
 * numbers (tests/fixtures/proc-basic, proc-old) and on the live /proc for this process. */
#include "testutil.h"

#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#include "procfs.h"
#include "procaff.h"
#include "procinfo.h"

/* Above PID_MAX_LIMIT (4M): no task can have it. */
#define NO_PID 4194304

static char *fixture(const char *name)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf), "%s", testutil_path(name));
	return buf;
}

static void test_cpulist_good(void **state)
{
	(void)state;
	int c[16];
	assert_int_equal(procfs_parse_cpulist("0-3,8,10-11", c, 16), 7);
	const int want[] = {0, 1, 2, 3, 8, 10, 11};
	assert_memory_equal(c, want, sizeof(want));
	assert_int_equal(procfs_parse_cpulist("0", c, 16), 1);
	assert_int_equal(c[0], 0);
	assert_int_equal(procfs_parse_cpulist("5\n", c, 16), 1); /* as sysfs writes it */
	assert_int_equal(c[0], 5);
	assert_int_equal(procfs_parse_cpulist("2-2", c, 16), 1);
	assert_int_equal(c[0], 2);
	assert_int_equal(procfs_parse_cpulist("", c, 16), 0);
	assert_int_equal(procfs_parse_cpulist("\n", c, 16), 0);
	/* At most max entries. */
	assert_int_equal(procfs_parse_cpulist("0-7", c, 4), 4);
	assert_int_equal(c[3], 3);
}

static void test_cpulist_bad(void **state)
{
	(void)state;
	int c[16];
	const char *bad[] = {"a", "3-1", "1-", "-1", "1,,2", "1;2", "1 2", "0-3x", ",1", "1-a"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (procfs_parse_cpulist(bad[i], c, 16) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
}

static void test_online_cpus_fixture(void **state)
{
	(void)state;
	int c[8];
	assert_int_equal(procfs_online_cpus(fixture("fixtures/proc-basic"), c, 8), 3);
	assert_int_equal(c[0], 0);
	assert_int_equal(c[1], 1);
	assert_int_equal(c[2], 3);
	assert_int_equal(procfs_online_cpus(fixture("fixtures/no-such-tree"), c, 8), -ENOENT);
}

static void test_cpu_times_fixture(void **state)
{
	(void)state;
	uint64_t busy[8], total[8];
	for (int i = 0; i < 8; i++)
		busy[i] = total[i] = 777;
	int fd = -1;
	/* busy = user+nice+system+irq+softirq+steal (guest is inside user); total adds
	 * idle and iowait. cpu2 is offline: absent, left alone. The "cpu " sum line is not
	 * a CPU. */
	assert_int_equal(procfs_cpu_times(fixture("fixtures/proc-basic"), &fd, busy, total, 8), 4);
	assert_true(fd >= 0);
	assert_int_equal(busy[0], 170);
	assert_int_equal(total[0], 990);
	assert_int_equal(busy[1], 370);
	assert_int_equal(total[1], 1190);
	assert_int_equal(busy[2], 777);
	assert_int_equal(total[2], 777);
	assert_int_equal(busy[3], 27);
	assert_int_equal(total[3], 36);
	assert_int_equal(busy[4], 777);
	/* The cached descriptor reads the file again from the start. */
	int keep = fd;
	busy[0] = total[0] = 0;
	assert_int_equal(procfs_cpu_times("/nonexistent", &fd, busy, total, 8), 4);
	assert_int_equal(fd, keep);
	assert_int_equal(busy[0], 170);
	assert_int_equal(total[0], 990);
	close(fd);

	/* CPUs beyond max are not written. */
	fd = -1;
	busy[3] = 777;
	assert_int_equal(procfs_cpu_times(fixture("fixtures/proc-basic"), &fd, busy, total, 2), 2);
	assert_int_equal(busy[3], 777);
	close(fd);

	/* Old kernels: four fields per CPU. */
	fd = -1;
	assert_int_equal(procfs_cpu_times(fixture("fixtures/proc-old"), &fd, busy, total, 8), 2);
	assert_int_equal(busy[0], 15);
	assert_int_equal(total[0], 100);
	close(fd);

	fd = -1;
	assert_int_equal(procfs_cpu_times(fixture("fixtures/no-such-tree"), &fd, busy, total, 8),
			 -ENOENT);
	assert_int_equal(fd, -1);
}

/* The parts of busy the CPU meters draw: user+nice, system+irq+softirq, steal; they sum
 * to busy. */
static void test_cpu_times_split(void **state)
{
	(void)state;
	uint64_t busy[8], total[8], part[24] = {0};
	int fd = -1;
	assert_int_equal(
		procfs_cpu_times_split(fixture("fixtures/proc-basic"), &fd, busy, total, part, 8),
		4);
	close(fd);
	assert_int_equal(part[0], 105);
	assert_int_equal(part[1], 55);
	assert_int_equal(part[2], 10);
	assert_int_equal(part[0] + part[1] + part[2], busy[0]);
	assert_int_equal(part[9], 3);
	assert_int_equal(part[10], 16);
	assert_int_equal(part[11], 8);
	assert_int_equal(part[9] + part[10] + part[11], busy[3]);
}

static void test_cpu_times_live(void **state)
{
	(void)state;
	uint64_t busy[1024], total[1024];
	int fd = -1;
	int n = procfs_cpu_times("", &fd, busy, total, 1024);
	assert_true(n >= 1);
	assert_true(n >= (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(total[0] > 0);
	assert_true(busy[0] <= total[0]);
	close(fd);
}

static void test_task_info_fixture(void **state)
{
	(void)state;
	struct procfs_task t;
	const char *root = fixture("fixtures/proc-basic");
	char rootcopy[4096];
	snprintf(rootcopy, sizeof(rootcopy), "%s", root);
	/* A name holding ") (": the fields are found after the last ')'. */
	assert_int_equal(procfs_task_info(rootcopy, 42, 42, &t), 0);
	assert_int_equal(t.pid, 42);
	assert_int_equal(t.tid, 42);
	assert_int_equal(t.ppid, 1);
	assert_false(t.kthread);
	assert_string_equal(t.comm, "evil) (x");
	assert_int_equal(t.nthreads, 2);
	assert_int_equal(t.cpu, 0);	      /* processor, the 39th field */
	assert_int_equal(t.cpu_ticks, 5 + 3); /* utime and stime, the 14th and 15th */
	assert_int_equal(t.start_ticks, 100); /* starttime, the 22nd */
	assert_false(t.rt_running);
	/* State and resident memory (rss, the 24th, in pages), and the same from the
	 * process's own stat. */
	uint64_t kb = 200 * ((uint64_t)sysconf(_SC_PAGESIZE) / 1024);
	assert_int_equal(t.state, 'S');
	assert_true(t.rss_kb == kb);
	char st_letter = 0;
	uint64_t rss = 0;
	assert_int_equal(procfs_proc_mem(rootcopy, 42, &st_letter, &rss), 0);
	assert_int_equal(st_letter, 'S');
	assert_true(rss == kb);
	assert_int_equal(procfs_proc_mem(rootcopy, 4242, &st_letter, &rss), -ENOENT);
	/* Its name now too (a rename is no exec), ") (" and all. */
	char comm[PROCFS_COMM_MAX] = "old";
	assert_int_equal(procfs_proc_stat(rootcopy, 42, &st_letter, &rss, comm), 0);
	assert_string_equal(comm, "evil) (x");
	assert_true(rss == kb);
	/* Its CPU time and nice (the 19th) as they are now: TIME+ and NI. */
	assert_int_equal(t.nice, 5);
	assert_true(t.have_nice);
	struct procfs_now now;
	assert_int_equal(procfs_proc_now(rootcopy, 42, &now, NULL), 0);
	assert_true(now.have_sched);
	assert_int_equal(now.nice, 5);
	assert_int_equal(now.state, 'S');
	assert_true(now.rss_kb == kb);
	assert_true(now.cpu_ns == 8 * (1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK)));
	assert_int_equal(procfs_proc_now(rootcopy, 4242, &now, NULL), -ENOENT);
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/proc/42/task/42", rootcopy);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(t.uid, st.st_uid);

	assert_int_equal(procfs_task_info(rootcopy, 42, 44, &t), 0);
	assert_string_equal(t.comm, "worker 1");
	assert_int_equal(t.tid, 44);
	assert_int_equal(t.cpu, 1);
	assert_false(t.dead);

	assert_int_equal(procfs_task_info(rootcopy, 7, 7, &t), 0);
	assert_true(t.kthread);
	assert_int_equal(t.ppid, 2);
	assert_string_equal(t.comm, "kworker/0:1-events");
	assert_int_equal(t.nthreads, 1);

	/* An old kernel's shorter line: no num_threads, no processor; still a zombie. */
	char old[4096];
	snprintf(old, sizeof(old), "%s", fixture("fixtures/proc-old"));
	assert_int_equal(procfs_task_info(old, 9, 9, &t), 0);
	assert_string_equal(t.comm, "short");
	assert_true(t.dead);
	assert_int_equal(t.nthreads, 0);
	assert_int_equal(t.cpu, -1);
	assert_false(t.rt_running);
	/* Running under SCHED_FIFO (policy, the 41st field, 1) on CPU 1; and a SCHED_RR task
	 * asleep, which holds no CPU. */
	assert_int_equal(procfs_task_info(old, 11, 11, &t), 0);
	assert_string_equal(t.comm, "rt (hog)");
	assert_int_equal(t.cpu, 1);
	assert_true(t.rt_running);
	assert_int_equal(procfs_task_info(old, 12, 12, &t), 0);
	assert_int_equal(t.cpu, 0);
	assert_false(t.rt_running);

	assert_int_equal(procfs_task_info(rootcopy, 42, 45, &t), -ESRCH);
	assert_int_equal(procfs_task_info(rootcopy, 99, 99, &t), -ESRCH);
	assert_int_equal(procfs_tgid(rootcopy, 42), 42);
	assert_int_equal(procfs_tgid(rootcopy, 99), -ESRCH);
}

/* htop's PRI, VIRT (stat's 18th and 23rd), SHR (statm's third) and I/O (io's
 * read_bytes and write_bytes, not cancelled_write_bytes). */
static void test_more_fixture(void **state)
{
	(void)state;
	char root[4096];
	snprintf(root, sizeof(root), "%s", fixture("fixtures/proc-basic"));
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	struct procfs_now now;
	assert_int_equal(procfs_proc_now(root, 42, &now, NULL), 0);
	assert_int_equal(now.prio, 25);
	assert_int_equal(now.nice, 5);
	assert_true(now.virt_kb == 10000000 / 1024);
	struct procfs_task t;
	assert_int_equal(procfs_task_info(root, 42, 42, &t), 0);
	assert_int_equal(t.prio, 25);
	assert_true(t.virt_kb == 10000000 / 1024);
	uint64_t shr = 0, rd = 0, wr = 0;
	assert_int_equal(procfs_proc_shr(root, 42, &shr), 0);
	assert_true(shr == 150 * page_kb);
	assert_int_equal(procfs_proc_io(root, 42, &rd, &wr), 0);
	assert_true(rd == 4096);
	assert_true(wr == 8192);
	/* A kernel thread's fixture has neither file. */
	assert_int_equal(procfs_proc_io(root, 7, &rd, &wr), -ENOENT);
	assert_int_equal(procfs_proc_shr(root, 7, &shr), -ENOENT);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_io(const char *dir, unsigned long long rd, unsigned long long wr)
{
	char io[256];
	snprintf(io, sizeof(io),
		 "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: %llu\nwrite_bytes: "
		 "%llu\ncancelled_write_bytes: 99\n",
		 rd, wr);
	put_file(dir, "io", io);
}

/* A fake /proc under a new directory root (a mkdtemp template) with task 6 of process 5:
 * its directory into dir. */
static void task_dir(char *root, char *dir, size_t len)
{
	assert_non_null(mkdtemp(root));
	const char *parts[] = {"/proc", "/5", "/task", "/6"};
	snprintf(dir, len, "%s", root);
	for (unsigned i = 0; i < 4; i++) {
		strncat(dir, parts[i], len - strlen(dir) - 1);
		assert_int_equal(mkdir(dir, 0700), 0);
	}
}

/* The kernel's per-task accounting: sched's nr_switches, stat's
 * minflt (10th) and majflt (12th) after a name holding ") ", and status's switches where
 * there is no sched file. */
static void test_task_acct_fixture(void **state)
{
	(void)state;
	char root[] = "/tmp/pmutop-acct-XXXXXX", dir[256];
	task_dir(root, dir, sizeof(dir));
	put_file(dir, "stat", "6 (a) b (c) S 1 6 6 0 -1 4194304 71 0 3 0 5 6 0 0 20 0 1 0\n");
	put_file(dir, "sched",
		 "a (6, #threads: 1)\n-----\nse.exec_start : 1.5\n"
		 "se.nr_migrations                             :                   17\n"
		 "nr_switches                                  :                 1234\n"
		 "nr_voluntary_switches                        :                 1200\n");
	put_file(dir, "status",
		 "Name:\ta\nvoluntary_ctxt_switches:\t9\n"
		 "nonvoluntary_ctxt_switches:\t1\n");
	struct procfs_acct a;
	assert_int_equal(procfs_task_acct(root, 5, 6, &a), 0);
	assert_true(a.switches == 1234);
	assert_true(a.minflt == 71);
	assert_true(a.majflt == 3);
	assert_false(a.dead);
	put_file(dir, "stat", "6 (a) b (c) Z 1 6 6 0 -1 4194304 71 0 3 0 5 6 0 0 20 0 1 0\n");
	assert_int_equal(procfs_task_acct(root, 5, 6, &a), 0);
	assert_true(a.dead);
	assert_true(a.minflt == 71);
	/* No sched file (no CONFIG_SCHED_DEBUG): the switches from status. */
	char path[300];
	snprintf(path, sizeof(path), "%s/sched", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(procfs_task_acct(root, 5, 6, &a), 0);
	assert_true(a.switches == 10);
	assert_true(a.minflt == 71);
	/* A short stat line is no count; a task that is gone is -ESRCH. */
	put_file(dir, "stat", "6 (a) S 1 6 6 0 -1 4194304 71\n");
	assert_int_equal(procfs_task_acct(root, 5, 6, &a), -EINVAL);
	assert_int_equal(procfs_task_acct(root, 5, 7, &a), -ESRCH);
	assert_int_equal(procfs_task_acct(root, 8, 0, &a), -ESRCH);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* A tid reused between two reads: the new task's counts (its own, from its start) are
 * not the first task's, told apart by stat's starttime (22nd field). */
static void test_task_acct_reused_tid(void **state)
{
	(void)state;
	char root[] = "/tmp/pmutop-reuse-XXXXXX", dir[256];
	task_dir(root, dir, sizeof(dir));
	put_file(dir, "sched", "a (6, #threads: 1)\nnr_switches : 1234\n");
	put_file(dir, "stat", "6 (a) S 1 6 6 0 -1 4194304 71 0 3 0 5 6 0 0 20 0 1 0 500 9000 40\n");
	struct procfs_acct a;
	assert_int_equal(procfs_task_acct(root, 5, 6, &a), 0);
	assert_true(a.start_ticks == 500);
	assert_true(a.minflt == 71);
	assert_int_equal(procfs_task_acct_of(root, 5, 6, 500, &a), 0);
	assert_true(a.minflt == 71);
	/* Reaped, and tid 6 given to a task started at 900 with fewer faults so far. */
	put_file(dir, "sched", "b (6, #threads: 1)\nnr_switches : 2\n");
	put_file(dir, "stat", "6 (b) S 1 6 6 0 -1 4194304 4 0 0 0 0 0 0 0 20 0 1 0 900 9000 40\n");
	assert_int_equal(procfs_task_acct_of(root, 5, 6, 500, &a), -ESRCH);
	assert_int_equal(procfs_task_acct_of(root, 5, 6, 900, &a), 0);
	assert_true(a.minflt == 4 && a.switches == 2);
	/* No start known (a first read): whichever task it is. */
	assert_int_equal(procfs_task_acct_of(root, 5, 6, 0, &a), 0);
	assert_true(a.start_ticks == 900);
	/* Gone is gone, whatever the start. */
	assert_int_equal(procfs_task_acct_of(root, 5, 7, 900, &a), -ESRCH);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static int open_sw(uint64_t config)
{
	struct perf_event_attr at;
	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_SOFTWARE;
	at.config = config;
	at.exclude_kernel = 0;
	return (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
}

static uint64_t read_sw(int fd)
{
	uint64_t v = 0;
	assert_int_equal(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
	return v;
}

/* On the live /proc, this thread's page faults and switches over a stretch move by
 * exactly what perf counts for it (the claim rows from /proc rest on). */
static void test_task_acct_live(void **state)
{
	(void)state;
	int ff = open_sw(PERF_COUNT_SW_PAGE_FAULTS), fs = open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	if (ff < 0 || fs < 0) {
		if (ff >= 0)
			close(ff);
		if (fs >= 0)
			close(fs);
		skip();
	}
	pid_t me = getpid(), tid = (pid_t)syscall(SYS_gettid);
	struct procfs_acct a0, a1;
	uint64_t f0 = read_sw(ff), s0 = read_sw(fs);
	assert_int_equal(procfs_task_acct("", me, tid, &a0), 0);
	size_t len = 64 * (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	for (size_t i = 0; i < len; i += (size_t)sysconf(_SC_PAGESIZE))
		m[i] = 1;
	for (int i = 0; i < 5; i++)
		usleep(1000); /* each sleep a switch */
	assert_int_equal(procfs_task_acct("", me, tid, &a1), 0);
	uint64_t f1 = read_sw(ff), s1 = read_sw(fs);
	munmap(m, len);
	close(ff);
	close(fs);
	/* The reads themselves may fault and switch: both sides bracket the same stretch,
	 * perf's outside /proc's, so /proc's delta is within perf's. */
	uint64_t pf = a1.minflt + a1.majflt - a0.minflt - a0.majflt;
	assert_true(pf >= 64);
	assert_true(pf <= f1 - f0);
	uint64_t sw = a1.switches - a0.switches;
	assert_true(sw >= 5);
	assert_true(sw <= s1 - s0);
}

/* The interval's I/O: "-" (MIO_FIRST) at the first read, the difference from the last
 * read after, nothing more while it sleeps, and n/a (never 0) when io cannot be read. */
/* A /proc of one process under a new directory made from the template root: its
 * directory (root/proc/pid) into dir. */
static void fake_proc(char *root, int pid, char *dir, size_t len)
{
	assert_non_null(mkdtemp(root));
	snprintf(dir, len, "%s/proc", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, len, "%s/proc/%d", root, pid);
	assert_int_equal(mkdir(dir, 0700), 0);
}

/* A process whose stat line a source's start-up read (procinfo_seed) is not read again
 * when first asked for: here it has no stat file at all, and the seed's values stand;
 * its memory and I/O are read as for a new one. */
static void test_procinfo_seed(void **state)
{
	(void)state;
	char root[] = "/tmp/pmutop-procseed-XXXXXX", dir[128];
	fake_proc(root, 60, dir, sizeof(dir));
	put_file(dir, "statm", "1000 10 4 1 0 5 0\n");
	put_io(dir, 1000, 5000);
	struct procinfo *pi = procinfo_new();
	assert_non_null(pi);
	struct procfs_task t = {.pid = 60, .tid = 60, .ppid = 42, .state = 'S', .start_ticks = 7};
	snprintf(t.comm, sizeof(t.comm), "seeded");
	procinfo_seed(pi, &t, 1);
	const struct procinfo_ent *e = procinfo_get(pi, root, 60, "seeded", false, false, 1);
	assert_non_null(e);
	assert_int_equal(e->ppid, 42);
	assert_int_equal(e->state, 'S');
	assert_true(e->start_ticks == 7);
	assert_string_equal(e->comm, "seeded");
	assert_int_equal(e->more.io, MIO_FIRST);
	assert_true(e->more.have_shr);
	procinfo_free(pi);
	char path[200];
	const char *names[] = {"statm", "io"};
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/proc", root);
	rmdir(dir);
	rmdir(root);
}

static void test_procinfo_io(void **state)
{
	(void)state;
	char root[] = "/tmp/pmutop-procinfo-XXXXXX", dir[128];
	fake_proc(root, 50, dir, sizeof(dir));
	const char *stat =
		"50 (io) R 1 50 50 0 -1 4194560 0 0 0 0 1 1 0 0 20 0 1 0 7 4096000 10 0 0\n";
	put_file(dir, "stat", stat);
	char task[160];
	snprintf(task, sizeof(task), "%s/task", dir);
	assert_int_equal(mkdir(task, 0700), 0);
	snprintf(task, sizeof(task), "%s/task/50", dir);
	assert_int_equal(mkdir(task, 0700), 0);
	put_file(task, "stat", stat);
	put_file(dir, "statm", "1000 10 4 1 0 5 0\n");
	put_io(dir, 1000, 5000);
	struct procinfo *pi = procinfo_new();
	assert_non_null(pi);
	const struct procinfo_ent *e = procinfo_get(pi, root, 50, "io", true, false, 1);
	assert_non_null(e);
	assert_int_equal(e->more.io, MIO_FIRST);
	assert_true(e->more.have_prio);
	assert_int_equal(e->more.prio, 20);
	assert_true(e->more.virt_kb == 4000);
	assert_true(e->more.have_shr);
	put_io(dir, 1000 + 300, 5000 + 70000);
	e = procinfo_get(pi, root, 50, "io", true, false, 2);
	assert_int_equal(e->more.io, MIO_OK);
	assert_true(e->more.io_rd == 300);
	assert_true(e->more.io_wr == 70000);
	/* Asleep: no reads, nothing done. */
	e = procinfo_get(pi, root, 50, "io", false, false, 3);
	assert_int_equal(e->more.io, MIO_OK);
	assert_true(e->more.io_rd == 0 && e->more.io_wr == 0);
	/* io unreadable (another user's process): n/a, not 0. */
	char path[200];
	snprintf(path, sizeof(path), "%s/io", dir);
	assert_int_equal(unlink(path), 0);
	e = procinfo_get(pi, root, 50, "io", true, false, 4);
	assert_int_equal(e->more.io, MIO_NA);
	e = procinfo_get(pi, root, 50, "io", false, false, 5);
	assert_int_equal(e->more.io, MIO_NA);
	procinfo_free(pi);
	const char *files[] = {"stat", "statm"};
	for (unsigned i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/stat", task);
	unlink(path);
	rmdir(task);
	snprintf(path, sizeof(path), "%s/task", dir);
	rmdir(path);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/proc", root);
	rmdir(dir);
	rmdir(root);
}

/* The header's running count: loadavg's fourth field; a line without it has the load
 * only. */
static void test_sys_running(void **state)
{
	(void)state;
	char root[4096];
	snprintf(root, sizeof(root), "%s", fixture("fixtures/proc-basic"));
	struct procfs_sys s;
	procfs_sys_read(root, &s);
	assert_true(s.have_load && s.have_running);
	assert_int_equal(s.nr_running, 3);
	assert_true(s.load[0] == 0.5);
	char tmp[] = "/tmp/pmutop-loadavg-XXXXXX", dir[64];
	assert_non_null(mkdtemp(tmp));
	snprintf(dir, sizeof(dir), "%s/proc", tmp);
	assert_int_equal(mkdir(dir, 0700), 0);
	put_file(dir, "loadavg", "0.50 0.25 0.10\n");
	procfs_sys_read(tmp, &s);
	assert_true(s.have_load);
	assert_false(s.have_running);
	char path[128];
	snprintf(path, sizeof(path), "%s/loadavg", dir);
	unlink(path);
	rmdir(dir);
	rmdir(tmp);
}

/* a's reads and writes: this process's CPUs, each marked; nothing chosen and a pid no
 * task has are refused, never a guess. */
static void test_affinity(void **state)
{
	(void)state;
	int cpus[64];
	bool on[64];
	int n = procaff_get("", getpid(), cpus, on, 64);
	assert_true(n >= 1);
	int marked = 0;
	for (int i = 0; i < n; i++)
		marked += on[i];
	assert_true(marked >= 1);
	unsigned done = 9, failed = 9;
	assert_int_equal(procaff_set("", getpid(), cpus, 0, &done, &failed), -EINVAL);
	assert_int_equal(done + failed, 0);
	assert_int_equal(procaff_set("", NO_PID, cpus, 1, &done, &failed), -ESRCH);
	assert_int_equal(procaff_get("", NO_PID, cpus, on, 64), -ESRCH);
	/* A child on its first CPU alone, threads and all (it has one). */
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		pause();
		_exit(0);
	}
	assert_int_equal(procaff_set("", c, cpus, 1, &done, &failed), 0);
	assert_int_equal(done, 1);
	assert_int_equal(failed, 0);
	bool on2[64];
	int cpus2[64];
	assert_int_equal(procaff_get("", c, cpus2, on2, 64), n);
	for (int i = 0; i < n; i++)
		assert_int_equal(on2[i], cpus2[i] == cpus[0]);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
}

static int collect(void *ctx, pid_t id)
{
	pid_t *ids = ctx;
	for (int i = 0; i < 15; i++)
		if (ids[i] == 0) {
			ids[i] = id;
			break;
		}
	return 0;
}

static int stop_at_first(void *ctx, pid_t id)
{
	(void)id;
	++*(int *)ctx;
	return 7;
}

static bool has(const pid_t *ids, pid_t id)
{
	for (int i = 0; i < 16 && ids[i]; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static void test_each_fixture(void **state)
{
	(void)state;
	pid_t ids[16] = {0};
	char root[4096];
	snprintf(root, sizeof(root), "%s", fixture("fixtures/proc-basic"));
	/* Only the numeric entries: "stat" is not a process. */
	assert_int_equal(procfs_each(root, 0, collect, ids), 0);
	assert_true(has(ids, 42));
	assert_true(has(ids, 7));
	assert_int_equal(ids[2], 0);
	memset(ids, 0, sizeof(ids));
	assert_int_equal(procfs_each(root, 42, collect, ids), 0);
	assert_true(has(ids, 42));
	assert_true(has(ids, 44));
	assert_int_equal(ids[2], 0);
	int calls = 0;
	assert_int_equal(procfs_each(root, 0, stop_at_first, &calls), 7);
	assert_int_equal(calls, 1);
	assert_int_equal(procfs_each(root, 99, collect, ids), -ENOENT);
}

static void test_task_info_self(void **state)
{
	(void)state;
	struct procfs_task t;
	pid_t me = getpid();
	/* A name of our own choosing (under valgrind the program is memcheck's). */
	assert_int_equal(prctl(PR_SET_NAME, "procfs (self)", 0, 0, 0), 0);
	assert_int_equal(procfs_task_info("", me, me, &t), 0);
	assert_string_equal(t.comm, "procfs (self)");
	assert_int_equal(t.uid, geteuid());
	assert_int_equal(t.ppid, getppid());
	assert_false(t.kthread);
	assert_true(t.cpu >= 0 && t.cpu < (int)sysconf(_SC_NPROCESSORS_CONF));
	assert_int_equal(procfs_tgid("", me), me);
}

static void test_task_info_kthread(void **state)
{
	(void)state;
	struct procfs_task t;
	/* pid 2 is kthreadd on Linux (unless in a pid namespace). */
	if (procfs_task_info("", 2, 2, &t) != 0 || strcmp(t.comm, "kthreadd") != 0)
		skip();
	assert_true(t.kthread);
	assert_int_equal(t.ppid, 0);
}

static void *idle_thread(void *arg)
{
	pid_t *tid = arg;
	*tid = (pid_t)syscall(SYS_gettid);
	char c;
	ssize_t r = read(tid[1], &c, 1); /* tid[1] holds the read end of a pipe */
	(void)r;
	return NULL;
}

static void test_threads_live(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t arg[2] = {0, p[0]};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, idle_thread, arg), 0);
	while (__atomic_load_n(&arg[0], __ATOMIC_SEQ_CST) == 0)
		usleep(1000);
	pid_t tid = arg[0];
	assert_int_not_equal(tid, getpid());
	/* The thread's process. */
	assert_int_equal(procfs_tgid("", tid), getpid());
	struct procfs_task t;
	assert_int_equal(procfs_task_info("", getpid(), tid, &t), 0);
	assert_int_equal(t.tid, tid);
	assert_int_equal(t.ppid, getppid());
	/* Both threads are listed. */
	pid_t ids[16] = {0};
	assert_int_equal(procfs_each("", getpid(), collect, ids), 0);
	assert_true(has(ids, getpid()));
	assert_true(has(ids, tid));
	assert_int_equal(write(p[1], "x", 1), 1);
	pthread_join(th, NULL);
	close(p[0]);
	close(p[1]);
	/* Gone: ESRCH, not a stale answer. pthread_join returns when the kernel clears
	 * the tid, a moment before the task is released from /proc: wait for that. */
	int err = 0;
	for (int i = 0; i < 1000 && (err = procfs_task_info("", getpid(), tid, &t)) == 0; i++)
		usleep(1000);
	assert_int_equal(err, -ESRCH);
}

static void test_gone(void **state)
{
	(void)state;
	struct procfs_task t;
	assert_int_equal(procfs_task_info("", NO_PID, NO_PID, &t), -ESRCH);
	assert_int_equal(procfs_tgid("", NO_PID), -ESRCH);
	/* A child that has exited and been reaped. */
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0)
		_exit(0);
	assert_int_equal(waitpid(c, NULL, 0), c);
	assert_int_equal(procfs_task_info("", c, c, &t), -ESRCH);
}

static void test_user_name(void **state)
{
	(void)state;
	assert_string_equal(procfs_user_name(0), "root");
	/* Cached: the same pointer the second time. */
	assert_ptr_equal(procfs_user_name(0), procfs_user_name(0));
	uid_t nobody = 54321;
	if (getpwuid(nobody))
		skip();
	assert_string_equal(procfs_user_name(nobody), "54321");
	assert_string_equal(procfs_user_name(0), "root");
}

/* More users than the cache's first 64 entries: a name once returned never changes
 * (rows keep the pointer for a tick), and each uid keeps its own. */
static void test_user_name_many(void **state)
{
	(void)state;
	enum { N = 200 };
	const char *got[N];
	for (unsigned i = 0; i < N; i++)
		if (getpwuid(60000 + i))
			skip();
	for (unsigned i = 0; i < N; i++)
		got[i] = procfs_user_name(60000 + i);
	for (unsigned i = 0; i < N; i++) {
		char want[16];
		snprintf(want, sizeof(want), "%u", 60000 + i);
		assert_string_equal(got[i], want);
		assert_ptr_equal(procfs_user_name(60000 + i), got[i]);
	}
	assert_string_equal(procfs_user_name(0), "root");
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_good),
		cmocka_unit_test(test_cpulist_bad),
		cmocka_unit_test(test_online_cpus_fixture),
		cmocka_unit_test(test_cpu_times_fixture),
		cmocka_unit_test(test_cpu_times_split),
		cmocka_unit_test(test_cpu_times_live),
		cmocka_unit_test(test_task_info_fixture),
		cmocka_unit_test(test_more_fixture),
		cmocka_unit_test(test_procinfo_io),
		cmocka_unit_test(test_task_acct_fixture),
		cmocka_unit_test(test_task_acct_reused_tid),
		cmocka_unit_test(test_task_acct_live),
		cmocka_unit_test(test_procinfo_seed),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_sys_running),
		cmocka_unit_test(test_each_fixture),
		cmocka_unit_test(test_task_info_self),
		cmocka_unit_test(test_task_info_kthread),
		cmocka_unit_test(test_threads_live),
		cmocka_unit_test(test_gone),
		cmocka_unit_test(test_user_name),
		cmocka_unit_test(test_user_name_many),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
