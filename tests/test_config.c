/* config: the setup file parses every setting, refuses each kind of damage with its line
 * number and leaves the caller's struct alone, and save -> load gives back the same
 * setup through an atomic replace. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

/* ---- helpers ---------------------------------------------------------------------- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int setup_dir(void **state)
{
	char *dir = strdup("/tmp/pmutop-test-config-XXXXXX");
	if (!dir || !mkdtemp(dir))
		return -1;
	*state = dir;
	return 0;
}

static int teardown_dir(void **state)
{
	char *dir = *state;
	chmod(dir, 0755);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
	return 0;
}

static const char *in_dir(void **state, const char *rel)
{
	static char buf[4][4096];
	static unsigned next;
	char *b = buf[next++ % 4];
	snprintf(b, sizeof(buf[0]), "%s/%s", (const char *)*state, rel);
	return b;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The whole file into buf (NUL-terminated); returns its length. */
static size_t read_file(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, cap - 1, f);
	assert_int_equal(fclose(f), 0);
	buf[n] = '\0';
	return n;
}

/* Names in dir, sorted and joined by spaces ("" when empty). */
static const char *list_dir(const char *dir)
{
	static char out[1024];
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	assert_true(n >= 0);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			if (out[0])
				strcat(out, " ");
			strncat(out, ents[i]->d_name, sizeof(out) - strlen(out) - 2);
		}
		free(ents[i]);
	}
	free(ents);
	return out;
}

static void assert_config_equal(const struct config *x, const struct config *y)
{
	assert_true(x->interval == y->interval);
	assert_string_equal(x->sort, y->sort);
	assert_int_equal(x->reverse, y->reverse);
	assert_string_equal(x->pane, y->pane);
	assert_int_equal(x->threads, y->threads);
	assert_int_equal(x->user_only, y->user_only);
	assert_string_equal(x->events, y->events);
	assert_int_equal(x->nmetrics, y->nmetrics);
	for (unsigned i = 0; i < x->nmetrics; i++) {
		assert_string_equal(x->metrics[i].name, y->metrics[i].name);
		assert_string_equal(x->metrics[i].a, y->metrics[i].a);
		assert_string_equal(x->metrics[i].b, y->metrics[i].b);
		assert_true(x->metrics[i].mul == y->metrics[i].mul);
	}
}

static void add_metric(struct config *c, const char *name, const char *a, const char *b, double mul)
{
	assert_true(c->nmetrics < CONFIG_METRICS_MAX);
	struct user_metric *m = &c->metrics[c->nmetrics++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->a, sizeof(m->a), "%s", a);
	snprintf(m->b, sizeof(m->b), "%s", b);
	m->mul = mul;
}

/* A config with every field set, to show that a failed parse or load leaves it alone. */
static void sentinel(struct config *c)
{
	config_init(c);
	c->interval = 7;
	strcpy(c->sort, "SENTINEL");
	c->reverse = true;
	strcpy(c->pane, "Branch");
	c->threads = true;
	c->user_only = true;
	strcpy(c->events, "task-clock");
	add_metric(c, "KEEP", "x", "y", 100);
}

static int parse_str(const char *text, struct config *c, char *err, size_t errlen)
{
	return config_parse(text, strlen(text), c, err, errlen);
}

/* Refused with "line N: ..." naming needle; one line; c not touched. */
static void assert_refused_n(const char *text, size_t len, unsigned line, const char *needle)
{
	struct config c, before;
	char err[512], prefix[32];
	sentinel(&c);
	memcpy(&before, &c, sizeof(c));
	int ret = config_parse(text, len, &c, err, sizeof(err));
	if (ret != -EINVAL)
		fail_msg("accepted (%d): '%.*s'", ret, (int)(len > 80 ? 80 : len), text);
	snprintf(prefix, sizeof(prefix), "line %u: ", line);
	if (strncmp(err, prefix, strlen(prefix)) != 0)
		fail_msg("'%s' does not start with '%s'", err, prefix);
	if (!strstr(err, needle))
		fail_msg("'%s' does not mention '%s'", err, needle);
	assert_null(strchr(err, '\n'));
	assert_memory_equal(&c, &before, sizeof(c));
}

static void assert_refused(const char *text, unsigned line, const char *needle)
{
	assert_refused_n(text, strlen(text), line, needle);
}

/* ---- parsing ---------------------------------------------------------------------- */

static void test_init_is_unset(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0xa5, sizeof(c));
	config_init(&c);
	assert_true(c.interval == 0);
	assert_string_equal(c.sort, "");
	assert_false(c.reverse);
	assert_string_equal(c.pane, "");
	assert_false(c.threads);
	assert_false(c.user_only);
	assert_string_equal(c.events, "");
	assert_int_equal(c.nmetrics, 0);
}

