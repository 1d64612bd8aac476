/* pmutop --listen scraped by a real Prometheus (1 s scrape interval, a temporary TSDB):
 * an exact page-fault count reaches Prometheus, rate() of a steady workload agrees with
 * the batch output's per-second figure, promtool accepts a scrape, and hostile clients
 * get a 4xx or a closed connection while the next scrape still answers.
 *
 * The workloads are children of this program: one touches N fresh pages on command (one
 * fault per page, as in test_it_engine), one touches STEADY_PAGES pages every 10 ms. */
#include "testutil.h"

#include "cgroup.h"
#include "exporter.h"
#include "promacc.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXACT_PAGES 3000u
#define STEADY_PAGES 100
#define STEADY_PERIOD_NS 10000000L
#define WAIT_S 40.0
/* What valgrind's own bookkeeping adds to a round: 13 faults for 3000 pages, seen. */
#define TOOL_FAULTS (testutil_under_valgrind() ? 64 : 0)

static char tmpdir[] = "/tmp/pmutop-prom-XXXXXX";
static pid_t worker, steady, pmutop, prom, wide;
static int cmd_fd = -1, done_fd = -1;
static unsigned mport, pport, wport; /* wide: host-wide, the default event set */

/* The worker's own count of its page faults, as the kernel keeps it. */
static uint64_t faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

static uint64_t ready_faults;

static pid_t start_worker(void)
{
	int c[2], d[2];
	if (pipe(c) || pipe(d))
		return -1;
	pid_t p = fork();
	if (p == 0) {
		close(c[1]);
		close(d[0]);
		uint32_t n;
		testutil_touch_pages(3);
		uint64_t f = faults();
		if (write(d[1], &f, sizeof(f)) != sizeof(f))
			_exit(2);
		while (read(c[0], &n, sizeof(n)) == sizeof(n)) {
			testutil_touch_pages(n);
			f = faults();
			if (write(d[1], &f, sizeof(f)) != sizeof(f))
				_exit(2);
		}
		_exit(0);
	}
	close(c[0]);
	close(d[1]);
	cmd_fd = c[1];
	done_fd = d[0];
	/* One empty round first: the worker's first read() and write() fault in code and
	 * (under ASan) interceptor pages; those faults belong before the baseline. */
	uint32_t zero = 0;
	if (read(done_fd, &ready_faults, sizeof(ready_faults)) != sizeof(ready_faults) ||
	    write(cmd_fd, &zero, sizeof(zero)) != sizeof(zero))
		return -1;
	return read(done_fd, &ready_faults, sizeof(ready_faults)) == sizeof(ready_faults) ? p : -1;
}

static pid_t start_steady(void)
{
	pid_t p = fork();
	if (p == 0) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		for (;;) {
			testutil_touch_pages(STEADY_PAGES);
			t.tv_nsec += STEADY_PERIOD_NS;
			if (t.tv_nsec >= 1000000000L) {
				t.tv_nsec -= 1000000000L;
				t.tv_sec++;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		}
	}
	return p;
}

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

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Run a shell command (curl, promtool) and capture its output; returns its status. */
static int sh(const char *cmd, char *out, size_t cap)
{
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	size_t n = fread(out, 1, cap - 1, f);
	out[n] = '\0';
	return pclose(f);
}

/* The value of a PromQL instant query with one result, or NAN (none yet). */
static double query(const char *promql)
{
	static char out[1 << 16];
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 5 -G --data-urlencode 'query=%s' "
		 "http://127.0.0.1:%u/api/v1/query",
		 promql, pport);
	if (sh(cmd, out, sizeof(out)) != 0)
		return NAN;
	const char *v = strstr(out, "\"value\":[");
	if (!v || strstr(v + 1, "\"value\":["))
		return NAN;
	v = strstr(v, ",\"");
	return v ? strtod(v + 2, NULL) : NAN;
}

static int scrape(char *out, size_t cap)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 2 http://127.0.0.1:%u/metrics", mport);
	return sh(cmd, out, cap);
}

static void stop(pid_t *p, int sig)
{
	if (*p > 0) {
		kill(*p, sig);
		waitpid(*p, NULL, 0);
	}
	*p = 0;
}

static int teardown(void **state)
{
	(void)state;
	stop(&prom, SIGKILL);
	stop(&pmutop, SIGKILL);
	stop(&wide, SIGKILL);
	stop(&steady, SIGKILL);
	if (cmd_fd >= 0)
		close(cmd_fd);
	stop(&worker, SIGKILL);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(tmpdir) || access("/usr/bin/prometheus", X_OK) ||
	    access("/usr/bin/curl", X_OK))
		return -1;
	worker = start_worker();
	steady = start_steady();
	mport = testutil_free_port();
	pport = testutil_free_port();
	wport = testutil_free_port();
	if (worker <= 0 || steady <= 0 || !mport || !pport || !wport)
		return -1;
	char listen[32], pids[64], path[512], cfg[512], data[600], web[64], log[600];
	snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
	snprintf(pids, sizeof(pids), "%d,%d", (int)worker, (int)steady);
	snprintf(log, sizeof(log), "%s/pmutop.log", tmpdir);
	char *pa[] = {
		PMUTOP_BINARY, "--listen", listen, "-d", "0.5", "-e", "task-clock,page-faults",
		"-p",	       pids,	   NULL};
	pmutop = spawn(pa, log);
	/* Host-wide with the default set, as a user starts it: what the dashboard shows. */
	char wlisten[32];
	snprintf(wlisten, sizeof(wlisten), "127.0.0.1:%u", wport);
	snprintf(log, sizeof(log), "%s/wide.log", tmpdir);
	char *wa[] = {PMUTOP_BINARY, "--listen", wlisten, "-d", "0.5", NULL};
	wide = spawn(wa, log);
	snprintf(path, sizeof(path), "%s/prometheus.yml", tmpdir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f,
		"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
		"scrape_configs:\n  - job_name: pmutop\n    static_configs:\n"
		"      - targets: ['127.0.0.1:%u', '127.0.0.1:%u']\n",
		mport, wport);
	fclose(f);
	snprintf(cfg, sizeof(cfg), "--config.file=%s", path);
	snprintf(data, sizeof(data), "--storage.tsdb.path=%s/data", tmpdir);
	snprintf(web, sizeof(web), "--web.listen-address=127.0.0.1:%u", pport);
	snprintf(log, sizeof(log), "%s/prometheus.log", tmpdir);
	char *pr[] = {"/usr/bin/prometheus", cfg, data, web, NULL};
	prom = spawn(pr, log);
	if (pmutop <= 0 || prom <= 0 || wide <= 0)
		return -1;
	/* Serving before any test connects (a bound, not a timed assertion: twice the tests'
	 * own, for a machine loaded far beyond its CPUs). */
	static char out[1 << 20];
	for (double end = now() + 2 * WAIT_S; now() < end; usleep(100000))
		if (scrape(out, sizeof(out)) == 0)
			return 0;
	snprintf(path, sizeof(path), "cat %s/pmutop.log", tmpdir);
	sh(path, out, sizeof(out));
	int st = 0;
	pid_t gone = waitpid(pmutop, &st, WNOHANG);
	fprintf(stderr,
		"pmutop --listen %s not serving after %.0f s (%s, status %#x; ports: pmutop %u, "
		"the host-wide one %u, prometheus %u); its log: %s\n",
		listen, 2 * WAIT_S, gone == pmutop ? "exited" : "running", st, mport, wport, pport,
		out);
	if (gone == pmutop)
		pmutop = 0;
	return -1;
}

