/* The table of sources (sources.h). */
#include "sources.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpfsource.h"
#include "cgsource.h"
#include "engine.h"
#include "promqsrc.h"
#include "remotesrc.h"

/* In the order they are asked, the one auto prefers first. Two rows may share a name
 * (perf counts tasks, or cgroups with -G): --backend NAME asks both. A row chosen by its
 * own option (--connect, --prometheus) is asked by that name alone. */
static const struct source_kind *const table[] = {
	&remote_kind, &promq_kind, &bpfsource_kind, &cgsource_kind, &engine_kind,
};
#define NKINDS (sizeof(table) / sizeof(table[0]))

const struct source_kind *sources_named(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if ((table[i]->flags & SOURCE_BACKEND) && !strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

void sources_backends(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < NKINDS && n < len; i++)
		if ((table[i]->flags & SOURCE_BACKEND) && sources_named(table[i]->name) == table[i])
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      table[i]->name);
}

const struct source_kind *sources_next(const struct source_kind *after, const struct srcopts *o,
				       const char *name)
{
	size_t i = 0;
	if (after)
		while (i < NKINDS && table[i++] != after)
			;
	for (; i < NKINDS; i++) {
		const struct source_kind *k = table[i];
		bool named = name && !strcmp(k->name, name);
		if ((k->flags & SOURCE_BACKEND) && name && !named)
			continue;
		if ((k->flags & SOURCE_OPTION) && !named)
			continue;
		if (k->can(o, named))
			return k;
	}
	return NULL;
}

struct source *sources_open(const struct evset *set, const struct srcopts *o, const char *name,
			    struct source_pick *p, int *err)
{
	*p = (struct source_pick){0};
	const struct source_kind *k = sources_next(NULL, o, name);
	*err = -EINVAL;
	if (!k)
		return NULL;
	struct source *s = k->open(set, o, err);
	if (!s && k->why && *err != -ESRCH && *err != -ENOMEM) {
		p->refused = k;
		p->refused_err = *err;
		if (!name && (k = sources_next(k, o, NULL)) != NULL)
			s = k->open(set, o, err);
	}
	p->kind = s ? k : NULL;
	return s;
}
