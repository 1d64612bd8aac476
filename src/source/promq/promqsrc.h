/* pmutop --prometheus URL [--match MATCHERS] [--connect-config FILE]: a fleet's rows from
 * the Prometheus that scrapes its pmutop exporters. Each tick runs the same five instant
 * queries (/api/v1/query), whatever the number of hosts:
 *   1. rate() of pmutop_command_events_total and _clock_seconds_total over the tick,
 *      summed by (instance, job, comm, event, group); with cgroup rows (--cgroups, G:
 *      SRC_CGROUP_ROWS, from the next tick on) pmutop_cgroup_*'s, summed by (instance,
 *      job, cgroup, event, group), one row of kind ROW_CGROUP each
 *   2. and 3. the same of _events_running_seconds_total and _events_enabled_seconds_total
 *      (the counted share: `~`)
 *   4. pmutop_event_unavailable_info (an event n/a on a host stays n/a there)
 *   5. up (a target that is down keeps its last rows, each value n/c: stale)
 * MATCHERS are label matchers added to each selector: job="pmutop",instance=~"db.*". */
#ifndef PMUTOP_PROMQSRC_H
#define PMUTOP_PROMQSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "source.h"

/* The source, with its first query answered, or NULL with one line in err: a bad URL,
 * config, password or certificate, no Prometheus there, no pmutop series. cgroups: cgroup
 * rows rather than commands'. */
struct source *promqsrc_new(const char *url, const char *match, const char *config, double interval,
			    bool cgroups, char *err, size_t errlen);

/* The table's row (promqkind.c), asked by its name "prometheus" with srcopts.own this
 * (and srcopts.interval): promqsrc_new's arguments; its one line goes to err. */
struct promqopts {
	const char *url, *match, *config;
	bool cgroups; /* --cgroups */
	char *err;
	size_t errlen;
};
extern const struct source_kind promq_kind;

#endif
