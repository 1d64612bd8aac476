/* pmutop -r FILE: a recording as the source, in batch mode or on the screen (t, T, b,
 * Z). Part of the composition (app.h). */
#include "replayrun.h"

#include "run.h"
#include "screen.h"
#include "start.h"
#include "view.h"

#include <math.h>
#include <limits.h>

#include "evclock.h"
#include "outstream.h"
#include "recsql.h"
#include "replayclock.h"
#include "replayend.h"
#include "replaysrc.h"
#include "spike.h"

/* -r with --begin/--end: their times against the recording, or exit 2. */
static void replay_window(struct app *a, double *begin, double *end)
{
	uint64_t f, l;
	double wf, wl;
	*begin = -1e18;
	*end = 1e18;
	if (replay_span(a->play.rp, &f, &l, &wf, &wl))
		return;
	const char *bad = NULL;
	double unused;
	if (a->cli.begin && recfmt_parse_when(a->cli.begin, wf, wl, begin, &unused))
		bad = a->cli.begin;
	if (a->cli.end && recfmt_parse_when(a->cli.end, wf, wl, &unused, end))
		bad = a->cli.end;
	if (bad) {
		app_say("invalid time '%s': give HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m or +1h\n",
			bad);
		exit(2);
	}
	if (*begin > *end) {
		app_say("--begin is after --end: nothing to print\n");
		exit(2);
	}
	char at[64];
	if (*begin > wl) {
		app_say("--begin %s is after the last recorded tick (%s): nothing to print\n",
			a->cli.begin, recfmt_time_text(wl, at, sizeof(at)));
		exit(2);
	}
	if (*end < wf) {
		app_say("--end %s is before the first recorded tick (%s): nothing to print\n",
			a->cli.end, recfmt_time_text(wf, at, sizeof(at)));
		exit(2);
	}
}

/* The tick a replay starts at: the file's first, or with --begin the first recorded at or
 * after it. Without --begin it is the first by its place in the file, not by its time:
 * a clock that stepped back while recording (an NTP step, a VM resumed) made the ticks
 * after the step the earliest in time, and a start there left out every tick before. */
static int replay_start(struct app *a, double begin, uint64_t *seq)
{
	uint64_t l;
	double wf, wl;
	if (!a->cli.begin)
		return replay_span(a->play.rp, seq, &l, &wf, &wl);
	bool said = *replay_notice(a->play.rp);
	int rc = replay_find(a->play.rp, begin, seq);
	if (!said && *replay_notice(a->play.rp)) /* its index of times is damaged */
		app_say("%s\n", replay_notice(a->play.rp));
	return rc;
}

/* A recording its recorder never closed ends at the last tick it committed: the line
 * that says so (who: the file's name, or the screen's words for it), or that it is
 * still being written; false for a closed one. Not an error: every tick in it is
 * checked. */
static bool unclosed_line(struct app *a, const char *who, char *line, size_t len)
{
	uint64_t f, l;
	double wf, wl;
	char when[64];
	if (!replay_unclosed(a->play.rp) || replay_span(a->play.rp, &f, &l, &wf, &wl))
		return false;
	recfmt_time_text(wl, when, sizeof(when));
	if (replay_being_written(a->play.rp))
		snprintf(line, len,
			 "%s is still being written (a pmutop records into it): its last tick is "
			 "%llu, %s, for now",
			 who, (unsigned long long)l, when);
	else
		snprintf(line, len,
			 "%s was not closed by its recorder (killed, or the machine stopped): it "
			 "ends at tick %llu, %s; ticks after it were not written or are lost",
			 who, (unsigned long long)l, when);
	return true;
}

static void say_unclosed(struct app *a)
{
	char line[PATH_MAX + 256];
	if (unclosed_line(a, a->cli.replay, line, sizeof(line)))
		app_say("%s\n", line);
}

