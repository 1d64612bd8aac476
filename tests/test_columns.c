/* Panes and columns over a hand-built model: which columns each pane gets, what each
 * cell computes (IPC, ratios, rates, GHz, RUN%) and how it is written, marks included. */
#include "testutil.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "numfmt.h"

/* The default event set, as evset builds it: a software group, then IPC, cache and
 * branch groups; instructions appears in three groups. */
/* clang-format off */
enum {
	E_TC, E_CS, E_MIGR, E_PF, E_MAJ,
	E_CYC, E_INS1,
	E_CREF, E_CMISS, E_INS2,
	E_BR, E_BMISS, E_INS3,
	NEV
};
/* clang-format on */

static const struct mevent events[NEV] = {
	[E_TC] = {.name = "task-clock",
		  .key = "task-clock",
		  .group = 0,
		  .member = 0,
		  .role = ROLE_TASK_CLOCK,
		  .status = 0,
		  .hardware = false},
	[E_CS] = {.name = "context-switches",
		  .key = "context-switches",
		  .group = 0,
		  .member = 1,
		  .role = ROLE_CS,
		  .status = 0,
		  .hardware = false},
	[E_MIGR] = {.name = "cpu-migrations",
		    .key = "cpu-migrations",
		    .group = 0,
		    .member = 2,
		    .role = ROLE_MIGRATIONS,
		    .status = 0,
		    .hardware = false},
	[E_PF] = {.name = "page-faults",
		  .key = "page-faults",
		  .group = 0,
		  .member = 3,
		  .role = ROLE_FAULTS,
		  .status = 0,
		  .hardware = false},
	[E_MAJ] = {.name = "major-faults",
		   .key = "major-faults",
		   .group = 0,
		   .member = 4,
		   .role = ROLE_MAJ_FAULTS,
		   .status = 0,
		   .hardware = false},
	[E_CYC] = {.name = "cycles",
		   .key = "cycles",
		   .group = 1,
		   .member = 0,
		   .role = ROLE_CYCLES,
		   .status = 0,
		   .hardware = true},
	[E_INS1] = {.name = "instructions",
		    .key = "instructions#2",
		    .group = 1,
		    .member = 1,
		    .role = ROLE_INSNS,
		    .status = 0,
		    .hardware = true},
	[E_CREF] = {.name = "cache-references",
		    .key = "cache-references",
		    .group = 2,
		    .member = 0,
		    .role = ROLE_CACHE_REFS,
		    .status = 0,
		    .hardware = true},
	[E_CMISS] = {.name = "cache-misses",
		     .key = "cache-misses",
		     .group = 2,
		     .member = 1,
		     .role = ROLE_CACHE_MISSES,
		     .status = 0,
		     .hardware = true},
	[E_INS2] = {.name = "instructions",
		    .key = "instructions#3",
		    .group = 2,
		    .member = 2,
		    .role = ROLE_CACHE_INSNS,
		    .status = 0,
		    .hardware = true},
	[E_BR] = {.name = "branches",
		  .key = "branches",
		  .group = 3,
		  .member = 0,
		  .role = ROLE_BRANCHES,
		  .status = 0,
		  .hardware = true},
	[E_BMISS] = {.name = "branch-misses",
		     .key = "branch-misses",
		     .group = 3,
		     .member = 1,
		     .role = ROLE_BRANCH_MISSES,
		     .status = 0,
		     .hardware = true},
	[E_INS3] = {.name = "instructions",
		    .key = "instructions#4",
		    .group = 3,
		    .member = 2,
		    .role = ROLE_BRANCH_INSNS,
		    .status = 0,
		    .hardware = true},
};
static const struct mgroup groups[4] = {
	{.first = 0, .n = 5}, {.first = 5, .n = 2}, {.first = 7, .n = 3}, {.first = 10, .n = 3}};

struct fake {
	struct model m;
	struct mrow rows[4];
	struct val v[4][NEV];
	struct val_delta g[4][4];
};

static struct val ex(double v)
{
	return (struct val){.v = v, .state = VAL_EXACT, .run_pm = 1000};
}

static struct val sc(double v, uint16_t run_pm)
{
	return (struct val){.v = v, .state = VAL_SCALED, .run_pm = run_pm};
}

/* One process row (pid 100, 50% CPU, IPC 1.5, ...), one thread row, one CPU row. */
static void fake_init(struct fake *f, bool threads)
{
	memset(f, 0, sizeof(*f));
	f->m.nevents = NEV;
	f->m.events = events;
	f->m.ngroups = 4;
	f->m.groups = groups;
	f->m.elapsed = 1.0;
	f->m.interval = 1.0;
	f->m.threads = threads;
	f->m.rows = f->rows;
	f->m.nrows = 2;
	for (int r = 0; r < 4; r++) {
		f->rows[r].v = f->v[r];
		f->rows[r].g = f->g[r];
		for (int e = 0; e < NEV; e++)
			f->v[r][e] = ex(0);
		for (int g = 0; g < 4; g++)
			f->g[r][g] = (struct val_delta){.ena = 1000000000, .run = 1000000000};
	}
	struct mrow *p = &f->rows[0];
	p->kind = ROW_PROC;
	p->pid = p->tid = 100;
	p->user = "alice";
	p->comm = "server";
	p->nthreads = 3;
	f->v[0][E_TC] = ex(0.5e9);
	f->v[0][E_CS] = ex(1234);
	f->v[0][E_PF] = ex(123456);
	f->v[0][E_CYC] = ex(2e9);
	f->v[0][E_INS1] = ex(3e9);
	f->v[0][E_CREF] = ex(200);
	f->v[0][E_CMISS] = ex(50);
	f->v[0][E_INS2] = ex(1e6);
	f->v[0][E_BR] = sc(4e6, 250);
	f->v[0][E_BMISS] = sc(1e5, 250);
	f->v[0][E_INS3] = sc(2e7, 250);
	f->g[0][3] = (struct val_delta){.ena = 1000000000, .run = 250000000};

	struct mrow *t = &f->rows[1];
	t->kind = ROW_THREAD;
	t->pid = 100;
	t->tid = 102;
	t->user = "alice";
	t->comm = "worker";
	t->nthreads = 1;

	struct mrow *c = &f->rows[2];
	c->kind = ROW_CPU;
	c->cpu = 3;
	c->cpu_pct = 37.5;
	c->comm = "";
	c->user = "";
}

