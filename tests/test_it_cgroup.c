/* Every process row knows its cgroup: a child moved into a cgroup this test makes (under
 * the cgroup2 mount mountinfo names) reads that path in CSV and JSON. Root only; the
 * cgroup is removed afterwards, on failure too. */
#include <dirent.h>
#include <errno.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "cgsource.h"
#include "startup.h"
#include "evset.h"
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

/* A fresh cgroup stem-PID under the cgroup2 mount (dir, rel), or false (not root, no
 * cgroup2, a cgroup2 we may not write): the caller skips. */
static bool make_cgroup(const char *stem)
{
	char mnt[512];
	if (geteuid() != 0 || cgroup_mount("", mnt, sizeof(mnt)) != 0)
		return false;
	snprintf(rel, sizeof(rel), "/%s-%d", stem, (int)getpid());
	snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
	if (mkdir(dir, 0755) != 0) {
		dir[0] = '\0';
		return false;
	}
	return true;
}

/* A child in the cgroup (dir), parked until go is written, then touching 300 pages;
 * returned once it is asleep on go (60 s at most): what fork and its start cost (its
 * copy-on-write faults, its switch out) is over before any counter opens. */
static pid_t parked_child(int go[2])
{
	assert_int_equal(pipe(go), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		char ch;
		close(go[1]);
		if (read(go[0], &ch, 1) != 1)
			_exit(1);
		char *p = mmap(NULL, 300 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (int i = 0; i < 300; i++)
			p[(size_t)i * 4096] = 1;
		_exit(0);
	}
	close(go[0]);
	testutil_cgroup_enter(dir, c);
	assert_true(testutil_wait_blocked_in(c, c, SYS_read, 60));
	return c;
}

#define DEADLINE_S 60.0

static char tmpdir[64];

static const char *tmp_file(char *buf, size_t n, const char *name)
{
	if (!*tmpdir) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/pmutop-cgtest-XXXXXX");
		assert_non_null(mkdtemp(tmpdir));
	}
	snprintf(buf, n, "%s/%s", tmpdir, name);
	return buf;
}

/* The parked child goes once pmutop, writing CSV to out, has printed its first block:
 * it counts by then, however long it took to start. */
static void release_when_counting(pid_t m, const char *out, int go)
{
	if (!testutil_wait_tick(m, out, 1, DEADLINE_S))
		fail_msg("pmutop printed no block within %.0f s", DEADLINE_S);
	assert_int_equal(write(go, "x", 1), 1);
	close(go);
}

static void test_rows_know_their_cgroup(void **state)
{
	(void)state;
	if (!make_cgroup("pmutop-test"))
		skip();
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	testutil_cgroup_enter(dir, child);
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", (int)child);
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
	snprintf(want, sizeof(want), ",%s,", rel); /* the wall time follows */
	assert_non_null(strstr(out, "exited,cgroup,wall,at\n"));
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
	if (!make_cgroup("pmutop-rows"))
		skip();
	int go[2];
	child = parked_child(go);
	char pid[16], outf[128], errf[128];
	snprintf(pid, sizeof(pid), "%d", (int)child);
	char *argv[] = {(char *)PMUTOP_BINARY, "-b",	   "-d",  "0.1", "-p",		pid,
			"--cgroups",	       "--format", "csv", "-e",	 "page-faults", NULL};
	pid_t m = testutil_spawn(argv, tmp_file(outf, sizeof(outf), "rows.csv"),
				 tmp_file(errf, sizeof(errf), "rows.err"));
	assert_true(m > 0);
	release_when_counting(m, outf, go[1]);
	/* pmutop ends with the process it watches. */
	int st = testutil_reap(m, DEADLINE_S);
	waitpid(child, NULL, 0);
	child = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *out = testutil_slurp(outf);
	char want[128];
	snprintf(want, sizeof(want), ",cgroup,,,,pmutop-rows-%d,page-faults,", (int)getpid());
	const char *t = strstr(out, "\ntotal,");
	assert_non_null(t);
	const char *line = strstr(t, want);
	if (!line)
		fail_msg("no total cgroup row %s in:\n%.2000s", want, out);
	double v = atof(line + strlen(want));
	/* The child's own stack and exit fault a few more (about 60 under ASan, whose
	 * shadow memory faults too; more under valgrind). */
	if (v < 300 || (v >= 420 && !testutil_under_valgrind()))
		fail_msg("the cgroup counted %.0f page faults, want 300 and a few", v);
	assert_non_null(strstr(line, ",exact,"));
	free(out);
}

/* -G: the cgroup counted itself, per CPU in cgroup mode, as perf stat -a -G: its page
 * faults over the run equal perf stat's over the same window, and the workload's. */
