/* PMU discovery: sysfs event_source devices (type, cpus, events/ aliases, format/ fields)
 * merged with libpfm4's PMU table, and term encoding through the format fields.
 *
 * A sysfs PMU is a core PMU when its name is cpu, cpu_core or cpu_atom (x86, hybrid x86),
 * starts with armv7_ or armv8_ or contains _pmuv3 (arm), or its type is PERF_TYPE_RAW.
 * That is the set perf itself treats as "the CPU"; anything else (uncore, msr, software)
 * is not core. */
#include "pmu.h"

#include "evpfm.h"
#include "pmufmt.h"
#include "pmujson.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct pmu_alias {
	char *name;
	char *terms;
};

struct pmu_ent {
	char *name;
	int type;
	char *cpus;
	bool core;
	bool present;
	bool pfm_generic;
	bool in_kernel;
	char *pfm_name;
	char *desc;
	int pfm_id;
	int pfm_nevents;
	int nr_counters;
	int nr_fixed;
	struct pmu_alias *alias;
	unsigned nr_alias, cap_alias;
	struct pmufmt_field *field;
	unsigned nr_field, cap_field;
};

struct pmu_set {
	struct pmu_ent *ent;
	unsigned n;
	unsigned cap;
	bool pfm;
	char cpuid[PMUJSON_CPUID_MAX]; /* perf's x86 CPUID, "" unknown: no JSON events */
	int json_model;		       /* its pmujson table, -1 none */
};

