/* Event specifications in perf stat -e syntax, parsed into groups of perf_event_attr.
 * Two passes: evsyntax splits groups and events and reports every structural error, so
 * a bad brace is reported as such even next to an unknown name; then each event is
 * resolved into an attr here. Nothing reaches the caller's list before both succeed. */
#include "evspec.h"

#include "evnames.h"
#include "evpfm.h"
#include "evsyntax.h"
#include "evtrace.h"
#include "pmu.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Privilege levels as perf sets them: naming any of u/k/h excludes the others. An event
 * that already chose levels keeps them and gains the new ones ({cycles:k}:u counts both). */
static void evspec_mods_apply(const struct evsyntax_mod *m, struct evdesc *d)
{
	struct perf_event_attr *a = &d->attr;

	if (m->u || m->k || m->h) {
		if (d->explicit_plm) {
			a->exclude_user = a->exclude_user && !m->u;
			a->exclude_kernel = a->exclude_kernel && !m->k;
			a->exclude_hv = a->exclude_hv && !m->h;
		} else {
			a->exclude_user = !m->u;
			a->exclude_kernel = !m->k;
			a->exclude_hv = !m->h;
		}
		d->explicit_plm = true;
	}
	if (m->idle)
		a->exclude_idle = 1;
	if (m->guest_only)
		a->exclude_host = 1;
	if (m->host_only)
		a->exclude_guest = 1;
}

/* Parse and apply the modifiers m[0..n) of the event at offset base of its text. */
static int evspec_mods(const char *m, size_t n, size_t base, struct evdesc *d,
		       struct evspec_err *err)
{
	struct evsyntax_mod mod = {0};
	size_t bad;

	if (evsyntax_mods(m, n, &mod, &bad) < 0)
		return evsyntax_fail(err, -EINVAL, base + bad, m + bad, n - bad);
	evspec_mods_apply(&mod, d);
	return 0;
}

static void evspec_name_append(struct evdesc *d, const char *s, size_t n)
{
	size_t l = strlen(d->name);

	if (n > EV_NAME_MAX - 1 - l)
		n = EV_NAME_MAX - 1 - l; /* a display name: cutting it is harmless */
	memcpy(d->name + l, s, n);
	d->name[l + n] = '\0';
}

static unsigned evspec_hexval(char c)
{
	return (unsigned)(isdigit((unsigned char)c) ? c - '0'
						    : tolower((unsigned char)c) - 'a' + 10);
}

/* "r1a2b": a raw event code, at most 64 bits of hex. */
static int evspec_raw(const char *s, size_t n, uint64_t *config)
{
	uint64_t v = 0;

	if (n < 2 || n > 17 || s[0] != 'r')
		return -ENOENT;
	for (size_t i = 1; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -ENOENT;
		v = v << 4 | evspec_hexval(s[i]);
	}
	*config = v;
	return 0;
}

/* 'r' and letters or digits that named nothing: a mistyped raw code rather than an
 * unknown name. *bad is where the hex stops. */
static bool evspec_raw_like(const char *s, size_t n, size_t *bad)
{
	if (n == 0 || s[0] != 'r')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]))
			return false;
	for (*bad = 1; *bad < n && isxdigit((unsigned char)s[*bad]); (*bad)++)
		;
	if (*bad == n) /* all hex, only too long */
		*bad = 1;
	return true;
}

/* Why perf's JSON event name[0..len) of PMU pmu does not encode here, into err->reason:
 * the first field of its terms the PMU's format/ lacks. */
static void evspec_json_why(const struct pmu_set *pmus, unsigned pmu, const char *name, size_t len,
			    struct evspec_err *err)
{
	char alias[EV_NAME_MAX], field[32] = "?";
	const char *terms, *t;
	struct pmu_info pi;
	uint64_t cfg[3];

	if (!err || len >= sizeof(alias) || pmu_set_info(pmus, pmu, &pi) < 0)
		return;
	memcpy(alias, name, len);
	alias[len] = '\0';
	if (!(terms = pmu_set_alias(pmus, pmu, alias)))
		return;
	for (t = terms; *t; t += *t == ',') {
		size_t n = strcspn(t, ","), f = strcspn(t, "=,");
		char one[64];

		if (n < sizeof(one)) {
			memcpy(one, t, n);
			one[n] = '\0';
			if (pmu_set_encode_terms(pmus, pmu, one, cfg) == -ENOENT) {
				snprintf(field, sizeof(field), "%.*s", (int)(f < 31 ? f : 31), t);
				break;
			}
		}
		t += n;
	}
	snprintf(err->reason, sizeof(err->reason),
		 "%s/%s/: perf's encoding %s needs the format field '%s', which %s's sysfs "
		 "format/ does not have",
		 pi.name, alias, terms, field, pi.name);
}

