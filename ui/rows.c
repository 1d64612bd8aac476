/* Display order and selection. The order is the model's rows sorted by sort_rows, or,
 * while the user moves the selection, the previous order kept by identity (htop does
 * the same: re-sorting under the cursor makes rows jump away from it). */
#include "rows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void rows_init(struct rows *r)
{
	memset(r, 0, sizeof(*r));
}

void rows_free(struct rows *r)
{
	free(r->idx);
	free(r->ids);
	rows_init(r);
}

static struct rowid rowid_of(const struct mrow *row)
{
	struct rowid id = {row->kind, row->pid, row->tid};
	if (row->kind == ROW_CPU)
		id.pid = id.tid = row->cpu;
	return id;
}

static int rowid_cmp(const struct rowid *a, const struct rowid *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

static bool rowid_eq(const struct rowid *a, const struct rowid *b)
{
	return rowid_cmp(a, b) == 0;
}

static int grow(struct rows *r, size_t want)
{
	if (want <= r->cap)
		return 0;
	size_t cap = want < 64 ? 64 : want;
	unsigned *idx = realloc(r->idx, cap * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	r->idx = idx;
	struct rowid *ids = realloc(r->ids, cap * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	r->ids = ids;
	r->cap = cap;
	return 0;
}

/* A model row index found by identity. */
struct keyed {
	struct rowid id;
	unsigned row;
	bool used;
};

static int keyed_cmp(const void *a, const void *b)
{
	return rowid_cmp(&((const struct keyed *)a)->id, &((const struct keyed *)b)->id);
}

/* Keep the old order for rows still in fresh (the sorted, filtered rows), then append
 * the rest of fresh in its order. */
static int keep_order(struct rows *r, const struct model *m, const unsigned *fresh, size_t nf)
{
	struct keyed *k = malloc((nf + 1) * sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < nf; i++)
		k[i] = (struct keyed){rowid_of(&m->rows[fresh[i]]), fresh[i], false};
	qsort(k, nf, sizeof(*k), keyed_cmp);
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct keyed key = {.id = r->ids[i]};
		struct keyed *hit = bsearch(&key, k, nf, sizeof(*k), keyed_cmp);
		if (hit && !hit->used) {
			hit->used = true;
			r->idx[n++] = hit->row;
		}
	}
	for (size_t i = 0; i < nf; i++) {
		struct keyed key = {.id = rowid_of(&m->rows[fresh[i]])};
		struct keyed *hit = bsearch(&key, k, nf, sizeof(*k), keyed_cmp);
		if (hit && !hit->used) {
			hit->used = true;
			r->idx[n++] = fresh[i];
		}
	}
	free(k);
	r->n = n;
	return 0;
}

static void place_selection(struct rows *r)
{
	if (r->pinned) {
		for (size_t i = 0; i < r->n; i++) {
			if (rowid_eq(&r->ids[i], &r->want)) {
				r->sel = i;
				r->sel_id = r->want;
				return;
			}
		}
		/* The row is not listed (another view, a filter): stay at the same height, on
		 * its neighbour, until it is listed again or the user moves. */
	}
	if (r->sel >= r->n)
		r->sel = r->n ? r->n - 1 : 0;
	if (r->n)
		r->sel_id = r->ids[r->sel];
}

int rows_update(struct rows *r, const struct model *m, const struct sort_spec *spec, bool resort)
{
	if (grow(r, (size_t)m->nrows + 1) < 0)
		return -ENOMEM;
	unsigned *fresh = malloc(((size_t)m->nrows + 1) * sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	size_t nf = m->nrows ? sort_rows(m, spec, fresh) : 0;
	int err = 0;
	if (resort) {
		memcpy(r->idx, fresh, nf * sizeof(*fresh));
		r->n = nf;
	} else {
		err = keep_order(r, m, fresh, nf);
	}
	free(fresh);
	if (err)
		return err;
	for (size_t i = 0; i < r->n; i++)
		r->ids[i] = rowid_of(&m->rows[r->idx[i]]);
	place_selection(r);
	return 0;
}

void rows_move(struct rows *r, long delta)
{
	if (r->n == 0)
		return;
	long s = (long)r->sel + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)r->n)
		s = (long)r->n - 1;
	r->sel = (size_t)s;
	r->sel_id = r->want = r->ids[r->sel];
	r->pinned = true;
}

void rows_pin(struct rows *r)
{
	if (r->n == 0)
		return;
	r->want = r->sel_id = r->ids[r->sel];
	r->pinned = true;
}

void rows_scroll(struct rows *r, size_t height)
{
	if (height == 0)
		return;
	/* A taller screen shows the rows above first: the busiest, at the top, come back
	 * before any empty line appears below. */
	if (height > r->height) {
		size_t low = r->sel >= height ? r->sel - height + 1 : 0;
		r->top = low < r->top ? low : r->top;
	}
	r->height = height;
	if (r->sel < r->top)
		r->top = r->sel;
	if (r->sel >= r->top + height)
		r->top = r->sel - height + 1;
	/* No empty space at the bottom while rows above are hidden. */
	if (r->n >= height && r->top > r->n - height)
		r->top = r->n - height;
	if (r->n < height)
		r->top = 0;
}

const struct mrow *rows_selected(const struct rows *r, const struct model *m)
{
	if (r->n == 0 || !m)
		return NULL;
	return &m->rows[r->idx[r->sel]];
}