/* Waits for a query to reach want (NAN: any value); returns the last value read. */
static double wait_for(const char *promql, double want)
{
	double v = NAN, end = now() + WAIT_S;
	while (now() < end) {
		v = query(promql);
		if (!isnan(v) && (isnan(want) || v == want))
			break;
		usleep(250000);
	}
	return v;
}

static void test_exact_faults(void **state)
{
	(void)state;
	char q[256];
	snprintf(q, sizeof(q), "pmutop_process_events_total{event=\"page-faults\",pid=\"%d\"}",
		 (int)worker);
	/* Counted from pmutop's start, while the worker waits in read(): zero. */
	double v = wait_for(q, NAN);
	if (isnan(v))
		fail_msg("no series for the worker in Prometheus within %.0f s", WAIT_S);
	assert_true(v == 0);
	uint32_t n = EXACT_PAGES;
	uint64_t after;
	assert_int_equal(write(cmd_fd, &n, sizeof(n)), sizeof(n));
	assert_int_equal(read(done_fd, &after, sizeof(after)), sizeof(after));
	/* The kernel's own count (getrusage) for the worker since it was ready (pmutop
	 * attached after that). Under load (ctest -j2) it and the page-faults event have each
	 * been seen one over the round's pages: a fault retried or a code page faulted back
	 * in is counted by one and not the other. So: the truth within that slack, and what
	 * Prometheus stored exactly what pmutop served. */
	double truth = (double)(after - ready_faults);
	if (truth < EXACT_PAGES || truth > EXACT_PAGES + TOOL_FAULTS + 2)
		fail_msg("the worker faulted %.0f times for %u pages", truth, EXACT_PAGES);
	v = wait_for(q, truth);
	if (fabs(v - truth) > (testutil_under_valgrind() ? 8 : 2))
		fail_msg("Prometheus has %.0f page faults for the worker, want %.0f", v, truth);
	static char out[1 << 20];
	char want[128];
	assert_int_equal(scrape(out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "pmutop_process_events_total{pid=\"%d\",", (int)worker);
	const char *line = NULL;
	char *save = NULL;
	for (char *l = strtok_r(out, "\n", &save); l && !line; l = strtok_r(NULL, "\n", &save))
		if (strncmp(l, want, strlen(want)) == 0 && strstr(l, "event=\"page-faults\"} "))
			line = l;
	assert_non_null(line);
	double served = strtod(strstr(line, "} ") + 2, NULL);
	if (v != served)
		fail_msg("Prometheus has %.0f, pmutop serves %.0f", v, served);
}

/* Sum of value and of interval of the steady child's page-fault rows in batch CSV. */
static double batch_rate(void)
{
	static char out[1 << 20];
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "%s -b --format csv -d 1 -n 8 -e task-clock,page-faults -p %d",
		 PMUTOP_BINARY, (int)steady);
	assert_int_equal(sh(cmd, out, sizeof(out)), 0);
	double sum = 0, secs = 0;
	char *save = NULL;
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[14];
		int n = 0;
		for (char *p = l; n < 14; n++) {
			f[n] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (n < 9 || strcmp(f[3], "process") != 0 || strcmp(f[8], "page-faults") != 0 ||
		    strcmp(f[0], "1") == 0) /* the first block starts mid-period */
			continue;
		sum += strtod(f[9], NULL);
		secs += strtod(f[2], NULL);
	}
	assert_true(secs > 5);
	return sum / secs;
}

/* rate() over 40 s of 1 s scrapes of totals updated every 0.5 s: each end of the window
 * carries the exporter's last tick, up to half a tick off the scrape (1.3% of 40 s together),
 * a second under a loaded ASan run (2.5% an end), and a block of 1 s holds 100 +- 1 rounds
 * (1%); 8% leaves room for the scheduler on a shared VM. */
static void test_rate_matches_batch(void **state)
{
	(void)state;
	char q[256];
	snprintf(q, sizeof(q),
		 "rate(pmutop_process_events_total{event=\"page-faults\",pid=\"%d\"}[40s])",
		 (int)steady);
	/* 40 s of samples first. */
	double end = now() + 2 * WAIT_S;
	char cnt[256];
	snprintf(cnt, sizeof(cnt),
		 "count_over_time(pmutop_process_events_total{event=\"page-faults\",pid=\"%d\"}"
		 "[40s])",
		 (int)steady);
	while (now() < end && !(query(cnt) >= 38))
		usleep(500000);
	double b = batch_rate();
	double r = query(q);
	fprintf(stderr, "rate() %.1f/s, batch %.1f/s\n", r, b);
	if (isnan(r) || r < b * 0.92 || r > b * 1.08)
		fail_msg("rate() %.1f/s, batch %.1f/s", r, b);
}

