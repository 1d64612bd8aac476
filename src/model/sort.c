/* Sorting and filtering rows: processes by the sort column, each followed by its
 * threads sorted the same way. */
#include "sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct sort_ctx {
	const struct model *m;
	const struct sort_spec *spec;
	const double *keys; /* per row: the sort column's number, NaN for none */
	bool numeric;
};

/* Each row's value once, before sorting: a comparison would compute two, some twenty
 * thousand times a tick at a thousand rows. Values without a number (NaN here) sort below
 * every number, in both directions' tail. */
static void make_keys(const struct model *m, const struct column *col, double *keys)
{
	for (unsigned i = 0; i < m->nrows; i++) {
		struct val v = column_value(col, m, &m->rows[i]);
		keys[i] = val_has_number(v) && isfinite(v.v) ? v.v : NAN;
	}
}

static int text_cmp(const struct column *col, const struct mrow *a, const struct mrow *b)
{
	switch (col->kind) {
	case COL_USER:
		return strcmp(a->user ? a->user : "", b->user ? b->user : "");
	case COL_COMMAND:
		return strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
	case COL_THREADS:
		return (a->nthreads > b->nthreads) - (a->nthreads < b->nthreads);
	default:
		return 0;
	}
}

static int id_cmp(const struct mrow *a, const struct mrow *b)
{
	if (a->kind == ROW_CPU && b->kind == ROW_CPU)
		return (a->cpu > b->cpu) - (a->cpu < b->cpu);
	pid_t x = a->kind == ROW_THREAD ? a->tid : a->pid;
	pid_t y = b->kind == ROW_THREAD ? b->tid : b->pid;
	return (x > y) - (x < y);
}

static int row_cmp(const struct sort_ctx *c, unsigned ia, unsigned ib)
{
	const struct column *col = c->spec->col;
	const struct mrow *a = &c->m->rows[ia], *b = &c->m->rows[ib];
	int d = 0;
	if (c->numeric) {
		double ka = c->keys[ia], kb = c->keys[ib];
		bool ha = !isnan(ka), hb = !isnan(kb);
		if (ha != hb)
			return ha ? -1 : 1; /* numbers first, whatever the direction */
		if (ha)
			d = (ka > kb) - (ka < kb);
	} else if (col) {
		d = text_cmp(col, a, b);
	}
	if (d == 0)
		return id_cmp(a, b); /* ties by id, always ascending: a stable screen */
	return c->spec->descending ? -d : d;
}

/* qsort has no context argument in C11: sort with a small merge sort instead. Rows come
 * in discovery order, by pid from the first scan, and most tie (idle: 0 everywhere) and
 * so sort by pid: halves already in order are left as they are, one comparison. */
