/* The run: the loop, the source, the sinks, a tick, publishing and controls. It calls
 * up (the screen) only through the front end's ops (a->fe, app.h). */
#include "run.h"

#include "evclock.h"
#include "metricpane.h"
#include "outstream.h"

/* The front end's one line, false without one (app.h's frontend_ops). */
static bool fe_message(struct app *a, const char *line)
{
	return a->fe && a->fe->message(a, line);
}

/* One line on stderr, "pmutop: " first. What the user typed (an event spec, a path, a
 * pid list) can hold escape sequences: no control reaches the terminal. */
__attribute__((format(printf, 1, 2))) void app_say(const char *fmt, ...)
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

int app_child_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

void app_reap_child(struct app *a)
{
	if (a->cmd.pid <= 0 || a->cmd.done)
		return;
	/* Ended? Leave it a zombie until its last name is read: /proc keeps a zombie's
	 * name, the one its last exec gave it (env python3 ... is python3), and reaping it
	 * first left the name of whatever it was at the last scan. */
	siginfo_t si = {0};
	if (waitid(P_PID, (id_t)a->cmd.pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != a->cmd.pid)
		return;
	source_control(a->src, SRC_RESCAN, NULL);
	int st;
	pid_t r = waitpid(a->cmd.pid, &st, WNOHANG);
	if (r == a->cmd.pid) {
		a->cmd.done = true;
		a->cmd.status = st;
	}
}

const struct model *app_current(struct app *a)
{
	const struct model *sm = source_model(a->src);
	if (!(source_caps(a->src) & SRC_CAN_COUNT)) /* a recording's header is its own */
		return sm;
	struct model *m = &a->live;
	*m = *sm;
	m->pmus = a->hdr.pmus;
	m->notice = a->hdr.notice;
	m->paused = a->hdr.paused;
	m->exit_status = a->hdr.exit_status;
	m->metrics = a->metrics;
	return m;
}

/* Whether m counts events the user chose (-e, the events setup): its groups say, live
 * or recorded. */
static bool user_events(const struct model *m)
{
	for (unsigned g = 0; g < m->ngroups; g++)
		if (m->groups[g].user)
			return true;
	return false;
}

void app_build_panes(struct app *a)
{
	const struct model *m = app_current(a);
	/* Every column each pane can show: the screen chooses among them (its column
	 * chooser), batch mode as the setup file's columns lines say. */
	a->panes.n = columns_build_panes_all(m, user_events(m), a->setup.cfg.metrics,
					     a->setup.cfg.nmetrics, a->panes.p, MAX_PANES);
	a->panes.n += metric_bind_panes(m, a->panes.p + a->panes.n, MAX_PANES - a->panes.n);
	a->panes.threads = m->threads;
	if (!a->cli.batch)
		return;
	for (unsigned i = 0; i < a->panes.n; i++)
		pane_select(&a->panes.p[i], config_columns(&a->setup.cfg, a->panes.p[i].name));
	/* The pane asked for (--pane, or the setup file's) alone, as the screen shows it;
	 * and the pane of the sort column, whatever it reads, so that the column the rows
	 * are ordered by is printed. */
	int chosen = -1, sorted = -1;
	for (unsigned i = 0; i < a->panes.n; i++) {
		if (a->cli.pane && chosen < 0 && strcasecmp(a->panes.p[i].name, a->cli.pane) == 0)
			chosen = (int)i;
		if (a->cli.sort && sorted < 0 && pane_find_column(&a->panes.p[i], a->cli.sort) >= 0)
			sorted = (int)i;
	}
	if (chosen >= 0 &&
	    pane_find_column(&a->panes.p[chosen], a->cli.sort ? a->cli.sort : "") >= 0)
		sorted = chosen;
	/* Otherwise every pane but those without a column that can ever hold a number: the
	 * notice says why they are missing, and CSV and JSON still carry each event with its
	 * n/a. */
	unsigned n = 0;
	for (unsigned i = 0; i < a->panes.n; i++) {
		/* The user's own events stay, whatever they read. */
		bool mine = strcmp(a->panes.p[i].name, "Events") == 0;
		bool keep = chosen >= 0 ? (int)i == chosen || (int)i == sorted
					: mine || (int)i == sorted ||
						  !pane_unsupported(m, &a->panes.p[i]);
		if (keep)
			a->panes.p[n++] = a->panes.p[i];
	}
	a->panes.n = n;
}

/* Where a sink's failure is said: on the screen when there is one. */
static void sink_say(void *ctx, const char *line)
{
	struct app *a = ctx;
	if (!fe_message(a, line))
		app_say("%s\n", line);
}

/* The current model to every output: screen, batch, recording, /metrics. */
void app_publish(struct app *a)
{
	double wall = 0;
	if (source_control(a->src, SRC_WALL, &wall) != 0)
		wall = sink_wall_now();
	sinks_write(&a->sinks, app_current(a), wall, sink_say, a);
}

/* A line the user should see now, and in the header from now on. */
static void app_notice(struct app *a, const char *line)
{
	size_t n = strlen(a->notice);
	snprintf(a->notice + n, sizeof(a->notice) - n, "%s%s", n ? "; " : "", line);
	a->hdr.notice = a->notice;
	sink_say(a, line);
}

/* A row's refusal in words. */
static const char *kind_why(const struct source_kind *k, int err)
{
	return k->why ? k->why(err) : strerror(-err);
}

int app_swap(struct app *a, const struct evset *set, int err)
{
	const struct source_kind *k = a->kind;
	if (!k || !(k->flags & SOURCE_GIVES_UP))
		return err;
	struct srcopts o = a->eopts;
	o.own = NULL; /* the options of the row that gave up */
	const struct model *was = source_model(a->src);
	o.threads = was->threads;
	o.user_only = was->user_only;
	o.interval = was->interval;
	o.start = a->run.ticked_at - was->time;
	o.tick = was->tick;
	o.enable_on_exec = false; /* a command has run its exec already: count it now */
	const struct source_kind *next = sources_next(k, &o, NULL);
	if (!next)
		return err;
	char line[256];
	int perr;
	struct source *pe = next->open(set, &o, &perr);
	if (!pe) {
		snprintf(line, sizeof(line), "the %s backend gave up and %s cannot count: %s",
			 k->name, next->name, kind_why(next, perr));
		app_notice(a, line);
		return perr;
	}
	snprintf(line, sizeof(line), "the %s backend gave up (%s): counting %s (%s)", k->name,
		 err == -ENODEV ? "it stopped counting" : kind_why(k, err), next->what, next->name);
	source_close(a->src);
	a->src = pe;
	a->kind = next;
	/* The rows of the old source are gone: the panes are made again for the new one. */
	a->panes.n = 0;
	a->scr.cgview.nrows = 0;
	app_notice(a, line);
	return 0;
}

int app_control(struct app *a, enum source_ctl what, const void *arg)
{
	int err = source_control(a->src, what, arg);
	if (err == -ENOTSUP) {
		char line[96];
		if (!fe_message(a, source_refusal(a->src, NULL, line, sizeof(line))))
			app_say("%s\n", line);
	} else if (err && (what == SRC_EVSET || what == SRC_USER_ONLY)) {
		err = app_swap(a, what == SRC_EVSET ? arg : a->set, err);
	}
	return err;
}

/* One interval counted, then written by every sink. A source that gives up is swapped
 * (bpf for perf, app_swap), which counts from then: a short interval to every sink at once, so
 * that none holds the rows of the source that was freed. */
void app_tick(struct app *a)
{
	int err = source_tick(a->src);
	if (err && (app_swap(a, a->set, err) != 0 || source_tick(a->src) != 0))
		return;
	a->run.ticked_at = evclock_now();
	a->run.ticks++;
	if (a->panes.n == 0 || a->panes.threads != source_model(a->src)->threads)
		app_build_panes(a);
	app_publish(a);
}

/* The watched command's totals, with its exit status. */
void app_totals(struct app *a)
{
	if (a->cmd.pid > 0 && a->cmd.done)
		a->hdr.exit_status = a->cmd.status;
	source_totals(a->src);
}

static bool watched_ended(struct app *a)
{
	bool alive = false;
	if (a->cmd.pid <= 0 && a->cli.npids > 0)
		source_control(a->src, SRC_WATCHED_ALIVE, &alive);
	return a->cmd.pid > 0 ? a->cmd.done : (a->cli.npids > 0 && !alive);
}

unsigned app_open_fds(const void *ctx)
{
	unsigned n = 0;
	source_control(((const struct app *)ctx)->src, SRC_OPEN_FDS, &n);
	return n;
}

/* Every signal pmutop takes, in one place. Returns true when the run ends now. Without
 * the screen, a watched command gets what pmutop got (SIGINT it has from the terminal)
 * and is waited for, its totals printed, as perf stat does. */
bool app_signal(struct app *a, int signo)
{
	switch (signo) {
	case SIGCHLD:
		app_reap_child(a);
		return false;
	case SIGWINCH:
		if (a->fe)
			a->fe->resize(a);
		return false;
	case SIGCONT:
		if (a->fe)
			a->fe->continued(a);
		return false;
	case SIGTSTP:
		if (!a->fe || !a->fe->stop(a))
			raise(SIGSTOP);
		return false;
	default:
		if (a->ui)
			return a->fe && a->fe->quit(a, signo);
		/* What is still written (a command's totals) waits for no reader that
		 * stopped reading. */
		outstream_stopping();
		if (a->cmd.pid > 0 && !a->cmd.done && signo != SIGINT)
			kill(a->cmd.pid, signo);
		return a->cmd.pid <= 0;
	}
}

int live_pass(struct app *a, int mask)
{
	bool final = source_model(a->src)->final;
	if (!final && ((mask & LOOP_TICK) || watched_ended(a))) {
		app_tick(a);
		if (a->fe)
			a->fe->ticked(a);
	}
	if (!final && watched_ended(a)) {
		app_totals(a);
		app_publish(a);
		if (!a->ui)
			return a->cmd.pid > 0 ? app_child_exit_code(a->cmd.status)
					      : (a->sinks.failed ? 1 : 0);
		/* The totals stay on the screen. */
		loop_pause(a->loop, true);
	} else if (!a->ui && a->cli.count && a->run.ticks >= a->cli.count && a->cmd.pid <= 0) {
		return 0;
	}
	if (!a->ui && a->sinks.n == 0) /* every output failed: nothing left to do */
		return a->sinks.failed ? 1 : 0;
	return -1;
}

/* The run ends without the loop (every output failed, a stop signal cut the output
 * short): stop signals still pending reach the command as they would have, and its end
 * is seen. */
static void take_pending_signals(struct app *a)
{
	struct loop_events ev;
	while (loop_check(a->loop, &ev) == 0 && (ev.mask & LOOP_SIGNAL))
		if (ev.signo != SIGTSTP && ev.signo != SIGCONT && ev.signo != SIGWINCH)
			app_signal(a, ev.signo);
}

/* The one run loop, with the screen or without, live or replayed (-r, -r -b): tick, then every sink
 * writes the same model; keys and signals between ticks. With -b, a block per tick and
 * for a watched command or pid a total block when it ends; with -n and a command, as
 * perf stat --interval-count: after N blocks no more interval blocks, but the command
 * is still waited for and its totals written. */
int app_run(struct app *a)
{
	int code = 0;
	for (;;) {
		struct loop_events ev;
		if ((a->run.flat ? loop_check(a->loop, &ev) : loop_wait(a->loop, &ev)) < 0)
			return 1;
		if ((ev.mask & LOOP_OUTPUT) && a->fe)
			a->fe->output(a);
		if ((ev.mask & LOOP_SIGNAL) && app_signal(a, ev.signo))
			break;
		if ((code = a->run.pass(a, ev.mask)) >= 0) {
			take_pending_signals(a);
			return code;
		}
		if ((ev.mask & LOOP_INPUT) && a->run.keys && a->run.keys(a))
			break;
		if (a->fe)
			a->fe->draw(a);
	}
	code = 0;
	if (a->cmd.pid > 0 && a->cmd.done)
		code = app_child_exit_code(a->cmd.status);
	return a->sinks.failed && !a->ui && !code ? 1 : code;
}

int app_close_output(struct app *a, FILE *file, int code)
{
	if (a->out != file && fclose(a->out) && errno != EPIPE && code == 0)
		code = 1; /* the batch sink said why */
	if (file != stdout && fclose(file) && code == 0) {
		app_say("cannot write '%s' (-o): %s\n", a->cli.output, strerror(errno));
		code = 1;
	}
	return code;
}

int app_add_listen(struct app *a, struct exporter *x)
{
	struct promacc_opts po = {.top = (unsigned)a->cli.top,
				  .watched = a->cmd.pid > 0 ? &a->cmd.pid : a->cli.pids,
				  .nwatched = a->cmd.pid > 0 ? 1 : a->cli.npids,
				  .per_cpu = a->cli.per_cpu};
	return sinks_add(&a->sinks, listen_sink_new(x, &po, app_current(a), app_open_fds, a)) ? 1
											      : 0;
}

int app_add_batch(struct app *a, const char *notice, long count)
{
	struct batch *b = batch_new(a->out, a->cli.format, a->panes.p, a->panes.n, a->cli.sort,
				    a->cli.reverse);
	if (!b)
		return 1;
	if (!batch_sort_ok(b)) {
		batch_free(b);
		app_say("unknown sort column '%s': use a column title such as CPU%%, IPC or "
			"CMISS%%\n",
			a->cli.sort);
		return 2;
	}
	batch_show_cpus(b, a->cli.per_cpu);
	if (notice)
		batch_notice(b, notice);
	return sinks_add(&a->sinks, batchsink_new(b, a->cli.cgroups, count)) ? 1 : 0;
}
