/* The counter engine on real software events: exact page-fault counts for a watched
 * process and for each of its threads, a thread and a process that exit, and processes
 * started after the engine, found through the kernel's fork and exec records (SCOPE_ALL,
 * root), their names included.
 *
 * How the counts are made exact: a worker (this program exec'd in worker mode, or a
 * thread in it) obeys commands read from a pipe: "touch N fresh pages, then answer".
 * Before it says it is ready it runs that loop once (touching a few pages), so every page
 * its code, stack and libc data need is already present (no lazy binding left, no stack
 * page touched for the first time). A counted round then faults exactly once per touched
 * page: the pages are fresh anonymous ones with transparent huge pages turned off for
 * them (MADV_NOHUGEPAGE), written one byte each. The engine ticks while the worker is
 * blocked in read(), so each round falls in exactly one interval. A round of 0 pages
 * measures what a round costs besides the pages (zero here), and the test checks the
 * difference, so a libc that faulted once more per round would not make it flaky.
 * Rounds of different threads run one after the other, never at once. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "evgroup.h"
#include "evset.h"
#include "procfs.h"

#define CMD_EXIT 0xffffffffu
#define CMD_SPAWN 0xfffffffeu /* start a thread that sleeps until the process ends */

enum { EV_TC, EV_PF, EV_CS };

static struct evset set;

static int setup_set(void **state)
{
	(void)state;
	/* A known name for the rows of this process and its forks (under valgrind the
	 * program's own name would be memcheck's). */
	prctl(PR_SET_NAME, "it-engine", 0, 0, 0);
	struct evspec_err err;
	memset(&err, 0, sizeof(err));
	return evset_parse(&set, "{task-clock,page-faults,context-switches}", NULL, &err);
}

static int teardown_set(void **state)
{
	(void)state;
	evset_free(&set);
	return 0;
}

/* Worker side. */

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Answer with the worker's tid: once when ready, then after each command. */
static void serve(int cmd, int done)
{
	int32_t tid = (int32_t)syscall(SYS_gettid);
	testutil_touch_pages(3);
	if (write(done, &tid, sizeof(tid)) != sizeof(tid))
		_exit(2);
	uint32_t c;
	while (read(cmd, &c, sizeof(c)) == sizeof(c) && c != CMD_EXIT) {
		pthread_t th;
		if (c == CMD_SPAWN && pthread_create(&th, NULL, sleeper, NULL) != 0)
			_exit(3);
		if (c != CMD_SPAWN)
			testutil_touch_pages(c);
		if (write(done, &tid, sizeof(tid)) != sizeof(tid))
			_exit(2);
	}
}

/* Parent side. */

#define MAXW 4

struct target {
	pid_t pid;
	int nworkers;
	pid_t tid[MAXW];
	int cmd[MAXW]; /* write ends */
	int done;      /* read end */
	int hold;      /* write end of the main thread's pipe (multi-threaded child) */
};

struct thread_arg {
	int cmd, done;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	serve(a->cmd, a->done);
	return NULL;
}

/* Worker mode: this program exec'd with --worker NTHREADS HOLD DONE CMD0 [CMD1 ...]. A
 * fresh exec'd process rather than a fork of the test: nothing shared copy-on-write with
 * the test, and not instrumented when the tests run under valgrind (which does not
 * follow exec). */
static int worker_main(int argc, char **argv)
{
	int nthreads = atoi(argv[2]), hold = atoi(argv[3]), done = atoi(argv[4]);
	if (argc != 5 + (nthreads ? nthreads : 1))
		return 2;
	if (nthreads == 0) {
		serve(atoi(argv[5]), done);
		_exit(0);
	}
	static struct thread_arg args[MAXW];
	for (int i = 0; i < nthreads; i++) {
		pthread_t th;
		args[i] = (struct thread_arg){atoi(argv[5 + i]), done};
		if (pthread_create(&th, NULL, thread_main, &args[i]) != 0)
			return 4;
		pthread_detach(th);
	}
	char c;
	while (read(hold, &c, 1) > 0)
		;
	_exit(0); /* the workers may still be in read() */
}

static char self[PATH_MAX];

