/* Columns are data: one descriptor per column (title, width, getter, formatter), and
 * panes are lists of columns. The screen and the batch writers share them, so both show
 * the same numbers. */
#ifndef PMUTOP_COLUMNS_H
#define PMUTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum col_kind {
	COL_PID, /* text columns */
	COL_TID,
	COL_CPU_ID,
	COL_USER,
	COL_THREADS,
	COL_COMMAND,
	COL_CGROUP,   /* the cgroup's readable name (cgroup_name.h) */
	COL_STATE,    /* S: the process's state letter */
	COL_CPU_PCT,  /* numeric columns */
	COL_COUNT,    /* count of event num in the interval */
	COL_RATE,     /* event num per second */
	COL_RATIO,    /* num / den * mul (IPC, miss %, MPKI) */
	COL_GHZ,      /* event num / running time of its group */
	COL_RUN_PCT,  /* running % of group (or event) run_of */
	COL_RES,      /* resident memory, bytes */
	COL_METRIC,   /* metric a of the model's metrics, read by its own value function */
	COL_NICE,     /* NI: the process's nice value */
	COL_TIME,     /* TIME+: its CPU time since it started */
	COL_PRIO,     /* PRI: the kernel's priority */
	COL_VIRT,     /* VIRT: virtual memory, bytes */
	COL_SHR,      /* SHR: resident shared memory, bytes */
	COL_MEM_PCT,  /* MEM%: resident memory per the machine's */
	COL_IO_RD,    /* IO_R: bytes read from storage a second */
	COL_IO_WR,    /* IO_W: bytes written */
	COL_INSTANCE, /* text: the row's Prometheus target (a fleet's rows) */
	COL_JOB,      /* text: its scrape job */
};

enum col_fmt {
	FMT_TEXT,
	FMT_COUNT,   /* 1234, 12.3K, 4.56M, 7.89G */
	FMT_PCT,     /* 12.3 */
	FMT_RATIO,   /* 3 significant digits: 1.23, 0.0123, 12.3k, 4e-5 */
	FMT_GHZ,     /* 2.41 */
	FMT_TIME,    /* nanoseconds as time: 850ns, 12.3us, 345ms, 1.02s */
	FMT_MEM,     /* bytes: 812K, 12.3M, 1.02G */
	FMT_CPUTIME, /* seconds as top's TIME+: 1:23.45, 12h03:45 */
};

struct column;

/* A numeric column's value for a row. */
typedef struct val (*column_value_fn)(const struct column *c, const struct model *m,
				      const struct mrow *r);
/* A value with a number as the column shows it, into buf; returns the length written. */
typedef size_t (*column_format_fn)(const struct column *c, struct val v, char *buf, size_t len);
/* A text column's cell for a row, raw (not sanitised). */
typedef void (*column_text_fn)(const struct mrow *r, char *buf, size_t len);

struct column {
	const char *name;  /* stable id for --sort, config and CSV ("IPC", "CYCLES") */
	const char *title; /* header text */
	int width;
	bool left;	 /* left-aligned */
	bool hidden;	 /* shown only when chosen (pane_select) */
	bool desc_first; /* first sort is descending */
	enum col_kind kind;
	enum col_fmt fmt;
	/* Its inputs, named for its kind (text columns have none: -1, -1). In a built pane
	 * (columns_build_panes) they are event or group indices; in a built-in pane's
	 * definition, roles (enum ev_role) that building resolves. Every view is the same
	 * two ints; a and b name them for code that treats every kind alike. */
	union {
		struct {
			int a, b;
		};
		struct {
			/* The event shown (COL_COUNT, COL_RATE, COL_GHZ: cycles, COL_CPU_PCT:
			 * task-clock), or divided (COL_RATIO). */
			int num;
			/* COL_RATIO: the event it is divided by (num / den * mul). -1 for the
			 * others, whose denominator is time (the interval, or num's group's). */
			int den;
		};
		struct {
			int run_of;	  /* COL_RUN_PCT: a group (its worst member's share), */
			int run_of_event; /* or, when 1, an event (its own group's share) */
		};
	};
	double mul;
	const char *help; /* one line for the help screen */
	/* How it reads and shows a row, set with its kind and format: value (a text column
	 * reads n/a), format for a numeric column (NULL for text), text for a text column
	 * (NULL for numbers). */
	column_value_fn value;
	column_format_fn format;
	column_text_fn text;
	/* True when the column can never hold a number in m (pane_unsupported asks it
	 * first); NULL: its events say. */
	bool (*never)(const struct column *c, const struct model *m);
};

/* Columns a pane holds, at most. */
#define PANE_COLS_MAX 40

struct pane {
	const char *name; /* "IPC", "Cache", "Branch", "Software", "Events" */
	unsigned ncols;
	struct column cols[PANE_COLS_MAX];
	int sort_default; /* index into cols */
	/* No storage for titles here: a pane can be copied (main.c and ui/ do). */
};

