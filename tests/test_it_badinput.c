/* Bad input to the real binary, table-driven: each case exits 2 with exactly one line on
 * stderr, "pmutop: " first, naming the problem, and nothing on stdout. A setup file that
 * does not parse is one more bad input (test_bad_setup_file). */
#include "testutil.h"

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAP 65536

struct bad {
	const char *args[12];  /* after the program name, NULL-terminated */
	const char *needle[3]; /* substrings the message must hold */
};

static const struct bad cases[] = {
	{{"-b", "-n", "1", "-e", "nosuchevent"}, {"'nosuchevent'", "unknown event"}},
	{{"-b", "-n", "1", "-e", "{cycles"}, {"{cycles", "parse"}},
	{{"-b", "-n", "1", "-e", "cycles,,instructions"}, {"parse"}},
	{{"-b", "-n", "1", "-e", "cyles"}, {"'cyles'", "did you mean", "cycles"}},
	/* The parser's reason, not "cannot parse" or a suggestion of the input itself. */
	{{"-b", "-n", "1", "-e", "nosuchpmu/event=0x1/"}, {"PMU nosuchpmu is not on this machine"}},
	{{"-b", "-n", "1", "-e", ""}, {"empty event list"}},
	{{"-b", "-n", "1", "-e",
	  "{task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,"
	  "task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,"
	  "task-clock,task-clock,task-clock}"},
	 {"more than 16"}},
	{{"-b", "-d", "abc"}, {"'abc'", "-d"}},
	{{"-b", "-d", "0"}, {"'0'", "-d"}},
	/* Plain decimal only: no hex, blanks, sign or inf. */
	{{"-b", "-d", "0x1"}, {"'0x1'", "-d"}},
	{{"-b", "-d", " 1"}, {"' 1'", "-d"}},
	{{"-b", "-d", "inf"}, {"'inf'", "-d"}},
	{{"-b", "-n", "+3"}, {"'+3'", "-n"}},
	{{"-b", "-n", "1", "-p", " 12"}, {"-p"}},
	/* What the user typed is echoed without its escape sequences. */
	{{"-b", "-n", "1", "-e", "\x1b[2Jx"}, {"?[2Jx"}},
	{{"-b", "-n", "0"}, {"'0'", "-n"}},
	{{"-b", "-n", "many"}, {"'many'", "-n"}},
	{{"-n", "3"}, {"-b"}},
	{{"-b", "--format", "xml"}, {"'xml'", "--format"}},
	{{"-b", "-p", "abc"}, {"'abc'", "-p"}},
	/* An empty list watched everything, a trailing comma was ignored. */
	{{"-b", "-n", "1", "-p", ""}, {"empty pid list", "-p"}},
	{{"-b", "-n", "1", "-p", "1,"}, {"empty pid", "-p"}},
	{{"-b", "-n", "1", "-p", ","}, {"empty pid", "-p"}},
	{{"-b", "-n", "1", "-p", "1,,2"}, {"'1,,2'", "-p"}},
	/* Panes that do not exist were silently accepted. */
	{{"-b", "-n", "1", "--pane", "foo"},
	 {"'foo'", "--pane", "IPC, Cache, Branch, Software, Events, Top-down or Metrics"}},
	{{"-b", "-n", "1", "-p", "999999999"}, {"no such process", "999999999"}},
	{{"-b", "-n", "1", "-p", "1,999999998"}, {"no such process", "999999998"}},
	{{"--bogus"}, {"'--bogus'", "unknown option"}},
	{{"-b", "-Z"}, {"'-Z'", "unknown option"}},
	{{"-b", "-d"}, {"'-d'", "needs a value"}},
	{{"-b", "foo"}, {"'foo'", "--"}},
	{{"-b", "-p", "1", "--", "true"}, {"-p"}},
	{{"-b", "--children"}, {"--children"}},
	{{"-b", "-i"}, {"-i/--no-inherit", "COMMAND"}},
	{{"-b", "-n", "1", "-u", "no-such-user-x"}, {"'no-such-user-x'", "-u"}},
	{{"-b", "-n", "1", "-o", "/nonexistent/dir/out"}, {"'/nonexistent/dir/out'", "-o"}},
	{{"-b", "-n", "1", "--sort", "NOPE"}, {"'NOPE'", "sort"}},
	{{"--list", "nopmu"}, {"'nopmu'"}},
	{{"-b", "-n", "1", "--command-output", "/tmp/x"}, {"--command-output", "needs a command"}},
	{{"-b", "--command-output", "/nonexistent/dir/out", "--", "true"},
	 {"'/nonexistent/dir/out'", "--command-output"}},
	/* Neither a heading nor an event -e takes: "no PMU, event heading or event". */
	{{"--list", "nosuchevent"}, {"'nosuchevent'", "event called"}},
	/* -e takes it, as an encoding: not "no event called". */
	{{"--list", "r01c2"}, {"'r01c2'", "encoding -e takes"}},
	{{"-b", "-n", "1", "-c", "/nonexistent/pmutoprc"}, {"'/nonexistent/pmutoprc'", "-c"}},
	/* The file named once (it was "--metrics F: F: ..."). */
	{{"-b", "-n", "1", "--metrics", "/nonexistent/m.json"},
	 {"--metrics /nonexistent/m.json: No such file"}},
	/* What can be chosen here instead. */
	{{"-b", "-n", "1", "-M", "nosuchmetric"}, {"'nosuchmetric'", "here: ", "ipc"}},
	{{"-b", "-n", "1", "-M", "tma_nosuch"}, {"tma_nosuch", "here: "}},
	/* --listen forms node_exporter does not take either. */
	{{"-b", "-n", "1", "--listen", "::1:9465"}, {"'::1:9465'", "--listen", "[]"}},
	{{"-b", "-n", "1", "--listen", "localhost:"}, {"'localhost:'", "--listen", "port"}},
	/* The live screen needs a terminal; here stdout is a pipe. */
	{{"-d", "1"}, {"terminal", "-b"}},
};

