/* The model is the seam between sources and sinks: a model built by hand through an
 * mstore (no engine), holding what an engine tick produced, renders through the batch
 * writers and the screen to the same bytes as the engine's own. A replay of a recording
 * builds its models this way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "columns.h"
#include "engine.h"
#include "evset.h"
#include "model.h"
#include "testutil.h"
#include "test_ui_fake.h"

/* m's rows and CPU rows copied into stores of our own, everything else as plain data. */
static struct model by_hand(const struct model *m, struct mstore *rows, struct mstore *cpus)
{
	struct model c = *m;
	assert_true(mstore_reserve(rows, m->nrows, m->nevents, m->ngroups) >= 0);
	assert_true(mstore_reserve(cpus, m->ncpu_rows, m->nevents, m->ngroups) >= 0);
	for (int k = 0; k < 2; k++) {
		const struct mrow *from = k ? m->cpu_rows : m->rows;
		unsigned n = k ? m->ncpu_rows : m->nrows;
		struct mstore *to = k ? cpus : rows;
		for (unsigned i = 0; i < n; i++) {
			struct mrow_w w = mstore_row(to, i);
			*w.r = from[i];
			w.r->v = w.v;
			w.r->g = w.g;
			memcpy(w.v, from[i].v, m->nevents * sizeof(*w.v));
			memcpy(w.g, from[i].g, m->ngroups * sizeof(*w.g));
		}
	}
	c.rows = rows->rows;
	c.cpu_rows = cpus->rows;
	return c;
}

static char *render(const struct model *m, enum out_format fmt)
{
	struct pane panes[8];
	unsigned np = columns_build_panes(m, false, panes, 8);
	FILE *f = tmpfile(); /* a real file: the writer sets its own stdio buffer */
	assert_non_null(f);
	struct batch *b = batch_new(f, fmt, panes, np, NULL, false);
	assert_non_null(b);
	batch_show_cpus(b, true);
	assert_int_equal(batch_write(b, m), 0);
	batch_free(b);
	assert_int_equal(fflush(f), 0);
	long len = ftell(f);
	assert_true(len > 0);
	char *buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

static void test_hand_built_model_renders_alike(void **state)
{
	(void)state;
	struct evset set;
	struct evspec_err perr;
	assert_int_equal(evset_build(&set, evset_default_spec(), NULL, NULL, &perr), 0);
	evset_probe(&set, false);
	pid_t me = getpid();
	struct engine_opts o = {.root = "",
				.scope = SCOPE_PIDS,
				.pids = &me,
				.npids = 1,
				.threads = true,
				.per_cpu = true,
				.interval = 0.1};
	int err;
	struct engine *e = engine_new(&set, &o, &err);
	assert_non_null(e);
	engine_tick(e);
	usleep(50 * 1000);
	engine_tick(e);
	const struct model *live = engine_model(e);
	assert_true(live->nrows >= 1);
	assert_true(live->ncpu_rows >= 1);

	struct mstore rows = {0}, cpus = {0};
	struct model copy = by_hand(live, &rows, &cpus);
	/* Not the engine's storage: the copy stands on its own. */
	assert_ptr_not_equal(copy.rows, live->rows);
	assert_ptr_not_equal(copy.rows[0].v, live->rows[0].v);

	static const enum out_format fmts[] = {OUT_TEXT, OUT_CSV, OUT_JSON};
	for (unsigned i = 0; i < 3; i++) {
		char *a = render(live, fmts[i]), *b = render(&copy, fmts[i]);
		assert_true(strlen(a) > 100);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}

	struct pane panes[8];
	unsigned np = columns_build_panes(live, false, panes, 8);
	struct term t = fake_ui(160, 40);
	assert_non_null(t.u);
	ui_set_model(t.u, live, panes, np);
	char *a = strdup(fake_screen(t.u));
	ui_set_model(t.u, &copy, panes, np);
	const char *b = fake_screen(t.u);
	assert_non_null(strstr(a, "PID"));
	assert_string_equal(a, b);
	free(a);
	fake_close(&t);

	mstore_free(&rows);
	mstore_free(&cpus);
	mstore_free(NULL);
	engine_free(e);
	evset_free(&set);
}

/* The store: growing keeps what was written, a change of layout empties it. */
static void test_mstore(void **state)
{
	(void)state;
	struct mstore s = {0};
	assert_int_equal(mstore_reserve(&s, 2, 3, 1), 0); /* every row's values are new */
	struct mrow_w w = mstore_row(&s, 1);
	assert_int_equal(w.r->cpu, -1);
	assert_ptr_equal(w.r->v, w.v);
	w.r->pid = 7;
	w.v[2] = val_missing(VAL_NA, WHY_UNSUPPORTED);
	size_t cap = s.cap;
	long first = mstore_reserve(&s, cap + 1, 3, 1);
	assert_int_equal(first, (long)cap);
	assert_int_equal(s.rows[1].pid, 7);
	assert_int_equal(s.rows[1].v[2].state, VAL_NA);
	assert_ptr_equal(s.rows[1].v, s.vals + 3);
	assert_int_equal(mstore_reserve(&s, 1, 3, 1), (long)s.cap); /* nothing new */
	assert_int_equal(mstore_reserve(&s, 1, 4, 1), 0);	    /* another layout */
	assert_true(s.cap >= 1);
	mstore_free(&s);
	assert_null(s.rows);
}

int main(void)
{
	setenv("TERM", "xterm-256color", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_built_model_renders_alike),
		cmocka_unit_test(test_mstore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
