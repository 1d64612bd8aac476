/* Tables of perf's generic, software and hardware-cache event names, their lookup, and
 * the catalogue of every event name the parser accepts. */
#include "evnames.h"

#include "evpfm.h"
#include "pmu.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct evnames_sym {
	const char *name;
	const char *alias; /* perf's second spelling, or NULL */
	uint32_t type;
	uint64_t config;
	const char *desc;
};

/* clang-format off */
#define HW(n, a, c, d) {n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, d}
#define SW(n, a, c, d) {n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, d}
/* clang-format on */

static const struct evnames_sym evnames_syms[] = {
	HW("cpu-cycles", "cycles", CPU_CYCLES, "CPU cycles"),
	HW("instructions", NULL, INSTRUCTIONS, "Instructions retired"),
	HW("cache-references", NULL, CACHE_REFERENCES, "Cache accesses (usually last level)"),
	HW("cache-misses", NULL, CACHE_MISSES, "Cache misses (usually last level)"),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS, "Branch instructions retired"),
	HW("branch-misses", NULL, BRANCH_MISSES, "Mispredicted branch instructions"),
	HW("bus-cycles", NULL, BUS_CYCLES, "Bus cycles"),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
	   "Cycles the front end issued nothing"),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND,
	   "Cycles the back end retired nothing"),
	HW("ref-cycles", NULL, REF_CPU_CYCLES, "Reference cycles, not scaled by frequency"),
	SW("cpu-clock", NULL, CPU_CLOCK, "Per-CPU high-resolution timer (ns)"),
	SW("task-clock", NULL, TASK_CLOCK, "Time the task was on a CPU (ns)"),
	SW("page-faults", "faults", PAGE_FAULTS, "Page faults"),
	SW("context-switches", "cs", CONTEXT_SWITCHES, "Context switches"),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS, "Moves of the task to another CPU"),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, "Page faults served without I/O"),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, "Page faults that needed I/O"),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS, "Unaligned accesses fixed up by the kernel"),
	SW("emulation-faults", NULL, EMULATION_FAULTS, "Instructions emulated by the kernel"),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES, "Context switches to another cgroup"),
	SW("dummy", NULL, DUMMY, "Counts nothing (placeholder)"),
};

#define NSYMS (sizeof(evnames_syms) / sizeof(evnames_syms[0]))
#define NCACHE PERF_COUNT_HW_CACHE_MAX
#define NOPS PERF_COUNT_HW_CACHE_OP_MAX
#define NRES PERF_COUNT_HW_CACHE_RESULT_MAX

/* perf's spellings (tools/perf/util/evsel.c); the first is the one it lists */
static const char *const evnames_caches[NCACHE][6] = {
	{"L1-dcache", "l1-d", "l1d", "L1-data"},
	{"L1-icache", "l1-i", "l1i", "L1-instruction"},
	{"LLC", "L2"},
	{"dTLB", "d-tlb", "Data-TLB"},
	{"iTLB", "i-tlb", "Instruction-TLB"},
	{"branch", "branches", "bpu", "btb", "bpc"},
	{"node"},
};

static const char *const evnames_ops[NOPS][6] = {
	{"load", "loads", "read"},
	{"store", "stores", "write"},
	{"prefetch", "prefetches", "speculative-read", "speculative-load"},
};

static const char *const evnames_results[NRES][6] = {
	{"refs", "Reference", "ops", "access", "accesses"},
	{"misses", "miss"},
};

/* Which operations each cache can count, as perf's evsel__hw_cache_stat says. */
#define OPB(x) (1u << PERF_COUNT_HW_CACHE_OP_##x)
static const unsigned evnames_cache_ops[NCACHE] = {
	OPB(READ) | OPB(WRITE) | OPB(PREFETCH), /* L1D */
	OPB(READ) | OPB(PREFETCH),		/* L1I */
	OPB(READ) | OPB(WRITE) | OPB(PREFETCH), /* LL */
	OPB(READ) | OPB(WRITE) | OPB(PREFETCH), /* DTLB */
	OPB(READ),				/* ITLB */
	OPB(READ),				/* BPU */
	OPB(READ) | OPB(WRITE) | OPB(PREFETCH), /* NODE */
};

