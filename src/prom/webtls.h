/* exporter-toolkit's TLS settings (Go crypto/tls names) as GnuTLS does them: a priority
 * string for libmicrohttpd, and the client-certificate policy of a session. */
#ifndef PMUTOP_WEBTLS_H
#define PMUTOP_WEBTLS_H

#include <stdbool.h>
#include <stddef.h>

/* TLS versions in order: min_version and max_version. */
enum webtls_version { WEBTLS_TLS10, WEBTLS_TLS11, WEBTLS_TLS12, WEBTLS_TLS13 };

/* client_auth_type, as Go's tls.ClientAuthType. */
enum webtls_client_auth {
	WEBTLS_NO_CLIENT_CERT,
	WEBTLS_REQUEST_CLIENT_CERT,
	WEBTLS_REQUIRE_ANY_CLIENT_CERT,
	WEBTLS_VERIFY_CLIENT_CERT_IF_GIVEN,
	WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT,
};

#define WEBTLS_MAX_LIST 32

struct webtls_opts {
	enum webtls_version min_version, max_version;
	int ciphers[WEBTLS_MAX_LIST]; /* webtls_cipher() of each cipher_suites entry */
	size_t nciphers;
	int curves[WEBTLS_MAX_LIST]; /* webtls_curve() of each curve_preferences entry */
	size_t ncurves;
	bool prefer_server;
};

/* A name as exporter-toolkit spells it, or -1 when it does not know it. */
int webtls_version(const char *name);
int webtls_cipher(const char *name);
int webtls_curve(const char *name);
int webtls_client_auth(const char *name);
const char *webtls_version_name(enum webtls_version v);

/* True for the client_auth_types that check the certificate against client_ca_file. */
bool webtls_verifies(enum webtls_client_auth a);

/* The GnuTLS priority string for o into out. -EINVAL with one line in why, naming the key,
 * when GnuTLS would allow something o does not (it picks key exchanges, ciphers and MACs
 * apart, so some lists of suites cannot be had). */
int webtls_priorities(const struct webtls_opts *o, char *out, size_t cap, char *why, size_t whylen);

/* At the start of a connection (a gnutls_session_t, before its handshake): ask for a client
 * certificate as a says, and have the handshake verify it against the trusted CAs. */
void webtls_session_start(void *session, enum webtls_client_auth a);

/* After the handshake: 0 when the peer's certificate satisfies a and, with nsans, has one
 * of sans among its subject alternative names; -EACCES with why otherwise. */
int webtls_check_peer(void *session, enum webtls_client_auth a, char *const *sans, size_t nsans,
		      char *why, size_t whylen);

/* True when PEM holds at least one X.509 certificate GnuTLS can read. */
bool webtls_has_cert(const char *pem);

#endif
