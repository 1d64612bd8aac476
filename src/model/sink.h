/* The outputs of a run: each tick's model goes to every sink in a list (batch text/CSV/
 * JSON, the recording, /metrics, the screen), whatever source counted it. */
#ifndef PMUTOP_SINK_H
#define PMUTOP_SINK_H

#include <stdbool.h>

#include "model.h"

struct sink;

struct sink_ops {
	const char *name;
	/* One tick's model, measured at wall (seconds since the epoch). 0, or -errno with
	 * one line in the sink's error (sink_error): that sink stops, the others go on. */
	int (*write)(struct sink *s, const struct model *m, double wall);
	/* A line the user should see (NULL: the sink shows none). */
	void (*notice)(struct sink *s, const char *text);
	void (*free)(struct sink *s);
};

/* Sinks embed this first. */
struct sink {
	const struct sink_ops *ops;
	char err[512];
};

#define SINKS_MAX 8

/* The sinks of a run, written in the order added. */
struct sinks {
	struct sink *s[SINKS_MAX];
	unsigned n;
	int failed; /* the first -errno a sink stopped with (not -EPIPE), or 0 */
};

/* Takes s (NULL: -ENOMEM). Returns 0 or -ENOSPC. */
int sinks_add(struct sinks *l, struct sink *s);
/* m to every sink. A sink that fails is freed and its line given to say (stderr when
 * NULL); returns how many sinks are left. */
unsigned sinks_write(struct sinks *l, const struct model *m, double wall,
		     void (*say)(void *ctx, const char *line), void *ctx);
/* A notice to every sink that shows one. */
void sinks_notice(struct sinks *l, const char *text);
/* The sink named name, or NULL. */
struct sink *sinks_find(const struct sinks *l, const char *name);
void sinks_free(struct sinks *l);

/* Seconds since the epoch, now. */
double sink_wall_now(void);

#endif
