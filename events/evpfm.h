/* libpfm4 wrapper: one initialisation per process, event encoding into perf_event_attr,
 * and enumeration of its PMUs and events. The only file that includes <perfmon/...>. */
#ifndef PMUTOP_EVPFM_H
#define PMUTOP_EVPFM_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

/* Initialise libpfm4 once per process (LIBPFM_FORCE_PMU is read here, so set it before
 * the first call). Returns 0, or -ENODEV when libpfm4 cannot be used. */
int evpfm_init(void);

/* Encode "pmu::EVENT:UMASK:mod=val" (or a bare event name, looked up in the PMUs libpfm4
 * found present) into attr: only type, config, config1, config2 and the exclude_* bits
 * are copied; the rest of attr is zero and attr->size is set. By default user and kernel
 * are both counted, as perf stat does. *explicit_plm tells whether the name carried a
 * privilege-level modifier (u, k, h, hv). Returns 0, -ENOENT (unknown PMU or event),
 * -EINVAL (bad unit mask or modifier), -ENOMEM or -ENODEV. */
int evpfm_encode(const char *name, struct perf_event_attr *attr, bool *explicit_plm);

struct evpfm_pmu {
	int id;		  /* pfm_pmu_t */
	const char *name; /* "skl", "arm_ac57", "perf", ... (libpfm4's static strings) */
	const char *desc;
	bool present;	 /* detected on this machine (or forced) */
	bool core;	 /* PFM_PMU_TYPE_CORE */
	bool os_generic; /* "perf" and "perf_raw": the kernel's generic events again */
	int nr_events;
	int nr_counters;
	int nr_fixed;
};

/* Call cb for every PMU compiled into libpfm4, present or not. Stops at the first
 * non-zero return of cb and returns it; 0 at the end, -ENODEV without libpfm4. */
typedef int (*evpfm_pmu_cb)(void *ctx, const struct evpfm_pmu *p);
int evpfm_for_each_pmu(evpfm_pmu_cb cb, void *ctx);

/* Call cb for every event of the PMU with that id, with its libpfm4 name and description.
 * Same return convention as evpfm_for_each_pmu; -ENOENT for an unknown id. */
typedef int (*evpfm_event_cb)(void *ctx, const char *name, const char *desc);
int evpfm_for_each_event(int pmu_id, evpfm_event_cb cb, void *ctx);

/* One attribute of an event: a unit mask, or a modifier ("u", "k", "c" that takes a
 * value...). Strings are libpfm4's own and outlive the call. */
struct evpfm_attr {
	const char *name;
	const char *desc; /* "" when none */
	bool umask;	  /* a unit mask, else a modifier */
	bool dfl;	  /* the umask used when the name gives none */
	bool value;	  /* a modifier that takes a value (c=2) */
};

/* Call cb for the unit masks, then the modifiers, of one libpfm4 event ("pmu::EVENT" or
 * a bare event name, attributes after it ignored). Modifiers that matter only for sampling
 * or placement (period, freq, cpu, pinned, excl) are left out. Same return convention as
 * evpfm_for_each_pmu; -ENOENT for an unknown event. */
typedef int (*evpfm_attr_cb)(void *ctx, const struct evpfm_attr *a);
int evpfm_for_each_attr(const char *event, evpfm_attr_cb cb, void *ctx);

/* Why name does not encode, in one sentence naming it, when libpfm4 can say better than
 * "unknown event": it needs a unit mask (and which), an attribute is unknown or bad, its
 * PMU is known but not on this machine, or the kernel cannot count it. Returns 1 with buf
 * written, 0 when there is nothing better to say (it encodes, or libpfm4 knows no such
 * event on a present PMU: suggestions are the better help then). */
int evpfm_explain(const char *name, char *buf, size_t len);

/* The perf_event_attr.type the events of PMU pmu_id encode to (trying its first events
 * with their default unit masks): >= 0, -EOPNOTSUPP when libpfm4 has no perf_events
 * encoding for them (the kernel has no PMU for it), -ENOENT when none encodes. */
int evpfm_pmu_perf_type(int pmu_id);

#endif
