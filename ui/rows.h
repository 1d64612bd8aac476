/* The rows on screen: which model rows, in which order, and the selection, which
 * follows a row by identity (pid/tid) across ticks once the user has moved it. */
#ifndef PMUTOP_ROWS_H
#define PMUTOP_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model.h"
#include "sort.h"

struct rowid {
	enum row_kind kind;
	pid_t pid, tid;
};

struct rows {
	unsigned *idx;	   /* indices into the model's rows, in display order */
	struct rowid *ids; /* the same rows' identities: they outlive the model */
	size_t n, cap;
	size_t sel;	     /* selected position in idx */
	struct rowid sel_id; /* the row selected now */
	struct rowid want;   /* the row the user chose: selected again whenever it is listed */
	bool pinned;	     /* the user moved the selection: follow its row */
	size_t top;	     /* first position shown */
	size_t height;	     /* rows shown at the last rows_scroll */
};

void rows_init(struct rows *r);
void rows_free(struct rows *r);

/* Refill from m. resort: order by spec; otherwise keep the previous order and add new
 * rows (that pass spec's filters) at the end, so that nothing jumps under a moving
 * selection. Returns 0 or -ENOMEM. */
int rows_update(struct rows *r, const struct model *m, const struct sort_spec *spec, bool resort);

/* Move the selection by delta positions, clamped to the rows. */
void rows_move(struct rows *r, long delta);
/* Hold the selection on the row selected now, wherever it goes. */
void rows_pin(struct rows *r);
/* Keep the selection within a window of height rows. */
void rows_scroll(struct rows *r, size_t height);
/* The selected row of m, or NULL when there are no rows. */
const struct mrow *rows_selected(const struct rows *r, const struct model *m);

#endif
