/* Chained hash tables of tasks and processes. Allocation happens when a task is first
 * seen, never in the steady-state tick. */
#include "tasktab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct tasktab {
	struct counts_layout l;
	unsigned ntasks, nprocs;
	unsigned tbits, pbits;
	struct task **th;
	struct proc **ph;
	struct proc *first, *last;
};

static unsigned hash(pid_t id, unsigned bits)
{
	return (unsigned)(((uint32_t)id * 2654435761u) >> (32 - bits));
}

struct tasktab *tasktab_new(const struct counts_layout *l)
{
	struct tasktab *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->l = *l;
	t->tbits = t->pbits = 10;
	t->th = calloc(1u << t->tbits, sizeof(*t->th));
	t->ph = calloc(1u << t->pbits, sizeof(*t->ph));
	if (!t->th || !t->ph) {
		tasktab_free(t);
		return NULL;
	}
	return t;
}

struct task *tasktab_find(const struct tasktab *t, pid_t tid)
{
	for (struct task *k = t->th[hash(tid, t->tbits)]; k; k = k->hnext)
		if (k->tid == tid)
			return k;
	return NULL;
}

struct proc *tasktab_find_proc(const struct tasktab *t, pid_t pid)
{
	for (struct proc *p = t->ph[hash(pid, t->pbits)]; p; p = p->hnext)
		if (p->pid == pid)
			return p;
	return NULL;
}

/* Keep chains short: double a table when it holds twice as many entries as buckets. */
static void grow_tasks(struct tasktab *t)
{
	unsigned bits = t->tbits + 1;
	struct task **nh = calloc(1u << bits, sizeof(*nh));
	if (!nh)
		return;
	for (unsigned i = 0; i < 1u << t->tbits; i++) {
		for (struct task *k = t->th[i], *n; k; k = n) {
			n = k->hnext;
			unsigned b = hash(k->tid, bits);
			k->hnext = nh[b];
			nh[b] = k;
		}
	}
	free(t->th);
	t->th = nh;
	t->tbits = bits;
}

static void grow_procs(struct tasktab *t)
{
	unsigned bits = t->pbits + 1;
	struct proc **nh = calloc(1u << bits, sizeof(*nh));
	if (!nh)
		return;
	for (unsigned i = 0; i < 1u << t->pbits; i++) {
		for (struct proc *p = t->ph[i], *n; p; p = n) {
			n = p->hnext;
			unsigned b = hash(p->pid, bits);
			p->hnext = nh[b];
			nh[b] = p;
		}
	}
	free(t->ph);
	t->ph = nh;
	t->pbits = bits;
}

static int proc_alloc_tot(struct proc *p, unsigned nevents)
{
	void *blk = calloc(1, nevents * (2 * sizeof(struct val_delta) + 1) + 1);
	if (!blk)
		return -ENOMEM;
	p->tot = blk;
	p->tot_parts = p->tot + nevents;
	p->tot_why = (uint8_t *)(p->tot_parts + nevents);
	memset(p->tot_why, WHY_GONE, nevents);
	return 0;
}

static struct proc *proc_add(struct tasktab *t, pid_t pid)
{
	struct proc *p = calloc(1, sizeof(*p));
	if (!p || proc_alloc_tot(p, t->l.nevents)) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	unsigned b = hash(pid, t->pbits);
	p->hnext = t->ph[b];
	t->ph[b] = p;
	p->prevp = t->last;
	if (t->last)
		t->last->next = p;
	else
		t->first = p;
	t->last = p;
	if (++t->nprocs > 2u << t->pbits)
		grow_procs(t);
	return p;
}

static void proc_remove(struct tasktab *t, struct proc *p)
{
	struct proc **pp = &t->ph[hash(p->pid, t->pbits)];
	while (*pp != p)
		pp = &(*pp)->hnext;
	*pp = p->hnext;
	if (p->prevp)
		p->prevp->next = p->next;
	else
		t->first = p->next;
	if (p->next)
		p->next->prevp = p->prevp;
	else
		t->last = p->prevp;
	t->nprocs--;
	tasktab_drop_roots(t, p);
	free(p->tot);
	free(p->cmdline);
	free(p);
}

