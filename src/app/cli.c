/* Parsing the command line with getopt_long; every bad input gets one clear line. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exporter.h"
#include "listenaddr.h"
#include "interval.h"
#include "recfmt.h"
#include "sources.h"

enum {
	OPT_PER_CPU = 256,
	OPT_FORMAT,
	OPT_SORT,
	OPT_REVERSE,
	OPT_PANE,
	OPT_LIST,
	OPT_NO_COLOR,
	OPT_NO_MOUSE,
	OPT_CHILDREN,
	OPT_CGROUPS,
	OPT_USER,
	OPT_LISTEN,
	OPT_TOP,
	OPT_WEB_CONFIG,
	OPT_CONNECT,
	OPT_CONNECT_CONFIG,
	OPT_PROMETHEUS,
	OPT_MATCH,
	OPT_RETAIN,
	OPT_MAX_SIZE,
	OPT_BEGIN,
	OPT_END,
	OPT_SQL,
	OPT_BACKEND,
	OPT_COMMAND_OUTPUT,
	OPT_METRICS,
};

void cli_usage(FILE *f)
{
	fputs("Usage: pmutop [OPTIONS] [-- COMMAND [ARGS...]]\n"
	      "Live per-process and per-CPU performance counters: IPC, cache and branch misses.\n"
	      "\n"
	      "  -b, --batch            batch mode: print blocks of text, CSV or JSON lines\n"
	      "  -n, --iterations N     stop after N blocks (batch mode)\n"
	      "  -d, --delay SECONDS    interval between updates (default 1; 0.1 to 3600)\n"
	      "  -e, --events SPEC      count these events, perf syntax: cycles,{a,b}:u,\n"
	      "                         pmu/event=0x3c/, pmu::EVENT:UMASK, r01c2\n"
	      "  -p, --pid PID[,PID]    watch only these processes, a row per thread of a\n"
	      "                         multithreaded one\n"
	      "  -H, --threads          show thread rows\n"
	      "      --per-cpu          also count per CPU (rows in batch, meters on screen)\n"
	      "      --cgroups          a row per cgroup (summed) instead of processes (G)\n"
	      "  -G, --cgroup PATH[,PATH]  count these cgroups themselves, per CPU,\n"
	      "                         as perf stat -a -G (PATH under the cgroup2 root)\n"
	      "  -C, --cpu CPUS         per-CPU rows, meters and -G on these CPUs only (0-3,8)\n"
	      "      --user             hardware events count user mode only\n"
	      "  -i, --no-inherit       with -- COMMAND: count the command alone, not the\n"
	      "                         processes it starts (by default a row each, and in\n"
	      "                         its total as perf stat; --children says so)\n"
	      "      --command-output FILE  with -- COMMAND: what the command prints, also\n"
	      "                         into FILE (batch mode: there instead of pmutop's\n"
	      "                         stdout and stderr); o on the screen shows its end\n"
	      "      --format FMT       batch output: text (default), csv or json (implies -b)\n"
	      "      --sort COL         sort by column COL (e.g. CPU%, IPC, CMISS%)\n"
	      "      --reverse          reverse the sort order\n"
	      "      --pane NAME        first pane shown (IPC, Cache, Branch, Software, Events,\n"
	      "                         Top-down, Metrics)\n"
	      "  -M, --metric LIST      metrics and metric groups, as perf stat -M (default:\n"
	      "                         TopdownL1 where the CPU has it; also ipc,\n"
	      "                         cache_mpki, branch_mpki, ghz, group Basic)\n"
	      "      --metrics FILE     load perf's pmu-events metric JSON file for -M\n"
	      "      --list [PMU|all|PATTERN]  list this machine's PMUs and events (all: every\n"
	      "                         one libpfm4 knows; PATTERN: 'cache*'), then exit\n"
	      "      --no-color         no colours on the screen\n"
	      "      --no-mouse         leave the mouse to the terminal (no click to sort)\n"
	      "  -u, --user-filter USER only USER's processes (a name or a uid), as top -u\n"
	      "  -o, --output FILE      batch output to FILE instead of stdout (implies -b)\n"
	      "  -c, --config FILE      read the setup from FILE (default:\n"
	      "                         $XDG_CONFIG_HOME/pmutop/pmutoprc)\n"
	      "      --listen [HOST]:PORT  serve Prometheus /metrics (PORT alone: 127.0.0.1;\n"
	      "                         localhost:PORT, [::1]:PORT, :PORT for every address)\n"
	      "                         beside the screen, -b or -w; without a terminal, or\n"
	      "                         with -b -q, alone\n"
	      "      --top N            --listen: per-pid series for N processes, the ones with\n"
	      "                         the most CPU time, each kept until it exits (default 0:\n"
	      "                         processes are summed by command name per cgroup)\n"
	      "      --web-config FILE  --listen: TLS and basic auth, as node_exporter's\n"
	      "                         web-config.yml\n"
	      "      --connect URL      show another pmutop's --listen (http[s]://HOST:PORT) at\n"
	      "                         its tick, on the screen, -b or -w\n"
	      "      --connect-config FILE  --connect: TLS and credentials, as a Prometheus\n"
	      "                         scrape config's tls_config, basic_auth, authorization\n"
	      "      --prometheus URL   rank a fleet's processes (instance, command; with\n"
	      "                         --cgroups instance, cgroup) from the\n"
	      "                         Prometheus that scrapes its pmutop --listen exporters\n"
	      "      --match MATCHERS   --prometheus: those targets only, e.g. job=\"pmutop\"\n"
	      "  -w, --write FILE       record every tick into FILE (SQLite; with -b -q: nothing\n"
	      "                         else is printed), beside the screen, -b or --listen\n"
	      "      --retain DAYS      -w: prune ticks older than DAYS\n"
	      "      --max-size SIZE    -w: prune the oldest ticks beyond SIZE (500M, 2G)\n"
	      "  -r, --read FILE        replay a recording: the screen (t/T step, b jumps), or\n"
	      "                         with -b its ticks as batch mode printed them\n"
	      "      --begin T, --end T -r: from/to T (HH:MM[:SS], 'YYYY-MM-DD HH:MM', -10m)\n"
	      "      --sql QUERY        -r: run one SELECT over the recording (its tables and\n"
	      "                         the readings table), rows as CSV\n"
	      "  -q, --quiet            with -b and -w or --listen: print nothing\n"
	      "      --backend B        bpf: per-CPU counters summed per task in BPF; perf:\n"
	      "                         counters per task; auto (default): bpf where it can\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          version\n"
	      "\n"
	      "  -- COMMAND ARGS        start COMMAND with counters attached, watch it, and\n"
	      "                         exit with its status when it ends\n"
	      "\n"
	      "Exit status: 0 ok, 1 runtime error, 2 bad usage; with -- COMMAND the command's\n"
	      "status (127: it could not run). See pmutop(1).\n",
	      f);
}

int cli_parse_count(const char *s, long *out)
{
	char *end;
	if (!isdigit((unsigned char)s[0])) /* no blanks or sign before it */
		return -EINVAL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1)
		return -EINVAL;
	*out = v;
	return 0;
}

