/* taskwatch: the record parser over hand-built PERF_RECORD_* records, then the live
 * per-CPU watchers (root) seeing a child's fork, exec and exit, and every record of a
 * long run of renames across the ring buffer's wrap. */
#include "testutil.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "taskwatch.h"

#define MAXREC 16384

struct seen {
	unsigned n;
	struct taskwatch_rec r[MAXREC];
};

static void record(void *ctx, const struct taskwatch_rec *r)
{
	struct seen *s = ctx;
	if (s->n < MAXREC)
		s->r[s->n] = *r;
	s->n++;
}

/* Builders write one record at p and return its size. */
static size_t put_task(unsigned char *p, uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid,
		       uint32_t ptid)
{
	struct perf_event_header h = {.type = type, .misc = 0, .size = 8 + 16 + 8};
	uint32_t ids[4] = {pid, ppid, tid, ptid};
	uint64_t time = 123456789;
	memcpy(p, &h, 8);
	memcpy(p + 8, ids, 16);
	memcpy(p + 24, &time, 8);
	return h.size;
}

static size_t put_comm(unsigned char *p, uint16_t misc, uint32_t pid, uint32_t tid,
		       const char *comm)
{
	size_t len = strlen(comm) + 1;
	size_t padded = (len + 7) & ~(size_t)7;
	struct perf_event_header h = {
		.type = PERF_RECORD_COMM, .misc = misc, .size = (uint16_t)(8 + 8 + padded)};
	uint32_t ids[2] = {pid, tid};
	memcpy(p, &h, 8);
	memcpy(p + 8, ids, 8);
	memset(p + 16, 0, padded);
	memcpy(p + 16, comm, len);
	return h.size;
}

static size_t put_lost(unsigned char *p, uint64_t id, uint64_t lost)
{
	struct perf_event_header h = {.type = PERF_RECORD_LOST, .misc = 0, .size = 24};
	memcpy(p, &h, 8);
	memcpy(p + 8, &id, 8);
	memcpy(p + 16, &lost, 8);
	return h.size;
}

static size_t put_other(unsigned char *p, uint32_t type, uint16_t size)
{
	struct perf_event_header h = {.type = type, .misc = 0, .size = size};
	memset(p, 0xee, size);
	memcpy(p, &h, 8);
	return size;
}

static void test_parse_records(void **state)
{
	(void)state;
	static struct seen s;
	memset(&s, 0, sizeof(s));
	_Alignas(8) unsigned char buf[512];
	size_t n = 0;
	n += put_task(buf + n, PERF_RECORD_FORK, 100, 1, 101, 1);
	n += put_other(buf + n, PERF_RECORD_MMAP, 48); /* not ours: skipped whole */
	n += put_comm(buf + n, PERF_RECORD_MISC_COMM_EXEC, 100, 101, "sleep");
	n += put_comm(buf + n, 0, 100, 102, "worker");
	n += put_lost(buf + n, 9, 17);
	n += put_other(buf + n, 99, 16); /* unknown type */
	n += put_task(buf + n, PERF_RECORD_EXIT, 100, 1, 101, 1);
	assert_int_equal(taskwatch_parse(buf, n, record, &s), (long)n);
	assert_int_equal(s.n, 5);

	assert_int_equal(s.r[0].kind, TW_FORK);
	assert_int_equal(s.r[0].pid, 100);
	assert_int_equal(s.r[0].tid, 101);
	assert_int_equal(s.r[0].ppid, 1);
	assert_int_equal(s.r[0].ptid, 1);

	assert_int_equal(s.r[1].kind, TW_COMM);
	assert_int_equal(s.r[1].pid, 100);
	assert_int_equal(s.r[1].tid, 101);
	assert_true(s.r[1].exec);
	assert_string_equal(s.r[1].comm, "sleep");

	assert_int_equal(s.r[2].kind, TW_COMM);
	assert_false(s.r[2].exec); /* prctl(PR_SET_NAME), not an exec */
	assert_int_equal(s.r[2].tid, 102);
	assert_string_equal(s.r[2].comm, "worker");

	assert_int_equal(s.r[3].kind, TW_LOST);
	assert_int_equal(s.r[3].lost, 17);

	assert_int_equal(s.r[4].kind, TW_EXIT);
	assert_int_equal(s.r[4].pid, 100);
	assert_int_equal(s.r[4].tid, 101);
}

