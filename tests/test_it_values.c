/* The marks of values built from several parts, end to end through pmutop: -G's cgroup
 * rows give the reason an event is n/a (issue 25 item 8: "task gone" for a hardware
 * event this machine does not support). */
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_rows_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
