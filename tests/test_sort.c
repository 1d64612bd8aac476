/* sort_rows over a hand-built model: processes by the column, each followed by its own
 * threads sorted the same way; numbers before n/a, n/c and "-" in both directions; ties
 * by id; filters by command, user, kernel thread and pid. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"

enum { E_TC, E_CYC, E_INS, NEV };

static const struct mevent events[NEV] = {
	[E_TC] = {"task-clock", "task-clock", 0, 0, ROLE_TASK_CLOCK, 0, false},
	[E_CYC] = {"cycles", "cycles", 1, 0, ROLE_CYCLES, 0, true},
	[E_INS] = {"instructions", "instructions", 1, 1, ROLE_INSNS, 0, true},
};
static const struct mgroup groups[2] = {{.first = 0, .n = 1}, {.first = 1, .n = 2}};

#define MAXROWS 1200

struct fake {
	struct model m;
	struct mrow rows[MAXROWS];
	struct val v[MAXROWS][NEV];
	struct val_delta g[MAXROWS][2];
	struct pane panes[8];
	unsigned npanes;
};

static struct val ex(double v)
{
	return (struct val){.v = v, .state = VAL_EXACT, .run_pm = 1000};
}

static struct val mark(enum val_state st)
{
	return val_missing(st, st == VAL_NC ? WHY_NOT_RUN : WHY_UNSUPPORTED);
}

/* Append a row. cpu < 0 means task-clock n/a; ipc < 0 means n/a, NAN-free markers:
 * -2 n/c, -3 "-" (zero cycles). */
static struct mrow *add(struct fake *f, enum row_kind kind, pid_t pid, pid_t tid, const char *comm,
			uid_t uid, double cpu, double ipc)
{
	unsigned i = f->m.nrows++;
	assert_true(i < MAXROWS);
	struct mrow *r = &f->rows[i];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->pid = pid;
	r->tid = tid;
	r->comm = comm;
	r->uid = uid;
	r->user = uid ? "user" : "root";
	r->v = f->v[i];
	r->g = f->g[i];
	r->nthreads = 1;
	f->v[i][E_TC] = cpu >= 0 ? ex(cpu * 1e7) : cpu == -2 ? mark(VAL_NC) : mark(VAL_NA);
	if (ipc >= 0) {
		f->v[i][E_CYC] = ex(1e9);
		f->v[i][E_INS] = ex(ipc * 1e9);
	} else if (ipc == -3) {
		f->v[i][E_CYC] = ex(0);
		f->v[i][E_INS] = ex(0);
	} else {
		f->v[i][E_CYC] = mark(ipc == -2 ? VAL_NC : VAL_NA);
		f->v[i][E_INS] = mark(ipc == -2 ? VAL_NC : VAL_NA);
	}
	return r;
}

#define NA (-1)
#define NC (-2)
#define EMPTY (-3)

/* pid 10 Firefox (3 threads), 20 bash, 30 make (2 threads), 40 sshd, 50 kworker,
 * 5 init, 60 Web Content. CPU% and IPC in the comments of the expectations below. */
static void fake_init(struct fake *f)
{
	memset(&f->m, 0, sizeof(f->m));
	f->m.nevents = NEV;
	f->m.events = events;
	f->m.ngroups = 2;
	f->m.groups = groups;
	f->m.elapsed = 1.0;
	f->m.threads = true;
	f->m.rows = f->rows;
	add(f, ROW_PROC, 10, 10, "Firefox", 1000, 50, 1.0)->nthreads = 3;
	add(f, ROW_THREAD, 10, 10, "Firefox", 1000, 10, 1.0);
	add(f, ROW_THREAD, 10, 11, "DOM Worker", 1000, 30, 1.0);
	add(f, ROW_THREAD, 10, 12, "Cache2 I/O", 1000, 10, 1.0);
	add(f, ROW_PROC, 20, 20, "bash", 0, NA, NA);
	add(f, ROW_PROC, 30, 30, "make", 1000, 70, EMPTY)->nthreads = 2;
	add(f, ROW_THREAD, 30, 31, "make", 1000, NA, EMPTY);
	add(f, ROW_THREAD, 30, 30, "make", 1000, 70, EMPTY);
	add(f, ROW_PROC, 40, 40, "sshd", 0, 50, 2.0);
	add(f, ROW_PROC, 50, 50, "kworker/0:1", 0, NC, NC)->kthread = true;
	add(f, ROW_PROC, 5, 5, "init", 0, 0, 0.5);
	add(f, ROW_PROC, 60, 60, "Web Content", 1000, 20, NA);
	f->npanes = columns_build_panes(&f->m, false, f->panes, 8);
}

