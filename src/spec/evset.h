/* The set of event groups pmutop counts: the built-in panes' groups or the user's, with
 * the roles that built-in columns look for. */
#ifndef PMUTOP_EVSET_H
#define PMUTOP_EVSET_H

#include <stdbool.h>
#include <stdint.h>

#include "evspec.h"
#include "model.h"

struct pmu_set;

struct evset {
	struct evspec_list specs;
	unsigned nevents;		/* group members, then logical events (hybrid sums) */
	struct mevent *events;		/* names point into specs */
	struct mgroup *groups;		/* specs.n of them */
	uint8_t (*preset)[EVGROUP_MAX]; /* per group and member: status known in advance */
	char (*keys)[EV_NAME_MAX + 8];	/* per event: its unique key */
	char (*lnames)[EV_NAME_MAX];	/* names of the logical (hybrid sum) events */
	int *core; /* per group: its core PMU on a hybrid CPU (hybrid_group_cores), or
			 NULL on a CPU with one core PMU */
	bool user; /* chosen with -e */
};

/* The default set: a software group (task-clock, context switches, migrations, page
 * faults) and one group per hardware pane (IPC, cache, branch). */
int evset_default(struct evset *s, const struct pmu_set *pmus, struct evspec_err *err);
/* The user's -e SPEC. Returns evspec_parse's errors. */
int evset_parse(struct evset *s, const char *spec, const struct pmu_set *pmus,
		struct evspec_err *err);
/* base's groups (NULL: none), then the user's (NULL or "": none), which show in the
 * Events pane. evset_default and evset_parse are the two common cases. */
int evset_build(struct evset *s, const char *base, const char *user, const struct pmu_set *pmus,
		struct evspec_err *err);
/* The spec of the default set. */
const char *evset_default_spec(void);
/* Open every group once on this process to learn which members this machine cannot
 * count at all, so that no task pays for trying them again. */
void evset_probe(struct evset *s, bool user_only);
void evset_free(struct evset *s);

/* True when at least one hardware event can be counted. */
bool evset_any_hardware(const struct evset *s);

#endif
