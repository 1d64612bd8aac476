/* The chosen metrics against the event set: which groups they add, which model group
 * each one reads, and its value per row through the metric engine. */
#include "metricbind.h"
#include "metricjson.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evspec.h"

#define MB_IDS 64

struct mb_metric {
	unsigned idx; /* in the set */
	enum metric_role role;
	bool absent;	/* its group does not parse here: n/a */
	bool pct;	/* ScaleUnit is a percentage */
	double scale;	/* ScaleUnit's factor */
	char name[96];	/* column id */
	char title[24]; /* column title: the name whole, up to 23 characters */
	int group;	/* the model group holding all its events, -1 none */
	unsigned nids;	/* its events and their model indices (-1: not in the set) */
	const char *ids[MB_IDS];
	int ev[MB_IDS];
};

struct metric_bind {
	struct metric_set *set;
	struct metric_cpu cpu;
	struct mexpr_env env; /* literals only: for the events a metric needs */
	unsigned n;
	struct mb_metric *m;
	/* The model events the indices were found in: found again when they change. */
	const struct mevent *bound;
	unsigned nbound;
	bool chosen; /* by -M: no hint to use it */
	char reason[300];
};

/* Whether name[0..n) is one of list's items, sep between them, in any case. */
static bool in_list(const char *list, const char *sep, const char *name, size_t n)
{
	for (const char *p = list; p && *p;) {
		const char *end = strstr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncasecmp(p, name, n) == 0)
			return true;
		p = end ? end + strlen(sep) : NULL;
	}
	return false;
}

static bool in_groups(const char *groups, const char *name)
{
	return in_list(groups, ";", name, strlen(name));
}

static enum metric_role role_of(const struct metric_def *d)
{
	if (in_groups(d->groups, "TopdownL1") || in_groups(d->groups, "PipelineL1"))
		return MROLE_TOPDOWN1;
	if (in_groups(d->groups, "TopdownL2") || in_groups(d->groups, "PipelineL2"))
		return MROLE_TOPDOWN2;
	return MROLE_OTHER;
}

/* Short titles for the top-down shares, by the word perf's and the vendors' names share
 * (the last one found: "bad_speculation_from_mispredicts" is BRMIS%). */
static void make_title(struct mb_metric *mm, const struct metric_def *d)
{
	static const struct {
		const char *word, *title;
	} known[] = {
		{"frontend", "FRONT%"},	 {"bad_spec", "BADSP%"},   {"retiring", "RETIR%"},
		{"backend", "BACK%"},	 {"smt_cont", "SMT%"},	   {"heavy", "HEAVY%"},
		{"light", "LIGHT%"},	 {"mispredict", "BRMIS%"}, {"machine_clear", "CLEAR%"},
		{"fetch_lat", "FLAT%"},	 {"fetch_band", "FBW%"},   {"memory_bound", "MEM%"},
		{"core_bound", "CORE%"}, {"_latency", "FLAT%"},	   {"_bandwidth", "FBW%"},
		{"_memory", "MEM%"},	 {"_cpu", "CPU%"},	   {"restarts", "RSTRT%"},
		{"fastpath", "FAST%"},	 {"microcode", "UCODE%"},  {"ms_uops", "MSUOP%"},
		{"_base", "BASE%"},	 {"resource", "RSRC%"},
	};
	const char *t = NULL;
	for (size_t i = 0; mm->role != MROLE_OTHER && i < sizeof(known) / sizeof(known[0]); i++)
		if (strstr(d->name, known[i].word))
			t = known[i].title;
	if (t) {
		snprintf(mm->title, sizeof(mm->title), "%s", t);
	} else {
		size_t k = 0;
		for (const char *p = d->name; *p && k < sizeof(mm->title) - 1; p++)
			mm->title[k++] = (char)toupper((unsigned char)*p);
		mm->title[k] = '\0';
	}
	/* A hybrid CPU's second core type: the same names, told apart. */
	if (d->pmu && strcmp(d->pmu, "cpu_atom") == 0) {
		size_t k = strlen(mm->title);
		snprintf(mm->title + k, sizeof(mm->title) - k, "a");
		snprintf(mm->name, sizeof(mm->name), "%s.%s", d->name, d->pmu);
	} else {
		snprintf(mm->name, sizeof(mm->name), "%s", d->name);
	}
}

