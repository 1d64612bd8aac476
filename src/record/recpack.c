/* A tick's stored rows packed into one record: varints, bitmaps of what is stored, and
 * enabled times as differences. The layout is in recpack.h and docs/RECORDING.md. */
#include "recpack.h"

#include "bytebuf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { F_EXITED = 1, F_CPU = 2, F_CELLS = 4, F_MEM = 8, F_DOUBLES = 16, F_ALL = 31 };

/* The largest double every smaller whole number of which is exact. */
#define WHOLE_MAX 9007199254740992.0

int recpack_grow(struct recpack_buf *o, size_t more)
{
	return bytebuf_room(&o->b, o->len, &o->cap, more, 1024);
}

void recpack_put_u(struct recpack_buf *o, uint64_t u)
{
	while (u >= 0x80) {
		o->b[o->len++] = (unsigned char)(u | 0x80);
		u >>= 7;
	}
	o->b[o->len++] = (unsigned char)u;
}

uint64_t recpack_zigzag(int64_t s)
{
	return ((uint64_t)s << 1) ^ (0 - ((uint64_t)s >> 63));
}

int64_t recpack_unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static void put_double(struct recpack_buf *o, double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	for (int i = 0; i < 8; i++)
		o->b[o->len++] = (unsigned char)(u >> (8 * i));
}

static bool whole(double d)
{
	return d > 0 && d < WHOLE_MAX && d == floor(d);
}

/* A bitmap of n bits as 7 bits a byte, the high bit saying more follow: the bytes after
 * the last set bit are not written (events past the first seven rarely have one). */
static void put_map(struct recpack_buf *o, const unsigned char *bits, unsigned n)
{
	unsigned last = 0; /* bytes of 7 bits up to the last set bit */
	for (unsigned i = 0; i < n; i++)
		if (bits[i])
			last = i / 7 + 1;
	if (last == 0)
		last = 1;
	for (unsigned k = 0; k < last; k++) {
		unsigned char c = 0;
		for (unsigned j = 0; j < 7 && 7 * k + j < n; j++)
			c |= (unsigned char)((bits[7 * k + j] ? 1u : 0u) << j);
		o->b[o->len++] = (unsigned char)(c | (k + 1 < last ? 0x80 : 0));
	}
}

/* What follows a row's task: its flags. */
static unsigned row_flags(const struct recpack_row *row, const struct val *v, unsigned nev)
{
	bool doubles = false;
	for (unsigned i = 0; i < nev && !doubles; i++)
		doubles = v[i].v != 0 && !whole(v[i].v);
	return (row->exited ? F_EXITED : 0) | (row->cpu_pct != -1 ? F_CPU : 0) |
	       (row->cells ? F_CELLS : 0) | (row->mem ? F_MEM : 0) | (doubles ? F_DOUBLES : 0);
}

int recpack_put(struct recpack_buf *out, int64_t prev, const struct recpack_row *row,
		const struct val *v, unsigned nev, const struct val_delta *g, unsigned ngr)
{
	return recpack_put_fmt(out, 2, prev, row, v, nev, g, ngr);
}

/* Format 3: the first group's enabled time as the difference from the row's first value
 * (task-clock in the default set, nanoseconds the task ran, as a task's enabled time). */
static uint64_t time_base(unsigned fmt, const struct val *v, unsigned nev)
{
	return fmt >= 3 && nev && whole(v[0].v) ? (uint64_t)v[0].v : 0;
}

