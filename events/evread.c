/* Group read buffers, laid out as perf_event_open(2) describes for PERF_FORMAT_GROUP:
 * nr, [time_enabled], [time_running], then {value, [id], [lost]} per member. */
#include "evread.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

size_t evread_group_words(uint64_t read_format, unsigned nr)
{
	size_t per = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
	return 1 + !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) + per * nr;
}

static int member_of(const uint64_t *ids, unsigned nr, uint64_t id)
{
	for (unsigned i = 0; i < nr; i++)
		if (ids[i] == id)
			return (int)i;
	return -1;
}

int evread_parse_group(const uint64_t *buf, size_t n, uint64_t read_format, unsigned expect,
		       const uint64_t *ids, struct evread_group *out)
{
	if (!(read_format & PERF_FORMAT_GROUP) || expect == 0 || expect > EVGROUP_MAX || n < 1)
		return -EINVAL;
	if (buf[0] != expect || n < evread_group_words(read_format, expect))
		return -EINVAL;

	struct evread_group g;
	memset(&g, 0, sizeof(g));
	g.nr = expect;
	size_t w = 1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		g.ena = buf[w++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		g.run = buf[w++];

	unsigned seen = 0;
	for (unsigned i = 0; i < expect; i++) {
		uint64_t value = buf[w++];
		int m = (int)i;
		if (read_format & PERF_FORMAT_ID) {
			uint64_t id = buf[w++];
			if (ids) {
				m = member_of(ids, expect, id);
				if (m < 0 || (seen & (1U << m)))
					return -EINVAL;
			}
		}
		seen |= 1U << m;
		g.val[m] = value;
		if (read_format & PERF_FORMAT_LOST)
			g.lost[m] = buf[w++];
	}
	*out = g;
	return 0;
}