struct metric_bind *metric_bind_new(struct metric_set *set, const struct metric_cpu *cpu,
				    const unsigned *idx, unsigned n)
{
	struct metric_bind *b = calloc(1, sizeof(*b));
	if (!b || !(b->m = calloc(n + 1, sizeof(*b->m)))) {
		free(b);
		metric_set_free(set);
		return NULL;
	}
	b->set = set;
	b->cpu = *cpu;
	b->env.literal = metric_cpu_literal;
	b->env.ctx = &b->cpu;
	b->env.cpuid = b->cpu.cpuid;
	for (unsigned i = 0; i < n; i++) {
		if (idx[i] >= metric_set_count(set))
			continue;
		struct mb_metric *mm = &b->m[b->n++];
		const struct metric_def *d = metric_set_def(set, idx[i]);
		const char *unit;
		mm->idx = idx[i];
		mm->role = role_of(d);
		mm->scale = metric_scale(d, &unit);
		mm->pct = strcmp(unit, "%") == 0;
		mm->group = -1;
		make_title(mm, d);
		unsigned k = metric_set_events(set, &mm->idx, 1, &b->env, mm->ids, MB_IDS);
		mm->nids = k < MB_IDS ? k : MB_IDS;
	}
	return b;
}

/* The names a list may use, comma separated: the set's groups, then its metrics, as
 * many as fit, then how many more there are. */
static void names_here(const struct metric_set *set, char *out, size_t len)
{
	size_t at = 0;
	unsigned more = 0;
	out[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < metric_set_count(set); i++) {
			const struct metric_def *d = metric_set_def(set, i);
			for (const char *p = pass ? d->name : d->groups; p && *p;) {
				size_t n = pass ? strlen(p) : strcspn(p, ";");
				const char *name = p;
				p = pass || !p[n] ? NULL : p + n + 1;
				if (n == 0 || in_list(out, ", ", name, n))
					continue;
				if (at + n + 2 + 16 > len) {
					more++;
					continue;
				}
				at += (size_t)snprintf(out + at, len - at, "%s%.*s", at ? ", " : "",
						       (int)n, name);
			}
		}
	}
	if (more)
		snprintf(out + at, len - at, " and %u more", more);
}

/* -M's one line when a name in the list is not in the set (why says which): the names
 * there are instead, and, for a top-down name on a CPU with none, that it has none. */
static void select_error(const struct metric_set *set, const struct metric_cpu *cpu,
			 const char *why, char *err, size_t errlen)
{
	char here[200];
	names_here(set, here, sizeof(here));
	const char *q = strchr(why, '\'');
	const char *bad = q ? q + 1 : "";
	int n = (int)strcspn(bad, "'");
	bool topdown = !strncasecmp(bad, "Topdown", 7) || !strncasecmp(bad, "tma_", 4);
	for (unsigned i = 0; topdown && i < metric_set_count(set); i++)
		topdown = role_of(metric_set_def(set, i)) == MROLE_OTHER;
	if (topdown)
		snprintf(err, errlen,
			 "-M: %.*s: this CPU (%s) has no top-down metrics (here: %s; more with "
			 "--metrics FILE.json)",
			 n, bad,
			 cpu->kind == MCPU_UNKNOWN ? "unknown" : metric_cpu_kind_name(cpu->kind),
			 here);
	else
		snprintf(err, errlen, "-M: %s (here: %s; more with --metrics FILE.json)", why,
			 here);
}

