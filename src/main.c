/* pmutop: composes the rooms. events/ counts, src/ models and writes, ui/ draws. */
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "catalog.h"
#include "cgroup.h"
#include "cgrows.h"
#include "cli.h"
#include "columns.h"
#include "config.h"
#include "engine.h"
#include "evset.h"
#include "exporter.h"
#include "pmu.h"
#include "listen.h"
#include "listing.h"
#include "loop.h"
#include "procfs.h"
#include "recfmt.h"
#include "record.h"
#include "replay.h"
#include "startup.h"
#include "text.h"
#ifdef PMUTOP_HAVE_UI
#include "ui.h"
#endif

#define MAX_PANES 8

struct app {
	struct cli cli;
	struct pmu_set *pmus;
	struct evset *set; /* heap: the engine keeps a pointer to it */
	struct catalog *catalog;
	struct engine *engine;
	struct batch *batch;
	struct loop *loop;
	struct exporter *exporter; /* --listen */
	struct recorder *rec;	   /* -w FILE */
	struct replay *rp;	   /* -r FILE */
	pid_t child;		   /* pmutop -- COMMAND */
	int child_status;
	bool child_done;
	bool quit_asked;   /* q with the command running: the next q stops it */
	uid_t user_uid;	   /* -u */
	int cg_fd[64];	   /* -G: each cgroup's directory */
	char *cg_path[64]; /* and its path under the cgroup2 root */
	unsigned ncg;
	FILE *out;	       /* batch output: stdout, or -o FILE */
	struct cgrows *cgrows; /* --cgroups, or G on the screen */
	bool show_cgroups;     /* the screen shows cgroup rows (G) */
	struct model cgview;   /* the engine's model with cgroup rows for process rows */
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

/* One line on stderr, "pmutop: " first. What the user typed (an event spec, a path, a
 * pid list) can hold escape sequences: no control reaches the terminal. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	char raw[2048], safe[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	size_t n = strlen(raw);
	if (n && raw[n - 1] == '\n')
		raw[n - 1] = '\0';
	text_sanitize(raw, safe, sizeof(safe), true);
	fprintf(stderr, "pmutop: %s\n", safe);
}

static void die_usage(const char *msg)
{
	say("%s", msg);
	exit(2);
}

/* Each event gets a slot for each tick. Raise the soft descriptor limit to the hard one
 * before opening thousands of them. */
static void raise_nofile(void)
{
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) != 0)
		return;
	/* With CAP_SYS_RESOURCE the hard limit can go up to fs.nr_open too. */
	FILE *f = fopen("/proc/sys/fs/nr_open", "r");
	unsigned long nr_open = 0;
	if (f) {
		if (fscanf(f, "%lu", &nr_open) != 1)
			nr_open = 0;
		fclose(f);
	}
	if (nr_open > r.rlim_max) {
		struct rlimit big = {.rlim_cur = nr_open, .rlim_max = nr_open};
		if (setrlimit(RLIMIT_NOFILE, &big) == 0)
			return;
	}
	if (r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

static int child_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

static void reap_child(struct app *a)
{
	if (a->child <= 0 || a->child_done)
		return;
	/* Ended? Leave it a zombie until its last name is read: /proc keeps a zombie's
	 * name, the one its last exec gave it (env python3 ... is python3), and reaping it
	 * first left the name of whatever it was at the last scan. */
	siginfo_t si = {0};
	if (waitid(P_PID, (id_t)a->child, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != a->child)
		return;
	engine_rescan(a->engine);
	int st;
	pid_t r = waitpid(a->child, &st, WNOHANG);
	if (r == a->child) {
		a->child_done = true;
		a->child_status = st;
	}
}

/* The model every output shows: the engine's, or the replayed tick's. */
static const struct model *current(const struct app *a)
{
	return a->rp ? replay_model(a->rp) : engine_model(a->engine);
}

static void build_panes(struct app *a)
{
	const struct model *m = current(a);
	a->npanes = columns_build_panes_ex(m, a->rp ? replay_user_events(a->rp) : a->set->user,
					   a->cfg.metrics, a->cfg.nmetrics, a->panes, MAX_PANES);
	a->panes_threads = m->threads;
	if (!a->cli.batch)
		return;
	/* The pane asked for (--pane, or the setup file's) alone, as the screen shows it;
	 * and the pane of the sort column, whatever it reads, so that the column the rows
	 * are ordered by is printed. */
	int chosen = -1, sorted = -1;
	for (unsigned i = 0; i < a->npanes; i++) {
		if (a->cli.pane && chosen < 0 && strcasecmp(a->panes[i].name, a->cli.pane) == 0)
			chosen = (int)i;
		if (a->cli.sort && sorted < 0 && pane_find_column(&a->panes[i], a->cli.sort) >= 0)
			sorted = (int)i;
	}
	if (chosen >= 0 && pane_find_column(&a->panes[chosen], a->cli.sort ? a->cli.sort : "") >= 0)
		sorted = chosen;
	/* Otherwise every pane but those without a column that can ever hold a number: the
	 * notice says why they are missing, and CSV and JSON still carry each event with its
	 * n/a. */
	unsigned n = 0;
	for (unsigned i = 0; i < a->npanes; i++) {
		/* The user's own events stay, whatever they read. */
		bool mine = strcmp(a->panes[i].name, "Events") == 0;
		bool keep = chosen >= 0 ? (int)i == chosen || (int)i == sorted
					: mine || (int)i == sorted ||
						  !pane_unsupported(m, &a->panes[i]);
		if (keep)
			a->panes[n++] = a->panes[i];
	}
	a->npanes = n;
}

/* One batch block. Returns 0, or the exit code after saying why the output failed: a
 * reader that went away (EPIPE: | head) is a quiet end, any other error is one. */
static int write_block(struct app *a, int *code)
{
	const struct model *m = current(a);
	struct model cg;
	if (a->cli.cgroups) {
		/* The same model with cgroup rows for process rows. */
		cg = *m;
		cg.rows = cgrows_build(a->cgrows, m, &cg.nrows);
		m = &cg;
	}
	int err = batch_write(a->batch, m);
	if (err == 0)
		return 0;
	if (err == -EPIPE) {
		*code = 0;
	} else {
		say("cannot write output: %s\n", strerror(-err));
		*code = 1;
	}
	return -1;
}

/* -w: the tick just counted into the recording. A failure (a full disk) is said once
 * and ends the recording, not the run: the file keeps every tick before it. Returns
 * -1 when recording was all there was to do (-b -q). */
static int record(struct app *a, void *ui)
{
	char err[512];
	if (!a->rec)
		return 0;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (recorder_write(a->rec, engine_model(a->engine), (double)ts.tv_sec + ts.tv_nsec / 1e9,
			   err, sizeof(err)) == 0)
		return 0;
	recorder_close(a->rec);
	a->rec = NULL;
#ifdef PMUTOP_HAVE_UI
	if (ui) {
		ui_message(ui, err);
		return 0;
	}
#else
	(void)ui;
#endif
	say("%s\n", err);
	return a->cli.quiet ? -1 : 0;
}

/* The watched command's totals, with its exit status. */
static void totals(struct app *a)
{
	if (a->child > 0 && a->child_done)
		engine_set_exit_status(a->engine, a->child_status);
	engine_totals(a->engine);
}

/* Batch mode: a block per tick, and for a watched command or pid, a total block when it
 * ends. With -n and a command, as perf stat --interval-count: after N blocks no more
 * interval blocks, but the command is still waited for and its total block printed. */
static int run_batch(struct app *a)
{
	long blocks = 0;
	int code = 0;
	for (;;) {
		struct loop_events ev;
		if (loop_wait(a->loop, &ev) < 0)
			return 1;
		bool stop = false;
		if (ev.mask & LOOP_SIGNAL) {
			if (ev.signo == SIGCHLD)
				reap_child(a);
			else if (ev.signo == SIGINT || ev.signo == SIGTERM || ev.signo == SIGHUP ||
				 ev.signo == SIGQUIT) {
				if (a->child > 0 && !a->child_done && ev.signo != SIGINT)
					kill(a->child, ev.signo);
				if (a->child <= 0)
					return 0;
			} else if (ev.signo == SIGTSTP) {
				raise(SIGSTOP);
			}
		}
		bool ended = a->child > 0 ? a->child_done
					  : (a->cli.npids > 0 && !engine_watched_alive(a->engine));
		if ((ev.mask & LOOP_TICK) || ended) {
			engine_tick(a->engine);
			if (record(a, NULL))
				return 1;
			if (a->npanes == 0 || a->panes_threads != engine_model(a->engine)->threads)
				build_panes(a);
			bool quiet = a->cli.count && blocks >= a->cli.count;
			if (!quiet && !a->cli.quiet && write_block(a, &code))
				return code;
			blocks += !quiet;
			ended = a->child > 0
					? a->child_done
					: (a->cli.npids > 0 && !engine_watched_alive(a->engine));
			if (a->cli.count && blocks >= a->cli.count && !ended && a->child <= 0)
				stop = true;
		}
		if (ended) {
			totals(a);
			if (record(a, NULL))
				return 1;
			if (!a->cli.quiet && write_block(a, &code))
				return code;
			return a->child > 0 ? child_exit_code(a->child_status) : 0;
		}
		if (stop)
			return 0;
	}
}

#ifdef PMUTOP_HAVE_UI
/* Stop the watched command before leaving the screen: sig now (0: the terminal sent
 * it a signal already), SIGKILL if it still runs 2 s later; then reap it, its status
 * pmutop's exit status. Nothing is left running under init. */
static void stop_child(struct app *a, int sig)
{
	if (a->child <= 0 || a->child_done)
		return;
	if (sig)
		kill(a->child, sig);
	const struct timespec step = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 200 && !a->child_done; i++) {
		reap_child(a);
		if (!a->child_done)
			nanosleep(&step, NULL);
	}
	if (a->child_done)
		return;
	kill(a->child, SIGKILL);
	int st;
	if (waitpid(a->child, &st, 0) == a->child) {
		a->child_done = true;
		a->child_status = st;
	}
}

static int make_set(struct app *a, const char *user, struct evset *out, char *msg, size_t len);

/* k: the signal to the process picked, unless it is gone or its pid now names another
 * process (its start time moved): never to a stranger. */
static void send_signal(struct ui *ui, const struct ui_cmd *cmd)
{
	char msg[160];
	struct procfs_task info;
	if (procfs_task_info("", cmd->pid, cmd->pid, &info) != 0 || info.dead ||
	    info.start_ticks != cmd->start)
		snprintf(msg, sizeof(msg), "process %d is gone: no signal sent", (int)cmd->pid);
	else if (kill(cmd->pid, cmd->sig) != 0)
		snprintf(msg, sizeof(msg), "cannot signal %d: %s%s", (int)cmd->pid, strerror(errno),
			 errno == EPERM ? " (another user's: run as root or that user)" : "");
	else
		snprintf(msg, sizeof(msg), "sent SIG%s to %d", sigabbrev_np(cmd->sig),
			 (int)cmd->pid);
	ui_message(ui, msg);
}

/* The model on the screen: the engine's, or (G) the same with cgroup rows. */
static void show(struct app *a, struct ui *ui)
{
	const struct model *m = current(a);
	if (a->show_cgroups && (a->cgrows || (a->cgrows = cgrows_new()))) {
		a->cgview = *m;
		a->cgview.rows = cgrows_build(a->cgrows, m, &a->cgview.nrows);
		m = &a->cgview;
	}
	ui_set_model(ui, m, a->panes, a->npanes);
}

/* Count the user's new events from now on. The groups that stay keep their history;
 * a spec that does not parse changes nothing and says why. */
static void apply_events(struct app *a, struct ui *ui, const char *spec)
{
	char msg[512];
	struct evset *ns = calloc(1, sizeof(*ns));
	if (!ns || make_set(a, spec, ns, msg, sizeof(msg))) {
		if (!ns)
			snprintf(msg, sizeof(msg), "out of memory");
		free(ns);
		ui_set_user_spec(ui, a->user_spec);
		ui_events_refused(ui, msg);
		return;
	}
	if (engine_set_evset(a->engine, ns)) {
		/* The engine may have moved to part of the new layout: it keeps ns. */
		ui_message(ui, "out of memory while switching events: some groups may not count");
	}
	evset_free(a->set);
	free(a->set);
	a->set = ns;
	snprintf(a->user_spec, sizeof(a->user_spec), "%s", spec ? spec : "");
	ui_set_user_spec(ui, a->user_spec);
	engine_tick(a->engine); /* a short interval now rather than an empty screen */
	build_panes(a);
	show(a, ui);
	for (unsigned i = 0; i < ns->nevents; i++)
		if (ns->events[i].status != WHY_NONE && ns->groups[ns->events[i].group].user) {
			snprintf(msg, sizeof(msg), "%s: %s here: its cells read n/a",
				 ns->events[i].name,
				 val_why_str((enum val_why)ns->events[i].status));
			ui_message(ui, msg);
			break;
		}
}

static void apply_metrics(struct app *a, struct ui *ui, const struct user_metric *m, unsigned n)
{
	if (n > CONFIG_METRICS_MAX)
		n = CONFIG_METRICS_MAX;
	if (m != a->cfg.metrics)
		memmove(a->cfg.metrics, m, n * sizeof(*m));
	a->cfg.nmetrics = n;
	ui_set_metrics(ui, a->cfg.metrics, n);
	build_panes(a);
	show(a, ui);
}

static void save_config(struct app *a, struct ui *ui)
{
	char msg[640];
	const struct model *m = engine_model(a->engine);
	a->cfg.interval = a->cli.interval;
	a->cfg.threads = a->cli.threads;
	a->cfg.user_only = m->user_only;
	snprintf(a->cfg.events, sizeof(a->cfg.events), "%s", a->user_spec);
	/* The pane and sort on the screen now (Tab and F6 included). */
	ui_view(ui, a->cfg.pane, sizeof(a->cfg.pane), a->cfg.sort, sizeof(a->cfg.sort),
		&a->cfg.reverse);
	if (!a->cfg_path[0]) {
		ui_message(ui, "cannot save: set XDG_CONFIG_HOME or HOME, or start with -c FILE");
		return;
	}
	int err = config_save(a->cfg_path, &a->cfg);
	if (err)
		snprintf(msg, sizeof(msg), "cannot save %s: %s", a->cfg_path, strerror(-err));
	else
		snprintf(msg, sizeof(msg), "setup saved to %s", a->cfg_path);
	ui_message(ui, msg);
}

/* Engine-side commands from keys. Returns true to quit. */
static bool apply_cmd(struct app *a, struct ui *ui, const struct ui_cmd *cmd, bool *paused,
		      bool *dirty)
{
	bool asked = a->quit_asked;
	a->quit_asked = false;
	switch (cmd->kind) {
	case UI_QUIT:
		if (a->child <= 0 || a->child_done)
			return true;
		if (!asked) {
			a->quit_asked = true;
			ui_message(ui, "the command is still running: q again stops it");
			*dirty = true;
			return false;
		}
		ui_message(ui, "stopping the command (SIGTERM, then SIGKILL after 2 s)");
		ui_draw(ui);
		stop_child(a, SIGTERM);
		return true;
	case UI_SET_INTERVAL:
		a->cli.interval = cmd->interval;
		engine_set_interval(a->engine, cmd->interval);
		if (!*paused)
			loop_set_interval(a->loop, cmd->interval);
		break;
	case UI_TOGGLE_PAUSE:
		*paused = !*paused;
		loop_pause(a->loop, *paused);
		engine_set_paused(a->engine, *paused);
		break;
	case UI_TOGGLE_THREADS:
		a->cli.threads = !a->cli.threads;
		engine_set_threads(a->engine, a->cli.threads);
		break;
	case UI_SIGNAL:
		send_signal(ui, cmd);
		break;
	case UI_TOGGLE_CGROUPS:
		a->show_cgroups = !a->show_cgroups;
		show(a, ui);
		break;
	case UI_TOGGLE_KERNEL:
		engine_set_user_only(a->engine, !engine_model(a->engine)->user_only);
		break;
	case UI_FOCUS_PID:
		engine_set_threads(a->engine, true);
		break;
	case UI_UNFOCUS:
		engine_set_threads(a->engine, a->cli.threads);
		break;
	case UI_SET_EVENTS:
		apply_events(a, ui, cmd->spec);
		break;
	case UI_SET_METRICS:
		apply_metrics(a, ui, cmd->metrics, cmd->nmetrics);
		break;
	case UI_SAVE_CONFIG:
		save_config(a, ui);
		break;
	default:
		break;
	}
	*dirty = true;
	return false;
}

static int run_live(struct app *a)
{
	char err[256];
	/* Without hardware counters the software pane is the one with numbers. */
	const char *pane = a->cli.pane			? a->cli.pane
			   : evset_any_hardware(a->set) ? NULL
							: "Software";
	struct ui_opts o = {.color = !a->cli.no_color, /* ui_new weighs NO_COLOR and TERM */
			    .pane = pane,
			    .sort = a->cli.sort,
			    .reverse = a->cli.reverse};
	struct ui *ui = ui_new(&o, err, sizeof(err));
	if (!ui) {
		say("%s\n", err);
		return 1;
	}
	/* The first frame comes quickly; then every interval. */
	loop_set_interval(a->loop, a->cli.interval < 0.2 ? a->cli.interval : 0.2);
	bool first = true, paused = false, quit = false;
	int code = 0;
	build_panes(a);
	show(a, ui);
	a->catalog = catalog_new(a->pmus);
	ui_set_catalog(ui, a->catalog);
	ui_set_user_spec(ui, a->user_spec);
	ui_set_metrics(ui, a->cfg.metrics, a->cfg.nmetrics);
	ui_draw(ui);
	while (!quit) {
		struct loop_events ev;
		bool dirty = false;
		if (loop_wait(a->loop, &ev) < 0) {
			code = 1;
			break;
		}
		if (ev.mask & LOOP_SIGNAL) {
			switch (ev.signo) {
			case SIGWINCH:
				ui_resize(ui);
				dirty = true;
				break;
			case SIGTSTP:
				ui_suspend(ui);
				raise(SIGSTOP);
				ui_resume(ui);
				dirty = true;
				break;
			case SIGCONT:
				/* Continued after a stop pmutop did not ask for (kill -STOP): the
				 * shell put the terminal back in its own mode meanwhile. Leave and
				 * re-enter curses mode (no-op leaving if Ctrl-Z already did). */
				ui_suspend(ui);
				ui_resume(ui);
				ui_resize(ui);
				dirty = true;
				break;
			case SIGCHLD:
				reap_child(a);
				break;
			case SIGINT:
				/* As under perf stat: the command, in the terminal's foreground
				 * group, got it too; pmutop waits for it and exits with its
				 * status. */
				stop_child(a, 0);
				quit = true;
				break;
			default:
				stop_child(a, ev.signo == SIGHUP || ev.signo == SIGQUIT ? ev.signo
											: SIGTERM);
				quit = true;
				break;
			}
		}
		if (ev.mask & LOOP_TICK) {
			engine_tick(a->engine);
			record(a, ui);
			if (a->panes_threads != engine_model(a->engine)->threads)
				build_panes(a);
			show(a, ui);
			dirty = true;
			if (first) {
				first = false;
				loop_set_interval(a->loop, a->cli.interval);
			}
		}
		bool watched_gone = a->child > 0
					    ? a->child_done
					    : a->cli.npids > 0 && !engine_watched_alive(a->engine);
		if (watched_gone && !engine_model(a->engine)->final) {
			/* The watched process is gone: its totals stay on the screen. */
			engine_tick(a->engine);
			record(a, ui);
			totals(a);
			record(a, ui);
			loop_pause(a->loop, true);
			show(a, ui);
			dirty = true;
		}
		if (ev.mask & LOOP_INPUT) {
			struct ui_cmd cmd;
			while (!quit && ui_input(ui, &cmd) > 0)
				quit = apply_cmd(a, ui, &cmd, &paused, &dirty);
		}
		if (dirty && !quit)
			ui_draw(ui);
	}
	ui_free(ui);
	catalog_free(a->catalog);
	a->catalog = NULL;
	if (a->child > 0 && a->child_done)
		code = child_exit_code(a->child_status);
	return code;
}
#else
static int run_live(struct app *a)
{
	(void)a;
	say("built without the curses screen: use batch mode, pmutop -b\n");
	return 2;
}
#endif

/* One line on why a spec did not parse, with the closest known names. */
static void event_error_text(const struct app *a, const char *spec, int err,
			     const struct evspec_err *e, char *buf, size_t len)
{
	char sugg[4][EV_NAME_MAX];
	if (e->reason[0]) {
		/* The parser knows why (needs a umask, PMU not on this machine, ...). */
		snprintf(buf, len, "%s", e->reason);
		return;
	}
	if (err == -ENOENT) {
		unsigned n = evspec_suggest(e->token, a->pmus, sugg, 4);
		size_t o = (size_t)snprintf(buf, len, "unknown event '%s'", e->token);
		for (unsigned i = 0; i < n && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      i ? ", " : ": did you mean ", sugg[i]);
		if (o < len)
			snprintf(buf + o, len - o, "%s (pmutop --list shows every event)",
				 n ? "?" : "");
	} else if (err == -E2BIG) {
		snprintf(buf, len, "a group in '%s' has more than %d events: split it", spec,
			 EVGROUP_MAX);
	} else {
		size_t pos = e->pos < strlen(spec) ? e->pos : 0;
		snprintf(buf, len,
			 "cannot parse '%s' at '%s' (offset %zu): see pmutop(1) for the "
			 "syntax, e.g. '{cycles,instructions}:u'",
			 spec, e->token[0] ? e->token : spec + pos, e->pos);
	}
}

/* The event set: the default groups (unless -e replaced them) and the user's. */
static int make_set(struct app *a, const char *user, struct evset *out, char *msg, size_t len)
{
	struct evspec_err e;
	memset(&e, 0, sizeof(e));
	const char *base = a->cli.events ? NULL : evset_default_spec();
	int err = evset_build(out, base, user, a->pmus, &e);
	if (err) {
		event_error_text(a, user && *user ? user : "(default)", err, &e, msg, len);
		return err;
	}
	/* Without kernel mode the probe must ask for user mode only, or it reads the
	 * kernel's EACCES for every hardware event instead of what the machine lacks. */
	evset_probe(out, a->cli.user_only || !a->privs.kernel);
	if (!a->privs.kernel)
		startup_mark_kernel_only(out);
	return 0;
}

/* The setup file's events, unless -e replaces them: -EINVAL with "PATH:N: events: why"
 * when they do not parse here (the parser needs the PMUs, so config.c cannot say). */
static int check_cfg_events(struct app *a, char *err, size_t len)
{
	if (a->cli.events || !a->cfg.events[0])
		return 0;
	struct evset tmp;
	struct evspec_err e;
	char msg[400];
	memset(&e, 0, sizeof(e));
	int r = evset_build(&tmp, evset_default_spec(), a->cfg.events, a->pmus, &e);
	if (r == 0) {
		evset_free(&tmp);
		return 0;
	}
	event_error_text(a, a->cfg.events, r, &e, msg, sizeof(msg));
	snprintf(err, len, "%s:%u: events: %s", a->cfg_path, a->cfg.events_line, msg);
	return -EINVAL;
}

/* The setup file: -c FILE must be readable and right (exit 2 otherwise); the default one
 * is optional and, if corrupt, reported in the notice and ignored. Options given on the
 * command line win. */
static void load_config(struct app *a)
{
	char err[640];
	config_init(&a->cfg);
	const char *path = a->cli.config ? a->cli.config
					 : config_default_path(a->cfg_path, sizeof(a->cfg_path));
	if (!path)
		return;
	if (path != a->cfg_path)
		snprintf(a->cfg_path, sizeof(a->cfg_path), "%s", path);
	int r = config_load(path, &a->cfg, err, sizeof(err));
	if (r == -ENOENT && !a->cli.config)
		goto apply;
	if (r == 0)
		r = check_cfg_events(a, err, sizeof(err));
	if (r == 0)
		goto apply;
	/* Only a line of the file (-EINVAL: "PATH:N: ...") can be fixed by editing it. */
	const char *advice = r == -EINVAL ? "fix the line or remove the file"
					  : "give a readable pmutoprc file (pmutoprc(5))";
	if (a->cli.config) {
		if (r == -ENOENT)
			say("no setup file '%s': check the path given to -c\n", path);
		else
			say("%s: %s\n", err, advice);
		exit(2);
	}
	snprintf(a->cfg_note, sizeof(a->cfg_note), "%s (setup file ignored%s%s)", err,
		 r == -EINVAL ? ": " : "", r == -EINVAL ? advice : "");
	config_init(&a->cfg);
apply:
	if (!a->cli.interval_set && a->cfg.interval > 0)
		a->cli.interval = a->cfg.interval;
	if (!a->cli.sort && a->cfg.sort[0]) {
		a->cli.sort = a->cfg.sort;
		a->sort_from_cfg = true;
	}
	if (!a->cli.pane && a->cfg.pane[0])
		a->cli.pane = a->cfg.pane;
	a->cli.reverse = a->cli.reverse || a->cfg.reverse;
	a->cli.threads = a->cli.threads || a->cfg.threads;
	a->cli.user_only = a->cli.user_only || a->cfg.user_only;
	snprintf(a->user_spec, sizeof(a->user_spec), "%s",
		 a->cli.events ? a->cli.events : a->cfg.events);
}

static void setup(struct app *a)
{
	char msg[512];
	raise_nofile();
	a->pmus = pmu_set_new("/sys", true);
	startup_privs(&a->privs);
	load_config(a);
	a->set = calloc(1, sizeof(*a->set));
	if (!a->set) {
		say("out of memory\n");
		exit(1);
	}
	if (make_set(a, a->user_spec, a->set, msg, sizeof(msg))) {
		if (a->cli.events) {
			say("-e: %s\n", msg);
			exit(2);
		}
		/* The setup file's events do not parse here: count the default set. */
		snprintf(a->cfg_note, sizeof(a->cfg_note), "setup file events: %s (ignored)", msg);
		a->user_spec[0] = '\0';
		if (make_set(a, NULL, a->set, msg, sizeof(msg))) {
			say("%s\n", msg);
			exit(1);
		}
	}
	char hw[512], pr[512];
	startup_notice(a->pmus, a->set, hw, sizeof(hw));
	startup_privs_notice(&a->privs, pr, sizeof(pr));
	snprintf(a->notice, sizeof(a->notice), "%s%s%s%s%s", a->cfg_note,
		 *a->cfg_note && (*pr || *hw) ? "; " : "", pr, *pr && *hw ? "; " : "", hw);
	startup_pmu_names(a->pmus, a->pmu_names, sizeof(a->pmu_names));
}

/* A sort column that no pane has: an error from the command line or -c FILE; from the
 * default setup file a notice naming its line, and the default order. Before the watched
 * command runs, so that an exit leaves nothing behind. */
static void check_sort(struct app *a)
{
	if (!a->cli.sort)
		return;
	build_panes(a);
	for (unsigned i = 0; i < a->npanes; i++)
		if (pane_find_column(&a->panes[i], a->cli.sort) >= 0)
			return;
	/* Thread rows come and go on the screen (H), and their THR column with them. */
	if (!a->cli.batch && strcasecmp(a->cli.sort, "THR") == 0)
		return;
	char msg[256];
	snprintf(msg, sizeof(msg),
		 "unknown sort column '%.60s': use a column title such as CPU%%, IPC or CMISS%%",
		 a->cli.sort);
	if (a->sort_from_cfg && !a->cli.config) {
		size_t n = strlen(a->notice);
		snprintf(a->notice + n, sizeof(a->notice) - n, "%s%s:%u: %s (that line ignored)",
			 n ? "; " : "", a->cfg_path, a->cfg.sort_line, msg);
		a->cli.sort = NULL;
		return;
	}
	if (a->child > 0) {
		kill(a->child, SIGKILL);
		waitpid(a->child, NULL, 0);
	}
	if (a->sort_from_cfg)
		say("%s:%u: %s: fix the line or remove the file\n", a->cfg_path, a->cfg.sort_line,
		    msg);
	else
		say("%s\n", msg);
	exit(2);
}

/* -G PATH,...: each cgroup found under the cgroup2 mount and opened (perf's cgroup mode
 * takes its directory's descriptor). A missing one, or no cgroup2: one line, exit 2. */
static void open_cgroups(struct app *a)
{
	if (!a->cli.cgroup_list)
		return;
	char mnt[512];
	if (cgroup_mount("", mnt, sizeof(mnt)) != 0) {
		say("-G: no cgroup2 hierarchy is mounted here (see /proc/self/mountinfo)\n");
		exit(2);
	}
	if (!a->privs.cpus) {
		say("-G counts per CPU, which needs root, CAP_PERFMON or "
		    "kernel.perf_event_paranoid <= 0 (now %d)\n",
		    a->privs.paranoid);
		exit(2);
	}
	char list[1024];
	snprintf(list, sizeof(list), "%s", a->cli.cgroup_list);
	char *save = NULL;
	for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		while (*p == '/')
			p++;
		char dir[1600];
		snprintf(dir, sizeof(dir), "%s/%s", mnt, p);
		int fd = a->ncg < 64 ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		if (fd < 0) {
			say("-G: no cgroup '/%s' under %s%s\n", p, mnt,
			    a->ncg < 64 ? "" : " (64 at most)");
			exit(2);
		}
		size_t n = strlen(p) + 2;
		a->cg_path[a->ncg] = malloc(n);
		if (!a->cg_path[a->ncg])
			exit(1);
		snprintf(a->cg_path[a->ncg], n, "/%s", p);
		a->cg_fd[a->ncg++] = fd;
	}
}

