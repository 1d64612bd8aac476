/* Metric expressions in perf's MetricExpr grammar (tools/perf/util/expr.y and expr.l):
 * parsed into a tree once, then evaluated on counted values each interval. A value that
 * cannot be computed is a gap with a reason, never a number. */
#ifndef PMUTOP_MEXPR_H
#define PMUTOP_MEXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "value.h"

struct mexpr;

/* A value and, when it is a gap (or inherits one), why ("division by zero", "unknown
 * event") and of what (the event or literal's name, held by the tree; may be NULL). */
struct mval {
	struct val v;
	const char *why;
	const char *what;
};

/* What evaluation asks its caller. lookup: an identifier's value (an event, or a metric
 * the caller resolves), returning 0, or -ENOENT when no such event exists. literal: a
 * #literal's value (name without '#'), 0 or -ENOENT. cpuid: for strcmp_cpuid_str, may
 * be NULL. */
struct mexpr_env {
	int (*lookup)(void *ctx, const char *name, struct mval *out);
	int (*literal)(void *ctx, const char *name, double *out);
	const char *cpuid;
	void *ctx;
};

/* Parse text. NULL on a syntax error, with one line in err ("at 12: expected ')'"). */
struct mexpr *mexpr_parse(const char *text, char *err, size_t errlen);
void mexpr_free(struct mexpr *e);

/* The identifiers the expression names (events with '@' read as '/' and '\' escapes
 * removed, or metric names), each once, in order of first use. With env->literal set,
 * the branch of an "a if c else b" whose condition is decided by numbers and literals
 * alone is left out, as perf does when it collects events. Returns the count; fills at
 * most max names. */
unsigned mexpr_ids(const struct mexpr *e, const struct mexpr_env *env, const char **ids,
		   unsigned max);

/* Evaluate. The state of the result is the worst of the inputs it used; a division by
 * zero (d_ratio's too) is VAL_EMPTY, an unknown event or literal VAL_NA. */
struct mval mexpr_eval(const struct mexpr *e, const struct mexpr_env *env);

/* A gap of state st (VAL_NA, VAL_NC or VAL_EMPTY) for reason why. */
struct mval mval_gap(enum val_state st, const char *why);

#endif
