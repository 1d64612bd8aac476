// SPDX-License-Identifier: GPL-2.0
/* The bpf backend's kernel half: at each context switch, the counters of the CPU (one
 * perf event per CPU per event, opened by bpfcount.c) are read, and what they counted
 * since the CPU's last read goes to the task leaving it, when it is the task the last
 * seen switch brought in (else to no task: pmutop.bpf.h). Where the kernel has the
 * tracepoint at the end of __schedule, a task that arrives there unannounced (brought in
 * by a switch the kernel did not report) has the counters read there: what they counted
 * before goes to no task, and its slice begins whole (on_arrive, attached by the loader
 * once a switch not seen was found, or from the start to measure switch windows: win).
 * fold() does the same for the task
 * on a CPU right now, run there by BPF_PROG_TEST_RUN at each tick (as perf's bperf does),
 * so that running tasks are counted up to the tick. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "pmutop.bpf.h"

#define TASK_DEAD_STATE 0x80
#define PF_KTHREAD_FLAG 0x00200000

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load, all by slot: an event opened on some CPU has one (slots
 * 0..nslot), in the tasks' ev[] and the CPUs' sums; one no CPU could open has none and is
 * never read. nslot bounds every slot read here (the verifier knows it: read-only). The
 * events the kernel counts just after the switch tracepoint (context-switches: the
 * leaving task's own switch), and those read from the counters (live[0..nlive)). */
const volatile unsigned int nslot = 0;
const volatile unsigned char at_switch[PMUTOP_BPF_MAXEV] = {};
const volatile unsigned int nlive = 0;
const volatile unsigned char live[PMUTOP_BPF_MAXEV] = {};
/* Per event: the first live member of its group, whose enabled and running times are
 * every member's (a group is scheduled as one). Only that one's times are read: the
 * others' count alone, which spares a clock read per member at each switch. */
const volatile unsigned char time_of[PMUTOP_BPF_MAXEV] = {};
/* The clock events (task-clock, cpu-clock: clock[0..nclock)), not in live: a task's is
 * the kernel clock over its slices (pmutop.bpf.h: t_in). */
const volatile unsigned int nclock = 0;
const volatile unsigned char clock[PMUTOP_BPF_MAXEV] = {};
/* The live events of groups of software events only (by_clock: timed[0..ntimed)): read
 * without their times, which are the slice's on the kernel clock (a software event on a
 * CPU runs whenever it is enabled), sparing the read of the times at each switch. */
const volatile unsigned int ntimed = 0;
const volatile unsigned char timed[PMUTOP_BPF_MAXEV] = {};
const volatile unsigned char by_clock[PMUTOP_BPF_MAXEV] = {};
/* The events counted from the task's own counters (own[0..nown), not in live), each
 * with its counter (own_kind: PMUTOP_BPF_K_*). */
const volatile unsigned int nown = 0;
const volatile unsigned char own_ev[PMUTOP_BPF_MAXEV] = {};
const volatile unsigned char own_kind[PMUTOP_BPF_MAXEV] = {};
/* A live event read with its times (not by_clock: a hardware group's) and a clock are in
 * the set: the event's count holds the switch that brought the task in, whose time an
 * arrival measures (win, pmutop.bpf.h) for the reader to mark it. */
const volatile unsigned char want_win = 0;

/* The kernel clock at the first switch the program saw: a task born after it (its
 * start_time, the same clock) has its own counters counted from its birth, where they
 * start at zero (a new task's migration before its first switch out is perf -G's). */
unsigned long long t_start = 0;

/* key cpu * nslot + slot; max_entries set by the loader */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
	__uint(max_entries, 1);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct pmutop_bpf_last);
} last SEC(".maps");

