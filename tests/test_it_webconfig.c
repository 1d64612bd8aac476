/* pmutop --listen --web-config: TLS with a self-signed certificate (openssl), basic auth
 * with a bcrypt hash made here by libxcrypt, checked with curl; mutual TLS with a CA, server
 * and client certificates made here, scraped by a real Prometheus; TLS versions checked
 * with openssl s_client; a bad config exits 2 with one line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "testutil.h"

#include <arpa/inet.h>
#include <crypt.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PASSWORD "pw-4Kq9-never-printed"

static char tmpdir[] = "/tmp/pmutop-webcfg-XXXXXX";
static char cfg[256], logpath[256], cacert[256];
static unsigned port;
static pid_t pmutop;

static int make_pki(void);

/* Servers a test started and has not stopped yet (a failed assertion leaves them). */
static pid_t live[8];

static pid_t spawn(char *const argv[], const char *log)
{
	pid_t p = fork();
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failed test leaves no server behind */
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

/* Run a shell command and capture its output; returns its status. */
static int sh(const char *cmd, char *out, size_t cap)
{
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	size_t n = fread(out, 1, cap - 1, f);
	out[n] = '\0';
	return pclose(f);
}

/* curl's status code for /metrics with extra curl arguments ("000": no HTTP answer). */
static int status(const char *scheme, const char *args, char *body, size_t cap)
{
	char cmd[1024], out[1 << 16];
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 3 --cacert %s %s -o %s/body -w '%%{http_code}' "
		 "%s://127.0.0.1:%u/metrics",
		 cacert, args, tmpdir, scheme, port);
	sh(cmd, out, sizeof(out));
	if (body) {
		snprintf(cmd, sizeof(cmd), "cat %s/body 2>/dev/null", tmpdir);
		sh(cmd, body, cap);
	}
	return atoi(out);
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] > 0) {
			kill(live[i], SIGKILL);
			waitpid(live[i], NULL, 0);
		}
	if (pmutop > 0) {
		kill(pmutop, SIGKILL);
		waitpid(pmutop, NULL, 0);
	}
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir) || access("/usr/bin/curl", X_OK) || access("/usr/bin/openssl", X_OK))
		return -1;
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
		 "-nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 "
		 "-keyout key.pem -out cert.pem 2>/dev/null",
		 tmpdir);
	if (system(cmd) != 0)
		return -1;
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	static struct crypt_data cd;
	if (!crypt_gensalt_rn("$2y$", 10, NULL, 0, setting, sizeof(setting)))
		return -1;
	const char *hash = crypt_rn(PASSWORD, setting, &cd, sizeof(cd));
	if (!hash || strncmp(hash, "$2y$10$", 7) != 0)
		return -1;
	snprintf(cfg, sizeof(cfg), "%s/web.yml", tmpdir);
	snprintf(logpath, sizeof(logpath), "%s/pmutop.log", tmpdir);
	snprintf(cacert, sizeof(cacert), "%s/cert.pem", tmpdir);
	FILE *f = fopen(cfg, "w");
	if (!f)
		return -1;
	fprintf(f,
		"tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
		"basic_auth_users:\n  alice: '%s'\n",
		hash);
	fclose(f);
	if (make_pki())
		return -1;
	port = testutil_free_port();
	char listen[32];
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
	char *argv[] = {PMUTOP_BINARY, "--listen", listen, "--web-config", cfg, "-d", "0.5", NULL};
	pmutop = spawn(argv, logpath);
	/* Ready when it answers the right user: no time is asserted, 20 s is a bound. */
	for (int i = 0; i < 200; i++) {
		if (status("https", "-u alice:" PASSWORD, NULL, 0) == 200)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

static void test_right_user(void **state)
{
	(void)state;
	static char body[1 << 20];
	assert_int_equal(status("https", "-u alice:" PASSWORD, body, sizeof(body)), 200);
	assert_non_null(strstr(body, "pmutop_build_info{"));
}

static void test_wrong_password(void **state)
{
	(void)state;
	char body[4096];
	assert_int_equal(status("https", "-u alice:" PASSWORD "x", body, sizeof(body)), 401);
	assert_null(strstr(body, "pmutop_"));
	assert_int_equal(status("https", "-u bob:" PASSWORD, NULL, 0), 401);
}

static void test_no_credentials(void **state)
{
	(void)state;
	char cmd[512], out[4096];
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 3 --cacert %s -D - -o /dev/null https://127.0.0.1:%u/metrics",
		 cacert, port);
	sh(cmd, out, sizeof(out));
	assert_non_null(strstr(out, " 401"));
	assert_non_null(strstr(out, "WWW-Authenticate: Basic realm=\"pmutop\""));
}

