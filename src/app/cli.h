/* Command-line options: parsed and validated here, acted on in main.c. */
#ifndef PMUTOP_CLI_H
#define PMUTOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "batch.h" /* enum out_format */

#define CLI_MAX_PIDS 64
/* The longest -e list plus its NUL (the setup file holds as much: CONFIG_EVENTS_MAX). */
#define CLI_EVENTS_MAX 1024
/* The panes --pane and the setup file's "pane" may name (src/columns.c builds them). */
#define CLI_PANES "IPC, Cache, Branch, Software, Events, Top-down or Metrics"

struct cli {
	bool batch;
	long count;	 /* -n: blocks to print, 0 = until stopped */
	double interval; /* -d seconds */
	bool interval_set;
	const char *events;	 /* -e SPEC, or NULL for the default set */
	bool per_cpu;		 /* --per-cpu */
	bool threads;		 /* -H */
	bool cgroups;		 /* --cgroups: cgroup rows instead of process rows (batch) */
	const char *cgroup_list; /* -G PATH[,PATH...]: count those cgroups themselves */
	const char *cpu_list;	 /* -C CPUS: per-CPU rows and -G on these CPUs only */
	bool user_only;		 /* --user: hardware events exclude kernel mode */
	bool no_inherit;	 /* -i: -- COMMAND counts the command alone, not its children */
	bool children_flag, inherit_flag; /* --children, -i given (they need a command) */
	enum out_format format;
	const char *sort; /* --sort COL */
	bool reverse;	  /* --reverse */
	const char *pane; /* --pane NAME */
	pid_t pids[CLI_MAX_PIDS];
	unsigned npids;
	char **command;		    /* after --, NULL-terminated, or NULL */
	const char *command_output; /* --command-output FILE: the command's output, copied */
	bool list;		    /* --list [PMU] */
	const char *list_pmu;
	bool no_color;
	bool no_mouse;	    /* --no-mouse */
	const char *config; /* -c FILE */
	const char *user;   /* -u USER: that user's processes only (a name or a uid) */
	const char *output; /* -o FILE: batch output there, not on stdout */
	const char *listen; /* --listen [ADDR:]PORT: serve /metrics, no screen */
	long top;	    /* --top N: process series exported (default 100) */
	bool top_set;
	const char *web_config;	    /* --web-config FILE: TLS, basic auth for --listen */
	const char *connect;	    /* --connect URL: another pmutop's --listen as the source */
	const char *connect_config; /* --connect-config FILE: its TLS and credentials */
	const char *prometheus;	    /* --prometheus URL: a fleet from a Prometheus */
	const char *match;	    /* --match MATCHERS: which of its targets */
	const char *record;	    /* -w FILE: record every tick */
	const char *replay;	    /* -r FILE: replay a recording */
	bool quiet;		    /* -q: with -w -b, no output but the recording */
	double retain_days;	    /* --retain DAYS */
	uint64_t max_size;	    /* --max-size SIZE, bytes */
	const char *begin, *end;    /* --begin T, --end T (with -r) */
	const char *sql;	    /* --sql QUERY (with -r) */
	const char *backend;	    /* --backend: a row of the table of sources (sources.h);
				       NULL: auto, the first that counts what is asked */
	const char *metric_list;    /* -M LIST: metrics and metric groups, as perf stat -M */
	const char *metrics_file;   /* --metrics FILE.json: perf's pmu-events metrics */
	bool help, version;
};

/* Parse argv. Returns 0, or -EINVAL with one line in err saying what was wrong and
 * what to do. */
int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen);
void cli_usage(FILE *f);
/* True when name is one of CLI_PANES (case-insensitive, as the screen matches them). */
bool cli_pane_ok(const char *name);

/* Strict number parsing for options: the whole string, within [min, max] (seconds:
 * interval_parse). */
int cli_parse_count(const char *s, long *out);

#endif
