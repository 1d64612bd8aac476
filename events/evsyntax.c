/* The perf -e grammar without the names: groups, events, commas, braces and modifier
 * letters. Reports every structural error with its position; knows no event. */
#include "evsyntax.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int evsyntax_fail(struct evspec_err *err, int ret, size_t pos, const char *tok, size_t len)
{
	if (err) {
		if (len >= EV_NAME_MAX)
			len = EV_NAME_MAX - 1;
		err->pos = pos;
		memcpy(err->token, tok, len);
		err->token[len] = '\0';
	}
	return ret;
}

static int evsyntax_fail_at(struct evspec_err *err, int ret, const char *spec, size_t pos)
{
	size_t len = spec[pos] ? strcspn(spec + pos + 1, ",{} \t\n") + 1 : 0;

	return evsyntax_fail(err, ret, pos, spec + pos, len);
}

static size_t evsyntax_skip_ws(const char *s, size_t i)
{
	while (isspace((unsigned char)s[i]))
		i++;
	return i;
}

int evsyntax_mods(const char *m, size_t n, struct evsyntax_mod *mod, size_t *bad)
{
	*bad = 0;
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		switch (m[i]) {
		case 'u':
			mod->u = true;
			break;
		case 'k':
			mod->k = true;
			break;
		case 'h':
			mod->h = true;
			break;
		case 'I':
			mod->idle = true;
			break;
		case 'G':
			mod->guest_only = true;
			break;
		case 'H':
			mod->host_only = true;
			break;
		case 'p':
		case 'P':
		case 'S':
		case 'D':
		case 'W':
		case 'e':
			break;
		default:
			*bad = i;
			return -EINVAL;
		}
	}
	return 0;
}

/* The event starting at spec[*i]: up to a separator, whitespace or brace outside the
 * slashes of pmu/.../, where commas and spaces separate terms instead. */
static int evsyntax_event(const char *spec, size_t *i, struct evsyntax_span *sp,
			  struct evspec_err *err)
{
	size_t j = *i, slash = 0;
	bool inside = false;

	for (; spec[j]; j++) {
		if (spec[j] == '/') {
			inside = !inside;
			slash = j;
		} else if (!inside && (strchr(",{}", spec[j]) || isspace((unsigned char)spec[j]))) {
			break;
		}
	}
	if (inside)
		return evsyntax_fail(err, -EINVAL, slash, spec + slash, j - slash);
	if (j == *i)
		return evsyntax_fail_at(err, -EINVAL, spec, j); /* ",,", "{a,}", trailing ',' */
	sp->pos = *i;
	sp->len = j - *i;
	*i = j;
	return 0;
}

/* "{a,b,...}" at spec[*i], with its optional ":mods". */
static int evsyntax_braces(const char *spec, size_t *i, struct evsyntax_group *g,
			   struct evspec_err *err)
{
	struct evsyntax_mod mod = {0};
	struct evsyntax_span sp;
	size_t j = *i + 1, bad;
	int ret;

	for (;;) {
		j = evsyntax_skip_ws(spec, j);
		if (spec[j] == '{' || (spec[j] == '}' && g->n == 0) || spec[j] == '\0')
			/* nested, empty or unclosed */
			return evsyntax_fail_at(err, -EINVAL, spec, j);
		ret = evsyntax_event(spec, &j, &sp, err);
		if (ret < 0)
			return ret;
		if (g->n == EVGROUP_MAX)
			return evsyntax_fail(err, -E2BIG, sp.pos, spec + sp.pos, sp.len);
		g->ev[g->n++] = sp;
		j = evsyntax_skip_ws(spec, j);
		if (spec[j] == '}')
			break;
		if (spec[j] != ',')
			return evsyntax_fail_at(err, -EINVAL, spec, j);
		j++;
	}
	j++;
	if (spec[j] == ':') {
		g->mod.pos = ++j;
		while (spec[j] && !strchr(",{}", spec[j]) && !isspace((unsigned char)spec[j]))
			j++;
		g->mod.len = j - g->mod.pos;
		if (evsyntax_mods(spec + g->mod.pos, g->mod.len, &mod, &bad) < 0)
			return evsyntax_fail_at(err, -EINVAL, spec, g->mod.pos + bad);
	}
	*i = j;
	return 0;
}

int evsyntax_split(const char *spec, struct evsyntax_group **out, unsigned *nout,
		   struct evspec_err *err)
{
	struct evsyntax_group *gs = NULL, *tmp;
	unsigned n = 0;
	size_t i = 0;
	int ret;

	for (;;) {
		if (!(tmp = realloc(gs, (n + 1) * sizeof(*gs)))) {
			ret = -ENOMEM;
			break;
		}
		gs = tmp;
		memset(&gs[n], 0, sizeof(gs[n]));
		i = evsyntax_skip_ws(spec, i);
		if (spec[i] == '{') {
			gs[n].braced = true;
			ret = evsyntax_braces(spec, &i, &gs[n], err);
		} else if (spec[i] == '}') {
			ret = evsyntax_fail_at(err, -EINVAL, spec, i);
		} else {
			gs[n].n = 1;
			ret = evsyntax_event(spec, &i, &gs[n].ev[0], err);
		}
		if (ret < 0)
			break;
		n++;
		i = evsyntax_skip_ws(spec, i);
		if (spec[i] == '\0') {
			*out = gs;
			*nout = n;
			return 0;
		}
		if (spec[i] != ',') {
			ret = evsyntax_fail_at(err, -EINVAL, spec, i);
			break;
		}
		i++;
	}
	free(gs);
	return ret;
}

int evsyntax_one(const char *s, struct evsyntax_span *sp, struct evspec_err *err)
{
	size_t i = evsyntax_skip_ws(s, 0);
	int ret;

	if (s[i] == '{' || s[i] == '}')
		return evsyntax_fail_at(err, -EINVAL, s, i);
	ret = evsyntax_event(s, &i, sp, err);
	if (ret < 0)
		return ret;
	i = evsyntax_skip_ws(s, i);
	return s[i] ? evsyntax_fail_at(err, -EINVAL, s, i) : 0;
}
