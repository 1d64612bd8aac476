/* poll() over a timerfd, a signalfd and the terminal: the whole event loop. */
#include "loop.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

struct loop {
	int tfd, sfd, in, out;
	double interval;
	sigset_t old;
};

static int arm(struct loop *l, double interval)
{
	struct itimerspec it;
	memset(&it, 0, sizeof(it));
	if (interval > 0) {
		it.it_interval.tv_sec = (time_t)interval;
		it.it_interval.tv_nsec = (long)((interval - floor(interval)) * 1e9);
		it.it_value = it.it_interval;
	}
	return timerfd_settime(l->tfd, 0, &it, NULL) < 0 ? -errno : 0;
}

struct loop *loop_new(double interval, int input_fd, int *err)
{
	struct loop *l = calloc(1, sizeof(*l));
	if (!l) {
		*err = -ENOMEM;
		return NULL;
	}
	l->in = input_fd;
	l->out = -1;
	l->interval = interval;
	sigset_t set;
	sigemptyset(&set);
	int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH, SIGTSTP, SIGCONT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
			/* Ignored by who started pmutop (nohup: SIGHUP; a background job of a
			 * script: SIGINT, SIGQUIT): a blocked signal is queued even so, and
			 * would end the run. A child's end is pmutop's to wait for, never
			 * reaped by the kernel. */
			if (sigs[i] != SIGCHLD)
				continue;
			signal(SIGCHLD, SIG_DFL);
		}
		sigaddset(&set, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &set, &l->old);
	l->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	l->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (l->sfd < 0 || l->tfd < 0 || arm(l, interval) < 0) {
		*err = -errno;
		loop_free(l);
		return NULL;
	}
	*err = 0;
	return l;
}

void loop_free(struct loop *l)
{
	if (!l)
		return;
	if (l->tfd >= 0)
		close(l->tfd);
	/* The run has ended: a signal still pending (a SIGTERM that cut a blocked write
	 * short, outstream.h) was acted on and must not kill it once unblocked. */
	struct signalfd_siginfo si;
	while (l->sfd >= 0 && read(l->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		;
	if (l->sfd >= 0)
		close(l->sfd);
	sigprocmask(SIG_SETMASK, &l->old, NULL);
	free(l);
}

static int wait_for(struct loop *l, struct loop_events *ev, int timeout_ms)
{
	struct pollfd p[4] = {
		{.fd = l->tfd, .events = POLLIN},
		{.fd = l->sfd, .events = POLLIN},
		{.fd = l->in, .events = POLLIN},
		{.fd = l->out, .events = POLLIN},
	};
	ev->mask = 0;
	ev->signo = 0;
	for (;;) {
		int r = poll(p, 4, timeout_ms); /* negative fds are ignored */
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		break;
	}
	if (p[0].revents & POLLIN) {
		uint64_t n;
		if (read(l->tfd, &n, sizeof(n)) == sizeof(n))
			ev->mask |= LOOP_TICK;
	}
	if (p[1].revents & POLLIN) {
		struct signalfd_siginfo si;
		if (read(l->sfd, &si, sizeof(si)) == sizeof(si)) {
			ev->mask |= LOOP_SIGNAL;
			ev->signo = (int)si.ssi_signo;
		}
	}
	if (l->in >= 0 && (p[2].revents & (POLLIN | POLLHUP | POLLERR)))
		ev->mask |= LOOP_INPUT;
	if (l->out >= 0 && (p[3].revents & (POLLIN | POLLHUP | POLLERR)))
		ev->mask |= LOOP_OUTPUT;
	return 0;
}

int loop_wait(struct loop *l, struct loop_events *ev)
{
	return wait_for(l, ev, -1);
}

int loop_check(struct loop *l, struct loop_events *ev)
{
	return wait_for(l, ev, 0);
}

int loop_set_interval(struct loop *l, double interval)
{
	l->interval = interval;
	return arm(l, interval);
}

int loop_pause(struct loop *l, bool paused)
{
	return arm(l, paused ? 0 : l->interval);
}

void loop_watch(struct loop *l, int fd)
{
	l->out = fd;
}