/* A bare name among the sysfs aliases of the core PMU(s), as perf resolves
 * "inst_retired" to armv8_pmuv3/inst_retired/. Hybrid machines: the first core PMU
 * (lowest type) that has it. */
static int evspec_core_alias(const struct pmu_set *pmus, const char *name, struct evdesc *d)
{
	struct pmu_info pi;
	uint64_t cfg[3];
	const char *terms;

	for (unsigned i = 0; i < pmu_set_count(pmus); i++) {
		pmu_set_info(pmus, i, &pi);
		if (!pi.core || pi.type < 0 || !(terms = pmu_set_alias(pmus, i, name)))
			continue;
		if (pmu_set_encode_terms(pmus, i, terms, cfg) < 0)
			return -EINVAL; /* the kernel's alias uses a field we cannot encode */
		d->attr.type = (uint32_t)pi.type;
		d->attr.config = cfg[0];
		d->attr.config1 = cfg[1];
		d->attr.config2 = cfg[2];
		return 0;
	}
	return -ENOENT;
}

/* "pmu::EVENT:UMASK:u=1": libpfm4 reads the whole name, modifiers included. */
static int evspec_pfm(const char *s, struct evdesc *d, struct evspec_err *err)
{
	int ret = evpfm_encode(s, &d->attr, &d->explicit_plm);

	if (ret == -ENODEV)
		ret = -ENOENT; /* no libpfm4 here: as unknown as a wrong name */
	if (ret < 0 && ret != -ENOMEM) {
		ret = evsyntax_fail(err, ret, 0, s, strlen(s));
		if (err)
			evpfm_explain(s, err->reason, sizeof(err->reason));
		return ret;
	}
	d->software = d->attr.type == PERF_TYPE_SOFTWARE;
	return ret;
}

/* The failed term of pmu/terms/: an unknown bare word is an unknown event (and named
 * whole, for suggestions); anything else is a syntax error at the term. */
static int evspec_pmu_term_fail(const char *s, const char *t, size_t evlen, int ret,
				struct evspec_err *err)
{
	size_t tl = strcspn(t, ",/");

	while (tl > 0 && isspace((unsigned char)t[tl - 1]))
		tl--;
	if (ret == -ENOENT && !memchr(t, '=', tl))
		return evsyntax_fail(err, -ENOENT, (size_t)(t - s), s, evlen);
	return evsyntax_fail(err, ret == -ENOMEM ? ret : -EINVAL, (size_t)(t - s), t, tl);
}

/* "pmu/term,term/" then modifiers, with or without a ':' ("cpu/cycles/u"). */
static int evspec_pmu(char *s, const struct pmu_set *pmus, struct evdesc *d, struct evspec_err *err)
{
	char *sl1 = strchr(s, '/'), *sl2 = strchr(sl1 + 1, '/'), *m;
	struct pmu_info pi;
	uint64_t cfg[3];
	size_t epos;
	int idx, ret;

	if (!sl2 || sl1 == s)
		return evsyntax_fail(err, -EINVAL, (size_t)(sl1 - s), sl1, strlen(sl1));
	*sl1 = '\0';
	idx = pmu_set_find(pmus, s);
	if (idx < 0 || pmu_set_info(pmus, (unsigned)idx, &pi) < 0 || pi.type < 0) {
		ret = evsyntax_fail(err, -ENOENT, 0, s, strlen(s));
		if (err && idx >= 0 && pi.present)
			snprintf(
				err->reason, sizeof(err->reason),
				"PMU %s is detected by libpfm4 but not available in the kernel (no "
				"sysfs PMU of that name): use %s::EVENT names, or pmutop --list %s",
				s, s, s);
		else if (err)
			snprintf(err->reason, sizeof(err->reason),
				 "PMU %s is not on this machine (pmutop --list shows the PMUs)", s);
		return ret;
	}
	*sl1 = '/';
	*sl2 = '\0';
	ret = pmu_set_encode_terms_pos(pmus, (unsigned)idx, sl1 + 1, cfg, &epos);
	*sl2 = '/';
	if (ret == -EOPNOTSUPP) {
		const char *t = sl1 + 1 + epos;

		ret = evsyntax_fail(err, -EINVAL, (size_t)(t - s), s, (size_t)(sl2 + 1 - s));
		evspec_json_why(pmus, (unsigned)idx, t, strcspn(t, ",/"), err);
		return ret;
	}
	if (ret < 0)
		return evspec_pmu_term_fail(s, sl1 + 1 + epos, (size_t)(sl2 + 1 - s), ret, err);
	d->attr.type = (uint32_t)pi.type;
	d->attr.config = cfg[0];
	d->attr.config1 = cfg[1];
	d->attr.config2 = cfg[2];
	d->software = pi.type == PERF_TYPE_SOFTWARE;
	if (sl2[1] == '\0')
		return 0;
	m = sl2 + 1 + (sl2[1] == ':');
	return evspec_mods(m, strlen(m), (size_t)(m - s), d, err);
}

