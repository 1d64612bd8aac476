/* The setup file (pmutoprc(5)): one "key value" per line. The parser trusts nothing in
 * the file and names the line of the first problem; the writer only writes what the
 * parser reads back to the same struct, and replaces the file atomically. */
#include "config.h"

#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "interval.h"

#define CONFIG_LINE_MAX 4096
#define CONFIG_FILE_MAX (64 * 1024)
#define CONFIG_HEADER "# pmutop setup, written by pmutop; edit freely (see pmutoprc(5))\n"

/* What the parser is building, with where each setting was first seen, for duplicates. */
struct parse {
	struct config c;
	unsigned line;
	unsigned seen[9]; /* per setting: line it was set on, 0 none */
	unsigned metric_line[CONFIG_METRICS_MAX];
	char msg[400];
};

static int fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static bool is_ctrl(unsigned char ch)
{
	return (ch < 0x20 && ch != '\t') || ch == 0x7f;
}

/* s[0..n) for a message: at most about 40 characters, anything that is not printable
 * UTF-8 as '?', so that an error line is itself clean text. */
static const char *quote(char *out, size_t outlen, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, i = 0, chars = 0;

	while (i < n && o + 8 < outlen) {
		size_t l = text_utf8_seq(u + i, n - i, NULL);
		if (++chars > 40) {
			memcpy(out + o, "...", 3), o += 3;
			break;
		}
		if (l == 0 || (l == 1 && is_ctrl(u[i]))) {
			out[o++] = '?', i += l ? l : 1;
			continue;
		}
		if (u[i] == '\t') {
			out[o++] = ' ', i++;
			continue;
		}
		memcpy(out + o, s + i, l), o += l, i += l;
	}
	out[o] = '\0';
	return out;
}

#define Q(buf, s) quote(buf, sizeof(buf), s, strlen(s))

/* A value must be printable UTF-8 text: checked before anything quotes or stores it. */
static int check_text(struct parse *p, const char *key, const char *v, size_t n)
{
	const unsigned char *u = (const unsigned char *)v;
	for (size_t i = 0; i < n;) {
		size_t l = text_utf8_seq(u + i, n - i, NULL);
		if (l == 0)
			return fail(p,
				    "the value of '%s' is not valid UTF-8 (byte %zu): save "
				    "the file as UTF-8",
				    key, i + 1);
		if (l == 1 && is_ctrl(u[i]))
			return fail(p,
				    "the value of '%s' contains the control character 0x%02x "
				    "(byte %zu): remove it",
				    key, u[i], i + 1);
		i += l;
	}
	return 0;
}

/* Copy a one-word value (a column or pane name) into a field of size cap. */
static int set_word(struct parse *p, const char *key, const char *what, const char *v, char *dst,
		    size_t cap)
{
	char q[200];
	if (v[strcspn(v, " \t")])
		return fail(p, "%s '%s' has a space: give one name, e.g. '%s %s'", what, Q(q, v),
			    key, strcmp(key, "pane") == 0 ? "Cache" : "IPC");
	if (strlen(v) >= cap)
		return fail(p, "%s '%s' is longer than %zu bytes: no %s is that long", what,
			    Q(q, v), cap - 1, what);
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

static int set_bool(struct parse *p, const char *key, const char *v, bool *dst)
{
	static const char *const yes[] = {"yes", "true", "on", "1"};
	static const char *const no[] = {"no", "false", "off", "0"};
	char q[200];
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return *dst = true, 0;
		if (strcasecmp(v, no[i]) == 0)
			return *dst = false, 0;
	}
	return fail(p,
		    "invalid value '%s' for '%s': write yes or no (or true/false, on/off, "
		    "1/0)",
		    Q(q, v), key);
}

static int set_interval(struct parse *p, const char *key, char *v)
{
	char q[200];
	(void)key;
	if (interval_parse(v, &p->c.interval) == 0)
		return 0;
	return fail(p,
		    "invalid interval '%s': give seconds from 0.1 to 3600, e.g. "
		    "'interval 1.5'",
		    Q(q, v));
}

/* Columns depend on the events counted: main.c checks the name, with sort_line. */
static int set_sort(struct parse *p, const char *key, char *v)
{
	p->c.sort_line = p->line;
	return set_word(p, key, "column name", v, p->c.sort, sizeof(p->c.sort));
}

static int set_pane(struct parse *p, const char *key, char *v)
{
	char q[200];
	int ret = set_word(p, key, "pane name", v, p->c.pane, sizeof(p->c.pane));
	if (ret == 0 && !cli_pane_ok(v))
		return fail(p, "unknown pane '%s': use %s", Q(q, v), CLI_PANES);
	return ret;
}

