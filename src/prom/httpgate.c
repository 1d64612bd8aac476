/* The accept thread, the per-address and total caps, and the deadline on a request head.
 * A socket handed over belongs to the server: the gate only shuts it down (the server then
 * sees the end and closes it), and only between the server's claim and its close, so it
 * never touches a descriptor the server has closed. */
#include "httpgate.h"

#include "evclock.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define ACCEPTS_PER_PASS 64
/* Seconds without accepting when no descriptor is left: after one was freed (the server
 * closes it at once), and when none could be. */
#define FREED_PAUSE 0.005
#define OUT_OF_FDS_PAUSE 0.1
#define TLS_HANDSHAKE 0x16 /* the first byte of a TLS record that opens a handshake */

enum cstate {
	C_FREE,
	C_FIRST,  /* the gate's: waiting for the first byte (TLS) */
	C_HANDED, /* the server's, not claimed yet */
	C_HEAD,	  /* claimed, its request head not complete */
	C_BUSY,	  /* a request is being answered */
	C_IDLE,	  /* answered, kept open for the next request */
	C_CUT,	  /* shut down by the gate, the server has not closed it yet */
	C_GIVEUP, /* given up before the server claimed it: still the server's until then */
};

struct httpgate_conn {
	enum cstate st;
	int fd;
	struct sockaddr_storage addr;
	socklen_t len;
	double t0; /* when the wait for a request head (or the next one) began */
};

struct httpgate {
	struct httpgate_opts o;
	pthread_mutex_t mu;
	pthread_t th;
	bool started;
	int wake;		 /* eventfd: stop */
	struct httpgate_conn *c; /* n entries: slots live ones, and room for the cut */
	unsigned n;
	struct pollfd *pfd;
	unsigned *pidx; /* pfd[2 + i] is c[pidx[i]] */
};

static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return true;
}

/* Plain HTTP on the TLS port: say so in plain HTTP. The request is read first, so that
 * closing does not reset the connection before the client has read the answer. */
static void refuse_plain(int fd)
{
	static const char body[] = "bad request: this port speaks HTTPS (pmutop --web-config "
				   "has tls_server_config): use https://\n";
	char buf[4096];
	for (int i = 0; i < 16 && recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0; i++)
		;
	int n = snprintf(buf, sizeof(buf),
			 "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			 sizeof(body) - 1, body);
	if (send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) == n)
		shutdown(fd, SHUT_WR);
	close(fd);
}

/* Handed to the server and not claimed by it yet (given up by the gate or not). */
static bool unclaimed(const struct httpgate_conn *c)
{
	return c->st == C_HANDED || c->st == C_GIVEUP;
}

static void hand(struct httpgate *g, struct httpgate_conn *c)
{
	int fd = c->fd;
	struct sockaddr_storage ss = c->addr;
	socklen_t len = c->len;
	pthread_mutex_unlock(&g->mu); /* the server may claim it before hand() returns */
	int r = g->o.hand(g->o.cls, fd, (struct sockaddr *)&ss, len);
	pthread_mutex_lock(&g->mu);
	if (r && unclaimed(c) && c->fd == fd)
		c->st = C_FREE; /* refused and closed at once */
}

/* Under mu: a connection that has sent no whole head (or none since its last answer) goes: the
 * gate's own is closed (its entry is free at once), one the server has not claimed yet is given up
 * (its claim shuts it down; its entry is free when the server closes it, so that the server
 * never holds more connections than the gate has entries), a claimed one is shut down (free
 * when the server closes it). */
static void cut(struct httpgate_conn *c)
{
	if (c->st == C_FIRST) {
		close(c->fd);
		c->st = C_FREE;
	} else if (c->st == C_HANDED) {
		c->st = C_GIVEUP;
	} else {
		shutdown(c->fd, SHUT_RDWR);
		c->st = C_CUT;
	}
}

static bool waiting(const struct httpgate_conn *c)
{
	return c->st == C_FIRST || c->st == C_HANDED || c->st == C_HEAD || c->st == C_IDLE;
}

/* Under mu. An entry for a new socket from ss, or NULL. At a cap (the address's, or every
 * slot), the connection waiting longest for its head (from that address, or from any)
 * makes room: whoever holds slots without sending a request cannot keep a scraper out,
 * even from the scraper's own address. */
