/* The history store over hand-built models: the ring wraps, n/c and scaled intervals
 * keep their state, rows are keyed by identity and dropped when they leave, the tracked
 * column, and the size at 5,000 rows. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

enum { E_TC, E_CYC, E_INS, NEV };
#define MAXR 5000

static const struct mevent events[NEV] = {
	[E_TC] = {.name = "task-clock", .key = "task-clock", .group = 0, .role = ROLE_TASK_CLOCK},
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
static const struct mgroup groups[2] = {{.first = 0, .n = 1}, {.first = 1, .n = 2}};

struct fake {
	struct model m;
	struct mrow rows[MAXR];
	struct val v[MAXR][NEV];
	struct val_delta g[MAXR][2];
};

static struct val ex(double x)
{
	return (struct val){.v = x, .state = VAL_EXACT, .run_pm = 1000};
}

static struct fake *fake_new(void)
{
	struct fake *f = calloc(1, sizeof(*f));
	f->m = (struct model){.events = events,
			      .nevents = NEV,
			      .groups = groups,
			      .ngroups = 2,
			      .rows = f->rows,
			      .elapsed = 1,
			      .interval = 1};
	return f;
}

/* Row i: process pid with IPC ipc and CPU% cpu. */
static void fake_row(struct fake *f, unsigned i, pid_t pid, double ipc, double cpu)
{
	f->rows[i] =
		(struct mrow){.kind = ROW_PROC, .pid = pid, .tid = pid, .v = f->v[i], .g = f->g[i]};
	f->v[i][E_TC] = ex(cpu / 100 * 1e9);
	f->v[i][E_CYC] = ex(1000);
	f->v[i][E_INS] = ex(1000 * ipc);
	f->g[i][1] = (struct val_delta){.ena = 500, .run = 500};
	if (f->m.nrows <= i)
		f->m.nrows = i + 1;
}

static void tick(struct history *h, struct fake *f)
{
	f->m.tick++;
	assert_int_equal(history_feed(h, &f->m), 0);
}

static long slot_of(const struct history *h, pid_t pid)
{
	return history_find(h, (struct hist_id){.kind = ROW_PROC, .pid = pid, .tid = pid});
}

static void test_ring_wraps(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	for (int t = 1; t <= 130; t++) {
		fake_row(f, 0, 42, t, 50);
		tick(h, f);
	}
	struct val out[HIST_LEN];
	long s = slot_of(h, 42);
	assert_true(s >= 0);
	assert_int_equal(history_get(h, s, HM_IPC, HIST_LEN, out), HIST_LEN);
	for (int i = 0; i < HIST_LEN; i++) {
		assert_int_equal(out[i].state, VAL_EXACT);
		assert_true(fabs(out[i].v - (11 + i)) < 1e-4);
	}
	assert_int_equal(history_get(h, s, HM_IPC, 3, out), 3);
	assert_true(fabs(out[0].v - 128) < 1e-4 && fabs(out[2].v - 130) < 1e-4);
	assert_int_equal(history_get(h, s, HM_CPU, 1, out), 1);
	assert_true(fabs(out[0].v - 50) < 1e-4);
	/* The same tick shown twice is one interval. */
	fake_row(f, 0, 42, 999, 50);
	assert_int_equal(history_feed(h, &f->m), 0);
	history_get(h, s, HM_IPC, 1, out);
	assert_true(fabs(out[0].v - 130) < 1e-4);
	free(f);
	history_free(h);
}

static void test_gaps_keep_state(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	fake_row(f, 0, 7, 1.5, 10);
	tick(h, f);
	f->v[0][E_INS] = val_missing(VAL_NC, WHY_NOT_RUN);
	tick(h, f);
	fake_row(f, 0, 7, 2, 10);
	f->v[0][E_CYC].state = VAL_SCALED;
	tick(h, f);
	fake_row(f, 0, 7, 0, 10);
	f->v[0][E_CYC] = ex(0); /* idle: a ratio over zero, no number */
	tick(h, f);
	struct val out[6];
	assert_int_equal(history_get(h, slot_of(h, 7), HM_IPC, 6, out), 4);
	/* Before the row was seen: no data (n/a without a reason). */
	assert_int_equal(out[0].state, VAL_NA);
	assert_int_equal(out[0].why, WHY_NONE);
	assert_int_equal(out[1].state, VAL_NA);
	assert_int_equal(out[2].state, VAL_EXACT);
	assert_true(fabs(out[2].v - 1.5) < 1e-6);
	assert_int_equal(out[3].state, VAL_NC);
	assert_int_equal(out[3].why, WHY_NOT_RUN);
	assert_false(val_has_number(out[3]));
	assert_int_equal(out[4].state, VAL_SCALED);
	assert_true(fabs(out[4].v - 2) < 1e-6);
	assert_int_equal(out[5].state, VAL_EMPTY);
	/* Metrics without their events in the set are n/a for a reason. */
	assert_null(history_column(h, HM_CMISS));
	history_get(h, slot_of(h, 7), HM_CMISS, 1, out);
	assert_int_equal(out[0].state, VAL_NA);
	assert_int_equal(out[0].why, WHY_UNSUPPORTED);
	free(f);
	history_free(h);
}