static void test_promtool(void **state)
{
	(void)state;
	char cmd[256], out[4096];
	snprintf(cmd, sizeof(cmd),
		 "curl -s -f --max-time 2 http://127.0.0.1:%u/metrics | promtool check metrics "
		 "2>&1",
		 mport);
	int st = sh(cmd, out, sizeof(out));
	if (st != 0 || out[0])
		fail_msg("promtool: %s", out);
}

/* A connection to PORT from a loopback address of its own (127.0.0.N). */
static int connect_port(unsigned n, unsigned port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000000u | n)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&me, sizeof(me)), 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

static int connect_from(unsigned n)
{
	return connect_port(n, mport);
}

static int connect_to(void)
{
	return connect_from(1);
}

/* Send req, read what comes back within 10 s: a status line or the end. Returns the
 * status (0 for a closed connection). */
static int hostile(const char *req, size_t len)
{
	int fd = connect_to();
	size_t off = 0;
	while (off < len) {
		ssize_t w = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (w <= 0)
			break; /* the server closed it: fine */
		off += (size_t)w;
	}
	char buf[256] = "";
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int st = -1;
	if (poll(&p, 1, 10000) == 1) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		st = n <= 0 ? 0 : strncmp(buf, "HTTP/1.", 7) == 0 ? atoi(buf + 9) : -2;
	}
	close(fd);
	return st;
}

static void next_scrape_answers(void)
{
	static char out[1 << 20];
	assert_int_equal(scrape(out, sizeof(out)), 0); /* within curl's --max-time 2 */
	assert_non_null(strstr(out, "pmutop_build_info{"));
}

static void assert_4xx_or_closed(int st, const char *what)
{
	if (!(st == 0 || (st >= 400 && st < 500)))
		fail_msg("%s: got %d, want a 4xx or a closed connection", what, st);
	next_scrape_answers();
}

static void test_hostile_clients(void **state)
{
	(void)state;
	const char garbage[] = "\x01\x02 GARBAGE \xff\r\n\r\n";
	assert_4xx_or_closed(hostile(garbage, sizeof(garbage) - 1), "garbage request line");
	size_t big = 64 * 1024;
	char *h = malloc(big + 64);
	assert_non_null(h);
	int n = snprintf(h, 64, "GET /metrics HTTP/1.1\r\nX-Big: ");
	memset(h + n, 'a', big);
	memcpy(h + n + big, "\r\n\r\n", 4);
	assert_4xx_or_closed(hostile(h, (size_t)n + big + 4), "64 KiB header");
	free(h);
	const char post[] = "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc";
	int st = hostile(post, sizeof(post) - 1);
	assert_int_equal(st, 405);
	next_scrape_answers();
	const char trav[] = "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n";
	st = hostile(trav, sizeof(trav) - 1);
	assert_4xx_or_closed(st, "/../../etc/passwd");
	assert_int_not_equal(st, 0);
	/* 100 idle connections: at most 16 are kept, and the server closes each (at once past
	 * the limit, after 5 s idle otherwise): every one reads as closed within 15 s. */
	int fds[100];
	for (int i = 0; i < 100; i++)
		fds[i] = connect_to();
	for (int i = 0; i < 100; i++) {
		struct pollfd p = {.fd = fds[i], .events = POLLIN};
		char c;
		assert_int_equal(poll(&p, 1, 15000), 1);
		assert_true(recv(fds[i], &c, 1, 0) <= 0);
	}
	for (int i = 0; i < 100; i++)
		close(fds[i]);
	next_scrape_answers();
}

/* pmutop --listen 127.0.0.1:0 with more arguments, logging to NAME in tmpdir: its pid in
 * *p, and the port its start-up line names (0: none within WAIT_S). */
static unsigned start_listener(const char *name, char *const more[], pid_t *p)
{
	char log[600], cmd[700], out[4096];
	snprintf(log, sizeof(log), "%s/%s", tmpdir, name);
	char *argv[16] = {PMUTOP_BINARY, "--listen", "127.0.0.1:0", "-d", "0.5"};
	for (int i = 0; more[i] && i < 10; i++)
		argv[5 + i] = more[i];
	*p = spawn(argv, log);
	assert_true(*p > 0);
	snprintf(cmd, sizeof(cmd), "cat %s 2>/dev/null", log);
	const char *line = NULL;
	for (double end = now() + WAIT_S; !line && now() < end; usleep(100000)) {
		sh(cmd, out, sizeof(out));
		line = strstr(out, "listening on 127.0.0.1:");
	}
	if (!line)
		fprintf(stderr, "no 'listening on 127.0.0.1:PORT' within %.0f s: '%s'\n", WAIT_S,
			out);
	return line ? (unsigned)strtoul(line + strlen("listening on 127.0.0.1:"), NULL, 10) : 0;
}

/* --listen 0 binds a free port: the start-up line on stderr names it, and it serves. */
static void test_listening_line(void **state)
{
	(void)state;
	char cmd[700];
	static char body[1 << 20];
	char *none[] = {NULL};
	pid_t p;
	unsigned port = start_listener("port0.log", none, &p);
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 5 http://127.0.0.1:%u/metrics", port);
	int st = port ? sh(cmd, body, sizeof(body)) : -1;
	stop(&p, SIGTERM);
	assert_true(port > 0);
	assert_int_equal(st, 0);
	char log[4096];
	snprintf(cmd, sizeof(cmd), "cat %s/port0.log", tmpdir);
	sh(cmd, log, sizeof(log));
	assert_null(strstr(log, "warning")); /* loopback: nothing to warn about */
	assert_non_null(strstr(body, "pmutop_build_info{"));
}