/* -u: a user by name or uid; without the privilege to count others, only oneself. */
static void check_user(struct app *a)
{
	if (!a->cli.user)
		return;
	char buf[4096], *end;
	struct passwd pw, *res = NULL;
	if (getpwnam_r(a->cli.user, &pw, buf, sizeof(buf), &res) == 0 && res) {
		a->user_uid = res->pw_uid;
	} else {
		errno = 0;
		unsigned long v = strtoul(a->cli.user, &end, 10);
		if (!isdigit((unsigned char)a->cli.user[0]) || *end || errno || v >= UINT32_MAX) {
			say("no user '%s' (-u): give a user name or a uid\n", a->cli.user);
			exit(2);
		}
		a->user_uid = (uid_t)v;
	}
	if (!a->privs.others && a->user_uid != geteuid()) {
		say("-u %s: counting another user's processes needs root or CAP_PERFMON\n",
		    a->cli.user);
		exit(2);
	}
}

/* -p names processes: a thread id would make a row that is only part of one. */
static void check_pids(const struct app *a)
{
	for (unsigned i = 0; i < a->cli.npids; i++) {
		pid_t tgid = procfs_tgid("", a->cli.pids[i]);
		if (tgid > 0 && tgid != a->cli.pids[i]) {
			say("%d is a thread of process %d: use -p %d\n", (int)a->cli.pids[i],
			    (int)tgid, (int)tgid);
			exit(2);
		}
	}
}

