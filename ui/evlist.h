/* The event browser: catalogue events (a search's hits), with their PMU heading when
 * the list spans PMUs, and a mark on those already counted. */
#ifndef PMUTOP_EVLIST_H
#define PMUTOP_EVLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "scroll.h"
#include "uspec.h"

struct evlist_view {
	const struct catalog *c;
	const unsigned *hits; /* catalogue event indices, in display order */
	size_t n;
	bool show_pmu;		  /* a PMU column: the list spans PMUs */
	const struct uspec *mine; /* the user's events, marked '*'; may be NULL */
	const char *empty;	  /* shown when there are no hits */
};

/* Title line at y, rows below, and the selected event in full on the last lines (its
 * name and description; its umasks and modifiers when h leaves room): h lines in all,
 * w columns. */
void evlist_draw(const struct evlist_view *v, struct scroll *s, int y, int h, int w);

/* True when name is one of the members of s. */
bool evlist_counted(const struct uspec *s, const char *name);

#endif