bool cli_pane_ok(const char *name)
{
	static const char *const panes[] = {"IPC",    "Cache",	  "Branch", "Software",
					    "Events", "Top-down", "Metrics"};
	for (size_t i = 0; i < sizeof(panes) / sizeof(panes[0]); i++)
		if (strcasecmp(name, panes[i]) == 0)
			return true;
	return false;
}

static int parse_pids(struct cli *c, const char *arg, char *err, size_t errlen)
{
	const char *s = arg;
	size_t n = strlen(arg);
	/* An empty list or element would watch everything or hide a typo: refuse both. */
	if (n == 0 || arg[n - 1] == ',') {
		snprintf(err, errlen,
			 "empty pid %s for -p: give process ids separated by "
			 "commas, e.g. -p 1234,5678",
			 n ? "in the list" : "list");
		return -EINVAL;
	}
	while (*s) {
		char *end;
		errno = 0;
		long v = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : 0;
		if (v == 0)
			end = (char *)s;
		if (errno || end == s || v < 1 || v > 0x3fffffff || (*end && *end != ',')) {
			snprintf(err, errlen,
				 "invalid pid list '%s' for -p: give process ids "
				 "separated by commas, e.g. -p 1234,5678",
				 arg);
			return -EINVAL;
		}
		if (c->npids == CLI_MAX_PIDS) {
			snprintf(err, errlen, "too many pids for -p: at most %d", CLI_MAX_PIDS);
			return -EINVAL;
		}
		c->pids[c->npids++] = (pid_t)v;
		s = *end ? end + 1 : end;
	}
	return 0;
}

static int parse_format(struct cli *c, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "text") == 0)
		c->format = OUT_TEXT;
	else if (strcmp(arg, "csv") == 0)
		c->format = OUT_CSV;
	else if (strcmp(arg, "json") == 0)
		c->format = OUT_JSON;
	else {
		snprintf(err, errlen, "unknown format '%s' for --format: use text, csv or json",
			 arg);
		return -EINVAL;
	}
	return 0;
}