/* A zeroed task value to insert (too big for the stack). value_size (as tasks') set by
 * the loader: PMUTOP_BPF_TASK_SIZE(nslot). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(unsigned int));
	__uint(value_size, PMUTOP_BPF_TASK_SIZE(PMUTOP_BPF_MAXEV));
} blank SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PMUTOP_BPF_NSTATS);
	__type(key, unsigned int);
	__type(value, unsigned long long);
} stats SEC(".maps");

/* Preallocated: max_entries set by the loader. When it is full a new task's slices are
 * not counted (stats[PMUTOP_BPF_LOST] says how many). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(unsigned int));
	__uint(value_size, PMUTOP_BPF_TASK_SIZE(PMUTOP_BPF_MAXEV));
} tasks SEC(".maps");

/* The tasks written in each tick, per CPU (pmutop.bpf.h: pmutop_bpf_list); max_entries
 * (the possible CPUs) and list_cap (the room a list has, at most PMUTOP_BPF_LIST) set by
 * the loader, epoch (never 0, a blank entry's) by the reader at each tick. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct pmutop_bpf_list);
} listed SEC(".maps");

const volatile unsigned int list_cap = PMUTOP_BPF_LIST;
unsigned int epoch = 1;

/* Entry tv (of tid) is written: listed on this CPU, the first time in this tick. */
static __always_inline void written(struct pmutop_bpf_task *tv, unsigned int tid)
{
	unsigned int e = *(volatile unsigned int *)&epoch;
	if (tv->epoch == e)
		return;
	unsigned int cpu = bpf_get_smp_processor_id();
	struct pmutop_bpf_list *l = bpf_map_lookup_elem(&listed, &cpu);
	if (!l)
		return;
	tv->epoch = e;
	unsigned int p = e & 1;
	if (l->tag[p] != e) {
		l->tag[p] = e;
		l->n[p] = 0;
	}
	unsigned int n = l->n[p], i = n;
	/* Masked where the verifier sees it (clang would drop a bound it knows). */
	asm volatile("" : "+r"(i));
	if (n < list_cap && n < PMUTOP_BPF_LIST)
		l->tid[p][i & (PMUTOP_BPF_LIST - 1)] = tid;
	asm volatile("" ::: "memory");
	l->n[p] = n + 1;
}

/* Who task t is: read when its entry is made, at folds and at exec, not at every switch
 * (as the perf engine reads /proc when it finds a task and after an exec). The reader
 * copies entries while they are written: a new entry's tgid is written last, and one
 * read with tgid 0 is still being made (pmutop.bpf.h). */
static __always_inline void identity_write(struct pmutop_bpf_task *tv, struct task_struct *t,
					   unsigned int tgid, unsigned int uid,
					   unsigned long long cgid)
{
	tv->uid = uid;
	tv->cgid = cgid;
	if (t->flags & PF_KTHREAD_FLAG)
		tv->flags |= PMUTOP_BPF_KTHREAD;
	bpf_probe_read_kernel_str(tv->comm, sizeof(tv->comm), &t->comm);
	asm volatile("" ::: "memory");
	tv->tgid = tgid;
}

/* t's identity from t itself (BTF pointers: plain loads), for a task that may not be the
 * one running (the fork's child). */
static __always_inline void identity(struct pmutop_bpf_task *tv, struct task_struct *t)
{
	identity_write(tv, t, t->tgid, t->cred->uid.val, t->cgroups->dfl_cgrp->kn->id);
}

/* The same when t is the task that runs (every caller but the fork's), from the helpers.
 * Each pointer walked from a BTF pointer costs the verifier a few searches of all of
 * vmlinux BTF, about a millisecond each, wherever the program is inlined: on_exec's
 * verification 15 ms -> 2.5 ms. */
static __always_inline void identity_cur(struct pmutop_bpf_task *tv, struct task_struct *t)
{
	identity_write(tv, t, bpf_get_current_pid_tgid() >> 32,
		       (unsigned int)bpf_get_current_uid_gid(), bpf_get_current_cgroup_id());
}

static __always_inline struct pmutop_bpf_task *task_entry(unsigned int tid)
{
	struct pmutop_bpf_task *tv = bpf_map_lookup_elem(&tasks, &tid);
	if (tv) {
		written(tv, tid);
		return tv;
	}
	unsigned int zero = 0;
	struct pmutop_bpf_task *b = bpf_map_lookup_elem(&blank, &zero);
	if (!b)
		return NULL;
	bpf_map_update_elem(&tasks, &tid, b, BPF_NOEXIST); /* fails when full */
	tv = bpf_map_lookup_elem(&tasks, &tid);
	if (tv)
		written(tv, tid);
	else {
		unsigned int k = PMUTOP_BPF_LOST;
		unsigned long long *lost = bpf_map_lookup_elem(&stats, &k);
		if (lost)
			(*lost)++;
	}
	return tv;
}