static void test_cgroup_mode_matches_perf(void **state)
{
	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0 || !make_cgroup("pmutop-G"))
		skip();
	/* pmutop -G and perf stat -a -G count at once; the child goes once both count
	 * (pmutop printed a block, perf acknowledged 'enable'), and both stop after it
	 * ended (perf at once, pmutop two blocks later). */
	int go[2];
	child = parked_child(go);
	char outf[128], errf[128];
	char *argv[] = {
		(char *)PMUTOP_BINARY, "-b", "-d", "0.1", "-G", rel + 1, "--format", "csv", "-e",
		"page-faults",	       NULL};
	pid_t m = testutil_spawn(argv, tmp_file(outf, sizeof(outf), "G.csv"),
				 tmp_file(errf, sizeof(errf), "G.err"));
	assert_true(m > 0);
	struct testutil_perf perf;
	const char *pe[] = {"-a", "-G", rel + 1, NULL};
	if (!testutil_perf_start(&perf, tmpdir, "page-faults", pe, DEADLINE_S))
		fail_msg("perf stat -a -G did not start counting");
	release_when_counting(m, outf, go[1]);
	assert_int_equal(waitpid(child, NULL, 0), child);
	child = 0;
	assert_true(testutil_perf_stop(&perf, true, DEADLINE_S));
	double theirs = testutil_perf_value(&perf, "page-faults");
	assert_true(testutil_wait_tick(m, outf, testutil_csv_ticks(outf) + 2, DEADLINE_S));
	kill(m, SIGINT);
	int st = testutil_reap(m, DEADLINE_S);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *out = testutil_slurp(outf);
	double ours = 0;
	unsigned rows = 0;
	char want[160];
	snprintf(want, sizeof(want), ",cgroup,,,,pmutop-G-%d,page-faults,", (int)getpid());
	for (const char *l = strstr(out, want); l; l = strstr(l + 1, want)) {
		ours += atof(l + strlen(want));
		rows++;
	}
	free(out);
	assert_true(rows >= 3);

	/* Under valgrind the parked child (run by valgrind too) faults for valgrind's own work
	 * around its release, which the two windows may see apart: 610 against 609 and 976
	 * against 858 (CI, load 4) seen. Equality is asserted by the plain and busy passes. */
	double slack = testutil_under_valgrind() ? 0.15 * theirs : 0;
	if (ours < 300 || (ours >= 420 && !testutil_under_valgrind()) ||
	    (ours > theirs ? ours - theirs : theirs - ours) > slack)
		fail_msg("-G counted %.0f page faults, perf stat -a -G %.0f; the workload 300 "
			 "and a few",
			 ours, theirs);
}

/* A -G list longer than 1,023 bytes is counted whole (it was cut there without a word: 25
 * of 30 cgroups counted), and more than 64 cgroups are refused in one line. */
static void test_long_cgroup_list(void **state)
{
	(void)state;
	if (!make_cgroup("pmutop-Glong"))
		skip();
	static char list[8192], out[1 << 16], err[1024];
	size_t n = 0;
	for (int i = 0; i < 65; i++) {
		n += (size_t)snprintf(list + n, sizeof(list) - n,
				      "/././././././././././././././././././.%s,", rel);
		if (i != 29)
			continue;
		list[n - 1] = '\0'; /* the 30 first: over 1,023 bytes */
		assert_true(strlen(list) > 1023);
		char *a[] = {(char *)PMUTOP_BINARY,
			     "-b",
			     "-n",
			     "1",
			     "-d",
			     "0.1",
			     "-G",
			     list,
			     "--format",
			     "csv",
			     "-e",
			     "page-faults",
			     NULL};
		int st = testutil_run(a, out, sizeof(out), err, sizeof(err));
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		unsigned rows = 0;
		char *save = NULL; /* a cgroup row's page-faults line each */
		for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			rows += strstr(l, ",cgroup,") && strstr(l, ",page-faults,");
		assert_int_equal(rows, 30);
		list[n - 1] = ',';
	}
	list[n - 1] = '\0';
	char *a[] = {(char *)PMUTOP_BINARY, "-b", "-n", "1", "-d", "0.1", "-G", list, NULL};
	int st = testutil_run(a, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_string_equal(err, "pmutop: -G: 64 cgroups at most (more are listed)\n");
}

/* -G and a pause: what the cgroup counted while paused is never in the interval after the
 * resume (the 300 faults of a child released in the pause, waited for before the
 * resume), which counts from the resume. */
static void test_cgroup_resume_counts_from_resume(void **state)
{
	(void)state;
	if (!make_cgroup("pmutop-pause"))
		skip();
	int go[2];
	child = parked_child(go);
	int cgfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(cgfd >= 0);
	const char *paths[] = {rel};
	struct evset s;
	struct evspec_err perr;
	assert_int_equal(evset_parse(&s, "page-faults", NULL, &perr), 0);
	evset_probe(&s, false);
	struct srcopts o = {.root = "",
			    .scope = SCOPE_CGROUPS,
			    .cgroup_fds = &cgfd,
			    .cgroup_paths = paths,
			    .ncgroups = 1,
			    .interval = 0.1};
	int err;
	struct source *e = cgsource_new(&s, &o, &err);
	assert_non_null(e);
	source_tick(e);
	source_set(e, SRC_PAUSE, true);
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	int st;
	assert_int_equal(waitpid(child, &st, 0), child);
	child = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	source_set(e, SRC_PAUSE, false);
	source_tick(e);
	const struct model *m = source_model(e);
	assert_int_equal(m->nrows, 1);
	assert_int_equal(m->rows[0].kind, ROW_CGROUP);
	assert_int_equal(m->nevents, 1);
	assert_string_equal(m->events[0].key, "page-faults");
	assert_int_equal(m->rows[0].v[0].state, VAL_EXACT);
	if (m->rows[0].v[0].v >= 300)
		fail_msg("the interval after the resume holds %.0f page faults: the pause's 300",
			 m->rows[0].v[0].v);
	source_close(e);
	evset_free(&s);
	close(cgfd);
}

/* A parked forker in the cgroup (dir): released by go, it starts 30 processes at 30 a
 * second, each touching 100 pages, running 5 ms and gone. Returned once asleep on go, as
 * parked_child. */
static pid_t parked_forker(int go[2])
{
	assert_int_equal(pipe(go), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		char ch;
		close(go[1]);
		if (read(go[0], &ch, 1) != 1)
			_exit(1);
		for (int i = 0; i < 30; i++) {
			pid_t k = fork();
			if (k == 0) {
				testutil_touch_pages(100);
				/* And some 5 ms on a CPU, for task-clock to hold more than
				 * the switches' cost. */
				struct timespec t0, t;
				clock_gettime(CLOCK_MONOTONIC, &t0);
				do
					clock_gettime(CLOCK_MONOTONIC, &t);
				while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec -
					       t0.tv_nsec <
				       5000000L);
				_exit(0);
			}
			usleep(33 * 1000);
			/* Reaped at once: gone from /proc before a tick can read it there. */
			waitpid(k, NULL, 0);
		}
		_exit(0);
	}
	close(go[0]);
	testutil_cgroup_enter(dir, c);
	assert_true(testutil_wait_blocked_in(c, c, SYS_read, 60));
	return c;
}

