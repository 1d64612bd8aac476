/* The perf -e grammar without the names: a spec split into groups of event spans with
 * their group modifiers, and perf's modifier letters. Knows no event; used by evspec,
 * which includes it for the limits and the error below. */
#ifndef PMUTOP_EVSYNTAX_H
#define PMUTOP_EVSYNTAX_H

#include <stdbool.h>
#include <stddef.h>

#define EV_NAME_MAX 96 /* an event's name as written, NUL included */
#define EVGROUP_MAX 16 /* members of one group */

/* Where and why parsing failed. */
struct evspec_err {
	size_t pos;		 /* byte offset into the spec string */
	char token[EV_NAME_MAX]; /* the offending name or text */
	char reason[256];	 /* why, in one sentence naming the event, when the parser
				  * knows better than "unknown" or "syntax" (a libpfm4 event
				  * that needs a umask, a PMU not on this machine...); "" else */
};

/* spec[pos..pos+len) */
struct evsyntax_span {
	size_t pos;
	size_t len;
};

/* One group as written: member spans and the group modifier (len 0 if none). An event
 * outside braces is a group of one. */
struct evsyntax_group {
	unsigned n;
	struct evsyntax_span ev[EVGROUP_MAX];
	struct evsyntax_span mod;
	bool braced; /* written in braces ("{a}" is a group of one too) */
};

struct evsyntax_mod {
	bool u, k, h;
	bool idle;	 /* I: exclude_idle */
	bool guest_only; /* G: exclude_host */
	bool host_only;	 /* H: exclude_guest */
};

/* Split spec into a heap array of *n groups (free() it). Events end at ',', '{', '}' or
 * whitespace, except inside the slashes of pmu/.../ where commas separate terms. Nested,
 * empty or unclosed groups, empty events, stray braces and bad group modifiers are
 * -EINVAL, a group over EVGROUP_MAX members -E2BIG; err says where. */
int evsyntax_split(const char *spec, struct evsyntax_group **out, unsigned *n,
		   struct evspec_err *err);

/* The span of s when it is exactly one event (surrounding whitespace allowed), else
 * -EINVAL where a list or group starts. */
int evsyntax_one(const char *s, struct evsyntax_span *sp, struct evspec_err *err);

/* perf's modifier letters m[0..n). u, k, h, I, G and H are recorded; p, P, S, D, W and e
 * ask for precision, sampling, pinning or group policies that pmutop decides itself, so
 * they are accepted (perf users paste them) and ignored. Anything else, or nothing, is
 * -EINVAL with *bad its index. */
int evsyntax_mods(const char *m, size_t n, struct evsyntax_mod *mod, size_t *bad);

/* Fill err (if not NULL) with pos and tok[0..len), cut to fit, and return ret. */
int evsyntax_fail(struct evspec_err *err, int ret, size_t pos, const char *tok, size_t len);

#endif