static void test_pack_roundtrip(void **state)
{
	(void)state;
	struct val v = history_unpack(history_pack(val_missing(VAL_NA, WHY_NOPERM)));
	assert_int_equal(v.state, VAL_NA);
	assert_int_equal(v.why, WHY_NOPERM);
	v = history_unpack(history_pack((struct val){.v = 0, .state = VAL_SCALED}));
	assert_int_equal(v.state, VAL_SCALED);
	assert_true(v.v == 0);
	v = history_unpack(history_pack(ex(3.25)));
	assert_int_equal(v.state, VAL_EXACT);
	assert_true(v.v == 3.25);
}

static void test_rows_dropped_and_reused(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	fake_row(f, 0, 1, 1, 1);
	fake_row(f, 1, 2, 2, 2);
	tick(h, f);
	tick(h, f);
	assert_int_equal(history_rows(h), 2);
	size_t bytes = history_bytes(h);
	f->m.nrows = 1; /* pid 2 left */
	tick(h, f);
	assert_true(slot_of(h, 2) < 0);
	assert_int_equal(history_rows(h), 1);
	fake_row(f, 1, 3, 3, 3); /* a new row takes the free slot */
	tick(h, f);
	assert_int_equal(history_rows(h), 2);
	assert_int_equal(history_bytes(h), bytes);
	struct val out[3];
	assert_int_equal(history_get(h, slot_of(h, 3), HM_IPC, 3, out), 1);
	assert_int_equal(history_get(h, slot_of(h, 1), HM_IPC, 3, out), 3);
	/* A thread of the same pid is another row; a cgroup row is keyed by its path. */
	f->rows[1] = f->rows[0];
	f->rows[1].kind = ROW_THREAD;
	f->rows[1].tid = 11;
	f->rows[2] = f->rows[0];
	f->rows[2].kind = ROW_CGROUP;
	f->rows[2].cgroup = "/a/b";
	f->m.nrows = 3;
	tick(h, f);
	assert_int_equal(history_rows(h), 3);
	assert_true(history_find(h, (struct hist_id){.kind = ROW_CGROUP,
						     .pid = 1,
						     .tid = 1,
						     .cgroup = "/a/b"}) >= 0);
	assert_true(history_find(h, (struct hist_id){.kind = ROW_CGROUP,
						     .pid = 1,
						     .tid = 1,
						     .cgroup = "/a/c"}) < 0);
	history_clear(h);
	assert_int_equal(history_rows(h), 0);
	assert_true(slot_of(h, 1) < 0);
	free(f);
	history_free(h);
}

/* A fleet's rows (--prometheus) all have pid and tid 0: each (instance, job, command) and
 * each (instance, job, cgroup) is a history of its own, never the first row's. */
static void test_fleet_rows_apart(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	const char *inst[3] = {"127.0.0.2:9100", "127.0.0.3:9100", "127.0.0.2:9100"};
	const char *comm[3] = {"app", "app", "db"};
	for (unsigned i = 0; i < 3; i++) {
		fake_row(f, i, 0, 1, 10.0 * (i + 1));
		f->rows[i].tid = 0;
		f->rows[i].instance = inst[i];
		f->rows[i].job = "pmutop";
		f->rows[i].comm = comm[i];
	}
	f->rows[3] = f->rows[0];
	f->rows[3].kind = ROW_CGROUP;
	f->rows[3].cgroup = "/a";
	f->rows[4] = f->rows[3];
	f->rows[4].instance = inst[1];
	f->m.nrows = 5;
	tick(h, f);
	tick(h, f);
	assert_int_equal(history_rows(h), 5);
	struct val out[2];
	for (unsigned i = 0; i < 3; i++) {
		long s = history_find(h, history_id_of(&f->rows[i]));
		assert_true(s >= 0);
		assert_int_equal(history_get(h, s, HM_CPU, 2, out), 2);
		assert_true(fabs(out[1].v - 10.0 * (i + 1)) < 1e-4);
	}
	struct hist_id other = history_id_of(&f->rows[0]);
	other.job = "node";
	assert_true(history_find(h, other) < 0);
	assert_true(history_find(h, history_id_of(&f->rows[3])) !=
		    history_find(h, history_id_of(&f->rows[4])));
	free(f);
	history_free(h);
}

