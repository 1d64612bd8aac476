/* --connect's row of the table of sources (source.h): chosen by its option alone. */
#include "remotesrc.h"

#include <errno.h>

#include "srcbase.h"

static bool rk_can(const struct srcopts *o, bool named)
{
	return named && o->own;
}

static struct source *rk_open(const struct evset *set, const struct srcopts *o, int *err)
{
	const struct remoteopts *r = o->own;
	(void)set; /* the other host's events */
	struct source *s = remotesrc_new(r->url, r->config, r->wait_s, r->err, r->errlen);
	*err = s ? 0 : -EINVAL;
	return s;
}

const struct source_kind remote_kind = {.name = "connect",
					.what = "another host's rows",
					.flags = SOURCE_OPTION,
					.can = rk_can,
					.open = rk_open};
