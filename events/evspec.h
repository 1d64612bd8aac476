/* Event specifications: perf-syntax strings parsed into groups of perf_event_attr.
 * Pure parsing and encoding: opens nothing, prints nothing. */
#ifndef PMUTOP_EVSPEC_H
#define PMUTOP_EVSPEC_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "evpfm.h"
#include "evsyntax.h"

struct pmu_set;

/* One event: its display name and the attr fields that select it. Only type, size,
 * config, config1, config2 and the exclude_* bits are set by the parser. */
struct evdesc {
	char name[EV_NAME_MAX]; /* as the user wrote it, modifiers included */
	struct perf_event_attr attr;
	bool explicit_plm; /* the user gave :u/:k/:h: the K toggle leaves it alone */
	bool software;	   /* a software event: always counts kernel mode too */
};

struct evgroup_spec {
	unsigned n;
	struct evdesc ev[EVGROUP_MAX];
};

struct evspec_list {
	unsigned n;
	struct evgroup_spec *g; /* heap array of n groups */
};

/* The syntax is perf stat's -e:
 *   generic, software and cache names ("cycles", "cs", "LLC-load-misses"), raw "r1a2b",
 *   sysfs "pmu/alias/", "pmu/event=0x3c,umask=1/", "pmu/alias,cmask=2/", "pmu/config=N/",
 *   libpfm4 "pmu::EVENT:UMASK:u=1", and other bare names, looked up among the sysfs
 *   aliases of the core PMU(s), then (only when pmus was loaded with libpfm4) among the
 *   events of the PMUs libpfm4 found present.
 * Modifiers follow ':' (or directly the closing '/' of pmu/.../): u, k and h choose
 * privilege levels as perf does (naming one excludes the others) and set explicit_plm;
 * I, G and H set exclude_idle, exclude_host and exclude_guest; p, P, S, D, W and e are
 * accepted and ignored; any other letter is -EINVAL. libpfm4 names carry libpfm4's own
 * modifiers. "{a,b}:u" applies u to every member and to its name ("a:u"). Without
 * modifiers user and kernel are both counted, as perf stat does.
 *
 * Parse "a,b,{c,d}:u,pmu/event=0x3c/,pmu::EV:UMASK,r01c2" and append groups to out.
 * Ungrouped events become groups of one, as perf stat does. pmus may be NULL (then
 * pmu/.../ names fail with -ENOENT). Returns 0, -ENOENT (unknown event or PMU, token
 * names it), -EINVAL (syntax, pos says where), -E2BIG (group too large) or -ENOMEM.
 * On error out is left as it was. */
int evspec_parse(const char *spec, const struct pmu_set *pmus, struct evspec_list *out,
		 struct evspec_err *err);

/* Encode one event name (no groups) into d. Same errors as evspec_parse. */
int evspec_parse_one(const char *name, const struct pmu_set *pmus, struct evdesc *d,
		     struct evspec_err *err);

void evspec_list_free(struct evspec_list *l);

/* Up to max known names closest to name (edit distance), best first, written into
 * out[i] (each EV_NAME_MAX bytes). Returns how many. Only names within max(2, len/3)
 * edits, case ignored, are offered, spelled as -e takes them ("cycles", "cpu/mem-loads/",
 * "skl::INST_RETIRED"); a bare name is compared with the alias or event part of those. */
/* The input itself (case ignored) is never offered. */
unsigned evspec_suggest(const char *name, const struct pmu_set *pmus, char out[][EV_NAME_MAX],
			unsigned max);

/* True if the event is a software event (PERF_TYPE_SOFTWARE or the software PMU). */
bool evspec_is_software(const struct evdesc *d);

/* One catalogue entry: name is what evspec_parse accepts ("cycles", "cpu/mem-loads/",
 * "skl::INST_RETIRED"), pmu the heading it belongs under ("generic" for hardware and
 * cache names, "software", a sysfs PMU name or a libpfm4 PMU name), desc one line of help
 * (the terms of a sysfs alias). The strings live only during the call. Non-zero stops. */
typedef int (*evspec_list_cb)(void *ctx, const char *pmu, const char *name, const char *desc);

/* Every event name the parser knows, for --list: generic, software and cache names, the
 * sysfs aliases of pmus, and the libpfm4 events of the present PMUs (when pmus was loaded
 * with libpfm4). pmu_filter NULL or "" lists everything, otherwise only that heading or
 * PMU (sysfs or libpfm4 name); a libpfm4 PMU named explicitly is listed even when absent.
 * Returns 0, or the non-zero value cb stopped with. */
/* Every tracepoint tracefs has, as cb(ctx, "tracepoint", "subsys:name", "subsys"), in
 * subsystem then name order. 0 (none when tracefs is not mounted), or what cb returned. */
int evspec_tracepoints(evspec_list_cb cb, void *ctx);
/* Whether tracefs is mounted: without it there are no tracepoints to list or count. */
bool evspec_tracefs_mounted(void);

int evspec_catalogue(const struct pmu_set *pmus, const char *pmu_filter, evspec_list_cb cb,
		     void *ctx);

/* The unit masks, then the modifiers, of a libpfm4 event name ("pmu::EVENT"), for
 * catalogues. Other names have none: returns 0 without calling cb. Otherwise as
 * evpfm_for_each_attr. */
int evspec_attrs(const char *name, evpfm_attr_cb cb, void *ctx);

#endif