/* Switching views costs no history: cgroup rows fed beside the process rows, then not,
 * are held with a gap; process rows are held while only cgroup rows are fed; a row of
 * a kind fed again that is not in it is gone. */
static void test_other_views_held(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	fake_row(f, 0, 1, 1, 10);
	fake_row(f, 1, 2, 2, 20);
	struct mrow cg = f->rows[0];
	cg.kind = ROW_CGROUP;
	cg.cgroup = "/x";
	struct hist_id cgid = {.kind = ROW_CGROUP, .pid = 1, .tid = 1, .cgroup = "/x"};
	struct hist_rows more = {&cg, 1};
	for (int t = 0; t < 2; t++) {
		f->m.tick++;
		assert_int_equal(history_feed_with(h, &f->m, &more, 1), 0);
	}
	tick(h, f); /* processes only */
	f->m.tick++;
	assert_int_equal(history_feed_with(h, &f->m, &more, 1), 0);
	struct val out[5];
	long s = history_find(h, cgid);
	assert_true(s >= 0);
	assert_int_equal(history_get(h, s, HM_CPU, 5, out), 4);
	assert_true(fabs(out[1].v - 10) < 1e-4 && fabs(out[2].v - 10) < 1e-4);
	assert_true(out[3].state == VAL_NA && out[3].why == WHY_NONE); /* the gap */
	assert_true(fabs(out[4].v - 10) < 1e-4);
	assert_int_equal(history_get(h, slot_of(h, 1), HM_CPU, 5, out), 4);
	assert_true(fabs(out[1].v - 10) < 1e-4 && fabs(out[4].v - 10) < 1e-4);
	/* Cgroup rows alone: the processes are held. */
	unsigned np = f->m.nrows;
	f->m.nrows = 0;
	f->m.tick++;
	assert_int_equal(history_feed_with(h, &f->m, &more, 1), 0);
	assert_int_equal(history_get(h, slot_of(h, 2), HM_CPU, 5, out), 5);
	assert_true(fabs(out[3].v - 20) < 1e-4 && out[4].state == VAL_NA);
	/* Processes again, pid 2 not among them: gone; the cgroup held. */
	f->m.nrows = np - 1;
	tick(h, f);
	assert_true(slot_of(h, 1) >= 0);
	assert_true(slot_of(h, 2) < 0);
	assert_true(history_find(h, cgid) >= 0);
	/* A folded subtree's sum is a row of its own beside its process's. */
	struct mrow sum = f->rows[0];
	sum.subtree = true;
	more = (struct hist_rows){&sum, 1};
	f->m.tick++;
	assert_int_equal(history_feed_with(h, &f->m, &more, 1), 0);
	long ss = history_find(h, history_id_of(&sum));
	assert_true(ss >= 0 && ss != slot_of(h, 1));
	assert_int_equal(history_get(h, ss, HM_CPU, 5, out), 1);
	tick(h, f); /* unfolded: gone */
	assert_true(history_find(h, history_id_of(&sum)) < 0);
	assert_true(slot_of(h, 1) >= 0);
	free(f);
	history_free(h);
}

static int col_of(struct pane *panes, unsigned np, const char *name)
{
	for (unsigned p = 0; p < np; p++) {
		int c = pane_find_column(&panes[p], name);
		if (c >= 0)
			return (int)(p * PANE_COLS_MAX) + c;
	}
	fail_msg("no column %s", name);
	return -1;
}
#define COL(name)                                                                                  \
	(&panes[col_of(panes, np, name) / PANE_COLS_MAX]                                           \
		  .cols[col_of(panes, np, name) % PANE_COLS_MAX])