static void test_parse_every_setting(void **state)
{
	(void)state;
	struct config c;
	char err[256] = "junk";
	config_init(&c);
	int ret = parse_str("interval 2.5\n"
			    "sort CMPKI\n"
			    "reverse yes\n"
			    "pane Cache\n"
			    "threads yes\n"
			    "user-only yes\n"
			    "events {cycles,instructions}:u,page-faults\n"
			    "metric L1MPKI = L1-dcache-load-misses / instructions * 1000\n"
			    "metric miss% = cache-misses / cache-references * 100\n"
			    "metric GHz2 = cpu/cycles/ / task-clock\n",
			    &c, err, sizeof(err));
	assert_int_equal(ret, 0);
	assert_string_equal(err, "");
	assert_true(c.interval == 2.5);
	assert_string_equal(c.sort, "CMPKI");
	assert_true(c.reverse);
	assert_string_equal(c.pane, "Cache");
	assert_true(c.threads);
	assert_true(c.user_only);
	assert_string_equal(c.events, "{cycles,instructions}:u,page-faults");
	assert_int_equal(c.nmetrics, 3);
	assert_string_equal(c.metrics[0].name, "L1MPKI");
	assert_string_equal(c.metrics[0].a, "L1-dcache-load-misses");
	assert_string_equal(c.metrics[0].b, "instructions");
	assert_true(c.metrics[0].mul == 1000);
	assert_string_equal(c.metrics[1].name, "miss%");
	assert_true(c.metrics[1].mul == 100);
	/* An event key may hold '/': the operator is a word of its own. */
	assert_string_equal(c.metrics[2].a, "cpu/cycles/");
	assert_string_equal(c.metrics[2].b, "task-clock");
	assert_true(c.metrics[2].mul == 1);
}

static void test_parse_replaces_whole_config(void **state)
{
	(void)state;
	struct config c;
	sentinel(&c);
	assert_int_equal(parse_str("interval 3\n", &c, NULL, 0), 0);
	assert_true(c.interval == 3);
	assert_string_equal(c.sort, "");
	assert_false(c.reverse);
	assert_string_equal(c.events, "");
	assert_int_equal(c.nmetrics, 0);

	sentinel(&c);
	assert_int_equal(config_parse("", 0, &c, NULL, 0), 0);
	assert_true(c.interval == 0);
	assert_string_equal(c.pane, "");
}

static void test_comments_blank_lines_whitespace(void **state)
{
	(void)state;
	struct config c;
	char err[256];
	int ret = parse_str("# comment\n"
			    "   # indented comment: interval 9\n"
			    "#sort NOTME\n"
			    "\n"
			    " \t \n"
			    "  interval\t\t2  \t\n"
			    "\tsort   IPC   \n"
			    "events  {a,b} , c#2 \n"
			    "metric\tX\t=\tinstructions#3\t/\tcycles#3\t*\t100\t\n",
			    &c, err, sizeof(err));
	assert_int_equal(ret, 0);
	assert_true(c.interval == 2);
	assert_string_equal(c.sort, "IPC");
	/* Inside a value spaces and '#' are kept: '#' is in event keys ("instructions#3"). */
	assert_string_equal(c.events, "{a,b} , c#2");
	assert_int_equal(c.nmetrics, 1);
	assert_string_equal(c.metrics[0].name, "X");
	assert_string_equal(c.metrics[0].a, "instructions#3");
	assert_string_equal(c.metrics[0].b, "cycles#3");
	assert_true(c.metrics[0].mul == 100);
}

static void test_crlf_bom_and_no_final_newline(void **state)
{
	(void)state;
	struct config c;
	char err[256];
	assert_int_equal(parse_str("# x\r\n\r\ninterval 4\r\nsort IPC\r\nreverse on\r\n", &c, err,
				   sizeof(err)),
			 0);
	assert_true(c.interval == 4);
	assert_string_equal(c.sort, "IPC");
	assert_true(c.reverse);

	assert_int_equal(parse_str("\xef\xbb\xbfpane Cache\nsort IPC", &c, err, sizeof(err)), 0);
	assert_string_equal(c.pane, "Cache");
	assert_string_equal(c.sort, "IPC");

	/* An error's line number counts CRLF lines the same way. */
	assert_refused("# x\r\n\r\nsort\r\n", 3, "'sort' needs a value");
	assert_refused("\xef\xbb\xbfsort a\nsort b", 2, "already set on line 1");
}

static void test_text_need_not_be_terminated(void **state)
{
	(void)state;
	struct config c;
	char err[256];
	const char text[] = "interval 2\ninterval 3\n";
	/* Only the first line is in len: the second would be a duplicate. */
	assert_int_equal(config_parse(text, 11, &c, err, sizeof(err)), 0);
	assert_true(c.interval == 2);
	assert_int_equal(config_parse(text, 10, &c, err, sizeof(err)), 0);
	assert_true(c.interval == 2);
	assert_int_equal(config_parse(text, sizeof(text) - 1, &c, err, sizeof(err)), -EINVAL);

	/* Exactly len bytes on the heap, no terminator: any over-read shows under valgrind. */
	const char *s = "sort IPC";
	char *heap = malloc(strlen(s));
	assert_non_null(heap);
	memcpy(heap, s, strlen(s));
	assert_int_equal(config_parse(heap, strlen(s), &c, err, sizeof(err)), 0);
	assert_string_equal(c.sort, "IPC");
	free(heap);
}

static void test_booleans(void **state)
{
	(void)state;
	static const struct {
		const char *word;
		bool value;
	} words[] = {
		{"yes", true}, {"no", false}, {"true", true}, {"false", false},
		{"1", true},   {"0", false},  {"on", true},   {"off", false},
		{"YES", true}, {"No", false}, {"True", true}, {"OFF", false},
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char text[128];
		struct config c;
		snprintf(text, sizeof(text), "reverse %s\nthreads %s\nuser-only %s\n",
			 words[i].word, words[i].word, words[i].word);
		sentinel(&c);
		c.reverse = c.threads = c.user_only = !words[i].value;
		assert_int_equal(parse_str(text, &c, NULL, 0), 0);
		assert_int_equal(c.reverse, words[i].value);
		assert_int_equal(c.threads, words[i].value);
		assert_int_equal(c.user_only, words[i].value);
	}
}