int recpack_put_fmt(struct recpack_buf *out, unsigned fmt, int64_t prev,
		    const struct recpack_row *row, const struct val *v, unsigned nev,
		    const struct val_delta *g, unsigned ngr)
{
	if (row->task <= prev)
		return -EINVAL;
	if (recpack_grow(out, 40 + row->ncells + (size_t)nev * 10 + (size_t)ngr * 20 + nev / 8 +
				      ngr / 8 + 2))
		return -ENOMEM;
	bool doubles = false;
	for (unsigned i = 0; i < nev && !doubles; i++)
		doubles = v[i].v != 0 && !whole(v[i].v);
	unsigned flags = (row->exited ? F_EXITED : 0) | (row->cpu_pct != -1 ? F_CPU : 0) |
			 (row->cells ? F_CELLS : 0) | (row->mem ? F_MEM : 0) |
			 (doubles ? F_DOUBLES : 0);
	recpack_put_u(out, (uint64_t)(row->task - prev) << 1 | (flags != 0));
	if (flags)
		recpack_put_u(out, flags);
	if (flags & F_CPU)
		put_double(out, row->cpu_pct);
	if (flags & F_CELLS) {
		recpack_put_u(out, row->ncells);
		memcpy(out->b + out->len, row->cells, row->ncells);
		out->len += row->ncells;
	}
	if (flags & F_MEM) {
		recpack_put_u(out, row->rss_kb);
		out->b[out->len++] = (unsigned char)row->state;
	}
	unsigned char *bits = out->b + out->cap - (nev > ngr ? nev : ngr) - 1;
	for (unsigned i = 0; i < nev; i++)
		bits[i] = v[i].v != 0;
	put_map(out, bits, nev);
	if (doubles) {
		for (unsigned i = 0; i < nev; i++)
			bits[i] = v[i].v != 0 && !whole(v[i].v);
		put_map(out, bits, nev);
	}
	for (unsigned i = 0; i < nev; i++) {
		if (v[i].v == 0)
			continue;
		if (whole(v[i].v))
			recpack_put_u(out, (uint64_t)v[i].v);
		else
			put_double(out, v[i].v);
	}
	for (unsigned k = 0; k < ngr; k++)
		bits[k] = g[k].ena || g[k].run;
	put_map(out, bits, ngr);
	bool first = true;
	uint64_t base = 0;
	for (unsigned k = 0; k < ngr; k++) {
		if (!g[k].ena && !g[k].run)
			continue;
		if (first && fmt >= 3)
			recpack_put_u(out, recpack_zigzag((int64_t)((base = g[k].ena) -
								    time_base(fmt, v, nev))));
		else if (first)
			recpack_put_u(out, base = g[k].ena);
		else
			recpack_put_u(out, recpack_zigzag((int64_t)(g[k].ena - base)));
		recpack_put_u(out, recpack_zigzag((int64_t)(g[k].ena - g[k].run)));
		first = false;
	}
	return 0;
}

void recpack_free(struct recpack_buf *b)
{
	free(b->b);
	*b = (struct recpack_buf){0};
}

int recpack_get_u(const unsigned char *rec, size_t len, size_t *pos, uint64_t *out)
{
	uint64_t u = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (*pos >= len)
			return -EINVAL;
		unsigned char c = rec[(*pos)++];
		u |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*out = u;
			return 0;
		}
	}
	return -EINVAL;
}

static int get_double(const unsigned char *rec, size_t len, size_t *pos, double *out)
{
	if (len - *pos < 8)
		return -EINVAL;
	uint64_t u = 0;
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)rec[*pos + (size_t)i] << (8 * i);
	*pos += 8;
	memcpy(out, &u, sizeof(*out));
	return 0;
}

/* Past a map of n bits (put_map): -EINVAL when it runs off the record or sets a bit past
 * the n-th. */
static int skip_map(const unsigned char *rec, size_t len, size_t *pos, unsigned n)
{
	for (unsigned k = 0;; k++) {
		if (*pos >= len)
			return -EINVAL;
		unsigned char c = rec[(*pos)++];
		unsigned have = n > 7 * k ? n - 7 * k : 0; /* bits of this byte that exist */
		if ((c & 0x7f) >> (have < 7 ? have : 7))
			return -EINVAL;
		if (!(c & 0x80))
			return 0;
		if (have <= 7)
			return -EINVAL; /* more bytes than bits */
	}
}

/* Bit i of the map at rec + at, already checked by skip_map. */
static bool map_bit(const unsigned char *rec, size_t at, unsigned i)
{
	for (unsigned k = 0; k < i / 7; k++)
		if (!(rec[at + k] & 0x80))
			return false;
	return rec[at + i / 7] >> (i % 7) & 1;
}

int recpack_next(const unsigned char *rec, size_t len, size_t *pos, int64_t prev,
		 struct recpack_row *row, struct val *v, unsigned nev, struct val_delta *g,
		 unsigned ngr)
{
	return recpack_next_fmt(2, rec, len, pos, prev, row, v, nev, g, ngr);
}

