/* The pieces of pmutop's composition that share its state: main.c (options, start-up,
 * batch mode), main_screen.c (the live screen) and main_replay.c (a recording). Only
 * these three files see every room: events/ counts, src/ models and writes, ui/ draws. */
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
struct replay_search;

/* The header's facts the composition knows and no source does, set on the model it
 * shows (app_current). */
struct app_header {
	const char *pmus;   /* a->pmu_names */
	const char *notice; /* a->notice, or NULL when empty */
	bool paused;	    /* the screen's pause */
	int exit_status;    /* the watched command's wait status once it is reaped, or -1 */
};

/* Batch replay's place in the recording (main_replay.c). */
struct replay_batch {
	uint64_t seq; /* the tick to print next */
	double end;   /* --end */
	long blocks, lost;
	char first[512]; /* why the first tick left out was */
};

struct app {
	struct cli cli;
	struct pmu_set *pmus;
	struct evset *set;	     /* heap: the source keeps a pointer to it */
	struct metric_bind *metrics; /* -M: the chosen metrics, their groups in set */
	struct catalog *catalog;
	struct source *src; /* what counts: a row of the table of sources (sources.h) or a
			       recording; a row that gives up is swapped for the next one */
	const struct source_kind *kind; /* src's row; NULL: a recording */
	struct srcopts eopts;		/* what the source was made with, for that swap */
	double ticked_at;		/* evclock_now() after the source's last tick */
	struct loop *loop;
	struct sinks sinks; /* every output of the run: each tick's model goes to all */
	long ticks;	    /* intervals counted (-n) */
	struct ui *ui;	    /* the screen, also one of the sinks; NULL without it */
	bool dirty;	    /* the screen is to be drawn again */
	bool first_tick;    /* the screen's first frame comes after a short interval */
	/* The run loop's parts for this run's source, chosen once where it is made: a tick's
	 * pass (-1 to go on, or the exit code) and the keys (true: quit). flat: no waiting
	 * between passes (a batch replay). */
	int (*pass)(struct app *a, int mask);
	bool (*keys)(struct app *a);
	bool flat;
	struct replay *rp;	      /* -r FILE */
	bool playing;		      /* the replay screen plays at the recorded pace (Space) */
	int speed;		      /* ... times that pace: 1, 10 or 60 (x) */
	struct replay_pace pace;      /* playing: when (evclock) it was at which recorded time */
	struct replay_search *search; /* a replay's spike search under way (} {), or NULL */
	struct replay_batch rb;
	pid_t child; /* pmutop -- COMMAND */
	int child_status;
	bool child_done;
	bool quit_asked;	 /* q with the command running: the next q stops it */
	struct cmdout *cmdout;	 /* the screen's command: its own terminal, its last lines */
	bool viewing;		 /* o: the command's lines are on the terminal, not the screen */
	unsigned long view_seq;	 /* the next of its lines to print while viewing */
	struct termios view_tio; /* the terminal's mode to restore after viewing */
	bool copy_said;		 /* --command-output's failure is on the screen */
	uid_t user_uid;		 /* -u */
	int cg_fd[64];		 /* -G: each cgroup's directory */
	int cpus[1024];		 /* -C: the CPUs asked for */
	int ncpus;
	char *cg_path[64]; /* and its path under the cgroup2 root */
	unsigned ncg;
	FILE *out;		 /* batch output: stdout, or -o FILE */
	struct cgrows *cgrows;	 /* --cgroups, or G on the screen */
	bool show_cgroups;	 /* the screen shows cgroup rows (G) */
	bool cmdline;		 /* the screen shows arguments (c) */
	struct app_header hdr;	 /* set on the source's model by app_current */
	struct model live;	 /* the source's model with hdr: what app_current shows */
	struct model cgview;	 /* the source's model with cgroup rows for process rows */
	struct history *history; /* the screen's trends and charts: the rows it shows */
	struct privs privs;
	struct config cfg;
	char cfg_path[512];
	char cfg_note[640];
	char user_spec[CONFIG_EVENTS_MAX];
	char notice[2048];
	char pmu_names[256];
	struct pane panes[MAX_PANES];
	unsigned npanes;
	bool panes_threads;
	bool sort_from_cfg; /* a->cli.sort came from the setup file (its line: cfg) */
};

