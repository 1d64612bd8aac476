/* Tracepoints as perf stat -e takes them, from tracefs (evtrace.h). */
#include "evtrace.h"

#include "evmount.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The id of tracepoint sys:name, from tracefs (mountinfo says where; or debugfs's
 * tracing/). 0, -ENOENT (no such tracepoint), -ENODEV (no tracefs mounted). */
static int tracepoint_id(const char *sys, size_t ns, const char *name, size_t nn, uint64_t *id)
{
	char dir[512], path[1024], buf[32];
	if (evmount_find("", "tracefs", dir, sizeof(dir)) != 0) {
		if (evmount_find("", "debugfs", dir, sizeof(dir) - 8) != 0)
			return -ENODEV;
		strcat(dir, "/tracing");
	}
	snprintf(path, sizeof(path), "%s/events/%.*s/%.*s/id", dir, (int)ns, sys, (int)nn, name);
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -errno;
	bool ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	char *end;
	*id = ok ? strtoull(buf, &end, 10) : 0;
	return ok && end != buf ? 0 : -ENOENT;
}

/* Whether tracefs has subsystem sys (a directory under events/). */
static bool tracepoint_sys(const char *sys, size_t ns)
{
	char dir[512], path[1024];
	if (evmount_find("", "tracefs", dir, sizeof(dir)) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)ns, sys);
	return access(path, F_OK) == 0;
}

static bool tracefs_mounted(void)
{
	char dir[512];
	return evmount_find("", "tracefs", dir, sizeof(dir)) == 0;
}

bool evtrace_mounted(void)
{
	return tracefs_mounted();
}

/* No upper-case letter in s[0..n). */
static bool lower_word(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isupper((unsigned char)s[i]))
			return false;
	return true;
}