static void start_engine(struct app *a)
{
	struct engine_opts o = {.root = "",
				.scope = SCOPE_ALL,
				.threads = a->cli.threads,
				.per_cpu = (a->cli.per_cpu || !a->cli.batch) && a->privs.cpus,
				.no_cpu_rows = a->cli.batch && !a->cli.per_cpu,
				.map_probes = a->privs.pin,
				.user_only = a->cli.user_only,
				.no_kernel = !a->privs.kernel,
				.only_uid = !a->privs.others || a->cli.user,
				.uid = a->cli.user ? a->user_uid : geteuid(),
				.interval = a->cli.interval};
	int go = -1, errfd = -1;
	if (a->cli.command) {
		int err = startup_spawn(a->cli.command, &a->child, &go, &errfd);
		if (err) {
			say("cannot start '%s': %s\n", a->cli.command[0], strerror(-err));
			exit(1);
		}
		o.scope = SCOPE_PIDS;
		o.pids = &a->child;
		o.npids = 1;
		o.enable_on_exec = true;
		o.inherit = !a->cli.no_inherit;
		o.threads = a->cli.threads; /* -H, or H on the screen */
	} else if (a->ncg) {
		o.scope = SCOPE_CGROUPS;
		o.cgroup_fds = a->cg_fd;
		o.cgroup_paths = (const char *const *)a->cg_path;
		o.ncgroups = a->ncg;
	} else if (a->cli.npids) {
		o.scope = SCOPE_PIDS;
		o.pids = a->cli.pids;
		o.npids = a->cli.npids;
		o.threads = true;
	}
	int err;
	pid_t bad = 0;
	o.failed_pid = &bad;
	a->engine = engine_new(a->set, &o, &err);
	if (!a->engine) {
		if (a->child > 0)
			kill(a->child, SIGKILL);
		if (err == -ESRCH)
			say("no such process %d: check the pid with ps -p %d\n", (int)bad,
			    (int)bad);
		else if (err == -EACCES) {
			char msg[512];
			startup_pid_refusal(&a->privs, bad, msg, sizeof(msg));
			say("%s\n", msg);
		} else
			say("cannot start counting: %s\n", strerror(-err));
		exit(err == -ESRCH || err == -EACCES ? 2 : 1);
	}
	check_sort(a);
	engine_set_header(a->engine, a->pmu_names, a->notice[0] ? a->notice : NULL);
	if (a->child > 0) {
		err = startup_release(go, errfd);
		if (err) {
			say("cannot run '%s': %s\n", a->cli.command ? a->cli.command[0] : "?",
			    strerror(-err));
			waitpid(a->child, NULL, 0);
			exit(127);
		}
		engine_rescan(a->engine); /* its name after the exec */
	}
}

