/* cli_parse: good command lines give the right settings; each bad one is refused with
 * one line that names the offending value. */
#include "testutil.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "exporter.h"
#include "listenaddr.h"
#include "interval.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#define MAXARGS 32

struct parsed {
	struct cli c;
	char err[512];
	int ret;
	char store[MAXARGS][64]; /* argv strings the cli may keep pointers into */
	char *argv[MAXARGS + 1];
};

/* glibc's getopt keeps a private cursor inside the last argv element; only optind = 0
 * resets it. Tests that are not about that reset it here so that each starts clean
 * (see test_reparse_after_error for why cli_parse itself must). */
static void reset_getopt(void)
{
	char *dummy[] = {(char *)"x", NULL};
	optind = 0;
	opterr = 0;
	getopt(1, dummy, "");
}

/* Parse a NULL-terminated list of arguments (without the program name). */
static struct parsed *parse_v(struct parsed *p, const char *const *args)
{
	memset(p, 0, sizeof(*p));
	int argc = 0;
	snprintf(p->store[argc], sizeof(p->store[0]), "pmutop");
	p->argv[argc] = p->store[argc];
	argc++;
	for (; *args; args++, argc++) {
		assert_true(argc < MAXARGS);
		snprintf(p->store[argc], sizeof(p->store[0]), "%s", *args);
		p->argv[argc] = p->store[argc];
	}
	p->argv[argc] = NULL;
	reset_getopt();
	p->ret = cli_parse(argc, p->argv, &p->c, p->err, sizeof(p->err));
	return p;
}

#define PARSE(p, ...) parse_v((p), (const char *const[]){__VA_ARGS__, NULL})

/* Refused with one line that contains each needle. */
static void assert_refused(const struct parsed *p, const char *needle1, const char *needle2)
{
	assert_int_equal(p->ret, -EINVAL);
	assert_true(p->err[0] != '\0');
	assert_null(strchr(p->err, '\n'));
	if (needle1 && !strstr(p->err, needle1))
		fail_msg("'%s' does not mention '%s'", p->err, needle1);
	if (needle2 && !strstr(p->err, needle2))
		fail_msg("'%s' does not mention '%s'", p->err, needle2);
}

static void test_defaults(void **state)
{
	(void)state;
	struct parsed p;
	char *argv[] = {(char *)"pmutop", NULL};
	reset_getopt();
	p.ret = cli_parse(1, argv, &p.c, p.err, sizeof(p.err));
	assert_int_equal(p.ret, 0);
	assert_false(p.c.batch);
	assert_int_equal(p.c.count, 0);
	assert_true(p.c.interval == 1.0);
	assert_false(p.c.interval_set);
	assert_null(p.c.events);
	assert_int_equal(p.c.format, OUT_TEXT);
	assert_int_equal(p.c.npids, 0);
	assert_null(p.c.command);
	assert_string_equal(p.err, "");
}

static void test_good_options(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "-b", "-n", "5", "-d", "0.5", "-e", "{cycles,instructions}:u", "-H", "--per-cpu",
	      "--format", "csv", "--sort", "IPC", "--reverse", "--pane", "Cache", "--user",
	      "--no-color");
	assert_int_equal(p.ret, 0);
	assert_true(p.c.batch);
	assert_int_equal(p.c.count, 5);
	assert_true(p.c.interval == 0.5);
	assert_true(p.c.interval_set);
	assert_string_equal(p.c.events, "{cycles,instructions}:u");
	assert_true(p.c.threads);
	assert_true(p.c.per_cpu);
	assert_int_equal(p.c.format, OUT_CSV);
	assert_string_equal(p.c.sort, "IPC");
	assert_true(p.c.reverse);
	assert_string_equal(p.c.pane, "Cache");
	assert_true(p.c.user_only);
	assert_true(p.c.no_color);

	/* Long forms and clustered short options. */
	PARSE(&p, "--batch", "--iterations=2", "--delay=3600", "--events=page-faults",
	      "--format=json");
	assert_int_equal(p.ret, 0);
	assert_true(p.c.batch);
	assert_int_equal(p.c.count, 2);
	assert_true(p.c.interval == 3600);
	assert_string_equal(p.c.events, "page-faults");
	assert_int_equal(p.c.format, OUT_JSON);
	PARSE(&p, "-bHn3");
	assert_int_equal(p.ret, 0);
	assert_true(p.c.batch && p.c.threads);
	assert_int_equal(p.c.count, 3);
	PARSE(&p, "-d", "0.1");
	assert_int_equal(p.ret, 0);
	assert_true(p.c.interval == 0.1);
	PARSE(&p, "-c", "/etc/pmutoprc");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.c.config, "/etc/pmutoprc");
	PARSE(&p, "--config=rc");
	assert_string_equal(p.c.config, "rc");
	PARSE(&p, "-u", "root", "-o", "out.csv");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.c.user, "root");
	assert_string_equal(p.c.output, "out.csv");
	assert_true(p.c.batch); /* -o is batch output, as perf stat -o */
	PARSE(&p, "-u", "");
	assert_refused(&p, "-u", NULL);
	/* Each option that names a file, a list or a user refuses an empty one, naming
	 * itself and an example. */
	static const char *const empty[] = {"-u",
					    "-o",
					    "-w",
					    "-r",
					    "-e",
					    "-M",
					    "-G",
					    "-C",
					    "--metrics",
					    "--web-config",
					    "--command-output"};
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		PARSE(&p, empty[i], "");
		assert_refused(&p, empty[i], ": ");
	}
	PARSE(&p, "--format", "text");
	assert_int_equal(p.c.format, OUT_TEXT);
	/* A format is batch output: never silently dropped for the screen. */
	assert_true(p.c.batch);
	PARSE(&p, "-d", "2");
	assert_false(p.c.batch);
}