static const struct column *col(const struct fake *f, const char *name)
{
	for (unsigned p = 0; p < f->npanes; p++) {
		int i = pane_find_column(&f->panes[p], name);
		if (i >= 0)
			return &f->panes[p].cols[i];
	}
	fail_msg("no column %s", name);
	return NULL;
}

/* The sorted rows as "pid" for processes and ".tid" for threads, space separated. */
static const char *order(const struct fake *f, const struct sort_spec *s)
{
	static char buf[4096];
	unsigned idx[MAXROWS];
	size_t n = sort_rows(&f->m, s, idx);
	buf[0] = '\0';
	for (size_t k = 0; k < n; k++) {
		const struct mrow *r = &f->m.rows[idx[k]];
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s%d", k ? " " : "",
			 r->kind == ROW_THREAD ? "." : "",
			 (int)(r->kind == ROW_THREAD ? r->tid : r->pid));
	}
	return buf;
}

static void test_cpu_descending(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	struct sort_spec s = {.col = col(&f, "CPU%"), .descending = true};
	/* 70, 50 (pid 10 before pid 40: a tie goes to the lower id), 20, 0, then the rows
	 * without a number (n/a, n/c) by id. Threads: 30% first, the 10% tie by tid. */
	assert_string_equal(order(&f, &s), "30 .30 .31 10 .11 .10 .12 40 60 5 20 50");
}

static void test_cpu_ascending(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	struct sort_spec s = {.col = col(&f, "CPU%"), .descending = false};
	/* Numbers first here too: n/a is not "smallest". Ties still by ascending id. */
	assert_string_equal(order(&f, &s), "5 60 10 .10 .12 .11 40 30 .30 .31 20 50");
}

static void test_ipc_marks_last(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	/* IPC: 40 2.0, 10 1.0, 5 0.5; 30 "-", 20 and 60 n/a, 50 n/c: all after, by id. */
	struct sort_spec s = {.col = col(&f, "IPC"), .descending = true};
	assert_string_equal(order(&f, &s), "40 10 .10 .11 .12 5 20 30 .30 .31 50 60");
	s.descending = false;
	assert_string_equal(order(&f, &s), "5 10 .10 .11 .12 40 20 30 .30 .31 50 60");
}

static void test_by_pid(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	struct sort_spec s = {.col = NULL};
	assert_string_equal(order(&f, &s), "5 10 .10 .11 .12 20 30 .30 .31 40 50 60");
}

/* Like htop: a process with a single thread shows one row, not the same task twice. */
static void test_fold_single_thread(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	unsigned n = f.m.nrows;
	/* sshd (40) with its one thread row, as the model lists it with thread rows on. */
	memmove(&f.rows[n - 3], &f.rows[n - 4], 4 * sizeof(f.rows[0]));
	f.rows[n - 3] = f.rows[n - 4];
	f.rows[n - 3].kind = ROW_THREAD;
	f.m.nrows = n + 1;
	struct sort_spec s = {.col = NULL};
	assert_string_equal(order(&f, &s), "5 10 .10 .11 .12 20 30 .30 .31 40 .40 50 60");
	s.fold_single = true;
	assert_string_equal(order(&f, &s), "5 10 .10 .11 .12 20 30 .30 .31 40 50 60");
}

static void test_by_command(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	struct sort_spec s = {.col = col(&f, "COMMAND"), .descending = false};
	/* Byte order: capitals first. Threads by their own names. */
	assert_string_equal(order(&f, &s), "10 .12 .11 .10 60 20 5 50 30 .30 .31 40");
	s.descending = true;
	assert_string_equal(order(&f, &s), "40 30 .30 .31 50 5 20 60 10 .10 .11 .12");
}