static int set_reverse(struct parse *p, const char *key, char *v)
{
	return set_bool(p, key, v, &p->c.reverse);
}

static int set_threads(struct parse *p, const char *key, char *v)
{
	return set_bool(p, key, v, &p->c.threads);
}

static int set_user_only(struct parse *p, const char *key, char *v)
{
	return set_bool(p, key, v, &p->c.user_only);
}

/* The spec itself is checked by main.c with the event parser, which knows the PMUs. */
static int set_events(struct parse *p, const char *key, char *v)
{
	(void)key;
	if (strlen(v) >= sizeof(p->c.events))
		return fail(p, "the event list is longer than %zu bytes: count fewer events",
			    sizeof(p->c.events) - 1);
	memcpy(p->c.events, v, strlen(v) + 1);
	p->c.events_line = p->line;
	return 0;
}

static bool metric_name_ok(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			     "0123456789_%./-");
	return n > 0 && s[n] == '\0' && n < sizeof(((struct user_metric *)0)->name);
}

#define METRIC_FORM                                                                                \
	"write 'metric NAME = EVENT / EVENT', optionally followed by '* 100' or "                  \
	"'* 1000', with spaces around = / and *"

/* "NAME = A / B [* 100|* 1000]": event keys may contain '/' ("cpu/cycles/"), so the
 * operators are words of their own. */
static int set_metric(struct parse *p, const char *key, char *v)
{
	char *tok[8], q[200];
	unsigned n = 0;
	(void)key;

	for (char *s = v; *s && n < 8;) {
		tok[n++] = s;
		s += strcspn(s, " \t");
		if (*s)
			*s++ = '\0';
		s += strspn(s, " \t");
	}
	if ((n != 5 && n != 7) || strcmp(tok[1], "=") || strcmp(tok[3], "/") ||
	    (n == 7 && strcmp(tok[5], "*")))
		return fail(p, "a metric does not read like that: " METRIC_FORM);
	if (!metric_name_ok(tok[0]))
		return fail(p,
			    "invalid metric name '%s': use 1 to 23 letters, digits and "
			    "_ %% . / -, e.g. 'L1MPKI'",
			    Q(q, tok[0]));
	for (int i = 2; i <= 4; i += 2)
		if (strlen(tok[i]) >= sizeof(p->c.metrics[0].a))
			return fail(p,
				    "event '%s' is longer than %zu bytes: use the event's "
				    "name as pmutop shows it",
				    Q(q, tok[i]), sizeof(p->c.metrics[0].a) - 1);
	double mul = 1;
	if (n == 7 && strcmp(tok[6], "100") == 0)
		mul = 100;
	else if (n == 7 && strcmp(tok[6], "1000") == 0)
		mul = 1000;
	else if (n == 7)
		return fail(p,
			    "invalid multiplier '* %s': write '* 100' for a percentage, "
			    "'* 1000' per thousand, or nothing for a plain ratio",
			    Q(q, tok[6]));
	for (unsigned i = 0; i < p->c.nmetrics; i++)
		if (strcmp(p->c.metrics[i].name, tok[0]) == 0)
			return fail(p,
				    "metric '%s' is already defined on line %u: rename or "
				    "remove one of them",
				    tok[0], p->metric_line[i]);
	if (p->c.nmetrics == CONFIG_METRICS_MAX)
		return fail(p, "too many metrics: at most %d, remove one", CONFIG_METRICS_MAX);

	struct user_metric *m = &p->c.metrics[p->c.nmetrics];
	memset(m, 0, sizeof(*m));
	memcpy(m->name, tok[0], strlen(tok[0]) + 1);
	memcpy(m->a, tok[2], strlen(tok[2]) + 1);
	memcpy(m->b, tok[4], strlen(tok[4]) + 1);
	m->mul = mul;
	p->metric_line[p->c.nmetrics++] = p->line;
	return 0;
}

/* "columns PANE NAME,NAME,...": a pane the screen knows, then column names (letters,
 * digits and %/_-), checked against the panes when they are built. */
