/* Batch output to a reader that stopped reading: pmutop, stuck writing to a full pipe,
 * still ends on SIGTERM or SIGINT (its signals are blocked and taken between ticks, so a
 * plain write() would hold it for ever), with one line saying the rest was not written,
 * and exit status 1. */
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* args started with stdout into a pipe of 4096 bytes (*cap: its size; 0 for the
 * system's) and stderr to err_fd; *rfd is the read end. */
static pid_t into_pipe(char *const args[], int err_fd, int *rfd, int *cap)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	if (cap) {
		*cap = fcntl(p[1], F_SETPIPE_SZ, 4096);
		assert_true(*cap > 0);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(p[1], 1);
		dup2(err_fd, 2);
		close(p[0]);
		execv(args[0], args);
		_exit(127);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

#ifdef SYS_poll
#define IS_POLL(nr, timeout) ((nr) == SYS_poll && (int)(unsigned)(timeout) == -1)
#else /* aarch64 and others: poll() is ppoll() */
#define IS_POLL(nr, timeout) false
#endif

/* Some thread of pid in outstream's wait for room: poll() (or ppoll()) on 2 descriptors
 * (the output and the stop signals' signalfd) with no timeout. The run loop polls 4, and
 * a wait after a stop signal has a timeout, so only a write that found no room matches. */
static bool waiting_for_room(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	for (struct dirent *e; !found && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char sp[96], buf[256] = "";
		snprintf(sp, sizeof(sp), "%s/%.20s/syscall", path, e->d_name);
		FILE *f = fopen(sp, "r");
		if (!f)
			continue;
		long nr = -1;
		unsigned long a0, nfds, a2;
		if (fgets(buf, sizeof(buf), f) &&
		    sscanf(buf, "%ld %lx %lx %lx", &nr, &a0, &nfds, &a2) == 4)
			found = nfds == 2 && (IS_POLL(nr, a2) || (nr == SYS_ppoll && a2 == 0));
		fclose(f);
	}
	closedir(d);
	return found;
}

/* The signal sent only once pmutop is seen waiting for room in a write (however long a
 * busy machine takes to get it there): it must then say the output stopped and exit 1,
 * never end quietly as if nothing had been cut short. */
static void stalled_then(int signo, char *const args[])
{
	char errpath[] = "/tmp/pmutop-stall-XXXXXX";
	int e = mkstemp(errpath);
	assert_true(e >= 0);
	int p[1], cap;
	pid_t pid = into_pipe(args, e, &p[0], &cap);
	bool waiting = false;
	for (double end = testutil_now() + 120; testutil_now() < end && !waiting;
	     testutil_nap_ms(20)) {
		assert_int_equal(waitpid(pid, NULL, WNOHANG), 0); /* still running */
		waiting = waiting_for_room(pid);
	}
	int queued = 0;
	assert_int_equal(ioctl(p[0], FIONREAD, &queued), 0);
	if (!waiting)
		kill(pid, SIGKILL);
	assert_true(waiting);
	assert_int_equal(queued, cap); /* no room: the pipe is full */
	kill(pid, signo);
	int st = testutil_reap(pid, 120);
	char *err = testutil_slurp(errpath);
	assert_int_not_equal(st, -1); /* ended by itself, not killed at the deadline */
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_non_null(strstr(err, "pmutop: output stopped"));
	free(err);
	close(p[0]);
	close(e);
	unlink(errpath);
}

/* pmutop's child, from /proc/PID/task/PID/children; -1 if none. */
static pid_t child_of(pid_t pid)
{
	char path[64], buf[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	pid_t c = fgets(buf, sizeof(buf), f) ? (pid_t)atoi(buf) : -1;
	fclose(f);
	return c > 0 ? c : -1;
}

/* A process gone, or a zombie nobody has reaped yet. */
static bool ended(pid_t p)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", p);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	bool z = fgets(buf, sizeof(buf), f) && strstr(buf, ") Z ");
	fclose(f);
	return z;
}

/* -- COMMAND: the command gets the SIGTERM that cut pmutop's output short, as it would
 * have between two blocks, and is not left running after pmutop. */
static void test_command_gets_the_signal(void **state)
{
	(void)state;
	/* Nothing of the test's own: a command left behind holds no pipe of ctest's. */
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(null >= 0);
	char *const args[] = {PMUTOP_BINARY, "-b", "--format", "csv", "-d",
			      "0.1",	     "--", "sleep",    "300", NULL};
	int p[1], cap;
	pid_t pid = into_pipe(args, null, &p[0], &cap);
	close(null);
	/* The pipe as full as pmutop's blocks make it: nothing more for 30 looks in a row.
	 * Sent earlier (a machine too busy to tick meanwhile), the signal still has to end
	 * pmutop and the command, between two blocks instead of in one. */
	int queued = 0, last = -1, same = 0;
	for (double end = testutil_now() + 120; testutil_now() < end && same < 30;
	     testutil_nap_ms(50)) {
		assert_int_equal(ioctl(p[0], FIONREAD, &queued), 0);
		same = queued > 0 && queued == last ? same + 1 : 0;
		last = queued;
	}
	assert_true(queued > 0);
	pid_t c = child_of(pid);
	assert_true(c > 0);
	kill(pid, SIGTERM);
	int st = testutil_reap(pid, 120);
	assert_true(st != -1 && WIFEXITED(st));
	bool gone = false;
	for (double end = testutil_now() + 60; testutil_now() < end && !(gone = ended(c));)
		testutil_nap_ms(20);
	if (!gone)
		kill(c, SIGKILL);
	assert_true(gone);
	close(p[0]);
}

/* A reader that goes away (| head): the batch output ends quietly, and pmutop with it,
 * exit status 0, not killed by SIGPIPE; the command it runs gets SIGPIPE as pmutop was
 * given it. */
static void test_reader_goes_away(void **state)
{
	(void)state;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(null >= 0);
	char *const args[] = {PMUTOP_BINARY, "-b", "--format", "csv", "-d", "0.1", NULL};
	int p[1];
	pid_t pid = into_pipe(args, null, &p[0], NULL);
	close(null);
	char buf[256];
	assert_true(read(p[0], buf, sizeof(buf)) > 0); /* pmutop is writing */
	close(p[0]);
	int st = testutil_reap(pid, 120);
	assert_true(st != -1);
	assert_false(WIFSIGNALED(st));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* The command's SIGPIPE is as pmutop was given it (here: the default), never the
	 * SIG_IGN pmutop uses for itself: SigIgn has no bit 12 (signal 13). */
	char out[4096], err[4096];
	char *const cmd[] = {PMUTOP_BINARY, "-b", "-n", "1",  "-o",
			     "/dev/null",   "--", "sh", "-c", "exec grep SigIgn /proc/self/status",
			     NULL};
	assert_int_equal(testutil_run(cmd, out, sizeof(out), err, sizeof(err)), 0);
	unsigned long long ign = 0;
	const char *at = strstr(out, "SigIgn:");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "SigIgn: %llx", &ign), 1);
	assert_int_equal(ign & (1ULL << (SIGPIPE - 1)), 0);
}