static void test_interval_range(void **state)
{
	(void)state;
	struct config c;
	assert_int_equal(parse_str("interval 0.1", &c, NULL, 0), 0);
	assert_true(c.interval == 0.1);
	assert_int_equal(parse_str("interval 3600", &c, NULL, 0), 0);
	assert_true(c.interval == 3600);
	assert_int_equal(parse_str("interval 1e3", &c, NULL, 0), 0);
	assert_true(c.interval == 1000);
}

static void test_boundaries_accepted(void **state)
{
	(void)state;
	static char text[8192];
	struct config c;
	char err[256];

	/* Longest event list, column and pane names, metric name and event keys. */
	snprintf(text, sizeof(text),
		 "events %01023d\nsort %031d\npane Software\n"
		 "metric %023d = %0111d / %0111d * 100\n",
		 7, 8, 1, 2, 3);
	assert_int_equal(parse_str(text, &c, err, sizeof(err)), 0);
	assert_int_equal(strlen(c.events), CONFIG_EVENTS_MAX - 1);
	assert_int_equal(strlen(c.sort), sizeof(c.sort) - 1);
	assert_string_equal(c.pane, "Software");
	assert_int_equal(strlen(c.metrics[0].name), 23);
	assert_int_equal(strlen(c.metrics[0].a), 111);
	assert_int_equal(strlen(c.metrics[0].b), 111);

	/* Every character a metric name may have. */
	assert_int_equal(parse_str("metric aZ09_%./- = a / b", &c, err, sizeof(err)), 0);
	assert_string_equal(c.metrics[0].name, "aZ09_%./-");

	/* A line of exactly 4096 bytes. */
	memset(text, 'x', 4096);
	text[0] = '#';
	text[4096] = '\n';
	strcpy(text + 4097, "interval 2\n");
	assert_int_equal(parse_str(text, &c, err, sizeof(err)), 0);
	assert_true(c.interval == 2);

	/* Sixteen metrics. */
	text[0] = '\0';
	for (int i = 0; i < CONFIG_METRICS_MAX; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "metric m%d = a / b\n",
			 i);
	assert_int_equal(parse_str(text, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nmetrics, CONFIG_METRICS_MAX);
	assert_string_equal(c.metrics[15].name, "m15");

	/* UTF-8 in a value. */
	assert_int_equal(
		parse_str("events caf\xc3\xa9,\xe2\x82\xac,\xf0\x9f\x98\x80", &c, err, sizeof(err)),
		0);
	assert_string_equal(c.events, "caf\xc3\xa9,\xe2\x82\xac,\xf0\x9f\x98\x80");
}

static void test_refused_settings(void **state)
{
	(void)state;
	assert_refused("colour yes\n", 1, "unknown setting 'colour'");
	assert_refused("interval 1\nInterval 2\n", 2, "unknown setting 'Interval'");
	assert_refused("# htop style\ninterval=1.5\n", 2, "e.g. 'interval 1.5'");
	assert_refused("sort=IPC\n", 1, "separate the setting from its value with a space");
	assert_refused("sort\n", 1, "'sort' needs a value, e.g. 'sort IPC'");
	assert_refused("\n\nevents   \t\n", 3, "'events' needs a value");
	assert_refused("user-only\n", 1, "'user-only' needs a value");
	assert_refused("interval abc\n", 1, "invalid interval 'abc': give seconds from 0.1");
	assert_refused("interval 0.09\n", 1, "0.1 to 3600");
	assert_refused("interval 3600.5\n", 1, "invalid interval");
	assert_refused("interval 1.5s\n", 1, "invalid interval '1.5s'");
	assert_refused("interval -1\n", 1, "invalid interval");
	assert_refused("interval nan\n", 1, "invalid interval");
	assert_refused("interval inf\n", 1, "invalid interval");
	assert_refused("interval 1 2\n", 1, "invalid interval '1 2'");
	assert_refused("reverse maybe\n", 1,
		       "invalid value 'maybe' for 'reverse': write yes or no");
	assert_refused("threads 2\n", 1, "for 'threads'");
	assert_refused("user-only yes please\n", 1, "for 'user-only'");
	assert_refused("sort CPU %\n", 1, "column name 'CPU %' has a space");
	assert_refused("pane Ca\tche\n", 1, "pane name 'Ca che' has a space");
	/* Only the panes pmutop has: a typo would otherwise be silently ignored. */
	assert_refused("interval 1\npane Blah\n", 2,
		       "unknown pane 'Blah': use IPC, Cache, Branch, Software, Events, Top-down or "
		       "Metrics");
	assert_refused("pane nosuch\n", 1, "unknown pane 'nosuch'");
}

/* Any case, as the screen matches pane names; each pane the screen can show. */
static void test_pane_names(void **state)
{
	(void)state;
	static const char *const ok[] = {"IPC", "Cache", "Branch", "Software", "Events", "cache"};
	struct config c;
	char text[64], err[256];
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(text, sizeof(text), "pane %s\n", ok[i]);
		assert_int_equal(parse_str(text, &c, err, sizeof(err)), 0);
		assert_string_equal(c.pane, ok[i]);
	}
}

/* main.c checks sort and events against the counted events: it needs their lines. */
static void test_lines_of_sort_and_events(void **state)
{
	(void)state;
	struct config c;
	char err[256];
	assert_int_equal(
		parse_str("# setup\ninterval 1\nevents cycles\n\nsort IPC\n", &c, err, sizeof(err)),
		0);
	assert_int_equal(c.events_line, 3);
	assert_int_equal(c.sort_line, 5);
	assert_int_equal(parse_str("interval 1\n", &c, err, sizeof(err)), 0);
	assert_int_equal(c.events_line, 0);
	assert_int_equal(c.sort_line, 0);
}

