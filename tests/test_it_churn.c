/* Task churn: the real binary in batch mode (-d 0.1) counts the whole machine while this
 * program forks 3000 short-lived processes (one in ten execs /bin/true) and creates and
 * joins 2000 threads, in ten bursts. pmutop must keep printing blocks, exit 0 when told to
 * stop, give back the descriptors of the tasks that died, and not grow.
 *
 * Nothing here depends on how fast the machine forks or schedules: pmutop runs (no -n)
 * until the churn and its samples are done, however long they take, and is then stopped
 * with SIGINT; every wait is for a number of pmutop's blocks, under a generous deadline.
 *
 * pmutop is started here with fork/exec and pipes (not testutil_run) so that its pid is
 * known while it runs: /proc/<pid>/fd and VmRSS are sampled with no churn running, at the
 * start, after the first five bursts and after the last five. Descriptors follow the
 * number of live tasks on the machine (one set of groups each), and other programs may
 * start or end tasks meanwhile, so the allowed difference is a few descriptors, the
 * per-task share of however many tasks the machine gained or lost, and a twentieth for
 * deaths pmutop has not seen yet; leaking the churn's descriptors is thousands.
 * The resident size is compared between the two later samples (by then the task table
 * and the heap have seen a burst's peak): growth over five more bursts of the same tasks
 * is a leak, unless the machine's own task count moved meanwhile (then it is not
 * compared, and the test says so). Under AddressSanitizer the heap is kept in quarantine,
 * so RSS says nothing there: LeakSanitizer checks pmutop's exit instead.
 * About 12 s on a quiet machine (24 under AddressSanitizer). */
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BURSTS 10
#define FORKS_PER_BURST 300
#define THREADS_PER_BURST 200
#define THREAD_BATCH 100   /* threads alive at once */
#define PROC_LIFE_MS 250   /* each lives 0..249 ms: most span a tick, so pmutop opens */
#define THREAD_LIFE_MS 150 /* their groups, and closes them when they die */
#define EXEC_EVERY 10	   /* one fork in ten execs /bin/true */
#define QUIET_BLOCKS 12	   /* after churn: blocks for exits to be seen and closed */
#define DEADLINE_MS 90000  /* for any wait on pmutop: generous, never a speed limit */
#define FD_SLACK 8
#define RSS_SLACK_KB 768 /* 400 bytes leaked per churned task (2,500 of them) is 977 kB */
#define RSS_MAX_DTASKS 32

/* pmutop as it runs: its pid, and what a reader thread saw on its stdout and stderr. */
struct mon {
	pid_t pid;
	int out, err;
	pthread_t reader;
	pthread_mutex_t lock;
	long blocks;	 /* block headers seen ("pmutop - ... tick N ...") */
	long tasks;	 /* "- N tasks" of the last header */
	char line[1024]; /* the stdout line being read */
	size_t linelen;
	char errtext[8192]; /* the start of stderr */
	size_t errlen;
};

static struct mon mon;

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A block starts with "pmutop - HOST, Linux ..., N CPUs - tick T, ... - K tasks". */
static void on_line(struct mon *m, const char *l)
{
	if (strncmp(l, "pmutop - ", 9) != 0 || !strstr(l, " tick "))
		return;
	const char *t = strstr(l, " tasks");
	const char *p = t;
	while (p && p > l && isdigit((unsigned char)p[-1]))
		p--;
	pthread_mutex_lock(&m->lock);
	m->blocks++;
	if (p && p < t)
		m->tasks = strtol(p, NULL, 10);
	pthread_mutex_unlock(&m->lock);
}

