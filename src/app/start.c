/* pmutop's start-up, part of the composition (app.h): the command line and the setup
 * file checked against this machine, the event set made, and the source started. */
#include "start.h"

#include "run.h"
#include "promqsrc.h"
#include "remotesrc.h"

#include <limits.h>

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
	if (a->cli.events || !a->setup.cfg.events[0])
		return 0;
	struct evset tmp;
	struct evspec_err e;
	char msg[400];
	memset(&e, 0, sizeof(e));
	int r = evset_build(&tmp, evset_default_spec(), a->setup.cfg.events, a->pmus, &e);
	if (r == 0) {
		evset_free(&tmp);
		return 0;
	}
	event_error_text(a, a->setup.cfg.events, r, &e, msg, sizeof(msg));
	snprintf(err, len, "%s:%u: events: %s", a->setup.cfg_path, a->setup.cfg.events_line, msg);
	return -EINVAL;
}

/* Whether FILE's folder exists and is writable: W can then create FILE. */
static bool folder_writable(const char *file)
{
	char dir[sizeof(((struct app *)0)->setup.cfg_path)];
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
	config_init(&a->setup.cfg);
	const char *path =
		a->cli.config ? a->cli.config
			      : config_default_path(a->setup.cfg_path, sizeof(a->setup.cfg_path));
	if (!path)
		return;
	if (path != a->setup.cfg_path)
		snprintf(a->setup.cfg_path, sizeof(a->setup.cfg_path), "%s", path);
	int r = config_load(path, &a->setup.cfg, err, sizeof(err));
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
	snprintf(a->setup.cfg_note, sizeof(a->setup.cfg_note), "%s (setup file ignored%s%s)", err,
		 r == -EINVAL ? ": " : "", r == -EINVAL ? advice : "");
	config_init(&a->setup.cfg);
apply:
	if (!a->cli.interval_set && a->setup.cfg.interval > 0)
		a->cli.interval = a->setup.cfg.interval;
	if (!a->cli.sort && a->setup.cfg.sort[0]) {
		a->cli.sort = a->setup.cfg.sort;
		a->setup.sort_from_cfg = true;
	}
	if (!a->cli.pane && a->setup.cfg.pane[0])
		a->cli.pane = a->setup.cfg.pane;
	a->cli.reverse = a->cli.reverse || a->setup.cfg.reverse;
	a->cli.threads = a->cli.threads || a->setup.cfg.threads;
	a->cli.user_only = a->cli.user_only || a->setup.cfg.user_only;
	snprintf(a->setup.user_spec, sizeof(a->setup.user_spec), "%s",
		 a->cli.events ? a->cli.events : a->setup.cfg.events);
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
	if (app_make_set(a, a->setup.user_spec, a->set, msg, sizeof(msg))) {
		if (a->cli.events) {
			app_say("-e: %s\n", msg);
			exit(2);
		}
		/* The setup file's events do not parse here: count the default set. */
		snprintf(a->setup.cfg_note, sizeof(a->setup.cfg_note),
			 "setup file events: %s (ignored)", msg);
		a->setup.user_spec[0] = '\0';
		if (app_make_set(a, NULL, a->set, msg, sizeof(msg))) {
			app_say("%s\n", msg);
			exit(1);
		}
	}
	char hw[512], pr[512];
	startup_notice(a->pmus, a->set, hw, sizeof(hw));
	startup_privs_notice(&a->privs, pr, sizeof(pr));
	snprintf(a->notice, sizeof(a->notice), "%s%s%s%s%s", a->setup.cfg_note,
		 *a->setup.cfg_note && (*pr || *hw) ? "; " : "", pr, *pr && *hw ? "; " : "", hw);
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
	for (unsigned i = 0; i < a->panes.n; i++)
		if (pane_find_column(&a->panes.p[i], a->cli.sort) >= 0)
			return;
	/* Thread rows come and go on the screen (H), and their THR column with them. */
	if (!a->cli.batch && strcasecmp(a->cli.sort, "THR") == 0)
		return;
	char msg[256];
	snprintf(msg, sizeof(msg),
		 "unknown sort column '%.60s': use a column title such as CPU%%, IPC or CMISS%%",
		 a->cli.sort);
	if (a->setup.sort_from_cfg && !a->cli.config) {
		size_t n = strlen(a->notice);
		snprintf(a->notice + n, sizeof(a->notice) - n, "%s%s:%u: %s (that line ignored)",
			 n ? "; " : "", a->setup.cfg_path, a->setup.cfg.sort_line, msg);
		a->cli.sort = NULL;
		return;
	}
	if (a->cmd.pid > 0) {
		kill(a->cmd.pid, SIGKILL);
		waitpid(a->cmd.pid, NULL, 0);
	}
	if (a->setup.sort_from_cfg)
		app_say("%s:%u: %s: fix the line or remove the file\n", a->setup.cfg_path,
			a->setup.cfg.sort_line, msg);
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
	char *list = strdup(a->cli.cgroup_list), *save = NULL;
	if (!list)
		exit(1);
	for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		while (*p == '/')
			p++;
		if (a->scope.ncg == 64) {
			app_say("-G: 64 cgroups at most (more are listed)\n");
			exit(2);
		}
		char dir[PATH_MAX];
		int fd = -1;
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", mnt, p) < sizeof(dir))
			fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			app_say("-G: no cgroup '/%s' under %s\n", p, mnt);
			exit(2);
		}
		size_t n = strlen(p) + 2;
		a->scope.cg_path[a->scope.ncg] = malloc(n);
		if (!a->scope.cg_path[a->scope.ncg])
			exit(1);
		snprintf(a->scope.cg_path[a->scope.ncg], n, "/%s", p);
		a->scope.cg_fd[a->scope.ncg++] = fd;
	}
	free(list);
}

