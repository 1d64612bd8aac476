/* evgroup on real software events: a group on a forked child and on a CPU, members that
 * cannot exist, presets, enable-on-exec, disable, and a task that does not exist. */
#include "testutil.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evgroup.h"

#define NO_PID 4194304 /* above PID_MAX_LIMIT */

static struct evdesc sw(const char *name, uint64_t config)
{
	struct evdesc d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.attr.type = PERF_TYPE_SOFTWARE;
	d.attr.size = sizeof(d.attr);
	d.attr.config = config;
	d.software = true;
	return d;
}

static struct evdesc hw_cycles(void)
{
	struct evdesc d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "cycles");
	d.attr.type = PERF_TYPE_HARDWARE;
	d.attr.size = sizeof(d.attr);
	d.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	return d;
}

/* A software event id no kernel has: ENOENT everywhere, with or without a PMU. */
static struct evdesc impossible(void)
{
	return sw("sw-999", 999);
}

/* {task-clock, page-faults, context-switches} */
static struct evgroup_spec basic(void)
{
	struct evgroup_spec s = {.n = 3};
	s.ev[0] = sw("task-clock", PERF_COUNT_SW_TASK_CLOCK);
	s.ev[1] = sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS);
	s.ev[2] = sw("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES);
	return s;
}

/* A child driven over pipes: each byte it reads is a number of tens of fresh pages to
 * touch (0 = just answer); it answers one byte when done. EOF ends it. Before the first
 * command it has already run the whole loop once, so the counted rounds fault only on
 * the pages they touch. It is this program again, exec'd in worker mode: a clean process
 * (not one forked from a cmocka runner, and not instrumented when the tests run under
 * valgrind, which does not follow exec). */
struct child {
	pid_t pid;
	int cmd, done;
};

static char self[PATH_MAX];

static int child_loop(int cmd, int done)
{
	unsigned char c;
	testutil_touch_pages(4); /* warm up the path a command takes */
	if (write(done, "r", 1) != 1)
		return 2;
	while (read(cmd, &c, 1) == 1) {
		testutil_touch_pages(c * 10u);
		if (write(done, "d", 1) != 1)
			return 2;
	}
	return 0;
}