int metric_bind_load(const char *sysfs_root, const char *cpuinfo, const char *json,
		     const char *list, struct metric_bind **out, char *err, size_t errlen)
{
	struct metric_cpu cpu;
	struct metric_set *set = metric_set_new();
	unsigned idx[256];
	int n = 0;
	*out = NULL;
	if (!set)
		return -ENOMEM;
	metric_cpu_detect(sysfs_root, cpuinfo, &cpu);
	int r = metric_builtin_load(set, &cpu);
	if (r == 0 && json) {
		char why[300] = "";
		r = metric_set_load_json(set, json, why, sizeof(why));
		if (r < 0 && *why) /* it names the file */
			snprintf(err, errlen, "--metrics %s", why);
		else if (r < 0)
			snprintf(err, errlen, "--metrics %s: %s", json, strerror(-r));
	} else if (r) {
		snprintf(err, errlen, "built-in metrics: %s", strerror(-r));
	}
	if (r >= 0) {
		char why[300] = "";
		bool any_l1 = false;
		for (unsigned i = 0; i < metric_set_count(set); i++)
			any_l1 = any_l1 || in_groups(metric_set_def(set, i)->groups, "TopdownL1");
		const char *sel = list ? list : any_l1 ? "TopdownL1" : NULL;
		n = sel && *sel ? metric_set_select(set, sel, idx, 256, why, sizeof(why)) : 0;
		if (n < 0) {
			r = n;
			if (n == -ENOMEM)
				snprintf(err, errlen, "-M: %s", strerror(ENOMEM));
			else
				select_error(set, &cpu, why, err, errlen);
		}
	}
	if (r < 0) {
		metric_set_free(set);
		return r;
	}
	*out = metric_bind_new(set, &cpu, idx, n > 256 ? 256 : (unsigned)n);
	if (*out)
		(*out)->chosen = list && *list;
	return *out ? 0 : -ENOMEM;
}

void metric_bind_free(struct metric_bind *b)
{
	if (!b)
		return;
	metric_set_free(b->set);
	free(b->m);
	free(b);
}

static bool is_tool(const char *ev)
{
	return !strcmp(ev, "duration_time") || !strcmp(ev, "user_time") ||
	       !strcmp(ev, "system_time") || !strncmp(ev, "tool/", 5);
}

/* A group of list whose members' names include every event of mm's (tools aside). */
static bool list_holds(const struct evspec_list *l, const struct mb_metric *mm)
{
	for (unsigned g = 0; g < l->n; g++) {
		unsigned found = 0, need = 0;
		for (unsigned j = 0; j < mm->nids; j++) {
			if (is_tool(mm->ids[j]))
				continue;
			need++;
			for (unsigned k = 0; k < l->g[g].n; k++) {
				struct mevent e = {.name = l->g[g].ev[k].name};
				if (metric_bind_event_is(&e, mm->ids[j])) {
					found++;
					break;
				}
			}
		}
		if (need && found == need)
			return true;
	}
	return false;
}

/* Whether metric k is a top-down share whose group is a PERF_METRICS one (led by slots)
 * that this machine can open. */
static bool slots_led(struct metric_bind *b, unsigned k, const struct pmu_set *pmus)
{
	char spec[1024];
	if (b->m[k].role == MROLE_OTHER || b->m[k].absent)
		return false;
	metric_set_group_spec(b->set, b->m[k].idx, &b->env, spec, sizeof(spec));
	size_t n = strcspn(spec, ",}");
	if (spec[0] != '{' || !((n >= 6 && !strncmp(spec + n - 5, "slots", 5)) ||
				(n >= 7 && !strncmp(spec + n - 6, "slots/", 6))))
		return false;
	char *end = strstr(spec, "}:W");
	if (end)
		end[3] = '\0';
	struct evspec_list one = {0};
	struct evspec_err err;
	bool ok = evspec_parse(spec, pmus, &one, &err) == 0;
	evspec_list_free(&one);
	return ok;
}

/* Intel's top-down metrics of one PMU read one slots-led group, as perf stat reads its
 * levels 1 and 2: groups of their own would take turns on the one PERF_METRICS
 * register, and every share would be scaled. Appends the groups to out and have. */
