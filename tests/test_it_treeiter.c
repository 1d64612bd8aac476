/* The tree iterator (events/treeiter.h) on a command that forks: with every task of the
 * tree asleep, the inherited counts it finds per context plus what the ended tasks folded
 * into the roots equal each root's read (perf stat's number for the tree), event by
 * event, to the count; each live process of the tree has its records, and a task outside
 * the tree has none. The counts are per context, not per task: the kernel swaps two
 * tasks' cloned contexts, counts and all, when one switches to the other on a CPU. Then the engine
 * watching a command (-- COMMAND) with rows from it: the rows of every tick add up to the command's
 * total, which perf stat -p counting the same tree in the same window agrees with, and each child's
 * row holds its own pages. */
#include "testutil.h"

#include "engine.h"
#include "evset.h"
#include "model.h"
#include "treeiter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NKIDS 4 /* the command's children: the even ones end, the odd ones stay asleep */
#define NEV 3

static const uint64_t configs[NEV] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
				      PERF_COUNT_SW_CONTEXT_SWITCHES};

static int open_root(pid_t pid, uint64_t config)
{
	struct perf_event_attr a = {0};
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.inherit = 1;
	a.disabled = 1;
	a.enable_on_exec = 0;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void spin_ms(long ms)
{
	double end = testutil_now() + ms / 1000.0;
	while (testutil_now() < end)
		;
}

/* The command: forks NKIDS children that fault pages and spin; waits for the ending
 * ones, says so on ready, then sleeps on hold with the others until it closes. */
static void command(int go, int ready, int hold)
{
	char c;
	if (read(go, &c, 1) != 1)
		_exit(2);
	pid_t kid[NKIDS];
	for (int i = 0; i < NKIDS; i++) {
		kid[i] = fork();
		if (kid[i] < 0)
			_exit(3);
		if (kid[i] == 0) {
			testutil_touch_pages(100u * (uint32_t)(i + 1));
			spin_ms(20);
			if (i % 2 == 0)
				_exit(0);
			if (write(ready, "k", 1) != 1)
				_exit(4);
			while (read(hold, &c, 1) > 0)
				;
			_exit(0);
		}
	}
	for (int i = 0; i < NKIDS; i += 2)
		if (waitpid(kid[i], NULL, 0) != kid[i])
			_exit(5);
	testutil_touch_pages(50);
	if (write(ready, "c", 1) != 1)
		_exit(6);
	while (read(hold, &c, 1) > 0)
		;
	for (int i = 1; i < NKIDS; i += 2)
		waitpid(kid[i], NULL, 0);
	_exit(0);
}

struct sums {
	uint64_t tasks[NEV], ended[NEV];
	unsigned nrec, nroot, tgids;
	pid_t tgid[2 * NKIDS];
	uint64_t faults[2 * NKIDS]; /* per tgid */
	bool outsider;		    /* a record of a task outside the tree */
};

static void gather(struct treeiter *it, pid_t cmd, struct sums *s)
{
	const struct treeiter_rec *r;
	size_t n;
	memset(s, 0, sizeof(*s));
	assert_int_equal(treeiter_read(it, &r, &n), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(r[i].idx < NEV);
		s->tasks[r[i].idx] += r[i].count;
		s->ended[r[i].idx] += r[i].child;
		s->nrec++;
		/* The root event may sit in any task of the tree: the kernel swaps cloned
		 * contexts between two of its tasks switching on a CPU. */
		s->nroot += (r[i].flags & TREEITER_ROOT) != 0;
		if ((pid_t)r[i].tgid == getpid())
			s->outsider = true;
		unsigned k = 0;
		while (k < s->tgids && s->tgid[k] != (pid_t)r[i].tgid)
			k++;
		if (k == s->tgids && s->tgids < 2 * NKIDS)
			s->tgid[s->tgids++] = (pid_t)r[i].tgid;
		if (k < 2 * NKIDS && r[i].idx == 1)
			s->faults[k] += r[i].count;
	}
	(void)cmd;
}

static void test_tree_sums(void **state)
{
	(void)state;
	int go[2], ready[2], hold[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(hold), 0);
	pid_t cmd = fork();
	assert_true(cmd >= 0);
	if (cmd == 0) {
		close(go[1]);
		close(ready[0]);
		close(hold[1]);
		command(go[0], ready[1], hold[0]);
	}
	close(go[0]);
	close(ready[1]);
	close(hold[0]);

	int fd[NEV];
	uint64_t id[NEV];
	for (int e = 0; e < NEV; e++) {
		fd[e] = open_root(cmd, configs[e]);
		assert_true(fd[e] >= 0);
		id[e] = treeiter_event_id(fd[e]);
		assert_true(id[e] != 0);
	}
	struct treeiter *it = NULL;
	int err = treeiter_open(id, NEV, &it);
	if (err == -ENOTSUP || err == -ENOENT || err == -EPERM) {
		kill(cmd, SIGKILL);
		waitpid(cmd, NULL, 0);
		skip();
	}
	assert_int_equal(err, 0);
	for (int e = 0; e < NEV; e++)
		assert_int_equal(ioctl(fd[e], PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	/* NKIDS / 2 children and the command say they are about to sleep. */
	char c;
	for (int i = 0; i < NKIDS / 2 + 1; i++)
		assert_int_equal(read(ready[0], &c, 1), 1);
	/* Each sleeps once it is blocked on hold: wait until none of the tree runs. */
	struct sums s;
	uint64_t root[NEV][3];
	bool settled = false;
	for (double end = testutil_now() + 30; !settled && testutil_now() < end;) {
		testutil_nap_ms(50);
		for (int e = 0; e < NEV; e++)
			assert_int_equal(read(fd[e], root[e], sizeof(root[e])), sizeof(root[e]));
		gather(it, cmd, &s);
		/* A root's own count is out of sight once a task that ended held its
		 * context (swapped at a switch): then the records fall short of its read. */
		settled = true;
		for (int e = 0; e < NEV; e++)
			settled &= s.nroot == NEV ? s.tasks[e] + s.ended[e] == root[e][0]
						  : s.tasks[e] + s.ended[e] <= root[e][0];
		/* a second read must agree too: nothing of the tree ran between */
		uint64_t again[3];
		assert_int_equal(read(fd[0], again, sizeof(again)), sizeof(again));
		settled &= again[0] == root[0][0];
	}
	for (int e = 0; e < NEV; e++)
		printf("event %d: tasks %llu + ended %llu = root %llu\n", e,
		       (unsigned long long)s.tasks[e], (unsigned long long)s.ended[e],
		       (unsigned long long)root[e][0]);
	assert_true(settled);
	/* the command and its NKIDS / 2 live children, each with every event */
	assert_int_equal(s.tgids, 1 + NKIDS / 2);
	assert_true(s.nrec >= NEV * (1 + NKIDS / 2) - NEV && s.nrec <= NEV * (1 + NKIDS / 2));
	assert_true(s.nroot == NEV || s.nroot == 0);
	assert_false(s.outsider);
	/* every child's pages and the command's, wherever the contexts went */
	assert_true(root[1][0] >= 100 + 200 + 300 + 400 + 50);

	close(hold[1]);
	assert_int_equal(waitpid(cmd, NULL, 0), cmd);
	gather(it, cmd, &s);
	assert_int_equal(s.nrec, 0);
	treeiter_free(it);
	for (int e = 0; e < NEV; e++)
		close(fd[e]);
	close(go[1]);
	close(ready[0]);
}

/* The engine's command, once exec'd (argv: go, ready, hold descriptors): NKIDS
 * children touching (i + 1) * 100 pages, the even ones ending, the odd ones asleep until
 * hold closes; the command touches 50 more once the even ones ended. */
static int tree_command(char **argv)
{
	int go = atoi(argv[2]), ready = atoi(argv[3]), hold = atoi(argv[4]);
	command(go, ready, hold);
	return 0;
}

static const char *self;

enum { EV_TC, EV_PF, EV_CS };

static double value(const struct mrow *r, int ev)
{
	if (r->v[ev].state != VAL_EXACT)
		fail_msg("event %d of %d is in state %d, not exact", ev, (int)r->pid,
			 r->v[ev].state);
	return r->v[ev].v;
}

static void test_engine_rows(void **state)
{
	(void)state;
	struct evset set;
	struct evspec_err perr;
	memset(&perr, 0, sizeof(perr));
	assert_int_equal(
		evset_parse(&set, "{task-clock,page-faults,context-switches}", NULL, &perr), 0);
	int go[2], ready[2], hold[2], start[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(hold), 0);
	assert_int_equal(pipe2(start, O_CLOEXEC), 0);
	pid_t cmd = fork();
	assert_true(cmd >= 0);
	if (cmd == 0) {
		close(go[1]);
		close(ready[0]);
		close(hold[1]);
		close(start[1]);
		char c, a[3][16];
		if (read(start[0], &c, 1) != 1)
			_exit(7);
		snprintf(a[0], sizeof(a[0]), "%d", go[0]);
		snprintf(a[1], sizeof(a[1]), "%d", ready[1]);
		snprintf(a[2], sizeof(a[2]), "%d", hold[0]);
		execl(self, self, "--tree", a[0], a[1], a[2], (char *)NULL);
		_exit(8);
	}
	close(go[0]);
	close(ready[1]);
	close(hold[0]);
	close(start[0]);
	/* not into perf stat, which would hold the command's hold open */
	fcntl(go[1], F_SETFD, FD_CLOEXEC);
	fcntl(ready[0], F_SETFD, FD_CLOEXEC);
	fcntl(hold[1], F_SETFD, FD_CLOEXEC);
	struct engine_opts o = {.root = "",
				.scope = SCOPE_PIDS,
				.pids = &cmd,
				.npids = 1,
				.enable_on_exec = true,
				.inherit = true,
				.tree_iter = true,
				.no_cpu_rows = true,
				.interval = 0.1};
	int err = 1;
	struct engine *e = engine_new(&set, &o, &err);
	assert_int_equal(err, 0);
	const struct model *m = engine_model(e);
	if (!m->source_notice || !strstr(m->source_notice, "inherited counters")) {
		engine_free(e);
		kill(cmd, SIGKILL);
		waitpid(cmd, NULL, 0);
		evset_free(&set);
		skip(); /* no iterator here: the per-process groups, tested elsewhere */
	}
	/* perf stat -p on the same command, its window enclosing the command's life */
	char dir[] = "/tmp/pmutop-treeiter-XXXXXX", pid[16];
	assert_non_null(mkdtemp(dir));
	snprintf(pid, sizeof(pid), "%d", (int)cmd);
	const char *extra[] = {"-p", pid, NULL};
	struct testutil_perf perf;
	bool have_perf = testutil_perf_start(&perf, dir, "task-clock,page-faults,context-switches",
					     extra, 60);
	assert_int_equal(write(start[1], "s", 1), 1);
	close(start[1]);
	assert_int_equal(write(go[1], "g", 1), 1);

	double sum[NEV] = {0};
	unsigned nready = 0;
	bool released = false;
	bool reaped = false;
	for (double end = testutil_now() + 60; !reaped || engine_watched_alive(e);) {
		assert_true(testutil_now() < end);
		testutil_nap_ms(100);
		assert_int_equal(engine_tick(e), 0);
		for (unsigned i = 0; i < m->nrows; i++) {
			const struct mrow *r = &m->rows[i];
			if (r->kind != ROW_PROC)
				continue;
			for (int ev = 0; ev < NEV; ev++)
				sum[ev] += value(r, ev);
		}
		/* Every process asleep (the command said so last): let them end. */
		char c;
		while (!released && nready < NKIDS / 2 + 1 && read(ready[0], &c, 1) == 1)
			nready++;
		if (!released && nready == NKIDS / 2 + 1 && m->tick >= 3) {
			close(hold[1]);
			released = true;
		}
		int st;
		if (!reaped && waitpid(cmd, &st, WNOHANG) == cmd) {
			assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
			reaped = true;
		}
	}
	if (have_perf)
		have_perf = testutil_perf_stop(&perf, false, 60);
	engine_totals(e);
	const struct mrow *tot = NULL;
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].kind == ROW_PROC && m->rows[i].pid == cmd)
			tot = &m->rows[i];
	assert_non_null(tot);
	for (int ev = 0; ev < NEV; ev++) {
		printf("event %d: rows %.0f, total %.0f, perf stat %.0f\n", ev, sum[ev],
		       value(tot, ev),
		       have_perf ? testutil_perf_value(&perf, ev == EV_TC   ? "task-clock"
							      : ev == EV_PF ? "page-faults"
									    : "context-switches")
				 : -1);
		if (sum[ev] != value(tot, ev))
			fail_msg("event %d: the rows add up to %.0f, the total is %.0f", ev,
				 sum[ev], value(tot, ev));
	}
	/* The page faults against perf stat -p's, attached before the exec: it counts the
	 * exec itself too, which the command's counters (enabled at its exec) do not. */
	if (have_perf) {
		double theirs = testutil_perf_value(&perf, "page-faults");
		if (value(tot, EV_PF) > theirs || value(tot, EV_PF) < theirs - 100)
			fail_msg("the tree's total is %.0f page faults, perf stat's %.0f",
				 value(tot, EV_PF), theirs);
	}
	engine_free(e);
	evset_free(&set);
	close(go[1]);
	close(ready[0]);
	char path[128];
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		fail_msg("could not remove %s", dir);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--tree") == 0)
		return tree_command(argv);
	self = argv[0];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_sums),
		cmocka_unit_test(test_engine_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
