/* Summing rows honestly: the values of several rows (a cgroup's processes, a folded
 * process tree) into one, exact only when every part is, scaled (~) when a part is
 * scaled, partial (+, a lower bound) when a part is partial or has no number, n/c or n/a
 * when no part has one; groups' enabled and running times summed, so that RUN% is the
 * parts' share (a partial sum's is the share of its parts counted). */
#ifndef PMUTOP_ROWSUM_H
#define PMUTOP_ROWSUM_H

#include "model.h"

/* One event's parts so far. Zeroed, it is empty. */
struct rowsum_part {
	double sum;
	unsigned exact, scaled, nc, na;
	unsigned partial;  /* parts themselves partial */
	double partial_pm; /* their shares counted, summed */
	uint8_t nc_why, na_why, partial_why;
};

/* Add row r's values and group times into parts[0..m->nevents) and g[0..m->ngroups). */
void rowsum_add(const struct model *m, const struct mrow *r, struct rowsum_part *parts,
		struct val_delta *g);
/* The sum of one event's parts; g is its group's summed times. */
struct val rowsum_val(const struct rowsum_part *p, const struct val_delta *g);

/* Row out (its identity as written by the caller) made the sum of rows[idx[0..n)]: its
 * values and group times. parts holds m->nevents entries of scratch. */
void rowsum_rows(const struct model *m, const unsigned *idx, size_t n, struct mrow_w out,
		 struct rowsum_part *parts);

#endif