/* -r -b at its end: what was left out, or that there was nothing to print. */
static int replay_batch_end(struct app *a)
{
	const struct replay_batch *b = &a->play.rb;
	say_unclosed(a);
	if (b->lost) {
		app_say("%s: %ld tick%s could not be read and %s left out, %ld printed\n", b->first,
			b->lost, b->lost == 1 ? "" : "s", b->lost == 1 ? "was" : "were", b->blocks);
		return 2;
	}
	if (b->blocks == 0) {
		app_say("no tick was recorded between --begin and --end: nothing to print\n");
		return 2;
	}
	return 0;
}

/* The batch writer, made at the first tick read: its panes are the recording's. */
static int replay_batch_sink(struct app *a)
{
	char note[2560];
	return app_add_batch(
		a, *model_notice_text(app_current(a), note, sizeof(note)) ? note : NULL, 0);
}

/* -r -b's pass of app_run: the next recorded tick to every sink. -1 to go on, or the
 * exit code. */
static int replay_batch_pass(struct app *a, int mask)
{
	(void)mask;
	struct replay_batch *b = &a->play.rb;
	if (source_tick(a->src) != 0) {
		const char *first;
		b->lost = replaysrc_lost(a->src, &first);
		snprintf(b->first, sizeof(b->first), "%s", first);
		return replay_batch_end(a);
	}
	if (a->panes.n == 0 || a->panes.threads != app_current(a)->threads)
		app_build_panes(a);
	int code;
	if (a->sinks.n == 0 && !a->sinks.failed && (code = replay_batch_sink(a)))
		return code;
	/* The recorded tick to the same sinks a live run writes. */
	double wall = 0;
	source_control(a->src, SRC_WALL, &wall);
	if (sinks_write(&a->sinks, app_current(a), wall, NULL, NULL) == 0)
		return a->sinks.failed ? 1 : 0;
	b->blocks++;
	if (a->cli.count && b->blocks >= a->cli.count)
		return replay_batch_end(a);
	return -1;
}

/* -r -b: the recorded ticks in the window, as batch mode printed them then, through
 * app_run without waiting between them. */
static int run_replay_batch(struct app *a)
{
	double begin;
	uint64_t first;
	replay_window(a, &begin, &a->play.rb.end);
	if (replay_start(a, begin, &first))
		return 0;
	if (!(a->src = replaysrc_new(a->play.rp, first, a->play.rb.end)))
		return 1;
	a->run.pass = replay_batch_pass;
	a->run.flat = true; /* its ticks one after the other: no waiting, only signals */
	return app_run(a);
}

#ifdef PMUTOP_HAVE_UI
/* A tick of the recording into the model: 0, -ENOENT (pruned meanwhile), or an error
 * with one line in err (a damaged tick). */
static int replay_goto(struct app *a, uint64_t seq, char *err, size_t len)
{
	int r = replaysrc_seek(a->src, seq, err, len);
	if (r == 0 && (a->panes.n == 0 || a->panes.threads != app_current(a)->threads))
		app_build_panes(a);
	return r;
}

/* The header's REPLAY field: the tick's recorded time, where it is in the file and the
 * play speed; then the recording's time range (ui_set_replay's four parts). */
static void replay_header(struct app *a, struct ui *ui, bool playing)
{
	char text[256];
	uint64_t f = 0, l = 0;
	double range[2];
	bool span = replay_span(a->play.rp, &f, &l, &range[0], &range[1]) == 0;
	replay_header_text(text, sizeof(text), playing ? "PLAY" : "REPLAY", a->play.speed,
			   replay_wall(a->play.rp),
			   (unsigned long long)replay_seq(a->play.rp) - f + 1,
			   (unsigned long long)l - f + 1, span ? range : NULL);
	ui_set_replay(ui, text);
}

/* The charts of a replay span the recorded ticks up to the one shown: after a jump (or
 * a step back) the history is made again from the HIST_LEN ticks before it. */