struct root *tasktab_add_root(struct tasktab *t, struct proc *p, pid_t tid)
{
	struct root *nr = realloc(p->roots, (p->nroots + 1) * sizeof(*nr));
	if (!nr)
		return NULL;
	p->roots = nr;
	struct root *r = &nr[p->nroots];
	memset(r, 0, sizeof(*r));
	if (counts_alloc(&r->c, &t->l))
		return NULL;
	r->tid = tid;
	r->state = ROOT_LIVE;
	p->nroots++;
	return r;
}

void tasktab_drop_roots(struct tasktab *t, struct proc *p)
{
	for (unsigned i = 0; i < p->nroots; i++)
		counts_free(&p->roots[i].c, &t->l);
	free(p->roots);
	p->roots = NULL;
	p->nroots = 0;
}

struct task *tasktab_add(struct tasktab *t, pid_t pid, pid_t tid)
{
	struct proc *p = tasktab_find_proc(t, pid);
	if (!p && !(p = proc_add(t, pid)))
		return NULL;
	struct task *k = calloc(1, sizeof(*k));
	if (!k || counts_alloc(&k->c, &t->l)) {
		free(k);
		if (!p->threads && !p->keep)
			proc_remove(t, p);
		return NULL;
	}
	k->tid = tid;
	k->proc = p;
	/* Threads in the order they were found: the main thread first. */
	struct task **tail = &p->threads;
	while (*tail)
		tail = &(*tail)->sibling;
	*tail = k;
	p->nthreads++;
	p->exited = false;
	unsigned b = hash(tid, t->tbits);
	k->hnext = t->th[b];
	t->th[b] = k;
	if (++t->ntasks > 2u << t->tbits)
		grow_tasks(t);
	return k;
}

void tasktab_remove(struct tasktab *t, struct task *k)
{
	struct task **pp = &t->th[hash(k->tid, t->tbits)];
	while (*pp != k)
		pp = &(*pp)->hnext;
	*pp = k->hnext;
	struct proc *p = k->proc;
	for (pp = &p->threads; *pp != k; pp = &(*pp)->sibling)
		;
	*pp = k->sibling;
	p->nthreads--;
	counts_free(&k->c, &t->l);
	free(k);
	t->ntasks--;
	if (!p->threads && !p->keep)
		proc_remove(t, p);
	else if (!p->threads)
		p->exited = true;
}

const struct counts_layout *tasktab_layout(const struct tasktab *t)
{
	return &t->l;
}

int tasktab_set_layout(struct tasktab *t, const struct counts_layout *l, const int *old_of_new)
{
	for (struct proc *p = t->first; p; p = p->next) {
		struct proc n = *p;
		if (proc_alloc_tot(&n, l->nevents))
			return -ENOMEM;
		for (unsigned i = 0; i < l->nevents; i++) {
			if (old_of_new[i] < 0)
				continue;
			n.tot[i] = p->tot[old_of_new[i]];
			n.tot_parts[i] = p->tot_parts[old_of_new[i]];
			n.tot_why[i] = p->tot_why[old_of_new[i]];
		}
		free(p->tot);
		p->tot = n.tot;
		p->tot_parts = n.tot_parts;
		p->tot_why = n.tot_why;
		p->tot_clean = false; /* until the next full sum says so */
	}
	t->l = *l;
	return 0;
}

struct proc *tasktab_first(const struct tasktab *t)
{
	return t->first;
}

unsigned tasktab_tasks(const struct tasktab *t)
{
	return t->ntasks;
}

unsigned tasktab_procs(const struct tasktab *t)
{
	return t->nprocs;
}

void tasktab_free(struct tasktab *t)
{
	if (!t)
		return;
	/* Everything goes: no need to keep the hash chains consistent on the way. */
	for (struct proc *p = t->first, *pn; p; p = pn) {
		pn = p->next;
		for (struct task *k = p->threads, *kn; k; k = kn) {
			kn = k->sibling;
			counts_free(&k->c, &t->l);
			free(k);
		}
		tasktab_drop_roots(t, p);
		free(p->tot);
		free(p->cmdline);
		free(p);
	}
	free(t->th);
	free(t->ph);
	free(t);
}