/* The fake's groups, every one the user's (-e with the default set's own groups). */
static void users_groups(struct fake *f, struct mgroup user[4])
{
	for (int i = 0; i < 4; i++) {
		user[i] = groups[i];
		user[i].user = true;
	}
	f->m.groups = user;
}

static const char *names(const struct pane *p)
{
	static char buf[512];
	buf[0] = '\0';
	for (unsigned i = 0; i < p->ncols; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? " " : "",
			 p->cols[i].name);
	return buf;
}

static const struct column *col(const struct pane *p, const char *name)
{
	int i = pane_find_column(p, name);
	if (i < 0)
		fail_msg("no column %s in pane %s (%s)", name, p->name, names(p));
	return &p->cols[i];
}

static const char *cell(const struct fake *f, const struct pane *p, const char *name, int row)
{
	static char buf[64];
	column_format(col(p, name), &f->m, row == 2 ? &f->rows[2] : &f->m.rows[row], buf,
		      sizeof(buf));
	return buf;
}

static const char *raw(const struct fake *f, const struct pane *p, const char *name, int row)
{
	static char buf[64];
	column_format_raw(col(p, name), &f->m, &f->rows[row], buf, sizeof(buf));
	return buf;
}

static void test_builtin_panes(void **state)
{
	(void)state;
	struct fake f;
	struct pane panes[8];
	fake_init(&f, false);
	assert_int_equal(columns_build_panes(&f.m, false, panes, 8), 4);
	assert_string_equal(panes[0].name, "IPC");
	assert_string_equal(panes[1].name, "Cache");
	assert_string_equal(panes[2].name, "Branch");
	assert_string_equal(panes[3].name, "Software");
	assert_string_equal(names(&panes[0]),
			    "PID USER CPU% GHZ CYCLES INSNS IPC CYC/S INS/S RUN% COMMAND");
	assert_string_equal(names(&panes[1]),
			    "PID USER CPU% CREFS CMISS CMISS% CMPKI RUN% COMMAND");
	assert_string_equal(names(&panes[2]),
			    "PID USER CPU% BRANCH BMISS BMISS% BMPKI RUN% COMMAND");
	assert_string_equal(names(&panes[3]), "PID USER CPU% CSW MIGR FAULTS MAJFLT COMMAND");
	for (int i = 0; i < 4; i++)
		assert_string_equal(panes[i].cols[panes[i].sort_default].name, "CPU%");

	/* Roles became event indices; a built-in RUN% reads its pane's role event (b == 1),
	 * which on hybrid CPUs is the sum over the core PMUs. */
	const struct column *ipc = col(&panes[0], "IPC");
	assert_int_equal(ipc->a, E_INS1);
	assert_int_equal(ipc->b, E_CYC);
	assert_int_equal(col(&panes[0], "RUN%")->a, E_CYC);
	assert_int_equal(col(&panes[0], "RUN%")->b, 1);
	assert_int_equal(col(&panes[1], "RUN%")->a, E_CREF);
	assert_int_equal(col(&panes[1], "CMPKI")->b, E_INS2);
	assert_int_equal(col(&panes[2], "BMPKI")->b, E_INS3);
	assert_int_equal(col(&panes[3], "CPU%")->a, E_TC);

	/* At most max panes. */
	assert_int_equal(columns_build_panes(&f.m, false, panes, 2), 2);
	assert_string_equal(panes[1].name, "Cache");
}

/* Every column a pane can show, hidden ones and a user's metric too, carries what reads
 * and shows it: a numeric column its value and format, a text one its text. */
static void test_descriptors_complete(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, true);
	struct mgroup user[4];
	users_groups(&f, user);
	struct user_metric um = {
		.name = "MISS%", .a = "cache-misses", .b = "cache-references", .mul = 100};
	unsigned np = columns_build_panes_all(&f.m, true, &um, 1, p, 8);
	assert_int_equal(np, 5);
	unsigned seen = 0;
	for (unsigned i = 0; i < np; i++) {
		for (unsigned k = 0; k < p[i].ncols; k++) {
			const struct column *c = &p[i].cols[k];
			assert_non_null(c->value);
			if (column_is_numeric(c)) {
				assert_non_null(c->format);
				assert_null(c->text);
			} else {
				assert_non_null(c->text);
				assert_null(c->format);
			}
			seen++;
		}
	}
	assert_true(seen > 40);
	assert_ptr_equal(col(&p[0], "MISS%")->format, column_fmt_ratio_pct);
	assert_int_equal(col(&p[0], "MISS%")->num, E_CMISS);
	assert_int_equal(col(&p[0], "MISS%")->den, E_CREF);
}