/* -u: a user by name or uid; without the privilege to count others, only oneself. */
static void check_user(struct app *a)
{
	if (!a->cli.user)
		return;
	char buf[4096], *end;
	struct passwd pw, *res = NULL;
	if (getpwnam_r(a->cli.user, &pw, buf, sizeof(buf), &res) == 0 && res) {
		a->scope.user_uid = res->pw_uid;
	} else {
		errno = 0;
		unsigned long v = strtoul(a->cli.user, &end, 10);
		if (!isdigit((unsigned char)a->cli.user[0]) || *end || errno || v >= UINT32_MAX) {
			app_say("no user '%s' (-u): give a user name or a uid\n", a->cli.user);
			exit(2);
		}
		a->scope.user_uid = (uid_t)v;
	}
	if (!a->privs.others && a->scope.user_uid != geteuid()) {
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
	int n = procfs_parse_cpulist(a->cli.cpu_list, a->scope.cpus, 1024);
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
			found = online[j] == a->scope.cpus[i];
		if (!found) {
			char list[128];
			FILE *f = fopen("/sys/devices/system/cpu/online", "re");
			if (!f || !fgets(list, sizeof(list), f))
				snprintf(list, sizeof(list), "?");
			if (f)
				fclose(f);
			list[strcspn(list, "\n")] = '\0';
			app_say("CPU %d is not online (-C): the online CPUs are %s\n",
				a->scope.cpus[i], list);
			exit(2);
		}
	}
	a->scope.ncpus = n;
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

/* The source the table gave: a backend that cannot count here ends a run that named
 * it (--backend); under auto the next counts, and the notice says why. */
static void say_refusal(struct app *a, const struct source_pick *p)
{
	const struct source_kind *r = p->refused;
	if (!r)
		return;
	if (a->cli.backend) {
		if (a->cmd.pid > 0)
			kill(a->cmd.pid, SIGKILL);
		app_say("--backend %s: %s\n", r->name, r->why(p->refused_err));
		exit(2);
	}
	size_t n = strlen(a->notice);
	if (p->kind && p->refused_err != -ENOTSUP) /* not a build without it: not here */
		snprintf(a->notice + n, sizeof(a->notice) - n,
			 "%s%s backend unavailable: %s; counting %s (%s)", n ? "; " : "", r->name,
			 r->why(p->refused_err), p->kind->what, p->kind->name);
}

/* Another host's rows (--connect, --prometheus: a source that cannot act on this
 * machine's processes): the model's header facts and interval; no metrics bound to this
 * machine's event set. */
static void take_model_header(struct app *a)
{
	const struct model *m = source_model(a->src);
	snprintf(a->pmu_names, sizeof(a->pmu_names), "%s", m->pmus ? m->pmus : "");
	snprintf(a->notice, sizeof(a->notice), "%s", m->notice ? m->notice : "");
	if (m->interval > 0)
		a->cli.interval = m->interval;
	metric_bind_free(a->metrics);
	a->metrics = NULL;
}

/* The watched command (a->cli.command): its output file, a terminal of its own under the screen,
 * spawned held until the counters are open (go, errfd for startup_release); o counts it.
 * A failure says one line and exits. */
static void start_command(struct app *a, struct srcopts *o, int *go, int *errfd)
{
	const char *tty = NULL;
	int err = 0, out = -1;
	if (a->cli.command_output &&
	    (out = open(a->cli.command_output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) <
		    0) {
		app_say("cannot write '%s' (--command-output): %s\n", a->cli.command_output,
			strerror(errno));
		exit(2);
	}
	if (!a->cli.batch) {
		/* The screen is pmutop's: the command gets a terminal of its own. */
		struct winsize ws = {0};
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0)
			memset(&ws, 0, sizeof(ws));
		a->cmd.out = cmdout_new(ws.ws_col, ws.ws_row, &err);
		if (!a->cmd.out) {
			app_say("cannot give '%s' a terminal (pty) of its own: %s\n",
				a->cli.command[0], strerror(-err));
			exit(1);
		}
		tty = cmdout_slave(a->cmd.out);
		if (out >= 0)
			cmdout_copy_to(a->cmd.out, out);
		out = -1;
	}
	err = startup_spawn(a->cli.command, tty, out, &a->cmd.pid, go, errfd);
	if (out >= 0)
		close(out); /* the command has its own */
	if (err) {
		app_say("cannot start '%s': %s\n", a->cli.command[0], strerror(-err));
		exit(1);
	}
	o->scope = SCOPE_PIDS;
	o->pids = &a->cmd.pid;
	o->npids = 1;
	o->enable_on_exec = true;
	o->inherit = !a->cli.no_inherit;
	o->threads = a->cli.threads; /* -H, or H on the screen */
}

void app_start_source(struct app *a)
{
	char e[512] = "";
	/* The rows chosen by an option of their own, and what they read (srcopts.own). */
	struct remoteopts ro = {.url = a->cli.connect,
				.config = a->cli.connect_config,
				.wait_s = 30,
				.err = e,
				.errlen = sizeof(e)};
	struct promqopts po = {.url = a->cli.prometheus,
			       .match = a->cli.match,
			       .config = a->cli.connect_config,
			       .cgroups = a->cli.cgroups,
			       .err = e,
			       .errlen = sizeof(e)};
	const char *name = a->cli.connect      ? remote_kind.name
			   : a->cli.prometheus ? promq_kind.name
					       : a->cli.backend;
	const void *own = a->cli.connect ? (const void *)&ro : a->cli.prometheus ? &po : NULL;
	struct srcopts o = {.root = "",
			    .scope = SCOPE_ALL,
			    .threads = a->cli.threads,
			    .per_cpu = (a->cli.per_cpu || !a->cli.batch) && a->privs.cpus,
			    .no_cpu_rows = a->cli.batch && !a->cli.per_cpu,
			    .map_probes = a->privs.pin,
			    .user_only = a->cli.user_only,
			    .no_kernel = !a->privs.kernel,
			    .only_uid = !a->privs.others || a->cli.user,
			    .uid = a->cli.user ? a->scope.user_uid : geteuid(),
			    .interval = a->cli.interval,
			    .cpus = a->scope.ncpus ? a->scope.cpus : NULL,
			    .ncpus = a->scope.ncpus};
	int go = -1, errfd = -1;
	a->hdr.exit_status = -1;
	if (a->cli.command) {
		start_command(a, &o, &go, &errfd);
	} else if (a->scope.ncg) {
		o.scope = SCOPE_CGROUPS;
		o.cgroup_fds = a->scope.cg_fd;
		o.cgroup_paths = (const char *const *)a->scope.cg_path;
		o.ncgroups = a->scope.ncg;
	} else if (a->cli.npids) {
		o.scope = SCOPE_PIDS;
		o.pids = a->cli.pids;
		o.npids = a->cli.npids;
		o.threads = true;
	}
	int err;
	pid_t bad = 0;
	o.failed_pid = &bad;
	/* Cgroup rows (--cgroups, /metrics' pmutop_cgroup_events_total, and a recording's,
	 * replayed with G later) count the cgroups themselves where perf counts the
	 * processes. */
	o.cgroup_rows = a->cli.cgroups || a->cli.listen || a->cli.record;
	o.own = own;
	struct source_pick pick;
	a->src = sources_open(a->set, &o, name, &pick, &err);
	a->kind = pick.kind;
	say_refusal(a, &pick);
	a->eopts = o;
	a->eopts.failed_pid = NULL;
	a->eopts.own = NULL; /* ro and po are this call's */
	if (!a->src && own) {
		app_say("--%s: %s\n", name, e[0] ? e : strerror(-err));
		exit(2);
	}
	if (!a->src) {
		if (a->cmd.pid > 0)
			kill(a->cmd.pid, SIGKILL);
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
	if (!(source_caps(a->src) & SRC_CAN_ACT))
		take_model_header(a);
	check_sort(a);
	a->hdr.pmus = a->pmu_names;
	a->hdr.notice = a->notice[0] ? a->notice : NULL;
	if (a->cmd.pid > 0) {
		err = startup_release(go, errfd);
		if (err) {
			app_say("cannot run '%s': %s\n", a->cli.command ? a->cli.command[0] : "?",
				strerror(-err));
			waitpid(a->cmd.pid, NULL, 0);
			exit(127);
		}
		source_control(a->src, SRC_RESCAN, NULL); /* its name after the exec */
		loop_watch(a->loop, cmdout_fd(a->cmd.out));
	}
}

void app_start_checks(struct app *a)
{
	check_pids(a);
	check_cpus(a);
	setup(a);
	check_user(a);
	open_cgroups(a);
}