static void msort(const struct sort_ctx *c, unsigned *v, unsigned *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	msort(c, v, tmp, h);
	msort(c, v + h, tmp, n - h);
	if (row_cmp(c, v[h], v[h - 1]) >= 0)
		return;
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = row_cmp(c, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* path is cg or a cgroup below it ("/a" holds "/a" and "/a/b", not "/ab"). */
static bool under(const char *path, const char *cg)
{
	size_t n = strlen(cg);
	if (!path)
		return false;
	if (n == 1 && cg[0] == '/')
		return true;
	return strncmp(path, cg, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static bool wanted(const struct model *m, const struct sort_spec *s, const struct mrow *r)
{
	if (s->cgroup && r->kind != ROW_CGROUP && !under(r->cgroup, s->cgroup))
		return false;
	for (unsigned i = 0; r->kind == ROW_CGROUP && r->cgroup && i < s->ncollapsed; i++)
		if (strcmp(r->cgroup, s->collapsed[i]) != 0 && under(r->cgroup, s->collapsed[i]))
			return false;
	if (s->only_pid > 0 && r->pid != s->only_pid)
		return false;
	if (s->have_uid && r->uid != s->uid)
		return false;
	if (s->hide_kthreads && r->kthread)
		return false;
	if (s->hide_exited && r->exited)
		return false;
	if (s->filter && *s->filter && !sort_row_matches(r, s->filter, s->filter_cmdline) &&
	    !(m->remote && m->hostname && strcasestr(m->hostname, s->filter)))
		return false;
	return true;
}

bool sort_row_matches(const struct mrow *r, const char *text, bool cmdline)
{
	return strcasestr(r->comm ? r->comm : "", text) ||
	       (cmdline && r->cmdline && strcasestr(r->cmdline, text)) ||
	       (r->instance && strcasestr(r->instance, text)) ||
	       (r->job && strcasestr(r->job, text));
}

unsigned sort_cgroup_depth(const char *path)
{
	unsigned d = 0;
	for (const char *p = path; p && *p; p++)
		d += *p == '/' && p[1] != '\0';
	return d;
}

/* The parent cgroup's path length: "/a/b" -> 2 ("/a"), "/a" -> 1 ("/"), "/" -> 0. */
static size_t parent_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || (slash == path && path[1] == '\0'))
		return 0;
	return slash == path ? 1 : (size_t)(slash - path);
}

bool sort_folded(const struct sort_spec *spec, pid_t pid)
{
	for (unsigned i = 0; i < spec->nfolded; i++)
		if (spec->folded[i] == pid)
			return true;
	return false;
}

/* Whether two rows are of the same host: this one's, or a fleet's same instance and job. */
static bool same_host(const struct mrow *a, const struct mrow *b)
{
	if (!a->instance || !b->instance)
		return a->instance == b->instance;
	return !strcmp(a->instance, b->instance) &&
	       !strcmp(a->job ? a->job : "", b->job ? b->job : "");
}

/* Each cgroup row's parent among v[0..n) (its path up to the last '/', on its host), or
 * none. Few cgroups hold processes: a search over them is enough. */
static void cgroup_parents(const struct model *m, const unsigned *v, size_t n, unsigned *parent)
{
	for (size_t i = 0; i < n; i++) {
		parent[i] = (unsigned)-1;
		const char *p = m->rows[v[i]].cgroup;
		size_t pl = p ? parent_len(p) : 0;
		for (size_t j = 0; pl && j < n && parent[i] == (unsigned)-1; j++) {
			const char *q = m->rows[v[j]].cgroup;
			if (j != i && q && strlen(q) == pl && strncmp(p, q, pl) == 0 &&
			    same_host(&m->rows[v[i]], &m->rows[v[j]]))
				parent[i] = (unsigned)j;
		}
	}
}

struct pidpos {
	pid_t pid;
	unsigned pos;
};

static int by_pidpos(const void *a, const void *b)
{
	const struct pidpos *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Each process row's parent among v[0..n): the row of its ppid, found by pid. */
static bool process_parents(const struct model *m, const unsigned *v, size_t n, unsigned *parent)
{
	struct pidpos *byp = malloc((n + 1) * sizeof(*byp));
	if (!byp)
		return false;
	for (size_t i = 0; i < n; i++)
		byp[i] = (struct pidpos){m->rows[v[i]].pid, (unsigned)i};
	qsort(byp, n, sizeof(*byp), by_pidpos);
	for (size_t i = 0; i < n; i++) {
		struct pidpos key = {m->rows[v[i]].ppid, 0};
		const struct pidpos *f = key.pid > 0 && key.pid != m->rows[v[i]].pid
						 ? bsearch(&key, byp, n, sizeof(*byp), by_pidpos)
						 : NULL;
		parent[i] = f ? f->pos : (unsigned)-1;
	}
	free(byp);
	return true;
}

/* Rows (sorted in v[0..*n)) as a tree: each row followed by its children, which keep
 * their sorted order among themselves; a row whose parent is not shown (filtered out)
 * is a root. Cgroup rows by path, process rows by ppid, and then a folded process's
 * subtree is left out (*n shrinks). Returns false when out of memory (v is left sorted
 * flat). */
static bool tree_order(const struct model *m, const struct sort_spec *spec, unsigned *v, size_t *n_)
{
	size_t n = *n_;
	unsigned *parent = malloc((4 * n + 1) * sizeof(*parent));
	unsigned *res = malloc((n + 1) * sizeof(*res));
	bool cg = n && m->rows[v[0]].kind == ROW_CGROUP;
	if (!parent || !res ||
	    (cg ? (cgroup_parents(m, v, n, parent), false) : !process_parents(m, v, n, parent))) {
		free(parent);
		free(res);
		return false;
	}
	unsigned *first = parent + n, *next = first + n, *stack = next + n, none = (unsigned)-1;
	for (size_t i = 0; i < n; i++)
		first[i] = next[i] = none;
	/* Children lists in sorted order: built from the back. A cycle (pid reuse can make
	 * one: a parent whose ppid is its own child's) is cut at its first member. */
	for (size_t i = n; i-- > 0;)
		if (parent[i] != none) {
			unsigned a = parent[i];
			size_t steps = 0;
			while (a != none && a != i && steps++ < n)
				a = parent[a];
			if (a == i) {
				parent[i] = none;
				continue;
			}
			next[i] = first[parent[i]];
			first[parent[i]] = (unsigned)i;
		}
	/* Roots in sorted order, those that exited (their parent gone before them) after
	 * the living: pushed first, they pop last. */
	size_t sp = 0, out = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = n; i-- > 0;)
			if (parent[i] == none && m->rows[v[i]].exited == (pass == 0))
				stack[sp++] = (unsigned)i;
	while (sp) {
		unsigned k = stack[--sp];
		res[out++] = v[k];
		if (!cg && sort_folded(spec, m->rows[v[k]].pid))
			continue;
		/* Children pushed, then turned round: the first pops first. */
		size_t mark = sp;
		for (unsigned c = first[k]; c != none; c = next[c])
			stack[sp++] = c;
		for (size_t a = mark, b = sp; a + 1 < b; a++, b--) {
			unsigned t = stack[a];
			stack[a] = stack[b - 1];
			stack[b - 1] = t;
		}
	}
	memcpy(v, res, out * sizeof(*v));
	*n_ = out;
	free(res);
	free(parent);
	return true;
}

size_t sort_rows_r(const struct model *m, const struct sort_spec *spec, unsigned *idx,
		   unsigned *scratch, double *keys)
{
	struct sort_ctx c = {m, spec, keys, spec->col && column_is_numeric(spec->col)};
	if (c.numeric)
		make_keys(m, spec->col, keys);
	unsigned *procs = scratch, *tmp = scratch + m->nrows;
	/* Processes, and the start of each process's threads (they follow it in rows). */
	size_t np = 0;
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].kind != ROW_THREAD && wanted(m, spec, &m->rows[i]))
			procs[np++] = i;
	msort(&c, procs, tmp, np);
	bool cgroups = np > 0;
	for (size_t p = 0; p < np && cgroups; p++)
		cgroups = m->rows[procs[p]].kind == ROW_CGROUP;
	if (cgroups || (spec->tree && np > 0 && m->rows[procs[0]].kind == ROW_PROC))
		tree_order(m, spec, procs, &np);

	size_t n = 0;
	for (size_t p = 0; p < np; p++) {
		unsigned i = procs[p];
		idx[n++] = i;
		size_t first = n;
		for (unsigned t = i + 1; t < m->nrows && m->rows[t].kind == ROW_THREAD; t++)
			if (!spec->hide_exited || !m->rows[t].exited)
				idx[n++] = t;
		if (spec->fold_single && n - first == 1)
			n = first; /* its one thread is the process row itself */
		msort(&c, idx + first, tmp, n - first);
	}
	return n;
}

size_t sort_rows(const struct model *m, const struct sort_spec *spec, unsigned *idx)
{
	unsigned *scratch = malloc((2 * (size_t)m->nrows + 1) * sizeof(*scratch));
	double *keys = malloc(((size_t)m->nrows + 1) * sizeof(*keys));
	size_t n = scratch && keys ? sort_rows_r(m, spec, idx, scratch, keys) : 0;
	free(scratch);
	free(keys);
	return n;
}
