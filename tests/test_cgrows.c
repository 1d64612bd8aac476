/* Cgroup rows from a model built by hand: tree order, parents holding their children's
 * sums and their own processes', and states that never claim more than was counted. */
#include <string.h>

#include "cgrows.h"
#include "testutil.h"

#define NEV 2
#define NROW 5

static struct mevent ev[NEV] = {
	{.name = "page-faults", .key = "page-faults", .group = 0, .member = 0},
	{.name = "cs", .key = "cs", .group = 1, .member = 0},
};
static struct mgroup grp[2] = {{.first = 0, .n = 1}, {.first = 1, .n = 1}};
static struct val v[NROW][NEV];
static struct val_delta g[NROW][2];
static struct mrow rows[NROW];

static struct val exact(double x)
{
	return (struct val){.v = x, .state = VAL_EXACT, .run_pm = 1000};
}

static void row(int i, const char *cg, pid_t pid, struct val pf, struct val cs)
{
	rows[i] = (struct mrow){.kind = ROW_PROC,
				.pid = pid,
				.tid = pid,
				.cgroup = cg,
				.comm = "x",
				.v = v[i],
				.g = g[i]};
	v[i][0] = pf;
	v[i][1] = cs;
	g[i][0] = (struct val_delta){1000, pf.state == VAL_NC ? 0 : pf.run_pm, 0};
	g[i][1] = (struct val_delta){1000, 1000, 0};
}

static const struct mrow *find(const struct mrow *r, unsigned n, const char *path)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(r[i].cgroup, path) == 0)
			return &r[i];
	return NULL;
}

static void test_tree_sums(void **state)
{
	(void)state;
	row(0, "/a/x", 10, exact(100), exact(1));
	row(1, "/a/y", 11, exact(20), exact(2));
	row(2, "/a", 12, exact(3), exact(4));
	row(3, "/a-b", 13, val_missing(VAL_NC, WHY_NOT_RUN), exact(8));
	row(4, "/a/x", 14, (struct val){.v = 50, .state = VAL_SCALED, .run_pm = 500}, exact(16));
	struct model m = {.nevents = NEV,
			  .events = ev,
			  .ngroups = 2,
			  .groups = grp,
			  .nrows = NROW,
			  .rows = rows};
	struct cgrows *c = cgrows_new();
	assert_non_null(c);
	unsigned n;
	const struct mrow *r = cgrows_build(c, &m, &n);
	assert_non_null(r);
	assert_int_equal(n, 5); /* /, /a, /a/x, /a/y, /a-b */
	/* Tree order: a parent right before its children, '/' before any other byte. */
	static const char *const order[] = {"/", "/a", "/a/x", "/a/y", "/a-b"};
	for (unsigned i = 0; i < n; i++) {
		assert_string_equal(r[i].cgroup, order[i]);
		assert_int_equal(r[i].kind, ROW_CGROUP);
	}
	const struct mrow *x = find(r, n, "/a/x"), *a = find(r, n, "/a"), *root = find(r, n, "/");
	const struct mrow *ab = find(r, n, "/a-b");
	/* A scaled part makes the sum scaled; RUN% is the parts' share. */
	assert_true(x->v[0].v == 150);
	assert_int_equal(x->v[0].state, VAL_SCALED);
	assert_int_equal(x->v[0].run_pm, 750);
	assert_int_equal(x->nthreads, 2);
	assert_string_equal(x->comm, "x");
	/* A parent: its children plus its own processes. */
	assert_true(a->v[0].v == 150 + 20 + 3);
	assert_true(a->v[1].v == 1 + 16 + 2 + 4);
	assert_int_equal(a->v[1].state, VAL_EXACT);
	assert_int_equal(a->nthreads, 4);
	/* Nothing counted: n/c, never 0. */
	assert_int_equal(ab->v[0].state, VAL_NC);
	assert_int_equal(ab->v[0].why, WHY_NOT_RUN);
	/* The root holds everything; a part that did not count makes it partial (a lower
	 * bound): 4 of its 5 parts counted. */
	assert_true(root->v[0].v == 173);
	assert_int_equal(root->v[0].state, VAL_PARTIAL);
	assert_int_equal(root->v[0].run_pm, 800);
	assert_int_equal(root->v[0].why, WHY_NOT_RUN);
	assert_true(root->v[1].v == 31);
	assert_int_equal(root->v[1].state, VAL_EXACT);
	assert_int_equal(root->nthreads, 5);
	/* Again, the same (no state kept from the last build). */
	r = cgrows_build(c, &m, &n);
	assert_int_equal(n, 5);
	assert_true(find(r, n, "/")->v[1].v == 31);
	cgrows_free(c);
	cgrows_free(NULL);
}

