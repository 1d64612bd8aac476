/* pmutop's live screen: the engine's model on the ui, and the ui's commands to the
 * engine. Part of the composition (app.h). */
#include "screen.h"

#include "procact.h"
#include "run.h"
#include "start.h"
#include "view.h"

#include <sys/stat.h>

#ifdef PMUTOP_HAVE_UI
/* Stop the watched command before leaving the screen: sig now (0: the terminal sent
 * it a signal already), SIGKILL if it still runs 2 s later; then reap it, its status
 * pmutop's exit status. Nothing is left running under init. */
static void stop_child(struct app *a, int sig)
{
	if (a->cmd.pid <= 0 || a->cmd.done)
		return;
	/* On its own terminal the command leads its process group: all of it gets sig. */
	pid_t to = a->cmd.out ? -a->cmd.pid : a->cmd.pid;
	if (sig)
		kill(to, sig);
	const struct timespec step = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 200 && !a->cmd.done; i++) {
		app_reap_child(a);
		if (!a->cmd.done)
			nanosleep(&step, NULL);
	}
	if (a->cmd.done)
		return;
	kill(to, SIGKILL);
	int st;
	if (waitpid(a->cmd.pid, &st, 0) == a->cmd.pid) {
		a->cmd.done = true;
		a->cmd.status = st;
	}
}

/* Ctrl-Z: on pmutop's terminal the command stopped with it; on its own it is stopped
 * (SIGSTOP: a group without a parent in its session ignores SIGTSTP) and continued with
 * pmutop. */
static void hold_child(struct app *a, int sig)
{
	if (a->cmd.out && a->cmd.pid > 0 && !a->cmd.done)
		kill(-a->cmd.pid, sig);
}

/* Count the user's new events from now on. The groups that stay keep their history;
 * a spec that does not parse changes nothing and says why. */
static void apply_events(struct app *a, struct ui *ui, const char *spec)
{
	char msg[512];
	struct evset *ns = calloc(1, sizeof(*ns));
	if (!ns || app_make_set(a, spec, ns, msg, sizeof(msg))) {
		if (!ns)
			snprintf(msg, sizeof(msg), "out of memory");
		free(ns);
		/* A recording has the recorded events only: none of the user's to edit. */
		ui_set_user_spec(ui,
				 source_caps(a->src) & SRC_CAN_COUNT ? a->setup.user_spec : NULL);
		ui_events_refused(ui, msg);
		return;
	}
	int err = app_control(a, SRC_EVSET, ns);
	if (err == -ENOMEM) {
		/* The engine may have moved to part of the new layout: it keeps ns. */
		ui_message(ui, "out of memory while switching events: some groups may not count");
	}
	evset_free(a->set);
	free(a->set);
	a->set = ns;
	snprintf(a->setup.user_spec, sizeof(a->setup.user_spec), "%s", spec ? spec : "");
	/* A recording has the recorded events only: none of the user's to edit. */
	ui_set_user_spec(ui, source_caps(a->src) & SRC_CAN_COUNT ? a->setup.user_spec : NULL);
	/* A short interval now rather than an empty screen, to every output. */
	if ((err = source_tick(a->src)) != 0)
		app_swap(a, ns, err);
	app_build_panes(a);
	app_publish(a);
	for (unsigned i = 0; i < ns->nevents; i++)
		if (ns->events[i].status != WHY_NONE && ns->groups[ns->events[i].group].user) {
			snprintf(msg, sizeof(msg), "%s: %s here: its cells read n/a",
				 ns->events[i].name,
				 val_why_str((enum val_why)ns->events[i].status));
			ui_message(ui, msg);
			break;
		}
}

static bool utf8_locale(void)
{
	const char *l = setlocale(LC_CTYPE, NULL);
	return l && (strcasestr(l, "UTF-8") || strcasestr(l, "utf8"));
}

