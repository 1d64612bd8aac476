/* The differential truth suite (issue 25): each counting path of the real binary side by
 * side with perf stat over the same window, on a workload made for it, and the recorder,
 * the replay and the exporter against the same truth.
 *
 * Windows are aligned without any assumption about speed: perf stat starts disabled
 * (-D -1) and is enabled and disabled through its control fifo (it acknowledges each);
 * pmutop counts from before the workload starts (its first block is printed) until after
 * it ended (two more blocks), and the workload runs only between the two, in a cgroup or
 * a process nothing else uses. Every wait has a generous deadline (DEADLINE_S).
 *
 * Tolerances, and why:
 * - page faults of an idle cgroup or of one process: both tools count the same kernel
 *   event of the same tasks over a window holding all of them, so they agree exactly;
 *   1% (the bar) leaves room for nothing but a defect, --cgroups through the
 *   default (bpf) backend included (before issue 25, 90% and more were missed).
 * - a command's whole-run page faults (-- COMMAND): two runs of the same program differ
 *   by what address-space randomisation makes the loader fault, a few dozen of 20,000:
 *   2%. A command counted alone (no children) is about 1% of it.
 * - task-clock of a task switching ~2,000 times a second beside a busy loop: perf stat
 *   reads the kernel's task clock where perf switches the task's counters, the bpf
 *   backend from the switch that brings the task in to the switch that takes it out
 *   (docs/PERFORMANCE.md, issue 40): perf switches it in later than that, after the
 *   switch's work, and out a little later too, so bpf reads a little more (0.35-0.7 us a
 *   switch quiet and beside two spinners, 1.1 us in CI's sanitizer pass: +1.0% of slices
 *   of 100 us; the task here, at the 2,000 switches a second, works 150 us a
 *   slice). perf: 5%. bpf: 1% above, 0.2% below (the reads' rounding). The defects it
 *   must catch are switches not seen landing on it (+36-60%), any loss, and the slice
 *   begun at the end of __schedule again (-0.4..-1.0%: the 0.2% catches most such runs).
 * - context switches of that task: counted at the same switches: perf 1% + 2, bpf
 *   exactly.
 * - a forking command's cpu-migrations (perf stat inside the tree): perf counts a
 *   migration as the task switches in, the kernel's se.nr_migrations as it is moved;
 *   pmutop's total holds perf stat's own process too, which perf does not count: 0-4
 *   above seen (quiet and beside two spinners, 45-154 migrations): 2 below, 8 above.
 *   The defects it must catch read 20-70% off: an exiting task's last migration lost
 *   (12-20 of 53-64), its migrations after perf closed its counters counted (+20-30%).
 *   A run where perf counted under 30 proves nothing and runs again.
 * - replay against live: the same numbers from the same recording, exactly.
 * - the exporter's page faults against the worker's own count (getrusage): exactly,
 *   plus what valgrind's bookkeeping adds when the test runs under it. */
#include "testutil.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "bpfsource.h"
#include "startup.h"
#include "evset.h"

#define DEADLINE_S 60.0
#define FORK_RATE 30	    /* short-lived processes a second, in the cgroup */
#define FORK_SECONDS 3	    /* ... for this long */
#define FORK_PAGES 100	    /* pages each of them faults */
#define CMD_CHILDREN 20	    /* -- COMMAND: children of the command */
#define CMD_PAGES 1000	    /* pages each child faults */
#define SWITCHES 2000	    /* the switching task's sleeps */
#define SWITCH_WORK_US 150  /* ... with this much work before each */
#define SWITCH_SLEEP_US 300 /* ... of this length (and 50 us of timer slack): 2,000 a second */
#define WAKES 1500	    /* the woken task's wake-ups, each followed by 1 ms of work */
#define THREADS 2000	    /* the process at the descriptor limit */
#define FD_LIMIT 1024
#define EXPORT_PAGES 3000u
#define MIG_FORKS "300" /* the command's rounds of two short-lived children */
#define MIG_ENOUGH 30	/* perf's migrations for a run to count (a share lost shows) */
#define MIG_BELOW 2	/* pmutop's total below perf stat's */
#define MIG_ABOVE 8	/* ... and above (perf stat's own process is in it) */

static char tmpdir[64];
static char cg_dir[600], cg_rel[300];
static char self[4096];

/* ---- small helpers ------------------------------------------------------------------ */

/* What a test allocates is freed after it, failed or not (a failed assertion leaves the
 * test at once): LeakSanitizer reports nothing of the test's own. */
static void *kept[32];
static unsigned nkept;

static void *keep(void *p)
{
	assert_non_null(p);
	assert_true(nkept < 32);
	kept[nkept++] = p;
	return p;
}

static int free_kept(void **state)
{
	(void)state;
	while (nkept)
		free(kept[--nkept]);
	if (*cg_dir)
		rmdir(cg_dir);
	cg_dir[0] = '\0';
	return 0;
}

/* A path in the run's directory; each call has a buffer of its own (never reused). */
static const char *tmp(const char *name)
{
	static char buf[128][512];
	static unsigned k;
	assert_true(k < 128);
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k++];
}

/* ---- pmutop's CSV (README: tick,time,interval,kind,pid,tid,cpu,command,event,value,
 * state,running,why,exited,cgroup,wall,at) ----------------------------------------- */

enum {
	F_TICK,
	F_KIND = 3,
	F_PID,
	F_TID,
	F_CMD = 7,
	F_EVENT,
	F_VALUE,
	F_STATE,
	F_WHY = 12,
	F_EXITED,
	F_CGROUP,
	F_WALL,
	F_AT,
	NF
};

/* Split a line in place; false unless it has every field. */
static bool csv_split(char *line, char *f[NF])
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < NF; p++)
		if (*p == ',') {
			*p = '\0';
			f[n++] = p + 1;
		}
	char *nl = strchr(f[n - 1], '\n');
	if (nl)
		*nl = '\0';
	return n == NF;
}

/* What a run printed for the rows that match: the sum over interval blocks, the total
 * block's value, and whether any of them was not exact (with the first such line). */
struct sum {
	double v, total;
	unsigned lines, not_exact, blocks;
	unsigned unseen;   /* partial lines, "switch not seen": lower bounds (bpf backend) */
	bool total_unseen; /* the total block's line among them */
	bool have_total;
	char bad[256];
	long last_tick;
};

typedef bool (*row_match)(char *f[NF], const void *arg);

