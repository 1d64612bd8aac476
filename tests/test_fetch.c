/* src/fleet/fetch: GETs against a libmicrohttpd server run here, plain and TLS (a CA and a
 * server certificate made by openssl for 127.0.0.1 and pmutop.test), with basic auth and
 * a bearer token from a config file; a certificate from another CA, a refused port, a
 * bad URL and bad configs each give -errno and one line. */
#include "fetch.h"
#include "modelserve.h"
#include "modelwire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"

static char dir[] = "/tmp/pmutop-fetch-XXXXXX";
static struct MHD_Daemon *plain, *tls;
static unsigned plain_port, tls_port;
static char *key_pem, *cert_pem;

/* The request's Authorization header as the body ("none" without one); /missing: 404. */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *data,
			      size_t *size, void **ctx)
{
	(void)cls, (void)method, (void)version, (void)data, (void)size, (void)ctx;
	const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
	const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "q");
	char body[512];
	snprintf(body, sizeof(body), "%s|%s", auth ? auth : "none", q ? q : "");
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ok = MHD_queue_response(
		c, strcmp(url, "/missing") ? MHD_HTTP_OK : MHD_HTTP_NOT_FOUND, r);
	MHD_destroy_response(r);
	return ok;
}

static unsigned port_of(struct MHD_Daemon *d)
{
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	return i ? i->port : 0;
}

static void write_file(const char *name, const char *text)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir) || access("/usr/bin/openssl", X_OK))
		return -1;
	if (testutil_pki(dir, "127.0.0.1", "IP:127.0.0.1,DNS:pmutop.test"))
		return -1;
	char p[256];
	snprintf(p, sizeof(p), "%s/server.key", dir);
	key_pem = testutil_slurp(p);
	snprintf(p, sizeof(p), "%s/server.pem", dir);
	cert_pem = testutil_slurp(p);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001)};
	plain = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer, NULL,
				 MHD_OPTION_SOCK_ADDR, &sa, MHD_OPTION_END);
	tls = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_TLS, 0, NULL, NULL, answer,
			       NULL, MHD_OPTION_SOCK_ADDR, &sa, MHD_OPTION_HTTPS_MEM_KEY, key_pem,
			       MHD_OPTION_HTTPS_MEM_CERT, cert_pem, MHD_OPTION_END);
	if (!plain || !tls)
		return -1;
	plain_port = port_of(plain);
	tls_port = port_of(tls);
	return plain_port && tls_port ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	MHD_stop_daemon(plain);
	MHD_stop_daemon(tls);
	free(key_pem);
	free(cert_pem);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* GET path on the plain (tls false) or TLS server with the config text cfgtext (NULL:
 * none): fetch_get's return, its body and status, the error line in err. */
static int get(bool https, const char *cfgtext, const char *path, char **body, long *status,
	       char *err, size_t errlen)
{
	struct fetch_cfg *cfg = NULL;
	if (cfgtext) {
		write_file("cfg.yml", cfgtext);
		char p[256];
		snprintf(p, sizeof(p), "%s/cfg.yml", dir);
		assert_int_equal(fetch_cfg_load(p, &cfg, err, errlen), 0);
	}
	struct fetch *f = fetch_new(cfg, err, errlen);
	fetch_cfg_free(cfg);
	assert_non_null(f);
	char url[256];
	snprintf(url, sizeof(url), "%s://127.0.0.1:%u%s", https ? "https" : "http",
		 https ? tls_port : plain_port, path);
	size_t len = 0;
	int rc = fetch_get(f, url, 10000, body, &len, status, err, errlen);
	if (rc == 0)
		assert_int_equal(strlen(*body), len);
	else
		assert_null(*body);
	fetch_free(f);
	return rc;
}

static void one_line(const char *err)
{
	assert_true(err[0] != '\0');
	assert_null(strchr(err, '\n'));
}

static void test_plain(void **state)
{
	(void)state;
	char *body, err[512];
	long st;
	assert_int_equal(get(false, NULL, "/x", &body, &st, err, sizeof(err)), 0);
	assert_int_equal(st, 200);
	assert_string_equal(body, "none|");
	free(body);
	/* A 404 is an answer: the caller reads the status. */
	assert_int_equal(get(false, NULL, "/missing", &body, &st, err, sizeof(err)), 0);
	assert_int_equal(st, 404);
	free(body);
}

