/* --web-config FILE: the Prometheus exporter-toolkit web configuration (TLS with its
 * versions, suites, curves and client certificates; response headers; basic-auth users with
 * bcrypt hashes), as node_exporter reads it. */
#ifndef PMUTOP_WEBCONFIG_H
#define PMUTOP_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "webtls.h"

struct webconfig;

/* Read FILE and the certificate and key it names (relative to FILE's folder, as the
 * exporter-toolkit does). Returns NULL with one line in err naming the file and what is
 * wrong (unknown keys and unsupported settings are refused, never ignored). */
struct webconfig *webconfig_load(const char *path, char *err, size_t errlen);
void webconfig_free(struct webconfig *w);

/* The PEM texts, or NULL when the file has no tls_server_config. */
const char *webconfig_cert(const struct webconfig *w);
const char *webconfig_key(const struct webconfig *w);

/* libmicrohttpd's MHD_OPTION_HTTPS_PRIORITIES (GnuTLS) for min_version, max_version,
 * cipher_suites, curve_preferences and prefer_server_cipher_suites; NULL without TLS. */
const char *webconfig_priorities(const struct webconfig *w);

/* client_auth_type, and the PEM of client_ca_file (or client_ca), NULL when none. */
enum webtls_client_auth webconfig_client_auth(const struct webconfig *w);
const char *webconfig_client_ca(const struct webconfig *w);

/* client_allowed_sans: *n names (0: any certificate the policy lets in). */
char *const *webconfig_sans(const struct webconfig *w, size_t *n);

/* http_server_config.headers that are set (blank ones are not), to add to every response. */
size_t webconfig_nheaders(const struct webconfig *w);
void webconfig_header(const struct webconfig *w, size_t i, const char **name, const char **value);

/* The number of basic-auth users (0: no authentication). */
size_t webconfig_nusers(const struct webconfig *w);

/* Seconds a check waits for its turn at bcrypt before it gives up. */
#define WEBCONFIG_BCRYPT_WAIT 1

/* 1 when USER with PASSWORD matches its bcrypt hash, 0 when not, -EBUSY when bcrypts of
 * other requests kept it waiting WEBCONFIG_BCRYPT_WAIT seconds. An unknown user and a wrong
 * password cost a bcrypt each (one at a time); the password bcrypt passed last for a user
 * costs only a SHA-crypt and never waits. Safe from several threads. */
int webconfig_check(struct webconfig *w, const char *user, const char *password);

/* bcrypt hashes computed so far (tests: a known password is hashed once). */
unsigned long webconfig_bcrypt_calls(struct webconfig *w);

#endif
