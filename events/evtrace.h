/* Tracepoints as perf stat -e takes them ("sched:sched_switch[:mods]", and perf's globs
 * "sched:sched_*"), found in tracefs (mountinfo says where; or debugfs's tracing/): the
 * event parser's (evspec.c) and the catalogue's. Opens no counter, prints nothing. */
#ifndef PMUTOP_EVTRACE_H
#define PMUTOP_EVTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "evsyntax.h"

/* "subsys:name[:mods]": 1 when it is a tracepoint tracefs has (its id in *id, its
 * modifiers in *mods, NULL for none), 0 when the text has not its shape or tracefs has no
 * such tracepoint, < 0 on errors worth saying, err->reason saying them (the subsystem
 * exists but not this event; no tracefs mounted for a name of that shape). */
int evtrace_lookup(const char *s, uint64_t *id, const char **mods, struct evspec_err *err);

/* perf's tracepoint globs: each event "sys:pattern[:mods]" whose pattern has * ? or [
 * becomes the tracepoints of sys that match, in name order, where it stood (inside its
 * group, if braced). Returns 0 with *out NULL when spec has none, 0 with *out the new
 * spec (free it), or < 0 with err saying why (no match, no tracefs). */
int evtrace_expand(const char *spec, char **out, struct evspec_err *err);

/* Every tracepoint tracefs has that can be opened, as cb(ctx, "tracepoint",
 * "subsys:name", "subsys"), in subsystem then name order. 0 (none when tracefs is not
 * mounted), or the non-zero value cb stopped with. */
typedef int (*evtrace_cb)(void *ctx, const char *pmu, const char *name, const char *desc);
int evtrace_each(evtrace_cb cb, void *ctx);
/* Whether tracefs is mounted (evtrace_each lists nothing without it). */
bool evtrace_mounted(void);

#endif
