/* Batch output to a reader that stopped reading: pmutop, stuck writing to a full pipe,
 * still ends on SIGTERM or SIGINT (its signals are blocked and taken between ticks, so a
 * plain write() would hold it for ever), with one line saying the rest was not written,
 * and exit status 1. */
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void stalled_then(int signo, char *const args[])
{
	char errpath[] = "/tmp/pmutop-stall-XXXXXX";
	int e = mkstemp(errpath);
	assert_true(e >= 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	int cap = fcntl(p[1], F_SETPIPE_SZ, 4096);
	assert_true(cap > 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(p[1], 1);
		dup2(e, 2);
		close(p[0]);
		execv(args[0], args);
		_exit(127);
	}
	close(p[1]);
	/* Wait until the pipe is full: from then on every block pmutop writes waits. */
	int queued = 0;
	for (double end = testutil_now() + 120; testutil_now() < end && queued < cap;
	     testutil_nap_ms(20)) {
		assert_int_equal(ioctl(p[0], FIONREAD, &queued), 0);
		assert_int_equal(waitpid(pid, NULL, WNOHANG), 0); /* still running */
	}
	assert_int_equal(queued, cap);
	kill(pid, signo);
	int st = testutil_reap(pid, 120);
	char *err = testutil_slurp(errpath);
	assert_int_not_equal(st, -1); /* ended by itself, not killed at the deadline */
	assert_true(WIFEXITED(st));
	/* Between two blocks it ends as on any stop signal; in a write, it says so. */
	if (strstr(err, "output stopped")) {
		assert_int_equal(WEXITSTATUS(st), 1);
		assert_non_null(strstr(err, "pmutop: output stopped"));
	} else {
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	free(err);
	close(p[0]);
	close(e);
	unlink(errpath);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