/* name (NUL-terminated, n bytes) as a generic, cache or raw event or a core PMU alias. */
static int evspec_bare_name(const char *name, size_t n, const struct pmu_set *pmus,
			    struct evdesc *d)
{
	uint32_t type;
	uint64_t config;

	if (evnames_lookup(name, n, &type, &config) == 0) {
		d->attr.type = type;
		d->attr.config = config;
		d->software = type == PERF_TYPE_SOFTWARE;
		return 0;
	}
	if (evspec_raw(name, n, &config) == 0) {
		d->attr.type = PERF_TYPE_RAW;
		d->attr.config = config;
		return 0;
	}
	return evspec_core_alias(pmus, name, d);
}

/* "subsys:name[:mods]" as perf stat takes a tracepoint: 1 and d filled when it is one,
 * 0 when the text has not its shape or tracefs has no such tracepoint, < 0 on errors
 * worth saying (no tracefs mounted for a name of that shape). */
static int evspec_tracepoint(const char *s, struct evdesc *d, struct evspec_err *err)
{
	uint64_t id = 0;
	const char *mods = NULL;
	int r = evtrace_lookup(s, &id, &mods, err);
	if (r <= 0)
		return r;
	d->attr.type = PERF_TYPE_TRACEPOINT;
	d->attr.config = id;
	d->software = true; /* no PMU counter: counts in kernel mode, whatever K says */
	if (mods && (r = evspec_mods(mods, strlen(mods), (size_t)(mods - s), d, err)) < 0)
		return r;
	return 1;
}

/* A name without '/' or "::": generic, cache, raw or core alias with perf's modifiers;
 * failing that, libpfm4 with the whole text, since it has modifiers of its own (":u=1",
 * ":c=2") and its names can match an alias ("INST_RETIRED:u=1" on arm). */
static int evspec_bare(char *s, const struct pmu_set *pmus, struct evdesc *d,
		       struct evspec_err *err)
{
	char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s), bad;
	bool mods_failed = false, explained = false;
	char why[sizeof(err->reason)];
	int ret, pret;

	if (n == 0)
		return evsyntax_fail(err, -EINVAL, 0, s, strlen(s));
	if (colon)
		*colon = '\0';
	ret = evspec_bare_name(s, n, pmus, d);
	if (colon)
		*colon = ':';
	/* Not a known name before the colon: a tracepoint ("sched:sched_switch")? */
	if (ret == -ENOENT && colon) {
		int tp = evspec_tracepoint(s, d, err);
		if (tp != 0)
			return tp > 0 ? 0 : evsyntax_fail(err, tp, 0, s, n);
	}
	if (ret == 0 && colon) {
		ret = evspec_mods(colon + 1, strlen(colon + 1), (size_t)(colon + 1 - s), d, err);
		mods_failed = ret < 0;
	}
	if (ret == 0)
		return 0;
	if (pmu_set_uses_pfm(pmus)) {
		pret = evpfm_encode(s, &d->attr, &d->explicit_plm);
		if (pret == 0) {
			d->software = d->attr.type == PERF_TYPE_SOFTWARE;
			return 0;
		}
		if (ret == -ENOENT && pret != -ENODEV)
			ret = pret; /* libpfm4 knew the event but not its unit mask */
		if (!mods_failed && err)
			explained = evpfm_explain(s, why, sizeof(why)) > 0;
	}
	if (mods_failed)
		return ret; /* err names the modifier */
	if (ret == -ENOENT && !explained && evspec_raw_like(s, n, &bad))
		return evsyntax_fail(err, -EINVAL, bad, s, n);
	ret = evsyntax_fail(err, ret, 0, s, ret == -ENOENT ? n : strlen(s));
	if (explained)
		memcpy(err->reason, why, sizeof(why));
	return ret;
}

