/* Building the event set and finding the roles of its events. */
#include "evset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgroup.h"
#include "hybrid.h"

static const char *const default_spec =
	"{task-clock,context-switches,cpu-migrations,page-faults,major-faults},"
	"{cycles,instructions},"
	"{cache-references,cache-misses,instructions},"
	"{branches,branch-misses,instructions}";

static bool is_hw(const struct evdesc *d, uint64_t config)
{
	return d->attr.type == PERF_TYPE_HARDWARE && (d->attr.config & 0xffffffffULL) == config;
}

static bool is_sw(const struct evdesc *d, uint64_t config)
{
	return d->attr.type == PERF_TYPE_SOFTWARE && d->attr.config == config;
}

/* The first member of group g matching pred/config, or -1. */
static int find_in(const struct evgroup_spec *g, bool (*pred)(const struct evdesc *, uint64_t),
		   uint64_t config)
{
	for (unsigned i = 0; i < g->n; i++)
		if (pred(&g->ev[i], config))
			return (int)i;
	return -1;
}

static void set_role(struct evset *s, unsigned g, int member, enum ev_role role)
{
	if (member < 0)
		return;
	for (unsigned i = 0; i < s->nevents; i++)
		if (s->events[i].role == role)
			return; /* the first group that can serve a role keeps it */
	s->events[s->groups[g].first + (unsigned)member].role = role;
}

/* A role is only given where its partners share the group: derived metrics never mix
 * groups. */
