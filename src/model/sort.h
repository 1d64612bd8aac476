/* Ordering and filtering rows for display: one comparator over a column's value, ties
 * broken by id, with an explicit context. */
#ifndef PMUTOP_SORT_H
#define PMUTOP_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "columns.h"
#include "model.h"

struct sort_spec {
	const struct column *col; /* NULL: by pid */
	bool descending;
	const char *filter;  /* substring of the command name (sort_row_matches), or NULL */
	bool filter_cmdline; /* or of its command line (the screen shows them: c) */
	bool have_uid;
	uid_t uid; /* only this user's rows when have_uid */
	bool hide_kthreads;
	bool hide_exited;	      /* rows of tasks that ended this interval */
	pid_t only_pid;		      /* > 0: just this process and its threads */
	const char *cgroup;	      /* rows in this cgroup v2 path or below it, or NULL */
	const char *const *collapsed; /* cgroup rows whose subtrees are hidden */
	unsigned ncollapsed;
	bool tree;	     /* processes under their parents (ppid), siblings sorted */
	const pid_t *folded; /* tree: processes whose subtrees are hidden */
	unsigned nfolded;
	bool fold_single; /* a process with one thread row shows without it (htop:
			     thread rows only under processes with 2+ threads) */
};

/* Fill idx with the indices of m->rows to show, in order: processes sorted by spec, each
 * followed by its thread rows (sorted the same way); cgroup rows as a tree, each
 * followed by its children sorted among themselves. Returns how many. idx must hold
 * m->nrows entries. */
size_t sort_rows(const struct model *m, const struct sort_spec *spec, unsigned *idx);
/* The same without allocating: scratch holds 2 * m->nrows entries, keys m->nrows. */
size_t sort_rows_r(const struct model *m, const struct sort_spec *spec, unsigned *idx,
		   unsigned *scratch, double *keys);

/* Whether row r's command name holds text (case aside), or, with cmdline, its command
 * line, or its instance or job label (--prometheus): what the screen's filter and search
 * both match. The filter also keeps every row of a remote model (--connect) whose
 * hostname holds it. */
bool sort_row_matches(const struct mrow *r, const char *text, bool cmdline);

/* Whether process pid is one of spec's folded ones. */
bool sort_folded(const struct sort_spec *spec, pid_t pid);

/* A cgroup path's depth: "/" 0, "/a" 1, "/a/b" 2. */
unsigned sort_cgroup_depth(const char *path);

#endif