/* The options that take more than a flag or a file name: each checks its argument and
 * says what to give in one line. */
typedef int parse_fn(struct cli *c, int opt, const char *arg, char *err, size_t errlen);

static int opt_count(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (cli_parse_count(arg, &c->count) == 0)
		return 0;
	snprintf(err, errlen, "invalid count '%s' for -n: give a whole number >= 1", arg);
	return -EINVAL;
}

static int opt_interval(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (interval_parse(arg, &c->interval) == 0) {
		c->interval_set = true;
		return 0;
	}
	snprintf(err, errlen,
		 "invalid interval '%s' for -d: give seconds from 0.1 to 3600, e.g. -d 0.5", arg);
	return -EINVAL;
}

static int opt_events(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (strlen(arg) >= CLI_EVENTS_MAX) {
		snprintf(err, errlen,
			 "event list for -e is too long (%zu bytes, at most %d): "
			 "count fewer events or use groups {a,b}",
			 strlen(arg), CLI_EVENTS_MAX - 1);
		return -EINVAL;
	}
	c->events = arg;
	return 0;
}

static int opt_pids(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	return parse_pids(c, arg, err, errlen);
}

static int opt_format(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	return parse_format(c, arg, err, errlen);
}

static int opt_pane(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (!cli_pane_ok(arg)) {
		snprintf(err, errlen, "unknown pane '%s' for --pane: use one of %s", arg,
			 CLI_PANES);
		return -EINVAL;
	}
	c->pane = arg;
	return 0;
}

/* --children (the default; accepted as it was once needed) and -i. */
static int opt_inherit(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	c->no_inherit = opt == 'i';
	*(opt == 'i' ? &c->inherit_flag : &c->children_flag) = true;
	return 0;
}

static int opt_cgroup_list(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (strstr(arg, ",,") || arg[0] == ',' || arg[strlen(arg) - 1] == ',') {
		snprintf(err, errlen,
			 "-G needs cgroup paths, comma separated: e.g. -G "
			 "system.slice/nginx.service");
		return -EINVAL;
	}
	c->cgroup_list = arg;
	return 0;
}

static int opt_listen(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (exporter_check_listen(arg, err, errlen))
		return -EINVAL;
	c->listen = arg; /* beside the screen, -b or -w; alone without a terminal */
	return 0;
}

static int opt_backend(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (!strcmp(arg, "auto") || sources_named(arg)) {
		c->backend = strcmp(arg, "auto") ? arg : NULL;
		return 0;
	}
	char names[128];
	sources_backends(names, sizeof(names));
	snprintf(err, errlen, "--backend %s: give %s or auto", arg, names);
	return -EINVAL;
}

static int opt_top(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	char *end;
	errno = 0;
	long v = isdigit((unsigned char)arg[0]) ? strtol(arg, &end, 10) : -1;
	if (v < 0 || v > 1000000 || errno || *end) {
		snprintf(err, errlen,
			 "invalid count '%s' for --top: give a whole number from 0 to 1000000",
			 arg);
		return -EINVAL;
	}
	c->top = v;
	c->top_set = true;
	return 0;
}

/* perf stat's list: 0-3,8. Each must be online: start.c checks. */
static int opt_cpu_list(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (arg[strspn(arg, "0123456789,-")]) {
		snprintf(err, errlen,
			 "invalid CPU list '%s' for -C: give CPU numbers and ranges, e.g. -C 0-3,8",
			 arg);
		return -EINVAL;
	}
	c->cpu_list = arg;
	return 0;
}

static int opt_retain(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	char *end;
	errno = 0;
	double d = strtod(arg, &end);
	if (end == arg || *end || errno || !(d > 0 && d <= 36500)) {
		snprintf(err, errlen,
			 "invalid --retain '%s': give days to keep, e.g. --retain 7 or 0.5", arg);
		return -EINVAL;
	}
	c->retain_days = d;
	return 0;
}

static int opt_max_size(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	(void)opt;
	if (recfmt_parse_size(arg, &c->max_size)) {
		snprintf(err, errlen,
			 "invalid --max-size '%s': give a size such as 500M, 2G or 1048576", arg);
		return -EINVAL;
	}
	return 0;
}