static int set_columns(struct parse *p, const char *key, char *v)
{
	(void)key;
	char q[200];
	char *sp = v;
	while (*sp && !is_blank(*sp))
		sp++;
	if (!*sp)
		return fail(p,
			    "columns needs a pane and its columns, e.g. 'columns IPC CPU%%,IPC'");
	*sp++ = '\0';
	while (is_blank(*sp))
		sp++;
	if (!cli_pane_ok(v))
		return fail(p, "unknown pane '%s': use %s", Q(q, v), CLI_PANES);
	for (const char *c = sp; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("%/_-,", *c))
			return fail(p,
				    "invalid column list '%s': names separated by commas, e.g. "
				    "CPU%%,IPC,CGROUP",
				    Q(q, sp));
	if (config_columns(&p->c, v))
		return fail(p, "columns of pane '%s' are set twice: keep one line", Q(q, v));
	if (strlen(sp) >= sizeof(p->c.columns[0].list))
		return fail(p, "too long a column list: at most %zu characters",
			    sizeof(p->c.columns[0].list) - 1);
	if (config_set_columns(&p->c, v, sp))
		return fail(p, "too many columns lines: one per pane, at most %d",
			    CONFIG_PANES_MAX);
	return 0;
}

static const struct setting {
	const char *key;
	const char *example;
	int (*set)(struct parse *p, const char *key, char *v);
} settings[] = {
	{"interval", "interval 1.5", set_interval},
	{"sort", "sort IPC", set_sort},
	{"reverse", "reverse no", set_reverse},
	{"pane", "pane Cache", set_pane},
	{"threads", "threads no", set_threads},
	{"user-only", "user-only no", set_user_only},
	{"events", "events cycles,instructions", set_events},
	{"metric", "metric IPC2 = instructions / cycles", set_metric}, /* repeats */
	{"columns", "columns IPC CPU%,IPC,CGROUP", set_columns},       /* repeats */
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))
_Static_assert(NSETTINGS <= sizeof(((struct parse *)0)->seen) / sizeof(unsigned),
	       "struct parse: one seen[] slot per setting");

static int unknown(struct parse *p, const char *k, size_t kl)
{
	char q[200];
	const char *eq = memchr(k, '=', kl);
	quote(q, sizeof(q), k, kl);
	for (size_t i = 0; eq && i < NSETTINGS; i++)
		if ((size_t)(eq - k) == strlen(settings[i].key) &&
		    memcmp(k, settings[i].key, (size_t)(eq - k)) == 0)
			return fail(p,
				    "unknown setting '%s': separate the setting from its "
				    "value with a space, e.g. '%s'",
				    q, settings[i].example);
	return fail(p,
		    "unknown setting '%s': the settings are interval, sort, reverse, "
		    "pane, threads, user-only, events, metric and columns",
		    q);
}

/* One line, without its terminator; the caller has checked its length and NULs. */
static int parse_line(struct parse *p, const char *s, size_t n)
{
	char v[CONFIG_LINE_MAX + 1];

	while (n && is_blank(*s))
		s++, n--;
	while (n && is_blank(s[n - 1]))
		n--;
	if (n == 0 || *s == '#')
		return 0;
	size_t kl = 0;
	while (kl < n && !is_blank(s[kl]))
		kl++;
	const struct setting *st = NULL;
	for (size_t i = 0; i < NSETTINGS; i++)
		if (strlen(settings[i].key) == kl && memcmp(s, settings[i].key, kl) == 0)
			st = &settings[i];
	if (!st)
		return unknown(p, s, kl);
	size_t vo = kl;
	while (vo < n && is_blank(s[vo]))
		vo++;
	if (vo == n)
		return fail(p, "'%s' needs a value, e.g. '%s'", st->key, st->example);
	int ret = check_text(p, st->key, s + vo, n - vo);
	if (ret)
		return ret;
	unsigned *seen = &p->seen[st - settings];
	if (st->set != set_metric && st->set != set_columns && *seen)
		return fail(p, "'%s' is already set on line %u: keep one of the two lines", st->key,
			    *seen);
	memcpy(v, s + vo, n - vo);
	v[n - vo] = '\0';
	ret = st->set(p, st->key, v);
	if (ret == 0)
		*seen = p->line;
	return ret;
}