static const char *const evnames_op_plural[NOPS] = {"loads", "stores", "prefetches"};

/* The longest spelling in tab[0..n) that s[0..len) starts with, followed by '-' or the
 * end: spellings contain '-' themselves ("L1-dcache"), so splitting on '-' would not do.
 * Returns the row and sets *used, or -1. */
static int evnames_prefix(const char *s, size_t len, const char *const (*tab)[6], unsigned n,
			  size_t *used)
{
	int best = -1;

	*used = 0;
	for (unsigned r = 0; r < n; r++) {
		for (unsigned c = 0; c < 6 && tab[r][c]; c++) {
			size_t l = strlen(tab[r][c]);

			if (l > *used && l <= len && strncasecmp(s, tab[r][c], l) == 0 &&
			    (l == len || s[l] == '-'))
				best = (int)r, *used = l;
		}
	}
	return best;
}

/* <cache>[-<op>][-<result>], op defaulting to load and result to access, as perf. */
static int evnames_cache(const char *s, size_t len, uint64_t *config)
{
	int cache, op = -1, res = -1, k;
	size_t used;

	cache = evnames_prefix(s, len, evnames_caches, NCACHE, &used);
	if (cache < 0)
		return -ENOENT;
	while (used < len) {
		s += used + 1; /* past the '-' */
		len -= used + 1;
		if (op < 0 && (k = evnames_prefix(s, len, evnames_ops, NOPS, &used)) >= 0)
			op = k;
		else if (res < 0 && (k = evnames_prefix(s, len, evnames_results, NRES, &used)) >= 0)
			res = k;
		else
			return -ENOENT;
	}
	op = op < 0 ? PERF_COUNT_HW_CACHE_OP_READ : op;
	res = res < 0 ? PERF_COUNT_HW_CACHE_RESULT_ACCESS : res;
	if (!(evnames_cache_ops[cache] & (1u << op)))
		return -ENOENT; /* "L1-icache-stores": no such counter anywhere */
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)res << 16;
	return 0;
}

static bool evnames_eq(const char *a, size_t alen, const char *b)
{
	return b && strncasecmp(a, b, alen) == 0 && b[alen] == '\0';
}

int evnames_lookup(const char *name, size_t len, uint32_t *type, uint64_t *config)
{
	for (size_t i = 0; i < NSYMS; i++) {
		if (evnames_eq(name, len, evnames_syms[i].name) ||
		    evnames_eq(name, len, evnames_syms[i].alias)) {
			*type = evnames_syms[i].type;
			*config = evnames_syms[i].config;
			return 0;
		}
	}
	if (evnames_cache(name, len, config) == 0) {
		*type = PERF_TYPE_HW_CACHE;
		return 0;
	}
	return -ENOENT;
}

static bool evnames_match(const char *filter, const char *a, const char *b)
{
	return !filter || !*filter || (a && strcmp(filter, a) == 0) ||
	       (b && strcmp(filter, b) == 0);
}

