/* Go's crypto/tls names (exporter-toolkit's web config) mapped onto GnuTLS. GnuTLS's own
 * list of the suites a priority string allows is the check: what it would allow beyond
 * the file's list is refused, never served. */
#include "webtls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const versions[] = {
	[WEBTLS_TLS10] = "TLS10",
	[WEBTLS_TLS11] = "TLS11",
	[WEBTLS_TLS12] = "TLS12",
	[WEBTLS_TLS13] = "TLS13",
};

static const char *const gnutls_versions[] = {
	[WEBTLS_TLS10] = "VERS-TLS1.0",
	[WEBTLS_TLS11] = "VERS-TLS1.1",
	[WEBTLS_TLS12] = "VERS-TLS1.2",
	[WEBTLS_TLS13] = "VERS-TLS1.3",
};

/* tls.CipherSuites() by name; kx NULL: a TLS 1.3 suite, which Go does not let a config
 * change (nor does pmutop: TLS 1.3 keeps its three AEAD suites). */
struct suite {
	const char *name;
	uint16_t id;
	const char *kx, *cipher, *mac;
};

static const struct suite suites[] = {
	{"TLS_AES_128_GCM_SHA256", 0x1301, NULL, NULL, NULL},
	{"TLS_AES_256_GCM_SHA384", 0x1302, NULL, NULL, NULL},
	{"TLS_CHACHA20_POLY1305_SHA256", 0x1303, NULL, NULL, NULL},
	{"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", 0xc009, "ECDHE-ECDSA", "AES-128-CBC", "SHA1"},
	{"TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", 0xc00a, "ECDHE-ECDSA", "AES-256-CBC", "SHA1"},
	{"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", 0xc013, "ECDHE-RSA", "AES-128-CBC", "SHA1"},
	{"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", 0xc014, "ECDHE-RSA", "AES-256-CBC", "SHA1"},
	{"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", 0xc02b, "ECDHE-ECDSA", "AES-128-GCM", "AEAD"},
	{"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", 0xc02c, "ECDHE-ECDSA", "AES-256-GCM", "AEAD"},
	{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", 0xc02f, "ECDHE-RSA", "AES-128-GCM", "AEAD"},
	{"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", 0xc030, "ECDHE-RSA", "AES-256-GCM", "AEAD"},
	{"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", 0xcca8, "ECDHE-RSA", "CHACHA20-POLY1305",
	 "AEAD"},
	{"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", 0xcca9, "ECDHE-ECDSA",
	 "CHACHA20-POLY1305", "AEAD"},
	/* In tls.CipherSuites() of the Go releases node_exporter was long built with. */
	{"TLS_RSA_WITH_AES_128_CBC_SHA", 0x002f, "RSA", "AES-128-CBC", "SHA1"},
	{"TLS_RSA_WITH_AES_256_CBC_SHA", 0x0035, "RSA", "AES-256-CBC", "SHA1"},
	{"TLS_RSA_WITH_AES_128_GCM_SHA256", 0x009c, "RSA", "AES-128-GCM", "AEAD"},
	{"TLS_RSA_WITH_AES_256_GCM_SHA384", 0x009d, "RSA", "AES-256-GCM", "AEAD"},
};

#define NSUITES (sizeof(suites) / sizeof(suites[0]))

/* What TLS 1.3 needs whatever cipher_suites says, as in Go. */
static const char *const tls13_ciphers[] = {"AES-128-GCM", "AES-256-GCM", "CHACHA20-POLY1305"};

static const struct {
	const char *name, *group;
} curves[] = {
	{"CurveP256", "GROUP-SECP256R1"},
	{"CurveP384", "GROUP-SECP384R1"},
	{"CurveP521", "GROUP-SECP521R1"},
	{"X25519", "GROUP-X25519"},
};

static const char *const auths[] = {
	[WEBTLS_NO_CLIENT_CERT] = "NoClientCert",
	[WEBTLS_REQUEST_CLIENT_CERT] = "RequestClientCert",
	[WEBTLS_REQUIRE_ANY_CLIENT_CERT] = "RequireAnyClientCert",
	[WEBTLS_VERIFY_CLIENT_CERT_IF_GIVEN] = "VerifyClientCertIfGiven",
	[WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT] = "RequireAndVerifyClientCert",
};

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

int webtls_version(const char *name)
{
	for (size_t i = 0; i < LEN(versions); i++)
		if (!strcmp(versions[i], name))
			return (int)i;
	return -1;
}

const char *webtls_version_name(enum webtls_version v)
{
	return versions[v];
}

int webtls_cipher(const char *name)
{
	for (size_t i = 0; i < NSUITES; i++)
		if (!strcmp(suites[i].name, name))
			return (int)i;
	return -1;
}

int webtls_curve(const char *name)
{
	for (size_t i = 0; i < LEN(curves); i++)
		if (!strcmp(curves[i].name, name))
			return (int)i;
	return -1;
}

int webtls_client_auth(const char *name)
{
	if (!*name)
		return WEBTLS_NO_CLIENT_CERT;
	if (!strcmp(name, "RequireClientCert")) /* exporter-toolkit's old name */
		return WEBTLS_REQUIRE_ANY_CLIENT_CERT;
	for (size_t i = 0; i < LEN(auths); i++)
		if (!strcmp(auths[i], name))
			return (int)i;
	return -1;
}

bool webtls_verifies(enum webtls_client_auth a)
{
	return a == WEBTLS_VERIFY_CLIENT_CERT_IF_GIVEN ||
	       a == WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT;
}

struct sbuf {
	char *p;
	size_t cap, len;
};

static void put(struct sbuf *b, const char *sign, const char *tok)
{
	int n = snprintf(b->p + b->len, b->len < b->cap ? b->cap - b->len : 0, ":%s%s", sign, tok);
	b->len += n > 0 ? (size_t)n : 0;
}

/* tok once: a list of suites names each key exchange, cipher and MAC many times. */
static void put_once(struct sbuf *b, const char *start, const char *tok)
{
	char needle[64];
	snprintf(needle, sizeof(needle), ":+%s", tok);
	const char *from = strstr(b->p, start);
	for (const char *s = from ? strstr(from, needle) : NULL; s; s = strstr(s + 1, needle))
		if (s[strlen(needle)] == ':' || s[strlen(needle)] == '\0')
			return;
	put(b, "+", tok);
}

static const char *suite_name(uint16_t id, const char *fallback)
{
	for (size_t i = 0; i < NSUITES; i++)
		if (suites[i].id == id)
			return suites[i].name;
	return fallback;
}

/* The first TLS 1.2 (or older) suite p allows that o does not list, or NULL. */
static const char *extra_suite(const struct webtls_opts *o, gnutls_priority_t p)
{
	for (unsigned i = 0;; i++) {
		unsigned idx;
		int r = gnutls_priority_get_cipher_suite_index(p, i, &idx);
		if (r == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE)
			return NULL;
		if (r < 0)
			continue;
		unsigned char id[2];
		gnutls_protocol_t minv;
		const char *name = gnutls_cipher_suite_info(idx, id, NULL, NULL, NULL, &minv);
		if (!name || minv == GNUTLS_TLS1_3)
			continue;
		uint16_t sid = (uint16_t)(id[0] << 8 | id[1]);
		bool listed = false;
		for (size_t k = 0; k < o->nciphers; k++)
			listed |= suites[o->ciphers[k]].id == sid;
		if (!listed)
			return suite_name(sid, name);
	}
}

int webtls_priorities(const struct webtls_opts *o, char *out, size_t cap, char *why, size_t whylen)
{
	if (o->min_version > o->max_version) {
		snprintf(why, whylen, "min_version %s is above max_version %s",
			 versions[o->min_version], versions[o->max_version]);
		return -EINVAL;
	}
	struct sbuf b = {.p = out, .cap = cap};
	out[0] = '\0';
	b.len = (size_t)snprintf(out, cap, "NORMAL");
	if (o->prefer_server)
		put(&b, "", "%SERVER_PRECEDENCE");
	put(&b, "-", "VERS-ALL");
	for (int v = (int)o->max_version; v >= (int)o->min_version; v--)
		put(&b, "+", gnutls_versions[v]);
	size_t n12 = 0;
	for (size_t i = 0; i < o->nciphers; i++)
		n12 += suites[o->ciphers[i]].kx != NULL;
	bool tls12 = o->min_version <= WEBTLS_TLS12;
	if (o->nciphers && !n12 && tls12) {
		snprintf(why, whylen,
			 "cipher_suites lists only TLS 1.3 suites, which no TLS 1.2 client can "
			 "use: add TLS 1.2 suites or set min_version: TLS13");
		return -EINVAL;
	}
	if (n12 && tls12) {
		put(&b, "-", "KX-ALL");
		for (size_t i = 0; i < o->nciphers; i++)
			if (suites[o->ciphers[i]].kx)
				put_once(&b, ":-KX-ALL", suites[o->ciphers[i]].kx);
		put(&b, "-", "CIPHER-ALL");
		for (size_t i = 0; i < o->nciphers; i++)
			if (suites[o->ciphers[i]].kx)
				put_once(&b, ":-CIPHER-ALL", suites[o->ciphers[i]].cipher);
		if (o->max_version == WEBTLS_TLS13)
			for (size_t i = 0; i < LEN(tls13_ciphers); i++)
				put_once(&b, ":-CIPHER-ALL", tls13_ciphers[i]);
		put(&b, "-", "MAC-ALL");
		for (size_t i = 0; i < o->nciphers; i++)
			if (suites[o->ciphers[i]].kx)
				put_once(&b, ":-MAC-ALL", suites[o->ciphers[i]].mac);
		if (o->max_version == WEBTLS_TLS13)
			put_once(&b, ":-MAC-ALL", "AEAD");
	}
	if (o->ncurves) {
		put(&b, "-", "GROUP-ALL");
		for (size_t i = 0; i < o->ncurves; i++)
			put_once(&b, ":-GROUP-ALL", curves[o->curves[i]].group);
	}
	if (b.len >= cap) {
		snprintf(why, whylen, "cipher_suites and curve_preferences are too long");
		return -EINVAL;
	}
	gnutls_priority_t p;
	const char *at = NULL;
	int r = gnutls_priority_init2(&p, out, &at, 0);
	if (r < 0) {
		snprintf(why, whylen, "GnuTLS refuses the priorities %s (at %s): %s", out,
			 at ? at : "?", gnutls_strerror(r));
		return -EINVAL;
	}
	const char *extra = n12 && tls12 ? extra_suite(o, p) : NULL;
	gnutls_priority_deinit(p);
	if (extra) {
		snprintf(why, whylen,
			 "cipher_suites: GnuTLS picks key exchanges, ciphers and MACs apart%s, so "
			 "this list would also allow %s: list it too",
			 o->max_version == WEBTLS_TLS13
				 ? " (and TLS 1.3 needs AES-128-GCM, AES-256-GCM and CHACHA20)"
				 : "",
			 extra);
		return -EINVAL;
	}
	return 0;
}

/* The peer's certificate chains to the trusted CAs and may authenticate a client: as in
 * Go's crypto/tls, an extended key usage without clientAuth (or anyExtendedKeyUsage) is
 * refused, none at all is not (GnuTLS's check of the purpose, on every certificate of the
 * chain as Go does). */
static bool verified_client(gnutls_session_t s)
{
	gnutls_typed_vdata_st purpose = {.type = GNUTLS_DT_KEY_PURPOSE_OID,
					 .data = (unsigned char *)GNUTLS_KP_TLS_WWW_CLIENT};
	unsigned status = 0;
	return gnutls_certificate_verify_peers(s, &purpose, 1, &status) >= 0 && status == 0;
}

/* In the handshake: a certificate sent must be a verified client's. None sent is for the
 * request policy to judge (GNUTLS_CERT_REQUIRE refuses it itself), which GnuTLS's own
 * gnutls_session_set_verify_cert would refuse even under GNUTLS_CERT_REQUEST. */
static int verify_given(gnutls_session_t s)
{
	unsigned n = 0;
	if (!gnutls_certificate_get_peers(s, &n) || n == 0)
		return 0;
	return verified_client(s) ? 0 : -1;
}

void webtls_session_start(void *session, enum webtls_client_auth a)
{
	gnutls_session_t s = session;
	gnutls_certificate_request_t req = GNUTLS_CERT_IGNORE;
	if (a == WEBTLS_REQUEST_CLIENT_CERT || a == WEBTLS_VERIFY_CLIENT_CERT_IF_GIVEN)
		req = GNUTLS_CERT_REQUEST;
	else if (a == WEBTLS_REQUIRE_ANY_CLIENT_CERT || a == WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT)
		req = GNUTLS_CERT_REQUIRE;
	gnutls_certificate_server_set_request(s, req);
	if (webtls_verifies(a))
		gnutls_session_set_verify_function(s, verify_given);
}

/* One subject alternative name as Go's x509 prints it, into out; false for other kinds. */
static bool san_text(int type, const char *raw, size_t len, char *out, size_t cap)
{
	if (type == GNUTLS_SAN_IPADDRESS)
		return (len == 4 || len == 16) &&
		       inet_ntop(len == 4 ? AF_INET : AF_INET6, raw, out, (socklen_t)cap);
	if (type != GNUTLS_SAN_DNSNAME && type != GNUTLS_SAN_RFC822NAME && type != GNUTLS_SAN_URI)
		return false;
	if (len >= cap || memchr(raw, '\0', len))
		return false;
	memcpy(out, raw, len);
	out[len] = '\0';
	return true;
}

static bool has_san(const gnutls_datum_t *der, char *const *sans, size_t nsans)
{
	gnutls_x509_crt_t crt;
	if (gnutls_x509_crt_init(&crt) < 0)
		return false;
	bool found = false;
	if (gnutls_x509_crt_import(crt, der, GNUTLS_X509_FMT_DER) >= 0) {
		for (unsigned i = 0; !found; i++) {
			char raw[1024], text[1024];
			size_t len = sizeof(raw);
			int type = gnutls_x509_crt_get_subject_alt_name(crt, i, raw, &len, NULL);
			if (type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE)
				break;
			if (type < 0 || !san_text(type, raw, len, text, sizeof(text)))
				continue;
			for (size_t k = 0; k < nsans && !found; k++)
				found = !strcmp(sans[k], text);
		}
	}
	gnutls_x509_crt_deinit(crt);
	return found;
}

int webtls_check_peer(void *session, enum webtls_client_auth a, char *const *sans, size_t nsans,
		      char *why, size_t whylen)
{
	gnutls_session_t s = session;
	if (a == WEBTLS_NO_CLIENT_CERT)
		return 0;
	unsigned n = 0;
	const gnutls_datum_t *certs = gnutls_certificate_get_peers(s, &n);
	if (!certs || n == 0) {
		if (a != WEBTLS_REQUIRE_ANY_CLIENT_CERT &&
		    a != WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT && nsans == 0)
			return 0;
		snprintf(why, whylen, "a client certificate is required");
		return -EACCES;
	}
	if (webtls_verifies(a) && !verified_client(s)) {
		snprintf(why, whylen,
			 "the client certificate is not signed by client_ca_file, or not for "
			 "client authentication");
		return -EACCES;
	}
	if (nsans && !has_san(&certs[0], sans, nsans)) {
		snprintf(why, whylen, "the client certificate has none of client_allowed_sans");
		return -EACCES;
	}
	return 0;
}

bool webtls_has_cert(const char *pem)
{
	gnutls_x509_crt_t *list = NULL;
	unsigned n = 0;
	gnutls_datum_t d = {.data = (unsigned char *)pem, .size = (unsigned)strlen(pem)};
	if (gnutls_x509_crt_list_import2(&list, &n, &d, GNUTLS_X509_FMT_PEM, 0) < 0)
		return false;
	for (unsigned i = 0; i < n; i++)
		gnutls_x509_crt_deinit(list[i]);
	gnutls_free(list);
	return n > 0;
}