static struct httpgate_conn *admit(struct httpgate *g, int fd, const struct sockaddr_storage *ss)
{
	struct httpgate_conn *slot = NULL, *old_same = NULL, *old_any = NULL;
	unsigned same = 0, live = 0;
	for (unsigned i = 0; i < g->n; i++) {
		struct httpgate_conn *c = &g->c[i];
		/* The number is free again: the server closed that socket without a claim. */
		if (unclaimed(c) && c->fd == fd)
			c->st = C_FREE;
		if (c->st == C_FREE) {
			if (!slot)
				slot = c;
			continue;
		}
		if (c->st == C_CUT || c->st == C_GIVEUP)
			continue;
		live++;
		bool mine = same_addr(&c->addr, ss);
		same += mine;
		if (waiting(c) && (!old_any || c->t0 < old_any->t0))
			old_any = c;
		if (mine && waiting(c) && (!old_same || c->t0 < old_same->t0))
			old_same = c;
	}
	struct httpgate_conn *victim = same >= g->o.per_addr ? old_same
				       : live >= g->o.slots  ? old_any
							     : slot;
	if (!victim)
		return NULL;
	if (victim != slot) {
		cut(victim);
		if (!slot && victim->st == C_FREE)
			slot = victim;
	}
	return slot;
}

/* Returns false when out of descriptors or memory: the connection stays queued, and the
 * listening socket stays readable, so polling it again at once would spin. */
static bool accept_some(struct httpgate *g)
{
	for (int n = 0; n < ACCEPTS_PER_PASS; n++) {
		struct sockaddr_storage ss = {0};
		socklen_t len = sizeof(ss);
		int fd = accept4(g->o.listen_fd, (struct sockaddr *)&ss, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) /* else EAGAIN, or an error of that one connection */
			return errno != EMFILE && errno != ENFILE && errno != ENOBUFS &&
			       errno != ENOMEM;
		pthread_mutex_lock(&g->mu);
		struct httpgate_conn *c = admit(g, fd, &ss);
		if (c) {
			*c = (struct httpgate_conn){.st = g->o.tls ? C_FIRST : C_HANDED,
						    .fd = fd,
						    .addr = ss,
						    .len = len,
						    .t0 = evclock_now()};
			if (!g->o.tls)
				hand(g, c);
		}
		pthread_mutex_unlock(&g->mu);
		if (!c)
			close(fd); /* over a cap: closed at once, never queued */
	}
	return true;
}

/* Under mu: first bytes that arrived, in TLS mode. */
static void first_bytes(struct httpgate *g, unsigned npoll)
{
	for (unsigned k = 0; k < npoll; k++) {
		struct httpgate_conn *c = &g->c[g->pidx[k]];
		if (!g->pfd[2 + k].revents || c->st != C_FIRST)
			continue;
		unsigned char b;
		ssize_t r = recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r == 1 && b == TLS_HANDSHAKE) {
			c->st = C_HANDED;
			hand(g, c);
			continue;
		}
		if (r == 1)
			refuse_plain(c->fd);
		else
			close(c->fd);
		c->st = C_FREE;
	}
}

/* Under mu: past their deadline, connections go. Returns the next deadline. */
static double reap(struct httpgate *g, double now)
{
	double next = now + 1;
	for (unsigned i = 0; i < g->n; i++) {
		struct httpgate_conn *c = &g->c[i];
		double due = c->t0 + (c->st == C_IDLE ? g->o.idle_s : g->o.head_s);
		if (c->st == C_HANDED) /* the server failed it before its claim */
			due += g->o.head_s;
		else if (c->st != C_FIRST && c->st != C_HEAD && c->st != C_IDLE)
			continue; /* C_GIVEUP too: the server's until it claims or closes it */
		if (now < due) {
			next = due < next ? due : next;
			continue;
		}
		if (c->st == C_HANDED)
			c->st = C_FREE;
		else
			cut(c);
	}
	return next;
}

/* Under mu: out of descriptors, the connection waiting longest for its head goes, so that
 * connections held open without a request cannot keep the next scrape out either. */
static bool make_room(struct httpgate *g)
{
	struct httpgate_conn *old = NULL;
	for (unsigned i = 0; i < g->n; i++)
		if (waiting(&g->c[i]) && (!old || g->c[i].t0 < old->t0))
			old = &g->c[i];
	if (old)
		cut(old);
	return old != NULL;
}

