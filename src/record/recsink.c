/* Each tick into the recording; a failure (a full disk) ends the recording, not the
 * run: the file keeps every tick before it. */
#include "recsink.h"

#include <stdlib.h>

struct recsink {
	struct sink base;
	struct recorder *r;
};

static int rs_write(struct sink *s, const struct model *m, double wall)
{
	struct recsink *rs = (struct recsink *)s;
	return recorder_write(rs->r, m, wall, s->err, sizeof(s->err));
}

static void rs_free(struct sink *s)
{
	recorder_close(((struct recsink *)s)->r);
	free(s);
}

static const struct sink_ops recsink_ops = {.name = "recorder", .write = rs_write, .free = rs_free};

struct sink *recsink_new(struct recorder *r)
{
	struct recsink *rs = calloc(1, sizeof(*rs));
	if (!rs) {
		recorder_close(r);
		return NULL;
	}
	rs->base.ops = &recsink_ops;
	rs->r = r;
	return &rs->base;
}