/* Plain HTTP on the TLS port: a 400 that says why, never the metrics. */
static void test_plain_http_refused(void **state)
{
	(void)state;
	char body[4096];
	assert_int_equal(status("http", "-u alice:" PASSWORD, body, sizeof(body)), 400);
	assert_non_null(strstr(body, "this port speaks HTTPS"));
	assert_null(strstr(body, "pmutop_"));
	/* and the TLS side still serves afterwards */
	assert_int_equal(status("https", "-u alice:" PASSWORD, NULL, 0), 200);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#define WRONG 40
#define ROUNDS 3

struct flood {
	double start, end;
};

static void *wrong_flood(void *arg)
{
	struct flood *f = arg;
	char cmd[1024], out[256];
	snprintf(cmd, sizeof(cmd),
		 "for r in $(seq %d); do for i in $(seq %d); do curl -s -o /dev/null "
		 "--max-time 20 --cacert %s -u alice:wrong https://127.0.0.1:%u/metrics & "
		 "done; wait; done",
		 ROUNDS, WRONG, cacert, port);
	f->start = now();
	sh(cmd, out, sizeof(out));
	f->end = now();
	return NULL;
}

/* Three rounds of 40 wrong passwords at once (each a bcrypt, one at a time, or a 503 past
 * its wait) do not hold up a scrape with the right one, remembered since setup: it is
 * answered while they are still being refused (curl may take 20 s: the machine is busy
 * with 40 TLS curls, and the point is that it ends first): a server that checked every
 * password in its one request thread would queue the right one behind them. */
static void test_wrong_passwords_do_not_delay(void **state)
{
	(void)state;
	struct flood f = {0};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, wrong_flood, &f), 0);
	usleep(300 * 1000); /* the wrong ones first (not a timed assertion) */
	double t0 = now();
	int st = status("https", "--max-time 20 -u alice:" PASSWORD, NULL, 0);
	double t1 = now();
	pthread_join(th, NULL);
	fprintf(stderr,
		"right password beside %d rounds of %d wrong ones: %.3f s; the wrong ones took "
		"%.3f s\n",
		ROUNDS, WRONG, t1 - t0, f.end - f.start);
	assert_int_equal(st, 200);
	if (t1 > f.end)
		fail_msg("the right password took %.2f s, the wrong ones %.2f s", t1 - t0,
			 f.end - f.start);
}

static void test_password_never_printed(void **state)
{
	(void)state;
	char cmd[512], out[1 << 16];
	snprintf(cmd, sizeof(cmd), "cat %s", logpath);
	sh(cmd, out, sizeof(out));
	assert_null(strstr(out, PASSWORD));
}