static void *run(void *arg)
{
	struct httpgate *g = arg;
	double paused_until = 0;
	for (;;) {
		pthread_mutex_lock(&g->mu);
		double now = evclock_now();
		double next = reap(g, now);
		bool paused = now < paused_until;
		if (paused && paused_until < next)
			next = paused_until;
		unsigned npoll = 0;
		for (unsigned i = 0; i < g->n; i++)
			if (g->c[i].st == C_FIRST) {
				g->pfd[2 + npoll] =
					(struct pollfd){.fd = g->c[i].fd, .events = POLLIN};
				g->pidx[npoll++] = i;
			}
		pthread_mutex_unlock(&g->mu);
		g->pfd[0] = (struct pollfd){.fd = g->wake, .events = POLLIN};
		g->pfd[1] = (struct pollfd){.fd = g->o.listen_fd, .events = paused ? 0 : POLLIN};
		int ms = (int)((next - now) * 1000) + 1;
		if (poll(g->pfd, 2 + npoll, ms) < 0) {
			if (errno != EINTR)
				poll(NULL, 0, 100); /* ENOMEM: a moment, then again */
			continue;
		}
		if (g->pfd[0].revents)
			break;
		pthread_mutex_lock(&g->mu);
		first_bytes(g, npoll);
		pthread_mutex_unlock(&g->mu);
		if ((g->pfd[1].revents & POLLIN) && !accept_some(g)) {
			pthread_mutex_lock(&g->mu);
			bool freed = make_room(g);
			pthread_mutex_unlock(&g->mu);
			paused_until = evclock_now() + (freed ? FREED_PAUSE : OUT_OF_FDS_PAUSE);
		}
	}
	return NULL;
}

struct httpgate *httpgate_new(const struct httpgate_opts *o, int *err)
{
	struct httpgate *g = calloc(1, sizeof(*g));
	if (!g) {
		*err = -ENOMEM;
		return NULL;
	}
	g->o = *o;
	pthread_mutex_init(&g->mu, NULL);
	g->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	g->n = 2 * o->slots;
	g->c = calloc(g->n, sizeof(*g->c));
	g->pfd = calloc(g->n + 2, sizeof(*g->pfd));
	g->pidx = calloc(g->n, sizeof(*g->pidx));
	*err = g->wake < 0 ? -errno : !g->c || !g->pfd || !g->pidx ? -ENOMEM : 0;
	/* accept4() must return when the queue is empty: the thread has deadlines to keep. */
	int fl = fcntl(o->listen_fd, F_GETFL);
	if (!*err && (fl < 0 || fcntl(o->listen_fd, F_SETFL, fl | O_NONBLOCK) < 0))
		*err = -errno;
	if (*err) {
		httpgate_free(g);
		return NULL;
	}
	return g;
}

int httpgate_start(struct httpgate *g)
{
	int err = -pthread_create(&g->th, NULL, run, g);
	g->started = !err;
	return err;
}

void httpgate_stop(struct httpgate *g)
{
	if (!g || !g->started)
		return;
	uint64_t one = 1;
	if (write(g->wake, &one, sizeof(one)) != sizeof(one))
		perror("pmutop: httpgate_stop"); /* cannot happen with an eventfd */
	pthread_join(g->th, NULL);
	g->started = false;
	for (unsigned i = 0; i < g->n; i++)
		if (g->c[i].st == C_FIRST) {
			close(g->c[i].fd);
			g->c[i].st = C_FREE;
		}
}

void httpgate_free(struct httpgate *g)
{
	if (!g)
		return;
	httpgate_stop(g);
	if (g->wake >= 0)
		close(g->wake);
	free(g->c);
	free(g->pfd);
	free(g->pidx);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

struct httpgate_conn *httpgate_claim(struct httpgate *g, int fd)
{
	struct httpgate_conn *found = NULL;
	pthread_mutex_lock(&g->mu);
	for (unsigned i = 0; i < g->n && !found; i++)
		if (unclaimed(&g->c[i]) && g->c[i].fd == fd)
			found = &g->c[i];
	if (found && found->st == C_GIVEUP) { /* cut before the claim: the server drops it */
		shutdown(fd, SHUT_RDWR);
		found->st = C_CUT;
	} else if (found)
		found->st = C_HEAD;
	pthread_mutex_unlock(&g->mu);
	return found;
}

void httpgate_head_done(struct httpgate *g, struct httpgate_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	if (c->st == C_HEAD || c->st == C_IDLE)
		c->st = C_BUSY;
	pthread_mutex_unlock(&g->mu);
}

void httpgate_request_done(struct httpgate *g, struct httpgate_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	if (c->st == C_BUSY) {
		c->st = C_IDLE;
		c->t0 = evclock_now();
	}
	pthread_mutex_unlock(&g->mu);
}

void httpgate_closed(struct httpgate *g, struct httpgate_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	c->st = C_FREE;
	pthread_mutex_unlock(&g->mu);
}

void httpgate_set_idle(struct httpgate *g, double idle_s)
{
	pthread_mutex_lock(&g->mu);
	g->o.idle_s = idle_s;
	pthread_mutex_unlock(&g->mu);
}
