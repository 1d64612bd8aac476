/* The history store: one slot of fixed rings per row, found by identity through an
 * open-addressed index; slots of rows that left are reused. */
#include "history.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PANES 8

/* A kept column's sample: bit 7 marks a scaled (or partial) value; bits 0-6 hold 0 for an
 * exact zero, XQ_MAX and less the magnitude 2^((b + q) / XQ_STEPS) with b one per row
 * and column, and the codes above have no number. A row's column spans XQ_MAX steps of
 * 2^(1/12) (a factor of 970) below its window's largest, each value to 3%; a smaller
 * one (a spike's neighbour) is kept as no number. */
#define XQ_MAX 119
#define XQ_STEPS 12.0
#define XC_NODATA 120
#define XC_NA 121
#define XC_NC 122
#define XC_EMPTY 123
#define XC_UNDER 124

struct slot {
	struct hist_id id; /* its strings owned */
	uint64_t seen;	   /* generation of the last feed that had the row */
	uint64_t n;	   /* samples written */
	bool used;
	int16_t xb[HIST_XMAX]; /* each kept column's base */
	float s[HM_COUNT][HIST_LEN];
	uint8_t x[HIST_XMAX][HIST_KEY_LEN];
};

struct history {
	struct slot *slots;
	size_t cap, nused;
	size_t *freelist; /* unused slot indices */
	size_t nfree;
	uint32_t *index; /* slot + 1, 0 empty; size a power of two, > 2 * cap */
	size_t isize;
	uint64_t gen, last_tick;
	double lens[HIST_LEN]; /* the seconds each interval fed lasted, a ring */
	uint64_t nfed;	       /* intervals fed since the last clear */
	struct pane panes[MAX_PANES];
	struct column cols[HM_COUNT];
	bool have[HM_COUNT];
	struct column key;
	bool have_key;
	/* The other columns kept (HIST_KEY_LEN intervals each): the panes' and the sort
	 * column, each from interval xfrom on. */
	struct column xcol[HIST_XMAX];
	bool xon[HIST_XMAX], xwant[HIST_XMAX];
	uint64_t xfrom[HIST_XMAX];
	long *scratch; /* per row of the model being fed: its slot */
	size_t nscratch;
};

static const char *const metric_names[HM_COUNT] = {
	[HM_CPU] = "CPU%",     [HM_IPC] = "IPC",     [HM_GHZ] = "GHZ",
	[HM_CMISS] = "CMISS%", [HM_CMPKI] = "CMPKI", [HM_BMISS] = "BMISS%",
};

const char *history_metric_name(int k)
{
	return k >= 0 && k < HM_COUNT ? metric_names[k] : NULL;
}

int history_metric_of(const char *name)
{
	for (int k = 0; name && k < HM_COUNT; k++)
		if (strcasecmp(name, metric_names[k]) == 0)
			return k;
	return -1;
}

/* No number: a quiet NaN whose payload holds state and reason. */
#define NAN_BITS 0x7fc00000u

float history_pack(struct val v)
{
	float f;
	if (!val_has_number(v)) {
		uint32_t b = NAN_BITS | 0x100000u | ((uint32_t)v.state << 8) | v.why;
		memcpy(&f, &b, sizeof(f));
		return f;
	}
	f = v.v > 0 ? (float)v.v : 0.0f;
	return v.state == VAL_SCALED || v.state == VAL_PARTIAL ? -f : f; /* marked, not exact */
}

struct val history_unpack(float f)
{
	if (isnan(f)) {
		uint32_t b;
		memcpy(&b, &f, sizeof(b));
		if (!(b & 0x100000u))
			return val_missing(VAL_NA, WHY_NONE);
		return val_missing((enum val_state)((b >> 8) & 0xff), (enum val_why)(b & 0xff));
	}
	if (signbit(f))
		return (struct val){.v = -f, .state = VAL_SCALED, .run_pm = 500};
	return (struct val){.v = f, .state = VAL_EXACT, .run_pm = 1000};
}

static void id_free(struct hist_id *id)
{
	free((char *)id->cgroup);
	free((char *)id->instance);
	free((char *)id->job);
	free((char *)id->name);
}

struct history *history_new(void)
{
	return calloc(1, sizeof(struct history));
}

