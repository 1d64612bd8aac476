/* libFuzzer harness for taskwatch_parse: the input is what a perf ring buffer holds once
 * unwrapped (perf_event_header, body, next record...), copied into a heap block of exactly
 * its size, so that a read past its end is caught.
 *
 * Checks: -EINVAL exactly when a whole header has size < 8 before any partial record;
 * otherwise the bytes consumed are the whole records (never more than n, and what is left
 * is a partial record); each callback gets a known kind, a terminated comm, and there are
 * no more callbacks than fork, exit, comm and lost records; parsing the consumed prefix
 * again gives the same records. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "taskwatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXSEEN 4096

struct seen {
	unsigned n;
	struct taskwatch_rec r[MAXSEEN];
};

static void cb(void *ctx, const struct taskwatch_rec *r)
{
	struct seen *s = ctx;
	if (r->kind != TW_FORK && r->kind != TW_EXIT && r->kind != TW_COMM && r->kind != TW_LOST)
		abort();
	if (!memchr(r->comm, '\0', sizeof(r->comm)))
		abort();
	if (r->kind != TW_COMM && r->comm[0])
		abort();
	if (s->n < MAXSEEN)
		s->r[s->n] = *r;
	s->n++;
}

/* The reference walk over headers: consumed bytes (or -EINVAL) and interesting records. */
static long walk(const uint8_t *p, size_t n, unsigned *interesting)
{
	size_t off = 0;
	*interesting = 0;
	while (n - off >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h))
			return -EINVAL;
		if (h.size > n - off)
			break;
		if (h.type == PERF_RECORD_FORK || h.type == PERF_RECORD_EXIT ||
		    h.type == PERF_RECORD_COMM || h.type == PERF_RECORD_LOST)
			(*interesting)++;
		off += h.size;
	}
	return (long)off;
}

static int same_rec(const struct taskwatch_rec *a, const struct taskwatch_rec *b)
{
	return a->kind == b->kind && a->pid == b->pid && a->tid == b->tid && a->ppid == b->ppid &&
	       a->ptid == b->ptid && a->exec == b->exec && a->lost == b->lost &&
	       strcmp(a->comm, b->comm) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct seen s1, s2;
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);

	unsigned interesting;
	long want = walk(buf, size, &interesting);
	s1.n = 0;
	long got = taskwatch_parse(buf, size, cb, &s1);
	if (got != want)
		abort();
	if (got >= 0) {
		if ((size_t)got > size || s1.n > interesting)
			abort();
		/* Records are whole: the prefix parses to the same calls, all of it consumed. */
		s2.n = 0;
		if (taskwatch_parse(buf, (size_t)got, cb, &s2) != got || s2.n != s1.n)
			abort();
		for (unsigned i = 0; i < s1.n && i < MAXSEEN; i++)
			if (!same_rec(&s1.r[i], &s2.r[i]))
				abort();
	}
	free(buf);
	return 0;
}