/* Every numeric column of the panes keeps its intervals: a new sort column finds its
 * history, to 1/120 of the window's largest value, n/c and scaled kept; a column in no
 * pane starts when it is tracked. */
static void test_tracked_column(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	struct pane panes[4];
	unsigned np = columns_build_panes(&f->m, false, panes, 4);
	history_track(h, COL("CYCLES"));
	history_keep(h, panes, np);
	for (int t = 1; t <= 25; t++) {
		fake_row(f, 0, 5, 1, 1);
		f->v[0][E_CYC] = ex(t);
		f->v[0][E_INS] = ex(1000.0 * t * t);
		if (t == 24)
			f->v[0][E_INS] = val_missing(VAL_NC, WHY_NOT_RUN);
		if (t == 23)
			f->v[0][E_INS].state = VAL_SCALED;
		tick(h, f);
	}
	struct val out[HIST_KEY_LEN];
	long s = slot_of(h, 5);
	assert_int_equal(history_get(h, s, HM_COUNT, HIST_KEY_LEN, out), HIST_KEY_LEN);
	assert_true(fabs(out[0].v - 6) <= 0.03 * 6 &&
		    fabs(out[HIST_KEY_LEN - 1].v - 25) <= 0.03 * 25);
	/* Another column: its history is there, not restarted. */
	history_track(h, COL("INSNS"));
	assert_int_equal(history_get(h, s, HM_COUNT, HIST_KEY_LEN, out), HIST_KEY_LEN);
	for (int i = 0; i < HIST_KEY_LEN; i++) {
		int t = 6 + i;
		if (t == 24) {
			assert_int_equal(out[i].state, VAL_NC);
			continue;
		}
		assert_int_equal(out[i].state, t == 23 ? VAL_SCALED : VAL_EXACT);
		assert_true(fabs(out[i].v - 1000.0 * t * t) <= 0.03 * 1000.0 * t * t);
	}
	int k = history_kept(h, COL("INSNS"));
	assert_true(k > HM_COUNT);
	struct val again[HIST_KEY_LEN];
	assert_int_equal(history_get(h, s, k, HIST_KEY_LEN, again), HIST_KEY_LEN);
	assert_memory_equal(out, again, sizeof(out));
	/* A metric is its own series; a column in no pane starts when tracked. */
	assert_int_equal(history_kept(h, COL("IPC")), HM_IPC);
	struct column other = *COL("CYCLES");
	other.name = "OTHER";
	history_track(h, &other);
	assert_int_equal(history_get(h, s, HM_COUNT, HIST_KEY_LEN, out), 0);
	tick(h, f);
	assert_int_equal(history_get(h, s, HM_COUNT, HIST_KEY_LEN, out), 1);
	assert_true(fabs(out[HIST_KEY_LEN - 1].v - 25) <= 0.03 * 25);
	history_track(h, NULL);
	assert_null(history_tracked(h));
	free(f);
	history_free(h);
}

/* NI and TIME+ (what /proc says, hidden until chosen) take no slot of the panes' kept
 * columns: only as the sort column. */
static void test_proc_columns_not_kept(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	struct pane panes[4];
	unsigned np = columns_build_panes_all(&f->m, false, NULL, 0, panes, 4);
	history_keep(h, panes, np);
	assert_true(history_kept(h, COL("RES")) > HM_COUNT);
	assert_int_equal(history_kept(h, COL("TIME+")), -1);
	assert_int_equal(history_kept(h, COL("NI")), -1);
	assert_int_equal(history_kept(h, COL("VIRT")), -1);
	assert_int_equal(history_kept(h, COL("IO_W")), -1);
	history_track(h, COL("TIME+"));
	assert_true(history_kept(h, COL("TIME+")) >= 0);
	free(f);
	history_free(h);
}

static struct val value_twice_ipc(const struct column *c, const struct model *m,
				  const struct mrow *r)
{
	(void)c;
	(void)m;
	return ex(2 * r->v[E_INS].v / r->v[E_CYC].v);
}

/* Sorted by RES (kept with the panes' columns), TIME+ (tracked alone) or a chosen metric
 * (-M ipc: a column of its own named as the built-in IPC, read by its own function), the
 * sort column's series has a number each interval: the TREND is drawn from it. */