/* Cgroups the source counted itself (cg_rows): their values stand instead of the sums,
 * a cgroup with no process row this tick has its row, and n/c (fd limit) stays n/c. */
static void test_own_counts(void **state)
{
	(void)state;
	row(0, "/a/x", 10, exact(100), exact(1));
	row(1, "/a", 12, exact(3), exact(4));
	static struct val cv[3][NEV];
	static struct val_delta cg[3][2];
	struct mrow own[3] = {
		{.kind = ROW_CGROUP, .cgroup = "/a/x", .v = cv[0], .g = cg[0]},
		{.kind = ROW_CGROUP, .cgroup = "/a/gone", .v = cv[1], .g = cg[1]},
		{.kind = ROW_CGROUP, .cgroup = "/a", .v = cv[2], .g = cg[2]},
	};
	cv[0][0] = exact(4000);
	cv[0][1] = exact(7);
	cv[1][0] = exact(900);
	cv[1][1] = exact(9);
	cv[2][0] = val_missing(VAL_NC, WHY_FDLIMIT);
	cv[2][1] = val_missing(VAL_NC, WHY_FDLIMIT);
	cg[0][0] = (struct val_delta){2000, 2000, 0};
	struct model m = {.nevents = NEV,
			  .events = ev,
			  .ngroups = 2,
			  .groups = grp,
			  .nrows = 2,
			  .rows = rows,
			  .ncg_rows = 3,
			  .cg_rows = own};
	struct cgrows *c = cgrows_new();
	assert_non_null(c);
	unsigned n;
	const struct mrow *r = cgrows_build(c, &m, &n);
	assert_non_null(r);
	assert_int_equal(n, 4); /* /, /a, /a/gone, /a/x */
	const struct mrow *x = find(r, n, "/a/x"), *gone = find(r, n, "/a/gone");
	assert_non_null(gone);
	assert_true(x->v[0].v == 4000);
	assert_int_equal(x->v[0].state, VAL_EXACT);
	assert_int_equal(x->g[0].ena, 2000);
	assert_int_equal(x->nthreads, 1);
	assert_true(gone->v[1].v == 9);
	assert_int_equal(gone->nthreads, 0);
	assert_int_equal(find(r, n, "/a")->v[0].state, VAL_NC);
	assert_int_equal(find(r, n, "/a")->v[0].why, WHY_FDLIMIT);
	/* Not counted by the source: the sum, as before. */
	assert_true(find(r, n, "/")->v[0].v == 103);
	cgrows_free(c);
}

/* A process row that is itself partial (threads short of descriptors) makes its
 * cgroup's sum partial, its share counted weighed with the other parts'. */
static void test_partial_part(void **state)
{
	(void)state;
	struct val part = {.v = 40, .state = VAL_PARTIAL, .why = WHY_FDLIMIT, .run_pm = 250};
	row(0, "/p", 10, part, exact(1));
	row(1, "/p", 11, exact(60), exact(2));
	struct model m = {.nevents = NEV,
			  .events = ev,
			  .ngroups = 2,
			  .groups = grp,
			  .nrows = 2,
			  .rows = rows};
	struct cgrows *c = cgrows_new();
	assert_non_null(c);
	unsigned n;
	const struct mrow *r = cgrows_build(c, &m, &n);
	assert_non_null(r);
	const struct mrow *p = find(r, n, "/p");
	assert_non_null(p);
	assert_true(p->v[0].v == 100);
	assert_int_equal(p->v[0].state, VAL_PARTIAL);
	assert_int_equal(p->v[0].why, WHY_FDLIMIT);
	assert_int_equal(p->v[0].run_pm, 625); /* (1000 + 250) / 2 */
	assert_int_equal(p->v[1].state, VAL_EXACT);
	cgrows_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_sums),
		cmocka_unit_test(test_own_counts),
		cmocka_unit_test(test_partial_part),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
