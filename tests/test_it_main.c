/* The real binary, end to end, on what main.c decides: output errors, how long batch mode
 * waits for a watched command, the default setup file when it is corrupt, and the live
 * screen after an external stop and continue. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define CAP 65536

static char dir[] = "/tmp/pmutop-itmain-XXXXXX";

static const char *in_dir(const char *name)
{
	static char buf[4][256];
	static unsigned k;
	char *b = buf[k++ % 4];
	snprintf(b, sizeof(buf[0]), "%s/%s", dir, name);
	return b;
}

static void slurp(const char *path, char *buf, size_t cap)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	size_t n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Set: run() runs pmutop in a mount namespace of its own with tracefs mounted (1) or
 * not (0); its child exits 77 when it cannot. */
static int tracefs_ns = -1;

/* Run pmutop with args, stdout to out_fd (or a file, out_fd < 0), stderr to a file; wait
 * for pmutop itself (not for whatever holds its output open). Returns the wait status. */
static int run(const char *const *args, int out_fd, char *out, char *err)
{
	const char *outp = in_dir("stdout"), *errp = in_dir("stderr");
	char *argv[24] = {(char *)PMUTOP_BINARY};
	int n = 1;
	for (; args[n - 1] && n < 23; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int o = out_fd >= 0 ? out_fd : open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0)
			_exit(126);
		if (tracefs_ns >= 0 && testutil_tracefs_ns(tracefs_ns) != 0)
			_exit(77);
		dup2(o, 1);
		dup2(e, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	if (out)
		slurp(outp, out, CAP);
	slurp(errp, err, CAP);
	return st;
}

static unsigned count_of(const char *text, const char *what)
{
	unsigned n = 0;
	for (const char *s = text; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* What a run prints on stderr when all goes well: its notices (no PMU, privileges),
 * which go to stderr in every format. */
static const char *notices(void)
{
	static char out[CAP], err[CAP];
	const char *args[] = {"-b", "-n", "1", "-d", "0.1", NULL};
	int st = run(args, -1, out, err);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return err;
}

/* Any write error but a broken pipe is one: said once, exit 1 (it was exit 0, silent). */
static void test_write_error(void **state)
{
	(void)state;
	static char err[CAP], want[2 * CAP];
	snprintf(want, sizeof(want), "%spmutop: cannot write output: No space left on device\n",
		 notices());
	int full = open("/dev/full", O_WRONLY);
	if (full < 0)
		skip();
	const char *args[] = {"-b", "-n", "3", "-d", "0.1", NULL};
	int st = run(args, full, NULL, err);
	close(full);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_string_equal(err, want);
}

/* A reader that went away (| head) is a quiet end: nothing on stderr but the notices. */
static void test_broken_pipe_is_quiet(void **state)
{
	(void)state;
	static char err[CAP], want[CAP];
	snprintf(want, sizeof(want), "%s", notices());
	int p[2];
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	const char *args[] = {"-b", "-n", "3", "-d", "0.1", NULL};
	int st = run(args, p[1], NULL, err);
	close(p[1]);
	assert_true((WIFEXITED(st) && WEXITSTATUS(st) == 0) ||
		    (WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE));
	assert_string_equal(err, want);
}

/* -n N with a command, as perf stat --interval-count: N interval blocks, then it still
 * waits for the command, prints its total block (with its exit status) and exits with
 * that status. It used to return at once with 0, leaving the command behind. */
static void test_count_waits_for_command(void **state)
{
	(void)state;
	static char out[CAP], err[CAP];
	char script[512];
	const char *mark = in_dir("done");
	unlink(mark);
	snprintf(script, sizeof(script), "sleep 0.8; : > %s; exit 3", mark);
	const char *args[] = {"-b", "-n", "1", "-d", "0.1", "--", "/bin/sh", "-c", script, NULL};
	double t0 = now();
	int st = run(args, -1, out, err);
	double took = now() - t0;
	struct stat sb;
	bool done = stat(mark, &sb) == 0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 3 || !done || took < 0.7) {
		print_error("exit %d, command finished %d, after %.2fs\nstdout:\n%.3000s\nstderr: "
			    "%.1000s\n",
			    WIFEXITED(st) ? WEXITSTATUS(st) : -1, done, took, out, err);
		fail();
	}
	/* One interval block, then the total block. */
	assert_int_equal(count_of(out, " - tick "), 1);
	assert_int_equal(count_of(out, " - total "), 1);
	const char *total = strstr(out, " - total ");
	const char *eol = strchr(total, '\n');
	const char *ex = strstr(total, "exit 3");
	if (!ex || (eol && ex > eol)) {
		print_error("the total block does not give the command's status:\n%.2000s\n", out);
		fail();
	}
}

/* Without -n a command's run ends the same way: its status is in the totals. */
static void test_command_status_in_totals(void **state)
{
	(void)state;
	static char out[CAP], err[CAP];
	const char *args[] = {"-b", "-d",      "0.1", "--format", "json",
			      "--", "/bin/sh", "-c",  "exit 5",	  NULL};
	int st = run(args, -1, out, err);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 5);
	assert_non_null(strstr(out, "\"tick\":\"total\""));
}

/* Batch mode keeps the command on pmutop's stdin, stdout and stderr, as perf stat does:
 * only the screen gives it a terminal of its own. */
static void test_batch_command_output(void **state)
{
	(void)state;
	static char out[CAP], err[CAP];
	const char *args[] = {
		"-b", "-d", "0.1", "--", "/bin/sh", "-c", "echo to-stdout; echo to-stderr >&2",
		NULL};
	int st = run(args, -1, out, err);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_non_null(strstr(out, "to-stdout\n"));
	assert_non_null(strstr(err, "to-stderr\n"));
	assert_null(strstr(err, "to-stdout"));
	assert_null(strstr(out, "to-stderr"));
}

/* --command-output FILE in batch mode: the command's stdout and stderr go to FILE, not
 * to pmutop's. */
static void test_batch_command_output_file(void **state)
{
	(void)state;
	static char out[CAP], err[CAP], file[CAP];
	const char *path = in_dir("command-output");
	const char *args[] = {"-b",
			      "-d",
			      "0.1",
			      "--command-output",
			      path,
			      "--",
			      "/bin/sh",
			      "-c",
			      "echo to-stdout; echo to-stderr >&2",
			      NULL};
	int st = run(args, -1, out, err);
	slurp(path, file, CAP);
	unlink(path);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_string_equal(file, "to-stdout\nto-stderr\n");
	assert_null(strstr(out, "to-stdout"));
	assert_null(strstr(err, "to-stderr"));
	assert_non_null(strstr(out, " - total "));
}

/* --list NAME finds what -e NAME counts, under its catalogue name: perf's aliases ("cs"
 * is context-switches, any case), a cache name's short spelling, and a tracepoint when
 * tracefs is mounted. Each failed ("no PMU or event heading called 'cs'"). */
static void test_list_event_names(void **state)
{
	(void)state;
	static char out[CAP], err[CAP];
	static const struct {
		const char *name, *listed;
	} names[] = {
		{"cs", "  context-switches "},
		{"CS", "  context-switches "},
		{"context-switches", "  context-switches "},
		{"faults", "  page-faults "},
		{"l1d-loads", "  L1-dcache-loads "},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *args[] = {"--list", names[i].name, NULL};
		int st = run(args, -1, out, err);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !strstr(out, names[i].listed) ||
		    count_of(out, "\n  ") != 1)
			fail_msg("--list %s: status %d, want exit 0 and one event '%s'\nstdout:\n"
				 "%.2000s\nstderr: %.500s",
				 names[i].name, st, names[i].listed, out, err);
	}
	tracefs_ns = 1;
	const char *list[] = {"--list", "sched:sched_switch", NULL};
	int st = run(list, -1, out, err);
	const char *count[] = {"-b", "-n", "1", "-d", "0.1", "-e", "sched:sched_switch", NULL};
	static char out2[CAP], err2[CAP];
	int st2 = run(count, -1, out2, err2);
	tracefs_ns = -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		skip(); /* no mount namespace or no tracefs here */
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !strstr(out, "\n  sched:sched_switch ") ||
	    count_of(out, "\n  ") != 1)
		fail_msg("--list sched:sched_switch with tracefs: status %d\nstdout:\n%.2000s\n"
			 "stderr: %.500s",
			 st, out, err);
	/* What --list finds, -e counts. */
	assert_true(WIFEXITED(st2) && WEXITSTATUS(st2) == 0);
	assert_non_null(strstr(out2, "sched:sched_switch"));
}

