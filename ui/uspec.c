/* Splitting and rewriting the user's event spec. The only syntax that matters here is
 * where one event ends: a comma outside pmu/.../ terms. */
#include "uspec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct scan {
	const char *p;
	struct uspec *s;
};

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Append member p[0..n) (trimmed) to the last group. */
static int add_member(struct uspec *s, const char *p, size_t n)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n == 0)
		return 0; /* "a,,b": nothing between the commas */
	if (s->nev == USPEC_EVENTS || n >= USPEC_NAME)
		return -E2BIG;
	memcpy(s->ev[s->nev], p, n);
	s->ev[s->nev][n] = '\0';
	s->group[s->nev++] = s->ng - 1;
	return 0;
}

/* The end of the member at p: the next comma (or '}' inside braces) outside slashes. */
static const char *member_end(const char *p, bool braced, int *err)
{
	bool terms = false;
	for (; *p; p++) {
		if (*p == '/')
			terms = !terms;
		else if (terms)
			continue;
		else if (*p == ',' || (braced && *p == '}'))
			return p;
		else if (*p == '{' || *p == '}')
			break;
	}
	if (terms || (*p && *p != ',') || (braced && !*p))
		*err = -EINVAL;
	return p;
}

static int new_group(struct uspec *s, bool braced)
{
	if (s->ng == USPEC_EVENTS)
		return -E2BIG;
	memset(&s->g[s->ng], 0, sizeof(s->g[0]));
	s->g[s->ng++].braced = braced;
	return 0;
}

/* "{a,b}:mods" at sc->p (just past '{'). */
static int scan_braced(struct scan *sc)
{
	int err = new_group(sc->s, true);
	while (!err) {
		const char *e = member_end(sc->p, true, &err);
		if (err)
			break;
		err = add_member(sc->s, sc->p, (size_t)(e - sc->p));
		sc->p = e + 1;
		if (*e == '}')
			break;
	}
	if (err)
		return err;
	const char *m = skip_space(sc->p);
	size_t n = strcspn(m, ",");
	while (n && (m[n - 1] == ' ' || m[n - 1] == '\t'))
		n--;
	if (n >= USPEC_MODS)
		return -E2BIG;
	memcpy(sc->s->g[sc->s->ng - 1].mods, m, n);
	sc->s->g[sc->s->ng - 1].mods[n] = '\0';
	sc->p = m + strcspn(m, ",");
	return 0;
}

static int scan_group(struct scan *sc)
{
	sc->p = skip_space(sc->p);
	if (*sc->p == '{') {
		sc->p++;
		return scan_braced(sc);
	}
	int err = 0;
	const char *e = member_end(sc->p, false, &err);
	if (err)
		return err;
	const char *start = sc->p;
	sc->p = e;
	if (skip_space(start) >= e)
		return 0; /* nothing between two commas */
	err = new_group(sc->s, false);
	return err ? err : add_member(sc->s, start, (size_t)(e - start));
}

int uspec_parse(const char *text, struct uspec *s)
{
	struct scan sc = {.p = text ? text : "", .s = s};
	s->nev = s->ng = 0;
	while (*sc.p) {
		int err = scan_group(&sc);
		if (err) {
			s->nev = s->ng = 0;
			return err;
		}
		if (*sc.p == ',')
			sc.p++;
	}
	/* A group whose members were all empty ("{}") is no group. */
	for (unsigned g = 0; g < s->ng; g++) {
		unsigned n;
		uspec_group_first(s, g, &n);
		if (n == 0) {
			memmove(&s->g[g], &s->g[g + 1], (s->ng - g - 1) * sizeof(s->g[0]));
			for (unsigned i = 0; i < s->nev; i++)
				s->group[i] -= s->group[i] > g;
			s->ng--;
			g--;
		}
	}
	return 0;
}

unsigned uspec_group_first(const struct uspec *s, unsigned g, unsigned *n)
{
	unsigned first = s->nev;
	*n = 0;
	for (unsigned i = 0; i < s->nev; i++) {
		if (s->group[i] != g)
			continue;
		if (first == s->nev)
			first = i;
		(*n)++;
	}
	return first;
}