/* Returns 0 with the result in p->c, or -EINVAL with p->line and p->msg. */
static int parse_text(struct parse *p, const char *text, size_t len)
{
	size_t pos = 0;

	memset(p, 0, sizeof(*p));
	config_init(&p->c);
	/* A byte-order mark, as some editors write it. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	for (p->line = 1; pos < len; p->line++) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + 1;
		if (n && s[n - 1] == '\r')
			n--;
		if (n > CONFIG_LINE_MAX)
			return fail(p,
				    "the line is longer than %d bytes: a setting fits on a "
				    "shorter one",
				    CONFIG_LINE_MAX);
		if (memchr(s, '\0', n))
			return fail(p, "NUL byte: a setup file is text, not binary");
		int ret = parse_line(p, s, n);
		if (ret)
			return ret;
	}
	return 0;
}

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int config_parse(const char *text, size_t len, struct config *c, char *err, size_t errlen)
{
	struct parse *p = malloc(sizeof(*p));
	if (!p) {
		set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int ret = parse_text(p, text, len);
	if (ret == 0) {
		*c = p->c;
		set_err(err, errlen, "%s", "");
	} else {
		set_err(err, errlen, "line %u: %s", p->line, p->msg);
	}
	free(p);
	return ret;
}

/* Read a whole regular file of at most CONFIG_FILE_MAX bytes into a new buffer. */
static int read_small(const char *path, char **out, size_t *outlen, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		if (e != ENOENT)
			set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	int ret = 0;
	char *buf = NULL;
	size_t len = 0;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		set_err(err, errlen, "%s: %s", path, strerror(-ret));
	} else if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		set_err(err, errlen, "%s: is a directory, not a file", path);
	} else if (!S_ISREG(st.st_mode)) {
		ret = -ENODEV;
		set_err(err, errlen, "%s: not a regular file", path);
	} else if (st.st_size > CONFIG_FILE_MAX) {
		ret = -EFBIG;
	} else if (!(buf = malloc(CONFIG_FILE_MAX + 1))) {
		ret = -ENOMEM;
		set_err(err, errlen, "%s: out of memory", path);
	}
	/* Read to the end rather than trust st_size: the file may grow meanwhile. */
	while (ret == 0) {
		ssize_t r = read(fd, buf + len, CONFIG_FILE_MAX + 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			set_err(err, errlen, "%s: %s", path, strerror(-ret));
		} else if (r == 0) {
			break;
		} else if ((len += (size_t)r) > CONFIG_FILE_MAX) {
			ret = -EFBIG;
		}
	}
	if (ret == -EFBIG)
		set_err(err, errlen, "%s: larger than %d KiB, too large for a setup file", path,
			CONFIG_FILE_MAX / 1024);
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

int config_load(const char *path, struct config *c, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;

	set_err(err, errlen, "%s", "");
	int ret = read_small(path, &text, &len, err, errlen);
	if (ret)
		return ret;
	struct parse *p = malloc(sizeof(*p));
	if (!p) {
		free(text);
		set_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = parse_text(p, text, len);
	if (ret == 0)
		*c = p->c;
	else
		set_err(err, errlen, "%s:%u: %s", path, p->line, p->msg);
	free(p);
	free(text);
	return ret;
}

/* The text of c, appended to a fixed buffer; the longest setup is well under its size. */
struct out {
	char buf[16384];
	size_t len;
	bool overflow;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->len, sizeof(o->buf) - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(o->buf) - o->len)
		o->overflow = true;
	else
		o->len += (size_t)n;
}

/* The shortest decimal that reads back as exactly v. */
static void put_double(struct out *o, const char *key, double v)
{
	char s[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, v);
		if (strtod(s, NULL) == v)
			break;
	}
	put(o, "%s %s\n", key, s);
}

