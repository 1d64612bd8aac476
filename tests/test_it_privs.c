/* Unprivileged pmutop at each kernel.perf_event_paranoid level (-1, 0, 1, 2, and 3 where
 * the kernel takes it), as issue 7 asks: "as an unprivileged user it explains what it can
 * and cannot count (perf_event_paranoid value, CAP_PERFMON, the exact sysctl or setcap
 * line) and counts what is allowed (its own user's processes, user-mode only) instead of
 * failing".
 *
 * Root sets the level, then runs the real binary as 'nobody' (fork, setgroups(0),
 * setgid, setuid, exec). What the kernel allows at that level is not assumed from the
 * number: a 'nobody' child first probes it with perf_event_open (user-mode task-clock on
 * itself, the same with kernel mode, and one per CPU), and pmutop is held to that:
 * - it never crashes and exits 0 (or with the watched command's status);
 * - every row it shows belongs to nobody;
 * - what the probe could open, pmutop counts (task-clock and page-faults of a child it
 *   starts with -- /bin/sleep 0.3; per-CPU task-clock with --per-cpu);
 * - what the probe could not open is n/a, never a count of 0 (context switches happen in
 *   kernel mode only, so user-mode only they must be n/a);
 * - one notice names the paranoid value, CAP_PERFMON, what is missing (kernel mode, per
 *   CPU, other users' processes), and a command that gets it: a sysctl line that lowers
 *   the level, or a setcap line naming the binary's path.
 * The level is restored afterwards: by the group teardown, by atexit, and on SIGINT,
 * SIGTERM and SIGHUP.
 *
 * The binary is copied to a fresh directory first, so that 'nobody' can run it wherever
 * the build tree is (a checkout under /root is not reachable to others). */
#include "testutil.h"

#include "startup.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534
#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define OUTCAP (1 << 20)

static int saved_level = -100; /* -100: nothing saved, nothing to restore */
static char bindir[64];
static char binary[128];

static int read_level(void)
{
	FILE *f = fopen(PARANOID, "r");
	int v = -100;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

/* 0, or -errno as the kernel answered (EINVAL: a level it does not know). */
static int write_level(int level)
{
	int fd = open(PARANOID, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%d\n", level);
	int ret = write(fd, buf, (size_t)n) == n ? 0 : -errno;
	close(fd);
	return ret;
}

/* Async-signal-safe enough for a handler: open, write, close. */
static void restore_level(void)
{
	if (saved_level != -100)
		write_level(saved_level);
}

static void on_signal(int sig)
{
	restore_level();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remove_bindir(void)
{
	if (!bindir[0])
		return;
	unlink(binary);
	rmdir(bindir);
	bindir[0] = '\0';
}

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[65536];
	ssize_t r;
	int ret = 0;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r)
			ret = -1;
	if (r < 0)
		ret = -1;
	close(in);
	close(out);
	return ret;
}

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0; /* every test skips */
	saved_level = read_level();
	if (saved_level == -100)
		return 0;
	atexit(restore_level);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	snprintf(bindir, sizeof(bindir), "/tmp/pmutop-privs-XXXXXX");
	if (!mkdtemp(bindir)) {
		bindir[0] = '\0';
		return -1;
	}
	atexit(remove_bindir);
	chmod(bindir, 0755);
	snprintf(binary, sizeof(binary), "%s/pmutop", bindir);
	return copy_file(PMUTOP_BINARY, binary);
}

static int teardown(void **state)
{
	(void)state;
	restore_level();
	if (saved_level != -100 && read_level() != saved_level)
		return -1;
	remove_bindir();
	return 0;
}

/* Drop to nobody: no supplementary groups, then the group, then the user. */
static void become_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
		_exit(126);
	if (setuid(0) == 0) /* the drop must not be undoable */
		_exit(126);
}

/* What the kernel lets nobody open at the current level. */
struct allowed {
	bool user;   /* task-clock on itself, user mode only */
	bool kernel; /* the same, kernel mode included */
	bool cpu;    /* task-clock on CPU 0 for every task, user mode only */
};

