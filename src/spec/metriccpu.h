/* Which top-down this CPU has (from sysfs and /proc/cpuinfo, both paths given so that
 * tests use fixture trees), its #literals, and pmutop's built-in metrics for it. */
#ifndef PMUTOP_METRICCPU_H
#define PMUTOP_METRICCPU_H

#include <stdbool.h>

#include "metric.h"

enum metric_cpu_kind {
	MCPU_UNKNOWN = 0,
	MCPU_INTEL_4SLOT,	 /* before Ice Lake: topdown-total-slots and the rest */
	MCPU_INTEL_PERF_METRICS, /* Ice Lake, Tiger Lake: slots and topdown-* level 1 */
	MCPU_INTEL_GOLDEN_COVE,	 /* Sapphire Rapids and later: level 2 events too */
	MCPU_INTEL_HYBRID,	 /* Alder Lake and later: cpu_core and cpu_atom */
	MCPU_AMD_ZEN4,
	MCPU_AMD_ZEN5,
	MCPU_ARM_SLOTS,	      /* STALL_SLOT events and caps/slots */
	MCPU_ARM_NEOVERSE_N2, /* the same, corrected for its 5 slots */
	MCPU_ARM_GENERIC,     /* PMUv3 without STALL_SLOT: stall cycle ratios */
};

struct metric_cpu {
	enum metric_cpu_kind kind;
	char pmu[64];	   /* the core PMU's sysfs name (cpu, cpu_core, armv8_pmuv3_0) */
	double slots;	   /* #slots: Arm caps/slots, Intel 4 before Ice Lake; 0 unknown */
	bool smt_on;	   /* devices/system/cpu/smt/active */
	unsigned num_cpus; /* devices/system/cpu/online */
	char cpuid[64]; /* vendor-family-model-stepping as perf's x86 cpuid, or the Arm MIDR part */
};

/* Fill cpu from sysfs_root ("/sys") and cpuinfo ("/proc/cpuinfo"). Returns 0 (kind may
 * be MCPU_UNKNOWN: only the common metrics then). */
int metric_cpu_detect(const char *sysfs_root, const char *cpuinfo, struct metric_cpu *cpu);

/* A #literal for mexpr_env.literal (ctx: a struct metric_cpu): smt_on, num_cpus,
 * num_cpus_online, slots, core_wide (0: pmutop counts per task). -ENOENT otherwise. */
int metric_cpu_literal(void *ctx, const char *name, double *out);

const char *metric_cpu_kind_name(enum metric_cpu_kind kind);

/* Add the built-in metrics for cpu: IPC, cache and branch MPKI and GHz everywhere
 * (group Basic), top-down level 1 (group TopdownL1) where the CPU has it. Returns 0 or
 * -errno. */
int metric_builtin_load(struct metric_set *s, const struct metric_cpu *cpu);

#endif
