/* pmutop --list: the machine's PMUs and every event name -e accepts, for scripts. */
#ifndef PMUTOP_LISTING_H
#define PMUTOP_LISTING_H

#include <stdio.h>

struct pmu_set;

/* Print the PMUs, then the events under their PMU headings; filter (NULL: all) keeps one
 * PMU or heading. Returns 0, or -ENOENT when the filter matched nothing. */
int listing_print(FILE *f, const struct pmu_set *pmus, const char *filter);

#endif