static void assign_roles(struct evset *s)
{
	for (unsigned g = 0; g < s->specs.n; g++) {
		const struct evgroup_spec *gs = &s->specs.g[g];
		int cyc = find_in(gs, is_hw, PERF_COUNT_HW_CPU_CYCLES);
		int ins = find_in(gs, is_hw, PERF_COUNT_HW_INSTRUCTIONS);
		int refs = find_in(gs, is_hw, PERF_COUNT_HW_CACHE_REFERENCES);
		int cmiss = find_in(gs, is_hw, PERF_COUNT_HW_CACHE_MISSES);
		int br = find_in(gs, is_hw, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
		int bmiss = find_in(gs, is_hw, PERF_COUNT_HW_BRANCH_MISSES);
		if (cyc >= 0 && ins >= 0 && refs < 0 && br < 0) {
			set_role(s, g, cyc, ROLE_CYCLES);
			set_role(s, g, ins, ROLE_INSNS);
		}
		if (refs >= 0 && cmiss >= 0) {
			set_role(s, g, refs, ROLE_CACHE_REFS);
			set_role(s, g, cmiss, ROLE_CACHE_MISSES);
			set_role(s, g, ins, ROLE_CACHE_INSNS);
		}
		if (br >= 0 && bmiss >= 0) {
			set_role(s, g, br, ROLE_BRANCHES);
			set_role(s, g, bmiss, ROLE_BRANCH_MISSES);
			set_role(s, g, ins, ROLE_BRANCH_INSNS);
		}
		set_role(s, g, find_in(gs, is_sw, PERF_COUNT_SW_TASK_CLOCK), ROLE_TASK_CLOCK);
		set_role(s, g, find_in(gs, is_sw, PERF_COUNT_SW_CONTEXT_SWITCHES), ROLE_CS);
		set_role(s, g, find_in(gs, is_sw, PERF_COUNT_SW_CPU_MIGRATIONS), ROLE_MIGRATIONS);
		set_role(s, g, find_in(gs, is_sw, PERF_COUNT_SW_PAGE_FAULTS), ROLE_FAULTS);
		set_role(s, g, find_in(gs, is_sw, PERF_COUNT_SW_PAGE_FAULTS_MAJ), ROLE_MAJ_FAULTS);
	}
}

/* Machine-readable outputs need one name per value: a name that repeats across groups
 * (instructions beside cycles, cache and branch events) gets its group number. */
static void make_keys(struct evset *s)
{
	for (unsigned i = 0; i < s->nevents; i++) {
		bool repeats = false;
		for (unsigned j = 0; j < s->nevents; j++)
			if (j != i && strcmp(s->events[i].name, s->events[j].name) == 0)
				repeats = true;
		if (repeats)
			snprintf(s->keys[i], sizeof(s->keys[i]), "%s#%u", s->events[i].name,
				 s->events[i].group + 1);
		else
			snprintf(s->keys[i], sizeof(s->keys[i]), "%s", s->events[i].name);
		s->events[i].key = s->keys[i];
	}
}

/* The logical event of each per-PMU instance set (hybrid CPUs): the j-th copied member
 * of a group and the j-th member of each of its other copies. */
static unsigned count_logical(const struct evset *s, const unsigned *copy_of,
			      const unsigned *copy_no)
{
	unsigned n = 0;
	for (unsigned g = 0; copy_of && g < s->specs.n; g++)
		if (copy_no[g] == 1)
			n += s->specs.g[g].n;
	return n;
}

static void add_logical(struct evset *s, unsigned ninst, const unsigned *copy_of,
			const unsigned *copy_no)
{
	unsigned l = ninst;
	for (unsigned g = 0; copy_of && g < s->specs.n; g++) {
		if (copy_no[g] != 1)
			continue;
		unsigned g0 = copy_of[g];
		/* Copy 1 holds exactly the copied members, in copy 0's order. */
		for (unsigned j = 0, m0 = 0; j < s->specs.g[g].n; j++, m0++) {
			while (m0 < s->specs.g[g0].n && !strchr(s->specs.g[g0].ev[m0].name, '['))
				m0++;
			struct mevent *ev = &s->events[l];
			const char *name = s->specs.g[g0].ev[m0].name;
			snprintf(s->lnames[l - ninst], sizeof(s->lnames[0]), "%.*s",
				 (int)(strrchr(name, '[') - name), name);
			ev->name = s->lnames[l - ninst];
			ev->group = g0;
			ev->member = m0;
			ev->hardware = true;
			ev->logical = true;
			ev->sum[ev->nsum++] = s->groups[g0].first + m0;
			for (unsigned k = g; k < s->specs.n && copy_of[k] == g0; k++)
				if (ev->nsum < HYBRID_MAX)
					ev->sum[ev->nsum++] = s->groups[k].first + j;
			/* The built-in columns read the sum, not one kind of core. */
			struct mevent *inst = &s->events[ev->sum[0]];
			ev->role = inst->role;
			inst->role = ROLE_NONE;
			l++;
		}
	}
}

static int build(struct evset *s, const unsigned *copy_of, const unsigned *copy_no)
{
	unsigned ninst = 0;
	for (unsigned g = 0; g < s->specs.n; g++)
		ninst += s->specs.g[g].n;
	unsigned nlog = count_logical(s, copy_of, copy_no);
	s->nevents = ninst + nlog;
	s->events = calloc(s->nevents + 1, sizeof(*s->events));
	s->groups = calloc(s->specs.n + 1, sizeof(*s->groups));
	s->preset = calloc(s->specs.n + 1, sizeof(*s->preset));
	s->keys = calloc(s->nevents + 1, sizeof(*s->keys));
	s->lnames = calloc(nlog + 1, sizeof(*s->lnames));
	if (!s->events || !s->groups || !s->preset || !s->keys || !s->lnames)
		return -ENOMEM;
	unsigned e = 0;
	for (unsigned g = 0; g < s->specs.n; g++) {
		s->groups[g].first = e;
		s->groups[g].n = s->specs.g[g].n;
		for (unsigned k = 0; k < s->specs.g[g].n; k++, e++) {
			const struct evdesc *d = &s->specs.g[g].ev[k];
			s->events[e].name = d->name;
			s->events[e].group = g;
			s->events[e].member = k;
			s->events[e].hardware = !d->software;
		}
	}
	assign_roles(s);
	add_logical(s, ninst, copy_of, copy_no);
	make_keys(s);
	return 0;
}

int evset_build(struct evset *s, const char *base, const char *user, const struct pmu_set *pmus,
		struct evspec_err *err)
{
	memset(s, 0, sizeof(*s));
	int ret = 0;
	unsigned nbase = 0;
	bool *is_user = NULL;
	unsigned *copy_of = NULL, *copy_no = NULL;
	if (base && *base)
		ret = evspec_parse(base, pmus, &s->specs, err);
	nbase = s->specs.n;
	if (!ret && user && *user)
		ret = evspec_parse(user, pmus, &s->specs, err);
	if (!ret && s->specs.n == 0)
		ret = -EINVAL;
	if (!ret && !(is_user = calloc(s->specs.n + 1, sizeof(*is_user))))
		ret = -ENOMEM;
	for (unsigned g = nbase; !ret && g < s->specs.n; g++)
		is_user[g] = true;
	if (!ret)
		ret = hybrid_expand(&s->specs, pmus, &is_user, &copy_of, &copy_no);
	if (!ret)
		ret = build(s, copy_of, copy_no);
	if (!ret)
		ret = hybrid_group_cores(&s->specs, pmus, &s->core);
	for (unsigned g = 0; !ret && g < s->specs.n; g++) {
		s->groups[g].user = is_user[g];
		s->user = s->user || is_user[g];
	}
	free(is_user);
	free(copy_of);
	free(copy_no);
	if (ret)
		evset_free(s);
	return ret;
}

int evset_parse(struct evset *s, const char *spec, const struct pmu_set *pmus,
		struct evspec_err *err)
{
	return evset_build(s, NULL, spec, pmus, err);
}

int evset_default(struct evset *s, const struct pmu_set *pmus, struct evspec_err *err)
{
	return evset_build(s, default_spec, NULL, pmus, err);
}

const char *evset_default_spec(void)
{
	return default_spec;
}

void evset_probe(struct evset *s, bool user_only)
{
	for (unsigned g = 0; g < s->specs.n; g++) {
		const struct evgroup_spec *gs = &s->specs.g[g];
		/* Each member alone: a member's own verdict, not its group's. */
		for (unsigned k = 0; k < gs->n; k++) {
			struct evgroup_spec one = {.n = 1, .ev = {gs->ev[k]}};
			struct evgroup_opts o = {.pid = 0, .cpu = -1, .user_only = user_only};
			struct evgroup *eg = NULL;
			evgroup_open(&one, &o, &eg);
			enum ev_status st = eg ? evgroup_status(eg, 0) : EVS_ERROR;
			evgroup_free(eg);
			s->preset[g][k] = st == EVS_UNSUPPORTED ? EVS_UNSUPPORTED : EVS_OK;
			s->events[s->groups[g].first + k].status =
				st == EVS_UNSUPPORTED ? WHY_UNSUPPORTED : WHY_NONE;
		}
	}
	for (unsigned i = 0; i < s->nevents; i++) {
		struct mevent *l = &s->events[i];
		if (!l->logical)
			continue;
		l->status = s->events[l->sum[0]].status;
		for (unsigned k = 0; k < l->nsum; k++)
			if (s->events[l->sum[k]].status == WHY_NONE)
				l->status = WHY_NONE;
	}
}

bool evset_any_hardware(const struct evset *s)
{
	for (unsigned i = 0; i < s->nevents; i++)
		if (s->events[i].hardware && s->events[i].status == WHY_NONE)
			return true;
	return false;
}

void evset_free(struct evset *s)
{
	evspec_list_free(&s->specs);
	free(s->events);
	free(s->groups);
	free(s->preset);
	free(s->keys);
	free(s->lnames);
	free(s->core);
	s->core = NULL;
	s->keys = NULL;
	s->lnames = NULL;
	s->events = NULL;
	s->groups = NULL;
	s->preset = NULL;
	s->nevents = 0;
}
