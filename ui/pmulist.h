/* The PMU browser: the PMUs this machine has (and the headings), or with all every PMU
 * sysfs and libpfm4 know, present ones first, with type, CPUs, counters and how many
 * events the catalogue lists for each; as pmutop --list and --list all. A PMU libpfm4
 * detects but the kernel lacks says so ("libpfm" in PRESENT) and shows no counters. */
#ifndef PMUTOP_PMULIST_H
#define PMUTOP_PMULIST_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "scroll.h"

/* How many rows the browser lists, and the catalogue row of the k-th of them (-1: none
 * such); the position of catalogue row i among them (0 when it is not listed). */
size_t pmulist_rows(const struct catalog *c, bool all);
int pmulist_row(const struct catalog *c, bool all, size_t k);
size_t pmulist_pos(const struct catalog *c, bool all, int i);

/* Title line at y, rows below it, and what is not listed under them: h lines in all, w
 * columns. c may be NULL. */
void pmulist_draw(const struct catalog *c, bool all, struct scroll *s, int y, int h, int w);

#endif
