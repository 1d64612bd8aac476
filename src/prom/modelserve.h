/* GET /pmutop/v1/tick: each tick's model (modelwire.h) for another pmutop's --connect,
 * behind the exporter's TLS, client certificates and basic auth. From the first request
 * on, the tick packs its model once; a request copies the newest, waiting for one newer
 * than it has seen (the first request waits for the next tick). */
#ifndef PMUTOP_MODELSERVE_H
#define PMUTOP_MODELSERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define MODELSERVE_PATH "/pmutop/v1/tick"
#define MODELSERVE_MAX_WAIT_MS 4000L /* within the exporter's idle deadline */

struct modelserve;

struct modelserve *modelserve_new(void);
/* Requests waiting end now (-ESHUTDOWN), and those to come at once: before the server's
 * threads are joined. s NULL: nothing. */
void modelserve_close(struct modelserve *s);
void modelserve_free(struct modelserve *s);

/* m packed as the newest tick once a client has asked (before: nothing done). 0 or
 * -ENOMEM (the last one stays). s NULL: 0. */
int modelserve_publish(struct modelserve *s, const struct model *m);

/* The query's after (a tick number, NULL: 0) and wait (milliseconds, NULL: 0, at most
 * MODELSERVE_MAX_WAIT_MS). 0, or -EINVAL with one line in err. */
int modelserve_query(const char *after, const char *wait, uint64_t *a, long *w, char *err,
		     size_t errlen);

/* Whether an Accept-Encoding value takes deflate (zlib's format) with q above 0. */
bool modelserve_accepts_deflate(const char *accept_encoding);

/* A copy (malloc'd) of the newest tick when its number is above after, waiting up to
 * wait_ms for one: 0 with *body, *len and *tick; -EAGAIN (none newer yet), -ESHUTDOWN
 * (closing) or -ENOMEM. With deflate, the ticks are deflated from the next one on, and
 * *deflated says whether this body is. */
int modelserve_take(struct modelserve *s, uint64_t after, long wait_ms, bool deflate,
		    unsigned char **body, size_t *len, uint64_t *tick, bool *deflated);

#endif
