/* perf's pmu-events JSON files (tools/perf/pmu-events/arch/ARCH/MODEL/NAME.json) read
 * into a metric set: an array of flat objects whose values we use are strings. */
#include "metricjson.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_NEST 32
#define MAX_FILE (16u << 20)

struct json {
	const char *s;
	size_t n, i;
	char *err;
	size_t errlen;
};

static int jfail(struct json *j, const char *what)
{
	snprintf(j->err, j->errlen, "JSON at byte %zu: %s", j->i, what);
	return -EINVAL;
}

static void ws(struct json *j)
{
	while (j->i < j->n && strchr(" \t\r\n", j->s[j->i]) && j->s[j->i])
		j->i++;
}

static bool eat(struct json *j, char c)
{
	ws(j);
	if (j->i < j->n && j->s[j->i] == c) {
		j->i++;
		return true;
	}
	return false;
}

static void put_utf8(char *out, size_t *o, uint32_t cp)
{
	if (cp < 0x80) {
		out[(*o)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*o)++] = (char)(0xc0 | (cp >> 6));
		out[(*o)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*o)++] = (char)(0xe0 | (cp >> 12));
		out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*o)++] = (char)(0x80 | (cp & 0x3f));
	}
}

/* A string, decoded into a new buffer (*out, NULL to skip it). */
static int string(struct json *j, char **out)
{
	if (out)
		*out = NULL;
	if (!eat(j, '"'))
		return jfail(j, "expected a string");
	char *buf = out ? malloc(j->n - j->i + 1) : NULL;
	if (out && !buf)
		return -ENOMEM;
	size_t o = 0;
	while (j->i < j->n && j->s[j->i] != '"') {
		unsigned char c = (unsigned char)j->s[j->i++];
		if (c < 0x20) {
			free(buf);
			return jfail(j, "control character in a string");
		}
		if (c == '\\') {
			if (j->i >= j->n)
				break;
			char e = j->s[j->i++];
			const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
			const char *p = e ? strchr(from, e) : NULL;
			if (p) {
				c = (unsigned char)to[p - from];
			} else if (e == 'u' && j->i + 4 <= j->n) {
				char hex[5] = {0};
				memcpy(hex, j->s + j->i, 4);
				char *end;
				unsigned long cp = strtoul(hex, &end, 16);
				if (end != hex + 4 || cp == 0) {
					free(buf);
					return jfail(j, "bad \\u escape");
				}
				j->i += 4;
				if (buf)
					put_utf8(buf, &o, (uint32_t)cp);
				continue;
			} else {
				free(buf);
				return jfail(j, "bad escape in a string");
			}
		}
		if (buf)
			buf[o++] = (char)c;
	}
	if (j->i >= j->n) {
		free(buf);
		return jfail(j, "unterminated string");
	}
	j->i++;
	if (buf) {
		buf[o] = 0;
		*out = buf;
	}
	return 0;
}

static int skip_value(struct json *j, unsigned depth);

static int skip_container(struct json *j, char close, unsigned depth)
{
	if (eat(j, close))
		return 0;
	for (;;) {
		int r;
		if (close == '}') {
			if ((r = string(j, NULL)) < 0)
				return r;
			if (!eat(j, ':'))
				return jfail(j, "expected ':'");
		}
		if ((r = skip_value(j, depth + 1)) < 0)
			return r;
		if (eat(j, close))
			return 0;
		if (!eat(j, ','))
			return jfail(j, "expected ','");
	}
}

static int skip_value(struct json *j, unsigned depth)
{
	ws(j);
	if (depth > MAX_NEST)
		return jfail(j, "nested too deep");
	if (j->i >= j->n)
		return jfail(j, "expected a value");
	char c = j->s[j->i];
	if (c == '"')
		return string(j, NULL);
	if (c == '{' || c == '[') {
		j->i++;
		return skip_container(j, c == '{' ? '}' : ']', depth);
	}
	size_t start = j->i;
	while (j->i < j->n && j->s[j->i] && strchr("+-.0123456789eEtruefalsn", j->s[j->i]))
		j->i++;
	return j->i > start ? 0 : jfail(j, "expected a value");
}

struct entry {
	char *name, *expr, *groups, *unit, *desc, *std, *pmu, *levels;
};

static void entry_free(struct entry *e)
{
	free(e->name), free(e->expr), free(e->groups), free(e->unit), free(e->desc);
	free(e->std), free(e->pmu), free(e->levels);
	memset(e, 0, sizeof(*e));
}

static char **field(struct entry *e, const char *key)
{
	static const char *const keys[] = {"MetricName", "MetricExpr",	     "MetricGroup",
					   "ScaleUnit",	 "BriefDescription", "ArchStdEvent",
					   "Unit",	 "ResolutionLevels"};
	char **slots[] = {&e->name, &e->expr, &e->groups, &e->unit,
			  &e->desc, &e->std,  &e->pmu,	  &e->levels};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!strcmp(key, keys[k]))
			return slots[k];
	return NULL;
}

