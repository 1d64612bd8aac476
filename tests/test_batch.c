/* The batch text writer over a hand-built model: the exact bytes of a block (padding,
 * marks, thread indent, exited rows, hostile and over-long names, CPU rows), and blocks
 * larger than its row buffer; the out-of-descriptors notice on stderr in every format. */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "columns.h"
#include "text.h"

/* clang-format off */
enum { E_TC, E_CS, E_MIGR, E_PF, E_MAJ, E_CYC, E_INS, NEV };
/* clang-format on */

static const struct mevent events[NEV] = {
	[E_TC] = {.name = "task-clock", .key = "task-clock", .role = ROLE_TASK_CLOCK},
	[E_CS] = {.name = "context-switches",
		  .key = "context-switches",
		  .member = 1,
		  .role = ROLE_CS},
	[E_MIGR] = {.name = "cpu-migrations",
		    .key = "cpu-migrations",
		    .member = 2,
		    .role = ROLE_MIGRATIONS},
	[E_PF] = {.name = "page-faults", .key = "page-faults", .member = 3, .role = ROLE_FAULTS},
	[E_MAJ] = {.name = "major-faults",
		   .key = "major-faults",
		   .member = 4,
		   .role = ROLE_MAJ_FAULTS},
	[E_CYC] = {.name = "cycles",
		   .key = "cycles",
		   .group = 1,
		   .role = ROLE_CYCLES,
		   .hardware = true},
	[E_INS] = {.name = "instructions",
		   .key = "instructions",
		   .group = 1,
		   .member = 1,
		   .role = ROLE_INSNS,
		   .hardware = true},
};
static const struct mgroup groups[2] = {{.first = 0, .n = 5}, {.first = 5, .n = 2}};

/* Every block's wall-clock time: 2025-11-25 16:40:01.250 UTC, shown at +01:00 (TZ in main). */
#define WALL 1764088801.25
#define WALL_AT "2025-11-25T17:40:01.250+01:00"

static struct val ex(double v)
{
	return (struct val){.v = v, .state = VAL_EXACT, .run_pm = 1000};
}

/* Write one block of m through a text writer sorted by sort (NULL: CPU%) and return
 * it (static, till the next call). */
static const char *block_by_at(const struct model *m, bool cpus, const char *sort, double wall)
{
	static char out[1 << 20];
	struct pane panes[8];
	unsigned np = columns_build_panes(m, false, panes, 8);
	FILE *f = tmpfile();
	assert_non_null(f);
	struct batch *b = batch_new(f, OUT_TEXT, panes, np, sort, false);
	assert_non_null(b);
	batch_show_cpus(b, cpus);
	assert_int_equal(batch_write(b, m, wall), 0);
	batch_free(b);
	rewind(f);
	size_t n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	return out;
}

static const char *block_by(const struct model *m, bool cpus, const char *sort)
{
	return block_by_at(m, cpus, sort, WALL);
}

static const char *block_at(const struct model *m, double wall)
{
	return block_by_at(m, false, NULL, wall);
}

static const char *block(const struct model *m, bool cpus)
{
	return block_by(m, cpus, NULL);
}

/* Line n (from 0) of text, without its newline, into buf. */
static const char *line_of(const char *text, int n, char *buf, size_t len)
{
	for (; n > 0 && text; n--) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	assert_non_null(text);
	size_t k = strcspn(text, "\n");
	assert_true(k < len);
	memcpy(buf, text, k);
	buf[k] = '\0';
	return buf;
}

static void model_init(struct model *m, struct mrow *rows, unsigned nrows)
{
	memset(m, 0, sizeof(*m));
	m->hostname = "box";
	m->kernel = "6.1.0";
	m->ncpus = 2;
	m->interval = 1.0;
	m->elapsed = 1.0;
	m->tick = 3;
	m->ntasks = nrows;
	m->exit_status = -1;
	m->nevents = NEV;
	m->events = events;
	m->ngroups = 2;
	m->groups = groups;
	m->rows = rows;
	m->nrows = nrows;
}