static void csv_sum(const char *csv, const char *event, row_match match, const void *arg,
		    struct sum *s)
{
	memset(s, 0, sizeof(*s));
	char *copy = strdup(csv);
	assert_non_null(copy);
	char *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[NF];
		char orig[256];
		snprintf(orig, sizeof(orig), "%s", l);
		if (!csv_split(l, f) || strcmp(f[F_TICK], "tick") == 0)
			continue;
		long tick = strcmp(f[F_TICK], "total") ? strtol(f[F_TICK], NULL, 10) : -1;
		if (tick > s->last_tick)
			s->last_tick = tick;
		if (strcmp(f[F_EVENT], event) != 0 || !match(f, arg))
			continue;
		bool unseen = strcmp(f[F_STATE], "partial") == 0 &&
			      strcmp(f[F_WHY], "switch not seen") == 0;
		s->unseen += unseen;
		s->total_unseen = s->total_unseen || (unseen && tick < 0);
		if (strcmp(f[F_STATE], "exact") != 0 && !unseen) {
			if (!s->not_exact++)
				snprintf(s->bad, sizeof(s->bad), "%s", orig);
			continue;
		}
		if (tick < 0) {
			s->total += strtod(f[F_VALUE], NULL);
			s->have_total = true;
		} else {
			s->v += strtod(f[F_VALUE], NULL);
			s->lines++;
		}
	}
	free(copy);
}

/* wait_tick, or fail with what pmutop said on stderr. */
static void need_tick(pid_t p, const char *out, const char *err, long n)
{
	if (testutil_wait_tick(p, out, n, DEADLINE_S))
		return;
	char *e = keep(testutil_slurp(err));
	fail_msg("pmutop (%s) ended or printed no tick %ld within %.0f s (it printed %ld): %s", out,
		 n, DEADLINE_S, testutil_csv_ticks(out), e);
}

static bool match_pid(char *f[NF], const void *arg)
{
	return strcmp(f[F_KIND], "process") == 0 && atoi(f[F_PID]) == *(const pid_t *)arg;
}

static bool match_cgroup(char *f[NF], const void *arg)
{
	return strcmp(f[F_KIND], "cgroup") == 0 && strcmp(f[F_CGROUP], (const char *)arg) == 0;
}

/* ---- perf stat, started disabled and driven through its control fifo (testutil) ---- */

static void perf_start(struct testutil_perf *p, const char *events, const char *const extra[])
{
	if (!testutil_perf_start(p, tmpdir, events, extra, DEADLINE_S)) {
		char *e = keep(testutil_slurp(p->out));
		fail_msg("perf stat -e %s did not start counting within %.0f s: %s", events,
			 DEADLINE_S, e);
	}
}

static void perf_stop(struct testutil_perf *p, bool running)
{
	if (!testutil_perf_stop(p, running, DEADLINE_S))
		fail_msg("perf stat did not stop within %.0f s", DEADLINE_S);
}

static double perf_value(const struct testutil_perf *p, const char *event)
{
	double v = testutil_perf_value(p, event);
	if (v < 0) {
		char *out = keep(testutil_slurp(p->out));
		fail_msg("perf stat gave no '%s':\n%s", event, out);
	}
	return v;
}

static bool within(double got, double want, double rel, double abs_slack)
{
	return fabs(got - want) <= rel * fabs(want) + abs_slack;
}

/* ---- workloads ---------------------------------------------------------------------- */

/* The command of -- COMMAND: CMD_CHILDREN children that fault CMD_PAGES pages each. */
static int workload_forks(void)
{
	for (int i = 0; i < CMD_CHILDREN; i++) {
		pid_t c = fork();
		if (c == 0) {
			testutil_touch_pages(CMD_PAGES);
			_exit(0);
		}
		if (c < 0)
			return 1;
		waitpid(c, NULL, 0);
		testutil_nap_ms(25); /* a run of a few ticks: the replay has intervals to compare */
	}
	return 0;
}

/* A child of this program blocked on a gate: released by gate_open, it runs fn. Returns
 * once it is asleep on the gate: its start (copy-on-write faults, the switch out) lands
 * in no counter opened after. */
struct gated {
	pid_t pid;
	int gate;
};

static void gated_start(struct gated *g, void (*fn)(void))
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	g->pid = fork();
	assert_true(g->pid >= 0);
	if (g->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[1]);
		char c;
		if (read(p[0], &c, 1) != 1)
			_exit(2);
		fn();
		_exit(0);
	}
	close(p[0]);
	g->gate = p[1];
	assert_true(testutil_wait_blocked_in(g->pid, g->pid, SYS_read, DEADLINE_S));
}

static void gate_open(struct gated *g)
{
	assert_int_equal(write(g->gate, "go", 1), 1);
	close(g->gate);
}

static void spin_us(long us)
{
	double end = testutil_now() + (double)us / 1e6;
	while (testutil_now() < end)
		;
}

static void switcher(void)
{
	for (int i = 0; i < SWITCHES; i++) {
		spin_us(SWITCH_WORK_US);
		struct timespec ts = {0, SWITCH_SLEEP_US * 1000L};
		nanosleep(&ts, NULL);
	}
}