static void test_escape(void **state)
{
	(void)state;
	char *q = fetch_escape("rate(x{job=\"a b\"}[1m])&y");
	assert_non_null(q);
	assert_string_equal(q, "rate%28x%7Bjob%3D%22a%20b%22%7D%5B1m%5D%29%26y");
	char path[256], *body, err[512];
	long st;
	snprintf(path, sizeof(path), "/api?q=%s", q);
	free(q);
	assert_int_equal(get(false, NULL, path, &body, &st, err, sizeof(err)), 0);
	assert_string_equal(body, "none|rate(x{job=\"a b\"}[1m])&y");
	free(body);
}

static void test_tls_basic_auth(void **state)
{
	(void)state;
	char *body, err[512];
	long st;
	write_file("pw", "s3cret\n");
	assert_int_equal(get(true,
			     "tls_config:\n  ca_file: ca.pem\n"
			     "basic_auth:\n  username: alice\n  password_file: pw\n",
			     "/x", &body, &st, err, sizeof(err)),
			 0);
	assert_int_equal(st, 200);
	assert_string_equal(body, "Basic YWxpY2U6czNjcmV0|");
	free(body);
}

static void test_tls_bearer_server_name(void **state)
{
	(void)state;
	char *body, err[512];
	long st;
	assert_int_equal(get(true,
			     "tls_config:\n  ca_file: ca.pem\n  server_name: pmutop.test\n"
			     "  min_version: TLS12\n"
			     "authorization:\n  credentials: tok-42\n",
			     "/x", &body, &st, err, sizeof(err)),
			 0);
	assert_int_equal(st, 200);
	assert_string_equal(body, "Bearer tok-42|");
	free(body);
	/* A name the certificate does not carry. */
	assert_int_equal(get(true, "tls_config:\n  ca_file: ca.pem\n  server_name: other.test\n",
			     "/x", &body, &st, err, sizeof(err)),
			 -EACCES);
	one_line(err);
	assert_non_null(strstr(err, "certificate"));
}

static void test_bad_certificate(void **state)
{
	(void)state;
	char *body, err[512];
	long st;
	/* The server's certificate is from ca, not other. */
	assert_int_equal(get(true, "tls_config:\n  ca_file: other.pem\n", "/x", &body, &st, err,
			     sizeof(err)),
			 -EACCES);
	one_line(err);
	assert_non_null(strstr(err, "certificate not trusted"));
	/* and skipping the check is the user's choice */
	assert_int_equal(get(true, "tls_config:\n  insecure_skip_verify: true\n", "/x", &body, &st,
			     err, sizeof(err)),
			 0);
	assert_int_equal(st, 200);
	free(body);
}

static void test_refused_and_bad_url(void **state)
{
	(void)state;
	char err[512], *body;
	size_t len;
	long st;
	struct fetch *f = fetch_new(NULL, err, sizeof(err));
	assert_non_null(f);
	unsigned port = testutil_free_port();
	char url[128];
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", port);
	assert_int_equal(fetch_get(f, url, 10000, &body, &len, &st, err, sizeof(err)),
			 -ECONNREFUSED);
	one_line(err);
	assert_non_null(strstr(err, "refused"));
	assert_int_equal(
		fetch_get(f, "ftp://127.0.0.1/", 10000, &body, &len, &st, err, sizeof(err)),
		-EINVAL);
	one_line(err);
	/* plain HTTP to the TLS port: no answer it can read */
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", tls_port);
	assert_true(fetch_get(f, url, 3000, &body, &len, &st, err, sizeof(err)) < 0 || st != 200);
	fetch_free(f);
	fetch_free(NULL);
}

static int load(const char *text, char *err, size_t errlen)
{
	write_file("bad.yml", text);
	char p[256];
	snprintf(p, sizeof(p), "%s/bad.yml", dir);
	struct fetch_cfg *cfg = (struct fetch_cfg *)1;
	int rc = fetch_cfg_load(p, &cfg, err, errlen);
	if (rc) {
		assert_null(cfg);
		one_line(err);
	}
	fetch_cfg_free(cfg);
	return rc;
}

