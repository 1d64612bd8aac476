/* pmutop --listen --web-config: TLS with a self-signed certificate (openssl), basic auth
 * with a bcrypt hash made here by libxcrypt, checked with curl; a bad config exits 2. */
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
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PASSWORD "pw-4Kq9-never-printed"

static char tmpdir[] = "/tmp/pmutop-webcfg-XXXXXX";
static char cfg[256], logpath[256], cacert[256];
static unsigned port;
static pid_t pmutop;

static pid_t spawn(char *const argv[], const char *log)
{
	pid_t p = fork();
	if (p == 0) {
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
 * answered (within curl's 3 s) while they are still being refused. Before, every request
 * queued behind every bcrypt in the server's one thread, and curl gave up. */
static void test_wrong_passwords_do_not_delay(void **state)
{
	(void)state;
	struct flood f = {0};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, wrong_flood, &f), 0);
	usleep(300 * 1000); /* the wrong ones first (not a timed assertion) */
	double t0 = now();
	int st = status("https", "-u alice:" PASSWORD, NULL, 0);
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
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
