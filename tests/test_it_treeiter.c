/* The tree iterator (events/treeiter.h) on a command that forks: with every task of the
 * tree asleep, the inherited counts it finds per task plus what the ended tasks folded
 * into the roots equal each root's read (perf stat's number for the tree), event by
 * event, to the count; each live process of the tree has its records, and a task outside
 * the tree has none. */
#include "testutil.h"

#include "treeiter.h"

#include <errno.h>
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
	bool outsider; /* a record of a task outside the tree */
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
		if (r[i].flags & TREEITER_ROOT) {
			s->nroot++;
			assert_int_equal(r[i].tid, cmd);
		}
		if ((pid_t)r[i].tgid == getpid())
			s->outsider = true;
		bool known = false;
		for (unsigned k = 0; k < s->tgids; k++)
			known |= s->tgid[k] == (pid_t)r[i].tgid;
		if (!known && s->tgids < 2 * NKIDS)
			s->tgid[s->tgids++] = (pid_t)r[i].tgid;
	}
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
		settled = true;
		for (int e = 0; e < NEV; e++)
			settled &= s.tasks[e] + s.ended[e] == root[e][0];
		/* a second read must agree too: nothing of the tree ran between */
		uint64_t again[3];
		assert_int_equal(read(fd[0], again, sizeof(again)), sizeof(again));
		settled &= again[0] == root[0][0];
	}
	assert_true(settled);
	for (int e = 0; e < NEV; e++)
		printf("event %d: tasks %llu + ended %llu = root %llu\n", e,
		       (unsigned long long)s.tasks[e], (unsigned long long)s.ended[e],
		       (unsigned long long)root[e][0]);
	/* the command and its NKIDS / 2 live children, each with every event */
	assert_int_equal(s.tgids, 1 + NKIDS / 2);
	assert_int_equal(s.nrec, NEV * (1 + NKIDS / 2));
	assert_int_equal(s.nroot, NEV);
	assert_false(s.outsider);
	/* the ended children's page faults (at least 100 and 300 pages) are in the roots */
	assert_true(s.ended[1] >= 400);
	assert_true(s.tasks[1] >= 200 + 400 + 50);

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_sums),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