/* One event tok[0..len) into d; err->pos relative to tok. */
static int evspec_one(const char *tok, size_t len, const struct pmu_set *pmus, struct evdesc *d,
		      struct evspec_err *err)
{
	char *s = strndup(tok, len);
	int ret;

	if (!s)
		return -ENOMEM;
	memset(d, 0, sizeof(*d));
	evspec_name_append(d, s, len);
	if (strstr(s, "::"))
		ret = evspec_pfm(s, d, err);
	else if (strchr(s, '/'))
		ret = evspec_pmu(s, pmus, d, err);
	else
		ret = evspec_bare(s, pmus, d, err);
	d->attr.size = sizeof(d->attr);
	free(s);
	return ret;
}

/* "{a,b}:u": the modifier applies to each member and shows in its name ("a:u"). */
static int evspec_group_mod(const char *spec, const struct evsyntax_span *mod, struct evdesc *d,
			    struct evspec_err *err)
{
	const char *sep = ":";
	int ret = evspec_mods(spec + mod->pos, mod->len, mod->pos, d, err);

	if (ret < 0)
		return ret;
	/* "cpu/x/" + u is "cpu/x/u", "cycles:k" + u is "cycles:ku"; libpfm4 names take
	 * another ":u" */
	if (!strstr(d->name, "::") && (strchr(d->name, '/') || strchr(d->name, ':')))
		sep = "";
	evspec_name_append(d, sep, strlen(sep));
	evspec_name_append(d, spec + mod->pos, mod->len);
	return 0;
}

static int evspec_resolve(const char *spec, const struct evsyntax_group *g,
			  const struct pmu_set *pmus, struct evgroup_spec *out,
			  struct evspec_err *err)
{
	int ret;

	for (unsigned m = 0; m < g->n; m++) {
		ret = evspec_one(spec + g->ev[m].pos, g->ev[m].len, pmus, &out->ev[m], err);
		if (ret < 0) {
			if (err)
				err->pos += g->ev[m].pos;
			return ret;
		}
		if (g->mod.len && (ret = evspec_group_mod(spec, &g->mod, &out->ev[m], err)) < 0)
			return ret;
	}
	out->n = g->n;
	return 0;
}

int evspec_parse(const char *spec, const struct pmu_set *pmus, struct evspec_list *out,
		 struct evspec_err *err)
{
	struct evsyntax_group *gs = NULL;
	struct evgroup_spec *res = NULL, *all;
	unsigned n = 0;
	int ret;
	char *expanded = NULL;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!spec || !out)
		return -EINVAL;
	if ((ret = evtrace_expand(spec, &expanded, err)) < 0)
		return ret;
	if (expanded)
		spec = expanded;
	ret = evsyntax_split(spec, &gs, &n, err);
	if (ret < 0) {
		free(expanded);
		return ret;
	}
	res = calloc(n, sizeof(*res));
	ret = res ? 0 : -ENOMEM;
	for (unsigned i = 0; i < n && ret == 0; i++)
		ret = evspec_resolve(spec, &gs[i], pmus, &res[i], err);
	if (ret == 0) {
		all = realloc(out->g, (out->n + n) * sizeof(*all));
		if (all) {
			memcpy(all + out->n, res, n * sizeof(*res));
			out->g = all;
			out->n += n;
		} else {
			ret = -ENOMEM;
		}
	}
	free(res);
	free(gs);
	free(expanded);
	return ret;
}

int evspec_parse_one(const char *name, const struct pmu_set *pmus, struct evdesc *d,
		     struct evspec_err *err)
{
	struct evsyntax_span sp;
	struct evdesc tmp;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!name || !d)
		return -EINVAL;
	ret = evsyntax_one(name, &sp, err);
	if (ret < 0)
		return ret;
	ret = evspec_one(name + sp.pos, sp.len, pmus, &tmp, err);
	if (ret < 0) {
		if (err)
			err->pos += sp.pos;
		return ret;
	}
	*d = tmp;
	return 0;
}

