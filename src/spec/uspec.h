/* The user's event spec as text (perf -e syntax), split into groups and members so that
 * the screen can add, remove and move events and write the spec back. Pure text: the
 * names are checked by main.c when it builds the set, not here. */
#ifndef PMUTOP_USPEC_H
#define PMUTOP_USPEC_H

#include <stdbool.h>
#include <stddef.h>

#define USPEC_TEXT 1024 /* the longest spec (the setup file's limit) */
#define USPEC_EVENTS 128
#define USPEC_NAME 128
#define USPEC_MODS 32

struct uspec_group {
	char mods[USPEC_MODS]; /* what follows '}' (":u"), "" none */
	bool braced;	       /* written as {...} */
};

/* Members in spec order; each group's members are contiguous. */
struct uspec {
	char ev[USPEC_EVENTS][USPEC_NAME];
	unsigned group[USPEC_EVENTS];
	unsigned nev;
	struct uspec_group g[USPEC_EVENTS];
	unsigned ng;
};

/* Split text by the -e grammar (events/evsyntax.h): it refuses what -e refuses. Returns
 * 0, -EINVAL (what evsyntax_split refuses: empty events, stray braces, bad modifiers)
 * or -E2BIG (too many events, a name too long); s is then empty. */
int uspec_parse(const char *text, struct uspec *s);
/* Write s back. Returns 0, or -E2BIG when it does not fit in len (buf is then ""). */
int uspec_format(const struct uspec *s, char *buf, size_t len);
/* Group g as text ("{cycles,instructions}:u"). */
void uspec_group_text(const struct uspec *s, unsigned g, char *buf, size_t len);
/* The first member of group g, and how many it has. */
unsigned uspec_group_first(const struct uspec *s, unsigned g, unsigned *n);

/* Add name to group g, or as a group of its own when g < 0 or g >= s->ng. Returns 0,
 * -E2BIG or -EINVAL (an empty name). */
int uspec_add(struct uspec *s, const char *name, int g);
/* Remove member i; a group left empty goes too. Returns 0 or -ENOENT. */
int uspec_remove(struct uspec *s, unsigned i);
/* Move member i into group g (< 0: a group of its own). A member leaving a group with
 * modifiers keeps them (it goes alone as {x}:mods). Returns 0 or -ENOENT. */
int uspec_move(struct uspec *s, unsigned i, int g);

#endif