/* -r with --begin/--end: their times against the recording, or exit 2. */
static void replay_window(struct app *a, double *begin, double *end)
{
	uint64_t f, l;
	double wf, wl;
	*begin = -1e18;
	*end = 1e18;
	if (replay_span(a->rp, &f, &l, &wf, &wl))
		return;
	const char *bad = NULL;
	if (a->cli.begin && recfmt_parse_time(a->cli.begin, wf, wl, begin))
		bad = a->cli.begin;
	if (a->cli.end && recfmt_parse_time(a->cli.end, wf, wl, end))
		bad = a->cli.end;
	if (bad) {
		say("invalid time '%s': give HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m or +1h\n", bad);
		exit(2);
	}
	if (*begin > *end) {
		say("--begin is after --end: nothing to print\n");
		exit(2);
	}
}

/* A tick of the recording into the model, or exit: a damaged file ends the run. */
static int replay_goto(struct app *a, uint64_t seq, char *err, size_t len)
{
	int r = replay_load(a->rp, seq, err, len);
	if (r && r != -ENOENT) {
		say("%s\n", err);
		return r;
	}
	if (r == 0 && (a->npanes == 0 || a->panes_threads != current(a)->threads))
		build_panes(a);
	return r;
}

/* -r -b: the recorded ticks in the window, as batch mode printed them then. */
static int run_replay_batch(struct app *a)
{
	char err[512];
	double begin, end;
	uint64_t seq;
	int code = 0;
	long blocks = 0;
	replay_window(a, &begin, &end);
	if (replay_find(a->rp, begin, &seq))
		return 0;
	for (;;) {
		int r = replay_goto(a, seq, err, sizeof(err));
		if (r && r != -ENOENT)
			return 2;
		if (r == 0 && replay_wall(a->rp) > end)
			break;
		if (r == 0 && !a->batch) {
			a->batch = batch_new(a->out, a->cli.format, a->panes, a->npanes,
					     a->cli.sort, a->cli.reverse);
			if (!a->batch)
				return 1;
			if (!batch_sort_ok(a->batch)) {
				say("unknown sort column '%s': use a column title such as "
				    "CPU%%, IPC or CMISS%%\n",
				    a->cli.sort);
				return 2;
			}
			batch_show_cpus(a->batch, a->cli.per_cpu);
			if (current(a)->notice)
				batch_notice(a->batch, current(a)->notice);
		}
		if (r == 0 && write_block(a, &code))
			return code;
		blocks += r == 0;
		if ((a->cli.count && blocks >= a->cli.count) || replay_step(a->rp, seq, 1, &seq))
			break;
	}
	return code;
}

