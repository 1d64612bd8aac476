/* webconfig: the exporter-toolkit web configuration read from tests/fixtures/webconfig. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "webconfig.h"

#define FIX PMUTOP_SOURCE_DIR "/tests/fixtures/webconfig/"

static char err[512];

static struct webconfig *load_fix(const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), FIX "%s", name);
	err[0] = '\0';
	return webconfig_load(path, err, sizeof(err));
}

/* A refused file: NULL, and one line that names the file and what is wrong. */
static void refused(const char *name, const char *what)
{
	struct webconfig *w = load_fix(name);
	assert_null(w);
	assert_non_null(strstr(err, name));
	assert_non_null(strstr(err, what));
	assert_null(strchr(err, '\n'));
	assert_null(strstr(err, "secret"));
}

static void test_tls(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("tls.yml");
	assert_non_null(w);
	assert_string_equal(err, "");
	assert_non_null(strstr(webconfig_cert(w), "BEGIN CERTIFICATE"));
	assert_non_null(strstr(webconfig_key(w), "PRIVATE KEY"));
	assert_int_equal(webconfig_nusers(w), 0);
	webconfig_free(w);
}

static void test_auth(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("auth.yml");
	assert_non_null(w);
	assert_null(webconfig_cert(w));
	assert_null(webconfig_key(w));
	assert_int_equal(webconfig_nusers(w), 1);
	assert_true(webconfig_check(w, "alice", "secret"));
	assert_false(webconfig_check(w, "alice", "Secret"));
	assert_false(webconfig_check(w, "alice", ""));
	assert_false(webconfig_check(w, "bob", "secret"));
	assert_false(webconfig_check(w, "", "secret"));
	webconfig_free(w);
}

/* bcrypt runs once per credential: a password it passed is not hashed with it again, a
 * wrong one is, every time, and a new right one replaces the remembered one. */
static void test_bcrypt_once(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("both.yml");
	assert_non_null(w);
	assert_int_equal(webconfig_bcrypt_calls(w), 0);
	assert_true(webconfig_check(w, "alice", "secret"));
	assert_int_equal(webconfig_bcrypt_calls(w), 1);
	for (int i = 0; i < 20; i++)
		assert_true(webconfig_check(w, "alice", "secret"));
	assert_int_equal(webconfig_bcrypt_calls(w), 1);
	assert_false(webconfig_check(w, "alice", "Secret"));
	assert_false(webconfig_check(w, "alice", "Secret"));
	assert_false(webconfig_check(w, "carol", "secret"));
	assert_int_equal(webconfig_bcrypt_calls(w), 4);
	/* The remembered password is per user: bob's first check is a bcrypt of its own. */
	assert_true(webconfig_check(w, "bob", "secret"));
	assert_true(webconfig_check(w, "bob", "secret"));
	assert_true(webconfig_check(w, "alice", "secret"));
	assert_int_equal(webconfig_bcrypt_calls(w), 5);
	assert_false(webconfig_check(w, "bob", "secret "));
	assert_false(webconfig_check(w, "bob", ""));
	assert_int_equal(webconfig_bcrypt_calls(w), 7);
	webconfig_free(w);
}

#define FLOOD 60

struct wrong {
	struct webconfig *w;
	int result;
};

static void *check_wrong(void *arg)
{
	struct wrong *c = arg;
	c->result = webconfig_check(c->w, "alice", "guess");
	return NULL;
}

/* 60 wrong passwords at once: each is a bcrypt (one at a time) or, past its wait for a
 * turn, -EBUSY; none passes, and a remembered right password passes meanwhile without
 * a bcrypt of its own. 60 bcrypts cannot fit in WEBCONFIG_BCRYPT_WAIT on any machine that
 * runs this (cost 10 is 40-170 ms a hash). */