static int evnames_builtin(const char *filter, bool with_aliases, evnames_cb cb, void *ctx)
{
	char name[64], desc[96];
	int ret = 0;

	for (size_t i = 0; i < NSYMS && !ret; i++) {
		const struct evnames_sym *s = &evnames_syms[i];
		const char *label =
			s->type == PERF_TYPE_SOFTWARE ? EVNAMES_SOFTWARE : EVNAMES_GENERIC;

		if (!evnames_match(filter, label, NULL))
			continue;
		ret = cb(ctx, label, s->name, s->desc);
		if (!ret && with_aliases && s->alias)
			ret = cb(ctx, label, s->alias, s->desc);
	}
	if (!evnames_match(filter, EVNAMES_GENERIC, NULL))
		return ret;
	for (unsigned c = 0; c < NCACHE && !ret; c++) {
		for (unsigned op = 0; op < NOPS && !ret; op++) {
			if (!(evnames_cache_ops[c] & (1u << op)))
				continue;
			snprintf(name, sizeof(name), "%s-%s", evnames_caches[c][0],
				 evnames_op_plural[op]);
			snprintf(desc, sizeof(desc), "%s %s accesses", evnames_caches[c][0],
				 evnames_ops[op][0]);
			ret = cb(ctx, EVNAMES_GENERIC, name, desc);
			if (ret)
				break;
			snprintf(name, sizeof(name), "%s-%s-misses", evnames_caches[c][0],
				 evnames_ops[op][0]);
			snprintf(desc, sizeof(desc), "%s %s misses", evnames_caches[c][0],
				 evnames_ops[op][0]);
			ret = cb(ctx, EVNAMES_GENERIC, name, desc);
		}
	}
	return ret;
}

struct evnames_pfm_ctx {
	const char *pmu;
	evnames_cb cb;
	void *ctx;
};

static int evnames_pfm_event(void *ctx, const char *name, const char *desc)
{
	struct evnames_pfm_ctx *c = ctx;
	char spec[256];

	snprintf(spec, sizeof(spec), "%s::%s", c->pmu, name);
	return c->cb(c->ctx, c->pmu, spec, desc);
}

/* The sysfs aliases and the libpfm4 events of PMU i. */
static int evnames_pmu(const struct pmu_set *pmus, unsigned i, const char *filter, evnames_cb cb,
		       void *ctx)
{
	struct evnames_pfm_ctx c = {.cb = cb, .ctx = ctx};
	struct pmu_info pi;
	const char *alias, *terms;
	char spec[256];
	int ret = 0;

	pmu_set_info(pmus, i, &pi);
	if (pi.type >= 0 && evnames_match(filter, pi.name, NULL)) {
		for (unsigned a = 0; !ret && pmu_set_alias_at(pmus, i, a, &alias, &terms) == 0;
		     a++) {
			snprintf(spec, sizeof(spec), "%s/%s/", pi.name, alias);
			ret = cb(ctx, pi.name, spec, terms);
		}
	}
	if (ret || pi.pfm_id < 0 || !pmu_set_uses_pfm(pmus))
		return ret;
	/* a filter naming the PMU asks for it even when absent or a generic duplicate */
	if (filter && *filter) {
		if (!evnames_match(filter, pi.name, pi.pfm_name))
			return 0;
	} else if (!pi.present || pi.pfm_generic) {
		return 0;
	}
	c.pmu = pi.pfm_name;
	ret = evpfm_for_each_event(pi.pfm_id, evnames_pfm_event, &c);
	return ret == -ENOENT || ret == -ENODEV ? 0 : ret;
}

int evnames_for_each(const struct pmu_set *pmus, const char *filter, bool with_aliases,
		     evnames_cb cb, void *ctx)
{
	int ret = evnames_builtin(filter, with_aliases, cb, ctx);

	for (unsigned i = 0; !ret && i < pmu_set_count(pmus); i++)
		ret = evnames_pmu(pmus, i, filter, cb, ctx);
	return ret;
}

static unsigned char evnames_lower(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

unsigned evnames_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned row[256];

	alen = alen > 255 ? 255 : alen;
	blen = blen > 255 ? 255 : blen;
	for (size_t j = 0; j <= blen; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= alen; i++) {
		unsigned diag = row[0]; /* row[i-1][j-1] */

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= blen; j++) {
			unsigned up = row[j];
			unsigned best = diag + (evnames_lower(a[i - 1]) != evnames_lower(b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[blen];
}
