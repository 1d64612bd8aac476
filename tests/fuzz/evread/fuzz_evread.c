/* libFuzzer harness for evread_parse_group: one group read() buffer, with the read_format
 * bits, the expected member count and the member ids all taken from the input.
 *
 * Input: read_format (8 bytes, little-endian as the host reads it), expect (1 byte),
 * flags (1 byte: bit 0 passes ids), then, when ids are passed, min(expect, EVGROUP_MAX)
 * ids of 8 bytes, then the buffer words. The buffer is copied into a heap block of exactly
 * its size, so that a read past its end is caught.
 *
 * The result is compared with a reference written from perf_event_open(2) alone: nr, then
 * time_enabled and time_running when asked, then {value, id, lost} per member; nr must be
 * expect; with ids, each value goes to the member whose id it carries, and an unknown or
 * repeated id is an error. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evread.h"

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int reference(const uint64_t *buf, size_t n, uint64_t rf, unsigned expect,
		     const uint64_t *ids, struct evread_group *out)
{
	int has_id = !!(rf & PERF_FORMAT_ID), has_lost = !!(rf & PERF_FORMAT_LOST);
	int te = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED),
	    tr = !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (!(rf & PERF_FORMAT_GROUP) || expect == 0 || expect > EVGROUP_MAX || n == 0 ||
	    buf[0] != expect)
		return -EINVAL;
	if (n < 1 + (size_t)te + (size_t)tr + (size_t)expect * (1 + has_id + has_lost))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->nr = expect;
	size_t w = 1;
	if (te)
		out->ena = buf[w++];
	if (tr)
		out->run = buf[w++];
	int filled[EVGROUP_MAX] = {0};
	for (unsigned i = 0; i < expect; i++) {
		uint64_t value = buf[w++];
		unsigned m = i;
		if (has_id) {
			uint64_t id = buf[w++];
			if (ids) {
				unsigned j = 0;
				while (j < expect && ids[j] != id)
					j++;
				if (j == expect || filled[j])
					return -EINVAL;
				m = j;
			}
		}
		filled[m] = 1;
		out->val[m] = value;
		if (has_lost)
			out->lost[m] = buf[w++];
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t rf, idbuf[EVGROUP_MAX];
	if (size < 10)
		return 0;
	memcpy(&rf, data, 8);
	unsigned expect = data[8];
	int pass_ids = data[9] & 1;
	data += 10;
	size -= 10;
	unsigned nids = expect < EVGROUP_MAX ? expect : EVGROUP_MAX;
	if (pass_ids) {
		if (size < nids * 8u)
			return 0;
		memcpy(idbuf, data, nids * 8u);
		data += nids * 8u;
		size -= nids * 8u;
	}
	/* ids has exactly nids entries: the parser may read ids[0..expect) only when it has
	 * accepted expect <= EVGROUP_MAX. */
	uint64_t *ids = NULL;
	if (pass_ids) {
		ids = malloc(nids ? nids * 8u : 1);
		if (!ids)
			return 0;
		memcpy(ids, idbuf, nids * 8u);
	}
	size_t n = size / 8;
	uint64_t *buf = malloc(n ? n * 8 : 1);
	if (!buf) {
		free(ids);
		return 0;
	}
	memcpy(buf, data, n * 8);

	struct evread_group got, want;
	memset(&got, 0xa5, sizeof(got));
	int r1 = evread_parse_group(buf, n, rf, expect, ids, &got);
	int r2 = reference(buf, n, rf, expect, ids, &want);
	if (r1 != r2 || (r1 != 0 && r1 != -EINVAL))
		abort();
	if (r1 == 0) {
		/* field by field: struct assignment need not copy padding */
		if (got.ena != want.ena || got.run != want.run || got.nr != want.nr ||
		    memcmp(got.val, want.val, sizeof(got.val)) ||
		    memcmp(got.lost, want.lost, sizeof(got.lost)))
			abort();
		if (n < evread_group_words(rf, expect))
			abort();
	}
	free(buf);
	free(ids);
	return 0;
}
