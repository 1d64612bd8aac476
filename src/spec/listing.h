/* pmutop --list: the machine's PMUs and every event name -e accepts, for scripts. */
#ifndef PMUTOP_LISTING_H
#define PMUTOP_LISTING_H

#include <stdio.h>

struct pmu_set;

/* Print the catalogue the screen's browsers show (src/catalog.h): PMU rows, then the
 * events under their headings, libpfm4 events with their umasks and modifiers indented
 * under them. filter NULL: the PMUs this machine has and their events (a line counts the
 * rest); "all": every PMU and event libpfm4 knows; a glob ("cache*", matched without
 * case against event names): the matching events of the PMUs this machine has; else
 * one PMU or heading, or failing that the event -e resolves filter to, under its
 * catalogue names ("cs": context-switches). Returns 0, -ENOENT when the filter matched
 * nothing, or -ENOMEM. */
int listing_print(FILE *f, const struct pmu_set *pmus, const char *filter);

#endif