#ifdef PMUTOP_HAVE_UI
/* The header's REPLAY field: the tick's recorded time, and where it is in the file. */
static void replay_header(struct app *a, struct ui *ui, bool playing)
{
	char at[32], text[96];
	uint64_t f, l;
	double wf, wl;
	recfmt_time_text(replay_wall(a->rp), at, sizeof(at));
	if (replay_span(a->rp, &f, &l, &wf, &wl) == 0)
		snprintf(text, sizeof(text), "%s %s (%llu/%llu)", playing ? "PLAY" : "REPLAY", at,
			 (unsigned long long)(replay_seq(a->rp) - f + 1),
			 (unsigned long long)(l - f + 1));
	else
		snprintf(text, sizeof(text), "REPLAY %s", at);
	ui_set_replay(ui, text);
}

/* -r on the screen: t/T step, b jumps, space plays at the recorded pace. */
static bool replay_cmd(struct app *a, struct ui *ui, const struct ui_cmd *cmd, bool *playing)
{
	char err[512];
	uint64_t seq = replay_seq(a->rp), to = seq;
	switch (cmd->kind) {
	case UI_QUIT:
		return true;
	case UI_STEP:
		if (replay_step(a->rp, seq, cmd->step, &to))
			ui_message(ui, cmd->step > 0 ? "the last recorded tick"
						     : "the first recorded tick");
		break;
	case UI_JUMP: {
		uint64_t f, l;
		double wf, wl, t;
		if (replay_span(a->rp, &f, &l, &wf, &wl) ||
		    recfmt_parse_time(cmd->spec, wf, wl, &t)) {
			ui_message(ui,
				   "not a time: give HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m or +1h");
			break;
		}
		replay_find(a->rp, t, &to);
		break;
	}
	case UI_TOGGLE_PAUSE:
		*playing = !*playing;
		loop_pause(a->loop, !*playing);
		break;
	case UI_TOGGLE_CGROUPS:
		a->show_cgroups = !a->show_cgroups;
		break;
	case UI_SET_METRICS:
		apply_metrics(a, ui, cmd->metrics, cmd->nmetrics);
		break;
	case UI_SET_EVENTS:
		ui_events_refused(ui, "a replay has the recorded events only: record others "
				      "with pmutop -e SPEC -w FILE");
		break;
	case UI_SAVE_CONFIG:
		save_config(a, ui);
		break;
	case UI_FOCUS_PID:
	case UI_UNFOCUS:
	case UI_REDRAW:
	case UI_NONE:
		break;
	case UI_TOGGLE_THREADS:
		ui_message(ui, current(a)->threads
				       ? "thread rows are in the recording"
				       : "no thread rows were recorded: record with -H");
		break;
	default:
		ui_message(ui, "a replay counts nothing: that is for the live screen");
		break;
	}
	if (to != seq && replay_goto(a, to, err, sizeof(err)) &&
	    replay_goto(a, seq, err, sizeof(err)))
		return true;
	replay_header(a, ui, *playing);
	show(a, ui);
	return false;
}