/* Grow *arr (of elements of size sz) so that index n fits. */
static int pmu_grow(void **arr, unsigned *cap, unsigned n, size_t sz)
{
	void *p;
	unsigned ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(*arr, (size_t)ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static void pmu_ent_clear(struct pmu_ent *e)
{
	for (unsigned i = 0; i < e->nr_alias; i++) {
		free(e->alias[i].name);
		free(e->alias[i].terms);
	}
	for (unsigned i = 0; i < e->nr_field; i++)
		free(e->field[i].name);
	free(e->alias);
	free(e->field);
	free(e->name);
	free(e->cpus);
	free(e->pfm_name);
	free(e->desc);
	memset(e, 0, sizeof(*e));
}

/* A small sysfs attribute, without its trailing newline. */
static int pmu_read_attr(int dirfd, const char *path, char *buf, size_t cap)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return 0;
}

static bool pmu_is_core(const char *name, int type)
{
	return strcmp(name, "cpu") == 0 || strcmp(name, "cpu_core") == 0 ||
	       strcmp(name, "cpu_atom") == 0 || strncmp(name, "armv8_", 6) == 0 ||
	       strncmp(name, "armv7_", 6) == 0 || strstr(name, "_pmuv3") != NULL ||
	       type == PERF_TYPE_RAW;
}

/* events/ also holds per-alias metadata files; they are not events. */
static bool pmu_alias_skip(const char *name)
{
	static const char *const sfx[] = {".scale", ".unit", ".per-pkg", ".snapshot"};
	const char *dot = strrchr(name, '.');

	if (name[0] == '.')
		return true;
	for (size_t i = 0; dot && i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (strcmp(dot, sfx[i]) == 0)
			return true;
	return false;
}

static int pmu_alias_cmp(const void *a, const void *b)
{
	return strcasecmp(((const struct pmu_alias *)a)->name, ((const struct pmu_alias *)b)->name);
}

/* Every regular file of pmufd/sub, read and handed to add(). A missing directory is
 * fine: most PMUs have no events/. */
static int pmu_load_dir(struct pmu_ent *e, int pmufd, const char *sub,
			int (*add)(struct pmu_ent *e, const char *name, const char *text))
{
	char buf[4096];
	struct dirent *de;
	DIR *d;
	int ret = 0, fd = openat(pmufd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while (ret == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type == DT_DIR)
			continue;
		if (pmu_read_attr(dirfd(d), de->d_name, buf, sizeof(buf)) < 0)
			continue;
		ret = add(e, de->d_name, buf);
	}
	closedir(d);
	return ret;
}

static int pmu_add_alias(struct pmu_ent *e, const char *name, const char *text)
{
	struct pmu_alias *a;

	if (pmu_alias_skip(name))
		return 0;
	if (pmu_grow((void **)&e->alias, &e->cap_alias, e->nr_alias, sizeof(*a)) < 0)
		return -ENOMEM;
	a = &e->alias[e->nr_alias];
	a->name = strdup(name);
	a->terms = strdup(text);
	if (!a->name || !a->terms) {
		free(a->name);
		free(a->terms);
		return -ENOMEM;
	}
	e->nr_alias++;
	return 0;
}

static int pmu_add_field(struct pmu_ent *e, const char *name, const char *text)
{
	struct pmufmt_field f = {0};

	if (pmufmt_parse(text, &f) < 0)
		return 0; /* a format we cannot use: terms naming it will be unknown */
	if (pmu_grow((void **)&e->field, &e->cap_field, e->nr_field, sizeof(f)) < 0)
		return -ENOMEM;
	f.name = strdup(name);
	if (!f.name)
		return -ENOMEM;
	e->field[e->nr_field++] = f;
	return 0;
}

static int pmu_append(struct pmu_set *s, struct pmu_ent *e)
{
	if (pmu_grow((void **)&s->ent, &s->cap, s->n, sizeof(*e)) < 0)
		return -ENOMEM;
	s->ent[s->n++] = *e;
	return 0;
}

static int pmu_read_type(int fd, int *type)
{
	char buf[32], *end;
	long v;

	if (pmu_read_attr(fd, "type", buf, sizeof(buf)) < 0)
		return -ENOENT;
	v = strtol(buf, &end, 10);
	if (end == buf || *end || v < 0 || v > INT32_MAX)
		return -EINVAL;
	*type = (int)v;
	return 0;
}

/* One devices/<name> directory. Entries without a readable type are skipped. */
static int pmu_load_one(struct pmu_set *s, int devfd, const char *name)
{
	struct pmu_ent e = {.pfm_id = -1,
			    .nr_counters = -1,
			    .nr_fixed = -1,
			    .present = true,
			    .in_kernel = true};
	char buf[4096] = "";
	int ret, fd = openat(devfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pmu_read_type(fd, &e.type) < 0) {
		close(fd);
		return 0;
	}
	e.core = pmu_is_core(name, e.type);
	ret = (e.name = strdup(name)) ? 0 : -ENOMEM;
	/* hybrid core PMUs have "cpus", uncore ones "cpumask"; both are cpu lists */
	if (pmu_read_attr(fd, "cpus", buf, sizeof(buf)) < 0 &&
	    pmu_read_attr(fd, "cpumask", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	if (ret == 0 && buf[0])
		ret = (e.cpus = strdup(buf)) ? 0 : -ENOMEM;
	if (ret == 0)
		ret = pmu_load_dir(&e, fd, "events", pmu_add_alias);
	if (ret == 0)
		ret = pmu_load_dir(&e, fd, "format", pmu_add_field);
	close(fd);
	if (ret == 0) {
		if (e.nr_alias > 1)
			qsort(e.alias, e.nr_alias, sizeof(*e.alias), pmu_alias_cmp);
		ret = pmu_append(s, &e);
	}
	if (ret < 0)
		pmu_ent_clear(&e);
	return ret;
}

static int pmu_ent_cmp(const void *a, const void *b)
{
	const struct pmu_ent *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int pmu_load_sysfs(struct pmu_set *s, const char *root)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/bus/event_source/devices", root) >=
	    sizeof(path))
		return 0;
	d = opendir(path);
	if (!d)
		return 0; /* no sysfs (container, fixture without PMUs): empty, not an error */
	while (ret == 0 && (de = readdir(d)))
		if (de->d_name[0] != '.')
			ret = pmu_load_one(s, dirfd(d), de->d_name);
	closedir(d);
	/* readdir order is arbitrary; by type then name is stable and puts cpu_core (4)
	 * before cpu_atom on hybrid machines, as perf lists them */
	if (s->n > 1)
		qsort(s->ent, s->n, sizeof(*s->ent), pmu_ent_cmp);
	return ret;
}

static int pmu_add_pfm(void *ctx, const struct evpfm_pmu *p)
{
	struct pmu_ent e = {
		.type = -1,
		.core = p->core,
		.present = p->present,
		.pfm_generic = p->os_generic,
		.pfm_id = p->id,
		.pfm_nevents = p->nr_events,
		.nr_counters = p->nr_counters,
		.nr_fixed = p->nr_fixed,
	};

	e.name = strdup(p->name);
	e.pfm_name = strdup(p->name);
	e.desc = p->desc ? strdup(p->desc) : NULL;
	if (!e.name || !e.pfm_name || (p->desc && !e.desc) || pmu_append(ctx, &e) < 0) {
		pmu_ent_clear(&e);
		return -ENOMEM;
	}
	return 0;
}

/* With a single sysfs core PMU, the present libpfm4 core PMU with the most events (the
 * model-specific table rather than ix86arch) describes it. Hybrid machines keep both
 * lists apart: libpfm4 4.13 cannot say which of its PMUs is cpu_core or cpu_atom. */
static void pmu_merge_pfm(struct pmu_set *s)
{
	struct pmu_ent *d, *p;
	int sys = -1, best = -1;
	unsigned ncore = 0;

	for (unsigned i = 0; i < s->n; i++) {
		struct pmu_ent *e = &s->ent[i];

		if (e->type >= 0 && e->core)
			ncore++, sys = (int)i;
		if (e->type < 0 && e->core && e->present &&
		    (best < 0 || e->pfm_nevents > s->ent[best].pfm_nevents))
			best = (int)i;
	}
	if (ncore != 1 || best < 0)
		return;
	d = &s->ent[sys];
	p = &s->ent[best];

	d->pfm_name = p->pfm_name;
	d->desc = p->desc;
	d->pfm_id = p->pfm_id;
	d->nr_counters = p->nr_counters;
	d->nr_fixed = p->nr_fixed;
	free(p->name);
	memmove(p, p + 1, (s->n - (unsigned)best - 1) * sizeof(*p));
	s->n--;
}

static bool pmu_has_type(const struct pmu_set *s, int type)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->ent[i].type == type)
			return true;
	return false;
}

/* A present libpfm4 PMU left unmerged is countable only through a kernel PMU: the core
 * one (raw, hardware and cache types), the software one, or the sysfs PMU its events
 * encode to. libpfm4 detects PMUs from the CPU model; a VM's kernel may have none. */
static void pmu_mark_kernel(struct pmu_set *s)
{
	int t, types[1];
	bool core = pmu_set_core_types(s, types, 1) > 0;

	for (unsigned i = 0; i < s->n; i++) {
		struct pmu_ent *e = &s->ent[i];

		if (e->type >= 0 || !e->present) {
			e->in_kernel = e->type >= 0;
			continue;
		}
		if (e->pfm_generic) {
			e->in_kernel = true; /* perf's generic names: software ones at least */
			continue;
		}
		t = e->core ? PERF_TYPE_RAW : evpfm_pmu_perf_type(e->pfm_id);
		if (t == PERF_TYPE_RAW || t == PERF_TYPE_HARDWARE || t == PERF_TYPE_HW_CACHE)
			e->in_kernel = core;
		else
			e->in_kernel = t == PERF_TYPE_SOFTWARE || (t >= 0 && pmu_has_type(s, t));
	}
}

struct pmu_set *pmu_set_new(const char *sysfs_root, bool use_pfm)
{
	struct pmu_set *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (pmu_load_sysfs(s, sysfs_root ? sysfs_root : "/sys") < 0)
		goto oom;
	/* this machine's sysfs: this machine's CPU (a fixture's is set by its test) */
	s->json_model = -1;
	if ((!sysfs_root || strcmp(sysfs_root, "/sys") == 0) &&
	    pmujson_cpuid_read("/proc/cpuinfo", s->cpuid, sizeof(s->cpuid)) == 0)
		s->json_model = pmujson_model_index(s->cpuid);
	if (use_pfm) {
		/* libpfm4 unusable (-ENODEV) leaves the sysfs part alone */
		if (evpfm_for_each_pmu(pmu_add_pfm, s) == -ENOMEM)
			goto oom;
		s->pfm = true;
		pmu_merge_pfm(s);
		pmu_mark_kernel(s);
	}
	return s;
oom:
	pmu_set_free(s);
	return NULL;
}

void pmu_set_free(struct pmu_set *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->n; i++)
		pmu_ent_clear(&s->ent[i]);
	free(s->ent);
	free(s);
}

