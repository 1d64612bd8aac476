/* Every process row knows its cgroup: a child moved into a cgroup this test makes (under
 * the cgroup2 mount mountinfo names) reads that path in CSV and JSON. Root only; the
 * cgroup is removed afterwards, on failure too. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "testutil.h"

static char dir[600], rel[64];
static pid_t child;

static int teardown(void **state)
{
	(void)state;
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = 0;
	}
	if (*dir)
		rmdir(dir); /* empty once its one task is gone */
	dir[0] = '\0';
	return 0;
}

static void test_rows_know_their_cgroup(void **state)
{
	(void)state;
	char mnt[512];
	if (geteuid() != 0 || cgroup_mount("", mnt, sizeof(mnt)) != 0)
		skip();
	snprintf(rel, sizeof(rel), "/pmutop-test-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
	if (mkdir(dir, 0755) != 0) {
		dir[0] = '\0';
		skip(); /* a cgroup2 we may not write to */
	}
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	char procs[700], pid[16];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", (int)child);
	int fd = open(procs, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, pid, strlen(pid)), (ssize_t)strlen(pid));
	close(fd);
	char got[256];
	assert_int_equal(cgroup_of("", child, got, sizeof(got)), 0);
	assert_string_equal(got, rel);

	static char out[1 << 16], err[4096];
	char *csv[] = {(char *)PMUTOP_BINARY, "-b", "-n", "1", "-d", "0.1", "-p", pid,
		       "--format", "csv", "-e", "task-clock", NULL};
	int st = testutil_run(csv, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[128];
	snprintf(want, sizeof(want), ",%s\n", rel);
	assert_non_null(strstr(out, "exited,cgroup\n"));
	assert_non_null(strstr(out, want));
	char *json[] = {(char *)PMUTOP_BINARY, "-b", "-n", "1", "-d", "0.1", "-p", pid,
			"--format", "json", "-e", "task-clock", NULL};
	st = testutil_run(json, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(want, sizeof(want), "\"cgroup\":\"%s\"", rel);
	assert_non_null(strstr(out, want));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rows_know_their_cgroup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
