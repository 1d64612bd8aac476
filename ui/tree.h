/* The process tree view (t, F5): each shown row's depth under its shown ancestors, and a
 * folded process's row made the sum of its subtree (its descendants' rows summed into
 * its own, honestly: src/rowsum). Computed when the rows are, drawn by the table. */
#ifndef PMUTOP_TREE_H
#define PMUTOP_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"
#include "rows.h"
#include "rowsum.h"

struct tree_view {
	unsigned char *depth;	  /* per shown position (a thread row: its process's + 1) */
	uint64_t *bars;		  /* per shown position: bit L (1 .. depth - 1) when its
				     ancestor at depth L has a sibling below (a line │ there),
				     bit 0 when the row itself has one (├─, else └─) */
	const struct mrow **over; /* per shown position: the summed row, or NULL */
	size_t cap;
	struct mstore sums; /* folded rows' sums */
	unsigned nsums;
	struct rowsum_part *parts;
	unsigned nparts;
	unsigned *members;
	size_t mcap;
};

/* Depths and sums for rows r of m (in tree order), with processes folded[0..nfolded).
 * Returns 0 or -ENOMEM (then no depth and no sums: the rows show flat). */
int tree_update(struct tree_view *t, const struct model *m, const struct rows *r,
		const pid_t *folded, unsigned nfolded);
void tree_free(struct tree_view *t);

#endif
