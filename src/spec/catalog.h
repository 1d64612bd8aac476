/* The machine's PMUs and every event name -e accepts, gathered once for the screen's
 * browsers, with a search over names and descriptions fast enough for every keystroke.
 * The catalogue owns copies of its strings: it outlives nothing it was built from. */
#ifndef PMUTOP_CATALOG_H
#define PMUTOP_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

struct pmu_set;
struct catalog;

/* One row of the PMU browser: a PMU sysfs or libpfm4 knows, or a heading of kernel
 * names that is no PMU of its own ("generic" hardware and cache events). Raw strings
 * from sysfs and libpfm4: sanitise before display. */
struct catalog_pmu {
	const char *name;     /* sysfs name, else libpfm4 name, or "generic" */
	const char *pfm_name; /* libpfm4 name when libpfm4 knows it, else NULL */
	const char *desc;     /* "" when none */
	const char *cpus;     /* cpu list, or NULL: all CPUs */
	int type;	      /* perf_event_attr.type, -1 when not a sysfs PMU */
	int counters, fixed;  /* general-purpose and fixed counters, -1 unknown */
	bool present;	      /* on this machine (sysfs, or detected by libpfm4) */
	bool pfm_only;	      /* present only as far as libpfm4 can tell (it detects PMUs
			       * from the CPU model) and not available in the kernel: no sysfs
			       * PMU counts its events here. Say so; show no counters. */
	bool core;	      /* counts CPU core events */
	bool heading_only;    /* a catalogue heading, not a PMU */
	unsigned nevents;     /* catalogue entries listed under it */
};

/* A unit mask or a modifier of a libpfm4 event: "pmu::EVENT:NAME" selects it. */
struct catalog_attr {
	const char *name;
	const char *desc; /* "" when none */
	bool umask;	  /* a unit mask, else a modifier (u, k, c=N...) */
	bool dfl;	  /* the umask used when none is given */
	bool value;	  /* a modifier that takes a value ("c=2") */
};

/* One event: name as -e takes it ("cycles", "cpu/mem-loads/", "zen4::RETIRED_OPS"),
 * heading as pmutop --list prints it, desc one line of help ("" when none). */
struct catalog_event {
	const char *heading;
	const char *name;
	const char *desc;
	unsigned pmu;			 /* index of the PMU row it is listed under */
	const struct catalog_attr *attr; /* umasks first, then modifiers; NULL when none */
	unsigned nattr, numask;
};

/* Build from pmus (which may be freed afterwards). PMUs come in this order: "generic",
 * then the present PMUs as pmu_set lists them (those the kernel has, then the pfm_only
 * ones), then the absent ones; events grouped by
 * PMU in that order. Returns NULL only when out of memory. */
struct catalog *catalog_new(const struct pmu_set *pmus);
/* The same PMU rows, but only the events of the PMU or heading called filter (NULL: all),
 * which are listed even for a libpfm4 PMU that is not present; the tracepoints (under
 * "tracepoint", from tracefs) with tracepoints or a filter of "tracepoint". catalog_new
 * has them all. */
struct catalog *catalog_new_filtered(const struct pmu_set *pmus, const char *filter,
				     bool tracepoints);
void catalog_free(struct catalog *c);

/* The cells of a PMU's row, as --list and the PMU browser show it: type ("-" without
 * one), counters ("6+1"; "-" for a heading or a PMU only libpfm4 knows; "?" unknown),
 * present ("yes", "no", "libpfm") and what goes before its description. */
struct catalog_pmu_cells {
	char type[16];
	char ctr[24];
	const char *present;
	const char *note;
};
void catalog_pmu_cells(const struct catalog_pmu *p, struct catalog_pmu_cells *out);

unsigned catalog_npmus(const struct catalog *c);
const struct catalog_pmu *catalog_pmu(const struct catalog *c, unsigned i);
/* Index of the PMU row called name (its sysfs or libpfm4 name, or a heading), or -1. */
int catalog_find_pmu(const struct catalog *c, const char *name);

unsigned catalog_nevents(const struct catalog *c);
const struct catalog_event *catalog_event(const struct catalog *c, unsigned i);

/* The events of PMU row pmu (-1: all) whose name, description or umasks (names and
 * descriptions) hold every word of query (case-insensitive substrings; an empty query
 * matches everything), those that match by name alone first. Writes at most max indices to out and
 * returns how many. */
size_t catalog_search(const struct catalog *c, int pmu, const char *query, unsigned *out,
		      size_t max);

#endif