static struct child child_start(int cpu)
{
	int a[2], b[2];
	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	struct child c = {.pid = fork()};
	assert_true(c.pid >= 0);
	if (c.pid == 0) {
		if (cpu >= 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		close(a[1]);
		close(b[0]);
		char cmd[16], done[16];
		snprintf(cmd, sizeof(cmd), "%d", a[0]);
		snprintf(done, sizeof(done), "%d", b[1]);
		execl(self, self, "--worker", cmd, done, (char *)NULL);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	c.cmd = a[1];
	c.done = b[0];
	char r;
	assert_int_equal(read(c.done, &r, 1), 1);
	assert_int_equal(r, 'r');
	return c;
}

/* Touch tens*10 pages in the child and wait until it has, and is back in read() off its
 * CPU (60 s at most): its counters have stopped moving. */
static void child_touch(struct child *c, unsigned char tens)
{
	char r;
	assert_int_equal(write(c->cmd, &tens, 1), 1);
	assert_int_equal(read(c->done, &r, 1), 1);
	assert_int_equal(r, 'd');
	assert_true(testutil_wait_blocked_in(c->pid, c->pid, SYS_read, 60));
}

static void child_stop(struct child *c)
{
	close(c->cmd);
	int st;
	assert_int_equal(waitpid(c->pid, &st, 0), c->pid);
	close(c->done);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_read_format(void **state)
{
	(void)state;
	uint64_t f = evgroup_read_format();
	assert_true(f & PERF_FORMAT_GROUP);
	assert_true(f & PERF_FORMAT_ID);
	assert_true(f & PERF_FORMAT_TOTAL_TIME_ENABLED);
	assert_true(f & PERF_FORMAT_TOTAL_TIME_RUNNING);
	evgroup_free(NULL);
}

static void test_task_group(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	struct child c = child_start(-1);
	struct evgroup_opts o = {.pid = c.pid, .cpu = -1};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_non_null(g);
	assert_int_equal(evgroup_members(g), 3);
	assert_int_equal(evgroup_open_count(g), 3);
	assert_true(evgroup_leader_fd(g) >= 0);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(evgroup_status(g, i), EVS_OK);
	assert_int_equal(evgroup_status(g, 3), EVS_UNOPENED);

	struct evread_group r1, r2, r3;
	child_touch(&c, 0);
	assert_int_equal(evgroup_read(g, &r1), 0);
	assert_int_equal(r1.nr, 3);
	/* 100 fresh pages: exactly 100 more faults, the round trip itself costs none. */
	child_touch(&c, 10);
	assert_int_equal(evgroup_read(g, &r2), 0);
	assert_int_equal(r2.nr, 3);
	assert_true(r2.ena > r1.ena);
	assert_true(r2.run > r1.run);
	assert_true(r2.run == r2.ena); /* software events never multiplex */
	assert_true(r2.val[0] > r1.val[0]);
	assert_int_equal(r2.val[1] - r1.val[1], 100);
	/* Each round trip blocks the child in read(): at least one switch. */
	assert_true(r2.val[2] >= r1.val[2] + 1);
	child_touch(&c, 25);
	assert_int_equal(evgroup_read(g, &r3), 0);
	assert_int_equal(r3.val[1] - r2.val[1], 250);
	/* The child is gone: its final values stay readable. */
	child_stop(&c);
	struct evread_group r4;
	assert_int_equal(evgroup_read(g, &r4), 0);
	assert_true(r4.val[1] >= r3.val[1]);
	evgroup_free(g);
}

/* A probed group: the task-clock leader reads alone, the group through a sibling. The
 * probe says whether the task ran: unchanged while it sleeps, moved once it has run. */
/* End the child and its group; start another child with a group opened without probe. */
static void restart_unprobed(struct child *c, struct evgroup **g, const struct evgroup_spec *spec,
			     struct evgroup_opts *o)
{
	child_stop(c);
	evgroup_free(*g);
	*c = child_start(-1);
	o->pid = c->pid;
	o->probe = false;
	assert_int_equal(evgroup_open(spec, o, g), 0);
}

static void test_probe(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	struct child c = child_start(-1);
	struct evgroup_opts o = {.pid = c.pid, .cpu = -1, .probe = true};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_int_equal(evgroup_open_count(g), 3);
	child_touch(&c, 0);
	struct evread_group r1, r2;
	uint64_t p1, p2, p3, e1, e2, e3;
	/* Asleep in read(): two probes 10 ms apart agree. */
	assert_int_equal(evgroup_probe(g, &p1, &e1), 0);
	usleep(10000);
	assert_int_equal(evgroup_probe(g, &p2, &e2), 0);
	assert_true(p1 == p2 && e1 == e2);
	assert_int_equal(evgroup_read(g, &r1), 0);
	assert_int_equal(r1.nr, 3);
	/* The group read says what the probe said: task-clock and the group's time. */
	assert_true(r1.val[0] == p2 && r1.ena == e2);
	usleep(20000);
	assert_int_equal(evgroup_probe(g, &p2, &e2), 0);
	assert_true(p2 == p1 && e2 == e1);
	child_touch(&c, 10);
	assert_int_equal(evgroup_probe(g, &p3, &e3), 0);
	assert_true(p3 > p2 && e3 > e2);
	assert_int_equal(evgroup_read(g, &r2), 0);
	assert_true(r2.val[0] == p3);
	assert_int_equal(r2.val[1] - r1.val[1], 100);
	assert_true(r2.val[2] >= r1.val[2] + 1);
	/* A group not opened to be probed says so, without a read. */
	restart_unprobed(&c, &g, &spec, &o);
	assert_int_equal(evgroup_probe(g, &p1, &e1), -ENOTSUP);
	evgroup_free(g);

	/* A probed leader alone: its own read is the group's. */
	struct evgroup_spec one = {.n = 1, .ev = {spec.ev[0]}};
	o.probe = true;
	assert_int_equal(evgroup_open(&one, &o, &g), 0);
	child_touch(&c, 1); /* asleep again: a read and a probe agree */
	assert_int_equal(evgroup_read(g, &r1), 0);
	assert_int_equal(r1.nr, 1);
	assert_true(r1.val[0] > 0 && r1.ena > 0 && r1.run == r1.ena);
	assert_int_equal(evgroup_probe(g, &p1, &e1), 0);
	assert_true(p1 == r1.val[0] && e1 == r1.ena);
	child_stop(&c);
	evgroup_free(g);
}

/* The probe's mapped page: its count stands while the task sleeps (reads of the group
 * included) and moves with each run, however short; a group not mapped has none, one
 * without a probe cannot be. */
static void test_probe_seq(void **state)
{
	(void)state;
	if (!evgroup_seq_works())
		skip(); /* a kernel that does not rewrite the page at each run */
	struct evgroup_spec spec = basic();
	struct child c = child_start(-1);
	struct evgroup_opts o = {.pid = c.pid, .cpu = -1, .probe = true};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_null(evgroup_probe_seq(g));
	assert_int_equal(evgroup_map_probe(g), 0);
	assert_int_equal(evgroup_map_probe(g), 0); /* once */
	const volatile uint32_t *seq = evgroup_probe_seq(g);
	assert_non_null(seq);
	struct evread_group r;
	for (int run = 0; run < 20; run++) {
		child_touch(&c, run % 3);
		/* Back in read() and asleep: the count stands, and a read leaves it. */
		uint32_t s1 = *seq;
		usleep(5000);
		uint32_t s2 = *seq;
		assert_int_equal(s1, s2);
		assert_int_equal(evgroup_read(g, &r), 0);
		uint64_t v = r.val[0];
		usleep(5000);
		assert_int_equal(*seq, s2);
		assert_int_equal(evgroup_read(g, &r), 0);
		assert_true(r.val[0] == v); /* it did not run: the count did not lie */
		child_touch(&c, 0);
		assert_true(*seq != s2);
	}
	restart_unprobed(&c, &g, &spec, &o);
	assert_int_equal(evgroup_map_probe(g), -ENOTSUP);
	assert_null(evgroup_probe_seq(g));
	child_stop(&c);
	evgroup_free(g);
}

/* A CPU-wide group needs CAP_PERFMON (root here, or perf_event_paranoid <= 0). */
static void open_cpu0_or_skip(const struct evgroup_spec *spec, const struct evgroup_opts *o,
			      struct evgroup **g)
{
	int err = evgroup_open(spec, o, g);
	if (err == -EACCES || err == -EPERM) {
		evgroup_free(*g);
		skip();
	}
	assert_int_equal(err, 0);
}

static void test_cpu_group(void **state)
{
	(void)state;
	/* pid -1, cpu 0: everything on CPU 0, including a child pinned there. */
	struct evgroup_spec spec = basic();
	struct evgroup_opts o = {.pid = -1, .cpu = 0};
	struct evgroup *g = NULL;
	open_cpu0_or_skip(&spec, &o, &g);
	assert_int_equal(evgroup_open_count(g), 3);
	struct evread_group r1, r2;
	assert_int_equal(evgroup_read(g, &r1), 0);
	assert_int_equal(r1.nr, 3);
	struct child c = child_start(0);
	child_touch(&c, 50);
	for (int i = 0; i < 10; i++)
		child_touch(&c, 0);
	child_stop(&c);
	assert_int_equal(evgroup_read(g, &r2), 0);
	assert_true(r2.ena > r1.ena);
	assert_true(r2.run > r1.run);
	assert_true(r2.val[0] > r1.val[0]);
	assert_true(r2.val[1] - r1.val[1] >= 500);
	/* Siblings of a per-CPU group count too (not only the leader): the child blocked
	 * eleven times on CPU 0. */
	assert_true(r2.val[2] - r1.val[2] >= 11);
	evgroup_free(g);
}

static void test_disable(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	struct evgroup_opts o = {.pid = -1, .cpu = 0};
	struct evgroup *g = NULL;
	open_cpu0_or_skip(&spec, &o, &g);
	assert_int_equal(evgroup_enable(g, false), 0);
	struct evread_group r1, r2;
	assert_int_equal(evgroup_read(g, &r1), 0);
	struct child c = child_start(0);
	child_touch(&c, 20);
	child_stop(&c);
	assert_int_equal(evgroup_read(g, &r2), 0);
	assert_true(r2.ena == r1.ena);
	assert_true(r2.val[1] == r1.val[1]);
	/* And on again. */
	assert_int_equal(evgroup_enable(g, true), 0);
	c = child_start(0);
	child_touch(&c, 20);
	child_stop(&c);
	assert_int_equal(evgroup_read(g, &r2), 0);
	assert_true(r2.ena > r1.ena);
	assert_true(r2.val[1] - r1.val[1] >= 200);
	evgroup_free(g);
}

static bool cycles_unsupported(void)
{
	struct evgroup_spec one = {.n = 1};
	one.ev[0] = hw_cycles();
	struct evgroup_opts o = {.pid = 0, .cpu = -1};
	struct evgroup *g = NULL;
	evgroup_open(&one, &o, &g);
	bool unsupported = g && evgroup_status(g, 0) == EVS_UNSUPPORTED;
	evgroup_free(g);
	return unsupported;
}

/* One member that cannot exist: it says why, and the others still count. */
static void check_one_missing(struct evdesc bad, unsigned at)
{
	struct evgroup_spec spec = {.n = 3};
	unsigned k = 0;
	for (unsigned i = 0; i < 3; i++) {
		if (i == at)
			spec.ev[i] = bad;
		else if (k++ == 0)
			spec.ev[i] = sw("task-clock", PERF_COUNT_SW_TASK_CLOCK);
		else
			spec.ev[i] = sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS);
	}
	unsigned tc = at == 0 ? 1 : 0, pf = at == 2 ? 1 : 2;
	struct child c = child_start(-1);
	struct evgroup_opts o = {.pid = c.pid, .cpu = -1};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_int_equal(evgroup_status(g, at), EVS_UNSUPPORTED);
	assert_int_equal(evgroup_status(g, tc), EVS_OK);
	assert_int_equal(evgroup_status(g, pf), EVS_OK);
	assert_int_equal(evgroup_open_count(g), 2);
	struct evread_group r1, r2;
	child_touch(&c, 0);
	assert_int_equal(evgroup_read(g, &r1), 0);
	child_touch(&c, 10);
	assert_int_equal(evgroup_read(g, &r2), 0);
	assert_int_equal(r2.nr, 3); /* spec order, the missing one included */
	assert_int_equal(r2.val[at], 0);
	assert_true(r2.val[tc] > r1.val[tc]);
	assert_int_equal(r2.val[pf] - r1.val[pf], 100);
	child_stop(&c);
	evgroup_free(g);
}

static void test_unsupported_member(void **state)
{
	(void)state;
	check_one_missing(impossible(), 1);
	check_one_missing(impossible(), 2);
	/* The leader missing: the next member leads. */
	check_one_missing(impossible(), 0);
}

static void test_hardware_member_here(void **state)
{
	(void)state;
	/* On this machine (no PMU) cycles fails with ENOENT: the same path, for real. */
	if (!cycles_unsupported())
		skip();
	check_one_missing(hw_cycles(), 0);
	check_one_missing(hw_cycles(), 1);
}

/* Context switches counted in user mode only (:u) would read 0 whatever the task does:
 * the member is not opened and says why; page faults :u (user faults) still count. */
static void test_kernel_only_user_mode(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	for (unsigned i = 0; i < spec.n; i++) {
		spec.ev[i].attr.exclude_kernel = 1;
		spec.ev[i].explicit_plm = true;
	}
	struct evgroup_opts o = {.pid = 0, .cpu = -1};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_int_equal(evgroup_status(g, 0), EVS_OK);
	assert_int_equal(evgroup_status(g, 1), EVS_OK);
	assert_int_equal(evgroup_status(g, 2), EVS_KERNEL_ONLY);
	assert_int_equal(evgroup_open_count(g), 2);
	evgroup_free(g);
	/* The same without :u counts. */
	spec = basic();
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_int_equal(evgroup_status(g, 2), EVS_OK);
	evgroup_free(g);
}

/* A tracepoint's desc as the parser makes one (its id from tracefs; any number here). */
static struct evdesc tracepoint(void)
{
	struct evdesc d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "sched:sched_wakeup");
	d.attr.type = PERF_TYPE_TRACEPOINT;
	d.attr.size = sizeof(d.attr);
	d.attr.config = 300;
	d.software = true;
	return d;
}

static void test_spec_probeable(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	assert_true(evgroup_spec_probeable(&spec));
	/* Led by another software event. */
	spec.ev[0] = sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS);
	spec.ev[1] = sw("task-clock", PERF_COUNT_SW_TASK_CLOCK);
	assert_false(evgroup_spec_probeable(&spec));
	/* A hardware member can be off the PMU while its task runs. */
	spec = basic();
	spec.ev[spec.n++] = hw_cycles();
	assert_false(evgroup_spec_probeable(&spec));
	/* Task-clock's number in another type is not task-clock. */
	spec = basic();
	spec.ev[0].attr.type = PERF_TYPE_HARDWARE;
	assert_false(evgroup_spec_probeable(&spec));
	/* Software by its flag, but a tracepoint. */
	spec = basic();
	spec.ev[2] = tracepoint();
	assert_false(evgroup_spec_probeable(&spec));
	struct evgroup_spec alone = {.n = 1};
	alone.ev[0] = sw("task-clock", PERF_COUNT_SW_TASK_CLOCK);
	assert_true(evgroup_spec_probeable(&alone));
	/* No members, whatever is left in the array. */
	alone.n = 0;
	assert_false(evgroup_spec_probeable(&alone));
}

