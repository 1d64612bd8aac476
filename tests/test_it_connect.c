/* pmutop --connect: a pmutop exporter on 127.0.0.2 (TLS with a CA made here, basic auth
 * with a bcrypt hash, a worker doing page faults every tick) and pmutop --connect to it in
 * batch mode with a --connect-config file: every row it prints for a tick equals the
 * exporter's own batch rows for that tick. A killed exporter reads n/c (host not
 * answering), never zeros, and is read again when it is back; its cgroup and CPU rows and
 * a recording of it (-w, replayed) equal the host's too; a refused port, a wrong
 * password and an untrusted certificate each give one line and exit 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "fetch.h"
#include "testutil.h"

#include <crypt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define PASSWORD "pw-connect-7Tq"

static char dir[] = "/tmp/pmutop-connect-XXXXXX";
static char path_buf[8][256];
static pid_t worker = -1;

static const char *in_dir(unsigned slot, const char *name)
{
	snprintf(path_buf[slot], sizeof(path_buf[slot]), "%s/%s", dir, name);
	return path_buf[slot];
}

static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(7, name), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A process touching 300 fresh pages every 100 ms: page faults in every tick. */
static pid_t start_worker(void)
{
	pid_t p = fork();
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			testutil_touch_pages(300);
			usleep(100 * 1000);
		}
	}
	return p;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir) || access("/usr/bin/openssl", X_OK))
		return -1;
	if (testutil_pki(dir, "127.0.0.2", "IP:127.0.0.2"))
		return -1;
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	static struct crypt_data cd;
	if (!crypt_gensalt_rn("$2y$", 10, NULL, 0, setting, sizeof(setting)))
		return -1;
	const char *hash = crypt_rn(PASSWORD, setting, &cd, sizeof(cd));
	if (!hash)
		return -1;
	char text[512];
	snprintf(text, sizeof(text),
		 "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		 "basic_auth_users:\n  alice: '%s'\n",
		 hash);
	write_file("web.yml", text);
	write_file("mtls.yml", "tls_server_config:\n  cert_file: server.pem\n"
			       "  key_file: server.key\n"
			       "  client_auth_type: RequireAndVerifyClientCert\n"
			       "  client_ca_file: ca.pem\n");
	write_file("client.yml", "tls_config:\n  ca_file: ca.pem\n  cert_file: client.pem\n"
				 "  key_file: client.key\n");
	write_file("noclient.yml", "tls_config:\n  ca_file: ca.pem\n");
	write_file("pw", PASSWORD "\n");
	write_file("wrongpw", PASSWORD "x\n");
	write_file("connect.yml", "tls_config:\n  ca_file: ca.pem\n"
				  "basic_auth:\n  username: alice\n  password_file: pw\n");
	write_file("wrong.yml", "tls_config:\n  ca_file: ca.pem\n"
				"basic_auth:\n  username: alice\n  password_file: wrongpw\n");
	write_file("otherca.yml", "tls_config:\n  ca_file: other.pem\n"
				  "basic_auth:\n  username: alice\n  password_file: pw\n");
	worker = start_worker();
	return worker > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return testutil_teardown(worker, dir);
}

/* The port of "listening on 127.0.0.2:PORT" in log, 0 until it is there (the log has
 * other lines with colons after it). */
static unsigned port_in(const char *log)
{
	char *t = testutil_slurp(log);
	const char *p = strstr(t, "listening on 127.0.0.2:");
	unsigned port = p ? (unsigned)strtoul(p + strlen("listening on 127.0.0.2:"), NULL, 10) : 0;
	free(t);
	return port;
}

/* An exporter on 127.0.0.2:port (0: any) writing its batch CSV to out, with the batch
 * options more (NULL-terminated, up to 4; NULL: none); its port. */
static pid_t exporter_more(unsigned port, const char *web, const char *out, const char *log,
			   const char *const *more, unsigned *bound)
{
	char listen[32];
	snprintf(listen, sizeof(listen), "127.0.0.2:%u", port);
	char *argv[] = {PMUTOP_BINARY,
			"-b",
			"--format",
			"csv",
			"--backend",
			"perf",
			"-H",
			"-d",
			"0.5",
			"--listen",
			listen,
			"-o",
			(char *)out,
			web ? "--web-config" : NULL,
			web ? (char *)in_dir(6, web) : NULL,
			NULL,
			NULL,
			NULL,
			NULL,
			NULL};
	for (unsigned i = 0, at = web ? 15 : 13; more && more[i] && i < 4; i++)
		argv[at + i] = (char *)more[i];
	pid_t p = testutil_spawn(argv, in_dir(5, "exporter.stdout"), log);
	assert_true(p > 0);
	double until = testutil_now() + 30;
	while (!(*bound = port_in(log)) && testutil_now() < until)
		testutil_nap_ms(50);
	assert_true(*bound > 0);
	return p;
}