static void test_thread_column(void **state)
{
	(void)state;
	struct fake f;
	struct pane panes[8];
	fake_init(&f, true);
	assert_int_equal(columns_build_panes(&f.m, false, panes, 8), 4);
	assert_string_equal(names(&panes[3]), "PID USER THR CPU% CSW MIGR FAULTS MAJFLT COMMAND");
	assert_string_equal(panes[3].cols[panes[3].sort_default].name, "CPU%");
}

static void test_software_only(void **state)
{
	(void)state;
	struct fake f;
	struct pane panes[8];
	fake_init(&f, false);
	f.m.nevents = 5;
	f.m.ngroups = 1;
	assert_int_equal(columns_build_panes(&f.m, false, panes, 8), 1);
	assert_string_equal(panes[0].name, "Software");
}

static void test_missing_partner_drops_columns(void **state)
{
	(void)state;
	/* cycles without instructions: the IPC pane keeps only what cycles can feed. */
	struct mevent ev[2] = {{.name = "cycles",
				.key = "cycles",
				.group = 0,
				.member = 0,
				.role = ROLE_CYCLES,
				.status = 0,
				.hardware = true},
			       {.name = "bus-cycles",
				.key = "bus-cycles",
				.group = 0,
				.member = 1,
				.role = ROLE_NONE,
				.status = 0,
				.hardware = true}};
	struct mgroup g[1] = {{.first = 0, .n = 2}};
	struct model m = {.nevents = 2, .events = ev, .ngroups = 1, .groups = g};
	struct pane panes[8];
	assert_int_equal(columns_build_panes(&m, false, panes, 8), 1);
	assert_string_equal(names(&panes[0]), "PID USER CPU% GHZ CYCLES CYC/S RUN% COMMAND");
	/* Without task-clock, CPU% reads n/a rather than a made-up number. */
	struct val v[2] = {ex(5), ex(6)};
	struct val_delta gd[1] = {{10, 10, 0}};
	struct mrow r = {.kind = ROW_PROC, .pid = 1, .tid = 1, .v = v, .g = gd};
	m.elapsed = 1;
	char buf[32];
	column_format(col(&panes[0], "CPU%"), &m, &r, buf, sizeof(buf));
	assert_string_equal(buf, "n/a");
}

static void test_events_pane(void **state)
{
	(void)state;
	/* -e with the default set's own groups: every group is the user's. */
	struct fake f;
	struct pane panes[8];
	fake_init(&f, false);
	struct mgroup user[4];
	users_groups(&f, user);
	assert_int_equal(columns_build_panes(&f.m, true, panes, 8), 5);
	assert_string_equal(panes[0].name, "Events");
	assert_string_equal(
		names(&panes[0]),
		"PID USER CPU% task-clock context-switches cpu-migrations page-faults "
		"major-faults cycles instructions#2 RUN%2 cache-references cache-misses "
		"instructions#3 RUN%3 branches branch-misses instructions#4 RUN%4 COMMAND");
	/* Titles are the names as written; the key tells repeated names apart. */
	assert_string_equal(col(&panes[0], "instructions#3")->title, "instructions");
	assert_int_equal(col(&panes[0], "instructions#3")->a, E_INS2);
	assert_int_equal(col(&panes[0], "RUN%4")->a, 3);
	assert_string_equal(panes[1].name, "IPC");
	/* The RUN% of the branch group reads its running share. */
	assert_string_equal(cell(&f, &panes[0], "RUN%4", 0), "25.0");
}

static void test_events_pane_user_groups_only(void **state)
{
	(void)state;
	/* The default set plus one group of the user's: the Events pane lists that group
	 * only, even when the caller did not ask for user events. */
	struct fake f;
	struct pane panes[8];
	fake_init(&f, false);
	assert_int_equal(columns_build_panes(&f.m, false, panes, 8), 4);
	assert_string_equal(panes[0].name, "IPC");
	struct mgroup mixed[4];
	memcpy(mixed, groups, sizeof(mixed));
	mixed[2].user = true;
	f.m.groups = mixed;
	assert_int_equal(columns_build_panes(&f.m, false, panes, 8), 5);
	assert_string_equal(names(&panes[0]), "PID USER CPU% cache-references cache-misses "
					      "instructions#3 RUN%1 COMMAND");
	assert_string_equal(panes[1].name, "IPC");
}

static void test_events_pane_single_group(void **state)
{
	(void)state;
	struct mevent ev[2] = {{.name = "cycles",
				.key = "cycles",
				.group = 0,
				.member = 0,
				.role = ROLE_CYCLES,
				.status = 0,
				.hardware = true},
			       {.name = "instructions",
				.key = "instructions",
				.group = 0,
				.member = 1,
				.role = ROLE_INSNS,
				.status = 0,
				.hardware = true}};
	struct mgroup g[1] = {{.first = 0, .n = 2, .user = true}};
	struct model m = {.nevents = 2, .events = ev, .ngroups = 1, .groups = g};
	struct pane panes[8];
	assert_int_equal(columns_build_panes(&m, true, panes, 8), 2);
	assert_string_equal(names(&panes[0]), "PID USER CPU% cycles instructions RUN% COMMAND");
}