static void test_text_block_bytes(void **state)
{
	(void)state;
	static struct val v[5][NEV], cv[2][NEV];
	static struct val_delta g[5][2], cg[2][2];
	static char longname[200];
	memset(longname, 'x', sizeof(longname) - 1);
	struct mrow rows[5] = {
		{.kind = ROW_PROC, .pid = 100, .tid = 100, .user = "alice", .comm = "server"},
		{.kind = ROW_THREAD, .pid = 100, .tid = 102, .user = "alice", .comm = "worker"},
		{.kind = ROW_PROC,
		 .pid = 200,
		 .tid = 200,
		 .user = "bob",
		 .comm = "a\x1b[31mred",
		 .exited = true},
		{.kind = ROW_PROC,
		 .pid = 3000000,
		 .tid = 3000000,
		 .user = "a-long-user-name",
		 .comm = longname},
		{.kind = ROW_PROC,
		 .pid = 4,
		 .tid = 4,
		 .user = NULL,
		 .comm = "caf\xc3\xa9\xe2\x80\xae"},
	};
	struct mrow cpu[2] = {{.kind = ROW_CPU, .cpu = 0, .cpu_pct = 37.5, .user = "", .comm = ""},
			      {.kind = ROW_CPU, .cpu = 1, .cpu_pct = -1, .user = "", .comm = ""}};
	for (int r = 0; r < 5; r++) {
		rows[r].v = v[r];
		rows[r].g = g[r];
		rows[r].nthreads = 1;
		for (int e = 0; e < NEV; e++)
			v[r][e] = ex(0);
		g[r][0] = g[r][1] = (struct val_delta){.ena = 1000000000, .run = 1000000000};
	}
	for (int c = 0; c < 2; c++) {
		cpu[c].v = cv[c];
		cpu[c].g = cg[c];
		for (int e = 0; e < NEV; e++)
			cv[c][e] = ex(0);
	}
	rows[0].nthreads = 2;
	v[0][E_TC] = ex(0.5e9);
	v[0][E_CS] = ex(1234);
	v[0][E_PF] = ex(123456);
	v[0][E_CYC] = ex(2e9);
	v[0][E_INS] = ex(3e9);
	v[1][E_TC] = ex(0.25e9);
	v[2][E_TC] = ex(1.5e6); /* 0.15%: printf's "0.1", not 0.2 */
	v[2][E_CYC] = (struct val){.v = 4.5e6, .state = VAL_SCALED, .run_pm = 250};
	v[2][E_INS] = (struct val){.v = 9e6, .state = VAL_SCALED, .run_pm = 250};
	g[2][1] = (struct val_delta){.ena = 1000000000, .run = 250000000};
	v[3][E_TC] = ex(2.5e6);
	v[3][E_CS] = val_missing(VAL_NC, WHY_NOT_RUN);
	v[4][E_CYC] = v[4][E_INS] = val_missing(VAL_NA, WHY_UNSUPPORTED);

	struct model m;
	model_init(&m, rows, 5);
	m.threads = true;
	m.cpu_rows = cpu;
	m.ncpu_rows = 2;
	const char *want =
		"pmutop - box, Linux 6.1.0, 2 CPUs - tick 3 at " WALL_AT
		", interval 1.00s (1.000s) - 5 tasks\n"
		"    PID USER      THR    CPU%    GHz   CYCLES    INSNS    IPC    CYC/s    INS/s "
		" IPC.RUN%      CSW     MIGR   FAULTS   MAJFLT COMMAND\n"
		"   cpu0             0    37.5      -        0        0      -        0        0 "
		"    100.0        0        0        0        0 \n"
		"   cpu1             0     n/a      -        0        0      -        0        0 "
		"    100.0        0        0        0        0 \n"
		"    100 alice       2    50.0   2.00    2.00G    3.00G   1.50    2.00G    3.00G "
		"    100.0     1234        0     123K        0 server\n"
		"    102 alice       1    25.0   0.00        0        0      -        0        0 "
		"    100.0        0        0        0        0   worker\n"
		"3000000 a-long-user-name    1     0.2   0.00        0        0      -        0  "
		"      0     100.0      n/c        0        0        0 xxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxx\n"
		"    200 bob         1     0.1  0.00~   4.50M~   9.00M~  2.00~   4.50M~   9.00M~ "
		"     25.0        0        0        0        0 a?[31mred (exited)\n"
		"      4             1     0.0    n/a      n/a      n/a    n/a      n/a      n/a "
		"      n/a        0        0        0        0 caf\xc3\xa9?\n"
		"\n";
	const char *got = block(&m, true);
	if (strcmp(got, want) != 0)
		fail_msg("block:\n%s\nwant:\n%s", got, want);
}