static int merge_topdown(struct metric_bind *b, const struct pmu_set *pmus,
			 struct evspec_list *have, char *out, size_t len, size_t *o)
{
	bool *done = calloc(b->n + 1, sizeof(*done));
	unsigned *idx = calloc(b->n + 1, sizeof(*idx));
	int ret = done && idx ? 0 : -ENOMEM;
	for (unsigned i = 0; i < b->n && !ret; i++) {
		if (done[i] || !slots_led(b, i, pmus))
			continue;
		const char *pmu = metric_bind_def(b, i)->pmu;
		unsigned n = 0;
		for (unsigned j = i; j < b->n; j++) {
			const char *pj = metric_bind_def(b, j)->pmu;
			if (done[j] || (pmu ? !pj || strcmp(pmu, pj) : pj != NULL) ||
			    !slots_led(b, j, pmus))
				continue;
			done[j] = true;
			idx[n++] = b->m[j].idx;
		}
		char spec[1024];
		metric_set_group_spec_of(b->set, idx, n, &b->env, spec, sizeof(spec));
		char *end = strstr(spec, "}:W");
		if (n < 2 || !end)
			continue;
		end[3] = '\0';
		struct evspec_list one = {0};
		struct evspec_err err;
		/* slots, the eight fractions and a few counters: one group the PMU can hold */
		bool fits =
			evspec_parse(spec, pmus, &one, &err) == 0 && one.n == 1 && one.g[0].n <= 13;
		evspec_list_free(&one);
		if (!fits || evspec_parse(spec, pmus, have, &err))
			continue;
		int w = snprintf(out + *o, len - *o, "%s%s", *o ? "," : "", spec);
		if (w < 0 || (size_t)w >= len - *o)
			ret = -E2BIG;
		else
			*o += (size_t)w;
	}
	free(done);
	free(idx);
	return ret;
}

int metric_bind_spec(struct metric_bind *b, const char *base, const struct pmu_set *pmus, char *out,
		     size_t len)
{
	struct evspec_list have = {0};
	struct evspec_err err;
	size_t o = 0;
	int ret = 0;
	if (len)
		out[0] = '\0';
	b->bound = NULL;
	if (base && *base)
		evspec_parse(base, pmus, &have, &err);
	ret = merge_topdown(b, pmus, &have, out, len, &o);
	for (unsigned i = 0; i < b->n && !ret; i++) {
		struct mb_metric *mm = &b->m[i];
		char spec[1024];
		metric_set_group_spec(b->set, mm->idx, &b->env, spec, sizeof(spec));
		/* Tool events are no counters: duration_time is the interval's length. */
		char *end = strstr(spec, "}:W");
		if (end)
			end[3] = '\0';
		else if (is_tool(spec) || !spec[0])
			continue;
		struct evspec_list one = {0};
		memset(&err, 0, sizeof(err));
		if (evspec_parse(spec, pmus, &one, &err)) {
			mm->absent = true;
			continue;
		}
		if (list_holds(&have, mm)) {
			evspec_list_free(&one);
			continue;
		}
		/* Later metrics may read this group too. */
		if (evspec_parse(spec, pmus, &have, &err) == 0) {
			int w = snprintf(out + o, len - o, "%s%s", o ? "," : "", spec);
			if (w < 0 || (size_t)w >= len - o)
				ret = -E2BIG;
			else
				o += (size_t)w;
		}
		evspec_list_free(&one);
	}
	evspec_list_free(&have);
	return ret;
}

unsigned metric_bind_count(const struct metric_bind *b)
{
	return b ? b->n : 0;
}

const struct metric_def *metric_bind_def(const struct metric_bind *b, unsigned k)
{
	return metric_set_def(b->set, b->m[k].idx);
}

enum metric_role metric_bind_role(const struct metric_bind *b, unsigned k)
{
	return b->m[k].role;
}

const char *metric_bind_name(const struct metric_bind *b, unsigned k)
{
	return b->m[k].name;
}

const char *metric_bind_title(const struct metric_bind *b, unsigned k)
{
	return b->m[k].title;
}

bool metric_bind_is_pct(const struct metric_bind *b, unsigned k)
{
	return b->m[k].pct;
}

unsigned metric_bind_count_role(const struct metric_bind *b, enum metric_role role)
{
	unsigned n = 0;
	for (unsigned k = 0; b && k < b->n; k++)
		n += b->m[k].role == role;
	return n;
}

bool metric_bind_has_role(const struct metric_bind *b, enum metric_role role)
{
	for (unsigned i = 0; b && i < metric_set_count(b->set); i++)
		if (role_of(metric_set_def(b->set, i)) == role)
			return true;
	return false;
}