static void replay_history(struct app *a, struct ui *ui)
{
	char err[512];
	uint64_t seq = replay_seq(a->play.rp), s = seq, back[HIST_LEN];
	int n = 0;
	history_clear(a->scr.history);
	history_track(a->scr.history, ui_sort_column(ui));
	history_keep(a->scr.history, a->panes.p, a->panes.n);
	while (n < HIST_LEN - 1 && replay_step(a->play.rp, s, -1, &s) == 0)
		back[n++] = s;
	for (int i = n - 1; i >= 0; i--)
		if (replay_load(a->play.rp, back[i], err, sizeof(err)) == 0)
			app_feed_history(a, NULL);
	replay_goto(a, seq, err, sizeof(err));
}

/* A spike search (} {, spike.h): the ticks are read for a slice of time between looks
 * at the keys, the clock looked at after each tick however big, so that a long
 * recording keeps the screen answering; any key stops it. */
#define SEARCH_BLOCK 1000 /* ticks a backward search reads at a time */
#define SEARCH_SLICE 0.05 /* seconds of reading between looks at the keys */

struct replay_search {
	struct spike_search s;
	struct replay *rp;
	struct cgrows *cg; /* the cgroup view (G): its rows are the ones searched */
	unsigned nevents;  /* the events of the tick shown: a tick with others is skipped */
	struct column col; /* the sort column, copied */
	char name[32];
};

static int search_step_cb(void *ctx, uint64_t seq, int dir, uint64_t *out)
{
	return replay_step(((struct replay_search *)ctx)->rp, seq, dir, out);
}

/* The sort column's largest value among the process rows of tick seq (the cgroup rows
 * in the cgroup view), or NaN (none has a number, the tick is damaged, or it is a
 * command's totals, not an interval). */
static double search_value_cb(void *ctx, uint64_t seq)
{
	struct replay_search *rs = ctx;
	char err[512];
	if (replay_load(rs->rp, seq, err, sizeof(err)) != 0)
		return NAN;
	const struct model *m = replay_model(rs->rp);
	double top = NAN;
	if (!m || m->final || m->nevents != rs->nevents)
		return NAN;
	struct model view = *m;
	if (rs->cg && !(view.rows = cgrows_build(rs->cg, m, &view.nrows)))
		return NAN;
	enum row_kind kind = rs->cg ? ROW_CGROUP : ROW_PROC;
	for (unsigned i = 0; i < view.nrows; i++) {
		if (view.rows[i].kind != kind)
			continue;
		struct val v = column_value(&rs->col, &view, &view.rows[i]);
		if (val_has_number(v) && (isnan(top) || v.v > top))
			top = v.v;
	}
	return top;
}

static void search_end(struct app *a)
{
	if (a->play.search)
		cgrows_free(a->play.search->cg);
	free(a->play.search);
	a->play.search = NULL;
	a->run.flat = false;
}

/* Start a search from the tick shown, by the active pane's sort column. */
static void search_start(struct app *a, struct ui *ui, int dir)
{
	const struct column *c = ui_sort_column(ui);
	if (!c || !column_is_numeric(c)) {
		ui_message(ui, "a spike of what? sort by a column of numbers first (F6, < >)");
		return;
	}
	struct replay_search *rs = calloc(1, sizeof(*rs));
	if (!rs) {
		ui_message(ui, "out of memory");
		return;
	}
	rs->rp = a->play.rp;
	/* Its own cgroup rows: the view's (a->scr.cgrows) are on the screen meanwhile. */
	if (a->scr.show_cgroups && !(rs->cg = cgrows_new())) {
		free(rs);
		ui_message(ui, "out of memory");
		return;
	}
	rs->col = *c;
	rs->nevents = app_current(a)->nevents;
	char clean[32];
	text_sanitize(c->name, clean, sizeof(clean), false);
	snprintf(rs->name, sizeof(rs->name), "%s", clean);
	struct spike_src src = {.ctx = rs, .step = search_step_cb, .value = search_value_cb};
	/* An idle command's 0.1% after zeros is activity, not a spike. */
	spike_search_start(&rs->s, &src, replay_seq(a->play.rp), dir,
			   c->kind == COL_CPU_PCT ? 1.0 : 0, SEARCH_BLOCK);
	search_end(a);
	a->play.search = rs;
	a->run.flat = true; /* no waiting between passes while it reads */
}

