/* promqsrc.h: five instant queries a tick, each answer a vector parsed with json-c into
 * one row per (instance, job, comm), or (cgroup rows) per (instance, job, cgroup), and one
 * event per (event, group) label pair. */
#include "promqsrc.h"

#include "cgroup_name.h"
#include "fetch.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PQ_MAXEV 32
#define PQ_TIMEOUT_MS 10000L
/* rate() needs two samples in its window: a tick shorter than this is read as the rate
 * over this window times the tick (4 scrapes at 1 s; see docs/FLEET.md) */
#define PQ_MIN_WINDOW 4L

enum { Q_COUNT, Q_RUN, Q_ENA, Q_NA, Q_UP, Q_N };

struct pq_row {
	char *instance, *job;
	char *comm;    /* its key: the command, or with cgroup rows the cgroup's path */
	char name[64]; /* with cgroup rows: the cgroup's readable name (cgroup_name) */
	double val[PQ_MAXEV], run[PQ_MAXEV], ena[PQ_MAXEV];
	bool have[PQ_MAXEV], na[PQ_MAXEV];
	bool down; /* its target is down or gone: last rows kept, n/c */
	bool seen; /* in this tick's answer */
	bool mark; /* a target down's one "[target down]" row: no command or cgroup */
};

struct pq {
	struct source base;
	struct fetch *f;
	char *url, *match;
	double interval, last; /* last: monotonic time of the previous tick */
	struct model m;
	struct mstore st;
	struct mevent ev[PQ_MAXEV];
	struct mgroup gr[PQ_MAXEV];
	char name[PQ_MAXEV][64], group[PQ_MAXEV][64], key[PQ_MAXEV][130];
	unsigned nev;
	bool cg, cg_asked; /* cgroup rows: shown, asked for (from the next tick on) */
	struct pq_row *rows;
	size_t nrows, cap;
	size_t *slot, nslot; /* the rows by (instance, job, key): an index + 1 each, 0 free */
	bool restale;	     /* rows dropped (moved): slot to build again */
	char notice[512];
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The PromQL of query q over a window of w seconds (malloc'd). */
static char *query_text(const struct pq *p, int q, long w)
{
	/* the command's or (cgroup rows) the cgroup's series, summed by that label */
	static const char *const op[] = {"=~", "=", "="}, *const tail[] = {
								  "_(events|clock_seconds)_total",
								  "_events_running_seconds_total",
								  "_events_enabled_seconds_total"};
	const char *sep = p->match[0] ? "," : "";
	char *s = NULL;
	int n;
	if (q < Q_NA) {
		n = asprintf(&s,
			     "sum by (instance,job,%s,event,group) "
			     "(rate({__name__%s\"pmutop_%s%s\"%s%s}[%lds]))",
			     p->cg ? "cgroup" : "comm", op[q], p->cg ? "cgroup" : "command",
			     tail[q], sep, p->match, w < PQ_MIN_WINDOW ? PQ_MIN_WINDOW : w);
	} else if (q == Q_NA)
		n = asprintf(&s, "pmutop_event_unavailable_info{%s}", p->match);
	else
		n = asprintf(&s, "up{%s}", p->match);
	return n < 0 ? NULL : s;
}

/* The result array of an instant query's answer, or NULL with err set and *rc -errno
 * (fetch_get's, or -EIO for an answer that is not one); *root to put. */
static struct json_object *run_query(struct pq *p, int q, long w, struct json_object **root,
				     int *rc, char *err, size_t errlen)
{
	char *qt = query_text(p, q, w), *esc = qt ? fetch_escape(qt) : NULL, *u = NULL, *body;
	size_t len;
	long status;
	struct json_object *res = NULL;
	*root = NULL;
	*rc = -EIO;
	if (!esc || asprintf(&u, "%s/api/v1/query?query=%s", p->url, esc) < 0) {
		snprintf(err, errlen, "out of memory");
		u = NULL;
		goto out;
	}
	if ((*rc = fetch_get(p->f, u, PQ_TIMEOUT_MS, &body, &len, &status, err, errlen)) != 0) {
		/* the reason after the URL asked, said of the URL given */
		const char *why = strncmp(err, u, strlen(u)) ? err : err + strlen(u);
		char e2[512];
		snprintf(e2, sizeof(e2), "%s%s%s", p->url, why[0] == ':' ? "" : ": ", why);
		snprintf(err, errlen, "%s", e2);
		goto out;
	}
	*rc = -EIO;
	*root = json_tokener_parse(body);
	free(body);
	struct json_object *st, *data, *e;
	if (status == 401 || status == 403) {
		snprintf(err, errlen,
			 "%s: %ld: wrong or no user and password or certificate "
			 "(--connect-config)",
			 p->url, status);
	} else if (!*root || !json_object_object_get_ex(*root, "status", &st) ||
		   !json_object_is_type(st, json_type_string)) {
		snprintf(err, errlen, "%s: HTTP %ld, not a Prometheus query API answer", p->url,
			 status);
	} else if (strcmp(json_object_get_string(st), "success") != 0) {
		const char *why = json_object_object_get_ex(*root, "error", &e) &&
						  json_object_is_type(e, json_type_string)
					  ? json_object_get_string(e)
					  : "no reason given";
		snprintf(err, errlen, "%s: query refused: %s", p->url, why);
	} else if (!json_object_object_get_ex(*root, "data", &data) ||
		   !json_object_object_get_ex(data, "result", &res) ||
		   !json_object_is_type(res, json_type_array)) {
		snprintf(err, errlen, "%s: an answer without a result vector", p->url);
		res = NULL;
	}
out:
	if (!res && *root) {
		json_object_put(*root);
		*root = NULL;
	}
	free(u);
	free(esc);
	free(qt);
	return res;
}

static const char *label(struct json_object *s, const char *name)
{
	struct json_object *m, *v;
	/* A label is a string; anything else (null, a number) names nothing. */
	if (!json_object_object_get_ex(s, "metric", &m) ||
	    !json_object_object_get_ex(m, name, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

/* The sample's value: [time, "number"], a finite rate at or above zero (a counter's rate
 * or a share of time); anything else is no sample. */
static bool sample(struct json_object *s, double *v)
{
	struct json_object *a, *x;
	if (!json_object_object_get_ex(s, "value", &a) ||
	    !json_object_is_type(a, json_type_array) || json_object_array_length(a) != 2)
		return false;
	x = json_object_array_get_idx(a, 1);
	if (!json_object_is_type(x, json_type_string))
		return false;
	const char *t = json_object_get_string(x);
	char *end;
	*v = strtod(t, &end);
	return end != t && *end == '\0' && isfinite(*v) && *v >= 0;
}

/* The role the exporter's event and group labels name (spec/evset.c's, by name). */
static enum ev_role role_of(const char *ev, const char *grp)
{
	static const struct {
		const char *ev, *grp;
		enum ev_role role;
	} t[] = {{"task-clock", NULL, ROLE_TASK_CLOCK},
		 {"context-switches", NULL, ROLE_CS},
		 {"cpu-migrations", NULL, ROLE_MIGRATIONS},
		 {"page-faults", NULL, ROLE_FAULTS},
		 {"major-faults", NULL, ROLE_MAJ_FAULTS},
		 {"cycles", NULL, ROLE_CYCLES},
		 {"instructions", "cycles", ROLE_INSNS},
		 {"instructions", "", ROLE_INSNS},
		 {"cache-references", NULL, ROLE_CACHE_REFS},
		 {"cache-misses", NULL, ROLE_CACHE_MISSES},
		 {"instructions", "cache-references", ROLE_CACHE_INSNS},
		 {"branches", NULL, ROLE_BRANCHES},
		 {"branch-instructions", NULL, ROLE_BRANCHES},
		 {"branch-misses", NULL, ROLE_BRANCH_MISSES},
		 {"instructions", "branches", ROLE_BRANCH_INSNS},
		 {"instructions", "branch-instructions", ROLE_BRANCH_INSNS}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].ev, ev) && (!t[i].grp || !strcmp(t[i].grp, grp)))
			return t[i].role;
	return ROLE_NONE;
}

/* The event's index, added when new; -1 when the set is full. */
static int event_at(struct pq *p, const char *ev, const char *grp)
{
	for (unsigned i = 0; i < p->nev; i++)
		if (!strcmp(p->name[i], ev) && !strcmp(p->group[i], grp))
			return (int)i;
	if (p->nev == PQ_MAXEV || !ev[0])
		return -1;
	unsigned i = p->nev++;
	snprintf(p->name[i], sizeof(p->name[i]), "%s", ev);
	snprintf(p->group[i], sizeof(p->group[i]), "%s", grp);
	if (grp[0])
		snprintf(p->key[i], sizeof(p->key[i]), "%s#%s", ev, grp);
	else
		snprintf(p->key[i], sizeof(p->key[i]), "%s", ev);
	p->ev[i] = (struct mevent){.name = p->name[i],
				   .key = p->key[i],
				   .group = i,
				   .role = role_of(ev, grp),
				   .hardware = role_of(ev, grp) >= ROLE_CYCLES};
	p->gr[i] = (struct mgroup){.first = i, .n = 1};
	return (int)i;
}

static size_t row_hash(const char *inst, const char *job, const char *key)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a, a 0xff between the labels */
	const char *k[3] = {inst, job, key};
	for (int i = 0; i < 3; i++) {
		for (const unsigned char *c = (const unsigned char *)k[i]; *c; c++)
			h = (h ^ *c) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return (size_t)h;
}

static void slot_put(struct pq *p, size_t i)
{
	const struct pq_row *r = &p->rows[i];
	size_t k = row_hash(r->instance, r->job, r->comm) & (p->nslot - 1);
	while (p->slot[k])
		k = (k + 1) & (p->nslot - 1);
	p->slot[k] = i + 1;
}

/* The index of the rows built again, with room for want of them at half full. */
static int index_rows(struct pq *p, size_t want)
{
	size_t n = 64;
	while (n < want * 2)
		n *= 2;
	if (n != p->nslot) {
		size_t *sl = calloc(n, sizeof(*sl));
		if (!sl)
			return -ENOMEM;
		free(p->slot);
		p->slot = sl, p->nslot = n;
	} else
		memset(p->slot, 0, n * sizeof(*p->slot));
	for (size_t i = 0; i < p->nrows; i++)
		slot_put(p, i);
	p->restale = false;
	return 0;
}

/* The row of (inst, job, comm), added when new; NULL when out of memory. */
static struct pq_row *row_at(struct pq *p, const char *inst, const char *job, const char *comm)
{
	if ((p->restale || p->nslot < (p->nrows + 1) * 2) && index_rows(p, p->nrows + 1))
		return NULL;
	for (size_t k = row_hash(inst, job, comm) & (p->nslot - 1); p->slot[k];
	     k = (k + 1) & (p->nslot - 1)) {
		struct pq_row *r = &p->rows[p->slot[k] - 1];
		if (!strcmp(r->comm, comm) && !strcmp(r->instance, inst) && !strcmp(r->job, job))
			return r;
	}
	if (p->nrows == p->cap) {
		size_t c = p->cap ? p->cap * 2 : 64;
		struct pq_row *n = realloc(p->rows, c * sizeof(*n));
		if (!n)
			return NULL;
		p->rows = n, p->cap = c;
	}
	struct pq_row *r = &p->rows[p->nrows];
	memset(r, 0, sizeof(*r));
	for (unsigned e = 0; e < PQ_MAXEV; e++)
		r->run[e] = r->ena[e] = -1;
	r->instance = strdup(inst), r->job = strdup(job), r->comm = strdup(comm);
	if (!r->instance || !r->job || !r->comm) {
		free(r->instance), free(r->job), free(r->comm);
		return NULL;
	}
	slot_put(p, p->nrows++);
	return r;
}

static void row_drop(struct pq *p, size_t i)
{
	free(p->rows[i].instance), free(p->rows[i].job), free(p->rows[i].comm);
	p->rows[i] = p->rows[--p->nrows];
	p->restale = true;
}

/* A target of the up query's answer: whether it answered its last scrape, the events it
 * says it cannot count (pmutop_event_unavailable_info), whether it has rows. */
struct pq_target {
	const char *inst, *job;
	bool up, down; /* up is 1; up is another number (neither: no number) */
	bool has_rows;
	bool na[PQ_MAXEV];
};

static int target_cmp(const void *a, const void *b)
{
	const struct pq_target *x = a, *y = b;
	int c = strcmp(x->inst, y->inst);
	return c ? c : strcmp(x->job, y->job);
}

static struct pq_target *target_of(struct pq_target *t, size_t n, const char *inst, const char *job)
{
	struct pq_target key = {.inst = inst, .job = job};
	return n ? bsearch(&key, t, n, sizeof(*t), target_cmp) : NULL;
}

/* The rows from the answers into the model. */
static int publish(struct pq *p)
{
	long first = mstore_reserve(&p->st, p->nrows, p->nev, p->nev);
	if (first < 0)
		return (int)first;
	p->m.fleet_cgroups = p->cg;
	p->m.fleet_rows = 0;
	for (size_t i = 0; i < p->nrows; i++) {
		const struct pq_row *q = &p->rows[i];
		p->m.fleet_rows += !q->mark;
		struct mrow_w h = mstore_row(&p->st, i);
		h.r->kind = p->cg ? ROW_CGROUP : ROW_PROC;
		h.r->comm = p->cg && q->name[0] ? q->name : q->comm;
		h.r->cgroup = p->cg ? (q->name[0] ? q->comm : "") : NULL;
		h.r->instance = q->instance;
		h.r->job = q->job;
		h.r->user = "";
		for (unsigned e = 0; e < p->nev; e++) {
			h.g[e] = (struct val_delta){0};
			/* stale: its target down, or counted but how long it ran is not in this
			 * tick's answers */
			bool stale = q->down ||
				     (!q->na[e] && q->have[e] && (q->run[e] < 0 || q->ena[e] < 0));
			if (stale)
				h.v[e] = val_missing(VAL_NC, WHY_STALE);
			else if (q->na[e])
				h.v[e] = val_missing(VAL_NA, WHY_UNSUPPORTED);
			else if (!q->have[e])
				h.v[e] = val_missing(VAL_NC, WHY_NOT_RUN);
			else {
				double ena = q->ena[e] * 1e9, run = q->run[e] * 1e9;
				h.g[e] = (struct val_delta){.ena = (uint64_t)ena,
							    .run = (uint64_t)run};
				h.v[e] = (struct val){.v = q->val[e], .state = VAL_EXACT};
				if (ena > 0 && run < ena * 0.999) {
					h.v[e].state = run > 0 ? VAL_SCALED : VAL_NC;
					h.v[e].why = run > 0 ? WHY_NONE : WHY_NOT_RUN;
					h.v[e].run_pm =
						run > 0 ? val_pm_some(run / ena * 1000.0) : 0;
				} else
					h.v[e].run_pm = 1000;
			}
		}
	}
	p->m.nrows = (unsigned)p->nrows;
	p->m.rows = p->st.rows;
	p->m.nevents = p->nev;
	p->m.events = p->ev;
	p->m.ngroups = p->nev;
	p->m.groups = p->gr;
	return 0;
}

/* The rows' values of rate answer q (Q_COUNT, Q_RUN or Q_ENA) over a window of w s. */
static int take_rates(struct pq *p, int q, struct json_object *res, long w)
{
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		struct json_object *s = json_object_array_get_idx(res, i);
		double v;
		int e = event_at(p, label(s, "event"), label(s, "group"));
		const char *key = label(s, p->cg ? "cgroup" : "comm");
		struct pq_row *r = row_at(p, label(s, "instance"), label(s, "job"), key);
		if (!r)
			return -ENOMEM;
		if (p->cg && !r->name[0])
			cgroup_name(key, r->name, sizeof(r->name));
		if (e < 0 || !sample(s, &v))
			continue;
		r->seen = true;
		v *= (double)w; /* a rate over the window: the tick's share */
		if (q == Q_COUNT) {
			/* task-clock comes in seconds; the model counts it in ns */
			r->val[e] = role_of(p->name[e], "") == ROLE_TASK_CLOCK ? v * 1e9 : v;
			r->have[e] = true;
		} else if (q == Q_RUN)
			r->run[e] = v;
		else
			r->ena[e] = v;
	}
	return 0;
}

/* One tick: the five queries over the window since the last, into the rows. */
static int pq_query(struct pq *p, char *err, size_t errlen)
{
	double now = now_s(), el = p->last > 0 ? now - p->last : p->interval;
	long w = (long)(el + 0.5) < 1 ? 1 : (long)(el + 0.5);
	struct json_object *root[Q_N] = {0}, *res[Q_N] = {0};
	struct pq_target *tg = NULL;
	size_t ntg = 0;
	int rc = 0;
	if (p->cg != p->cg_asked) { /* the other kind of rows: none of these stays */
		while (p->nrows)
			row_drop(p, p->nrows - 1);
		p->cg = p->cg_asked;
	}
	for (size_t i = 0; i < p->nrows; i++) {
		struct pq_row *r = &p->rows[i];
		r->seen = false;
		memset(r->have, 0, sizeof(r->have));
		memset(r->na, 0, sizeof(r->na));
		for (unsigned e = 0; e < PQ_MAXEV; e++)
			r->run[e] = r->ena[e] = -1; /* not in this tick's answers (yet) */
	}
	/* each rate answer into the rows as it comes, and freed: at a thousand hosts each is
	 * megabytes of JSON. An answer missing marks every row n/c (pq_tick). */
	for (int q = 0; q < Q_N && !rc; q++) {
		int qrc;
		if (!(res[q] = run_query(p, q, w, &root[q], &qrc, err, errlen)))
			rc = qrc == -EINTR ? -EINTR : -EIO; /* -EINTR: the run ends */
		else if (q <= Q_ENA) {
			rc = take_rates(p, q, res[q], w);
			json_object_put(root[q]);
			root[q] = res[q] = NULL;
		}
	}
	if (rc)
		goto out;
	/* the targets, sorted to be found by each row */
	ntg = json_object_array_length(res[Q_UP]);
	if (ntg && !(tg = calloc(ntg, sizeof(*tg)))) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < ntg; i++) {
		struct json_object *s = json_object_array_get_idx(res[Q_UP], i);
		double v;
		bool have = sample(s, &v);
		tg[i] = (struct pq_target){.inst = label(s, "instance"),
					   .job = label(s, "job"),
					   .up = have && v == 1,
					   .down = have && v != 1};
	}
	if (ntg)
		qsort(tg, ntg, sizeof(*tg), target_cmp);
	for (size_t i = 0; i < json_object_array_length(res[Q_NA]); i++) {
		struct json_object *s = json_object_array_get_idx(res[Q_NA], i);
		int e = event_at(p, label(s, "event"), label(s, "group"));
		struct pq_target *t = target_of(tg, ntg, label(s, "instance"), label(s, "job"));
		if (e >= 0 && t)
			t->na[e] = true;
	}
	for (size_t i = 0; i < p->nrows; i++) {
		struct pq_target *t = target_of(tg, ntg, p->rows[i].instance, p->rows[i].job);
		if (t)
			t->has_rows = true;
	}
	/* a target down with no rows known: one row that says so */
	for (size_t i = 0; i < ntg; i++) {
		struct pq_row *r;
		if (!tg[i].down || tg[i].has_rows)
			continue;
		if (!(r = row_at(p, tg[i].inst, tg[i].job, "[target down]"))) {
			rc = -ENOMEM;
			goto out;
		}
		r->mark = true;
	}
	for (size_t i = p->nrows; i-- > 0;) {
		struct pq_row *r = &p->rows[i];
		const struct pq_target *t = target_of(tg, ntg, r->instance, r->job);
		r->down = !t || !t->up;
		if (t)
			memcpy(r->na, t->na, sizeof(r->na));
		/* not in this tick's answers: a command gone from a host that answers, or a
		 * target Prometheus no longer scrapes (gone from up and its series stale:
		 * removed, or replaced under another address); a target down keeps its rows */
		if (!r->seen && (!r->down || !t))
			row_drop(p, i);
	}
	p->m.elapsed = (double)w;
	p->m.time += p->m.tick ? (double)w : 0;
	p->m.tick++;
	p->last = now;
	rc = publish(p);
	size_t ndown = 0;
	for (size_t i = 0; i < json_object_array_length(res[Q_UP]); i++) {
		double v;
		if (sample(json_object_array_get_idx(res[Q_UP], i), &v) && v != 1)
			ndown++;
	}
	p->m.fleet_down = (unsigned)ndown;
	p->m.fleet_up = (unsigned)(json_object_array_length(res[Q_UP]) - ndown);
	size_t ntarget = json_object_array_length(res[Q_UP]);
	if (ndown == ntarget && ndown)
		snprintf(p->notice, sizeof(p->notice),
			 "all %zu targets down: their rows n/c (stale)", ndown);
	else if (ndown)
		snprintf(p->notice, sizeof(p->notice), "%zu of %zu targets down: their rows n/c",
			 ndown, ntarget);
	p->m.source_notice = ndown ? p->notice : NULL;
out:
	free(tg);
	for (int q = 0; q < Q_N; q++)
		json_object_put(root[q]);
	return rc;
}

static int pq_tick(struct source *s)
{
	struct pq *p = (struct pq *)s;
	char err[512];
	int rc = pq_query(p, err, sizeof(err));
	if (rc == -EINTR) /* the run ends: no tick */
		return rc;
	if (rc) {
		/* Prometheus not answering: every row n/c, said in one line. */
		for (size_t i = 0; i < p->nrows; i++)
			p->rows[i].down = true;
		p->m.fleet_down += p->m.fleet_up;
		p->m.fleet_up = 0;
		snprintf(p->notice, sizeof(p->notice), "%s", err);
		p->m.source_notice = p->notice;
		p->m.tick++;
		return publish(p);
	}
	return 0;
}

static const struct model *pq_model(const struct source *s)
{
	return &((const struct pq *)s)->m;
}

static int pq_control(struct source *s, enum source_ctl what, const void *arg)
{
	const struct pq *p = (const struct pq *)s;
	if (what == SRC_OPEN_FDS) {
		*(unsigned *)arg = 0;
		return 0;
	}
	if (what == SRC_REMOTE) {
		*(const char **)arg = p->url;
		return 0;
	}
	if (what == SRC_PAUSE) { /* nothing counts here: the queries stop with the loop, and
				    the first tick after is over one interval, not the pause */
		if (!*(const bool *)arg)
			((struct pq *)s)->last = 0;
		return 0;
	}
	if (what == SRC_CGROUP_ROWS) { /* from the next tick on (G ticks at once) */
		((struct pq *)s)->cg_asked = *(const bool *)arg;
		return 0;
	}
	if (what == SRC_INTERVAL) {
		((struct pq *)s)->interval = *(const double *)arg;
		((struct pq *)s)->m.interval = *(const double *)arg;
		return 0;
	}
	return -ENOTSUP;
}

static void pq_free(struct source *s)
{
	struct pq *p = (struct pq *)s;
	if (!p)
		return;
	while (p->nrows)
		row_drop(p, p->nrows - 1);
	free(p->rows);
	free(p->slot);
	mstore_free(&p->st);
	fetch_free(p->f);
	free(p->url);
	free(p->match);
	free(p);
}

static const struct source_ops pq_ops = {.name = "prometheus",
					 .caps = SRC_CAN_COUNT,
					 .tick = pq_tick,
					 .model = pq_model,
					 .control = pq_control,
					 .free = pq_free};

struct source *promqsrc_new(const char *url, const char *match, const char *config, double interval,
			    bool cgroups, char *err, size_t errlen)
{
	if (!fetch_url_ok(url)) {
		snprintf(err, errlen, "%s: give http://HOST:PORT or https://HOST:PORT", url);
		return NULL;
	}
	struct fetch_cfg *cfg = NULL;
	if (config && fetch_cfg_load(config, &cfg, err, errlen))
		return NULL;
	struct pq *p = calloc(1, sizeof(*p));
	if (!p || !(p->url = strdup(url)) || !(p->match = strdup(match ? match : ""))) {
		if (p)
			free(p->url);
		free(p);
		fetch_cfg_free(cfg);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->base.ops = &pq_ops;
	size_t n = strlen(p->url);
	while (n > 0 && p->url[n - 1] == '/')
		p->url[--n] = '\0';
	/* {job="x"} and job="x" alike */
	n = strlen(p->match);
	if (n >= 2 && p->match[0] == '{' && p->match[n - 1] == '}') {
		memmove(p->match, p->match + 1, n - 2);
		p->match[n - 2] = '\0';
	}
	p->cg = p->cg_asked = cgroups;
	p->interval = interval > 0 ? interval : 2;
	p->m.interval = p->interval;
	p->m.hostname = p->url;
	p->m.kernel = "";
	p->m.exit_status = -1;
	p->m.backend = "prometheus";
	p->m.fleet = true;
	p->f = fetch_new(cfg, err, errlen);
	fetch_cfg_free(cfg);
	if (!p->f || pq_query(p, err, errlen)) {
		pq_free(&p->base);
		return NULL;
	}
	p->m.tick = 0; /* the first answer primes the window; tick 1 is the next */
	return &p->base;
}