static void *reader(void *arg)
{
	struct mon *m = arg;
	struct pollfd p[2] = {{.fd = m->out, .events = POLLIN}, {.fd = m->err, .events = POLLIN}};
	char buf[65536];
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = read(p[i].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				continue;
			}
			for (ssize_t k = 0; i == 0 && k < r; k++) {
				if (buf[k] == '\n') {
					m->line[m->linelen] = '\0';
					on_line(m, m->line);
					m->linelen = 0;
				} else if (m->linelen + 1 < sizeof(m->line)) {
					m->line[m->linelen++] = buf[k];
				}
			}
			if (i == 1) {
				pthread_mutex_lock(&m->lock);
				size_t n = (size_t)r;
				if (n > sizeof(m->errtext) - 1 - m->errlen)
					n = sizeof(m->errtext) - 1 - m->errlen;
				memcpy(m->errtext + m->errlen, buf, n);
				m->errlen += n;
				m->errtext[m->errlen] = '\0';
				pthread_mutex_unlock(&m->lock);
			}
		}
	}
	return NULL;
}

static long blocks_seen(void)
{
	pthread_mutex_lock(&mon.lock);
	long b = mon.blocks;
	pthread_mutex_unlock(&mon.lock);
	return b;
}

static int start_pmutop(void)
{
	int po[2], pe[2];
	char *argv[] = {PMUTOP_BINARY, "-b", "-d", "0.1", NULL};
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* Room for every task on a busy machine: the check is about leaks, not about
		 * what pmutop does when descriptors run out. */
		struct rlimit r = {1 << 17, 1 << 17};
		setrlimit(RLIMIT_NOFILE, &r);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	memset(&mon, 0, sizeof(mon));
	mon.pid = pid;
	mon.out = po[0];
	mon.err = pe[0];
	pthread_mutex_init(&mon.lock, NULL);
	return pthread_create(&mon.reader, NULL, reader, &mon) == 0 ? 0 : -1;
}

struct sample {
	long fds, perf_fds; /* all descriptors, and the perf_event ones */
	long tasks;	    /* threads on the machine, from /proc */
	long rss_kb;
};

static long count_threads(void)
{
	DIR *d = opendir("/proc");
	long n = 0;
	struct dirent *e;
	char path[300];
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		DIR *t = opendir(path);
		if (!t)
			continue;
		struct dirent *te;
		while ((te = readdir(t)))
			n += isdigit((unsigned char)te->d_name[0]) != 0;
		closedir(t);
	}
	closedir(d);
	return n;
}

static bool take_sample(pid_t pid, struct sample *s)
{
	char path[64], target[128];
	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char link[sizeof(path) + sizeof(e->d_name) + 1];
		snprintf(link, sizeof(link), "%s/%s", path, e->d_name);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n > 0)
			target[n] = '\0';
		/* A task's files in /proc are not counted: the schedstat files of the threads
		 * whose switches the kernel hides are kept open from the tick each is found
		 * (bpfrows.c; pid 1's 13 threads here, found as each runs), and a tick's scan
		 * holds a task's stat or io open for a moment. */
		if (n > 0 && strncmp(target, "/proc/", 6) == 0 && isdigit((unsigned char)target[6]))
			continue;
		s->fds++;
		if (n > 0)
			s->perf_fds += strstr(target, "perf_event") != NULL;
	}
	closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[256];
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &s->rss_kb) == 1)
			break;
	fclose(f);
	s->tasks = count_threads();
	return s->rss_kb > 0; /* a zombie has no VmRSS: pmutop has already ended */
}

static void print_sample(const char *when, const struct sample *s)
{
	print_message("  %-14s fds %6ld (perf %6ld)  machine threads %6ld  VmRSS %7ld kB  "
		      "blocks %ld\n",
		      when, s->fds, s->perf_fds, s->tasks, s->rss_kb, blocks_seen());
}

static void *thread_body(void *arg)
{
	unsigned us = (unsigned)(uintptr_t)arg;
	usleep(us);
	return NULL;
}

/* One burst: FORKS_PER_BURST processes alive for up to PROC_LIFE_MS each (some exec
 * /bin/true at once), and meanwhile THREADS_PER_BURST threads in batches, alive for up to
 * THREAD_LIFE_MS. Everything is reaped before it returns. */
