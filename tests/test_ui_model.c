/* The model is the seam between sources and sinks: a model built by hand through an
 * mstore (no engine), holding what an engine tick produced, renders through the batch
 * writers and the screen to the same bytes as the engine's own, after the engine is gone.
 * A replay of a recording builds its models this way. */
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

/* Everything a hand-built model points at, owned here: no pointer into the engine or
 * its event set survives the copy. */
struct owned {
	struct mstore rows, cpus;
	struct mevent *events;
	struct mgroup *groups;
	char *strs[4096]; /* every string copied, to free */
	unsigned nstrs;
};

static const char *own(struct owned *o, const char *s)
{
	if (!s)
		return NULL;
	assert_true(o->nstrs < sizeof(o->strs) / sizeof(o->strs[0]));
	char *d = strdup(s);
	assert_non_null(d);
	o->strs[o->nstrs++] = d;
	return d;
}

static void own_free(struct owned *o)
{
	mstore_free(&o->rows);
	mstore_free(&o->cpus);
	free(o->events);
	free(o->groups);
	for (unsigned i = 0; i < o->nstrs; i++)
		free(o->strs[i]);
}

/* A deep copy of m: its rows and CPU rows in stores of our own, its events, groups and
 * every string copied, everything else as plain data. */
static struct model by_hand(const struct model *m, struct owned *o)
{
	struct model c = *m;
	c.hostname = own(o, m->hostname);
	c.kernel = own(o, m->kernel);
	c.pmus = own(o, m->pmus);
	c.notice = own(o, m->notice);
	c.backend = own(o, m->backend);
	o->events = calloc(m->nevents, sizeof(*o->events));
	o->groups = calloc(m->ngroups, sizeof(*o->groups));
	assert_non_null(o->events);
	assert_non_null(o->groups);
	for (unsigned i = 0; i < m->nevents; i++) {
		o->events[i] = m->events[i];
		o->events[i].name = own(o, m->events[i].name);
		o->events[i].key = own(o, m->events[i].key);
	}
	memcpy(o->groups, m->groups, m->ngroups * sizeof(*o->groups));
	c.events = o->events;
	c.groups = o->groups;
	assert_true(mstore_reserve(&o->rows, m->nrows, m->nevents, m->ngroups) >= 0);
	assert_true(mstore_reserve(&o->cpus, m->ncpu_rows, m->nevents, m->ngroups) >= 0);
	for (int k = 0; k < 2; k++) {
		const struct mrow *from = k ? m->cpu_rows : m->rows;
		unsigned n = k ? m->ncpu_rows : m->nrows;
		struct mstore *to = k ? &o->cpus : &o->rows;
		for (unsigned i = 0; i < n; i++) {
			struct mrow_w w = mstore_row(to, i);
			*w.r = from[i];
			w.r->user = own(o, from[i].user);
			w.r->comm = own(o, from[i].comm);
			w.r->cmdline = own(o, from[i].cmdline);
			w.r->cgroup = own(o, from[i].cgroup);
			w.r->v = w.v;
			w.r->g = w.g;
			memcpy(w.v, from[i].v, m->nevents * sizeof(*w.v));
			memcpy(w.g, from[i].g, m->ngroups * sizeof(*w.g));
		}
	}
	c.rows = o->rows.rows;
	c.cpu_rows = o->cpus.rows;
	return c;
}

/* The screen's text for m, on a terminal of its own. */
static char *screen(const struct model *m)
{
	struct pane panes[8];
	unsigned np = columns_build_panes(m, false, panes, 8);
	struct term t = fake_ui(160, 40);
	assert_non_null(t.u);
	ui_set_model(t.u, m, panes, np);
	char *s = strdup(fake_screen(t.u));
	assert_non_null(s);
	fake_close(&t);
	return s;
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
	assert_int_equal(batch_write(b, m, 1764088801.25), 0);
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
	struct srcopts o = {.root = "",
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

	/* The engine's renderings first, kept as text. */
	static const enum out_format fmts[] = {OUT_TEXT, OUT_CSV, OUT_JSON};
	char *want[3];
	for (unsigned i = 0; i < 3; i++) {
		want[i] = render(live, fmts[i]);
		assert_true(strlen(want[i]) > 100);
	}
	char *want_screen = screen(live);
	assert_non_null(strstr(want_screen, "PID"));

	/* Then the copy, and no engine or event set behind it: a pointer left into either
	 * reads freed memory (ASan, valgrind) or renders differently. */
	struct owned own_data = {0};
	struct model copy = by_hand(live, &own_data);
	assert_ptr_not_equal(copy.rows, live->rows);
	assert_ptr_not_equal(copy.rows[0].v, live->rows[0].v);
	assert_ptr_not_equal(copy.events, live->events);
	assert_ptr_not_equal(copy.events[0].name, live->events[0].name);
	engine_free(e);
	evset_free(&set);

	for (unsigned i = 0; i < 3; i++) {
		char *got = render(&copy, fmts[i]);
		assert_string_equal(got, want[i]);
		free(got);
		free(want[i]);
	}
	char *got_screen = screen(&copy);
	assert_string_equal(got_screen, want_screen);
	free(got_screen);
	free(want_screen);

	own_free(&own_data);
	mstore_free(NULL);
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