void history_clear(struct history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->cap; i++) {
		if (h->slots[i].used)
			id_free(&h->slots[i].id);
		h->slots[i].used = false;
		h->freelist[i] = h->cap - 1 - i;
	}
	h->nfree = h->cap;
	h->nused = 0;
	if (h->index)
		memset(h->index, 0, h->isize * sizeof(*h->index));
	h->last_tick = 0;
	h->nfed = 0;
	memset(h->xfrom, 0, sizeof(h->xfrom));
}

void history_free(struct history *h)
{
	if (!h)
		return;
	history_clear(h);
	free(h->slots);
	free(h->freelist);
	free(h->index);
	free(h->scratch);
	free(h);
}

struct hist_id history_id_of(const struct mrow *r)
{
	struct hist_id id = {.kind = r->kind, .pid = r->pid, .tid = r->tid, .cpu = r->cpu};
	if (r->kind == ROW_CGROUP)
		id.cgroup = r->cgroup ? r->cgroup : "";
	else if (r->kind != ROW_CPU)
		id.cpu = r->subtree ? HIST_SUBTREE : 0; /* a task's CPU is no part of who it is */
	if (r->instance) {
		id.instance = r->instance;
		id.job = r->job ? r->job : "";
		id.name = r->kind == ROW_CGROUP ? "" : r->comm ? r->comm : "";
	}
	return id;
}

static size_t id_hash(struct hist_id id)
{
	uint64_t x = 1469598103934665603ull;
	const uint64_t parts[4] = {(uint64_t)id.kind, (uint64_t)(uint32_t)id.pid,
				   (uint64_t)(uint32_t)id.tid, (uint64_t)(uint32_t)id.cpu};
	for (int i = 0; i < 4; i++)
		x = (x ^ parts[i]) * 1099511628211ull;
	const char *strs[4] = {id.cgroup, id.instance, id.job, id.name};
	for (int i = 0; i < 4; i++)
		for (const char *c = strs[i]; c && *c; c++)
			x = (x ^ (unsigned char)*c) * 1099511628211ull;
	return (size_t)(x ^ (x >> 29));
}

static bool id_eq(const struct hist_id *a, const struct hist_id *b)
{
	if (a->kind != b->kind || a->pid != b->pid || a->tid != b->tid || a->cpu != b->cpu)
		return false;
	if (!a->instance != !b->instance)
		return false;
	if (a->instance && (strcmp(a->instance, b->instance) || strcmp(a->job, b->job) ||
			    strcmp(a->name, b->name)))
		return false;
	return a->kind != ROW_CGROUP || strcmp(a->cgroup, b->cgroup) == 0;
}

long history_find(const struct history *h, struct hist_id id)
{
	if (!h || !h->isize)
		return -1;
	if (id.kind == ROW_CGROUP && !id.cgroup)
		id.cgroup = "";
	if (id.kind != ROW_CPU && id.kind != ROW_CGROUP && id.cpu != HIST_SUBTREE)
		id.cpu = 0;
	size_t mask = h->isize - 1;
	for (size_t i = id_hash(id) & mask;; i = (i + 1) & mask) {
		uint32_t s = h->index[i];
		if (!s)
			return -1;
		if (h->slots[s - 1].used && id_eq(&h->slots[s - 1].id, &id))
			return (long)s - 1;
	}
}

static void index_put(struct history *h, size_t s)
{
	size_t mask = h->isize - 1;
	size_t i = id_hash(h->slots[s].id) & mask;
	while (h->index[i])
		i = (i + 1) & mask;
	h->index[i] = (uint32_t)(s + 1);
}

static void index_rebuild(struct history *h)
{
	memset(h->index, 0, h->isize * sizeof(*h->index));
	for (size_t s = 0; s < h->cap; s++)
		if (h->slots[s].used)
			index_put(h, s);
}

