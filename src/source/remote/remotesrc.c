/* remotesrc.h: GETs of /pmutop/v1/tick (fleet/fetch.h) read into a model (modelwire.h);
 * two of them, the one shown and the one read into, so that a damaged answer or a host
 * gone keeps the last rows. */
#include "remotesrc.h"

#include "fetch.h"
#include "modelwire.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REMOTE_PATH "/pmutop/v1/tick"
#define REMOTE_WAIT_MS 4000L /* the server's longest wait for a next tick */
/* Beyond the wait, for a tick's answer to come: a host that does not answer (a dropped
 * route) holds the loop this long at most before its rows read stale. */
#define REMOTE_SPARE_MS 3000L

struct remote {
	struct source base;
	struct fetch *f;
	char *url; /* the base, without a trailing slash */
	struct modelwire w[2];
	unsigned cur;	    /* w[cur] is shown */
	uint64_t seen;	    /* the host's last tick read, 0: read the newest */
	uint64_t tick;	    /* the model's tick: the host's, or counted on while stale */
	time_t stale_since; /* 0: answering */
	char err[256];	    /* why it is stale */
	char notice[512];
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The host's answer as -errno and one line: 0 with the body's tick read into w. */
static int remote_get(struct remote *r, uint64_t after, long wait_ms, long spare_ms,
		      struct modelwire *w, char *err, size_t errlen)
{
	size_t n = strlen(r->url) + 64, len;
	char *u = malloc(n), *body;
	long status;
	if (!u)
		return -ENOMEM;
	snprintf(u, n, "%s" REMOTE_PATH "?after=%llu&wait=%ld", r->url, (unsigned long long)after,
		 wait_ms);
	int e = fetch_get(r->f, u, wait_ms + spare_ms, &body, &len, &status, err, errlen);
	if (e) {
		free(u);
		return e;
	}
	if (status == 200) {
		e = modelwire_get(w, (unsigned char *)body, len);
		if (e)
			snprintf(err, errlen, "%s: %s", u,
				 e == -ENOMEM		 ? "out of memory"
				 : e == -EPROTONOSUPPORT ? "a tick in another pmutop version's "
							   "format: run the same version on both"
							 : "not a pmutop tick (damaged?)");
		free(u);
		return e;
	}
	free(body);
	if (status == 204)
		e = -EAGAIN, snprintf(err, errlen, "%s: no tick yet", u);
	else if (status == 401)
		e = -EACCES, snprintf(err, errlen,
				      "%s: 401: wrong or no user and password "
				      "(--connect-config basic_auth)",
				      u);
	else if (status == 403)
		e = -EACCES, snprintf(err, errlen,
				      "%s: 403: client certificate refused "
				      "(--connect-config tls_config cert_file)",
				      u);
	else if (status == 404)
		e = -ENOENT, snprintf(err, errlen,
				      "%s: 404: not a pmutop --listen that serves "
				      "its ticks",
				      u);
	else
		e = -EIO, snprintf(err, errlen, "%s: HTTP status %ld", u, status);
	free(u);
	return e;
}

/* Every value of every row n/c for a tick not read: never last tick's numbers again. */
static void mark_stale(struct modelwire *w)
{
	struct mstore *st[] = {&w->rows, &w->cpus, &w->cgs};
	const unsigned n[] = {w->m.nrows, w->m.ncpu_rows, w->m.ncg_rows};
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < n[k]; i++) {
			struct mrow_w h = mstore_at(st[k], i);
			for (unsigned e = 0; e < w->m.nevents; e++)
				h.v[e] = val_missing(VAL_NC, WHY_STALE);
			for (unsigned g = 0; g < w->m.ngroups; g++)
				h.g[g] = (struct val_delta){0};
			h.r->cpu_pct = -1;
		}
}