static void test_filters(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	struct sort_spec s = {.col = col(&f, "CPU%"), .descending = true};
	/* The filter picks processes (case-insensitive substring); their threads follow
	 * whatever their own names. */
	s.filter = "fire";
	assert_string_equal(order(&f, &s), "10 .11 .10 .12");
	s.filter = "O";
	assert_string_equal(order(&f, &s), "10 .11 .10 .12 60 50");
	s.filter = "nomatch";
	assert_string_equal(order(&f, &s), "");
	s.filter = "";
	assert_string_equal(order(&f, &s), "30 .30 .31 10 .11 .10 .12 40 60 5 20 50");
	s.filter = NULL;
	s.have_uid = true;
	s.uid = 1000;
	assert_string_equal(order(&f, &s), "30 .30 .31 10 .11 .10 .12 60");
	s.uid = 0;
	assert_string_equal(order(&f, &s), "40 5 20 50");
	s.hide_kthreads = true;
	assert_string_equal(order(&f, &s), "40 5 20");
	s.have_uid = false;
	s.hide_kthreads = false;
	s.only_pid = 30;
	assert_string_equal(order(&f, &s), "30 .30 .31");
	s.only_pid = 11; /* a thread id is not a process */
	assert_string_equal(order(&f, &s), "");
	/* E: the rows of tasks that exited go, a process's and a thread's alike. */
	s.only_pid = 0;
	for (unsigned i = 0; i < f.m.nrows; i++)
		f.rows[i].exited = f.rows[i].pid == 40 || f.rows[i].tid == 31;
	s.hide_exited = true;
	assert_string_equal(order(&f, &s), "30 .30 10 .11 .10 .12 60 5 20 50");
	s.hide_exited = false;
	assert_string_equal(order(&f, &s), "30 .30 .31 10 .11 .10 .12 40 60 5 20 50");
}

static void test_empty_model(void **state)
{
	(void)state;
	static struct fake f;
	fake_init(&f);
	f.m.nrows = 0;
	struct sort_spec s = {.col = col(&f, "CPU%"), .descending = true};
	unsigned idx[1], scratch[2];
	double keys[1];
	assert_int_equal(sort_rows_r(&f.m, &s, idx, scratch, keys), 0);
}

/* Reference comparator for the property test: the documented order, written plainly. */
static int ref_cmp(const struct model *m, const struct sort_spec *s, const struct mrow *a,
		   const struct mrow *b)
{
	struct val va = column_value(s->col, m, a), vb = column_value(s->col, m, b);
	bool ha = val_has_number(va), hb = val_has_number(vb);
	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && va.v != vb.v)
		return (va.v < vb.v) == !s->descending ? -1 : 1;
	pid_t x = a->kind == ROW_THREAD ? a->tid : a->pid;
	pid_t y = b->kind == ROW_THREAD ? b->tid : b->pid;
	return (x > y) - (x < y);
}

static void test_random_models(void **state)
{
	(void)state;
	static struct fake f;
	static const char *names[] = {"a", "b", "c"};
	srand(12345);
	for (int round = 0; round < 20; round++) {
		fake_init(&f);
		f.m.nrows = 0;
		unsigned nproc = 0;
		pid_t pid = 1000;
		while (f.m.nrows < MAXROWS - 8) {
			int cpu_pick = rand() % 12;
			double cpu = cpu_pick < 2 ? NA : cpu_pick < 3 ? NC : (double)(rand() % 20);
			struct mrow *p = add(&f, ROW_PROC, pid, pid, names[rand() % 3], 0, cpu, 1);
			nproc++;
			int nt = rand() % 4;
			p->nthreads = (unsigned)nt;
			for (int t = 0; t < nt; t++) {
				int pick = rand() % 10;
				add(&f, ROW_THREAD, pid, pid + 1 + (pid_t)((t * 7) % nt), "t", 0,
				    pick < 2 ? NA : (double)(rand() % 5), 1);
			}
			pid += 10 + rand() % 5;
		}
		struct sort_spec s = {.col = col(&f, "CPU%"), .descending = round % 2 == 0};
		unsigned idx[MAXROWS], idx2[MAXROWS], scratch[2 * MAXROWS];
		double keys[MAXROWS];
		size_t n = sort_rows(&f.m, &s, idx);
		assert_int_equal(n, f.m.nrows);
		assert_int_equal(sort_rows_r(&f.m, &s, idx2, scratch, keys), n);
		assert_memory_equal(idx, idx2, n * sizeof(idx[0]));
		unsigned seen_procs = 0;
		const struct mrow *prev_proc = NULL, *prev_thread = NULL;
		for (size_t k = 0; k < n; k++) {
			const struct mrow *r = &f.m.rows[idx[k]];
			if (r->kind == ROW_PROC) {
				if (prev_proc)
					assert_true(ref_cmp(&f.m, &s, prev_proc, r) < 0);
				prev_proc = r;
				prev_thread = NULL;
				seen_procs++;
				continue;
			}
			/* A thread sits under its own process, in order among its siblings. */
			assert_non_null(prev_proc);
			assert_int_equal(r->pid, prev_proc->pid);
			if (prev_thread)
				assert_true(ref_cmp(&f.m, &s, prev_thread, r) <= 0);
			prev_thread = r;
		}
		assert_int_equal(seen_procs, nproc);
	}
}

