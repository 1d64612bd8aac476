/* The exporter's part of a tick: add up, publish. Scrapes never wait for it. */
#include "listen.h"

#include "modelserve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

struct listen_sink {
	struct sink base;
	struct exporter *x;
	struct promacc *acc;
	unsigned (*open_fds)(const void *ctx);
	const void *ctx;
	bool ticked;
	char backend[16];
};

static void set_backend(struct listen_sink *l, const struct model *m)
{
	if (m && m->backend)
		snprintf(l->backend, sizeof(l->backend), "%s", m->backend);
}

static void publish(struct listen_sink *l, unsigned tasks)
{
	struct promtext_info in = {.version = PMUTOP_VERSION,
				   .backend = l->backend[0] ? l->backend : NULL,
				   .ticked = l->ticked,
				   .targets = promacc_targets(l->acc),
				   .open_fds = l->open_fds ? l->open_fds(l->ctx) : 0,
				   .tasks = tasks};
	if (exporter_publish(l->x, l->acc, &in))
		fprintf(stderr, "pmutop: out of memory building /metrics: the last one stays\n");
}

static int ls_write(struct sink *s, const struct model *m, double wall)
{
	struct listen_sink *l = (struct listen_sink *)s;
	(void)wall;
	/* The totals are summed here from the intervals: a final model would count twice. */
	if (m->final)
		return 0;
	/* Whether the last exposition was served, asked before this tick's replaces it:
	 * targets gone by then may go now. */
	bool served = exporter_served(l->x);
	l->ticked = true;
	set_backend(l, m);
	if (promacc_update(l->acc, m, served))
		fprintf(stderr, "pmutop: out of memory: some targets are not exported\n");
	publish(l, m->ntasks);
	if (modelserve_publish(exporter_modelserve(l->x), m))
		fprintf(stderr, "pmutop: out of memory packing the tick for --connect: the last "
				"one stays\n");
	return 0;
}

static void ls_free(struct sink *s)
{
	struct listen_sink *l = (struct listen_sink *)s;
	exporter_free(l->x);
	promacc_free(l->acc);
	free(l);
}

static const struct sink_ops listen_ops = {.name = "exporter", .write = ls_write, .free = ls_free};

struct sink *listen_sink_new(struct exporter *x, const struct promacc_opts *o,
			     const struct model *first, unsigned (*open_fds)(const void *ctx),
			     const void *ctx)
{
	struct listen_sink *l = calloc(1, sizeof(*l));
	if (!l || !(l->acc = promacc_new(o))) {
		free(l);
		exporter_free(x);
		return NULL;
	}
	l->base.ops = &listen_ops;
	l->x = x;
	l->open_fds = open_fds;
	l->ctx = ctx;
	set_backend(l, first);
	if (first && promacc_set_events(l->acc, first))
		fprintf(stderr, "pmutop: out of memory: the event set is not exported yet\n");
	publish(l, 0);
	fprintf(stderr, "pmutop: listening on %s\n", exporter_addr(x));
	if (exporter_plain_beyond_loopback(x))
		fprintf(stderr,
			"pmutop: warning: %s is reachable from other machines over plain HTTP: "
			"command names and cgroups go unencrypted to anyone who asks (give "
			"--web-config with tls_server_config and basic_auth_users)\n",
			exporter_addr(x));
	return &l->base;
}
