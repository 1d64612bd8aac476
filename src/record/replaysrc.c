/* A recording as a source (source.h): each tick is the next recorded one up to an end
 * time; a damaged tick is left out and counted. The replay screen moves it (a step, a
 * jump, a spike found: replaysrc_seek). It counts nothing, so it takes no control but
 * the tick's wall-clock time: the app says "not for a recording". */
#include "replaysrc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct replaysrc {
	struct source src;
	struct replay *rp; /* not owned */
	uint64_t seq;	   /* the tick to load next */
	double end;
	bool done;
	long lost;
	char first[512];
	char which[200];       /* the ticks lost so far (sequence numbers, as ranges) */
	uint64_t run_a, run_b; /* the range of lost ticks not yet in which */
};

/* The range run_a..run_b into which ("5 to 9, 14"); "..." when it is full. */
static void flush_run(struct replaysrc *r)
{
	if (!r->run_a)
		return;
	size_t n = strlen(r->which);
	if (n + 48 >= sizeof(r->which)) {
		if (!strstr(r->which, "..."))
			snprintf(r->which + n, sizeof(r->which) - n, ", ...");
	} else if (r->run_a == r->run_b) {
		snprintf(r->which + n, sizeof(r->which) - n, "%s%llu", n ? ", " : "",
			 (unsigned long long)r->run_a);
	} else {
		snprintf(r->which + n, sizeof(r->which) - n, "%s%llu to %llu", n ? ", " : "",
			 (unsigned long long)r->run_a, (unsigned long long)r->run_b);
	}
	r->run_a = r->run_b = 0;
}

static void lost_ticks(struct replaysrc *r, uint64_t seq, uint64_t upto)
{
	if (r->run_a && seq == r->run_b + 1) {
		r->run_b = upto;
		return;
	}
	flush_run(r);
	r->run_a = seq;
	r->run_b = upto;
}

static int tick(struct source *s)
{
	struct replaysrc *r = (struct replaysrc *)s;
	char err[512];
	while (!r->done) {
		int e = replay_load(r->rp, r->seq, err, sizeof(err));
		if (e && e != -ENOENT) {
			uint64_t upto = replay_missing_upto(r->rp, r->seq);
			if (r->lost == 0)
				snprintf(r->first, sizeof(r->first), "%s", err);
			r->lost += (long)(upto - r->seq + 1);
			lost_ticks(r, r->seq, upto);
		}
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

static const struct source_ops ops = {.name = "recording",
				      .caps = SRC_CAN_TRAVEL,
				      .tick = tick,
				      .model = model,
				      .control = control,
				      .free = drop};

struct source *replaysrc_new(struct replay *rp, uint64_t first, double end)
{
	struct replaysrc *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	*r = (struct replaysrc){.src.ops = &ops, .rp = rp, .seq = first, .end = end};
	return &r->src;
}

int replaysrc_seek(struct source *s, uint64_t seq, char *err, size_t len)
{
	struct replaysrc *r = (struct replaysrc *)s;
	int e = replay_load(r->rp, seq, err, len);
	if (e == 0)
		r->done = replay_step(r->rp, seq, 1, &r->seq) != 0;
	return e;
}

long replaysrc_lost(struct source *s, const char **first)
{
	struct replaysrc *r = (struct replaysrc *)s;
	flush_run(r);
	size_t n = strlen(r->first);
	if (r->lost && *r->which && !strstr(r->first, " (lost: "))
		snprintf(r->first + n, sizeof(r->first) - n, " (lost: tick%s %s)",
			 r->lost == 1 ? "" : "s", r->which);
	*first = r->first;
	return r->lost;
}