/* A real Prometheus scrapes it with scheme https, tls_config and basic_auth. */
static void test_prometheus_scrapes(void **state)
{
	(void)state;
	if (access("/usr/bin/prometheus", X_OK))
		skip();
	char path[300], pass[300], log[300], data[300], web[64], out[1 << 16], cmd[512];
	unsigned pport = testutil_free_port();
	snprintf(pass, sizeof(pass), "%s/pass", tmpdir);
	snprintf(path, sizeof(path), "%s/prom.yml", tmpdir);
	snprintf(log, sizeof(log), "%s/prom.log", tmpdir);
	snprintf(data, sizeof(data), "--storage.tsdb.path=%s/tsdb", tmpdir);
	snprintf(web, sizeof(web), "--web.listen-address=127.0.0.1:%u", pport);
	FILE *f = fopen(pass, "w");
	assert_non_null(f);
	fputs(PASSWORD, f);
	fclose(f);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: pmutop\n"
		"    scheme: https\n    tls_config:\n      ca_file: %s\n"
		"    basic_auth:\n      username: alice\n      password_file: %s\n"
		"    static_configs:\n      - targets: ['127.0.0.1:%u']\n",
		cacert, pass, port);
	fclose(f);
	char cfgarg[320];
	snprintf(cfgarg, sizeof(cfgarg), "--config.file=%s", path);
	char *argv[] = {"/usr/bin/prometheus", cfgarg, data, web, NULL};
	pid_t prom = spawn(argv, log);
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 3 'http://127.0.0.1:%u/api/v1/query?query="
		 "pmutop_build_info'",
		 pport);
	bool seen = false;
	for (int i = 0; i < 300 && !seen; i++) { /* a bound, not a timed assertion */
		usleep(100 * 1000);
		sh(cmd, out, sizeof(out));
		seen = strstr(out, "\"job\":\"pmutop\"") != NULL;
	}
	kill(prom, SIGTERM);
	waitpid(prom, NULL, 0);
	assert_true(seen);
}

/* A config that cannot be served: exit 2, one line naming the file, before listening. */
static void test_bad_config_exits_2(void **state)
{
	(void)state;
	char path[300], listen[32], log[300], out[4096], cmd[512];
	snprintf(path, sizeof(path), "%s/nokey.yml", tmpdir);
	snprintf(log, sizeof(log), "%s/bad.log", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "tls_server_config:\n  cert_file: cert.pem\n  key_file: gone.pem\n");
	fclose(f);
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", testutil_free_port());
	char *argv[] = {PMUTOP_BINARY, "--listen", listen, "--web-config", path, NULL};
	pid_t p = spawn(argv, log);
	int st;
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	snprintf(cmd, sizeof(cmd), "cat %s", log);
	sh(cmd, out, sizeof(out));
	assert_non_null(strstr(out, path));
	assert_non_null(strstr(out, "gone.pem"));

	/* Nothing in it to enforce: refused, not served as plain HTTP without a password. */
	snprintf(path, sizeof(path), "%s/empty.yml", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "# basic_auth_users: to come\n");
	fclose(f);
	p = spawn(argv, log);
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	sh(cmd, out, sizeof(out));
	assert_non_null(strstr(out, "neither tls_server_config nor basic_auth_users"));

	char *alone[] = {PMUTOP_BINARY, "-b", "--web-config", path, NULL};
	p = spawn(alone, log);
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	sh(cmd, out, sizeof(out));
	assert_non_null(strstr(out, "--web-config protects --listen"));
}

/* ---- mutual TLS: a CA of ours, and another one whose certificates must not pass ---- */

static char pki[300];

/* A CA (ca.pem), the server's certificate (server.pem, for serverAuth only) and three
 * client certificates: one signed by our CA for clientAuth (client.pem), one of our CA
 * without an extended key usage (noeku.pem), one by another CA (other-client.pem). */
static int make_pki(void)
{
	snprintf(pki, sizeof(pki), "%s/pki", tmpdir);
	char cmd[4096];
	snprintf(cmd, sizeof(cmd),
		 "set -e; mkdir -p %s; cd %s; "
		 "ec='-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes'; "
		 "openssl req -x509 $ec -days 2 -subj /CN=pmutop-test-ca -keyout ca.key -out "
		 "ca.pem; "
		 "openssl req -x509 $ec -days 2 -subj /CN=other-ca -keyout other.key -out "
		 "other.pem; "
		 "printf 'subjectAltName=IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > srv.ext; "
		 "printf 'subjectAltName=DNS:prometheus\\nextendedKeyUsage=clientAuth\\n' > "
		 "cli.ext; "
		 "printf 'subjectAltName=DNS:prometheus\\n' > noeku.ext; "
		 "openssl req $ec -subj /CN=127.0.0.1 -keyout server.key -out server.csr; "
		 "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
		 "-days 2 -extfile srv.ext -out server.pem; "
		 "openssl req $ec -subj /CN=prometheus -keyout client.key -out client.csr; "
		 "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
		 "-days 2 -extfile cli.ext -out client.pem; "
		 "openssl req $ec -subj /CN=prometheus -keyout noeku.key -out noeku.csr; "
		 "openssl x509 -req -in noeku.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
		 "-days 2 -extfile noeku.ext -out noeku.pem; "
		 "openssl req $ec -subj /CN=prometheus -keyout other-client.key -out o.csr; "
		 "openssl x509 -req -in o.csr -CA other.pem -CAkey other.key -CAcreateserial "
		 "-days 2 -extfile cli.ext -out other-client.pem",
		 pki, pki);
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " >%s/openssl.log 2>&1", pki);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write pki/NAME with TEXT. */
static void pki_file(const char *name, const char *text)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/%s", pki, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static pid_t track(pid_t p)
{
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] <= 0) {
			live[i] = p;
			break;
		}
	return p;
}