static unsigned count_fds(pid_t p)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)p);
	DIR *d = opendir(path);
	unsigned n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

#define SPARE_FDS 4

/* Out of descriptors, idle connections do not keep a scrape out: with SPARE_FDS left
 * under its limit and 30 idle connections queued beyond them, the scrape is answered
 * within curl's 10 s. Waiting for idle ones to time out takes longer than that (the
 * queue moves SPARE_FDS connections a head deadline, 3 s: about 22 s for 30); the time
 * alone is no test (a loaded machine or memcheck takes seconds for popen and curl). */
static void test_out_of_descriptors(void **state)
{
	(void)state;
	char pid[16], cmd[256];
	static char body[1 << 20];
	snprintf(pid, sizeof(pid), "%d", (int)worker);
	char *more[] = {"-e", "task-clock", "-p", pid, NULL};
	pid_t p;
	unsigned port = start_listener("nofile.log", more, &p);
	assert_true(port > 0);
	usleep(1000000); /* a few ticks: what it holds settles (not a timed assertion) */
	struct rlimit rl;
	assert_int_equal(prlimit(p, RLIMIT_NOFILE, NULL, &rl), 0);
	rl.rlim_cur = count_fds(p) + SPARE_FDS;
	assert_int_equal(prlimit(p, RLIMIT_NOFILE, &rl, NULL), 0);
	int idle[30];
	for (int i = 0; i < 30; i++)
		idle[i] = connect_port(1, port);
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 10 http://127.0.0.1:%u/metrics", port);
	double start = now();
	int st = sh(cmd, body, sizeof(body));
	double end = now();
	fprintf(stderr, "scrape with %d descriptors left and 30 idle connections: %.3f s\n",
		SPARE_FDS, end - start);
	for (int i = 0; i < 30; i++)
		close(idle[i]);
	stop(&p, SIGTERM);
	if (st != 0)
		fail_msg("the scrape failed (%d) after %.1f s: it waited for idle connections "
			 "to time out",
			 st, end - start);
	assert_non_null(strstr(body, "pmutop_build_info{"));
}

/* HTTP/1.1 requires Host (RFC 9112 3.2): without it, 400; HTTP/1.0 may leave it out. */
static void test_host_required(void **state)
{
	(void)state;
	const char nohost[] = "GET /metrics HTTP/1.1\r\n\r\n";
	assert_int_equal(hostile(nohost, sizeof(nohost) - 1), 400);
	const char old[] = "GET /metrics HTTP/1.0\r\n\r\n";
	assert_int_equal(hostile(old, sizeof(old) - 1), 200);
	next_scrape_answers();
}

struct timed_scrape {
	int status;
	double start, end;
};

static void timed_scrape(struct timed_scrape *t)
{
	static char out[1 << 20];
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 20 http://127.0.0.1:%u/metrics", mport);
	t->start = now();
	t->status = sh(cmd, out, sizeof(out));
	if (!strstr(out, "pmutop_build_info{"))
		t->status = -1;
	t->end = now();
}

