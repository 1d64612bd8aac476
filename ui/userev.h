/* The user's own events, group by group, with whether each counts here, and the derived
 * columns made from them: the list where events are removed and regrouped. */
#ifndef PMUTOP_USEREV_H
#define PMUTOP_USEREV_H

#include <stdbool.h>

#include "columns.h"
#include "menu.h"
#include "model.h"
#include "scroll.h"
#include "uspec.h"

enum userev_kind { UREV_GROUP, UREV_EVENT, UREV_METRICS, UREV_METRIC };

struct userev_row {
	enum userev_kind kind;
	unsigned i; /* group, member or metric index */
};

struct userev_view {
	const struct uspec *s; /* the spec in force, split; NULL when it would not split */
	const char *raw;       /* the same as text */
	const struct user_metric *metrics;
	unsigned nmetrics;
	const struct model *m; /* for each event's status; may be NULL */
};

#define USEREV_ROWS (2 * USPEC_EVENTS + 20)

/* The list's rows: each group then its members, then the derived columns. */
unsigned userev_rows(const struct userev_view *v, struct userev_row *out, unsigned max);
void userev_draw(const struct userev_view *v, struct scroll *sc, int y, int h, int w);

/* A pick list of s's groups ("Group 2: {a,b}", value 1) and "A group of its own"
 * (value -1), for adding or moving an event. */
void userev_group_menu(struct menu *mn, const struct uspec *s, const char *title);

#endif