/* FORK_RATE short-lived processes a second for FORK_SECONDS, each faulting FORK_PAGES. */
static void forker(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (int i = 0; i < FORK_RATE * FORK_SECONDS; i++) {
		pid_t c = fork();
		if (c == 0) {
			testutil_touch_pages(FORK_PAGES);
			_exit(0);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
		t.tv_nsec += 1000000000L / FORK_RATE;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
}

static bool have_perf(void)
{
	if (access("/usr/bin/perf", X_OK) == 0 && geteuid() == 0)
		return true;
	print_message("  perf or root missing: nothing to compare with; skipped\n");
	return false;
}

/* ---- 1. a cgroup forking 30 short-lived processes a second: -G and --cgroups ---------- */

/* Into the cgroup before pmutop first sees it: pmutop reads a process's cgroup when it
 * first sees it and after an exec, so a process moved later is not what this checks. */
static void cgroup_move(pid_t pid)
{
	char procs[700];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg_dir);
	FILE *f = fopen(procs, "w");
	assert_non_null(f);
	fprintf(f, "%d\n", (int)pid);
	assert_int_equal(fclose(f), 0);
}

static bool cgroup_make(void)
{
	char mnt[512];
	if (cgroup_mount("", mnt, sizeof(mnt)) != 0)
		return false;
	snprintf(cg_rel, sizeof(cg_rel), "pmutop-truth-%d", (int)getpid());
	snprintf(cg_dir, sizeof(cg_dir), "%s/%s", mnt, cg_rel);
	return mkdir(cg_dir, 0755) == 0;
}

static void test_cgroup_forks(void **state)
{
	(void)state;
	if (!have_perf() || !cgroup_make())
		skip();
	char want_cg[320];
	snprintf(want_cg, sizeof(want_cg), "/%s", cg_rel);
	/* -G counts the cgroup itself, --cgroups sums its processes' rows. */
	const char *g_out = tmp("G.csv"), *c_out = tmp("cgroups.csv");
	char *ga[] = {PMUTOP_BINARY, "-b",	    "-G", cg_rel, "--format", "csv",
		      "-e",	     "page-faults", "-d", "0.3",  NULL};
	char *ca[] = {PMUTOP_BINARY, "-b",	    "--cgroups", "--format", "csv",
		      "-e",	     "page-faults", "-d",	 "0.3",	     NULL};
	struct gated w;
	gated_start(&w, forker);
	cgroup_move(w.pid);
	pid_t g = testutil_spawn(ga, g_out, tmp("G.err")),
	      c = testutil_spawn(ca, c_out, tmp("cgroups.err"));
	assert_true(g > 0 && c > 0);
	need_tick(g, g_out, tmp("G.err"), 1);
	need_tick(c, c_out, tmp("cgroups.err"), 1);
	struct testutil_perf p;
	const char *pe[] = {"-a", "-G", cg_rel, NULL};
	perf_start(&p, "page-faults", pe);
	gate_open(&w);
	int st = testutil_reap(w.pid, DEADLINE_S + FORK_SECONDS);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	perf_stop(&p, true);
	double perf_v = perf_value(&p, "page-faults");
	long tg = testutil_csv_ticks(g_out), tc = testutil_csv_ticks(c_out);
	need_tick(g, g_out, tmp("G.err"), tg + 2);
	need_tick(c, c_out, tmp("cgroups.err"), tc + 2);
	kill(g, SIGINT);
	kill(c, SIGINT);
	assert_int_equal(testutil_reap(g, DEADLINE_S), 0);
	assert_int_equal(testutil_reap(c, DEADLINE_S), 0);
	rmdir(cg_dir);

	char *gcsv = keep(testutil_slurp(g_out)), *ccsv = keep(testutil_slurp(c_out));
	struct sum gs, cs;
	csv_sum(gcsv, "page-faults", match_cgroup, want_cg, &gs);
	csv_sum(ccsv, "page-faults", match_cgroup, want_cg, &cs);
	double truth = (double)FORK_RATE * FORK_SECONDS * FORK_PAGES;
	print_message("  %d forks x %d pages: perf stat -a -G %.0f, pmutop -G %.0f (%u lines), "
		      "--cgroups %.0f (%u lines, %u partial: a switch not seen)\n",
		      FORK_RATE * FORK_SECONDS, FORK_PAGES, perf_v, gs.v, gs.lines, cs.v, cs.lines,
		      cs.unseen);
	if (perf_v < truth)
		fail_msg("perf stat counted %.0f page faults in the cgroup, fewer than the %.0f "
			 "its processes made",
			 perf_v, truth);
	if (gs.not_exact || !within(gs.v, perf_v, 0.01, 0))
		fail_msg("pmutop -G: %.0f page faults, perf stat -a -G %.0f (1%% allowed); "
			 "%u lines not exact: %s",
			 gs.v, perf_v, gs.not_exact, gs.bad);
	/* --cgroups counts through the default backend (bpf). Before issue 25 it missed 90%
	 * and more. A slice a switch not seen cut short (this kernel hides pid 1's threads'
	 * switches, and on_arrive is attached at the tick after the first) is in no row: the
	 * cgroup's line says partial, its sum a lower bound: a cut slice is one process's,
	 * so each partial line may lack one process's faults (its pages and 50 of fork and
	 * exit: 6-118 seen); never above. */
	double below = 0.01 * perf_v + cs.unseen * (FORK_PAGES + 50.0);
	if (cs.not_exact || cs.v < perf_v - below || cs.v > 1.01 * perf_v)
		fail_msg("pmutop --cgroups: the cgroup's row sums to %.0f page faults, perf stat "
			 "-a -G %.0f and pmutop -G %.0f (%.0f below allowed, %u lines partial "
			 "for a switch not seen): short-lived processes missed; %u lines not "
			 "exact: %s",
			 cs.v, perf_v, gs.v, below, cs.unseen, cs.not_exact, cs.bad);
}

/* ---- 2. a task switching ~2,000 times a second beside a busy loop, per backend ---------- */

static void busy_loop(void)
{
	for (;;)
		spin_us(1000000);
}

/* What pmutop (-e events, every task) and perf stat -p printed for one task running fn
 * beside nbusy busy loops, over the same window: per event, pmutop's sums and perf's. */
static pid_t wake_pid; /* the watched task (watch_task) */

/* The watched task after fn: it says so on park_done, then sleeps on park_gate, so that
 * both windows end while it sleeps. Its exit comes after them: bpf stops counting a
 * task's switches at sched_process_exit, perf -p later in do_exit, where a need_resched
 * can give perf one switch more. */
static int park_gate[2], park_done[2];
static void (*watched_fn)(void);

static void run_then_park(void)
{
	watched_fn();
	char c = 0;
	if (write(park_done[1], &c, 1) != 1 || read(park_gate[0], &c, 1) != 1)
		_exit(3);
}

struct watched {
	struct sum s[3];
	double perf[3];
};

static void watch_task(const char *backend, void (*fn)(void), void (*helper)(void), int nbusy,
		       const char *events, const char *const ev[3], struct watched *r)
{
	if (!have_perf())
		skip();
	struct gated w, b[2];
	assert_int_equal(pipe(park_gate), 0);
	assert_int_equal(pipe(park_done), 0);
	watched_fn = fn;
	gated_start(&w, run_then_park);
	/* fn's helper, started with it: its pid in wake_pid. */
	struct gated h = {.pid = -1};
	wake_pid = w.pid;
	if (helper)
		gated_start(&h, helper);
	for (int i = 0; i < nbusy; i++) {
		gated_start(&b[i], busy_loop);
		gate_open(&b[i]);
	}
	/* A file of its own per run: the run before's, still there until the child
	 * truncates it, would satisfy the wait for the first tick, and the task would start
	 * before pmutop counts. */
	static unsigned run;
	char out[600], err[600];
	snprintf(out, sizeof(out), "%s/switch-%s-%u.csv", tmpdir, backend, run);
	snprintf(err, sizeof(err), "%s/switch-%s-%u.err", tmpdir, backend, run++);
	char *a[] = {PMUTOP_BINARY,  "--backend", (char *)backend, "-b", "--format", "csv", "-e",
		     (char *)events, "-d",	  "0.5",	   NULL};
	pid_t m = testutil_spawn(a, out, err);
	assert_true(m > 0);
	need_tick(m, out, err, 1);
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", (int)w.pid);
	struct testutil_perf p;
	const char *pe[] = {"-p", pid, NULL};
	perf_start(&p, events, pe);
	gate_open(&w);
	if (helper)
		gate_open(&h);
	/* fn has returned and the task is off its CPU, asleep on park_gate: perf stat -p
	 * stops, then pmutop after a tick that began later; then the task exits. */
	struct pollfd pd = {.fd = park_done[0], .events = POLLIN};
	char c;
	assert_int_equal(poll(&pd, 1, (int)(DEADLINE_S + 10) * 1000), 1);
	assert_int_equal(read(park_done[0], &c, 1), 1);
	assert_true(testutil_wait_blocked_in(w.pid, w.pid, SYS_read, DEADLINE_S));
	if (helper)
		assert_int_equal(testutil_reap(h.pid, DEADLINE_S), 0);
	perf_stop(&p, true);
	for (int i = 0; i < 3 && ev[i]; i++)
		r->perf[i] = perf_value(&p, ev[i]);
	long t = testutil_csv_ticks(out);
	need_tick(m, out, err, t + 2);
	kill(m, SIGINT);
	assert_int_equal(testutil_reap(m, DEADLINE_S), 0);
	assert_int_equal(write(park_gate[1], &c, 1), 1);
	int st = testutil_reap(w.pid, DEADLINE_S);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (int i = 0; i < 2; i++) {
		close(park_gate[i]);
		close(park_done[i]);
	}
	for (int i = 0; i < nbusy; i++) {
		kill(b[i].pid, SIGKILL);
		waitpid(b[i].pid, NULL, 0);
	}
	char *csv = keep(testutil_slurp(out));
	for (int i = 0; i < 3 && ev[i]; i++)
		csv_sum(csv, ev[i], match_pid, &w.pid, &r->s[i]);
}

static void switching_task(const char *backend)
{
	const char *const ev[3] = {"task-clock", "context-switches", NULL};
	struct watched r;
	watch_task(backend, switcher, NULL, 1, "task-clock,context-switches", ev, &r);
	double perf_tc = r.perf[0], perf_cs = r.perf[1];
	struct sum tc = r.s[0], cs = r.s[1];
	/* perf stat's task-clock is in milliseconds, pmutop's in nanoseconds. */
	print_message("  --backend %s: task-clock %.1f ms (perf stat -p %.1f), context switches "
		      "%.0f (perf stat -p %.0f)\n",
		      backend, tc.v / 1e6, perf_tc, cs.v, perf_cs);
	/* Exact, or (bpf, where this VM's kernel hides some switches) partial for a switch
	 * not seen: a lower bound, which the bounds below still hold to perf's count. */
	if (tc.not_exact || cs.not_exact)
		fail_msg("--backend %s: a line of the task is not exact: %s%s", backend, tc.bad,
			 cs.bad);
	if (tc.unseen || cs.unseen)
		print_message("  %u and %u lines partial: a switch not seen\n", tc.unseen,
			      cs.unseen);
	if (tc.unseen && tc.v / 1e6 > perf_tc * 1.05)
		fail_msg("--backend %s: a lower bound of %.1f ms above perf stat -p's %.1f ms",
			 backend, tc.v / 1e6, perf_tc);
	/* perf: equal, seen to the switch and the 0.1 ms. bpf: the header's tolerances,
	 * switches equal. */
	bool perf = strcmp(backend, "perf") == 0;
	double lo = perf ? perf_tc * 0.95 : perf_tc * 0.998;
	double hi = perf ? perf_tc * 1.05 : perf_tc * 1.01;
	/* Under valgrind or ASan the switcher (a fork of this program) runs instrumented
	 * beside other instrumented tests (and, in CI's sanitizer pass, beside clang-tidy
	 * and cppcheck): bpf's slice, which begins at the switch that brings the task in,
	 * holds more of each switch there (+1.5% seen under valgrind; under ASan 1.1-1.3 us
	 * a switch against a plain build's 0.6-0.9 in the same minutes, 2.8 us beside the
	 * static checks: +1.8%). pmutop(1) states these. The 1% is asserted where the
	 * workload runs as itself (the plain and busy passes). */
	bool vg = !perf && (testutil_under_valgrind() || TESTUTIL_ASAN);
	if (vg)
		print_message("  instrumented: task-clock's bound not asserted (%+.1f%%)\n",
			      100.0 * (tc.v / 1e6 - perf_tc) / perf_tc);
	if (!vg && (tc.v / 1e6 < lo || tc.v / 1e6 > hi))
		fail_msg("--backend %s: the task's task-clock is %.1f ms, perf stat -p %.1f ms "
			 "(%+.1f%%; %.1f..%.1f ms allowed)",
			 backend, tc.v / 1e6, perf_tc, 100.0 * (tc.v / 1e6 - perf_tc) / perf_tc, lo,
			 hi);
	if (!within(cs.v, perf_cs, perf ? 0.01 : 0, perf ? 2 : 0))
		fail_msg("--backend %s: the task's context switches are %.0f, perf stat -p %.0f "
			 "(%s allowed), over %u interval lines of %ld ticks",
			 backend, cs.v, perf_cs, perf ? "1% + 2" : "none", cs.lines, cs.last_tick);
}

static void test_switching_perf(void **state)
{
	(void)state;
	switching_task("perf");
}

static void test_switching_bpf(void **state)
{
	(void)state;
#ifdef PMUTOP_NO_BPF
	print_message("  built without the bpf backend; skipped\n");
	skip();
#else
	switching_task("bpf");
#endif
}

/* ---- 2b. a task woken onto the other CPU, both CPUs busy (bpf) -------------------------- */

/* The waking task (wake_pid) and its waker, by two pipes made before either starts: the
 * waker lets the task sleeping on a pipe run on the other CPU only, then wakes it (the
 * wake-up moves it there), and the task works 1 ms at each wake-up. */
static int wake_to[2], wake_back[2];

static void waker(void)
{
	char c = 0;
	for (int i = 0; i < WAKES; i++) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(i % 2, &set);
		sched_setaffinity(wake_pid, sizeof(set), &set);
		if (write(wake_to[1], &c, 1) != 1 || read(wake_back[0], &c, 1) != 1)
			_exit(3);
	}
}