/* Rows that repeat the row above in all but one way, each of which changes a cell: a
 * zero and a negative zero, a count and the same count scaled, two running times, two
 * reasons for n/c, n/a, no number, and one user name at two addresses. Each row must
 * read as it does alone in a block (a writer that reused the cell above for any of them
 * would not). */
static void test_text_block_repeats(void **state)
{
	(void)state;
	enum { N = 14 };
	static struct mrow rows[N];
	static struct val v[N][NEV], cv[2][NEV];
	static struct val_delta g[N][2], cg[2][2];
	static char alice2[] = "alice";
	const char *users[N] = {"alice", alice2, "bob", NULL,	 "",	  "alice", "alice",
				"alice", "bob",	 "bob", "b\x1b", "b\x1b", "bob",   "bob"};
	for (int r = 0; r < N; r++) {
		rows[r] = (struct mrow){.kind = ROW_PROC,
					.pid = r + 1,
					.tid = r + 1,
					.user = users[r],
					.comm = "same",
					.nthreads = 1,
					.v = v[r],
					.g = g[r]};
		for (int e = 0; e < NEV; e++)
			v[r][e] = ex(0);
		g[r][0] = g[r][1] = (struct val_delta){.ena = 1000000000, .run = 1000000000};
	}
	v[2][E_CS] = ex(-0.0);
	v[3][E_CYC] = (struct val){.v = 0, .state = VAL_SCALED, .run_pm = 500};
	v[4][E_CYC] = (struct val){.v = 0, .state = VAL_SCALED, .run_pm = 400};
	v[5][E_CYC] = val_missing(VAL_NC, WHY_NOT_RUN);
	v[6][E_CYC] = val_missing(VAL_NC, WHY_FDLIMIT);
	v[7][E_CYC] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	v[8][E_CYC] = val_missing(VAL_EMPTY, WHY_NONE);
	v[9][E_PF] = ex(123456);
	v[10][E_PF] = ex(123457);
	v[11][E_PF] = (struct val){.v = 123457, .state = VAL_SCALED, .run_pm = 999};
	v[12][E_TC] = ex(1e9);
	g[13][1] = (struct val_delta){.ena = 2000000000, .run = 1000000000}; /* GHz */
	struct mrow cpu[2] = {{.kind = ROW_CPU, .cpu = 0, .cpu_pct = 37.5, .user = "", .comm = ""},
			      {.kind = ROW_CPU, .cpu = 1, .cpu_pct = 37.5, .user = "", .comm = ""}};
	for (int c = 0; c < 2; c++) {
		cpu[c].v = cv[c];
		cpu[c].g = cg[c];
		for (int e = 0; e < NEV; e++)
			cv[c][e] = ex(0);
	}
	cv[1][E_CS] = ex(1);

	struct model m;
	model_init(&m, rows, N);
	m.cpu_rows = cpu;
	m.ncpu_rows = 2;
	static char all[1 << 16];
	snprintf(all, sizeof(all), "%s", block_by(&m, true, "PID"));
	char got[512], want[512];
	/* Line 0 is the header, 1 the titles; then the CPU rows and the process rows. */
	for (int k = 0; k < 2 + N; k++) {
		struct model one;
		model_init(&one, k < 2 ? NULL : &rows[k - 2], k < 2 ? 0 : 1);
		one.cpu_rows = k < 2 ? &cpu[k] : NULL;
		one.ncpu_rows = k < 2 ? 1 : 0;
		line_of(all, 2 + k, got, sizeof(got));
		line_of(block_by(&one, true, "PID"), 2, want, sizeof(want));
		if (strcmp(got, want) != 0)
			fail_msg("row %d: '%s'\nwant   '%s'", k, got, want);
	}
	/* And the rows that differ from the row above only in a state or a running time
	 * do read differently. */
	char above[512];
	static const int differ[] = {4, 5, 11, 12};
	for (size_t i = 0; i < sizeof(differ) / sizeof(differ[0]); i++) {
		line_of(all, 2 + 2 + differ[i] - 1, got, sizeof(got));
		line_of(all, 2 + 2 + differ[i] - 2, above, sizeof(above));
		assert_string_not_equal(got + 8, above + 8); /* past the pid */
	}
}