const char *metric_bind_topdown_reason(struct metric_bind *b, const struct model *m)
{
	if (!b)
		return NULL;
	const char *kind =
		b->cpu.kind == MCPU_UNKNOWN ? "unknown" : metric_cpu_kind_name(b->cpu.kind);
	bool any = false, parsed = false;
	for (unsigned k = 0; k < b->n; k++) {
		if (b->m[k].role != MROLE_TOPDOWN1)
			continue;
		any = true;
		parsed = parsed || !b->m[k].absent;
		if (!metric_bind_unsupported(b, m, k))
			return NULL;
	}
	if (!any)
		snprintf(b->reason, sizeof(b->reason), "no top-down: %s (this CPU: %s%s)",
			 b->cpu.kind == MCPU_UNKNOWN || b->cpu.kind == MCPU_ARM_GENERIC
				 ? "this CPU has no top-down events"
				 : "no level-1 metric chosen",
			 kind, b->chosen ? "" : "; -M chooses metrics");
	else if (!parsed)
		snprintf(b->reason, sizeof(b->reason),
			 "no top-down: %s's events are not on this machine", kind);
	else
		snprintf(b->reason, sizeof(b->reason),
			 "no top-down: %s's events cannot be counted here", kind);
	return b->reason;
}

const struct metric_cpu *metric_bind_cpu(const struct metric_bind *b)
{
	return &b->cpu;
}

bool metric_bind_event_is(const struct mevent *e, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(e->name, name, n) != 0)
		return false;
	/* "cpu_core/slots/W": perf's modifiers follow a PMU event's closing slash. */
	if (n && name[n - 1] == '/')
		return strspn(e->name + n, "ukhIGHpPSDWe") == strlen(e->name + n);
	/* "cycles:W": the group's modifiers, not a libpfm4 "PMU::EVENT". */
	return e->name[n] == '\0' || (e->name[n] == ':' && e->name[n + 1] != ':' &&
				      !strchr(e->name + n + 1, ':') && !strchr(name, ':'));
}

/* An event of group g called name (a hybrid sum before its instances), or -1. */
static int event_in(const struct model *m, unsigned g, const char *name)
{
	int found = -1;
	for (unsigned e = 0; e < m->nevents; e++) {
		if (m->events[e].group != g || !metric_bind_event_is(&m->events[e], name))
			continue;
		if (m->events[e].logical)
			return (int)e;
		if (found < 0)
			found = (int)e;
	}
	return found;
}

/* Each metric reads one group, the first that holds all its events: counts from one
 * window, as perf reads a metric's weak group. */
static void bind_model(struct metric_bind *b, const struct model *m)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct mb_metric *mm = &b->m[i];
		mm->group = -1;
		for (unsigned j = 0; j < mm->nids; j++)
			mm->ev[j] = -1;
		for (unsigned g = 0; g < m->ngroups && mm->group < 0 && !mm->absent; g++) {
			unsigned j = 0;
			for (; j < mm->nids; j++)
				if (!is_tool(mm->ids[j]) && event_in(m, g, mm->ids[j]) < 0)
					break;
			if (j < mm->nids)
				continue;
			mm->group = (int)g;
			for (j = 0; j < mm->nids; j++)
				mm->ev[j] = is_tool(mm->ids[j]) ? -1 : event_in(m, g, mm->ids[j]);
		}
	}
	b->bound = m->events;
	b->nbound = m->nevents;
}

/* Another event set may sit where the last one was (a replay's, loaded into the same
 * memory): the events found must still be the metric's, in its group. */
static bool still_bound(const struct mb_metric *mm, const struct model *m)
{
	for (unsigned j = 0; j < mm->nids; j++) {
		int e = mm->ev[j];
		if (e < 0)
			continue;
		if ((unsigned)e >= m->nevents || (int)m->events[e].group != mm->group ||
		    !metric_bind_event_is(&m->events[e], mm->ids[j]))
			return false;
	}
	return true;
}

struct lookup_ctx {
	const struct metric_cpu *cpu;
	const struct mb_metric *mm;
	const struct model *m;
	const struct mrow *r;
};

static int lookup(void *ctx, const char *name, struct mval *out)
{
	const struct lookup_ctx *c = ctx;
	memset(out, 0, sizeof(*out));
	if (strcmp(name, "duration_time") == 0) {
		out->v = (struct val){.v = c->m->elapsed * 1e9, .state = VAL_EXACT, .run_pm = 1000};
		return 0;
	}
	for (unsigned j = 0; j < c->mm->nids; j++) {
		if (c->mm->ev[j] >= 0 && (unsigned)c->mm->ev[j] < c->m->nevents &&
		    strcmp(c->mm->ids[j], name) == 0) {
			out->v = c->r->v[c->mm->ev[j]];
			return 0;
		}
	}
	return -ENOENT;
}

