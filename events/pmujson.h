/* Events of perf's pmu-events JSON files that pmutop's built-in metrics name and the
 * kernel's sysfs does not list (cpu_atom/TOPDOWN_FE_BOUND.ALL/, INT_MISC.UOP_DROPPING on
 * cpu_core): their term strings as perf builds them from EventCode, UMask, CounterMask...,
 * per CPUID, to be encoded through the PMU's own sysfs format/ fields. The table is made
 * by contrib/pmujson-gen.py from perf's JSON (pmujson_tab.h says which files). No I/O
 * but pmujson_cpuid_read. */
#ifndef PMUTOP_PMUJSON_H
#define PMUTOP_PMUJSON_H

#include <stdbool.h>
#include <stddef.h>

#define PMUJSON_CPUID_MAX 64

/* The perf file set ("alderlake") the table uses for cpuid, or NULL. */
const char *pmujson_model(const char *cpuid);

/* The table's index for the CPU whose perf CPUID is cpuid ("GenuineIntel-6-97-2",
 * "AuthenticAMD-25-11-1"), or -1 when it has none. The CPUID matches as perf's x86
 * mapfile.csv entries match (the whole id, or the id without its stepping when the
 * pattern names none), the first entry that matches deciding, as in perf's mapfile
 * order. */
int pmujson_model_index(const char *cpuid);
/* The terms ("event=0x71,umask=0x72") of event name[0..len) (any case, as perf matches
 * JSON names) on the PMU called pmu ("cpu_core", "cpu_atom", "cpu" for a CPU with one
 * core PMU) for table index model, or NULL when the table has none: no model, an
 * unknown PMU or name. */
const char *pmujson_terms_at(int model, const char *pmu, const char *name, size_t len);

/* perf's x86 CPUID "vendor-family-MODEL-STEPPING" (family decimal, model and stepping in
 * upper-case hex: "GenuineIntel-6-97-2") from a /proc/cpuinfo file, into out. Returns 0, or
 * -ENOENT when the file is missing or names no x86 vendor and family (Arm: no CPUID of
 * this form, and no table either). */
int pmujson_cpuid_read(const char *cpuinfo, char *out, size_t len);

#endif
