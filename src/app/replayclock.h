/* The replay screen's recorded clock, pure: the recorded times in its header. */
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

#endif
