/* One target's groups, opened, read and summed, and a row's values written from them:
 * what the perf path's tasks, every source's CPUs and the cgroups counted per CPU share. */
#include "srcbase.h"

#include <errno.h>
#include <string.h>

#include "hybrid.h"

enum val_why srcbase_why(enum ev_status st)
{
	switch (st) {
	case EVS_OK:
		return WHY_NONE;
	case EVS_UNSUPPORTED:
		return WHY_UNSUPPORTED;
	case EVS_NOPERM:
		return WHY_NOPERM;
	case EVS_NOFD:
		return WHY_FDLIMIT;
	case EVS_NOTASK:
		return WHY_GONE;
	case EVS_INVALID:
		return WHY_INVALID;
	case EVS_NOFIT:
		return WHY_NOFIT;
	case EVS_KERNEL_ONLY:
		return WHY_KERNEL_ONLY;
	default:
		return WHY_ERROR;
	}
}

int srcbase_open_group(struct srcbase *b, unsigned g, struct evgroup_opts *o, struct counts *c)
{
	const struct mgroup *mg = &b->set->groups[g];
	o->user_only = b->o.user_only;
	o->no_kernel = b->o.no_kernel;
	o->preset = b->set->preset[g];
	c->idle = c->d_zero = false;
	int err = evgroup_open(&b->set->specs.g[g], o, &c->grp[g]);
	memset(c->prev + b->slot[g], 0, (2 + mg->n) * sizeof(*c->prev));
	for (unsigned k = 0; k < mg->n; k++) {
		c->why[mg->first + k] =
			c->grp[g] ? (uint8_t)srcbase_why(evgroup_status(c->grp[g], k)) : WHY_ERROR;
		c->d[mg->first + k] = (struct val_delta){0, 0, 0};
	}
	if (c->grp[g] && evgroup_open_count(c->grp[g]) == 0) {
		evgroup_free(c->grp[g]);
		c->grp[g] = NULL;
	}
	c->fresh[g] = c->grp[g] ? FRESH_OPENED : FRESH_NO;
	return err == -ESRCH || err == -EMFILE || err == -ENFILE ? err : 0;
}

static int open_cpu_wide(struct srcbase *b, unsigned g, int pid, int cpu, bool cgroup,
			 struct counts *c)
{
	struct evgroup_opts o = {
		.pid = pid, .cgroup = cgroup, .cpu = cpu, .inherit_thread = !b->o.inherit};
	return srcbase_open_group(b, g, &o, c);
}

int srcbase_open_target(struct srcbase *b, int pid, int cpu, bool cgroup, struct counts *c)
{
	int ret = 0;
	for (unsigned g = 0; g < srcbase_ngroups(b); g++) {
		int err = open_cpu_wide(b, g, pid, cpu, cgroup, c);
		if (err)
			ret = err;
		if (err == -ESRCH)
			break;
	}
	return ret;
}

void srcbase_open_new(struct srcbase *b, const int *gmap, int pid, int cpu, bool cgroup,
		      struct counts *c)
{
	for (unsigned g = 0; g < srcbase_ngroups(b); g++)
		if (gmap[g] < 0)
			open_cpu_wide(b, g, pid, cpu, cgroup, c);
}

bool srcbase_group_hw(const struct srcbase *b, unsigned g)
{
	const struct evgroup_spec *gs = &b->set->specs.g[g];
	for (unsigned k = 0; k < gs->n; k++)
		if (!gs->ev[k].software)
			return true;
	return false;
}

void srcbase_reopen_hw(struct srcbase *b, struct counts *c, int pid, int cpu, bool cgroup)
{
	for (unsigned g = 0; g < srcbase_ngroups(b); g++) {
		if (!srcbase_group_hw(b, g) || b->gdead[g])
			continue;
		if (c->grp[g]) {
			evgroup_free(c->grp[g]);
			c->grp[g] = NULL;
		}
		open_cpu_wide(b, g, pid, cpu, cgroup, c);
	}
}