/* The process tree: a process that exited after its parent (no parent shown) is a root,
 * but after every root still running, whatever its CPU%: no orphans before pid 1. */
static void test_tree_exited_roots_last(void **state)
{
	(void)state;
	static struct fake f;
	static struct pane panes[8];
	memset(&f, 0, sizeof(f));
	f.m.nevents = NEV;
	f.m.events = events;
	f.m.ngroups = 2;
	f.m.groups = groups;
	f.m.rows = f.rows;
	f.m.elapsed = f.m.interval = 1;
	f.m.ncpus = 2;
	add(&f, ROW_PROC, 900, 900, "orphan", 0, 80, NA)->ppid = 400; /* 400 is gone */
	f.rows[0].exited = true;
	add(&f, ROW_PROC, 1, 1, "init", 0, 0, NA)->ppid = 0;
	add(&f, ROW_PROC, 7, 7, "child", 0, 5, NA)->ppid = 1;
	add(&f, ROW_PROC, 800, 800, "orphan2", 0, 1, NA)->ppid = 401;
	f.rows[3].exited = true;
	add(&f, ROW_PROC, 2, 2, "kthreadd", 0, 0, NA)->ppid = 0;
	unsigned n = columns_build_panes(&f.m, false, panes, 8), idx[8];
	const struct column *c = NULL;
	for (unsigned p = 0; p < n && !c; p++)
		if (pane_find_column(&panes[p], "CPU%") >= 0)
			c = &panes[p].cols[pane_find_column(&panes[p], "CPU%")];
	assert_non_null(c);
	struct sort_spec s = {.col = c, .descending = true, .tree = true};
	size_t k = sort_rows(&f.m, &s, idx);
	char got[128] = "";
	for (size_t i = 0; i < k; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ", f.rows[idx[i]].comm);
	assert_string_equal(got, "init child kthreadd orphan orphan2 ");
}

/* An empty model of the fake's events, for a test's own rows. */
static void fake_empty(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->m.nevents = NEV;
	f->m.events = events;
	f->m.ngroups = 2;
	f->m.groups = groups;
	f->m.rows = f->rows;
	f->m.elapsed = f->m.interval = 1;
}

/* The filter: the command name, and with filter_cmdline its command line too. */
static void test_filter_cmdline(void **state)
{
	(void)state;
	static struct fake f;
	fake_empty(&f);
	add(&f, ROW_PROC, 10, 10, "python3", 0, 5, NA)->cmdline = "python3 Server.py --port 80";
	add(&f, ROW_PROC, 11, 11, "serverd", 0, 1, NA)->cmdline = "/usr/sbin/serverd";
	add(&f, ROW_PROC, 12, 12, "bash", 0, 1, NA);
	unsigned idx[8];
	struct sort_spec s = {.filter = "server"};
	assert_int_equal(sort_rows(&f.m, &s, idx), 1);
	assert_int_equal(f.rows[idx[0]].pid, 11);
	s.filter_cmdline = true;
	assert_int_equal(sort_rows(&f.m, &s, idx), 2);
	assert_int_equal(f.rows[idx[0]].pid, 10);
	s.filter = "port 80";
	assert_int_equal(sort_rows(&f.m, &s, idx), 1);
	s.filter = "bash"; /* no command line read: its name */
	assert_int_equal(sort_rows(&f.m, &s, idx), 1);
}

/* The filter on fleet rows: an instance or job label (--prometheus), or the host a
 * remote model (--connect) shows, as well as the command name. */
static void test_filter_labels(void **state)
{
	(void)state;
	static struct fake f;
	fake_empty(&f);
	struct mrow *a = add(&f, ROW_PROC, 10, 10, "postgres", 0, 5, NA);
	struct mrow *b = add(&f, ROW_PROC, 11, 11, "nginx", 0, 1, NA);
	struct mrow *c = add(&f, ROW_PROC, 12, 12, "postgres", 0, 1, NA);
	a->instance = "db1:9465", a->job = "pmutop";
	b->instance = "web1:9465", b->job = "edge";
	c->instance = "db2:9465", c->job = "pmutop";
	unsigned idx[8];
	struct sort_spec s = {.filter = "DB"};
	assert_int_equal(sort_rows(&f.m, &s, idx), 2);
	s.filter = "db2";
	assert_int_equal(sort_rows(&f.m, &s, idx), 1);
	assert_int_equal(f.rows[idx[0]].pid, 12);
	s.filter = "edge";
	assert_int_equal(sort_rows(&f.m, &s, idx), 1);
	assert_int_equal(f.rows[idx[0]].pid, 11);
	s.filter = "pmutop";
	assert_int_equal(sort_rows(&f.m, &s, idx), 2);
	/* a remote host's name keeps all its rows; a local model's name does not */
	a->instance = b->instance = c->instance = NULL;
	a->job = b->job = c->job = NULL;
	f.m.hostname = "far-away";
	s.filter = "far";
	assert_int_equal(sort_rows(&f.m, &s, idx), 0);
	f.m.remote = true;
	assert_int_equal(sort_rows(&f.m, &s, idx), 3);
	s.filter = "nginx";
	assert_int_equal(sort_rows(&f.m, &s, idx), 1);
}

/* Cgroup rows sort as a tree: each row followed by its children, siblings by the column;
 * a folded row hides its subtree; a narrowed view keeps the processes of one subtree. */
static void test_cgroup_tree(void **state)
{
	(void)state;
	static struct fake f;
	static struct pane panes[8];
	memset(&f, 0, sizeof(f));
	f.m.nevents = NEV;
	f.m.events = events;
	f.m.ngroups = 2;
	f.m.groups = groups;
	f.m.rows = f.rows;
	f.m.elapsed = f.m.interval = 1;
	f.m.ncpus = 2;
	const char *paths[] = {"/", "/a", "/a/x", "/a/y", "/b", "/ab"};
	const double cpu[] = {90, 10, 60, 8, 50, 30};
	for (int i = 0; i < 6; i++)
		add(&f, ROW_CGROUP, 100 + i, 100 + i, paths[i], 0, cpu[i], NA)->cgroup = paths[i];
	unsigned n = columns_build_panes(&f.m, false, panes, 8), idx[8];
	const struct column *c = NULL;
	for (unsigned p = 0; p < n && !c; p++)
		if (pane_find_column(&panes[p], "CPU%") >= 0)
			c = &panes[p].cols[pane_find_column(&panes[p], "CPU%")];
	assert_non_null(c);
	struct sort_spec s = {.col = c, .descending = true};
	char got[128] = "";
	size_t k = sort_rows(&f.m, &s, idx);
	for (size_t i = 0; i < k; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ",
			 f.rows[idx[i]].cgroup);
	/* Under /: /b 50, /ab 30, /a 10, and /a/x 60 under /a, not second. */
	assert_string_equal(got, "/ /b /ab /a /a/x /a/y ");
	const char *folded[] = {"/a"};
	s.collapsed = folded;
	s.ncollapsed = 1;
	k = sort_rows(&f.m, &s, idx);
	got[0] = '\0';
	for (size_t i = 0; i < k; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ",
			 f.rows[idx[i]].cgroup);
	assert_string_equal(got, "/ /b /ab /a ");
	assert_int_equal(sort_cgroup_depth("/"), 0);
	assert_int_equal(sort_cgroup_depth("/a"), 1);
	assert_int_equal(sort_cgroup_depth("/a/x"), 2);
	/* Narrowed to /a: its processes and those of /a/x, not those of /ab. */
	static struct fake p;
	memset(&p, 0, sizeof(p));
	p.m = f.m;
	p.m.nrows = 0;
	p.m.rows = p.rows;
	add(&p, ROW_PROC, 1, 1, "in-a", 0, 5, NA)->cgroup = "/a";
	add(&p, ROW_PROC, 2, 2, "in-ax", 0, 4, NA)->cgroup = "/a/x";
	add(&p, ROW_PROC, 3, 3, "in-ab", 0, 3, NA)->cgroup = "/ab";
	add(&p, ROW_PROC, 4, 4, "nowhere", 0, 2, NA);
	struct sort_spec ns = {.col = c, .descending = true, .cgroup = "/a"};
	k = sort_rows(&p.m, &ns, idx);
	assert_int_equal(k, 2);
	assert_int_equal(p.rows[idx[0]].pid, 1);
	assert_int_equal(p.rows[idx[1]].pid, 2);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_descending),
		cmocka_unit_test(test_cpu_ascending),
		cmocka_unit_test(test_ipc_marks_last),
		cmocka_unit_test(test_by_pid),
		cmocka_unit_test(test_fold_single_thread),
		cmocka_unit_test(test_by_command),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_empty_model),
		cmocka_unit_test(test_random_models),
		cmocka_unit_test(test_tree_exited_roots_last),
		cmocka_unit_test(test_filter_cmdline),
		cmocka_unit_test(test_filter_labels),
		cmocka_unit_test(test_cgroup_tree),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