unsigned pmu_set_count(const struct pmu_set *s)
{
	return s ? s->n : 0;
}

bool pmu_set_uses_pfm(const struct pmu_set *s)
{
	return s && s->pfm;
}

int pmu_set_info(const struct pmu_set *s, unsigned i, struct pmu_info *out)
{
	const struct pmu_ent *e;

	if (!s || i >= s->n)
		return -ENOENT;
	e = &s->ent[i];
	*out = (struct pmu_info){
		.name = e->name,
		.type = e->type,
		.cpus = e->cpus,
		.core = e->core,
		.present = e->present,
		.pfm_name = e->pfm_name,
		.desc = e->desc,
		.nr_counters = e->nr_counters,
		.nr_fixed = e->nr_fixed,
		.nr_aliases = e->nr_alias,
		.pfm_id = e->pfm_name ? e->pfm_id : -1,
		.pfm_generic = e->pfm_generic,
		.in_kernel = e->in_kernel,
	};
	return 0;
}

int pmu_set_find(const struct pmu_set *s, const char *name)
{
	if (!s || !name)
		return -1;
	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->ent[i].name, name) == 0)
			return (int)i;
	for (unsigned i = 0; i < s->n; i++)
		if (s->ent[i].pfm_name && strcmp(s->ent[i].pfm_name, name) == 0)
			return (int)i;
	return -1;
}

