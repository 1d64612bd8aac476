/* The chosen metrics tied to the event set: the groups they add to it (as perf groups
 * them), and each metric's value for a model row, computed from that row's values. */
#ifndef PMUTOP_METRICBIND_H
#define PMUTOP_METRICBIND_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "metric.h"
#include "metriccpu.h"
#include "model.h"

struct pmu_set;
struct metric_bind;

/* What a chosen metric is to the panes. */
enum metric_role {
	MROLE_OTHER = 0, /* the Metrics pane */
	MROLE_TOPDOWN1,	 /* the Top-down pane: level 1 (TopdownL1, PipelineL1) */
	MROLE_TOPDOWN2,	 /* level 2: with the others in the Metrics pane, for now */
};

/* The metrics for this machine: the CPU read from sysfs_root and cpuinfo, pmutop's
 * built-in set, then json (perf's file, or NULL), chosen by list as perf stat -M (NULL:
 * TopdownL1 where the set has it, else none; "": none). Returns 0, or -errno with one line in err
 * (a bad file, an unknown name in list). */
int metric_bind_load(const char *sysfs_root, const char *cpuinfo, const char *json,
		     const char *list, struct metric_bind **out, char *err, size_t errlen);

/* b as text for a recording: the CPU's literals, every metric of its set (references
 * need the ones not chosen) and which were chosen. malloc'd; NULL on -ENOMEM. */
char *metric_bind_save(const struct metric_bind *b);
/* A binding from metric_bind_save's text (a replay's: its events are found by name in
 * the recorded model). NULL with one line in err when the text is not one. */
struct metric_bind *metric_bind_restore(const char *text, char *err, size_t errlen);

/* Take set (owned from now on, freed by metric_bind_free) and the metrics idx[0..n) of it
 * that were chosen. NULL on -ENOMEM (set freed then too). */
struct metric_bind *metric_bind_new(struct metric_set *set, const struct metric_cpu *cpu,
				    const unsigned *idx, unsigned n);
void metric_bind_free(struct metric_bind *b);

/* The groups the chosen metrics need that base (an event spec, or NULL) does not already
 * hold, comma separated, into out: one "{...}:W" per metric as metric_set_group_spec
 * gives it, each once. A metric whose group does not parse on this machine (its events
 * are not in sysfs) is left out and is n/a, "event not on this CPU". Returns 0, or
 * -E2BIG when out is too small. */
int metric_bind_spec(struct metric_bind *b, const char *base, const struct pmu_set *pmus, char *out,
		     size_t len);

unsigned metric_bind_count(const struct metric_bind *b);
const struct metric_def *metric_bind_def(const struct metric_bind *b, unsigned k);
enum metric_role metric_bind_role(const struct metric_bind *b, unsigned k);
/* A column's id ("tma_retiring", "tma_retiring.cpu_atom" on a hybrid CPU's second
 * PMU) and short title ("RETIRE%"), held by b. */
const char *metric_bind_name(const struct metric_bind *b, unsigned k);
const char *metric_bind_title(const struct metric_bind *b, unsigned k);
/* True when the metric's unit is a percentage (its value is in percent). */
bool metric_bind_is_pct(const struct metric_bind *b, unsigned k);
/* How many chosen metrics have role. */
unsigned metric_bind_count_role(const struct metric_bind *b, enum metric_role role);
/* Whether the set (the CPU's built-in metrics and any --metrics file) has a metric of
 * role, chosen or not. */
bool metric_bind_has_role(const struct metric_bind *b, enum metric_role role);
/* Why m has no top-down (one line, held by b): no level-1 metric was chosen or the CPU
 * has none, their events are not on this machine, or none of them can count here.
 * NULL when at least one level-1 metric can count. */
const char *metric_bind_topdown_reason(struct metric_bind *b, const struct model *m);
const struct metric_cpu *metric_bind_cpu(const struct metric_bind *b);

/* Metric k's value on row r of m, scaled by its unit (percent for "100%"): its events
 * are read from the model group that holds them all. The state is the worst of the
 * inputs (scaled, n/c); per-core metrics are n/a (WHY_PER_CORE) outside CPU rows; a
 * division by zero is a gap (WHY_DIVZERO). why, when not NULL, gets the engine's reason
 * for a gap ("per-core metric", "division by zero", "unknown event"), or NULL. */
struct val metric_bind_value(struct metric_bind *b, const struct model *m, const struct mrow *r,
			     unsigned k, const char **why);

/* The same before its unit's scale: a share is a ratio (0.4, not 40 percent). */
struct val metric_bind_raw(struct metric_bind *b, const struct model *m, const struct mrow *r,
			   unsigned k);

/* True when metric k can never count in m: its events are not on this CPU, or every
 * one it reads is unsupported here. */
bool metric_bind_unsupported(struct metric_bind *b, const struct model *m, unsigned k);

/* Events e's name as the metric engine names it: its spec's name without the group's
 * modifiers ("cycles:W" is "cycles", "cpu_core/slots/W" is "cpu_core/slots/"). Whether
 * name is that of event e. */
bool metric_bind_event_is(const struct mevent *e, const char *name);

#endif