static void stop(pid_t p)
{
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] == p)
			live[i] = 0;
}

/* pmutop serving pki/CFG on a free port; *out_port gets the port. Ready when curl with
 * READY_ARGS gets a 200 (a bound of 60 s, not a timed assertion); started again on another
 * port when the one found free was taken meanwhile. */
static pid_t serve(const char *cfgname, const char *ready_args, unsigned *out_port)
{
	char path[400], listen[32], log[400], cmd[1024], out[4096];
	snprintf(path, sizeof(path), "%s/%s", pki, cfgname);
	snprintf(log, sizeof(log), "%s/%s.log", pki, cfgname);
	for (int attempt = 0; attempt < 3; attempt++) {
		*out_port = testutil_free_port();
		snprintf(listen, sizeof(listen), "127.0.0.1:%u", *out_port);
		char *argv[] = {PMUTOP_BINARY, "--listen", listen, "--web-config",
				path,	       "-d",	   "0.5",  NULL};
		pid_t p = track(spawn(argv, log));
		snprintf(cmd, sizeof(cmd),
			 "cd %s && curl -s --max-time 3 --cacert ca.pem %s -o /dev/null -w "
			 "'%%{http_code}' https://127.0.0.1:%u/metrics",
			 pki, ready_args, *out_port);
		for (int i = 0; i < 600; i++) {
			sh(cmd, out, sizeof(out));
			if (atoi(out) == 200)
				return p;
			if (waitpid(p, NULL, WNOHANG) == p)
				break;
			usleep(100 * 1000);
		}
		stop(p);
		snprintf(cmd, sizeof(cmd), "cat %s", log);
		sh(cmd, out, sizeof(out));
		if (!strstr(out, "Address already in use"))
			fail_msg("pmutop with %s never answered: %s", cfgname, out);
	}
	fail_msg("pmutop with %s: no free port in 3 tries", cfgname);
	return -1;
}

/* curl on pki's server with ARGS: the HTTP status ("000": none), the body into body. */
static int pki_curl(unsigned p, const char *args, char *body, size_t cap)
{
	char cmd[1024], out[64];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && rm -f body && curl -s --max-time 5 --cacert ca.pem %s -o body -w "
		 "'%%{http_code}' https://127.0.0.1:%u/metrics",
		 pki, args, p);
	sh(cmd, out, sizeof(out));
	snprintf(cmd, sizeof(cmd), "cat %s/body 2>/dev/null", pki);
	sh(cmd, body, cap);
	return atoi(out);
}

#define MTLS_CFG                                                                                   \
	"tls_server_config:\n"                                                                     \
	"  cert_file: server.pem\n"                                                                \
	"  key_file: server.key\n"                                                                 \
	"  client_auth_type: RequireAndVerifyClientCert\n"                                         \
	"  client_ca_file: ca.pem\n"                                                               \
	"  min_version: TLS12\n"                                                                   \
	"  prefer_server_cipher_suites: true\n"                                                    \
	"  curve_preferences: [X25519, CurveP256]\n"                                               \
	"http_server_config:\n"                                                                    \
	"  http2: false\n"                                                                         \
	"  headers:\n"                                                                             \
	"    X-Content-Type-Options: nosniff\n"                                                    \
	"    X-Frame-Options: deny\n"

