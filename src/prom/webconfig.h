/* --web-config FILE: the Prometheus exporter-toolkit web configuration (TLS certificate
 * and key, basic-auth users with bcrypt hashes), as node_exporter reads it. */
#ifndef PMUTOP_WEBCONFIG_H
#define PMUTOP_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct webconfig;

/* Read FILE and the certificate and key it names (relative to FILE's folder, as the
 * exporter-toolkit does). Returns NULL with one line in err naming the file and what is
 * wrong (unknown keys and unsupported settings are refused, never ignored). */
struct webconfig *webconfig_load(const char *path, char *err, size_t errlen);
void webconfig_free(struct webconfig *w);

/* The PEM texts, or NULL when the file has no tls_server_config. */
const char *webconfig_cert(const struct webconfig *w);
const char *webconfig_key(const struct webconfig *w);

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