/* Whether the server has closed fd (EOF or reset), without waiting. */
static bool closed_by_server(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char c;
	return poll(&p, 1, 0) == 1 && recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

#define SLOW 16
#define IDLE 100

/* 16 slow-loris clients (a header byte a second, from 127.0.0.2) and 100 idle ones from
 * the scraper's own address do not keep a scrape out: it is answered while idle ones
 * still hold their slots (it did not wait for the deadline to free one), at most
 * EXPORTER_PER_ADDRESS idle ones are still open then, and every slow one is closed
 * although it never stops sending. */
static void test_slow_and_idle_clients(void **state)
{
	(void)state;
	int slow[SLOW], idle[IDLE];
	double closed_at[SLOW] = {0};
	struct timed_scrape alone, t;
	timed_scrape(&alone); /* for the log: the same scrape with nobody else there */
	double start = now();
	const char head[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ";
	for (int i = 0; i < SLOW; i++) {
		slow[i] = connect_from(2);
		assert_int_equal(send(slow[i], head, sizeof(head) - 1, MSG_NOSIGNAL),
				 (ssize_t)sizeof(head) - 1);
	}
	for (int i = 0; i < IDLE; i++)
		idle[i] = connect_from(1);
	timed_scrape(&t);
	unsigned idle_open = 0;
	for (int i = 0; i < IDLE; i++)
		idle_open += !closed_by_server(idle[i]);
	unsigned open = SLOW;
	double first_closed = 0, end = now() + WAIT_S;
	while (open > 0 && now() < end) {
		for (int i = 0; i < SLOW; i++) {
			if (closed_at[i] > 0)
				continue;
			if (closed_by_server(slow[i]) ||
			    send(slow[i], "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
				closed_at[i] = now();
				if (first_closed == 0)
					first_closed = closed_at[i];
				open--;
			}
		}
		usleep(1000000);
	}
	double last_closed = 0;
	for (int i = 0; i < SLOW; i++)
		last_closed = closed_at[i] > last_closed ? closed_at[i] : last_closed;
	fprintf(stderr,
		"scrape alone %.3f s, beside %d slow and %d idle clients %.3f s (%u idle ones "
		"open then); slow ones closed %.1f-%.1f s after they connected (fed a byte a "
		"second), %u open\n",
		alone.end - alone.start, SLOW, IDLE, t.end - t.start, idle_open,
		first_closed - start, last_closed - start, open);
	for (int i = 0; i < SLOW; i++)
		close(slow[i]);
	for (int i = 0; i < IDLE; i++) {
		struct pollfd p = {.fd = idle[i], .events = POLLIN};
		char c;
		assert_int_equal(poll(&p, 1, 15000), 1);
		assert_true(recv(idle[i], &c, 1, 0) <= 0);
		close(idle[i]);
	}
	if (t.status != 0)
		fail_msg("the scrape failed (%d) after %.1f s", t.status, t.end - t.start);
	/* Idle ones from the scraper's address still open when its answer came: it was let
	 * in beside them. None open and longer than their deadline: it waited until the
	 * deadline cut them. (Only the two together: on a loaded machine curl alone may take
	 * longer than the deadline, 3.9 s seen with 12 idle ones still open.) */
	if (idle_open == 0 && t.end - t.start >= EXPORTER_HEAD_SECONDS)
		fail_msg("the scrape took %.1f s, a deadline for a request head, and no idle "
			 "connection was open after it: it waited for a slot",
			 t.end - t.start);
	if (idle_open > EXPORTER_PER_ADDRESS)
		fail_msg("%u idle connections from one address open, the cap is %d", idle_open,
			 EXPORTER_PER_ADDRESS);
	if (open > 0)
		fail_msg("%u slow clients still open after %.0f s", open, WAIT_S);
	next_scrape_answers();
}

#define FLOOD 1500

/* A flood of idle connections (1,500 from one address, none sending a byte) neither
 * stops the exporter nor its end: a scrape is answered in the middle of it and after it,
 * and SIGTERM still ends the run (test_sigterm_exits_0). The gate gave up connections the
 * server had not claimed yet and let their entries go, so the server came to hold more
 * than its own limit, where libmicrohttpd 0.9.75 locked itself: /metrics never answered
 * again and the exit waited for it for ever. */
static void test_idle_flood(void **state)
{
	(void)state;
	static int fds[FLOOD];
	for (int i = 0; i < FLOOD; i++)
		fds[i] = connect_from(1);
	struct timed_scrape t;
	timed_scrape(&t);
	for (int i = 0; i < FLOOD; i++)
		close(fds[i]);
	if (t.status != 0)
		fail_msg("a scrape among %d idle connections failed (%d) after %.1f s", FLOOD,
			 t.status, t.end - t.start);
	timed_scrape(&t);
	if (t.status != 0)
		fail_msg("a scrape after %d idle connections failed (%d) after %.1f s", FLOOD,
			 t.status, t.end - t.start);
}

/* The status line of a GET /metrics to port on 127.0.0.1 (0: closed, -1: none in 10 s). */
static int get_status(unsigned port)
{
	int fd = connect_port(1, port);
	const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
	assert_int_equal(send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL), (ssize_t)sizeof(req) - 1);
	char buf[64] = "";
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int st = -1;
	if (poll(&p, 1, 10000) == 1) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		st = n <= 0 ? 0 : strncmp(buf, "HTTP/1.", 7) == 0 ? atoi(buf + 9) : -2;
	}
	close(fd);
	return st;
}

/* From the first request on, before any tick (the engine starting), a scrape gets
 * pmutop's own facts (version, start time) with 200: neither a 503 nor an empty body
 * that reads as a target without series, and no count that was not taken. */
static void test_facts_before_first_tick(void **state)
{
	(void)state;
	char err[256], cmd[256];
	static char body[1 << 16];
	struct exporter *x = exporter_new("127.0.0.1:0", NULL, err, sizeof(err));
	if (!x)
		fail_msg("%s", err);
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 5 http://127.0.0.1:%u/metrics",
		 exporter_port(x));
	assert_int_equal(sh(cmd, body, sizeof(body)), 0);
	assert_non_null(strstr(body, "pmutop_build_info{version=\""));
	const char *st = strstr(body, "\npmutop_start_time_seconds ");
	assert_non_null(st);
	double t = strtod(st + strlen("\npmutop_start_time_seconds "), NULL);
	assert_true(fabs(t - (double)time(NULL)) < 3600);
	assert_null(strstr(body, "pmutop_tasks"));
	assert_null(strstr(body, "_total{"));
	struct promacc_opts o = {.top = 10};
	struct promacc *a = promacc_new(&o);
	assert_non_null(a);
	struct promtext_info in = {.version = "test", .ticked = true};
	assert_int_equal(exporter_publish(x, a, &in), 0);
	assert_int_equal(get_status(exporter_port(x)), 200);
	assert_int_equal(sh(cmd, body, sizeof(body)), 0);
	assert_non_null(strstr(body, "pmutop_tasks 0"));
	promacc_free(a);
	exporter_free(x);
}

/* One response from fd: its status (0: closed first, -1: none within 10 s), its head in
 * head, its Content-Length body read and dropped. */
static int read_response(int fd, char *head, size_t cap)
{
	size_t n = 0;
	char *end = NULL;
	head[0] = '\0';
	while (!end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (n + 1 >= cap || poll(&p, 1, 10000) != 1)
			return -1;
		ssize_t r = recv(fd, head + n, cap - 1 - n, 0);
		if (r <= 0)
			return 0;
		n += (size_t)r;
		head[n] = '\0';
		end = strstr(head, "\r\n\r\n");
	}
	const char *cl = strcasestr(head, "\r\nContent-Length: ");
	if (!cl)
		return -1;
	size_t body = strtoul(cl + strlen("\r\nContent-Length: "), NULL, 10);
	size_t have = n - (size_t)(end + 4 - head);
	static char sink[1 << 16];
	while (have < body) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		ssize_t r = poll(&p, 1, 10000) == 1 ? recv(fd, sink, sizeof(sink), 0) : -1;
		if (r <= 0)
			return -1;
		have += (size_t)r;
	}
	end[2] = '\0'; /* the head, its last CRLF kept */
	return strncmp(head, "HTTP/1.1 ", 9) == 0 ? atoi(head + 9) : -1;
}

#define KEEPALIVE_S 2

/* A scraper's connection is kept alive: two requests on one socket both answered (no
 * Connection: close), and curl with two URLs connects once; idle, the connection is
 * closed after the keep-alive time, not before. */