/* A client certificate signed by client_ca_file gets the metrics (and the headers); none,
 * or one of another CA, gets nothing, not even an HTTP answer: the handshake refuses it. */
static void test_mtls_curl(void **state)
{
	(void)state;
	pki_file("mtls.yml", MTLS_CFG);
	unsigned p;
	pid_t srv = serve("mtls.yml", "--cert client.pem --key client.key", &p);
	static char body[1 << 20];
	assert_int_equal(
		pki_curl(p, "-D headers --cert client.pem --key client.key", body, sizeof(body)),
		200);
	assert_non_null(strstr(body, "pmutop_build_info{"));
	char cmd[512], hdr[4096];
	snprintf(cmd, sizeof(cmd), "cat %s/headers", pki);
	sh(cmd, hdr, sizeof(hdr));
	assert_non_null(strstr(hdr, "X-Content-Type-Options: nosniff"));
	assert_non_null(strstr(hdr, "X-Frame-Options: deny"));

	assert_int_equal(pki_curl(p, "", body, sizeof(body)), 0);
	assert_null(strstr(body, "pmutop_"));
	assert_int_equal(
		pki_curl(p, "--cert other-client.pem --key other-client.key", body, sizeof(body)),
		0);
	assert_null(strstr(body, "pmutop_"));
	/* TLS 1.2 too, where the certificate is checked inside the handshake proper. */
	assert_int_equal(pki_curl(p,
				  "--tls-max 1.2 --cert other-client.pem --key "
				  "other-client.key",
				  body, sizeof(body)),
			 0);
	assert_int_equal(
		pki_curl(p, "--tls-max 1.2 --cert client.pem --key client.key", body, sizeof(body)),
		200);
	/* Our CA's certificate for serverAuth only (pmutop's own) is no client's, as in Go;
	 * one without an extended key usage passes, as in Go. */
	assert_int_equal(pki_curl(p, "--cert server.pem --key server.key", body, sizeof(body)), 0);
	assert_null(strstr(body, "pmutop_"));
	assert_int_equal(
		pki_curl(p, "--tls-max 1.2 --cert server.pem --key server.key", body, sizeof(body)),
		0);
	assert_int_equal(pki_curl(p, "--cert noeku.pem --key noeku.key", body, sizeof(body)), 200);
	/* Kept alive over TLS: curl's second scrape reuses the connection, no new handshake. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && curl -s -f --max-time 10 --cacert ca.pem --cert client.pem --key "
		 "client.key -o /dev/null -o /dev/null -w '%%{num_connects} ' "
		 "https://127.0.0.1:%u/metrics https://127.0.0.1:%u/metrics",
		 pki, p, p);
	char conns[64];
	assert_int_equal(sh(cmd, conns, sizeof(conns)), 0);
	assert_string_equal(conns, "1 0 ");
	stop(srv);
}

/* The other client_auth_types, as Go reads them: VerifyClientCertIfGiven lets a client
 * without a certificate in and refuses another CA's and our CA's serverAuth one;
 * RequireAnyClientCert refuses a client without one and lets any certificate in, verified
 * or not; RequestClientCert lets all in. */
static void test_client_auth_types(void **state)
{
	(void)state;
	static char body[1 << 20];
	static const char own[] = "--cert client.pem --key client.key",
			  other[] = "--cert other-client.pem --key other-client.key",
			  srvonly[] = "--cert server.pem --key server.key";
	static const struct {
		const char *type;
		int none, own, other, srv; /* 200, or 0: refused in the handshake */
	} cases[] = {
		{"VerifyClientCertIfGiven\n  client_ca_file: ca.pem", 200, 200, 0, 0},
		{"RequireAnyClientCert", 0, 200, 200, 200},
		{"RequestClientCert", 200, 200, 200, 200},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char yml[512];
		snprintf(yml, sizeof(yml),
			 "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
			 "  client_auth_type: %s\n",
			 cases[i].type);
		pki_file("types.yml", yml);
		unsigned p;
		pid_t srv = serve("types.yml", own, &p);
		int none = pki_curl(p, "", body, sizeof(body));
		int mine = pki_curl(p, own, body, sizeof(body));
		int theirs = pki_curl(p, other, body, sizeof(body));
		int server = pki_curl(p, srvonly, body, sizeof(body));
		stop(srv);
		if (none != cases[i].none || mine != cases[i].own || theirs != cases[i].other ||
		    server != cases[i].srv)
			fail_msg("%s: no cert %d, our CA's %d, another CA's %d, our CA's "
				 "serverAuth one %d",
				 cases[i].type, none, mine, theirs, server);
	}
}

/* client_allowed_sans: a certificate of our CA that names prometheus passes, the same one
 * is forbidden where only grafana may scrape. */
static void test_mtls_sans(void **state)
{
	(void)state;
	static char body[1 << 20];
	unsigned p;
	pki_file("sans.yml",
		 "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "  client_auth_type: RequireAndVerifyClientCert\n"
		 "  client_ca_file: ca.pem\n  client_allowed_sans: [grafana, prometheus]\n");
	pid_t srv = serve("sans.yml", "--cert client.pem --key client.key", &p);
	assert_int_equal(pki_curl(p, "--cert client.pem --key client.key", body, sizeof(body)),
			 200);
	assert_non_null(strstr(body, "pmutop_build_info{"));
	stop(srv);
	pki_file("sans.yml", "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
			     "  client_auth_type: RequireAndVerifyClientCert\n"
			     "  client_ca_file: ca.pem\n  client_allowed_sans: [grafana]\n");
	char listen[32], path[400], log[400], cmd[1024], out[64];
	snprintf(path, sizeof(path), "%s/sans.yml", pki);
	snprintf(log, sizeof(log), "%s/sans2.log", pki);
	p = testutil_free_port();
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", p);
	char *argv[] = {PMUTOP_BINARY, "--listen", listen, "--web-config", path, "-d", "0.5", NULL};
	srv = track(spawn(argv, log));
	/* Until it answers at all (a bound of 20 s): then the answer is a 403. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && curl -s --max-time 3 --cacert ca.pem --cert client.pem --key client.key "
		 "-o /dev/null -w '%%{http_code}' https://127.0.0.1:%u/metrics",
		 pki, p);
	for (int i = 0; i < 200; i++) {
		sh(cmd, out, sizeof(out));
		if (atoi(out) != 0)
			break;
		usleep(100 * 1000);
	}
	assert_int_equal(pki_curl(p, "--cert client.pem --key client.key", body, sizeof(body)),
			 403);
	assert_null(strstr(body, "pmutop_"));
	assert_non_null(strstr(body, "client certificate"));
	stop(srv);
}

/* up{job=JOB} in Prometheus at pport: 1, 0, or -1 while it has none yet. */
static int prom_up(unsigned pport, const char *job)
{
	char cmd[512], out[1 << 14];
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 3 'http://127.0.0.1:%u/api/v1/query?query=up%%7Bjob%%3D%%22%s"
		 "%%22%%7D'",
		 pport, job);
	sh(cmd, out, sizeof(out));
	const char *v = strstr(out, "\"value\":[");
	const char *q = v ? strstr(v, ",\"") : NULL;
	return q ? atoi(q + 2) : -1;
}

/* A real Prometheus with three jobs on one mutual-TLS pmutop: its client certificate is
 * let in (up 1, pmutop's series stored), none and another CA's are refused (up 0). */
static void test_mtls_prometheus(void **state)
{
	(void)state;
	if (access("/usr/bin/prometheus", X_OK))
		skip();
	pki_file("mtls.yml", MTLS_CFG);
	unsigned p;
	pid_t srv = serve("mtls.yml", "--cert client.pem --key client.key", &p);
	char prom[8192], path[400], log[400], data[400], web[64], cfgarg[420], cmd[512];
	unsigned pport = testutil_free_port();
	snprintf(prom, sizeof(prom),
		 "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n"
		 "  - job_name: good\n    scheme: https\n    tls_config:\n"
		 "      ca_file: %s/ca.pem\n      cert_file: %s/client.pem\n"
		 "      key_file: %s/client.key\n"
		 "    static_configs:\n      - targets: ['127.0.0.1:%u']\n"
		 "  - job_name: nocert\n    scheme: https\n    tls_config:\n"
		 "      ca_file: %s/ca.pem\n"
		 "    static_configs:\n      - targets: ['127.0.0.1:%u']\n"
		 "  - job_name: otherca\n    scheme: https\n    tls_config:\n"
		 "      ca_file: %s/ca.pem\n      cert_file: %s/other-client.pem\n"
		 "      key_file: %s/other-client.key\n"
		 "    static_configs:\n      - targets: ['127.0.0.1:%u']\n",
		 pki, pki, pki, p, pki, p, pki, pki, pki, p);
	pki_file("prom.yml", prom);
	snprintf(path, sizeof(path), "%s/prom.yml", pki);
	snprintf(cfgarg, sizeof(cfgarg), "--config.file=%s", path);
	snprintf(log, sizeof(log), "%s/prom.log", pki);
	snprintf(data, sizeof(data), "--storage.tsdb.path=%s/tsdb", pki);
	snprintf(web, sizeof(web), "--web.listen-address=127.0.0.1:%u", pport);
	char *argv[] = {"/usr/bin/prometheus", cfgarg, data, web, NULL};
	pid_t pr = spawn(argv, log);
	int good = -1, nocert = -1, otherca = -1;
	/* Until every job has an up sample, and the good one a 1: a bound of 60 s. */
	for (int i = 0; i < 600 && (good != 1 || nocert < 0 || otherca < 0); i++) {
		usleep(100 * 1000);
		good = prom_up(pport, "good");
		nocert = prom_up(pport, "nocert");
		otherca = prom_up(pport, "otherca");
	}
	char out[1 << 14];
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 3 'http://127.0.0.1:%u/api/v1/query?query="
		 "pmutop_build_info'",
		 pport);
	sh(cmd, out, sizeof(out));
	kill(pr, SIGTERM);
	waitpid(pr, NULL, 0);
	stop(srv);
	assert_int_equal(good, 1);
	assert_non_null(strstr(out, "\"job\":\"good\""));
	assert_null(strstr(out, "\"job\":\"nocert\""));
	assert_null(strstr(out, "\"job\":\"otherca\""));
	assert_int_equal(nocert, 0);
	assert_int_equal(otherca, 0);
}