/* cur began a slice that no seen switch ended: its values are not known. */
static __always_inline void missed(struct pmutop_bpf_last *l)
{
	unsigned int cur = l->cur;
	struct pmutop_bpf_task *tv = cur ? bpf_map_lookup_elem(&tasks, &cur) : NULL;
	if (tv) {
		tv->missed++;
		written(tv, cur);
	}
	l->gaps++;
}

/* The clock events' time since the slice began (t_in) into to, and into the CPU's
 * clock (ev: its sums from the first read are every task's plus idle plus unattr); and
 * the same time as enabled and running of the by_clock events the last read read
 * (l->read). */
static __always_inline void clock_add(struct pmutop_bpf_ev *to, struct pmutop_bpf_last *l,
				      unsigned long long now)
{
	unsigned long long d = now > l->t_in ? now - l->t_in : 0;
	for (unsigned int j = 0; j < PMUTOP_BPF_MAXEV && j < ntimed; j++) {
		unsigned int i = timed[j];
		if (i >= nslot)
			break;
		if (!(l->read & (1u << i)))
			continue;
		to[i].ena += d;
		to[i].run += d;
		l->ev[i].ena += d;
		l->ev[i].run += d;
	}
	for (unsigned int j = 0; j < PMUTOP_BPF_MAXEV && j < nclock; j++) {
		unsigned int i = clock[j];
		if (i >= nslot)
			break;
		to[i].val += d;
		to[i].ena += d;
		to[i].run += d;
		l->ev[i].val += d;
		l->ev[i].ena += d;
		l->ev[i].run += d;
	}
}

/* The events counted from t's own counters into its entry tv: its counter now minus as
 * first seen (migrations: one a slice begun after a move), the switch it is leaving by
 * (sw) included, as the slice it ends was seen.
 * A command before its exec starts again at each read (what it counted goes to unattr),
 * and an exiting task's switches and migrations are in no task's sums (perf closes its
 * counters; migrated as it ends, it would read one perf never counted). */
static __always_inline void own_counts(struct pmutop_bpf_task *tv, struct task_struct *t,
				       struct pmutop_bpf_last *l, bool sw)
{
	unsigned long long k[PMUTOP_BPF_NK];
	k[PMUTOP_BPF_K_SWITCHES] = t->nvcsw + t->nivcsw;
	k[PMUTOP_BPF_K_MIGRATIONS] = t->se.nr_migrations;
	unsigned int f = tv->flags;
	bool pre = f & PMUTOP_BPF_PRE_EXEC;
	if (!(f & PMUTOP_BPF_KBASE) || pre) {
		for (unsigned int j = 0;
		     pre && (f & PMUTOP_BPF_KBASE) && j < PMUTOP_BPF_MAXEV && j < nown; j++) {
			unsigned int i = own_ev[j], kind = own_kind[j];
			if (i >= nslot || kind >= PMUTOP_BPF_NK)
				break;
			l->unattr[i].val += k[kind] - tv->kbase[kind];
			l->unattr[i].ena++;
			l->unattr[i].run++;
		}
		/* Born since, and nothing of it counted elsewhere: no switch but the one it
		 * leaves by (an entry made late, the map full before, has its switches in
		 * unattr). */
		bool born = !pre && t_start && t->start_time > t_start &&
			    k[PMUTOP_BPF_K_SWITCHES] <= (sw ? 1 : 0);
		for (unsigned int n = 0; n < PMUTOP_BPF_NK; n++)
			tv->kbase[n] = born ? 0 : k[n];
		if (sw && !pre && !born)
			tv->kbase[PMUTOP_BPF_K_SWITCHES]--;
		tv->flags |= PMUTOP_BPF_KBASE;
		if (pre)
			return;
	}
	/* Migrations as perf counts them: one as the task switches in after it was moved,
	 * however many moves came before (the kernel's count has each). Moves happen while
	 * it is off a CPU, so a count changed since the last look (kbase: the count then)
	 * is one migration of the slice that ends or runs now. */
	bool moved = k[PMUTOP_BPF_K_MIGRATIONS] != tv->kbase[PMUTOP_BPF_K_MIGRATIONS];
	tv->kbase[PMUTOP_BPF_K_MIGRATIONS] = k[PMUTOP_BPF_K_MIGRATIONS];
	if (moved && (f & PMUTOP_BPF_EXITING))
		tv->exitmig++; /* in its cgroup's sums only */
	for (unsigned int j = 0; j < PMUTOP_BPF_MAXEV && j < nown; j++) {
		unsigned int i = own_ev[j], kind = own_kind[j];
		if (i >= nslot || kind >= PMUTOP_BPF_NK)
			break;
		if (f & PMUTOP_BPF_EXITING)
			continue;
		if (kind == PMUTOP_BPF_K_MIGRATIONS)
			tv->ev[i].val += moved;
		else
			tv->ev[i].val = k[kind] - tv->kbase[kind];
		/* Enabled and running as long as the task: once a slice (val_scale). */
		tv->ev[i].ena++;
		tv->ev[i].run++;
	}
}