static void test_user_metrics(void **state)
{
	(void)state;
	struct fake f;
	struct pane panes[8];
	fake_init(&f, false);
	struct mgroup user[4];
	memcpy(user, groups, sizeof(user));
	user[2].user = true;
	f.m.groups = user;
	const struct user_metric um[4] = {
		{"MPKI", "cache-misses", "instructions#3", 1000},
		{"MIX", "cache-misses", "instructions#2", 1}, /* two groups: never */
		{"GHOST", "nope", "cycles", 1},		      /* no such event */
		{"MISS-PER-REFERENCE", "cache-misses", "cache-references", 100},
	};
	assert_int_equal(columns_check_metric(&f.m, &um[0]), 0);
	assert_int_equal(columns_check_metric(&f.m, &um[1]), -EXDEV);
	assert_int_equal(columns_check_metric(&f.m, &um[2]), -ENOENT);
	/* Keys of another layout (regrouped, or a setup saved then): found again by the
	 * events' names in the group that has both; never across groups. */
	const struct user_metric moved = {"MOVED", "cache-misses#7", "instructions#9", 1000};
	assert_int_equal(columns_check_metric(&f.m, &moved), 0);
	const struct user_metric split = {"SPLIT", "cycles#9", "cache-misses#9", 1};
	assert_int_equal(columns_check_metric(&f.m, &split), -EXDEV);
	const struct user_metric gone = {"GONE", "nope#2", "cycles", 1};
	assert_int_equal(columns_check_metric(&f.m, &gone), -ENOENT);
	assert_int_equal(columns_build_panes_ex(&f.m, false, um, 4, panes, 8), 5);
	/* The good ones, before COMMAND, in the user's order; the others left out. */
	assert_string_equal(names(&panes[0]), "PID USER CPU% cache-references cache-misses "
					      "instructions#3 RUN%1 MPKI MISS-PER-REFERENCE "
					      "COMMAND");
	assert_string_equal(cell(&f, &panes[0], "MPKI", 0), "0.0500");
	assert_string_equal(cell(&f, &panes[0], "MISS-PER-REFERENCE", 0), "25.0");
	assert_true(col(&panes[0], "MISS-PER-REFERENCE")->width >= 18);
	/* No Events pane: nowhere to put them, nothing else changes. */
	f.m.groups = groups;
	assert_int_equal(columns_build_panes_ex(&f.m, false, um, 4, panes, 8), 4);
	assert_int_equal(pane_find_column(&panes[0], "MPKI"), -1);
}

static void test_values(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	columns_build_panes(&f.m, false, p, 8);
	assert_string_equal(cell(&f, &p[0], "IPC", 0), "1.50");
	assert_string_equal(raw(&f, &p[0], "IPC", 0), "1.5000");
	assert_string_equal(cell(&f, &p[0], "CPU%", 0), "50.0");
	assert_string_equal(raw(&f, &p[0], "CPU%", 0), "50.00");
	assert_string_equal(cell(&f, &p[0], "GHZ", 0), "2.00");
	assert_string_equal(cell(&f, &p[0], "CYCLES", 0), "2.00G");
	assert_string_equal(raw(&f, &p[0], "CYCLES", 0), "2000000000");
	assert_string_equal(cell(&f, &p[0], "INS/S", 0), "3.00G");
	assert_string_equal(cell(&f, &p[0], "RUN%", 0), "100.0");
	assert_string_equal(cell(&f, &p[1], "CMISS%", 0), "25.0");
	assert_string_equal(cell(&f, &p[1], "CMPKI", 0), "0.050"); /* 3 significant digits */
	assert_string_equal(raw(&f, &p[1], "CMPKI", 0), "0.0500");
	assert_string_equal(cell(&f, &p[2], "BMISS%", 0), "2.5");
	assert_string_equal(cell(&f, &p[2], "BMPKI", 0), "5.00");
	assert_string_equal(cell(&f, &p[2], "RUN%", 0), "25.0");
	assert_string_equal(cell(&f, &p[3], "CSW", 0), "1234");
	assert_string_equal(cell(&f, &p[3], "FAULTS", 0), "123K");
	assert_string_equal(raw(&f, &p[3], "FAULTS", 0), "123456");
	/* Scaled inputs give a scaled ratio, written like an exact one. */
	struct val v = column_value(col(&p[2], "BMISS%"), &f.m, &f.rows[0]);
	assert_int_equal(v.state, VAL_SCALED);
	assert_int_equal(v.run_pm, 250);
	/* Rates divide by the interval that really elapsed. */
	f.m.elapsed = 2.0;
	assert_string_equal(cell(&f, &p[0], "CYC/S", 0), "1.00G");
	assert_string_equal(cell(&f, &p[0], "CPU%", 0), "25.0");
	/* No time elapsed: nothing to divide by. */
	f.m.elapsed = 0;
	assert_string_equal(cell(&f, &p[0], "CPU%", 0), "-");
	assert_string_equal(raw(&f, &p[0], "CPU%", 0), "");
}