int recpack_next_fmt(unsigned fmt, const unsigned char *rec, size_t len, size_t *pos, int64_t prev,
		     struct recpack_row *row, struct val *v, unsigned nev, struct val_delta *g,
		     unsigned ngr)
{
	if (*pos >= len)
		return 0;
	uint64_t u, flags = 0;
	if (recpack_get_u(rec, len, pos, &u) || u >> 1 == 0 ||
	    u >> 1 > (uint64_t)(INT64_MAX - prev) ||
	    ((u & 1) && (recpack_get_u(rec, len, pos, &flags) || flags == 0 || flags > F_ALL)))
		return -EINVAL;
	*row = (struct recpack_row){
		.task = prev + (int64_t)(u >> 1), .exited = flags & F_EXITED, .cpu_pct = -1};
	if ((flags & F_CPU) && get_double(rec, len, pos, &row->cpu_pct))
		return -EINVAL;
	if (flags & F_CELLS) {
		if (recpack_get_u(rec, len, pos, &u) || u > len - *pos)
			return -EINVAL;
		row->cells = (const char *)rec + *pos;
		row->ncells = (size_t)u;
		*pos += (size_t)u;
	}
	if (flags & F_MEM) {
		if (recpack_get_u(rec, len, pos, &row->rss_kb) || *pos >= len)
			return -EINVAL;
		row->mem = true;
		row->state = (char)rec[(*pos)++];
	}
	size_t vmap = *pos, dmap = 0;
	if (skip_map(rec, len, pos, nev))
		return -EINVAL;
	if (flags & F_DOUBLES) {
		dmap = *pos;
		if (skip_map(rec, len, pos, nev))
			return -EINVAL;
	}
	for (unsigned i = 0; i < nev; i++) {
		v[i].v = 0;
		if (!map_bit(rec, vmap, i))
			continue;
		if (dmap && map_bit(rec, dmap, i)) {
			if (get_double(rec, len, pos, &v[i].v))
				return -EINVAL;
		} else {
			if (recpack_get_u(rec, len, pos, &u) || u == 0)
				return -EINVAL;
			v[i].v = (double)u;
		}
	}
	size_t gmap = *pos;
	if (skip_map(rec, len, pos, ngr))
		return -EINVAL;
	bool first = true;
	uint64_t base = 0;
	for (unsigned k = 0; k < ngr; k++) {
		g[k].ena = g[k].run = 0;
		if (!map_bit(rec, gmap, k))
			continue;
		if (recpack_get_u(rec, len, pos, &u))
			return -EINVAL;
		if (first && fmt >= 3)
			g[k].ena = base = time_base(fmt, v, nev) + (uint64_t)recpack_unzigzag(u);
		else
			g[k].ena = first ? (base = u) : base + (uint64_t)recpack_unzigzag(u);
		if (recpack_get_u(rec, len, pos, &u))
			return -EINVAL;
		g[k].run = g[k].ena - (uint64_t)recpack_unzigzag(u);
		first = false;
	}
	return 1;
}