static void test_keepalive(void **state)
{
	(void)state;
	char err[256], head[8192], cmd[512], out[256];
	struct exporter *x = exporter_new("127.0.0.1:0", NULL, err, sizeof(err));
	if (!x)
		fail_msg("%s", err);
	exporter_set_keepalive(x, KEEPALIVE_S);
	unsigned port = exporter_port(x);
	int fd = connect_port(1, port);
	const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
	double sent = 0;
	for (int i = 0; i < 2; i++) {
		sent = now();
		assert_int_equal(send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL),
				 (ssize_t)sizeof(req) - 1);
		int st = read_response(fd, head, sizeof(head));
		if (st != 200 || strcasestr(head, "Connection: close"))
			fail_msg("request %d on one connection: %d, head:\n%s", i + 1, st, head);
	}
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char c;
	bool closed = poll(&p, 1, 60000) == 1 && recv(fd, &c, 1, 0) <= 0;
	double idle = now() - sent;
	close(fd);
	fprintf(stderr, "kept alive %.2f s after the last request (keep-alive %d s)\n", idle,
		KEEPALIVE_S);
	assert_true(closed);
	assert_true(idle >= KEEPALIVE_S); /* counted from after the request was sent */
	snprintf(cmd, sizeof(cmd),
		 "curl -s -f --max-time 10 -o /dev/null -o /dev/null -w '%%{num_connects} ' "
		 "http://127.0.0.1:%u/metrics http://127.0.0.1:%u/",
		 port, port);
	assert_int_equal(sh(cmd, out, sizeof(out)), 0);
	assert_string_equal(out, "1 0 ");
	exporter_free(x);
}

/* gzip when the client accepts it (the same text, a fraction of the bytes), plain when
 * it does not; a landing page at / that links /metrics. */
static void test_gzip_and_landing(void **state)
{
	(void)state;
	char cmd[512];
	static char plain[1 << 20], gz[1 << 20], hdr[4096];
	snprintf(cmd, sizeof(cmd),
		 "curl -s -f --max-time 5 -D - -o /dev/null -H 'Accept-Encoding: gzip' "
		 "http://127.0.0.1:%u/metrics",
		 mport);
	assert_int_equal(sh(cmd, hdr, sizeof(hdr)), 0);
	assert_non_null(strcasestr(hdr, "\nContent-Encoding: gzip\r\n"));
	assert_non_null(strcasestr(hdr, "\nVary: Accept-Encoding\r\n"));
	snprintf(cmd, sizeof(cmd),
		 "curl -s -f --max-time 5 -D - -o /dev/null http://127.0.0.1:%u/metrics", mport);
	assert_int_equal(sh(cmd, hdr, sizeof(hdr)), 0);
	assert_null(strcasestr(hdr, "Content-Encoding"));
	/* One exposition's two forms: the bytes on the wire, and gunzip's text. */
	snprintf(cmd, sizeof(cmd),
		 "curl -s -f --max-time 5 -H 'Accept-Encoding: gzip' -D %s/gz.hdr "
		 "http://127.0.0.1:%u/metrics > %s/m.gz && wc -c < %s/m.gz && gunzip -c %s/m.gz",
		 tmpdir, mport, tmpdir, tmpdir, tmpdir);
	assert_int_equal(sh(cmd, gz, sizeof(gz)), 0);
	long zbytes = strtol(gz, NULL, 10);
	const char *text = strchr(gz, '\n');
	assert_non_null(text);
	assert_non_null(strstr(text, "pmutop_build_info{"));
	assert_non_null(strstr(text, "pmutop_process_events_total{"));
	size_t tlen = strlen(text + 1);
	fprintf(stderr, "exposition %zu bytes, gzip %ld bytes\n", tlen, zbytes);
	assert_true(zbytes > 0 && (size_t)zbytes * 3 < tlen);
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 5 http://127.0.0.1:%u/", mport);
	assert_int_equal(sh(cmd, plain, sizeof(plain)), 0);
	assert_non_null(strstr(plain, "<a href=\"/metrics\">"));
}

/* Whether a PromQL query has at least one result (-1: Prometheus did not answer). */
static int has_data(const char *promql)
{
	static char out[1 << 20];
	char path[600];
	snprintf(path, sizeof(path), "%s/query", tmpdir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(promql, f);
	fclose(f);
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "curl -s --max-time 10 -G --data-urlencode query@%s "
		 "http://127.0.0.1:%u/api/v1/query",
		 path, pport);
	if (sh(cmd, out, sizeof(out)) != 0 || !strstr(out, "\"status\":\"success\""))
		return -1;
	return strstr(out, "\"result\":[]") == NULL;
}

/* A JSON string's text (at p, after its opening quote) into out, Grafana's variables
 * given values: $instance any, $__rate_interval 20 s (20 scrapes). */
