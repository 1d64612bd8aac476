/* The table of sources: every counting source's row (source.h's struct source_kind),
 * asked in turn. A new source is its folder, which exports its row, and one line of the
 * table in sources.c (docs/ARCHITECTURE.md, "Adding a source"). */
#ifndef PMUTOP_SOURCES_H
#define PMUTOP_SOURCES_H

#include <stddef.h>

#include "evset.h"
#include "source.h"
#include "srcbase.h"

/* The row --backend NAME names (a SOURCE_BACKEND row), or NULL. */
const struct source_kind *sources_named(const char *name);
/* The backends' names for a line: "bpf, perf". */
void sources_backends(char *buf, size_t len);
/* The first row after `after` (NULL: from the first) that counts o: a backend row only
 * when it is `name` (NULL: auto, any backend), a row that is no backend (-G's) whenever
 * it can. NULL: none. */
const struct source_kind *sources_next(const struct source_kind *after, const struct srcopts *o,
				       const char *name);

/* What sources_open chose. */
struct source_pick {
	const struct source_kind *kind;	   /* the row that counts */
	const struct source_kind *refused; /* the row asked first, which cannot count here */
	int refused_err;		   /* and why (refused->why says it in words) */
};
/* The source of the first row that counts o; when that row cannot count here (its why
 * names the error) and name is NULL (auto), the next row's. NULL with *err as the last
 * row asked said, or -EINVAL when no row counts o. */
struct source *sources_open(const struct evset *set, const struct srcopts *o, const char *name,
			    struct source_pick *p, int *err);

#endif
