/* A damaged recording never replays another number: bytes of a small real recording
 * flipped in every kind of page (the header page and the schema, the pointer map, each
 * table's and index's b-tree pages, interior and leaf, and any overflow or free page
 * there is), one at a time. Each replay either exits 0 with the undamaged
 * replay's output, byte for byte, or exits non-zero, and then every tick it prints is
 * the undamaged replay's tick, line for line; `--sql` over `readings` gives the same rows
 * or an error. The damaged files are kept in
 * $PMUTOP_DAMAGE_CORPUS when it is set (the recording fuzzers' seeds). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define NTHREADS 4
#define OUTCAP (16u << 20)
#define REC_PAGE 16384 /* the recorder's */

static char dir[] = "/tmp/pmutop-recdamage.XXXXXX";
static pid_t kid;

static const char *path(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void *sleeper(void *arg)
{
	/* A name of 15 random letters (deflate cannot shrink it much), the same every run. */
	unsigned x = (unsigned)(uintptr_t)arg * 2654435761u + 12345u;
	char name[16];
	for (int i = 0; i < 15; i++) {
		x = x * 1103515245u + 12345u;
		name[i] = (char)('A' + (x >> 16) % 52 + ((x >> 16) % 52 >= 26 ? 6 : 0));
	}
	name[15] = '\0';
	prctl(PR_SET_NAME, name);
	for (;;) { /* wakes and faults: the rows' numbers move */
		usleep(30000);
		testutil_touch_pages(1 + x % 3);
		x = x * 1103515245u + 12345u;
	}
	return NULL;
}

/* A process of NTHREADS threads that wake, fault and sleep: what is recorded does not
 * depend on what else the machine runs. */
static pid_t threads_child(void)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t p = fork();
	assert_true(p >= 0);
	if (p == 0) {
		close(fd[0]);
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, 64 * 1024);
		for (uintptr_t i = 0; i < NTHREADS; i++) {
			pthread_t t;
			if (pthread_create(&t, &at, sleeper, (void *)i))
				_exit(3);
		}
		sleep(1); /* the names set */
		if (write(fd[1], "r", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(fd[1]);
	char c;
	assert_int_equal(read(fd[0], &c, 1), 1);
	close(fd[0]);
	return p;
}

/* A line's last field (CSV's `at`: the tick's time, to the millisecond) and its length. */
static const char *line_at(const char *s, size_t *len)
{
	size_t n = strcspn(s, "\n");
	const char *a = s + n;
	while (a > s && a[-1] != ',')
		a--;
	*len = (size_t)(s + n - a);
	return a;
}

/* The end of the tick whose lines start at s: the lines of one tick are together, and
 * ticks 0.1 s apart differ in `at`. */
static const char *tick_end(const char *s)
{
	size_t n, m;
	const char *at = line_at(s, &n), *e = s;
	while (*e) {
		const char *a = line_at(e, &m);
		if (m != n || memcmp(a, at, n) != 0)
			break;
		const char *nl = strchr(e, '\n');
		e = nl ? nl + 1 : e + strlen(e);
	}
	return e;
}

static int count_ticks(const char *out)
{
	const char *s = strchr(out, '\n');
	int n = 0;
	for (s = s ? s + 1 : out; *s; s = tick_end(s))
		n++;
	return n;
}

/* Every tick out prints is one of good's, whole and in good's order: NULL, or the
 * first line of one that is not. */
static const char *ticks_differ(const char *out, const char *good)
{
	const char *s = strchr(out, '\n'), *g = strchr(good, '\n');
	if (!s)
		return *out ? out : NULL;
	if (!g || s - out != g - good || memcmp(out, good, (size_t)(s - out)) != 0)
		return out;
	for (s++, g++; *s;) {
		const char *e = tick_end(s);
		size_t n = (size_t)(e - s);
		bool found = false;
		while (*g && !found) {
			const char *ge = tick_end(g);
			found = (size_t)(ge - g) == n && memcmp(g, s, n) == 0;
			g = ge;
		}
		if (!found)
			return s;
		s = e;
	}
	return NULL;
}

/* `readings` whole, and bounded by time (ticks 50 to 250's). */
static const char *const q_all =
	"SELECT seq, time, pid, tid, command, event, value, state FROM readings";
static const char *const q_time =
	"SELECT seq, time, pid, tid, command, event, value, state FROM readings"
	" WHERE time BETWEEN (SELECT wall FROM ticks WHERE seq = 50) AND"
	" (SELECT wall FROM ticks WHERE seq = 250)";

struct page {
	int no;
	char kind[64];
};

/* Every page of file and what it is: dbstat's name and type, page 1 the header, any
 * other the pointer map (page 2 with incremental vacuum) or free. */
static int page_kinds(const char *file, struct page **out)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	int n = 0;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	struct page *p = calloc((size_t)n + 1, sizeof(*p));
	assert_non_null(p);
	for (int i = 0; i < n; i++) {
		p[i].no = i + 1;
		snprintf(p[i].kind, sizeof(p[i].kind), "%s", i == 0 ? "header" : "free");
	}
	snprintf(p[1].kind, sizeof(p[1].kind), "pointer map");
	assert_int_equal(
		sqlite3_prepare_v2(db, "SELECT pageno, name, pagetype FROM dbstat", -1, &st, NULL),
		SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int no = sqlite3_column_int(st, 0);
		if (no >= 2 && no <= n)
			snprintf(p[no - 1].kind, sizeof(p[no - 1].kind), "%s %s",
				 (const char *)sqlite3_column_text(st, 1),
				 (const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	*out = p;
	return n;
}

static char *read_all(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* A worker's failure: one line on stderr, then its exit status says it (cmocka's
 * fail_msg belongs to the test's own process). */
#define FLIP_FAIL(...)                                                                             \
	do {                                                                                       \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		_exit(1);                                                                          \
	} while (0)

static void write_all(const char *file, const char *b, size_t len)
{
	FILE *f = fopen(file, "wb");
	if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0)
		FLIP_FAIL("%s: cannot write it: %s", file, strerror(errno));
}

/* What a worker knows: the undamaged file and its pages, the undamaged outputs, and the
 * commands over its own damaged copy. */
struct flipper {
	const char *orig;
	size_t len;
	const struct page *pg;
	int npages;
	const char *good, *goodsql, *goodtime;
	const char *file, *corpus;
};

/* Each bit of byte at of orig flipped in turn, written to dmg: `--sql` (argv sd) exits 0
 * with goodsql's rows, or non-zero with one line. Returns the flips run. */
static int sql_bits(char **sd, const struct flipper *f, size_t at, const char *dmg,
		    const char *goodsql, char *out, const char *kind)
{
	char *b = malloc(f->len), err[4096];
	if (!b)
		FLIP_FAIL("out of memory");
	memcpy(b, f->orig, f->len);
	for (int bit = 0; bit < 8; bit++) {
		b[at] = (char)(f->orig[at] ^ (1 << bit));
		write_all(dmg, b, f->len);
		int st = testutil_run(sd, out, OUTCAP, err, sizeof(err));
		if (!WIFEXITED(st) || (WEXITSTATUS(st) == 0 && strcmp(out, goodsql) != 0))
			FLIP_FAIL("byte %zu bit %d (%s) flipped: --sql exit %d, and its rows "
				  "differ (%zu bytes, not %zu)",
				  at, bit, kind, WIFEXITED(st) ? WEXITSTATUS(st) : -1, strlen(out),
				  strlen(goodsql));
		if (WEXITSTATUS(st) != 0 && (!*err || strchr(err, '\n') != strrchr(err, '\n')))
			FLIP_FAIL("byte %zu bit %d (%s) flipped: --sql exit %d with not one "
				  "line: %s",
				  at, bit, kind, WEXITSTATUS(st), err);
	}
	free(b);
	return 8;
}

/* Worker w of nw: the flips k with k % nw == w, over its own copy of the file. Each
 * page: its first 40 bytes (page header, cell pointers; page 1's file header) every byte,
 * the rest every 1021st; flip k changes bit k % 8. Writes its counts (flips, refused,
 * sqlflips) to fd; exits 1 with a line on stderr at the first damaged file that replays
 * another number. */
static void flip_worker(const struct flipper *f, int w, int nw, int fd)
{
	char dmg[300], err[4096], *out = malloc(OUTCAP);
	if (!out)
		FLIP_FAIL("out of memory");
	snprintf(dmg, sizeof(dmg), "%s.%d", f->file, w);
	char *rd[] = {PMUTOP_BINARY, "-r", dmg, "-b", "--format", "csv", NULL};
	char *sd[] = {PMUTOP_BINARY, "-r", dmg, "--sql", (char *)q_all, NULL};
	char *sdt[] = {PMUTOP_BINARY, "-r", dmg, "--sql", (char *)q_time, NULL};
	int k = 0, n[3] = {0, 0, 0}; /* flips, refused, sqlflips */
	for (int i = 0; i < f->npages; i++) {
		for (int off = 0; off < REC_PAGE; off += off < 40 ? 1 : 1021, k++) {
			if (k % nw != w)
				continue;
			size_t at = (size_t)i * REC_PAGE + (size_t)off;
			const char *kind = f->pg[i].kind;
			char *b = malloc(f->len);
			if (!b)
				FLIP_FAIL("out of memory");
			memcpy(b, f->orig, f->len);
			b[at] = (char)(b[at] ^ (1 << (k % 8)));
			write_all(dmg, b, f->len);
			n[0]++;
			int st = testutil_run(rd, out, OUTCAP, err, sizeof(err));
			if (!WIFEXITED(st))
				FLIP_FAIL("byte %zu (page %d, %s) flipped: status %#x", at, i + 1,
					  kind, st);
			if (WEXITSTATUS(st) == 0 && strcmp(out, f->good) != 0)
				FLIP_FAIL("byte %zu (page %d, %s) flipped: exit 0, and the output "
					  "differs: %.200s",
					  at, i + 1, kind, ticks_differ(out, f->good));
			const char *bad = WEXITSTATUS(st) ? ticks_differ(out, f->good) : NULL;
			if (bad)
				FLIP_FAIL("byte %zu (page %d, %s) flipped: exit %d, and a tick "
					  "printed differs: %.200s: %s",
					  at, i + 1, kind, WEXITSTATUS(st), bad, err);
			n[1] += WEXITSTATUS(st) != 0;
			if (f->corpus && WEXITSTATUS(st) != 0 && off % 4 == 0) {
				char name[512];
				snprintf(name, sizeof(name), "%s/flip-p%d-%d.pmutop", f->corpus,
					 i + 1, off);
				write_all(name, b, f->len);
			}
			free(b);
			/* And `readings` (--sql) over a third of the flips: exit 0 with the
			 * same rows, or an error. */
			if ((k / nw) % 3 == 0) { /* each worker's third */
				st = testutil_run(sd, out, OUTCAP, err, sizeof(err));
				if (!WIFEXITED(st) ||
				    (WEXITSTATUS(st) == 0 && strcmp(out, f->goodsql) != 0))
					FLIP_FAIL("byte %zu (page %d, %s) flipped: --sql exit %d, "
						  "and its rows differ: %s",
						  at, i + 1, kind,
						  WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
			}
			/* The ticks table's pages: every bit of the page header and the first
			 * cell pointers with --sql (a leaf's cell count or first pointer
			 * flipped hid its first or last ticks from readings once). */
			if (off < 16 && strncmp(kind, "ticks ", 6) == 0)
				n[2] += sql_bits(sd, f, at, dmg, f->goodsql, out, kind);
			/* And the ticks_wall index's with a bound on time, which it answers
			 * (a cell count flipped hid every tick of the time asked for). */
			if (off < 16 && strncmp(kind, "ticks_wall ", 11) == 0)
				n[2] += sql_bits(sdt, f, at, dmg, f->goodtime, out, kind);
		}
	}
	unlink(dmg);
	_exit(write(fd, n, sizeof(n)) == sizeof(n) ? 0 : 2);
}

static void test_flips(void **state)
{
	(void)state;
	kid = threads_child();
	char kp[16], *file = strdup(path("rec.pmutop"));
	snprintf(kp, sizeof(kp), "%d", (int)kid);
	/* 300 ticks: the ticks table is more than one leaf, under an interior page; two
	 * runs, so that the second starts a block (a second keyframe) and meta is written
	 * twice. */
	char *rec1[] = {PMUTOP_BINARY, "-b", "-q", "-n", "200", "-d", "0.1",
			"-H",	       "-p", kp,   "-w", file,	NULL};
	char *rec2[] = {PMUTOP_BINARY, "-b", "-q", "-n", "100", "-d", "0.1",
			"-H",	       "-p", kp,   "-w", file,	NULL};
	char *out = malloc(OUTCAP), *good = malloc(OUTCAP), err[4096];
	assert_true(out && good);
	int st = testutil_run(rec1, out, OUTCAP, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	st = testutil_run(rec2, out, OUTCAP, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	kid = 0;
	char *rp[] = {PMUTOP_BINARY, "-r", file, "-b", "--format", "csv", NULL};
	st = testutil_run(rp, good, OUTCAP, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(count_ticks(good), 300);
	char *goodsql = malloc(OUTCAP);
	assert_non_null(goodsql);
	char *sp[] = {PMUTOP_BINARY, "-r", file, "--sql", (char *)q_all, NULL};
	st = testutil_run(sp, goodsql, OUTCAP, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(strlen(goodsql) > 1000);
	char *goodtime = malloc(OUTCAP);
	assert_non_null(goodtime);
	char *tp[] = {PMUTOP_BINARY, "-r", file, "--sql", (char *)q_time, NULL};
	st = testutil_run(tp, goodtime, OUTCAP, err, sizeof(err));
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(strlen(goodtime) > 1000 && strlen(goodtime) < strlen(goodsql));

	struct page *pg;
	int npages = page_kinds(file, &pg);
	size_t len;
	char *orig = read_all(file, &len);
	assert_int_equal(len, (size_t)npages * REC_PAGE);
	/* Every kind of page the brief names is there. */
	const char *want[] = {"header",	     "ticks internal", "ticks leaf",  "ticks_wall leaf",
			      "cells leaf",  "meta leaf",      "events leaf", "evsets leaf",
			      "groups leaf", "headers leaf"};
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		bool found = false;
		for (int i = 0; i < npages; i++)
			found = found || strcmp(pg[i].kind, want[w]) == 0;
		if (!found)
			fail_msg("the recording has no %s page", want[w]);
	}
	/* Workers, each over its own copy: the replays are processes that mostly start and
	 * read, and the flips are independent. */
	struct flipper f = {.orig = orig,
			    .len = len,
			    .pg = pg,
			    .npages = npages,
			    .good = good,
			    .goodsql = goodsql,
			    .goodtime = goodtime,
			    .file = file,
			    .corpus = getenv("PMUTOP_DAMAGE_CORPUS")};
	enum { NWORKERS = 3 };
	pid_t w[NWORKERS];
	int rfd[NWORKERS];
	for (int i = 0; i < NWORKERS; i++) {
		int pfd[2];
		w[i] = -1;
		if (pipe2(pfd, O_CLOEXEC) == 0 && (w[i] = fork()) == 0) {
			close(pfd[0]);
			flip_worker(&f, i, NWORKERS, pfd[1]);
		}
		if (w[i] < 0) { /* no pipe or no fork: the workers started go too */
			for (int j = 0; j < i; j++) {
				kill(w[j], SIGKILL);
				waitpid(w[j], NULL, 0);
			}
			fail_msg("worker %d: %s", i, strerror(errno));
		}
		close(pfd[1]);
		rfd[i] = pfd[0];
	}
	int flips = 0, refused = 0, sqlflips = 0, failed = 0;
	for (int i = 0; i < NWORKERS; i++) {
		int n[3], wst;
		ssize_t got = read(rfd[i], n, sizeof(n));
		close(rfd[i]);
		assert_int_equal(waitpid(w[i], &wst, 0), w[i]);
		if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0 || got != (ssize_t)sizeof(n)) {
			failed++; /* its line is on stderr */
			continue;
		}
		flips += n[0];
		refused += n[1];
		sqlflips += n[2];
	}
	if (failed)
		fail_msg("%d of %d workers found a damaged file that replays another number "
			 "(above)",
			 failed, NWORKERS);
	print_message("%d flips over %d pages: %d said the file is damaged, the others replayed "
		      "it whole; %d more with --sql in the ticks table's and index's pages\n",
		      flips, npages, refused, sqlflips);
	assert_true(sqlflips > 0);
	assert_true(refused > 0);
	free(pg);
	free(orig);
	free(out);
	free(good);
	free(goodsql);
	free(goodtime);
	free(file);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return testutil_teardown(kid, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flips),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