/* Thousands of rows: more than the writer keeps before handing them to stdio. */
static void test_text_block_large(void **state)
{
	(void)state;
	enum { N = 3000 };
	static struct mrow rows[N];
	static struct val v[N][NEV];
	static struct val_delta g[N][2];
	for (int r = 0; r < N; r++) {
		rows[r] = (struct mrow){.kind = ROW_PROC,
					.pid = N - r,
					.tid = N - r,
					.user = "u",
					.comm = r % 2 ? "odd" : "even",
					.exited = r % 7 == 0,
					.v = v[r],
					.g = g[r]};
		for (int e = 0; e < NEV; e++)
			v[r][e] = ex(e != E_TC && r % 5 == 0 ? 7 : 0);
	}
	struct model m;
	model_init(&m, rows, N);
	m.ngroups = 1;
	m.nevents = 5;
	const char *got = block(&m, false);
	const char *p = strchr(got, '\n') + 1;
	p = strchr(p, '\n') + 1; /* the block's header and the column titles */
	/* Every CPU% is 0.0: rows go by pid. */
	for (int pid = 1; pid <= N; pid++) {
		int r = N - pid;
		char line[160];
		const char *c = r % 5 == 0 ? "7" : "0";
		snprintf(line, sizeof(line), "%7d %-8s %7s %8s %8s %8s %8s %s%s\n", pid, "u", "0.0",
			 c, c, c, c, r % 2 ? "odd" : "even", r % 7 == 0 ? " (exited)" : "");
		if (strncmp(p, line, strlen(line)) != 0)
			fail_msg("pid %d: '%.*s' want '%s'", pid, (int)strlen(line), p, line);
		p += strlen(line);
	}
	assert_string_equal(p, "\n");
}

/* Out of descriptors: in text, CSV and JSON alike, stdout has only the output and stderr
 * one notice when tasks go short (not one per tick) and one when all are counted again. */
static void test_fd_short_notice(void **state)
{
	(void)state;
	static char out[1 << 16], err[1 << 12];
	const enum out_format fmts[] = {OUT_TEXT, OUT_CSV, OUT_JSON};
	for (unsigned k = 0; k < 3; k++) {
		struct mrow rows[1] = {
			{.kind = ROW_PROC, .pid = 7, .tid = 7, .comm = "a", .user = "u"}};
		struct val v[NEV];
		for (int i = 0; i < NEV; i++)
			v[i] = val_missing(VAL_NC, WHY_FDLIMIT);
		struct val_delta g[2] = {{0}};
		rows[0].v = v;
		rows[0].g = g;
		rows[0].nthreads = 1;
		struct model m;
		model_init(&m, rows, 1);
		struct pane panes[8];
		unsigned np = columns_build_panes(&m, false, panes, 8);
		FILE *f = tmpfile(), *e = tmpfile();
		assert_non_null(f);
		assert_non_null(e);
		/* stderr to e while writing: cmocka reports only after it is back. */
		fflush(stderr);
		int saved = dup(2);
		assert_true(saved >= 0);
		dup2(fileno(e), 2);
		struct batch *b = batch_new(f, fmts[k], panes, np, NULL, false);
		const unsigned shorts[] = {3, 4, 4, 0, 0};
		int rc = b ? 0 : -ENOMEM;
		for (unsigned t = 0; t < 5 && rc == 0; t++) {
			m.tick = t + 1;
			m.nfd_short = shorts[t];
			rc = batch_write(b, &m, WALL);
		}
		batch_free(b);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		assert_int_equal(rc, 0);
		rewind(f);
		out[fread(out, 1, sizeof(out) - 1, f)] = '\0';
		fclose(f);
		rewind(e);
		err[fread(err, 1, sizeof(err) - 1, e)] = '\0';
		fclose(e);
		if (out[0] == '#' || strstr(out, "\n#") || strstr(out, "descriptors"))
			fail_msg("format %u: the notice is on stdout:\n%s", k, out);
		assert_string_equal(err,
				    "pmutop: 3 tasks not counted (n/c): out of file descriptors; "
				    "raise the limit (ulimit -Hn, LimitNOFILE=) or watch fewer "
				    "tasks (-p, -e with fewer events)\n"
				    "pmutop: every task counted again: enough file descriptors "
				    "now\n");
	}
}

