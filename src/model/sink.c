/* The sink list: one model to every output, and a failing output stopped alone. */
#include "sink.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int sinks_add(struct sinks *l, struct sink *s)
{
	if (!s)
		return -ENOMEM;
	if (l->n >= SINKS_MAX) {
		s->ops->free(s);
		return -ENOSPC;
	}
	l->s[l->n++] = s;
	return 0;
}

static void drop(struct sinks *l, unsigned i)
{
	l->s[i]->ops->free(l->s[i]);
	memmove(&l->s[i], &l->s[i + 1], (l->n - i - 1) * sizeof(l->s[0]));
	l->n--;
}

unsigned sinks_write(struct sinks *l, const struct model *m, double wall,
		     void (*say)(void *ctx, const char *line), void *ctx)
{
	for (unsigned i = 0; i < l->n;) {
		struct sink *s = l->s[i];
		s->err[0] = '\0';
		int r = s->ops->write(s, m, wall);
		if (r == 0) {
			i++;
			continue;
		}
		if (r != -EPIPE && !l->failed)
			l->failed = r;
		if (!s->err[0] && r != -EPIPE)
			snprintf(s->err, sizeof(s->err), "%s: %s", s->ops->name, strerror(-r));
		if (s->err[0]) {
			if (say)
				say(ctx, s->err);
			else
				fprintf(stderr, "pmutop: %s\n", s->err);
		}
		drop(l, i);
	}
	return l->n;
}

void sinks_notice(struct sinks *l, const char *text)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->s[i]->ops->notice)
			l->s[i]->ops->notice(l->s[i], text);
}

struct sink *sinks_find(const struct sinks *l, const char *name)
{
	for (unsigned i = 0; i < l->n; i++)
		if (strcmp(l->s[i]->ops->name, name) == 0)
			return l->s[i];
	return NULL;
}

void sinks_free(struct sinks *l)
{
	while (l->n)
		drop(l, l->n - 1);
	l->failed = 0;
}

double sink_wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
