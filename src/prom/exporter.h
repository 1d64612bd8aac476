/* The /metrics server (libmicrohttpd, a thread per connection behind httpgate's accept
 * thread). The tick renders the exposition and publishes it; a scrape serves the latest
 * published text and nothing else: it never reads a counter and never waits for a tick. */
#ifndef PMUTOP_EXPORTER_H
#define PMUTOP_EXPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "promtext.h"

#define EXPORTER_MAX_CONNECTIONS 64
/* libmicrohttpd's own limit, never reached: the gate hands it at most twice the slots at
 * once (live ones and those cut, until it closes them), and libmicrohttpd 0.9.75 deadlocks
 * when a connection is added at its limit. */
#define EXPORTER_MHD_LIMIT (4u * EXPORTER_MAX_CONNECTIONS)
#define EXPORTER_PER_ADDRESS 16 /* what one client can hold: a quarter of the slots */
#define EXPORTER_HEAD_SECONDS 3 /* from connect (or a response) to a whole request head */
#define EXPORTER_HEADER_MEMORY 8192
#define EXPORTER_IDLE_SECONDS 5 /* within a request: no byte read or sent for this long */
/* Between requests on a connection kept alive: longer than Prometheus's scrape intervals
 * (15 s, 30 s, its default 1 min), shorter than its own 5 min for an idle connection. */
#define EXPORTER_KEEPALIVE_SECONDS 120

struct exporter;
struct modelserve;

/* Bind and start serving; with web_config (--web-config FILE, or NULL) over TLS and/or
 * behind basic auth. Returns NULL with one line in err (address in use, bad config, ...). */
struct exporter *exporter_new(const char *listen, const char *web_config, char *err, size_t errlen);
void exporter_free(struct exporter *x);

/* Build the exposition from the totals and make it the one scrapes get. Returns 0 or
 * -ENOMEM (the last one stays published). */
int exporter_publish(struct exporter *x, const struct promacc *a, struct promtext_info *in);

/* The exposition published last has been served at least once. */
bool exporter_served(struct exporter *x);

/* How long a connection kept alive waits for its next request (tests shorten it): call
 * it before the first connection, as the server's threads read it unlocked. */
void exporter_set_keepalive(struct exporter *x, unsigned seconds);

/* Where the tick publishes its model for GET /pmutop/v1/tick (modelserve.h); NULL in a
 * build without the exporter. */
struct modelserve *exporter_modelserve(struct exporter *x);

/* The port bound (for --listen 0 in tests). */
unsigned exporter_port(const struct exporter *x);

/* The address bound, as ADDR:PORT or [ADDR]:PORT (the real port for --listen 0). */
const char *exporter_addr(const struct exporter *x);

/* Serving plain HTTP (no tls_server_config) on an address other machines can reach. */
bool exporter_plain_beyond_loopback(const struct exporter *x);

#endif
