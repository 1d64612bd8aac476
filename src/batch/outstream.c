/* Batch output that a stop signal can cut short (outstream.h). */
#include "outstream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

enum how {
	OS_FILE,     /* a regular file or a block device: written as it is */
	OS_NONBLOCK, /* wfd: a non-blocking descriptor of its own on the same pipe or tty */
	OS_SOCKET,   /* send() with MSG_DONTWAIT */
	OS_POLLED,   /* fd itself, blocking: PIPE_BUF at a time once poll() says POLLOUT */
};

struct outstream {
	int fd;	 /* the caller's */
	int wfd; /* OS_NONBLOCK: ours, closed with the stream; otherwise fd */
	int sfd; /* a signalfd of the stop signals, polled and never read */
	enum how how;
	bool own;
	bool stopped; /* a stop signal came while output waited: nothing more is written */
	struct outstream *next;
};

/* The streams open: a run that exit()s with one open (a replay's window refused after
 * the output was set up) leaves it reachable, flushed by exit, not leaked. */
static struct outstream *open_streams;

static volatile sig_atomic_t stopping;

void outstream_stopping(void)
{
	stopping = 1;
}

/* Bytes written now without waiting: > 0, 0 when there is no room, -1 on an error. */
static ssize_t try_write(struct outstream *o, const char *buf, size_t n)
{
	ssize_t w;
	switch (o->how) {
	case OS_SOCKET:
		w = send(o->wfd, buf, n, MSG_DONTWAIT);
		break;
	case OS_POLLED: {
		struct pollfd p = {.fd = o->wfd, .events = POLLOUT};
		if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLOUT | POLLERR | POLLHUP)))
			return 0;
		w = write(o->wfd, buf, n < PIPE_BUF ? n : PIPE_BUF);
		break;
	}
	default:
		w = write(o->wfd, buf, n);
		break;
	}
	if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;
	return w == 0 ? -1 : w;
}

/* After a stop signal, how long a reader may take to make room before the rest is left
 * unwritten: a slow reader still gets everything, one that stopped reading does not
 * hold pmutop. */
#define LINGER_MS 2000

/* No room: wait for some, or for a stop signal and then LINGER_MS more. false: stop. */
static bool wait_room(struct outstream *o)
{
	struct pollfd p[2] = {{.fd = o->wfd, .events = POLLOUT}, {.fd = o->sfd, .events = POLLIN}};
	const short room = POLLOUT | POLLERR | POLLHUP;
	if (!stopping) {
		while (poll(p, 2, -1) < 0)
			if (errno != EINTR)
				return false;
		if (p[0].revents & room)
			return true;
	}
	/* A stop signal: room within LINGER_MS, or stop. */
	int r;
	while ((r = poll(p, 1, LINGER_MS)) < 0)
		if (errno != EINTR)
			return false;
	return r > 0 && (p[0].revents & room);
}

static ssize_t os_write(void *cookie, const char *buf, size_t size)
{
	struct outstream *o = cookie;
	size_t done = 0;
	if (o->how == OS_FILE) {
		while (done < size) {
			ssize_t w = write(o->fd, buf + done, size - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			done += (size_t)w;
		}
		return (ssize_t)done;
	}
	while (done < size && !o->stopped) {
		ssize_t w = try_write(o, buf + done, size - done);
		if (w < 0)
			break; /* errno says why (EPIPE: the reader went away) */
		if (w > 0)
			done += (size_t)w;
		else if (!wait_room(o))
			o->stopped = true;
	}
	if (o->stopped)
		errno = EINTR;
	/* Short: stdio marks the stream failed and fflush returns EOF with this errno. */
	return (ssize_t)done;
}

static int os_close(void *cookie)
{
	struct outstream *o = cookie;
	for (struct outstream **p = &open_streams; *p; p = &(*p)->next)
		if (*p == o) {
			*p = o->next;
			break;
		}
	int r = o->own ? close(o->fd) : 0;
	if (o->wfd != o->fd)
		close(o->wfd);
	if (o->sfd >= 0)
		close(o->sfd);
	free(o);
	return r;
}

/* A pipe or terminal gets a descriptor of its own, non-blocking, by opening it again:
 * the caller's (stdout, shared with the shell) keeps its flags. */
static void choose(struct outstream *o)
{
	struct stat st;
	o->wfd = o->fd;
	o->how = OS_POLLED;
	if (fstat(o->fd, &st) != 0)
		return;
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
		o->how = OS_FILE;
		return;
	}
	if (S_ISSOCK(st.st_mode)) {
		o->how = OS_SOCKET;
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", o->fd);
	int w = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat wst;
	if (w >= 0 && fstat(w, &wst) == 0 && wst.st_dev == st.st_dev && wst.st_ino == st.st_ino &&
	    wst.st_rdev == st.st_rdev) {
		o->wfd = w;
		o->how = OS_NONBLOCK;
	} else if (w >= 0) {
		close(w);
	}
}

FILE *outstream_open(int fd, bool own)
{
	struct outstream *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->fd = fd;
	o->own = own;
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	o->sfd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
	if (o->sfd < 0) {
		int e = errno;
		free(o);
		errno = e;
		return NULL;
	}
	choose(o);
	cookie_io_functions_t io = {.write = os_write, .close = os_close};
	FILE *f = fopencookie(o, "w", io);
	if (!f) {
		int e = errno;
		os_close(o);
		errno = e;
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	o->next = open_streams;
	open_streams = o;
	return f;
}