static void test_refused_lengths(void **state)
{
	(void)state;
	static char text[8192];
	snprintf(text, sizeof(text), "events %01024d\n", 1);
	assert_refused(text, 1, "longer than 1023 bytes");
	snprintf(text, sizeof(text), "\nsort %032d\n", 1);
	assert_refused(text, 2, "longer than 31 bytes");
	snprintf(text, sizeof(text), "pane %032d\n", 1);
	assert_refused(text, 1, "longer than 31 bytes");
	snprintf(text, sizeof(text), "metric %024d = a / b\n", 1);
	assert_refused(text, 1, "invalid metric name");
	snprintf(text, sizeof(text), "metric X = %0112d / b\n", 1);
	assert_refused(text, 1, "longer than 111 bytes");
	snprintf(text, sizeof(text), "metric X = a / %0112d * 100\n", 1);
	assert_refused(text, 1, "longer than 111 bytes");

	/* 4097 bytes, even in a comment. */
	memset(text, 'x', 4097);
	text[0] = '#';
	strcpy(text + 4097, "\n");
	assert_refused(text, 1, "longer than 4096 bytes");
	memcpy(text, "interval 1\n", 11);
	memset(text + 11, ' ', 4097);
	strcpy(text + 11 + 4097, "\r\n");
	assert_refused(text, 2, "longer than 4096 bytes");

	/* Seventeen metrics: the seventeenth line is the one named. */
	text[0] = '\0';
	for (int i = 0; i <= CONFIG_METRICS_MAX; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "metric m%d = a / b\n",
			 i);
	assert_refused(text, 17, "too many metrics: at most 16");

	/* A long bad value is shortened in the message. */
	memset(text, 'k', 3000);
	strcpy(text + 3000, " yes\n");
	struct config c;
	char err[512];
	assert_int_equal(parse_str(text, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "..."));
	assert_true(strlen(err) < 300);
}

static void test_refused_metrics(void **state)
{
	(void)state;
	assert_refused("metric X = a/b\n", 1, "spaces around = / and *");
	assert_refused("metric X=a / b\n", 1, "write 'metric NAME = EVENT / EVENT'");
	assert_refused("metric X a / b\n", 1, "write 'metric NAME = EVENT / EVENT'");
	assert_refused("metric X = a - b\n", 1, "does not read like that");
	assert_refused("metric X = a / b + 100\n", 1, "does not read like that");
	assert_refused("metric X = a / b *100\n", 1, "does not read like that");
	assert_refused("metric X = a / b * 100 extra\n", 1, "does not read like that");
	assert_refused("metric X = a / b / c / d\n", 1, "does not read like that");
	assert_refused("metric X = a / b * 10\n", 1, "invalid multiplier '* 10'");
	assert_refused("metric X = a / b * 1\n", 1, "or nothing for a plain ratio");
	assert_refused("metric a!b = a / b\n", 1, "invalid metric name 'a!b'");
	assert_refused("metric caf\xc3\xa9 = a / b\n", 1, "invalid metric name");
	assert_refused("metric X = a / b\nmetric Y = a / b\nmetric X = c / d * 100\n", 3,
		       "metric 'X' is already defined on line 1");
	assert_refused("metric X = a\xff / b\n", 1, "not valid UTF-8");
}

static void test_refused_duplicates(void **state)
{
	(void)state;
	assert_refused("sort IPC\npane IPC\nsort CPU%\n", 3, "'sort' is already set on line 1");
	assert_refused("\ninterval 1\ninterval 1\n", 3, "already set on line 2");
	assert_refused("reverse no\nreverse yes\n", 2, "keep one of the two lines");
	assert_refused("events a\nevents b\n", 2, "'events' is already set on line 1");
	assert_refused("threads no\nuser-only no\npane IPC\nthreads no\n", 4, "line 1");
}

static void test_refused_bytes(void **state)
{
	(void)state;
	assert_refused_n("sort I\0PC\n", 10, 1, "NUL byte");
	assert_refused_n("interval 1\n# \0\n", 15, 2, "NUL byte");
	assert_refused("pane Cache\nsort caf\xe9\n", 2,
		       "the value of 'sort' is not valid UTF-8 (byte 4)");
	assert_refused("events \xc0\xaf\n", 1, "not valid UTF-8 (byte 1)");	 /* overlong */
	assert_refused("events a\xed\xa0\x80\n", 1, "not valid UTF-8 (byte 2)"); /* surrogate */
	assert_refused("events \xf4\x90\x80\x80\n", 1, "not valid UTF-8");	 /* > U+10FFFF */
	assert_refused("events a\xe2\x82", 1, "not valid UTF-8 (byte 2)");	 /* cut short */
	assert_refused("events \x80\n", 1, "not valid UTF-8");
	assert_refused("pane C\x1b[1mache\n", 1, "control character 0x1b (byte 2)");
	assert_refused("sort I\rPC\r\n", 1, "control character 0x0d");
	assert_refused("events a\x7f\n", 1, "control character 0x7f");
	/* The message itself stays clean text. */
	assert_refused("\xff\x01x yes\n", 1, "unknown setting '??x'");
}

