/* remotesrc.h: a thread of its own asks the host for each tick (GET /pmutop/v1/tick, a
 * long poll through fleet/fetch.h) and queues the models read (modelwire.h); the run
 * loop's tick takes the oldest. The first take (and one after the queue ran dry) waits
 * for a tick more and leaves it queued: the loop, ticking at the host's interval in
 * whatever phase, then finds one waiting each time and does not hold its keys on the
 * network. The rows are up to one interval behind the host's; no tick is lost. */
#include "remotesrc.h"

#include "fetch.h"
#include "modelwire.h"

#include <errno.h>
#include <pthread.h>
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
#define REMOTE_POLL_MS 500L /* the thread's longest wait: how soon it sees it must stop */
#define REMOTE_QUEUE 8	    /* ticks read and not yet taken; the oldest go beyond */

struct remote {
	struct source base;
	struct fetch *f; /* the thread's */
	char *url;	 /* the base, without a trailing slash */
	struct modelwire *shown;
	double interval;    /* the host's, seconds */
	uint64_t seen0;	    /* the host's tick read first: the thread asks after it */
	double time0;	    /* and its time (the host's seconds since its start) */
	uint64_t tick;	    /* the model's tick: the host's, or counted on while stale */
	bool prime;	    /* the next take waits for a tick more, kept in reserve */
	time_t stale_since; /* 0: answering */
	double last_new;    /* when a tick was last taken (monotonic) */
	char notice[512];
	pthread_t th;
	bool started;
	pthread_mutex_t mu; /* the rest, between the thread and the tick */
	pthread_cond_t cv;  /* a tick queued, the host gone, or stop */
	struct modelwire *q[REMOTE_QUEUE];
	unsigned qn;
	int down; /* the thread's last error, 0 when the host answered */
	char err[256];
	bool stop;
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The monotonic clock's time ms from now, for a condition's timed wait. */
static struct timespec mono_in(long ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += ms % 1000 * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
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

static void say_stale(struct remote *r, const char *err)
{
	struct tm tm;
	char when[32];
	localtime_r(&r->stale_since, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	struct model *m = &r->shown->m;
	/* The error's first reason, without the URL asked and libcurl's detail. */
	const char *why = strstr(err, REMOTE_PATH);
	why = why && strstr(why, ": ") ? strstr(why, ": ") + 2 : err;
	size_t n = strcspn(why, ":(");
	while (n > 0 && why[n - 1] == ' ')
		n--;
	snprintf(r->notice, sizeof(r->notice), "%s not answering since %s (%.*s)",
		 m->hostname ? m->hostname : r->url, when, (int)n, why);
	m->source_notice = r->notice;
}

static void wire_free(struct modelwire *w)
{
	if (w)
		modelwire_clear(w);
	free(w);
}

/* The thread: one request at a time, each answer queued or said. */
static void *fetcher(void *arg)
{
	struct remote *r = arg;
	uint64_t seen = r->seen0, last = r->seen0;
	double last_time = r->time0; /* of the tick queued last */
	struct modelwire *w = NULL;
	char err[256];
	for (;;) {
		pthread_mutex_lock(&r->mu);
		bool stop = r->stop;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			break;
		if (!w && !(w = calloc(1, sizeof(*w)))) {
			pthread_mutex_lock(&r->mu);
			r->down = -ENOMEM;
			snprintf(r->err, sizeof(r->err), "out of memory");
			pthread_cond_broadcast(&r->cv);
			pthread_mutex_unlock(&r->mu);
			break;
		}
		int e = remote_get(r, seen, REMOTE_POLL_MS, REMOTE_SPARE_MS, w, err, sizeof(err));
		/* Asked after 0 (after an error, for a host that may have started again), an
		 * answer that is the tick queued last, again: no new tick. */
		if (e == 0 && w->m.tick == last && w->m.time == last_time) {
			seen = last;
			e = -EAGAIN;
		}
		pthread_mutex_lock(&r->mu);
		if (e == 0) {
			seen = last = w->m.tick;
			last_time = w->m.time;
			if (r->qn == REMOTE_QUEUE) {
				wire_free(r->q[0]);
				memmove(r->q, r->q + 1, (REMOTE_QUEUE - 1) * sizeof(r->q[0]));
				r->qn--;
			}
			r->q[r->qn++] = w;
			w = NULL;
		} else if (e != -EAGAIN) {
			/* A host that comes back may have started again, its ticks from 1. */
			seen = 0;
			snprintf(r->err, sizeof(r->err), "%s", err);
		}
		r->down = e == -EAGAIN ? 0 : e;
		pthread_cond_broadcast(&r->cv);
		if (e && e != -EAGAIN && !r->stop) { /* not a busy loop on a refused port */
			struct timespec t = mono_in(REMOTE_POLL_MS);
			pthread_cond_timedwait(&r->cv, &r->mu, &t);
		}
		pthread_mutex_unlock(&r->mu);
	}
	wire_free(w);
	return NULL;
}

/* The oldest tick queued, when there are enough: two when priming (one stays, for the
 * next tick to find), or the last ones of a host gone (under mu). */
static struct modelwire *take(struct remote *r)
{
	if (r->qn == 0 || (r->prime && r->qn < 2 && !r->down))
		return NULL;
	struct modelwire *w = r->q[0];
	memmove(r->q, r->q + 1, (r->qn - 1) * sizeof(r->q[0]));
	r->qn--;
	return w;
}

/* The host's interval as its tick says, within pmutop's (-d 0.1 to 3600): what the wait
 * for its next tick is made of; else the one known before. */
static double host_interval(double said, double before)
{
	if (!(said > 0)) /* NaN too */
		return before;
	return said < 0.1 ? 0.1 : said > 3600 ? 3600 : said;
}

static int rm_tick(struct source *s)
{
	struct remote *r = (struct remote *)s;
	/* Waited for when none is ready: the host's next tick, or its silence for the longer
	 * of 3 intervals and the server's longest wait since the last tick taken (it answers
	 * but has no new tick: busy, or its screen paused). */
	double limit = r->interval * 3 > REMOTE_WAIT_MS / 1000.0 ? r->interval * 3
								 : REMOTE_WAIT_MS / 1000.0;
	double end = r->last_new + limit;
	pthread_mutex_lock(&r->mu);
	if (r->qn == 0)
		r->prime = true; /* ran dry: build the reserve again */
	struct modelwire *w;
	int rc = 0;
	/* In slices: a signal that ends the run ends the wait (no tick), however long the
	 * host's interval. */
	for (double left; !(w = take(r)) && !r->down && rc == 0 && (left = end - now_s()) > 0;) {
		bool last = left * 1000 <= REMOTE_POLL_MS;
		struct timespec t = mono_in(last ? (long)(left * 1000) + 1 : REMOTE_POLL_MS);
		rc = pthread_cond_timedwait(&r->cv, &r->mu, &t);
		if (rc == ETIMEDOUT && !last)
			rc = 0;
		if (fetch_stop_pending()) {
			pthread_mutex_unlock(&r->mu);
			return -EINTR;
		}
	}
	if (!w && r->qn) /* the host went quiet: its last ticks first */
		w = (r->prime = false, take(r));
	else if (w)
		r->prime = false;
	char err[256];
	snprintf(err, sizeof(err), "%s", r->down ? r->err : "answering, but no new tick");
	pthread_mutex_unlock(&r->mu);
	if (w) {
		wire_free(r->shown);
		r->shown = w;
		w->m.remote = true;
		r->interval = host_interval(w->m.interval, r->interval);
		uint64_t t = w->m.tick;
		r->tick = r->tick >= t ? r->tick + 1 : t;
		w->m.tick = r->tick;
		r->stale_since = 0;
		r->last_new = now_s();
		return 0;
	}
	if (!r->stale_since) {
		r->stale_since = time(NULL);
		mark_stale(r->shown);
	}
	r->shown->m.tick = ++r->tick;
	say_stale(r, err);
	return 0;
}

static const struct model *rm_model(const struct source *s)
{
	const struct remote *r = (const struct remote *)s;
	return &r->shown->m;
}

static int rm_control(struct source *s, enum source_ctl what, const void *arg)
{
	const struct remote *r = (const struct remote *)s;
	if (what == SRC_OPEN_FDS) {
		*(unsigned *)arg = 0;
		return 0;
	}
	if (what == SRC_REMOTE) {
		*(const char **)arg = r->shown->m.hostname ? r->shown->m.hostname : r->url;
		return 0;
	}
	if (what == SRC_CGROUP_ROWS) /* the host serves its cgroups' counts (--listen) */
		return 0;
	if (what == SRC_PAUSE) /* the host counts on: the screen takes none of its ticks */
		return 0;
	return -ENOTSUP;
}

static void rm_free(struct source *s)
{
	struct remote *r = (struct remote *)s;
	if (r->started) {
		pthread_mutex_lock(&r->mu);
		r->stop = true;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->th, NULL);
	}
	for (unsigned i = 0; i < r->qn; i++)
		wire_free(r->q[i]);
	wire_free(r->shown);
	fetch_free(r->f);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r->url);
	free(r);
}

static const struct source_ops remote_ops = {.name = "remote host",
					     .caps = SRC_CAN_COUNT,
					     .tick = rm_tick,
					     .model = rm_model,
					     .control = rm_control,
					     .free = rm_free};

struct source *remotesrc_new(const char *url, const char *config, double wait_s, char *err,
			     size_t errlen)
{
	if (!fetch_url_ok(url)) {
		snprintf(err, errlen, "%s: give http://HOST:PORT or https://HOST:PORT", url);
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
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	size_t n = strlen(r->url);
	while (n > 0 && r->url[n - 1] == '/')
		r->url[--n] = '\0';
	r->f = fetch_new(cfg, err, errlen);
	fetch_cfg_free(cfg);
	int e = r->f && (r->shown = calloc(1, sizeof(*r->shown))) ? -EAGAIN : -ENOMEM;
	double until = now_s() + wait_s;
	while (e == -EAGAIN && now_s() < until)
		e = remote_get(r, 0, REMOTE_WAIT_MS, 10000, r->shown, err, errlen);
	if (!e) {
		r->seen0 = r->shown->m.tick;
		r->time0 = r->shown->m.time;
		r->shown->m.remote = true;
	}
	if (!e && pthread_create(&r->th, NULL, fetcher, r) != 0)
		e = -EAGAIN, snprintf(err, errlen, "--connect: cannot start its thread");
	if (e) {
		rm_free(&r->base);
		return NULL;
	}
	r->started = true;
	r->tick = r->shown->m.tick;
	r->interval = host_interval(r->shown->m.interval, 1);
	r->prime = true;
	r->last_new = now_s();
	return &r->base;
}
