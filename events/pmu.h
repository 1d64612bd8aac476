/* PMU discovery: /sys/bus/event_source/devices (names, types, cpus, event aliases and
 * format fields) merged with the PMUs libpfm4 knows. The sysfs root is a parameter so
 * that tests can use a fixture tree. */
#ifndef PMUTOP_PMU_H
#define PMUTOP_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_set;

struct pmu_info {
	const char *name;     /* sysfs name (cpu, cpu_core, armv8_pmuv3, ...) or libpfm4 name */
	int type;	      /* perf_event_attr.type, -1 when not in sysfs */
	const char *cpus;     /* cpu list ("0-7") or NULL when the PMU spans all CPUs */
	bool core;	      /* counts CPU core events (generic events go here) */
	bool present;	      /* present on this machine (sysfs or libpfm4 detected) */
	const char *pfm_name; /* libpfm4 PMU name when libpfm4 knows it, else NULL */
	const char *desc;     /* libpfm4 description, or NULL */
	int nr_counters;      /* general-purpose counters, -1 unknown */
	int nr_fixed;	      /* fixed counters, -1 unknown */
	unsigned nr_aliases;  /* sysfs events/ aliases */
	int pfm_id;	      /* libpfm4 pfm_pmu_t when pfm_name is set, else -1 */
	bool pfm_generic;     /* libpfm4's "perf"/"perf_raw": the generic names again */
	bool in_kernel;	      /* the kernel can count its events: a sysfs PMU, or a present
			       * libpfm4 PMU whose events encode to one (false for a PMU
			       * libpfm4 detects but the kernel does not have) */
};

/* Load from sysfs_root ("/sys" on a real system; a fixture dir in tests) and libpfm4
 * (when use_pfm). Returns NULL only when out of memory; a missing tree gives an empty
 * set. With "/sys" (or NULL) the CPU's perf CPUID is read from /proc/cpuinfo: see
 * pmu_set_set_cpuid.
 * Sysfs PMUs come first, by type then name; then every PMU compiled into libpfm4, present
 * or not, with type -1. When there is exactly one sysfs core PMU, the present libpfm4 core
 * PMU with the most events is merged into it (its pfm_name, desc and counter counts) and
 * not listed again. A sysfs PMU is core when named cpu, cpu_core, cpu_atom, armv7_*,
 * armv8_* or *_pmuv3*, or when its type is PERF_TYPE_RAW. */
struct pmu_set *pmu_set_new(const char *sysfs_root, bool use_pfm);
void pmu_set_free(struct pmu_set *s);

unsigned pmu_set_count(const struct pmu_set *s);
int pmu_set_info(const struct pmu_set *s, unsigned i, struct pmu_info *out);
/* Index of the PMU called name (sysfs or libpfm4 name), or -1. */
int pmu_set_find(const struct pmu_set *s, const char *name);

/* True when the set was loaded with libpfm4 (use_pfm): only then do bare event names,
 * suggestions and catalogues consult libpfm4 without being asked by a "pmu::" name. */
bool pmu_set_uses_pfm(const struct pmu_set *s);

/* Core PMUs with a sysfs type: one on most machines, two on hybrid ones. */
unsigned pmu_set_core_types(const struct pmu_set *s, int *types, unsigned max);

/* The CPU the set is for, as perf's x86 CPUID ("GenuineIntel-6-97-2"; tests give a
 * fixture's). With it, a core PMU's events include the perf JSON events pmutop's built-in
 * metrics name that sysfs lacks (pmujson.h): cpu_atom/TOPDOWN_FE_BOUND.ALL/ on Alder
 * Lake, encoded through the PMU's format/ fields as perf encodes them. Without it (""),
 * only sysfs. Returns 0, or -EINVAL for a string too long to be one. */
int pmu_set_set_cpuid(struct pmu_set *s, const char *cpuid);
/* The CPUID, or NULL when unknown. */
const char *pmu_set_cpuid(const struct pmu_set *s);

/* The sysfs alias "pmu/alias/" as its term string ("event=0x3c,umask=0x00"), else the
 * perf JSON event of that name for the set's CPUID (its terms as perf builds them:
 * "event=0x71,umask=0x72"), or NULL. */
const char *pmu_set_alias(const struct pmu_set *s, unsigned pmu, const char *alias);
/* True when pmu_set_alias finds alias in perf's JSON table, not in sysfs. */
bool pmu_set_alias_is_json(const struct pmu_set *s, unsigned pmu, const char *alias);
/* Alias name and description i of a PMU, for catalogues. Returns 0 or -ENOENT. */
int pmu_set_alias_at(const struct pmu_set *s, unsigned pmu, unsigned i, const char **name,
		     const char **terms);

/* Encode a term list ("event=0x3c,umask=1,cmask=2") with the PMU's format/ fields into
 * config, config1, config2 (indexed 0..2). Returns 0, -ENOENT (unknown term), -EINVAL,
 * -EOPNOTSUPP (a perf JSON event whose encoding names a field format/ lacks). */
int pmu_set_encode_terms(const struct pmu_set *s, unsigned pmu, const char *terms,
			 uint64_t config[3]);
/* The same, and on error *errpos (if not NULL) is the byte offset in terms of the term
 * that failed. Terms are "name=value" (value decimal or 0x hex), a bare "name" meaning
 * name=1, an alias of the PMU (expanded once; sysfs first, then perf's JSON table as
 * pmu_set_alias), or config/config1/config2=value. Values
 * fill a format field's bit ranges LSB first; a value wider than the field is -EINVAL. */
int pmu_set_encode_terms_pos(const struct pmu_set *s, unsigned pmu, const char *terms,
			     uint64_t config[3], size_t *errpos);

#endif
