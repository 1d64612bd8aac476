/* pmutop: composes the rooms. events/ counts, src/ models and writes, ui/ draws. */
#include "app.h"
#include "evclock.h"
#include "outstream.h"

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

static void die_usage(const char *msg)
{
	app_say("%s", msg);
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
	if (a->child <= 0 || a->child_done)
		return;
	/* Ended? Leave it a zombie until its last name is read: /proc keeps a zombie's
	 * name, the one its last exec gave it (env python3 ... is python3), and reaping it
	 * first left the name of whatever it was at the last scan. */
	siginfo_t si = {0};
	if (waitid(P_PID, (id_t)a->child, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != a->child)
		return;
	source_control(a->src, SRC_RESCAN, NULL);
	int st;
	pid_t r = waitpid(a->child, &st, WNOHANG);
	if (r == a->child) {
		a->child_done = true;
		a->child_status = st;
	}
}

const struct model *app_current(struct app *a)
{
	const struct model *sm = source_model(a->src);
	if (a->rp)
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

void app_build_panes(struct app *a)
{
	const struct model *m = app_current(a);
	/* Every column each pane can show: the screen chooses among them (its column
	 * chooser), batch mode as the setup file's columns lines say. */
	a->npanes = columns_build_panes_all(m, a->rp ? replay_user_events(a->rp) : a->set->user,
					    a->cfg.metrics, a->cfg.nmetrics, a->panes, MAX_PANES);
	a->npanes += metric_bind_panes(m, a->panes + a->npanes, MAX_PANES - a->npanes);
	a->panes_threads = m->threads;
	if (!a->cli.batch)
		return;
	for (unsigned i = 0; i < a->npanes; i++)
		pane_select(&a->panes[i], config_columns(&a->cfg, a->panes[i].name));
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

/* Where a sink's failure is said: on the screen when there is one. */
static void sink_say(void *ctx, const char *line)
{
	struct app *a = ctx;
	if (!screen_message(a, line))
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

int app_swap_to_perf(struct app *a, const struct evset *set, int err)
{
	if (strcmp(a->src->ops->name, "bpf") != 0)
		return err;
	char line[256];
	snprintf(line, sizeof(line), "the bpf backend gave up (%s): counting per task (perf)",
		 err == -ENODEV ? "its program was closed" : engine_bpf_why(err));
	struct engine_opts o = a->eopts;
	o.bpf = false;
	const struct model *was = source_model(a->src);
	o.threads = was->threads;
	o.user_only = was->user_only;
	o.interval = was->interval;
	o.start = a->ticked_at - was->time;
	o.tick = was->tick;
	o.enable_on_exec = false; /* a command has run its exec already: count it now */
	int perr;
	struct engine *pe = engine_new(set, &o, &perr);
	if (!pe) {
		snprintf(line, sizeof(line), "the bpf backend gave up and perf cannot count: %s",
			 strerror(-perr));
		app_notice(a, line);
		return perr;
	}
	source_close(a->src);
	a->src = engine_source(pe);
	/* The rows of the old source are gone: the panes are made again for the new one. */
	a->npanes = 0;
	a->cgview.nrows = 0;
	app_notice(a, line);
	return 0;
}

int app_control(struct app *a, enum source_ctl what, const void *arg)
{
	int err = source_control(a->src, what, arg);
	if (err == -ENOTSUP) {
		char line[96];
		if (!screen_message(a, source_refusal(a->src, line, sizeof(line))))
			app_say("%s\n", line);
	} else if (err && (what == SRC_EVSET || what == SRC_USER_ONLY)) {
		err = app_swap_to_perf(a, what == SRC_EVSET ? arg : a->set, err);
	}
	return err;
}

/* One interval counted, then written by every sink. A source that gives up is swapped
 * (bpf for perf), which counts from then: a short interval to every sink at once, so
 * that none holds the rows of the source that was freed. */
void app_tick(struct app *a)
{
	int err = source_tick(a->src);
	if (err && (app_swap_to_perf(a, a->set, err) != 0 || source_tick(a->src) != 0))
		return;
	a->ticked_at = evclock_now();
	a->ticks++;
	if (a->npanes == 0 || a->panes_threads != source_model(a->src)->threads)
		app_build_panes(a);
	app_publish(a);
}

/* The watched command's totals, with its exit status. */
void app_totals(struct app *a)
{
	if (a->child > 0 && a->child_done)
		a->hdr.exit_status = a->child_status;
	source_totals(a->src);
}

static bool watched_ended(struct app *a)
{
	bool alive = false;
	if (a->child <= 0 && a->cli.npids > 0)
		source_control(a->src, SRC_WATCHED_ALIVE, &alive);
	return a->child > 0 ? a->child_done : (a->cli.npids > 0 && !alive);
}

static unsigned app_open_fds(const void *ctx)
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
		screen_resize(a);
		return false;
	case SIGCONT:
		screen_continued(a);
		return false;
	case SIGTSTP:
		if (!screen_stop(a))
			raise(SIGSTOP);
		return false;
	default:
		if (a->ui)
			return screen_quit(a, signo);
		if (a->child > 0 && !a->child_done && signo != SIGINT)
			kill(a->child, signo);
		return a->child <= 0;
	}
}

int live_pass(struct app *a, int mask)
{
	bool final = source_model(a->src)->final;
	if (!final && ((mask & LOOP_TICK) || watched_ended(a))) {
		app_tick(a);
		screen_ticked(a);
	}
	if (!final && watched_ended(a)) {
		app_totals(a);
		app_publish(a);
		if (!a->ui)
			return a->child > 0 ? app_child_exit_code(a->child_status)
					    : (a->sinks.failed ? 1 : 0);
		/* The totals stay on the screen. */
		loop_pause(a->loop, true);
	} else if (!a->ui && a->cli.count && a->ticks >= a->cli.count && a->child <= 0) {
		return 0;
	}
	if (!a->ui && a->sinks.n == 0) /* every output failed: nothing left to do */
		return a->sinks.failed ? 1 : 0;
	return -1;
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
		if ((a->flat ? loop_check(a->loop, &ev) : loop_wait(a->loop, &ev)) < 0)
			return 1;
		if (ev.mask & LOOP_OUTPUT)
			screen_output(a);
		if ((ev.mask & LOOP_SIGNAL) && app_signal(a, ev.signo))
			break;
		if ((code = a->pass(a, ev.mask)) >= 0)
			return code;
		if ((ev.mask & LOOP_INPUT) && a->keys && a->keys(a))
			break;
		screen_draw(a);
	}
	code = 0;
	if (a->child > 0 && a->child_done)
		code = app_child_exit_code(a->child_status);
	return a->sinks.failed && !a->ui && !code ? 1 : code;
}

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

/* The longest event spec the metrics' groups and the default set make. */
#define EVSET_SPEC_MAX 8192

/* The event set: the default groups (unless -e replaced them) and the user's. */
int app_make_set(struct app *a, const char *user, struct evset *out, char *msg, size_t len)
{
	struct evspec_err e;
	memset(&e, 0, sizeof(e));
	const char *base = a->cli.events ? NULL : evset_default_spec();
	/* The chosen metrics' groups join the base set: never user groups, the Events pane
	 * is the user's. */
	char *spec = malloc(EVSET_SPEC_MAX), *mspec = malloc(EVSET_SPEC_MAX);
	if (!spec || !mspec) {
		free(spec);
		free(mspec);
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	/* A metric reads a group of the set that holds its events (the user's too) before
	 * it gets one of its own. */
	snprintf(spec, EVSET_SPEC_MAX, "%s%s%s", base ? base : "", base && user && *user ? "," : "",
		 user ? user : "");
	metric_bind_spec(a->metrics, spec, a->pmus, mspec, EVSET_SPEC_MAX);
	snprintf(spec, EVSET_SPEC_MAX, "%s%s%s", base ? base : "", base && *mspec ? "," : "",
		 mspec);
	int err = evset_build(out, *spec ? spec : NULL, user, a->pmus, &e);
	free(spec);
	free(mspec);
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

/* Whether FILE's folder exists and is writable: W can then create FILE. */
static bool folder_writable(const char *file)
{
	char dir[sizeof(((struct app *)0)->cfg_path)];
	snprintf(dir, sizeof(dir), "%s", file);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	return access(dir, W_OK | X_OK) == 0;
}

/* The setup file: -c FILE must be readable and right (exit 2 otherwise), or not exist yet
 * in a writable folder (htop's habit: the defaults, and W creates it); the default one is
 * optional and, if corrupt, reported in the notice and ignored. Options given on the
 * command line win. */
void app_load_config(struct app *a)
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
	if (r == -ENOENT && (!a->cli.config || folder_writable(path)))
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
			app_say("no setup file '%s', nor a writable folder to save it in: check "
				"the path given to -c\n",
				path);
		else
			app_say("%s: %s\n", err, advice);
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
	app_load_config(a);
	/* -e chooses the events: metrics only when -M asks for them too, as perf stat. */
	const char *mlist = a->cli.metric_list ? a->cli.metric_list : a->cli.events ? "" : NULL;
	if (metric_bind_load("/sys", "/proc/cpuinfo", a->cli.metrics_file, mlist, &a->metrics, msg,
			     sizeof(msg))) {
		app_say("%s\n", msg);
		exit(2);
	}
	a->set = calloc(1, sizeof(*a->set));
	if (!a->set) {
		app_say("out of memory\n");
		exit(1);
	}
	if (app_make_set(a, a->user_spec, a->set, msg, sizeof(msg))) {
		if (a->cli.events) {
			app_say("-e: %s\n", msg);
			exit(2);
		}
		/* The setup file's events do not parse here: count the default set. */
		snprintf(a->cfg_note, sizeof(a->cfg_note), "setup file events: %s (ignored)", msg);
		a->user_spec[0] = '\0';
		if (app_make_set(a, NULL, a->set, msg, sizeof(msg))) {
			app_say("%s\n", msg);
			exit(1);
		}
	}
	char hw[512], pr[512];
	startup_notice(a->pmus, a->set, hw, sizeof(hw));
	startup_privs_notice(&a->privs, pr, sizeof(pr));
	snprintf(a->notice, sizeof(a->notice), "%s%s%s%s%s", a->cfg_note,
		 *a->cfg_note && (*pr || *hw) ? "; " : "", pr, *pr && *hw ? "; " : "", hw);
	/* The Top-down pane's absence, said once where the notice is. */
	struct model sm = {.nevents = a->set->nevents,
			   .events = a->set->events,
			   .ngroups = a->set->specs.n,
			   .groups = a->set->groups};
	const char *td = a->cli.metric_list || !a->cli.events
				 ? metric_bind_topdown_reason(a->metrics, &sm)
				 : NULL;
	size_t nl = strlen(a->notice);
	if (td)
		snprintf(a->notice + nl, sizeof(a->notice) - nl, "%s%s", nl ? "; " : "", td);
	startup_pmu_names(a->pmus, a->pmu_names, sizeof(a->pmu_names));
}

/* A sort column that no pane has: an error from the command line or -c FILE; from the
 * default setup file a notice naming its line, and the default order. Before the watched
 * command runs, so that an exit leaves nothing behind. */
static void check_sort(struct app *a)
{
	if (!a->cli.sort)
		return;
	app_build_panes(a);
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
		app_say("%s:%u: %s: fix the line or remove the file\n", a->cfg_path,
			a->cfg.sort_line, msg);
	else
		app_say("%s\n", msg);
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
		app_say("-G: no cgroup2 hierarchy is mounted here (see /proc/self/mountinfo)\n");
		exit(2);
	}
	if (!a->privs.cpus) {
		app_say("-G counts per CPU, which needs root, CAP_PERFMON or "
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
			app_say("-G: no cgroup '/%s' under %s%s\n", p, mnt,
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
			app_say("no user '%s' (-u): give a user name or a uid\n", a->cli.user);
			exit(2);
		}
		a->user_uid = (uid_t)v;
	}
	if (!a->privs.others && a->user_uid != geteuid()) {
		app_say("-u %s: counting another user's processes needs root or CAP_PERFMON\n",
			a->cli.user);
		exit(2);
	}
}

/* -C: perf stat's list, each CPU online here. */
static void check_cpus(struct app *a)
{
	int online[1024];
	if (!a->cli.cpu_list)
		return;
	int n = procfs_parse_cpulist(a->cli.cpu_list, a->cpus, 1024);
	int on = procfs_online_cpus("", online, 1024);
	if (n <= 0) {
		app_say("invalid CPU list '%s' for -C: give CPU numbers and ranges, e.g. -C "
			"0-3,8\n",
			a->cli.cpu_list);
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		bool found = false;
		for (int j = 0; j < on && !found; j++)
			found = online[j] == a->cpus[i];
		if (!found) {
			char list[128];
			FILE *f = fopen("/sys/devices/system/cpu/online", "re");
			if (!f || !fgets(list, sizeof(list), f))
				snprintf(list, sizeof(list), "?");
			if (f)
				fclose(f);
			list[strcspn(list, "\n")] = '\0';
			app_say("CPU %d is not online (-C): the online CPUs are %s\n", a->cpus[i],
				list);
			exit(2);
		}
	}
	a->ncpus = n;
}

/* -p names processes: a thread id would make a row that is only part of one. */
static void check_pids(const struct app *a)
{
	for (unsigned i = 0; i < a->cli.npids; i++) {
		pid_t tgid = procfs_tgid("", a->cli.pids[i]);
		if (tgid > 0 && tgid != a->cli.pids[i]) {
			app_say("%d is a thread of process %d: use -p %d\n", (int)a->cli.pids[i],
				(int)tgid, (int)tgid);
			exit(2);
		}
	}
}

/* BPF refused: --backend bpf ends here, auto counts per task with perf and says why. */
static void bpf_fallback(struct app *a, struct engine_opts *o, int bpf_err, int *err)
{
	if (a->cli.backend == BACKEND_BPF) {
		if (a->child > 0)
			kill(a->child, SIGKILL);
		app_say("--backend bpf: %s\n", engine_bpf_why(bpf_err));
		exit(2);
	}
	size_t n = strlen(a->notice);
	if (bpf_err != -ENOTSUP) /* not a build without BPF: it cannot be used here */
		snprintf(a->notice + n, sizeof(a->notice) - n,
			 "%sbpf backend unavailable: %s; counting per task (perf)", n ? "; " : "",
			 engine_bpf_why(bpf_err));
	o->bpf = false;
	a->src = engine_source(engine_new(a->set, o, err));
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
				.interval = a->cli.interval,
				.cpus = a->ncpus ? a->cpus : NULL,
				.ncpus = a->ncpus};
	int go = -1, errfd = -1;
	a->hdr.exit_status = -1;
	if (a->cli.command) {
		const char *tty = NULL;
		int err = 0, out = -1;
		if (a->cli.command_output &&
		    (out = open(a->cli.command_output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				0644)) < 0) {
			app_say("cannot write '%s' (--command-output): %s\n", a->cli.command_output,
				strerror(errno));
			exit(2);
		}
		if (!a->cli.batch) {
			/* The screen is pmutop's: the command gets a terminal of its own. */
			struct winsize ws = {0};
			if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0)
				memset(&ws, 0, sizeof(ws));
			a->cmdout = cmdout_new(ws.ws_col, ws.ws_row, &err);
			if (!a->cmdout) {
				app_say("cannot give '%s' a terminal (pty) of its own: %s\n",
					a->cli.command[0], strerror(-err));
				exit(1);
			}
			tty = cmdout_slave(a->cmdout);
			if (out >= 0)
				cmdout_copy_to(a->cmdout, out);
			out = -1;
		}
		err = startup_spawn(a->cli.command, tty, out, &a->child, &go, &errfd);
		if (out >= 0)
			close(out); /* the command has its own */
		if (err) {
			app_say("cannot start '%s': %s\n", a->cli.command[0], strerror(-err));
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
	int err, bpf_err = 0;
	pid_t bad = 0;
	o.failed_pid = &bad;
	o.bpf = a->cli.backend == BACKEND_BPF ||
		(a->cli.backend == BACKEND_AUTO && o.scope == SCOPE_ALL);
	o.bpf_err = &bpf_err;
	/* Cgroup rows (--cgroups, /metrics' pmutop_cgroup_events_total, and a recording's,
	 * replayed with G later) count the cgroups themselves where perf counts the
	 * processes. */
	o.cgroup_rows = a->cli.cgroups || a->cli.listen || a->cli.record;
	a->src = engine_source(engine_new(a->set, &o, &err));
	if (!a->src && bpf_err)
		bpf_fallback(a, &o, bpf_err, &err);
	a->eopts = o;
	a->eopts.failed_pid = NULL;
	a->eopts.bpf_err = NULL;
	if (!a->src) {
		if (a->child > 0)
			kill(a->child, SIGKILL);
		if (err == -ESRCH)
			app_say("no such process %d: check the pid with ps -p %d\n", (int)bad,
				(int)bad);
		else if (err == -EACCES) {
			char msg[512];
			startup_pid_refusal(&a->privs, bad, msg, sizeof(msg));
			app_say("%s\n", msg);
		} else
			app_say("cannot start counting: %s\n", strerror(-err));
		exit(err == -ESRCH || err == -EACCES ? 2 : 1);
	}
	check_sort(a);
	a->hdr.pmus = a->pmu_names;
	a->hdr.notice = a->notice[0] ? a->notice : NULL;
	if (a->child > 0) {
		err = startup_release(go, errfd);
		if (err) {
			app_say("cannot run '%s': %s\n", a->cli.command ? a->cli.command[0] : "?",
				strerror(-err));
			waitpid(a->child, NULL, 0);
			exit(127);
		}
		source_control(a->src, SRC_RESCAN, NULL); /* its name after the exec */
		loop_watch(a->loop, cmdout_fd(a->cmdout));
	}
}

/* --list NAME found nothing: what -e says of NAME when it says why (tracefs is not
 * mounted, no such tracepoint), or that -e takes it but as an encoding (r01c2), into
 * why; false (why "") when there is nothing to add. */
static bool list_refusal(const char *name, const struct pmu_set *pmus, char *why, size_t len)
{
	struct evspec_list l = {0};
	struct evspec_err e;
	why[0] = '\0';
	if (evspec_parse(name, pmus, &l, &e) == 0) {
		evspec_list_free(&l);
		snprintf(why, len,
			 "'%s' is an encoding -e takes (raw or PMU terms), not an event name: "
			 "pmutop --list all shows the names",
			 name);
		return true;
	}
	snprintf(why, len, "%s", e.reason);
	return why[0] != '\0';
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
		char why[400] = "";
		if (lerr == -ENOENT)
			list_refusal(a.cli.list_pmu, pmus, why, sizeof(why));
		pmu_set_free(pmus);
		if (why[0])
			app_say("--list: %s\n", why);
		else if (lerr == -ENOENT && strpbrk(a.cli.list_pmu, "*?["))
			app_say("no event name matches '%s': pmutop --list all shows every one\n",
				a.cli.list_pmu);
		else if (lerr == -ENOENT)
			app_say("no PMU, event heading or event called '%s': pmutop --list all "
				"shows them all\n",
				a.cli.list_pmu);
		else if (lerr)
			app_say("cannot list events: %s\n", strerror(-lerr));
		if (lerr)
			return lerr == -ENOENT ? 2 : 1;
		return 0;
	}
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (!a.cli.batch && !tty && a.cli.listen && !a.cli.replay) {
		/* No terminal (a service, a pipe): the exporter (and -w) without the screen. */
		a.cli.batch = true;
		a.cli.quiet = true;
	}
	if (!a.cli.batch && !tty)
		die_usage(a.cli.replay ? "the replay screen needs a terminal: use pmutop -r FILE -b"
				       : "the live screen needs a terminal: use batch mode, e.g. "
					 "pmutop -b -n 3");
	if (a.cli.replay)
		return run_replay(&a);
	check_pids(&a);
	check_cpus(&a);
	setup(&a);
	check_user(&a);
	open_cgroups(&a);
	a.out = stdout;
	if (a.cli.output && !(a.out = fopen(a.cli.output, "we"))) {
		app_say("cannot write '%s' (-o): %s\n", a.cli.output, strerror(errno));
		return 2;
	}
	int lerr;
	/* Signals are blocked from here on (the child unblocks its own). */
	a.loop = loop_new(a.cli.interval, a.cli.batch ? -1 : STDIN_FILENO, &lerr);
	if (!a.loop) {
		app_say("cannot set up timers and signals: %s\n", strerror(-lerr));
		return 1;
	}
	if (a.cli.batch && !a.cli.quiet && !(a.out = outstream_open(fileno(a.out), false))) {
		app_say("cannot set up the output: %s\n", strerror(errno));
		return 1;
	}
	struct exporter *x = NULL;
	if (a.cli.listen) { /* after loop_new: its threads inherit the blocked signals */
		x = exporter_new(a.cli.listen, a.cli.web_config, err, sizeof(err));
		if (!x)
			die_usage(err);
	}
	if (a.cli.record) {
		struct record_opts ro = {.retain_days = a.cli.retain_days,
					 .max_size = a.cli.max_size};
		struct recorder *rec = recorder_open(a.cli.record, &ro, err, sizeof(err));
		if (!rec) {
			app_say("%s\n", err);
			return 2;
		}
		if (sinks_add(&a.sinks, recsink_new(rec)))
			return 1;
	}
	start_engine(&a);
	if (x) {
		struct promacc_opts po = {.top = (unsigned)a.cli.top,
					  .watched = a.child > 0 ? &a.child : a.cli.pids,
					  .nwatched = a.child > 0 ? 1 : a.cli.npids,
					  .per_cpu = a.cli.per_cpu};
		if (sinks_add(&a.sinks, listen_sink_new(x, &po, app_current(&a), app_open_fds, &a)))
			return 1;
	}
	app_build_panes(&a);
	if (a.cli.batch && !a.cli.quiet) {
		struct batch *b = batch_new(a.out, a.cli.format, a.panes, a.npanes, a.cli.sort,
					    a.cli.reverse);
		if (!b)
			return 1;
		if (!batch_sort_ok(b)) {
			app_say("unknown sort column '%s': use a column title such as "
				"CPU%%, IPC or CMISS%%\n",
				a.cli.sort);
			return 2;
		}
		batch_show_cpus(b, a.cli.per_cpu);
		if (a.notice[0])
			batch_notice(b, a.notice);
		if (sinks_add(&a.sinks, batchsink_new(b, a.cli.cgroups, a.cli.count)))
			return 1;
	}
	a.pass = live_pass;
	a.keys = a.cli.batch ? NULL : screen_input;
	int code = a.cli.batch ? 0 : screen_open(&a);
	/* Start-up can take as long as an interval: the first one starts now (on the
	 * screen, a first frame sooner). */
	loop_set_interval(a.loop, a.cli.batch || a.cli.interval < 0.2 ? a.cli.interval : 0.2);
	if (code == 0)
		code = app_run(&a);
	screen_close(&a);
	sinks_free(&a.sinks);
	if (a.cli.batch && !a.cli.quiet && fclose(a.out) && errno != EPIPE && code == 0)
		code = 1;
	cgrows_free(a.cgrows);
	source_close(a.src);
	loop_free(a.loop);
	cmdout_free(a.cmdout);
	if (a.set)
		evset_free(a.set);
	free(a.set);
	metric_bind_free(a.metrics);
	pmu_set_free(a.pmus);
	return code;
}
