/* Batch output that a stop signal can cut short (outstream.h). */
#include "outstream.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

struct outstream {
	int fd;
	int sfd;      /* a signalfd of the stop signals, polled and never read */
	size_t chunk; /* a write that cannot block once poll says POLLOUT */
	bool own;
	bool stopped; /* a stop signal came while output waited: nothing more is written */
};

static ssize_t os_write(void *cookie, const char *buf, size_t size)
{
	struct outstream *o = cookie;
	size_t done = 0;
	while (done < size && !o->stopped) {
		struct pollfd p[2] = {{.fd = o->fd, .events = POLLOUT},
				      {.fd = o->sfd, .events = POLLIN}};
		if (poll(p, o->sfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (o->sfd >= 0 && (p[1].revents & POLLIN)) {
			o->stopped = true;
			break;
		}
		if (!p[0].revents)
			continue;
		size_t n = size - done < o->chunk ? size - done : o->chunk;
		ssize_t w = write(o->fd, buf + done, n);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0)
			break; /* errno says why (EPIPE: the reader went away) */
		done += (size_t)w;
	}
	if (o->stopped)
		errno = EINTR;
	/* Short: stdio marks the stream failed and fflush returns EOF with this errno. */
	return (ssize_t)done;
}

static int os_close(void *cookie)
{
	struct outstream *o = cookie;
	int r = o->own ? close(o->fd) : 0;
	if (o->sfd >= 0)
		close(o->sfd);
	free(o);
	return r;
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
	/* A pipe or socket with room takes PIPE_BUF bytes without blocking; a file or a
	 * terminal takes what it is given. */
	struct stat st;
	o->chunk = fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
			   ? PIPE_BUF
			   : (size_t)1 << 20;
	cookie_io_functions_t io = {.write = os_write, .close = os_close};
	FILE *f = fopencookie(o, "w", io);
	if (!f) {
		int e = errno;
		os_close(o);
		errno = e;
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}