static int run_replay_live(struct app *a)
{
	char err[512];
	double begin, end;
	uint64_t seq;
	struct ui_opts o = {.color = !a->cli.no_color,
			    .pane = a->cli.pane,
			    .sort = a->cli.sort,
			    .reverse = a->cli.reverse};
	replay_window(a, &begin, &end);
	if (replay_find(a->rp, begin, &seq) || replay_goto(a, seq, err, sizeof(err)))
		return 2;
	/* As live: without hardware counters the software pane is the one with numbers. */
	bool hw = false;
	for (unsigned i = 0; i < current(a)->nevents; i++)
		hw = hw ||
		     (current(a)->events[i].hardware && current(a)->events[i].status == WHY_NONE);
	if (!o.pane && !hw)
		o.pane = "Software";
	struct ui *ui = ui_new(&o, err, sizeof(err));
	if (!ui) {
		say("%s\n", err);
		return 1;
	}
	bool playing = false, quit = false;
	int code = 0;
	loop_pause(a->loop, true);
	ui_set_user_spec(ui, NULL);
	ui_set_metrics(ui, a->cfg.metrics, a->cfg.nmetrics);
	replay_header(a, ui, playing);
	show(a, ui);
	ui_draw(ui);
	while (!quit) {
		struct loop_events ev;
		if (loop_wait(a->loop, &ev) < 0) {
			code = 1;
			break;
		}
		if (ev.mask & LOOP_SIGNAL) {
			if (ev.signo == SIGWINCH) {
				ui_resize(ui);
			} else if (ev.signo == SIGTSTP) {
				ui_suspend(ui);
				raise(SIGSTOP);
				ui_resume(ui);
			} else if (ev.signo == SIGCONT) {
				ui_suspend(ui);
				ui_resume(ui);
				ui_resize(ui);
			} else if (ev.signo != SIGCHLD) {
				quit = true;
			}
		}
		if ((ev.mask & LOOP_TICK) && playing) {
			/* At the recorded pace: the next tick after the interval it covers. */
			struct ui_cmd step = {.kind = UI_STEP, .step = 1};
			uint64_t before = replay_seq(a->rp);
			quit = replay_cmd(a, ui, &step, &playing);
			if (replay_seq(a->rp) == before) {
				playing = false; /* the end: it waits there */
				loop_pause(a->loop, true);
				replay_header(a, ui, playing);
			} else {
				loop_set_interval(a->loop, current(a)->elapsed > 0.05
								   ? current(a)->elapsed
								   : current(a)->interval);
			}
		}
		if (ev.mask & LOOP_INPUT) {
			struct ui_cmd cmd;
			while (!quit && ui_input(ui, &cmd) > 0)
				quit = replay_cmd(a, ui, &cmd, &playing);
			if (playing)
				loop_set_interval(a->loop, current(a)->interval);
		}
		if (!quit)
			ui_draw(ui);
	}
	ui_free(ui);
	return code;
}
#else
static int run_replay_live(struct app *a)
{
	(void)a;
	say("built without the curses screen: replay in batch mode, pmutop -r FILE -b\n");
	return 2;
}
#endif