/* While viewing: the command's lines printed since, then the line it is writing. */
static void view_more(struct app *a)
{
	char part[CMDOUT_LINE_MAX];
	fputc('\r', stdout);
	a->cmd.view_seq = cmdout_print(a->cmd.out, stdout, a->cmd.view_seq, utf8_locale());
	cmdout_partial(a->cmd.out, part, sizeof(part), utf8_locale());
	fputs(part, stdout);
	fflush(stdout);
}

/* The command's last lines that fit on the terminal under a line saying what they are,
 * from the terminal's current line on. */
static void show_tail(struct app *a, const char *what)
{
	struct winsize ws = {0};
	unsigned long rows =
		ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 4 ? ws.ws_row - 4U : 20;
	unsigned long seq = cmdout_seq(a->cmd.out);
	a->cmd.view_seq = seq > rows ? seq - rows : 0;
	printf("\npmutop: %s's output (%lu line%s, the last %d kept)%s\n", a->cli.command[0], seq,
	       seq == 1 ? "" : "s", CMDOUT_LINES, what);
	view_more(a);
}

/* o: leave the screen for the command's last lines, as many as the terminal holds, and
 * what it prints meanwhile, until a key. The counting goes on. */
static void view_begin(struct app *a, struct ui *ui)
{
	if (!a->cmd.out) {
		ui_message(ui, "o shows the output of a watched command: pmutop -- COMMAND");
		return;
	}
	ui_suspend(ui);
	struct termios t;
	if (tcgetattr(STDIN_FILENO, &a->cmd.view_tio) == 0) {
		t = a->cmd.view_tio;
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}
	a->cmd.viewing = true;
	show_tail(a, "; any key returns");
}

/* Leaving the screen: what the command printed last stays in sight, as it would on a
 * terminal it shared. */
static void show_last(struct app *a)
{
	if (!a->cmd.out)
		return;
	cmdout_drain(a->cmd.out);
	char part[CMDOUT_LINE_MAX];
	cmdout_partial(a->cmd.out, part, sizeof(part), utf8_locale());
	if (!cmdout_seq(a->cmd.out) && !part[0])
		return;
	show_tail(a, a->cli.command_output ? "" : "; --command-output FILE keeps all of it");
	if (part[0])
		putchar('\n');
	fflush(stdout);
}

static void view_end(struct app *a, struct ui *ui)
{
	if (!a->cmd.viewing)
		return;
	a->cmd.viewing = false;
	tcsetattr(STDIN_FILENO, TCSANOW, &a->cmd.view_tio);
	ui_resume(ui);
}

/* The command wrote: keep its lines; once its side is closed, stop polling it. */
static void take_output(struct app *a)
{
	if (!cmdout_drain(a->cmd.out) && cmdout_fd(a->cmd.out) >= 0 && !a->cmd.viewing)
		return;
	if (cmdout_fd(a->cmd.out) < 0)
		loop_watch(a->loop, -1);
	if (a->cmd.viewing)
		view_more(a);
}

/* --command-output failed (a full disk): said once, on the screen. */
static void copy_failed(struct app *a, struct ui *ui)
{
	char msg[512];
	int err = cmdout_copy_error(a->cmd.out);
	if (!err || a->cmd.copy_said)
		return;
	a->cmd.copy_said = true;
	snprintf(msg, sizeof(msg), "cannot write '%s' (--command-output): %s; no longer copied",
		 a->cli.command_output, strerror(-err));
	ui_message(ui, msg);
}

/* q: with a watched command running, a second q stops it. */
static bool cmd_quit(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)cmd;
	bool asked = a->cmd.quit_asked;
	if (a->cmd.pid <= 0 || a->cmd.done)
		return true;
	if (!asked) {
		a->cmd.quit_asked = true;
		ui_message(ui, "the command is still running: q again stops it");
		return false;
	}
	ui_message(ui, "stopping the command (SIGTERM, then SIGKILL after 2 s)");
	ui_draw(ui);
	stop_child(a, SIGTERM);
	return true;
}

