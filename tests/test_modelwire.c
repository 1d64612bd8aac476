/* modelwire: a model built by hand (every value state, NULL and empty strings, process,
 * thread, CPU and cgroup rows) packed and read back field for field, packed again to the
 * same bytes; every cut-short record and every one-byte change is 0 or -EINVAL, never a
 * read outside the record (valgrind and ASan run this). */
#include "modelwire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct mevent events[] = {
	{.name = "task-clock", .key = "task-clock", .group = 0, .role = ROLE_TASK_CLOCK},
	{.name = "cycles",
	 .key = "cycles",
	 .group = 1,
	 .role = ROLE_CYCLES,
	 .hardware = true,
	 .status = WHY_UNSUPPORTED},
	{.name = "instructions",
	 .key = "instructions",
	 .group = 1,
	 .member = 1,
	 .role = ROLE_INSNS,
	 .hardware = true},
};
static const struct mgroup groups[] = {{.first = 0, .n = 1}, {.first = 1, .n = 2, .user = true}};

static struct val vals[5][3] = {
	{{1e9, VAL_EXACT, 0, 1000}, {0, VAL_NA, WHY_UNSUPPORTED, 0}, {5, VAL_SCALED, 0, 512}},
	{{2.5e8, VAL_PARTIAL, 0, 700}, {0, VAL_NC, WHY_NOT_RUN, 0}, {0, VAL_EMPTY, 0, 0}},
	{{3, VAL_EXACT, 0, 1000}, {7, VAL_EXACT, 0, 1000}, {9, VAL_EXACT, 0, 1000}},
	{{4, VAL_EXACT, 0, 1000}, {0, VAL_NA, WHY_NOPERM, 0}, {1, VAL_SCALED, 0, 1}},
	{{5, VAL_EXACT, 0, 1000}, {0, VAL_NC, WHY_STALE, 0}, {2, VAL_PARTIAL, 0, 999}},
};
static struct val_delta gds[5][2] = {{{10, 10, 1}, {20, 10, 2}},
				     {{1, 0, 0}, {0, 0, 0}},
				     {{5, 5, 5}, {6, 6, 6}},
				     {{7, 7, 7}, {8, 4, 8}},
				     {{9, 9, 9}, {1, 1, 1}}};

static void build(struct model *m, struct mrow rows[5])
{
	memset(rows, 0, 5 * sizeof(*rows));
	rows[0] = (struct mrow){.kind = ROW_PROC,
				.pid = 42,
				.tid = 42,
				.ppid = 1,
				.uid = 1000,
				.user = "alice",
				.comm = "worker",
				.cmdline = "worker --x",
				.cgroup = "/a/b",
				.nthreads = 2,
				.rss_kb = 1234,
				.start_ticks = 99,
				.state = 'R',
				.have_sched = true,
				.nice = -5,
				.cpu_ns = 777,
				.cpu_pct = -1,
				.kthread = false};
	rows[0].more = (struct mproc_more){.have_prio = true,
					   .prio = 15,
					   .have_virt = true,
					   .virt_kb = 5,
					   .io = MIO_OK,
					   .io_rd = 8,
					   .io_wr = 9};
	rows[1] = (struct mrow){.kind = ROW_THREAD,
				.pid = 42,
				.tid = 43,
				.user = "alice",
				.comm = "w2",
				.cmdline = "",
				.exited = true,
				.cpu_pct = -1};
	rows[2] = (struct mrow){.kind = ROW_CPU,
				.cpu = 1,
				.user = "",
				.comm = "cpu1",
				.cpu_pct = 55.5,
				.cpu_split = {40, 10, 5.5}};
	rows[3] = (struct mrow){
		.kind = ROW_CGROUP, .user = "", .comm = "b", .cgroup = "/a/b", .cpu_pct = -1};
	rows[4] = (struct mrow){.kind = ROW_PROC,
				.pid = 7,
				.tid = 7,
				.user = "0",
				.comm = "k",
				.kthread = true,
				.cpu_pct = -1};
	for (int i = 0; i < 5; i++) {
		rows[i].v = vals[i];
		rows[i].g = gds[i];
	}
	*m = (struct model){.hostname = "host-a",
			    .kernel = "6.1.0",
			    .ncpus = 2,
			    .pmus = "cpu,software",
			    .notice = NULL,
			    .source_notice = "map full",
			    .interval = 0.5,
			    .elapsed = 0.501,
			    .time = 12.25,
			    .tick = 25,
			    .threads = true,
			    .user_only = true,
			    .exit_status = -1,
			    .ntasks = 111,
			    .nfd_short = 3,
			    .nevents = 3,
			    .events = events,
			    .ngroups = 2,
			    .groups = groups,
			    .nrows = 2,
			    .rows = rows,
			    .ncpu_rows = 1,
			    .cpu_rows = rows + 2,
			    .ncg_rows = 1,
			    .cg_rows = rows + 3,
			    .backend = "perf"};
	m->sys = (struct msys){.have_mem = true,
			       .mem_total_kb = 100,
			       .mem_avail_kb = 50,
			       .have_load = true,
			       .load = {1, 2, 3},
			       .clk_tck = 100,
			       .boot = 1e9};
}

