/* httpgate: the caps make room from connections that have sent no request, whether the
 * server has claimed them yet or not. The server here is the test: it records what it is
 * handed and claims only when told, as a server whose threads lag behind would. */
#include "httpgate.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_HANDED 64

struct server {
	pthread_mutex_t mu;
	int fd[MAX_HANDED];
	unsigned n;
};

static int hand(void *cls, int fd, const struct sockaddr *sa, socklen_t len)
{
	struct server *s = cls;
	(void)sa, (void)len;
	pthread_mutex_lock(&s->mu);
	if (s->n < MAX_HANDED)
		s->fd[s->n++] = fd;
	pthread_mutex_unlock(&s->mu);
	return 0;
}

static unsigned handed(struct server *s)
{
	pthread_mutex_lock(&s->mu);
	unsigned n = s->n;
	pthread_mutex_unlock(&s->mu);
	return n;
}

/* Waits (60 s at most) until the gate has handed over n sockets. */
static bool wait_handed(struct server *s, unsigned n)
{
	for (int i = 0; i < 6000 && handed(s) < n; i++)
		usleep(10000);
	return handed(s) >= n;
}

static int listen_any(unsigned *port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 64), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static int connect_to(unsigned port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* The address's cap is reached by connections the server has not claimed yet: the next
 * one from that address is still handed over, and the oldest one's claim shuts it down
 * (the server drops it). Before, only claimed connections made room, and a scrape arriving
 * while the server's threads lagged behind was closed at once. */
static void test_unclaimed_make_room(void **state)
{
	(void)state;
	struct server s = {.mu = PTHREAD_MUTEX_INITIALIZER};
	unsigned port;
	int lfd = listen_any(&port);
	struct httpgate_opts o = {
		.listen_fd = lfd, .slots = 8, .per_addr = 2, .head_s = 60, .hand = hand, .cls = &s};
	int err;
	struct httpgate *g = httpgate_new(&o, &err);
	assert_non_null(g);
	assert_int_equal(httpgate_start(g), 0);
	int c[3];
	for (int i = 0; i < 3; i++) {
		c[i] = connect_to(port);
		assert_true(wait_handed(&s, (unsigned)i + 1));
	}
	assert_int_equal(handed(&s), 3);
	/* The first was given up for the third: its claim shuts it down (its client sees the
	 * end) and keeps its entry until the server closes it, so that the server never holds
	 * more than the gate's entries; the second and third are the server's. */
	struct httpgate_conn *k0 = httpgate_claim(g, s.fd[0]);
	assert_non_null(k0);
	struct pollfd p0 = {.fd = c[0], .events = POLLIN};
	assert_int_equal(poll(&p0, 1, 60000), 1);
	char b0;
	assert_true(recv(c[0], &b0, 1, 0) <= 0);
	httpgate_closed(g, k0);
	struct httpgate_conn *k1 = httpgate_claim(g, s.fd[1]);
	struct httpgate_conn *k2 = httpgate_claim(g, s.fd[2]);
	assert_non_null(k1);
	assert_non_null(k2);
	/* A fourth: the second (claimed, still without a request) makes room now, and is
	 * shut down, which its client sees. */
	int c3 = connect_to(port);
	assert_true(wait_handed(&s, 4));
	struct pollfd p = {.fd = c[1], .events = POLLIN};
	assert_int_equal(poll(&p, 1, 60000), 1);
	char b;
	assert_true(recv(c[1], &b, 1, 0) <= 0);
	httpgate_closed(g, k1);
	httpgate_closed(g, k2);
	httpgate_stop(g);
	httpgate_free(g);
	for (unsigned i = 0; i < s.n; i++)
		close(s.fd[i]);
	for (int i = 0; i < 3; i++)
		close(c[i]);
	close(c3);
	close(lfd);
}

/* A request being answered is never cut to make room: at the cap with every connection
 * busy, a new one from that address is closed at once instead. */
static void test_busy_kept(void **state)
{
	(void)state;
	struct server s = {.mu = PTHREAD_MUTEX_INITIALIZER};
	unsigned port;
	int lfd = listen_any(&port);
	struct httpgate_opts o = {
		.listen_fd = lfd, .slots = 8, .per_addr = 1, .head_s = 60, .hand = hand, .cls = &s};
	int err;
	struct httpgate *g = httpgate_new(&o, &err);
	assert_non_null(g);
	assert_int_equal(httpgate_start(g), 0);
	int c0 = connect_to(port);
	assert_true(wait_handed(&s, 1));
	struct httpgate_conn *k = httpgate_claim(g, s.fd[0]);
	assert_non_null(k);
	httpgate_head_done(g, k);
	int c1 = connect_to(port);
	struct pollfd p = {.fd = c1, .events = POLLIN};
	assert_int_equal(poll(&p, 1, 60000), 1);
	char b;
	assert_true(recv(c1, &b, 1, 0) <= 0);
	assert_int_equal(handed(&s), 1);
	httpgate_closed(g, k);
	httpgate_stop(g);
	httpgate_free(g);
	close(s.fd[0]);
	close(c0);
	close(c1);
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unclaimed_make_room),
		cmocka_unit_test(test_busy_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