/* Run one case; on failure, append one line saying why to report. The message must not
 * hold forbid (NULL: no such check). */
static bool run_case_not(const struct bad *c, const char *forbid, char *report, size_t len)
{
	static char out[CAP], err[CAP];
	char *argv[16] = {(char *)PMUTOP_BINARY};
	int n = 1;
	for (; c->args[n - 1]; n++)
		argv[n] = (char *)c->args[n - 1];
	argv[n] = NULL;
	char what[512] = "pmutop";
	for (int i = 1; i < n; i++)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " %.60s", argv[i]);

	int st = testutil_run(argv, out, sizeof(out), err, sizeof(err));
	char why[1024] = "";
	char *nl = strchr(err, '\n');
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 2)
		snprintf(why, sizeof(why), "status %d (exit %d), want exit 2", st,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	else if (strncmp(err, "pmutop: ", 8) != 0)
		snprintf(why, sizeof(why), "stderr does not start with 'pmutop: '");
	else if (!nl || nl[1] != '\0')
		snprintf(why, sizeof(why), "not exactly one line on stderr");
	else if (out[0] != '\0')
		snprintf(why, sizeof(why), "wrote to stdout: %.100s", out);
	for (int i = 0; !why[0] && i < 3 && c->needle[i]; i++)
		if (!strstr(err, c->needle[i]))
			snprintf(why, sizeof(why), "does not mention '%s'", c->needle[i]);
	if (!why[0] && forbid && strstr(err, forbid))
		snprintf(why, sizeof(why), "says '%s'", forbid);
	if (!why[0])
		return true;
	snprintf(report + strlen(report), len - strlen(report), "  %s: %s; stderr: %.300s%s", what,
		 why, err, nl ? "" : "\n");
	return false;
}

static bool run_case(const struct bad *c, char *report, size_t len)
{
	return run_case_not(c, NULL, report, len);
}

static void test_table(void **state)
{
	(void)state;
	static char report[16384];
	report[0] = '\0';
	unsigned bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad += !run_case(&cases[i], report, sizeof(report));
	if (bad)
		fail_msg("%u of %zu cases wrong:\n%s", bad, sizeof(cases) / sizeof(cases[0]),
			 report);
}

