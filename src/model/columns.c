/* The column table, the built-in panes, and the getters behind them (the formatters are
 * in colfmt.c). */
#include "columns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cgroup_name.h"
#include "numfmt.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* How a column reads a row (value_*) and shows it (column_fmt_* for numbers, text_* for
 * text). Each descriptor names its own: nothing per cell chooses by kind. */
static struct val value_none(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_cpu_pct(const struct column *c, const struct model *m,
				const struct mrow *r);
static struct val value_count(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_rate(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_ratio(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_ghz(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_run_pct(const struct column *c, const struct model *m,
				const struct mrow *r);
static struct val value_res(const struct column *c, const struct model *m, const struct mrow *r);
static void text_pid(const struct mrow *r, char *buf, size_t len);
static void text_user(const struct mrow *r, char *buf, size_t len);
static void text_threads(const struct mrow *r, char *buf, size_t len);
static void text_command(const struct mrow *r, char *buf, size_t len);
static void text_cgroup(const struct mrow *r, char *buf, size_t len);
static void text_instance(const struct mrow *r, char *buf, size_t len);
static void text_job(const struct mrow *r, char *buf, size_t len);
static void text_state(const struct mrow *r, char *buf, size_t len);
static struct val value_nice(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_time(const struct column *c, const struct model *m, const struct mrow *r);
static struct val value_more(const struct column *c, const struct model *m, const struct mrow *r);

/* The parts of a descriptor, by what the column is: its kind with its getter and
 * inputs, its format with its formatter. In a built-in pane's table the inputs are roles;
 * columns_build_panes turns them into event indices (or a group index for RUN%). */
#define TEXT(k, fn) .kind = k, .fmt = FMT_TEXT, .a = -1, .b = -1, .value = value_none, .text = fn
#define COUNT(ev) .kind = COL_COUNT, .value = value_count, .num = ev, .den = -1, .mul = 1
#define RATE(ev) .kind = COL_RATE, .value = value_rate, .num = ev, .den = -1, .mul = 1
#define GHZ(cyc) .kind = COL_GHZ, .value = value_ghz, .num = cyc, .den = -1, .mul = 1
#define RATIO(n, d, mu) .kind = COL_RATIO, .value = value_ratio, .num = n, .den = d, .mul = mu
#define CPU_PCT(tc) .kind = COL_CPU_PCT, .value = value_cpu_pct, .num = tc, .den = -1, .mul = 100
#define RUN_PCT                                                                                    \
	.kind = COL_RUN_PCT, .value = value_run_pct, .run_of = -1, .run_of_event = -1, .mul = 100
#define F_COUNT .fmt = FMT_COUNT, .format = column_fmt_count
#define F_TIME .fmt = FMT_TIME, .format = column_fmt_time
#define F_PCT .fmt = FMT_PCT, .format = column_fmt_pct
#define F_RATIO_PCT .fmt = FMT_PCT, .format = column_fmt_ratio_pct
#define F_RATIO .fmt = FMT_RATIO, .format = column_fmt_ratio
#define F_GHZ .fmt = FMT_GHZ, .format = column_fmt_ghz
#define F_MEM .fmt = FMT_MEM, .format = column_fmt_mem
#define F_INT .fmt = FMT_COUNT, .format = column_fmt_int

/* A numeric column: first sorted descending. */
#define NUM(nm, ti, w, what, f, hl)                                                                \
	{                                                                                          \
		.name = nm, .title = ti, .width = w, .desc_first = true, what, f, .help = hl       \
	}

static const struct column col_pid = {.name = "PID",
				      .title = "PID",
				      .width = 7,
				      TEXT(COL_PID, text_pid),
				      .help = "process id (thread id on thread rows)"};
static const struct column col_user = {.name = "USER",
				       .title = "USER",
				       .width = 8,
				       .left = true,
				       TEXT(COL_USER, text_user),
				       .help = "owner"};
static const struct column col_thr = {.name = "THR",
				      .title = "THR",
				      .width = 4,
				      .desc_first = true,
				      TEXT(COL_THREADS, text_threads),
				      .help = "threads"};
static const struct column col_cmd = {.name = "COMMAND",
				      .title = "COMMAND",
				      .width = 0,
				      .left = true,
				      TEXT(COL_COMMAND, text_command),
				      .help = "command name"};

static const struct column col_instance = {
	.name = "INSTANCE",
	.title = "INSTANCE",
	.width = 16,
	.left = true,
	TEXT(COL_INSTANCE, text_instance),
	.help = "the host: its Prometheus target (--prometheus)"};
static const struct column col_job = {.name = "JOB",
				      .title = "JOB",
				      .width = 8,
				      .left = true,
				      TEXT(COL_JOB, text_job),
				      .help = "the target's scrape job (--prometheus)"};

static const struct column col_cgroup = {
	.name = "CGROUP",
	.title = "CGROUP",
	.width = 16,
	.left = true,
	.hidden = true,
	TEXT(COL_CGROUP, text_cgroup),
	.help = "cgroup: systemd unit, container or pod (hidden until chosen)"};

static const struct column col_state = {
	.name = "S",
	.title = "S",
	.width = 1,
	.hidden = true,
	TEXT(COL_STATE, text_state),
	.help = "state: R running, S sleeping, D disk, T stopped, Z zombie "
		"(as it last ran; hidden until chosen)"};
static const struct column col_res = {
	.name = "RES",
	.title = "  RES",
	.width = 6,
	.desc_first = true,
	.hidden = true,
	.kind = COL_RES,
	.a = -1,
	.b = -1,
	.value = value_res,
	F_MEM,
	.help = "resident memory when it last ran (hidden until chosen)"};

static const struct column col_nice = {
	.name = "NI",
	.title = " NI",
	.width = 3,
	.hidden = true,
	.kind = COL_NICE,
	.a = -1,
	.b = -1,
	.value = value_nice,
	.fmt = FMT_COUNT,
	.format = column_fmt_int,
	.help = "nice value, -20 to 19, as it last ran (F7 and F8 change it; hidden until "
		"chosen)"};
static const struct column col_time = {
	.name = "TIME+",
	.title = "    TIME+",
	.width = 9,
	.desc_first = true,
	.hidden = true,
	.kind = COL_TIME,
	.a = -1,
	.b = -1,
	.value = value_time,
	.fmt = FMT_CPUTIME,
	.format = column_fmt_cputime,
	.help = "CPU time the process used since it started, user and system, as top's TIME+ "
		"(minutes:seconds.hundredths; hidden until chosen)"};

/* htop's PRI, VIRT, SHR, MEM% and I/O: what /proc says of a process, hidden until
 * chosen; value_more reads each by its kind. */
#define MORE(nm, ti, w, k, f, hl)                                                                  \
	{                                                                                          \
		.name = nm, .title = ti, .width = w, .desc_first = true, .hidden = true,           \
		.kind = k, .a = -1, .b = -1, .value = value_more, f, .help = hl                    \
	}
static const struct column more_cols[] = {
	MORE("PRI", "PRI", 3, COL_PRIO, F_INT,
	     "kernel priority: 20 + NI for normal tasks, negative for real-time ones "
	     "(hidden until chosen)"),
	MORE("VIRT", " VIRT", 6, COL_VIRT, F_MEM, "virtual memory (hidden until chosen)"),
	MORE("SHR", "  SHR", 6, COL_SHR, F_MEM,
	     "resident shared memory: file-backed and shmem (hidden until chosen)"),
	MORE("MEM%", "MEM%", 5, COL_MEM_PCT, F_PCT,
	     "resident memory per the machine's memory, % (hidden until chosen)"),
	MORE("IO_R", " IO_R", 6, COL_IO_RD, F_MEM,
	     "bytes a second read from storage (/proc/PID/io read_bytes, htop's DISK READ); "
	     "n/a where it cannot be read (another user's, without root)"),
	MORE("IO_W", " IO_W", 6, COL_IO_WR, F_MEM,
	     "bytes a second written to storage (write_bytes, htop's DISK WRITE); n/a where "
	     "it cannot be read"),
};

static const struct column col_cpu = NUM("CPU%", " CPU%", 6, CPU_PCT(ROLE_TASK_CLOCK), F_PCT,
					 "CPU time (task-clock) per wall-clock time, %");

struct pane_def {
	const char *name;
	enum ev_role need;   /* the pane exists when this role is present */
	enum ev_role run_of; /* RUN% shows this role's group */
	const struct column *cols;
	unsigned n;
};

static const struct column ipc_cols[] = {
	NUM("GHZ", "  GHz", 5, GHZ(ROLE_CYCLES), F_GHZ,
	    "cycles per running nanosecond: effective clock"),
	NUM("CYCLES", " CYCLES", 7, COUNT(ROLE_CYCLES), F_COUNT, "CPU cycles this interval"),
	NUM("INSNS", "  INSNS", 7, COUNT(ROLE_INSNS), F_COUNT,
	    "instructions retired this interval"),
	NUM("IPC", "  IPC", 5, RATIO(ROLE_INSNS, ROLE_CYCLES, 1), F_RATIO,
	    "instructions per cycle (same group)"),
	NUM("CYC/S", "  CYC/s", 7, RATE(ROLE_CYCLES), F_COUNT, "cycles per second"),
	NUM("INS/S", "  INS/s", 7, RATE(ROLE_INSNS), F_COUNT, "instructions per second"),
};

static const struct column cache_cols[] = {
	NUM("CREFS", "  CREFS", 7, COUNT(ROLE_CACHE_REFS), F_COUNT,
	    "cache references (last-level on most CPUs)"),
	NUM("CMISS", "  CMISS", 7, COUNT(ROLE_CACHE_MISSES), F_COUNT, "cache misses"),
	NUM("CMISS%", "CMISS%", 6, RATIO(ROLE_CACHE_MISSES, ROLE_CACHE_REFS, 100), F_RATIO_PCT,
	    "cache misses per reference, %"),
	NUM("CMPKI", " CMPKI", 6, RATIO(ROLE_CACHE_MISSES, ROLE_CACHE_INSNS, 1000), F_RATIO,
	    "cache misses per 1000 instructions"),
};

static const struct column branch_cols[] = {
	NUM("BRANCH", " BRANCH", 7, COUNT(ROLE_BRANCHES), F_COUNT, "branch instructions"),
	NUM("BMISS", "  BMISS", 7, COUNT(ROLE_BRANCH_MISSES), F_COUNT, "mispredicted branches"),
	NUM("BMISS%", "BMISS%", 6, RATIO(ROLE_BRANCH_MISSES, ROLE_BRANCHES, 100), F_RATIO_PCT,
	    "branch misses per branch, %"),
	NUM("BMPKI", " BMPKI", 6, RATIO(ROLE_BRANCH_MISSES, ROLE_BRANCH_INSNS, 1000), F_RATIO,
	    "branch misses per 1000 instructions"),
};

static const struct column software_cols[] = {
	NUM("CSW", "    CSW", 7, COUNT(ROLE_CS), F_COUNT, "context switches"),
	NUM("MIGR", "   MIGR", 7, COUNT(ROLE_MIGRATIONS), F_COUNT, "CPU migrations"),
	NUM("FAULTS", " FAULTS", 7, COUNT(ROLE_FAULTS), F_COUNT, "page faults"),
	NUM("MAJFLT", " MAJFLT", 7, COUNT(ROLE_MAJ_FAULTS), F_COUNT,
	    "major page faults (needed I/O)"),
};

static const struct pane_def pane_defs[] = {
	{"IPC", ROLE_CYCLES, ROLE_CYCLES, ipc_cols, ARRAY_SIZE(ipc_cols)},
	{"Cache", ROLE_CACHE_REFS, ROLE_CACHE_REFS, cache_cols, ARRAY_SIZE(cache_cols)},
	{"Branch", ROLE_BRANCHES, ROLE_BRANCHES, branch_cols, ARRAY_SIZE(branch_cols)},
	{"Software", ROLE_TASK_CLOCK, ROLE_NONE, software_cols, ARRAY_SIZE(software_cols)},
};

static const struct column col_run =
	NUM("RUN%", " RUN%", 5, RUN_PCT, F_PCT,
	    "share of enabled time the group was on the PMU; <100 means scaled");

static void pane_add(struct pane *p, const struct column *c)
{
	if (p->ncols < ARRAY_SIZE(p->cols))
		p->cols[p->ncols++] = *c;
}

void columns_pane_add(struct pane *p, const struct column *c)
{
	pane_add(p, c);
}

void columns_pane_end(struct pane *p)
{
	pane_add(p, &col_res);
	pane_add(p, &col_state);
	pane_add(p, &col_nice);
	pane_add(p, &col_time);
	for (size_t i = 0; i < ARRAY_SIZE(more_cols); i++)
		pane_add(p, &more_cols[i]);
	pane_add(p, &col_cgroup);
	pane_add(p, &col_cmd);
}

void columns_pane_start(struct pane *p, const char *name, const struct model *m)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	pane_add(p, &col_pid);
	if (m->fleet) {
		pane_add(p, &col_instance);
		pane_add(p, &col_job);
	} else
		pane_add(p, &col_user);
	if (m->threads)
		pane_add(p, &col_thr);
	struct column cpu = col_cpu;
	cpu.num = model_role(m, ROLE_TASK_CLOCK);
	pane_add(p, &cpu);
	p->sort_default = (int)p->ncols - 1;
}

/* In the table num and den name roles (den <= 0: none); here they become event
 * indices. A column whose inputs are not in the set is dropped (a user set without
 * them). */
static bool resolve(const struct model *m, struct column *c)
{
	int num = model_role(m, (enum ev_role)c->num);
	if (num < 0)
		return false;
	c->num = num;
	if (c->den > 0) {
		int den = model_role(m, (enum ev_role)c->den);
		if (den < 0)
			return false;
		c->den = den;
	}
	return true;
}

static void builtin_pane(const struct model *m, const struct pane_def *d, struct pane *p)
{
	columns_pane_start(p, d->name, m);
	for (unsigned i = 0; i < d->n; i++) {
		struct column c = d->cols[i];
		if (resolve(m, &c))
			pane_add(p, &c);
	}
	int runev = d->run_of ? model_role(m, d->run_of) : -1;
	if (runev >= 0) {
		/* The role event's own running share: on hybrid CPUs it is the sum's. */
		struct column r = col_run;
		r.run_of = runev;
		r.run_of_event = 1;
		pane_add(p, &r);
	}
	columns_pane_end(p);
}

static bool group_is_software(const struct model *m, unsigned g)
{
	for (unsigned k = 0; k < m->groups[g].n; k++)
		if (m->events[m->groups[g].first + k].hardware)
			return false;
	return true;
}

/* RUN% titles of the Events pane, by the user's group number: string literals, so that
 * a pane can be copied (its columns point at nothing inside it). */
static const char *const run_titles[] = {
	"RUN%1",  "RUN%2",  "RUN%3",  "RUN%4",	"RUN%5",  "RUN%6",  "RUN%7",  "RUN%8",
	"RUN%9",  "RUN%10", "RUN%11", "RUN%12", "RUN%13", "RUN%14", "RUN%15", "RUN%16",
	"RUN%17", "RUN%18", "RUN%19", "RUN%20", "RUN%21", "RUN%22", "RUN%23", "RUN%24",
	"RUN%25", "RUN%26", "RUN%27", "RUN%28", "RUN%29", "RUN%30", "RUN%31", "RUN%32",
};

#define EV_WIDTH_MIN 7	/* "12.3K", "14.7ms" and a space before */
#define EV_WIDTH_MAX 20 /* longer names are cut (the help lists them whole) */

/* Times in nanoseconds (task-clock, cpu-clock) show as time, not as a bare count. */
static bool is_time_event(const struct mevent *e)
{
	return e->role == ROLE_TASK_CLOCK || strncmp(e->name, "task-clock", 10) == 0 ||
	       strncmp(e->name, "cpu-clock", 9) == 0;
}

/* A count column of the Events pane, as wide as its title (and a space) allows. */
static struct column event_column(const struct model *m, unsigned e, const char *help)
{
	const struct mevent *ev = &m->events[e];
	bool t = is_time_event(ev);
	struct column c = NUM(ev->key, ev->name, EV_WIDTH_MIN, COUNT((int)e), F_COUNT, help);
	if (t) {
		struct column tc = NUM(ev->key, ev->name, EV_WIDTH_MIN, COUNT((int)e), F_TIME,
				       "CPU time this interval (ms, s)");
		c = tc;
	}
	int w = (int)strlen(ev->name) + 1;
	c.width = w < EV_WIDTH_MIN ? EV_WIDTH_MIN : w > EV_WIDTH_MAX ? EV_WIDTH_MAX : w;
	return c;
}

/* Every event of a user's set as a count column; each hardware group's RUN% follows its
 * members (software events are never multiplexed). Groups are numbered as the setup
 * dialog numbers them: the user's groups only, from 1. */
static void events_pane(const struct model *m, struct pane *p)
{
	columns_pane_start(p, "Events", m);
	unsigned ord = 0;
	for (unsigned g = 0; g < m->ngroups; g++) {
		if (!m->groups[g].user)
			continue;
		ord++;
		for (unsigned k = 0; k < m->groups[g].n; k++) {
			struct column c = event_column(m, m->groups[g].first + k,
						       "event count this interval");
			pane_add(p, &c);
		}
		for (unsigned e = 0; e < m->nevents; e++) {
			if (!m->events[e].logical || m->events[e].group != g)
				continue;
			struct column c = event_column(m, e, "sum over the core PMUs");
			pane_add(p, &c);
		}
		if (group_is_software(m, g) || p->ncols >= PANE_COLS_MAX - 1)
			continue;
		struct column r = col_run;
		r.run_of = (int)g;
		if (m->ngroups > 1 && ord <= ARRAY_SIZE(run_titles)) {
			r.name = r.title = run_titles[ord - 1];
			r.width = (int)strlen(r.title) + 1;
		}
		pane_add(p, &r);
	}
	columns_pane_end(p);
}

static int event_by_key(const struct model *m, const char *key)
{
	for (unsigned i = 0; i < m->nevents; i++)
		if (strcmp(m->events[i].key, key) == 0)
			return (int)i;
	return -1;
}

/* The event name in a key: the key without its "#N" group suffix. */
static void key_name(const char *key, char *out, size_t len)
{
	snprintf(out, len, "%s", key);
	char *hash = strrchr(out, '#');
	if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1))
		*hash = '\0';
}

static int event_in_group(const struct model *m, unsigned g, const char *name)
{
	for (unsigned i = 0; i < m->nevents; i++)
		if (m->events[i].group == g && strcmp(m->events[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A metric's two events. Keys name a group by its place in the set ("instructions#3"),
 * which moves when events are regrouped or a setup is loaded into another layout: a key
 * that no longer exists is found again by its event's name, in a group that has both
 * (the user's groups first). */
static int resolve_metric(const struct model *m, const struct user_metric *um, int *pa, int *pb)
{
	int a = event_by_key(m, um->a), b = event_by_key(m, um->b);
	if (a < 0 || b < 0) {
		char na[sizeof(um->a)], nb[sizeof(um->b)];
		key_name(um->a, na, sizeof(na));
		key_name(um->b, nb, sizeof(nb));
		bool seen_a = false, seen_b = false;
		a = b = -1;
		for (unsigned g = 0; g < m->ngroups; g++) {
			int ia = event_in_group(m, g, na), ib = event_in_group(m, g, nb);
			seen_a = seen_a || ia >= 0;
			seen_b = seen_b || ib >= 0;
			if (ia >= 0 && ib >= 0 &&
			    (a < 0 || (m->groups[g].user && !m->groups[m->events[a].group].user))) {
				a = ia;
				b = ib;
			}
		}
		if (a < 0)
			return seen_a && seen_b ? -EXDEV : -ENOENT;
	}
	/* Derived metrics never mix groups: their counts come from different windows. */
	if (m->events[a].group != m->events[b].group)
		return -EXDEV;
	*pa = a;
	*pb = b;
	return 0;
}

int columns_check_metric(const struct model *m, const struct user_metric *um)
{
	int a, b;
	return resolve_metric(m, um, &a, &b);
}

/* The user's metrics go before COMMAND in the Events pane. */
static void add_metrics(const struct model *m, const struct user_metric *um, unsigned n,
			struct pane *p)
{
	if (p->ncols == 0 || p->cols[p->ncols - 1].kind != COL_COMMAND)
		return;
	struct column cmd = p->cols[--p->ncols];
	for (unsigned i = 0; i < n && p->ncols < PANE_COLS_MAX - 1; i++) {
		int a, b;
		if (resolve_metric(m, &um[i], &a, &b))
			continue;
		struct column c = NUM(um[i].name, um[i].name, 8, RATIO(a, b, um[i].mul), F_RATIO,
				      "a derived column you defined");
		if (um[i].mul == 100) {
			c.fmt = FMT_PCT;
			c.format = column_fmt_ratio_pct;
		}
		if ((int)strlen(c.title) > c.width)
			c.width = (int)strlen(c.title);
		pane_add(p, &c);
	}
	pane_add(p, &cmd);
}

static unsigned build_panes(const struct model *m, bool user_events, struct pane *out,
			    unsigned max);

unsigned columns_build_panes_all(const struct model *m, bool user_events,
				 const struct user_metric *um, unsigned nmetrics, struct pane *out,
				 unsigned max)
{
	unsigned n = build_panes(m, user_events, out, max);
	for (unsigned i = 0; i < n; i++)
		if (strcmp(out[i].name, "Events") == 0)
			add_metrics(m, um, nmetrics, &out[i]);
	return n;
}

unsigned columns_build_panes_ex(const struct model *m, bool user_events,
				const struct user_metric *um, unsigned nmetrics, struct pane *out,
				unsigned max)
{
	unsigned n = columns_build_panes_all(m, user_events, um, nmetrics, out, max);
	for (unsigned i = 0; i < n; i++)
		pane_select(&out[i], NULL);
	return n;
}

unsigned columns_build_panes(const struct model *m, bool user_events, struct pane *out,
			     unsigned max)
{
	return columns_build_panes_ex(m, user_events, NULL, 0, out, max);
}

static unsigned build_panes(const struct model *m, bool user_events, struct pane *out, unsigned max)
{
	unsigned n = 0;
	bool any_user = false;
	for (unsigned g = 0; g < m->ngroups; g++)
		any_user = any_user || m->groups[g].user;
	if ((user_events || any_user) && max > 0)
		events_pane(m, &out[n++]);
	for (size_t i = 0; i < ARRAY_SIZE(pane_defs) && n < max; i++)
		if (model_role(m, pane_defs[i].need) >= 0)
			builtin_pane(m, &pane_defs[i], &out[n++]);
	return n;
}

static struct val value_none(const struct column *c, const struct model *m, const struct mrow *r)
{
	(void)c, (void)m, (void)r;
	return val_missing(VAL_NA, WHY_NONE);
}

static struct val value_cpu_pct(const struct column *c, const struct model *m, const struct mrow *r)
{
	if (r->kind == ROW_CPU) {
		struct val v = {.v = r->cpu_pct, .state = VAL_EXACT, .run_pm = 1000};
		if (r->cpu_pct < 0)
			v = val_missing(r->cpu_pct < -1.5 ? VAL_EMPTY : VAL_NA, WHY_UNSUPPORTED);
		return v;
	}
	if (c->num < 0)
		return val_missing(VAL_NA, WHY_UNSUPPORTED);
	struct val t = r->v[c->num];
	struct val wall = {.v = m->elapsed * 1e9, .state = VAL_EXACT, .run_pm = 1000};
	return val_ratio(t, wall, c->mul);
}

static struct val value_count(const struct column *c, const struct model *m, const struct mrow *r)
{
	(void)m;
	return r->v[c->num];
}

/* Unknown (a CPU row, a task not read yet): n/a, never a silent 0. */
static struct val value_res(const struct column *c, const struct model *m, const struct mrow *r)
{
	(void)c, (void)m;
	if (r->kind == ROW_CPU || r->kind == ROW_CGROUP || !r->state)
		return val_missing(VAL_NA, WHY_UNSUPPORTED);
	return (struct val){.v = (double)r->rss_kb * 1024, .state = VAL_EXACT, .run_pm = 1000};
}

/* Read from /proc as the process last ran: a replay's recording has neither (n/a). */
static struct val value_nice(const struct column *c, const struct model *m, const struct mrow *r)
{
	(void)c, (void)m;
	if (r->kind != ROW_PROC || !r->have_sched)
		return val_missing(VAL_NA, WHY_UNSUPPORTED);
	return (struct val){.v = r->nice, .state = VAL_EXACT, .run_pm = 1000};
}

static struct val value_time(const struct column *c, const struct model *m, const struct mrow *r)
{
	(void)c, (void)m;
	if (r->kind != ROW_PROC || !r->have_sched)
		return val_missing(VAL_NA, WHY_UNSUPPORTED);
	return (struct val){.v = (double)r->cpu_ns / 1e9, .state = VAL_EXACT, .run_pm = 1000};
}

static struct val value_more(const struct column *c, const struct model *m, const struct mrow *r)
{
	const struct mproc_more *x = &r->more;
	struct val v = {.state = VAL_EXACT, .run_pm = 1000};
	bool have = false;
	if (r->kind == ROW_PROC) {
		switch (c->kind) {
		case COL_PRIO:
			have = x->have_prio, v.v = x->prio;
			break;
		case COL_VIRT:
			have = x->have_virt, v.v = (double)x->virt_kb * 1024;
			break;
		case COL_SHR:
			have = x->have_shr, v.v = (double)x->shr_kb * 1024;
			break;
		case COL_MEM_PCT:
			have = r->state && m->sys.have_mem && m->sys.mem_total_kb;
			v.v = have ? 100.0 * (double)r->rss_kb / (double)m->sys.mem_total_kb : 0;
			break;
		case COL_IO_RD:
		case COL_IO_WR:
			if (x->io == MIO_FIRST || (x->io == MIO_OK && m->elapsed <= 0))
				return val_missing(VAL_EMPTY, WHY_NONE);
			have = x->io == MIO_OK;
			v.v = (double)(c->kind == COL_IO_RD ? x->io_rd : x->io_wr) / m->elapsed;
			break;
		default:
			break;
		}
	}
	return have ? v : val_missing(VAL_NA, WHY_UNSUPPORTED);
}

static struct val value_rate(const struct column *c, const struct model *m, const struct mrow *r)
{
	struct val sec = {.v = m->elapsed, .state = VAL_EXACT, .run_pm = 1000};
	return val_ratio(r->v[c->num], sec, 1);
}

static struct val value_ratio(const struct column *c, const struct model *m, const struct mrow *r)
{
	(void)m;
	return val_ratio(r->v[c->num], r->v[c->den], c->mul);
}

/* Scaled cycles over enabled time equals raw cycles over running time. */
static struct val value_ghz(const struct column *c, const struct model *m, const struct mrow *r)
{
	const struct val_delta *g = &r->g[m->events[c->num].group];
	struct val ns = {.v = (double)g->ena, .state = VAL_EXACT, .run_pm = 1000};
	return val_ratio(r->v[c->num], ns, 1);
}

/* An event's own share, or a group's: its worst member speaks. */
static struct val value_run_pct(const struct column *c, const struct model *m, const struct mrow *r)
{
	bool by_event = c->run_of_event == 1;
	const struct mgroup *grp = &m->groups[by_event ? 0 : c->run_of];
	struct val v = by_event ? r->v[c->run_of] : r->v[grp->first];
	for (unsigned k = 1; !by_event && k < grp->n; k++)
		if (val_worse(r->v[grp->first + k], v))
			v = r->v[grp->first + k];
	if (v.state == VAL_NA || v.state == VAL_EMPTY)
		return v;
	return (struct val){.v = v.run_pm / 10.0, .state = VAL_EXACT, .run_pm = 1000};
}

struct val column_value(const struct column *c, const struct model *m, const struct mrow *r)
{
	return c->value(c, m, r);
}

static bool event_unsupported(const struct model *m, int ev)
{
	return ev >= 0 && (unsigned)ev < m->nevents && m->events[ev].status == WHY_UNSUPPORTED;
}

bool pane_unsupported(const struct model *m, const struct pane *p)
{
	bool any = false;
	for (unsigned i = 0; i < p->ncols; i++) {
		const struct column *c = &p->cols[i];
		if (c->never) {
			any = true;
			if (!c->never(c, m))
				return false;
			continue;
		}
		if (c->kind != COL_COUNT && c->kind != COL_RATIO && c->kind != COL_GHZ &&
		    c->kind != COL_RATE)
			continue;
		any = true;
		if (!event_unsupported(m, c->num) ||
		    (c->kind == COL_RATIO && !event_unsupported(m, c->den)))
			return false;
	}
	return any;
}

static void text_pid(const struct mrow *r, char *buf, size_t len)
{
	if (r->kind == ROW_CPU)
		snprintf(buf, len, "cpu%d", r->cpu);
	else if (r->kind == ROW_CGROUP)
		numfmt_str("cg", buf, len);
	else if (r->instance) /* a fleet's row: processes of a command on another host */
		numfmt_str("n/a", buf, len);
	else
		numfmt_uint((unsigned long long)(r->kind == ROW_THREAD ? r->tid : r->pid), buf,
			    len);
}

static void text_user(const struct mrow *r, char *buf, size_t len)
{
	numfmt_str(r->user ? r->user : "", buf, len);
}

static void text_threads(const struct mrow *r, char *buf, size_t len)
{
	numfmt_uint(r->nthreads, buf, len);
}

static void text_command(const struct mrow *r, char *buf, size_t len)
{
	numfmt_str(r->comm ? r->comm : "", buf, len);
}

static void text_state(const struct mrow *r, char *buf, size_t len)
{
	snprintf(buf, len, "%c", r->state && r->kind != ROW_CPU ? r->state : ' ');
}

static void text_cgroup(const struct mrow *r, char *buf, size_t len)
{
	char name[256];
	numfmt_str(r->cgroup ? cgroup_name(r->cgroup, name, sizeof(name)) : "", buf, len);
}

static void text_instance(const struct mrow *r, char *buf, size_t len)
{
	numfmt_str(r->instance ? r->instance : "", buf, len);
}

static void text_job(const struct mrow *r, char *buf, size_t len)
{
	numfmt_str(r->job ? r->job : "", buf, len);
}

int pane_find_column(const struct pane *p, const char *name)
{
	for (unsigned i = 0; i < p->ncols; i++)
		if (strcasecmp(p->cols[i].name, name) == 0)
			return (int)i;
	return -1;
}

void pane_select(struct pane *p, const char *list)
{
	struct pane in = *p;
	const struct column *sorted = p->sort_default >= 0 && (unsigned)p->sort_default < p->ncols
					      ? &in.cols[p->sort_default]
					      : NULL;
	unsigned n = 0;
	bool used[PANE_COLS_MAX] = {false};
	if (list && *list) {
		char names[512];
		snprintf(names, sizeof(names), "%s", list);
		char *save = NULL;
		for (char *t = strtok_r(names, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
			int i = pane_find_column(&in, t);
			if (i < 0 || used[i] || in.cols[i].kind == COL_COMMAND)
				continue;
			used[i] = true;
			p->cols[n++] = in.cols[i];
		}
	} else {
		for (unsigned i = 0; i < in.ncols; i++)
			if (!in.cols[i].hidden && in.cols[i].kind != COL_COMMAND)
				p->cols[n++] = in.cols[i];
	}
	for (unsigned i = 0; i < in.ncols; i++)
		if (in.cols[i].kind == COL_COMMAND)
			p->cols[n++] = in.cols[i];
	p->ncols = n;
	p->sort_default = -1;
	for (unsigned i = 0; i < n && sorted; i++)
		if (strcmp(p->cols[i].name, sorted->name) == 0)
			p->sort_default = (int)i;
	for (unsigned i = 0; i < n && p->sort_default < 0; i++)
		if (column_is_numeric(&p->cols[i]))
			p->sort_default = (int)i;
	if (p->sort_default < 0)
		p->sort_default = 0;
}

void pane_column_list(const struct pane *p, char *buf, size_t len)
{
	size_t k = 0;
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < p->ncols && k < len; i++)
		if (p->cols[i].kind != COL_COMMAND)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "," : "",
					      p->cols[i].name);
}