static double search_clock(void *ctx)
{
	(void)ctx;
	return evclock_now();
}

/* One slice of a search. True when it ended (found, or not, or failed). */
static bool search_slice(struct app *a, char *msg, size_t len)
{
	struct replay_search *rs = a->play.search;
	char at[32];
	double until = evclock_now() + SEARCH_SLICE;
	if (spike_search_until(&rs->s, search_clock, NULL, until))
		return true;
	snprintf(msg, len, "looking for the %s spike of %s: at %s (any key stops)",
		 rs->s.dir > 0 ? "next" : "previous", rs->name,
		 recfmt_time_text(replay_wall(a->play.rp), at, sizeof(at)));
	return false;
}

/* The replay pass's share of a search: a batch, then the tick shown again, or the
 * spike found. */
static void search_step(struct app *a, struct ui *ui)
{
	char msg[256], err[512], at[32], top[32];
	struct replay_search *rs = a->play.search;
	const struct spike_search *s = &rs->s;
	bool done = search_slice(a, msg, sizeof(msg)), found = done && s->found;
	uint64_t origin = s->origin, to = found ? s->hit : origin;
	int bad = replay_goto(a, to, err, sizeof(err));
	if (bad && to != origin)
		bad = replay_goto(a, to = origin, err, sizeof(err));
	column_format_val(&rs->col, (struct val){.v = s->hit_top, .state = VAL_EXACT}, top,
			  sizeof(top));
	if (done && found && to != origin)
		snprintf(msg, sizeof(msg),
			 "a spike of %s, %s at its highest: %s (} next, { before)", rs->name, top,
			 recfmt_time_text(replay_wall(a->play.rp), at, sizeof(at)));
	else if (done)
		snprintf(msg, sizeof(msg), "no spike of %s %s this tick", rs->name,
			 s->dir > 0 ? "after" : "before");
	if (bad)
		snprintf(msg, sizeof(msg), "%s", err);
	if (done) {
		search_end(a);
		replay_header(a, ui, a->play.playing);
		if (to != origin)
			replay_history(a, ui);
	}
	ui_message(ui, msg);
	app_show(a, ui);
	a->scr.dirty = true;
}

/* A recorded interval: the setting, else the time the tick covered. */
static double play_step(const struct model *m)
{
	return m->interval > 0 ? m->interval : m->elapsed > 0 ? m->elapsed : 1;
}

/* Playing from the tick shown: the recorded time goes on at speed times the wall
 * clock's pace from here; the next tick is due after its interval divided by the
 * speed (at least 10 ms). */
static void play_anchor(struct app *a)
{
	double speed = a->play.speed > 0 ? a->play.speed : 1;
	replay_pace_anchor(&a->play.pace, evclock_now(), replay_wall(a->play.rp), speed);
	double t = play_step(app_current(a)) / speed;
	loop_set_interval(a->loop, t > 0.01 ? t : 0.01);
}

/* The tick shown after a command (from): the header, the history made again after a
 * jump or a step back (or G); a tick moved to goes to every sink, the screen's too. */
static void replay_shown(struct app *a, enum ui_cmd_kind kind, uint64_t from)
{
	uint64_t seq = replay_seq(a->play.rp), next = from;
	bool forward = replay_step(a->play.rp, from, 1, &next) == 0 && seq == next;
	replay_header(a, a->ui, a->play.playing);
	if ((seq != from && !forward) || kind == UI_TOGGLE_CGROUPS)
		replay_history(a, a->ui);
	/* The next tick (t, play) to every sink: the screen, and --listen's exporter, whose
	 * counters sum the ticks played; a jump or a step back is the screen's alone. */
	if (forward)
		app_publish(a);
	else
		app_show(a, a->ui);
}

