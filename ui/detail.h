/* A row's detail view (Enter): who it is, one chart per derived metric over the history
 * kept for it, the events behind each, and a process's threads with their trends. */
#ifndef PMUTOP_DETAIL_H
#define PMUTOP_DETAIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "columns.h"
#include "history.h"
#include "model.h"

#define DETAIL_CHARTS 6 /* the metrics charted (history.h's) */

/* One chart as last drawn: its column, its intervals and the events behind it. */
struct detail_chart {
	bool have_col; /* the metric's events are in the set */
	struct column col;
	struct val v[HIST_LEN];
	unsigned have;	  /* intervals with data */
	double span;	  /* the seconds they lasted */
	char events[512]; /* "  events: cycles 100%  instructions 100%" */
};

/* Whose detail is shown: a row's identity, which outlives the model it came from, and
 * what was shown of it last, which outlives the row (a process that ended). */
struct detail {
	enum row_kind kind;
	pid_t pid, tid;
	bool subtree; /* the tree's folded row: the process with its descendants */
	char cgroup[512];
	/* A fleet's row (--prometheus, pid and tid 0): its target, and its command but
	 * for a cgroup row. on_host false: a row of one host. */
	bool on_host;
	char instance[256], job[128], name[256];
	int top;   /* first line shown (scrolling) */
	int lines; /* lines of the last draw, and the room they had */
	int room;
	bool kept; /* the row was drawn with its history: what follows is its */
	bool exited;
	unsigned nthreads;
	bool fleet;	 /* a host's row (--prometheus): its process count unknown */
	char state;	 /* as /proc said, '\0' unknown */
	uint64_t rss_kb; /* 0 unknown */
	double start;	 /* seconds since the epoch, 0 unknown */
	bool have_cmdline;
	char cmdline[1024]; /* sanitised; have_cmdline false: the source did not read it */
	char comm[256], user[64], row_cgroup[512]; /* sanitised */
	struct detail_chart charts[DETAIL_CHARTS];
};

/* Open the view on row r (from the table's selection). */
void detail_open(struct detail *d, const struct mrow *r);
/* Draw d's row of m (of sums[0 .. nsums), the tree's folded rows, for a subtree), with its history
 * in hist (NULL: none kept), in lines y .. y + h - 1 of a screen w wide. When the row is no longer
 * in m (it ended, or a replay moved before it), its last values and charts stay, marked ended. */
void detail_draw(struct detail *d, const struct model *m, const struct mrow *sums, unsigned nsums,
		 const struct history *hist, int y, int h, int w);

/* What a key asks of the UI. */
enum detail_res {
	DETAIL_PASS,	     /* the main view's key, meaning the same here (p, Space, q) */
	DETAIL_STAY,	     /* done here (scrolling) */
	DETAIL_UNKNOWN,	     /* bound to nothing here */
	DETAIL_BACK,	     /* back to the table */
	DETAIL_WATCH_CGROUP, /* the table of d->cgroup's processes */
	DETAIL_WATCH_PID,    /* the table watching d->pid alone */
	DETAIL_NO_PROCESS,   /* Enter, with no process to watch */
};

enum detail_res detail_key(struct detail *d, int key);

#endif