static void test_wrong_flood(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("auth.yml");
	assert_non_null(w);
	assert_int_equal(webconfig_check(w, "alice", "secret"), 1);
	struct wrong c[FLOOD];
	pthread_t th[FLOOD];
	for (int i = 0; i < FLOOD; i++) {
		c[i] = (struct wrong){.w = w, .result = 2};
		assert_int_equal(pthread_create(&th[i], NULL, check_wrong, &c[i]), 0);
	}
	assert_int_equal(webconfig_check(w, "alice", "secret"), 1);
	unsigned busy = 0;
	for (int i = 0; i < FLOOD; i++) {
		pthread_join(th[i], NULL);
		if (c[i].result != 0 && c[i].result != -EBUSY)
			fail_msg("a wrong password gave %d", c[i].result);
		busy += c[i].result == -EBUSY;
	}
	assert_true(busy > 0);
	assert_int_equal(webconfig_bcrypt_calls(w), 1 + FLOOD - busy);
	webconfig_free(w);
}

static void test_both(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("both.yml");
	assert_non_null(w);
	assert_non_null(webconfig_cert(w));
	assert_int_equal(webconfig_nusers(w), 2);
	assert_true(webconfig_check(w, "bob", "secret"));
	assert_true(webconfig_check(w, "alice", "secret"));
	webconfig_free(w);
}

static void test_refused(void **state)
{
	(void)state;
	refused("unknown.yml", "line 5: http2: true is not supported");
	refused("bad.yml", "not YAML");
	refused("missing.yml", "No such file or directory");
	/* A directory: said so, not "line 1: not YAML" (libyaml's reading of EISDIR). */
	refused("../webconfig", "is a directory");
	assert_null(strstr(err, "YAML"));
	refused("nokey.yml", "cannot read key_file");
	refused("nokey.yml", "no-such-key.pem");
	refused("plainpass.yml", "alice: not a bcrypt hash");
	/* Nothing to enforce: serving plain HTTP to anyone must not look like protection. */
	refused("empty.yml", "neither tls_server_config nor basic_auth_users");
	refused("comments.yml", "neither tls_server_config nor basic_auth_users");
	refused("nulls.yml", "neither tls_server_config nor basic_auth_users");
	refused("twice.yml", "basic_auth_users is there twice");
}

/* Each setting exporter-toolkit reads that GnuTLS cannot honour as it says, and each value
 * it would not know either: one line naming the key. */
static void test_refused_tls(void **state)
{
	(void)state;
	refused("tlsunknown.yml", "line 4: tls_server_config: unknown key ocsp_stapling");
	refused("badversion.yml", "min_version: unknown TLS version TLS14");
	refused("minmax.yml", "min_version TLS13 is above max_version TLS12");
	/* one ECDHE-RSA suite: TLS 1.3's ciphers would bring its AES-256 and ChaCha20 in */
	refused("superset.yml", "would also allow TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");
	refused("only13.yml", "cipher_suites lists only TLS 1.3 suites");
	refused("badcipher.yml", "cipher_suites: unknown cipher suite TLS_RSA_WITH_RC4_128_SHA");
	refused("badcurve.yml", "curve_preferences: unknown curve");
	refused("badauth.yml", "client_auth_type: unknown Maybe");
	refused("caonly.yml", "client CAs are given without a client_auth_type");
	refused("verifynoca.yml", "VerifyClientCertIfGiven needs client_ca_file");
	refused("sansany.yml", "client_allowed_sans needs client_auth_type RequireAndVerify");
	refused("badca.yml", "client_ca_file holds no PEM certificate");
	refused("certtwice.yml", "give cert_file or cert, not both");
	refused("ratelimit.yml", "rate_limit is not supported");
	refused("tlstwice.yml", "line 6: tls_server_config: client_auth_type is there twice");
}

static void test_refused_http(void **state)
{
	(void)state;
	refused("badheader.yml", "headers: Server cannot be set");
	refused("badframe.yml", "X-Frame-Options must be deny or sameorigin, not \"allow\"");
	refused("crlf.yml", "Content-Security-Policy has a control character");
}