/* One block of m in format fmt, as written (static till the next call). */
static const char *block_fmt(const struct model *m, enum out_format fmt)
{
	static char out[1 << 16];
	struct pane panes[8];
	unsigned np = columns_build_panes(m, false, panes, 8);
	FILE *f = tmpfile();
	assert_non_null(f);
	struct batch *b = batch_new(f, fmt, panes, np, NULL, false);
	assert_non_null(b);
	assert_int_equal(batch_write(b, m, WALL), 0);
	batch_free(b);
	rewind(f);
	out[fread(out, 1, sizeof(out) - 1, f)] = '\0';
	fclose(f);
	return out;
}

/* A partial value (a process some of whose threads had no descriptor) says so in every
 * format: '+' after its number in text, state partial with the share of parts counted
 * and the reason in CSV and JSON, and what is derived from it (CPU%) partial too. */
static void test_partial_every_format(void **state)
{
	(void)state;
	struct mrow rows[1] = {{.kind = ROW_PROC, .pid = 7, .tid = 7, .comm = "a", .user = "u"}};
	struct val v[NEV];
	for (int i = 0; i < NEV; i++)
		v[i] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	v[E_TC] = (struct val){.v = 250e6, .state = VAL_PARTIAL, .why = WHY_FDLIMIT, .run_pm = 185};
	v[E_CS] = (struct val){.v = 413, .state = VAL_PARTIAL, .why = WHY_FDLIMIT, .run_pm = 185};
	struct val_delta g[2] = {{0}};
	rows[0].v = v;
	rows[0].g = g;
	rows[0].nthreads = 2000;
	struct model m;
	model_init(&m, rows, 1);
	const char *t = block_fmt(&m, OUT_TEXT);
	if (!strstr(t, "25.0+"))
		fail_msg("no partial CPU%% (25.0+) in the text block:\n%s", t);
	const char *c = block_fmt(&m, OUT_CSV);
	if (!strstr(c, ",context-switches,413,partial,18.50,fd limit,"))
		fail_msg("no partial context-switches in the CSV:\n%s", c);
	if (!strstr(c, ",CPU%,25.0000,partial,18.50,fd limit,"))
		fail_msg("no partial CPU%% in the CSV:\n%s", c);
	const char *j = block_fmt(&m, OUT_JSON);
	if (!strstr(j, "\"context-switches\":{\"value\":413,\"state\":\"partial\",\"why\":\"fd "
		       "limit\",\"running\":18.50}"))
		fail_msg("no partial context-switches in the JSON:\n%s", j);
}

/* A count of the bpf backend holding the switch windows that brought the task in
 * (WHY_SWITCH): '~' in text, state scaled with the reason and running the task's own
 * share in CSV and JSON, its value as counted. */
