/* Cgroup rows from process rows (cgrows.h). */
#include "cgrows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_name.h"
#include "rowsum.h"

struct node {
	const char *path; /* interned */
	unsigned depth;
	unsigned nprocs;
	long own; /* its index in the model's cg_rows, or -1 */
	char name[96];
};

struct cgrows {
	struct cgroup_names *names;
	struct node *node;
	size_t nnode, cap;
	struct rowsum_part *parts; /* cap * nevents */
	struct val_delta *gsum;	   /* cap * ngroups */
	size_t *order;
	struct mstore rows;
	unsigned nevents, ngroups;
};

struct cgrows *cgrows_new(void)
{
	struct cgrows *c = calloc(1, sizeof(*c));
	if (c && !(c->names = cgroup_names_new())) {
		free(c);
		return NULL;
	}
	return c;
}

void cgrows_free(struct cgrows *c)
{
	if (!c)
		return;
	cgroup_names_free(c->names);
	free(c->node);
	free(c->parts);
	free(c->gsum);
	free(c->order);
	mstore_free(&c->rows);
	free(c);
}

static bool grow(struct cgrows *c)
{
	size_t cap = c->cap ? 2 * c->cap : 32;
	struct node *nd = realloc(c->node, cap * sizeof(*nd));
	if (nd)
		c->node = nd;
	struct rowsum_part *p = realloc(c->parts, cap * c->nevents * sizeof(*p) + 1);
	if (p)
		c->parts = p;
	struct val_delta *g = realloc(c->gsum, cap * c->ngroups * sizeof(*g) + 1);
	if (g)
		c->gsum = g;
	size_t *o = realloc(c->order, cap * sizeof(*o));
	if (o)
		c->order = o;
	if (!nd || !p || !g || !o)
		return false;
	c->cap = cap;
	return true;
}

/* The node of path (interned), made when new. Few cgroups hold processes: a linear
 * search over pointers is enough. */
static long node_of(struct cgrows *c, const char *path)
{
	for (size_t i = 0; i < c->nnode; i++)
		if (c->node[i].path == path)
			return (long)i;
	if (c->nnode == c->cap && !grow(c))
		return -1;
	struct node *nd = &c->node[c->nnode];
	memset(nd, 0, sizeof(*nd));
	nd->path = path;
	nd->own = -1;
	for (const char *s = path; *s; s++)
		nd->depth += *s == '/' && s[1];
	cgroup_name(path, nd->name, sizeof(nd->name));
	memset(c->parts + c->nnode * c->nevents, 0, c->nevents * sizeof(*c->parts));
	memset(c->gsum + c->nnode * c->ngroups, 0, c->ngroups * sizeof(*c->gsum));
	return (long)c->nnode++;
}

static void add_row(struct cgrows *c, const struct model *m, size_t k, const struct mrow *r)
{
	c->node[k].nprocs++;
	rowsum_add(m, r, c->parts + k * c->nevents, c->gsum + k * c->ngroups);
}

/* Paths in tree order: '/' sorts before every other byte. */
static int tree_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	int x = *a == '/' ? 1 : *a ? (unsigned char)*a + 1 : 0;
	int y = *b == '/' ? 1 : *b ? (unsigned char)*b + 1 : 0;
	return x - y;
}

static const struct cgrows *sort_ctx;

static int order_cmp(const void *a, const void *b)
{
	return tree_cmp(sort_ctx->node[*(const size_t *)a].path,
			sort_ctx->node[*(const size_t *)b].path);
}

static unsigned long path_hash(const char *s)
{
	unsigned long h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

const struct mrow *cgrows_build(struct cgrows *c, const struct model *m, unsigned *n)
{
	*n = 0;
	if (c->nevents != m->nevents || c->ngroups != m->ngroups) {
		free(c->parts);
		free(c->gsum);
		c->parts = NULL;
		c->gsum = NULL;
		c->cap = 0;
		c->nevents = m->nevents;
		c->ngroups = m->ngroups;
	}
	c->nnode = 0;
	char path[4096];
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct mrow *r = &m->rows[i];
		if (r->kind != ROW_PROC || !r->cgroup)
			continue;
		/* The process's cgroup and each ancestor, up to the root. */
		snprintf(path, sizeof(path), "%s", r->cgroup);
		for (;;) {
			const char *in = cgroup_names_intern(c->names, *path ? path : "/");
			long k = in ? node_of(c, in) : -1;
			if (k < 0)
				return NULL;
			add_row(c, m, (size_t)k, r);
			char *slash = strrchr(path, '/');
			if (!slash || !path[1])
				break;
			*slash = '\0';
		}
	}
	/* Cgroups the source counted itself: their counts stand, with or without a process
	 * row in them this tick. */
	for (unsigned i = 0; i < m->ncg_rows; i++) {
		const struct mrow *r = &m->cg_rows[i];
		const char *in = r->cgroup ? cgroup_names_intern(c->names, r->cgroup) : NULL;
		long k = in ? node_of(c, in) : -1;
		if (k < 0)
			return NULL;
		c->node[k].own = (long)i;
	}
	for (size_t i = 0; i < c->nnode; i++)
		c->order[i] = i;
	sort_ctx = c;
	if (c->nnode)
		qsort(c->order, c->nnode, sizeof(*c->order), order_cmp);
	if (mstore_reserve(&c->rows, c->nnode, m->nevents, m->ngroups) < 0)
		return NULL;
	for (size_t i = 0; i < c->nnode; i++) {
		size_t k = c->order[i];
		struct mrow_w w = mstore_row(&c->rows, i);
		w.r->kind = ROW_CGROUP;
		/* No pid: a stable number from the path, for the screen to follow the row. */
		w.r->pid = w.r->tid = (pid_t)(path_hash(c->node[k].path) & 0x7fffffff);
		w.r->comm = c->node[k].name;
		w.r->cgroup = c->node[k].path;
		w.r->user = "";
		w.r->nthreads = c->node[k].nprocs;
		if (c->node[k].own >= 0) {
			const struct mrow *own = &m->cg_rows[c->node[k].own];
			memcpy(w.v, own->v, m->nevents * sizeof(*w.v));
			memcpy(w.g, own->g, m->ngroups * sizeof(*w.g));
			continue;
		}
		const struct val_delta *g = c->gsum + k * m->ngroups;
		for (unsigned e = 0; e < m->nevents; e++)
			w.v[e] = rowsum_val(&c->parts[k * m->nevents + e], &g[m->events[e].group]);
		memcpy(w.g, g, m->ngroups * sizeof(*g));
	}
	*n = (unsigned)c->nnode;
	return c->rows.rows;
}

void cgrows_add(struct cgrows *c, const char *path, unsigned ev, double n)
{
	if (ev >= c->nevents)
		return;
	for (size_t i = 0; i < c->nnode; i++) {
		const char *p = c->node[c->order[i]].path;
		size_t len = strlen(p);
		bool anc = strcmp(p, "/") == 0 ||
			   (strncmp(path, p, len) == 0 && (path[len] == '/' || !path[len]));
		struct mrow_w w = mstore_at(&c->rows, i);
		if (anc && val_has_number(w.v[ev]))
			w.v[ev].v += n;
	}
}