/* One program watching the cgroup: its output so far, and how many of its ticks (pmutop:
 * distinct first fields; perf stat -I: its page-faults lines) it has printed. */
struct watcher {
	const char *name;
	pid_t pid;
	int fd;
	char *out;
	size_t len;
	unsigned ticks;
	double sum[4];	 /* page-faults, task-clock (ms), context switches, cpu-migrations */
	unsigned bad;	 /* rows of the cgroup not exact */
	unsigned unseen; /* of them, partial for a switch not seen (bpf): lower bounds */
	size_t kept;	 /* out[0, kept): complete lines, kept by watcher_keep */
	long kept_tick;	 /* the tick of the last line kept */
	rlim_t nofile;	 /* its descriptor limit (soft and hard), or 0: the test's */
};

static void watcher_start(struct watcher *w, char *const argv[])
{
	int p[2];
	/* Close-on-exec: a later watcher holding this read end would keep a writer that
	 * is stopped from seeing EPIPE. */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	w->pid = fork();
	assert_true(w->pid >= 0);
	if (w->pid == 0) {
		/* A failed assertion leaves the test at once: the watchers end with it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(p[1], 1);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		close(p[0]);
		if (w->nofile) {
			/* By the shell: memcheck refuses a lower hard limit to the test itself. */
			char lim[64], *sh[40] = {"sh", "-c", lim, "sh"};
			snprintf(lim, sizeof(lim), "ulimit -n %lu && exec \"$@\"",
				 (unsigned long)w->nofile);
			for (unsigned k = 0; argv[k] && k < 35; k++)
				sh[4 + k] = argv[k];
			execvp(sh[0], sh);
			_exit(127);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	w->fd = p[0];
	w->out = calloc(1, 1 << 22);
	assert_non_null(w->out);
	w->len = 0;
	w->ticks = 0;
	w->kept = 0;
	w->kept_tick = -1;
}

static bool is_perf(const struct watcher *w)
{
	return strcmp(w->name, "perf stat") == 0;
}

/* pmutop's output from kept on: its complete lines moved down to kept, but the rows of
 * processes and threads after a tick's first line (the ticks are counted from lines, the
 * sums from cgroup rows): a machine running thousands of other processes would fill the
 * buffer in a few ticks. */
static void watcher_keep(struct watcher *w)
{
	char *end = strrchr(w->out + w->kept, '\n');
	if (is_perf(w) || !end)
		return;
	char *to = w->out + w->kept;
	for (char *l = to; l <= end;) {
		char *nl = strchr(l, '\n');
		size_t n = (size_t)(nl - l) + 1;
		long tick = atol(l);
		const char *kind = l;
		for (int k = 0; k < 3 && kind; k++)
			kind = memchr(kind, ',', (size_t)(nl - kind)) ? strchr(kind, ',') + 1
								      : NULL;
		bool row = kind &&
			   (strncmp(kind, "process,", 8) == 0 || strncmp(kind, "thread,", 7) == 0);
		if (!row || tick != w->kept_tick) {
			memmove(to, l, n);
			to += n;
			w->kept_tick = tick;
		}
		l = nl + 1;
	}
	size_t rest = w->len - (size_t)(end + 1 - w->out);
	memmove(to, end + 1, rest);
	w->kept = (size_t)(to - w->out);
	w->len = w->kept + rest;
	w->out[w->len] = '\0';
}

static void watcher_count(struct watcher *w)
{
	unsigned n = 0;
	long last = -1;
	for (const char *l = w->out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		if (is_perf(w))
			n += strncmp(l, "#", 1) != 0 && strstr(l, "page-faults") &&
			     strstr(l, "page-faults") < strchr(l, '\n');
		else if (atol(l) > 0 && atol(l) != last)
			n++, last = atol(l);
	}
	w->ticks = n;
}

/* Read what the watchers printed until each has printed want[i] ticks and reap (when
 * not 0) has ended, with a generous deadline (60 s). Returns reap's wait status. */
static int watchers_wait(struct watcher *w, unsigned n, const unsigned *want, pid_t reap)
{
	int st = 0;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (t = t0; t.tv_sec - t0.tv_sec < 60; clock_gettime(CLOCK_MONOTONIC, &t)) {
		if (reap > 0 && waitpid(reap, &st, WNOHANG) == reap)
			reap = 0;
		bool all = reap <= 0;
		for (unsigned i = 0; i < n; i++)
			all = all && w[i].ticks >= want[i];
		if (all)
			return st;
		struct pollfd pf[8];
		for (unsigned i = 0; i < n; i++)
			pf[i] = (struct pollfd){.fd = w[i].fd, .events = POLLIN};
		poll(pf, n, 100);
		for (unsigned i = 0; i < n; i++) {
			if (!(pf[i].revents & (POLLIN | POLLHUP)))
				continue;
			ssize_t k = read(w[i].fd, w[i].out + w[i].len, (1 << 22) - 1 - w[i].len);
			if (k <= 0)
				fail_msg("%s ended early:\n%.2000s", w[i].name, w[i].out);
			w[i].len += (size_t)k;
			w[i].out[w[i].len] = '\0';
			watcher_keep(&w[i]);
			watcher_count(&w[i]);
		}
	}
	for (unsigned i = 0; i < n; i++)
		print_message("%s: %u ticks of %u\n%.1000s\n", w[i].name, w[i].ticks, want[i],
			      w[i].out);
	fail_msg("the watchers printed too few ticks in 60 s");
	return -1;
}

/* The workload (child) ends well, each watcher prints three more ticks (its counts are
 * in), then they end. No more is read: a watcher blocked writing into its full pipe reads
 * no signal (pmutop takes them from a signalfd between ticks) until the pipe is closed. */
static void watchers_finish(struct watcher *w, unsigned n)
{
	unsigned want[8] = {0};
	int st = watchers_wait(w, n, want, child);
	child = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (unsigned i = 0; i < n; i++)
		want[i] = w[i].ticks + 3;
	watchers_wait(w, n, want, 0);
	for (unsigned i = 0; i < n; i++) {
		kill(w[i].pid, SIGINT);
		close(w[i].fd);
	}
	for (unsigned i = 0; i < n; i++)
		waitpid(w[i].pid, NULL, 0);
}

/* Line l split at its commas in place: its first 16 fields into f, their count. */
static unsigned csv_split(char *l, char *f[16])
{
	unsigned nf = 0;
	for (char *p = l; nf < 16; p++) {
		f[nf++] = p;
		if (!(p = strchr(p, ',')))
			break;
		*p = '\0';
	}
	return nf;
}

static bool within(double v, double truth, double share, double abs)
{
	double d = v > truth ? v - truth : truth - v;
	return d <= share * truth + abs;
}

/* The cgroup's page faults, task-clock (ms), context switches and cpu-migrations over
 * every tick w printed. */
/* Where event name goes in a watcher's sums, 4 for none. */
static unsigned ev_slot(const char *name)
{
	static const char *const ev[4] = {"page-faults", "task-clock", "context-switches",
					  "cpu-migrations"};
	unsigned i = 0;
	while (i < 4 && strcmp(name, ev[i]) != 0)
		i++;
	return i;
}

static void watcher_sum(struct watcher *w)
{
	char cg[80];
	snprintf(cg, sizeof(cg), ",%s\n", rel);
	w->sum[0] = w->sum[1] = w->sum[2] = w->sum[3] = 0;
	w->bad = w->unseen = 0;
	for (char *l = w->out; *l;) {
		char *nl = strchr(l, '\n');
		if (!nl)
			break;
		*nl = '\0';
		char *f[16] = {0};
		unsigned nf = csv_split(l, f);
		if (is_perf(w) && nf >= 5 && strstr(f[4], rel + 1) && ev_slot(f[3]) < 4) {
			/* time,value,unit,event,cgroup,... */
			w->sum[ev_slot(f[3])] += atof(f[1]);
		} else if (!is_perf(w) && nf >= 15 && strcmp(f[3], "cgroup") == 0 &&
			   strcmp(f[14], rel) == 0 && ev_slot(f[8]) < 4) {
			bool tc = ev_slot(f[8]) == 1;
			w->sum[ev_slot(f[8])] += atof(f[9]) / (tc ? 1e6 : 1);
			bool unseen = strcmp(f[10], "partial") == 0 &&
				      strcmp(f[12], "switch not seen") == 0;
			w->unseen += unseen;
			w->bad += strcmp(f[10], "exact") != 0 && !unseen;
		}
		l = nl + 1;
	}
}

/* The exporter's pmutop_cgroup_events_total for the cgroup and event (task-clock:
 * pmutop_cgroup_clock_seconds_total, as nanoseconds), or -1 when it has none (yet). */
static double exported(unsigned port, const char *event)
{
	char cmd[256], want[256], line[1024];
	bool clock = strcmp(event, "task-clock") == 0;
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 2 http://127.0.0.1:%u/metrics", port);
	snprintf(want, sizeof(want), "pmutop_cgroup_%s_total{cgroup=\"%s\",event=\"%s\"} ",
		 clock ? "clock_seconds" : "events", rel, event);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	double v = -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, want, strlen(want)) == 0)
			v = atof(line + strlen(want)) * (clock ? 1e9 : 1);
	pclose(f);
	return v;
}