/* A process with nthreads workers: 0 = the main thread is the worker. */
static void target_start(struct target *t, int nthreads)
{
	memset(t, 0, sizeof(*t));
	t->nworkers = nthreads ? nthreads : 1;
	t->hold = -1;
	int cmd[MAXW][2], done[2], hold[2];
	for (int i = 0; i < t->nworkers; i++)
		assert_int_equal(pipe(cmd[i]), 0);
	assert_int_equal(pipe(done), 0);
	assert_int_equal(pipe(hold), 0);
	t->pid = fork();
	assert_true(t->pid >= 0);
	if (t->pid == 0) {
		char arg[4 + MAXW][16];
		char *argv[6 + MAXW] = {self, (char *)"--worker"};
		int n = 2;
		close(done[0]);
		close(hold[1]);
		snprintf(arg[0], sizeof(arg[0]), "%d", nthreads);
		snprintf(arg[1], sizeof(arg[1]), "%d", hold[0]);
		snprintf(arg[2], sizeof(arg[2]), "%d", done[1]);
		for (int i = 0; i < 3; i++)
			argv[n++] = arg[i];
		for (int i = 0; i < t->nworkers; i++) {
			close(cmd[i][1]); /* or closing the parent's end would never give EOF */
			snprintf(arg[3 + i], sizeof(arg[0]), "%d", cmd[i][0]);
			argv[n++] = arg[3 + i];
		}
		argv[n] = NULL;
		execv(self, argv);
		_exit(127);
	}
	for (int i = 0; i < t->nworkers; i++) {
		close(cmd[i][0]);
		t->cmd[i] = cmd[i][1];
	}
	close(done[1]);
	close(hold[0]);
	t->done = done[0];
	t->hold = hold[1];
	/* The ready answers, in whatever order the workers got there. */
	for (int i = 0; i < t->nworkers; i++) {
		int32_t tid;
		assert_int_equal(read(t->done, &tid, sizeof(tid)), sizeof(tid));
		t->tid[i] = tid;
	}
	/* Each worker's pipe is known by index; learn which tid reads which pipe. */
	pid_t by_pipe[MAXW];
	for (int i = 0; i < t->nworkers; i++) {
		uint32_t zero = 0;
		int32_t tid;
		assert_int_equal(write(t->cmd[i], &zero, sizeof(zero)), sizeof(zero));
		assert_int_equal(read(t->done, &tid, sizeof(tid)), sizeof(tid));
		by_pipe[i] = tid;
	}
	memcpy(t->tid, by_pipe, sizeof(by_pipe));
}

/* Every thread of t's process but its workers (the sleepers CMD_SPAWN starts) is asleep
 * in a system call (60 s at most), off its CPU: a group opened on it from now on sees
 * what the process's own counters see. */
static void target_sleepers_asleep(struct target *t)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)t->pid);
	DIR *d = opendir(path);
	assert_non_null(d);
	for (struct dirent *de; (de = readdir(d));) {
		pid_t tid = (pid_t)atoi(de->d_name);
		bool worker = tid <= 0;
		for (int i = 0; i < t->nworkers; i++)
			worker = worker || tid == t->tid[i];
		assert_true(worker || testutil_wait_blocked_in(t->pid, tid, -1, 60));
	}
	closedir(d);
}

/* Worker i touches n pages and answers; returns once it is asleep again (60 s at most),
 * so that the interval after it is idle whatever the machine's load. */
static void target_touch(struct target *t, int i, uint32_t n)
{
	int32_t tid;
	assert_int_equal(write(t->cmd[i], &n, sizeof(n)), sizeof(n));
	assert_int_equal(read(t->done, &tid, sizeof(tid)), sizeof(tid));
	assert_int_equal(tid, t->tid[i]);
	assert_true(testutil_wait_blocked_in(t->pid, t->tid[i], SYS_read, 60));
}

static bool task_listed(pid_t pid, pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
	return access(path, F_OK) == 0;
}

/* Wait (60 s at most) until /proc/PID/comm reads want, as after an exec; comm holds what
 * it read last. */
static void wait_comm(pid_t pid, const char *want, char *comm, size_t cap)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	comm[0] = '\0';
	for (double end = testutil_now() + 60; testutil_now() < end; usleep(1000)) {
		FILE *f = fopen(path, "r");
		if (f) {
			if (!fgets(comm, (int)cap, f))
				comm[0] = '\0';
			fclose(f);
		}
		if (strcmp(comm, want) == 0)
			return;
	}
}

/* Worker i's thread ends; wait until the kernel has released it. */
static void target_end_worker(struct target *t, int i)
{
	uint32_t c = CMD_EXIT;
	assert_int_equal(write(t->cmd[i], &c, sizeof(c)), sizeof(c));
	for (double end = testutil_now() + 60;
	     task_listed(t->pid, t->tid[i]) && testutil_now() < end;)
		usleep(1000);
	assert_false(task_listed(t->pid, t->tid[i]));
}