/* One line on stderr, "pmutop: " first, sanitised. */
__attribute__((format(printf, 1, 2))) void app_say(const char *fmt, ...);

/* The model every output shows: the engine's with the header's facts (a->live, made
 * again at each call: the screen holds it), or the replayed tick's. */
const struct model *app_current(struct app *a);
/* The panes of the current model (and for batch mode the one asked for). */
void app_build_panes(struct app *a);
/* The one run loop: live (screen or not), and the replay screen. Its exit code. */
int app_run(struct app *a);
/* A signal, handled for the whole run: true when it ends the run. */
bool app_signal(struct app *a, int signo);
/* A live tick's pass of app_run: the interval, then for a watched command or pid that
 * ended, its totals. -1 to go on, or the run's exit code. */
int live_pass(struct app *a, int mask);
/* A control for the source (source.h): a refusal (-ENOTSUP) is one line ("not for a
 * recording"); a source that gives up (bpf refusing an event set or a mode) is swapped
 * for the next row of the table (app_swap). */
int app_control(struct app *a, enum source_ctl what, const void *arg);
/* The source gave up (err): where its row may (SOURCE_GIVES_UP), the next row that counts
 * the same counts set from now on, one notice line says so, and every sink goes on. 0,
 * or err when it may not, or -errno when the next cannot start either. */
int app_swap(struct app *a, const struct evset *set, int err);
/* The current model to every sink. */
void app_publish(struct app *a);
/* One interval counted, then written by every sink. */
void app_tick(struct app *a);
/* The watched command's totals, with its exit status. */
void app_totals(struct app *a);
void app_reap_child(struct app *a);
int app_child_exit_code(int status);
/* Close the batch output and file (stdout, or -o's) at the run's end: code, or 1 when
 * what was written could not be (saying so for -o). */
int app_close_output(struct app *a, FILE *file, int code);
/* main_start.c: -p, -C, the setup file and the event set, -u and -G checked, each refusal
 * one line and exit 2; then the source the options ask for started (exit on failure). */
void app_start_checks(struct app *a);
void app_start_source(struct app *a);
/* An event set from the user's spec on top of the default one. */
int app_make_set(struct app *a, const char *user, struct evset *out, char *msg, size_t len);
/* The setup file, as the command line allows. */
void app_load_config(struct app *a);

/* The live screen (main_screen.c): a sink of the run loop, and its keys. Each is a
 * no-op (false) without the screen. */
int screen_open(struct app *a); /* 0, or the exit code after saying why not */
void screen_close(struct app *a);
bool screen_message(struct app *a, const char *line); /* false: no screen to show it */
void screen_resize(struct app *a);
void screen_continued(struct app *a);
bool screen_stop(struct app *a);	    /* Ctrl-Z; false: pmutop stops without a screen */
bool screen_quit(struct app *a, int signo); /* SIGINT, SIGTERM, ...: the run ends */
void screen_output(struct app *a);	    /* the watched command wrote */
void screen_ticked(struct app *a);
bool screen_input(struct app *a); /* keys; true: quit */
void screen_draw(struct app *a);
#ifdef PMUTOP_HAVE_UI
const struct model *app_view(struct app *a);
void app_show(struct app *a, struct ui *ui);
void app_feed_history(struct app *a, struct ui *ui);
void app_apply_metrics(struct app *a, struct ui *ui, const struct user_metric *m, unsigned n);
void app_save_config(struct app *a, struct ui *ui);
#endif

/* pmutop -r FILE (main_replay.c). */
int run_replay(struct app *a);

#endif