/* pmutop --cgroups under backend, CSV every 0.25 s, counting ev: into a[CG_ARGS]. */
#define CG_ARGS 14
static void cgroups_args(char *a[CG_ARGS], const char *backend, char *ev)
{
	char *x[CG_ARGS] = {(char *)PMUTOP_BINARY,
			    "-b",
			    "-d",
			    "0.25",
			    "-n",
			    "100000",
			    "--cgroups",
			    "--backend",
			    (char *)backend,
			    "--format",
			    "csv",
			    "-e",
			    ev,
			    NULL};
	memcpy(a, x, sizeof(x));
}

/* The tasks on the machine now (threads included), as /proc/loadavg counts them. */
static unsigned machine_tasks(void)
{
	unsigned n = 0;
	FILE *f = fopen("/proc/loadavg", "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%*f %*f %*f %*u/%u", &n), 1);
	fclose(f);
	return n;
}

/* Does --backend bpf count here (BTF, privileges)? */
static bool bpf_works(void)
{
	char *probe[] = {(char *)PMUTOP_BINARY, "-b",  "-n", "1",	   "-d", "0.1",
			 "--backend",		"bpf", "-e", "task-clock", NULL};
	static char out[1 << 16], err[4096];
	int st = testutil_run(probe, out, sizeof(out), err, sizeof(err));
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Short-lived processes count in their cgroup's row: 30 processes a second, each gone
 * within a tick, counted by --cgroups under perf and under bpf, by a recording (perf)
 * replayed with --cgroups, by -G and by perf stat -a -G, all watching the same workload
 * at once. */
static void test_short_lived_count(void **state)
{
	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0 || !make_cgroup("pmutop-fork"))
		skip();
	static char err[4096];
	int st;
	bool bpf = bpf_works();
	int go[2];
	child = parked_forker(go);
	/* cpu-migrations under bpf, --cgroups under perf and perf stat; the perf per-task
	 * watchers count with 3 (on a machine with more tasks than their descriptors, the
	 * tasks' rows read n/c (fd limit)). */
	char *ev = "page-faults,task-clock,context-switches";
	char *ev4 = "page-faults,task-clock,context-switches,cpu-migrations";
	char *cgr[CG_ARGS], *cgb[CG_ARGS];
	cgroups_args(cgr, "perf", ev4);
	cgroups_args(cgb, "bpf", ev4);
	char *gm[] = {(char *)PMUTOP_BINARY,
		      "-b",
		      "-d",
		      "0.25",
		      "-n",
		      "100000",
		      "-G",
		      rel + 1,
		      "--format",
		      "csv",
		      "-e",
		      ev,
		      NULL};
	char gg[300];
	snprintf(gg, sizeof(gg), "%s,%s,%s,%s", rel + 1, rel + 1, rel + 1, rel + 1);
	char *ps[] = {"perf", "stat", "-a",  "-e", ev4,		  "-G", gg,
		      "-x,",  "-I",   "250", "-o", "/dev/stdout", NULL};
	/* And a recording under perf (no --cgroups), replayed with --cgroups after. */
	char rec[128];
	snprintf(rec, sizeof(rec), "/tmp/pmutop-cgfork-%d.pmutop", (int)getpid());
	unlink(rec);
	char *rw[] = {(char *)PMUTOP_BINARY,
		      "-b",
		      "-d",
		      "0.25",
		      "-n",
		      "100000",
		      "--backend",
		      "perf",
		      "--format",
		      "csv",
		      "-e",
		      ev,
		      "-w",
		      rec,
		      NULL};
	struct watcher w[5] = {{.name = "perf stat"},
			       {.name = "-G"},
			       {.name = "--backend perf"},
			       {.name = "-w, replayed"},
			       {.name = "--backend bpf"}};
	unsigned n = bpf ? 5 : 4;
	/* --cgroups under perf with descriptors for half the tasks' counters: its cgroup's
	 * come first, the least busy tasks give theirs up. */
	w[2].nofile = (rlim_t)machine_tasks() * 2 + 256;
	watcher_start(&w[0], ps);
	watcher_start(&w[1], gm);
	watcher_start(&w[2], cgr);
	watcher_start(&w[3], rw);
	if (bpf)
		watcher_start(&w[4], cgb);
	/* And /metrics under perf, where curl can read it. */
	unsigned port = access("/usr/bin/curl", X_OK) == 0 ? testutil_free_port() : 0;
	char listen[32];
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
	char *lp[] = {(char *)PMUTOP_BINARY,
		      "--listen",
		      listen,
		      "--backend",
		      "perf",
		      "-d",
		      "0.25",
		      "-e",
		      ev,
		      NULL};
	pid_t lpid = port ? fork() : -1;
	if (lpid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execv(lp[0], lp);
		_exit(127);
	}
	unsigned want[5] = {2, 2, 2, 2, 2};
	watchers_wait(w, n, want, 0);
	/* Its cgroup series is there (the parked forker's process): it counts. */
	for (int k = 0; lpid > 0 && k < 600 && exported(port, "page-faults") < 0; k++)
		usleep(100 * 1000);
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	watchers_finish(w, n);
	char *rp[] = {(char *)PMUTOP_BINARY, "-r", rec, "-b", "--cgroups", "--format", "csv", NULL};
	st = testutil_run(rp, w[3].out, 1 << 22, err, sizeof(err));
	unlink(rec);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("the replay failed: %s", err);
	for (unsigned i = 0; i < n; i++)
		watcher_sum(&w[i]);
	const struct watcher *truth = &w[0];
	char msg[2048];
	int at = 0;
	for (unsigned i = 0; i < n; i++)
		at += snprintf(
			msg + at, sizeof(msg) - (size_t)at,
			"%s: %.0f page faults, %.1f ms task-clock, %.0f context switches, %.0f "
			"migrations, %u rows not exact, %u partial (a switch not seen)\n",
			w[i].name, w[i].sum[0], w[i].sum[1], w[i].sum[2], w[i].sum[3], w[i].bad,
			w[i].unseen);
	bool ok = truth->sum[0] >= 3000 && truth->sum[1] > 0;
	for (unsigned i = 1; i < n; i++) {
		/* Page faults: the same events of the same tasks, 1% for the target's sake.
		 * task-clock: -G and perf count it as perf stat does; the bpf backend's: its
		 * tasks' slices, each from the switch that brought it in, which -G counts in
		 * the cgroup and perf -p in no task, read a little above -G (pmutop(1),
		 * docs/PERFORMANCE.md): 1% below, 2.5% above. Context switches under bpf:
		 * equal. Migrations (bpf, against perf stat): equal but for the first slice
		 * of the forker (there before pmutop): its wake by go may migrate it, which
		 * perf counts as it switches in, and the program takes its base as that slice
		 * ends: at most one short (pmutop(1)). */
		double f = w[i].sum[0], t = w[i].sum[1];
		double tmin = 0.99, tmax = i == 4 ? 1.025 : 1.01;
		/* A row partial for a switch this kernel did not report (bpf) is a lower
		 * bound short of the slices it cut: a few of some hundred here, 5% allowed. */
		double fmin = w[i].unseen ? 0.95 : 0.99;
		ok = ok && w[i].bad == 0 && f >= fmin * truth->sum[0] &&
		     f <= 1.01 * truth->sum[0] &&
		     t >= (w[i].unseen ? fmin : tmin) * truth->sum[1] &&
		     t <= tmax * truth->sum[1] &&
		     within(w[i].sum[2], truth->sum[2], i == 4 ? 0 : 0.01, i == 4 ? 0 : 3) &&
		     (i == 1 || i == 3 ||
		      (w[i].sum[3] <= truth->sum[3] && w[i].sum[3] >= truth->sum[3] - (i == 4)));
	}
	/* /metrics: its total since it started, once it has the workload's (generous
	 * deadline: 60 s), equal to perf stat's as the rows are. */
	double xf = -1, xt = -1;
	for (int k = 0; lpid > 0 && k < 600; k++) {
		xf = exported(port, "page-faults");
		xt = exported(port, "task-clock") / 1e6;
		if (xf >= 0.99 * truth->sum[0] && xt >= 0.99 * truth->sum[1])
			break;
		usleep(100 * 1000);
	}
	if (lpid > 0) {
		kill(lpid, SIGTERM);
		waitpid(lpid, NULL, 0);
		at += snprintf(msg + at, sizeof(msg) - (size_t)at,
			       "/metrics: %.0f page faults, %.1f ms task-clock\n", xf, xt);
		ok = ok && xf >= 0.99 * truth->sum[0] && xf <= 1.01 * truth->sum[0] &&
		     xt >= 0.99 * truth->sum[1] && xt <= 1.01 * truth->sum[1];
	}
	for (unsigned i = 0; i < n; i++)
		free(w[i].out);
	if (!ok)
		fail_msg("the forking cgroup, side by side:\n%s", msg);
	print_message("%s", msg);
}

