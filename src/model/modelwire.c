/* modelwire.h: the model as bytes and back. */
#include "modelwire.h"

#include "bytebuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MW_MAGIC 0x57544d50u /* "PMTW" */
#define MW_VERSION 1u
#define MW_NULL 0xffffffffu

static int grow(struct mwbuf *o, size_t more)
{
	return bytebuf_room(&o->b, o->len, &o->cap, more, 4096);
}

/* Writers: the buffer's room is made per row or header, before they run. */
static void put_le(struct mwbuf *o, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		o->b[o->len++] = (unsigned char)(v >> (8 * i));
}

static void put_f(struct mwbuf *o, double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	put_le(o, u, 8);
}

static int put_s(struct mwbuf *o, const char *s)
{
	size_t n = s ? strlen(s) + 1 : 0;
	if (n >= MW_NULL || grow(o, 4 + n))
		return -ENOMEM;
	put_le(o, s ? (uint64_t)n : MW_NULL, 4);
	if (n)
		memcpy(o->b + o->len, s, n);
	o->len += n;
	return 0;
}

static int put_header(const struct model *m, struct mwbuf *o)
{
	if (grow(o, 256))
		return -ENOMEM;
	put_le(o, MW_MAGIC, 4);
	put_le(o, MW_VERSION, 4);
	put_le(o, m->tick, 8);
	put_f(o, m->interval);
	put_f(o, m->elapsed);
	put_f(o, m->time);
	put_le(o, (uint32_t)m->ncpus, 4);
	put_le(o,
	       (unsigned)m->paused | (unsigned)m->user_only << 1 | (unsigned)m->threads << 2 |
		       (unsigned)m->final << 3,
	       1);
	put_le(o, (uint32_t)m->exit_status, 4);
	put_le(o, m->ntasks, 4);
	put_le(o, m->nfd_short, 4);
	const struct msys *y = &m->sys;
	put_le(o,
	       (unsigned)y->have_mem | (unsigned)y->have_load << 1 | (unsigned)y->have_uptime << 2 |
		       (unsigned)y->have_running << 3,
	       1);
	put_le(o, y->nr_running, 4);
	put_le(o, y->mem_total_kb, 8);
	put_le(o, y->mem_avail_kb, 8);
	put_le(o, y->swap_total_kb, 8);
	put_le(o, y->swap_free_kb, 8);
	for (int i = 0; i < 3; i++)
		put_f(o, y->load[i]);
	put_f(o, y->uptime);
	put_f(o, y->boot);
	put_le(o, (uint64_t)y->clk_tck, 8);
	const char *s[] = {m->hostname, m->kernel,	  m->pmus,
			   m->notice,	m->source_notice, m->backend};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (put_s(o, s[i]))
			return -ENOMEM;
	return 0;
}

static int put_events(const struct model *m, struct mwbuf *o)
{
	if (grow(o, 8))
		return -ENOMEM;
	put_le(o, m->nevents, 4);
	put_le(o, m->ngroups, 4);
	for (unsigned i = 0; i < m->nevents; i++) {
		const struct mevent *e = &m->events[i];
		if (put_s(o, e->name) || put_s(o, e->key) || grow(o, 32))
			return -ENOMEM;
		put_le(o, e->group, 4);
		put_le(o, e->member, 4);
		put_le(o, e->role, 1);
		put_le(o, e->status, 1);
		put_le(o, (unsigned)e->hardware | (unsigned)e->logical << 1, 1);
		put_le(o, e->nsum, 1);
		for (int k = 0; k < 4; k++)
			put_le(o, e->sum[k], 4);
	}
	if (grow(o, 9 * (size_t)m->ngroups))
		return -ENOMEM;
	for (unsigned g = 0; g < m->ngroups; g++) {
		put_le(o, m->groups[g].first, 4);
		put_le(o, m->groups[g].n, 4);
		put_le(o, m->groups[g].user, 1);
	}
	return 0;
}

