/* History: the last HIST_LEN intervals of every row's derived metrics, a sink fed with
 * each tick's const model (live or recorded). Rings are fixed and allocated once per row;
 * a row that leaves the model is dropped and its slot reused. */
#ifndef PMUTOP_HISTORY_H
#define PMUTOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "model.h"

#define HIST_LEN 120	/* intervals kept per row */
#define HIST_KEY_LEN 20 /* intervals of the other columns kept (a TREND's width) */
#define HIST_XMAX 16	/* other columns kept, at most */

/* The series every row keeps, by the column names the panes give them. */
enum hist_metric {
	HM_CPU, /* CPU% */
	HM_IPC,
	HM_GHZ,
	HM_CMISS, /* cache-miss % */
	HM_CMPKI, /* cache (LLC) misses per 1000 instructions */
	HM_BMISS, /* branch-miss % */
	HM_COUNT
};

struct history;

struct history *history_new(void);
void history_free(struct history *h);

/* Record one interval: every row of m (process, thread, cgroup and CPU rows) gets its
 * values, computed with the same column descriptors the panes use; rows absent from m
 * are dropped (but for rows of a kind m has none of: see history_feed_with). A model whose tick is
 * 0 or the tick last fed is ignored (the same tick shown twice), and so is a final one (totals, not
 * an interval). Returns 0 or -ENOMEM (that interval is then missing for new rows). */
int history_feed(struct history *h, const struct model *m);
/* The same with more rows of that interval beside m's (the cgroup rows the screen builds
 * from its process rows, the tree's folded sums), so that every view's rows keep their history
 * whichever is shown. Rows of a kind the interval has none of are held, that interval a gap in them
 * (no data), until their kind is fed again: switching views costs no history. */
struct hist_rows {
	const struct mrow *rows; /* n of them */
	unsigned n;
};
int history_feed_with(struct history *h, const struct model *m, const struct hist_rows *more,
		      unsigned nmore);
/* Forget every row (a replay jumped, the events changed). */
void history_clear(struct history *h);

/* Keep the last HIST_KEY_LEN intervals of the numeric columns of these panes too (the
 * screen's; copies are taken), beside the metrics' HIST_LEN, for up to HIST_XMAX columns:
 * choosing any of them to sort by finds its history there. A column kept goes on being
 * kept while it is in the panes; a new one starts empty. Their values are kept for the
 * TREND's glyphs: each to 3%, down to 1/970 of the largest in a row's window (a value
 * smaller than that beside it reads as no data), n/c, n/a and - without their reason. */
void history_keep(struct history *h, const struct pane *panes, unsigned n);
/* The tracked column c (the screen's sort key; a copy is taken; NULL: none), kept
 * whatever the panes hold: HM_COUNT reads it. */
void history_track(struct history *h, const struct column *c);
/* The column tracked, or NULL. */
const struct column *history_tracked(const struct history *h);
/* The k for history_get that reads column c's series: a metric's, or another column
 * kept; -1 when c is not kept. */
int history_kept(const struct history *h, const struct column *c);

#define HIST_SUBTREE (-2) /* a hist_id's cpu for a folded subtree's sum (mrow.subtree) */

/* A row's identity: kind, pid, tid, cpu and (cgroup rows) path. */
struct hist_id {
	enum row_kind kind;
	pid_t pid, tid;
	int cpu;
	const char *cgroup; /* ROW_CGROUP only */
	/* A fleet's row (--prometheus: pid and tid 0): its target and, but for a cgroup
	 * row, its command. NULL on a row of one host. */
	const char *instance, *job, *name;
};
struct hist_id history_id_of(const struct mrow *r);

/* The row's slot, or -1 when it has no history. */
long history_find(const struct history *h, struct hist_id id);

/* The last n values of metric k (HM_COUNT: the tracked column, at most HIST_KEY_LEN; a
 * history_kept value: that column) of slot s, oldest first, into out[n]. Intervals before the row
 * was first seen come back as VAL_NA with WHY_NONE and run_pm 0 (no data); n/c and n/a keep their
 * state and reason, scaled values their state. Returns how many of the n have data. */
unsigned history_get(const struct history *h, long s, int k, unsigned n, struct val *out);

/* The column descriptor metric k was computed with in the last interval, or NULL when
 * the model had no such column (its events are not in the set). */
const struct column *history_column(const struct history *h, int k);
/* The name of metric k's column ("IPC"), and the metric for a column name, or -1. */
const char *history_metric_name(int k);
int history_metric_of(const char *name);

/* The seconds the last n intervals fed lasted together (what a row's n values span);
 * intervals have their own lengths: the first, the last of a command, a new interval. */
double history_span(const struct history *h, unsigned n);
/* Rows held and the bytes allocated for them. */
size_t history_rows(const struct history *h);
size_t history_bytes(const struct history *h);

/* Storage of one sample: a float, negative when scaled, a NaN carrying state and
 * reason when there is no number. Exposed for the tests. */
float history_pack(struct val v);
struct val history_unpack(float f);

#endif