/* A worker's steps, each begun by a byte on go: 300 pages and 100 sleeps (in its first
 * cgroup), one wake (moved), 300 pages and 100 sleeps again (in its second), then it
 * ends. */
static pid_t stepped_worker(int go[2])
{
	assert_int_equal(pipe(go), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(go[1]);
		char ch;
		for (int step = 0; step < 3; step++) {
			if (read(go[0], &ch, 1) != 1)
				_exit(1);
			if (step == 1)
				continue;
			testutil_touch_pages(300);
			for (int i = 0; i < 100; i++)
				usleep(1000);
		}
		_exit(0);
	}
	close(go[0]);
	return c;
}

/* The sums of cgroup cg's page faults and context switches in w's output ([0], [1]);
 * rows n/c while a cgroup's counters start are left out, any other not exact counted in
 * *bad. */
static void moved_sum(const struct watcher *w, const char *cg, double sum[2], unsigned *bad,
		      unsigned *unseen)
{
	sum[0] = sum[1] = 0;
	char *copy = strdup(w->out);
	assert_non_null(copy);
	for (char *l = copy, *nl; *l && (nl = strchr(l, '\n')); l = nl + 1) {
		*nl = '\0';
		char *f[16] = {0};
		unsigned nf = csv_split(l, f);
		if (is_perf(w) && nf >= 5 && strcmp(f[4], cg + 1) == 0) {
			sum[strcmp(f[3], "context-switches") == 0] += atof(f[1]);
		} else if (!is_perf(w) && nf >= 15 && strcmp(f[3], "cgroup") == 0 &&
			   strcmp(f[14], cg) == 0 &&
			   (strcmp(f[8], "page-faults") == 0 ||
			    strcmp(f[8], "context-switches") == 0)) {
			if (strcmp(f[10], "n/c") == 0 && strcmp(f[12], "starting") == 0)
				continue;
			sum[strcmp(f[8], "context-switches") == 0] += atof(f[9]);
			/* Partial for a switch this kernel did not report (bpf, before its
			 * arrival program is attached at the tick after the first): a lower
			 * bound, as test_short_lived_count reads it. */
			bool part = strcmp(f[10], "partial") == 0 &&
				    strcmp(f[12], "switch not seen") == 0;
			*unseen += part;
			*bad += strcmp(f[10], "exact") != 0 && !part;
		}
	}
	free(copy);
}