static void target_stop(struct target *t)
{
	for (int i = 0; i < t->nworkers; i++)
		close(t->cmd[i]);
	if (t->hold >= 0)
		close(t->hold);
	int st;
	assert_int_equal(waitpid(t->pid, &st, 0), t->pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(t->done);
}

/* Model lookups. */

static const struct mrow *find(const struct model *m, enum row_kind kind, pid_t pid, pid_t tid)
{
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct mrow *r = &m->rows[i];
		if (r->kind == kind && r->pid == pid && (kind == ROW_PROC || r->tid == tid))
			return r;
	}
	return NULL;
}

static double count(const struct mrow *r, int ev)
{
	assert_non_null(r);
	if (r->v[ev].state != VAL_EXACT)
		fail_msg("event %d of %d/%d is in state %d, not exact", ev, (int)r->pid,
			 (int)r->tid, r->v[ev].state);
	return r->v[ev].v;
}

/* Process row p has nthreads thread rows, and is their sum, event by event. */
static void assert_threads_sum(const struct model *m, const struct mrow *p, unsigned nthreads)
{
	for (int ev = EV_TC; ev <= EV_CS; ev++) {
		double s = 0;
		unsigned rows = 0;
		for (unsigned i = 0; i < m->nrows; i++)
			if (m->rows[i].kind == ROW_THREAD && m->rows[i].pid == p->pid) {
				s += count(&m->rows[i], ev);
				rows++;
			}
		assert_int_equal(rows, nthreads);
		assert_true(count(p, ev) == s);
	}
}

static struct engine *watch(pid_t pid, bool threads)
{
	struct srcopts o = {.root = "",
			    .scope = SCOPE_PIDS,
			    .pids = &pid,
			    .npids = 1,
			    .threads = threads,
			    .interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	assert_non_null(e);
	return e;
}

/* Pin this process to the online CPU of index which (negative: from the end), keeping
 * the old mask in old. */
static int pin_to(int which, cpu_set_t *old)
{
	int cpus[1024];
	int n = procfs_online_cpus("", cpus, 1024);
	assert_true(n >= 1);
	int cpu = cpus[which >= 0 ? which % n : n + which % n];
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_getaffinity(0, sizeof(*old), old), 0);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	return n;
}

