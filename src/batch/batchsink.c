/* Batch mode as a sink: a block per tick (with -n, the first N, then the totals). */
#include "batchsink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct batchsink {
	struct sink base;
	struct batch *b;
	struct cgrows *cg; /* --cgroups: cgroup rows for process rows (a fleet's are its own) */
	long count, blocks;
};

static int bs_write(struct sink *s, const struct model *m, double wall)
{
	struct batchsink *bs = (struct batchsink *)s;
	/* After -n blocks, only the totals of a command still waited for. */
	if (bs->count && bs->blocks >= bs->count && !m->final)
		return 0;
	struct model cg;
	if (bs->cg && !m->fleet) {
		cg = *m;
		cg.rows = cgrows_build(bs->cg, m, &cg.nrows);
		m = &cg;
	}
	int r = batch_write(bs->b, m, wall);
	bs->blocks += !m->final;
	if (r == -EINTR) /* outstream.h: a stop signal while the reader was not reading */
		snprintf(s->err, sizeof(s->err),
			 "output stopped: a signal came while the reader was not reading it; "
			 "the rest is not written");
	else if (r && r != -EPIPE) /* a reader that went away (| head) is a quiet end */
		snprintf(s->err, sizeof(s->err), "cannot write output: %s", strerror(-r));
	return r;
}

static void bs_notice(struct sink *s, const char *text)
{
	batch_notice(((struct batchsink *)s)->b, text);
}

static void bs_free(struct sink *s)
{
	struct batchsink *bs = (struct batchsink *)s;
	batch_free(bs->b);
	cgrows_free(bs->cg);
	free(bs);
}

static const struct sink_ops batchsink_ops = {
	.name = "batch", .write = bs_write, .notice = bs_notice, .free = bs_free};

struct sink *batchsink_new(struct batch *b, bool cgroups, long count)
{
	struct batchsink *bs = calloc(1, sizeof(*bs));
	if (!bs || (cgroups && !(bs->cg = cgrows_new()))) {
		free(bs);
		batch_free(b);
		return NULL;
	}
	bs->base.ops = &batchsink_ops;
	bs->b = b;
	bs->count = count;
	return &bs->base;
}

long batchsink_blocks(const struct sink *s)
{
	return s ? ((const struct batchsink *)s)->blocks : 0;
}