static int object(struct json *j, struct entry *e)
{
	if (!eat(j, '{'))
		return jfail(j, "expected an object");
	if (eat(j, '}'))
		return 0;
	for (;;) {
		char *key;
		int r = string(j, &key);
		if (r < 0)
			return r;
		if (!eat(j, ':')) {
			free(key);
			return jfail(j, "expected ':'");
		}
		char **slot = field(e, key);
		free(key);
		ws(j);
		if (slot && j->i < j->n && j->s[j->i] == '"') {
			free(*slot);
			r = string(j, slot);
		} else {
			r = skip_value(j, 1);
		}
		if (r < 0)
			return r;
		if (eat(j, '}'))
			return 0;
		if (!eat(j, ','))
			return jfail(j, "expected ',' or '}'");
	}
}

/* intel/perfmon's ResolutionLevels ("THREAD, CORE, SOCKET, SYSTEM"): a metric whose
 * list leaves out THREAD is valid only per core. Without the field: per thread. */
static enum metric_res resolution(const char *levels)
{
	if (!levels)
		return METRIC_THREAD;
	const char *p = levels;
	while (*p) {
		p += strspn(p, " ,");
		size_t n = strcspn(p, " ,");
		if (n == 6 && !strncasecmp(p, "THREAD", 6))
			return METRIC_THREAD;
		p += n;
	}
	return METRIC_CORE;
}

/* An entry as a metric: perf's own rules for names (ArchStdEvent names the standard
 * metric it refines) and hybrid units. Returns 1 when added, 0 when not a metric. */
static int add_entry(struct metric_set *s, struct entry *e, char *err, size_t errlen)
{
	if (!e->expr)
		return 0;
	const char *name = e->name;
	int at = -1;
	if (!name && e->std) {
		at = metric_set_find(s, e->std);
		if (at < 0)
			return 0; /* refines a standard metric this set does not have */
		name = metric_set_def(s, (unsigned)at)->name;
	}
	if (!name)
		return 0;
	struct metric_def d = {.name = name,
			       .groups = e->groups,
			       .expr = e->expr,
			       .unit = e->unit,
			       .pmu = e->pmu,
			       .res = resolution(e->levels),
			       .desc = e->desc};
	if (at >= 0) {
		/* metric_set_add copies these before it frees the metric it replaces. */
		const struct metric_def *old = metric_set_def(s, (unsigned)at);
		d.groups = e->groups ? e->groups : old->groups;
		d.unit = e->unit ? e->unit : old->unit;
		d.desc = e->desc ? e->desc : old->desc;
		d.pmu = old->pmu;
		if (!e->levels)
			d.res = old->res;
	}
	int r = metric_set_add(s, &d, err, errlen);
	return r < 0 ? r : 1;
}

int metric_set_load_json_text(struct metric_set *s, const char *text, size_t len, char *err,
			      size_t errlen)
{
	struct json j = {.s = text, .n = len, .err = err, .errlen = errlen};
	int added = 0, r;
	unsigned nth = 0;
	if (!eat(&j, '['))
		return jfail(&j, "expected '[' (an array of metrics)");
	if (eat(&j, ']'))
		goto end;
	for (;;) {
		struct entry e = {0};
		nth++;
		r = object(&j, &e);
		if (r == 0) {
			char why[200];
			r = add_entry(s, &e, why, sizeof(why));
			if (r < 0 && r != -ENOMEM)
				snprintf(err, errlen, "entry %u: %s", nth, why);
		}
		entry_free(&e);
		if (r < 0)
			return r;
		added += r;
		if (eat(&j, ']'))
			break;
		if (!eat(&j, ','))
			return jfail(&j, "expected ',' or ']'");
	}
end:
	ws(&j);
	if (j.i != j.n)
		return jfail(&j, "text after the array");
	return added;
}

int metric_set_load_json(struct metric_set *s, const char *path, char *err, size_t errlen)
{
	/* Opened without waiting for a writer (a FIFO nobody writes to is empty text), then
	 * read as usual (a pipe, <(...), too). */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = 0;
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) || fcntl(fd, F_SETFL, 0))
		e = errno;
	else if (S_ISDIR(sb.st_mode))
		e = EISDIR;
	char *buf = e ? NULL : malloc(MAX_FILE + 1);
	size_t n = 0;
	ssize_t got = 0;
	while (buf && n <= MAX_FILE && (got = read(fd, buf + n, MAX_FILE + 1 - n)) != 0)
		if (got > 0)
			n += (size_t)got;
		else if (errno != EINTR)
			break;
	if (buf && got < 0)
		e = EIO;
	if (fd >= 0)
		close(fd);
	if (!e && !buf)
		return -ENOMEM;
	if (e || n > MAX_FILE) {
		free(buf);
		snprintf(err, errlen, "%s: %s", path,
			 e == EISDIR ? "is a directory, not a file"
			 : e == EIO  ? "read error"
			 : e	     ? strerror(e)
				     : "larger than 16 MiB");
		return e ? -e : -EFBIG;
	}
	char why[220];
	int r = metric_set_load_json_text(s, buf, n, why, sizeof(why));
	free(buf);
	if (r < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	return r;
}
