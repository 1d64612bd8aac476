/* The replay header's times and play's pace. */
#include "replayclock.h"

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "recfmt.h"

/* A recorded time in the header's three forms, or "?" in each. */
struct when {
	bool ok;
	int year, yday;
	char full[32];	/* "2026-11-27 23:22:41" */
	char clock[16]; /* "23:22:41" */
	char brief[16]; /* "11-27 23:22" */
};

static void when_of(double wall, struct when *w)
{
	struct tm tm;
	/* recfmt_time_text refuses a time out of time_t's range before it is converted. */
	w->ok = *recfmt_time_text(wall, w->full, sizeof(w->full)) != '\0';
	if (w->ok) {
		time_t t = (time_t)wall;
		w->ok = localtime_r(&t, &tm) &&
			strftime(w->clock, sizeof(w->clock), "%H:%M:%S", &tm) &&
			strftime(w->brief, sizeof(w->brief), "%m-%d %H:%M", &tm);
	}
	if (!w->ok) {
		snprintf(w->full, sizeof(w->full), "?");
		snprintf(w->clock, sizeof(w->clock), "?");
		snprintf(w->brief, sizeof(w->brief), "?");
		return;
	}
	w->year = tm.tm_year;
	w->yday = tm.tm_yday;
}

void replay_header_text(char *buf, size_t len, const char *state, int speed, double at,
			unsigned long long n, unsigned long long all, const double *range)
{
	struct when now, first, last;
	when_of(at, &now);
	if (!range) {
		snprintf(buf, len, "%s %s %dx", state, now.full, speed);
		return;
	}
	when_of(range[0], &first);
	when_of(range[1], &last);
	bool one_day = first.ok && last.ok && first.year == last.year && first.yday == last.yday;
	/* "11-27 23:22-11-28 01:00" when it spans days, "23:22:41-23:40:02" when not. */
	snprintf(buf, len, "%s %s (%llu/%llu) %dx\t%s %s (%llu/%llu) %dx\t%s to %s\t%s-%s", state,
		 now.full, n, all, speed, state, now.clock, n, all, speed, first.full,
		 one_day ? last.clock : last.full, one_day ? first.clock : first.brief,
		 one_day ? last.clock : last.brief);
}

void replay_pace_anchor(struct replay_pace *p, double now, double wall, double speed)
{
	p->mono = now;
	p->wall = wall;
	p->speed = speed > 0 ? speed : 1;
}

double replay_pace_pass(struct replay_pace *p, double now, double wall, unsigned max,
			replay_pace_next_fn next, void *ctx)
{
	double speed = p->speed > 0 ? p->speed : 1, iv = 1;
	double due = p->wall + (now - p->mono) * speed;
	for (unsigned n = 0; n < max; n++) {
		double before = wall;
		if (next(ctx, &wall, &iv))
			return -1;
		if (wall > due + 2 * iv + 1 || wall < before) {
			replay_pace_anchor(p, now, wall, speed);
			due = wall;
		}
		if (wall + iv > due)
			break; /* the next one is not due yet */
	}
	double wait = (wall + iv - due) / speed;
	return wait > 0 ? wait : 0;
}