static void burst(unsigned seed)
{
	static pid_t kids[FORKS_PER_BURST];
	unsigned forked = 0;
	for (unsigned i = 0; i < FORKS_PER_BURST; i++) {
		unsigned r = rand_r(&seed);
		pid_t p = fork();
		if (p == 0) {
			if (i % EXEC_EVERY == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			sleep_ms(r % PROC_LIFE_MS);
			_exit(0);
		}
		if (p > 0)
			kids[forked++] = p;
	}
	for (unsigned done = 0; done < THREADS_PER_BURST; done += THREAD_BATCH) {
		pthread_t t[THREAD_BATCH];
		unsigned n = 0;
		for (unsigned k = 0; k < THREAD_BATCH; k++) {
			uintptr_t us = (uintptr_t)(rand_r(&seed) % (THREAD_LIFE_MS * 1000));
			if (pthread_create(&t[n], NULL, thread_body, (void *)us) == 0)
				n++;
		}
		for (unsigned k = 0; k < n; k++)
			pthread_join(t[k], NULL);
	}
	for (unsigned i = 0; i < forked; i++)
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
	assert_int_equal(forked, FORKS_PER_BURST);
}

/* Wait until pmutop has printed n more blocks than now, so that whatever ended before is
 * seen and closed; false if it ended or the deadline passed first. */
static bool wait_blocks(long n)
{
	long want = blocks_seen() + n, t0 = now_ms();
	while (blocks_seen() < want) {
		if (now_ms() - t0 > DEADLINE_MS || waitpid(mon.pid, NULL, WNOHANG) != 0)
			return false;
		sleep_ms(20);
	}
	return true;
}

static void churn(unsigned first, unsigned n)
{
	for (unsigned b = first; b < first + n; b++) {
		burst(0x5eed + b);
		sleep_ms(150); /* a tick or two between bursts */
	}
}

/* pmutop's descriptor limit (it raises its soft limit to the hard one). */
static long fd_limit(pid_t pid)
{
	char path[64], line[256];
	long soft = -1;
	snprintf(path, sizeof(path), "/proc/%d/limits", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Max open files %ld", &soft) == 1)
			break;
	fclose(f);
	return soft;
}

/* Descriptors back to the start, give or take the machine's own task changes. At the
 * descriptor limit a count says nothing, unless the machine's tasks could not explain
 * it. Returns false when it cannot tell. */
static bool fds_back(const char *what, const struct sample *base, const struct sample *s,
		     long limit)
{
	long per_task = base->tasks > 0 ? (base->perf_fds + base->tasks - 1) / base->tasks : 0;
	if (limit > 0 && s->fds >= limit - FD_SLACK) {
		if (per_task * s->tasks < limit / 2) {
			print_error("%s: pmutop is at its descriptor limit (%ld) while %ld threads "
				    "need about %ld\n",
				    what, limit, s->tasks, per_task * s->tasks);
			fail();
		}
		print_message("  %s: pmutop is at its descriptor limit (%ld) with %ld threads on "
			      "the machine: descriptors not compared\n",
			      what, limit, s->tasks);
		return false;
	}
	/* Other programs' tasks come and go at any time, and pmutop sees a death at its next
	 * tick: a twentieth of the start on top. A leak of the churn's tasks is thousands. */
	long allowed = FD_SLACK + per_task * labs(s->tasks - base->tasks) + base->fds / 20;
	long diff = s->fds - base->fds;
	if (labs(diff) > allowed) {
		print_error("%s: pmutop holds %ld descriptors, %ld at the start (%+ld); allowed "
			    "%ld (%ld per task, the machine has %+ld threads)\n",
			    what, s->fds, base->fds, diff, allowed, per_task,
			    s->tasks - base->tasks);
		fail();
	}
	return true;
}

static void test_churn(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("  not root: pmutop would see only this user's tasks; skipped\n");
		skip();
	}
	if (testutil_under_valgrind()) {
		print_message("  under valgrind: the churn's timing is valgrind's; skipped\n");
		skip();
	}
	long t0 = now_ms();
	assert_int_equal(start_pmutop(), 0);

	/* Settle: a few blocks, so that every task already there has its groups. */
	if (!wait_blocks(7)) {
		print_error("pmutop printed %ld blocks in %d ms: %s\n", blocks_seen(), DEADLINE_MS,
			    mon.errtext);
		fail();
	}
	struct sample base, mid, end;
	assert_true(take_sample(mon.pid, &base));
	print_sample("start", &base);
	assert_true(base.perf_fds > 0);
	long limit = fd_limit(mon.pid);
	bool busy = limit > 0 && base.fds >= limit - FD_SLACK; /* no per-task share known */
	if (busy)
		print_message("  pmutop is at its descriptor limit (%ld) before any churn: "
			      "%ld threads on the machine\n",
			      limit, base.tasks);

	churn(0, BURSTS / 2);
	if (!wait_blocks(QUIET_BLOCKS) || !take_sample(mon.pid, &mid)) {
		print_error("pmutop ended or stopped printing during the churn (after %ld "
			    "blocks): %s\n",
			    blocks_seen(), mon.errtext);
		fail();
	}
	print_sample("after 5 bursts", &mid);

	churn(BURSTS / 2, BURSTS - BURSTS / 2);
	if (!wait_blocks(QUIET_BLOCKS) || !take_sample(mon.pid, &end)) {
		print_error("pmutop ended or stopped printing during the churn (after %ld "
			    "blocks): %s\n",
			    blocks_seen(), mon.errtext);
		fail();
	}
	print_sample("after 10", &end);
	long churn_done = now_ms();

	/* The test has what it needs: pmutop stops at SIGINT, as at Ctrl-C, with status 0. */
	long printed = blocks_seen();
	kill(mon.pid, SIGINT);
	int st = -1;
	long deadline = now_ms() + DEADLINE_MS;
	while (waitpid(mon.pid, &st, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(mon.pid, SIGKILL);
			waitpid(mon.pid, &st, 0);
			print_error("pmutop did not stop within %d ms of SIGINT\n", DEADLINE_MS);
			fail();
		}
		sleep_ms(50);
	}
	pthread_join(mon.reader, NULL);
	print_message("  churn took %ld ms; pmutop exit status %d after %ld blocks\n",
		      churn_done - t0, st, mon.blocks);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		print_error("pmutop ended with status 0x%x; stderr:\n%s\n", st, mon.errtext);
		fail();
	}
	/* Every block it began was printed whole, and none is lost after SIGINT. */
	assert_true(mon.blocks >= printed);
	assert_int_equal(mon.linelen, 0);

	bool judged = !busy && fds_back("after 5 bursts", &base, &mid, limit);
	judged = !busy && fds_back("after 10 bursts", &base, &end, limit) && judged;

	/* Five more bursts of the same tasks must not make pmutop bigger: its table and heap
	 * had their peak after the first five. When other programs changed the machine's
	 * task count meanwhile, or since the start (a thousand tasks more by the first five
	 * bursts' end: pmutop's tables and caches for them still grow after), pmutop's size
	 * follows them and says nothing about a leak. */
	if (TESTUTIL_ASAN)
		print_message("  AddressSanitizer build: RSS not compared (LeakSanitizer checks "
			      "the exit)\n");
	else if (labs(end.tasks - mid.tasks) > RSS_MAX_DTASKS ||
		 labs(mid.tasks - base.tasks) > RSS_MAX_DTASKS)
		print_message("  the machine went from %ld to %ld to %ld threads meanwhile: RSS "
			      "not compared\n",
			      base.tasks, mid.tasks, end.tasks);
	else if (end.rss_kb - mid.rss_kb > RSS_SLACK_KB) {
		print_error("pmutop grew from %ld to %ld kB over five more bursts (allowed %d)\n",
			    mid.rss_kb, end.rss_kb, RSS_SLACK_KB);
		fail();
	}
	if (!judged) {
		/* A crowded machine: everything else held, but this is not a pass. */
		print_message("  descriptors could not be judged on this machine\n");
		skip();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_churn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
