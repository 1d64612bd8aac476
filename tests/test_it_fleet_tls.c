/* pmutop --prometheus through TLS and basic auth: Debian's prometheus on 127.0.0.2 with a
 * --web.config.file (a certificate from a CA made here, a user with a bcrypt hash), and
 * pmutop --prometheus with a --connect-config file reads it (exit 0, the fleet's header);
 * a wrong password, a certificate from another CA, none at all, a refused port and a URL
 * that is not one each give one line and exit 2. */
#include "testutil.h"

#include <crypt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PASSWORD "pw-fleet-9Kd"
#define WAIT_S 90.0

static char dir[] = "/tmp/pmutop-fleettls-XXXXXX";
static char path_buf[4][256];
static pid_t prom;
static char url[64];

static const char *in_dir(unsigned slot, const char *name)
{
	snprintf(path_buf[slot], sizeof(path_buf[slot]), "%s/%s", dir, name);
	return path_buf[slot];
}

static int write_file(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(3, name), "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int setup(void **state)
{
	(void)state;
	if (access("/usr/bin/prometheus", X_OK) != 0 || access("/usr/bin/openssl", X_OK) != 0) {
		fprintf(stderr, "prometheus or openssl not installed\n");
		return -1;
	}
	if (!mkdtemp(dir) || testutil_pki(dir, "127.0.0.2", "IP:127.0.0.2"))
		return -1;
	char setting[CRYPT_GENSALT_OUTPUT_SIZE], text[512];
	static struct crypt_data cd;
	const char *hash = crypt_gensalt_rn("$2y$", 10, NULL, 0, setting, sizeof(setting))
				   ? crypt_rn(PASSWORD, setting, &cd, sizeof(cd))
				   : NULL;
	if (!hash)
		return -1;
	snprintf(text, sizeof(text),
		 "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "basic_auth_users:\n  alice: '%s'\n",
		 hash);
	if (write_file("web.yml", text) || write_file("pw", PASSWORD "\n") ||
	    write_file("wrongpw", PASSWORD "x\n") ||
	    write_file("prom.yml", "tls_config:\n  ca_file: ca.pem\n"
				   "basic_auth:\n  username: alice\n  password_file: pw\n") ||
	    write_file("wrong.yml", "tls_config:\n  ca_file: ca.pem\n"
				    "basic_auth:\n  username: alice\n  password_file: wrongpw\n") ||
	    write_file("otherca.yml", "tls_config:\n  ca_file: other.pem\n"
				      "basic_auth:\n  username: alice\n  password_file: pw\n") ||
	    write_file("prometheus.yml", "global:\n  scrape_interval: 1s\n"))
		return -1;
	unsigned port = testutil_free_port();
	snprintf(url, sizeof(url), "https://127.0.0.2:%u", port);
	char cfg[300], data[300], web[64], wcfg[300], out[300], err[300];
	snprintf(cfg, sizeof(cfg), "--config.file=%s/prometheus.yml", dir);
	snprintf(data, sizeof(data), "--storage.tsdb.path=%s/data", dir);
	snprintf(web, sizeof(web), "--web.listen-address=127.0.0.2:%u", port);
	snprintf(wcfg, sizeof(wcfg), "--web.config.file=%s/web.yml", dir);
	snprintf(out, sizeof(out), "%s/prom.out", dir);
	snprintf(err, sizeof(err), "%s/prom.err", dir);
	char *pa[] = {"/usr/bin/prometheus", cfg, data, web, wcfg, NULL};
	prom = testutil_spawn(pa, out, err);
	return prom > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return testutil_teardown(prom, dir);
}

/* pmutop --prometheus u [--connect-config cfg] -b -n 1: its status, stdout and stderr. */
static int run_fleet(const char *u, const char *cfg, char *out, size_t cap, char *err,
		     size_t errcap)
{
	char *a[] = {PMUTOP_BINARY, "--prometheus",	(char *)u,   "-b", "-n", "1", "-d",
		     "1",	    "--connect-config", (char *)cfg, NULL};
	if (!cfg)
		a[8] = NULL;
	return testutil_run(a, out, cap, err, errcap);
}

static void test_tls_basic_auth(void **state)
{
	(void)state;
	static char out[1 << 16];
	char err[4096] = "";
	int st = -1;
	/* Prometheus serves once its TSDB is open: until then, refused. */
	for (double end = testutil_now() + WAIT_S; testutil_now() < end;) {
		st = run_fleet(url, in_dir(0, "prom.yml"), out, sizeof(out), err, sizeof(err));
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			break;
		testutil_nap_ms(500);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("--prometheus over TLS with basic auth: %s", err);
	/* no scrape job: no target, and the fleet's header says so */
	assert_non_null(strstr(out, "0 targets up, 0 down"));
}

static void one_line_exit2(const char *u, const char *cfg, const char *needle)
{
	static char out[1 << 16];
	char err[4096];
	int st = run_fleet(u, cfg, out, sizeof(out), err, sizeof(err));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	size_t n = strlen(err);
	assert_true(n > 0 && err[n - 1] == '\n');
	assert_null(memchr(err, '\n', n - 1));
	if (!strstr(err, needle))
		fail_msg("'%s' lacks '%s'", err, needle);
}

static void test_bad_url_password_certificate(void **state)
{
	(void)state;
	one_line_exit2(url, in_dir(0, "wrong.yml"), "401");
	one_line_exit2(url, in_dir(0, "otherca.yml"), "certificate");
	one_line_exit2(url, NULL, "certificate"); /* the system's CAs do not know ours */
	char refused[64];
	snprintf(refused, sizeof(refused), "https://127.0.0.2:%u", testutil_free_port());
	one_line_exit2(refused, in_dir(0, "prom.yml"), "refused");
	one_line_exit2("127.0.0.2:9090", NULL, "http");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_tls_basic_auth),
					   cmocka_unit_test(test_bad_url_password_certificate)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
