/* The outputs of one run together, end to end on the real binary: batch blocks, the
 * recording (-w) and /metrics (--listen) from one set of counters, each showing the same
 * numbers for the same tick, with the descriptors and BPF programs of a single run. */
#include "testutil.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEADLINE_S 60.0
#define PAGES 3000u
#define METRIC "pmutop_process_events_total"

static char dir[] = "/tmp/pmutop-itcompose-XXXXXX";

static const char *in_dir(const char *name)
{
	static char buf[8][320];
	static unsigned k;
	char *b = buf[k++ % 8];
	snprintf(b, sizeof(buf[0]), "%s/%s", dir, name);
	return b;
}

/* pmutop -b -n TICKS -w F --listen: TICKS blocks, TICKS recorded ticks that replay as the
 * same CSV, and /metrics equal to the batch's running sums at every scrape: one loop
 * feeds the three sinks. The worker faults its pages once the port is seen: TICKS of 0.3 s leave
 * room for that on a slow machine (memcheck), before the last tick. */
#define TICKS 15
static void test_batch_record_listen(void **state)
{
	(void)state;
	int to, from;
	pid_t w = testutil_worker_start(&to, &from);
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)w);
	const char *db = in_dir("run.pmutop"), *out = in_dir("run.csv"), *err = in_dir("run.err");
	char ticks_arg[16];
	snprintf(ticks_arg, sizeof(ticks_arg), "%d", TICKS);
	char *argv[] = {PMUTOP_BINARY, "-b",	   "-n",       ticks_arg,     "-d", "0.3",
			"--format",    "csv",	   "-e",       "page-faults", "-p", pid,
			"-w",	       (char *)db, "--listen", "127.0.0.1:0", NULL};
	pid_t m = testutil_spawn(argv, out, err);
	assert_true(m > 0);
	unsigned port = 0;
	double end = testutil_now() + DEADLINE_S;
	while (!(port = testutil_listening_port(err)) && testutil_now() < end &&
	       waitpid(m, NULL, WNOHANG) == 0)
		testutil_nap_ms(10);
	if (!port) {
		char *e = testutil_slurp(err);
		fail_msg("no 'listening on' line from pmutop -b -w --listen: %s", e);
	}
	/* A known number of pages, while it runs; scraped until it ends. */
	uint32_t n = PAGES;
	assert_int_equal(write(to, &n, sizeof(n)), sizeof(n));
	uint64_t own = 0;
	assert_int_equal(read(from, &own, sizeof(own)), sizeof(own));
	double seen[4096];
	unsigned nseen = 0;
	int st = -1;
	while (testutil_now() < end) {
		double v = testutil_scrape(port, METRIC, w, "page-faults");
		if (v >= 0 && nseen < 4096 && (nseen == 0 || seen[nseen - 1] != v))
			seen[nseen++] = v;
		if (waitpid(m, &st, WNOHANG) == m)
			break;
		testutil_nap_ms(5);
	}
	n = 0;
	assert_int_equal(write(to, &n, sizeof(n)), sizeof(n));
	waitpid(w, NULL, 0);
	close(to);
	close(from);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char *e = testutil_slurp(err);
		fail_msg("pmutop -b -n %d -w --listen: status %#x: %s", TICKS, st, e);
	}
	char *csv = testutil_slurp(out);
	double faults[16], sums[17] = {0};
	unsigned ticks = testutil_csv_faults(csv, w, faults, 16);
	assert_int_equal(ticks, TICKS);
	assert_int_equal(testutil_csv_ticks(out), TICKS);
	for (unsigned i = 0; i < ticks; i++)
		sums[i + 1] = sums[i] + faults[i];
	print_message("  batch: %.0f page faults of pid %d over %u ticks (it made %llu); "
		      "%u distinct /metrics values scraped\n",
		      sums[ticks], (int)w, ticks, (unsigned long long)own, nseen);
	/* The counted against the truth: every fault the worker made while watched, and no
	 * more than it made since it began. */
	assert_true(sums[ticks] >= (double)own);
	assert_true(sums[ticks] <= (double)own + 64);
	/* Every exposition is a tick's running sum, and the worker's pages were served. */
	assert_true(nseen > 0);
	bool saw_pages = false;
	for (unsigned i = 0; i < nseen; i++) {
		bool found = false;
		for (unsigned k = 0; k <= ticks && !found; k++)
			found = seen[i] == sums[k];
		if (!found)
			fail_msg("/metrics served %.0f page faults, which is no tick's running sum "
				 "of the batch (%.0f after %u ticks)",
				 seen[i], sums[ticks], ticks);
		saw_pages = saw_pages || seen[i] >= (double)own;
	}
	assert_true(saw_pages);
	/* The recording replays as the same CSV. */
	char rout[64 * 1024], rerr[4096];
	char *rep[] = {PMUTOP_BINARY, "-r", (char *)db, "-b", "--format", "csv", NULL};
	assert_int_equal(testutil_run(rep, rout, sizeof(rout), rerr, sizeof(rerr)), 0);
	assert_string_equal(rout, csv);
	free(csv);
}

