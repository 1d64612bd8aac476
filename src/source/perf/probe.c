/* Reads, and the probe that lets a task that did not run skip them. */
#include "engine_priv.h"

#include "evgroup.h"
#include "hybrid.h"
#include "tasktab.h"

static uint32_t seq_load(const volatile uint32_t *seq)
{
#if defined(__GNUC__)
	return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
#else
	return *seq;
#endif
}

/* The probe's page count, if mapped. */
const volatile uint32_t *probe_seq(const struct engine *e, const struct counts *c)
{
	return e->probe_g >= 0 && c->grp[e->probe_g] ? evgroup_probe_seq(c->grp[e->probe_g]) : NULL;
}

/* Has the task run since its last full read? With its probe's page mapped, the kernel
 * says without a syscall: the page is rewritten whenever the task is scheduled in, so
 * a count unchanged since before a read that found the task idle (so not on a CPU)
 * means it has not been since. Without it, one read of the leader: value and time
 * enabled unchanged. Such a read, with the count taken before it, starts the count's
 * watch as well as a full read does: the page is mapped at the task's first probe. */
static bool has_run(const struct engine *e, struct counts *c)
{
	if (c->probe_seq)
		return seq_load(c->probe_seq) != c->probe_lock;
	const volatile uint32_t *seq = NULL;
	if (e->map_probe && evgroup_map_probe(c->grp[e->probe_g]) == 0)
		seq = probe_seq(e, c);
	uint32_t lock = seq ? seq_load(seq) : 0;
	uint64_t v, ena;
	if (evgroup_probe_read(c->probe_fd, &v, &ena) != 0 || v != c->probe_val ||
	    ena != c->probe_ena)
		return true;
	c->probe_seq = seq;
	c->probe_lock = lock;
	return false;
}

/* A task that did not run in the last interval is asked first whether it has run since
 * (has_run): a look at its probe's page, or one read of its task-clock leader, and
 * nothing else while it sleeps, whatever the number of groups. Every event of a task
 * counts only while it is on a CPU: not having run means every delta is 0, exactly
 * what reading them all would have said. A task that ran is read in full and not
 * probed on the next tick, so a busy task costs no more than one read per group. */
static bool still_idle(struct engine *e, struct task *t)
{
	struct counts *c = &t->c;
	if (!c->idle || t->state != TASK_LIVE || has_run(e, c))
		return false;
	if (c->d_zero)
		return true; /* asleep the interval before too: d is as it was */
	/* Every delta 0: the dead events' are already, so only the others are written. */
	for (unsigned i = 0; i < e->b.nlive; i++)
		c->d[e->b.live[i]] = (struct val_delta){0, 0, 0};
	if (e->b.logical)
		hybrid_fold(e->b.set->events, e->b.set->nevents, c->d,
			    c->why); /* the sums' reasons, as a read sets them */
	c->d_zero = true;
	return true;
}

/* After a full read: whether the task can be probed next tick, and what the probe must
 * find for it to have slept (seq and lock: the mapped count, and its value before the
 * read). Not before a group's first read has set its baseline, nor while the task-clock
 * is missing. */
static void mark_idle(const struct engine *e, struct counts *c, const volatile uint32_t *seq,
		      uint32_t lock)
{
	c->d_zero = false;
	c->idle = false;
	if (e->probe_g < 0 || !c->grp[e->probe_g] || c->why[e->probe_ev] != WHY_NONE ||
	    c->d[e->probe_ev].val != 0 || c->d[e->probe_ev].ena != 0)
		return;
	for (unsigned g = 0; g < engine_ngroups(e); g++)
		if (c->fresh[g] != FRESH_NO)
			return;
	const uint64_t *pv = c->prev + e->b.slot[e->probe_g];
	c->probe_fd = evgroup_probe_fd(c->grp[e->probe_g]);
	c->probe_val = pv[2];
	c->probe_ena = pv[0];
	c->probe_seq = seq;
	c->probe_lock = lock;
	c->idle = c->probe_fd >= 0;
	c->clean = true;
	for (unsigned i = 0; i < e->b.nlive; i++)
		c->clean = c->clean && c->why[e->b.live[i]] == WHY_NONE;
}

void probe_read_tasks(struct engine *e)
{
	for (struct proc *p = tasktab_first(e->tab); p; p = p->next) {
		if (p->ignored)
			continue;
		for (struct task *t = p->threads; t; t = t->sibling) {
			if (t->state == TASK_EXITED || still_idle(e, t))
				continue;
			const volatile uint32_t *seq = probe_seq(e, &t->c);
			uint32_t lock = seq ? seq_load(seq) : 0;
			srcbase_read(&e->b, &t->c);
			if (e->ctree)
				procacct_read(e, t);
			mark_idle(e, &t->c, seq, lock); /* task-clock stood still: probe it next */
			if (t->state == TASK_EXITING) {
				/* Its last values are in: the descriptors can go now. */
				targets_close(e, &t->c);
				t->state = TASK_EXITED;
				e->nexited++;
			}
		}
		if (p->rooted)
			targets_read_roots(e, p);
	}
}

/* The reads an interval counts from: at start-up, and at a resume, where what each
 * group counted while paused goes into the run's totals (the model keeps the rows of the
 * last interval shown); the CPUs and cgroups, which keep no totals, count from here too.
 * Tasks found in a pause are found at the next tick. */
void probe_baseline(struct engine *e, bool resume)
{
	probe_read_tasks(e);
	for (struct proc *p = tasktab_first(e->tab); resume && p; p = p->next) {
		bool all_exited;
		if (!p->ignored && !rowbuild_asleep(e, p))
			rowbuild_sum_proc(e, p, true, &all_exited);
	}
	srcbase_baseline(&e->b);
	cgown_baseline(e);
}
