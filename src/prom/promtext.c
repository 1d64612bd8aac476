/* Exposition text. Each family's samples are written once into the 0.0.4 text and copied
 * behind the OpenMetrics header: the two formats differ only in their HELP/TYPE/UNIT lines
 * (OpenMetrics names a counter's family without _total, has an info type and units) and
 * in the final "# EOF". */
#include "promtext.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	/* The shortest text that reads back as v: 0.007, not 0.0070000000000000001. */
	char tmp[40];
	int n = 0;
	for (int prec = 6; prec <= 17; prec++) {
		n = snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
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

/* q of one Accept-Encoding element [p, end): 1 without a q parameter. */
static double coding_q(const char *p, const char *end)
{
	for (const char *q = p; q + 2 <= end; q++)
		if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=' && q > p &&
		    (q[-1] == ';' || q[-1] == ' ' || q[-1] == '\t'))
			return strtod(q + 2, NULL);
	return 1;
}

int promtext_accepts_gzip(const char *ae)
{
	double gzip = -1, star = -1;
	for (const char *p = ae; p && *p;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		size_t n = strcspn(p, " \t;,");
		if ((n == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (n == 6 && strncasecmp(p, "x-gzip", 6) == 0))
			gzip = coding_q(p + n, end);
		else if (n == 1 && *p == '*')
			star = coding_q(p + n, end);
		p = end;
	}
	return gzip >= 0 ? gzip > 0 : star > 0;
}

enum ftype { F_COUNTER, F_GAUGE, F_INFO };

/* HELP and TYPE for both formats, and UNIT (NULL: none) for OpenMetrics; fam is the
 * OpenMetrics family name, which ends in the unit. */
static void family_u(struct ctx *c, const char *fam, enum ftype ty, const char *unit,
		     const char *help)
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
	if (unit)
		e |= puts_(om, "# UNIT ") | puts_(om, fam) | put(om, " ", 1) | puts_(om, unit) |
		     put(om, "\n", 1);
	if (e)
		c->err = -ENOMEM;
	c->mark = t->len;
}