static int literal(void *ctx, const char *name, double *out)
{
	const struct lookup_ctx *c = ctx;
	return metric_cpu_literal((void *)c->cpu, name, out);
}

static enum val_why why_code(const char *why, enum val_why dflt)
{
	if (why && strcmp(why, "per-core metric") == 0)
		return WHY_PER_CORE;
	if (why && strcmp(why, "division by zero") == 0)
		return WHY_DIVZERO;
	return dflt;
}

static struct val value(struct metric_bind *b, const struct model *m, const struct mrow *r,
			unsigned k, const char **why, bool scale)
{
	if (why)
		*why = NULL;
	if (!b || k >= b->n)
		return val_missing(VAL_NA, WHY_UNSUPPORTED);
	if (b->bound != m->events || b->nbound != m->nevents || !still_bound(&b->m[k], m))
		bind_model(b, m);
	const struct mb_metric *mm = &b->m[k];
	if (mm->group < 0) {
		if (why)
			*why = "event not on this CPU";
		return val_missing(VAL_NA, WHY_UNSUPPORTED);
	}
	struct lookup_ctx c = {.cpu = &b->cpu, .mm = mm, .m = m, .r = r};
	struct mexpr_env env = {
		.lookup = lookup, .literal = literal, .cpuid = b->cpu.cpuid, .ctx = &c};
	struct mval v = metric_set_eval(b->set, mm->idx, &env,
					r->kind == ROW_CPU ? METRIC_SCOPE_CPU : METRIC_SCOPE_TASK,
					b->cpu.smt_on);
	if (why)
		*why = v.why;
	if (val_has_number(v.v)) {
		v.v.v *= scale ? mm->scale : 1;
		return v.v;
	}
	v.v.why = (uint8_t)why_code(v.why, (enum val_why)v.v.why);
	return v.v;
}

bool metric_bind_unsupported(struct metric_bind *b, const struct model *m, unsigned k)
{
	if (!b || k >= b->n)
		return true;
	if (b->bound != m->events || b->nbound != m->nevents || !still_bound(&b->m[k], m))
		bind_model(b, m);
	const struct mb_metric *mm = &b->m[k];
	if (mm->group < 0)
		return true;
	for (unsigned j = 0; j < mm->nids; j++)
		if (mm->ev[j] >= 0 && m->events[mm->ev[j]].status != WHY_UNSUPPORTED)
			return false;
	return true;
}

struct val metric_bind_value(struct metric_bind *b, const struct model *m, const struct mrow *r,
			     unsigned k, const char **why)
{
	return value(b, m, r, k, why, true);
}

struct val metric_bind_raw(struct metric_bind *b, const struct model *m, const struct mrow *r,
			   unsigned k)
{
	return value(b, m, r, k, NULL, false);
}

/* Fields are separated by US (0x1f), records by RS (0x1e); a field's own are saved as
 * spaces. */
#define SAVE_MAGIC "pmutop-metrics 1"

static void put_field(char **p, size_t *left, const char *s, bool last)
{
	for (; s && *s && *left > 2; s++, (*p)++, (*left)--)
		**p = *s == '\x1e' || *s == '\x1f' ? ' ' : *s;
	if (*left > 1) {
		*(*p)++ = last ? '\x1e' : '\x1f';
		(*left)--;
	}
}