static void woken(void)
{
	char c;
	for (int i = 0; i < WAKES; i++) {
		if (read(wake_to[0], &c, 1) != 1)
			_exit(3);
		spin_us(1000);
		if (write(wake_back[1], &c, 1) != 1)
			_exit(3);
	}
}

/* Its migrations happen as it is woken (onto the CPU the scheduler picks), not as it
 * runs: counted for it exactly all the same (issue 36: 11 against perf's 19 before). */
static void test_waking_bpf(void **state)
{
	(void)state;
#ifdef PMUTOP_NO_BPF
	skip();
#else
	const char *const ev[3] = {"cpu-migrations", "context-switches", NULL};
	struct watched r;
	assert_int_equal(pipe(wake_to), 0);
	assert_int_equal(pipe(wake_back), 0);
	watch_task("bpf", woken, waker, 2,
		   "{task-clock,context-switches,cpu-migrations,page-faults,major-faults}", ev, &r);
	print_message("  --backend bpf, both CPUs busy: migrations %.0f (perf stat -p %.0f), "
		      "context switches %.0f (perf stat -p %.0f)\n",
		      r.s[0].v, r.perf[0], r.s[1].v, r.perf[1]);
	for (int i = 0; i < 2; i++) {
		close(wake_to[i]);
		close(wake_back[i]);
	}
	for (int i = 0; i < 2; i++) {
		if (r.s[i].not_exact)
			fail_msg("%s: a line of the task is not exact: %s", ev[i], r.s[i].bad);
		if (r.perf[i] <= 0 || !within(r.s[i].v, r.perf[i], 0.01, 0))
			fail_msg(
				"the task's %s: %.0f, perf stat -p %.0f (1%% allowed, more than 0)",
				ev[i], r.s[i].v, r.perf[i]);
	}
#endif
}