/* The descriptors of pid's kind (target of its /proc/PID/fd links), as one string of
 * sorted lines, leaving out what is each output's own: the database and its WAL, the
 * listening socket, and the HTTP server's eventfds. */
static void fd_kinds(pid_t pid, const char *db, char *buf, size_t cap, unsigned *skipped)
{
	char path[64], link[512], lines[256][128];
	unsigned n = 0;
	*skipped = 0;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d)) && n < 256;) {
		if (e->d_name[0] == '.')
			continue;
		char p[320];
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		ssize_t k = readlink(p, link, sizeof(link) - 1);
		if (k <= 0)
			continue;
		link[k] = '\0';
		if (strncmp(link, db, strlen(db)) == 0 || strncmp(link, "socket:", 7) == 0 ||
		    strcmp(link, "anon_inode:[eventfd]") == 0) {
			++*skipped;
			continue;
		}
		/* pipe:[123] and the like: their kind, not their inode. */
		char *br = strchr(link, '[');
		if (br && strncmp(link, "anon_inode:", 11) != 0)
			br[1] = '\0';
		snprintf(lines[n++], sizeof(lines[0]), "%s", link);
	}
	closedir(d);
	qsort(lines, n, sizeof(lines[0]), (int (*)(const void *, const void *))strcmp);
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < n && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s\n", lines[i]);
}

/* Started with args, its fd kinds once it has printed a block (then stopped). */
static bool fds_of(char *const *argv, const char *db, const char *name, char *buf, size_t cap,
		   unsigned *skipped)
{
	const char *out = in_dir(name), *err = in_dir("fds.err");
	unlink(out); /* not the last run's blocks */
	pid_t m = testutil_spawn(argv, out, err);
	assert_true(m > 0);
	if (!testutil_wait_tick(m, out, 2, DEADLINE_S)) {
		kill(m, SIGKILL);
		testutil_reap(m, DEADLINE_S);
		char *e = testutil_slurp(err);
		bool refused = strstr(e, "--backend bpf") != NULL;
		if (!refused)
			fail_msg("%s printed no second block: %s", argv[1], e);
		free(e);
		return false;
	}
	fd_kinds(m, db, buf, cap, skipped);
	kill(m, SIGTERM);
	int st = testutil_reap(m, DEADLINE_S);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char *e = testutil_slurp(err);
		fail_msg("%s at SIGTERM: status %#x: %s", argv[1], st, e);
	}
	return true;
}

/* The bpf_link lines taken out of a list of fd kinds: how many there were. The arrival
 * program is attached once a switch goes unseen (bpfcount.c), at a tick of its own in
 * each run, so one run can hold one link more than another at the same tick. A task's
 * files in /proc go too: the schedstat files of the threads whose runs the kernel hides
 * (kept open from the tick they are found, bpfrows.c) come at a tick of their own, and a
 * tick's scan holds /proc and a task's stat or io open for a moment, which a look that
 * falls inside a slow tick sees. */
static unsigned strip_links(char *buf)
{
	unsigned n = 0;
	char *w = buf;
	for (char *l = buf; *l;) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
		bool link = strncmp(l, "anon_inode:bpf_link", 19) == 0;
		bool task = strncmp(l, "/proc\n", 6) == 0 ||
			    (strncmp(l, "/proc/", 6) == 0 && isdigit((unsigned char)l[6]));
		if (link || task)
			n += link;
		else {
			memmove(w, l, len);
			w += len;
		}
		l += len;
	}
	*w = '\0';
	return n;
}

/* -b alone and -b -w --listen hold the same counters: the same perf_event and BPF
 * descriptors, and besides them only the database, the socket and the server's own. */