static bool cmd_interval(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)ui;
	a->cli.interval = cmd->interval;
	app_control(a, SRC_INTERVAL, &cmd->interval);
	if (!a->hdr.paused)
		loop_set_interval(a->loop, cmd->interval);
	return false;
}

/* Z: counting stops and goes on; a recording plays and stops. */
static bool cmd_pause(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)ui, (void)cmd;
	if (source_caps(a->src) & SRC_CAN_TRAVEL) {
		a->play.playing = !a->play.playing;
		loop_pause(a->loop, !a->play.playing);
		return false;
	}
	a->hdr.paused = !a->hdr.paused;
	loop_pause(a->loop, a->hdr.paused);
	app_control(a, SRC_PAUSE, &a->hdr.paused);
	return false;
}

/* H, c: the rows made again now, paused too, as K: a short interval. */
static bool cmd_rows(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)ui;
	bool *on = cmd->kind == UI_TOGGLE_THREADS ? &a->cli.threads : &a->scr.cmdline;
	*on = !*on;
	app_control(a, cmd->kind == UI_TOGGLE_THREADS ? SRC_THREADS : SRC_CMDLINE, on);
	if (!source_model(a->src)->final)
		app_tick(a);
	return false;
}

static bool cmd_act(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)a;
	procact_run(ui, cmd);
	return false;
}

static bool cmd_cgroups(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)cmd;
	if (a->scope.ncg) {
		ui_message(ui, "-G counts the cgroups themselves: there are no process rows");
		return false;
	}
	a->scr.show_cgroups = !a->scr.show_cgroups;
	bool cg = a->scr.show_cgroups || a->cli.record || a->cli.listen;
	if (source_caps(a->src) & SRC_CAN_COUNT)
		app_control(a, SRC_CGROUP_ROWS, &cg);
	/* A fleet's rows are its source's own, of one kind: the other kind asked now (a short
	 * interval, as H), never the old rows under the new heading until the next tick. */
	const struct model *m = source_model(a->src);
	if (m->fleet && !m->final)
		app_tick(a);
	app_show(a, ui);
	return false;
}

static bool cmd_columns(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	if (config_set_columns(&a->setup.cfg, cmd->spec, cmd->columns))
		ui_message(ui, "too many panes with chosen columns: W saves the first 8");
	return false;
}

static bool cmd_kernel(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)cmd;
	if (source_model(a->src)->final) {
		ui_message(ui, "the watched process has ended: its totals stay as counted");
		return false;
	}
	bool uo = !source_model(a->src)->user_only;
	app_control(a, SRC_USER_ONLY, &uo);
	/* The source may have opened again (bpf): the rows the screen holds (G's too) point
	 * into what it freed. A short interval now, as for new events. */
	app_tick(a);
	return false;
}

static bool cmd_focus(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	if (cmd->kind == UI_UNFOCUS) {
		app_control(a, SRC_THREADS, &a->cli.threads);
		return false;
	}
	/* As -p says: a thread's row would be only part of its process. */
	pid_t tgid = procfs_tgid("", cmd->pid);
	if (tgid > 0 && tgid != cmd->pid) {
		char msg[96];
		snprintf(msg, sizeof(msg), "%d is a thread of process %d: use p %d", (int)cmd->pid,
			 (int)tgid, (int)tgid);
		ui_focus_refused(ui, msg);
		return false;
	}
	app_control(a, SRC_THREADS, &(bool){true});
	return false;
}

static bool cmd_events(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	apply_events(a, ui, cmd->spec);
	if (!a->hdr.paused) /* after its short tick, whole intervals: not two short ones */
		loop_set_interval(a->loop, a->cli.interval);
	return false;
}

static bool cmd_metrics(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	app_apply_metrics(a, ui, cmd->metrics, cmd->nmetrics);
	return false;
}

static bool cmd_save(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)cmd;
	app_save_config(a, ui);
	return false;
}

static bool cmd_output(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)cmd;
	view_begin(a, ui);
	return false;
}