static int put_row(const struct model *m, const struct mrow *r, struct mwbuf *o)
{
	if (put_s(o, r->user) || put_s(o, r->comm) || put_s(o, r->cmdline) || put_s(o, r->cgroup))
		return -ENOMEM;
	if (grow(o, 160 + (size_t)m->nevents * 12 + (size_t)m->ngroups * 24))
		return -ENOMEM;
	put_le(o, r->kind, 1);
	put_le(o, (uint32_t)r->pid, 4);
	put_le(o, (uint32_t)r->tid, 4);
	put_le(o, (uint32_t)r->ppid, 4);
	put_le(o, (uint32_t)r->cpu, 4);
	put_le(o, r->uid, 4);
	put_le(o, r->nthreads, 4);
	put_le(o, r->rss_kb, 8);
	put_le(o, r->start_ticks, 8);
	put_le(o, (unsigned char)r->state, 1);
	put_le(o,
	       (unsigned)r->have_sched | (unsigned)r->exited << 1 | (unsigned)r->kthread << 2 |
		       (unsigned)r->subtree << 3,
	       1);
	put_le(o, (uint32_t)r->nice, 4);
	put_le(o, r->cpu_ns, 8);
	const struct mproc_more *p = &r->more;
	put_le(o, (unsigned)p->have_prio | (unsigned)p->have_virt << 1 | (unsigned)p->have_shr << 2,
	       1);
	put_le(o, (uint32_t)p->prio, 4);
	put_le(o, p->virt_kb, 8);
	put_le(o, p->shr_kb, 8);
	put_le(o, p->io, 1);
	put_le(o, p->io_rd, 8);
	put_le(o, p->io_wr, 8);
	put_f(o, r->cpu_pct);
	for (int i = 0; i < 3; i++)
		put_f(o, r->cpu_split[i]);
	for (unsigned i = 0; i < m->nevents; i++) {
		put_f(o, r->v[i].v);
		put_le(o, r->v[i].state, 1);
		put_le(o, r->v[i].why, 1);
		put_le(o, r->v[i].run_pm, 2);
	}
	for (unsigned g = 0; g < m->ngroups; g++) {
		put_le(o, r->g[g].ena, 8);
		put_le(o, r->g[g].run, 8);
		put_le(o, r->g[g].val, 8);
	}
	return 0;
}

static int put_rows(const struct model *m, const struct mrow *rows, unsigned n, struct mwbuf *o)
{
	if (grow(o, 4))
		return -ENOMEM;
	put_le(o, n, 4);
	for (unsigned i = 0; i < n; i++)
		if (put_row(m, &rows[i], o))
			return -ENOMEM;
	return 0;
}

int modelwire_put(const struct model *m, struct mwbuf *out)
{
	out->len = 0;
	if (put_header(m, out) || put_events(m, out) || put_rows(m, m->rows, m->nrows, out) ||
	    put_rows(m, m->cpu_rows, m->ncpu_rows, out) ||
	    put_rows(m, m->cg_rows, m->ncg_rows, out))
		return -ENOMEM;
	return 0;
}

void mwbuf_free(struct mwbuf *b)
{
	free(b->b);
	*b = (struct mwbuf){0};
}

/* The reader: every get checks its room; a short or damaged record sets bad. */
struct mwin {
	unsigned char *b;
	size_t len, pos;
	bool bad;
};

static uint64_t get_le(struct mwin *in, unsigned bytes)
{
	if (in->bad || in->len - in->pos < bytes) {
		in->bad = true;
		return 0;
	}
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)in->b[in->pos++] << (8 * i);
	return v;
}

