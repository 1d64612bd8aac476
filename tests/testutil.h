/* Helpers shared by the cmocka programs: fixture paths and small process utilities. */
#ifndef PMUTOP_TESTUTIL_H
#define PMUTOP_TESTUTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/types.h>
#include <cmocka.h>

/* Absolute path of a file below tests/ (fixtures), in a static buffer. */
const char *testutil_path(const char *rel);

/* Run argv, capture stdout (up to cap-1 bytes, NUL-terminated) and return the exit
 * status as from waitpid, or -1. stderr is captured into err if non-NULL. */
int testutil_run(char *const argv[], char *out, size_t cap, char *err, size_t errcap);

/* True when the test program itself runs under valgrind (.ci/checks.sh's valgrind stage
 * sets PMUTOP_TEST_VALGRIND): a workload it forks is then slowed and touches valgrind's
 * own pages, so counts and timings of such workloads mean nothing there. */
bool testutil_under_valgrind(void);

/* TESTUTIL_ASAN: 1 in an AddressSanitizer build (the test program and the workloads it
 * forks are instrumented), else 0. */
#if defined(__SANITIZE_ADDRESS__)
#define TESTUTIL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TESTUTIL_ASAN 1
#endif
#endif
#ifndef TESTUTIL_ASAN
#define TESTUTIL_ASAN 0
#endif

/* Touch n fresh pages with raw system calls (mmap, one store a page, munmap) and no ASan
 * check: exactly n page faults, nothing of libc's or of a sanitizer's. _exit(3) when
 * the mapping fails (it runs in forked workers and threads). */
void testutil_touch_pages(uint32_t n);

/* A forked worker (killed when the test ends) that touches the pages it is told to
 * through *to and answers through *from with its own count of the page faults that took
 * (getrusage): the truth the outputs must carry. Writing 0 ends it. */
pid_t testutil_worker_start(int *to, int *from);

/* The port of "pmutop: listening on ADDR:PORT" in the log file, 0 until it is there. */
unsigned testutil_listening_port(const char *log);
/* The batch CSV's page-faults of pid's process row, tick by tick, into v (max at most);
 * the number of ticks. */
unsigned testutil_csv_faults(const char *text, pid_t pid, double *v, unsigned max);

/* A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0 and released),
 * or 0 when none could be had. */
unsigned testutil_free_port(void);

/* METRIC{...pid="PID"...event="EVENT"...}'s value in one GET /metrics from
 * 127.0.0.1:port, or -1 (not served, no such series). */
double testutil_scrape(unsigned port, const char *metric, pid_t pid, const char *event);

/* Move process p into the cgroup at dir (a path under the cgroup2 mount) by writing
 * its pid to dir/cgroup.procs; a cmocka failure when that cannot be done. */
void testutil_cgroup_enter(const char *dir, pid_t p);

/* In dir, made by openssl (EC P-256, a day): two CAs (ca.pem and ca.key, other.pem and
 * other.key) and server.pem with server.key, signed by ca for the subjectAltName san
 * ("IP:127.0.0.2", "IP:127.0.0.1,DNS:x.test") with cn as its subject, and client.pem
 * with client.key (CN client, for clientAuth), signed by ca. 0, or -1. */
int testutil_pki(const char *dir, const char *cn, const char *san);

/* A fixture's end: SIGKILL and reap p (when > 0), then rm -rf dir. 0, or -1 when the
 * directory could not be removed. */
int testutil_teardown(pid_t p, const char *dir);

/* Seconds on the monotonic clock. */
double testutil_now(void);

/* Whether thread tid of pid is off its CPU, blocked in system call nr (any when nr < 0):
 * /proc's syscall file says "running" until the kernel has switched the task out
 * (wait_task_inactive), so its counters have taken their last time. */
bool testutil_blocked_in(pid_t pid, pid_t tid, long nr);

/* Wait (deadline_s at most) until testutil_blocked_in(pid, tid, nr); false at the
 * deadline. */
bool testutil_wait_blocked_in(pid_t pid, pid_t tid, long nr, double deadline_s);

/* The tasks of process pid (its threads, the leader among them; 0 when it is gone). */
int testutil_tasks(pid_t pid);

/* Wait (deadline_s at most) until process pid has n tasks or more; false at the
 * deadline. */
bool testutil_wait_tasks(pid_t pid, int n, double deadline_s);

/* Sleep ms milliseconds, through signals. */
void testutil_nap_ms(long ms);

/* Start argv with stdout and stderr to files (truncated); it gets SIGKILL when this
 * program ends. Returns its pid, or -1. */
pid_t testutil_spawn(char *const argv[], const char *out, const char *err);

/* Wait for p to end, up to deadline_s seconds, then SIGKILL it; its wait status, or -1
 * (not a child, or killed at the deadline). */
int testutil_reap(pid_t p, double deadline_s);

/* A whole file, NUL-terminated, to free(); "" (allocated) when it cannot be read. */
char *testutil_slurp(const char *path);

/* The highest interval tick in pmutop --format csv output written to path so far. */
long testutil_csv_ticks(const char *path);

/* Wait until pmutop p, writing CSV to path, has printed tick n; false when it ended or
 * the deadline passed first. A condition waited for, never a speed assumed. */
bool testutil_wait_tick(pid_t p, const char *path, long n, double deadline_s);

/* The distinct ticks of a batch CSV (its header line skipped), in order, into ticks (max
 * at most): how many. */
unsigned testutil_csv_tick_list(const char *csv, long *ticks, unsigned max);

/* The lines of tick t in a batch CSV, each cut before its last two fields (wall and at:
 * when it was printed), joined into out; empty when there are none. */
void testutil_tick_lines(const char *csv, long t, char *out, size_t cap);

/* pmutop --connect's batch CSV got against the host's own batch CSV at own, written by
 * host: waits (up to deadline_s) for the host to print past got's last tick, then asserts
 * that got has ticks and that each of its ticks has rows equal to the host's own rows of
 * that tick. The number of ticks compared. */
unsigned testutil_assert_rows_equal(const char *got, pid_t host, const char *own,
				    double deadline_s);

/* perf stat -x, started with its counters disabled (-D -1) and driven through its
 * control fifos: counting starts when testutil_perf_start returns (perf acknowledged
 * 'enable') and stops at testutil_perf_stop, so its window can enclose a workload
 * exactly, however slow the machine. */
struct testutil_perf {
	pid_t pid;
	int ctl, ack;
	char out[512]; /* what perf stat wrote (-x, on stderr) */
};

/* perf stat -e events extra... (NULL-terminated), with its fifos and output in dir.
 * False when perf did not start or did not acknowledge within deadline_s. */
bool testutil_perf_start(struct testutil_perf *p, const char *dir, const char *events,
			 const char *const extra[], double deadline_s);

/* Disable and stop it (running: false when it ended by itself, as perf stat -p does
 * with its task). False when it did not acknowledge or end within deadline_s. */
bool testutil_perf_stop(struct testutil_perf *p, bool running, double deadline_s);

/* One event's count in what it wrote, or a negative value when it has none. */
double testutil_perf_value(const struct testutil_perf *p, const char *event);

/* This process in a mount namespace of its own where tracefs (and debugfs, which has
 * tracing/ too) is unmounted, and mounted again at /sys/kernel/tracing when mounted is
 * set: a fresh machine's or a set-up one's, whatever this one has, without touching
 * anyone else's view. Call it in a forked child. 0, or -errno (not root: skip). */
int testutil_tracefs_ns(bool mounted);

#endif
