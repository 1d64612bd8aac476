/* pmutop --connect URL [--connect-config FILE]: another pmutop's --listen as the source.
 * Each tick is the newest model that host served at GET /pmutop/v1/tick, every row as it
 * shows them there. A host that stops answering keeps its last rows, each value n/c
 * (WHY_STALE), with one line saying since when; it is read again when it answers. */
#ifndef PMUTOP_REMOTESRC_H
#define PMUTOP_REMOTESRC_H

#include <stddef.h>

#include "source.h"

/* Connected, with the host's first tick read (waiting up to wait_s for one), or NULL with
 * one line in err: a bad URL or config, a refused port, an untrusted certificate, a
 * wrong user or password, no pmutop there. */
struct source *remotesrc_new(const char *url, const char *config, double wait_s, char *err,
			     size_t errlen);

/* The table's row (remotekind.c), asked by its name "connect" with srcopts.own this:
 * remotesrc_new's arguments; its one line goes to err. */
struct remoteopts {
	const char *url, *config;
	double wait_s;
	char *err;
	size_t errlen;
};
extern const struct source_kind remote_kind;

#endif