static double get_f(struct mwin *in)
{
	uint64_t u = get_le(in, 8);
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* A string in the record (NUL-terminated there), or NULL. */
static const char *get_s(struct mwin *in)
{
	uint64_t n = get_le(in, 4);
	if (in->bad || n == MW_NULL)
		return NULL;
	if (n == 0 || in->len - in->pos < n || in->b[in->pos + n - 1] != '\0') {
		in->bad = true;
		return NULL;
	}
	const char *s = (const char *)in->b + in->pos;
	in->pos += n;
	return s;
}

static void get_header(struct mwin *in, struct model *m)
{
	m->tick = get_le(in, 8);
	m->interval = get_f(in);
	m->elapsed = get_f(in);
	m->time = get_f(in);
	m->ncpus = (int)(uint32_t)get_le(in, 4);
	unsigned f = (unsigned)get_le(in, 1);
	m->paused = f & 1, m->user_only = f & 2, m->threads = f & 4, m->final = f & 8;
	m->exit_status = (int)(uint32_t)get_le(in, 4);
	m->ntasks = (unsigned)get_le(in, 4);
	m->nfd_short = (unsigned)get_le(in, 4);
	struct msys *y = &m->sys;
	f = (unsigned)get_le(in, 1);
	y->have_mem = f & 1, y->have_load = f & 2, y->have_uptime = f & 4, y->have_running = f & 8;
	y->nr_running = (unsigned)get_le(in, 4);
	y->mem_total_kb = get_le(in, 8);
	y->mem_avail_kb = get_le(in, 8);
	y->swap_total_kb = get_le(in, 8);
	y->swap_free_kb = get_le(in, 8);
	for (int i = 0; i < 3; i++)
		y->load[i] = get_f(in);
	y->uptime = get_f(in);
	y->boot = get_f(in);
	y->clk_tck = (long)get_le(in, 8);
	m->hostname = get_s(in);
	m->kernel = get_s(in);
	m->pmus = get_s(in);
	m->notice = get_s(in);
	m->source_notice = get_s(in);
	m->backend = get_s(in);
}

static int get_events(struct mwin *in, struct modelwire *w, struct model *m)
{
	uint64_t ne = get_le(in, 4), ng = get_le(in, 4);
	/* Each event takes 24 bytes at least, each group 9: a count the record cannot hold
	 * is damage, not an allocation. */
	if (in->bad || ne > (in->len - in->pos) / 24 || ng > (in->len - in->pos) / 9 || (ne && !ng))
		return -EINVAL;
	struct mevent *ev = calloc(ne ? ne : 1, sizeof(*ev));
	struct mgroup *gr = calloc(ng ? ng : 1, sizeof(*gr));
	if (!ev || !gr) {
		free(ev);
		free(gr);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < ne; i++) {
		struct mevent *e = &ev[i];
		e->name = get_s(in);
		e->key = get_s(in);
		e->group = (unsigned)get_le(in, 4);
		e->member = (unsigned)get_le(in, 4);
		e->role = (enum ev_role)get_le(in, 1);
		e->status = (uint8_t)get_le(in, 1);
		unsigned f = (unsigned)get_le(in, 1);
		e->hardware = f & 1, e->logical = f & 2;
		e->nsum = (unsigned)get_le(in, 1);
		for (int k = 0; k < 4; k++)
			e->sum[k] = (unsigned)get_le(in, 4);
		if (!e->name || !e->key || e->group >= ng || e->role >= ROLE_COUNT || e->nsum > 4)
			in->bad = true;
		for (unsigned k = 0; k < e->nsum && k < 4; k++)
			if (e->sum[k] >= ne)
				in->bad = true;
	}
	for (uint64_t g = 0; g < ng; g++) {
		gr[g].first = (unsigned)get_le(in, 4);
		gr[g].n = (unsigned)get_le(in, 4);
		gr[g].user = get_le(in, 1) != 0;
		if (gr[g].first > ne || gr[g].n > ne - gr[g].first)
			in->bad = true;
	}
	free(w->ev);
	free(w->gr);
	w->ev = ev;
	w->gr = gr;
	m->nevents = (unsigned)ne;
	m->ngroups = (unsigned)ng;
	m->events = ev;
	m->groups = gr;
	return in->bad ? -EINVAL : 0;
}

static void get_row(struct mwin *in, const struct model *m, const struct mrow_w *h)
{
	struct mrow *r = h->r;
	r->user = get_s(in);
	r->comm = get_s(in);
	r->cmdline = get_s(in);
	r->cgroup = get_s(in);
	unsigned kind = (unsigned)get_le(in, 1);
	if (kind > ROW_CGROUP)
		in->bad = true;
	r->kind = (enum row_kind)kind;
	r->pid = (pid_t)(uint32_t)get_le(in, 4);
	r->tid = (pid_t)(uint32_t)get_le(in, 4);
	r->ppid = (pid_t)(uint32_t)get_le(in, 4);
	r->cpu = (int)(uint32_t)get_le(in, 4);
	r->uid = (uid_t)get_le(in, 4);
	r->nthreads = (unsigned)get_le(in, 4);
	r->rss_kb = get_le(in, 8);
	r->start_ticks = get_le(in, 8);
	r->state = (char)get_le(in, 1);
	unsigned f = (unsigned)get_le(in, 1);
	r->have_sched = f & 1, r->exited = f & 2, r->kthread = f & 4, r->subtree = f & 8;
	r->nice = (int)(uint32_t)get_le(in, 4);
	r->cpu_ns = get_le(in, 8);
	struct mproc_more *p = &r->more;
	f = (unsigned)get_le(in, 1);
	p->have_prio = f & 1, p->have_virt = f & 2, p->have_shr = f & 4;
	p->prio = (int)(uint32_t)get_le(in, 4);
	p->virt_kb = get_le(in, 8);
	p->shr_kb = get_le(in, 8);
	p->io = (uint8_t)get_le(in, 1);
	p->io_rd = get_le(in, 8);
	p->io_wr = get_le(in, 8);
	r->cpu_pct = get_f(in);
	for (int i = 0; i < 3; i++)
		r->cpu_split[i] = get_f(in);
	for (unsigned i = 0; i < m->nevents; i++) {
		h->v[i].v = get_f(in);
		h->v[i].state = (uint8_t)get_le(in, 1);
		h->v[i].why = (uint8_t)get_le(in, 1);
		h->v[i].run_pm = (uint16_t)get_le(in, 2);
		if (h->v[i].state > VAL_PARTIAL || h->v[i].why > WHY_SWITCH)
			in->bad = true;
	}
	for (unsigned g = 0; g < m->ngroups; g++) {
		h->g[g].ena = get_le(in, 8);
		h->g[g].run = get_le(in, 8);
		h->g[g].val = get_le(in, 8);
	}
	if (!r->user || !r->comm)
		in->bad = true;
}

static int get_rows(struct mwin *in, const struct model *m, struct mstore *s, unsigned *nrows,
		    const struct mrow **rows)
{
	uint64_t n = get_le(in, 4);
	/* A row takes 130 bytes at least. */
	if (in->bad || n > (in->len - in->pos) / 130)
		return -EINVAL;
	if (mstore_reserve(s, n ? n : 1, m->nevents, m->ngroups) < 0)
		return -ENOMEM;
	for (uint64_t i = 0; i < n && !in->bad; i++) {
		struct mrow_w h = mstore_row(s, i);
		get_row(in, m, &h);
	}
	*nrows = (unsigned)n;
	*rows = s->rows;
	return in->bad ? -EINVAL : 0;
}

int modelwire_get(struct modelwire *w, unsigned char *body, size_t len)
{
	struct mwin in = {body, len, 0, false};
	struct model m = {0};
	uint64_t magic = get_le(&in, 4), version = get_le(&in, 4);
	if (magic != MW_MAGIC || version != MW_VERSION) {
		free(body);
		modelwire_clear(w);
		return magic == MW_MAGIC && !in.bad ? -EPROTONOSUPPORT : -EINVAL;
	}
	get_header(&in, &m);
	int err = in.bad ? -EINVAL : get_events(&in, w, &m);
	if (!err)
		err = get_rows(&in, &m, &w->rows, &m.nrows, &m.rows);
	if (!err)
		err = get_rows(&in, &m, &w->cpus, &m.ncpu_rows, &m.cpu_rows);
	if (!err)
		err = get_rows(&in, &m, &w->cgs, &m.ncg_rows, &m.cg_rows);
	if (!err && in.pos != in.len)
		err = -EINVAL;
	if (err) {
		/* The stores and tables now hold parts of this record: the last model is gone. */
		free(body);
		free(w->body);
		w->body = NULL;
		w->m = (struct model){0};
		return err;
	}
	free(w->body);
	w->body = body;
	w->m = m;
	return 0;
}

void modelwire_clear(struct modelwire *w)
{
	free(w->body);
	free(w->ev);
	free(w->gr);
	mstore_free(&w->rows);
	mstore_free(&w->cpus);
	mstore_free(&w->cgs);
	*w = (struct modelwire){0};
}