/* Has w printed a row of cgroup cg? */
static bool has_cgroup_row(const struct watcher *w, const char *cg)
{
	char want[160];
	snprintf(want, sizeof(want), ",%s,", cg);
	for (const char *l = w->out; (l = strstr(l, want)); l++)
		if (l[strlen(want)] >= '0' && l[strlen(want)] <= '9') /* wall after the cgroup */
			return true;
	return false;
}

/* A process moved to another cgroup (cgroup.procs, as systemd and container runtimes do)
 * counts there from the tick after it ran there: --cgroups under bpf and under perf, side
 * by side with perf stat -a -G on both cgroups (issue 36). Each cgroup's page faults and
 * context switches equal -G's, 1% and the few switches of the wake that moved it. */
static void test_moved_process(void **state)
{
	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0 || !make_cgroup("pmutop-mvb"))
		skip();
	char a_dir[600], a_rel[64];
	snprintf(a_dir, sizeof(a_dir), "%s", dir);
	snprintf(a_rel, sizeof(a_rel), "%s", rel);
	if (!make_cgroup("pmutop-mva")) {
		rmdir(a_dir);
		skip();
	}
	char b_dir[600], b_rel[64];
	snprintf(b_dir, sizeof(b_dir), "%s", a_dir); /* the first made: moved into */
	snprintf(b_rel, sizeof(b_rel), "%s", a_rel);
	snprintf(a_dir, sizeof(a_dir), "%s", dir);
	snprintf(a_rel, sizeof(a_rel), "%s", rel);
	bool bpf = bpf_works();
	int go[2];
	child = stepped_worker(go);
	testutil_cgroup_enter(a_dir, child);
	/* Its start (a fork's copy-on-write faults, its first switch out) over before any
	 * count below begins: each counts from its own start. */
	assert_true(testutil_wait_blocked_in(child, child, SYS_read, 60));
	char *ev = "page-faults,context-switches";
	char *cgp[CG_ARGS], *cgb[CG_ARGS];
	cgroups_args(cgp, "perf", ev);
	cgroups_args(cgb, "bpf", ev);
	char gg[300];
	snprintf(gg, sizeof(gg), "%s,%s,%s,%s", a_rel + 1, a_rel + 1, b_rel + 1, b_rel + 1);
	char *ps[] = {"perf",
		      "stat",
		      "-a",
		      "-e",
		      "page-faults,context-switches,page-faults,context-switches",
		      "-G",
		      gg,
		      "-x,",
		      "-I",
		      "250",
		      "-o",
		      "/dev/stdout",
		      NULL};
	struct watcher w[3] = {
		{.name = "perf stat"}, {.name = "--backend perf"}, {.name = "--backend bpf"}};
	unsigned n = bpf ? 3 : 2;
	for (unsigned i = 0; i < n; i++)
		watcher_start(&w[i], i == 0 ? ps : i == 1 ? cgp : cgb);
	unsigned want[3] = {2, 2, 2};
	watchers_wait(w, n, want, 0);
	assert_int_equal(write(go[1], "x", 1), 1); /* in a */
	/* Asleep in a, its counts printed: moved, then woken once. */
	for (int k = 0; k < 600; k++) {
		char path[700];
		snprintf(path, sizeof(path), "/proc/%d/wchan", (int)child);
		char *wc = testutil_slurp(path);
		bool waits = wc && strstr(wc, "pipe_read");
		free(wc);
		if (waits)
			break;
		usleep(100 * 1000);
	}
	for (unsigned i = 0; i < n; i++)
		want[i] = w[i].ticks + 3;
	watchers_wait(w, n, want, 0);
	testutil_cgroup_enter(b_dir, child);
	assert_int_equal(write(go[1], "x", 1), 1);
	/* Each pmutop has a row for b, counting (a tick after it first had one). */
	for (unsigned i = 0; i < n; i++)
		want[i] = w[i].ticks + 1;
	for (int k = 0; k < 600; k++) {
		watchers_wait(w, n, want, 0);
		bool all = true;
		for (unsigned i = 1; i < n; i++)
			all = all && has_cgroup_row(&w[i], b_rel);
		if (all)
			break;
		for (unsigned i = 0; i < n; i++)
			want[i] = w[i].ticks + 1;
	}
	for (unsigned i = 0; i < n; i++)
		want[i] = w[i].ticks + 2;
	watchers_wait(w, n, want, 0);
	assert_int_equal(write(go[1], "x", 1), 1); /* in b */
	close(go[1]);
	watchers_finish(w, n);
	rmdir(a_dir);
	rmdir(b_dir);
	char msg[1024];
	int at = 0;
	bool ok = true;
	double truth[2][2];
	unsigned bad = 0, unseen = 0;
	moved_sum(&w[0], a_rel, truth[0], &bad, &unseen);
	moved_sum(&w[0], b_rel, truth[1], &bad, &unseen);
	for (unsigned i = 0; i < n; i++) {
		double s[2][2];
		unsigned nbad = 0, nunseen = 0;
		moved_sum(&w[i], a_rel, s[0], &nbad, &nunseen);
		moved_sum(&w[i], b_rel, s[1], &nbad, &nunseen);
		at += snprintf(msg + at, sizeof(msg) - (size_t)at,
			       "%s: a %.0f page faults, %.0f switches; b %.0f, %.0f; %u rows not "
			       "exact, %u partial (a switch not seen)\n",
			       w[i].name, s[0][0], s[0][1], s[1][0], s[1][1], nbad, nunseen);
		ok = ok && nbad == 0;
		/* A partial row is a lower bound short of the slices it cut: 5% allowed
		 * below, as test_short_lived_count allows. */
		double below = nunseen ? 0.05 : 0.01;
		for (int c = 0; c < 2; c++)
			ok = ok && s[c][0] >= (1 - below) * truth[c][0] &&
			     s[c][0] <= 1.01 * truth[c][0] &&
			     s[c][1] >= (1 - below) * truth[c][1] - 4 &&
			     s[c][1] <= 1.01 * truth[c][1] + 4;
	}
	ok = ok && truth[0][0] >= 300 && truth[1][0] >= 300 && truth[0][1] >= 100 &&
	     truth[1][1] >= 100;
	for (unsigned i = 0; i < n; i++)
		free(w[i].out);
	dir[0] = '\0';
	if (!ok)
		fail_msg("a process moved from a to b, side by side:\n%s", msg);
	print_message("%s", msg);
}