static void test_one_set_of_descriptors(void **state)
{
	(void)state;
	const char *db = in_dir("fds.pmutop");
	char *alone[] = {PMUTOP_BINARY, "-b",	    "--backend", "bpf", "-d",
			 "0.2",		"--format", "csv",	 "-e",	"page-faults,task-clock",
			 NULL};
	char *all[] = {
		PMUTOP_BINARY, "-b",	   "--backend", "bpf",	       "-d",
		"0.2",	       "--format", "csv",	"-e",	       "page-faults,task-clock",
		"-w",	       (char *)db, "--listen",	"127.0.0.1:0", NULL};
	static char a[32768], b[32768];
	unsigned sa, sb;
	if (!fds_of(alone, db, "fds.csv", a, sizeof(a), &sa))
		skip();
	assert_true(fds_of(all, db, "fds.csv", b, sizeof(b), &sb));
	print_message("  -b alone: %u descriptors besides; -b -w --listen: %u more (database, "
		      "WAL, socket, server)\n",
		      sa, sb);
	assert_non_null(strstr(a, "anon_inode:bpf-prog"));
	unsigned la = strip_links(a), lb = strip_links(b);
	assert_true(la >= 1 && lb >= 1 && (la > lb ? la - lb : lb - la) <= 1);
	assert_string_equal(a, b);
	assert_int_equal(sa, 0);
	assert_true(sb >= 3); /* the database, its WAL, the listening socket at least */
}

/* The ExecStart of contrib/pmutop-record.service, with this build's binary, a directory
 * of the test's for /var/log/pmutop, a free port for its own, into argv (words in buf).
 * Returns the recording's path. */
static const char *unit_command(char **argv, unsigned max, char *buf, size_t cap)
{
	char *unit = testutil_slurp(PMUTOP_SOURCE_DIR "/contrib/pmutop-record.service");
	const char *l = strstr(unit, "\nExecStart=");
	assert_non_null(l);
	l += strlen("\nExecStart=");
	size_t n = strcspn(l, "\n");
	assert_true(n < cap);
	memcpy(buf, l, n);
	buf[n] = '\0';
	free(unit);
	static char db[320];
	const char *rec = NULL;
	unsigned k = 0;
	char *save = NULL;
	for (char *w = strtok_r(buf, " ", &save); w && k + 1 < max;
	     w = strtok_r(NULL, " ", &save)) {
		if (k == 0) {
			assert_non_null(strstr(w, "pmutop"));
			w = (char *)PMUTOP_BINARY;
		} else if (strcmp(argv[k - 1], "--listen") == 0) {
			w = (char *)"127.0.0.1:0";
		} else if (strncmp(w, "/var/log/pmutop/", 16) == 0) {
			snprintf(db, sizeof(db), "%s/unit.pmutop", dir);
			w = db;
			rec = db;
		}
		argv[k++] = w;
	}
	argv[k] = NULL;
	assert_non_null(rec);
	return rec;
}

/* Whether /metrics on port has pmutop's own command's task-clock (its processes are summed
 * by command name: no per-pid series by default). */
static bool serves_own_command(unsigned port)
{
	char cmd[256], line[1024];
	snprintf(cmd, sizeof(cmd), "curl -s -f --max-time 2 http://127.0.0.1:%u/metrics", port);
	FILE *f = popen(cmd, "r");
	bool found = false;
	while (f && fgets(line, sizeof(line), f))
		found |= strncmp(line, "pmutop_command_clock_seconds_total{", 35) == 0 &&
			 strstr(line, "comm=\"pmutop\",event=\"task-clock\"}") != NULL;
	if (f)
		pclose(f);
	return found;
}

/* The systemd unit's command records and serves /metrics from one process: the tick
 * served has been committed to the recording first. */
static void test_unit_records_and_exports(void **state)
{
	(void)state;
	char *argv[32], words[1024];
	const char *db = unit_command(argv, 32, words, sizeof(words));
	const char *out = in_dir("unit.out"), *err = in_dir("unit.err");
	pid_t m = testutil_spawn(argv, out, err);
	assert_true(m > 0);
	unsigned port = 0;
	bool served = false;
	double end = testutil_now() + DEADLINE_S;
	while (!served && testutil_now() < end && waitpid(m, NULL, WNOHANG) == 0) {
		if (!port)
			port = testutil_listening_port(err);
		/* pmutop's own process is among those it counts. */
		served = port && serves_own_command(port);
		testutil_nap_ms(20);
	}
	kill(m, SIGTERM);
	int st = testutil_reap(m, DEADLINE_S);
	char *e = testutil_slurp(err);
	if (!served)
		fail_msg("the unit's ExecStart (%s ...) served no /metrics: %s", argv[1], e);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("the unit's ExecStart: status %#x at SIGTERM: %s", st, e);
	free(e);
	char *o = testutil_slurp(out);
	assert_string_equal(o, ""); /* -q: nothing but the recording and /metrics */
	free(o);
	char rout[1 << 16], rerr[4096];
	char *rep[] = {PMUTOP_BINARY, "-r", (char *)db, "-b", "--format", "csv", NULL};
	assert_int_equal(testutil_run(rep, rout, sizeof(rout), rerr, sizeof(rerr)), 0);
	assert_non_null(strstr(rout, "\n1,"));
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_record_listen),
		cmocka_unit_test(test_one_set_of_descriptors),
		cmocka_unit_test(test_unit_records_and_exports),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