static bool try_open(bool kernel, bool cpu)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = !kernel;
	a.exclude_hv = 1;
	long fd = syscall(SYS_perf_event_open, &a, cpu ? -1 : 0, cpu ? 0 : -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

static struct allowed probe(void)
{
	struct allowed al = {false, false, false};
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		become_nobody();
		unsigned char bits =
			(unsigned char)(try_open(false, false) | try_open(true, false) << 1 |
					try_open(false, true) << 2);
		_exit(write(p[1], &bits, 1) == 1 ? 0 : 1);
	}
	close(p[1]);
	unsigned char bits = 0;
	assert_int_equal(read(p[0], &bits, 1), 1);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	al.user = bits & 1;
	al.kernel = bits & 2;
	al.cpu = bits & 4;
	return al;
}

/* Run pmutop as nobody with args; stdout and stderr captured. Returns the wait status. */
static int run_nobody(const char *const *args, char *out, char *err)
{
	char *argv[16];
	int n = 0;
	argv[n++] = binary;
	for (; args[n - 1] && n < 15; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;

	int po[2], pe[2];
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(po[1]);
		close(pe[1]);
		become_nobody();
		if (chdir(bindir) < 0)
			_exit(126);
		/* No setup file: root's is not nobody's business. */
		setenv("HOME", "/nonexistent", 1);
		setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	size_t len[2] = {0, 0};
	char *bufs[2] = {out, err};
	out[0] = err[0] = '\0';
	struct pollfd p[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
	char tmp[65536];
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = read(p[i].fd, tmp, sizeof(tmp));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				continue;
			}
			size_t k = (size_t)r;
			if (k > OUTCAP - 1 - len[i])
				k = OUTCAP - 1 - len[i];
			memcpy(bufs[i] + len[i], tmp, k);
			len[i] += k;
			bufs[i][len[i]] = '\0';
		}
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static char out[OUTCAP], err[OUTCAP];

static void expect_clean_exit(int st, const char *what, int code)
{
	if (WIFSIGNALED(st)) {
		print_error("%s: pmutop killed by signal %d; stderr:\n%s\n", what, WTERMSIG(st),
			    err);
		fail();
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != code) {
		print_error("%s: pmutop exit status %d, want %d; stderr:\n%s\n", what,
			    WIFEXITED(st) ? WEXITSTATUS(st) : -1, code, err);
		fail();
	}
}

/* The notice: on stderr, in every format (stdout is only the output a script parses). */
static const char *notice(void)
{
	return err;
}

static bool mentions(const char *text, const char *what)
{
	return strcasestr(text, what) != NULL;
}

/* A CSV line "total,...,<event>,<value>,<state>,..." of the watched command. */
static bool total_of(const char *csv, const char *event, char *value, size_t vlen, char *state,
		     size_t slen)
{
	char key[96];
	snprintf(key, sizeof(key), ",%s,", event);
	for (const char *l = csv; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "total,", 6) != 0)
			continue;
		const char *k = strstr(l, key);
		const char *eol = strchr(l, '\n');
		if (!k || (eol && k > eol))
			continue;
		const char *v = k + strlen(key);
		size_t n = strcspn(v, ",\n");
		snprintf(value, vlen, "%.*s", (int)n, v);
		const char *s = v + n + (v[n] == ',');
		snprintf(state, slen, "%.*s", (int)strcspn(s, ",\n"), s);
		return true;
	}
	return false;
}

static int level_of(void **state)
{
	return (int)(intptr_t)*state;
}