/* -- COMMAND: the command's rows carry its cgroup, and after it moved and exec'd (as a
 * service manager's start does) the new one. Before, its own process row had none. */
static void test_command_rows_know_their_cgroup(void **state)
{
	(void)state;
	if (!make_cgroup("pmutop-cmd"))
		skip();
	char script[800];
	snprintf(script, sizeof(script), "echo $$ > %s/cgroup.procs && exec sleep 0.6", dir);
	char *argv[] = {(char *)PMUTOP_BINARY, "-b", "-d", "0.1", "--format", "csv", "-e",
			"task-clock",	       "--", "sh", "-c",  script,     NULL};
	static char out[1 << 17], err[4096];
	int st = testutil_run(argv, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	unsigned rows = 0;
	for (const char *l = strstr(out, "\n"); l && l[1]; l = strchr(l + 1, '\n')) {
		const char *nl = strchr(l + 1, '\n');
		if (!nl)
			break;
		if (strstr(l, ",process,") && strstr(l, ",process,") < nl) {
			rows++;
			if (nl[-1] == ',')
				fail_msg("a process row of the command without its cgroup:\n%.*s",
					 (int)(nl - l - 1), l + 1);
		}
	}
	assert_true(rows > 0);
	char want[128];
	snprintf(want, sizeof(want), ",sleep,task-clock,");
	const char *t = strstr(out, "\ntotal,");
	assert_non_null(t);
	const char *line = strstr(t, want);
	assert_non_null(line);
	snprintf(want, sizeof(want), ",%s,", rel); /* the wall time follows */
	const char *nl = strchr(line, '\n'), *cgf = strstr(line, want);
	assert_non_null(nl);
	if (!cgf || cgf > nl)
		fail_msg("the command's total row after its move and exec: %.*s, want %s",
			 (int)(nl - line), line, rel);
}

static const struct mrow *cg_row(const struct model *m, const char *path)
{
	for (unsigned i = 0; i < m->ncg_rows; i++)
		if (strcmp(m->cg_rows[i].cgroup, path) == 0)
			return &m->cg_rows[i];
	return NULL;
}

/* Descriptors open below limit (valgrind keeps its own above the limit it shows). */
static unsigned open_fds(rlim_t limit)
{
	unsigned n = 0;
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	for (struct dirent *de; (de = readdir(d));)
		n += de->d_name[0] != '.' && (rlim_t)atol(de->d_name) < limit;
	closedir(d);
	return n - 1; /* the listing's own */
}

/* The perf engine's cgroup rows out of descriptors: a cgroup shown then (G pressed) takes
 * its descriptors from the least busy tasks (theirs read n/c (fd limit) from then), n/c
 * (starting) for the interval its counters opened in, then its process's page faults,
 * exactly as many. The process is found first, with descriptors: other tasks born
 * meanwhile may take the last ones, and a process must be found for its cgroup to be. */
static void test_cgroup_rows_fd_limit(void **state)
{
	(void)state;
	if (!make_cgroup("pmutop-fd"))
		skip();
	struct evset s;
	struct evspec_err perr;
	assert_int_equal(evset_parse(&s, "page-faults", NULL, &perr), 0);
	evset_probe(&s, false);
	struct srcopts o = {.root = "", .scope = SCOPE_ALL, .no_cpu_rows = true, .interval = 0.1};
	int err;
	struct engine *e = engine_new(&s, &o, &err);
	assert_non_null(e);
	int go[2];
	child = parked_child(go);
	engine_rescan(e);
	engine_tick(e);
	const struct model *m = engine_model(e);
	bool found = false;
	for (unsigned i = 0; i < m->nrows; i++)
		found = found || (m->rows[i].pid == child && m->rows[i].cgroup &&
				  strcmp(m->rows[i].cgroup, rel) == 0);
	if (!found)
		fail_msg("no row of process %d in %s", (int)child, rel);
	assert_int_equal(m->ncg_rows, 0); /* not asked for */
	struct rlimit was, now;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &was), 0);
	now = was;
	/* None free, even with the reserve the engine keeps for /proc given back: not the one
	 * listing /proc/self/fd would take (tasks born since a count take the last ones so,
	 * as other tests' tasks did in CI's valgrind pass). */
	now.rlim_cur = open_fds(was.rlim_cur) - 1;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &now), 0);
	engine_set_cgroup_rows(e, true);
	engine_tick(e);
	const struct mrow *r = cg_row(engine_model(e), rel);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &was), 0);
	if (!r)
		fail_msg("no row for %s out of descriptors", rel);
	assert_int_equal(r->v[0].state, VAL_NC);
	assert_int_equal(r->v[0].why, WHY_STARTING);
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	int st;
	assert_int_equal(waitpid(child, &st, 0), child);
	child = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	engine_tick(e);
	r = cg_row(engine_model(e), rel);
	assert_non_null(r);
	assert_int_equal(r->v[0].state, VAL_EXACT);
	/* Its 300 pages, and the few its exit faults (as test_cgroup_rows). */
	if (r->v[0].v < 300 || (r->v[0].v >= 420 && !testutil_under_valgrind()))
		fail_msg("the cgroup counted %.0f page faults, want 300 and a few", r->v[0].v);
	engine_free(e);
	evset_free(&s);
}