void srcbase_read(struct srcbase *b, struct counts *c)
{
	for (unsigned g = 0; g < srcbase_ngroups(b); g++) {
		if (b->gdead[g] && !c->grp[g])
			continue; /* never opened: its deltas stay 0, its reasons n/a */
		const struct mgroup *mg = &b->set->groups[g];
		struct evread_group r;
		uint64_t *pv = c->prev + b->slot[g];
		int err = c->grp[g] ? evgroup_read(c->grp[g], &r) : -ENODATA;
		for (unsigned k = 0; k < mg->n; k++) {
			unsigned ev = mg->first + k;
			if (err || c->why[ev] != WHY_NONE) {
				c->d[ev] = (struct val_delta){0, 0, 0};
				if (err && c->why[ev] == WHY_NONE)
					c->why[ev] = WHY_ERROR;
				continue;
			}
			/* Unsigned differences: a counter that wraps still gives the right delta.
			 */
			c->d[ev].ena = r.ena - pv[0];
			c->d[ev].run = r.run - pv[1];
			c->d[ev].val = r.val[k] - pv[2 + k];
			pv[2 + k] = r.val[k];
		}
		if (!err) {
			pv[0] = r.ena;
			pv[1] = r.run;
			c->fresh[g] = c->fresh[g] == FRESH_OPENED ? FRESH_FIRST_READ : FRESH_NO;
		}
	}
	if (b->logical)
		hybrid_fold(b->set->events, b->set->nevents, c->d, c->why);
}

void srcbase_acc_clear(struct srcbase *b)
{
	unsigned ne = b->set->nevents;
	memset(b->acc, 0, ne * sizeof(*b->acc));
	memset(b->acc_ok, 0, ne * sizeof(*b->acc_ok));
	memset(b->acc_miss, 0, ne * sizeof(*b->acc_miss));
	memset(b->acc_why, WHY_GONE, ne);
	memset(b->acc_fresh, FRESH_FIRST_READ, srcbase_ngroups(b));
}

/* A part that should have counted and could not (out of descriptors, a failed read):
 * the sum is then partial. Not a part left to others (a watched thread's groups its roots
 * count, a root's hardware groups: WHY_GONE), nor an event this machine lacks. */
static bool part_missing(uint8_t why)
{
	return why == WHY_FDLIMIT || why == WHY_NOFIT || why == WHY_ERROR;
}

void srcbase_acc_add(struct srcbase *b, const struct counts *c, const uint8_t *gsel, int sel)
{
	for (unsigned i = 0; i < b->nlive; i++) {
		unsigned ev = b->live[i];
		unsigned g = b->set->events[ev].group;
		if (gsel && gsel[g] != sel)
			continue;
		if (c->why[ev] != WHY_NONE) {
			if (!b->acc_ok[ev])
				b->acc_why[ev] = c->why[ev];
			if (part_missing(c->why[ev]) && !b->acc_miss[ev]++)
				b->acc_miss_why[ev] = c->why[ev];
			continue;
		}
		/* A sum is fresh where every part that counts is: a new thread's first counts
		 * belong in its process's interval, a new process's alone do not. */
		if (c->fresh[g] != FRESH_FIRST_READ)
			b->acc_fresh[g] = FRESH_NO;
		b->acc_ok[ev]++;
		b->acc_why[ev] = WHY_NONE;
		b->acc[ev].ena += c->d[ev].ena;
		b->acc[ev].run += c->d[ev].run;
		b->acc[ev].val += c->d[ev].val;
	}
}

void srcbase_fill(struct srcbase *b, const struct val_delta *d, const uint8_t *why,
		  const uint8_t *fresh, struct val *v, struct val_delta *gd, bool live)
{
	if (live && b->set->core) {
		hybrid_residency(b->set->groups, b->set->core, srcbase_ngroups(b), d, why,
				 b->res_ena);
		for (unsigned ev = 0; ev < b->set->nevents; ev++) {
			b->res_d[ev] = d[ev];
			if (!b->set->events[ev].logical)
				b->res_d[ev].ena = b->res_ena[b->set->events[ev].group];
		}
		d = b->res_d;
	}
	rowfill(&b->fill, d, why, fresh, v, gd, live);
}

int srcbase_open_cgroup(struct srcbase *b, int dirfd, struct counts *cnt)
{
	for (int c = 0; c < b->cpu.n; c++) {
		if (counts_alloc(&cnt[c], &b->l))
			return -ENOMEM;
		int err = srcbase_open_target(b, dirfd, b->cpu.id[c], true, &cnt[c]);
		if (err == -EMFILE || err == -ENFILE)
			return err;
	}
	return 0;
}

void srcbase_count_cgroup(struct srcbase *b, struct counts *cnt, struct mrow_w w)
{
	srcbase_acc_clear(b);
	for (int c = 0; c < b->cpu.n; c++) {
		srcbase_read(b, &cnt[c]);
		srcbase_acc_add(b, &cnt[c], NULL, -1);
	}
	srcbase_fill(b, b->acc, b->acc_why, b->acc_fresh, w.v, w.g, false);
}
