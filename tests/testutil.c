/* Helpers shared by the cmocka programs. */
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A program started as a background job of a script (`make test &`, a CI runner's
 * `sh -c '... &'`) inherits SIGINT and SIGQUIT ignored, and so would every pmutop a test
 * starts: pmutop keeps an inherited SIG_IGN, as a background job must, and the tests'
 * SIGINT would be lost. The tests' own children get them back as the terminal gives
 * them. */
__attribute__((constructor)) static void testutil_default_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
}

const char *testutil_path(const char *rel)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf), "%s/tests/%s", PMUTOP_SOURCE_DIR, rel);
	return buf;
}

/* Read what is there; returns false at end of file. Keeps the first cap-1 bytes. */
static int drain(int fd, char *buf, size_t cap, size_t *len)
{
	char tmp[4096];
	ssize_t r = read(fd, tmp, sizeof(tmp));
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	if (buf && cap && *len + 1 < cap) {
		size_t n = (size_t)r;
		if (n > cap - 1 - *len)
			n = cap - 1 - *len;
		memcpy(buf + *len, tmp, n);
		*len += n;
		buf[*len] = '\0';
	}
	return 1;
}

int testutil_run(char *const argv[], char *out, size_t cap, char *err, size_t errcap)
{
	int po[2], pe[2];
	if (pipe(po) < 0 || pipe(pe) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(po[1]);
		close(pe[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	size_t len[2] = {0, 0};
	char *bufs[2] = {out, err};
	size_t caps[2] = {cap, errcap};
	for (int i = 0; i < 2; i++)
		if (bufs[i] && caps[i])
			bufs[i][0] = '\0';
	struct pollfd p[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain(p[i].fd, bufs[i], caps[i], &len[i])) {
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return st;
}

bool testutil_under_valgrind(void)
{
	const char *v = getenv("PMUTOP_TEST_VALGRIND");
	return v && *v && strcmp(v, "0") != 0;
}

__attribute__((no_sanitize_address)) void testutil_touch_pages(uint32_t n)
{
	if (n == 0)
		return;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)n * pg;
	long a = syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	if (a == -1)
		_exit(3);
	volatile char *p = (volatile char *)a;
	syscall(SYS_madvise, a, len, MADV_NOHUGEPAGE); /* one fault per page */
	for (uint32_t i = 0; i < n; i++)
		p[(size_t)i * pg] = 1;
	syscall(SYS_munmap, a, len);
}

double testutil_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

bool testutil_blocked_in(pid_t pid, pid_t tid, long nr)
{
	char path[64], buf[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool got = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	return got && buf[0] != 'r' && (nr < 0 ? atol(buf) >= 0 : atol(buf) == nr);
}

bool testutil_wait_blocked_in(pid_t pid, pid_t tid, long nr, double deadline_s)
{
	for (double end = testutil_now() + deadline_s; testutil_now() < end; usleep(1000))
		if (testutil_blocked_in(pid, tid, nr))
			return true;
	return testutil_blocked_in(pid, tid, nr);
}

int testutil_tasks(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	int n = 0;
	for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

bool testutil_wait_tasks(pid_t pid, int n, double deadline_s)
{
	for (double end = testutil_now() + deadline_s; testutil_now() < end; testutil_nap_ms(5))
		if (testutil_tasks(pid) >= n)
			return true;
	return testutil_tasks(pid) >= n;
}

void testutil_nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

pid_t testutil_spawn(char *const argv[], const char *out, const char *err)
{
	pid_t p = fork();
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0)
			_exit(126);
		dup2(o, 1);
		dup2(e, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

int testutil_teardown(pid_t p, const char *dir)
{
	if (p > 0) {
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
	}
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int testutil_reap(pid_t p, double deadline_s)
{
	int st;
	double end = testutil_now() + deadline_s;
	for (;;) {
		pid_t r = waitpid(p, &st, WNOHANG);
		if (r == p)
			return st;
		if (r < 0)
			return -1;
		if (testutil_now() > end) {
			kill(p, SIGKILL);
			waitpid(p, &st, 0);
			return -1;
		}
		testutil_nap_ms(20);
	}
}

char *testutil_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return strdup("");
	size_t cap = 1 << 16, n = 0, r;
	char *s = malloc(cap);
	while (s && (r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			char *t = realloc(s, cap * 2);
			if (!t) {
				free(s);
				s = NULL;
				break;
			}
			s = t;
			cap *= 2;
		}
	}
	fclose(f);
	if (s)
		s[n] = '\0';
	return s;
}

long testutil_csv_ticks(const char *path)
{
	char *csv = testutil_slurp(path);
	long t = 0;
	for (char *l = csv; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (isdigit((unsigned char)*l)) {
			long k = strtol(l, NULL, 10);
			t = k > t ? k : t;
		}
	free(csv);
	return t;
}

bool testutil_wait_tick(pid_t p, const char *path, long n, double deadline_s)
{
	double end = testutil_now() + deadline_s;
	while (testutil_csv_ticks(path) < n) {
		if (testutil_now() > end || waitpid(p, NULL, WNOHANG) != 0)
			return false;
		testutil_nap_ms(20);
	}
	return true;
}

static bool perf_cmd(struct testutil_perf *p, const char *cmd, double deadline_s)
{
	if (write(p->ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return false;
	struct pollfd pf = {.fd = p->ack, .events = POLLIN};
	char buf[16];
	if (poll(&pf, 1, (int)(deadline_s * 1000)) != 1)
		return false;
	return read(p->ack, buf, sizeof(buf)) > 0;
}

bool testutil_perf_start(struct testutil_perf *p, const char *dir, const char *events,
			 const char *const extra[], double deadline_s)
{
	static int n;
	char ctl[600], ack[600], control[1300], outfile[600];
	int k = n++;
	snprintf(ctl, sizeof(ctl), "%s/perf%d.ctl", dir, k);
	snprintf(ack, sizeof(ack), "%s/perf%d.ack", dir, k);
	snprintf(outfile, sizeof(outfile), "%s/perf%d.stdout", dir, k);
	snprintf(p->out, sizeof(p->out), "%s/perf%d.out", dir, k);
	p->ctl = p->ack = -1;
	if (mkfifo(ctl, 0600) != 0 || mkfifo(ack, 0600) != 0)
		return false;
	snprintf(control, sizeof(control), "fifo:%s,%s", ctl, ack);
	char *argv[32] = {"/usr/bin/perf", "stat",  "-x,", "--no-big-num", "-D", "-1",
			  "--control",	   control, "-e",  (char *)events};
	int a = 10;
	for (int i = 0; extra && extra[i] && a < 31; i++)
		argv[a++] = (char *)extra[i];
	argv[a] = NULL;
	p->pid = testutil_spawn(argv, outfile, p->out);
	if (p->pid < 0)
		return false;
	/* Both ends held here: opening never waits for perf. */
	p->ctl = open(ctl, O_RDWR);
	p->ack = open(ack, O_RDWR);
	return p->ctl >= 0 && p->ack >= 0 && perf_cmd(p, "enable\n", deadline_s);
}

bool testutil_perf_stop(struct testutil_perf *p, bool running, double deadline_s)
{
	bool ok = true;
	if (running) {
		ok = perf_cmd(p, "disable\n", deadline_s);
		kill(p->pid, SIGINT);
	}
	ok = testutil_reap(p->pid, deadline_s) != -1 && ok;
	close(p->ctl);
	close(p->ack);
	return ok;
}

double testutil_perf_value(const struct testutil_perf *p, const char *event)
{
	char *out = testutil_slurp(p->out);
	double v = -1;
	for (char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		/* value,unit,event,... (the unit often empty) */
		const char *c1 = strchr(l, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
		if (!c2 || !isdigit((unsigned char)*l))
			continue;
		size_t len = strcspn(c2 + 1, ",\n");
		if (len == strlen(event) && strncmp(c2 + 1, event, len) == 0)
			v = strtod(l, NULL);
	}
	free(out);
	return v;
}

int testutil_tracefs_ns(bool mounted)
{
	if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
		return -errno;
	/* Innermost first: the last lines of mountinfo are mounted last. */
	for (int pass = 0; pass < 8; pass++) {
		FILE *f = fopen("/proc/self/mountinfo", "re");
		char line[4096], dir[2048] = "", type[64];
		if (!f)
			return -errno;
		while (fgets(line, sizeof(line), f)) {
			const char *sep = strstr(line, " - ");
			char d[2048];
			if (sep && sscanf(sep, " - %63s", type) == 1 &&
			    (!strcmp(type, "tracefs") || !strcmp(type, "debugfs")) &&
			    sscanf(line, "%*s %*s %*s %*s %2047s", d) == 1)
				snprintf(dir, sizeof(dir), "%s", d);
		}
		fclose(f);
		if (!dir[0])
			break;
		if (umount2(dir, MNT_DETACH) != 0)
			return -errno;
	}
	if (mounted && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) != 0)
		return -errno;
	return 0;
}

unsigned testutil_free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	close(fd);
	return ntohs(a.sin_port);
}

double testutil_scrape(unsigned port, const char *metric, pid_t pid, const char *event)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	const char req[] = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
	if (write(fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1) {
		close(fd);
		return -1;
	}
	static char body[1 << 20];
	size_t n = 0;
	for (ssize_t r; n < sizeof(body) - 1 && (r = read(fd, body + n, sizeof(body) - 1 - n)) > 0;)
		n += (size_t)r;
	body[n] = '\0';
	close(fd);
	char want[64], name[128], ev[128];
	snprintf(want, sizeof(want), "pid=\"%d\"", (int)pid);
	snprintf(ev, sizeof(ev), "event=\"%s\"", event);
	snprintf(name, sizeof(name), "%s{", metric);
	for (char *l = body; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, name, strlen(name)) != 0)
			continue;
		char *eol = strchr(l, '\n'), *close_b = strchr(l, '}');
		if (!close_b || (eol && close_b > eol))
			continue;
		*close_b = '\0';
		bool hit = strstr(l, want) && strstr(l, ev);
		*close_b = '}';
		if (hit)
			return strtod(close_b + 1, NULL);
	}
	return -1;
}

void testutil_cgroup_enter(const char *dir, pid_t p)
{
	char procs[700], pid[16];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", (int)p);
	int fd = open(procs, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, pid, strlen(pid)), (ssize_t)strlen(pid));
	close(fd);
}

pid_t testutil_worker_start(int *to, int *from)
{
	int c[2], d[2];
	assert_int_equal(pipe(c), 0);
	assert_int_equal(pipe(d), 0);
	pid_t w = fork();
	assert_true(w >= 0);
	if (w == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(c[1]);
		close(d[0]);
		uint32_t n;
		while (read(c[0], &n, sizeof(n)) == sizeof(n) && n) {
			struct rusage a, b;
			getrusage(RUSAGE_SELF, &a);
			testutil_touch_pages(n);
			getrusage(RUSAGE_SELF, &b);
			uint64_t f = (uint64_t)(b.ru_minflt - a.ru_minflt);
			if (write(d[1], &f, sizeof(f)) != sizeof(f))
				_exit(1);
		}
		_exit(0);
	}
	close(c[0]);
	close(d[1]);
	*to = c[1];
	*from = d[0];
	return w;
}

/* The port of "pmutop: listening on ADDR:PORT" in the log, 0 until it is there. */
unsigned testutil_listening_port(const char *log)
{
	char *t = testutil_slurp(log);
	const char *p = strstr(t, "listening on ");
	unsigned port = 0;
	if (p && strchr(p, '\n')) {
		const char *colon = strrchr(p, ':');
		port = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
	}
	free(t);
	return port;
}

/* The batch CSV's page-faults of pid's process row, tick by tick, into v; the number of
 * ticks. */
unsigned testutil_csv_faults(const char *text, pid_t pid, double *v, unsigned max)
{
	char want[64];
	snprintf(want, sizeof(want), ",process,%d,", (int)pid);
	unsigned n = 0;
	for (const char *l = text; l && *l && n < max;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *eol = strchr(l, '\n');
		const char *p = strstr(l, want);
		if (!p || (eol && p > eol))
			continue;
		const char *e = strstr(p, ",page-faults,");
		if (!e || (eol && e > eol))
			continue;
		v[n++] = strtod(e + strlen(",page-faults,"), NULL);
	}
	return n;
}

int testutil_pki(const char *dir, const char *cn, const char *san)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && for ca in ca other; do openssl req -x509 -newkey ec -pkeyopt "
		 "ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=$ca -keyout $ca.key "
		 "-out $ca.pem || exit 1; done 2>/dev/null && "
		 "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
		 "-subj /CN=%s -keyout server.key -out server.csr 2>/dev/null && "
		 "printf 'subjectAltName=%s\\n' > server.ext && "
		 "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
		 "-days 1 -extfile server.ext -out server.pem 2>/dev/null && "
		 "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
		 "-subj /CN=client -keyout client.key -out client.csr 2>/dev/null && "
		 "printf 'extendedKeyUsage=clientAuth\\n' > client.ext && "
		 "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
		 "-days 1 -extfile client.ext -out client.pem 2>/dev/null",
		 dir, cn, san);
	return system(cmd) == 0 ? 0 : -1;
}

unsigned testutil_csv_tick_list(const char *csv, long *ticks, unsigned max)
{
	unsigned n = 0;
	for (const char *l = strchr(csv, '\n'); l && *++l && n < max; l = strchr(l, '\n')) {
		long t = atol(l);
		if (t > 0 && (n == 0 || ticks[n - 1] != t))
			ticks[n++] = t;
	}
	return n;
}

void testutil_tick_lines(const char *csv, long t, char *out, size_t cap)
{
	char prefix[32];
	size_t n = 0;
	snprintf(prefix, sizeof(prefix), "%ld,", t);
	out[0] = '\0';
	for (const char *l = csv; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (!strncmp(l, prefix, strlen(prefix))) {
			size_t keep = len;
			for (int k = 0; k < 2 && keep > 0; k++)
				while (keep > 0 && l[--keep] != ',')
					;
			if (n + keep + 2 < cap) {
				memcpy(out + n, l, keep);
				n += keep;
				out[n++] = '\n';
				out[n] = '\0';
			}
		}
		l = e ? e + 1 : l + len;
	}
}

unsigned testutil_assert_rows_equal(const char *got, pid_t host, const char *own, double deadline_s)
{
	long ticks[64];
	unsigned nt = testutil_csv_tick_list(got, ticks, 64);
	assert_true(nt > 0);
	assert_true(testutil_wait_tick(host, own, ticks[nt - 1] + 1, deadline_s));
	char *mine = testutil_slurp(own);
	size_t ca = strlen(got) + 2, cb = strlen(mine) + 2;
	char *a = malloc(ca), *b = malloc(cb);
	assert_true(a && b);
	for (unsigned i = 0; i < nt; i++) {
		testutil_tick_lines(got, ticks[i], a, ca);
		testutil_tick_lines(mine, ticks[i], b, cb);
		assert_true(strlen(a) > 0);
		if (strcmp(a, b)) {
			const char *x = a, *y = b; /* the first line that differs, whole */
			while (*x && *x == *y)
				x++, y++;
			while (x > a && x[-1] != '\n')
				x--, y--;
			fail_msg("tick %ld: --connect's row\n%.*s\nthe host's\n%.*s", ticks[i],
				 (int)strcspn(x, "\n"), x, (int)strcspn(y, "\n"), y);
		}
	}
	free(a);
	free(b);
	free(mine);
	return nt;
}
