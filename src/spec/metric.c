/* The metric set: definitions, selection by name or group, the events they need and
 * their values with references between metrics resolved. */
#include "metric.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* References between metrics deeper than this are refused (a cycle, or nonsense). */
#define MAX_REF_DEPTH 16
#define MAX_IDS 256

struct metric {
	struct metric_def d; /* strings owned */
	struct mexpr *e;
	/* A metric of one core PMU (perf's "Unit": cpu_atom): its events written without a
	 * PMU, as "pmu/NAME/" (perf parses them with that PMU as the filter). ids[k] is a
	 * name of the tree, qual[k] its qualified form. */
	unsigned nq;
	const char **ids;
	char **qual;
};

struct metric_set {
	struct metric *m;
	unsigned n, cap;
};

struct metric_set *metric_set_new(void)
{
	return calloc(1, sizeof(struct metric_set));
}

static void def_free(struct metric_def *d)
{
	free((char *)d->name);
	free((char *)d->groups);
	free((char *)d->expr);
	free((char *)d->unit);
	free((char *)d->pmu);
	free((char *)d->desc);
}

static void metric_clear(struct metric *m)
{
	def_free(&m->d);
	mexpr_free(m->e);
	for (unsigned k = 0; k < m->nq; k++)
		free(m->qual[k]);
	free(m->qual);
	free(m->ids);
}

void metric_set_free(struct metric_set *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->n; i++)
		metric_clear(&s->m[i]);
	free(s->m);
	free(s);
}

static bool dup_str(const char *in, const char **out)
{
	*out = NULL;
	if (!in)
		return true;
	*out = strdup(in);
	return *out != NULL;
}