static void test_sigterm_while_blocked(void **state)
{
	(void)state;
	char *const args[] = {PMUTOP_BINARY, "-b", "--format", "csv", "-d", "0.1", "-H", NULL};
	stalled_then(SIGTERM, args);
}

static void test_sigint_while_blocked(void **state)
{
	(void)state;
	char *const args[] = {PMUTOP_BINARY, "-b", "--format", "csv", "-d", "0.1", "-H", NULL};
	stalled_then(SIGINT, args);
}

/* Started under nohup (SIGHUP ignored), pmutop ignores SIGHUP too: every block is
 * written to the end. */
static void test_nohup(void **state)
{
	(void)state;
	char path[] = "/tmp/pmutop-nohup-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGHUP, SIG_IGN);
		char *const args[] = {PMUTOP_BINARY, "-b",  "--format", "csv", "-n", "20",
				      "-d",	     "0.2", "-o",	path,  NULL};
		execv(args[0], args);
		_exit(127);
	}
	assert_true(testutil_wait_tick(pid, path, 1, 120));
	kill(pid, SIGHUP);
	int st = testutil_reap(pid, 120);
	assert_true(st != -1 && WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(testutil_csv_ticks(path), 20);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigterm_while_blocked),
		cmocka_unit_test(test_sigint_while_blocked),
		cmocka_unit_test(test_nohup),
		cmocka_unit_test(test_command_gets_the_signal),
		cmocka_unit_test(test_reader_goes_away),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