static void test_pids_exact_faults(void **state)
{
	(void)state;
	enum { N = 2000 };
	struct target t;
	target_start(&t, 0);
	struct engine *e = watch(t.pid, true);
	const struct model *m = engine_model(e);
	double sum = 0;

	assert_int_equal(engine_tick(e), 0);
	assert_int_equal(m->tick, 1);
	assert_non_null(find(m, ROW_PROC, t.pid, 0));
	sum += count(find(m, ROW_PROC, t.pid, 0), EV_PF);

	target_touch(&t, 0, 0);
	assert_int_equal(engine_tick(e), 0);
	double base = count(find(m, ROW_PROC, t.pid, 0), EV_PF);
	sum += base;
	assert_true(base <= 2); /* 0 here: the round itself is warmed up */
	double cs = count(find(m, ROW_PROC, t.pid, 0), EV_CS);
	assert_true(cs >= 1); /* it blocked in read() */

	target_touch(&t, 0, N);
	assert_int_equal(engine_tick(e), 0);
	assert_int_equal(m->tick, 3);
	const struct mrow *p = find(m, ROW_PROC, t.pid, 0);
	double pf = count(p, EV_PF);
	sum += pf;
	assert_true(pf - base == N);
	assert_true(count(p, EV_TC) > 0);
	assert_false(p->exited);
	assert_int_equal(p->nthreads, 1);
	/* A single thread has no row of its own: the process row is its (its roots count
	 * it, with no second set of counters on it, as perf stat -p counts it). */
	assert_null(find(m, ROW_THREAD, t.pid, t.pid));
	assert_true(m->elapsed > 0);

	/* An idle interval: exact zeros, not n/c (under valgrind the target wakes now and
	 * then by itself, as below: exact, small). */
	assert_int_equal(engine_tick(e), 0);
	p = find(m, ROW_PROC, t.pid, 0);
	assert_true(count(p, EV_PF) == 0 || testutil_under_valgrind());
	assert_true(count(p, EV_TC) == 0 || testutil_under_valgrind());
	sum += count(p, EV_PF);

	/* Idle again, and exact zeros again. Then it runs: exact again. */
	assert_int_equal(engine_tick(e), 0);
	p = find(m, ROW_PROC, t.pid, 0);
	/* Under valgrind the target (valgrind's too) wakes now and then by itself: its
	 * values are then small, but still exact, never n/c. */
	if (testutil_under_valgrind())
		assert_true(p->v[EV_PF].state == VAL_EXACT && p->v[EV_CS].state == VAL_EXACT &&
			    p->v[EV_TC].state == VAL_EXACT);
	else
		assert_true(count(p, EV_PF) == 0 && count(p, EV_CS) == 0 && count(p, EV_TC) == 0);
	sum += count(p, EV_PF);
	target_touch(&t, 0, N);
	assert_int_equal(engine_tick(e), 0);
	p = find(m, ROW_PROC, t.pid, 0);
	assert_true(count(p, EV_PF) - base == N);
	assert_true(count(p, EV_CS) >= 1);
	assert_true(count(p, EV_TC) > 0);
	sum += count(p, EV_PF);

	/* A second thread: from the tick that finds it, each thread has groups and a row of
	 * its own, and the process row (still its roots') is their sum. */
	target_touch(&t, 0, CMD_SPAWN);
	target_sleepers_asleep(&t);
	assert_int_equal(engine_tick(e), 0);
	sum += count(find(m, ROW_PROC, t.pid, 0), EV_PF);
	assert_int_equal(find(m, ROW_PROC, t.pid, 0)->nthreads, 2);
	target_touch(&t, 0, N);
	assert_int_equal(engine_tick(e), 0);
	p = find(m, ROW_PROC, t.pid, 0);
	const struct mrow *th = find(m, ROW_THREAD, t.pid, t.pid);
	assert_true(count(th, EV_PF) - base == N);
	assert_threads_sum(m, p, 2);
	sum += count(p, EV_PF);

	/* Totals over the run are the sum of the intervals. */
	assert_true(engine_watched_alive(e));
	target_stop(&t);
	engine_tick(e);
	sum += count(find(m, ROW_PROC, t.pid, 0), EV_PF);
	assert_false(engine_watched_alive(e));
	engine_totals(e);
	assert_true(m->final);
	p = find(m, ROW_PROC, t.pid, 0);
	assert_true(count(p, EV_PF) == sum);
	assert_true(sum >= N);
	engine_free(e);
}

static void test_threads_exact_faults(void **state)
{
	(void)state;
	const uint32_t want[3] = {300, 600, 900};
	struct target t;
	target_start(&t, 3);
	struct engine *e = watch(t.pid, true);
	const struct model *m = engine_model(e);
	engine_tick(e);
	/* Rounds one thread after another: no two threads fault at once. */
	for (int i = 0; i < 3; i++)
		target_touch(&t, i, 0);
	engine_tick(e);
	double base[3];
	for (int i = 0; i < 3; i++)
		base[i] = count(find(m, ROW_THREAD, t.pid, t.tid[i]), EV_PF);
	for (int i = 0; i < 3; i++)
		target_touch(&t, i, want[i]);
	engine_tick(e);

	const struct mrow *p = find(m, ROW_PROC, t.pid, 0);
	assert_int_equal(p->nthreads, 4); /* the main thread and three workers */
	for (int i = 0; i < 3; i++) {
		double got = count(find(m, ROW_THREAD, t.pid, t.tid[i]), EV_PF) - base[i];
		if (got != want[i])
			fail_msg("thread %d: %.0f faults, want %u", (int)t.tid[i], got, want[i]);
	}
	/* The main thread sat in read(): nothing. */
	assert_true(count(find(m, ROW_THREAD, t.pid, t.pid), EV_PF) == 0);
	/* The process row is the sum of its thread rows, event by event. */
	assert_threads_sum(m, p, 4);
	/* Thread rows follow their process row. */
	unsigned at = (unsigned)(p - m->rows);
	for (unsigned k = 1; k <= 4; k++) {
		assert_int_equal(m->rows[at + k].kind, ROW_THREAD);
		assert_int_equal(m->rows[at + k].pid, t.pid);
	}
	target_stop(&t);
	engine_free(e);
}

