/* modelserve.h: the newest packed tick, under a lock, with a condition for requests that
 * wait for the next one. Nothing is packed before the first request: a run nobody
 * connects to pays nothing for it. */
#include "modelserve.h"

#include "modelwire.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <zlib.h>

struct modelserve {
	pthread_mutex_t mu;
	pthread_cond_t cv;	   /* a new tick, or closing */
	struct mwbuf cur;	   /* under mu */
	struct mwbuf spare;	   /* the tick's, packed outside the lock */
	struct mwbuf zcur, zspare; /* cur and spare deflated (zlib), when want_z */
	uint64_t tick;		   /* cur's model's tick, 0: none yet */
	bool closing;
	bool wanted; /* a client has asked: ticks are packed from then on */
	bool want_z; /* a client has asked for deflate: ticks are deflated from then on */
};

struct modelserve *modelserve_new(void)
{
	struct modelserve *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	return s;
}

void modelserve_close(struct modelserve *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->closing = true;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void modelserve_free(struct modelserve *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	mwbuf_free(&s->cur);
	mwbuf_free(&s->spare);
	mwbuf_free(&s->zcur);
	mwbuf_free(&s->zspare);
	free(s);
}

int modelserve_publish(struct modelserve *s, const struct model *m)
{
	if (!s)
		return 0;
	pthread_mutex_lock(&s->mu);
	bool wanted = s->wanted, want_z = s->want_z;
	pthread_mutex_unlock(&s->mu);
	if (!wanted)
		return 0;
	if (modelwire_put(m, &s->spare))
		return -ENOMEM;
	/* level 1: most of the gain for a fraction of the time; len 0: not deflated */
	s->zspare.len = 0;
	uLongf zlen = want_z ? compressBound((uLong)s->spare.len) : 0;
	if (want_z && s->zspare.cap < zlen) {
		unsigned char *b = realloc(s->zspare.b, zlen);
		if (b)
			s->zspare.b = b, s->zspare.cap = zlen;
	}
	if (want_z && s->zspare.cap >= zlen &&
	    compress2(s->zspare.b, &zlen, s->spare.b, (uLong)s->spare.len, 1) == Z_OK)
		s->zspare.len = zlen;
	pthread_mutex_lock(&s->mu);
	struct mwbuf t = s->cur, zt = s->zcur;
	s->cur = s->spare;
	s->spare = t;
	s->zcur = s->zspare;
	s->zspare = zt;
	s->tick = m->tick;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

/* A whole decimal number up to max, or -EINVAL. */
static int number(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (max - (uint64_t)(*s - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int modelserve_query(const char *after, const char *wait, uint64_t *a, long *w, char *err,
		     size_t errlen)
{
	uint64_t ms = 0;
	*a = 0;
	if (after && number(after, UINT64_MAX, a)) {
		snprintf(err, errlen, "bad request: after must be a tick number (after=SEQ)\n");
		return -EINVAL;
	}
	if (wait && number(wait, (uint64_t)MODELSERVE_MAX_WAIT_MS, &ms)) {
		snprintf(err, errlen,
			 "bad request: wait must be milliseconds from 0 to %ld (wait=MS)\n",
			 MODELSERVE_MAX_WAIT_MS);
		return -EINVAL;
	}
	*w = (long)ms;
	return 0;
}

bool modelserve_accepts_deflate(const char *ae)
{
	for (const char *p = ae; p && *p;) {
		p += strspn(p, " \t,");
		size_t n = strcspn(p, " \t;,");
		bool name = n == 7 && strncasecmp(p, "deflate", 7) == 0;
		const char *end = p + strcspn(p, ",");
		const char *q = strstr(p, "q=");
		if (name)
			return !(q && q < end && strtod(q + 2, NULL) <= 0);
		p = end;
	}
	return false;
}

int modelserve_take(struct modelserve *s, uint64_t after, long wait_ms, bool deflate,
		    unsigned char **body, size_t *len, uint64_t *tick, bool *deflated)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += wait_ms / 1000;
	until.tv_nsec += (wait_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	int err = 0;
	pthread_mutex_lock(&s->mu);
	s->wanted = true;
	s->want_z |= deflate;
	while (!s->closing && (s->tick == 0 || s->tick <= after) && err == 0)
		err = wait_ms > 0 ? pthread_cond_timedwait(&s->cv, &s->mu, &until) : ETIMEDOUT;
	if (s->closing)
		err = -ESHUTDOWN;
	else if (s->tick == 0 || s->tick <= after)
		err = -EAGAIN;
	else if ((*deflated = deflate && s->zcur.len > 0),
		 !(*body = malloc(*deflated    ? s->zcur.len
				  : s->cur.len ? s->cur.len
					       : 1)))
		err = -ENOMEM;
	else {
		const struct mwbuf *b = *deflated ? &s->zcur : &s->cur;
		memcpy(*body, b->b, b->len);
		*len = b->len;
		*tick = s->tick;
		err = 0;
	}
	pthread_mutex_unlock(&s->mu);
	return err;
}