/* The TLS version openssl s_client settles on with FLAG (-tls1_2, -tls1_3), or "" when the
 * server refuses the handshake. */
static void s_client(unsigned p, const char *flag, char *proto, size_t cap)
{
	char cmd[1024], out[1 << 15];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && openssl s_client %s -connect 127.0.0.1:%u -CAfile ca.pem "
		 "</dev/null 2>&1",
		 pki, flag, p);
	sh(cmd, out, sizeof(out));
	/* "New, TLSv1.3, Cipher is ..." once a handshake is done; "New, (NONE), Cipher is
	 * (NONE)" when the server refused it (its Protocol line then names what was tried). */
	const char *t = strstr(out, "New, TLSv1.");
	snprintf(proto, cap, "%.7s", t ? t + 5 : "");
}

/* min_version: TLS13 refuses a TLS 1.2 client and lets a TLS 1.3 one in (with the one
 * curve of curve_preferences, not without); without it (the
 * default, TLS12) the same TLS 1.2 client is let in; max_version: TLS12 refuses TLS 1.3. */
static void test_tls_versions(void **state)
{
	(void)state;
	char proto[16];
	unsigned p;
	pki_file("v13.yml", "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
			    "  min_version: TLS13\n  curve_preferences: [CurveP384]\n");
	pid_t srv = serve("v13.yml", "--curves secp384r1", &p);
	s_client(p, "-tls1_2", proto, sizeof(proto));
	assert_string_equal(proto, "");
	s_client(p, "-tls1_3", proto, sizeof(proto));
	assert_string_equal(proto, "TLSv1.3");
	/* curve_preferences: a client offering only X25519 finds no group in common */
	s_client(p, "-tls1_3 -groups X25519", proto, sizeof(proto));
	assert_string_equal(proto, "");
	s_client(p, "-tls1_3 -groups P-384", proto, sizeof(proto));
	assert_string_equal(proto, "TLSv1.3");
	stop(srv);

	pki_file("v12.yml", "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
			    "  max_version: TLS12\n  cipher_suites:\n"
			    "    - TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256\n"
			    "    - TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\n");
	srv = serve("v12.yml", "", &p);
	s_client(p, "-tls1_2", proto, sizeof(proto));
	assert_string_equal(proto, "TLSv1.2");
	s_client(p, "-tls1_3", proto, sizeof(proto));
	assert_string_equal(proto, "");
	/* a suite outside the list: refused */
	s_client(p, "-tls1_2 -cipher ECDHE-ECDSA-CHACHA20-POLY1305", proto, sizeof(proto));
	assert_string_equal(proto, "");
	s_client(p, "-tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384", proto, sizeof(proto));
	assert_string_equal(proto, "TLSv1.2");
	stop(srv);
}