static void json_expr(const char *p, char *out, size_t cap)
{
	size_t n = 0;
	for (; *p && *p != '"' && n + 20 < cap; p++) {
		if (*p == '\\')
			p++;
		if (!strncmp(p, "$__rate_interval", 16)) {
			n += (size_t)snprintf(out + n, cap - n, "20s");
			p += 15;
		} else if (!strncmp(p, "$instance", 9)) {
			n += (size_t)snprintf(out + n, cap - n, ".*");
			p += 8;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
}

/* Every query of contrib/grafana-pmutop.json returns data from Prometheus scraping pmutop
 * with its default set (host-wide), except one that only selects events pmutop says it
 * cannot count here (no PMU on this VM: then pmutop_event_unavailable_info names them,
 * and the dashboard's own table shows why). */
static void test_dashboard_queries(void **state)
{
	(void)state;
	char *dash = testutil_slurp(PMUTOP_SOURCE_DIR "/contrib/grafana-pmutop.json");
	assert_non_null(dash);
	assert_non_null(strstr(dash, "\"name\": \"instance\""));
	/* 20 s of samples for rate() over 20 s. */
	double end = now() + 2 * WAIT_S;
	char cnt[256];
	snprintf(cnt, sizeof(cnt),
		 "count_over_time(pmutop_build_info{instance=\"127.0.0.1:%u\"}[20s])", wport);
	while (now() < end && !(query(cnt) >= 18))
		usleep(500000);
	unsigned n = 0, with_data = 0;
	static char expr[8192];
	for (const char *p = strstr(dash, "\"expr\": \""); p; p = strstr(p + 1, "\"expr\": \"")) {
		json_expr(p + 9, expr, sizeof(expr));
		n++;
		/* Every event it selects n/a here: it must be empty (no sample of an event that
		 * cannot be counted), the dashboard's table saying why. */
		unsigned nev = 0, nna = 0;
		for (const char *e = strstr(expr, "event=\""); e; e = strstr(e + 1, "event=\"")) {
			char ev[128], q[256];
			size_t k = strcspn(e + 7, "\"");
			snprintf(ev, sizeof(ev), "%.*s", (int)(k < 127 ? k : 127), e + 7);
			snprintf(q, sizeof(q), "pmutop_event_unavailable_info{event=\"%s\"}", ev);
			nev++;
			nna += has_data(q) == 1;
		}
		if (nev && nna == nev) {
			assert_int_equal(has_data(expr), 0);
			fprintf(stderr, "no data here, its events n/a: %.70s...\n", expr);
			continue;
		}
		int d = -1;
		for (double e2 = now() + WAIT_S; now() < e2 && (d = has_data(expr)) != 1;)
			usleep(500000);
		if (d != 1)
			fail_msg("no data for the dashboard's query %s", expr);
		with_data++;
	}
	free(dash);
	fprintf(stderr, "dashboard: %u queries, %u with data\n", n, with_data);
	assert_true(n >= 8);
	assert_true(with_data >= 5); /* the software and cgroup panels and the event set */
	/* The instance variable's query. */
	assert_int_equal(has_data("pmutop_build_info"), 1);
}

#define CHURN_JOBS 150
#define CHURN_PAGES 50
#define MAX_SERIES 4096

/* The churn: CHURN_JOBS short-lived processes one after another, each a new pid named
 * churnjob that faults CHURN_PAGES pages and exits; writes the kernel's count of their
 * faults, from fork to exit (getrusage of the reaped children), to out when done. */
static void churn(int go, int out)
{
	char c;
	prctl(PR_SET_NAME, "churner");
	if (read(go, &c, 1) != 1)
		_exit(1);
	for (int i = 0; i < CHURN_JOBS; i++) {
		pid_t j = fork();
		if (j == 0) {
			prctl(PR_SET_NAME, "churnjob");
			testutil_touch_pages(CHURN_PAGES);
			_exit(0);
		}
		if (j < 0 || waitpid(j, NULL, 0) != j)
			_exit(1);
		usleep(20000);
	}
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	uint64_t truth = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
	_exit(write(out, &truth, sizeof(truth)) == sizeof(truth) ? 0 : 1);
}

static char *series[MAX_SERIES];
static unsigned nseries;

/* Remember a series (its name and labels) once. */
static void seen_series(const char *s, size_t n)
{
	for (unsigned i = 0; i < nseries; i++)
		if (strlen(series[i]) == n && !memcmp(series[i], s, n))
			return;
	if (nseries < MAX_SERIES)
		series[nseries++] = strndup(s, n);
}

/* Processes that come and go (CHURN_JOBS distinct pids in a cgroup of their own) make a
 * bounded set of series: over the whole run, the cgroup's command series are churnjob's
 * and churner's, no series has a pid, and churnjob's page faults only grow, every exited
 * job folded in, to what the jobs counted themselves. */
static void test_churn_bounded(void **state)
{
	(void)state;
	char mnt[512], rel[64], dir[600], label[128], want[256], parent[256], cmd[256];
	if (cgroup_mount("", mnt, sizeof(mnt)) != 0)
		fail_msg("no cgroup2 mount");
	snprintf(rel, sizeof(rel), "/pmutop-churn-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(label, sizeof(label), "cgroup=\"%s\"", rel);
	snprintf(want, sizeof(want),
		 "pmutop_command_events_total{%s,comm=\"churnjob\",event=\"page-faults\"} ", label);
	snprintf(parent, sizeof(parent),
		 "pmutop_command_events_total{%s,comm=\"churner\",event=\"page-faults\"} ", label);
	char *more[] = {"--backend", "bpf", "-e", "task-clock,page-faults", NULL};
	pid_t p;
	unsigned port = start_listener("churn.log", more, &p);
	assert_true(port > 0);
	int go[2], res[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(res), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(go[1]);
		close(res[0]);
		churn(go[0], res[1]);
	}
	close(go[0]);
	close(res[1]);
	testutil_cgroup_enter(dir, c);
	fcntl(res[0], F_SETFL, O_NONBLOCK);
	assert_int_equal(write(go[1], "g", 1), 1);
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 5 http://127.0.0.1:%u/metrics", port);
	static char body[1 << 22];
	double last = -1, churner = 0, end = now() + 4 * WAIT_S;
	uint64_t truth = 0;
	bool done = false, down = false;
	unsigned scrapes = 0, settled = 0;
	while (now() < end && settled < 3) {
		if (sh(cmd, body, sizeof(body)) != 0)
			continue;
		scrapes++;
		double v = -1;
		char *save = NULL;
		for (char *l = strtok_r(body, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *close_b = strchr(l, '}');
			if (!close_b || strncmp(l, "pmutop_", 7) || !strstr(l, label))
				continue;
			if (strstr(l, "_command_") || strstr(l, "_process_"))
				seen_series(l, (size_t)(close_b - l + 1));
			if (!strncmp(l, want, strlen(want)))
				v = strtod(l + strlen(want), NULL);
			if (!strncmp(l, parent, strlen(parent)))
				churner = strtod(l + strlen(parent), NULL);
		}
		down |= v < last;
		/* After the churn ends: until churnjob's count has stopped moving. */
		settled = done && v == last && v >= 0 ? settled + 1 : 0;
		last = v;
		if (!done && read(res[0], &truth, sizeof(truth)) == sizeof(truth))
			done = true;
		usleep(250000);
	}
	waitpid(c, NULL, 0);
	stop(&p, SIGTERM);
	rmdir(dir);
	unsigned pids = 0, jobs = 0;
	for (unsigned i = 0; i < nseries; i++) {
		pids += strstr(series[i], "pid=\"") != NULL;
		jobs += strstr(series[i], "comm=\"churnjob\"") != NULL;
	}
	fprintf(stderr,
		"%d short-lived pids: %u distinct series in their cgroup over %u scrapes "
		"(%u per pid, %u churnjob's); page faults: churnjob %.0f, churner %.0f, the "
		"kernel's count of the jobs' %llu\n",
		CHURN_JOBS, nseries, scrapes, pids, jobs, last, churner, (unsigned long long)truth);
	for (unsigned i = 0; i < nseries; i++)
		free(series[i]);
	assert_true(done);
	assert_false(down);
	assert_int_equal(pids, 0);
	/* churnjob and churner, each: page-faults, task-clock, and both events' enabled and
	 * running seconds. */
	assert_true(jobs == 6);
	assert_true(nseries <= 12);
	/* The jobs' faults are in the cgroup's two commands (a job's first faults, before it
	 * is named churnjob, are churner's, with churner's own few): exited jobs folded in,
	 * where a command holding only its live processes would have one job's 80 or so.
	 * Not to the fault: what the bpf backend cannot attribute to a task (a stretch no
	 * switch showed) is the unattributed row's (README), seen here up to 3.7% under
	 * load; test_it_bpf holds the exact count. */
	if (last > (double)truth || last + churner < 0.9 * (double)truth)
		fail_msg("page faults: churnjob %.0f, churner %.0f, the kernel counted %llu for "
			 "the jobs",
			 last, churner, (unsigned long long)truth);
}

/* Beyond loopback without TLS, one line of warning after the listening line; :PORT is
 * every address, IPv4 and IPv6 alike. In a network namespace of its own (unshare -n: only
 * its own loopback, so nothing is exposed); skipped where one cannot be made. */
static void test_beyond_loopback(void **state)
{
	(void)state;
	static char out[1 << 16];
	if (system("unshare -n true 2>/dev/null") != 0)
		skip();
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
		 "unshare -n sh -c 'ip link set lo up; ok=0; "
		 "%s --listen %s -b -q -d 0.2 %s 2>%s/wide.err & p=$!; "
		 "for i in $(seq 200); do curl -s -f --max-time 2 http%s://127.0.0.1:9465/metrics "
		 "%s >/dev/null && curl -s -f -g --max-time 2 http%s://[::1]:9465/metrics %s "
		 ">/dev/null && ok=1 && break; sleep 0.1; done; kill $p; wait $p; echo ok=$ok'",
		 PMUTOP_BINARY, ":9465", "", tmpdir, "", "", "", "");
	assert_int_equal(sh(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "ok=1")); /* served on 127.0.0.1 and ::1 */
	char errf[600], text[4096];
	snprintf(errf, sizeof(errf), "cat %s/wide.err", tmpdir);
	sh(errf, text, sizeof(text));
	fprintf(stderr, "--listen :9465 said: %s", text);
	const char *l = strstr(text, "pmutop: listening on [::]:9465\n");
	assert_non_null(l);
	const char *w = l + strlen("pmutop: listening on [::]:9465\n");
	assert_true(!strncmp(w,
			     "pmutop: warning: [::]:9465 is reachable from other machines "
			     "over plain HTTP",
			     strlen("pmutop: warning: [::]:9465 is reachable from other machines "
				    "over plain HTTP")));
	assert_null(strchr(strchr(w, '\n') + 1, '\n')); /* one line */
	/* With TLS: no warning. */
	char tls[700];
	snprintf(tls, sizeof(tls), "--web-config %s/tests/fixtures/webconfig/tls.yml",
		 PMUTOP_SOURCE_DIR);
	snprintf(cmd, sizeof(cmd),
		 "unshare -n sh -c 'ip link set lo up; ok=0; "
		 "%s --listen %s -b -q -d 0.2 %s 2>%s/wide.err & p=$!; "
		 "for i in $(seq 200); do curl -s -f --max-time 2 http%s://127.0.0.1:9465/metrics "
		 "%s >/dev/null && ok=1 && break; sleep 0.1; done; kill $p; wait $p; echo ok=$ok'",
		 PMUTOP_BINARY, "0.0.0.0:9465", tls, tmpdir, "s", "-k");
	assert_int_equal(sh(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "ok=1"));
	sh(errf, text, sizeof(text));
	assert_non_null(strstr(text, "pmutop: listening on 0.0.0.0:9465\n"));
	assert_null(strstr(text, "warning"));
}

static void test_sigterm_exits_0(void **state)
{
	(void)state;
	int st;
	kill(pmutop, SIGTERM);
	assert_int_equal(waitpid(pmutop, &st, 0), pmutop);
	pmutop = 0;
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	/* PMUTOP_TEST_ONLY=test_hostile* runs a few (cmocka's pattern) while working on them. */
	if (getenv("PMUTOP_TEST_ONLY"))
		cmocka_set_test_filter(getenv("PMUTOP_TEST_ONLY"));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_faults),
		cmocka_unit_test(test_promtool),
		cmocka_unit_test(test_rate_matches_batch),
		cmocka_unit_test(test_hostile_clients),
		cmocka_unit_test(test_host_required),
		cmocka_unit_test(test_slow_and_idle_clients),
		cmocka_unit_test(test_idle_flood),
		cmocka_unit_test(test_listening_line),
		cmocka_unit_test(test_beyond_loopback),
		cmocka_unit_test(test_out_of_descriptors),
		cmocka_unit_test(test_facts_before_first_tick),
		cmocka_unit_test(test_keepalive),
		cmocka_unit_test(test_gzip_and_landing),
		cmocka_unit_test(test_dashboard_queries),
		cmocka_unit_test(test_churn_bounded),
		cmocka_unit_test(test_sigterm_exits_0),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