/* The renaming process of test_rename_followed: its own name first, then at each byte
 * read the next way of renaming ('a': prctl(PR_SET_NAME), 'b': writing /proc/self/comm).
 * It wakes every 10 ms, so that each tick sees it run, and runs for microseconds: it is
 * seldom the task on a CPU when the bpf backend folds. */
static void renamer(int rfd, const char *first, const char *a, const char *b)
{
	prctl(PR_SET_NAME, first, 0, 0, 0);
	for (;;) {
		struct pollfd p = {.fd = rfd, .events = POLLIN};
		char c = 0;
		if (poll(&p, 1, 10) > 0 && read(rfd, &c, 1) != 1)
			_exit(0); /* the test ended */
		if (c == 'a')
			prctl(PR_SET_NAME, a, 0, 0, 0);
		if (c == 'b') {
			int fd = open("/proc/self/comm", O_WRONLY);
			if (fd < 0 || write(fd, b, strlen(b)) < 0)
				_exit(3);
			close(fd);
		}
	}
}

/* Wait (up to 60 s) for a CSV line of pmutop's (from fd) with pid's process row named
 * name. Returns true when seen; *ended when pmutop's output ended first. */
static bool csv_shows(int fd, pid_t pid, const char *name, bool *ended)
{
	static char buf[1 << 16];
	static size_t len;
	char want[64];
	snprintf(want, sizeof(want), ",process,%d,%d,,%s,", (int)pid, (int)pid, name);
	for (double end = now() + 60; now() < end;) {
		char *nl;
		while ((nl = memchr(buf, '\n', len))) {
			*nl = '\0';
			bool hit = strstr(buf, want) != NULL;
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
			if (hit)
				return true;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 200) <= 0)
			continue;
		if (len == sizeof(buf))
			len = 0; /* a line longer than the buffer: not one of ours */
		ssize_t r = read(fd, buf + len, sizeof(buf) - len);
		if (r <= 0) {
			*ended = true;
			len = 0;
			return false;
		}
		len += (size_t)r;
	}
	return false;
}