static void test_pids(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "-p", "1234,5678", "-p", "42");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.c.npids, 3);
	assert_int_equal(p.c.pids[0], 1234);
	assert_int_equal(p.c.pids[1], 5678);
	assert_int_equal(p.c.pids[2], 42);
}

static void test_command(void **state)
{
	(void)state;
	struct parsed p;
	/* The command's own options stay its own. */
	PARSE(&p, "-b", "--", "ls", "-l", "-n", "0");
	assert_int_equal(p.ret, 0);
	assert_non_null(p.c.command);
	assert_string_equal(p.c.command[0], "ls");
	assert_string_equal(p.c.command[1], "-l");
	assert_string_equal(p.c.command[2], "-n");
	assert_string_equal(p.c.command[3], "0");
	assert_null(p.c.command[4]);
	assert_int_equal(p.c.count, 0);
	/* A command's children count by default (perf stat's inherit); --children, once
	 * needed, says the same; -i counts the command alone. */
	PARSE(&p, "--", "make", "-j8");
	assert_int_equal(p.ret, 0);
	assert_false(p.c.no_inherit);
	PARSE(&p, "--children", "--", "make", "-j8");
	assert_int_equal(p.ret, 0);
	assert_false(p.c.no_inherit);
	assert_string_equal(p.c.command[0], "make");
	PARSE(&p, "-i", "--", "make");
	assert_int_equal(p.ret, 0);
	assert_true(p.c.no_inherit);
	PARSE(&p, "--no-inherit", "--", "make");
	assert_true(p.c.no_inherit);
	/* A bare "--" watches nothing. */
	PARSE(&p, "-b", "--");
	assert_int_equal(p.ret, 0);
	assert_null(p.c.command);
}

static void test_list_help_version(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "--list");
	assert_int_equal(p.ret, 0);
	assert_true(p.c.list);
	assert_null(p.c.list_pmu);
	PARSE(&p, "--list", "cpu");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.c.list_pmu, "cpu");
	PARSE(&p, "--list", "cpu", "extra");
	assert_refused(&p, "unexpected argument", NULL);
	PARSE(&p, "-h");
	assert_true(p.c.help);
	PARSE(&p, "--version");
	assert_true(p.c.version);
}

static void test_bad_interval(void **state)
{
	(void)state;
	struct parsed p;
	const char *bad[] = {"abc", "0",  "99999", "0.09", "3600.5", "-1",
			     "",    "1s", "nan",   "inf",  "1e999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		PARSE(&p, "-d", bad[i]);
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		assert_refused(&p, quoted, "-d");
	}
}

static void test_bad_count(void **state)
{
	(void)state;
	struct parsed p;
	const char *bad[] = {"0", "x", "-3", "1.5", "", "99999999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		PARSE(&p, "-b", "-n", bad[i]);
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		assert_refused(&p, quoted, "-n");
	}
}

