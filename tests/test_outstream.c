/* outstream.h: batch output a stop signal cuts short. A writer stuck on a pipe nobody
 * reads ends with EINTR once SIGTERM is pending, and writes nothing after. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "outstream.h"

struct writer {
	FILE *f;
	int rc, err;
	volatile bool done;
};

static void *write_much(void *arg)
{
	struct writer *w = arg;
	static char block[1 << 16];
	memset(block, 'x', sizeof(block));
	size_t n = fwrite(block, 1, sizeof(block), w->f);
	w->rc = n == sizeof(block) && fflush(w->f) == 0 ? 0 : EOF;
	w->err = errno;
	w->done = true;
	return NULL;
}

static void test_stop_signal_ends_a_blocked_write(void **state)
{
	(void)state;
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	assert_int_equal(pthread_sigmask(SIG_BLOCK, &term, &old), 0); /* as the run loop does */
	int p[2];
	assert_int_equal(pipe(p), 0);
	int cap = fcntl(p[1], F_SETPIPE_SZ, 4096);
	assert_true(cap > 0);
	FILE *f = outstream_open(p[1], true);
	assert_non_null(f);
	struct writer w = {.f = f};
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, write_much, &w), 0);
	/* The pipe full: the writer waits for a reader that never comes. */
	int queued = 0;
	for (double end = testutil_now() + 60; testutil_now() < end && queued < cap;
	     testutil_nap_ms(10))
		assert_int_equal(ioctl(p[0], FIONREAD, &queued), 0);
	assert_int_equal(queued, cap);
	assert_false(w.done);
	kill(getpid(), SIGTERM); /* pending: blocked in every thread */
	for (double end = testutil_now() + 60; testutil_now() < end && !w.done;)
		testutil_nap_ms(10);
	assert_true(w.done); /* a plain stdio stream stays in write() for ever */
	pthread_join(t, NULL);
	assert_int_equal(w.rc, EOF);
	assert_int_equal(w.err, EINTR);
	/* Nothing more is written, whatever follows. */
	assert_int_equal(fputs("more", f) == EOF || fflush(f) == EOF, 1);
	assert_int_equal(ioctl(p[0], FIONREAD, &queued), 0);
	assert_int_equal(queued, cap);
	/* The signal is still pending, for the run loop to take. */
	struct timespec zero = {0};
	assert_int_equal(sigtimedwait(&term, NULL, &zero), SIGTERM);
	fclose(f);
	close(p[0]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Without a stop signal, everything gets through to a reader that reads. */
static void test_everything_written(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	FILE *f = outstream_open(p[1], true);
	assert_non_null(f);
	struct writer w = {.f = f};
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, write_much, &w), 0);
	static char buf[1 << 16];
	size_t got = 0;
	while (got < sizeof(buf)) {
		ssize_t r = read(p[0], buf + got, sizeof(buf) - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
	pthread_join(t, NULL);
	assert_int_equal(w.rc, 0);
	for (size_t i = 0; i < got; i++)
		if (buf[i] != 'x')
			fail_msg("byte %zu is %d", i, buf[i]);
	fclose(f);
	close(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_signal_ends_a_blocked_write),
		cmocka_unit_test(test_everything_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