/* t/T step, b jumps, x the speed, } and { search (screen_command's travel). */
static bool replay_travel(struct app *a, const struct ui_cmd *cmd)
{
	struct ui *ui = a->ui;
	char err[512];
	uint64_t seq = replay_seq(a->play.rp), to = seq;
	switch (cmd->kind) {
	case UI_STEP:
		if (replay_step(a->play.rp, seq, cmd->step, &to))
			ui_message(ui, cmd->step > 0 ? "the last recorded tick"
						     : "the first recorded tick");
		break;
	case UI_JUMP: {
		uint64_t f, l;
		double wf, wl, t;
		if (replay_span(a->play.rp, &f, &l, &wf, &wl) ||
		    recfmt_parse_time(cmd->spec, wf, wl, &t)) {
			ui_message(ui,
				   "not a time: give HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m or +1h");
			break;
		}
		char at[64], msg[192];
		if (t > wl) {
			snprintf(msg, sizeof(msg), "%s is after the last recorded tick (%s)",
				 cmd->spec, recfmt_time_text(wl, at, sizeof(at)));
			ui_message(ui, msg);
			break;
		}
		if (t < wf) {
			snprintf(msg, sizeof(msg),
				 "%s is before the first recorded tick (%s): here", cmd->spec,
				 recfmt_time_text(wf, at, sizeof(at)));
			ui_message(ui, msg);
		}
		replay_find(a->play.rp, t, &to);
		break;
	}
	case UI_SPEED:
		a->play.speed = a->play.speed == 1 ? 10 : a->play.speed == 10 ? 60 : 1;
		break;
	case UI_SPIKE:
		a->play.playing = false; /* the search shows where it stops */
		loop_pause(a->loop, true);
		search_start(a, ui, cmd->step);
		break;
	default:
		break;
	}
	if (to != seq && replay_goto(a, to, err, sizeof(err))) {
		/* A damaged tick: a step goes on to the next one that loads, anything else
		 * stays where it was; the line says why. */
		uint64_t past = to;
		bool moved = false;
		while (cmd->kind == UI_STEP && !moved &&
		       replay_step(a->play.rp, past, cmd->step, &past) == 0) {
			char e2[512];
			moved = replay_goto(a, past, e2, sizeof(e2)) == 0;
		}
		if (moved) {
			char msg[640];
			snprintf(msg, sizeof(msg), "%s: tick %llu skipped", err,
				 (unsigned long long)to);
			ui_message(ui, msg);
		} else {
			if (replay_goto(a, seq, err, sizeof(err)))
				return true;
			ui_message(ui, err);
		}
	}
	return false;
}

/* A command on the replay screen (screen_command's, for the recording), then the tick
 * it shows. */
static bool replay_cmd(struct app *a, const struct ui_cmd *cmd)
{
	uint64_t seq = replay_seq(a->play.rp);
	if (screen_command(a, cmd))
		return true;
	replay_shown(a, cmd->kind, seq);
	return false;
}

/* Play's next tick (replay_pace_next_fn): a step as t does, each fed to the history. */
struct play_ctx {
	struct app *a;
	bool quit, end;
};

static int play_next(void *ctx, double *wall, double *iv)
{
	struct play_ctx *c = ctx;
	struct app *a = c->a;
	struct ui_cmd step = {.kind = UI_STEP, .step = 1};
	uint64_t before = replay_seq(a->play.rp);
	c->quit = replay_cmd(a, &step);
	c->end = !c->quit && replay_seq(a->play.rp) == before;
	if (c->quit || c->end)
		return 1;
	*wall = replay_wall(a->play.rp);
	*iv = play_step(app_current(a));
	return 0;
}