static bool tp_word(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

int evtrace_lookup(const char *s, uint64_t *idp, const char **mods, struct evspec_err *err)
{
	const char *c1 = strchr(s, ':');
	if (!c1)
		return 0;
	const char *name = c1 + 1, *c2 = strchr(name, ':');
	size_t nn = c2 ? (size_t)(c2 - name) : strlen(name);
	if (!tp_word(s, (size_t)(c1 - s)) || !tp_word(name, nn))
		return 0;
	uint64_t id = 0;
	int r = tracepoint_id(s, (size_t)(c1 - s), name, nn, &id);
	if (r == -ENOENT && tracepoint_sys(s, (size_t)(c1 - s))) {
		/* The subsystem exists (its directory reads as no id): not this event. */
		if (err)
			snprintf(err->reason, sizeof(err->reason),
				 "no tracepoint '%.*s:%.*s': tracefs lists %.*s's under "
				 "events/%.*s/",
				 (int)(c1 - s), s, (int)nn, name, (int)(c1 - s), s, (int)(c1 - s),
				 s);
		return -ENOENT;
	}
	if (r == -ENOENT)
		return 0;
	if (r < 0 && strspn(name, "ukhIGHpPSDWe") >= nn)
		return 0; /* "typo:u": modifiers, not a tracepoint without tracefs */
	if (r < 0) {
		if (err)
			snprintf(err->reason, sizeof(err->reason),
				 "'%s' looks like a tracepoint, but tracefs is not mounted: mount "
				 "-t tracefs nodev /sys/kernel/tracing",
				 s);
		return -ENOENT;
	}
	*idp = id;
	*mods = c2 ? c2 + 1 : NULL;
	return 1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tracepoints of subsystem sys (ns long) whose names match pattern (pn long), sorted,
 * each appended to *buf as "sys:name" + mods + ",". Returns how many, or -errno. */
static int glob_tracepoints(const char *sys, size_t ns, const char *pattern, size_t pn,
			    const char *mods, size_t nm, char **buf, size_t *len, size_t *cap)
{
	char dir[512], path[1024], pat[256];
	if (evmount_find("", "tracefs", dir, sizeof(dir)) != 0)
		return -ENODEV;
	if (pn >= sizeof(pat))
		return -EINVAL;
	memcpy(pat, pattern, pn);
	pat[pn] = '\0';
	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)ns, sys);
	DIR *d = opendir(path);
	if (!d)
		return -ENOENT;
	char **names = NULL;
	size_t n = 0, ncap = 0;
	int ret = 0;
	for (struct dirent *e; (e = readdir(d)) && ret == 0;) {
		if (e->d_name[0] == '.' || fnmatch(pat, e->d_name, 0) != 0 || e->d_type == DT_REG)
			continue;
		if (n == ncap) {
			char **nn = realloc(names, (ncap = ncap ? 2 * ncap : 64) * sizeof(*nn));
			if (!nn)
				ret = -ENOMEM;
			else
				names = nn;
		}
		if (ret == 0 && !(names[n++] = strdup(e->d_name)))
			ret = -ENOMEM;
	}
	closedir(d);
	if (ret == 0 && n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n && ret == 0; i++) {
		size_t need = ns + 1 + strlen(names[i]) + nm + 2;
		if (*len + need >= *cap) {
			size_t c = (*cap + need) * 2;
			char *b = realloc(*buf, c);
			if (!b) {
				ret = -ENOMEM;
				break;
			}
			*buf = b;
			*cap = c;
		}
		*len += (size_t)snprintf(*buf + *len, *cap - *len, "%.*s:%s%.*s,", (int)ns, sys,
					 names[i], (int)nm, mods);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret < 0 ? ret : (int)n;
}

int evtrace_expand(const char *spec, char **out, struct evspec_err *err)
{
	struct evsyntax_group *gs = NULL;
	unsigned n = 0;
	*out = NULL;
	if (!strpbrk(spec, "*?[") || evsyntax_split(spec, &gs, &n, NULL) < 0) {
		free(gs);
		return 0; /* nothing to expand, or the parse proper says what is wrong */
	}
	size_t len = 0, cap = strlen(spec) + 64, from = 0;
	char *buf = malloc(cap);
	int ret = buf ? 0 : -ENOMEM;
	bool any = false;
	for (unsigned g = 0; g < n && ret == 0; g++) {
		for (unsigned k = 0; k < gs[g].n && ret == 0; k++) {
			const char *s = spec + gs[g].ev[k].pos,
				   *c1 = memchr(s, ':', gs[g].ev[k].len);
			size_t sl = gs[g].ev[k].len;
			if (!c1 || !tp_word(s, (size_t)(c1 - s)))
				continue;
			const char *pat = c1 + 1, *c2 = memchr(pat, ':', sl - (size_t)(pat - s));
			size_t pn = c2 ? (size_t)(c2 - pat) : sl - (size_t)(pat - s);
			if (!memchr(pat, '*', pn) && !memchr(pat, '?', pn) && !memchr(pat, '[', pn))
				continue;
			/* Only a subsystem tracefs has: "INST_RETIRED:AN*" is libpfm4's to refuse.
			 * Without tracefs a lower-case subsystem is one (libpfm4's are upper case),
			 * and the mount it needs is the answer, not "unknown event". */
			if (!tracepoint_sys(s, (size_t)(c1 - s))) {
				if (tracefs_mounted() || !lower_word(s, (size_t)(c1 - s)))
					continue;
				if (err)
					snprintf(err->reason, sizeof(err->reason),
						 "'%.*s' looks like a tracepoint, but tracefs is "
						 "not "
						 "mounted: mount -t tracefs nodev "
						 "/sys/kernel/tracing",
						 (int)sl, s);
				ret = -ENOENT;
				break;
			}
			/* The text before this event as it was, then its expansion. */
			size_t keep = (size_t)(s - spec) - from;
			if (len + keep + 1 >= cap) {
				char *b = realloc(buf, cap = (len + keep) * 2 + 64);
				if (!b) {
					ret = -ENOMEM;
					break;
				}
				buf = b;
			}
			memcpy(buf + len, spec + from, keep);
			len += keep;
			size_t nm = c2 ? sl - (size_t)(c2 - s) : 0;
			int m = glob_tracepoints(s, (size_t)(c1 - s), pat, pn, c2, nm, &buf, &len,
						 &cap);
			if (m <= 0) {
				ret = m == -ENOMEM ? -ENOMEM : -ENOENT;
				if (err)
					snprintf(err->reason, sizeof(err->reason),
						 "no tracepoint matches '%.*s'", (int)sl, s);
				break;
			}
			len--; /* its last comma: the text after it follows */
			from = (size_t)(s - spec) + sl;
			any = true;
		}
	}
	if (ret == 0 && any) {
		size_t rest = strlen(spec + from);
		char *b = realloc(buf, len + rest + 1);
		if (!b) {
			ret = -ENOMEM;
		} else {
			buf = b;
			memcpy(buf + len, spec + from, rest + 1);
			*out = buf;
			buf = NULL;
		}
	}
	free(buf);
	free(gs);
	return ret;
}

/* The entries of directory path that are directories, sorted (heap, NULL-terminated),
 * or NULL. */
static char **subdirs(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	if (!d)
		return NULL;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || e->d_type == DT_REG)
			continue;
		if (*n + 1 >= cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*nv));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

int evtrace_each(evtrace_cb cb, void *ctx)
{
	char dir[512], path[1024], name[512];
	if (evmount_find("", "tracefs", dir, sizeof(dir)) != 0)
		return 0;
	size_t ns, ne;
	snprintf(path, sizeof(path), "%s/events", dir);
	char **sys = subdirs(path, &ns);
	int ret = 0;
	for (size_t i = 0; i < ns; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, sys[i]);
		char **ev = ret ? NULL : subdirs(path, &ne);
		for (size_t k = 0; ev && k < ne; k++) {
			/* As perf list: one without an id (ftrace:bprint, ftrace's internal
			 * formats) cannot be opened, so it is not offered. */
			char idpath[1536];
			snprintf(idpath, sizeof(idpath), "%s/%s/id", path, ev[k]);
			snprintf(name, sizeof(name), "%s:%s", sys[i], ev[k]);
			if (!ret && access(idpath, R_OK) == 0)
				ret = cb(ctx, "tracepoint", name, sys[i]);
			free(ev[k]);
		}
		free(ev);
		free(sys[i]);
	}
	free(sys);
	return ret;
}
