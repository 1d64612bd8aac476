/* Exposition text. Each family's samples are written once into the 0.0.4 text and copied
 * behind the OpenMetrics header: the two formats differ only in their HELP/TYPE lines
 * (OpenMetrics names a counter's family without _total and has an info type) and in the
 * final "# EOF". */
#include "promtext.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "value.h"

struct ctx {
	struct pbuf *t, *om;
	size_t mark; /* where the current family's samples start in t */
	int err;
};

void pbuf_free(struct pbuf *b)
{
	if (!b)
		return;
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

static int reserve(struct pbuf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static int put(struct pbuf *b, const char *s, size_t n)
{
	if (reserve(b, n))
		return -ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

static int puts_(struct pbuf *b, const char *s)
{
	return put(b, s, strlen(s));
}

static int put_u64(struct pbuf *b, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put(b, tmp + i, sizeof(tmp) - (size_t)i);
}

/* Nanoseconds as seconds, exactly: "1.5", "0.000000001", "3". */
static int put_ns(struct pbuf *b, uint64_t ns)
{
	if (put_u64(b, ns / 1000000000u))
		return -ENOMEM;
	uint64_t frac = ns % 1000000000u;
	if (!frac)
		return 0;
	char tmp[10] = ".";
	int n = 9;
	while (frac % 10 == 0) {
		frac /= 10;
		n--;
	}
	for (int i = n; i > 0; i--, frac /= 10)
		tmp[i] = (char)('0' + frac % 10);
	return put(b, tmp, (size_t)n + 1);
}

static int put_double(struct pbuf *b, double v)
{
	if (v >= 0 && v < 9007199254740992.0 && v == floor(v))
		return put_u64(b, (uint64_t)v);
	char tmp[40];
	int n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	return put(b, tmp, (size_t)n);
}

int promtext_label(struct pbuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	int err = 0;
	while (*s && !err) {
		const unsigned char *run = s;
		while (*s >= 0x20 && *s < 0x80 && *s != '\\' && *s != '"')
			s++;
		if (s != run)
			err = put(b, (const char *)run, (size_t)(s - run));
		if (!*s || err)
			break;
		if (*s == '\\' || *s == '"') {
			char esc[2] = {'\\', (char)*s};
			err = put(b, esc, 2);
			s++;
		} else if (*s == '\n') {
			err = put(b, "\\n", 2);
			s++;
		} else if (*s < 0x80) {
			err = put(b, (const char *)s, 1); /* other controls are valid text */
			s++;
		} else {
			/* NUL-terminated: a NUL is no continuation byte, so 4 reads no further. */
			size_t n = text_utf8_seq(s, 4, NULL);
			err = n ? put(b, (const char *)s, n) : put(b, "\xef\xbf\xbd", 3);
			s += n ? n : 1;
		}
	}
	return err;
}

int promtext_wants_openmetrics(const char *accept)
{
	const char *p = accept ? strstr(accept, "application/openmetrics-text") : NULL;
	if (!p)
		return 0;
	const char *end = strchr(p, ',');
	const char *q = strstr(p, "q=");
	if (q && (!end || q < end)) {
		char *e;
		double v = strtod(q + 2, &e);
		if (e != q + 2 && v <= 0)
			return 0;
	}
	return 1;
}

enum ftype { F_COUNTER, F_GAUGE, F_INFO };

/* HELP and TYPE for both formats; fam is the OpenMetrics family name. */
static void family(struct ctx *c, const char *fam, enum ftype ty, const char *help)
{
	static const char *const suffix[] = {"_total", "", "_info"};
	static const char *const om_type[] = {"counter", "gauge", "info"};
	static const char *const t_type[] = {"counter", "gauge", "gauge"};
	struct pbuf *t = c->t, *om = c->om;
	int e = 0;
	e |= puts_(t, "# HELP ") | puts_(t, fam) | puts_(t, suffix[ty]) | put(t, " ", 1) |
	     puts_(t, help) | puts_(t, "\n# TYPE ") | puts_(t, fam) | puts_(t, suffix[ty]) |
	     put(t, " ", 1) | puts_(t, t_type[ty]) | put(t, "\n", 1);
	e |= puts_(om, "# HELP ") | puts_(om, fam) | put(om, " ", 1) | puts_(om, help) |
	     puts_(om, "\n# TYPE ") | puts_(om, fam) | put(om, " ", 1) | puts_(om, om_type[ty]) |
	     put(om, "\n", 1);
	if (e)
		c->err = -ENOMEM;
	c->mark = t->len;
}

/* The samples written to the text since family() go to OpenMetrics too. */
static void family_end(struct ctx *c)
{
	size_t n = c->t->len - c->mark;
	if (reserve(c->om, n)) {
		c->err = -ENOMEM;
		return;
	}
	memcpy(c->om->p + c->om->len, c->t->p + c->mark, n);
	c->om->len += n;
}

static void gauge(struct ctx *c, const char *name, const char *help, double v)
{
	family(c, name, F_GAUGE, help);
	if (puts_(c->t, name) | put(c->t, " ", 1) | put_double(c->t, v) | put(c->t, "\n", 1))
		c->err = -ENOMEM;
	family_end(c);
}

static void header_metrics(struct ctx *c, const struct promacc *a, const struct promtext_info *in)
{
	struct pbuf *t = c->t;
	family(c, "pmutop_build", F_INFO, "pmutop version.");
	if (puts_(t, "pmutop_build_info{version=\"") | promtext_label(t, in->version) |
	    puts_(t, "\"} 1\n"))
		c->err = -ENOMEM;
	family_end(c);
	gauge(c, "pmutop_scrape_duration_seconds",
	      "Seconds the last exposition took to build (at a tick, not at the scrape).",
	      in->build_seconds);
	gauge(c, "pmutop_targets", "Processes, cgroups and CPUs whose totals are kept.",
	      in->targets);
	gauge(c, "pmutop_tasks", "Tasks (threads) being counted.", in->tasks);
	gauge(c, "pmutop_open_fds", "Descriptors the counter engine holds.", in->open_fds);
	unsigned nev = promacc_nevents(a), nbad = 0;
	for (unsigned i = 0; i < nev; i++)
		nbad += promacc_event_why(a, i) != WHY_NONE;
	if (!nbad)
		return;
	family(c, "pmutop_event_unavailable", F_INFO,
	       "An event that cannot be counted here (n/a): it has no samples.");
	for (unsigned i = 0; i < nev; i++) {
		unsigned why = promacc_event_why(a, i);
		if (why == WHY_NONE)
			continue;
		if (puts_(t, "pmutop_event_unavailable_info{event=\"") |
		    promtext_label(t, promacc_event_name(a, i)) | puts_(t, "\",reason=\"") |
		    promtext_label(t, val_why_str((enum val_why)why)) | puts_(t, "\"} 1\n"))
			c->err = -ENOMEM;
	}
	family_end(c);
}

/* A target's labels up to the event's value: pid="1",comm="x",event=" */
static int labels(struct pbuf *b, const struct promacc_series *s)
{
	b->len = 0;
	int e = 0;
	if (s->kind == PROMACC_PROC) {
		e |= puts_(b, "pid=\"") | put_u64(b, (uint64_t)s->pid) | puts_(b, "\",comm=\"") |
		     promtext_label(b, s->comm) | put(b, "\",", 2);
		if (s->cgroup)
			e |= puts_(b, "cgroup=\"") | promtext_label(b, s->cgroup) |
			     put(b, "\",", 2);
	} else if (s->kind == PROMACC_CGROUP) {
		e |= puts_(b, "cgroup=\"") | promtext_label(b, s->cgroup) | put(b, "\",", 2);
	} else {
		e |= puts_(b, "cpu=\"") | put_u64(b, (uint64_t)s->cpu) | put(b, "\",", 2);
	}
	return e | puts_(b, "event=\"");
}

static const char *const kind_name[] = {"process", "cgroup", "cpu"};

/* The three counter families of one kind of target. */
static void targets(struct ctx *c, const struct promacc *a, enum promacc_kind kind,
		    struct pbuf *lab)
{
	static const char *const what[] = {"", "_enabled_seconds", "_running_seconds"};
	static const char first_help[] = "Events counted since pmutop began counting the target "
					 "(scaled per interval when multiplexed).";
	static const char *const help[] = {
		first_help,
		"Seconds the event's group was enabled (a process: summed over its threads).",
		"Seconds the event's group was on the PMU (a process: summed over its threads)."};
	unsigned n = promacc_count(a), nev = promacc_nevents(a), first = n, last = n;
	struct promacc_series s;
	for (unsigned i = 0; i < n; i++) {
		promacc_get(a, i, &s);
		if (s.kind == kind && first == n)
			first = i;
		if (s.kind == kind)
			last = i + 1;
	}
	if (first == n && kind != PROMACC_PROC)
		return;
	for (unsigned w = 0; w < 3; w++) {
		char fam[64];
		snprintf(fam, sizeof(fam), "pmutop_%s_events%s", kind_name[kind], what[w]);
		family(c, fam, F_COUNTER, help[w]);
		for (unsigned i = first; i < last; i++) {
			promacc_get(a, i, &s);
			if (labels(lab, &s))
				c->err = -ENOMEM;
			for (unsigned k = 0; k < nev; k++) {
				if (!s.counted[k])
					continue;
				struct pbuf *t = c->t;
				int e = puts_(t, fam) | puts_(t, "_total{") |
					put(t, lab->p, lab->len) |
					promtext_label(t, promacc_event_name(a, k)) |
					put(t, "\"} ", 3);
				e |= w == 0 ? put_double(t, s.val[k])
					    : put_ns(t, w == 1 ? s.ena[k] : s.run[k]);
				if (e | put(t, "\n", 1))
					c->err = -ENOMEM;
			}
		}
		family_end(c);
	}
}

/* A gauge family per metric for one kind of target: pmutop_process_metric_ipc{pid=...}. A
 * target whose last value was a gap has no sample. */
static void metrics(struct ctx *c, const struct promacc *a, enum promacc_kind kind,
		    struct pbuf *lab)
{
	unsigned n = promacc_count(a);
	struct promacc_series s;
	for (unsigned k = 0; k < promacc_nmetrics(a); k++) {
		char fam[160];
		bool any = false;
		snprintf(fam, sizeof(fam), "pmutop_%s_metric_%s", kind_name[kind],
			 promacc_metric_name(a, k));
		for (unsigned i = 0; i < n; i++) {
			promacc_get(a, i, &s);
			if (s.kind != kind || !s.mhas[k])
				continue;
			if (!any)
				family(c, fam, F_GAUGE, promacc_metric_help(a, k));
			any = true;
			if (labels(lab, &s))
				c->err = -ENOMEM;
			/* The target's labels without the event one. */
			size_t len = lab->len - strlen(",event=\"");
			struct pbuf *t = c->t;
			if (puts_(t, fam) | put(t, "{", 1) | put(t, lab->p, len) | put(t, "} ", 2) |
			    put_double(t, s.mval[k]) | put(t, "\n", 1))
				c->err = -ENOMEM;
		}
		if (any)
			family_end(c);
	}
}

int promtext_render(const struct promacc *a, const struct promtext_info *in, struct promtext_out *o)
{
	struct ctx c = {.t = &o->text, .om = &o->om};
	o->text.len = o->om.len = 0;
	header_metrics(&c, a, in);
	targets(&c, a, PROMACC_PROC, &o->scratch);
	targets(&c, a, PROMACC_CGROUP, &o->scratch);
	targets(&c, a, PROMACC_CPU, &o->scratch);
	metrics(&c, a, PROMACC_PROC, &o->scratch);
	metrics(&c, a, PROMACC_CGROUP, &o->scratch);
	metrics(&c, a, PROMACC_CPU, &o->scratch);
	if (puts_(&o->om, "# EOF\n"))
		c.err = -ENOMEM;
	return c.err;
}

void promtext_out_free(struct promtext_out *o)
{
	if (!o)
		return;
	pbuf_free(&o->text);
	pbuf_free(&o->om);
	pbuf_free(&o->scratch);
}