static void test_marks(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	columns_build_panes(&f.m, false, p, 8);
	/* cycles unsupported: everything derived from it is n/a too, never 0. */
	f.v[0][E_CYC] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	assert_string_equal(cell(&f, &p[0], "CYCLES", 0), "n/a");
	assert_string_equal(raw(&f, &p[0], "CYCLES", 0), "");
	assert_string_equal(cell(&f, &p[0], "IPC", 0), "n/a");
	assert_string_equal(raw(&f, &p[0], "IPC", 0), "");
	assert_string_equal(cell(&f, &p[0], "GHZ", 0), "n/a");
	assert_string_equal(cell(&f, &p[0], "CYC/S", 0), "n/a");
	assert_string_equal(cell(&f, &p[0], "RUN%", 0), "n/a");
	assert_string_equal(cell(&f, &p[0], "INSNS", 0), "3.00G");
	/* Not counted this interval: n/c, and the group ran 0% of the time. */
	f.v[0][E_CYC] = val_missing(VAL_NC, WHY_NOT_RUN);
	f.v[0][E_INS1] = val_missing(VAL_NC, WHY_NOT_RUN);
	assert_string_equal(cell(&f, &p[0], "CYCLES", 0), "n/c");
	assert_string_equal(cell(&f, &p[0], "IPC", 0), "n/c");
	assert_string_equal(cell(&f, &p[0], "RUN%", 0), "0.0");
	/* An idle task: zero cycles, IPC "-". */
	f.v[0][E_CYC] = ex(0);
	f.v[0][E_INS1] = ex(0);
	assert_string_equal(cell(&f, &p[0], "CYCLES", 0), "0");
	assert_string_equal(cell(&f, &p[0], "IPC", 0), "-");
	assert_string_equal(raw(&f, &p[0], "IPC", 0), "");
	/* n/a beats a zero denominator. */
	f.v[0][E_INS1] = val_missing(VAL_NA, WHY_NOPERM);
	assert_string_equal(cell(&f, &p[0], "IPC", 0), "n/a");
}

static void test_count_format(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	columns_build_panes(&f.m, false, p, 8);
	/* clang-format off */
	const struct {
		double v;
		const char *s;
	} cases[] = {
		{0, "0"},          {7, "7"},          {999, "999"},        {99999, "99999"},
		{100000, "100K"},  {123456, "123K"},  {999499, "999K"},    {999999, "1.00M"},
		{1234567, "1.23M"}, {12345678, "12.3M"}, {123456789, "123M"}, {7.89e9, "7.89G"},
		{1.5e12, "1.50T"}, {2.5e15, "2.50P"}, {3e18, "3.00E"},
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f.v[0][E_CS] = ex(cases[i].v);
		const char *got = cell(&f, &p[3], "CSW", 0);
		if (strcmp(got, cases[i].s) != 0)
			fail_msg("%.0f formatted as '%s', want '%s'", cases[i].v, got, cases[i].s);
		/* Four significant characters fit the 7-wide column. */
		assert_true(strlen(got) <= 7);
	}
	/* The machine-readable form is the whole number. */
	f.v[0][E_CS] = sc(7.89e9, 500);
	assert_string_equal(raw(&f, &p[3], "CSW", 0), "7890000000");
}

/* Ratios keep three significant digits within the column (less a space): a small
 * non-zero ratio never reads 0.00. Time events read as time. */
static void test_sig_and_time_format(void **state)
{
	(void)state;
	char buf[64];
	/* clang-format off */
	const struct {
		int width;
		double v;
		const char *s;
	} cases[] = {
		{8, 1.5, "1.50"},      {8, 0.0123, "0.0123"},   {8, 0.000123, "0.00012"},
		{8, 0.0000123, "1.2e-5"}, {8, 12.34, "12.3"},     {8, 1234.5, "1.23k"},
		{8, 2.5e7, "25.0M"},    {5, 0.004, "4e-3"},     {5, 0.0004, "4e-4"},
		{5, 0.5, "0.50"},       {6, 0.05, "0.050"},      {8, 0, "0"},
		{5, -0.26, "-0.3"},
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct column c = {.name = "X",
				   .title = "X",
				   .width = cases[i].width,
				   .kind = COL_RATIO,
				   .fmt = FMT_RATIO,
				   .format = column_fmt_ratio};
		column_format_val(&c, ex(cases[i].v), buf, sizeof(buf));
		if (strcmp(buf, cases[i].s) != 0)
			fail_msg("%g in %d formatted as '%s', want '%s'", cases[i].v,
				 cases[i].width, buf, cases[i].s);
		assert_true((int)strlen(buf) < cases[i].width);
	}
	/* A small percentage is not 0.0. */
	struct column pc = {.name = "P",
			    .title = "P",
			    .width = 8,
			    .kind = COL_RATIO,
			    .fmt = FMT_PCT,
			    .format = column_fmt_ratio_pct};
	column_format_val(&pc, ex(0.004), buf, sizeof(buf));
	assert_string_equal(buf, "0.00400");
	column_format_val(&pc, ex(12.34), buf, sizeof(buf));
	assert_string_equal(buf, "12.3");
	/* task-clock in the Events pane: a time, its column as wide as its title. */
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	struct mgroup user[4];
	users_groups(&f, user);
	assert_int_equal(columns_build_panes(&f.m, true, p, 8), 5);
	const struct column *tc = col(&p[0], "task-clock");
	assert_int_equal(tc->fmt, FMT_TIME);
	assert_true(tc->width > (int)strlen("task-clock"));
	const struct {
		double ns;
		const char *s;
	} times[] = {{850, "850ns"},
		     {12345, "12.3us"},
		     {345e6, "345ms"},
		     {1.02e9, "1.02s"},
		     {5e12, "5000s"}};
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		column_format_val(tc, ex(times[i].ns), buf, sizeof(buf));
		assert_string_equal(buf, times[i].s);
	}
}

