/* Where a run's counts come from: the perf path, the bpf backend, -G (cgroups counted
 * themselves) or a recording. Each is one struct source behind these ops and owns its
 * state; the run loop (app_run) ticks whichever it has and hands the model to the sinks
 * (sink.h). A source that gives up mid-run (the bpf backend refusing an event set) is
 * swapped for another by the app, and the sinks carry on. */
#ifndef PMUTOP_SOURCE_H
#define PMUTOP_SOURCE_H

#include <errno.h>
#include <stdbool.h>

#include "model.h"

struct source;
struct srcopts;
struct evset;

/* What the app asks of a source between ticks; arg's type is each one's. */
enum source_ctl {
	SRC_INTERVAL,	   /* const double *: the interval the model says it counted */
	SRC_PAUSE,	   /* const bool *: nothing read while paused */
	SRC_THREADS,	   /* const bool *: thread rows */
	SRC_CGROUP_ROWS,   /* const bool *: the model's cg_rows */
	SRC_CMDLINE,	   /* const bool *: rows carry their process's arguments */
	SRC_USER_ONLY,	   /* const bool *: hardware events exclude kernel mode */
	SRC_EVSET,	   /* const struct evset *: count this set from now on (it must outlive
			      the source); a refusal (-E2BIG...) leaves the source unusable until
			      it is given a set it takes, and the app swaps in another */
	SRC_RESCAN,	   /* NULL: look for new tasks now */
	SRC_WATCHED_ALIVE, /* bool *: whether a watched process still has a live thread */
	SRC_OPEN_FDS,	   /* unsigned *: descriptors the source holds */
	SRC_WALL,	   /* double *: when the tick was counted, if not now (a recording) */
	SRC_REMOTE,	   /* const char **: the host the rows are on when not this one
			      (--connect): kill, renice and affinity are refused */
};

/* What commands a source can take (source_ops.caps); the app refuses the others in one
 * line (source_refusal) before acting, the screen before opening their dialogs. */
enum {
	SRC_CAN_COUNT = 1,  /* it counts now: the interval, pause, events, kernel mode, thread
			       and argument rows, a focused pid */
	SRC_CAN_ACT = 2,    /* its rows are this machine's processes: kill, renice, affinity */
	SRC_CAN_TRAVEL = 4, /* a recording: step, jump, play speed, spike search */
};

struct source_ops {
	const char *name; /* "perf", "bpf", "cgroup", "recording", "remote host" */
	unsigned caps;	  /* SRC_CAN_* */
	/* One interval into the model. 0, or -errno: this source cannot go on (the app
	 * swaps another in, or the run ends). -ENODATA: a recording has no more ticks. */
	int (*tick)(struct source *s);
	/* The model becomes the sums since the start (a watched command's end), or
	 * -ENOTSUP. */
	int (*totals)(struct source *s);
	const struct model *(*model)(const struct source *s);
	/* 0, -ENOTSUP (not this source's: the caller says so in one line), or -errno. */
	int (*control)(struct source *s, enum source_ctl what, const void *arg);
	void (*free)(struct source *s);
};

/* What a source's folder exports for the app's table of sources (app/sources.c): one
 * row each, asked in turn. */
enum {
	SOURCE_BACKEND = 1,  /* chosen by --backend NAME (or auto); without: by what the
				options ask alone (-G's cgroups) */
	SOURCE_GIVES_UP = 2, /* may give up mid-run (tick or control -errno): the next row
				that can count the same takes over */
	SOURCE_OPTION = 4,   /* chosen by an option of its own (--NAME: --connect,
				--prometheus), never by --backend or auto; the app gives it
				srcopts.own */
};
struct source_kind {
	const char *name; /* --backend NAME */
	const char *what; /* what it counts, for a notice: "per task" */
	unsigned flags;
	/* Whether it counts what o asks; named: --backend named it (auto: false). */
	bool (*can)(const struct srcopts *o, bool named);
	/* The source, or NULL with *err: -ESRCH (a watched pid does not exist), -EACCES
	 * (o->failed_pid may not be counted), -ENOMEM, or why it cannot count here. */
	struct source *(*open)(const struct evset *set, const struct srcopts *o, int *err);
	/* That why in words, or NULL: strerror. */
	const char *(*why)(int err);
};

/* Sources embed this first. */
struct source {
	const struct source_ops *ops;
};

static inline int source_tick(struct source *s)
{
	return s->ops->tick(s);
}

static inline int source_totals(struct source *s)
{
	return s->ops->totals ? s->ops->totals(s) : -ENOTSUP;
}

static inline const struct model *source_model(const struct source *s)
{
	return s->ops->model(s);
}

/* The control, or -ENOTSUP where the source has none. */
int source_control(struct source *s, enum source_ctl what, const void *arg);
/* A bool control: SRC_PAUSE, SRC_THREADS, ... */
int source_set(struct source *s, enum source_ctl what, bool on);
static inline unsigned source_caps(const struct source *s)
{
	return s->ops->caps;
}

/* The one line for a command the source refused with -ENOTSUP: "not for a recording";
 * with why (what it lacks, from the caller's table of commands), who cannot and why:
 * "a recording: it has the recorded events only", "rows of HOST (--connect): ...". */
const char *source_refusal(const struct source *s, const char *why, char *buf, unsigned len);
void source_close(struct source *s);

#endif