/* ---- 3. a process of 2,000 threads at a descriptor limit of 1,024 (perf backend) ------- */

static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cond = PTHREAD_COND_INITIALIZER;

static void *parked(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&park_lock);
	for (;;)
		pthread_cond_wait(&park_cond, &park_lock);
	return NULL;
}

static void many_threads(void)
{
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (int i = 0; i < THREADS - 1; i++) {
		pthread_t t;
		if (pthread_create(&t, &at, parked, NULL) != 0)
			_exit(4);
	}
	/* The main thread faults a page every millisecond: the process has something to
	 * count whichever of its threads hold descriptors. */
	for (;;) {
		testutil_touch_pages(1);
		testutil_nap_ms(1);
	}
}

static bool match_thread_of(char *f[NF], const void *arg)
{
	return strcmp(f[F_KIND], "thread") == 0 && atoi(f[F_PID]) == *(const pid_t *)arg;
}

static void test_fd_limit_threads(void **state)
{
	(void)state;
	if (geteuid() != 0 || testutil_under_valgrind())
		skip();
	struct gated w;
	gated_start(&w, many_threads);
	gate_open(&w);
	if (!testutil_wait_tasks(w.pid, THREADS, DEADLINE_S))
		fail_msg("the workload did not start its %d threads", THREADS);
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", (int)w.pid);
	const char *out = tmp("threads.csv");
	pid_t m = fork();
	assert_true(m >= 0);
	if (m == 0) {
		struct rlimit r = {FD_LIMIT, FD_LIMIT};
		if (setrlimit(RLIMIT_NOFILE, &r) != 0)
			_exit(126);
		char *a[] = {PMUTOP_BINARY, "--backend", "perf", "-b",		"-H", "-p",  pid,
			     "--format",    "csv",	 "-e",	 "page-faults", "-d", "0.3", NULL};
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(tmp("threads.err"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(o, 1);
		dup2(e, 2);
		execv(a[0], a);
		_exit(127);
	}
	/* Four blocks of the live process; ending before is a defect, reported after what
	 * the blocks it printed say. */
	bool ok = testutil_wait_tick(m, out, 4, DEADLINE_S);
	kill(m, SIGINT);
	int st = testutil_reap(m, DEADLINE_S);
	kill(w.pid, SIGKILL);
	waitpid(w.pid, NULL, 0);

	/* Per tick: the process row is exact only when every thread row is. */
	char *csv = keep(testutil_slurp(out));
	long ticks = testutil_csv_ticks(out);
	unsigned short_ticks = 0;
	for (long t = 1; t <= ticks; t++) {
		unsigned nc = 0, exact = 0;
		const char *proc_state = NULL;
		char proc_line[256] = "";
		char *copy = strdup(csv), *save = NULL;
		for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *f[NF], orig[256];
			snprintf(orig, sizeof(orig), "%s", l);
			if (!csv_split(l, f) || strtol(f[F_TICK], NULL, 10) != t ||
			    strcmp(f[F_EVENT], "page-faults") != 0)
				continue;
			if (match_thread_of(f, &w.pid)) {
				nc += strcmp(f[F_STATE], "n/c") == 0;
				exact += strcmp(f[F_STATE], "exact") == 0;
			} else if (match_pid(f, &w.pid)) {
				proc_state = strcmp(f[F_STATE], "exact") == 0 ? "exact" : "other";
				snprintf(proc_line, sizeof(proc_line), "%s", orig);
			}
		}
		free(copy);
		if (!proc_state)
			fail_msg("tick %ld has no row of the process", t);
		short_ticks += nc > 0;
		if (nc > 0 && strcmp(proc_state, "exact") == 0)
			fail_msg(
				"tick %ld: the process row reads exact while %u of its threads are "
				"n/c (%u exact): %s",
				t, nc, exact, proc_line);
		if (strstr(proc_line, ",yes,"))
			fail_msg("tick %ld: the process, alive, is marked exited: %s", t,
				 proc_line);
	}
	print_message("  %ld ticks, %u of them with threads n/c (fd limit)\n", ticks, short_ticks);
	if (!ok) {
		char *e = keep(testutil_slurp(tmp("threads.err")));
		fail_msg("pmutop -p %s at %d descriptors ended after %ld blocks while the process "
			 "lived (status %#x): %s",
			 pid, FD_LIMIT, ticks, st, e);
	}
	assert_int_equal(st, 0);
	/* 2,000 threads cannot all have a descriptor of 1,024. */
	assert_true(short_ticks > 0);
}

/* ---- 4. -- COMMAND with children, under each backend; the recording replayed --------- */

/* The pid of the total block's row (the command's, with its whole tree), or -1. */
static pid_t total_pid(const char *out)
{
	pid_t any = -1;
	char *copy = strdup(out), *save = NULL;
	assert_non_null(copy);
	for (char *l = strtok_r(copy, "\n", &save); l && any < 0; l = strtok_r(NULL, "\n", &save))
		if (strncmp(l, "total,", 6) == 0) {
			char *f[NF];
			if (csv_split(l, f))
				any = atoi(f[F_PID]);
		}
	free(copy);
	return any;
}

/* One run; false when a switch the kernel did not report cut a slice of the tree (bpf
 * here): its total is then a lower bound, checked as one, and the caller runs again. */
static bool command_run(const char *backend, bool record)
{
	if (!have_perf())
		skip();
	char *cmd_out = keep(malloc(1 << 20)), *cmd_err = keep(malloc(1 << 16));
	assert_non_null(cmd_out);
	assert_non_null(cmd_err);
	const char *rec = tmp("command.pmutop");
	unlink(rec);
	char *a[16] = {PMUTOP_BINARY, "--backend", (char *)backend, "-b", "--format",
		       "csv",	      "-e",	   "page-faults",   "-d", "0.2"};
	int k = 10;
	if (record) {
		a[k++] = "-w";
		a[k++] = (char *)rec;
	}
	a[k++] = "--";
	a[k++] = self;
	a[k++] = "--forks";
	a[k] = NULL;
	int st = testutil_run(a, cmd_out, 1 << 20, cmd_err, 1 << 16);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("pmutop --backend %s -- COMMAND: status %#x: %s", backend, st, cmd_err);
	char *pa[] = {"/usr/bin/perf", "stat", "-x,", "-e", "page-faults", "--", self,
		      "--forks",       NULL};
	char perr[4096];
	st = testutil_run(pa, NULL, 0, perr, sizeof(perr));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	double perf_v = strtod(perr, NULL);

	/* The total block's row is the command's, with its whole tree. */
	struct sum s;
	pid_t any = total_pid(cmd_out);
	if (any < 0) {
		size_t len = strlen(cmd_out);
		fail_msg("pmutop --backend %s -- COMMAND printed no total block (%zu bytes); its "
			 "stderr: %s; its last lines:\n%s",
			 backend, len, cmd_err, cmd_out + (len > 2000 ? len - 2000 : 0));
	}
	csv_sum(cmd_out, "page-faults", match_pid, &any, &s);
	double truth = (double)CMD_CHILDREN * CMD_PAGES;
	print_message("  --backend %s -- COMMAND: total %.0f page faults, perf stat %.0f, its "
		      "children alone fault %.0f\n",
		      backend, s.total, perf_v, truth);
	if (perf_v < truth)
		fail_msg(
			"perf stat counted %.0f page faults for a command whose children make %.0f",
			perf_v, truth);
	if (s.total_unseen) {
		print_message("  the total is partial: a switch not seen\n");
		if (s.total > perf_v * 1.02)
			fail_msg("pmutop --backend %s -- COMMAND: a lower bound of %.0f page "
				 "faults, "
				 "above perf stat's %.0f",
				 backend, s.total, perf_v);
		return false;
	}
	if (!s.have_total || !within(s.total, perf_v, 0.02, 0))
		fail_msg("pmutop --backend %s -- COMMAND: the total is %.0f page faults, perf stat "
			 "%.0f (2%% allowed): the command's children not counted?",
			 backend, s.total, perf_v);

	if (record) {
		/* The recording, replayed as batch mode printed it: the same lines. */
		char *ra[] = {PMUTOP_BINARY, "-r", (char *)rec, "-b", "--format", "csv", NULL};
		char *rep = keep(malloc(1 << 20));
		assert_non_null(rep);
		st = testutil_run(ra, rep, 1 << 20, cmd_err, 1 << 16);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fail_msg("pmutop -r: status %#x: %s", st, cmd_err);
		struct sum r;
		csv_sum(rep, "page-faults", match_pid, &any, &r);
		print_message("  replayed: %.0f page faults over %u interval lines (live %.0f over "
			      "%u), total %.0f\n",
			      r.v, r.lines, s.v, s.lines, r.total);
		if (r.v != s.v || r.lines != s.lines || r.not_exact != s.not_exact)
			fail_msg("replay: %.0f page faults in %u lines (%u not exact), live %.0f "
				 "in %u "
				 "(%u)",
				 r.v, r.lines, r.not_exact, s.v, s.lines, s.not_exact);
		if (strcmp(rep, cmd_out) != 0)
			fail_msg("the replay's CSV differs from what batch mode printed live:\n"
				 "live:\n%.1500s\nreplay:\n%.1500s",
				 cmd_out, rep);
	}
	return true;
}

/* command_run until a run's total is exact (8 runs at most). */
static void command_runs(const char *backend, bool record)
{
	for (int i = 1; !command_run(backend, record); i++)
		if (i == 8)
			fail_msg("--backend %s: 8 runs, each cut by a switch not seen", backend);
}

static void test_command_auto_recorded(void **state)
{
	(void)state;
	command_runs("auto", true);
}

static void test_command_perf(void **state)
{
	(void)state;
	command_runs("perf", false);
}

static void test_command_bpf(void **state)
{
	(void)state;
#ifdef PMUTOP_NO_BPF
	print_message("  built without the bpf backend; skipped\n");
	skip();
#else
	command_runs("bpf", false);
#endif
}

/* A command forking short-lived children (perf stat inside the tree): the default
 * backend's total row of cpu-migrations against perf stat's. false when perf counted too
 * few migrations for a missing share to show, or a switch not seen cut the total. */
static bool command_migrations_run(const char *backend)
{
	char *out = keep(malloc(1 << 20)), *err = keep(malloc(1 << 16));
	assert_non_null(out);
	assert_non_null(err);
	char *a[] = {PMUTOP_BINARY,
		     "--backend",
		     (char *)backend,
		     "-b",
		     "--format",
		     "csv",
		     "-e",
		     "cpu-migrations",
		     "--",
		     "/usr/bin/perf",
		     "stat",
		     "-x,",
		     "-e",
		     "cpu-migrations",
		     "--",
		     "/bin/sh",
		     "-c",
		     "for i in $(seq " MIG_FORKS "); do /bin/true & /bin/true; wait; done",
		     NULL};
	int st = testutil_run(a, out, 1 << 20, err, 1 << 16);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("pmutop -- perf stat -- sh: status %#x: %s", st, err);
	const char *pl = strstr(err, ",cpu-migrations,");
	if (!pl)
		fail_msg("perf stat printed no cpu-migrations line: %s", err);
	while (pl > err && pl[-1] != '\n')
		pl--;
	double perf_v = strtod(pl, NULL);
	struct sum s;
	pid_t any = total_pid(out);
	if (any < 0)
		fail_msg("pmutop -- perf stat printed no total block:\n%.2000s", out);
	csv_sum(out, "cpu-migrations", match_pid, &any, &s);
	print_message("  --backend %s: the command's cpu-migrations: pmutop's total %.0f%s, perf "
		      "stat %.0f\n",
		      backend, s.total, s.total_unseen ? " (partial: a switch not seen)" : "",
		      perf_v);
	if (s.not_exact && !s.total_unseen)
		fail_msg("a line of the command's cpu-migrations is not exact: %s", s.bad);
	if (s.total_unseen) {
		if (s.total > perf_v + MIG_ABOVE)
			fail_msg("a lower bound of %.0f cpu-migrations, above perf stat's %.0f",
				 s.total, perf_v);
		return false;
	}
	if (!s.have_total || s.total < perf_v - MIG_BELOW || s.total > perf_v + MIG_ABOVE)
		fail_msg("the command's cpu-migrations: pmutop's total %.0f, perf stat's %.0f "
			 "(%d below to %d above allowed): an exiting task's migrations lost?",
			 s.total, perf_v, MIG_BELOW, MIG_ABOVE);
	return perf_v >= MIG_ENOUGH;
}

static void command_migrations(const char *backend)
{
	if (!have_perf())
		skip();
	for (int i = 1; !command_migrations_run(backend); i++)
		if (i == 5) {
			print_message("  5 runs, none with %d migrations counted whole\n",
				      MIG_ENOUGH);
			skip();
		}
}

static void test_command_migrations_auto(void **state)
{
	(void)state;
	command_migrations("auto");
}

static void test_command_migrations_bpf(void **state)
{
	(void)state;
#ifdef PMUTOP_NO_BPF
	print_message("  built without the bpf backend; skipped\n");
	skip();
#else
	command_migrations("bpf");
#endif
}

/* ---- 5. the exporter: a known number of page faults, scraped ---------------------------- */

/* The worker faults n pages per command and answers with its own count (getrusage). */
static void worker_loop(int cmd, int ack)
{
	for (;;) {
		uint32_t n;
		if (read(cmd, &n, sizeof(n)) != sizeof(n) || n == 0)
			_exit(0);
		testutil_touch_pages(n);
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		uint64_t f = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
		if (write(ack, &f, sizeof(f)) != sizeof(f))
			_exit(1);
	}
}

#define EVENTS "pmutop_process_events_total"
#define CLOCK "pmutop_process_clock_seconds_total"

/* The worker's page faults once pmutop has ended two more intervals: a spinner's
 * task-clock, which moves at every tick (however little it ran), is the clock. -1 at
 * the deadline. */
static double scrape_settled(unsigned port, pid_t w, pid_t clock)
{
	double last = testutil_scrape(port, CLOCK, clock, "task-clock"),
	       end = testutil_now() + DEADLINE_S;
	for (int ticks = 0; ticks < 2;) {
		if (testutil_now() > end)
			return -1;
		testutil_nap_ms(20);
		double v = testutil_scrape(port, CLOCK, clock, "task-clock");
		ticks += v != last;
		last = v;
	}
	return testutil_scrape(port, EVENTS, w, "page-faults");
}

/* The exporter alone, compared with the truth it must equal, the worker's own count
 * (getrusage); test_it_compose holds it to the batch CSV of the same run. */
static void test_exporter_known_faults(void **state)
{
	(void)state;
	int c[2], d[2];
	assert_int_equal(pipe(c), 0);
	assert_int_equal(pipe(d), 0);
	pid_t w = fork();
	assert_true(w >= 0);
	if (w == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(c[1]);
		close(d[0]);
		worker_loop(c[0], d[1]);
	}
	close(c[0]);
	close(d[1]);
	unsigned port = testutil_free_port();
	assert_true(port > 0);
	struct gated clock;
	gated_start(&clock, busy_loop);
	gate_open(&clock);
	char listen[32], pid[32];
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
	snprintf(pid, sizeof(pid), "%d,%d", (int)w, (int)clock.pid);
	char *a[] = {PMUTOP_BINARY, "--listen", listen, "-e",  "page-faults,task-clock",
		     "-p",	    pid,	"-d",	"0.3", NULL};
	const char *err = tmp("listen.err");
	pid_t m = testutil_spawn(a, tmp("listen.out"), err);
	assert_true(m > 0);
	/* Up and counting: it serves the worker's counter. */
	double end = testutil_now() + DEADLINE_S;
	while (testutil_scrape(port, EVENTS, w, "page-faults") < 0 && testutil_now() < end &&
	       waitpid(m, NULL, WNOHANG) == 0)
		testutil_nap_ms(50);
	if (testutil_scrape(port, EVENTS, w, "page-faults") < 0) {
		char *e = keep(testutil_slurp(err));
		fail_msg("pmutop --listen %s served no counter of pid %d: %s", listen, (int)w, e);
	}
	/* A first round (one page) gives the worker's count where the window begins. */
	uint64_t f0, f1;
	uint32_t n = 1;
	assert_int_equal(write(c[1], &n, sizeof(n)), sizeof(n));
	assert_int_equal(read(d[0], &f0, sizeof(f0)), sizeof(f0));
	double before = scrape_settled(port, w, clock.pid);
	n = EXPORT_PAGES;
	assert_int_equal(write(c[1], &n, sizeof(n)), sizeof(n));
	assert_int_equal(read(d[0], &f1, sizeof(f1)), sizeof(f1));
	double after = scrape_settled(port, w, clock.pid);
	kill(m, SIGTERM);
	int st = testutil_reap(m, DEADLINE_S);
	n = 0;
	assert_int_equal(write(c[1], &n, sizeof(n)), sizeof(n));
	waitpid(w, NULL, 0);
	kill(clock.pid, SIGKILL);
	waitpid(clock.pid, NULL, 0);
	close(c[1]);
	close(d[0]);
	assert_true(before >= 0 && after >= 0);
	double own = (double)(f1 - f0);
	print_message("  exporter: %.0f page faults over the window, the worker's own count %.0f "
		      "(%u pages touched)\n",
		      after - before, own, EXPORT_PAGES);
	if (!within(after - before, own, 0, testutil_under_valgrind() ? 64 : 0))
		fail_msg("the exporter counted %.0f page faults where the worker made %.0f",
			 after - before, own);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("pmutop --listen: status %#x at SIGTERM", st);
}

/* ---- 6. events changed mid-run: the kept event's tick against the task's own count ---- */

struct worker {
	pid_t pid;
	int cmd, ack;
};

static void worker_start(struct worker *w)
{
	int c[2], d[2];
	assert_int_equal(pipe(c), 0);
	assert_int_equal(pipe(d), 0);
	w->pid = fork();
	assert_true(w->pid >= 0);
	if (w->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(c[1]);
		close(d[0]);
		worker_loop(c[0], d[1]);
	}
	close(c[0]);
	close(d[1]);
	w->cmd = c[1];
	w->ack = d[0];
}

/* The task's run time (ns, /proc/PID/schedstat) and whether it sleeps; false if gone. */
static bool run_time(pid_t pid, unsigned long long *ns, bool *sleeping)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "r");
	bool ok = f && fscanf(f, "%llu", ns) == 1;
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	ok = ok && f && fgets(buf, sizeof(buf), f);
	if (f)
		fclose(f);
	const char *st = ok ? strrchr(buf, ')') : NULL;
	*sleeping = st && st[1] == ' ' && st[2] == 'S';
	return ok && st;
}

