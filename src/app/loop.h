/* The poll loop: a timerfd for ticks, a signalfd for signals, and optionally the
 * terminal. Handlers never run in signal context; the caller acts on what wait returns. */
#ifndef PMUTOP_LOOP_H
#define PMUTOP_LOOP_H

#include <stdbool.h>

struct loop;

enum {
	LOOP_TICK = 1,	 /* the interval elapsed */
	LOOP_INPUT = 2,	 /* the input fd is readable */
	LOOP_SIGNAL = 4, /* a signal arrived: see .signo */
	LOOP_OUTPUT = 8, /* the watched fd (loop_watch) is readable or hung up */
};

struct loop_events {
	int mask;
	int signo; /* one signal per wait */
};

/* Blocks SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH, SIGTSTP and SIGCONT and
 * receives them on a signalfd. input_fd < 0: no input. Returns NULL with -errno in *err. */
struct loop *loop_new(double interval, int input_fd, int *err);
void loop_free(struct loop *l);

/* Wait for the next events. Returns 0 or -errno. */
int loop_wait(struct loop *l, struct loop_events *ev);
/* The events already there, without waiting (ev->mask 0: none). Returns 0 or -errno. */
int loop_check(struct loop *l, struct loop_events *ev);
/* Restart the timer with a new interval (or stop it while paused). */
int loop_set_interval(struct loop *l, double interval);
int loop_pause(struct loop *l, bool paused);
/* Also wait for fd (the watched command's terminal) to be readable; -1: no longer. */
void loop_watch(struct loop *l, int fd);

#endif
