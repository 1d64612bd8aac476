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
	refused("unknown.yml", "line 4: unknown key http_server_config");
	refused("bad.yml", "not YAML");
	refused("missing.yml", "No such file or directory");
	refused("nokey.yml", "cannot read key_file");
	refused("nokey.yml", "no-such-key.pem");
	refused("clientcert.yml", "client_auth_type RequireAndVerifyClientCert is not supported");
	refused("plainpass.yml", "alice: not a bcrypt hash");
	/* Nothing to enforce: serving plain HTTP to anyone must not look like protection. */
	refused("empty.yml", "neither tls_server_config nor basic_auth_users");
	refused("comments.yml", "neither tls_server_config nor basic_auth_users");
	refused("nulls.yml", "neither tls_server_config nor basic_auth_users");
	refused("twice.yml", "basic_auth_users is there twice");
}

static void test_free_null(void **state)
{
	(void)state;
	webconfig_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls),	    cmocka_unit_test(test_auth),
		cmocka_unit_test(test_both),	    cmocka_unit_test(test_bcrypt_once),
		cmocka_unit_test(test_wrong_flood), cmocka_unit_test(test_refused),
		cmocka_unit_test(test_free_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