static void test_parse_comm_lengths(void **state)
{
	(void)state;
	static struct seen s;
	memset(&s, 0, sizeof(s));
	_Alignas(8) unsigned char buf[256];
	size_t n = 0;
	n += put_comm(buf + n, 0, 1, 1, "abcdefghijklmno"); /* 15: the kernel's longest */
	n += put_comm(buf + n, 0, 1, 1, "");
	/* A record whose name has no NUL within its 16 bytes: cut, still terminated. */
	struct perf_event_header h = {.type = PERF_RECORD_COMM, .size = 8 + 8 + 24};
	memcpy(buf + n, &h, 8);
	memset(buf + n + 8, 0, 8);
	memset(buf + n + 16, 'z', 24);
	n += h.size;
	assert_int_equal(taskwatch_parse(buf, n, record, &s), (long)n);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.r[0].comm, "abcdefghijklmno");
	assert_string_equal(s.r[1].comm, "");
	assert_int_equal(strlen(s.r[2].comm), 15);
}

static void test_parse_partial_tail(void **state)
{
	(void)state;
	static struct seen s;
	memset(&s, 0, sizeof(s));
	_Alignas(8) unsigned char buf[256];
	size_t whole = put_task(buf, PERF_RECORD_FORK, 5, 1, 5, 1);
	whole += put_task(buf + whole, PERF_RECORD_EXIT, 5, 1, 5, 1);
	size_t next = put_task(buf + whole, PERF_RECORD_FORK, 6, 1, 6, 1);
	/* Half of the third record: left for the next call, and not delivered. */
	assert_int_equal(taskwatch_parse(buf, whole + next / 2, record, &s), (long)whole);
	assert_int_equal(s.n, 2);
	/* Less than a header. */
	assert_int_equal(taskwatch_parse(buf, whole + 5, record, &s), (long)whole);
	assert_int_equal(s.n, 4);
	assert_int_equal(taskwatch_parse(buf, 0, record, &s), 0);
	assert_int_equal(taskwatch_parse(buf, 7, record, &s), 0);
	assert_int_equal(s.n, 4);
}

static void test_parse_malformed(void **state)
{
	(void)state;
	static struct seen s;
	memset(&s, 0, sizeof(s));
	_Alignas(8) unsigned char buf[64];
	/* A size smaller than the header would never advance: refused. */
	struct perf_event_header h = {.type = PERF_RECORD_FORK, .size = 4};
	memcpy(buf, &h, 8);
	assert_int_equal(taskwatch_parse(buf, 32, record, &s), -EINVAL);
	h.size = 0;
	memcpy(buf, &h, 8);
	assert_int_equal(taskwatch_parse(buf, 32, record, &s), -EINVAL);
	/* After good records too. */
	size_t n = put_task(buf, PERF_RECORD_FORK, 5, 1, 5, 1);
	memcpy(buf + n, &h, 8);
	assert_int_equal(taskwatch_parse(buf, n + 8, record, &s), -EINVAL);
	/* A task record too short for its body is skipped, not read past its end. */
	memset(&s, 0, sizeof(s));
	h.size = 16;
	memcpy(buf, &h, 8);
	memset(buf + 8, 0, 8);
	assert_int_equal(taskwatch_parse(buf, 16, record, &s), 16);
	assert_int_equal(s.n, 0);
}

/* Live watchers. */

static int online(int *cpus, int max)
{
	int n = procfs_online_cpus("", cpus, max);
	assert_true(n >= 1);
	return n;
}

/* System-wide watchers need CAP_PERFMON (root here); without it there is nothing to test. */
static void open_or_skip(const int *cpus, int n, struct taskwatch **w)
{
	int err = taskwatch_open(cpus, n, w);
	if (err == -EACCES || err == -EPERM)
		skip();
	assert_int_equal(err, 0);
	assert_non_null(*w);
}

static bool saw(const struct seen *s, enum taskwatch_kind kind, pid_t tid, pid_t ppid)
{
	for (unsigned i = 0; i < s->n && i < MAXREC; i++)
		if (s->r[i].kind == kind && s->r[i].tid == tid && s->r[i].pid == tid &&
		    (ppid == 0 || s->r[i].ppid == ppid))
			return true;
	return false;
}

