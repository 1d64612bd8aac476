/* The group read_format parser: a pure function over one read() buffer. */
#ifndef PMUTOP_EVREAD_H
#define PMUTOP_EVREAD_H

#include <stddef.h>
#include <stdint.h>

#include "evspec.h"

/* What one group read returns: the group's times and each member's value, in the order
 * the members were opened (matched by id when the buffer carries ids). */
struct evread_group {
	uint64_t ena; /* total time enabled, ns */
	uint64_t run; /* total time running, ns */
	unsigned nr;  /* members */
	uint64_t val[EVGROUP_MAX];
	uint64_t lost[EVGROUP_MAX]; /* PERF_FORMAT_LOST, 0 otherwise */
};

/* Words a group read of nr members needs for read_format. */
size_t evread_group_words(uint64_t read_format, unsigned nr);

/* Parse buf (n 64-bit words, as read() filled it) laid out for read_format with
 * PERF_FORMAT_GROUP. ids, when not NULL and the format has PERF_FORMAT_ID, maps each
 * value to its member: ids[i] is member i's id; a value whose id is not in ids is
 * -EINVAL. expect is the number of members. Returns 0, or -EINVAL when the buffer is
 * short or nr != expect (never a guess). */
int evread_parse_group(const uint64_t *buf, size_t n, uint64_t read_format, unsigned expect,
		       const uint64_t *ids, struct evread_group *out);

#endif