static void test_flag_given_a_value(void **state)
{
	(void)state;
	/* --per-cpu takes no value: the line must name it (today it is cut short at
	 * "unknown option '-", see test_cli's test_flag_given_a_value). */
	static const struct bad c = {{"-b", "--per-cpu=1"}, {"--per-cpu"}};
	static char report[4096];
	report[0] = '\0';
	if (!run_case(&c, report, sizeof(report)))
		fail_msg("%s", report);
}

static void test_bad_setup_file(void **state)
{
	(void)state;
	char path[] = "/tmp/pmutop-badrc-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "interval 1\nthis is not a setting\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	const struct bad c = {{"-b", "-n", "1", "-c", path}, {path, ":2"}};
	static char report[4096];
	report[0] = '\0';
	bool ok = run_case(&c, report, sizeof(report));
	unlink(path);
	if (!ok)
		fail_msg("%s", report);
}

/* Write text to a new temporary setup file; its path in path (size >= 32). */
static void temp_setup(char *path, const char *text)
{
	strcpy(path, "/tmp/pmutop-badrc-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* -c FILE with any kind of bad line: exit 2, "FILE:2: what is wrong" (a bad events line
 * exited 0 with a notice). The default file with the same lines: test_it_main. */
static void test_bad_setup_file_lines(void **state)
{
	(void)state;
	static const struct {
		const char *line, *needle;
	} lines[] = {
		{"garbage here", "unknown setting"},
		{"interval 0", "invalid interval"},
		{"sort NOPE", "'NOPE'"},
		{"pane Blah", "'Blah'"},
		{"metric X = a b", "metric"},
		{"events pag", "unknown event 'pag'"},
		{"events {task-clock", "{task-clock"},
	};
	static char report[16384];
	report[0] = '\0';
	unsigned bad = 0;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char path[64], text[128], where[96];
		snprintf(text, sizeof(text), "# mine\n%s\n", lines[i].line);
		temp_setup(path, text);
		snprintf(where, sizeof(where), "%s:2: ", path);
		const struct bad c = {{"-b", "-n", "1", "-d", "0.1", "-c", path},
				      {where, lines[i].needle, "fix the line"}};
		bad += !run_case(&c, report, sizeof(report));
		unlink(path);
	}
	if (bad)
		fail_msg("%u setup files wrong:\n%s", bad, report);
}

/* A setup file that is not one has no line to fix: the advice is another. */
static void test_setup_file_not_a_file(void **state)
{
	(void)state;
	static const struct bad cases_[] = {
		{{"-b", "-n", "1", "-c", "/tmp"}, {"/tmp", "is a directory", "pmutoprc(5)"}},
		{{"-b", "-n", "1", "-c", "/dev/null"}, {"/dev/null", "pmutoprc(5)"}},
		{{"-b", "-n", "1", "-c", PMUTOP_BINARY}, {"64 KiB", "pmutoprc(5)"}},
	};
	static char report[8192];
	report[0] = '\0';
	unsigned bad = 0;
	for (size_t i = 0; i < sizeof(cases_) / sizeof(cases_[0]); i++)
		bad += !run_case_not(&cases_[i], "fix the line", report, sizeof(report));
	if (bad)
		fail_msg("%u cases wrong:\n%s", bad, report);
}

/* A list longer than pmutop keeps was cut, and the cut named a wrong event ('pag'). */
static void test_long_event_list(void **state)
{
	(void)state;
	static char spec[2048];
	spec[0] = '\0';
	for (int i = 0; i < 90; i++)
		strcat(spec, i ? ",page-faults" : "page-faults");
	const struct bad c = {{"-b", "-n", "1", "-e", spec}, {"too long", "1023"}};
	static char report[4096];
	report[0] = '\0';
	if (!run_case_not(&c, "'pag'", report, sizeof(report)))
		fail_msg("%s", report);
}