/* Settings exporter-toolkit reads that pmutop cannot honour, and values it does not know:
 * exit 2 and one line that names the key, before anything listens. */
static void test_unsupported_exit_2(void **state)
{
	(void)state;
	static const struct {
		const char *yml, *says;
	} cases[] = {
		{"http_server_config:\n  http2: true\nbasic_auth_users:\n  a: "
		 "'$2y$10$aaaaaaaaaaaaaaaaaaaaaO7XrFbtXOCVkGyzQwcWG5SMNX8BkwoRa'\n",
		 "http2: true is not supported"},
		{"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "  min_version: TLS14\n",
		 "min_version: unknown TLS version TLS14"},
		{"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "  cipher_suites: [TLS_RSA_WITH_RC4_128_SHA]\n",
		 "cipher_suites: unknown cipher suite TLS_RSA_WITH_RC4_128_SHA"},
		{"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "  ocsp_stapling: true\n",
		 "tls_server_config: unknown key ocsp_stapling"},
		{"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "  client_auth_type: RequireAndVerifyClientCert\n",
		 "needs client_ca_file"},
		{"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "  max_version: TLS12\n  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "
		 "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384]\n",
		 "would also allow TLS_ECDHE_"},
		{"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "http_server_config:\n  headers:\n    Server: pmutop\n",
		 "headers: Server cannot be set"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[400], log[400], listen[32], cmd[512], out[4096];
		pki_file("bad.yml", cases[i].yml);
		snprintf(path, sizeof(path), "%s/bad.yml", pki);
		snprintf(log, sizeof(log), "%s/bad.log", pki);
		snprintf(listen, sizeof(listen), "127.0.0.1:%u", testutil_free_port());
		char *argv[] = {PMUTOP_BINARY, "--listen", listen, "--web-config", path, NULL};
		/* A bound of 20 s: a config wrongly accepted serves until killed. */
		int st = testutil_reap(spawn(argv, log), 20);
		snprintf(cmd, sizeof(cmd), "cat %s", log);
		sh(cmd, out, sizeof(out));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 2 || !strstr(out, cases[i].says) ||
		    !strstr(out, path) || strchr(out, '\n') != out + strlen(out) - 1)
			fail_msg("case %zu: status %d, said '%s'", i, st, out);
	}
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_right_user),
		cmocka_unit_test(test_wrong_password),
		cmocka_unit_test(test_no_credentials),
		cmocka_unit_test(test_plain_http_refused),
		cmocka_unit_test(test_bad_config_exits_2),
		cmocka_unit_test(test_prometheus_scrapes),
		cmocka_unit_test(test_wrong_passwords_do_not_delay),
		cmocka_unit_test(test_password_never_printed),
		cmocka_unit_test(test_mtls_curl),
		cmocka_unit_test(test_client_auth_types),
		cmocka_unit_test(test_mtls_sans),
		cmocka_unit_test(test_mtls_prometheus),
		cmocka_unit_test(test_tls_versions),
		cmocka_unit_test(test_unsupported_exit_2),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