char *metric_bind_save(const struct metric_bind *b)
{
	size_t cap = 512 + 16 * (size_t)b->n;
	for (unsigned i = 0; i < metric_set_count(b->set); i++) {
		const struct metric_def *d = metric_set_def(b->set, i);
		const char *f[] = {d->name, d->groups, d->expr, d->unit, d->pmu, d->desc};
		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
			cap += (f[k] ? strlen(f[k]) : 0) + 1;
		cap += 8;
	}
	char *out = malloc(cap), *p = out, num[64];
	size_t left = cap;
	if (!out)
		return NULL;
	put_field(&p, &left, SAVE_MAGIC, false);
	snprintf(num, sizeof(num), "%d", (int)b->cpu.kind);
	put_field(&p, &left, num, false);
	snprintf(num, sizeof(num), "%d", b->cpu.smt_on);
	put_field(&p, &left, num, false);
	snprintf(num, sizeof(num), "%u", b->cpu.num_cpus);
	put_field(&p, &left, num, false);
	snprintf(num, sizeof(num), "%.17g", b->cpu.slots);
	put_field(&p, &left, num, false);
	put_field(&p, &left, b->cpu.pmu, false);
	put_field(&p, &left, b->cpu.cpuid, true);
	for (unsigned k = 0; k < b->n; k++) {
		snprintf(num, sizeof(num), "%u", b->m[k].idx);
		put_field(&p, &left, num, k + 1 == b->n);
	}
	if (!b->n)
		put_field(&p, &left, "", true);
	for (unsigned i = 0; i < metric_set_count(b->set); i++) {
		const struct metric_def *d = metric_set_def(b->set, i);
		snprintf(num, sizeof(num), "%d", (int)d->res);
		put_field(&p, &left, d->name, false);
		put_field(&p, &left, d->groups, false);
		put_field(&p, &left, d->expr, false);
		put_field(&p, &left, d->unit, false);
		put_field(&p, &left, d->pmu, false);
		put_field(&p, &left, num, false);
		put_field(&p, &left, d->desc, true);
	}
	*p = '\0';
	return out;
}

/* The fields of one record of text into f (at most max, pointing into text, which is
 * cut at their ends). Returns how many, and moves *text past the record. */
static unsigned split_record(char **text, char **f, unsigned max)
{
	unsigned n = 0;
	char *p = *text;
	char *end = strchr(p, '\x1e');
	if (!end)
		return 0;
	*end = '\0';
	*text = end + 1;
	while (n < max) {
		f[n++] = p;
		char *us = strchr(p, '\x1f');
		if (!us)
			break;
		*us = '\0';
		p = us + 1;
	}
	return n;
}

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

struct metric_bind *metric_bind_restore(const char *text, char *err, size_t errlen)
{
	char *copy = strdup(text), *p = copy, *f[8];
	struct metric_set *set = metric_set_new();
	struct metric_cpu cpu = {0};
	unsigned idx[256], n = 0;
	struct metric_bind *b = NULL;
	if (!copy || !set) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (split_record(&p, f, 8) != 7 || strcmp(f[0], SAVE_MAGIC) != 0) {
		snprintf(err, errlen,
			 "the recording's metrics are not in a form this pmutop reads");
		goto out;
	}
	cpu.kind = (enum metric_cpu_kind)atoi(f[1]);
	cpu.smt_on = atoi(f[2]) != 0;
	cpu.num_cpus = (unsigned)strtoul(f[3], NULL, 10);
	cpu.slots = strtod(f[4], NULL);
	snprintf(cpu.pmu, sizeof(cpu.pmu), "%s", f[5]);
	snprintf(cpu.cpuid, sizeof(cpu.cpuid), "%s", f[6]);
	char *chosen = strchr(p, '\x1e');
	if (!chosen) {
		snprintf(err, errlen, "the recording's metrics are cut short");
		goto out;
	}
	*chosen = '\0';
	for (char *q = p; *q && n < 256;) {
		idx[n++] = (unsigned)strtoul(q, &q, 10);
		if (*q == '\x1f')
			q++;
		else if (*q)
			break;
	}
	p = chosen + 1;
	while (*p) {
		if (split_record(&p, f, 8) != 7) {
			snprintf(err, errlen, "the recording's metrics are cut short");
			goto out;
		}
		struct metric_def d = {.name = f[0],
				       .groups = or_null(f[1]),
				       .expr = f[2],
				       .unit = or_null(f[3]),
				       .pmu = or_null(f[4]),
				       .res = (enum metric_res)atoi(f[5]),
				       .desc = or_null(f[6])};
		char why[200];
		if (metric_set_add(set, &d, why, sizeof(why))) {
			snprintf(err, errlen, "the recording's metric %.60s: %s", f[0], why);
			goto out;
		}
	}
	b = metric_bind_new(set, &cpu, idx, n);
	set = NULL;
	if (!b)
		snprintf(err, errlen, "out of memory");
out:
	metric_set_free(set);
	free(copy);
	return b;
}