/* n pages touched; the worker's own page-fault count after them, and the worker back
 * in read() and asleep: what it does after its answer (under valgrind, valgrind's own
 * work faults pages there) is in the tick taken next, as it is in the next count. */
static uint64_t worker_round(struct worker *w, uint32_t n)
{
	uint64_t f;
	assert_int_equal(write(w->cmd, &n, sizeof(n)), sizeof(n));
	assert_int_equal(read(w->ack, &f, sizeof(f)), sizeof(f));
	unsigned long long t0 = 0, t1 = 1;
	bool s0 = false, s1 = false;
	double end = testutil_now() + DEADLINE_S;
	while (!(s0 && s1 && t0 == t1) && testutil_now() < end) {
		assert_true(run_time(w->pid, &t0, &s0));
		testutil_nap_ms(20);
		assert_true(run_time(w->pid, &t1, &s1));
	}
	return f;
}

static void worker_stop(struct worker *w)
{
	uint32_t n = 0;
	assert_int_equal(write(w->cmd, &n, sizeof(n)), sizeof(n));
	waitpid(w->pid, NULL, 0);
	close(w->cmd);
	close(w->ack);
}

static struct val pf_of(const struct model *m, pid_t pid)
{
	int ev = -1;
	for (unsigned i = 0; i < m->nevents; i++)
		if (strcmp(m->events[i].key, "page-faults") == 0)
			ev = (int)i;
	assert_true(ev >= 0);
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].kind == ROW_PROC && m->rows[i].pid == pid)
			return m->rows[i].v[ev];
	fail_msg("no row of pid %d", (int)pid);
	return (struct val){0};
}

