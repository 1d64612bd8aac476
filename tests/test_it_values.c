/* The marks of values built from several parts, end to end through pmutop: -G's cgroup
 * rows give the reason an event is n/a (issue 25 item 8: "task gone" for a hardware
 * event this machine does not support). */
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "cgsource.h"
#include "startup.h"
#include "evset.h"

/* Field k (0-based) of CSV line l, unquoted fields only, into f. */
static void csv_field(const char *l, unsigned k, char *f, size_t len)
{
	for (unsigned i = 0; i < k && l; i++) {
		l = strpbrk(l, ",\n");
		l = l && *l == ',' ? l + 1 : NULL;
	}
	size_t w = l ? strcspn(l, ",\n") : 0;
	snprintf(f, len, "%.*s", (int)w, l ? l : "");
}

/* A hardware event n/a in -G's rows says why: unsupported here, never "task gone" (no
 * task is counted there). Where the machine counts cycles, there is nothing to see. */
static void test_cgroup_rows_why(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	char *argv[] = {
		PMUTOP_BINARY, "--format",	    "csv", "-n", "1", "-d", "0.2", "-G", "/",
		"-e",	       "cycles,task-clock", NULL};
	static char out[1 << 16], err[4096];
	int st = testutil_run(argv, out, sizeof(out), err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("pmutop -G /: status %#x\n%s", st, err);
	unsigned cycles = 0, clock = 0;
	for (char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char kind[16], ev[32], st_[16], why[32];
		csv_field(l, 3, kind, sizeof(kind));
		csv_field(l, 8, ev, sizeof(ev));
		csv_field(l, 10, st_, sizeof(st_));
		csv_field(l, 12, why, sizeof(why));
		if (strcmp(kind, "cgroup") != 0)
			continue;
		if (strcmp(ev, "task-clock") == 0) {
			clock++;
			assert_string_equal(st_, "exact");
		}
		if (strcmp(ev, "cycles") != 0)
			continue;
		cycles++;
		if (strcmp(st_, "n/a") != 0)
			skip(); /* counted here: a PMU */
		if (strcmp(why, "unsupported") != 0)
			fail_msg("cycles n/a (%s) in a cgroup row: %.200s", why, l);
	}
	assert_true(cycles > 0);
	assert_true(clock > 0);
}

static void make_set(struct evset *s, const char *spec)
{
	struct evspec_err err;
	assert_int_equal(evset_parse(s, spec, NULL, &err), 0);
	evset_probe(s, false);
}

/* -G and a change of events: the cgroups' counters move to the new layout as the tasks'
 * do, the kept group counting on, the new one n/c (starting) for the change's tick. */
static void test_cgroup_rows_switch(void **state)
{
	(void)state;
	char mnt[512];
	if (geteuid() != 0 || cgroup_mount("", mnt, sizeof(mnt)) != 0)
		skip();
	int cgfd = open(mnt, O_RDONLY | O_DIRECTORY);
	assert_true(cgfd >= 0);
	const char *paths[] = {"/"};
	struct evset a, b;
	make_set(&a, "page-faults");
	struct srcopts o = {.root = "",
			    .scope = SCOPE_CGROUPS,
			    .cgroup_fds = &cgfd,
			    .cgroup_paths = paths,
			    .ncgroups = 1,
			    .interval = 0.1};
	int err;
	struct source *e = cgsource_new(&a, &o, &err);
	assert_non_null(e);
	source_tick(e);
	/* The descriptors it holds (/metrics says them): its cgroup's group on each CPU. */
	unsigned ncpus = source_model(e)->ncpus, fds = 0;
	assert_true(ncpus > 0);
	assert_int_equal(source_control(e, SRC_OPEN_FDS, &fds), 0);
	assert_int_equal(fds, ncpus);
	make_set(&b, "context-switches,page-faults");
	assert_int_equal(source_control(e, SRC_EVSET, &b), 0);
	assert_int_equal(source_control(e, SRC_OPEN_FDS, &fds), 0);
	assert_int_equal(fds, 2 * ncpus);
	usleep(20 * 1000);
	source_tick(e);
	const struct model *m = source_model(e);
	assert_int_equal(m->nevents, 2);
	assert_int_equal(m->nrows, 1);
	assert_int_equal(m->rows[0].kind, ROW_CGROUP);
	struct val cs = m->rows[0].v[0], pf = m->rows[0].v[1];
	assert_string_equal(m->events[0].key, "context-switches");
	if (cs.state != VAL_NC || cs.why != WHY_STARTING)
		fail_msg("the new event reads %s %.0f (%s)", val_state_str(cs.state), cs.v,
			 val_why_str(cs.why));
	assert_int_equal(pf.state, VAL_EXACT);
	usleep(20 * 1000);
	source_tick(e);
	cs = m->rows[0].v[0];
	assert_int_equal(cs.state, VAL_EXACT);
	assert_true(cs.v > 0); /* the whole machine switched in 20 ms */
	source_close(e);
	evset_free(&a);
	evset_free(&b);
	close(cgfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_rows_why),
		cmocka_unit_test(test_cgroup_rows_switch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
