/* pmutop: composes the rooms. events/ counts, src/ models and writes, ui/ draws. main
 * is over all of src/app: run, start, view, the screen and the replay. */
#include "app.h"
#include "outstream.h"
#include "replayrun.h"
#include "run.h"
#include "screen.h"
#include "start.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static void die_usage(const char *msg)
{
	app_say("%s", msg);
	exit(2);
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

/* What a run that prints only wrote reached its output: 0, or 1 said in one line (a full
 * disk, a closed pipe). */
static int printed(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		app_say("cannot write output: %s\n", strerror(errno));
		return 1;
	}
	return rc;
}

/* --help, --version and --list: what they print, then the exit code. */
static int run_help(const struct cli *c)
{
	(void)c;
	cli_usage(stdout);
	return printed(0);
}

static int run_version(const struct cli *c)
{
	(void)c;
	printf("pmutop %s\n", PMUTOP_VERSION);
	return printed(0);
}

static int run_list(const struct cli *c)
{
	struct pmu_set *pmus = pmu_set_new("/sys", true);
	int lerr = listing_print(stdout, pmus, c->list_pmu);
	char why[400] = "";
	if (lerr == -ENOENT)
		list_refusal(c->list_pmu, pmus, why, sizeof(why));
	pmu_set_free(pmus);
	if (why[0])
		app_say("--list: %s\n", why);
	else if (lerr == -ENOENT && strpbrk(c->list_pmu, "*?["))
		app_say("no event name matches '%s': pmutop --list all shows every one\n",
			c->list_pmu);
	else if (lerr == -ENOENT)
		app_say("no PMU, event heading or event called '%s': pmutop --list all "
			"shows them all\n",
			c->list_pmu);
	else if (lerr)
		app_say("cannot list events: %s\n", strerror(-lerr));
	return printed(lerr == -ENOENT ? 2 : lerr ? 1 : 0);
}

/* The runs that count nothing, in the order they are asked. */
static const struct {
	size_t asked; /* a bool of struct cli */
	int (*run)(const struct cli *c);
} print_only[] = {
	{offsetof(struct cli, help), run_help},
	{offsetof(struct cli, version), run_version},
	{offsetof(struct cli, list), run_list},
};

/* Everything the run made, at its end. */
static void app_free(struct app *a)
{
	cgrows_free(a->scr.cgrows);
	source_close(a->src);
	loop_free(a->loop);
	cmdout_free(a->cmd.out);
	if (a->set)
		evset_free(a->set);
	free(a->set);
	metric_bind_free(a->metrics);
	pmu_set_free(a->pmus);
}

/* A standard descriptor closed by who started pmutop (>&-) is given /dev/null, so that
 * no descriptor pmutop opens lands there and is taken for it; true when stdout was. */
static bool std_fds_closed(void)
{
	bool out = false;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		out |= fd == STDOUT_FILENO;
		int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n >= 0 && n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
	return out;
}

int main(int argc, char **argv)
{
	static struct app a;
	char err[512];
	bool out_closed = std_fds_closed();
	setlocale(LC_ALL, "");
	startup_ignore_sigpipe();
	if (cli_parse(argc, argv, &a.cli, err, sizeof(err)))
		die_usage(err);
	bool print_run = false;
	for (size_t i = 0; i < sizeof(print_only) / sizeof(print_only[0]); i++)
		print_run |= *(const bool *)((const char *)&a.cli + print_only[i].asked);
	if (out_closed && !a.cli.output &&
	    (print_run || a.cli.sql || (a.cli.batch && !a.cli.quiet))) {
		app_say("standard output is closed: give -o FILE\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(print_only) / sizeof(print_only[0]); i++)
		if (*(const bool *)((const char *)&a.cli + print_only[i].asked))
			return print_only[i].run(&a.cli);
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
	a.fe = &screen_frontend; /* no-ops without the screen */
	if (a.cli.replay)
		return run_replay(&a);
	app_start_checks(&a);
	a.out = stdout;
	if (a.cli.output && !(a.out = fopen(a.cli.output, "we"))) {
		app_say("cannot write '%s' (-o): %s\n", a.cli.output, strerror(errno));
		return 2;
	}
	FILE *file = a.out; /* stdout, or -o's: the batch writer's stream is over it */
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
	app_start_source(&a);
	if (x) {
		if (app_add_listen(&a, x))
			return 1;
	}
	app_build_panes(&a);
	int code = a.cli.batch && !a.cli.quiet
			   ? app_add_batch(&a, a.notice[0] ? a.notice : NULL, a.cli.count)
			   : 0;
	if (code)
		return code;
	a.run.pass = live_pass;
	a.run.keys = a.cli.batch ? NULL : screen_input;
	code = a.cli.batch ? 0 : screen_open(&a);
	if (code == 0 && !a.cli.batch)
		a.fe->draw(&a); /* the first frame now */
	/* Start-up can take as long as an interval: the first one starts now (on the
	 * screen, a first frame sooner). */
	loop_set_interval(a.loop, a.cli.batch || a.cli.interval < 0.2 ? a.cli.interval : 0.2);
	if (code == 0)
		code = app_run(&a);
	screen_close(&a);
	sinks_free(&a.sinks);
	code = app_close_output(&a, file, code);
	app_free(&a);
	return code;
}