/* A process that renames itself (prctl(PR_SET_NAME), then a write to /proc/PID/comm)
 * shows its new name in a long-running pmutop, with either backend; the bpf backend kept
 * the name its map entry was made with (only the task running at a fold was read
 * again). */
static void test_rename_followed(void **state)
{
	(void)state;
	const char *backends[] = {"perf", "bpf"};
	for (unsigned k = 0; k < 2; k++) {
		int ctl[2], out[2];
		assert_int_equal(pipe(ctl), 0);
		assert_int_equal(pipe(out), 0);
		char first[16], a[16], b[16];
		snprintf(first, sizeof(first), "pmro%u", (unsigned)getpid() % 100000);
		snprintf(a, sizeof(a), "pmra%u", (unsigned)getpid() % 100000);
		snprintf(b, sizeof(b), "pmrb%u", (unsigned)getpid() % 100000);
		pid_t child = fork();
		assert_true(child >= 0);
		if (child == 0) {
			close(ctl[1]);
			close(out[0]);
			close(out[1]);
			renamer(ctl[0], first, a, b);
		}
		close(ctl[0]);
		pid_t top = fork();
		assert_true(top >= 0);
		if (top == 0) {
			close(ctl[1]);
			close(out[0]);
			dup2(out[1], 1);
			close(out[1]);
			int devnull = open("/dev/null", O_WRONLY);
			dup2(devnull, 2);
			execl(PMUTOP_BINARY, PMUTOP_BINARY, "-b", "-d", "0.2", "--format", "csv",
			      "--backend", backends[k], (char *)NULL);
			_exit(127);
		}
		close(out[1]);
		bool ended = false;
		bool saw_first = csv_shows(out[0], child, first, &ended);
		bool saw_a = false, saw_b = false;
		if (saw_first) {
			assert_int_equal(write(ctl[1], "a", 1), 1);
			saw_a = csv_shows(out[0], child, a, &ended);
		}
		if (saw_a) {
			assert_int_equal(write(ctl[1], "b", 1), 1);
			saw_b = csv_shows(out[0], child, b, &ended);
		}
		close(out[0]); /* first: pmutop may be blocked writing to it */
		kill(top, SIGTERM);
		int st;
		waitpid(top, &st, 0);
		close(ctl[1]); /* the renamer exits */
		waitpid(child, NULL, 0);
		if (!saw_first && ended && k == 1)
			continue; /* no bpf backend here (refused at start) */
		if (!saw_first || !saw_a || !saw_b)
			fail_msg("--backend %s: its first name %s, after prctl %s %s, after "
				 "/proc/PID/comm %s %s",
				 backends[k], saw_first ? "seen" : "never seen", a,
				 saw_a ? "seen" : "never seen", b, saw_b ? "seen" : "never seen");
	}
}

/* The default setup file, corrupt in any way, is a notice naming its line, never an
 * abort; the same file given with -c is an error (test_it_badinput). */