static void test_exits(void **state)
{
	(void)state;
	struct target t;
	target_start(&t, 2);
	struct engine *e = watch(t.pid, true);
	const struct model *m = engine_model(e);
	engine_tick(e);
	/* Worker 1 touches 100 pages and ends within the same interval: its row is there
	 * once more, marked exited, with those final values. */
	target_touch(&t, 1, 100);
	target_end_worker(&t, 1);
	engine_tick(e);
	const struct mrow *gone = find(m, ROW_THREAD, t.pid, t.tid[1]);
	assert_non_null(gone);
	assert_true(gone->exited);
	assert_true(count(gone, EV_PF) >= 100);
	const struct mrow *p = find(m, ROW_PROC, t.pid, 0);
	assert_false(p->exited);
	assert_false(find(m, ROW_THREAD, t.pid, t.tid[0])->exited);
	assert_true(count(p, EV_PF) >= 100); /* the last interval counts in its process */
	/* Next tick: gone, and the process has one thread fewer. */
	engine_tick(e);
	assert_null(find(m, ROW_THREAD, t.pid, t.tid[1]));
	p = find(m, ROW_PROC, t.pid, 0);
	assert_int_equal(p->nthreads, 2);
	assert_false(p->exited);
	/* The whole process ends: exited on the tick it ends. */
	target_stop(&t);
	engine_tick(e);
	p = find(m, ROW_PROC, t.pid, 0);
	assert_non_null(p);
	assert_true(p->exited);
	assert_true(find(m, ROW_THREAD, t.pid, t.pid)->exited);
	assert_false(engine_watched_alive(e));
	/* Its threads leave; a watched process keeps its row for the totals. */
	engine_tick(e);
	assert_null(find(m, ROW_THREAD, t.pid, t.pid));
	assert_null(find(m, ROW_THREAD, t.pid, t.tid[0]));
	engine_free(e);
}

static void test_per_cpu_rows(void **state)
{
	(void)state;
	/* One row per online CPU, counting everything that ran there: the worker's 1000
	 * pages are in their sum. */
	enum { N = 1000 };
	int cpus[1024];
	int ncpus = procfs_online_cpus("", cpus, 1024);
	struct target t;
	target_start(&t, 0);
	pid_t pid = t.pid;
	struct srcopts o = {.root = "",
			    .scope = SCOPE_PIDS,
			    .pids = &pid,
			    .npids = 1,
			    .per_cpu = true,
			    .interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	const struct model *m = engine_model(e);
	engine_tick(e);
	assert_int_equal(m->ncpu_rows, ncpus);
	target_touch(&t, 0, N);
	engine_tick(e);
	assert_int_equal(m->ncpu_rows, ncpus);
	double faults = 0, clock = 0;
	for (unsigned i = 0; i < m->ncpu_rows; i++) {
		const struct mrow *r = &m->cpu_rows[i];
		assert_int_equal(r->kind, ROW_CPU);
		assert_int_equal(r->cpu, cpus[i]);
		faults += count(r, EV_PF);
		clock += count(r, EV_TC);
		/* Busy share from /proc/stat: a percentage, or -2 when no jiffy went by. */
		assert_true(r->cpu_pct == -2 || (r->cpu_pct >= 0 && r->cpu_pct <= 100));
	}
	assert_true(faults >= N);
	assert_true(clock > 0);
	engine_free(e);
	/* Batch mode without --per-cpu shows no CPU row: none is made. */
	o.per_cpu = false;
	o.no_cpu_rows = true;
	e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	engine_tick(e);
	assert_int_equal(engine_model(e)->ncpu_rows, 0);
	assert_non_null(find(engine_model(e), ROW_PROC, pid, 0));
	target_stop(&t);
	engine_free(e);
}

static void test_pids_missing(void **state)
{
	(void)state;
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0)
		_exit(0);
	assert_int_equal(waitpid(c, NULL, 0), c);
	pid_t failed = 0;
	struct srcopts o = {.root = "",
			    .scope = SCOPE_PIDS,
			    .pids = &c,
			    .npids = 1,
			    .interval = 0.1,
			    .failed_pid = &failed};
	int err = 0;
	assert_null(engine_new(&set, &o, &err));
	assert_int_equal(err, -ESRCH);
	assert_int_equal(failed, c);
}