/* A fresh machine has no tracefs mounted: a tracepoint, a tracepoint glob and --list of
 * either say to mount it, as -e sched:sched_switch did ('syscalls:sys_enter_read*' said
 * "unknown event 'syscalls'", --list "no PMU or event heading"). Run in a mount namespace
 * of its own without tracefs, whatever this machine has. */
static void test_no_tracefs(void **state)
{
	(void)state;
	static const struct bad cases_[] = {
		{{"-b", "-n", "1", "-e", "sched:sched_switch"},
		 {"'sched:sched_switch'", "tracefs is not mounted", "mount -t tracefs"}},
		{{"-b", "-n", "1", "-e", "syscalls:sys_enter_read*"},
		 {"'syscalls:sys_enter_read*'", "tracefs is not mounted", "mount -t tracefs"}},
		{{"--list", "sched:sched_switch"},
		 {"--list", "'sched:sched_switch'", "tracefs is not mounted"}},
		{{"--list", "syscalls:sys_enter_read*"},
		 {"--list", "'syscalls:sys_enter_read*'", "tracefs is not mounted"}},
	};
	static char report[8192];
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		report[0] = '\0';
		if (testutil_tracefs_ns(false) != 0)
			_exit(77);
		unsigned bad = 0;
		for (size_t i = 0; i < sizeof(cases_) / sizeof(cases_[0]); i++)
			bad += !run_case_not(&cases_[i], "unknown event", report, sizeof(report));
		(void)!write(p[1], report, strlen(report));
		_exit(bad ? 1 : 0);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < sizeof(report) && (r = read(p[0], report + n, sizeof(report) - 1 - n)) > 0)
		n += (size_t)r;
	report[n] = '\0';
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip(); /* no mount namespace (not root) */
	if (WEXITSTATUS(st) != 0)
		fail_msg("without tracefs:\n%s", report);
}

static void *idle_thread(void *arg)
{
	int *fd = arg;
	char ch;
	(void)!read(*fd, &ch, 1);
	return NULL;
}

/* -p of a thread made a process row of part of a process: refused, naming the process. */
static void test_pid_is_a_thread(void **state)
{
	(void)state;
	int p[2];
	pthread_t th;
	pid_t tid = 0;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pthread_create(&th, NULL, idle_thread, &p[0]), 0);
	/* The other thread's id: the only task of this process that is not the leader. */
	char taskdir[64];
	snprintf(taskdir, sizeof(taskdir), "/proc/%d/task", (int)getpid());
	for (int tries = 0; !tid && tries < 100; tries++) {
		DIR *d = opendir(taskdir);
		assert_non_null(d);
		struct dirent *e;
		while ((e = readdir(d)))
			if (atoi(e->d_name) > 0 && atoi(e->d_name) != getpid())
				tid = atoi(e->d_name);
		closedir(d);
		if (!tid)
			usleep(10000);
	}
	assert_true(tid > 0);
	char arg[16], need[64], use[32];
	snprintf(arg, sizeof(arg), "%d", (int)tid);
	snprintf(need, sizeof(need), "%d is a thread of process %d", (int)tid, (int)getpid());
	snprintf(use, sizeof(use), "use -p %d", (int)getpid());
	const struct bad c = {{"-b", "-n", "1", "-p", arg}, {need, use}};
	static char report[4096];
	report[0] = '\0';
	bool ok = run_case(&c, report, sizeof(report));
	assert_int_equal(write(p[1], "x", 1), 1);
	pthread_join(th, NULL);
	close(p[0]);
	close(p[1]);
	if (!ok)
		fail_msg("%s", report);
}

int main(void)
{
	/* No setup file of the person running the tests may change what pmutop does. */
	setenv("XDG_CONFIG_HOME", "/nonexistent/pmutop-tests", 1);
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_flag_given_a_value),
		cmocka_unit_test(test_bad_setup_file),
		cmocka_unit_test(test_bad_setup_file_lines),
		cmocka_unit_test(test_setup_file_not_a_file),
		cmocka_unit_test(test_long_event_list),
		cmocka_unit_test(test_pid_is_a_thread),
		cmocka_unit_test(test_no_tracefs),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
