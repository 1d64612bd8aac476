/* The PMU browser: every PMU sysfs and libpfm4 know, present ones first, with type,
 * CPUs, counters and how many events the catalogue lists for each. A PMU libpfm4 detects
 * but the kernel lacks says so ("libpfm" in PRESENT) and shows no counters. */
#ifndef PMUTOP_PMULIST_H
#define PMUTOP_PMULIST_H

#include "catalog.h"
#include "scroll.h"

/* Title line at y, rows below it: h lines in all, w columns. c may be NULL. */
void pmulist_draw(const struct catalog *c, struct scroll *s, int y, int h, int w);

#endif