/* Defaults as exporter-toolkit's: TLS 1.2 to 1.3, the server's order, no client certs. */
static void test_tls_defaults(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("tls.yml");
	assert_non_null(w);
	assert_string_equal(webconfig_priorities(w),
			    "NORMAL:%SERVER_PRECEDENCE:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2");
	assert_int_equal(webconfig_client_auth(w), WEBTLS_NO_CLIENT_CERT);
	assert_null(webconfig_client_ca(w));
	assert_int_equal(webconfig_nheaders(w), 0);
	webconfig_free(w);
	w = load_fix("auth.yml");
	assert_non_null(w);
	assert_null(webconfig_priorities(w));
	webconfig_free(w);
}

/* Versions, suites and curves in GnuTLS's words; headers set, the blank one not. */
static void test_tuned(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("tuned.yml");
	assert_non_null(w);
	assert_string_equal(webconfig_priorities(w),
			    "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-KX-ALL:+ECDHE-ECDSA:"
			    "+ECDHE-RSA:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:+CHACHA20-POLY1305:"
			    "-MAC-ALL:+AEAD:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1");
	assert_int_equal(webconfig_nheaders(w), 2);
	const char *name, *value;
	webconfig_header(w, 0, &name, &value);
	assert_string_equal(name, "Strict-Transport-Security");
	assert_string_equal(value, "max-age=31536000; includeSubDomains");
	webconfig_header(w, 1, &name, &value);
	assert_string_equal(name, "X-Frame-Options");
	assert_string_equal(value, "sameorigin");
	webconfig_free(w);

	w = load_fix("request.yml");
	assert_non_null(w);
	assert_int_equal(webconfig_client_auth(w), WEBTLS_REQUEST_CLIENT_CERT);
	assert_string_equal(webconfig_priorities(w),
			    "NORMAL:%SERVER_PRECEDENCE:-VERS-ALL:+VERS-TLS1.2");
	webconfig_free(w);
}

static void test_client_certs(void **state)
{
	(void)state;
	struct webconfig *w = load_fix("mtls.yml");
	assert_non_null(w);
	assert_int_equal(webconfig_client_auth(w), WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT);
	assert_non_null(strstr(webconfig_client_ca(w), "BEGIN CERTIFICATE"));
	size_t n;
	char *const *sans = webconfig_sans(w, &n);
	assert_int_equal(n, 2);
	assert_string_equal(sans[0], "prometheus");
	assert_string_equal(sans[1], "10.0.0.1");
	webconfig_free(w);

	w = load_fix("clientcert.yml");
	assert_non_null(w);
	assert_int_equal(webconfig_client_auth(w), WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT);
	webconfig_sans(w, &n);
	assert_int_equal(n, 0);
	webconfig_free(w);

	/* cert and key given inline; RequireClientCert is RequireAnyClientCert's old name */
	w = load_fix("inline.yml");
	assert_non_null(w);
	assert_non_null(strstr(webconfig_cert(w), "BEGIN CERTIFICATE"));
	assert_non_null(strstr(webconfig_key(w), "PRIVATE KEY"));
	assert_int_equal(webconfig_client_auth(w), WEBTLS_REQUIRE_ANY_CLIENT_CERT);
	assert_null(webconfig_client_ca(w));
	webconfig_free(w);

	w = load_fix("http2off.yml");
	assert_non_null(w);
	assert_int_equal(webconfig_nusers(w), 1);
	webconfig_free(w);
}

static void test_free_null(void **state)
{
	(void)state;
	webconfig_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls),	     cmocka_unit_test(test_auth),
		cmocka_unit_test(test_both),	     cmocka_unit_test(test_bcrypt_once),
		cmocka_unit_test(test_wrong_flood),  cmocka_unit_test(test_refused),
		cmocka_unit_test(test_refused_tls),  cmocka_unit_test(test_refused_http),
		cmocka_unit_test(test_tls_defaults), cmocka_unit_test(test_tuned),
		cmocka_unit_test(test_client_certs), cmocka_unit_test(test_free_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