/* --begin, --end: checked against a recording later; the form is checked now. */
static int opt_time(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	double t;
	if (recfmt_parse_time(arg, 0, 0, &t)) {
		snprintf(err, errlen,
			 "invalid time '%s' for %s: give HH:MM[:SS], 'YYYY-MM-DD HH:MM', "
			 "-10m (before the end) or +1h (after the start)",
			 arg, opt == OPT_BEGIN ? "--begin" : "--end");
		return -EINVAL;
	}
	*(opt == OPT_BEGIN ? &c->begin : &c->end) = arg;
	return 0;
}

#define FLAG(name, o, member)                                                                      \
	{                                                                                          \
		name, o, no_argument, offsetof(struct cli, member), true, false, NULL, NULL        \
	}
#define TEXT(name, o, member, batch, empty)                                                        \
	{                                                                                          \
		name, o, required_argument, offsetof(struct cli, member), false, batch, empty,     \
			NULL                                                                       \
	}
#define CALL(name, o, batch, empty, fn)                                                            \
	{                                                                                          \
		name, o, required_argument, 0, false, batch, empty, fn                             \
	}
#define NOARG(name, o, fn)                                                                         \
	{                                                                                          \
		name, o, no_argument, 0, false, false, NULL, fn                                    \
	}

/* Every option, its long name and its short one (opt below 128): a flag sets its bool, a
 * text keeps its argument (refused with the line `empty` when it is empty), and the rest
 * call their parser. getopt's tables are made from it (getopt_tables). */
static const struct cli_option {
	const char *name;
	int opt;
	int has_arg;	   /* no_argument, required_argument */
	size_t member;	   /* FLAG: a bool of struct cli; TEXT: a const char * */
	bool flag;	   /* FLAG */
	bool batch;	   /* it means batch output too (as perf stat -x and -o) */
	const char *empty; /* the line for an empty argument, NULL: an empty one is taken */
	parse_fn *fn;	   /* CALL, NOARG */
} options[] = {
	FLAG("batch", 'b', batch),
	FLAG("threads", 'H', threads),
	FLAG("per-cpu", OPT_PER_CPU, per_cpu),
	FLAG("reverse", OPT_REVERSE, reverse),
	FLAG("list", OPT_LIST, list),
	FLAG("no-color", OPT_NO_COLOR, no_color),
	FLAG("no-mouse", OPT_NO_MOUSE, no_mouse),
	FLAG("cgroups", OPT_CGROUPS, cgroups),
	FLAG("user", OPT_USER, user_only),
	FLAG("quiet", 'q', quiet),
	FLAG("help", 'h', help),
	FLAG("version", 'V', version),
	TEXT("sort", OPT_SORT, sort, false, NULL),
	TEXT("config", 'c', config, false, "-c needs a file name: e.g. pmutop -c ~/.pmutoprc"),
	TEXT("sql", OPT_SQL, sql, true, NULL), /* rows on stdout, no screen */
	TEXT("user-filter", 'u', user, false, "-u needs a user name or uid: e.g. pmutop -u root"),
	TEXT("output", 'o', output, true, "-o needs a file name: e.g. pmutop -o out.csv"),
	TEXT("metric", 'M', metric_list, false, "empty metric list for -M: e.g. -M TopdownL1,ipc"),
	TEXT("metrics", OPT_METRICS, metrics_file, false,
	     "--metrics needs a file: --metrics FILE.json (perf's pmu-events metrics for this "
	     "CPU)"),
	TEXT("command-output", OPT_COMMAND_OUTPUT, command_output, false,
	     "--command-output needs a file name: --command-output FILE"),
	TEXT("web-config", OPT_WEB_CONFIG, web_config, false,
	     "--web-config needs a file name: e.g. --web-config web.yml"),
	TEXT("connect", OPT_CONNECT, connect, false,
	     "--connect needs a URL: e.g. --connect https://host:9465"),
	TEXT("connect-config", OPT_CONNECT_CONFIG, connect_config, false,
	     "--connect-config needs a file name"),
	TEXT("prometheus", OPT_PROMETHEUS, prometheus, false,
	     "--prometheus needs a URL: e.g. --prometheus http://prom:9090"),
	TEXT("match", OPT_MATCH, match, false,
	     "--match needs label matchers: e.g. --match 'job=\"pmutop\"'"),
	TEXT("write", 'w', record, false, "-w needs a file name: e.g. pmutop -w day.pmutop"),
	TEXT("read", 'r', replay, false, "-r needs a file name: e.g. pmutop -r day.pmutop"),
	CALL("iterations", 'n', false, NULL, opt_count),
	CALL("delay", 'd', false, NULL, opt_interval),
	CALL("events", 'e', false, "empty event list for -e: e.g. -e cycles,instructions",
	     opt_events),
	CALL("pid", 'p', false, NULL, opt_pids),
	CALL("format", OPT_FORMAT, true, NULL, opt_format),
	CALL("pane", OPT_PANE, false, NULL, opt_pane),
	NOARG("children", OPT_CHILDREN, opt_inherit),
	NOARG("no-inherit", 'i', opt_inherit),
	CALL("cgroup", 'G', false,
	     "-G needs cgroup paths, comma separated: e.g. -G system.slice/nginx.service",
	     opt_cgroup_list),
	CALL("listen", OPT_LISTEN, false, NULL, opt_listen),
	CALL("backend", OPT_BACKEND, false, NULL, opt_backend),
	CALL("top", OPT_TOP, false, NULL, opt_top),
	CALL("cpu", 'C', false, "-C needs CPUs: e.g. -C 0-3,8", opt_cpu_list),
	CALL("retain", OPT_RETAIN, false, NULL, opt_retain),
	CALL("max-size", OPT_MAX_SIZE, false, NULL, opt_max_size),
	CALL("begin", OPT_BEGIN, false, NULL, opt_time),
	CALL("end", OPT_END, false, NULL, opt_time),
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* getopt_long's long options and short string from options[]: "+:" (stop at the first
 * non-option, so a command's own options stay its own; ':' for a missing value), then
 * each short option with ':' when it takes a value. */
static void getopt_tables(struct option *lo, char *shortopts)
{
	char *s = shortopts;
	*s++ = '+';
	*s++ = ':';
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &options[i];
		lo[i] = (struct option){o->name, o->has_arg, NULL, o->opt};
		if (o->opt < 128) {
			*s++ = (char)o->opt;
			if (o->has_arg == required_argument)
				*s++ = ':';
		}
	}
	*s = '\0';
	lo[NOPTIONS] = (struct option){NULL, 0, NULL, 0};
}

