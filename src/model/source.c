/* The source interface's helpers (source.h). */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int source_control(struct source *s, enum source_ctl what, const void *arg)
{
	return s->ops->control ? s->ops->control(s, what, arg) : -ENOTSUP;
}

int source_set(struct source *s, enum source_ctl what, bool on)
{
	return source_control(s, what, &on);
}

const char *source_refusal(const struct source *s, const char *why, char *buf, unsigned len)
{
	const char *host = NULL, *an = strchr("aeiou", s->ops->name[0]) ? "n" : "";
	if (!why)
		snprintf(buf, len, "not for a%s %s", an, s->ops->name);
	else if (source_control((struct source *)s, SRC_REMOTE, &host) == 0 && host)
		snprintf(buf, len, "rows of %s (--%s): %s", host,
			 strcmp(s->ops->name, "prometheus") ? "connect" : "prometheus", why);
	else
		snprintf(buf, len, "a%s %s: %s", an, s->ops->name, why);
	return buf;
}

void source_close(struct source *s)
{
	if (s)
		s->ops->free(s);
}