/* The live counters of this CPU read: what each counted since the last read into to (own:
 * the leaving task's own switch, for an at_switch event), as perf's per-task counters
 * would. The by_clock events read into l->read, a bit each. */
static __always_inline void read_live(struct pmutop_bpf_last *l, unsigned int cpu,
				      struct pmutop_bpf_ev *to, struct pmutop_bpf_ev *own, bool sw,
				      bool primed)
{
	l->timed_src = PMUTOP_BPF_MAXEV;
	l->read = 0;
	for (unsigned int j = 0; j < PMUTOP_BPF_MAXEV && j < nlive; j++) {
		unsigned int i = live[j];
		if (i >= nslot)
			break;
		struct bpf_perf_event_value v;
		unsigned int src = time_of[i];
		/* Its own times when the source's were not read here (not open on this
		 * CPU); a by_clock event's are the slice's (clock_add). */
		if (!by_clock[i] && (src != l->timed_src || src >= PMUTOP_BPF_MAXEV)) {
			if (bpf_perf_event_read_value(&counters, cpu * nslot + i, &v, sizeof(v)))
				continue;
			if (src == i)
				l->timed_src = i;
		} else {
			/* The count, or a negative errno in its place. */
			long long c = (long long)bpf_perf_event_read(&counters, cpu * nslot + i);
			if (c < 0 && c >= -4095)
				continue;
			unsigned int from = by_clock[i] ? i : src;
			v.counter = (unsigned long long)c;
			v.enabled = l->ev[from].ena;
			v.running = l->ev[from].run;
			if (by_clock[i])
				l->read |= 1u << i;
		}
		struct pmutop_bpf_ev *p = &l->ev[i];
		/* A counter reopened (user-only mode switched) starts again from zero. An
		 * at_switch event counts a task's own switch (own), anticipated at the read
		 * before; what it counted beyond that are switches the tracepoint never
		 * reported, none of them the leaving task's: perf's per-task counters do not
		 * give them to it either. */
		if (v.counter >= p->val && v.enabled >= p->ena && v.running >= p->run && to) {
			if (at_switch[i]) {
				l->unattr[i].val += v.counter - p->val;
				if (own)
					own[i].val++;
			} else {
				to[i].val += v.counter - p->val;
			}
			to[i].ena += v.enabled - p->ena;
			to[i].run += v.running - p->run;
		}
		p->val = v.counter + (sw && at_switch[i] ? 1 : 0);
		p->ena = v.enabled;
		p->run = v.running;
		if (!primed)
			l->base[i] = *p;
	}
}

/* What a read of the counters is for. */
enum how {
	FOLD,	/* t runs on the CPU now */
	SWITCH, /* t leaves the CPU, next coming in */
	ARRIVE, /* t came in: the switch that brought it is done (interrupts on) */
};

