/* The exporter's totals: per target and event, the sum of every tick's values and group
 * times since the target was first seen. Targets live in one open-addressing table; an
 * update in steady state (no new target, none gone) allocates nothing. A command series
 * sums its processes' intervals as they come, so an exited process stays in its totals
 * and they never go down while the series lives. */
#include "promacc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgrows.h"
#include "metricbind.h"

#define COMM_MAX 64

struct series {
	enum promacc_kind kind;
	pid_t pid;
	int cpu;
	char *cgroup;	   /* heap; PROMACC_CGROUP and PROMACC_COMM: part of its key */
	uint64_t seen;	   /* the last update that had its row */
	double seen_time;  /* the model's time then (PROMACC_COMM: for the linger) */
	bool exited;	   /* its final totals are in */
	bool shown_exited; /* exported in an exposition built after its exit */
	bool exported;	   /* in this update's export list */
	bool watched;
	char comm[COMM_MAX]; /* PROMACC_COMM: part of its key */
	double *val;
	uint64_t *ena, *run;
	bool *counted;
	double *mval; /* the chosen metrics over the last interval it had a row */
	bool *mhas;
};

struct promacc {
	struct promacc_opts o;
	pid_t *watched;
	uint64_t tick;
	unsigned nev;
	char **evkey, **evname, **evgroup;
	bool *evsecs;
	uint8_t *evwhy;
	int clock;	/* task-clock's index: the --top rank, or -1 */
	unsigned ncomm; /* command series held */
	double now;	/* the model's time at the last update */
	unsigned nmet;	/* the model's metrics (metricbind.h) */
	char **mname, **mhelp;
	struct series **all; /* every target */
	unsigned n, cap;
	struct series **tab; /* hash of all[] by kind and id; tcap a power of two */
	unsigned tcap;
	struct series **out; /* the export list; capacity cap */
	unsigned nout;
	struct series **scratch;
	struct cgrows *cg; /* cgroup rows summed from the process rows */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* What identifies a target: pid, cpu, cgroup path, or (command) cgroup and comm. */
struct key {
	enum promacc_kind k;
	pid_t pid;
	int cpu;
	const char *cg, *comm;
};

static uint64_t series_hash(const struct key *y)
{
	uint64_t h = y->k == PROMACC_PROC  ? (uint64_t)(uint32_t)y->pid
		     : y->k == PROMACC_CPU ? (uint64_t)(uint32_t)y->cpu
		     : y->k == PROMACC_CGROUP
			     ? hash_str(y->cg)
			     : hash_str(y->cg ? y->cg : "") ^ (hash_str(y->comm) * 31);
	h = (h ^ ((uint64_t)y->k << 32)) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static bool same_str(const char *x, const char *y)
{
	return x == y || (x && y && strcmp(x, y) == 0);
}

static bool series_is(const struct series *s, const struct key *y)
{
	if (s->kind != y->k)
		return false;
	if (y->k == PROMACC_PROC)
		return s->pid == y->pid;
	if (y->k == PROMACC_CPU)
		return s->cpu == y->cpu;
	if (y->k == PROMACC_CGROUP)
		return strcmp(s->cgroup, y->cg) == 0;
	return same_str(s->cgroup, y->cg) && strcmp(s->comm, y->comm) == 0;
}

static struct key key_of(const struct series *s)
{
	return (struct key){s->kind, s->pid, s->cpu, s->cgroup, s->comm};
}

static struct series **slot(struct promacc *a, const struct key *y)
{
	unsigned mask = a->tcap - 1;
	unsigned i = (unsigned)series_hash(y) & mask;
	while (a->tab[i] && !series_is(a->tab[i], y))
		i = (i + 1) & mask;
	return &a->tab[i];
}

static void rehash(struct promacc *a)
{
	memset(a->tab, 0, a->tcap * sizeof(*a->tab));
	for (unsigned i = 0; i < a->n; i++) {
		struct key y = key_of(a->all[i]);
		*slot(a, &y) = a->all[i];
	}
}

/* Room for one more target: the table stays at most half full. */
static int grow(struct promacc *a)
{
	if (a->tab && a->n < a->cap && 2 * (a->n + 1) <= a->tcap)
		return 0;
	unsigned cap = a->cap ? 2 * a->cap : 64;
	struct series **all = realloc(a->all, cap * sizeof(*all));
	if (!all)
		return -ENOMEM;
	a->all = all;
	struct series **out = realloc(a->out, cap * sizeof(*out));
	if (!out)
		return -ENOMEM;
	a->out = out;
	struct series **scr = realloc(a->scratch, cap * sizeof(*scr));
	if (!scr)
		return -ENOMEM;
	a->scratch = scr;
	struct series **tab = calloc(2 * (size_t)cap, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	free(a->tab);
	a->tab = tab;
	a->tcap = 2 * cap;
	a->cap = cap;
	rehash(a);
	return 0;
}

static void series_free(struct series *s)
{
	if (!s)
		return;
	free(s->cgroup);
	free(s);
}

static void series_zero(struct series *s, unsigned nev, unsigned nmet)
{
	memset(s->val, 0, nev * sizeof(double));
	memset(s->ena, 0, nev * sizeof(uint64_t));
	memset(s->run, 0, nev * sizeof(uint64_t));
	memset(s->counted, 0, nev * sizeof(bool));
	memset(s->mval, 0, nmet * sizeof(double));
	memset(s->mhas, 0, nmet * sizeof(bool));
	s->exited = s->shown_exited = s->exported = false;
}

static struct series *series_new(unsigned nev, unsigned nmet)
{
	size_t sz = sizeof(struct series) + (nev + nmet) * sizeof(double) +
		    2 * nev * sizeof(uint64_t) + (nev + nmet) * sizeof(bool);
	struct series *s = calloc(1, sz);
	if (!s)
		return NULL;
	void *val = s + 1, *ena = (char *)val + (nev + nmet) * sizeof(double);
	s->val = val;
	s->mval = s->val + nev;
	s->ena = ena;
	s->run = s->ena + nev;
	s->counted = (bool *)(s->run + nev);
	s->mhas = s->counted + nev;
	return s;
}

static void set_text(char *dst, const char *src)
{
	if (!src)
		src = "";
	if (strncmp(dst, src, COMM_MAX - 1) != 0)
		snprintf(dst, COMM_MAX, "%s", src);
}

/* A cgroup label that moves with the process; reallocated only when it changes. */
static int set_cgroup(struct series *s, const char *cg)
{
	if (!cg) {
		free(s->cgroup);
		s->cgroup = NULL;
		return 0;
	}
	if (s->cgroup && strcmp(s->cgroup, cg) == 0)
		return 0;
	char *c = strdup(cg);
	if (!c)
		return -ENOMEM;
	free(s->cgroup);
	s->cgroup = c;
	return 0;
}

static void drop_all(struct promacc *a)
{
	for (unsigned i = 0; i < a->n; i++)
		series_free(a->all[i]);
	a->n = a->nout = 0;
	if (a->tab)
		memset(a->tab, 0, a->tcap * sizeof(*a->tab));
	a->ncomm = 0;
	for (unsigned i = 0; i < a->nev; i++) {
		free(a->evkey[i]);
		free(a->evname[i]);
		free(a->evgroup[i]);
	}
	free(a->evkey);
	free(a->evname);
	free(a->evgroup);
	free(a->evsecs);
	free(a->evwhy);
	a->evkey = a->evname = a->evgroup = NULL;
	a->evsecs = NULL;
	a->evwhy = NULL;
	a->nev = 0;
	for (unsigned k = 0; k < a->nmet; k++) {
		free(a->mname[k]);
		free(a->mhelp[k]);
	}
	free(a->mname);
	free(a->mhelp);
	a->mname = a->mhelp = NULL;
	a->nmet = 0;
}

/* The model's events by name, in order; the totals of another set mean nothing. */
static bool same_events(const struct promacc *a, const struct model *m)
{
	if (m->nevents != a->nev || metric_bind_count(m->metrics) != a->nmet)
		return false;
	for (unsigned i = 0; i < a->nev; i++)
		if (strcmp(a->evkey[i], m->events[i].key) != 0)
			return false;
	return true;
}

/* name, or name:MODIFIERS */
static bool is_named(const char *ev, const char *name)
{
	size_t n = strlen(name);
	return strncmp(ev, name, n) == 0 && (ev[n] == '\0' || ev[n] == ':');
}

/* An event whose name repeats in the set: the key of its group's first member. */
static const char *group_of(const struct model *m, unsigned i)
{
	const struct mevent *e = &m->events[i];
	bool repeats = false;
	for (unsigned j = 0; j < m->nevents && !repeats; j++)
		repeats = j != i && strcmp(m->events[j].name, e->name) == 0;
	if (!repeats)
		return NULL;
	if (e->group < m->ngroups && m->groups[e->group].first < m->nevents)
		return m->events[m->groups[e->group].first].key;
	return e->key;
}

/* A family name's part for each metric (Prometheus names: letters, digits, '_'), and
 * its help: what it is, over which time, in which unit. */
static int take_metrics(struct promacc *a, const struct model *m)
{
	unsigned n = metric_bind_count(m->metrics);
	a->mname = calloc(n + 1, sizeof(*a->mname));
	a->mhelp = calloc(n + 1, sizeof(*a->mhelp));
	if (!a->mname || !a->mhelp)
		return -ENOMEM;
	for (unsigned k = 0; k < n; k++) {
		const struct metric_def *d = metric_bind_def(m->metrics, k);
		const char *id = metric_bind_name(m->metrics, k);
		bool pct = metric_bind_is_pct(m->metrics, k);
		size_t len = strlen(id) + 8;
		char help[512];
		snprintf(help, sizeof(help), "%s, over the last interval (metric %s%s%s).",
			 d->desc ? d->desc : d->name, id, pct ? ", a ratio: 1 is 100%" : "",
			 d->pmu ? ", on that core type" : "");
		a->mname[k] = malloc(len);
		a->mhelp[k] = strdup(help);
		a->nmet = k + 1;
		if (!a->mname[k] || !a->mhelp[k])
			return -ENOMEM;
		size_t j = 0;
		for (const char *p = id; *p; p++)
			a->mname[k][j++] = isalnum((unsigned char)*p) ? *p : '_';
		a->mname[k][j] = '\0';
		if (pct)
			snprintf(a->mname[k] + j, len - j, "_ratio");
	}
	return 0;
}

static int take_events(struct promacc *a, const struct model *m)
{
	drop_all(a);
	unsigned n = m->nevents, k = n ? n : 1;
	a->evkey = calloc(k, sizeof(*a->evkey));
	a->evname = calloc(k, sizeof(*a->evname));
	a->evgroup = calloc(k, sizeof(*a->evgroup));
	a->evsecs = calloc(k, sizeof(*a->evsecs));
	a->evwhy = calloc(k, sizeof(*a->evwhy));
	a->nev = n; /* drop_all frees what is there */
	if (!a->evkey || !a->evname || !a->evgroup || !a->evsecs || !a->evwhy) {
		a->nev = 0;
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct mevent *e = &m->events[i];
		const char *g = group_of(m, i);
		a->evkey[i] = strdup(e->key);
		a->evname[i] = strdup(e->name);
		a->evgroup[i] = g ? strdup(g) : NULL;
		if (!a->evkey[i] || !a->evname[i] || (g && !a->evgroup[i]))
			return -ENOMEM;
		a->evsecs[i] = e->role == ROLE_TASK_CLOCK || is_named(e->name, "task-clock") ||
			       is_named(e->name, "cpu-clock");
	}
	return take_metrics(a, m);
}

struct promacc *promacc_new(const struct promacc_opts *o)
{
	struct promacc *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->o = *o;
	a->o.watched = NULL;
	if (o->nwatched) {
		a->watched = calloc(o->nwatched, sizeof(pid_t));
		if (!a->watched) {
			free(a);
			return NULL;
		}
		memcpy(a->watched, o->watched, o->nwatched * sizeof(pid_t));
	}
	return a;
}

void promacc_free(struct promacc *a)
{
	if (!a)
		return;
	drop_all(a);
	free(a->all);
	free(a->out);
	free(a->scratch);
	free(a->tab);
	free(a->watched);
	cgrows_free(a->cg);
	free(a);
}

static bool is_watched(const struct promacc *a, pid_t pid)
{
	for (unsigned i = 0; i < a->o.nwatched; i++)
		if (a->watched[i] == pid)
			return true;
	return false;
}

/* The target of a row, created at its first sight. A process whose earlier life is still
 * held (pid reused after its exit) starts from zero: a new series. A command beyond
 * PROMACC_MAX_COMMANDS goes to the PROMACC_OTHER one. */
static struct series *find(struct promacc *a, enum promacc_kind k, const struct mrow *r)
{
	struct key y = {k, k == PROMACC_PROC ? r->pid : 0, k == PROMACC_CPU ? r->cpu : -1,
			k == PROMACC_CGROUP || k == PROMACC_COMM ? r->cgroup : NULL,
			k == PROMACC_COMM ? (r->comm ? r->comm : "") : NULL};
	char comm[COMM_MAX];
	if (y.comm) { /* as kept: cut to COMM_MAX - 1 bytes */
		snprintf(comm, sizeof(comm), "%s", y.comm);
		y.comm = comm;
	}
	if ((k == PROMACC_CGROUP && !y.cg) || (!a->tab && grow(a)))
		return NULL;
	struct series **sl = slot(a, &y);
	if (!*sl && k == PROMACC_COMM && a->ncomm >= PROMACC_MAX_COMMANDS) {
		y.cg = NULL;
		y.comm = PROMACC_OTHER;
		sl = slot(a, &y);
	}
	if (*sl) {
		if ((*sl)->exited)
			series_zero(*sl, a->nev, a->nmet);
		return *sl;
	}
	if (grow(a))
		return NULL;
	sl = slot(a, &y);
	struct series *s = series_new(a->nev, a->nmet);
	if (!s)
		return NULL;
	s->kind = k;
	s->pid = y.pid;
	s->cpu = y.cpu;
	s->watched = k == PROMACC_PROC && is_watched(a, r->pid);
	if (y.comm)
		set_text(s->comm, y.comm);
	if (y.cg && set_cgroup(s, y.cg)) {
		series_free(s);
		return NULL;
	}
	*sl = s;
	a->all[a->n++] = s;
	a->ncomm += k == PROMACC_COMM;
	return s;
}

static void add_row(struct promacc *a, struct series *s, const struct mrow *r,
		    const struct model *m)
{
	s->seen = a->tick;
	s->seen_time = m->time;
	if (s->kind == PROMACC_PROC) {
		set_text(s->comm, r->comm);
		set_cgroup(s, r->cgroup); /* on failure the old label stays */
	}
	for (unsigned i = 0; i < a->nev; i++) {
		struct val v = r->v[i];
		if (v.state == VAL_NA)
			continue;
		s->counted[i] = true;
		if (val_has_number(v))
			s->val[i] += v.v;
		if (r->g) {
			/* A partial sum adds what its parts counted, and enabled time for the
			 * parts that did not count too: running / enabled then says the share
			 * counted, never a lower bound passed off as a whole interval's. */
			const struct val_delta *g = &r->g[m->events[i].group];
			double ena = (double)g->ena;
			if (v.state == VAL_PARTIAL && v.run_pm > 0)
				ena = ena * 1000.0 / v.run_pm;
			s->ena[i] += (uint64_t)ena;
			s->run[i] += g->run;
		}
	}
	/* Metrics: the last interval's value, a share as a ratio (not the screen's %); a
	 * command's processes have one each, which do not add up: none. */
	for (unsigned k = 0; k < a->nmet && s->kind != PROMACC_COMM; k++) {
		struct val v = metric_bind_raw(m->metrics, m, r, k);
		s->mhas[k] = val_has_number(v);
		s->mval[k] = v.v;
	}
	if (r->exited && !s->exited && s->kind != PROMACC_COMM) {
		s->exited = true;
		s->shown_exited = false;
	}
}

/* Targets that had exited: at once when they were not exported; else when an exposition
 * built after their exit has been served. Commands: when no process of theirs has been
 * seen for PROMACC_LINGER_S (their totals have not moved since). */
static void drop_exited(struct promacc *a, bool scraped)
{
	unsigned k = 0;
	for (unsigned i = 0; i < a->n; i++) {
		struct series *s = a->all[i];
		bool gone = s->kind == PROMACC_COMM
				    ? a->now - s->seen_time > PROMACC_LINGER_S
				    : s->exited && (!s->exported || (scraped && s->shown_exited));
		if (gone) {
			a->ncomm -= s->kind == PROMACC_COMM;
			series_free(s);
		} else {
			a->all[k++] = s;
		}
	}
	if (k != a->n) {
		a->n = k;
		rehash(a);
	}
}

/* The most task-clock since first seen first: a short-lived process rarely displaces a
 * long-lived one. ctx: task-clock's index, or -1. */
static int by_busy(const void *x, const void *y, void *ctx)
{
	const struct series *a = *(struct series *const *)x, *b = *(struct series *const *)y;
	int c = *(const int *)ctx;
	double ba = c >= 0 ? a->val[c] : 0, bb = c >= 0 ? b->val[c] : 0;
	if (ba != bb)
		return ba > bb ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static int by_order(const void *x, const void *y)
{
	const struct series *a = *(struct series *const *)x, *b = *(struct series *const *)y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == PROMACC_PROC)
		return a->pid < b->pid ? -1 : a->pid > b->pid;
	if (a->kind == PROMACC_CPU)
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	if (a->kind == PROMACC_CGROUP)
		return strcmp(a->cgroup, b->cgroup);
	int c = strcmp(a->cgroup ? a->cgroup : "", b->cgroup ? b->cgroup : "");
	return c ? c : strcmp(a->comm, b->comm);
}

/* Processes: the watched ones, the ones chosen before while they live (a stable
 * selection), free places to the others with the most task-clock, and the ones exported
 * when they exited (their final totals are seen once); then every command, cgroup and
 * CPU. */
static void choose(struct promacc *a)
{
	unsigned nc = 0, no = 0, kept = 0;
	for (unsigned i = 0; i < a->n; i++) {
		struct series *s = a->all[i];
		bool stay = s->kind == PROMACC_PROC && !s->watched && s->exported && !s->exited;
		bool keep = s->kind != PROMACC_PROC || s->watched || s->exported;
		if (stay && kept >= a->o.top)
			keep = false;
		kept += stay && keep;
		if (s->exited && s->exported)
			s->shown_exited = true;
		if (keep)
			a->out[no++] = s;
		else if (!s->exited)
			a->scratch[nc++] = s;
		s->exported = keep;
	}
	unsigned room = a->o.top - kept;
	if (nc > room) {
		qsort_r(a->scratch, nc, sizeof(*a->scratch), by_busy, &a->clock);
		nc = room;
	}
	for (unsigned i = 0; i < nc; i++) {
		a->scratch[i]->exported = true;
		a->out[no++] = a->scratch[i];
	}
	qsort(a->out, no, sizeof(*a->out), by_order);
	a->nout = no;
}

int promacc_set_events(struct promacc *a, const struct model *m)
{
	if (!same_events(a, m)) {
		int err = take_events(a, m);
		if (err)
			return err;
	}
	for (unsigned i = 0; i < a->nev; i++)
		a->evwhy[i] = m->events[i].status;
	return 0;
}

int promacc_update(struct promacc *a, const struct model *m, bool scraped)
{
	int err = promacc_set_events(a, m);
	if (err)
		return err;
	a->now = m->time;
	drop_exited(a, scraped);
	a->tick++;
	a->clock = model_role(m, ROLE_TASK_CLOCK);
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct mrow *r = &m->rows[i];
		if (r->kind == ROW_CGROUP) {
			struct series *s = find(a, PROMACC_CGROUP, r);
			if (s)
				add_row(a, s, r, m);
			else if (r->cgroup)
				err = -ENOMEM;
			continue;
		}
		if (r->kind != ROW_PROC)
			continue;
		struct series *s = find(a, PROMACC_COMM, r);
		if (s)
			add_row(a, s, r, m);
		else
			err = -ENOMEM;
		/* Per-pid totals only where they may be exported. */
		if (!a->o.top && !is_watched(a, r->pid))
			continue;
		s = find(a, PROMACC_PROC, r);
		if (s)
			add_row(a, s, r, m);
		else
			err = -ENOMEM;
	}
	for (unsigned i = 0; a->o.per_cpu && i < m->ncpu_rows; i++) {
		struct series *s = find(a, PROMACC_CPU, &m->cpu_rows[i]);
		if (!s) {
			err = -ENOMEM;
			continue;
		}
		add_row(a, s, &m->cpu_rows[i], m);
	}
	/* Cgroups: the model's own cgroup rows (-G), or the process rows summed per cgroup
	 * and its ancestors, as the screen's and --cgroups' rows. */
	bool own = false;
	for (unsigned i = 0; i < m->nrows && !own; i++)
		own = m->rows[i].kind == ROW_CGROUP;
	unsigned ncg = 0;
	const struct mrow *cg = NULL;
	if (!own && m->nrows && (a->cg || (a->cg = cgrows_new())))
		cg = cgrows_build(a->cg, m, &ncg);
	for (unsigned i = 0; i < ncg; i++) {
		struct series *s = find(a, PROMACC_CGROUP, &cg[i]);
		if (!s) {
			err = -ENOMEM;
			continue;
		}
		add_row(a, s, &cg[i], m);
	}
	/* A target whose row is gone without an exit mark has ended too. */
	for (unsigned i = 0; i < a->n; i++)
		if (a->all[i]->seen != a->tick && !a->all[i]->exited &&
		    a->all[i]->kind != PROMACC_COMM) {
			a->all[i]->exited = true;
			a->all[i]->shown_exited = false;
		}
	choose(a);
	return err;
}

unsigned promacc_nevents(const struct promacc *a)
{
	return a->nev;
}

const char *promacc_event_name(const struct promacc *a, unsigned i)
{
	return a->evname[i];
}

const char *promacc_event_group(const struct promacc *a, unsigned i)
{
	return a->evgroup[i];
}

bool promacc_event_seconds(const struct promacc *a, unsigned i)
{
	return a->evsecs[i];
}

unsigned promacc_event_why(const struct promacc *a, unsigned i)
{
	return a->evwhy[i];
}

unsigned promacc_nmetrics(const struct promacc *a)
{
	return a->nmet;
}

const char *promacc_metric_name(const struct promacc *a, unsigned k)
{
	return a->mname[k];
}

const char *promacc_metric_help(const struct promacc *a, unsigned k)
{
	return a->mhelp[k];
}

unsigned promacc_count(const struct promacc *a)
{
	return a->nout;
}

unsigned promacc_targets(const struct promacc *a)
{
	return a->n;
}

void promacc_get(const struct promacc *a, unsigned i, struct promacc_series *out)
{
	const struct series *s = a->out[i];
	out->kind = s->kind;
	out->pid = s->pid;
	out->cpu = s->cpu;
	out->comm = s->comm;
	out->cgroup = s->cgroup;
	out->val = s->val;
	out->ena = s->ena;
	out->run = s->run;
	out->counted = s->counted;
	out->mval = s->mval;
	out->mhas = s->mhas;
}