static void test_all_finds_new_process(void **state)
{
	(void)state;
	enum { N = 500 };
	/* One CPU for this test and its child: the fork and the exec records land in one
	 * ring, in order (across rings see test_all_exec_on_other_cpu). */
	cpu_set_t old;
	pin_to(0, &old);
	struct srcopts o = {.root = "", .scope = SCOPE_ALL, .threads = false, .interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	const struct model *m = engine_model(e);
	engine_tick(e);
	assert_non_null(find(m, ROW_PROC, getpid(), 0));
	assert_true(m->nrows > 1);

	/* Forked after engine_new: no /proc scan will find it, only the fork record. */
	struct target t;
	target_start(&t, 0);
	engine_tick(e);
	const struct mrow *r = find(m, ROW_PROC, t.pid, 0);
	assert_non_null(r);
	assert_false(r->exited);
	/* Its name after the exec, from the kernel's comm record. */
	assert_string_equal(r->comm, "test_it_engine");
	assert_int_equal(r->uid, getuid());
	/* Counting started when the record was read: rounds after that are exact. */
	target_touch(&t, 0, 0);
	engine_tick(e);
	double base = count(find(m, ROW_PROC, t.pid, 0), EV_PF);
	target_touch(&t, 0, N);
	engine_tick(e);
	assert_true(count(find(m, ROW_PROC, t.pid, 0), EV_PF) - base == N);

	/* It ends: exited on that tick, gone on the next. */
	target_stop(&t);
	engine_tick(e);
	r = find(m, ROW_PROC, t.pid, 0);
	assert_non_null(r);
	assert_true(r->exited);
	engine_tick(e);
	assert_null(find(m, ROW_PROC, t.pid, 0));
	engine_free(e);
	sched_setaffinity(0, sizeof(old), &old);
}

static void test_all_follows_exec(void **state)
{
	(void)state;
	struct srcopts o = {.root = "", .scope = SCOPE_ALL, .interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	const struct model *m = engine_model(e);
	int go[2];
	assert_int_equal(pipe(go), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(go[1]);
		char x;
		if (read(go[0], &x, 1) != 1)
			_exit(2);
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	engine_tick(e);
	assert_string_equal(find(m, ROW_PROC, c, 0)->comm, "it-engine");
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	/* Wait for the exec to be done. */
	char comm[64];
	wait_comm(c, "sleep\n", comm, sizeof(comm));
	assert_string_equal(comm, "sleep\n");
	engine_tick(e);
	const struct mrow *r = find(m, ROW_PROC, c, 0);
	assert_non_null(r);
	assert_string_equal(r->comm, "sleep");
	/* The exec's own page faults were counted (the counters follow it). */
	assert_true(count(r, EV_PF) > 0);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	engine_free(e);
}

static void test_all_exec_on_other_cpu(void **state)
{
	(void)state;
	/* A shell forks and the child execs at once, on another CPU: the fork record is in
	 * the parent's CPU ring, the exec's comm record in the child's. Here the child's
	 * CPU is drained first, so the engine reads the name change before it knows the
	 * task. The row must still carry the new name, not the parent's. */
	cpu_set_t old;
	int ncpus = pin_to(-1, &old);
	if (ncpus < 2) {
		sched_setaffinity(0, sizeof(old), &old);
		skip();
	}
	int cpus[1024];
	procfs_online_cpus("", cpus, 1024);
	struct srcopts o = {.root = "", .scope = SCOPE_ALL, .interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	const struct model *m = engine_model(e);
	engine_tick(e);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		cpu_set_t first;
		CPU_ZERO(&first);
		CPU_SET(cpus[0], &first);
		sched_setaffinity(0, sizeof(first), &first);
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	/* Both records are written once the exec is done. */
	char comm[64];
	wait_comm(c, "sleep\n", comm, sizeof(comm));
	engine_tick(e);
	const struct mrow *r = find(m, ROW_PROC, c, 0);
	char got[64];
	snprintf(got, sizeof(got), "%s", r ? r->comm : "(no row)");
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	engine_free(e);
	sched_setaffinity(0, sizeof(old), &old);
	assert_string_equal(comm, "sleep\n");
	assert_string_equal(got, "sleep");
}

/* Start-up opens the tasks it finds CPU by CPU, from the CPU each last ran on
 * (pending_open in discover.c). Whatever CPU a task sleeps on, and whether or not this
 * process may run there, every task is counted and our own CPU mask is what it was. */
static void start_on_each_cpu(bool restricted)
{
	enum { PER_CPU = 24 }; /* above PENDING_PIN_MIN */
	int cpus[1024];
	int n = procfs_online_cpus("", cpus, 1024);
	assert_true(n >= 1);
	if (n > 4)
		n = 4;
	pid_t kids[4 * PER_CPU];
	int nk = 0;
	for (int c = 0; c < n; c++)
		for (int k = 0; k < PER_CPU; k++) {
			pid_t pid = fork();
			assert_true(pid >= 0);
			if (pid == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				cpu_set_t one;
				CPU_ZERO(&one);
				CPU_SET(cpus[c], &one);
				sched_setaffinity(0, sizeof(one), &one);
				for (;;)
					pause();
			}
			kids[nk++] = pid;
		}
	/* Each asleep on its CPU: /proc says where it last ran. */
	for (int i = 0; i < nk; i++) {
		struct procfs_task info = {.cpu = -1};
		for (int k = 0; k < 2000 && info.cpu != cpus[i / PER_CPU]; k++)
			if (procfs_task_info("", kids[i], kids[i], &info) != 0 ||
			    info.cpu != cpus[i / PER_CPU])
				usleep(1000);
		assert_int_equal(info.cpu, cpus[i / PER_CPU]);
	}
	usleep(50000);
	cpu_set_t before, after;
	if (restricted) {
		pin_to(0, &before);
	} else {
		/* Every CPU, whatever an earlier test left. */
		assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
		cpu_set_t all;
		CPU_ZERO(&all);
		for (int c = 0; c < n; c++)
			CPU_SET(cpus[c], &all);
		assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	}
	cpu_set_t expect;
	assert_int_equal(sched_getaffinity(0, sizeof(expect), &expect), 0);
	struct srcopts o = {.root = "", .scope = SCOPE_ALL, .interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	int counted = 0, missing = 0;
	if (e) {
		engine_tick(e);
		const struct model *m = engine_model(e);
		for (int i = 0; i < nk; i++) {
			const struct mrow *r = find(m, ROW_PROC, kids[i], 0);
			if (r && r->v[EV_TC].state == VAL_EXACT && r->v[EV_CS].state == VAL_EXACT)
				counted++;
			else
				missing++;
		}
		engine_free(e);
	}
	for (int i = 0; i < nk; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < nk; i++)
		waitpid(kids[i], NULL, 0);
	sched_setaffinity(0, sizeof(before), &before);
	assert_int_equal(err, 0);
	assert_true(CPU_EQUAL(&after, &expect));
	assert_int_equal(missing, 0);
	assert_int_equal(counted, nk);
}

static void test_all_start_on_each_cpu(void **state)
{
	(void)state;
	start_on_each_cpu(false);
}

static void test_all_start_restricted(void **state)
{
	(void)state;
	start_on_each_cpu(true);
}

/* The rows of a process none of whose threads ran: exact zeros, each thread's row after
 * its process's, as a full sum gives them (build_asleep); a thread that runs brings the
 * full sum back for that tick and the next, and its counts are exact. */
static void check_zero_rows(const struct model *m, const struct target *t)
{
	const struct mrow *p = find(m, ROW_PROC, t->pid, 0);
	assert_non_null(p);
	assert_int_equal(p->nthreads, 4);
	assert_false(p->exited);
	assert_string_equal(p->comm, "test_it_engine");
	unsigned at = (unsigned)(p - m->rows);
	for (int ev = EV_TC; ev <= EV_CS; ev++)
		assert_true(count(p, ev) == 0 && p->v[ev].run_pm == 1000);
	for (unsigned k = 1; k <= 4; k++) {
		const struct mrow *r = &m->rows[at + k];
		assert_int_equal(r->kind, ROW_THREAD);
		assert_int_equal(r->pid, t->pid);
		assert_int_equal(r->nthreads, 1);
		assert_false(r->exited);
		for (int ev = EV_TC; ev <= EV_CS; ev++)
			assert_true(count(r, ev) == 0);
	}
}

/* Tick until t's rows are built asleep: its threads idle through a full read, then
 * probed. A thread that just answered a command may still be on its way back into
 * read() at the next tick, so the number of ticks is bounded, not fixed. */
static void tick_till_asleep(struct engine *e, const struct target *t)
{
	for (int k = 0; k < 6 && !engine_built_asleep(e, t->pid); k++)
		engine_tick(e);
	assert_true(engine_built_asleep(e, t->pid));
	check_zero_rows(engine_model(e), t);
}

/* map: sleeping tasks probed through their mapped page (no syscall), else by a read. */
static void asleep_rows(bool map)
{
	enum { N = 400 };
	struct target t;
	target_start(&t, 3);
	struct srcopts o = {.root = "",
			    .scope = SCOPE_ALL,
			    .threads = true,
			    .interval = 0.1,
			    .map_probes = map};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	const struct model *m = engine_model(e);
	if (engine_probe_group(e) < 0 || (map && !evgroup_seq_works()))
		skip();
	/* Pages are mapped as tasks are found idle, not at start-up. */
	assert_int_equal(engine_mapped_probes(e, 0), 0);
	/* The first read after opening sets the baseline, the next finds the threads idle,
	 * the one after that only probes them; and so on while they sleep. */
	assert_false(engine_built_asleep(e, t.pid));
	engine_tick(e);
	assert_false(engine_built_asleep(e, t.pid));
	tick_till_asleep(e, &t);
	engine_tick(e);
	assert_true(engine_built_asleep(e, t.pid));
	check_zero_rows(m, &t);
	/* By now the target's four threads (and most of the machine's) have their page. */
	assert_int_equal(engine_mapped_probes(e, t.pid), map ? 4 : 0);
	if (!map)
		assert_int_equal(engine_mapped_probes(e, 0), 0);

	target_touch(&t, 1, N);
	engine_tick(e);
	assert_false(engine_built_asleep(e, t.pid));
	const struct mrow *p = find(m, ROW_PROC, t.pid, 0);
	double pf = count(p, EV_PF);
	assert_true(pf >= N);
	assert_true(count(find(m, ROW_THREAD, t.pid, t.tid[1]), EV_PF) == pf);
	assert_true(count(find(m, ROW_THREAD, t.pid, t.tid[0]), EV_PF) == 0);
	assert_true(count(p, EV_CS) >= 1 && count(p, EV_TC) > 0);
	/* The worker that ran is read in full until a read finds it idle; then probed. */
	tick_till_asleep(e, &t);

	/* Its end is seen: no rows from a stale sleep. */
	target_stop(&t);
	engine_tick(e);
	assert_false(engine_built_asleep(e, t.pid));
	p = find(m, ROW_PROC, t.pid, 0);
	assert_non_null(p);
	assert_true(p->exited);
	engine_free(e);
}

static void test_all_asleep_rows(void **state)
{
	(void)state;
	asleep_rows(false);
}

static void test_all_asleep_rows_mapped(void **state)
{
	(void)state;
	asleep_rows(true);
}

/* Which group is probed for tasks that did not run: a software-only one led by
 * task-clock (a group with a hardware member can be off the PMU while its task runs,
 * task-clock standing still), and none when an event may count into a sleeping task (a
 * tracepoint is delivered to the task it names). */
static int probed(const char *spec, int tracepoint_group)
{
	struct evset s;
	struct evspec_err err;
	memset(&err, 0, sizeof(err));
	assert_int_equal(evset_parse(&s, spec, NULL, &err), 0);
	if (tracepoint_group >= 0)
		s.specs.g[tracepoint_group].ev[0].attr.type = PERF_TYPE_TRACEPOINT;
	pid_t me = getpid();
	struct srcopts o = {.root = "",
			    .scope = SCOPE_PIDS,
			    .pids = &me,
			    .npids = 1,
			    .threads = true,
			    .interval = 0.1};
	int e_err = 1;
	struct engine *e = engine_new(&s, &o, &e_err);
	assert_int_equal(e_err, 0);
	int g = engine_probe_group(e);
	engine_free(e);
	evset_free(&s);
	return g;
}

static void test_probe_group_choice(void **state)
{
	(void)state;
	assert_int_equal(probed("{task-clock,page-faults,context-switches}", -1), 0);
	assert_int_equal(probed("{page-faults},{task-clock,context-switches}", -1), 1);
	assert_int_equal(probed("{page-faults,task-clock}", -1), -1);	     /* not the leader */
	assert_int_equal(probed("{task-clock,cycles},{task-clock}", -1), 1); /* mixed: skipped */
	assert_int_equal(probed("{task-clock},{page-faults}", 1), -1);
}

int main(int argc, char **argv)
{
	if (argc >= 6 && strcmp(argv[1], "--worker") == 0)
		return worker_main(argc, argv);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pids_exact_faults),
		cmocka_unit_test(test_threads_exact_faults),
		cmocka_unit_test(test_exits),
		cmocka_unit_test(test_per_cpu_rows),
		cmocka_unit_test(test_pids_missing),
		cmocka_unit_test(test_all_finds_new_process),
		cmocka_unit_test(test_all_follows_exec),
		cmocka_unit_test(test_all_exec_on_other_cpu),
		cmocka_unit_test(test_all_start_on_each_cpu),
		cmocka_unit_test(test_all_start_restricted),
		cmocka_unit_test(test_probe_group_choice),
		cmocka_unit_test(test_all_asleep_rows),
		cmocka_unit_test(test_all_asleep_rows_mapped),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, setup_set, teardown_set);
}