static void test_bad_format(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "-b", "--format", "xml");
	assert_refused(&p, "'xml'", "--format");
	PARSE(&p, "-b", "--format", "CSV ");
	assert_refused(&p, "'CSV '", NULL);
}

static void test_bad_pids(void **state)
{
	(void)state;
	struct parsed p;
	const char *bad[] = {"abc", "0", "-5", "12x", "1,,2", ",1", "1,abc", "2000000000"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		PARSE(&p, "-p", bad[i]);
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		assert_refused(&p, quoted, "-p");
	}
	/* More than CLI_MAX_PIDS. */
	char many[CLI_MAX_PIDS * 4 + 8] = "";
	for (int i = 1; i <= CLI_MAX_PIDS + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d", i > 1 ? "," : "",
			 i);
	const char *args[] = {"-p", many, NULL};
	struct parsed q;
	memset(&q, 0, sizeof(q));
	/* Too long for struct parsed's 64-byte slots: build argv by hand. */
	char *argv[] = {(char *)"pmutop", (char *)args[0], many, NULL};
	reset_getopt();
	q.ret = cli_parse(3, argv, &q.c, q.err, sizeof(q.err));
	assert_refused(&q, "too many", NULL);
}

static void test_unknown_and_missing(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "-z");
	assert_refused(&p, "-z", "unknown option");
	PARSE(&p, "--bogus");
	assert_refused(&p, "--bogus", "unknown option");
	PARSE(&p, "-b", "-d");
	assert_refused(&p, "-d", "needs a value");
	PARSE(&p, "-b", "--format");
	assert_refused(&p, "--format", "needs a value");
	PARSE(&p, "-c");
	assert_refused(&p, "-c", "needs a value");
	PARSE(&p, "-c", ""); /* taken before, and a save on the screen failed later */
	assert_refused(&p, "-c needs a file name", NULL);
	PARSE(&p, "-e", "");
	assert_refused(&p, "-e", NULL);
}

static void test_flag_given_a_value(void **state)
{
	(void)state;
	struct parsed p;
	/* A flag that takes no value given one: the message must name the long option.
	 * getopt_long reports it as '?' with optopt set to the option's val, so cli_parse
	 * prints "unknown option '-b'" (a known option), or for a long-only option (val
	 * 256 and up) a %c of 0 that cuts the line: "unknown option '-". */
	PARSE(&p, "--per-cpu=1");
	assert_refused(&p, "--per-cpu", NULL);
	PARSE(&p, "--batch=yes");
	assert_refused(&p, "--batch", NULL);
	PARSE(&p, "--per-cpu=1");
	assert_refused(&p, "--per-cpu", NULL);
}

static void test_bad_combinations(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "foo");
	assert_refused(&p, "'foo'", "--");
	PARSE(&p, "-b", "sleep", "1");
	assert_refused(&p, "'sleep'", NULL);
	PARSE(&p, "-p", "1", "--", "sleep", "1");
	assert_refused(&p, "-p", NULL);
	PARSE(&p, "--children");
	assert_refused(&p, "--children", NULL);
	PARSE(&p, "--children", "-p", "1");
	assert_refused(&p, "--children", NULL);
	PARSE(&p, "-i", "-p", "1");
	assert_refused(&p, "-i", NULL);
	PARSE(&p, "-n", "3");
	assert_refused(&p, "-b", NULL);
}

