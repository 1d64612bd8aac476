/* outstream.h: batch output a stop signal cuts short. A writer stuck on a pipe nobody
 * reads ends with EINTR once SIGTERM is pending, and writes nothing after. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
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
	size_t n = 0;
	for (int i = 0; i < 4; i++) /* more than a pipe or a terminal holds */
		n += fwrite(block, 1, sizeof(block), w->f);
	w->rc = n == 4 * sizeof(block) && fflush(w->f) == 0 ? 0 : EOF;
	w->err = errno;
	w->done = true;
	return NULL;
}

static void block_term(sigset_t *old)
{
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	assert_int_equal(pthread_sigmask(SIG_BLOCK, &term, old), 0); /* as the run loop does */
}

/* The pending SIGTERM taken, as the run loop would, and the old mask back. */
static void take_term(const sigset_t *old)
{
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	struct timespec zero = {0};
	assert_int_equal(sigtimedwait(&term, NULL, &zero), SIGTERM);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* fd's reader never reads: once `queued(fd)` reaches full, SIGTERM; the writer must end
 * with EINTR and write nothing more. */
static void stuck_reader(int rfd, int wfd, int full, int (*queued)(int))
{
	sigset_t old;
	block_term(&old);
	FILE *f = outstream_open(wfd, true);
	assert_non_null(f);
	struct writer w = {.f = f};
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, write_much, &w), 0);
	int q = 0;
	for (double end = testutil_now() + 60; testutil_now() < end && q < full;
	     testutil_nap_ms(10))
		q = queued(rfd);
	assert_true(q >= full);
	assert_false(w.done);
	kill(getpid(), SIGTERM); /* pending: blocked in every thread */
	for (double end = testutil_now() + 60; testutil_now() < end && !w.done;)
		testutil_nap_ms(10);
	assert_true(w.done); /* a plain stdio stream stays in write() for ever */
	pthread_join(t, NULL);
	assert_int_equal(w.rc, EOF);
	assert_int_equal(w.err, EINTR);
	/* Nothing more is written, whatever follows. */
	int before = queued(rfd);
	assert_int_equal(fputs("more", f) == EOF || fflush(f) == EOF, 1);
	assert_int_equal(queued(rfd), before);
	/* The signal is still pending, for the run loop to take. */
	take_term(&old);
	fclose(f);
}

static int pipe_queued(int rfd)
{
	int q = 0;
	assert_int_equal(ioctl(rfd, FIONREAD, &q), 0);
	return q;
}

static void test_stop_signal_ends_a_blocked_write(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	int cap = fcntl(p[1], F_SETPIPE_SZ, 4096);
	assert_true(cap > 0);
	stuck_reader(p[0], p[1], cap, pipe_queued);
	close(p[0]);
}

/* A terminal nobody reads (a session paused with Ctrl-S, a stalled ssh link): the
 * tty's output buffer fills and a plain write() would wait for ever. */
static int pty_queued(int master)
{
	int q = 0;
	assert_int_equal(ioctl(master, FIONREAD, &q), 0);
	return q;
}

static int pty_full;
static int pty_stuck(int master)
{
	/* Full when the queue stops growing: what a tty holds is the kernel's to choose. */
	static int last = -1, same = 0;
	int q = pty_queued(master);
	same = q == last && q > 0 ? same + 1 : 0;
	last = q;
	return same >= 20 ? pty_full : 0;
}

static void test_stop_signal_ends_a_blocked_tty(void **state)
{
	(void)state;
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(m >= 0);
	assert_int_equal(grantpt(m), 0);
	assert_int_equal(unlockpt(m), 0);
	int s = open(ptsname(m), O_WRONLY | O_NOCTTY);
	assert_true(s >= 0);
	struct termios tio;
	assert_int_equal(tcgetattr(s, &tio), 0);
	cfmakeraw(&tio);
	assert_int_equal(tcsetattr(s, TCSANOW, &tio), 0);
	pty_full = 1;
	stuck_reader(m, s, 1, pty_stuck);
	close(m);
}

/* A reader that reads slowly gets everything, though SIGTERM is pending from the start:
 * the signal only cuts short a wait for a reader that makes no room. */
static void test_slow_reader_gets_everything(void **state)
{
	(void)state;
	sigset_t old;
	block_term(&old);
	kill(getpid(), SIGTERM);
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_true(fcntl(p[1], F_SETPIPE_SZ, 4096) > 0);
	FILE *f = outstream_open(p[1], true);
	assert_non_null(f);
	struct writer w = {.f = f};
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, write_much, &w), 0);
	static char buf[1 << 18];
	size_t got = 0;
	while (got < sizeof(buf)) {
		testutil_nap_ms(5);
		ssize_t r = read(p[0], buf + got, 1024);
		assert_true(r > 0);
		got += (size_t)r;
	}
	pthread_join(t, NULL);
	assert_int_equal(w.rc, 0);
	take_term(&old);
	fclose(f);
	close(p[0]);
}

/* A regular file never waits for a reader: a pending SIGTERM stops nothing. It is
 * written through the caller's descriptor, at its offset (as `>>` or a file already
 * written to leaves it), never through one opened again at offset 0. */
static void test_file_ignores_the_signal(void **state)
{
	(void)state;
	sigset_t old;
	block_term(&old);
	kill(getpid(), SIGTERM);
	char path[] = "/tmp/pmutop-outstream-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, "head", 4), 4);
	FILE *f = outstream_open(fd, true);
	assert_non_null(f);
	struct writer w = {.f = f};
	write_much(&w);
	take_term(&old); /* before any assert: one failing must not leave SIGTERM pending */
	assert_int_equal(w.rc, 0);
	assert_int_equal(lseek(fd, 0, SEEK_END), 4 + (1 << 18));
	char head[4];
	assert_int_equal(pread(fd, head, sizeof(head), 0), 4);
	assert_memory_equal(head, "head", 4);
	fclose(f);
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
	static char buf[1 << 18];
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
		cmocka_unit_test(test_stop_signal_ends_a_blocked_tty),
		cmocka_unit_test(test_slow_reader_gets_everything),
		cmocka_unit_test(test_file_ignores_the_signal),
		cmocka_unit_test(test_everything_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