static void test_text_cells(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, true);
	columns_build_panes(&f.m, false, p, 8);
	assert_string_equal(cell(&f, &p[3], "PID", 0), "100");
	assert_string_equal(cell(&f, &p[3], "PID", 1), "102"); /* thread rows show the tid */
	assert_string_equal(cell(&f, &p[3], "PID", 2), "cpu3");
	assert_string_equal(cell(&f, &p[3], "USER", 0), "alice");
	assert_string_equal(cell(&f, &p[3], "THR", 0), "3");
	assert_string_equal(cell(&f, &p[3], "COMMAND", 0), "server");
	assert_string_equal(cell(&f, &p[3], "COMMAND", 1), "worker");
	assert_string_equal(raw(&f, &p[3], "COMMAND", 0), "server");
	assert_false(column_is_numeric(col(&p[3], "COMMAND")));
	assert_false(column_is_numeric(col(&p[3], "PID")));
	assert_true(column_is_numeric(col(&p[3], "CPU%")));
	assert_true(column_is_numeric(col(&p[3], "CSW")));
}

static void test_cpu_rows(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	columns_build_panes(&f.m, false, p, 8);
	/* A CPU's busy share comes from /proc/stat, not from task-clock. */
	assert_string_equal(cell(&f, &p[3], "CPU%", 2), "37.5");
	f.rows[2].cpu_pct = -1; /* /proc/stat unreadable */
	assert_string_equal(cell(&f, &p[3], "CPU%", 2), "n/a");
	f.rows[2].cpu_pct = -2; /* no jiffy went by: nothing to divide */
	assert_string_equal(cell(&f, &p[3], "CPU%", 2), "-");
}

static void test_find_column(void **state)
{
	(void)state;
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	columns_build_panes(&f.m, false, p, 8);
	assert_int_equal(pane_find_column(&p[0], "ipc"), pane_find_column(&p[0], "IPC"));
	assert_true(pane_find_column(&p[0], "IPC") >= 0);
	assert_true(pane_find_column(&p[1], "cmiss%") >= 0);
	assert_int_equal(pane_find_column(&p[0], "CMISS%"), -1);
	assert_int_equal(pane_find_column(&p[0], "nope"), -1);
}

/* The cell formatters as they were written with printf alone: the faster ones must give
 * these bytes for every value, so that no table, file or diff sees a change. Three
 * significant digits are numfmt_sig's own (test_numfmt checks it, and its digits against
 * printf's). */
static void ref_fmt_count(double v, char *buf, size_t len)
{
	static const char unit[] = " KMGTPE";
	if (v >= 0 && v < 99999.5 && v == (double)(unsigned long long)v) {
		/* Whole counts were written without printf already: -0 reads "0". */
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	}
	if (v < 99999.5) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	int u = 0;
	while (v >= 999.5 && u < 6) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, v < 9.995 ? "%.2f%c" : v < 99.95 ? "%.1f%c" : "%.0f%c", v, unit[u]);
}

static void ref_fmt_time(double ns, char *buf, size_t len)
{
	static const char *const unit[] = {"ns", "us", "ms", "s"};
	int u = 0;
	while (ns >= 999.5 && u < 3) {
		ns /= 1000;
		u++;
	}
	if (u == 3 && ns >= 999.5) {
		snprintf(buf, len, "%.0fs", ns);
		return;
	}
	char num[32];
	numfmt_sig(ns, 4, num, sizeof(num));
	snprintf(buf, len, "%s%s", num, unit[u]);
}

