/* The replay screen's recorded clock, pure: the recorded times in its header, and the
 * pace of play (Space) at a speed. */
#ifndef PMUTOP_REPLAYCLOCK_H
#define PMUTOP_REPLAYCLOCK_H

#include <stddef.h>

/* ui_set_replay's text: state ("REPLAY", "PLAY") and speed (x), the time `at` of the
 * tick shown, its place n of all, and the recording's first and last times (range NULL:
 * not known, the field alone). The range's end says its date only when it is another
 * day than its start. A time that is none (a damaged file: out of range, NaN) reads
 * "?", never a slice of another string. */
void replay_header_text(char *buf, size_t len, const char *state, int speed, double at,
			unsigned long long n, unsigned long long all, const double *range);

/* Play from an anchor: at the monotonic time mono it was at the recorded time wall, and
 * the recorded time goes on at speed times the monotonic clock's pace from there. */
struct replay_pace {
	double mono, wall, speed;
};

void replay_pace_anchor(struct replay_pace *p, double now, double wall, double speed);

/* Step play to the next tick: 0 with its recorded time and interval (seconds), or
 * non-zero (the end, or a failure). */
typedef int (*replay_pace_next_fn)(void *ctx, double *wall, double *interval);

/* A pass of play at the monotonic time now, from the tick shown (recorded at wall): the
 * ticks due by now are stepped through in the recording's order, max at most (a screen
 * slower than the speed keeps the pace so). A tick more than 2 intervals + 1 s after
 * the time due (pmutop stopped, then recorded again), or before the tick it follows
 * (the recorded clock stepped back: an NTP step, a VM resumed) anchors play at its
 * time: it comes one interval after the tick before it, and play goes on from there.
 * Returns the seconds until the tick after the last one stepped to is due (0 when it
 * is due already), or -1 when next returned non-zero. */
double replay_pace_pass(struct replay_pace *p, double now, double wall, unsigned max,
			replay_pace_next_fn next, void *ctx);

#endif
