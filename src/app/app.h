/* The state pmutop's composition shares, and no function: run.c (the loop), start.c,
 * view.c, screen.c, procact.c, replayrun.c and main.c each declare theirs in a header of
 * their own (docs/ARCHITECTURE.md, "src/app, one direction"). events/ counts, src/ models
 * and writes, ui/ draws. */
#ifndef PMUTOP_APP_H
#define PMUTOP_APP_H
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "batchsink.h"
#include "catalog.h"
#include "cgroup.h"
#include "cgrows.h"
#include "cli.h"
#include "cmdout.h"
#include "columns.h"
#include "config.h"
#include "evset.h"
#include "metricbind.h"
#include "exporter.h"
#include "history.h"
#include "pmu.h"
#include "listen.h"
#include "listing.h"
#include "loop.h"
#include "procfs.h"
#include "recfmt.h"
#include "record.h"
#include "recsink.h"
#include "replay.h"
#include "replayclock.h"
#include "sink.h"
#include "source.h"
#include "sources.h"
#include "startup.h"
#include "text.h"
#ifdef PMUTOP_HAVE_UI
#include "ui.h"
#endif

#define MAX_PANES 8

struct ui;
struct ui_cmd;
struct replay_search;

/* The header's facts the composition knows and no source does, set on the model it
 * shows (app_current). */
struct app_header {
	const char *pmus;   /* a->pmu_names */
	const char *notice; /* a->notice, or NULL when empty */
	bool paused;	    /* the screen's pause */
	int exit_status;    /* the watched command's wait status once it is reaped, or -1 */
};

/* Batch replay's place in the recording (replayrun.c). */
struct replay_batch {
	uint64_t seq; /* the tick to print next */
	double end;   /* --end */
	long blocks, lost;
	char first[512]; /* why the first tick left out was */
};

struct app;

/* What the run calls up into: the front end (the screen, live or replayed; screen.c).
 * Each is a no-op (false) where there is no screen. */
struct frontend_ops {
	bool (*message)(struct app *a, const char *line); /* false: not shown */
	void (*resize)(struct app *a);
	void (*continued)(struct app *a);
	bool (*stop)(struct app *a);		/* Ctrl-Z; false: pmutop stops itself */
	bool (*quit)(struct app *a, int signo); /* SIGINT, SIGTERM, ...: the run ends */
	void (*output)(struct app *a);		/* the watched command wrote */
	void (*ticked)(struct app *a);
	void (*draw)(struct app *a);
};

/* The run loop's parts for this run's source, chosen once where it is made. */
struct app_run {
	/* A tick's pass (-1 to go on, or the exit code) and the keys (true: quit). */
	int (*pass)(struct app *a, int mask);
	bool (*keys)(struct app *a);
	bool flat;	  /* no waiting between passes (a batch replay) */
	double ticked_at; /* evclock_now() after the source's last tick */
	long ticks;	  /* intervals counted (-n) */
};

/* pmutop -r FILE. */
struct app_play {
	struct replay *rp;	      /* -r FILE */
	bool playing;		      /* the replay screen plays at the recorded pace (Space) */
	int speed;		      /* ... times that pace: 1, 10 or 60 (x) */
	struct replay_pace pace;      /* playing: when (evclock) it was at which recorded time */
	struct replay_search *search; /* a replay's spike search under way (} {), or NULL */
	/* t, T, b, x, } and { (screen_command's travel): the replay screen's; true: quit */
	bool (*travel)(struct app *a, const struct ui_cmd *cmd);
	struct replay_batch rb;
};

/* pmutop -- COMMAND. */
struct app_command {
	pid_t pid;
	int status;
	bool done;
	bool quit_asked;	 /* q with the command running: the next q stops it */
	struct cmdout *out;	 /* the screen's command: its own terminal, its last lines */
	bool viewing;		 /* o: the command's lines are on the terminal, not the screen */
	unsigned long view_seq;	 /* the next of its lines to print while viewing */
	struct termios view_tio; /* the terminal's mode to restore after viewing */
	bool copy_said;		 /* --command-output's failure is on the screen */
};

/* What -u, -C and -G asked for, checked. */
struct app_scope {
	uid_t user_uid;	   /* -u */
	int cg_fd[64];	   /* -G: each cgroup's directory */
	char *cg_path[64]; /* and its path under the cgroup2 root */
	unsigned ncg;
	int cpus[1024]; /* -C: the CPUs asked for */
	int ncpus;
};

/* The setup file. */
struct app_setup {
	struct config cfg;
	char cfg_path[512];
	char cfg_note[640];
	char user_spec[CONFIG_EVENTS_MAX];
	bool sort_from_cfg; /* a->cli.sort came from the setup file (its line: cfg) */
};

/* What the screen shows beside the source's model. */
struct app_screen {
	bool dirty;		 /* the screen is to be drawn again */
	bool first_tick;	 /* the screen's first frame comes after a short interval */
	struct cgrows *cgrows;	 /* --cgroups, or G on the screen */
	bool show_cgroups;	 /* the screen shows cgroup rows (G) */
	bool cmdline;		 /* the screen shows arguments (c) */
	struct model cgview;	 /* the source's model with cgroup rows for process rows */
	struct history *history; /* the screen's trends and charts: the rows it shows */
};

/* The panes of the current model. */
struct app_panes {
	struct pane p[MAX_PANES];
	unsigned n;
	bool threads; /* made for thread rows */
};

struct app {
	struct cli cli;
	const struct frontend_ops *fe; /* NULL: none */
	struct pmu_set *pmus;
	struct evset *set;	     /* heap: the source keeps a pointer to it */
	struct metric_bind *metrics; /* -M: the chosen metrics, their groups in set */
	struct catalog *catalog;
	struct source *src; /* what counts: a row of the table of sources (sources.h) or a
			       recording; a row that gives up is swapped for the next one */
	const struct source_kind *kind; /* src's row; NULL: a recording */
	struct srcopts eopts;		/* what the source was made with, for that swap */
	struct loop *loop;
	struct sinks sinks; /* every output of the run: each tick's model goes to all */
	struct ui *ui;	    /* the screen, also one of the sinks; NULL without it */
	struct app_run run;
	struct app_play play;
	struct app_command cmd;
	struct app_scope scope;
	FILE *out;	       /* batch output: stdout, or -o FILE */
	struct app_header hdr; /* set on the source's model by app_current */
	struct model live;     /* the source's model with hdr: what app_current shows */
	struct app_screen scr;
	struct privs privs;
	struct app_setup setup;
	char notice[2048];
	char pmu_names[256];
	struct app_panes panes;
};

#endif