/* Set the level for one test; false when the kernel does not take it (skip). */
static bool set_level(int level)
{
	int ret = write_level(level);
	if (ret == -EINVAL) {
		print_message("  the kernel does not take perf_event_paranoid=%d: skipped\n",
			      level);
		return false;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(read_level(), level);
	return true;
}

static void require_root(void)
{
	if (geteuid() != 0 || saved_level == -100) {
		print_message("  needs root and %s: skipped\n", PARANOID);
		skip();
	}
}

/* The whole machine, as nobody: only nobody's rows, no failure, the notice. */
static void test_system_wide(void **state)
{
	int level = level_of(state);
	require_root();
	if (!set_level(level))
		skip();
	struct allowed al = probe();
	print_message("  paranoid %d: nobody may open user %d, kernel %d, per-CPU %d\n", level,
		      al.user, al.kernel, al.cpu);

	const char *args[] = {"-b", "-n", "2", "-d", "0.2", "--format", "json", NULL};
	int st = run_nobody(args, out, err);
	expect_clean_exit(st, "pmutop -b -n 2 --format json", 0);

	/* Rows: pmutop itself at least, and nobody else's. */
	unsigned rows = 0, foreign = 0, own = 0;
	for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "{\"tick\":", 8) != 0)
			continue;
		const char *eol = strchr(l, '\n');
		const char *u = strstr(l, "\"user\":\"");
		if (!u || (eol && u > eol))
			continue;
		rows++;
		if (strncmp(u + 8, "nobody\"", 7) != 0)
			foreign++;
		const char *c = strstr(l, "\"command\":\"pmutop\"");
		own += c && (!eol || c < eol);
	}
	if (rows == 0 || own == 0 || foreign) {
		print_error("%u rows, %u of pmutop itself, %u of other users:\n%.2000s\n", rows,
			    own, foreign, out);
		fail();
	}

	/* What it can and cannot count, in one notice. */
	const char *n = notice();
	char want[64];
	snprintf(want, sizeof(want), "perf_event_paranoid=%d", level);
	if (!mentions(n, want) || !mentions(n, "cap_perfmon")) {
		print_error("the notice does not name %s and CAP_PERFMON:\n%.2000s\n", want, n);
		fail();
	}
	if (!mentions(n, "your own processes")) {
		print_error("the notice does not say only your own processes count:\n%.2000s\n", n);
		fail();
	}
	if (!al.kernel && !mentions(n, "user mode only")) {
		print_error("kernel mode is not allowed but the notice does not say so:\n%.2000s\n",
			    n);
		fail();
	}
	if (al.kernel && mentions(n, "user mode only")) {
		print_error("kernel mode is allowed but the notice says user mode only:\n%.2000s\n",
			    n);
		fail();
	}
	if (!al.cpu && !mentions(n, "per-CPU")) {
		print_error("per-CPU counting is not allowed but the notice does not say "
			    "so:\n%.2000s\n",
			    n);
		fail();
	}
	if (al.cpu && mentions(n, "no per-CPU")) {
		print_error("per-CPU counting is allowed but the notice says no:\n%.2000s\n", n);
		fail();
	}
}

/* The exact line that gets the rest: "sysctl -w kernel.perf_event_paranoid=N" with N below
 * the level (the same or a higher one changes nothing), or "setcap ... <path of the
 * binary>". */
static bool helpful_line(const char *n, int level)
{
	const char *s = n;
	while ((s = strstr(s, "sysctl -w kernel.perf_event_paranoid="))) {
		s += strlen("sysctl -w kernel.perf_event_paranoid=");
		if (atoi(s) < level)
			return true;
	}
	for (s = n; (s = strcasestr(s, "setcap ")); s++) {
		const char *eol = strpbrk(s, "\n\"");
		const char *b = strstr(s, binary);
		if (b && (!eol || b < eol))
			return true;
	}
	return false;
}

static void test_exact_line(void **state)
{
	int level = level_of(state);
	require_root();
	if (!set_level(level))
		skip();
	const char *args[] = {"-b", "-n", "1", "-d", "0.2", NULL};
	int st = run_nobody(args, out, err);
	expect_clean_exit(st, "pmutop -b -n 1", 0);
	if (!helpful_line(notice(), level)) {
		print_error("no line that helps at perf_event_paranoid=%d (a sysctl line that "
			    "lowers it, or setcap naming %s):\n  %.600s\n",
			    level, binary, notice());
		fail();
	}
	/* A sysctl line that sets the level it already is (or higher) cannot help. */
	char same[80];
	for (int n = level; n <= 3; n++) {
		snprintf(same, sizeof(same), "sysctl -w kernel.perf_event_paranoid=%d", n);
		if (strstr(notice(), same)) {
			print_error("at perf_event_paranoid=%d the notice offers '%s':\n%.600s\n",
				    level, same, notice());
			fail();
		}
	}
}