/* t, T, b, x, } and {: the replay's own (replayrun.c). */
static bool cmd_travel(struct app *a, struct ui *ui, const struct ui_cmd *cmd)
{
	(void)ui;
	return a->play.travel && a->play.travel(a, cmd);
}

/* The screen's commands, for every source: what each needs of the source (SRC_CAN_*);
 * one the source cannot take is answered by why in one line (source_refusal), or
 * nothing when why is NULL (the screen does it alone: a recording's arguments and a
 * focused pid are already its rows). */
struct cmd_row {
	enum ui_cmd_kind kind;
	unsigned need;
	bool (*fn)(struct app *a, struct ui *ui, const struct ui_cmd *cmd);
	const char *why;
};

#define ACTS_WHY "kill, renice and affinity act on this machine's processes only"

static const struct cmd_row cmd_table[] = {
	{UI_QUIT, 0, cmd_quit, NULL},
	{UI_SET_INTERVAL, SRC_CAN_COUNT, cmd_interval, "it keeps the recorded intervals"},
	{UI_TOGGLE_PAUSE, 0, cmd_pause, NULL},
	{UI_TOGGLE_THREADS, SRC_CAN_COUNT, cmd_rows,
	 "its thread rows are the recorded ones (pmutop -H -w FILE records them)"},
	{UI_TOGGLE_CMDLINE, SRC_CAN_COUNT, cmd_rows, NULL},
	{UI_SIGNAL, SRC_CAN_ACT, cmd_act, ACTS_WHY},
	{UI_RENICE, SRC_CAN_ACT, cmd_act, ACTS_WHY},
	{UI_AFFINITY_ASK, SRC_CAN_ACT, cmd_act, ACTS_WHY},
	{UI_AFFINITY, SRC_CAN_ACT, cmd_act, ACTS_WHY},
	{UI_TOGGLE_CGROUPS, 0, cmd_cgroups, NULL},
	{UI_SET_COLUMNS, 0, cmd_columns, NULL},
	{UI_TOGGLE_KERNEL, SRC_CAN_COUNT, cmd_kernel,
	 "its kernel mode is the recorded one (K counts live)"},
	{UI_FOCUS_PID, SRC_CAN_COUNT, cmd_focus, NULL},
	{UI_UNFOCUS, SRC_CAN_COUNT, cmd_focus, NULL},
	{UI_SET_EVENTS, SRC_CAN_COUNT, cmd_events,
	 "it has the recorded events only: record others with pmutop -e SPEC -w FILE"},
	{UI_SET_METRICS, 0, cmd_metrics, NULL},
	{UI_SAVE_CONFIG, 0, cmd_save, NULL},
	{UI_SHOW_OUTPUT, 0, cmd_output, NULL},
	{UI_STEP, SRC_CAN_TRAVEL, cmd_travel, "t and T step through a recording: pmutop -r FILE"},
	{UI_JUMP, SRC_CAN_TRAVEL, cmd_travel, "b travels through a recording: pmutop -r FILE"},
	{UI_SPEED, SRC_CAN_TRAVEL, cmd_travel, "x plays a recording: pmutop -r FILE"},
	{UI_SPIKE, SRC_CAN_TRAVEL, cmd_travel, "} and { search a recording: pmutop -r FILE"},
};

bool screen_command(struct app *a, const struct ui_cmd *cmd)
{
	struct ui *ui = a->ui;
	bool quit = false;
	if (cmd->kind != UI_QUIT)
		a->cmd.quit_asked = false;
	for (size_t i = 0; i < sizeof(cmd_table) / sizeof(cmd_table[0]); i++) {
		const struct cmd_row *r = &cmd_table[i];
		if (r->kind != cmd->kind)
			continue;
		if ((source_caps(a->src) & r->need) != r->need) {
			char line[320];
			if (!r->why)
				break;
			source_refusal(a->src, r->why, line, sizeof(line));
			if (cmd->kind == UI_SET_EVENTS)
				ui_events_refused(ui, line);
			else
				ui_message(ui, line);
			break;
		}
		quit = r->fn(a, ui, cmd);
		break;
	}
	a->scr.dirty = true;
	app_current(a); /* the model the screen holds, as the command left it */
	return quit;
}