/* page-faults is kept from one set to the next; the tick that holds the change must
 * count the worker's faults before and after it, or say that it did not. */
static void events_switch(bool bpf, const char *from, const char *to)
{
	if (geteuid() != 0)
		skip();
	struct worker w;
	worker_start(&w);
	struct evset a, b;
	struct evspec_err perr;
	assert_int_equal(evset_parse(&a, from, NULL, &perr), 0);
	evset_probe(&a, false);
	assert_int_equal(evset_parse(&b, to, NULL, &perr), 0);
	evset_probe(&b, false);
	int err;
	struct srcopts o = {.root = "",
			    .scope = bpf ? SCOPE_ALL : SCOPE_PIDS,
			    .pids = &w.pid,
			    .npids = 1,
			    .interval = 0.2};
	const struct source_kind *k = bpf ? &bpfsource_kind : &engine_kind;
	struct source *e = k->open(&a, &o, &err);
	if (!e && bpf) {
		worker_stop(&w);
		evset_free(&a);
		evset_free(&b);
		print_message("  bpf backend unavailable (%s); skipped\n", bpfsource_why(err));
		skip();
	}
	assert_non_null(e);
	uint64_t fw = worker_round(&w, 1);
	source_tick(e);
	uint64_t f0 = worker_round(&w, 100);
	source_tick(e);
	struct val before = pf_of(source_model(e), w.pid);
	worker_round(&w, 100);
	assert_int_equal(source_control(e, SRC_EVSET, &b), 0);
	uint64_t f2 = worker_round(&w, 50);
	source_tick(e);
	struct val v = pf_of(source_model(e), w.pid);
	print_message("  %s, %s -> %s: the tick before %.0f (%s; own count %llu), the tick of "
		      "the change %.0f (%s; own count %llu)\n",
		      bpf ? "bpf" : "perf", from, to, before.v, val_state_str(before.state),
		      (unsigned long long)(f0 - fw), v.v, val_state_str(v.state),
		      (unsigned long long)(f2 - f0));
	worker_stop(&w);
	source_close(e);
	evset_free(&a);
	evset_free(&b);
	/* Exact means every fault of the interval: its own count, to the fault (the pipe's
	 * calls may fault a page or two that getrusage sees in the next round; under
	 * valgrind, whose translations of the worker's code fault pages too, up to 5). */
	double slack = testutil_under_valgrind() ? 5 : 2;
	if (before.state == VAL_EXACT && !within(before.v, (double)(f0 - fw), 0, slack))
		fail_msg("%s backend: a tick with no change reads %.0f page faults, the task made "
			 "%llu",
			 bpf ? "bpf" : "perf", before.v, (unsigned long long)(f0 - fw));
	if (v.state == VAL_EXACT && !within(v.v, (double)(f2 - f0), 0, slack))
		fail_msg("%s backend, events %s -> %s: the tick of the change reads %.0f page "
			 "faults exact, the task made %llu",
			 bpf ? "bpf" : "perf", from, to, v.v, (unsigned long long)(f2 - f0));
}