/* Without kernel mode, the probe of hardware events must ask for user mode only: it read
 * EACCES and showed every hardware column n/a, without the notice root gets for a machine
 * that has no PMU (or with the notice where root counts them). */
static void test_hardware_notice(void **state)
{
	int level = level_of(state);
	require_root();
	if (!set_level(level))
		skip();
	static char rout[OUTCAP], rerr[OUTCAP];
	char *argv[] = {binary,	      (char *)"-b",  (char *)"-n", (char *)"1",
			(char *)"-d", (char *)"0.2", NULL};
	int st = testutil_run(argv, rout, sizeof(rout), rerr, sizeof(rerr));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	const char *args[] = {"-b", "-n", "1", "-d", "0.2", NULL};
	st = run_nobody(args, out, err);
	expect_clean_exit(st, "pmutop -b -n 1", 0);
	bool root_none = strstr(rerr, "no hardware PMU") != NULL;
	bool nobody_none = strstr(notice(), "no hardware PMU") != NULL;
	if (root_none != nobody_none) {
		print_error("root %s 'no hardware PMU', nobody %s:\nroot: %.600s\nnobody: "
			    "%.1200s\n",
			    root_none ? "says" : "does not say", nobody_none ? "does" : "does not",
			    rerr, notice());
		fail();
	}
	/* Batch mode leaves out columns that cannot count anywhere: no hardware pane. */
	if (root_none && strstr(out, "CYCLES")) {
		print_error("no PMU, but nobody's table has hardware columns:\n%.1200s\n", out);
		fail();
	}
}

/* The advice text at each level, without root: only what changes something there. */
static void test_advice_text(void **state)
{
	(void)state;
	char buf[1024];
	struct privs p = {.paranoid = -1, .kernel = true, .cpus = true};
	startup_privs_notice(&p, buf, sizeof(buf));
	assert_null(strstr(buf, "sysctl"));
	assert_non_null(strstr(buf, "setcap cap_perfmon,cap_sys_ptrace+ep /"));
	p.paranoid = 0;
	startup_privs_notice(&p, buf, sizeof(buf));
	assert_null(strstr(buf, "sysctl"));
	p.paranoid = 1, p.cpus = false;
	startup_privs_notice(&p, buf, sizeof(buf));
	assert_non_null(strstr(buf, "sysctl -w kernel.perf_event_paranoid=0 for per-CPU"));
	p.paranoid = 2, p.kernel = false;
	startup_privs_notice(&p, buf, sizeof(buf));
	assert_non_null(strstr(buf, "sysctl -w kernel.perf_event_paranoid=0 for kernel mode"));
	assert_non_null(strstr(buf, "user mode only"));
	p.capable = true;
	startup_privs_notice(&p, buf, sizeof(buf));
	assert_string_equal(buf, "");

	/* -p of another user's process: ptrace rules, which no level lifts; above 2 the
	 * kernel refuses one's own too. */
	struct privs q = {.paranoid = -1, .kernel = true, .cpus = true};
	startup_pid_refusal(&q, 42, buf, sizeof(buf));
	assert_non_null(strstr(buf, "pid 42"));
	assert_null(strstr(buf, "sysctl"));
	assert_null(strstr(buf, "lower"));
	q.paranoid = 2;
	startup_pid_refusal(&q, 42, buf, sizeof(buf));
	assert_null(strstr(buf, "sysctl"));
	q.paranoid = 3;
	startup_pid_refusal(&q, 42, buf, sizeof(buf));
	assert_non_null(strstr(buf, "sysctl -w kernel.perf_event_paranoid=2"));
}

