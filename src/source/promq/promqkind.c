/* --prometheus's row of the table of sources (source.h): chosen by its option alone. */
#include "promqsrc.h"

#include <errno.h>

#include "srcbase.h"

static bool pk_can(const struct srcopts *o, bool named)
{
	return named && o->own;
}

static struct source *pk_open(const struct evset *set, const struct srcopts *o, int *err)
{
	const struct promqopts *p = o->own;
	(void)set; /* the fleet's events, as its exporters count them */
	struct source *s = promqsrc_new(p->url, p->match, p->config, o->interval, p->cgroups,
					p->err, p->errlen);
	*err = s ? 0 : -EINVAL;
	return s;
}

const struct source_kind promq_kind = {.name = "prometheus",
				       .what = "a fleet's rows",
				       .flags = SOURCE_OPTION,
				       .can = pk_can,
				       .open = pk_open};