static void test_default_setup_file_corrupt(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"garbage here",	  "interval 0", "sort NOPE",	      "pane Blah",
		"metric X = a b", "events pag", "events {task-clock",
	};
	static char out[CAP], err[CAP];
	char conf[300], rc[300];
	snprintf(conf, sizeof(conf), "%s/pmutop", dir);
	mkdir(conf, 0700);
	snprintf(rc, sizeof(rc), "%s/pmutoprc", conf);
	setenv("XDG_CONFIG_HOME", dir, 1);
	unsigned bad = 0;
	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		FILE *f = fopen(rc, "w");
		assert_non_null(f);
		fprintf(f, "# mine\n%s\n", lines[i]);
		fclose(f);
		const char *args[] = {"-b", "-n", "1", "-d", "0.1", NULL};
		int st = run(args, -1, out, err);
		char want[400];
		snprintf(want, sizeof(want), "%s:2:", rc);
		bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(err, want) &&
			  strstr(out, " - tick ");
		if (!ok) {
			print_error(
				"default setup file with '%s': exit %d; want exit 0 and a notice "
				"naming %s\nstdout: %.600s\nstderr: %.600s\n",
				lines[i], WIFEXITED(st) ? WEXITSTATUS(st) : -1, want, out, err);
			bad++;
		}
	}
	unlink(rc);
	rmdir(conf);
	setenv("XDG_CONFIG_HOME", "/nonexistent/pmutop-tests", 1);
	assert_int_equal(bad, 0);
}

/* Read what the pty has for up to secs seconds (the screen must not block on a full
 * buffer); true when needle showed up. */
static bool pty_wait(int fd, double secs, const char *needle)
{
	static char seen[CAP];
	size_t len = 0;
	double end = now() + secs;
	seen[0] = '\0';
	while (now() < end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 50) <= 0)
			continue;
		char buf[4096];
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r <= 0)
			break;
		if (len + (size_t)r >= sizeof(seen))
			len = 0;
		memcpy(seen + len, buf, (size_t)r);
		len += (size_t)r;
		seen[len] = '\0';
		if (needle && strstr(seen, needle))
			return true;
	}
	return false;
}

/* kill -STOP, the shell puts the terminal in its own (cooked, echoing) mode, kill -CONT:
 * the screen must take the terminal back (it stayed cooked: a typed q was echoed). */
static void test_live_stop_and_continue(void **state)
{
	(void)state;
	struct winsize ws = {.ws_row = 30, .ws_col = 120};
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, &ws);
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("TERM", "xterm", 1);
		execl(PMUTOP_BINARY, PMUTOP_BINARY, "-d", "0.2", (char *)NULL);
		_exit(127);
	}
	assert_true(pty_wait(master, 60, "PID"));
	struct termios t;
	assert_int_equal(tcgetattr(master, &t), 0);
	assert_false(t.c_lflag & ICANON); /* curses mode */

	assert_int_equal(kill(pid, SIGSTOP), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
	assert_true(WIFSTOPPED(st));
	/* What a shell does when its foreground job stops. */
	t.c_lflag |= ICANON | ECHO;
	assert_int_equal(tcsetattr(master, TCSANOW, &t), 0);
	assert_int_equal(kill(pid, SIGCONT), 0);
	/* It takes the terminal back after the tick it was stopped in, then a draw: wait for
	 * the mode (reading the screen meanwhile), cooked only at the deadline. */
	bool cooked = true;
	for (double end = now() + 30; cooked && now() < end;) {
		pty_wait(master, 0.1, NULL);
		assert_int_equal(tcgetattr(master, &t), 0);
		cooked = t.c_lflag & (ICANON | ECHO);
	}

	assert_int_equal(write(master, "q", 1), 1);
	pty_wait(master, 2, NULL);
	pid_t r = 0;
	for (double end = now() + 30; r == 0 && now() < end; usleep(20000))
		r = waitpid(pid, &st, WNOHANG);
	if (r == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	close(master);
	if (cooked)
		fail_msg("after SIGSTOP and SIGCONT the terminal stayed in cooked mode");
	assert_int_equal(r, pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	/* No setup file of the person running the tests may change what pmutop does. */
	setenv("XDG_CONFIG_HOME", "/nonexistent/pmutop-tests", 1);
	if (!mkdtemp(dir))
		return 1;
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_broken_pipe_is_quiet),
		cmocka_unit_test(test_count_waits_for_command),
		cmocka_unit_test(test_command_status_in_totals),
		cmocka_unit_test(test_batch_command_output),
		cmocka_unit_test(test_batch_command_output_file),
		cmocka_unit_test(test_list_event_names),
		cmocka_unit_test(test_rename_followed),
		cmocka_unit_test(test_default_setup_file_corrupt),
		cmocka_unit_test(test_live_stop_and_continue),
	};
	/* clang-format on */
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(in_dir("stdout"));
	unlink(in_dir("stderr"));
	unlink(in_dir("done"));
	rmdir(dir);
	return ret;
}