/* Room for ncap slots: the rings of every new slot are allocated here, once. */
static int grow_to(struct history *h, size_t ncap)
{
	ncap = (ncap + 15) / 16 * 16;
	size_t nisize = h->isize ? h->isize : 64;
	while (nisize <= 2 * ncap)
		nisize *= 2;
	struct slot *ns = realloc(h->slots, ncap * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	h->slots = ns;
	size_t *nf = realloc(h->freelist, ncap * sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	h->freelist = nf;
	if (nisize != h->isize) {
		uint32_t *ni = calloc(nisize, sizeof(*ni));
		if (!ni)
			return -ENOMEM;
		free(h->index);
		h->index = ni;
		h->isize = nisize;
	}
	for (size_t i = ncap; i-- > h->cap;) {
		ns[i].used = false;
		h->freelist[h->nfree++] = i;
	}
	h->cap = ncap;
	index_rebuild(h);
	return 0;
}

static long slot_new(struct history *h, struct hist_id id)
{
	if (!h->nfree)
		return -1;
	struct hist_id own = id;
	own.cgroup = id.kind == ROW_CGROUP ? strdup(id.cgroup) : NULL;
	own.instance = id.instance ? strdup(id.instance) : NULL;
	own.job = id.instance ? strdup(id.job) : NULL;
	own.name = id.instance ? strdup(id.name) : NULL;
	if ((id.kind == ROW_CGROUP && !own.cgroup) ||
	    (id.instance && (!own.instance || !own.job || !own.name))) {
		id_free(&own);
		return -1;
	}
	size_t s = h->freelist[--h->nfree];
	struct slot *sl = &h->slots[s];
	sl->used = true;
	sl->id = own;
	sl->n = 0;
	sl->seen = h->gen;
	memset(sl->xb, 0, sizeof(sl->xb));
	memset(sl->x, XC_NODATA, sizeof(sl->x));
	h->nused++;
	index_put(h, s);
	return (long)s;
}

/* The metrics' columns, from the same builder as the panes': the cells and the history
 * show the same numbers. */
static void find_columns(struct history *h, const struct model *m)
{
	unsigned np = columns_build_panes(m, false, h->panes, MAX_PANES);
	for (int k = 0; k < HM_COUNT; k++) {
		h->have[k] = false;
		for (unsigned p = 0; p < np && !h->have[k]; p++) {
			int c = pane_find_column(&h->panes[p], metric_names[k]);
			if (c >= 0) {
				h->cols[k] = h->panes[p].cols[c];
				h->have[k] = true;
			}
		}
	}
}

/* What /proc says of a process (but RES), not what an interval counted. */
static bool proc_state(const struct column *c)
{
	switch (c->kind) {
	case COL_NICE:
	case COL_PRIO:
	case COL_TIME:
	case COL_VIRT:
	case COL_SHR:
	case COL_MEM_PCT:
	case COL_IO_RD:
	case COL_IO_WR:
		return true;
	default:
		return false;
	}
}

/* A kept column may read the model's event indices: make sure they are in it. */
static bool key_fits(const struct column *c, const struct model *m)
{
	switch (c->kind) {
	case COL_COUNT:
	case COL_RATE:
	case COL_GHZ:
	case COL_CPU_PCT:
		return c->a < (int)m->nevents;
	case COL_RATIO:
		return c->a >= 0 && c->b >= 0 && c->a < (int)m->nevents && c->b < (int)m->nevents;
	case COL_RUN_PCT:
		return c->a >= 0 && c->a < (int)(c->b == 1 ? m->nevents : m->ngroups);
	case COL_METRIC: /* a chosen metric (its binding checks k), or a core type's share */
		return c->b < 0 || (c->a >= 0 && c->a < (int)m->nevents &&
				    m->events[c->a].logical && c->b < (int)m->events[c->a].nsum);
	case COL_RES: /* what /proc says of the row: no event read */
		return true;
	default:
		return proc_state(c);
	}
}

/* Column x's value v into slot sl's ring at its place for interval n. The base moves
 * when a value is out of the ring's range, to the largest value in the ring: a value
 * XQ_MAX steps below that is no longer told apart. */
static void x_put(struct slot *sl, int x, uint64_t n, struct val v)
{
	uint8_t *ring = sl->x[x];
	size_t at = (size_t)(n % HIST_KEY_LEN);
	ring[at] = XC_NODATA;
	if (!val_has_number(v)) {
		ring[at] = v.state == VAL_NC ? XC_NC : v.state == VAL_EMPTY ? XC_EMPTY : XC_NA;
		return;
	}
	uint8_t mark = v.state == VAL_SCALED || v.state == VAL_PARTIAL ? 0x80 : 0;
	if (!(v.v > 0)) {
		ring[at] = mark;
		return;
	}
	double l = XQ_STEPS * log2(v.v);
	long q = lround(l < -30000 ? -30000 : l > 30000 ? 30000 : l);
	long b = sl->xb[x];
	if (q - b >= 1 && q - b <= XQ_MAX) { /* in the ring's range: the usual case */
		ring[at] = (uint8_t)(mark | (q - b));
		return;
	}
	long top = 0;
	for (size_t i = 0; i < HIST_KEY_LEN; i++) {
		long c = ring[i] & 0x7f;
		if (c >= 1 && c <= XQ_MAX && c > top)
			top = c;
	}
	long nb = (top && b + top > q ? b + top : q) - XQ_MAX;
	for (size_t i = 0; nb != b && i < HIST_KEY_LEN; i++) {
		long c = ring[i] & 0x7f;
		if (c < 1 || c > XQ_MAX)
			continue;
		c -= nb - b;
		ring[i] = (uint8_t)((ring[i] & 0x80) | (c >= 1 ? c : XC_UNDER));
	}
	sl->xb[x] = (int16_t)nb;
	ring[at] = (uint8_t)(mark | (q - nb >= 1 ? q - nb : XC_UNDER));
}

static struct val x_get(const struct slot *sl, int x, size_t at)
{
	uint8_t c = sl->x[x][at];
	unsigned q = c & 0x7f;
	if (q > XQ_MAX) /* XC_UNDER, a gap and before: no data */
		return val_missing(q == XC_NC	   ? VAL_NC
				   : q == XC_EMPTY ? VAL_EMPTY
						   : VAL_NA,
				   WHY_NONE);
	double v = q ? exp2((sl->xb[x] + (double)q) / XQ_STEPS) : 0;
	if (c & 0x80)
		return (struct val){.v = v, .state = VAL_SCALED, .run_pm = 500};
	return (struct val){.v = v, .state = VAL_EXACT, .run_pm = 1000};
}

static void record(struct history *h, struct slot *sl, const struct model *m, const struct mrow *r,
		   const bool *xfits)
{
	size_t at = (size_t)(sl->n % HIST_LEN);
	for (int k = 0; k < HM_COUNT; k++) {
		struct val v = h->have[k] ? column_value(&h->cols[k], m, r)
					  : val_missing(VAL_NA, WHY_UNSUPPORTED);
		sl->s[k][at] = history_pack(v);
	}
	for (int x = 0; x < HIST_XMAX; x++)
		if (h->xon[x])
			x_put(sl, x, sl->n,
			      xfits[x] ? column_value(&h->xcol[x], m, r)
				       : val_missing(VAL_NA, WHY_INVALID));
	sl->n++;
}

static const struct mrow *row_at(const struct model *m, const struct hist_rows *more, size_t i)
{
	if (i < m->nrows)
		return &m->rows[i];
	i -= m->nrows;
	if (i < m->ncpu_rows)
		return &m->cpu_rows[i];
	i -= m->ncpu_rows;
	for (; i >= more->n; more++)
		i -= more->n;
	return &more->rows[i];
}

/* An interval with no number for a row held while its kind is not shown. */
static void record_gap(struct slot *sl)
{
	float gap = history_pack(val_missing(VAL_NA, WHY_NONE));
	for (int k = 0; k < HM_COUNT; k++)
		sl->s[k][sl->n % HIST_LEN] = gap;
	for (int x = 0; x < HIST_XMAX; x++)
		sl->x[x][sl->n % HIST_KEY_LEN] = XC_NODATA;
	sl->n++;
}

/* Rows that left go first, so that their slots take the new rows; the store grows
 * only by the rows it lacks. A row of a kind the interval has none of (cgroup rows
 * while processes are shown, thread rows while hidden) is another view's, not gone:
 * it is held, the interval a gap in it. kinds: a bit per kind fed. */
static void drop_unseen(struct history *h, unsigned kinds)
{
	bool dropped = false;
	for (size_t s = 0; s < h->cap; s++) {
		struct slot *sl = &h->slots[s];
		if (!sl->used || sl->seen == h->gen)
			continue;
		if (!(kinds & (1u << sl->id.kind))) {
			sl->seen = h->gen;
			record_gap(sl);
			continue;
		}
		id_free(&sl->id);
		sl->used = false;
		h->freelist[h->nfree++] = s;
		h->nused--;
		dropped = true;
	}
	if (dropped)
		index_rebuild(h);
}

int history_feed(struct history *h, const struct model *m)
{
	return history_feed_with(h, m, NULL, 0);
}

int history_feed_with(struct history *h, const struct model *m, const struct hist_rows *more,
		      unsigned nmore)
{
	/* Totals over a whole run are no interval: the charts end with the last one. */
	if (!h || !m || m->tick == 0 || m->tick == h->last_tick || m->final)
		return 0;
	size_t n = (size_t)m->nrows + m->ncpu_rows;
	for (unsigned k = 0; more && k < nmore; k++)
		n += more[k].n;
	if (n > h->nscratch) {
		long *ns = realloc(h->scratch, n * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		h->scratch = ns;
		h->nscratch = n;
	}
	h->last_tick = m->tick;
	h->lens[h->nfed++ % HIST_LEN] = m->elapsed > 0 ? m->elapsed : m->interval;
	h->gen++;
	find_columns(h, m);
	bool xfits[HIST_XMAX];
	for (int x = 0; x < HIST_XMAX; x++)
		xfits[x] = h->xon[x] && key_fits(&h->xcol[x], m);
	size_t missing = 0;
	unsigned kinds = 0;
	for (size_t i = 0; i < n; i++) {
		kinds |= 1u << row_at(m, more, i)->kind;
		long s = history_find(h, history_id_of(row_at(m, more, i)));
		if (s >= 0 && h->slots[s].seen == h->gen)
			s = -2; /* the same row twice in one model: once is enough */
		else if (s >= 0)
			h->slots[s].seen = h->gen;
		else
			missing++;
		h->scratch[i] = s;
	}
	drop_unseen(h, kinds);
	int err = 0;
	if (missing > h->nfree)
		err = grow_to(h, h->cap + missing - h->nfree);
	for (size_t i = 0; i < n; i++) {
		long s = h->scratch[i];
		const struct mrow *r = row_at(m, more, i);
		if (s == -1) {
			struct hist_id id = history_id_of(r);
			if (history_find(h, id) >= 0)
				continue;
			if ((s = slot_new(h, id)) < 0) {
				err = -ENOMEM;
				continue;
			}
		}
		if (s >= 0)
			record(h, &h->slots[s], m, r, xfits);
	}
	return err;
}

static bool same_column(const struct column *a, const struct column *b)
{
	return a->kind == b->kind && a->a == b->a && a->b == b->b && a->mul == b->mul &&
	       strcmp(a->name, b->name) == 0;
}

/* The kept column c's index, or -1. */
static int x_find(const struct history *h, const struct column *c)
{
	for (int x = 0; c && x < HIST_XMAX; x++)
		if (h->xon[x] && same_column(&h->xcol[x], c))
			return x;
	return -1;
}

/* A metric's own series serve its column; a chosen metric (-M) named as one of them
 * ("ipc") is another column, read by its own function. */
static bool is_metric(const struct column *c)
{
	return c->kind != COL_METRIC && history_metric_of(c->name) >= 0;
}

/* Keep c from the next interval on: in a free place, else in one of a column not
 * wanted now (its series is given up), else (force) in the last. Returns its index or
 * -1 (no room). */
static int x_add(struct history *h, const struct column *c, bool force)
{
	int x = x_find(h, c);
	if (x >= 0)
		return x;
	for (int pass = 0; pass < 2 && x < 0; pass++)
		for (int i = 0; i < HIST_XMAX && x < 0; i++)
			if (pass == 0 ? !h->xon[i] : !h->xwant[i])
				x = i;
	if (x < 0 && force)
		x = HIST_XMAX - 1;
	if (x < 0)
		return -1;
	h->xon[x] = true;
	h->xcol[x] = *c;
	h->xfrom[x] = h->nfed;
	for (size_t s = 0; s < h->cap; s++) {
		h->slots[s].xb[x] = 0;
		memset(h->slots[s].x[x], XC_NODATA, sizeof(h->slots[s].x[x]));
	}
	return x;
}

void history_keep(struct history *h, const struct pane *panes, unsigned n)
{
	if (!h)
		return;
	memset(h->xwant, 0, sizeof(h->xwant));
	int kx = h->have_key ? x_find(h, &h->key) : -1;
	if (kx >= 0)
		h->xwant[kx] = true;
	/* Those kept already first: a column added must not push out one still wanted. */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned p = 0; p < n; p++)
			for (unsigned i = 0; i < panes[p].ncols; i++) {
				const struct column *c = &panes[p].cols[i];
				/* NI, PRI, TIME+, VIRT, SHR and MEM% are what /proc says, not
				 * what an interval counted (RES's trend stands for memory), and
				 * the I/O rates are hidden until chosen: each kept only as the
				 * sort column (history_track), so that the counted columns keep
				 * their HIST_XMAX places. */
				if (!column_is_numeric(c) || is_metric(c) || proc_state(c))
					continue;
				int x = pass == 0 ? x_find(h, c) : x_add(h, c, false);
				if (x >= 0)
					h->xwant[x] = true;
			}
}

void history_track(struct history *h, const struct column *c)
{
	if (!h)
		return;
	bool want = c && column_is_numeric(c);
	if (want == h->have_key && (!want || same_column(c, &h->key)))
		return;
	h->have_key = want;
	if (!want)
		return;
	h->key = *c;
	if (is_metric(c))
		return;
	h->xwant[x_add(h, c, true)] = true;
}

const struct column *history_tracked(const struct history *h)
{
	return h && h->have_key ? &h->key : NULL;
}

int history_kept(const struct history *h, const struct column *c)
{
	if (!h || !c)
		return -1;
	int k = is_metric(c) ? history_metric_of(c->name) : -1;
	if (k >= 0)
		return h->have[k] && same_column(&h->cols[k], c) ? k : -1;
	int x = x_find(h, c);
	return x >= 0 ? HM_COUNT + 1 + x : -1;
}

unsigned history_get(const struct history *h, long s, int k, unsigned n, struct val *out)
{
	const struct slot *sl = h && s >= 0 && (size_t)s < h->cap ? &h->slots[s] : NULL;
	uint64_t most = HIST_LEN;
	if (k == HM_COUNT && h) { /* the tracked column, HIST_KEY_LEN intervals */
		k = h->have_key ? history_kept(h, &h->key) : -1;
		k = k < 0 ? INT32_MAX : k;
		most = HIST_KEY_LEN;
	}
	int x = k > HM_COUNT && k <= HM_COUNT + HIST_XMAX ? k - HM_COUNT - 1 : -1;
	bool ok = sl && sl->used && (x >= 0 ? h->xon[x] : k >= 0 && k < HM_COUNT);
	unsigned len = x >= 0 ? HIST_KEY_LEN : HIST_LEN;
	uint64_t have = ok ? sl->n : 0;
	if (have > most)
		have = most;
	if (ok && x >= 0 && have > h->nfed - h->xfrom[x])
		have = h->nfed - h->xfrom[x];
	if (have > len)
		have = len;
	if (have > n)
		have = n;
	unsigned pad = n - (unsigned)have;
	for (unsigned i = 0; i < pad; i++)
		out[i] = val_missing(VAL_NA, WHY_NONE);
	for (unsigned i = 0; ok && i < have; i++) {
		size_t at = (size_t)((sl->n - have + i) % len);
		out[pad + i] = x >= 0 ? x_get(sl, x, at) : history_unpack(sl->s[k][at]);
	}
	return (unsigned)have;
}

const struct column *history_column(const struct history *h, int k)
{
	return h && k >= 0 && k < HM_COUNT && h->have[k] ? &h->cols[k] : NULL;
}

double history_span(const struct history *h, unsigned n)
{
	double s = 0;
	for (uint64_t i = 0; h && i < n && i < h->nfed && i < HIST_LEN; i++)
		s += h->lens[(h->nfed - 1 - i) % HIST_LEN];
	return s;
}

size_t history_rows(const struct history *h)
{
	return h ? h->nused : 0;
}

size_t history_bytes(const struct history *h)
{
	if (!h)
		return 0;
	return sizeof(*h) + h->cap * (sizeof(struct slot) + sizeof(size_t)) +
	       h->isize * sizeof(uint32_t) + h->nscratch * sizeof(long);
}