void evspec_list_free(struct evspec_list *l)
{
	if (!l)
		return;
	free(l->g);
	l->g = NULL;
	l->n = 0;
}

bool evspec_is_software(const struct evdesc *d)
{
	return d && (d->software || d->attr.type == PERF_TYPE_SOFTWARE);
}

int evspec_tracepoints(evspec_list_cb cb, void *ctx)
{
	return evtrace_each(cb, ctx);
}

bool evspec_tracefs_mounted(void)
{
	return evtrace_mounted();
}

int evspec_catalogue(const struct pmu_set *pmus, const char *pmu_filter, evspec_list_cb cb,
		     void *ctx)
{
	return evnames_for_each(pmus, pmu_filter, false, cb, ctx);
}

int evspec_attrs(const char *name, evpfm_attr_cb cb, void *ctx)
{
	if (!name || !strstr(name, "::"))
		return 0;
	return evpfm_for_each_attr(name, cb, ctx);
}

struct evspec_near {
	const char *want;
	size_t wlen;
	bool full; /* the input names a PMU: compare whole names */
	unsigned limit;
	char (*out)[EV_NAME_MAX];
	unsigned *dist;
	unsigned n, max;
};

/* The part of a catalogue name a short input is compared with: the alias of
 * "pmu/alias/", the event of "pmu::EVENT". */
static const char *evspec_short(const char *name, size_t *len)
{
	const char *p = strstr(name, "::");

	if (p) {
		*len = strlen(p + 2);
		return p + 2;
	}
	p = strchr(name, '/');
	if (p) {
		*len = strcspn(p + 1, "/");
		return p + 1;
	}
	*len = strlen(name);
	return name;
}

/* Keep the max closest names, best first; equal distances keep catalogue order. */
static int evspec_near_cb(void *ctx, const char *pmu, const char *name, const char *desc)
{
	struct evspec_near *c = ctx;
	size_t len = strlen(name);
	const char *cmp = c->full ? name : evspec_short(name, &len);
	unsigned d = evnames_distance(c->want, c->wlen, cmp, len), i, keep;

	(void)pmu;
	(void)desc;
	if (d > c->limit || strlen(name) >= EV_NAME_MAX)
		return 0;
	/* the input itself helps no one: not a spelling, or not the problem */
	if (evnames_distance(c->want, c->wlen, name, strlen(name)) == 0)
		return 0;
	for (i = 0; i < c->n; i++)
		if (strcmp(c->out[i], name) == 0)
			return 0;
	for (i = c->n; i > 0 && c->dist[i - 1] > d; i--)
		;
	if (i >= c->max)
		return 0;
	keep = c->n < c->max ? c->n : c->max - 1; /* entries that stay */
	memmove(c->out[i + 1], c->out[i], (keep - i) * sizeof(c->out[0]));
	memmove(&c->dist[i + 1], &c->dist[i], (keep - i) * sizeof(c->dist[0]));
	strcpy(c->out[i], name);
	c->dist[i] = d;
	c->n = keep + 1;
	return 0;
}

unsigned evspec_suggest(const char *name, const struct pmu_set *pmus, char out[][EV_NAME_MAX],
			unsigned max)
{
	struct evspec_near c = {.out = out, .max = max};
	const char *p;

	if (!name || max == 0)
		return 0;
	for (c.want = name; isspace((unsigned char)*c.want); c.want++)
		;
	p = strstr(c.want, "::");
	if (p) {
		c.full = true;
		c.wlen = (size_t)(p + 2 - c.want) + strcspn(p + 2, ":");
	} else if ((p = strchr(c.want, '/'))) {
		c.full = true;
		c.wlen = (size_t)(p + 1 - c.want) + strcspn(p + 1, "/");
		c.wlen += c.want[c.wlen] == '/';
	} else {
		c.wlen = strcspn(c.want, ": \t\n");
	}
	c.limit = c.wlen / 3 > 2 ? (unsigned)(c.wlen / 3) : 2;
	c.dist = calloc(max, sizeof(*c.dist));
	if (!c.dist)
		return 0;
	evnames_for_each(pmus, NULL, true, evspec_near_cb, &c);
	free(c.dist);
	return c.n;
}