static void test_events_switch_perf(void **state)
{
	(void)state;
	events_switch(false, "page-faults", "page-faults,context-switches");
	events_switch(false, "page-faults,task-clock", "{page-faults,task-clock}");
	events_switch(false, "page-faults,context-switches", "page-faults");
}

static void test_events_switch_bpf(void **state)
{
	(void)state;
#ifdef PMUTOP_NO_BPF
	skip();
#else
	events_switch(true, "page-faults", "page-faults,context-switches");
	events_switch(true, "page-faults,task-clock", "{page-faults,task-clock}");
	events_switch(true, "page-faults,context-switches", "page-faults");
#endif
}

/* ---- setup --------------------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pmutop-truth-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--forks") == 0)
		return workload_forks();
	/* PMUTOP_TRUTH_FILTER=test_cgroup* runs the tests that match. */
	if (getenv("PMUTOP_TRUTH_FILTER"))
		cmocka_set_test_filter(getenv("PMUTOP_TRUTH_FILTER"));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cgroup_forks, free_kept),
		cmocka_unit_test_teardown(test_switching_perf, free_kept),
		cmocka_unit_test_teardown(test_switching_bpf, free_kept),
		cmocka_unit_test_teardown(test_waking_bpf, free_kept),
		cmocka_unit_test_teardown(test_fd_limit_threads, free_kept),
		cmocka_unit_test_teardown(test_command_auto_recorded, free_kept),
		cmocka_unit_test_teardown(test_command_perf, free_kept),
		cmocka_unit_test_teardown(test_command_bpf, free_kept),
		cmocka_unit_test_teardown(test_command_migrations_auto, free_kept),
		cmocka_unit_test_teardown(test_command_migrations_bpf, free_kept),
		cmocka_unit_test_teardown(test_exporter_known_faults, free_kept),
		cmocka_unit_test_teardown(test_events_switch_perf, free_kept),
		cmocka_unit_test_teardown(test_events_switch_bpf, free_kept),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