/* t leaves the CPU or runs there: what the counters counted since the CPU's last read
 * goes to t, or (pmutop.bpf.h) to the CPU's idle or unattributed sums. t arrives by a
 * switch not seen: it goes to unattributed, and t's slice begins whole. */
static __always_inline void account(struct task_struct *t, bool dead, enum how how,
				    unsigned int next)
{
	unsigned int zero = 0, cpu = bpf_get_smp_processor_id();
	struct pmutop_bpf_last *l = bpf_map_lookup_elem(&last, &zero);
	if (!l)
		return;
	/* A fold run by an interrupt in the middle of a read with interrupts on (an
	 * arrival's, an exec's): that read counts it, the next fold or switch the rest. */
	if (how == FOLD && l->busy)
		return;
	bool sw = how == SWITCH, arrive = how == ARRIVE;
	unsigned int tid = t->pid; /* a BTF pointer: read directly, no probe_read */
	bool primed = l->primed;
	if (!primed && !t_start)
		t_start = bpf_ktime_get_ns();
	/* t is not the task the last seen switch brought in: a switch in between was not
	 * seen, and who ran since the last read is not known. */
	bool gap = primed && l->cur != tid;
	/* t arrives as the last seen switch said: its slice, counters and clocks, began at
	 * that switch (nothing counted in between but the switch itself and its migration,
	 * counted for it as perf does). Where a hardware event is counted, the time since
	 * the switch is measured, for the reader to mark what it holds of the switch. */
	if (arrive && !gap) {
		if (!want_win || !primed)
			return;
		l->busy = 1;
		asm volatile("" ::: "memory");
		unsigned long long now = bpf_ktime_get_ns();
		l->win = now > l->t_in ? now - l->t_in : 0;
		asm volatile("" ::: "memory");
		l->busy = 0;
		return;
	}
	l->busy = 1;
	asm volatile("" ::: "memory");
	struct pmutop_bpf_task *tv = NULL;
	if (tid != 0 && primed && !arrive)
		tv = task_entry(tid);
	/* The slice cur began is lost; so is this one of t, begun unseen, unless t has just
	 * arrived (its slice begins now). */
	if (gap)
		missed(l);
	if (gap && tv)
		tv->cut++;
	if (sw && tv)
		tv->slices++;
	/* A command before its exec counts for no row: perf counts it from its exec. */
	bool mine = tv && !(tv->flags & PMUTOP_BPF_PRE_EXEC);
	if (primed && sw && mine && (tv->flags & PMUTOP_BPF_EXITING))
		tv->exitsw++;
	if (mine && !gap)
		tv->win += l->win;
	l->win = 0;
	struct pmutop_bpf_ev *to = !primed	   ? NULL
				   : gap || arrive ? l->unattr
				   : mine	   ? tv->ev
				   : tid == 0	   ? l->idle
						   : l->unattr;
	/* A task's own switch counts into it, but not once it is exiting: perf closes a
	 * task's counters later in its exit (perf_event_exit_task), so a preemption between
	 * sched_process_exit and there is perf's alone (rare: a few us of do_exit). */
	struct pmutop_bpf_ev *own = !primed || !sw				? NULL
				    : mine && !(tv->flags & PMUTOP_BPF_EXITING) ? tv->ev
				    : tid == 0					? l->idle
										: l->unattr;
	read_live(l, cpu, to, own, sw, primed);
	if (nclock || ntimed) {
		unsigned long long now = bpf_ktime_get_ns();
		if (to)
			clock_add(to, l, now);
		l->t_in = now;
	}
	/* The switch of a task in no task's sums (idle, not in the map, exiting), for the
	 * events counted from tasks' own counters (own_counts: before an exec). */
	bool own_out = own && (!tv || (tv->flags & (PMUTOP_BPF_EXITING | PMUTOP_BPF_PRE_EXEC)) ==
					      PMUTOP_BPF_EXITING);
	for (unsigned int j = 0; own_out && j < PMUTOP_BPF_MAXEV && j < nown; j++) {
		unsigned int i = own_ev[j];
		if (i >= nslot || own_kind[j] != PMUTOP_BPF_K_SWITCHES)
			continue;
		own[i].val++;
		own[i].ena++;
		own[i].run++;
	}
	l->primed = 1;
	l->cur = sw ? next : tid;
	if (tv)
		own_counts(tv, t, l, sw);
	asm volatile("" ::: "memory");
	l->busy = 0;
	if (!tv)
		return;
	if (!sw || tv->tgid == 0) /* a fold, or a new entry */
		identity_cur(tv, t);
	else /* moved to another cgroup (cgroup.procs): counted there from the next tick */
		tv->cgid = t->cgroups->dfl_cgrp->kn->id;
	/* Last: an entry read as dead is read for the last time, its identity whole (a
	 * short-lived task's first switch is often its last). */
	asm volatile("" ::: "memory");
	if (dead)
		tv->flags |= PMUTOP_BPF_DEAD;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	account(prev, prev_state == TASK_DEAD_STATE, SWITCH, next->pid);
	return 0;
}

