/* The sink list: every sink gets the same model in order; one that fails is said once,
 * dropped, and the others go on; a reader gone away (EPIPE) is a quiet end. */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"

struct fake {
	struct sink base;
	int fail_at; /* the write that returns err (1-based), 0: never */
	int err;
	int writes;
	const struct model *last;
	int *freed;
	char order[16];
	char *log; /* the writes of every sink, in order (64 bytes) */
};

static int fake_write(struct sink *s, const struct model *m, double wall)
{
	struct fake *f = (struct fake *)s;
	(void)wall;
	f->writes++;
	f->last = m;
	size_t n = strlen(f->log);
	snprintf(f->log + n, 64 - n, "%s", f->order);
	if (f->fail_at && f->writes == f->fail_at) {
		if (f->err != -EPIPE)
			snprintf(s->err, sizeof(s->err), "%s: it failed", f->order);
		return f->err;
	}
	return 0;
}

static void fake_free(struct sink *s)
{
	struct fake *f = (struct fake *)s;
	++*f->freed;
	free(f);
}

static const struct sink_ops fake_ops = {.name = "fake", .write = fake_write, .free = fake_free};

static struct fake *fake_new(const char *name, int fail_at, int err, int *freed, char *log)
{
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->base.ops = &fake_ops;
	f->fail_at = fail_at;
	f->err = err;
	f->freed = freed;
	f->log = log;
	snprintf(f->order, sizeof(f->order), "%s", name);
	return f;
}

static char said[1024];
static int nsaid;

static void say(void *ctx, const char *line)
{
	(void)ctx;
	nsaid++;
	size_t n = strlen(said);
	snprintf(said + n, sizeof(said) - n, "%s|", line);
}

static void test_failing_sink_stops_alone(void **state)
{
	(void)state;
	struct sinks l = {0};
	struct model m = {0};
	int freed = 0;
	char log[64] = "";
	said[0] = '\0';
	nsaid = 0;
	struct fake *a = fake_new("a", 0, 0, &freed, log);
	struct fake *b = fake_new("b", 2, -ENOSPC, &freed, log);
	struct fake *c = fake_new("c", 0, 0, &freed, log);
	assert_int_equal(sinks_add(&l, &a->base), 0);
	assert_int_equal(sinks_add(&l, &b->base), 0);
	assert_int_equal(sinks_add(&l, &c->base), 0);
	assert_int_equal(sinks_write(&l, &m, 1.0, say, NULL), 3);
	assert_int_equal(sinks_write(&l, &m, 2.0, say, NULL), 2); /* b's second write fails */
	assert_int_equal(freed, 1);
	assert_int_equal(nsaid, 1);
	assert_string_equal(said, "b: it failed|");
	assert_int_equal(l.failed, -ENOSPC);
	assert_int_equal(sinks_write(&l, &m, 3.0, say, NULL), 2);
	/* Every sink in the order added, b no more after it failed. */
	assert_string_equal(log, "abcabcac");
	assert_ptr_equal(a->last, &m);
	assert_int_equal(c->writes, 3);
	assert_null(sinks_find(&l, "nothing"));
	assert_ptr_equal(sinks_find(&l, "fake"), &a->base);
	sinks_free(&l);
	assert_int_equal(freed, 3);
	assert_int_equal(l.n, 0);
}

static void test_epipe_is_quiet(void **state)
{
	(void)state;
	struct sinks l = {0};
	struct model m = {0};
	int freed = 0;
	char log[64] = "";
	said[0] = '\0';
	nsaid = 0;
	assert_int_equal(sinks_add(&l, &fake_new("p", 1, -EPIPE, &freed, log)->base), 0);
	assert_int_equal(sinks_write(&l, &m, 1.0, say, NULL), 0);
	assert_int_equal(nsaid, 0);
	assert_int_equal(l.failed, 0); /* | head: not an error */
	assert_int_equal(freed, 1);
	sinks_free(&l);
}

static void test_full_list_refuses(void **state)
{
	(void)state;
	struct sinks l = {0};
	int freed = 0;
	char log[64] = "";
	for (unsigned i = 0; i < SINKS_MAX; i++)
		assert_int_equal(sinks_add(&l, &fake_new("x", 0, 0, &freed, log)->base), 0);
	assert_int_equal(sinks_add(&l, &fake_new("y", 0, 0, &freed, log)->base), -ENOSPC);
	assert_int_equal(freed, 1); /* the one refused is freed, not leaked */
	assert_int_equal(sinks_add(&l, NULL), -ENOMEM);
	sinks_free(&l);
	assert_int_equal(freed, SINKS_MAX + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failing_sink_stops_alone),
		cmocka_unit_test(test_epipe_is_quiet),
		cmocka_unit_test(test_full_list_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