/* pmutop -r FILE: nothing is counted; the recording is the source. */
static int run_replay(struct app *a)
{
	char err[512];
	a->rp = replay_open(a->cli.replay, err, sizeof(err));
	if (!a->rp) {
		say("%s\n", err);
		return 2;
	}
	a->pmus = pmu_set_new("/sys", true);
	load_config(a);
	a->out = stdout;
	if (a->cli.output && !(a->out = fopen(a->cli.output, "we"))) {
		say("cannot write '%s' (-o): %s\n", a->cli.output, strerror(errno));
		replay_close(a->rp);
		return 2;
	}
	int lerr;
	a->loop = loop_new(1.0, a->cli.batch ? -1 : STDIN_FILENO, &lerr);
	if (!a->loop) {
		say("cannot set up timers and signals: %s\n", strerror(-lerr));
		return 1;
	}
	if (a->cli.cgroups && !(a->cgrows = cgrows_new()))
		return 1;
	int code = a->cli.batch ? run_replay_batch(a) : run_replay_live(a);
	if (a->out != stdout && a->out && fclose(a->out) && code == 0) {
		say("cannot write '%s' (-o): %s\n", a->cli.output, strerror(errno));
		code = 1;
	}
	batch_free(a->batch);
	cgrows_free(a->cgrows);
	loop_free(a->loop);
	replay_close(a->rp);
	pmu_set_free(a->pmus);
	return code;
}