unsigned pmu_set_core_types(const struct pmu_set *s, int *types, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; s && i < s->n && n < max; i++)
		if (s->ent[i].core && s->ent[i].type >= 0)
			types[n++] = s->ent[i].type;
	return n;
}

/* Aliases match case-insensitively, as perf matches them. */
static const struct pmu_alias *pmu_alias_find(const struct pmu_ent *e, const char *name, size_t len)
{
	for (unsigned i = 0; i < e->nr_alias; i++)
		if (strncasecmp(e->alias[i].name, name, len) == 0 && e->alias[i].name[len] == '\0')
			return &e->alias[i];
	return NULL;
}

/* perf's JSON event name[0..len) of a kernel PMU, for this CPU: its terms or NULL. */
static const char *pmu_json_find(const struct pmu_set *s, const struct pmu_ent *e, const char *name,
				 size_t len)
{
	if (e->type < 0 || !e->core)
		return NULL;
	return pmujson_terms_at(s->json_model, e->name, name, len);
}

const char *pmu_set_alias(const struct pmu_set *s, unsigned pmu, const char *alias)
{
	const struct pmu_alias *a;

	if (!s || pmu >= s->n || !alias)
		return NULL;
	a = pmu_alias_find(&s->ent[pmu], alias, strlen(alias));
	return a ? a->terms : pmu_json_find(s, &s->ent[pmu], alias, strlen(alias));
}

bool pmu_set_alias_is_json(const struct pmu_set *s, unsigned pmu, const char *alias)
{
	return s && pmu < s->n && alias && !pmu_alias_find(&s->ent[pmu], alias, strlen(alias)) &&
	       pmu_json_find(s, &s->ent[pmu], alias, strlen(alias));
}

int pmu_set_set_cpuid(struct pmu_set *s, const char *cpuid)
{
	if (!s || !cpuid || strlen(cpuid) >= sizeof(s->cpuid))
		return -EINVAL;
	snprintf(s->cpuid, sizeof(s->cpuid), "%s", cpuid);
	s->json_model = pmujson_model_index(s->cpuid);
	return 0;
}

const char *pmu_set_cpuid(const struct pmu_set *s)
{
	return s && s->cpuid[0] ? s->cpuid : NULL;
}

