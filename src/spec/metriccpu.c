/* The CPU's top-down flavour from sysfs and /proc/cpuinfo, and pmutop's built-in metrics
 * (docs/TOPDOWN.md cites the source of each formula). */
#include "metriccpu.h"
#include "pmujson.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Read the first line of root/rel into buf (newline removed). 0 or -errno. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	buf[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "r");
	if (!f)
		return errno ? -errno : -ENOENT;
	char *ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static bool exists(const char *root, const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

/* Count of CPUs in a list such as "0-3,8,10-11". */
static unsigned cpulist_count(const char *s)
{
	unsigned n = 0;
	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;
		if (end == s)
			break;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (b >= a && b - a < 65536)
			n += (unsigned)(b - a + 1);
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

/* The Arm core PMU: armv8_*, armv9_* or *pmuv3*. */
static bool find_arm_pmu(const char *root, char *name, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/bus/event_source/devices", root);
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *de;
	bool found = false;
	while (!found && (de = readdir(d))) {
		if (!strncmp(de->d_name, "armv8_", 6) || !strncmp(de->d_name, "armv9_", 6) ||
		    strstr(de->d_name, "pmuv3")) {
			snprintf(name, len, "%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

struct cpuinfo {
	char vendor[32];
	int family, model, stepping;
	unsigned long part; /* Arm "CPU part" */
};

static void read_cpuinfo(const char *path, struct cpuinfo *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = ci->stepping = -1;
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f)
		return;
	char line[256];
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		const char *v = colon + 1 + strspn(colon + 1, " \t");
		if (!strncmp(line, "vendor_id", 9) && !ci->vendor[0])
			snprintf(ci->vendor, sizeof(ci->vendor), "%.*s", (int)strcspn(v, "\n"), v);
		else if (!strncmp(line, "cpu family", 10) && ci->family < 0)
			ci->family = atoi(v);
		else if (!strncmp(line, "model\t", 6) && ci->model < 0)
			ci->model = atoi(v);
		else if (!strncmp(line, "stepping", 8) && ci->stepping < 0)
			ci->stepping = atoi(v);
		else if (!strncmp(line, "CPU part", 8) && !ci->part)
			ci->part = strtoul(v, NULL, 0);
	}
	fclose(f);
}

int metric_cpu_detect(const char *sysfs_root, const char *cpuinfo, struct metric_cpu *cpu)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	char buf[256];
	struct cpuinfo ci;
	memset(cpu, 0, sizeof(*cpu));
	read_cpuinfo(cpuinfo, &ci);
	if (read_line(root, "devices/system/cpu/smt/active", buf, sizeof(buf)) == 0)
		cpu->smt_on = atoi(buf) > 0;
	if (read_line(root, "devices/system/cpu/online", buf, sizeof(buf)) == 0)
		cpu->num_cpus = cpulist_count(buf);
	pmujson_cpuid_read(cpuinfo, cpu->cpuid, sizeof(cpu->cpuid));

	const char *dev = "bus/event_source/devices";
	char rel[256];
	if (exists(root, "bus/event_source/devices/cpu_core/events/topdown-retiring") &&
	    exists(root, "bus/event_source/devices/cpu_atom")) {
		cpu->kind = MCPU_INTEL_HYBRID;
		snprintf(cpu->pmu, sizeof(cpu->pmu), "cpu_core");
	} else if (exists(root, "bus/event_source/devices/cpu/events/topdown-retiring")) {
		cpu->kind = exists(root, "bus/event_source/devices/cpu/events/topdown-heavy-ops")
				    ? MCPU_INTEL_GOLDEN_COVE
				    : MCPU_INTEL_PERF_METRICS;
		snprintf(cpu->pmu, sizeof(cpu->pmu), "cpu");
	} else if (exists(root, "bus/event_source/devices/cpu/events/topdown-total-slots")) {
		cpu->kind = MCPU_INTEL_4SLOT;
		cpu->slots = 4;
		snprintf(cpu->pmu, sizeof(cpu->pmu), "cpu");
	} else if (!strcmp(ci.vendor, "AuthenticAMD") && ci.family == 0x19) {
		/* perf's mapfile.csv: models 00-0f and 20-5f are Zen 3, the rest Zen 4. */
		bool zen3 = ci.model < 0x10 || (ci.model >= 0x20 && ci.model < 0x60);
		cpu->kind = zen3 ? MCPU_UNKNOWN : MCPU_AMD_ZEN4;
		snprintf(cpu->pmu, sizeof(cpu->pmu), "cpu");
	} else if (!strcmp(ci.vendor, "AuthenticAMD") && ci.family == 0x1a) {
		cpu->kind = MCPU_AMD_ZEN5;
		snprintf(cpu->pmu, sizeof(cpu->pmu), "cpu");
	} else if (find_arm_pmu(root, cpu->pmu, sizeof(cpu->pmu))) {
		snprintf(rel, sizeof(rel), "%s/%s/caps/slots", dev, cpu->pmu);
		if (read_line(root, rel, buf, sizeof(buf)) == 0)
			cpu->slots = strtoul(buf, NULL, 0);
		snprintf(rel, sizeof(rel), "%s/%s/events/stall_slot", dev, cpu->pmu);
		bool stall_slot = exists(root, rel);
		if (stall_slot && cpu->slots > 0)
			cpu->kind = ci.part == 0xd49 ? MCPU_ARM_NEOVERSE_N2 : MCPU_ARM_SLOTS;
		else
			cpu->kind = MCPU_ARM_GENERIC;
		if (ci.part)
			snprintf(cpu->cpuid, sizeof(cpu->cpuid), "0x%03lx", ci.part);
	}
	return 0;
}

int metric_cpu_literal(void *ctx, const char *name, double *out)
{
	const struct metric_cpu *cpu = ctx;
	/* perf reads literals in any case: Intel's files write #SMT_on. */
	if (!strcasecmp(name, "smt_on")) {
		*out = cpu->smt_on;
	} else if (!strcasecmp(name, "core_wide")) {
		*out = 0; /* per-task counts are never all of a core's threads */
	} else if ((!strcasecmp(name, "num_cpus") || !strcasecmp(name, "num_cpus_online")) &&
		   cpu->num_cpus) {
		*out = cpu->num_cpus;
	} else if (!strcasecmp(name, "slots") && cpu->slots > 0) {
		*out = cpu->slots;
	} else {
		return -ENOENT;
	}
	return 0;
}

const char *metric_cpu_kind_name(enum metric_cpu_kind kind)
{
	static const char *const names[] = {
		[MCPU_UNKNOWN] = "no top-down known",
		[MCPU_INTEL_4SLOT] = "Intel, 4 slots (before Ice Lake)",
		[MCPU_INTEL_PERF_METRICS] = "Intel PERF_METRICS (Ice Lake)",
		[MCPU_INTEL_GOLDEN_COVE] = "Intel PERF_METRICS (Sapphire Rapids and later)",
		[MCPU_INTEL_HYBRID] = "Intel hybrid (cpu_core, cpu_atom)",
		[MCPU_AMD_ZEN4] = "AMD Zen 4",
		[MCPU_AMD_ZEN5] = "AMD Zen 5",
		[MCPU_ARM_SLOTS] = "Arm STALL_SLOT",
		[MCPU_ARM_NEOVERSE_N2] = "Arm Neoverse N2",
		[MCPU_ARM_GENERIC] = "Arm PMUv3 stall cycles",
	};
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

#define PCT "100%"
#define L1 "TopdownL1"
#define L2 "TopdownL2"

static const struct metric_def common[] = {
	{"ipc", "Basic", "instructions / cycles", NULL, NULL, METRIC_THREAD,
	 "Instructions per cycle"},
	{"cache_mpki", "Basic", "1000 * cache\\-misses / instructions", "1MPKI", NULL,
	 METRIC_THREAD, "Cache misses per thousand instructions"},
	{"branch_mpki", "Basic", "1000 * branch\\-misses / instructions", "1MPKI", NULL,
	 METRIC_THREAD, "Branch misses per thousand instructions"},
	{"ghz", "Basic", "cycles / task\\-clock", "1GHz", NULL, METRIC_THREAD,
	 "Cycles per nanosecond on the CPU"},
};

#define TD_SUM(p)                                                                                  \
	"(" p "topdown\\-fe\\-bound" p2 " + " p "topdown\\-bad\\-spec" p2 " + " p                  \
	"topdown\\-retiring" p2 " + " p "topdown\\-be\\-bound" p2 ")"

/* Ice Lake: the kernel's topdown.txt level 1 over the PERF_METRICS fractions. */
#define p2 ""
static const struct metric_def icelake[] = {
	{"tma_frontend_bound", L1, "topdown\\-fe\\-bound / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots the frontend did not fill"},
	{"tma_bad_speculation", L1, "topdown\\-bad\\-spec / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots wasted by wrong speculation"},
	{"tma_retiring", L1, "topdown\\-retiring / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots that retired"},
	{"tma_backend_bound", L1, "topdown\\-be\\-bound / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots the backend could not accept"},
};

/* Sapphire Rapids (spr-metrics.json): frontend less the uops dropped. */
static const struct metric_def goldencove[] = {
	{"tma_info_thread_slots", "", "slots", NULL, NULL, METRIC_THREAD, "Slots"},
	{"tma_frontend_bound", L1,
	 "topdown\\-fe\\-bound / " TD_SUM("") " - INT_MISC.UOP_DROPPING / tma_info_thread_slots",
	 PCT, NULL, METRIC_THREAD, "Slots the frontend did not fill"},
	{"tma_backend_bound", L1, "topdown\\-be\\-bound / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots the backend could not accept"},
	{"tma_retiring", L1, "topdown\\-retiring / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots that retired"},
	/* What the other three leave: the dropped uops the frontend share excludes are
	 * counted here, and the four add up to all the slots. */
	{"tma_bad_speculation", L1,
	 "max(1 - (tma_frontend_bound + tma_backend_bound + tma_retiring), 0)", PCT, NULL,
	 METRIC_THREAD, "Slots wasted by wrong speculation"},
	/* Level 2 (spr-metrics.json's TopdownL2): the PERF_METRICS level-2 fractions, and
	 * their siblings as the remainders of their level-1 parents. */
	{"tma_heavy_operations", L2, "topdown\\-heavy\\-ops / " TD_SUM(""), PCT, NULL,
	 METRIC_THREAD, "Slots retiring instructions of two or more uops, or microcode"},
	{"tma_light_operations", L2, "max(0, tma_retiring - tma_heavy_operations)", PCT, NULL,
	 METRIC_THREAD, "Slots retiring instructions of one uop"},
	{"tma_branch_mispredicts", L2, "topdown\\-br\\-mispredict / " TD_SUM(""), PCT, NULL,
	 METRIC_THREAD, "Slots wasted by branch mispredictions"},
	{"tma_machine_clears", L2, "max(0, tma_bad_speculation - tma_branch_mispredicts)", PCT,
	 NULL, METRIC_THREAD, "Slots wasted by machine clears"},
	{"tma_fetch_latency", L2,
	 "topdown\\-fetch\\-lat / " TD_SUM("") " - INT_MISC.UOP_DROPPING / tma_info_thread_slots",
	 PCT, NULL, METRIC_THREAD,
	 "Slots the frontend left empty for latency (i-cache, iTLB, resteers)"},
	{"tma_fetch_bandwidth", L2, "max(0, tma_frontend_bound - tma_fetch_latency)", PCT, NULL,
	 METRIC_THREAD, "Slots the frontend left empty for bandwidth (decoders, uop cache)"},
	{"tma_memory_bound", L2, "topdown\\-mem\\-bound / " TD_SUM(""), PCT, NULL, METRIC_THREAD,
	 "Slots the backend stalled on memory"},
	{"tma_core_bound", L2, "max(0, tma_backend_bound - tma_memory_bound)", PCT, NULL,
	 METRIC_THREAD, "Slots the backend stalled on execution resources"},
};
#undef p2

/* Alder Lake (adl-metrics.json): Golden Cove on cpu_core, Gracemont's 5 slots on
 * cpu_atom. */
#define p2 "@"
#define CORE "cpu_core@"
static const struct metric_def hybrid[] = {
	{"tma_info_thread_slots", "", "cpu_core@slots@", NULL, "cpu_core", METRIC_THREAD, "Slots"},
	{"tma_frontend_bound", L1,
	 CORE "topdown\\-fe\\-bound@ / " TD_SUM(
		 CORE) " - cpu_core@INT_MISC.UOP_DROPPING@ / tma_info_thread_slots",
	 PCT, "cpu_core", METRIC_THREAD, "Slots the frontend did not fill"},
	{"tma_backend_bound", L1, CORE "topdown\\-be\\-bound@ / " TD_SUM(CORE), PCT, "cpu_core",
	 METRIC_THREAD, "Slots the backend could not accept"},
	{"tma_retiring", L1, CORE "topdown\\-retiring@ / " TD_SUM(CORE), PCT, "cpu_core",
	 METRIC_THREAD, "Slots that retired"},
	{"tma_bad_speculation", L1,
	 "max(1 - (tma_frontend_bound + tma_backend_bound + tma_retiring), 0)", PCT, "cpu_core",
	 METRIC_THREAD, "Slots wasted by wrong speculation"},
	{"tma_info_core_slots", "", "5 * cpu_atom@CPU_CLK_UNHALTED.CORE@", NULL, "cpu_atom",
	 METRIC_THREAD, "Slots"},
	{"tma_frontend_bound", L1, "cpu_atom@TOPDOWN_FE_BOUND.ALL@ / tma_info_core_slots", PCT,
	 "cpu_atom", METRIC_THREAD, "Slots the frontend did not fill"},
	{"tma_backend_bound", L1, "cpu_atom@TOPDOWN_BE_BOUND.ALL@ / tma_info_core_slots", PCT,
	 "cpu_atom", METRIC_THREAD, "Slots the backend could not accept"},
	{"tma_bad_speculation", L1,
	 "(tma_info_core_slots - (cpu_atom@TOPDOWN_FE_BOUND.ALL@ + cpu_atom@TOPDOWN_BE_BOUND.ALL@ "
	 "+ "
	 "cpu_atom@TOPDOWN_RETIRING.ALL@)) / tma_info_core_slots",
	 PCT, "cpu_atom", METRIC_THREAD, "Slots wasted by wrong speculation"},
	{"tma_retiring", L1, "cpu_atom@TOPDOWN_RETIRING.ALL@ / tma_info_core_slots", PCT,
	 "cpu_atom", METRIC_THREAD, "Slots that retired"},
};
/* Alder Lake's TopdownL2 (adl-metrics.json): on cpu_core the Sapphire Rapids level 2 over
 * cpu_core's PERF_METRICS; on cpu_atom Gracemont's own TOPDOWN_* sub-events over its 5
 * slots, its memory bound from the cycles the oldest load waits at retirement plus the
 * store-buffer share of its memory-scheduler stalls (TopdownL3 helpers). */
#define ATOM_SLOTS " / tma_info_core_slots"
static const struct metric_def hybrid_l2[] = {
	{"tma_heavy_operations", L2, CORE "topdown\\-heavy\\-ops@ / " TD_SUM(CORE), PCT, "cpu_core",
	 METRIC_THREAD, "Slots retiring instructions of two or more uops, or microcode"},
	{"tma_light_operations", L2, "max(0, tma_retiring - tma_heavy_operations)", PCT, "cpu_core",
	 METRIC_THREAD, "Slots retiring instructions of one uop"},
	{"tma_branch_mispredicts", L2, CORE "topdown\\-br\\-mispredict@ / " TD_SUM(CORE), PCT,
	 "cpu_core", METRIC_THREAD, "Slots wasted by branch mispredictions"},
	{"tma_machine_clears", L2, "max(0, tma_bad_speculation - tma_branch_mispredicts)", PCT,
	 "cpu_core", METRIC_THREAD, "Slots wasted by machine clears"},
	{"tma_fetch_latency", L2,
	 CORE "topdown\\-fetch\\-lat@ / " TD_SUM(
		 CORE) " - cpu_core@INT_MISC.UOP_DROPPING@ / tma_info_thread_slots",
	 PCT, "cpu_core", METRIC_THREAD,
	 "Slots the frontend left empty for latency (i-cache, iTLB, resteers)"},
	{"tma_fetch_bandwidth", L2, "max(0, tma_frontend_bound - tma_fetch_latency)", PCT,
	 "cpu_core", METRIC_THREAD,
	 "Slots the frontend left empty for bandwidth (decoders, uop cache)"},
	{"tma_memory_bound", L2, CORE "topdown\\-mem\\-bound@ / " TD_SUM(CORE), PCT, "cpu_core",
	 METRIC_THREAD, "Slots the backend stalled on memory"},
	{"tma_core_bound", L2, "max(0, tma_backend_bound - tma_memory_bound)", PCT, "cpu_core",
	 METRIC_THREAD, "Slots the backend stalled on execution resources"},
	{"tma_info_core_clks", "", "cpu_atom@CPU_CLK_UNHALTED.CORE@", NULL, "cpu_atom",
	 METRIC_THREAD, "Core cycles"},
	{"tma_fetch_latency", L2, "cpu_atom@TOPDOWN_FE_BOUND.FRONTEND_LATENCY@" ATOM_SLOTS, PCT,
	 "cpu_atom", METRIC_THREAD, "Slots the frontend left empty for latency"},
	{"tma_fetch_bandwidth", L2, "cpu_atom@TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH@" ATOM_SLOTS, PCT,
	 "cpu_atom", METRIC_THREAD, "Slots the frontend left empty for bandwidth"},
	{"tma_branch_mispredicts", L2, "cpu_atom@TOPDOWN_BAD_SPECULATION.MISPREDICT@" ATOM_SLOTS,
	 PCT, "cpu_atom", METRIC_THREAD, "Slots wasted by branch mispredictions"},
	{"tma_machine_clears", L2, "cpu_atom@TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS@" ATOM_SLOTS,
	 PCT, "cpu_atom", METRIC_THREAD, "Slots wasted by machine clears (nukes)"},
	{"tma_mem_scheduler", "TopdownL3", "cpu_atom@TOPDOWN_BE_BOUND.MEM_SCHEDULER@" ATOM_SLOTS,
	 PCT, "cpu_atom", METRIC_THREAD, "Slots the memory scheduler could not accept"},
	{"tma_store_bound", "TopdownL3",
	 "tma_mem_scheduler * (cpu_atom@MEM_SCHEDULER_BLOCK.ST_BUF@ / "
	 "cpu_atom@MEM_SCHEDULER_BLOCK.ALL@)",
	 PCT, "cpu_atom", METRIC_THREAD, "Cycles stalled on a full store buffer"},
	{"tma_memory_bound", L2,
	 "min(cpu_atom@TOPDOWN_BE_BOUND.ALL@" ATOM_SLOTS
	 ", cpu_atom@LD_HEAD.ANY_AT_RET@ / tma_info_core_clks + tma_store_bound)",
	 PCT, "cpu_atom", METRIC_THREAD, "Cycles stalled on loads or stores"},
	{"tma_core_bound", L2, "max(0, tma_backend_bound - tma_memory_bound)", PCT, "cpu_atom",
	 METRIC_THREAD, "Backend stalls on other than memory"},
	{"tma_resource_bound", L2, "tma_backend_bound", PCT, "cpu_atom", METRIC_THREAD,
	 "Slots the backend could not accept, by resource at allocation"},
	{"tma_base", L2, "(cpu_atom@TOPDOWN_RETIRING.ALL@ - cpu_atom@UOPS_RETIRED.MS@)" ATOM_SLOTS,
	 PCT, "cpu_atom", METRIC_THREAD, "Slots retiring uops not from the microcode sequencer"},
	{"tma_ms_uops", L2, "cpu_atom@UOPS_RETIRED.MS@" ATOM_SLOTS, PCT, "cpu_atom", METRIC_THREAD,
	 "Slots retiring uops from the microcode sequencer"},
};
#undef ATOM_SLOTS
#undef CORE
#undef p2

/* Before Ice Lake: topdown.txt's formulas over the kernel's topdown-* events, which count
 * for the whole core when SMT is on. */
static const struct metric_def fourslot[] = {
	{"tma_frontend_bound", L1, "topdown\\-fetch\\-bubbles / topdown\\-total\\-slots", PCT, NULL,
	 METRIC_CORE_IF_SMT, "Slots the frontend did not fill"},
	{"tma_bad_speculation", L1,
	 "(topdown\\-slots\\-issued - topdown\\-slots\\-retired + topdown\\-recovery\\-bubbles)"
	 " / topdown\\-total\\-slots",
	 PCT, NULL, METRIC_CORE_IF_SMT, "Slots wasted by wrong speculation"},
	{"tma_retiring", L1, "topdown\\-slots\\-retired / topdown\\-total\\-slots", PCT, NULL,
	 METRIC_CORE_IF_SMT, "Slots that retired"},
	{"tma_backend_bound", L1, "1 - (tma_frontend_bound + tma_bad_speculation + tma_retiring)",
	 PCT, NULL, METRIC_CORE_IF_SMT, "Slots the backend could not accept"},
};

/* AMD (amdzen4/pipeline.json, amdzen5/pipeline.json): PipelineL1. */
#define ZEN(width)                                                                                 \
	{"total_dispatch_slots", "", width " * ls_not_halted_cyc", NULL, NULL, METRIC_THREAD,      \
	 "Dispatch slots"},                                                                        \
		{"frontend_bound",                                                                 \
		 "PipelineL1;" L1,                                                                 \
		 "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend, total_dispatch_slots)",    \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Slots the frontend did not fill"},                                               \
		{"bad_speculation",                                                                \
		 "PipelineL1;" L1,                                                                 \
		 "d_ratio(de_src_op_disp.all - ex_ret_ops, total_dispatch_slots)",                 \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Dispatched ops that did not retire"},                                            \
		{"backend_bound",                                                                  \
		 "PipelineL1;" L1,                                                                 \
		 "d_ratio(de_no_dispatch_per_slot.backend_stalls, total_dispatch_slots)",          \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Slots the backend could not accept"},                                            \
		{"smt_contention",                                                                 \
		 "PipelineL1;" L1,                                                                 \
		 "d_ratio(de_no_dispatch_per_slot.smt_contention, total_dispatch_slots)",          \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Slots given to the other thread"},                                               \
	{                                                                                          \
		"retiring", "PipelineL1;" L1, "d_ratio(ex_ret_ops, total_dispatch_slots)", PCT,    \
			NULL, METRIC_THREAD, "Slots used by ops that retired"                      \
	}
/* Zen 4's and Zen 5's PipelineL2 (amdzen4/pipeline.json, amdzen5/pipeline.json), on their
 * level 1: the same formulas over w dispatch slots a cycle and resync, the event of the
 * pipeline restarts, under names of each one's own (n: the latency, bandwidth,
 * mispredicts, restarts, memory, cpu, fastpath and microcode names; tlb: the frontend's
 * TLB as its description says). */
#define ZEN_L2G(g) "PipelineL2;" L2 ";" g "_group"
#define ZEN_FE_LAT(w)                                                                              \
	"(" w " * cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x" w "@)"
#define ZEN_MEM "d_ratio(ex_no_retire.load_not_complete, ex_no_retire.not_complete)"
#define ZEN_UCODE "d_ratio(ex_ret_ucode_ops, ex_ret_ops)"
#define ZEN_BRN(resync) "(ex_ret_brn_misp + " resync ")"
#define ZEN_L2(w, resync, tlb, n1, n2, n3, n4, n5, n6, n7, n8)                                     \
	{n1,                                                                                       \
	 ZEN_L2G("frontend_bound"),                                                                \
	 "d_ratio(" ZEN_FE_LAT(w) ", total_dispatch_slots)",                                       \
	 PCT,                                                                                      \
	 NULL,                                                                                     \
	 METRIC_THREAD,                                                                            \
	 "Slots the frontend left empty for latency (i-cache, " tlb " misses)"},                   \
		{n2,                                                                               \
		 ZEN_L2G("frontend_bound"),                                                        \
		 "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - " ZEN_FE_LAT(             \
			 w) ", total_dispatch_slots)",                                             \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Slots the frontend left empty for bandwidth (decode, op cache)"},                \
		{n3,                                                                               \
		 ZEN_L2G("bad_speculation"),                                                       \
		 "d_ratio(bad_speculation * ex_ret_brn_misp, " ZEN_BRN(resync) ")",                \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Dispatched ops flushed by branch mispredictions"},                               \
		{n4,                                                                               \
		 ZEN_L2G("bad_speculation"),                                                       \
		 "d_ratio(bad_speculation * " resync ", " ZEN_BRN(resync) ")",                     \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Dispatched ops flushed by pipeline restarts (resyncs)"},                         \
		{n5,                                                                               \
		 ZEN_L2G("backend_bound"),                                                         \
		 "backend_bound * " ZEN_MEM,                                                       \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Slots the backend stalled on memory"},                                           \
		{n6,                                                                               \
		 ZEN_L2G("backend_bound"),                                                         \
		 "backend_bound * (1 - " ZEN_MEM ")",                                              \
		 PCT,                                                                              \
		 NULL,                                                                             \
		 METRIC_THREAD,                                                                    \
		 "Slots the backend stalled on other than memory"},                                \
		{n7,   ZEN_L2G("retiring"), "retiring * (1 - " ZEN_UCODE ")",	      PCT,         \
		 NULL, METRIC_THREAD,	    "Slots used by fastpath ops that retired"},            \
	{                                                                                          \
		n8, ZEN_L2G("retiring"), "retiring * " ZEN_UCODE, PCT, NULL, METRIC_THREAD,        \
			"Slots used by microcode ops that retired"                                 \
	}
static const struct metric_def zen4_l2[] = {
	ZEN_L2("6", "resyncs_or_nc_redirects", "iTLB", "frontend_bound_latency",
	       "frontend_bound_bandwidth", "bad_speculation_mispredicts",
	       "bad_speculation_pipeline_restarts", "backend_bound_memory", "backend_bound_cpu",
	       "retiring_fastpath", "retiring_microcode")};
static const struct metric_def zen5_l2[] = {
	ZEN_L2("8", "bp_redirects.resync", "TLB", "frontend_bound_by_latency",
	       "frontend_bound_by_bandwidth", "bad_speculation_from_mispredicts",
	       "bad_speculation_from_pipeline_restarts", "backend_bound_by_memory",
	       "backend_bound_by_cpu", "retiring_from_fastpath", "retiring_from_microcode")};
#undef ZEN_L2
#undef ZEN_BRN
#undef ZEN_UCODE
#undef ZEN_MEM
#undef ZEN_FE_LAT
#undef ZEN_L2G
static const struct metric_def zen4[] = {ZEN("6")};
static const struct metric_def zen5[] = {ZEN("8")};
#undef ZEN

/* Arm (arm64/sbsa.json), and Neoverse N2's correction for its 5 slots
 * (arm64/arm/neoverse-n2-v2/metrics.json). */
#define ARM_TOTAL "(#slots * cpu_cycles)"
static const struct metric_def arm_slots[] = {
	{"frontend_bound", L1, "stall_slot_frontend / " ARM_TOTAL, PCT, NULL, METRIC_THREAD,
	 "Slots the frontend did not fill"},
	{"bad_speculation", L1, "(1 - op_retired / op_spec) * (1 - stall_slot / " ARM_TOTAL ")",
	 PCT, NULL, METRIC_THREAD, "Slots wasted by wrong speculation"},
	{"retiring", L1, "(op_retired / op_spec) * (1 - stall_slot / " ARM_TOTAL ")", PCT, NULL,
	 METRIC_THREAD, "Slots that retired"},
	{"backend_bound", L1, "stall_slot_backend / " ARM_TOTAL, PCT, NULL, METRIC_THREAD,
	 "Slots the backend could not accept"},
};
#define N2_STALL "(stall_slot if (#slots - 5) else (stall_slot - cpu_cycles))"
static const struct metric_def arm_n2[] = {
	{"frontend_bound", L1,
	 "((stall_slot_frontend) if (#slots - 5) else (stall_slot_frontend - cpu_cycles)) "
	 "/ " ARM_TOTAL,
	 PCT, NULL, METRIC_THREAD, "Slots the frontend did not fill"},
	{"bad_speculation", L1, "(1 - op_retired / op_spec) * (1 - " N2_STALL " / " ARM_TOTAL ")",
	 PCT, NULL, METRIC_THREAD, "Slots wasted by wrong speculation"},
	{"retiring", L1, "(op_retired / op_spec) * (1 - " N2_STALL " / " ARM_TOTAL ")", PCT, NULL,
	 METRIC_THREAD, "Slots that retired"},
	{"backend_bound", L1, "stall_slot_backend / " ARM_TOTAL, PCT, NULL, METRIC_THREAD,
	 "Slots the backend could not accept"},
};
#undef N2_STALL
#undef ARM_TOTAL
/* PMUv3 without STALL_SLOT (Neoverse N1's metrics.json, any Cortex-A): stall cycles. */
static const struct metric_def arm_generic[] = {
	{"frontend_stalled_cycles", "Stalls", "stall_frontend / cpu_cycles", PCT, NULL,
	 METRIC_THREAD, "Cycles the frontend stalled"},
	{"backend_stalled_cycles", "Stalls", "stall_backend / cpu_cycles", PCT, NULL, METRIC_THREAD,
	 "Cycles the backend stalled"},
};

static int add_all(struct metric_set *s, const struct metric_def *d, size_t n)
{
	char err[200];
	for (size_t i = 0; i < n; i++) {
		int r = metric_set_add(s, &d[i], err, sizeof(err));
		if (r < 0)
			return r;
	}
	return 0;
}

#define ADD(t) add_all(s, t, sizeof(t) / sizeof(t[0]))

int metric_builtin_load(struct metric_set *s, const struct metric_cpu *cpu)
{
	int r = ADD(common);
	if (r < 0)
		return r;
	switch (cpu->kind) {
	case MCPU_INTEL_4SLOT:
		return ADD(fourslot);
	case MCPU_INTEL_PERF_METRICS:
		return ADD(icelake);
	case MCPU_INTEL_GOLDEN_COVE:
		return ADD(goldencove);
	case MCPU_INTEL_HYBRID:
		r = ADD(hybrid);
		return r < 0 ? r : ADD(hybrid_l2);
	case MCPU_AMD_ZEN4:
		r = ADD(zen4);
		return r < 0 ? r : ADD(zen4_l2);
	case MCPU_AMD_ZEN5:
		r = ADD(zen5);
		return r < 0 ? r : ADD(zen5_l2);
	case MCPU_ARM_SLOTS:
		return ADD(arm_slots);
	case MCPU_ARM_NEOVERSE_N2:
		return ADD(arm_n2);
	case MCPU_ARM_GENERIC:
		return ADD(arm_generic);
	case MCPU_UNKNOWN:
		break;
	}
	return 0;
}