static void test_bad_configs(void **state)
{
	(void)state;
	char err[512];
	assert_int_equal(load("tls_config:\n  ca_fil: x\n", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "tls_config.ca_fil: unknown key"));
	assert_int_equal(load("basic_auth:\n  username: a\nauthorization:\n  credentials: b\n", err,
			      sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "one of them"));
	assert_int_equal(
		load("basic_auth:\n  username: a\n  password_file: nothere\n", err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "nothere"));
	assert_int_equal(load("tls_config:\n  min_version: SSL3\n", err, sizeof(err)), -EINVAL);
	assert_int_equal(load("tls_config:\n  cert_file: c.pem\n", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "key_file"));
	assert_int_equal(load("tls_config: [\n", err, sizeof(err)), -EINVAL);
	assert_int_equal(load("job_name: x\n", err, sizeof(err)), -EINVAL);
	assert_int_equal(load("", err, sizeof(err)), 0);
	struct fetch_cfg *cfg;
	assert_int_equal(fetch_cfg_load("/nonexistent/x.yml", &cfg, err, sizeof(err)), -ENOENT);
	one_line(err);
}

/* GET /pmutop/v1/tick deflated for a client that accepts it (Accept-Encoding), from the
 * tick after its first ask on: the body inflates to the plain one; without deflate, plain. */
/* A fleet URL names a host before any path is added to it. */
static void test_url_host(void **state)
{
	(void)state;
	static const char *const good[] = {"http://h", "https://h:9465", "http://u:p@h:1/x",
					   "http://[::1]:9090", "https://10.0.0.1?x"};
	static const char *const bad[] = {
		"http://",     "https://",	 "http://:9465", "http:///x",
		"http://u@:1", "127.0.0.1:9465", "ftp://h",	 ""};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!fetch_url_ok(good[i]))
			fail_msg("%s refused", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (fetch_url_ok(bad[i]))
			fail_msg("%s taken", bad[i]);
}

static void test_tick_deflate(void **state)
{
	(void)state;
	assert_true(modelserve_accepts_deflate("deflate, gzip, br, zstd"));
	assert_true(modelserve_accepts_deflate("gzip;q=1.0, DEFLATE;q=0.5"));
	assert_false(modelserve_accepts_deflate("gzip, deflate;q=0"));
	assert_false(modelserve_accepts_deflate("gzip, x-deflate"));
	assert_false(modelserve_accepts_deflate(NULL));
	struct modelserve *s = modelserve_new();
	assert_non_null(s);
	static struct mrow rows[300];
	static char comm[300][16];
	for (unsigned i = 0; i < 300; i++) {
		snprintf(comm[i], sizeof(comm[i]), "worker-%u", i % 7);
		rows[i] = (struct mrow){.kind = ROW_PROC,
					.pid = (pid_t)(100 + i),
					.tid = (pid_t)(100 + i),
					.user = "root",
					.comm = comm[i],
					.cpu_pct = -1};
	}
	struct model m = {.hostname = "h", .nrows = 300, .rows = rows, .interval = 1, .tick = 1};
	unsigned char *body = NULL;
	size_t len = 0;
	uint64_t tick = 0;
	bool z = true;
	assert_int_equal(modelserve_take(s, 0, 0, true, &body, &len, &tick, &z), -EAGAIN);
	assert_int_equal(modelserve_publish(s, &m), 0);
	struct mwbuf packed = {0};
	assert_int_equal(modelwire_put(&m, &packed), 0);
	assert_int_equal(modelserve_take(s, 0, 0, true, &body, &len, &tick, &z), 0);
	assert_true(z);
	assert_true(len < packed.len / 2);
	unsigned char *back = malloc(packed.len);
	uLongf blen = packed.len;
	assert_int_equal(uncompress(back, &blen, body, (uLong)len), Z_OK);
	assert_int_equal(blen, packed.len);
	assert_memory_equal(back, packed.b, packed.len);
	free(body);
	assert_int_equal(modelserve_take(s, 0, 0, false, &body, &len, &tick, &z), 0);
	assert_false(z);
	assert_int_equal(len, packed.len);
	assert_memory_equal(body, packed.b, packed.len);
	free(body);
	free(back);
	mwbuf_free(&packed);
	modelserve_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_url_host),
		cmocka_unit_test(test_tls_basic_auth),
		cmocka_unit_test(test_tls_bearer_server_name),
		cmocka_unit_test(test_bad_certificate),
		cmocka_unit_test(test_refused_and_bad_url),
		cmocka_unit_test(test_bad_configs),
		cmocka_unit_test(test_tick_deflate),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
