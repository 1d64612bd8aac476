/* The names the parser knows: generic hardware, software and hardware-cache events in
 * perf's spelling, plus a catalogue walk over those, sysfs aliases and libpfm4 events. */
#ifndef PMUTOP_EVNAMES_H
#define PMUTOP_EVNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_set;

#define EVNAMES_GENERIC "generic"   /* catalogue label of hardware and cache names */
#define EVNAMES_SOFTWARE "software" /* catalogue label of software names */

/* name[0..len) as a generic hardware, software or cache event (case-insensitive, perf's
 * aliases accepted: "cycles", "cs", "L1-dcache-load-misses", "l1d-loads"...).
 * Returns 0 with type and config set, or -ENOENT. */
int evnames_lookup(const char *name, size_t len, uint32_t *type, uint64_t *config);

/* name is what -e accepts ("cycles", "cpu/mem-loads/", "skl::INST_RETIRED"), pmu the
 * label to group it under, desc a line of help (terms for sysfs aliases). */
typedef int (*evnames_cb)(void *ctx, const char *pmu, const char *name, const char *desc);

/* Walk the catalogue: generic, software and cache names, then sysfs aliases, then libpfm4
 * events of present PMUs (only when pmus uses libpfm4; its "perf"/"perf_raw" pseudo PMUs
 * repeat the generic names and are left out). filter NULL or "" means everything;
 * otherwise only entries whose label, sysfs PMU or libpfm4 PMU is filter, and a libpfm4
 * PMU named by filter is listed even when it is not present. with_aliases adds perf's
 * alternative spellings of generic and software names. Stops when cb returns non-zero
 * and returns that value; 0 at the end. */
int evnames_for_each(const struct pmu_set *pmus, const char *filter, bool with_aliases,
		     evnames_cb cb, void *ctx);

/* Case-insensitive Levenshtein distance between a[0..alen) and b[0..blen). Strings are
 * cut at 255 bytes: names are never that long. */
unsigned evnames_distance(const char *a, size_t alen, const char *b, size_t blen);

#endif