static void test_error_buffers(void **state)
{
	(void)state;
	struct config c;
	char small[12];
	memset(small, 'z', sizeof(small));
	assert_int_equal(parse_str("bogus 1\n", &c, small, sizeof(small)), -EINVAL);
	assert_string_equal(small, "line 1: unk");
	assert_int_equal(parse_str("bogus 1\n", &c, NULL, 0), -EINVAL);
	assert_int_equal(parse_str("bogus 1\n", &c, small, 0), -EINVAL);
	assert_int_equal(small[0], 'l');
}

/* ---- saving and loading ----------------------------------------------------------- */

/* Every field set, at its longest where it has a length. */
static void full_config(struct config *c)
{
	config_init(c);
	c->interval = 1.0 / 3.0;
	memset(c->sort, 'S', sizeof(c->sort) - 1);
	c->reverse = true;
	strcpy(c->pane, "Software");
	c->threads = true;
	c->user_only = true;
	/* UTF-8, spaces and '#' inside, exactly 1023 bytes. */
	strcpy(c->events, "{cycles,instructions}:u, caf\xc3\xa9#2,");
	size_t n = strlen(c->events);
	memset(c->events + n, 'e', CONFIG_EVENTS_MAX - 1 - n);
	c->events[CONFIG_EVENTS_MAX - 1] = '\0';
	static const double muls[] = {1, 100, 1000};
	for (unsigned i = 0; i < CONFIG_METRICS_MAX; i++) {
		struct user_metric *m = &c->metrics[i];
		snprintf(m->name, sizeof(m->name), "m%02u_%%./-%015u", i, i);
		memset(m->a, 'a', sizeof(m->a) - 1);
		snprintf(m->b, sizeof(m->b), "cpu/event=0x3c/#%u", i);
		m->a[0] = (char)('A' + i);
		m->mul = muls[i % 3];
	}
	c->nmetrics = CONFIG_METRICS_MAX;
}

static void test_round_trip(void **state)
{
	struct config c, back;
	char err[512];
	static char text1[32768], text2[32768];
	const char *p1 = in_dir(state, "a/b/c/pmutoprc"), *p2 = in_dir(state, "other");

	full_config(&c);
	assert_int_equal(strlen(c.metrics[0].name), 23);
	assert_int_equal(config_save(p1, &c), 0);
	sentinel(&back);
	assert_int_equal(config_load(p1, &back, err, sizeof(err)), 0);
	assert_config_equal(&back, &c);

	/* The text is stable: saving what was loaded writes the same bytes. */
	size_t n1 = read_file(p1, text1, sizeof(text1));
	assert_int_equal(config_save(p2, &back), 0);
	size_t n2 = read_file(p2, text2, sizeof(text2));
	assert_int_equal(n1, n2);
	assert_memory_equal(text1, text2, n1);
	assert_int_equal(config_save(p1, &back), 0);
	assert_int_equal(read_file(p1, text2, sizeof(text2)), n1);
	assert_memory_equal(text1, text2, n1);

	/* Intervals that need every digit, and ones that need few. */
	static const double intervals[] = {0.1, 0.3, 1.0 / 7.0, 3600, 2.0 / 3.0 * 100, 0.5};
	for (size_t i = 0; i < sizeof(intervals) / sizeof(intervals[0]); i++) {
		config_init(&c);
		c.interval = intervals[i];
		assert_int_equal(config_save(p1, &c), 0);
		assert_int_equal(config_load(p1, &back, err, sizeof(err)), 0);
		assert_true(back.interval == intervals[i]);
	}
	read_file(p1, text1, sizeof(text1));
	assert_non_null(strstr(text1, "\ninterval 0.5\n"));
}

/* The format, pinned: what pmutop writes for a known setup, byte for byte. */
static void test_saved_text(void **state)
{
	struct config c, back;
	char err[512];
	static char want[4096], got[4096];
	const char *p = in_dir(state, "pmutoprc");

	config_init(&c);
	c.interval = 0.5;
	strcpy(c.sort, "CMPKI");
	strcpy(c.pane, "Cache");
	c.threads = true;
	c.user_only = true;
	strcpy(c.events, "{cycles,instructions}:u,cpu/event=0x3c,umask=0x00/");
	add_metric(&c, "CPI", "cycles", "instructions", 1);
	add_metric(&c, "miss%", "cache-misses", "cache-references", 100);
	add_metric(&c, "MPKI", "cache-misses#2", "instructions#2", 1000);
	assert_int_equal(config_save(p, &c), 0);
	size_t n = read_file(testutil_path("fixtures/config/saved.pmutoprc"), want, sizeof(want));
	assert_int_equal(read_file(p, got, sizeof(got)), n);
	assert_string_equal(got, want);
	assert_int_equal(config_load(testutil_path("fixtures/config/saved.pmutoprc"), &back, err,
				     sizeof(err)),
			 0);
	assert_config_equal(&back, &c);

	/* Nothing set: the header and the three switches. */
	config_init(&c);
	assert_int_equal(config_save(p, &c), 0);
	read_file(p, got, sizeof(got));
	assert_string_equal(got, "# pmutop setup, written by pmutop; edit freely (see "
				 "pmutoprc(5))\nreverse no\nthreads no\nuser-only no\n");
}