static bool same_pmu(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool is_tool_event(const char *ev)
{
	return !strcmp(ev, "duration_time") || !strcmp(ev, "user_time") ||
	       !strcmp(ev, "system_time") || !strncmp(ev, "tool/", 5);
}

/* The event id names as the kernel's slots: Intel's TOPDOWN.SLOTS (perf's JSON: no
 * EventCode, UMask 0x4, so event=0,umask=4) is the kernel's slots alias (event=0x00,
 * umask=0x4), the one event that must lead a PERF_METRICS group. "slots" or
 * "pmu/slots/" into buf, or false. */
static bool slots_alias(const char *id, char *buf, size_t len)
{
	const char *slash = strchr(id, '/');
	size_t pl = slash ? (size_t)(slash - id) + 1 : 0;
	const char *ev = id + pl;
	if (strncasecmp(ev, "TOPDOWN.SLOTS", 13) || (ev[13] && strcmp(ev + 13, "/")) ||
	    (pl && !ev[13]))
		return false;
	snprintf(buf, len, "%.*s%s", (int)pl, id, pl ? "slots/" : "slots");
	return true;
}

/* m's event names as they are looked up: TOPDOWN.SLOTS as slots; and, when m belongs to
 * one PMU (perf's "Unit": cpu_atom), every other name as "pmu/NAME/" but those that
 * already name a PMU, carry modifiers or a parameter, or are tool events. Names that
 * turn out to be metrics are picked out before (find_ref). 0 or -ENOMEM. */
static int qualify_all(struct metric *m)
{
	const char *ids[MAX_IDS];
	bool unit = m->d.pmu && *m->d.pmu;
	unsigned found = mexpr_ids(m->e, NULL, ids, MAX_IDS);
	if (found == 0)
		return 0;
	unsigned n = found < MAX_IDS ? found : MAX_IDS;
	m->ids = calloc(n, sizeof(*m->ids));
	m->qual = calloc(n, sizeof(*m->qual));
	if (!m->ids || !m->qual)
		return -ENOMEM;
	/* cppcheck 2.10 takes n for 0 here whatever mexpr_ids returned: a false alarm. */
	// cppcheck-suppress knownConditionTrueFalse
	for (unsigned k = 0; k < n; k++) {
		char tmp[160];
		const char *name = ids[k];
		bool slots = strlen(name) < 96 && slots_alias(name, tmp, sizeof(tmp));
		if (slots)
			name = tmp;
		if (!slots && (!unit || strpbrk(name, "/:?") || is_tool_event(name)))
			continue;
		bool wrap = unit && !strchr(name, '/');
		size_t len = (wrap ? strlen(m->d.pmu) + 2 : 0) + strlen(name) + 1;
		char *q = malloc(len);
		if (!q)
			return -ENOMEM;
		if (wrap)
			snprintf(q, len, "%s/%s/", m->d.pmu, name);
		else
			snprintf(q, len, "%s", name);
		m->ids[m->nq] = ids[k];
		m->qual[m->nq++] = q;
	}
	return 0;
}

/* The event name id of metric m is looked up as. */
static const char *as_event(const struct metric *m, const char *id)
{
	for (unsigned k = 0; k < m->nq; k++)
		if (m->ids[k] == id || !strcmp(m->ids[k], id))
			return m->qual[k];
	return id;
}

int metric_set_add(struct metric_set *s, const struct metric_def *d, char *err, size_t errlen)
{
	if (!d->name || !d->name[0] || !d->expr) {
		snprintf(err, errlen, "a metric needs a name and an expression");
		return -EINVAL;
	}
	char perr[160];
	struct mexpr *e = mexpr_parse(d->expr, perr, sizeof(perr));
	if (!e) {
		snprintf(err, errlen, "metric %s: %s", d->name, perr);
		return -EINVAL;
	}
	struct metric m = {.e = e, .d = {.res = d->res}};
	if (!dup_str(d->name, &m.d.name) || !dup_str(d->groups, &m.d.groups) ||
	    !dup_str(d->expr, &m.d.expr) || !dup_str(d->unit, &m.d.unit) ||
	    !dup_str(d->pmu, &m.d.pmu) || !dup_str(d->desc, &m.d.desc) || qualify_all(&m) < 0)
		goto nomem;
	for (unsigned i = 0; i < s->n; i++) {
		if (!strcasecmp(s->m[i].d.name, d->name) && same_pmu(s->m[i].d.pmu, d->pmu)) {
			metric_clear(&s->m[i]);
			s->m[i] = m;
			return 0;
		}
	}
	if (s->n == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 16;
		struct metric *nm = realloc(s->m, cap * sizeof(*nm));
		if (!nm)
			goto nomem;
		s->m = nm, s->cap = cap;
	}
	s->m[s->n++] = m;
	return 0;
nomem:
	metric_clear(&m);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

unsigned metric_set_count(const struct metric_set *s)
{
	return s ? s->n : 0;
}

const struct metric_def *metric_set_def(const struct metric_set *s, unsigned i)
{
	return s && i < s->n ? &s->m[i].d : NULL;
}

int metric_set_find(const struct metric_set *s, const char *name)
{
	for (unsigned i = 0; s && i < s->n; i++)
		if (!strcasecmp(s->m[i].d.name, name))
			return (int)i;
	return -1;
}

/* The metric a name inside metric `from` refers to: one of its own PMU first. */
static int find_ref(const struct metric_set *s, const char *name, unsigned from)
{
	int any = -1;
	for (unsigned i = 0; i < s->n; i++) {
		if (strcasecmp(s->m[i].d.name, name))
			continue;
		if (same_pmu(s->m[i].d.pmu, s->m[from].d.pmu))
			return (int)i;
		if (!s->m[i].d.pmu && any < 0)
			any = (int)i;
	}
	return any;
}

static bool in_group(const char *groups, const char *g, size_t glen)
{
	const char *p = groups;
	while (p && *p) {
		const char *end = strchr(p, ';');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == glen && !strncasecmp(p, g, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

int metric_set_select(const struct metric_set *s, const char *list, unsigned *idx, unsigned max,
		      char *err, size_t errlen)
{
	unsigned n = 0;
	bool *chosen = calloc(s->n ? s->n : 1, sizeof(*chosen));
	if (!chosen)
		return -ENOMEM;
	const char *p = list ? list : "";
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false;
		for (unsigned i = 0; i < s->n; i++) {
			const struct metric_def *d = &s->m[i].d;
			if ((strlen(d->name) == len && !strncasecmp(d->name, p, len)) ||
			    in_group(d->groups, p, len))
				chosen[i] = found = true;
		}
		if (!found) {
			snprintf(err, errlen, "no metric or metric group called '%.*s'", (int)len,
				 p);
			free(chosen);
			return -ENOENT;
		}
		p = end ? end + 1 : p + len;
	}
	for (unsigned i = 0; i < s->n; i++) {
		if (!chosen[i])
			continue;
		if (n < max)
			idx[n] = i;
		n++;
	}
	free(chosen);
	if (n == 0) {
		snprintf(err, errlen, "no metric chosen");
		return -ENOENT;
	}
	return (int)n;
}

static void add_event(const char *ev, const char **events, unsigned max, unsigned *n)
{
	for (unsigned k = 0; k < *n && k < max; k++)
		if (!strcmp(events[k], ev))
			return;
	if (*n < max)
		events[*n] = ev;
	(*n)++;
}

static void events_of(const struct metric_set *s, unsigned i, const struct mexpr_env *env,
		      const char **events, unsigned max, unsigned *n, unsigned depth)
{
	const char *ids[MAX_IDS];
	if (depth > MAX_REF_DEPTH)
		return;
	unsigned k = mexpr_ids(s->m[i].e, env, ids, MAX_IDS);
	for (unsigned j = 0; j < k && j < MAX_IDS; j++) {
		int r = find_ref(s, ids[j], i);
		if (r >= 0 && (unsigned)r != i)
			events_of(s, (unsigned)r, env, events, max, n, depth + 1);
		else
			add_event(as_event(&s->m[i], ids[j]), events, max, n);
	}
}

unsigned metric_set_events(const struct metric_set *s, const unsigned *idx, unsigned n,
			   const struct mexpr_env *env, const char **events, unsigned max)
{
	unsigned count = 0;
	for (unsigned i = 0; i < n; i++)
		if (idx[i] < s->n)
			events_of(s, idx[i], env, events, max, &count, 0);
	return count;
}

/* One of the PERF_METRICS events (Ice Lake and later) that slots must lead, bare or as
 * "pmu/event/". Sets *pmulen to the length of "pmu/" (0 without one). */
static bool is_topdown(const char *ev, size_t *pmulen)
{
	static const char *const names[] = {"retiring",	 "bad-spec",	  "fe-bound",  "be-bound",
					    "heavy-ops", "br-mispredict", "fetch-lat", "mem-bound"};
	const char *slash = strchr(ev, '/');
	*pmulen = slash ? (size_t)(slash - ev) + 1 : 0;
	const char *name = ev + *pmulen;
	if (strncmp(name, "topdown-", 8))
		return false;
	name += 8;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t n = strlen(names[k]);
		if (!strncmp(name, names[k], n) && (!name[n] || !strcmp(name + n, "/")))
			return true;
	}
	return false;
}

static bool is_slots(const char *ev)
{
	const char *slash = strchr(ev, '/');
	const char *name = slash ? slash + 1 : ev;
	return !strcmp(name, "slots") || !strcmp(name, "slots/");
}

static void put(char *buf, size_t len, size_t *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, (*o)++)
		if (*o + 1 < len)
			buf[*o] = s[i];
	if (len)
		buf[*o + 1 < len ? *o : len - 1] = 0;
}

int metric_set_group_spec(const struct metric_set *s, unsigned i, const struct mexpr_env *env,
			  char *buf, size_t len)
{
	return metric_set_group_spec_of(s, &i, 1, env, buf, len);
}

int metric_set_group_spec_of(const struct metric_set *s, const unsigned *idx, unsigned nidx,
			     const struct mexpr_env *env, char *buf, size_t len)
{
	const char *ev[MAX_IDS];
	unsigned n = 0;
	size_t o = 0, pmulen = 0;
	const char *topdown = NULL;
	if (len)
		buf[0] = 0;
	for (unsigned j = 0; s && j < nidx; j++)
		if (idx[j] < s->n)
			events_of(s, idx[j], env, ev, MAX_IDS, &n, 0);
	if (n > MAX_IDS)
		n = MAX_IDS;
	bool have_slots = false;
	unsigned grouped = 0;
	for (unsigned k = 0; k < n; k++) {
		size_t pl;
		if (is_topdown(ev[k], &pl) && !topdown)
			topdown = ev[k], pmulen = pl;
		have_slots |= is_slots(ev[k]);
		grouped += !is_tool_event(ev[k]);
	}
	if (grouped)
		put(buf, len, &o, "{", 1);
	bool first = true;
	if (topdown || have_slots) {
		if (pmulen) {
			put(buf, len, &o, topdown, pmulen);
			put(buf, len, &o, "slots/", 6);
		} else {
			put(buf, len, &o, "slots", 5);
		}
		first = false;
	}
	for (unsigned k = 0; k < n; k++) {
		if (is_tool_event(ev[k]) || is_slots(ev[k]))
			continue;
		if (!first)
			put(buf, len, &o, ",", 1);
		put(buf, len, &o, ev[k], strlen(ev[k]));
		first = false;
	}
	if (grouped)
		put(buf, len, &o, "}:W", 3);
	for (unsigned k = 0; k < n; k++) {
		if (!is_tool_event(ev[k]))
			continue;
		if (o)
			put(buf, len, &o, ",", 1);
		put(buf, len, &o, ev[k], strlen(ev[k]));
	}
	return (int)o;
}

struct eval_ctx {
	const struct metric_set *s;
	const struct mexpr_env *user;
	enum metric_scope scope;
	bool smt_on;
	unsigned depth;
	unsigned stack[MAX_REF_DEPTH + 1];
};

static struct mval eval_metric(struct eval_ctx *c, unsigned i);

static int ref_lookup(void *ctx, const char *name, struct mval *out)
{
	struct eval_ctx *c = ctx;
	int r = find_ref(c->s, name, c->stack[c->depth]);
	if (r >= 0) {
		*out = eval_metric(c, (unsigned)r);
		return 0;
	}
	if (!c->user || !c->user->lookup)
		return -ENOENT;
	return c->user->lookup(c->user->ctx, as_event(&c->s->m[c->stack[c->depth]], name), out);
}

static int ref_literal(void *ctx, const char *name, double *out)
{
	struct eval_ctx *c = ctx;
	if (!c->user || !c->user->literal)
		return -ENOENT;
	return c->user->literal(c->user->ctx, name, out);
}

static struct mval eval_metric(struct eval_ctx *c, unsigned i)
{
	const struct metric_def *d = &c->s->m[i].d;
	if (c->scope == METRIC_SCOPE_TASK &&
	    (d->res == METRIC_CORE || (d->res == METRIC_CORE_IF_SMT && c->smt_on)))
		return mval_gap(VAL_NA, "per-core metric");
	for (unsigned k = 0; k <= c->depth; k++)
		if (c->stack[k] == i && c->depth > 0)
			return mval_gap(VAL_NA, "metric refers to itself");
	if (c->depth >= MAX_REF_DEPTH)
		return mval_gap(VAL_NA, "metric references nested too deep");
	c->stack[++c->depth] = i;
	struct mexpr_env env = {.lookup = ref_lookup,
				.literal = ref_literal,
				.cpuid = c->user ? c->user->cpuid : NULL,
				.ctx = c};
	struct mval r = mexpr_eval(c->s->m[i].e, &env);
	c->depth--;
	return r;
}

struct mval metric_set_eval(const struct metric_set *s, unsigned i, const struct mexpr_env *env,
			    enum metric_scope scope, bool smt_on)
{
	if (!s || i >= s->n)
		return mval_gap(VAL_NA, "no such metric");
	struct eval_ctx c = {.s = s, .user = env, .scope = scope, .smt_on = smt_on};
	c.stack[0] = i;
	/* Depth 0 holds the metric itself so that its own references resolve against its
	 * PMU; eval_metric pushes it again at depth 1. */
	return eval_metric(&c, i);
}

double metric_scale(const struct metric_def *d, const char **name)
{
	*name = "";
	if (!d || !d->unit)
		return 1;
	char *end;
	double f = strtod(d->unit, &end);
	if (end == d->unit) {
		*name = d->unit;
		return 1;
	}
	*name = end;
	return f;
}