static pid_t exporter_with(unsigned port, const char *web, const char *out, const char *log,
			   unsigned *bound)
{
	return exporter_more(port, web, out, log, NULL, bound);
}

/* An exporter with web.yml (TLS and basic auth) or none. */
static pid_t exporter(unsigned port, bool tls, const char *out, const char *log, unsigned *bound)
{
	return exporter_with(port, tls ? "web.yml" : NULL, out, log, bound);
}

/* pmutop --connect url -b -n 3 --format csv [--connect-config cfg] [extra], its rows read
 * whole from a file (a tick of a busy machine's threads is megabytes). */
static char *run_connect_with(const char *url, const char *cfg, const char *extra, int *status,
			      char *err, size_t errcap)
{
	static char *out;
	char none[256];
	const char *file = in_dir(4, "connect-run.csv");
	char *argv[14] = {PMUTOP_BINARY, "--connect", (char *)url, "-b", "-n",
			  "3",		 "--format",  "csv",	   "-o", (char *)file};
	unsigned n = 10;
	if (cfg) {
		argv[n++] = "--connect-config";
		argv[n++] = (char *)cfg;
	}
	if (extra)
		argv[n++] = (char *)extra;
	argv[n] = NULL;
	unlink(file);
	*status = testutil_run(argv, none, sizeof(none), err, errcap);
	free(out);
	out = testutil_slurp(file);
	assert_non_null(out);
	return out;
}

static char *run_connect(const char *url, const char *cfg, int *status, char *err, size_t errcap)
{
	return run_connect_with(url, cfg, NULL, status, err, errcap);
}

/* Every tick --connect printed (TLS, basic auth) equals the exporter's own rows. */
static void test_rows_equal_the_hosts(void **state)
{
	(void)state;
	unsigned port;
	const char *csv = in_dir(0, "exp.csv");
	pid_t x = exporter(0, true, csv, in_dir(1, "exp.log"), &port);
	char url[64], err[4096];
	snprintf(url, sizeof(url), "https://127.0.0.2:%u", port);
	int st;
	char *got = run_connect(url, in_dir(2, "connect.yml"), &st, err, sizeof(err));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(testutil_assert_rows_equal(got, x, csv, 60), 3);
	/* among them the worker's page faults */
	char worker_faults[64];
	snprintf(worker_faults, sizeof(worker_faults), ",%d,%d,,", (int)worker, (int)worker);
	unsigned faults_seen = 0;
	for (const char *w = strstr(got, worker_faults); w && !faults_seen;
	     w = strstr(w + 1, worker_faults)) {
		const char *eol = strchr(w, '\n'), *pf = strstr(w, ",page-faults,");
		faults_seen = pf && (!eol || pf < eol);
	}
	assert_true(faults_seen > 0);
	/* The host's thread rows (-H there) came over too. */
	assert_non_null(strstr(got, ",thread,"));
	kill(x, SIGTERM);
	assert_true(testutil_reap(x, 30) >= 0);
}

/* The worker's page-faults lines after tick after: how many are n/c (host not
 * answering), and in *counted how many carry a number counted the whole time. */
static unsigned worker_faults(const char *text, long after, unsigned *counted)
{
	char key[64];
	snprintf(key, sizeof(key), ",%d,%d,,", (int)worker, (int)worker);
	unsigned stale = 0;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		char line[512];
		snprintf(line, sizeof(line), "%.*s",
			 (int)(len < sizeof(line) ? len : sizeof(line) - 1), l);
		const char *f = strstr(line, ",page-faults,");
		if (atol(line) > after && f && strstr(line, key)) {
			if (!strncmp(f, ",page-faults,,n/c,0.00,host not answering,", 42))
				stale++;
			else if (strstr(f, ",exact,"))
				(*counted)++;
		}
		if (!e)
			break;
		l = e + 1;
	}
	return stale;
}