static void family(struct ctx *c, const char *fam, enum ftype ty, const char *help)
{
	family_u(c, fam, ty, NULL, help);
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

static void gauge(struct ctx *c, const char *name, const char *unit, const char *help, double v)
{
	family_u(c, name, F_GAUGE, unit, help);
	if (puts_(c->t, name) | put(c->t, " ", 1) | put_double(c->t, v) | put(c->t, "\n", 1))
		c->err = -ENOMEM;
	family_end(c);
}

/* event="NAME" and, for a name that repeats in the set, ,group="KEY" */
static int event_labels(struct pbuf *b, const struct promacc *a, unsigned i)
{
	const char *g = promacc_event_group(a, i);
	int e = puts_(b, "event=\"") | promtext_label(b, promacc_event_name(a, i)) |
		put(b, "\"", 1);
	if (g)
		e |= puts_(b, ",group=\"") | promtext_label(b, g) | put(b, "\"", 1);
	return e;
}

/* The event set: every event with its kind, and the ones that cannot be counted here. */
static void event_metrics(struct ctx *c, const struct promacc *a)
{
	struct pbuf *t = c->t;
	unsigned nev = a ? promacc_nevents(a) : 0, nbad = 0;
	if (!nev)
		return;
	family(c, "pmutop_event", F_INFO,
	       "An event of the set pmutop counts: its name as -e takes it, the group that "
	       "tells a repeated name apart, and whether it needs a hardware counter.");
	for (unsigned i = 0; i < nev; i++) {
		nbad += promacc_event_why(a, i) != WHY_NONE;
		if (puts_(t, "pmutop_event_info{") | event_labels(t, a, i) |
		    puts_(t, promacc_event_seconds(a, i) ? ",unit=\"seconds\"} 1\n" : "} 1\n"))
			c->err = -ENOMEM;
	}
	family_end(c);
	if (!nbad)
		return;
	family(c, "pmutop_event_unavailable", F_INFO,
	       "An event that cannot be counted here (n/a): it has no samples.");
	for (unsigned i = 0; i < nev; i++) {
		unsigned why = promacc_event_why(a, i);
		if (why == WHY_NONE)
			continue;
		if (puts_(t, "pmutop_event_unavailable_info{") | event_labels(t, a, i) |
		    puts_(t, ",reason=\"") | promtext_label(t, val_why_str((enum val_why)why)) |
		    puts_(t, "\"} 1\n"))
			c->err = -ENOMEM;
	}
	family_end(c);
}

static void header_metrics(struct ctx *c, const struct promacc *a, const struct promtext_info *in)
{
	struct pbuf *t = c->t;
	family(c, "pmutop_build", F_INFO, "pmutop's version.");
	if (puts_(t, "pmutop_build_info{version=\"") | promtext_label(t, in->version) |
	    puts_(t, "\"} 1\n"))
		c->err = -ENOMEM;
	family_end(c);
	gauge(c, "pmutop_start_time_seconds", "seconds",
	      "When pmutop started, in seconds since the Unix epoch.", in->start_time);
	if (in->backend) {
		family(c, "pmutop_backend", F_INFO,
		       "How pmutop counts tasks: perf (an event per task) or bpf (per CPU).");
		if (puts_(t, "pmutop_backend_info{backend=\"") | promtext_label(t, in->backend) |
		    puts_(t, "\"} 1\n"))
			c->err = -ENOMEM;
		family_end(c);
	}
	event_metrics(c, a);
	if (!in->ticked)
		return;
	gauge(c, "pmutop_exposition_build_seconds", "seconds",
	      "Seconds the previous exposition took to build (at a tick, not at the scrape).",
	      in->build_seconds);
	gauge(c, "pmutop_targets", NULL,
	      "Commands, processes, cgroups and CPUs whose totals are kept.", in->targets);
	gauge(c, "pmutop_tasks", NULL, "Tasks (threads) being counted.", in->tasks);
	gauge(c, "pmutop_open_fds", NULL, "Descriptors the counter engine holds.", in->open_fds);
}

/* A target's labels up to the event's: pid="1",comm="x", */
static int labels(struct pbuf *b, const struct promacc_series *s)
{
	b->len = 0;
	int e = 0;
	if (s->kind == PROMACC_COMM) {
		if (s->cgroup)
			e |= puts_(b, "cgroup=\"") | promtext_label(b, s->cgroup) |
			     put(b, "\",", 2);
		e |= puts_(b, "comm=\"") | promtext_label(b, s->comm) | put(b, "\",", 2);
	} else if (s->kind == PROMACC_PROC) {
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
	return e;
}

static const char *const kind_name[] = {"command", "process", "cgroup", "cpu"};
/* What a target of each kind is, for HELP texts. */
static const char *const kind_help[] = {
	"the processes of one command name (comm) in one cgroup v2, exited ones included",
	"a process (pid), summed over its threads",
	"a cgroup v2: its processes and its descendants' (exited ones included)", "a CPU"};

enum fam { FAM_EVENTS, FAM_CLOCK, FAM_ENABLED, FAM_RUNNING };

/* Which events a family holds: clocks in seconds apart from the other counts. */
static bool family_has(const struct promacc *a, enum fam f, unsigned k)
{
	if (f == FAM_EVENTS)
		return !promacc_event_seconds(a, k);
	return f != FAM_CLOCK || promacc_event_seconds(a, k);
}

/* The four counter families of one kind of target (none without an event of theirs). */
static void targets(struct ctx *c, const struct promacc *a, enum promacc_kind kind,
		    struct pbuf *lab)
{
	static const char *const what[] = {"_events", "_clock_seconds", "_events_enabled_seconds",
					   "_events_running_seconds"};
	static const char *const help[] = {
		"Events counted since pmutop began counting it (scaled per interval when "
		"multiplexed), per event; for",
		"Seconds of task-clock or cpu-clock (event) counted since pmutop began counting "
		"it; for",
		"Seconds the event's group was enabled (summed over threads); for",
		"Seconds the event's group was on the PMU (summed over threads); for"};
	unsigned n = promacc_count(a), nev = promacc_nevents(a), first = n, last = n;
	struct promacc_series s;
	for (unsigned i = 0; i < n; i++) {
		promacc_get(a, i, &s);
		if (s.kind == kind && first == n)
			first = i;
		if (s.kind == kind)
			last = i + 1;
	}
	if (first == n)
		return;
	for (enum fam w = FAM_EVENTS; w <= FAM_RUNNING; w++) {
		unsigned have = 0;
		for (unsigned k = 0; k < nev; k++)
			have += family_has(a, w, k);
		if (!have)
			continue;
		char fam[64], hl[256];
		snprintf(fam, sizeof(fam), "pmutop_%s%s", kind_name[kind], what[w]);
		snprintf(hl, sizeof(hl), "%s %s.", help[w], kind_help[kind]);
		family_u(c, fam, F_COUNTER, w == FAM_EVENTS ? NULL : "seconds", hl);
		for (unsigned i = first; i < last; i++) {
			promacc_get(a, i, &s);
			if (labels(lab, &s))
				c->err = -ENOMEM;
			for (unsigned k = 0; k < nev; k++) {
				if (!s.counted[k] || !family_has(a, w, k))
					continue;
				struct pbuf *t = c->t;
				int e = puts_(t, fam) | puts_(t, "_total{") |
					put(t, lab->p, lab->len) | event_labels(t, a, k) |
					put(t, "} ", 2);
				if (w == FAM_EVENTS)
					e |= put_double(t, s.val[k]);
				else if (w == FAM_CLOCK)
					e |= put_double(t, s.val[k] / 1e9);
				else
					e |= put_ns(t, w == FAM_ENABLED ? s.ena[k] : s.run[k]);
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
			/* The target's labels without their trailing comma. */
			size_t len = lab->len - 1;
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
	for (enum promacc_kind k = PROMACC_COMM; a && k <= PROMACC_CPU; k++)
		targets(&c, a, k, &o->scratch);
	for (enum promacc_kind k = PROMACC_PROC; a && k <= PROMACC_CPU; k++)
		metrics(&c, a, k, &o->scratch);
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