/* The end of __schedule, in the task that runs now; not attached where the kernel has no
 * such tracepoint. */
SEC("tp_btf/sched_exit_tp")
int BPF_PROG(on_arrive, bool is_switch)
{
	if (is_switch)
		account(bpf_get_current_task_btf(), false, ARRIVE, 0);
	return 0;
}

/* Its values are taken here (a fold), before own_counts stops them: the migration that
 * brought it into this slice is perf's (counted as it switched in, perf_event_exit_task
 * comes later), what it makes after is its cgroup's only (exitmig). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *t)
{
	unsigned int tid = BPF_CORE_READ(t, pid);
	account(bpf_get_current_task_btf(), false, FOLD, 0);
	struct pmutop_bpf_task *tv = bpf_map_lookup_elem(&tasks, &tid);
	if (tv) {
		tv->flags |= PMUTOP_BPF_EXITING;
		written(tv, tid);
	}
	return 0;
}

/* A new program: its name, and its owner with a set-user-ID one. A thread other than
 * the leader that execs takes the leader's id: its old one will not switch again. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *t, pid_t old_pid)
{
	unsigned int tid = BPF_CORE_READ(t, pid), old = (unsigned int)old_pid;
	struct pmutop_bpf_task *tv = bpf_map_lookup_elem(&tasks, &tid);
	if (tv && (tv->flags & PMUTOP_BPF_PRE_EXEC) && old == tid) {
		/* The command's exec: what it counted before goes to no row (unattr). */
		account(t, false, FOLD, 0);
		tv->flags &= ~PMUTOP_BPF_PRE_EXEC;
	}
	if (tv) {
		identity_cur(tv, t);
		written(tv, tid);
	}
	if (old == tid)
		return 0;
	if ((tv = bpf_map_lookup_elem(&tasks, &old))) {
		tv->flags |= PMUTOP_BPF_DEAD;
		written(tv, old);
	}
	/* It runs here under its new id: leaving, it is the task last brought in. */
	unsigned int zero = 0;
	struct pmutop_bpf_last *l = bpf_map_lookup_elem(&last, &zero);
	if (l && l->cur == old)
		l->cur = tid;
	return 0;
}

/* A watched command's tree: what its tasks fork joins it before it first runs. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	unsigned int ptid = BPF_CORE_READ(parent, pid);
	struct pmutop_bpf_task *pv = bpf_map_lookup_elem(&tasks, &ptid);
	if (!pv || !(pv->flags & PMUTOP_BPF_TREE))
		return 0;
	unsigned int tid = BPF_CORE_READ(child, pid);
	struct pmutop_bpf_task *tv = task_entry(tid);
	if (!tv)
		return 0;
	tv->flags |= PMUTOP_BPF_TREE;
	identity(tv, child);
	/* Listed again if a tick's fold came in between (interrupts are on here). */
	written(tv, tid);
	return 0;
}

SEC("raw_tp/sched_switch")
int fold(void *ctx)
{
	account(bpf_get_current_task_btf(), false, FOLD, 0);
	return 0;
}