int main(int argc, char **argv)
{
	static struct app a;
	char err[512];
	setlocale(LC_ALL, "");
	if (cli_parse(argc, argv, &a.cli, err, sizeof(err)))
		die_usage(err);
	if (a.cli.help) {
		cli_usage(stdout);
		return 0;
	}
	if (a.cli.version) {
		printf("pmutop %s\n", PMUTOP_VERSION);
		return 0;
	}
	if (a.cli.list) {
		struct pmu_set *pmus = pmu_set_new("/sys", true);
		int lerr = listing_print(stdout, pmus, a.cli.list_pmu);
		pmu_set_free(pmus);
		if (lerr == -ENOENT && strpbrk(a.cli.list_pmu, "*?["))
			say("no event name matches '%s': pmutop --list all shows every one\n",
			    a.cli.list_pmu);
		else if (lerr == -ENOENT)
			say("no PMU or event heading called '%s': pmutop --list all shows "
			    "them all\n",
			    a.cli.list_pmu);
		else if (lerr)
			say("cannot list events: %s\n", strerror(-lerr));
		if (lerr)
			return lerr == -ENOENT ? 2 : 1;
		return 0;
	}
	if (!a.cli.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		die_usage(a.cli.replay ? "the replay screen needs a terminal: use pmutop -r FILE -b"
				       : "the live screen needs a terminal: use batch mode, e.g. "
					 "pmutop -b -n 3");
	if (a.cli.replay)
		return run_replay(&a);
	check_pids(&a);
	setup(&a);
	check_user(&a);
	open_cgroups(&a);
	a.out = stdout;
	if (a.cli.output && !(a.out = fopen(a.cli.output, "we"))) {
		say("cannot write '%s' (-o): %s\n", a.cli.output, strerror(errno));
		return 2;
	}
	int lerr;
	/* Signals are blocked from here on (the child unblocks its own). */
	a.loop = loop_new(a.cli.interval, a.cli.batch ? -1 : STDIN_FILENO, &lerr);
	if (!a.loop) {
		say("cannot set up timers and signals: %s\n", strerror(-lerr));
		return 1;
	}
	if (a.cli.listen) { /* after loop_new: its thread inherits the blocked signals */
		a.exporter = exporter_new(a.cli.listen, a.cli.web_config, err, sizeof(err));
		if (!a.exporter)
			die_usage(err);
	}
	if (a.cli.record) {
		struct record_opts ro = {.retain_days = a.cli.retain_days,
					 .max_size = a.cli.max_size};
		a.rec = recorder_open(a.cli.record, &ro, err, sizeof(err));
		if (!a.rec) {
			say("%s\n", err);
			return 2;
		}
	}
	start_engine(&a);
	/* Start-up can take as long as an interval: the first one starts now. */
	loop_set_interval(a.loop, a.cli.interval);
	int code;
	if (a.cli.listen) {
		struct promacc_opts po = {.top = (unsigned)a.cli.top,
					  .watched = a.child > 0 ? &a.child : a.cli.pids,
					  .nwatched = a.child > 0 ? 1 : a.cli.npids,
					  .per_cpu = a.cli.per_cpu};
		code = listen_run(a.engine, a.loop, a.exporter, &po);
		exporter_free(a.exporter);
	} else if (a.cli.batch) {
		build_panes(&a);
		a.batch = batch_new(a.out, a.cli.format, a.panes, a.npanes, a.cli.sort,
				    a.cli.reverse);
		if (!a.batch)
			return 1;
		if (!batch_sort_ok(a.batch)) {
			say("unknown sort column '%s': use a column title such as "
			    "CPU%%, IPC or CMISS%%\n",
			    a.cli.sort);
			return 2;
		}
		batch_show_cpus(a.batch, a.cli.per_cpu);
		if (a.cli.cgroups && !(a.cgrows = cgrows_new()))
			return 1;
		if (a.notice[0])
			batch_notice(a.batch, a.notice);
		code = run_batch(&a);
	} else {
		code = run_live(&a);
	}
	recorder_close(a.rec);
	batch_free(a.batch);
	cgrows_free(a.cgrows);
	engine_free(a.engine);
	loop_free(a.loop);
	if (a.set)
		evset_free(a.set);
	free(a.set);
	pmu_set_free(a.pmus);
	return code;
}