/* Playing: the recorded time due now (play_anchor's clock times the speed) is shown.
 * Ticks due together (a screen slower than the speed) are stepped through in one go,
 * each fed to the history, so that 60x keeps its pace; a gap in the recording (pmutop
 * stopped, then recorded again) or its clock stepping back is played as one interval,
 * neither waited out nor raced through (replay_pace_pass). */
static bool replay_ticked(struct app *a)
{
	if (!a->play.playing)
		return false;
	struct play_ctx c = {.a = a};
	double wait = replay_pace_pass(&a->play.pace, evclock_now(), replay_wall(a->play.rp), 100,
				       play_next, &c);
	if (c.end) {
		a->play.playing = false; /* the end: it waits there */
		loop_pause(a->loop, true);
		replay_header(a, a->ui, a->play.playing);
	}
	if (wait >= 0)
		loop_set_interval(a->loop, wait > 0.01 ? wait : 0.01);
	a->scr.dirty = true;
	return c.quit;
}

static bool replay_keys(struct app *a)
{
	struct ui_cmd cmd;
	bool quit = false, stopped = a->play.search != NULL, was = a->play.playing;
	uint64_t seq = replay_seq(a->play.rp);
	int speed = a->play.speed;
	search_end(a); /* any key stops a search, on the tick it started from */
	while (!quit && ui_input(a->ui, &cmd) > 0)
		quit = replay_cmd(a, &cmd);
	if (stopped && !a->play.search)
		ui_message(a->ui, "the spike search stopped");
	/* Started, moved or sped up: the pace from the tick shown now. */
	if (a->play.playing && (!was || seq != replay_seq(a->play.rp) || speed != a->play.speed))
		play_anchor(a);
	a->scr.dirty = true;
	return quit;
}
/* The replay screen's pass of app_run: a tick while playing. */
static int replay_screen_pass(struct app *a, int mask)
{
	if (a->play.search) {
		search_step(a, a->ui);
		return -1;
	}
	return (mask & LOOP_TICK) && replay_ticked(a) ? 0 : -1;
}

static int run_replay_live(struct app *a)
{
	char err[512];
	double begin, end;
	uint64_t seq;
	int code;
	replay_window(a, &begin, &end);
	if (replay_start(a, begin, &seq))
		return 2;
	/* The screen moves the source through the recording (t, T, b, Z, x, } and {); it
	 * refuses what only counting can do. */
	if (!(a->src = replaysrc_new(a->play.rp, seq, end)))
		return 1;
	if (replay_goto(a, seq, err, sizeof(err))) {
		app_say("%s\n", err);
		return 2;
	}
	/* --listen: the exporter sums the ticks played or stepped forward, as live. */
	if (a->cli.listen) {
		struct exporter *x =
			exporter_new(a->cli.listen, a->cli.web_config, err, sizeof(err));
		if (!x) {
			app_say("%s\n", err);
			return 2;
		}
		if (app_add_listen(a, x))
			return 1;
	}
	/* The screen as live: the sink each tick the source moves to is written to. */
	if ((code = screen_open(a)) != 0)
		return code;
	a->play.playing = false;
	a->play.speed = 1;
	a->play.travel = replay_travel;
	loop_pause(a->loop, true);
	replay_header(a, a->ui, a->play.playing);
	replay_history(a, a->ui);
	/* At open, on the message line (its seconds from the first draw, after the history
	 * read): the damage read so far, else where an unclosed recording ends. */
	char line[512];
	if (*replay_notice(a->play.rp))
		ui_message(a->ui, replay_notice(a->play.rp));
	else if (unclosed_line(a, "the recording", line, sizeof(line)))
		ui_message(a->ui, line);
	app_publish(a);
	a->fe->draw(a);
	a->run.pass = replay_screen_pass;
	a->run.keys = replay_keys;
	code = app_run(a);
	search_end(a);
	screen_close(a);
	return code;
}

#else
static int run_replay_live(struct app *a)
{
	(void)a;
	app_say("built without the curses screen: replay in batch mode, pmutop -r FILE -b\n");
	return 2;
}

#endif

