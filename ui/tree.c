/* The process tree view's depths and folded sums: see tree.h. */
#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pidpos {
	pid_t pid;
	unsigned pos;
};

static int by_pid(const void *a, const void *b)
{
	const struct pidpos *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static const struct pidpos *find(const struct pidpos *v, size_t n, pid_t pid)
{
	struct pidpos key = {pid, 0};
	return pid > 0 ? bsearch(&key, v, n, sizeof(*v), by_pid) : NULL;
}

static bool is_folded(const pid_t *folded, unsigned n, pid_t pid)
{
	for (unsigned i = 0; i < n; i++)
		if (folded[i] == pid)
			return true;
	return false;
}

static int grow(struct tree_view *t, size_t n)
{
	if (n <= t->cap)
		return 0;
	size_t cap = n + n / 2 + 16;
	unsigned char *d = realloc(t->depth, cap);
	if (d)
		t->depth = d;
	const struct mrow **o = realloc(t->over, cap * sizeof(*o));
	if (o)
		t->over = o;
	uint64_t *b = realloc(t->bars, cap * sizeof(*b));
	if (b)
		t->bars = b;
	if (!d || !o || !b)
		return -ENOMEM;
	t->cap = cap;
	return 0;
}

/* The folded process at position pos: the sum of its rows and its descendants', found by
 * walking each process's parents in the model. */
static int fold_sum(struct tree_view *t, const struct model *m, const struct pidpos *byp, size_t np,
		    const struct mrow *root, size_t slot)
{
	size_t n = 0;
	for (size_t i = 0; i < np; i++) {
		const struct mrow *r = &m->rows[byp[i].pos];
		pid_t p = r->pid;
		for (unsigned steps = 0; p > 0 && p != root->pid && steps < 256; steps++) {
			const struct pidpos *up =
				find(byp, np, m->rows[find(byp, np, p)->pos].ppid);
			p = up && up->pid != p ? up->pid : 0;
		}
		if (p != root->pid)
			continue;
		if (n == t->mcap) {
			size_t cap = t->mcap ? 2 * t->mcap : 64;
			unsigned *mm = realloc(t->members, cap * sizeof(*mm));
			if (!mm)
				return -ENOMEM;
			t->members = mm;
			t->mcap = cap;
		}
		t->members[n++] = byp[i].pos;
	}
	struct mrow_w w = mstore_at(&t->sums, slot);
	const struct val *v = w.r->v;
	const struct val_delta *g = w.r->g;
	*w.r = *root;
	w.r->v = v;
	w.r->g = g;
	w.r->nthreads = 0;
	w.r->subtree = true;
	w.r->cpu_ns = 0;
	for (size_t i = 0; i < n; i++) {
		const struct mrow *mr = &m->rows[t->members[i]];
		w.r->nthreads += mr->nthreads;
		w.r->cpu_ns += mr->cpu_ns;
		w.r->have_sched = w.r->have_sched && mr->have_sched;
	}
	rowsum_rows(m, t->members, n, w, t->parts);
	return 0;
}

/* The lines of the tree: from the last row up, which depths have a row further down
 * before one shallower ends their group of siblings. */
static void bars(struct tree_view *t, const struct model *m, const struct rows *r)
{
	uint64_t below = 0; /* bit L: a row at depth L further down, in the same group */
	for (size_t pos = r->n; pos-- > 0;) {
		enum row_kind kind = m->rows[r->idx[pos]].kind;
		if (kind != ROW_PROC && kind != ROW_THREAD) {
			t->bars[pos] = 0;
			continue;
		}
		unsigned d = t->depth[pos] < 63 ? t->depth[pos] : 63;
		uint64_t mask = (2ull << d) - 1; /* depths 0 .. d */
		t->bars[pos] = (below & (mask >> 1) & ~1ull) | (below >> d & 1);
		below = (below & mask) | 1ull << d;
	}
}

int tree_update(struct tree_view *t, const struct model *m, const struct rows *r,
		const pid_t *folded, unsigned nfolded)
{
	if (grow(t, r->n + 1))
		return -ENOMEM;
	if (t->nparts < m->nevents) {
		struct rowsum_part *p = realloc(t->parts, (m->nevents + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->parts = p;
		t->nparts = m->nevents;
	}
	/* Every process row of the model by pid, and the shown ones' depths. */
	struct pidpos *byp = malloc(((size_t)m->nrows + 1) * sizeof(*byp));
	struct pidpos *shown = malloc((r->n + 1) * sizeof(*shown));
	if (!byp || !shown) {
		free(byp);
		free(shown);
		return -ENOMEM;
	}
	size_t np = 0, ns = 0, nf = 0;
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].kind == ROW_PROC)
			byp[np++] = (struct pidpos){m->rows[i].pid, i};
	qsort(byp, np, sizeof(*byp), by_pid);
	for (size_t pos = 0; pos < r->n; pos++) {
		const struct mrow *row = &m->rows[r->idx[pos]];
		t->over[pos] = NULL;
		if (row->kind == ROW_PROC && is_folded(folded, nfolded, row->pid))
			nf++;
	}
	int err = nf ? (int)mstore_reserve(&t->sums, nf, m->nevents, m->ngroups) : 0;
	err = err < 0 ? err : 0;
	/* In tree order a parent comes before its children: its depth is known. Thread
	 * rows are their process's children, one deeper. */
	size_t slot = 0;
	unsigned char pdepth = 0;
	t->nsums = 0;
	for (size_t pos = 0; pos < r->n && !err; pos++) {
		const struct mrow *row = &m->rows[r->idx[pos]];
		if (row->kind == ROW_THREAD) {
			size_t k = ns;
			while (k > 0 && shown[k - 1].pid != row->pid)
				k--;
			unsigned char up = k > 0 ? t->depth[shown[k - 1].pos] : pdepth;
			t->depth[pos] = (unsigned char)(up < 60 ? up + 1 : 60);
			continue;
		}
		if (row->kind != ROW_PROC) {
			t->depth[pos] = pdepth;
			continue;
		}
		/* The ancestors of the last row shown, a stack: the parent is on it, or the
		 * row is a root. */
		size_t k = ns;
		while (k > 0 &&
		       (shown[k - 1].pid != row->ppid || row->ppid == row->pid || row->ppid <= 0))
			k--;
		unsigned char d = 0;
		if (k > 0) {
			unsigned char up = t->depth[shown[k - 1].pos];
			d = (unsigned char)(up < 60 ? up + 1 : 60);
			ns = k;
		} else {
			ns = 0;
		}
		t->depth[pos] = pdepth = d;
		shown[ns++] = (struct pidpos){row->pid, (unsigned)pos};
		if (is_folded(folded, nfolded, row->pid)) {
			err = fold_sum(t, m, byp, np, row, slot);
			t->over[pos] = &t->sums.rows[slot++];
			t->nsums = (unsigned)slot;
		}
	}
	free(byp);
	free(shown);
	bars(t, m, r);
	return err;
}

void tree_free(struct tree_view *t)
{
	free(t->depth);
	free(t->over);
	free(t->bars);
	mstore_free(&t->sums);
	free(t->parts);
	free(t->members);
	memset(t, 0, sizeof(*t));
}
