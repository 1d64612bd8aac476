/* libFuzzer harness for recpack_next, the decoder of a tick's packed rows (ticks.rows in
 * a recording someone sent): the first two bytes choose how many values and groups a row
 * has, the rest is the record. Whatever the bytes, each call returns 1, 0 or -EINVAL,
 * never reads outside the record (it is a heap block of exactly its size), moves forward,
 * and gives increasing task ids. The rows read are then packed again with recpack_put and
 * read back: the same rows, values and times. The same bytes as format 3's rows by column
 * (recpack_get_tick): 0 or -EINVAL, increasing task ids, cells inside the record; read
 * back, what recpack_put_tick packs again. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXEV 40
#define MAXGR 12
#define MAXROWS 512

struct row {
	struct recpack_row r;
	struct val v[MAXEV];
	struct val_delta g[MAXGR];
};

static int same_double(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Reads rec to its end or first damage; returns the rows read, -1 when one call broke
 * its contract. */
static int read_all(const unsigned char *rec, size_t len, unsigned nev, unsigned ngr,
		    struct row *rows, int *status)
{
	size_t pos = 0;
	int64_t prev = 0;
	int n = 0;
	for (;;) {
		struct row *o = &rows[n < MAXROWS ? n : MAXROWS - 1];
		size_t was = pos;
		int r = recpack_next(rec, len, &pos, prev, &o->r, o->v, nev, o->g, ngr);
		*status = r;
		if (r == 0 || r == -EINVAL)
			return n;
		if (r != 1 || pos <= was || pos > len || o->r.task <= prev)
			abort();
		if (o->r.cells && (o->r.cells < (const char *)rec || o->r.ncells > len ||
				   (const char *)rec + len - o->r.cells < (ptrdiff_t)o->r.ncells))
			abort();
		prev = o->r.task;
		if (n < MAXROWS)
			n++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct row a[MAXROWS], b[MAXROWS];
	if (size < 2)
		return 0;
	unsigned nev = data[0] % (MAXEV + 1), ngr = data[1] % (MAXGR + 1);
	size_t len = size - 2;
	unsigned char *rec = malloc(len ? len : 1);
	if (!rec)
		return 0;
	memcpy(rec, data + 2, len);

	int st;
	int n = read_all(rec, len, nev, ngr, a, &st);
	if (n >= MAXROWS) {
		free(rec);
		return 0;
	}
	struct recpack_buf out = {0};
	int64_t prev = 0;
	for (int i = 0; i < n; i++) {
		if (recpack_put(&out, prev, &a[i].r, a[i].v, nev, a[i].g, ngr) != 0)
			abort();
		prev = a[i].r.task;
	}
	int n2 = read_all(out.b, out.len, nev, ngr, b, &st);
	if (n2 != n || st != 0)
		abort();
	for (int i = 0; i < n; i++) {
		const struct recpack_row *x = &a[i].r, *y = &b[i].r;
		if (x->task != y->task || x->exited != y->exited ||
		    !same_double(x->cpu_pct, y->cpu_pct) || x->mem != y->mem ||
		    (x->mem && (x->rss_kb != y->rss_kb || x->state != y->state)) ||
		    !x->cells != !y->cells ||
		    (x->cells &&
		     (x->ncells != y->ncells || memcmp(x->cells, y->cells, x->ncells) != 0)))
			abort();
		for (unsigned k = 0; k < nev; k++)
			if (!same_double(a[i].v[k].v, b[i].v[k].v))
				abort();
		for (unsigned k = 0; k < ngr; k++)
			if (a[i].g[k].ena != b[i].g[k].ena || a[i].g[k].run != b[i].g[k].run)
				abort();
	}
	recpack_free(&out);

	static struct recpack_tick t, t2;
	int rc = recpack_get_tick(rec, len, nev, ngr, &t);
	if (rc != 0 && rc != -EINVAL && rc != -ENOMEM)
		abort();
	if (rc == 0 && t.n <= MAXROWS) {
		static struct recpack_row pr[MAXROWS];
		static const struct val *pv[MAXROWS];
		static const struct val_delta *pg[MAXROWS];
		for (size_t i = 0; i < t.n; i++) {
			if ((i && t.rows[i].task <= t.rows[i - 1].task) ||
			    (t.rows[i].cells &&
			     ((const unsigned char *)t.rows[i].cells < rec ||
			      (const unsigned char *)t.rows[i].cells + t.rows[i].ncells >
				      rec + len)))
				abort();
			pr[i] = t.rows[i];
			pv[i] = &t.v[i * (nev + 1)];
			pg[i] = &t.g[i * (ngr + 1)];
		}
		struct recpack_buf o3 = {0};
		if (recpack_put_tick(&o3, pr, pv, pg, t.n, nev, ngr) != 0 ||
		    recpack_get_tick(o3.b, o3.len, nev, ngr, &t2) != 0 || t2.n != t.n)
			abort();
		for (size_t i = 0; i < t.n; i++) {
			if (t2.rows[i].task != t.rows[i].task)
				abort();
			for (unsigned k = 0; k < nev; k++)
				if (!same_double(t.v[i * (nev + 1) + k].v,
						 t2.v[i * (nev + 1) + k].v))
					abort();
			for (unsigned k = 0; k < ngr; k++)
				if (t.g[i * (ngr + 1) + k].ena != t2.g[i * (ngr + 1) + k].ena ||
				    t.g[i * (ngr + 1) + k].run != t2.g[i * (ngr + 1) + k].run)
					abort();
		}
		recpack_free(&o3);
	}
	free(rec);
	return 0;
}
