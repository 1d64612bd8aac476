/* A watched command's tree (cmdtree.c) counted, for its rows, by the kernel's own
 * per-task accounting instead of a group per task: for a group all of whose events are
 * context switches or page faults, which /proc gives per thread to the count
 * (procfs_task_acct), the command's roots alone hold perf counters (its total row), so the
 * tree's perf contexts stay clones of one another and a switch costs what perf stat's
 * does. Such a group on a task holds no descriptor: its values are /proc's, read each
 * tick into the same deltas a group's read gives (the time since the last read as its
 * time enabled and running: never scaled). */
#include "engine_priv.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "procfs.h"
#include "tasktab.h"

enum acct_field { ACCT_NONE, ACCT_SWITCHES, ACCT_FAULTS, ACCT_MIN, ACCT_MAJ };

/* Which of the task's accounting fields the event equals, or ACCT_NONE. Not migrations:
 * sched's se.nr_migrations counts every move of the task, perf one as it switches in
 * after one or more (two moves before it ran read 2 against perf's 1: under load, as
 * often as one wake in two). */
static enum acct_field field_of(const struct evdesc *d)
{
	const struct perf_event_attr *a = &d->attr;
	if (a->type != PERF_TYPE_SOFTWARE || a->exclude_user || a->exclude_kernel ||
	    a->exclude_hv || a->exclude_idle)
		return ACCT_NONE;
	switch (a->config) {
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		return ACCT_SWITCHES;
	case PERF_COUNT_SW_PAGE_FAULTS:
		return ACCT_FAULTS;
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
		return ACCT_MIN;
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
		return ACCT_MAJ;
	default:
		return ACCT_NONE;
	}
}

bool procacct_group(const struct engine *e, unsigned g)
{
	if (!e->ctree || e->b.logical)
		return false;
	const struct evgroup_spec *s = &e->b.set->specs.g[g];
	for (unsigned k = 0; k < s->n; k++)
		if (field_of(&s->ev[k]) == ACCT_NONE)
			return false;
	return s->n > 0;
}

bool procacct_counting(const struct engine *e, const struct counts *c, unsigned g)
{
	if (c->grp[g] || !procacct_group(e, g))
		return false;
	const struct mgroup *mg = &e->b.set->groups[g];
	for (unsigned k = 0; k < mg->n; k++)
		if (c->why[mg->first + k] == WHY_NONE)
			return true;
	return false;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t value_of(enum acct_field f, const struct procfs_acct *a)
{
	switch (f) {
	case ACCT_SWITCHES:
		return a->switches;
	case ACCT_FAULTS:
		return a->minflt + a->majflt;
	case ACCT_MIN:
		return a->minflt;
	default:
		return a->majflt;
	}
}

/* Task tid's accounting now (or fin's, the values it ended with), when it is still the
 * task that started at start (0: the first read, any): 0, -ESRCH, -errno. */
static int read_acct(struct engine *e, pid_t tid, uint64_t start, const struct procfs_acct *fin,
		     struct procfs_acct *a)
{
	int err = procfs_task_acct_of(e->b.o.root, tid, tid, start, a);
	if (err == -ESRCH && fin)
		*a = *fin;
	else if (err)
		return err;
	/* An ended task's last switch, out of the CPU for good (do_task_dead), comes after
	 * its perf events ended (perf_event_exit_task): not one perf counts. */
	if (a->dead && a->switches)
		a->switches--;
	return 0;
}

/* Group g from the task's accounting a into c's last reads (prev: the time of the read,
 * when the task started, its values) or, with delta, as this interval's deltas too. */
static void take(struct engine *e, unsigned g, const struct procfs_acct *a, struct counts *c,
		 bool delta)
{
	const struct evgroup_spec *s = &e->b.set->specs.g[g];
	const struct mgroup *mg = &e->b.set->groups[g];
	uint64_t *pv = c->prev + e->b.slot[g], t = now_ns();
	for (unsigned k = 0; k < s->n; k++) {
		unsigned ev = mg->first + k;
		uint64_t v = value_of(field_of(&s->ev[k]), a);
		if (delta)
			c->d[ev] = (struct val_delta){t - pv[0], t - pv[0], v - pv[2 + k]};
		pv[2 + k] = v;
	}
	pv[0] = t;
	pv[1] = a->start_ticks;
}

int procacct_open(struct engine *e, unsigned g, pid_t tid, struct counts *c)
{
	const struct mgroup *mg = &e->b.set->groups[g];
	memset(c->why + mg->first, WHY_NONE, mg->n);
	struct procfs_acct a;
	int err = read_acct(e, tid, 0, NULL, &a);
	if (!err)
		take(e, g, &a, c, false);
	if (err) {
		memset(c->why + mg->first, WHY_GONE, mg->n);
		return err == -ESRCH ? -ESRCH : 0;
	}
	c->fresh[g] = FRESH_OPENED;
	c->idle = false;
	return 0;
}

void procacct_read(struct engine *e, struct task *t)
{
	struct counts *c = &t->c;
	struct procfs_acct a;
	int err = 1; /* not read yet: read once for every group it gives */
	for (unsigned g = 0; g < engine_ngroups(e); g++) {
		const struct mgroup *mg = &e->b.set->groups[g];
		if (c->grp[g] || e->b.gdead[g] || !procacct_group(e, g) ||
		    targets_lean_task(e, t->proc, g))
			continue;
		/* A tid reused since the last read is another task's: not this one's. */
		if (err > 0)
			err = read_acct(e, t->tid, c->prev[e->b.slot[g] + 1],
					t->have_final ? &t->final : NULL, &a);
		if (err == 0) {
			take(e, g, &a, c, true);
			memset(c->why + mg->first, WHY_NONE, mg->n);
			c->fresh[g] = c->fresh[g] == FRESH_OPENED ? FRESH_FIRST_READ : FRESH_NO;
			continue;
		}
		/* Gone before this read: what it counted since the last one is not known. */
		for (unsigned k = 0; k < mg->n; k++)
			c->d[mg->first + k] = (struct val_delta){0, 0, 0};
		memset(c->why + mg->first, WHY_GONE, mg->n);
	}
}

/* When the task its accounting groups were opened on started (0: none open, or not
 * said). */
static uint64_t task_start(const struct engine *e, const struct task *t)
{
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		if (!t->c.grp[g] && procacct_group(e, g) && t->c.prev[e->b.slot[g] + 1])
			return t->c.prev[e->b.slot[g] + 1];
	return 0;
}

void procacct_final(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next)
		for (struct task *t = p->tree ? p->threads : NULL; t; t = t->sibling) {
			struct procfs_acct a;
			if (t->state == TASK_EXITED || t->have_final ||
			    procfs_task_acct_of(e->b.o.root, p->pid, t->tid, task_start(e, t),
						&a) != 0 ||
			    !a.dead)
				continue;
			t->final = a;
			t->have_final = true;
		}
}