/* A command of its own: counted, user mode only where the kernel says so. */
static void test_own_command(void **state)
{
	int level = level_of(state);
	require_root();
	if (!set_level(level))
		skip();
	struct allowed al = probe();
	const char *args[] = {"-b",
			      "-d",
			      "0.1",
			      "--format",
			      "csv",
			      "-e",
			      "task-clock,page-faults,context-switches",
			      "--",
			      "/bin/sleep",
			      "0.3",
			      NULL};
	int st = run_nobody(args, out, err);
	expect_clean_exit(st, "pmutop -- /bin/sleep 0.3", 0);

	char v[64], s[32];
	if (!al.user) {
		/* Nothing may be opened: every value n/a, and said why, but no failure. */
		if (total_of(out, "task-clock", v, sizeof(v), s, sizeof(s)) && strcmp(s, "n/a")) {
			print_error("task-clock is %s (%s) although the kernel refuses it\n", v, s);
			fail();
		}
		return;
	}
	const char *counted[] = {"task-clock", "page-faults"};
	for (unsigned i = 0; i < 2; i++) {
		if (!total_of(out, counted[i], v, sizeof(v), s, sizeof(s)) || strcmp(s, "exact") ||
		    atof(v) <= 0) {
			print_error("%s of the watched sleep is not counted (value '%s', state "
				    "'%s'):\n%.3000s\nstderr: %.1000s\n",
				    counted[i], v, s, out, err);
			fail();
		}
	}
	assert_true(total_of(out, "context-switches", v, sizeof(v), s, sizeof(s)));
	if (!al.kernel && strcmp(s, "n/a") != 0) {
		/* Switches happen in kernel mode: a user-mode count is a false 0. */
		print_error("context-switches user mode only is '%s' (%s), want n/a\n", v, s);
		fail();
	}
	if (al.kernel && strcmp(s, "exact") != 0) {
		print_error("context-switches may be counted but is '%s' (%s)\n", v, s);
		fail();
	}
}

/* --per-cpu: counted where the kernel allows it, n/a and no failure where not. */
static void test_per_cpu(void **state)
{
	int level = level_of(state);
	require_root();
	if (!set_level(level))
		skip();
	struct allowed al = probe();
	const char *args[] = {"-b", "-n", "1", "-d", "0.2", "--per-cpu", "--format", "csv", NULL};
	int st = run_nobody(args, out, err);
	expect_clean_exit(st, "pmutop --per-cpu", 0);

	unsigned counted = 0, na = 0;
	for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *eol = strchr(l, '\n');
		const char *k = strstr(l, ",cpu,");
		const char *t = strstr(l, ",task-clock,");
		if (!k || !t || (eol && (k > eol || t > eol)))
			continue;
		t += strlen(",task-clock,");
		const char *state_ = t + strcspn(t, ",");
		if (strncmp(state_, ",exact", 6) == 0 || strncmp(state_, ",scaled", 7) == 0)
			counted++;
		else if (strncmp(state_, ",n/a", 4) == 0)
			na++;
	}
	if (al.cpu && (counted == 0 || na)) {
		print_error("per-CPU task-clock may be counted: %u CPUs counted, %u n/a\n", counted,
			    na);
		fail();
	}
	if (!al.cpu && counted) {
		print_error("per-CPU task-clock is refused by the kernel but %u CPUs show a "
			    "count\n",
			    counted);
		fail();
	}
}

/* One test per function and level, named for both. */
#define AT(fn, level)                                                                              \
	{                                                                                          \
#fn "(" #level ")", fn, NULL, NULL, (void *)(intptr_t)(level)                      \
	}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advice_text),
		AT(test_system_wide, -1),
		AT(test_own_command, -1),
		AT(test_per_cpu, -1),
		AT(test_exact_line, -1),
		AT(test_hardware_notice, -1),
		AT(test_system_wide, 0),
		AT(test_own_command, 0),
		AT(test_per_cpu, 0),
		AT(test_exact_line, 0),
		AT(test_hardware_notice, 0),
		AT(test_system_wide, 1),
		AT(test_own_command, 1),
		AT(test_per_cpu, 1),
		AT(test_exact_line, 1),
		AT(test_hardware_notice, 1),
		AT(test_system_wide, 2),
		AT(test_own_command, 2),
		AT(test_per_cpu, 2),
		AT(test_exact_line, 2),
		AT(test_hardware_notice, 2),
		AT(test_system_wide, 3),
		AT(test_own_command, 3),
		AT(test_per_cpu, 3),
		AT(test_exact_line, 3),
		AT(test_hardware_notice, 3),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
