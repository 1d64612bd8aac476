/* Allocation of a target's counter block. */
#include "counts.h"

#include <errno.h>
#include <stdlib.h>

#include "evgroup.h"

int counts_alloc(struct counts *c, const struct counts_layout *l)
{
	size_t sz = l->ngroups * sizeof(*c->grp) + l->nslots * sizeof(*c->prev) +
		    l->nevents * sizeof(*c->d) + l->nevents + l->ngroups;
	void *blk = calloc(1, sz ? sz : 1);
	if (!blk)
		return -ENOMEM;
	/* Pointers first, then 64-bit words: every part stays aligned. */
	c->grp = blk;
	c->prev = (uint64_t *)(c->grp + l->ngroups);
	c->d = (struct val_delta *)(c->prev + l->nslots);
	c->why = (uint8_t *)(c->d + l->nevents);
	c->fresh = c->why + l->nevents;
	return 0;
}

unsigned counts_close(struct counts *c, const struct counts_layout *l)
{
	unsigned n = 0;
	for (unsigned g = 0; c->grp && g < l->ngroups; g++) {
		if (c->grp[g])
			n++;
		evgroup_free(c->grp[g]);
		c->grp[g] = NULL;
	}
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