static void test_live_fork_exit(void **state)
{
	(void)state;
	static struct seen s;
	memset(&s, 0, sizeof(s));
	int cpus[1024];
	int n = online(cpus, 1024);
	struct taskwatch *w = NULL;
	open_or_skip(cpus, n, &w);
	assert_non_null(w);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(taskwatch_drain(w, record, &s) >= 3);
	for (unsigned i = 0; i < s.n && i < MAXREC; i++)
		if (s.r[i].kind == TW_LOST) {
			taskwatch_free(w);
			skip(); /* someone else's fork storm overflowed a ring */
		}
	assert_true(saw(&s, TW_FORK, c, getpid()));
	assert_true(saw(&s, TW_EXIT, c, 0));
	bool exec_comm = false;
	for (unsigned i = 0; i < s.n && i < MAXREC; i++)
		if (s.r[i].kind == TW_COMM && s.r[i].tid == c && s.r[i].exec &&
		    strcmp(s.r[i].comm, "true") == 0)
			exec_comm = true;
	assert_true(exec_comm);
	/* Drained means consumed: the child's records do not come twice. */
	memset(&s, 0, sizeof(s));
	assert_true(taskwatch_drain(w, record, &s) >= 0);
	assert_false(saw(&s, TW_FORK, c, 0));
	assert_false(saw(&s, TW_EXIT, c, 0));
	taskwatch_free(w);
	taskwatch_free(NULL);
}

static void test_live_ring_wraps(void **state)
{
	(void)state;
	/* Renaming itself makes the kernel write a COMM record into the ring of the CPU this
	 * runs on: 24 or 32 bytes as the name is short or long. 20000 of them, pinned to one
	 * CPU, wrap its 128 KiB ring four times, with records across the end of the buffer.
	 * Drained every 500, the ring never overflows; every name must come back, in order.
	 * A batch in which the kernel reports lost records (someone else's fork storm on
	 * this CPU) cannot be judged. */
	enum { RENAMES = 20000, BATCH = 500, NBATCH = RENAMES / BATCH };
	static struct seen s;
	int cpus[1024];
	int n = online(cpus, 1024);
	struct taskwatch *w = NULL;
	open_or_skip(cpus, n, &w);
	cpu_set_t old, one;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	char keep[16] = "";
	prctl(PR_GET_NAME, keep, 0, 0, 0);
	pid_t me = getpid();
	int next = 0, judged = 0;
	char bad[128] = "";
	for (int b = 0; b < NBATCH; b++) {
		for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
			char name[16];
			snprintf(name, sizeof(name), "w%d%.*s", i, (i % 3) * 4, "xxxxxxxx");
			prctl(PR_SET_NAME, name, 0, 0, 0);
		}
		s.n = 0;
		int got = taskwatch_drain(w, record, &s);
		bool lost = got < 0 || s.n > MAXREC;
		for (unsigned k = 0; k < s.n && k < MAXREC; k++)
			lost = lost || s.r[k].kind == TW_LOST;
		next = (b + 1) * BATCH;
		if (lost)
			continue;
		judged++;
		int want = b * BATCH;
		for (unsigned k = 0; k < s.n && !bad[0]; k++) {
			const struct taskwatch_rec *r = &s.r[k];
			if (r->kind != TW_COMM || r->tid != me)
				continue;
			char name[16];
			snprintf(name, sizeof(name), "w%d%.*s", want, (want % 3) * 4, "xxxxxxxx");
			if (r->exec || r->pid != me || strcmp(r->comm, name) != 0)
				snprintf(bad, sizeof(bad), "record '%s', want '%s'", r->comm, name);
			want++;
		}
		if (!bad[0] && want != next)
			snprintf(bad, sizeof(bad), "batch %d: %d of %d names", b, want - b * BATCH,
				 BATCH);
		if (bad[0])
			break;
	}
	taskwatch_free(w);
	prctl(PR_SET_NAME, keep, 0, 0, 0);
	sched_setaffinity(0, sizeof(old), &old);
	if (bad[0])
		fail_msg("%s", bad);
	if (judged < NBATCH / 2) {
		print_message("only %d of %d batches free of lost records: busy machine\n", judged,
			      NBATCH);
		skip();
	}
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_records),
		cmocka_unit_test(test_parse_comm_lengths),
		cmocka_unit_test(test_parse_partial_tail),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_live_fork_exit),
		cmocka_unit_test(test_live_ring_wraps),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