void uspec_group_text(const struct uspec *s, unsigned g, char *buf, size_t len)
{
	unsigned n, first = uspec_group_first(s, g, &n);
	size_t o = 0;
	if (!len)
		return;
	buf[0] = '\0';
	bool braces = n > 1 || s->g[g].mods[0];
	if (braces)
		o += (size_t)snprintf(buf + o, len - o, "{");
	for (unsigned k = 0; k < n && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? "," : "", s->ev[first + k]);
	if (braces && o < len)
		snprintf(buf + o, len - o, "}%s", s->g[g].mods);
}

int uspec_format(const struct uspec *s, char *buf, size_t len)
{
	char grp[USPEC_TEXT];
	size_t o = 0;
	if (!len)
		return -E2BIG;
	buf[0] = '\0';
	for (unsigned g = 0; g < s->ng; g++) {
		uspec_group_text(s, g, grp, sizeof(grp));
		int k = snprintf(buf + o, len - o, "%s%s", g ? "," : "", grp);
		if (k < 0 || (size_t)k >= len - o) {
			buf[0] = '\0';
			return -E2BIG;
		}
		o += (size_t)k;
	}
	return 0;
}

/* Insert member text at position at, in group g. */
static int insert_at(struct uspec *s, unsigned at, const char *name, unsigned g)
{
	if (s->nev == USPEC_EVENTS || strlen(name) >= USPEC_NAME)
		return -E2BIG;
	memmove(s->ev[at + 1], s->ev[at], (s->nev - at) * sizeof(s->ev[0]));
	memmove(&s->group[at + 1], &s->group[at], (s->nev - at) * sizeof(s->group[0]));
	snprintf(s->ev[at], USPEC_NAME, "%s", name);
	s->group[at] = g;
	s->nev++;
	return 0;
}

int uspec_add(struct uspec *s, const char *name, int g)
{
	while (*name == ' ')
		name++;
	if (!*name)
		return -EINVAL;
	if (g >= 0 && (unsigned)g < s->ng) {
		unsigned n, first = uspec_group_first(s, (unsigned)g, &n);
		return insert_at(s, first + n, name, (unsigned)g);
	}
	if (s->nev == USPEC_EVENTS || s->ng == USPEC_EVENTS || strlen(name) >= USPEC_NAME)
		return -E2BIG;
	new_group(s, false);
	return insert_at(s, s->nev, name, s->ng - 1);
}

/* Drop group g if it has no members left. */
static void drop_if_empty(struct uspec *s, unsigned g)
{
	unsigned n;
	uspec_group_first(s, g, &n);
	if (n)
		return;
	memmove(&s->g[g], &s->g[g + 1], (s->ng - g - 1) * sizeof(s->g[0]));
	for (unsigned i = 0; i < s->nev; i++)
		s->group[i] -= s->group[i] > g;
	s->ng--;
}

int uspec_remove(struct uspec *s, unsigned i)
{
	if (i >= s->nev)
		return -ENOENT;
	unsigned g = s->group[i];
	memmove(s->ev[i], s->ev[i + 1], (s->nev - i - 1) * sizeof(s->ev[0]));
	memmove(&s->group[i], &s->group[i + 1], (s->nev - i - 1) * sizeof(s->group[0]));
	s->nev--;
	drop_if_empty(s, g);
	return 0;
}

int uspec_move(struct uspec *s, unsigned i, int g)
{
	char name[USPEC_NAME], mods[USPEC_MODS];
	if (i >= s->nev)
		return -ENOENT;
	unsigned from = s->group[i], n;
	bool alone = g < 0 || (unsigned)g >= s->ng;
	if (!alone && (unsigned)g == from)
		return 0;
	uspec_group_first(s, from, &n);
	if (alone && n == 1)
		return 0; /* already a group of its own */
	snprintf(name, sizeof(name), "%s", s->ev[i]);
	snprintf(mods, sizeof(mods), "%s", s->g[from].mods);
	uspec_remove(s, i);
	if (alone) {
		int err = uspec_add(s, name, -1);
		if (!err)
			snprintf(s->g[s->ng - 1].mods, USPEC_MODS, "%s", mods);
		return err;
	}
	/* Its old group went if it was the only member: later groups moved down one. */
	unsigned target = (unsigned)g - (n == 1 && (unsigned)g > from);
	return uspec_add(s, name, (int)target);
}