static void test_switch_window_every_format(void **state)
{
	(void)state;
	struct mrow rows[1] = {{.kind = ROW_PROC, .pid = 7, .tid = 7, .comm = "a", .user = "u"}};
	struct val v[NEV];
	for (int i = 0; i < NEV; i++)
		v[i] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	v[E_CS] = (struct val){.v = 413, .state = VAL_SCALED, .why = WHY_SWITCH, .run_pm = 977};
	struct val_delta g[2] = {{0}};
	rows[0].v = v;
	rows[0].g = g;
	struct model m;
	model_init(&m, rows, 1);
	const char *t = block_fmt(&m, OUT_TEXT);
	if (!strstr(t, "413~"))
		fail_msg("no 413~ in the text block:\n%s", t);
	const char *c = block_fmt(&m, OUT_CSV);
	if (!strstr(c, ",context-switches,413,scaled,97.70,switch window counted,"))
		fail_msg("no switch window's reason in the CSV:\n%s", c);
	const char *j = block_fmt(&m, OUT_JSON);
	if (!strstr(j, "\"context-switches\":{\"value\":413,\"state\":\"scaled\",\"why\":\"switch "
		       "window counted\",\"running\":97.70}"))
		fail_msg("no switch window's reason in the JSON:\n%s", j);
}

/* Every CSV and JSON line says when, as epoch seconds and as ISO 8601 with the offset;
 * a time that rounds up to the next second carries into it. */
static void test_wall_time_every_line(void **state)
{
	(void)state;
	struct mrow rows[2] = {{.kind = ROW_PROC, .pid = 7, .tid = 7, .comm = "a", .user = "u"},
			       {.kind = ROW_PROC, .pid = 8, .tid = 8, .comm = "b", .user = "u"}};
	static struct val v[2][NEV];
	struct val_delta g[2][2] = {{{0}}};
	for (int r = 0; r < 2; r++) {
		for (int i = 0; i < NEV; i++)
			v[r][i] = ex(r + i + 1);
		rows[r].v = v[r];
		rows[r].g = g[r];
	}
	struct model m;
	model_init(&m, rows, 2);
	const char *c = block_fmt(&m, OUT_CSV);
	const char *nl = strchr(c, '\n');
	assert_non_null(nl);
	assert_true(strncmp(c, "tick,", 5) == 0 && strncmp(nl - 8, ",wall,at", 8) == 0);
	unsigned lines = 0;
	for (const char *l = nl + 1; *l; l = strchr(l, '\n') + 1, lines++) {
		const char *e = strchr(l, '\n');
		const char *want = ",1764088801.250," WALL_AT;
		if ((size_t)(e - l) < strlen(want) ||
		    strncmp(e - strlen(want), want, strlen(want)) != 0)
			fail_msg("a CSV line without its wall time: %.*s", (int)(e - l), l);
	}
	assert_true(lines >= 2 * NEV);
	const char *j = block_fmt(&m, OUT_JSON);
	lines = 0;
	for (const char *l = j; *l; l = strchr(l, '\n') + 1, lines++)
		if (!strstr(l, ",\"wall\":1764088801.250,\"at\":\"" WALL_AT "\","))
			fail_msg("a JSON line without its wall time: %s", l);
	assert_int_equal(lines, 2);
	/* A damaged recording's time: no local form, never undefined behaviour. */
	char iso[40];
	assert_string_equal(text_iso_time(1e300, iso, sizeof(iso)), "?");
	assert_string_equal(text_iso_time(-0.5, iso, sizeof(iso)), "?");
	char *t = strdup(block_at(&m, 1764088801.9996));
	if (!strstr(t, " at 2025-11-25T17:40:02.000+01:00, "))
		fail_msg("the text header without its wall time: %s", t);
	free(t);
}

int main(void)
{
	setenv("TZ", "UTC-1", 1); /* +01:00 all year */
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wall_time_every_line),
		cmocka_unit_test(test_text_block_bytes),
		cmocka_unit_test(test_text_block_large),
		cmocka_unit_test(test_text_block_repeats),
		cmocka_unit_test(test_fd_short_notice),
		cmocka_unit_test(test_partial_every_format),
		cmocka_unit_test(test_switch_window_every_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
