/* Splitting and rewriting the user's event spec, split by the -e grammar itself. */
#include "uspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evsyntax.h"

static void new_group(struct uspec *s, bool braced)
{
	memset(&s->g[s->ng], 0, sizeof(s->g[0]));
	s->g[s->ng++].braced = braced;
}

/* Append member text[sp] to the last group. */
static int add_member(struct uspec *s, const char *text, struct evsyntax_span sp)
{
	if (s->nev == USPEC_EVENTS || sp.len >= USPEC_NAME)
		return -E2BIG;
	memcpy(s->ev[s->nev], text + sp.pos, sp.len);
	s->ev[s->nev][sp.len] = '\0';
	s->group[s->nev++] = s->ng - 1;
	return 0;
}

static int add_group(struct uspec *s, const char *text, const struct evsyntax_group *g)
{
	if (s->ng == USPEC_EVENTS || g->mod.len + 1 >= USPEC_MODS)
		return -E2BIG;
	/* A braced single event keeps no braces unless it has modifiers of its own. */
	new_group(s, g->braced && (g->n > 1 || g->mod.len));
	struct uspec_group *ug = &s->g[s->ng - 1];
	if (g->mod.len)
		snprintf(ug->mods, sizeof(ug->mods), ":%.*s", (int)g->mod.len, text + g->mod.pos);
	for (unsigned k = 0; k < g->n; k++) {
		int err = add_member(s, text, g->ev[k]);
		if (err)
			return err;
	}
	return 0;
}

/* The -e grammar's own split (events/evsyntax.c): the screen refuses what -e refuses. */
int uspec_parse(const char *text, struct uspec *s)
{
	s->nev = s->ng = 0;
	text = text ? text : "";
	if (text[strspn(text, " \t\n")] == '\0')
		return 0;
	struct evsyntax_group *gs;
	unsigned n;
	int err = evsyntax_split(text, &gs, &n, NULL);
	if (err)
		return err; /* it frees its own */
	for (unsigned g = 0; !err && g < n; g++)
		err = add_group(s, text, &gs[g]);
	free(gs);
	if (err)
		s->nev = s->ng = 0;
	return err;
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