static void test_reparse_after_error(void **state)
{
	(void)state;
	/* An error in the middle of "-bzH" leaves glibc's cursor on "H". A second
	 * cli_parse on another argv must start from that argv, not finish the old one:
	 * cli_parse resets with optind = 1, which glibc does not treat as a restart. */
	char a0[] = "pmutop", a1[] = "-bzH";
	char *first[] = {a0, a1, NULL};
	struct cli c;
	char err[256];
	reset_getopt();
	assert_int_equal(cli_parse(2, first, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-z"));
	char b0[] = "pmutop", b1[] = "-d", b2[] = "2";
	char *second[] = {b0, b1, b2, NULL};
	assert_int_equal(cli_parse(3, second, &c, err, sizeof(err)), 0);
	assert_false(c.threads); /* the old argv's -H must not leak in */
	assert_true(c.interval == 2.0);
}

static void test_number_helpers(void **state)
{
	(void)state;
	double d;
	long n;
	assert_int_equal(interval_parse("0.1", &d), 0);
	assert_true(d == 0.1);
	assert_int_equal(interval_parse("3600", &d), 0);
	assert_int_equal(interval_parse("0.0999", &d), -EINVAL);
	assert_int_equal(interval_parse("2x", &d), -EINVAL);
	assert_int_equal(cli_parse_count("1", &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cli_parse_count("0", &n), -EINVAL);
	assert_int_equal(cli_parse_count("7 ", &n), -EINVAL);
}

/* Empty pid lists and elements: "-p ''" watched everything, "-p 1," was taken as 1. */
static void test_empty_pids(void **state)
{
	(void)state;
	struct parsed p;
	assert_refused(PARSE(&p, "-b", "-p", ""), "empty pid list", "-p");
	assert_refused(PARSE(&p, "-b", "-p", "1,"), "empty pid", "-p");
	assert_refused(PARSE(&p, "-b", "-p", ","), "empty pid", "-p");
	assert_refused(PARSE(&p, "-b", "-p", "1,,2"), "'1,,2'", "-p");
	assert_refused(PARSE(&p, "-b", "-p", ",1"), "',1'", "-p");
	PARSE(&p, "-b", "-p", "1,2");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.c.npids, 2);
}

/* -M and --metrics: kept for main.c, which loads and checks them; empty is refused. */
static void test_metric_options(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "-M", "TopdownL1,ipc", "--metrics", "spr.json");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.c.metric_list, "TopdownL1,ipc");
	assert_string_equal(p.c.metrics_file, "spr.json");
	assert_refused(PARSE(&p, "-M", ""), "-M", "TopdownL1");
	assert_refused(PARSE(&p, "--metrics", ""), "--metrics", "FILE.json");
}

/* Only panes that exist, in any case (as the screen matches them). */
static void test_pane_names(void **state)
{
	(void)state;
	struct parsed p;
	assert_refused(PARSE(&p, "--pane", "foo"), "'foo'",
		       "IPC, Cache, Branch, Software, Events, Top-down or Metrics");
	static const char *const ok[] = {"IPC",	   "Cache",    "Branch",  "Software",
					 "Events", "Top-down", "metrics", "cache"};
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		PARSE(&p, "--pane", ok[i]);
		assert_int_equal(p.ret, 0);
		assert_string_equal(p.c.pane, ok[i]);
	}
	assert_false(cli_pane_ok(""));
	assert_false(cli_pane_ok("IPCX"));
}