static void say_stale(struct remote *r)
{
	struct tm tm;
	char when[32];
	localtime_r(&r->stale_since, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	struct model *m = &r->w[r->cur].m;
	/* The error's first reason, without the URL asked and libcurl's detail. */
	const char *why = strstr(r->err, REMOTE_PATH);
	why = why && strstr(why, ": ") ? strstr(why, ": ") + 2 : r->err;
	size_t n = strcspn(why, ":(");
	while (n > 0 && why[n - 1] == ' ')
		n--;
	snprintf(r->notice, sizeof(r->notice), "%s not answering since %s (%.*s)",
		 m->hostname ? m->hostname : r->url, when, (int)n, why);
	m->source_notice = r->notice;
}

static int rm_tick(struct source *s)
{
	struct remote *r = (struct remote *)s;
	struct model *shown = &r->w[r->cur].m;
	struct modelwire *next = &r->w[!r->cur];
	long wait = shown->interval > 0 && shown->interval * 1500 < REMOTE_WAIT_MS
			    ? (long)(shown->interval * 1500)
			    : REMOTE_WAIT_MS;
	/* A host that answers but has no newer tick (busy, or its screen paused): asked
	 * again, up to the longer of 3 intervals and the server's longest wait, so that
	 * every tick written is one the host counted, never the same one twice. */
	double until =
		now_s() + (shown->interval * 3 > REMOTE_WAIT_MS / 1000.0 ? shown->interval * 3
									 : REMOTE_WAIT_MS / 1000.0);
	int e;
	while ((e = remote_get(r, r->seen, wait, REMOTE_SPARE_MS, next, r->err, sizeof(r->err))) ==
		       -EAGAIN &&
	       now_s() < until)
		;
	if (e == -EAGAIN)
		snprintf(r->err, sizeof(r->err), "answering, but no new tick");
	if (e == 0) {
		r->cur = !r->cur;
		r->seen = r->w[r->cur].m.tick;
		r->tick = r->tick >= r->seen ? r->tick + 1 : r->seen;
		r->w[r->cur].m.tick = r->tick;
		r->stale_since = 0;
		return 0;
	}
	if (!r->stale_since) {
		r->stale_since = time(NULL);
		mark_stale(&r->w[r->cur]);
	}
	/* A host that comes back may have started again, its ticks from 1. */
	r->seen = 0;
	shown->tick = ++r->tick;
	say_stale(r);
	return 0;
}

static const struct model *rm_model(const struct source *s)
{
	const struct remote *r = (const struct remote *)s;
	return &r->w[r->cur].m;
}

static int rm_control(struct source *s, enum source_ctl what, const void *arg)
{
	const struct remote *r = (const struct remote *)s;
	if (what == SRC_OPEN_FDS) {
		*(unsigned *)arg = 0;
		return 0;
	}
	if (what == SRC_REMOTE) {
		*(const char **)arg = r->w[r->cur].m.hostname ? r->w[r->cur].m.hostname : r->url;
		return 0;
	}
	return -ENOTSUP;
}

static void rm_free(struct source *s)
{
	struct remote *r = (struct remote *)s;
	fetch_free(r->f);
	modelwire_clear(&r->w[0]);
	modelwire_clear(&r->w[1]);
	free(r->url);
	free(r);
}

static const struct source_ops remote_ops = {.name = "remote host",
					     .tick = rm_tick,
					     .model = rm_model,
					     .control = rm_control,
					     .free = rm_free};

struct source *remotesrc_new(const char *url, const char *config, double wait_s, char *err,
			     size_t errlen)
{
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
		snprintf(err, errlen, "--connect %s: give http://HOST:PORT or https://HOST:PORT",
			 url);
		return NULL;
	}
	struct fetch_cfg *cfg = NULL;
	if (config && fetch_cfg_load(config, &cfg, err, errlen))
		return NULL;
	struct remote *r = calloc(1, sizeof(*r));
	if (!r || !(r->url = strdup(url))) {
		free(r);
		fetch_cfg_free(cfg);
		snprintf(err, errlen, "--connect: out of memory");
		return NULL;
	}
	r->base.ops = &remote_ops;
	size_t n = strlen(r->url);
	while (n > 0 && r->url[n - 1] == '/')
		r->url[--n] = '\0';
	r->f = fetch_new(cfg, err, errlen);
	fetch_cfg_free(cfg);
	int e = r->f ? -EAGAIN : -ENOMEM;
	double until = now_s() + wait_s;
	while (e == -EAGAIN && now_s() < until)
		e = remote_get(r, 0, REMOTE_WAIT_MS, 10000, &r->w[0], err, errlen);
	if (e) {
		rm_free(&r->base);
		return NULL;
	}
	r->seen = r->tick = r->w[0].m.tick;
	return &r->base;
}
