/* The HTTP(S) client of the fleet sources (--connect, --prometheus): one libcurl handle
 * per peer, kept alive between ticks, with the TLS and the credentials a Prometheus
 * scrape config's tls_config, basic_auth and authorization give. Never prints. */
#ifndef PMUTOP_FETCH_H
#define PMUTOP_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* From a YAML file in the form of a Prometheus scrape config's tls_config (ca_file,
 * cert_file, key_file, server_name, insecure_skip_verify, min_version), basic_auth
 * (username, password, password_file) and authorization (type, credentials,
 * credentials_file): the keys at the top level of the file. Relative file names are the
 * config file's directory's, as Prometheus reads them. */
struct fetch_cfg;
/* 0, or -errno with one line in err (the file, the key and what is wrong). */
int fetch_cfg_load(const char *path, struct fetch_cfg **cfg, char *err, size_t errlen);
void fetch_cfg_free(struct fetch_cfg *cfg);

/* One libcurl easy handle: keeps the connection alive. */
struct fetch;
/* cfg NULL: no TLS settings beyond the system's CAs, no credentials. cfg is copied from
 * (it may be freed after). NULL with one line in err. */
struct fetch *fetch_new(const struct fetch_cfg *cfg, char *err, size_t errlen);
/* GET url: 0 with the HTTP status in *status and the body (malloc'd, NUL-terminated,
 * *len bytes) in *body, or -errno with one line in err: -ECONNREFUSED, -ETIMEDOUT (after
 * timeout_ms), -EHOSTUNREACH (name not resolved, no route), -EACCES (the peer's
 * certificate not trusted, or ours not usable), -EPROTO (a TLS handshake that failed),
 * -ECONNRESET (the connection closed on us: a client certificate the host asks for),
 * -EINVAL (a bad URL), -EFBIG (a body over 256 MiB), -EINTR (a signal that ends the run
 * came: fetch_stop_pending), -EIO (anything else). */
int fetch_get(struct fetch *f, const char *url, long timeout_ms, char **body, size_t *len,
	      long *status, char *err, size_t errlen);
/* A signal that ends the run is waiting (the run loop blocks them and reads them between
 * ticks): a request in progress gives up (fetch_get: -EINTR), and so does a wait for a
 * peer, so that the run ends now rather than after a slow or silent peer's timeout. */
bool fetch_stop_pending(void);
/* Whether url is http:// or https:// with a host (user info and port aside): the fleet
 * sources' URLs, checked before any request adds its path to them. */
static inline bool fetch_url_ok(const char *url)
{
	const char *h = !strncmp(url, "http://", 7)    ? url + 7
			: !strncmp(url, "https://", 8) ? url + 8
						       : NULL;
	if (!h)
		return false;
	size_t n = strcspn(h, "/?#");
	const char *at = memchr(h, '@', n);
	if (at) {
		n -= (size_t)(at + 1 - h);
		h = at + 1;
	}
	return n > 0 && h[0] != ':';
}

/* s percent-encoded for a query string (malloc'd), or NULL. */
char *fetch_escape(const char *s);
void fetch_free(struct fetch *f);

#endif