/* The host's cgroup and CPU rows (--cgroups --per-cpu on both sides): --connect's equal
 * the host's own, tick by tick (the cgroups summed from its process rows and the cgroups
 * it counted itself, the CPUs its CPU rows). */
static void test_cgroup_cpu_rows_equal(void **state)
{
	(void)state;
	unsigned port;
	const char *csv = in_dir(0, "expcg.csv");
	const char *const more[] = {"--cgroups", "--per-cpu", NULL};
	pid_t x = exporter_more(0, NULL, csv, in_dir(1, "expcg.log"), more, &port);
	char url[64], err[4096];
	snprintf(url, sizeof(url), "http://127.0.0.2:%u", port);
	int st;
	char *argv[] = {PMUTOP_BINARY, "--connect", url,	 "-b",	      "-n", "3",
			"--format",    "csv",	    "--cgroups", "--per-cpu", NULL};
	static char got[4 << 20];
	st = testutil_run(argv, got, sizeof(got), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	long last = 0; /* its last tick */
	for (const char *l = got; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (atol(l) > last)
			last = atol(l);
	assert_int_equal(last > 0, 1);
	assert_true(testutil_wait_tick(x, csv, last + 1, 60));
	char *mine = testutil_slurp(csv);
	static char a[2 << 20], b[2 << 20];
	testutil_tick_lines(got, last, a, sizeof(a));
	testutil_tick_lines(mine, last, b, sizeof(b));
	assert_non_null(strstr(a, ",cpu,"));
	assert_non_null(strstr(a, ",cgroup,"));
	assert_null(strstr(a, ",process,"));
	assert_string_equal(a, b);
	free(mine);
	kill(x, SIGTERM);
	assert_true(testutil_reap(x, 30) >= 0);
}

/* --connect -w: the recording, replayed, gives the host's own rows tick for tick. */
static void test_recording_equals_the_host(void **state)
{
	(void)state;
#ifdef PMUTOP_NO_RECORD
	skip(); /* built without recordings */
#endif
	unsigned port;
	const char *csv = in_dir(0, "exprec.csv");
	pid_t x = exporter(0, false, csv, in_dir(1, "exprec.log"), &port);
	char url[64], err[4096], write[300], none[256];
	snprintf(url, sizeof(url), "http://127.0.0.2:%u", port);
	snprintf(write, sizeof(write), "--write=%s", in_dir(2, "connect.db"));
	/* into files: a tick of a busy machine's threads is megabytes */
	char *argv[] = {PMUTOP_BINARY,
			"--connect",
			url,
			"-b",
			"-n",
			"3",
			"--format",
			"csv",
			write,
			"-o",
			(char *)in_dir(3, "connect.csv"),
			NULL};
	int st = testutil_run(argv, none, sizeof(none), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *got = testutil_slurp(in_dir(3, "connect.csv"));
	/* the ticks --connect printed: it may skip one of the host's on a busy machine */
	long printed[64], held[64];
	unsigned np = testutil_csv_tick_list(got, printed, 64);
	assert_true(np > 0);
	long last = printed[np - 1];
	assert_true(testutil_wait_tick(x, csv, last + 1, 60));
	kill(x, SIGTERM);
	assert_true(testutil_reap(x, 30) >= 0);
	char *rargv[] = {PMUTOP_BINARY, "-r", (char *)in_dir(2, "connect.db"),	 "-b", "--format",
			 "csv",		"-o", (char *)in_dir(4, "replayed.csv"), NULL};
	st = testutil_run(rargv, none, sizeof(none), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *replayed = testutil_slurp(in_dir(4, "replayed.csv")), *mine = testutil_slurp(csv);
	assert_true(replayed && mine);
	size_t ca = strlen(replayed) + 2, cb = strlen(mine) + 2;
	char *a = malloc(ca), *b = malloc(cb);
	assert_true(a && b);
	/* the replay holds those ticks and no other (nothing it did not read), each the
	 * host's own lines */
	unsigned nh = testutil_csv_tick_list(replayed, held, 64);
	if (nh != np)
		fail_msg("--connect printed %u ticks (%ld to %ld), the replay holds %u", np,
			 printed[0], last, nh);
	for (unsigned i = 0; i < np; i++) {
		assert_int_equal(held[i], printed[i]);
		testutil_tick_lines(replayed, printed[i], a, ca);
		testutil_tick_lines(mine, printed[i], b, cb);
		assert_true(strlen(a) > 0);
		assert_string_equal(a, b);
	}
	free(a);
	free(b);
	free(got);
	free(replayed);
	free(mine);
}

/* The header of each block is the host's: its name, kernel, CPUs and backend (perf there;
 * this pmutop alone would count with bpf), at the host's tick, with what only the host's
 * model has: its interval (0.5 s; this pmutop's would be 1 s) and user mode only. */
static void test_header_is_the_hosts(void **state)
{
	(void)state;
	unsigned port;
	const char *const user[] = {"--user", NULL};
	pid_t x = exporter_more(0, NULL, in_dir(0, "exphdr.csv"), in_dir(1, "exphdr.log"), user,
				&port);
	char url[64], err[4096];
	snprintf(url, sizeof(url), "http://127.0.0.2:%u", port);
	char *argv[] = {PMUTOP_BINARY, "--connect", url, "-b", "-n", "1", NULL};
	static char got[4 << 20];
	int st = testutil_run(argv, got, sizeof(got), err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	struct utsname u;
	assert_int_equal(uname(&u), 0);
	char want[512];
	snprintf(want, sizeof(want), "pmutop - %s, Linux %s, %ld CPUs - tick ", u.nodename,
		 u.release, sysconf(_SC_NPROCESSORS_CONF));
	assert_true(strncmp(got, want, strlen(want)) == 0);
	const char *eol = strchr(got, '\n'), *be = strstr(got, " tasks (perf)"),
		   *iv = strstr(got, ", interval 0.50s ("), *um = strstr(got, " - user mode only");
	if (!eol || !be || be > eol || !iv || iv > eol || !um || um > eol)
		fail_msg("not the host's header: %.*s", eol ? (int)(eol - got) : 200, got);
	kill(x, SIGTERM);
	assert_true(testutil_reap(x, 30) >= 0);
}

/* pmutop --connect to the exporter on port (plain HTTP), its batch CSV into out and its
 * stderr into errf, once it has printed two ticks. */
static pid_t client_of(unsigned port, const char *out, const char *errf)
{
	char url[64];
	snprintf(url, sizeof(url), "http://127.0.0.2:%u", port);
	char *argv[] = {PMUTOP_BINARY, "--connect", url, "-b", "--format", "csv", NULL};
	pid_t c = testutil_spawn(argv, out, errf);
	assert_true(c > 0);
	assert_true(testutil_wait_tick(c, out, 2, 60));
	return c;
}

/* The start of the first line of text saying "host not answering" in a tick after tick
 * after, or NULL. */
static const char *stale_line(const char *text, long after)
{
	for (const char *s = strstr(text, ",n/c,0.00,host not answering,"); s;
	     s = strstr(s + 1, ",n/c,0.00,host not answering,")) {
		const char *l = s;
		while (l > text && l[-1] != '\n')
			l--;
		if (atol(l) > after)
			return l;
	}
	return NULL;
}

/* A killed exporter: every value n/c "host not answering", none a zero; back when it is. */
static void test_killed_reads_stale(void **state)
{
	(void)state;
	unsigned port;
	pid_t x = exporter(0, false, in_dir(0, "exp2.csv"), in_dir(1, "exp2.log"), &port);
	const char *out = in_dir(2, "stale.csv");
	pid_t c = client_of(port, out, in_dir(3, "stale.err"));
	kill(x, SIGKILL);
	waitpid(x, NULL, 0);
	long killed_at = testutil_csv_ticks(out);
	/* Under memcheck the client itself may take longer than a request's deadline before
	 * the kill (a host not answering then, as the client saw it): the first stale tick
	 * after the kill is looked at there; elsewhere none may come before it. */
	long after = testutil_under_valgrind() ? killed_at : 0;
	/* Stale lines, then the exporter back on the same port, then counted lines again. */
	double until = testutil_now() + 60;
	char *text = NULL;
	while (testutil_now() < until) {
		free(text);
		text = testutil_slurp(out);
		/* The first stale tick written whole: a later tick has begun. */
		const char *s = stale_line(text, after);
		if (s && testutil_csv_ticks(out) > atol(s))
			break;
		testutil_nap_ms(100);
	}
	/* From the first stale tick on (ticks read before the kill and held in reserve come
	 * first), no page-faults line of the worker says a number. */
	const char *first = stale_line(text, after);
	assert_non_null(first);
	long stale_from = atol(first);
	assert_true(stale_from > killed_at);
	unsigned counted = 0, stale = worker_faults(text, stale_from - 1, &counted);
	free(text);
	assert_true(stale > 0);
	assert_int_equal(counted, 0);
	unsigned port2;
	pid_t x2 = exporter(port, false, in_dir(0, "exp3.csv"), in_dir(1, "exp3.log"), &port2);
	assert_int_equal(port2, port);
	long back = testutil_csv_ticks(out);
	until = testutil_now() + 60;
	counted = 0;
	while (!counted && testutil_now() < until) {
		text = testutil_slurp(out);
		worker_faults(text, back, &counted);
		free(text);
		testutil_nap_ms(100);
	}
	assert_true(counted > 0);
	kill(c, SIGTERM);
	testutil_reap(c, 30);
	kill(x2, SIGTERM);
	testutil_reap(x2, 30);
}

/* A host that stops answering for longer than a request may take (stopped 5 s; a request
 * gives up after 3.5 s) and comes back: no tick of it is printed twice. The client, after
 * the error, asks for the host's newest tick (the host may have started again), which is
 * the one it printed last when the host has made none since. */
static void test_paused_host_no_repeat(void **state)
{
	(void)state;
	unsigned port;
	static const char *const slow[] = {"-d", "2", NULL};
	pid_t x = exporter_more(0, NULL, in_dir(0, "pausexp.csv"), in_dir(1, "pausexp.log"), slow,
				&port);
	const char *out = in_dir(2, "pause.csv");
	pid_t c = client_of(port, out, in_dir(3, "pause.err"));
	/* just after one of its ticks: the client holds it when the host stops */
	long t0 = testutil_csv_ticks(out);
	double until = testutil_now() + 30;
	while (testutil_csv_ticks(out) == t0 && testutil_now() < until)
		testutil_nap_ms(20);
	testutil_nap_ms(300);
	kill(x, SIGSTOP);
	testutil_nap_ms(5000);
	kill(x, SIGCONT);
	long back = testutil_csv_ticks(out);
	assert_true(testutil_wait_tick(c, out, back + 4, 90));
	kill(c, SIGTERM);
	testutil_reap(c, 30);
	kill(x, SIGTERM);
	testutil_reap(x, 30);
	/* Each counted tick (a line not stale) and its host time: strictly increasing. */
	char *text = testutil_slurp(out);
	long last_tick = 0;
	double last_time = -1;
	unsigned ticks = 0;
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		char *end;
		long tick = strtol(l, &end, 10);
		if (end == l || *end != ',' || tick == last_tick || strstr(l, "host not answering"))
			continue;
		double time = strtod(end + 1, NULL);
		if (!(time > last_time))
			fail_msg("tick %ld repeats host time %.3f of tick %ld", tick, time,
				 last_tick);
		last_tick = tick, last_time = time, ticks++;
	}
	free(text);
	assert_true(ticks >= 4);
}

static void one_line_exit2(const char *url, const char *cfg, const char *needle)
{
	char err[4096];
	int st;
	run_connect(url, cfg, &st, err, sizeof(err));
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
	unsigned port;
	pid_t x = exporter(0, true, in_dir(0, "exp4.csv"), in_dir(1, "exp4.log"), &port);
	char url[64];
	snprintf(url, sizeof(url), "https://127.0.0.2:%u", port);
	one_line_exit2(url, in_dir(2, "wrong.yml"), "401");
	one_line_exit2(url, in_dir(3, "otherca.yml"), "certificate");
	one_line_exit2(url, NULL, "certificate"); /* the system's CAs do not know ours */
	snprintf(url, sizeof(url), "https://127.0.0.2:%u", testutil_free_port());
	one_line_exit2(url, in_dir(2, "connect.yml"), "refused");
	one_line_exit2("127.0.0.2:1", NULL, "--connect: 127.0.0.2:1: give http://HOST:PORT");
	/* no host: said as such, not a host named after the path pmutop adds ("pmutop") */
	one_line_exit2("http://", NULL, "--connect: http://: give http://HOST:PORT");
	one_line_exit2("https://:9465", NULL, "give http://HOST:PORT");
	kill(x, SIGTERM);
	testutil_reap(x, 30);
}

/* Mutual TLS: the host asks for a client certificate from its CA; --connect-config's
 * cert_file and key_file give it, and without them it is one line and exit 2. */
static void test_mutual_tls(void **state)
{
	(void)state;
	unsigned port;
	pid_t x = exporter_with(0, "mtls.yml", in_dir(0, "exp6.csv"), in_dir(1, "exp6.log"), &port);
	char url[64], err[4096];
	snprintf(url, sizeof(url), "https://127.0.0.2:%u", port);
	int st;
	const char *got = run_connect(url, in_dir(2, "client.yml"), &st, err, sizeof(err));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_non_null(strstr(got, ",page-faults,"));
	/* The host's cgroup rows (--cgroups: a row per cgroup for the process rows). */
	got = run_connect_with(url, in_dir(2, "client.yml"), "--cgroups", &st, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_non_null(strstr(got, ",cgroup,"));
	assert_null(strstr(got, ",process,"));
	one_line_exit2(url, in_dir(3, "noclient.yml"), "client certificate");
	kill(x, SIGTERM);
	testutil_reap(x, 30);
}

/* GET /pmutop/v1/tick itself: 401 without the password, 400 for a query that does not
 * parse, 204 when no tick comes, 200 with the tick's number. */
static long tick_status(struct fetch *f, unsigned port, const char *query, char **body)
{
	char url[160], err[512];
	size_t len;
	long st = 0;
	snprintf(url, sizeof(url), "https://127.0.0.2:%u/pmutop/v1/tick%s", port, query);
	/* The statuses are asserted, not the transport: a handshake that fails on a loaded
	 * machine is tried again, as --connect does: up to 10 tries. */
	int rc = -1;
	for (int i = 0; i < 10 && rc != 0; i++)
		if ((rc = fetch_get(f, url, 20000, body, &len, &st, err, sizeof(err))) != 0)
			print_message("%s: %s (tried again)\n", query, err);
	assert_int_equal(rc, 0);
	return st;
}

static void test_endpoint_queries(void **state)
{
	(void)state;
	/* This process's TLS handshakes under memcheck outlast the 3 s the exporter gives a
	 * connection for its request's head (a valgrind pass at load 4-6: ten in a row). The
	 * client's code is checked under memcheck by test_fetch, over TLS too. */
	if (testutil_under_valgrind())
		skip();
	unsigned port;
	pid_t x = exporter(0, true, in_dir(0, "exp5.csv"), in_dir(1, "exp5.log"), &port);
	char err[512], *body;
	struct fetch_cfg *cfg, *anon;
	assert_int_equal(fetch_cfg_load(in_dir(2, "connect.yml"), &cfg, err, sizeof(err)), 0);
	write_file("anon.yml", "tls_config:\n  ca_file: ca.pem\n");
	assert_int_equal(fetch_cfg_load(in_dir(3, "anon.yml"), &anon, err, sizeof(err)), 0);
	struct fetch *f = fetch_new(cfg, err, sizeof(err)), *fa = fetch_new(anon, err, sizeof(err));
	assert_non_null(f);
	assert_non_null(fa);
	assert_int_equal(tick_status(fa, port, "?after=0", &body), 401);
	assert_non_null(strstr(body, "unauthorized"));
	free(body);
	const char *bad[] = {"?after=x", "?after=-1", "?after=1&wait=4001", "?wait=1e3",
			     "?after=99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(tick_status(f, port, bad[i], &body), 400);
		assert_non_null(strstr(body, "bad request"));
		free(body);
	}
	assert_int_equal(tick_status(f, port, "?after=0&wait=4000", &body), 200);
	free(body);
	assert_int_equal(tick_status(f, port, "?after=18446744073709551615&wait=0", &body), 204);
	free(body);
	fetch_free(f);
	fetch_free(fa);
	fetch_cfg_free(cfg);
	fetch_cfg_free(anon);
	kill(x, SIGTERM);
	testutil_reap(x, 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_equal_the_hosts),
		cmocka_unit_test(test_cgroup_cpu_rows_equal),
		cmocka_unit_test(test_recording_equals_the_host),
		cmocka_unit_test(test_header_is_the_hosts),
		cmocka_unit_test(test_killed_reads_stale),
		cmocka_unit_test(test_paused_host_no_repeat),
		cmocka_unit_test(test_bad_url_password_certificate),
		cmocka_unit_test(test_endpoint_queries),
		cmocka_unit_test(test_mutual_tls),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
