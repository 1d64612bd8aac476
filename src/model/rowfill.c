/* The row writer every counting source shares (rowfill.h). */
#include "rowfill.h"

void rowfill(const struct rowfill *l, const struct val_delta *d, const uint8_t *why,
	     const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live)
{
	unsigned n = live ? l->nlive : l->nevents;
	for (unsigned i = 0; i < n; i++) {
		unsigned ev = live ? l->live[i] : i;
		if (l->dead[ev]) /* found unsupported at start-up: in no part's sum */
			v[ev] = val_missing(VAL_NA, WHY_UNSUPPORTED);
		else if (why[ev] == WHY_NONE && fresh &&
			 fresh[l->events[ev].group] == FRESH_FIRST_READ)
			v[ev] = val_missing(VAL_NC, WHY_STARTING);
		else if (why[ev] == WHY_NONE)
			v[ev] = val_scale(d[ev]);
		else /* out of descriptors is a state of the machine, not of the event */
			v[ev] = val_missing(why[ev] == WHY_FDLIMIT || why[ev] == WHY_NOFIT ? VAL_NC
											   : VAL_NA,
					    (enum val_why)why[ev]);
	}
	for (unsigned g = 0; g < l->ngroups; g++) {
		if (live && l->gdead[g])
			continue;
		const struct mgroup *mg = &l->groups[g];
		gd[g] = (struct val_delta){0, 0, 0};
		for (unsigned k = 0; k < mg->n; k++)
			if (why[mg->first + k] == WHY_NONE) {
				gd[g] = d[mg->first + k];
				break;
			}
	}
}