static void test_spec_remote(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	assert_false(evgroup_spec_remote(&spec));
	spec.ev[spec.n++] = hw_cycles();
	assert_false(evgroup_spec_remote(&spec));
	spec.ev[spec.n++] = tracepoint();
	assert_true(evgroup_spec_remote(&spec));
	struct evgroup_spec alone = {.n = 1};
	alone.ev[0] = tracepoint();
	assert_true(evgroup_spec_remote(&alone));
	alone.n = 0;
	assert_false(evgroup_spec_remote(&alone));
	/* Not a tracepoint: neither software nor hardware, but not remote either. */
	spec = basic();
	spec.ev[1].attr.type = 9;
	assert_false(evgroup_spec_remote(&spec));
}

static void test_kernel_only_events(void **state)
{
	(void)state;
	struct evdesc cs = sw("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct evdesc mig = sw("cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS);
	assert_true(evgroup_kernel_only(&cs));
	assert_true(evgroup_kernel_only(&mig));
	struct evdesc tc = sw("task-clock", PERF_COUNT_SW_TASK_CLOCK);
	struct evdesc pf = sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS);
	assert_false(evgroup_kernel_only(&tc));
	assert_false(evgroup_kernel_only(&pf));
	/* Context switches' number as a hardware event is branch-instructions. */
	struct evdesc hw = hw_cycles();
	hw.attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	assert_false(evgroup_kernel_only(&hw));
}