/* A cgroup removed right after its last process ended: its last interval still counts
 * (its counters are read before they close), and then it has no row. */
static void test_cgroup_rows_removed(void **state)
{
	(void)state;
	if (!make_cgroup("pmutop-rm"))
		skip();
	struct evset s;
	struct evspec_err perr;
	assert_int_equal(evset_parse(&s, "page-faults", NULL, &perr), 0);
	evset_probe(&s, false);
	int go[2];
	child = parked_child(go);
	struct srcopts o = {.root = "",
			    .scope = SCOPE_ALL,
			    .cgroup_rows = true,
			    .no_cpu_rows = true,
			    .interval = 0.1};
	int err;
	struct engine *e = engine_new(&s, &o, &err);
	assert_non_null(e);
	engine_tick(e);
	const struct mrow *r = cg_row(engine_model(e), rel);
	if (!r)
		fail_msg("no row for %s, which holds process %d", rel, (int)child);
	assert_int_equal(r->v[0].state, VAL_EXACT); /* opened before the baseline */
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	int st;
	assert_int_equal(waitpid(child, &st, 0), child);
	child = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(rmdir(dir), 0);
	dir[0] = '\0';
	engine_tick(e);
	r = cg_row(engine_model(e), rel);
	assert_non_null(r);
	assert_int_equal(r->v[0].state, VAL_EXACT);
	if (r->v[0].v < 300 || (r->v[0].v >= 420 && !testutil_under_valgrind()))
		fail_msg("the removed cgroup counted %.0f page faults, want 300 and a few",
			 r->v[0].v);
	engine_tick(e);
	assert_null(cg_row(engine_model(e), rel));
	engine_free(e);
	evset_free(&s);
}

static int remove_tmpdir(void **state)
{
	(void)state;
	if (*tmpdir) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		return system(cmd) == 0 ? 0 : -1;
	}
	return 0;
}

int main(void)
{
	/* PMUTOP_TEST_ONLY=test_cgroup_rows* runs the tests that match. */
	if (getenv("PMUTOP_TEST_ONLY"))
		cmocka_set_test_filter(getenv("PMUTOP_TEST_ONLY"));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rows_know_their_cgroup, teardown),
		cmocka_unit_test_teardown(test_cgroup_rows, teardown),
		cmocka_unit_test_teardown(test_cgroup_mode_matches_perf, teardown),
		cmocka_unit_test_teardown(test_long_cgroup_list, teardown),
		cmocka_unit_test_teardown(test_cgroup_resume_counts_from_resume, teardown),
		cmocka_unit_test_teardown(test_short_lived_count, teardown),
		cmocka_unit_test_teardown(test_moved_process, teardown),
		cmocka_unit_test_teardown(test_command_rows_know_their_cgroup, teardown),
		cmocka_unit_test_teardown(test_cgroup_rows_fd_limit, teardown),
		cmocka_unit_test_teardown(test_cgroup_rows_removed, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, remove_tmpdir);
}