/* The source's refusal of k, F7, F8 and a, on the screen before their dialogs. */
void screen_source_changed(struct app *a)
{
	char line[320];
	if (!a->ui)
		return;
	ui_refuse_acts(a->ui, source_caps(a->src) & SRC_CAN_ACT
				      ? NULL
				      : source_refusal(a->src, ACTS_WHY, line, sizeof(line)));
}

/* The screen as a sink: each tick's model on it (its trends fed), drawn once a pass. */
struct screen_sink {
	struct sink base;
	struct app *a;
};

static int ss_write(struct sink *s, const struct model *m, double wall)
{
	struct app *a = ((struct screen_sink *)s)->a;
	(void)wall;
	app_show_model(a, a->ui, m);
	a->scr.dirty = true;
	return 0;
}

static void ss_free(struct sink *s)
{
	free(s);
}

static const struct sink_ops screen_ops = {.name = "screen", .write = ss_write, .free = ss_free};

int screen_open(struct app *a)
{
	char err[256];
	/* Without hardware counters the software pane is the one with numbers (a
	 * recording's: those it counted). */
	const struct model *m = app_current(a);
	bool hw = false;
	for (unsigned i = 0; i < m->nevents; i++)
		hw = hw || (m->events[i].hardware && m->events[i].status == WHY_NONE);
	const char *pane = a->cli.pane ? a->cli.pane : hw ? NULL : "Software";
	struct ui_opts o = {.color = !a->cli.no_color, /* ui_new weighs NO_COLOR and TERM */
			    .no_mouse = a->cli.no_mouse,
			    .pane = pane,
			    .pane_default = !a->cli.pane,
			    .sort = a->cli.sort,
			    .reverse = a->cli.reverse};
	struct screen_sink *ss = calloc(1, sizeof(*ss));
	if (!ss) {
		app_say("out of memory\n");
		return 1;
	}
	ss->base.ops = &screen_ops;
	ss->a = a;
	struct ui *ui = ui_new(&o, err, sizeof(err));
	if (!ui) {
		free(ss);
		app_say("%s\n", err);
		return 1;
	}
	a->ui = ui;
	screen_source_changed(a);
	a->scr.first_tick = true;
	a->scr.show_cgroups = a->cli.cgroups;
	a->scr.history = history_new(); /* NULL: no trends, no charts */
	ui_set_history(ui, a->scr.history);
	app_build_panes(a);
	app_show(a, ui);
	/* The events browsers' catalogue, where events can be chosen (not a recording's). */
	a->catalog = source_caps(a->src) & SRC_CAN_COUNT ? catalog_new(a->pmus) : NULL;
	ui_set_catalog(ui, a->catalog);
	/* A recording has the recorded events only: none of the user's to edit. */
	ui_set_user_spec(ui, source_caps(a->src) & SRC_CAN_COUNT ? a->setup.user_spec : NULL);
	ui_set_metrics(ui, a->setup.cfg.metrics, a->setup.cfg.nmetrics);
	for (unsigned i = 0; i < a->setup.cfg.ncolumns && i < CONFIG_PANES_MAX; i++)
		ui_set_columns(ui, a->setup.cfg.columns[i].pane, a->setup.cfg.columns[i].list);
	if (sinks_add(&a->sinks, &ss->base)) {
		screen_close(a);
		app_say("out of memory\n");
		return 1;
	}
	a->scr.dirty = true; /* drawn by the caller's first a->fe->draw */
	return 0;
}

void screen_close(struct app *a)
{
	if (!a->ui)
		return;
	view_end(a, a->ui);
	ui_free(a->ui);
	a->ui = NULL;
	show_last(a);
	history_free(a->scr.history);
	a->scr.history = NULL;
	catalog_free(a->catalog);
	a->catalog = NULL;
}

static bool screen_message(struct app *a, const char *line)
{
	if (!a->ui)
		return false;
	ui_message(a->ui, line);
	a->scr.dirty = true;
	return true;
}