/* An event list pmutop cannot keep whole is refused, not cut to a wrong event. */
static void test_long_event_list(void **state)
{
	(void)state;
	static char spec[CLI_EVENTS_MAX + 1];
	memset(spec, 'a', sizeof(spec) - 1);
	spec[sizeof(spec) - 1] = '\0';
	char *argv[] = {(char *)"pmutop", (char *)"-b", (char *)"-e", spec, NULL};
	struct cli c;
	char err[512];
	reset_getopt();
	assert_int_equal(cli_parse(4, argv, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too long"));
	assert_non_null(strstr(err, "1023"));
	spec[CLI_EVENTS_MAX - 1] = '\0'; /* the longest that fits */
	reset_getopt();
	assert_int_equal(cli_parse(4, argv, &c, err, sizeof(err)), 0);
	assert_int_equal(strlen(c.events), CLI_EVENTS_MAX - 1);
}

/* --backend: auto by default; bpf, perf and auto taken; anything else, and bpf with -G
 * (cgroups are counted per CPU with perf), refused with one line. */
static void test_backend(void **state)
{
	(void)state;
	struct parsed p;
	PARSE(&p, "-b");
	assert_int_equal(p.ret, 0);
	assert_null(p.c.backend);
	PARSE(&p, "--backend", "bpf");
	assert_string_equal(p.c.backend, "bpf");
	PARSE(&p, "--backend=perf");
	assert_string_equal(p.c.backend, "perf");
	PARSE(&p, "--backend", "bpf", "--backend", "auto");
	assert_int_equal(p.ret, 0);
	assert_null(p.c.backend);
	PARSE(&p, "--backend", "ebpf");
	assert_refused(&p, "--backend ebpf", "bpf, perf or auto");
	PARSE(&p, "--backend", "bpf", "-b", "-G", "system.slice");
	assert_refused(&p, "-G", "--backend bpf");
	PARSE(&p, "--backend", "perf", "-b", "-G", "system.slice");
	assert_int_equal(p.ret, 0);
}

/* --listen in node_exporter's forms: the address each one binds, and whether other
 * machines reach it. */
static void test_listen_forms(void **state)
{
	(void)state;
	static const struct {
		const char *spec, *addr;
		unsigned port;
		bool loopback;
	} good[] = {
		{"9465", "127.0.0.1", 9465, true},
		{"0", "127.0.0.1", 0, true},
		{"localhost:9465", "127.0.0.1", 9465, true},
		{"127.0.0.2:1", "127.0.0.2", 1, true},
		{"0.0.0.0:9465", "0.0.0.0", 9465, false},
		{"10.1.2.3:80", "10.1.2.3", 80, false},
		{"[::1]:9465", "::1", 9465, true},
		{"[::]:9465", "::", 9465, false},
		{":9465", "::", 9465, false},
		{"[::ffff:127.0.0.1]:9", "::ffff:127.0.0.1", 9, true},
		{"[2001:db8::1]:65535", "2001:db8::1", 65535, false},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct sockaddr_storage ss;
		socklen_t len;
		char err[512] = "", text[INET6_ADDRSTRLEN] = "";
		if (exporter_parse_listen(good[i].spec, &ss, &len, err, sizeof(err)))
			fail_msg("--listen %s refused: %s", good[i].spec, err);
		bool v6 = ss.ss_family == AF_INET6;
		const struct sockaddr_in *a4 = (const struct sockaddr_in *)&ss;
		const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)&ss;
		inet_ntop(ss.ss_family,
			  v6 ? (const void *)&a6->sin6_addr : (const void *)&a4->sin_addr, text,
			  sizeof(text));
		unsigned port = ntohs(v6 ? a6->sin6_port : a4->sin_port);
		if (strcmp(text, good[i].addr) || port != good[i].port ||
		    len != (v6 ? sizeof(*a6) : sizeof(*a4)) ||
		    exporter_loopback(&ss) != good[i].loopback)
			fail_msg("--listen %s: %s port %u, loopback %d", good[i].spec, text, port,
				 exporter_loopback(&ss));
	}
	struct parsed p;
	assert_int_equal(PARSE(&p, "-b", "--listen", "localhost:9465")->ret, 0);
	assert_string_equal(p.c.listen, "localhost:9465");
	assert_refused(PARSE(&p, "-b", "--listen", "::1:9465"), "'::1:9465'", "[]");
	assert_refused(PARSE(&p, "-b", "--listen", "[::1]9465"), "'[::1]9465'", ":PORT");
	assert_refused(PARSE(&p, "-b", "--listen", "[127.0.0.1]:9465"), "IPv6", NULL);
	assert_refused(PARSE(&p, "-b", "--listen", "localhost:"), "'localhost:'", "port");
	assert_refused(PARSE(&p, "-b", "--listen", "localhost:65536"), "port", NULL);
	assert_refused(PARSE(&p, "-b", "--listen", "localhost:http"), "port", NULL);
	assert_refused(PARSE(&p, "-b", "--listen", ""), "--listen", NULL);
	/* A name is looked up when the exporter binds, not while the command line is read. */
	assert_int_equal(PARSE(&p, "-b", "--listen", "no-such-host.invalid:9465")->ret, 0);
	struct sockaddr_storage ss;
	socklen_t len;
	char err[512];
	assert_int_equal(
		exporter_parse_listen("no-such-host.invalid:9465", &ss, &len, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "cannot resolve 'no-such-host.invalid'"));
	assert_null(strchr(err, '\n'));
	assert_refused(PARSE(&p, "-b", "--listen", "[fe80::zz]:1"), "not an IPv6 address", NULL);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_good_options),
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_list_help_version),
		cmocka_unit_test(test_bad_interval),
		cmocka_unit_test(test_bad_count),
		cmocka_unit_test(test_bad_format),
		cmocka_unit_test(test_bad_pids),
		cmocka_unit_test(test_unknown_and_missing),
		cmocka_unit_test(test_flag_given_a_value),
		cmocka_unit_test(test_bad_combinations),
		cmocka_unit_test(test_reparse_after_error),
		cmocka_unit_test(test_number_helpers),
		cmocka_unit_test(test_empty_pids),
		cmocka_unit_test(test_pane_names),
		cmocka_unit_test(test_metric_options),
		cmocka_unit_test(test_long_event_list),
		cmocka_unit_test(test_backend),
		cmocka_unit_test(test_listen_forms),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
