/* The metric set from perf's pmu-events JSON (metricjson.c). */
#ifndef PMUTOP_METRICJSON_H
#define PMUTOP_METRICJSON_H

#include <stddef.h>

#include "metric.h"

/* Load a perf pmu-events JSON file (an array of objects with MetricName, MetricExpr,
 * MetricGroup, ScaleUnit, BriefDescription, Unit, and intel/perfmon's ResolutionLevels;
 * entries without a MetricExpr, events, are skipped; an ArchStdEvent entry replaces the
 * expression of the metric of that name). Returns the number of metrics added, or -errno
 * with err: -EINVAL names the entry whose JSON or expression is bad. After an error the
 * set may hold the entries before the bad one: discard it. */
int metric_set_load_json(struct metric_set *s, const char *path, char *err, size_t errlen);
int metric_set_load_json_text(struct metric_set *s, const char *text, size_t len, char *err,
			      size_t errlen);

#endif