static void screen_resize(struct app *a)
{
	if (!a->ui)
		return;
	struct winsize ws = {0};
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		cmdout_resize(a->cmd.out, ws.ws_col, ws.ws_row);
	if (!a->cmd.viewing)
		ui_resize(a->ui);
	a->scr.dirty = true;
}

/* Continued after a stop pmutop did not ask for (kill -STOP): the shell put the terminal
 * back in its own mode meanwhile. Leave and re-enter curses mode (no-op leaving if Ctrl-Z
 * already did). */
static void screen_continued(struct app *a)
{
	if (!a->ui)
		return;
	view_end(a, a->ui);
	ui_suspend(a->ui);
	ui_resume(a->ui);
	ui_resize(a->ui);
	a->scr.dirty = true;
}

static bool screen_stop(struct app *a)
{
	if (!a->ui)
		return false;
	view_end(a, a->ui);
	ui_suspend(a->ui);
	hold_child(a, SIGSTOP);
	raise(SIGSTOP);
	hold_child(a, SIGCONT);
	ui_resume(a->ui);
	a->scr.dirty = true;
	return true;
}

/* SIGINT: as under perf stat, the command gets it too (on pmutop's terminal, in its
 * foreground group, it has); pmutop waits for it and exits with its status. */
static bool screen_quit(struct app *a, int signo)
{
	view_end(a, a->ui);
	if (signo == SIGINT)
		stop_child(a, a->cmd.out ? SIGINT : 0);
	else
		stop_child(a, signo == SIGHUP || signo == SIGQUIT ? signo : SIGTERM);
	return true;
}

static void screen_output(struct app *a)
{
	if (!a->ui)
		return;
	take_output(a);
	copy_failed(a, a->ui);
}

static void screen_ticked(struct app *a)
{
	if (!a->ui || !a->scr.first_tick)
		return;
	a->scr.first_tick = false;
	loop_set_interval(a->loop, a->cli.interval);
}

bool screen_input(struct app *a)
{
	if (!a->ui)
		return false;
	if (a->cmd.viewing) {
		char key[64];
		ssize_t n = read(STDIN_FILENO, key, sizeof(key));
		(void)n; /* any key, or none left to read: back to the screen */
		view_end(a, a->ui);
		a->scr.dirty = true;
		return false;
	}
	struct ui_cmd cmd;
	bool quit = false;
	while (!quit && ui_input(a->ui, &cmd) > 0)
		quit = screen_command(a, &cmd);
	return quit;
}

static void screen_draw(struct app *a)
{
	if (!a->ui || !a->scr.dirty || a->cmd.viewing)
		return;
	a->scr.dirty = false;
	ui_draw(a->ui);
}
#else
int screen_open(struct app *a)
{
	(void)a;
	app_say("built without the curses screen: use batch mode, pmutop -b\n");
	return 2;
}

void screen_close(struct app *a)
{
	(void)a;
}

static bool screen_message(struct app *a, const char *line)
{
	(void)a;
	(void)line;
	return false;
}

static void screen_resize(struct app *a)
{
	(void)a;
}

static void screen_continued(struct app *a)
{
	(void)a;
}

static bool screen_stop(struct app *a)
{
	(void)a;
	return false;
}

static bool screen_quit(struct app *a, int signo)
{
	(void)a;
	(void)signo;
	return true;
}

static void screen_output(struct app *a)
{
	(void)a;
}

static void screen_ticked(struct app *a)
{
	(void)a;
}

bool screen_input(struct app *a)
{
	(void)a;
	return false;
}

static void screen_draw(struct app *a)
{
	(void)a;
}
#endif

const struct frontend_ops screen_frontend = {.message = screen_message,
					     .resize = screen_resize,
					     .continued = screen_continued,
					     .stop = screen_stop,
					     .quit = screen_quit,
					     .output = screen_output,
					     .ticked = screen_ticked,
					     .draw = screen_draw};