/* Format 3: a tick's rows by column (recpack.h). */
int recpack_put_tick(struct recpack_buf *out, const struct recpack_row *rows,
		     const struct val *const *v, const struct val_delta *const *g, size_t n,
		     unsigned nev, unsigned ngr)
{
	size_t need = 16 + (size_t)nev + ngr;
	for (size_t r = 0; r < n; r++)
		need += 40 + rows[r].ncells + (size_t)nev * 10 + (size_t)ngr * 20 + nev / 7 +
			ngr / 7 + 4;
	if (recpack_grow(out, need))
		return -ENOMEM;
	unsigned char *bits = out->b + out->cap - (nev > ngr ? nev : ngr) - 1;
	recpack_put_u(out, n);
	int64_t prev = 0;
	for (size_t r = 0; r < n; r++) {
		if (rows[r].task <= prev)
			return -EINVAL;
		recpack_put_u(out, (uint64_t)(rows[r].task - prev) << 1 |
					   (row_flags(&rows[r], v[r], nev) != 0));
		prev = rows[r].task;
	}
	for (size_t r = 0; r < n; r++) {
		unsigned f = row_flags(&rows[r], v[r], nev);
		if (f)
			recpack_put_u(out, f);
	}
	for (size_t r = 0; r < n; r++)
		if (rows[r].cpu_pct != -1)
			put_double(out, rows[r].cpu_pct);
	for (size_t r = 0; r < n; r++) {
		if (!rows[r].cells)
			continue;
		recpack_put_u(out, rows[r].ncells);
		memcpy(out->b + out->len, rows[r].cells, rows[r].ncells);
		out->len += rows[r].ncells;
	}
	for (size_t r = 0; r < n; r++) {
		if (!rows[r].mem)
			continue;
		recpack_put_u(out, rows[r].rss_kb);
		out->b[out->len++] = (unsigned char)rows[r].state;
	}
	for (size_t r = 0; r < n; r++) {
		for (unsigned i = 0; i < nev; i++)
			bits[i] = v[r][i].v != 0;
		put_map(out, bits, nev);
	}
	for (size_t r = 0; r < n; r++) {
		if (!(row_flags(&rows[r], v[r], nev) & F_DOUBLES))
			continue;
		for (unsigned i = 0; i < nev; i++)
			bits[i] = v[r][i].v != 0 && !whole(v[r][i].v);
		put_map(out, bits, nev);
	}
	for (unsigned i = 0; i < nev; i++)
		for (size_t r = 0; r < n; r++) {
			double x = v[r][i].v;
			if (x == 0)
				continue;
			if (whole(x))
				recpack_put_u(out, (uint64_t)x);
			else
				put_double(out, x);
		}
	for (size_t r = 0; r < n; r++) {
		for (unsigned k = 0; k < ngr; k++)
			bits[k] = g[r][k].ena || g[r][k].run;
		put_map(out, bits, ngr);
	}
	/* each group's enabled times, then its running times: the first group a row has
	 * from its first value (time_base), the others from that first group's */
	for (unsigned k = 0; k < ngr; k++) {
		for (size_t r = 0; r < n; r++) {
			const struct val_delta *gr = g[r];
			if (!gr[k].ena && !gr[k].run)
				continue;
			unsigned j = 0;
			while (!gr[j].ena && !gr[j].run)
				j++;
			if (j == k)
				recpack_put_u(out,
					      recpack_zigzag((int64_t)(gr[k].ena -
								       time_base(3, v[r], nev))));
			else
				recpack_put_u(out,
					      recpack_zigzag((int64_t)(gr[k].ena - gr[j].ena)));
		}
		for (size_t r = 0; r < n; r++)
			if (g[r][k].ena || g[r][k].run)
				recpack_put_u(out,
					      recpack_zigzag((int64_t)(g[r][k].ena - g[r][k].run)));
	}
	return 0;
}

void recpack_tick_free(struct recpack_tick *t)
{
	free(t->rows);
	free(t->v);
	free(t->g);
	free(t->bits);
	*t = (struct recpack_tick){0};
}

/* A map of n bits into out[0..n) (skip_map checked it). */
static int get_map(const unsigned char *rec, size_t len, size_t *pos, unsigned n,
		   unsigned char *out)
{
	size_t at = *pos;
	if (skip_map(rec, len, pos, n))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		out[i] = map_bit(rec, at, i);
	return 0;
}