static void ref_format_val(const struct column *c, struct val v, char *buf, size_t len)
{
	const char *mark = val_mark(v);
	if (mark) {
		snprintf(buf, len, "%s", mark);
		return;
	}
	int w = c->width > 1 ? c->width - 1 : 8;
	switch (c->fmt) {
	case FMT_COUNT:
		ref_fmt_count(v.v, buf, len);
		break;
	case FMT_TIME:
		ref_fmt_time(v.v, buf, len);
		break;
	case FMT_PCT:
		if (c->kind == COL_RATIO && v.v != 0 && fabs(v.v) < 0.05)
			numfmt_sig(v.v, w, buf, len);
		else
			snprintf(buf, len, v.v < 999.95 ? "%.1f" : "%.0f", v.v);
		break;
	case FMT_GHZ:
		snprintf(buf, len, "%.2f", v.v);
		break;
	default:
		numfmt_sig(v.v, w, buf, len);
		break;
	}
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Values where printf's rounding is easy to get wrong: ties and near-ties of one, two
 * and no decimals (0.15, 0.25, 999.95, 9.995, ...) and the floats either side, whole
 * numbers, unit boundaries, every magnitude down to the denormals, signs, NaN, inf. */
static double pick(void)
{
	uint64_t r = next();
	double sign = r & 1 ? -1 : 1;
	double v;
	switch ((r >> 1) % 10) {
	case 0: /* any bit pattern but NaN payloads: every magnitude and the denormals */
		do {
			uint64_t bits = next();
			memcpy(&v, &bits, sizeof(v));
		} while (isnan(v));
		return v;
	case 1: /* x.x5, x.xx5, x.5 as written, and one float either side */
	case 2: {
		static const double div[] = {2, 20, 200, 2000, 20000};
		v = (double)(next() % 2000000) / div[next() % 5];
		unsigned k = (unsigned)(next() % 3);
		return sign * (k == 0 ? v : nextafter(v, k == 1 ? INFINITY : -INFINITY));
	}
	case 3: /* CPU% as the engine computes it: task-clock ns * 100 / elapsed ns */
		return (double)(next() % 3000000000ull) * 100 /
		       ((0.1 + (double)(next() % 1000) / 1e5) * 1e9);
	case 4:
		return sign * (double)(next() % 10000000);
	case 5:
		return sign * pow(10, (double)(next() % 4000) / 100 - 12);
	case 6: { /* the boundaries the formats switch on, and their neighbours */
		static const double edge[] = {
			0,	 0.05,	  0.5,	    0.95,   9.995, 99.95,      999.5,  999.95,
			9999.5,	 99999.5, 999500,   1e9,    1e8,   99999999.5, 4.5e15, 1e18,
			DBL_MAX, DBL_MIN, 4.9e-324, 1e-323, 0.25,  0.35,       0.45,   0.125};
		v = edge[next() % (sizeof(edge) / sizeof(edge[0]))];
		for (unsigned k = (unsigned)(next() % 4); k; k--)
			v = nextafter(v, r & 2 ? INFINITY : -INFINITY);
		return sign * v;
	}
	case 7: {
		static const double odd[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0};
		return odd[next() % 6];
	}
	default:
		return sign * ldexp((double)(next() >> 11), (int)(next() % 120) - 100);
	}
}

static void test_format_matches_printf(void **state)
{
	(void)state;
	/* The columns as the panes make them, each formatter as its descriptor names it. */
	struct fake f;
	struct pane p[8];
	fake_init(&f, false);
	struct mgroup user[4];
	users_groups(&f, user);
	unsigned np = columns_build_panes(&f.m, true, p, 8);
	assert_int_equal(np, 5);
	const struct {
		const struct pane *pane;
		const char *name;
		enum col_kind kind;
		enum col_fmt fmt;
	} kinds[] = {
		{&p[1], "CPU%", COL_CPU_PCT, FMT_PCT},	    {&p[2], "CMISS%", COL_RATIO, FMT_PCT},
		{&p[1], "CYCLES", COL_COUNT, FMT_COUNT},    {&p[1], "CYC/S", COL_RATE, FMT_COUNT},
		{&p[0], "task-clock", COL_COUNT, FMT_TIME}, {&p[1], "GHZ", COL_GHZ, FMT_GHZ},
		{&p[1], "IPC", COL_RATIO, FMT_RATIO}};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct column *c = col(kinds[k].pane, kinds[k].name);
		assert_int_equal(c->kind, kinds[k].kind);
		assert_int_equal(c->fmt, kinds[k].fmt);
	}
	/* Under valgrind 2 million cases took 111 s, a quarter of its stage; memcheck
	 * looks for bad reads, which the first 100,000 reach as well as all would. */
	const unsigned n = testutil_under_valgrind() ? 100000 : 2000000;
	for (unsigned i = 0; i < n; i++) {
		/* CPU% and counts are most of a table: they get most of the values. */
		unsigned k = i % 4 == 0 ? (unsigned)(next() % 7) : i % 2 ? 0 : 2;
		struct column c = *col(kinds[k].pane, kinds[k].name);
		c.width = (int)(next() % 24);
		struct val v = {.v = pick(), .state = VAL_EXACT, .run_pm = 1000};
		if (next() % 16 == 0)
			v.state = (uint8_t)(next() % 5);
		size_t len = next() % 8 == 0 ? (size_t)(next() % 12) : 128;
		char got[128], want[128];
		memset(got, 'x', sizeof(got));
		memset(want, 'x', sizeof(want));
		size_t wrote = column_format_val(&c, v, got, len);
		ref_format_val(&c, v, want, len);
		if (memcmp(got, want, sizeof(got)) != 0 || wrote != (len ? strlen(want) : 0))
			fail_msg("fmt %d kind %d width %d len %zu value %a (%.17g): '%.*s' want "
				 "'%.*s'",
				 c.fmt, c.kind, c.width, len, v.v, v.v, (int)len, got, (int)len,
				 want);
	}
}

/* Which columns a pane shows: a list picks and orders them (COMMAND always last, unknown
 * names skipped, the CGROUP column only when listed); none gives the default. */
static void test_pane_select(void **state)
{
	(void)state;
	struct fake f;
	struct pane all[8];
	fake_init(&f, false);
	assert_int_equal(columns_build_panes_all(&f.m, false, NULL, 0, all, 8), 4);
	assert_string_equal(
		names(&all[3]),
		"PID USER CPU% CSW MIGR FAULTS MAJFLT RES S NI TIME+ PRI VIRT SHR MEM% IO_R IO_W "
		"CGROUP COMMAND");
	struct pane p = all[3];
	pane_select(&p, NULL);
	assert_string_equal(names(&p), "PID USER CPU% CSW MIGR FAULTS MAJFLT COMMAND");
	assert_string_equal(p.cols[p.sort_default].name, "CPU%");
	p = all[3];
	pane_select(&p, "cgroup,faults,NOPE,command,pid,faults");
	assert_string_equal(names(&p), "CGROUP FAULTS PID COMMAND");
	/* CPU% went: the default sort falls on the first number. */
	assert_string_equal(p.cols[p.sort_default].name, "FAULTS");
	char list[128];
	pane_column_list(&p, list, sizeof(list));
	assert_string_equal(list, "CGROUP,FAULTS,PID");
	/* The cgroup's readable name. */
	f.rows[0].cgroup = "/system.slice/nginx.service";
	assert_string_equal(cell(&f, &p, "CGROUP", 0), "nginx.service");
}

/* TIME+ and NI: what /proc said as the process last ran, as top writes them; n/a when
 * never read (a replay, whose recording has neither) and on rows that are no process. */
