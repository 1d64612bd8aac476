/* Metrics: named expressions (built in, or loaded from perf's pmu-events JSON files),
 * chosen by name or group as perf stat -M chooses them, the events they need grouped as
 * perf groups them, and their values with metric-to-metric references resolved. */
#ifndef PMUTOP_METRIC_H
#define PMUTOP_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include "mexpr.h"

/* Where a metric is valid: per thread, only per core (the counts of a core's threads
 * together), or only per core when SMT is on (Intel's 4-slot top-down before Ice Lake). */
enum metric_res {
	METRIC_THREAD = 0,
	METRIC_CORE,
	METRIC_CORE_IF_SMT,
};

/* The rows a value is computed for: a process or thread, or a CPU. */
enum metric_scope {
	METRIC_SCOPE_TASK,
	METRIC_SCOPE_CPU,
};

struct metric_def {
	const char *name;
	const char *groups; /* ';'-separated, as MetricGroup; NULL for none */
	const char *expr;
	const char *unit; /* ScaleUnit ("100%", "1MPKI", "1GHz"), NULL for a plain number */
	const char *pmu;  /* the core PMU it belongs to on a hybrid CPU (cpu_core), or NULL */
	enum metric_res res;
	const char *desc;
};

struct metric_set;

struct metric_set *metric_set_new(void);
void metric_set_free(struct metric_set *s);

/* Add a copy of d, parsed. A metric of the same name and PMU is replaced (as a model's
 * file overrides an architecture standard one). Returns 0, or -EINVAL with one line in
 * err when the expression does not parse, -ENOMEM. */
int metric_set_add(struct metric_set *s, const struct metric_def *d, char *err, size_t errlen);

unsigned metric_set_count(const struct metric_set *s);
const struct metric_def *metric_set_def(const struct metric_set *s, unsigned i);
/* The metric called name (any case), or -1. */
int metric_set_find(const struct metric_set *s, const char *name);

/* Metrics chosen by a comma-separated list of metric names and group names (any case), as
 * perf stat -M: each once, in the set's order. Returns the count (filling at most max), or
 * -ENOENT with err naming the first word that is neither. */
int metric_set_select(const struct metric_set *s, const char *list, unsigned *idx, unsigned max,
		      char *err, size_t errlen);

/* The events the chosen metrics need, following references to other metrics, each once.
 * env->literal decides branches on literals. Returns the count; fills at most max. */
unsigned metric_set_events(const struct metric_set *s, const unsigned *idx, unsigned n,
			   const struct mexpr_env *env, const char **events, unsigned max);

/* One metric's events as perf groups them: a weak group "{a,b,c}:W" with slots first
 * when it holds Intel's topdown-* events (the kernel wants slots to lead them), and tool
 * events (duration_time) left outside. Returns the length as snprintf does. */
int metric_set_group_spec(const struct metric_set *s, unsigned i, const struct mexpr_env *env,
			  char *buf, size_t len);
/* The same for the events of several metrics together, each once. */
int metric_set_group_spec_of(const struct metric_set *s, const unsigned *idx, unsigned nidx,
			     const struct mexpr_env *env, char *buf, size_t len);

/* Value of metric i. env->lookup gives events; names of metrics in the set are evaluated
 * here. A per-core metric in a task row is n/a ("per-core metric"); smt_on says whether
 * SMT is on. The value is the expression's, before ScaleUnit. */
struct mval metric_set_eval(const struct metric_set *s, unsigned i, const struct mexpr_env *env,
			    enum metric_scope scope, bool smt_on);

/* ScaleUnit as a factor and a unit: "100%" is 100 and "%". Returns the factor (1 when
 * unit is NULL or not a number first) and points *name at the unit's text. */
double metric_scale(const struct metric_def *d, const char **name);

#endif