static void test_save_modes_and_no_temp(void **state)
{
	struct config c;
	struct stat st;
	const char *dir = *state, *sub = in_dir(state, "x/y"), *p = in_dir(state, "x/y/pmutoprc");

	full_config(&c);
	mode_t old = umask(022);
	assert_int_equal(config_save(p, &c), 0);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* The file is 0644 whatever the umask: it holds nothing secret. */
	umask(077);
	assert_int_equal(config_save(p, &c), 0);
	umask(old);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(list_dir(sub), "pmutoprc");
	assert_string_equal(list_dir(dir), "x");

	/* A path without a directory part is in the current directory. */
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(sub), 0);
	assert_int_equal(config_save("rc", &c), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(list_dir(sub), "pmutoprc rc");
}

/* rename(2), not rewrite in place: a reader holding the old file keeps it whole. */
static void test_save_replaces_atomically(void **state)
{
	struct config c;
	char buf[256];
	struct stat before, after;
	const char *p = in_dir(state, "pmutoprc");

	write_file(p, "interval 9\n", 11);
	assert_int_equal(stat(p, &before), 0);
	int fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	config_init(&c);
	c.interval = 2;
	assert_int_equal(config_save(p, &c), 0);
	ssize_t r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_int_equal(r, 11);
	assert_memory_equal(buf, "interval 9\n", 11);
	assert_int_equal(stat(p, &after), 0);
	assert_true(before.st_ino != after.st_ino);
	read_file(p, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\ninterval 2\n"));
	assert_string_equal(list_dir(*state), "pmutoprc");
}

static void test_save_through_symlink(void **state)
{
	struct config c, back;
	struct stat st;
	char err[256];
	const char *link = in_dir(state, "pmutoprc"), *target = in_dir(state, "dotfiles.rc");

	write_file(target, "", 0);
	assert_int_equal(symlink("dotfiles.rc", link), 0);
	config_init(&c);
	strcpy(c.sort, "IPC");
	assert_int_equal(config_save(link, &c), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(config_load(target, &back, err, sizeof(err)), 0);
	assert_string_equal(back.sort, "IPC");
	assert_string_equal(list_dir(*state), "dotfiles.rc pmutoprc");
}

static void test_save_errors(void **state)
{
	struct config c;
	struct stat st;
	const char *file = in_dir(state, "file"), *dirdest = in_dir(state, "isdir");

	config_init(&c);
	c.interval = 2;
	write_file(file, "x", 1);
	assert_int_equal(config_save(in_dir(state, "file/pmutop/pmutoprc"), &c), -ENOTDIR);
	assert_int_equal(config_save(in_dir(state, "file/pmutoprc"), &c), -ENOTDIR);

	/* The destination is a directory: refused, and no temporary file stays. */
	assert_int_equal(mkdir(dirdest, 0755), 0);
	assert_int_equal(config_save(dirdest, &c), -EISDIR);
	assert_int_equal(stat(dirdest, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_string_equal(list_dir(*state), "file isdir");

	assert_int_equal(config_save("", &c), -ENOENT);

	/* Root may write anywhere, so EACCES only shows to other users. */
	if (geteuid() != 0) {
		const char *ro = in_dir(state, "ro");
		assert_int_equal(mkdir(ro, 0555), 0);
		assert_int_equal(config_save(in_dir(state, "ro/pmutoprc"), &c), -EACCES);
		assert_int_equal(config_save(in_dir(state, "ro/sub/pmutoprc"), &c), -EACCES);
		assert_string_equal(list_dir(ro), "");
		chmod(ro, 0755);
	}
}

/* What the file could not say the same way is refused before anything is written. */
static void test_save_refuses_what_would_not_load(void **state)
{
	struct config c;
	const char *p = in_dir(state, "pmutoprc");

#define REFUSED(stmt)                                                                              \
	do {                                                                                       \
		full_config(&c);                                                                   \
		stmt;                                                                              \
		assert_int_equal(config_save(p, &c), -EINVAL);                                     \
		assert_string_equal(list_dir(*state), "");                                         \
	} while (0)

	REFUSED(c.interval = 0.05);
	REFUSED(c.interval = 4000);
	REFUSED(c.interval = NAN);
	REFUSED(c.interval = -1);
	REFUSED(c.metrics[3].mul = 10);
	REFUSED(c.metrics[3].mul = 100.5);
	REFUSED(strcpy(c.metrics[3].name, "a b"));
	REFUSED(strcpy(c.metrics[3].name, ""));
	REFUSED(strcpy(c.metrics[3].a, ""));
	REFUSED(strcpy(c.metrics[3].b, "x y"));
	REFUSED(strcpy(c.metrics[4].name, c.metrics[3].name));
	REFUSED(c.nmetrics = CONFIG_METRICS_MAX + 1);
	REFUSED(strcpy(c.events, "cycles\ninterval 5"));
	REFUSED(strcpy(c.events, " cycles"));
	REFUSED(strcpy(c.events, "bad \xff utf-8"));
	REFUSED(strcpy(c.sort, "CPU %"));
	REFUSED(strcpy(c.pane, "a\tb"));
	REFUSED(memset(c.sort, 'x', sizeof(c.sort)));
	REFUSED(memset(c.events, 'x', sizeof(c.events)));
	REFUSED(memset(c.metrics[0].a, 'x', sizeof(c.metrics[0].a)));
#undef REFUSED
	/* The control: the same config unchanged is written. */
	full_config(&c);
	assert_int_equal(config_save(p, &c), 0);
	assert_string_equal(list_dir(*state), "pmutoprc");
}

static void test_load_fixtures(void **state)
{
	(void)state;
	struct config good, crlf;
	char err[512];
	assert_int_equal(config_load(testutil_path("fixtures/config/good.pmutoprc"), &good, err,
				     sizeof(err)),
			 0);
	assert_string_equal(err, "");
	assert_true(good.interval == 1.5);
	assert_string_equal(good.sort, "IPC");
	assert_true(good.reverse);
	assert_string_equal(good.pane, "Cache");
	assert_true(good.threads);
	assert_false(good.user_only);
	assert_string_equal(good.events, "{cycles,instructions}:u,page-faults");
	assert_int_equal(good.nmetrics, 3);
	assert_string_equal(good.metrics[1].name, "IPC3");
	assert_string_equal(good.metrics[1].a, "instructions#3");
	assert_string_equal(good.metrics[1].b, "cycles#3");
	assert_true(good.metrics[1].mul == 1);
	assert_string_equal(good.metrics[2].name, "miss%");
	assert_true(good.metrics[2].mul == 100);
	assert_int_equal(config_load(testutil_path("fixtures/config/crlf.pmutoprc"), &crlf, err,
				     sizeof(err)),
			 0);
	assert_config_equal(&crlf, &good);
}

static void test_load_corrupt_fixtures(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		unsigned line;
		const char *needle;
	} bad[] = {
		{"bad-unknown-key.pmutoprc", 3, "unknown setting 'colour'"},
		{"bad-interval.pmutoprc", 1, "invalid interval '0.01'"},
		{"bad-boolean.pmutoprc", 4, "invalid value 'maybe' for 'reverse'"},
		{"bad-metric.pmutoprc", 2, "spaces around"},
		{"bad-duplicate.pmutoprc", 3, "'sort' is already set on line 1"},
		{"bad-utf8.pmutoprc", 2, "not valid UTF-8"},
		{"bad-too-many-metrics.pmutoprc", 17, "too many metrics"},
		{"bad-key-equals.pmutoprc", 2, "e.g. 'interval 1.5'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char rel[256], want[4096 + 64], err[4096 + 512];
		struct config c, before;
		snprintf(rel, sizeof(rel), "fixtures/config/%s", bad[i].file);
		const char *path = testutil_path(rel);
		snprintf(want, sizeof(want), "%s:%u: ", path, bad[i].line);
		sentinel(&c);
		memcpy(&before, &c, sizeof(c));
		assert_int_equal(config_load(path, &c, err, sizeof(err)), -EINVAL);
		if (strncmp(err, want, strlen(want)) || !strstr(err, bad[i].needle))
			fail_msg("%s: '%s' is not '%s...%s'", bad[i].file, err, want,
				 bad[i].needle);
		assert_null(strchr(err, '\n'));
		assert_memory_equal(&c, &before, sizeof(c));
	}
}

static void test_load_missing(void **state)
{
	struct config c, before;
	char err[256] = "junk";
	sentinel(&c);
	memcpy(&before, &c, sizeof(c));
	assert_int_equal(config_load(in_dir(state, "nope/pmutoprc"), &c, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "");
	assert_memory_equal(&c, &before, sizeof(c));
	assert_int_equal(config_load(in_dir(state, "nope"), &c, NULL, 0), -ENOENT);
}

static void test_load_size_limit(void **state)
{
	static char text[64 * 1024 + 1];
	struct config c, before;
	char err[4096 + 256];
	const char *p = in_dir(state, "big");

	/* Exactly 64 KiB of comments and a setting at the end loads. */
	memset(text, ' ', sizeof(text));
	for (size_t i = 0; i + 100 < sizeof(text); i += 100)
		text[i] = '#', text[i + 99] = '\n';
	memcpy(text + 64 * 1024 - 11, "\nsort IPC\n", 10);
	text[64 * 1024 - 1] = '\n';
	write_file(p, text, 64 * 1024);
	assert_int_equal(config_load(p, &c, err, sizeof(err)), 0);
	assert_string_equal(c.sort, "IPC");

	/* One byte more does not. */
	write_file(p, text, sizeof(text));
	sentinel(&c);
	memcpy(&before, &c, sizeof(c));
	assert_int_equal(config_load(p, &c, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "larger than 64 KiB"));
	assert_memory_equal(&c, &before, sizeof(c));
}

static void test_load_not_a_file(void **state)
{
	struct config c, before;
	char err[4096 + 256];
	const char *dir = *state, *fifo = in_dir(state, "fifo");

	sentinel(&c);
	memcpy(&before, &c, sizeof(c));
	assert_int_equal(config_load(dir, &c, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, dir));
	assert_non_null(strstr(err, "is a directory"));

	/* A FIFO would block a plain open: refused at once instead. */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(config_load(fifo, &c, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(config_load("/dev/null", &c, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "/dev/null: not a regular file"));
	assert_memory_equal(&c, &before, sizeof(c));

	/* Other errors are reported with the path and the reason. */
	write_file(in_dir(state, "file"), "", 0);
	assert_int_equal(config_load(in_dir(state, "file/pmutoprc"), &c, err, sizeof(err)),
			 -ENOTDIR);
	assert_non_null(strstr(err, "file/pmutoprc: Not a directory"));
	if (geteuid() != 0) {
		const char *p = in_dir(state, "secret");
		write_file(p, "", 0);
		assert_int_equal(chmod(p, 0), 0);
		assert_int_equal(config_load(p, &c, err, sizeof(err)), -EACCES);
		assert_non_null(strstr(err, "Permission denied"));
	}
	assert_memory_equal(&c, &before, sizeof(c));
}

/* ---- the default path -------------------------------------------------------------- */

static void set_env(const char *name, const char *value)
{
	if (value)
		assert_int_equal(setenv(name, value, 1), 0);
	else
		assert_int_equal(unsetenv(name), 0);
}

static void test_default_path(void **state)
{
	(void)state;
	char buf[256], *saved_xdg = NULL, *saved_home = NULL;
	if (getenv("XDG_CONFIG_HOME"))
		saved_xdg = strdup(getenv("XDG_CONFIG_HOME"));
	if (getenv("HOME"))
		saved_home = strdup(getenv("HOME"));

	set_env("XDG_CONFIG_HOME", "/x/cfg");
	set_env("HOME", "/home/u");
	assert_ptr_equal(config_default_path(buf, sizeof(buf)), buf);
	assert_string_equal(buf, "/x/cfg/pmutop/pmutoprc");

	set_env("XDG_CONFIG_HOME", NULL);
	assert_non_null(config_default_path(buf, sizeof(buf)));
	assert_string_equal(buf, "/home/u/.config/pmutop/pmutoprc");

	/* Empty or relative XDG_CONFIG_HOME is ignored, as the XDG spec says. */
	set_env("XDG_CONFIG_HOME", "");
	assert_non_null(config_default_path(buf, sizeof(buf)));
	assert_string_equal(buf, "/home/u/.config/pmutop/pmutoprc");
	set_env("XDG_CONFIG_HOME", "rel/cfg");
	assert_non_null(config_default_path(buf, sizeof(buf)));
	assert_string_equal(buf, "/home/u/.config/pmutop/pmutoprc");

	/* XDG alone is enough. */
	set_env("XDG_CONFIG_HOME", "/x");
	set_env("HOME", NULL);
	assert_non_null(config_default_path(buf, sizeof(buf)));
	assert_string_equal(buf, "/x/pmutop/pmutoprc");

	set_env("XDG_CONFIG_HOME", NULL);
	assert_null(config_default_path(buf, sizeof(buf)));
	set_env("HOME", "");
	assert_null(config_default_path(buf, sizeof(buf)));

	/* A buffer too small gives NULL, never a cut path; exactly enough is fine. */
	set_env("HOME", "/h");
	const char *want = "/h/.config/pmutop/pmutoprc";
	assert_null(config_default_path(buf, strlen(want)));
	assert_non_null(config_default_path(buf, strlen(want) + 1));
	assert_string_equal(buf, want);

	set_env("XDG_CONFIG_HOME", saved_xdg);
	set_env("HOME", saved_home);
	free(saved_xdg);
	free(saved_home);
}

/* columns PANE LIST: one line per pane, read back as written; bad ones refused. */
static void test_columns_lines(void **state)
{
	(void)state;
	struct config c;
	char err[512];
	const char *text = "columns Software CGROUP,CPU%,FAULTS\ncolumns ipc IPC,CPU%\n";
	assert_int_equal(parse_str(text, &c, err, sizeof(err)), 0);
	assert_int_equal(c.ncolumns, 2);
	assert_string_equal(config_columns(&c, "software"), "CGROUP,CPU%,FAULTS");
	assert_string_equal(config_columns(&c, "IPC"), "IPC,CPU%");
	assert_null(config_columns(&c, "Cache"));
	assert_int_equal(config_set_columns(&c, "IPC", ""), 0);
	assert_null(config_columns(&c, "IPC"));
	assert_int_equal(config_set_columns(&c, "Cache", "CMISS%"), 0);
	char path[] = "/tmp/pmutop-cfgcols-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(config_save(path, &c), 0);
	struct config back;
	assert_int_equal(config_load(path, &back, err, sizeof(err)), 0);
	unlink(path);
	assert_string_equal(config_columns(&back, "Cache"), "CMISS%");
	assert_string_equal(config_columns(&back, "Software"), "CGROUP,CPU%,FAULTS");
	assert_refused("columns Nope CPU%\n", 1, "unknown pane 'Nope'");
	assert_refused("columns IPC\n", 1, "columns needs a pane and its columns");
	assert_refused("columns IPC CPU%;rm\n", 1, "invalid column list");
	assert_refused("columns IPC IPC\ncolumns ipc CPU%\n", 2, "set twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_is_unset),
		cmocka_unit_test(test_parse_every_setting),
		cmocka_unit_test(test_parse_replaces_whole_config),
		cmocka_unit_test(test_comments_blank_lines_whitespace),
		cmocka_unit_test(test_crlf_bom_and_no_final_newline),
		cmocka_unit_test(test_text_need_not_be_terminated),
		cmocka_unit_test(test_booleans),
		cmocka_unit_test(test_interval_range),
		cmocka_unit_test(test_boundaries_accepted),
		cmocka_unit_test(test_refused_settings),
		cmocka_unit_test(test_pane_names),
		cmocka_unit_test(test_lines_of_sort_and_events),
		cmocka_unit_test(test_refused_lengths),
		cmocka_unit_test(test_refused_metrics),
		cmocka_unit_test(test_refused_duplicates),
		cmocka_unit_test(test_refused_bytes),
		cmocka_unit_test(test_error_buffers),
		cmocka_unit_test_setup_teardown(test_round_trip, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_saved_text, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_modes_and_no_temp, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_replaces_atomically, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_through_symlink, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_errors, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_refuses_what_would_not_load, setup_dir,
						teardown_dir),
		cmocka_unit_test(test_load_fixtures),
		cmocka_unit_test(test_load_corrupt_fixtures),
		cmocka_unit_test_setup_teardown(test_load_missing, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_load_size_limit, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_load_not_a_file, setup_dir, teardown_dir),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_columns_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
