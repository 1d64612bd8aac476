/* The watched command's pty and the ring of the last lines it printed (cmdout.h). */
#include "cmdout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "text.h"

struct cmdout {
	int fd;
	int copy, copy_err; /* --command-output's descriptor, or -1; why it failed */
	char slave[64];
	char line[CMDOUT_LINES][CMDOUT_LINE_MAX];
	unsigned long seq; /* lines completed so far: line[seq % CMDOUT_LINES] is next */
	char cur[CMDOUT_LINE_MAX];
	size_t len;
	bool cr; /* a CR came last: a byte other than LF starts the line over */
	int esc; /* inside an escape sequence: 1 after ESC, 2 in CSI, 3 in OSC */
};

struct cmdout *cmdout_new(int cols, int rows, int *err)
{
	struct cmdout *c = calloc(1, sizeof(*c));
	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	c->copy = -1;
	c->fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (c->fd < 0 || grantpt(c->fd) || unlockpt(c->fd) ||
	    ptsname_r(c->fd, c->slave, sizeof(c->slave))) {
		*err = -errno;
		cmdout_free(c);
		return NULL;
	}
	cmdout_resize(c, cols, rows);
	*err = 0;
	return c;
}

void cmdout_free(struct cmdout *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (c->copy >= 0)
		close(c->copy);
	free(c);
}

int cmdout_fd(const struct cmdout *c)
{
	return c ? c->fd : -1;
}

const char *cmdout_slave(const struct cmdout *c)
{
	return c->slave;
}

int cmdout_resize(struct cmdout *c, int cols, int rows)
{
	if (!c || c->fd < 0 || cols <= 0 || rows <= 0)
		return 0;
	struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
	return ioctl(c->fd, TIOCSWINSZ, &ws) < 0 ? -errno : 0;
}

static void end_line(struct cmdout *c)
{
	c->cur[c->len] = '\0';
	memcpy(c->line[c->seq % CMDOUT_LINES], c->cur, c->len + 1);
	c->seq++;
	c->len = 0;
}

static void put(struct cmdout *c, char ch)
{
	if (c->len + 1 < CMDOUT_LINE_MAX)
		c->cur[c->len++] = ch;
}

/* Escape sequences (colours, cursor moves) are dropped, not shown as text. */
static bool in_escape(struct cmdout *c, unsigned char ch)
{
	switch (c->esc) {
	case 1:
		c->esc = ch == '[' ? 2 : ch == ']' ? 3 : 0;
		return true;
	case 2:
		if (ch >= 0x40 && ch <= 0x7e)
			c->esc = 0;
		return true;
	case 3:
		if (ch == '\a' || ch == '\\')
			c->esc = 0;
		return true;
	default:
		return false;
	}
}

unsigned cmdout_feed(struct cmdout *c, const char *buf, size_t n)
{
	unsigned done = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)buf[i];
		if (in_escape(c, ch))
			continue;
		if (ch == '\n') {
			end_line(c);
			done++;
			c->cr = false;
			continue;
		}
		if (c->cr) /* a progress bar's CR: what follows overwrites the line */
			c->len = 0;
		c->cr = ch == '\r';
		if (ch == 0x1b)
			c->esc = 1;
		else if (ch == '\b')
			c->len -= c->len > 0;
		else if (ch == '\t')
			do
				put(c, ' ');
			while (c->len % 8 && c->len + 1 < CMDOUT_LINE_MAX);
		else if (ch != '\r')
			put(c, (char)ch);
	}
	return done;
}

void cmdout_copy_to(struct cmdout *c, int fd)
{
	c->copy = fd;
}

int cmdout_copy_error(const struct cmdout *c)
{
	return c ? c->copy_err : 0;
}

static void copy(struct cmdout *c, const char *buf, size_t n)
{
	while (c->copy >= 0 && n > 0) {
		ssize_t w = write(c->copy, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->copy_err = w < 0 ? -errno : -EIO;
			close(c->copy);
			c->copy = -1;
			return;
		}
		buf += w;
		n -= (size_t)w;
	}
}

unsigned cmdout_drain(struct cmdout *c)
{
	char buf[4096];
	unsigned done = 0;
	/* At most 64 KiB a pass: a command that never stops writing (yes) must not keep the
	 * loop from ticks and keys; the rest waits for the next pass. */
	for (int k = 0; c && c->fd >= 0 && k < 16; k++) {
		ssize_t r = read(c->fd, buf, sizeof(buf));
		if (r > 0) {
			copy(c, buf, (size_t)r);
			done += cmdout_feed(c, buf, (size_t)r);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			break;
		/* EIO: every process with the command's side open has closed it. */
		close(c->fd);
		c->fd = -1;
	}
	return done;
}

unsigned long cmdout_seq(const struct cmdout *c)
{
	return c ? c->seq : 0;
}

unsigned long cmdout_print(const struct cmdout *c, FILE *f, unsigned long seq, bool utf8)
{
	char safe[CMDOUT_LINE_MAX];
	if (!c)
		return seq;
	if (seq + CMDOUT_LINES < c->seq)
		seq = c->seq - CMDOUT_LINES;
	for (; seq < c->seq; seq++) {
		text_sanitize(c->line[seq % CMDOUT_LINES], safe, sizeof(safe), utf8);
		fprintf(f, "%s\n", safe);
	}
	return seq;
}

void cmdout_partial(const struct cmdout *c, char *buf, size_t len, bool utf8)
{
	char raw[CMDOUT_LINE_MAX];
	if (!c || (c->cr && c->len == 0)) {
		buf[0] = '\0';
		return;
	}
	memcpy(raw, c->cur, c->len);
	raw[c->len] = '\0';
	text_sanitize(raw, buf, len, utf8);
}