static int parse_one(struct cli *c, int opt, const char *arg, char *err, size_t errlen)
{
	const struct cli_option *o = options;
	while (o < options + NOPTIONS && o->opt != opt)
		o++;
	if (o == options + NOPTIONS)
		return -EINVAL;
	if (o->batch)
		c->batch = true;
	if (o->flag) {
		*(bool *)((char *)c + o->member) = true;
		return 0;
	}
	if (o->empty && !*arg) {
		snprintf(err, errlen, "%s", o->empty);
		return -EINVAL;
	}
	if (o->fn)
		return o->fn(c, opt, arg, err, errlen);
	*(const char **)((char *)c + o->member) = arg;
	return 0;
}

/* Options that need another, or exclude one: one line on what to add or drop. */
static int check_combinations(const struct cli *c, char *err, size_t errlen)
{
	if (c->connect_config && !c->connect && !c->prometheus) {
		snprintf(err, errlen, "--connect-config is for --connect: add --connect URL");
		return -EINVAL;
	}
	if (c->match && !c->prometheus) {
		snprintf(err, errlen, "--match is for --prometheus: add --prometheus URL");
		return -EINVAL;
	}
	if (c->prometheus && (c->connect || c->replay || c->npids || c->command || c->cgroup_list ||
			      c->events || c->listen || c->record)) {
		snprintf(err, errlen,
			 "--prometheus ranks what the fleet's exporters count: drop --connect, -r, "
			 "-p, -G, -e, --listen, -w and a command");
		return -EINVAL;
	}
	if (c->connect && (c->replay || c->npids || c->command || c->cgroup_list || c->events)) {
		snprintf(err, errlen,
			 "--connect shows what the other host counts: drop -r, -p, -G, -e and a "
			 "command");
		return -EINVAL;
	}
	if (c->command && c->npids) {
		snprintf(err, errlen,
			 "-p and -- COMMAND cannot be combined: watch one or the other");
		return -EINVAL;
	}
	if ((c->children_flag || c->inherit_flag) && !c->command) {
		snprintf(err, errlen, "%s needs a command: pmutop %s -- COMMAND",
			 c->inherit_flag ? "-i/--no-inherit" : "--children",
			 c->inherit_flag ? "-i" : "--children");
		return -EINVAL;
	}
	if (c->command_output && !c->command) {
		snprintf(err, errlen,
			 "--command-output needs a command: pmutop --command-output FILE -- "
			 "COMMAND");
		return -EINVAL;
	}
	if (c->cgroup_list && (c->npids || c->command || c->cgroups)) {
		snprintf(err, errlen,
			 "-G counts cgroups alone: pmutop -G PATH (without -p, a command or "
			 "--cgroups)");
		return -EINVAL;
	}
	struct srcopts o = {.scope = c->cgroup_list	      ? SCOPE_CGROUPS
				     : c->npids || c->command ? SCOPE_PIDS
							      : SCOPE_ALL};
	if (c->backend && !sources_next(NULL, &o, c->backend)) {
		snprintf(err, errlen, "%s: --backend %s cannot count %s: drop --backend %s",
			 c->cgroup_list ? "-G"
			 : c->npids	? "-p"
					: "a command",
			 c->backend, c->cgroup_list ? "cgroups" : "these tasks", c->backend);
		return -EINVAL;
	}
	if (c->web_config && !c->listen) {
		snprintf(err, errlen, "--web-config protects --listen: add --listen [HOST]:PORT");
		return -EINVAL;
	}
	if (c->top_set && !c->listen) {
		snprintf(err, errlen, "--top limits what --listen exports: add --listen PORT");
		return -EINVAL;
	}
	if (c->replay && (c->record || c->npids || c->command || c->cgroup_list || c->events ||
			  c->user_only || c->interval_set)) {
		snprintf(err, errlen, "-r replays what was recorded: %s",
			 c->record	   ? "it cannot record too (drop -w)"
			 : c->events	   ? "its events are the recorded ones (drop -e)"
			 : c->interval_set ? "its interval is the recorded one (drop -d)"
					   : "it counts nothing (drop -p, --, -G, --user)");
		return -EINVAL;
	}
	if (c->replay && c->listen && c->batch) {
		snprintf(err, errlen,
			 "-r --listen serves the replay screen's ticks as it plays them: "
			 "drop -b");
		return -EINVAL;
	}
	if (c->sql && !c->replay) {
		snprintf(err, errlen, "--sql queries a recording: add -r FILE");
		return -EINVAL;
	}
	if ((c->begin || c->end) && !c->replay) {
		snprintf(err, errlen, "--begin and --end choose ticks of a recording: add -r FILE");
		return -EINVAL;
	}
	if ((c->retain_days > 0 || c->max_size) && !c->record) {
		snprintf(err, errlen, "--retain and --max-size prune a recording: add -w FILE");
		return -EINVAL;
	}
	if (c->quiet && !((c->record || c->listen) && c->batch)) {
		snprintf(err, errlen,
			 "-q prints nothing while recording or serving: pmutop -b -q -w FILE "
			 "and/or --listen PORT");
		return -EINVAL;
	}
	if (c->count && !c->batch) {
		snprintf(err, errlen, "-n counts batch blocks: add -b, e.g. pmutop -b -n 5");
		return -EINVAL;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->interval = 1.0;
	err[0] = '\0';
	opterr = 0;
	optind = 0; /* glibc restarts its scan (and forgets a half-read "-bzH") only at 0 */
	int opt;
	struct option longopts[NOPTIONS + 1];
	char shortopts[3 + 2 * NOPTIONS];
	getopt_tables(longopts, shortopts);
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == '?' || opt == ':') {
			const char *name = argv[optind - 1];
			bool is_long = strncmp(name, "--", 2) == 0;
			if (opt == ':')
				snprintf(err, errlen,
					 "option '%s' needs a value: see pmutop --help", name);
			else if (is_long && strchr(name, '='))
				snprintf(err, errlen,
					 "option '%.*s' takes no value: see pmutop --help",
					 (int)(strchr(name, '=') - name), name);
			else if (!is_long && optopt > 0 && optopt < 128)
				snprintf(err, errlen, "unknown option '-%c': see pmutop --help",
					 optopt);
			else
				snprintf(err, errlen, "unknown option '%s': see pmutop --help",
					 name);
			return -EINVAL;
		}
		if (parse_one(c, opt, optarg, err, errlen))
			return -EINVAL;
	}
	bool after_dashes = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
	if (optind < argc && c->list && !after_dashes && optind + 1 == argc) {
		c->list_pmu = argv[optind];
	} else if (optind < argc) {
		if (!after_dashes) {
			snprintf(err, errlen,
				 "unexpected argument '%s': to watch a command, put it "
				 "after --, e.g. pmutop -- %s",
				 argv[optind], argv[optind]);
			return -EINVAL;
		}
		c->command = &argv[optind];
	}
	return check_combinations(c, err, errlen);
}
