/* A recording as a source (source.h): each tick is the next recorded one up to an end
 * time; a damaged tick is left out and counted. It counts nothing, so it takes no
 * control but the tick's wall-clock time: the app says "not for a recording". */
#include "replaysrc.h"

#include <stdio.h>
#include <stdlib.h>

struct replaysrc {
	struct source src;
	struct replay *rp; /* not owned */
	uint64_t seq;	   /* the tick to load next */
	double end;
	bool done;
	long lost;
	char first[512];
};

static int tick(struct source *s)
{
	struct replaysrc *r = (struct replaysrc *)s;
	char err[512];
	while (!r->done) {
		int e = replay_load(r->rp, r->seq, err, sizeof(err));
		if (e && e != -ENOENT && r->lost++ == 0)
			snprintf(r->first, sizeof(r->first), "%s", err);
		if (e == 0 && replay_wall(r->rp) > r->end)
			break;
		r->done = replay_step(r->rp, r->seq, 1, &r->seq) != 0;
		if (e == 0)
			return 0;
	}
	r->done = true;
	return -ENODATA;
}

static const struct model *model(const struct source *s)
{
	return replay_model(((const struct replaysrc *)s)->rp);
}

static int control(struct source *s, enum source_ctl what, const void *arg)
{
	if (what != SRC_WALL)
		return -ENOTSUP;
	*(double *)arg = replay_wall(((struct replaysrc *)s)->rp);
	return 0;
}

static void drop(struct source *s)
{
	free(s);
}

static const struct source_ops ops = {
	.name = "recording", .tick = tick, .model = model, .control = control, .free = drop};

struct source *replaysrc_new(struct replay *rp, uint64_t first, double end)
{
	struct replaysrc *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	*r = (struct replaysrc){.src.ops = &ops, .rp = rp, .seq = first, .end = end};
	return &r->src;
}

long replaysrc_lost(const struct source *s, const char **first)
{
	const struct replaysrc *r = (const struct replaysrc *)s;
	*first = r->first;
	return r->lost;
}