static void same_row(const struct mrow *a, const struct mrow *b, unsigned nev, unsigned ngr)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->tid, b->tid);
	assert_int_equal(a->ppid, b->ppid);
	assert_int_equal(a->cpu, b->cpu);
	assert_string_equal(a->user, b->user);
	assert_string_equal(a->comm, b->comm);
	assert_true(!a->cmdline == !b->cmdline);
	if (a->cmdline)
		assert_string_equal(a->cmdline, b->cmdline);
	assert_true(!a->cgroup == !b->cgroup);
	if (a->cgroup)
		assert_string_equal(a->cgroup, b->cgroup);
	assert_int_equal(a->rss_kb, b->rss_kb);
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->nice, b->nice);
	assert_int_equal(a->exited, b->exited);
	assert_int_equal(a->kthread, b->kthread);
	assert_int_equal(a->more.prio, b->more.prio);
	assert_int_equal(a->more.io_wr, b->more.io_wr);
	assert_true(a->cpu_pct == b->cpu_pct && a->cpu_split[2] == b->cpu_split[2]);
	for (unsigned i = 0; i < nev; i++) { /* field by field: struct val has padding */
		assert_true(a->v[i].v == b->v[i].v);
		assert_int_equal(a->v[i].state, b->v[i].state);
		assert_int_equal(a->v[i].why, b->v[i].why);
		assert_int_equal(a->v[i].run_pm, b->v[i].run_pm);
	}
	assert_memory_equal(a->g, b->g, ngr * sizeof(*a->g));
}

static void test_round_trip(void **state)
{
	(void)state;
	struct model m;
	struct mrow rows[5];
	build(&m, rows);
	struct mwbuf b = {0}, again = {0};
	assert_int_equal(modelwire_put(&m, &b), 0);
	struct modelwire w = {0};
	unsigned char *copy = malloc(b.len);
	memcpy(copy, b.b, b.len);
	assert_int_equal(modelwire_get(&w, copy, b.len), 0);
	const struct model *g = &w.m;
	assert_string_equal(g->hostname, "host-a");
	assert_string_equal(g->kernel, "6.1.0");
	assert_string_equal(g->pmus, "cpu,software");
	assert_null(g->notice);
	assert_string_equal(g->source_notice, "map full");
	assert_string_equal(g->backend, "perf");
	assert_int_equal(g->tick, 25);
	assert_true(g->interval == 0.5 && g->time == 12.25);
	assert_true(g->threads && g->user_only && !g->paused);
	assert_int_equal(g->exit_status, -1);
	assert_int_equal(g->ntasks, 111);
	assert_true(g->sys.have_mem && g->sys.load[2] == 3 && g->sys.clk_tck == 100);
	assert_int_equal(g->nevents, 3);
	assert_string_equal(g->events[2].key, "instructions");
	assert_int_equal(g->events[1].status, WHY_UNSUPPORTED);
	assert_true(g->events[1].hardware);
	assert_int_equal(g->groups[1].n, 2);
	assert_true(g->groups[1].user);
	assert_int_equal(g->nrows, 2);
	assert_int_equal(g->ncpu_rows, 1);
	assert_int_equal(g->ncg_rows, 1);
	same_row(&rows[0], &g->rows[0], 3, 2);
	same_row(&rows[1], &g->rows[1], 3, 2);
	same_row(&rows[2], &g->cpu_rows[0], 3, 2);
	same_row(&rows[3], &g->cg_rows[0], 3, 2);
	/* Read back, packed again: the same bytes. */
	assert_int_equal(modelwire_put(g, &again), 0);
	assert_int_equal(again.len, b.len);
	assert_memory_equal(again.b, b.b, b.len);
	modelwire_clear(&w);
	mwbuf_free(&b);
	mwbuf_free(&again);
}

static void test_damage(void **state)
{
	(void)state;
	struct model m;
	struct mrow rows[5];
	build(&m, rows);
	m.nrows = 2;
	struct mwbuf b = {0};
	assert_int_equal(modelwire_put(&m, &b), 0);
	struct modelwire w = {0};
	/* Every record cut short. */
	for (size_t n = 0; n < b.len; n++) {
		unsigned char *c = malloc(n ? n : 1);
		memcpy(c, b.b, n);
		assert_int_equal(modelwire_get(&w, c, n), -EINVAL);
		assert_int_equal(w.m.nrows, 0);
	}
	/* Every byte changed (all ones, then its low bit): read or refused, never past it. */
	unsigned refused = 0;
	for (size_t i = 0; i < b.len; i++)
		for (int k = 0; k < 2; k++) {
			unsigned char *c = malloc(b.len);
			memcpy(c, b.b, b.len);
			c[i] = k ? (unsigned char)(c[i] ^ 1) : 0xff;
			int r = modelwire_get(&w, c, b.len);
			assert_true(r == 0 || r == -EINVAL || r == -EPROTONOSUPPORT);
			refused += r != 0;
		}
	assert_true(refused > 0);
	/* Another version of the format: said so, not taken for damage. */
	unsigned char *vx = malloc(b.len);
	memcpy(vx, b.b, b.len);
	vx[4] = 2;
	assert_int_equal(modelwire_get(&w, vx, b.len), -EPROTONOSUPPORT);
	/* One byte too many. */
	unsigned char *c = malloc(b.len + 1);
	memcpy(c, b.b, b.len);
	c[b.len] = 0;
	assert_int_equal(modelwire_get(&w, c, b.len + 1), -EINVAL);
	modelwire_clear(&w);
	modelwire_clear(&w);
	mwbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
