/* Allocation of a target's counter block. */
#include "counts.h"

#include <errno.h>
#include <stdlib.h>

#include "evgroup.h"

int counts_alloc(struct counts *c, const struct counts_layout *l)
{
	/* Pointers, then the per-event and per-group bytes, then 64-bit words from an
	 * 8-byte boundary: every part stays aligned, and what a tick looks at for every task
	 * (the groups, why, fresh and the first group's totals) shares a cache line or two,
	 * not one each. */
	size_t head = l->ngroups * sizeof(*c->grp) + l->nevents + l->ngroups;
	head = (head + 7) & ~(size_t)7;
	size_t sz = head + l->nslots * sizeof(*c->prev) + l->nevents * sizeof(*c->d);
	void *blk = calloc(1, sz ? sz : 1);
	if (!blk)
		return -ENOMEM;
	c->grp = blk;
	c->why = (uint8_t *)(c->grp + l->ngroups);
	c->fresh = c->why + l->nevents;
	c->prev = (uint64_t *)((char *)blk + head);
	c->d = (struct val_delta *)(c->prev + l->nslots);
	c->idle = c->d_zero = c->clean = false;
	c->probe_fd = -1;
	c->probe_seq = NULL;
	c->probe_lock = 0;
	return 0;
}

unsigned counts_close(struct counts *c, const struct counts_layout *l)
{
	unsigned n = 0;
	c->idle = c->d_zero = false;
	for (unsigned g = 0; c->grp && g < l->ngroups; g++) {
		if (c->grp[g])
			n++;
		evgroup_free(c->grp[g]);
		c->grp[g] = NULL;
	}
	return n;
}

unsigned counts_open_fds(const struct counts *c, const struct counts_layout *l)
{
	unsigned n = 0;
	for (unsigned g = 0; c->grp && g < l->ngroups; g++)
		n += c->grp[g] ? evgroup_open_count(c->grp[g]) : 0;
	return n;
}

void counts_free(struct counts *c, const struct counts_layout *l)
{
	counts_close(c, l);
	free(c->grp);
	c->grp = NULL;
	c->prev = NULL;
	c->d = NULL;
	c->why = NULL;
	c->fresh = NULL;
}
