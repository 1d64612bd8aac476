/* The exposition text: the exporter's totals as Prometheus text format 0.0.4 and as
 * OpenMetrics 1.0, both built in one pass. Pure: the same totals give the same bytes. */
#ifndef PMUTOP_PROMTEXT_H
#define PMUTOP_PROMTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "promacc.h"

#define PROMTEXT_CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define PROMTEXT_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* A growing byte buffer; kept between renders so that steady state allocates nothing. */
struct pbuf {
	char *p;
	size_t len, cap;
};

struct promtext_info {
	const char *version;  /* pmutop_build_info{version} */
	double start_time;    /* pmutop_start_time_seconds: since the epoch */
	const char *backend;  /* pmutop_backend_info{backend}, or NULL: not known yet */
	bool ticked;	      /* a tick has been added: the gauges below mean something */
	double build_seconds; /* pmutop_exposition_build_seconds: the last build's time */
	unsigned targets;     /* pmutop_targets */
	unsigned open_fds;    /* pmutop_open_fds */
	unsigned tasks;	      /* pmutop_tasks: tasks counted */
};

/* Both formats: text (0.0.4) and om (OpenMetrics, ending in "# EOF"); scratch holds a
 * target's labels while they are written. */
struct promtext_out {
	struct pbuf text, om, scratch;
};

/* Render into o (its buffers reused); a NULL a (before the counters start) gives
 * pmutop's own facts only. Returns 0 or -ENOMEM (o then holds a partial text that must
 * not be served). */
int promtext_render(const struct promacc *a, const struct promtext_info *in,
		    struct promtext_out *o);
void promtext_out_free(struct promtext_out *o);

/* A label value escaped for both formats (backslash, double quote, newline) and made
 * valid UTF-8 (a stray byte becomes U+FFFD), appended to b. */
int promtext_label(struct pbuf *b, const char *s);

/* True when an Accept header asks for OpenMetrics (without q=0). */
int promtext_wants_openmetrics(const char *accept);

/* True when an Accept-Encoding header allows gzip: "gzip" or "*" without q=0 (and no
 * "gzip;q=0" beside a "*"). */
int promtext_accepts_gzip(const char *accept_encoding);

void pbuf_free(struct pbuf *b);

#endif