static void test_time_and_nice(void **state)
{
	(void)state;
	struct fake f;
	struct pane all[8];
	fake_init(&f, false);
	columns_build_panes_all(&f.m, false, NULL, 0, all, 8);
	const struct pane *p = &all[3];
	assert_string_equal(cell(&f, p, "TIME+", 0), "n/a");
	assert_string_equal(cell(&f, p, "NI", 0), "n/a");
	f.rows[0].have_sched = true;
	f.rows[0].nice = -5;
	f.rows[0].cpu_ns = 83450000000ULL; /* 1 min 23.45 s */
	assert_string_equal(cell(&f, p, "TIME+", 0), "1:23.45");
	assert_string_equal(cell(&f, p, "NI", 0), "-5");
	assert_string_equal(raw(&f, p, "TIME+", 0), "83.4500");
	f.rows[0].cpu_ns = 0;
	assert_string_equal(cell(&f, p, "TIME+", 0), "0:00.00"); /* a sleeper: 0, read */
	f.rows[0].cpu_ns = (2ULL * 3600 + 3 * 60 + 45) * 1000000000ULL;
	assert_string_equal(cell(&f, p, "TIME+", 0), "2h03:45");
	f.rows[0].cpu_ns = 123ULL * 3600 * 1000000000ULL;
	assert_string_equal(cell(&f, p, "TIME+", 0), "123h");
	f.rows[0].kind = ROW_CGROUP;
	assert_string_equal(cell(&f, p, "TIME+", 0), "n/a");
	assert_string_equal(cell(&f, p, "NI", 0), "n/a");
	/* Hidden until chosen, and TIME+ sorts the most first, as top's. */
	const struct column *t = col(p, "TIME+");
	assert_true(t->hidden && t->desc_first);
	assert_true(col(p, "NI")->hidden);
}

/* htop's PRI, VIRT, SHR, MEM% and I/O: n/a when not read (a replay), on thread, CPU
 * and cgroup rows, and I/O where /proc/PID/io could not be read; "-" before the
 * first interval; bytes a second over the interval's length. */
static void test_htop_columns(void **state)
{
	(void)state;
	struct fake f;
	struct pane all[8];
	fake_init(&f, false);
	unsigned np = columns_build_panes_all(&f.m, false, NULL, 0, all, 8);
	const char *names_[] = {"PRI", "VIRT", "SHR", "MEM%", "IO_R", "IO_W"};
	for (unsigned i = 0; i < np; i++)
		for (unsigned k = 0; k < 6; k++) {
			const struct column *c = col(&all[i], names_[k]);
			assert_true(c->hidden && column_is_numeric(c));
			assert_string_equal(all[i].cols[all[i].ncols - 1].name, "COMMAND");
		}
	const struct pane *p = &all[3];
	for (unsigned k = 0; k < 6; k++)
		assert_string_equal(cell(&f, p, names_[k], 0), "n/a");
	struct mproc_more *x = &f.rows[0].more;
	*x = (struct mproc_more){.have_prio = true,
				 .prio = 25,
				 .have_virt = true,
				 .virt_kb = 2 * 1024 * 1024,
				 .have_shr = true,
				 .shr_kb = 512,
				 .io = MIO_FIRST};
	f.rows[0].state = 'S';
	f.rows[0].rss_kb = 1024 * 1024;
	assert_string_equal(cell(&f, p, "PRI", 0), "25");
	assert_string_equal(cell(&f, p, "VIRT", 0), "2.00G");
	assert_string_equal(cell(&f, p, "SHR", 0), "512K");
	assert_string_equal(cell(&f, p, "MEM%", 0), "n/a"); /* the machine's memory unread */
	f.m.sys.have_mem = true;
	f.m.sys.mem_total_kb = 4 * 1024 * 1024;
	assert_string_equal(cell(&f, p, "MEM%", 0), "25.0");
	assert_string_equal(cell(&f, p, "IO_R", 0), "-");
	x->io = MIO_OK;
	x->io_rd = 3 * 1024 * 1024;
	x->io_wr = 0;
	f.m.elapsed = 2.0;
	assert_string_equal(cell(&f, p, "IO_R", 0), "1.50M");
	assert_string_equal(raw(&f, p, "IO_R", 0), "1572864");
	assert_string_equal(cell(&f, p, "IO_W", 0), "0B"); /* read: nothing written */
	x->io = MIO_NA;
	assert_string_equal(cell(&f, p, "IO_W", 0), "n/a"); /* unreadable: never 0 */
	f.rows[1].more = *x;
	f.rows[1].more.io = MIO_OK;
	assert_string_equal(cell(&f, p, "IO_R", 1), "n/a"); /* a thread row */
	assert_string_equal(cell(&f, p, "PRI", 1), "n/a");
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_panes),
		cmocka_unit_test(test_descriptors_complete),
		cmocka_unit_test(test_thread_column),
		cmocka_unit_test(test_software_only),
		cmocka_unit_test(test_missing_partner_drops_columns),
		cmocka_unit_test(test_events_pane),
		cmocka_unit_test(test_events_pane_user_groups_only),
		cmocka_unit_test(test_events_pane_single_group),
		cmocka_unit_test(test_user_metrics),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_count_format),
		cmocka_unit_test(test_sig_and_time_format),
		cmocka_unit_test(test_text_cells),
		cmocka_unit_test(test_cpu_rows),
		cmocka_unit_test(test_find_column),
		cmocka_unit_test(test_pane_select),
		cmocka_unit_test(test_time_and_nice),
		cmocka_unit_test(test_htop_columns),
		cmocka_unit_test(test_format_matches_printf),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