static bool terminated(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

/* Returns -EINVAL when c holds what the format cannot say (unterminated strings). */
static int format(const struct config *c, struct out *o)
{
	o->len = 0;
	o->overflow = false;
	if (!terminated(c->sort, sizeof(c->sort)) || !terminated(c->pane, sizeof(c->pane)) ||
	    !terminated(c->events, sizeof(c->events)) || c->nmetrics > CONFIG_METRICS_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < c->nmetrics; i++) {
		const struct user_metric *m = &c->metrics[i];
		if (!terminated(m->name, sizeof(m->name)) || !terminated(m->a, sizeof(m->a)) ||
		    !terminated(m->b, sizeof(m->b)))
			return -EINVAL;
	}
	put(o, CONFIG_HEADER);
	if (c->interval != 0)
		put_double(o, "interval", c->interval);
	if (c->sort[0])
		put(o, "sort %s\n", c->sort);
	put(o, "reverse %s\n", c->reverse ? "yes" : "no");
	if (c->pane[0])
		put(o, "pane %s\n", c->pane);
	put(o, "threads %s\n", c->threads ? "yes" : "no");
	put(o, "user-only %s\n", c->user_only ? "yes" : "no");
	if (c->events[0])
		put(o, "events %s\n", c->events);
	for (unsigned i = 0; i < c->nmetrics; i++) {
		const struct user_metric *m = &c->metrics[i];
		put(o, "metric %s = %s / %s", m->name, m->a, m->b);
		if (m->mul == 1)
			put(o, "\n");
		else
			put(o, " * %.0f\n", m->mul);
	}
	for (unsigned i = 0; i < c->ncolumns && i < CONFIG_PANES_MAX; i++) {
		const struct config_columns *k = &c->columns[i];
		if (!terminated(k->pane, sizeof(k->pane)) || !terminated(k->list, sizeof(k->list)))
			return -EINVAL;
		put(o, "columns %s %s\n", k->pane, k->list);
	}
	return o->overflow ? -EINVAL : 0;
}

static bool config_equal(const struct config *x, const struct config *y)
{
	if (x->interval != y->interval || strcmp(x->sort, y->sort) || x->reverse != y->reverse ||
	    strcmp(x->pane, y->pane) || x->threads != y->threads || x->user_only != y->user_only ||
	    strcmp(x->events, y->events) || x->nmetrics != y->nmetrics ||
	    x->ncolumns != y->ncolumns)
		return false;
	for (unsigned i = 0; i < x->ncolumns && i < CONFIG_PANES_MAX; i++)
		if (strcmp(x->columns[i].pane, y->columns[i].pane) ||
		    strcmp(x->columns[i].list, y->columns[i].list))
			return false;
	for (unsigned i = 0; i < x->nmetrics; i++) {
		const struct user_metric *a = &x->metrics[i], *b = &y->metrics[i];
		if (strcmp(a->name, b->name) || strcmp(a->a, b->a) || strcmp(a->b, b->b) ||
		    a->mul != b->mul)
			return false;
	}
	return true;
}

/* mkdir -p of the directory part of path (everything before the last '/'). */
static int make_parents(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		return 0;
	size_t n = (size_t)(slash - path);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	for (char *s = dir + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char ch = *s;
		*s = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (ch == '\0')
			break;
		*s = ch;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Make path's directory durable after a rename; best effort, the file is in place. */
static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int write_atomic(const char *path, const char *buf, size_t len)
{
	char tmp[PATH_MAX];
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	int ret = make_parents(path);
	if (ret)
		return ret;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, buf, len);
	if (ret == 0 && fchmod(fd, 0644) < 0)
		ret = -errno;
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, path) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	sync_dir(path);
	return 0;
}

int config_save(const char *path, const struct config *c)
{
	struct out *o = malloc(sizeof(*o));
	struct parse *p = malloc(sizeof(*p));
	int ret = -ENOMEM;

	if (!o || !p)
		goto out;
	ret = -ENOENT; /* as open("") says */
	if (!path[0])
		goto out;
	/* Write only what reads back as c: anything the format cannot hold is refused. */
	ret = format(c, o);
	if (ret == 0 && (parse_text(p, o->buf, o->len) || !config_equal(&p->c, c)))
		ret = -EINVAL;
	if (ret)
		goto out;
	/* Through a symbolic link (dotfile managers) to its target, keeping the link. */
	char real[PATH_MAX];
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, real))
		path = real;
	ret = write_atomic(path, o->buf, o->len);
out:
	free(o);
	free(p);
	return ret;
}

const char *config_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	/* The XDG base directory spec: a relative XDG_CONFIG_HOME is to be ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/pmutop/pmutoprc", xdg);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.config/pmutop/pmutoprc", home);
	else
		return NULL;
	if (n < 0 || (size_t)n >= len)
		return NULL;
	return buf;
}

const char *config_columns(const struct config *c, const char *pane)
{
	for (unsigned i = 0; pane && i < c->ncolumns && i < CONFIG_PANES_MAX; i++)
		if (strcasecmp(c->columns[i].pane, pane) == 0)
			return c->columns[i].list;
	return NULL;
}

int config_set_columns(struct config *c, const char *pane, const char *list)
{
	unsigned i = 0;
	while (i < c->ncolumns && strcasecmp(c->columns[i].pane, pane) != 0)
		i++;
	if (!list || !*list) {
		if (i < c->ncolumns)
			c->columns[i] = c->columns[--c->ncolumns];
		return 0;
	}
	if (i == c->ncolumns && c->ncolumns == CONFIG_PANES_MAX)
		return -ENOSPC;
	if (i == c->ncolumns)
		c->ncolumns++;
	snprintf(c->columns[i].pane, sizeof(c->columns[i].pane), "%s", pane);
	snprintf(c->columns[i].list, sizeof(c->columns[i].list), "%s", list);
	return 0;
}