static void test_preset(void **state)
{
	(void)state;
	/* A member known in advance to be unsupported is not tried again. */
	struct evgroup_spec spec = basic();
	const uint8_t preset[3] = {EVS_OK, EVS_UNSUPPORTED, EVS_OK};
	struct child c = child_start(-1);
	struct evgroup_opts o = {.pid = c.pid, .cpu = -1, .preset = preset};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	assert_int_equal(evgroup_open_count(g), 2);
	assert_int_equal(evgroup_status(g, 0), EVS_OK);
	assert_int_equal(evgroup_status(g, 1), EVS_UNSUPPORTED);
	assert_int_equal(evgroup_status(g, 2), EVS_OK);
	child_touch(&c, 10);
	struct evread_group r;
	assert_int_equal(evgroup_read(g, &r), 0);
	assert_int_equal(r.val[1], 0); /* page-faults was skipped although it would count */
	assert_true(r.val[0] > 0);
	assert_true(r.val[2] >= 1);
	child_stop(&c);
	evgroup_free(g);

	/* Every member preset away: nothing to read. */
	const uint8_t none[3] = {EVS_NOPERM, EVS_UNSUPPORTED, EVS_UNSUPPORTED};
	o.pid = 0;
	o.preset = none;
	int err = evgroup_open(&spec, &o, &g);
	assert_true(err < 0);
	assert_non_null(g);
	assert_int_equal(evgroup_open_count(g), 0);
	assert_int_equal(evgroup_status(g, 0), EVS_NOPERM);
	struct evread_group r2;
	assert_int_equal(evgroup_read(g, &r2), -ENODATA);
	evgroup_free(g);
}

