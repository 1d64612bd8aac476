/* The recording's file format, the parts without SQLite: how a row's cells (state, why
 * and running share of each value) are written as text, and how a time typed by the
 * user (--begin, --end, b on the screen) is read. Shared by the recorder and the
 * replay, so that what one writes the other reads. */
#ifndef PMUTOP_RECFMT_H
#define PMUTOP_RECFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "value.h"

/* Written into PRAGMA application_id ("pmut") and user_version. */
#define RECFMT_APP_ID 0x706d7574
#define RECFMT_VERSION 4
/* The first format whose ticks and meta carry a checksum (crc32: recfmt_tick_sum). */
#define RECFMT_SUMMED 4
/* The oldest format replayed (2: a tasks table, rows packed but not compressed). */
#define RECFMT_OLDEST 2
/* Format 3's blocks (src/recblock.h): a new one after this many ticks or compressed
 * bytes (a keyframe of the tasks alive, and what pruning frees at a time). */
#define RECFMT_BLOCK_TICKS 600
#define RECFMT_BLOCK_BYTES ((size_t)1 << 20)

/* Cells as text: two letters a value, its state (a n/a, c n/c, e empty, x exact,
 * s scaled) and its why (- none, u unsupported, p no permission, f fd limit, g gone,
 * i invalid, r not run, o no fit, s starting, k kernel only, e error), then ",I:PM" for
 * each value I whose running share is not its state's usual one (1000 per mille when
 * exact, 0 otherwise). "x-x-a-" is three values: two exact, one n/a. Returns the length
 * written, or 0 when len is too small. */
size_t recfmt_cells(const struct val *v, unsigned n, char *out, size_t len);
/* The cells back into v[0..n) (their numbers left as they are). Returns 0, or -EINVAL
 * for text that is not n cells. */
int recfmt_parse_cells(const char *s, struct val *v, unsigned n);

/* A time as the user types it, into seconds since the epoch:
 *   HH:MM[:SS]            that time of day on the day of first (local time); the next
 *                         day's when it falls before first
 *   YYYY-MM-DD HH:MM[:SS] (or with a T) a local date and time
 *   -N[smhd]              N seconds (minutes, hours, days) before last
 *   +N[smhd]              N seconds (...) after first
 *   @EPOCH                seconds since the epoch
 *   YYYY-MM-DDTHH:MM:SS.FFF+01:00  CSV's `at`, the offset as given
 * Seconds may carry a fraction (HH:MM:SS.FFF, @EPOCH.FFF). first and last are the
 * recording's first and last tick. Returns 0, or -EINVAL. */
int recfmt_parse_time(const char *s, double first, double last, double *out);
/* The instants s stands for as pmutop prints times: a fraction is rounded (CSV's wall
 * and at: 15:06:33.307 is from 33.3065 to 33.3075), whole seconds and minutes are cut
 * (15:06:33 is that second); -10m and +1h are one instant. --begin T --end T selects the
 * tick printed as T. Returns 0, or -EINVAL. */
int recfmt_parse_when(const char *s, double first, double last, double *from, double *to);

/* "100M", "2G", "512k", "4096": bytes (powers of 1024), for --max-size. Returns 0 or
 * -EINVAL. */
int recfmt_parse_size(const char *s, uint64_t *out);

/* "2026-11-24 08:15:02" (local time) for a wall-clock time. Returns buf. */
const char *recfmt_time_text(double wall, char *buf, size_t len);

/* The header's facts as one text (to compare and to sum): host, kernel, CPUs, PMUs,
 * notice and backend (NULL ones as \x01). Returns buf. */
const char *recfmt_header_body(char *buf, size_t len, const char *host, const char *kernel,
			       int ncpus, const char *pmus, const char *notice,
			       const char *backend);
/* An event set (events and groups) as one text, to compare and to sum: malloc'd, or
 * NULL. */
char *recfmt_evset_body(const struct mevent *ev, unsigned n, const struct mgroup *g, unsigned ng);

/* events.sums ("3,4"): up to 4 event indices into sum. Returns how many. */
unsigned recfmt_parse_sums(const char *s, unsigned sum[4]);

/* Everything a replay reads of a tick (format 4): its row's columns as the replay reads
 * them, the chunks of its block up to it (what its rows are inflated from), its usual cells' text
 * and the sums of its header's and event set's bodies. The recorder stores recfmt_tick_sum of it in
 * ticks.ck; a replay whose sum differs has read damage, never a number. */
struct recfmt_tick {
	int64_t seq, tick, evset, header, flags, exit_status, ntasks, nfd_short, idle, key;
	double wall, time, interval, elapsed;
	uint32_t chunks_sum; /* recfmt_chunk_sum over its block's chunks, key to it */
	uint32_t cells_sum, header_sum, evset_sum; /* recfmt_text_sum of each's text */
};
uint32_t recfmt_tick_sum(const struct recfmt_tick *t);
/* sum, then a chunk (its length and bytes): a block's chunks in order from 0. */
uint32_t recfmt_chunk_sum(uint32_t sum, const void *chunk, size_t n);
/* crc32 of a text (NULL as none). */
uint32_t recfmt_text_sum(const char *s);

#endif
