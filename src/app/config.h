/* The setup file ($XDG_CONFIG_HOME/pmutop/pmutoprc, or -c FILE): interval, sort, pane,
 * the user's events and derived columns, in a human-editable text format (pmutop(1),
 * FILES). Parsing never trusts the file: an error names its line and the file is
 * ignored. */
#ifndef PMUTOP_CONFIG_H
#define PMUTOP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "columns.h"

#define CONFIG_EVENTS_MAX CLI_EVENTS_MAX
#define CONFIG_METRICS_MAX USER_METRICS_MAX
#define CONFIG_PANES_MAX 8

struct config {
	double interval; /* 0: not set */
	char sort[32];	 /* column name, "" not set */
	bool reverse;
	char pane[32]; /* "" not set */
	bool threads;
	bool user_only;
	char events[CONFIG_EVENTS_MAX]; /* the user's event spec (perf -e syntax), "" none */
	struct user_metric metrics[CONFIG_METRICS_MAX];
	unsigned nmetrics;
	/* "columns PANE NAME,NAME,...": which columns a pane shows, in order (pane_select) */
	struct config_columns {
		char pane[32];
		char list[512];
	} columns[CONFIG_PANES_MAX];
	unsigned ncolumns;
	/* Where sort and events were read (0: not from a file), for main.c's messages about
	 * what only it can check. Not part of the setup: not written, not compared. */
	unsigned sort_line, events_line;
};

/* Defaults: everything unset. */
void config_init(struct config *c);

/* Parse text (len bytes; need not be NUL-terminated) into c, replacing all of it.
 * Returns 0, or -EINVAL with "line N: what is wrong" in err; c is only changed on
 * success. */
int config_parse(const char *text, size_t len, struct config *c, char *err, size_t errlen);

/* Read and parse path. -ENOENT when it does not exist (no message), -EINVAL with
 * "PATH:N: what is wrong" (only a line of the file gives -EINVAL), or another -errno with
 * "PATH: reason" (-EISDIR a directory, -ENODEV not a regular file, -EFBIG too large). */
int config_load(const char *path, struct config *c, char *err, size_t errlen);

/* Write c to path (creating its directory), atomically (temporary file + rename).
 * Returns 0, -EINVAL for a setup that would not read back the same, or -errno. */
int config_save(const char *path, const struct config *c);

/* The columns line for pane (case-insensitive), or NULL. */
const char *config_columns(const struct config *c, const char *pane);
/* Set (list non-empty) or clear (NULL or "") pane's columns line. Returns 0 or -ENOSPC. */
int config_set_columns(struct config *c, const char *pane, const char *list);

/* $XDG_CONFIG_HOME/pmutop/pmutoprc, else $HOME/.config/pmutop/pmutoprc. NULL when
 * neither variable is set. */
const char *config_default_path(char *buf, size_t len);

#endif