static void test_sort_columns_have_series(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	struct pane panes[4];
	unsigned np = columns_build_panes_all(&f->m, false, NULL, 0, panes, 4);
	struct column metric = {.name = "ipc",
				.title = "ipc",
				.width = 7,
				.kind = COL_METRIC,
				.a = 0,
				.b = -1,
				.mul = 1,
				.value = value_twice_ipc,
				.fmt = FMT_RATIO,
				.format = column_fmt_ratio};
	struct column *sorted[] = {COL("RES"), COL("TIME+"), &metric};
	for (size_t c = 0; c < sizeof(sorted) / sizeof(sorted[0]); c++) {
		history_clear(h);
		history_track(h, sorted[c]);
		history_keep(h, panes, np);
		for (int t = 1; t <= 5; t++) {
			fake_row(f, 0, 5, 1.5, 10);
			f->rows[0].rss_kb = 1000u * (unsigned)t;
			f->rows[0].state = 'R';
			f->rows[0].have_sched = true;
			f->rows[0].cpu_ns = 1000000000u * (unsigned)t;
			tick(h, f);
		}
		struct val out[5];
		assert_int_equal(history_get(h, slot_of(h, 5), HM_COUNT, 5, out), 5);
		for (int i = 0; i < 5; i++) {
			struct val truth = column_value(sorted[c], &f->m, &f->rows[0]);
			assert_true(val_has_number(out[i]));
			if (c == 0) /* RES grew by 1000 kB a tick */
				assert_true(fabs(out[i].v - 1024000.0 * (i + 1)) <=
					    0.03 * 1024000.0 * (i + 1));
			else if (c == 2)
				assert_true(fabs(out[i].v - truth.v) <= 0.03 * truth.v);
		}
		assert_true(history_kept(h, sorted[c]) > HM_COUNT);
	}
	free(f);
	history_free(h);
}

/* A spike 10^9 times the rest: the values beside it in the window read as no data (no
 * number could be kept for them), the spike to 3%; once it has left and they with it,
 * every value is there to 3% again. Exact zeros stay zeros. */
static void test_kept_spike(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	struct pane panes[4];
	unsigned np = columns_build_panes(&f->m, false, panes, 4);
	history_keep(h, panes, np);
	int k = history_kept(h, COL("CYCLES"));
	assert_true(k > HM_COUNT);
	struct val out[HIST_KEY_LEN];
	for (int t = 1; t <= 60; t++) {
		fake_row(f, 0, 5, 1, 1);
		f->v[0][E_CYC] = ex(t == 10 ? 1e12 : t % 7 == 0 ? 0 : 1000 + t);
		tick(h, f);
		assert_int_equal(history_get(h, slot_of(h, 5), k, HIST_KEY_LEN, out),
				 t < HIST_KEY_LEN ? t : HIST_KEY_LEN);
		for (int i = 0; i < HIST_KEY_LEN; i++) {
			int at = t - HIST_KEY_LEN + 1 + i;
			double truth = at == 10 ? 1e12 : at % 7 == 0 ? 0 : 1000 + at;
			bool spiked = at >= 1 && at != 10 && t >= 10 && at < 10 + HIST_KEY_LEN;
			if (at < 1 || (spiked && truth > 0))
				assert_true(out[i].state == VAL_NA && out[i].why == WHY_NONE);
			else
				assert_true(out[i].state == VAL_EXACT &&
					    fabs(out[i].v - truth) <= 0.03 * truth);
		}
	}
	free(f);
	history_free(h);
}

/* The budget: 16 MB of history at 5,000 rows. */
static void test_size_at_5000_rows(void **state)
{
	(void)state;
	struct history *h = history_new();
	struct fake *f = fake_new();
	for (unsigned i = 0; i < MAXR; i++)
		fake_row(f, i, (pid_t)(i + 1), 1, 1);
	tick(h, f);
	tick(h, f);
	assert_int_equal(history_rows(h), MAXR);
	assert_true(history_bytes(h) <= 16u * 1024 * 1024);
	free(f);
	history_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wraps),
		cmocka_unit_test(test_gaps_keep_state),
		cmocka_unit_test(test_pack_roundtrip),
		cmocka_unit_test(test_rows_dropped_and_reused),
		cmocka_unit_test(test_other_views_held),
		cmocka_unit_test(test_fleet_rows_apart),
		cmocka_unit_test(test_tracked_column),
		cmocka_unit_test(test_proc_columns_not_kept),
		cmocka_unit_test(test_sort_columns_have_series),
		cmocka_unit_test(test_kept_spike),
		cmocka_unit_test(test_size_at_5000_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