/* The most derived columns a setup holds (the setup file, the screen). */
#define USER_METRICS_MAX 16

/* A derived column the user defined: a op b * mul over two events of one group (by
 * their model key, e.g. "cache-misses" and "instructions#3"). */
struct user_metric {
	char name[24];	     /* its title and id */
	char a[112], b[112]; /* event keys */
	double mul;	     /* 1 ratio, 100 percent, 1000 per kilo-instruction */
};

/* Check a metric against m: both events exist and share a group. Returns 0, -ENOENT
 * (unknown event key) or -EXDEV (different groups). */
int columns_check_metric(const struct model *m, const struct user_metric *um);

/* Build the panes for model m's events: the built-in ones whose roles are present,
 * or one "Events" pane listing every event (with IPC and ratios where the roles
 * allow) when the user chose the events. Returns how many panes (at most max). */
unsigned columns_build_panes(const struct model *m, bool user_events, struct pane *out,
			     unsigned max);
/* The same with the user's derived columns added to the Events pane (those that do not
 * pass columns_check_metric are left out). Hidden columns (CGROUP) are left out: see
 * columns_build_panes_all and pane_select. */
unsigned columns_build_panes_ex(const struct model *m, bool user_events,
				const struct user_metric *um, unsigned nmetrics, struct pane *out,
				unsigned max);

/* The panes with every column they can show, hidden ones too, for pane_select (the
 * column chooser, the setup file's columns lines). */
unsigned columns_build_panes_all(const struct model *m, bool user_events,
				 const struct user_metric *um, unsigned nmetrics, struct pane *out,
				 unsigned max);

/* The value of a numeric column for a row. */
struct val column_value(const struct column *c, const struct model *m, const struct mrow *r);

/* Format a cell into buf (at most width chars unless width is 0): numbers by the
 * column's format, with the marks "n/a", "n/c", "-" for values without a number. A
 * scaled value is formatted like an exact one; callers show the mark (its state is
 * VAL_SCALED). Text cells are copied raw: sanitise before display. */
void column_format(const struct column *c, const struct model *m, const struct mrow *r, char *buf,
		   size_t len);

/* The same for a numeric column whose value the caller already has. Returns the length
 * written. */
size_t column_format_val(const struct column *c, struct val v, char *buf, size_t len);

/* The formatters a numeric column's format names (values with a number only; marks are
 * column_format_val's): counts (FMT_COUNT), nanoseconds as time (FMT_TIME), a percentage
 * (FMT_PCT), a percentage that is a ratio of events, whose small values keep their
 * significant digits (FMT_PCT), three significant digits to the column's width
 * (FMT_RATIO), GHz (FMT_GHZ) and bytes (FMT_MEM). */
size_t column_fmt_count(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_time(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_pct(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_ratio_pct(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_ratio(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_ghz(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_mem(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_int(const struct column *c, struct val v, char *buf, size_t len);
size_t column_fmt_cputime(const struct column *c, struct val v, char *buf, size_t len);

/* The raw number a cell shows, for machine-readable output ("%.0f" counts, "%.4f"
 * ratios); empty for values without a number. */
void column_format_raw(const struct column *c, const struct model *m, const struct mrow *r,
		       char *buf, size_t len);

/* Inline: the batch writer asks it at every cell. */
static inline bool column_is_numeric(const struct column *c)
{
	return c->fmt != FMT_TEXT;
}

/* A pane built outside this file (the metrics' panes, src/spec/metricbind.c): the
 * identity columns (PID, USER, THR, CPU%), its own, then the hidden /proc columns (RES,
 * S, NI, TIME+, PRI, VIRT, SHR, MEM%, IO_R, IO_W), CGROUP and COMMAND. */
void columns_pane_start(struct pane *p, const char *name, const struct model *m);
void columns_pane_add(struct pane *p, const struct column *c);
void columns_pane_end(struct pane *p);

/* True when every event the pane's own columns read (CPU% aside) cannot be counted on
 * this machine: batch mode leaves such panes out, the notice says why. */
bool pane_unsupported(const struct model *m, const struct pane *p);
/* Find a column by name (case-insensitive) in a pane; -1 if absent. */
int pane_find_column(const struct pane *p, const char *name);

/* The columns a pane shows: those named in list ("CPU%,IPC,CGROUP", commas, any case),
 * in that order, then COMMAND, always last; names the pane lacks are skipped. NULL or ""
 * : every column but the hidden ones (CGROUP), in the pane's order. The default sort
 * stays on its column when it is kept (else the first numeric one). */
void pane_select(struct pane *p, const char *list);
/* The names of p's columns but COMMAND, comma separated, into buf: what pane_select
 * takes to show them again. */
void pane_column_list(const struct pane *p, char *buf, size_t len);

#endif