int pmu_set_alias_at(const struct pmu_set *s, unsigned pmu, unsigned i, const char **name,
		     const char **terms)
{
	if (!s || pmu >= s->n || i >= s->ent[pmu].nr_alias)
		return -ENOENT;
	*name = s->ent[pmu].alias[i].name;
	*terms = s->ent[pmu].alias[i].terms;
	return 0;
}

static const struct pmufmt_field *pmu_field_find(const struct pmu_ent *e, const char *name,
						 size_t len)
{
	for (unsigned i = 0; i < e->nr_field; i++)
		if (strncmp(e->field[i].name, name, len) == 0 && e->field[i].name[len] == '\0')
			return &e->field[i];
	return NULL;
}

static int pmu_encode_list(const struct pmu_set *s, const struct pmu_ent *e, const char *terms,
			   uint64_t config[3], size_t *errpos, bool in_alias);

/* One term t[0..n) of a list. */
static int pmu_encode_term(const struct pmu_set *s, const struct pmu_ent *e, const char *t,
			   size_t n, uint64_t config[3], bool in_alias)
{
	const char *eq = memchr(t, '=', n);
	size_t nlen = eq ? (size_t)(eq - t) : n;
	const struct pmufmt_field *f;
	const struct pmu_alias *a;
	const char *json;
	uint64_t value = 1; /* a bare "edge" or "any" is a one-bit flag turned on */
	int r;

	while (nlen > 0 && isspace((unsigned char)t[nlen - 1]))
		nlen--;
	if (nlen == 0)
		return -EINVAL;
	if (eq) {
		const char *v = eq + 1, *vend = t + n;

		while (v < vend && isspace((unsigned char)*v))
			v++;
		if (pmufmt_value(v, (size_t)(vend - v), &value) < 0)
			return -EINVAL;
	}
	f = pmu_field_find(e, t, nlen);
	if (f)
		return pmufmt_put(f, value, config);
	r = pmufmt_reg(t, nlen);
	if (r >= 0) {
		config[r] = value;
		return 0;
	}
	/* aliases expand once: an alias naming an alias is a broken sysfs, not a loop */
	if (!eq && !in_alias && (a = pmu_alias_find(e, t, nlen)))
		return pmu_encode_list(s, e, a->terms, config, NULL, true);
	/* then perf's JSON event of that name, on this CPU: a field of its encoding that
	 * format/ lacks makes it one this kernel cannot take, not an unknown name */
	if (!eq && !in_alias && (json = pmu_json_find(s, e, t, nlen))) {
		r = pmu_encode_list(s, e, json, config, NULL, true);
		return r == -ENOENT ? -EOPNOTSUPP : r;
	}
	return -ENOENT;
}

static int pmu_encode_list(const struct pmu_set *s, const struct pmu_ent *e, const char *terms,
			   uint64_t config[3], size_t *errpos, bool in_alias)
{
	const char *p = terms;

	for (;;) {
		size_t n;
		int ret;

		while (isspace((unsigned char)*p))
			p++;
		n = strcspn(p, ",");
		while (n > 0 && isspace((unsigned char)p[n - 1]))
			n--;
		ret = pmu_encode_term(s, e, p, n, config, in_alias);
		if (ret < 0) {
			if (errpos)
				*errpos = (size_t)(p - terms);
			return ret;
		}
		p += strcspn(p, ",");
		if (*p == '\0')
			return 0;
		p++;
	}
}

int pmu_set_encode_terms_pos(const struct pmu_set *s, unsigned pmu, const char *terms,
			     uint64_t config[3], size_t *errpos)
{
	config[0] = config[1] = config[2] = 0;
	if (errpos)
		*errpos = 0;
	if (!s || pmu >= s->n || !terms)
		return -ENOENT;
	return pmu_encode_list(s, &s->ent[pmu], terms, config, errpos, false);
}

int pmu_set_encode_terms(const struct pmu_set *s, unsigned pmu, const char *terms,
			 uint64_t config[3])
{
	return pmu_set_encode_terms_pos(s, pmu, terms, config, NULL);
}
