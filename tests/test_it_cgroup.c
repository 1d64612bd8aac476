/* Every process row knows its cgroup: a child moved into a cgroup this test makes (under
 * the cgroup2 mount mountinfo names) reads that path in CSV and JSON. Root only; the
 * cgroup is removed afterwards, on failure too. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
	char *csv[] = {(char *)PMUTOP_BINARY,
		       "-b",
		       "-n",
		       "1",
		       "-d",
		       "0.1",
		       "-p",
		       pid,
		       "--format",
		       "csv",
		       "-e",
		       "task-clock",
		       NULL};
	int st = testutil_run(csv, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[128];
	snprintf(want, sizeof(want), ",%s\n", rel);
	assert_non_null(strstr(out, "exited,cgroup\n"));
	assert_non_null(strstr(out, want));
	char *json[] = {(char *)PMUTOP_BINARY,
			"-b",
			"-n",
			"1",
			"-d",
			"0.1",
			"-p",
			pid,
			"--format",
			"json",
			"-e",
			"task-clock",
			NULL};
	st = testutil_run(json, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(want, sizeof(want), "\"cgroup\":\"%s\"", rel);
	assert_non_null(strstr(out, want));
}

/* --cgroups: the cgroup's row holds its process's page faults, exactly (a child touches
 * 300 new pages in it while pmutop watches it), in the total block too. */
static void test_cgroup_rows(void **state)
{
	(void)state;
	char mnt[512];
	if (geteuid() != 0 || cgroup_mount("", mnt, sizeof(mnt)) != 0)
		skip();
	snprintf(rel, sizeof(rel), "/pmutop-rows-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
	if (mkdir(dir, 0755) != 0) {
		dir[0] = '\0';
		skip();
	}
	int go[2];
	assert_int_equal(pipe(go), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		char *p = mmap(NULL, 300 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (int i = 0; i < 300; i++)
			p[(size_t)i * 4096] = 1;
		_exit(0);
	}
	close(go[0]);
	char procs[700], pid[16];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", (int)child);
	int fd = open(procs, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, pid, strlen(pid)), (ssize_t)strlen(pid));
	close(fd);
	pid_t kick = fork(); /* lets the child go once pmutop watches it */
	assert_true(kick >= 0);
	if (kick == 0) {
		usleep(400 * 1000);
		_exit(write(go[1], "x", 1) == 1 ? 0 : 1);
	}
	close(go[1]);
	static char out[1 << 17], err[4096];
	char *argv[] = {(char *)PMUTOP_BINARY, "-b",	   "-d",  "0.1", "-p",		pid,
			"--cgroups",	       "--format", "csv", "-e",	 "page-faults", NULL};
	int st = testutil_run(argv, out, sizeof(out), err, sizeof(err));
	waitpid(kick, NULL, 0);
	waitpid(child, NULL, 0);
	child = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char want[128];
	snprintf(want, sizeof(want), ",cgroup,,,,pmutop-rows-%d,page-faults,", (int)getpid());
	const char *t = strstr(out, "\ntotal,");
	assert_non_null(t);
	const char *line = strstr(t, want);
	if (!line)
		fail_msg("no total cgroup row %s in:\n%.2000s", want, out);
	double v = atof(line + strlen(want));
	/* Under valgrind, the forked child's own pages and valgrind's fault in too. */
	if (v < 300 || (v >= 360 && !testutil_under_valgrind()))
		fail_msg("the cgroup counted %.0f page faults, want 300 and a few", v);
	assert_non_null(strstr(line, ",exact,"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rows_know_their_cgroup, teardown),
		cmocka_unit_test_teardown(test_cgroup_rows, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