/* Room in t for n rows of nv values, ng group times and nb map bits. */
static int tick_room(struct recpack_tick *t, size_t n, size_t nv, size_t ng, size_t nb)
{
	if (n > t->rcap) {
		struct recpack_row *rows = realloc(t->rows, n * sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		t->rows = rows;
		t->rcap = n;
	}
	if (nv > t->vcap) {
		struct val *v = realloc(t->v, nv * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->v = v;
		t->vcap = nv;
	}
	if (ng > t->gcap) {
		struct val_delta *g = realloc(t->g, ng * sizeof(*g));
		if (!g)
			return -ENOMEM;
		t->g = g;
		t->gcap = ng;
	}
	if (nb > t->bcap) {
		unsigned char *bits = realloc(t->bits, nb);
		if (!bits)
			return -ENOMEM;
		t->bits = bits;
		t->bcap = nb;
	}
	return 0;
}

/* The n rows' group times, enabled then running per group, after their maps in t->bits. */
static int get_groups(const unsigned char *rec, size_t len, size_t *pos, struct recpack_tick *t,
		      size_t n, unsigned nev, unsigned ngr)
{
	size_t bw = (size_t)nev * 2 + ngr;
	uint64_t u;
	for (unsigned k = 0; k < ngr; k++) {
		for (size_t r = 0; r < n; r++) {
			const unsigned char *b = t->bits + r * (bw + 1) + 2 * (size_t)nev;
			struct val_delta *gr = &t->g[r * (ngr + 1)];
			gr[k].ena = gr[k].run = 0;
			if (!b[k])
				continue;
			unsigned j = 0;
			while (!b[j])
				j++;
			if (recpack_get_u(rec, len, pos, &u))
				return -EINVAL;
			gr[k].ena = (j == k ? time_base(3, &t->v[r * (nev + 1)], nev) : gr[j].ena) +
				    (uint64_t)recpack_unzigzag(u);
		}
		for (size_t r = 0; r < n; r++) {
			const unsigned char *b = t->bits + r * (bw + 1) + 2 * (size_t)nev;
			struct val_delta *gr = &t->g[r * (ngr + 1)];
			if (!b[k])
				continue;
			if (recpack_get_u(rec, len, pos, &u))
				return -EINVAL;
			gr[k].run = gr[k].ena - (uint64_t)recpack_unzigzag(u);
		}
	}
	return 0;
}

int recpack_get_tick(const unsigned char *rec, size_t len, unsigned nev, unsigned ngr,
		     struct recpack_tick *t)
{
	size_t pos = 0;
	uint64_t n, u;
	t->n = 0;
	if (len == 0)
		return 0;
	/* a row takes 3 bytes at least (its task, value map and group map) */
	if (recpack_get_u(rec, len, &pos, &n) || n > len / 3)
		return -EINVAL;
	size_t bw = (size_t)nev * 2 + ngr; /* a row's bits: values, doubles, groups */
	size_t nv = (size_t)n * (nev + 1), ng = (size_t)n * (ngr + 1), nb = (size_t)n * (bw + 1);
	if (tick_room(t, (size_t)n, nv, ng, nb))
		return -ENOMEM;
	int64_t prev = 0;
	for (size_t r = 0; r < n; r++) {
		if (recpack_get_u(rec, len, &pos, &u) || u >> 1 == 0 ||
		    u >> 1 > (uint64_t)(INT64_MAX - prev))
			return -EINVAL;
		t->rows[r] = (struct recpack_row){.task = prev + (int64_t)(u >> 1), .cpu_pct = -1};
		t->rows[r].exited = u & 1; /* flags follow: kept here until read */
		prev = t->rows[r].task;
	}
	unsigned *flags = NULL;
	if (n && !(flags = calloc(n, sizeof(*flags))))
		return -ENOMEM;
	int rc = -EINVAL;
	for (size_t r = 0; r < n; r++) {
		if (!t->rows[r].exited)
			continue;
		if (recpack_get_u(rec, len, &pos, &u) || u == 0 || u > F_ALL)
			goto out;
		flags[r] = (unsigned)u;
		t->rows[r].exited = u & F_EXITED;
	}
	for (size_t r = 0; r < n; r++)
		if ((flags[r] & F_CPU) && get_double(rec, len, &pos, &t->rows[r].cpu_pct))
			goto out;
	for (size_t r = 0; r < n; r++) {
		if (!(flags[r] & F_CELLS))
			continue;
		if (recpack_get_u(rec, len, &pos, &u) || u > len - pos)
			goto out;
		t->rows[r].cells = (const char *)rec + pos;
		t->rows[r].ncells = (size_t)u;
		pos += (size_t)u;
	}
	for (size_t r = 0; r < n; r++) {
		if (!(flags[r] & F_MEM))
			continue;
		if (recpack_get_u(rec, len, &pos, &t->rows[r].rss_kb) || pos >= len)
			goto out;
		t->rows[r].mem = true;
		t->rows[r].state = (char)rec[pos++];
	}
	for (size_t r = 0; r < n; r++) {
		unsigned char *b = t->bits + r * (bw + 1);
		memset(b, 0, bw);
		if (get_map(rec, len, &pos, nev, b))
			goto out;
	}
	for (size_t r = 0; r < n; r++)
		if ((flags[r] & F_DOUBLES) &&
		    get_map(rec, len, &pos, nev, t->bits + r * (bw + 1) + nev))
			goto out;
	for (unsigned i = 0; i < nev; i++)
		for (size_t r = 0; r < n; r++) {
			const unsigned char *b = t->bits + r * (bw + 1);
			struct val *x = &t->v[r * (nev + 1) + i];
			x->v = 0;
			if (!b[i])
				continue;
			if (b[nev + i]) {
				if (get_double(rec, len, &pos, &x->v))
					goto out;
			} else {
				if (recpack_get_u(rec, len, &pos, &u) || u == 0)
					goto out;
				x->v = (double)u;
			}
		}
	for (size_t r = 0; r < n; r++)
		if (get_map(rec, len, &pos, ngr, t->bits + r * (bw + 1) + 2 * (size_t)nev))
			goto out;
	if (get_groups(rec, len, &pos, t, (size_t)n, nev, ngr))
		goto out;
	if (pos != len)
		goto out; /* bytes past the rows */
	t->n = (size_t)n;
	rc = 0;
out:
	free(flags);
	return rc;
}