static void test_no_such_task(void **state)
{
	(void)state;
	struct evgroup_spec spec = basic();
	struct evgroup_opts o = {.pid = NO_PID, .cpu = -1};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), -ESRCH);
	assert_non_null(g); /* statuses still say why */
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(evgroup_status(g, i), EVS_NOTASK);
	assert_int_equal(evgroup_open_count(g), 0);
	evgroup_free(g);

	/* A child that has exited and been reaped. */
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0)
		_exit(0);
	assert_int_equal(waitpid(c, NULL, 0), c);
	o.pid = c;
	assert_int_equal(evgroup_open(&spec, &o, &g), -ESRCH);
	evgroup_free(g);
}

static void test_enable_on_exec(void **state)
{
	(void)state;
	/* Counting starts at the exec: nothing before it, the whole program after. */
	int go[2];
	assert_int_equal(pipe(go), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(go[1]);
		char x;
		if (read(go[0], &x, 1) != 1)
			_exit(2);
		testutil_touch_pages(500); /* before the exec: must not count */
		execl("/bin/sh", "sh", "-c", "exit 0", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	struct evgroup_spec spec = basic();
	struct evgroup_opts o = {.pid = c, .cpu = -1, .enable_on_exec = true};
	struct evgroup *g = NULL;
	assert_int_equal(evgroup_open(&spec, &o, &g), 0);
	struct evread_group r;
	assert_int_equal(evgroup_read(g, &r), 0);
	assert_int_equal(r.ena, 0);
	assert_int_equal(r.val[0], 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(evgroup_read(g, &r), 0);
	assert_true(r.ena > 0);
	assert_true(r.val[0] > 0);
	assert_true(r.val[1] > 0);   /* the shell's own faults */
	assert_true(r.val[1] < 500); /* but not the 500 pages touched before the exec */
	evgroup_free(g);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--worker") == 0)
		return child_loop(atoi(argv[2]), atoi(argv[3]));
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_format),
		cmocka_unit_test(test_task_group),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_probe_seq),
		cmocka_unit_test(test_cpu_group),
		cmocka_unit_test(test_disable),
		cmocka_unit_test(test_unsupported_member),
		cmocka_unit_test(test_hardware_member_here),
		cmocka_unit_test(test_kernel_only_user_mode),
		cmocka_unit_test(test_spec_probeable),
		cmocka_unit_test(test_spec_remote),
		cmocka_unit_test(test_kernel_only_events),
		cmocka_unit_test(test_preset),
		cmocka_unit_test(test_no_such_task),
		cmocka_unit_test(test_enable_on_exec),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