/* pmutop -r FILE: nothing is counted; the recording is the source. */
int run_replay(struct app *a)
{
	char err[512];
	if (a->cli.sql && (a->cli.begin || a->cli.end)) {
		app_say("--begin and --end choose the ticks -b and the screen show; --sql reads "
			"the whole recording: bound its query (WHERE time BETWEEN T1 AND T2, "
			"epoch seconds as CSV's wall, or seq)\n");
		return 2;
	}
	a->play.rp = replay_open(a->cli.replay, err, sizeof(err));
	if (!a->play.rp) {
		app_say("%s\n", err);
		return 2;
	}
	if (*replay_notice(a->play.rp))
		app_say("%s\n", replay_notice(a->play.rp));
	bool threads, cpus;
	if (!a->cli.sql && (a->cli.threads || a->cli.per_cpu) &&
	    replay_recorded(a->play.rp, &threads, &cpus) == 0) {
		bool no_t = a->cli.threads && !threads, no_c = a->cli.per_cpu && !cpus;
		if (no_t || no_c)
			app_say("%s was recorded without %s: it holds no %s rows to show (record "
				"with pmutop -w FILE %s)\n",
				a->cli.replay,
				no_t && no_c ? "-H and --per-cpu"
				: no_t	     ? "-H"
					     : "--per-cpu",
				no_t && no_c ? "thread or CPU"
				: no_t	     ? "thread"
					     : "CPU",
				no_t && no_c ? "-H --per-cpu"
				: no_t	     ? "-H"
					     : "--per-cpu");
	}
	if (a->cli.sql) {
		FILE *out = a->cli.output ? fopen(a->cli.output, "we") : stdout;
		if (!out) {
			app_say("cannot write '%s' (-o): %s\n", a->cli.output, strerror(errno));
			replay_close(a->play.rp);
			return 2;
		}
		int rc = replay_sql(a->play.rp, a->cli.sql, out, err, sizeof(err));
		bool lost = *replay_notice(a->play.rp);
		if (out != stdout && fclose(out) && !rc) {
			snprintf(err, sizeof(err), "cannot write '%s' (-o): %s", a->cli.output,
				 strerror(errno));
			rc = -EIO;
		}
		if (rc) {
			app_say("%s\n", err);
		} else {
			fflush(stdout); /* its rows (out may be -o's, closed), then the line */
			say_unclosed(a);
		}
		replay_close(a->play.rp);
		return rc == -EIO ? 1 : rc || lost ? 2 : 0;
	}
	a->pmus = pmu_set_new("/sys", true);
	app_load_config(a);
	a->out = stdout;
	if (a->cli.output && !(a->out = fopen(a->cli.output, "we"))) {
		app_say("cannot write '%s' (-o): %s\n", a->cli.output, strerror(errno));
		replay_close(a->play.rp);
		return 2;
	}
	int lerr;
	a->loop = loop_new(1.0, a->cli.batch ? -1 : STDIN_FILENO, &lerr);
	if (!a->loop) {
		app_say("cannot set up timers and signals: %s\n", strerror(-lerr));
		return 1;
	}
	FILE *file = a->out; /* stdout, or -o's */
	if (a->cli.batch && !(a->out = outstream_open(fileno(file), false))) {
		app_say("cannot set up the output: %s\n", strerror(errno));
		replay_close(a->play.rp);
		return 1;
	}
	if (!a->cli.batch && a->cli.cgroups && !(a->scr.cgrows = cgrows_new()))
		return 1;
	int code = a->cli.batch ? run_replay_batch(a) : run_replay_live(a);
	sinks_free(&a->sinks);
	code = app_close_output(a, file, code);
	if (code == 0 && *replay_notice(a->play.rp))
		code = 2; /* what was read is printed; the file was not whole */
	cgrows_free(a->scr.cgrows);
	loop_free(a->loop);
	source_close(a->src);
	replay_close(a->play.rp);
	pmu_set_free(a->pmus);
	return code;
}
