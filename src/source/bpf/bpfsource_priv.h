/* The bpf backend's insides, the private header of source/bpf: bpfsource.c (the source:
 * its program, ticks and controls) and bpfrows.c (its rows, from the program's per-task
 * sums). */
#ifndef PMUTOP_BPFSOURCE_PRIV_H
#define PMUTOP_BPFSOURCE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpfcount.h"
#include "bpfsource.h"
#include "srcbase.h"

/* One task as last read: who it is and its sums (tot, nev per task, kept apart). */
struct brec {
	pid_t tgid, tid;
	uid_t uid;
	unsigned flags;
	unsigned missed, cut, slices, exitsw, exitmig; /* pmutop.bpf.h, since its entry was made */
	uint64_t win;				       /* pmutop.bpf.h, since its entry was made */
	/* Intervals in which it ran (its run time in /proc grew) with nothing of it seen:
	 * begun and ended by switches the kernel did not report (ran_unseen). */
	unsigned hidden;
	uint64_t ran_ns; /* its run time as last read there, 0 when not read */
	uint64_t cgid;
	const char *cgroup;
	size_t src; /* its index in the map's read, while the sums are copied */
	char comm[PMUTOP_BPF_COMM];
};

/* The order of every list of tasks here (the map's read sorted, the records, the kept
 * run times): by process, then thread. */
static inline int bpf_task_cmp(pid_t tgid_a, pid_t tid_a, pid_t tgid_b, pid_t tid_b)
{
	if (tgid_a != tgid_b)
		return tgid_a < tgid_b ? -1 : 1;
	return (tid_a > tid_b) - (tid_a < tid_b);
}

/* A thread's run time in /proc (schedstat) kept open for the next tick's read. */
struct rtfd {
	pid_t tgid, tid;
	int fd;
};

/* A task to read, in the map's order or sorted: its index in the map's read (src). */
struct bkey {
	pid_t tgid, tid;
	unsigned src;
};

struct brecs {
	size_t n, cap;
	struct brec *r;
	struct pmutop_bpf_ev *tot; /* n * nev */
};

struct bpfstate {
	struct bpfcount *bc;
	unsigned nev;	 /* slots: the set's group members counted on some CPU */
	unsigned *ev_of; /* per slot (bpfcount_slot): its model event index */
	size_t vsize;	 /* a task's value in the map's read (bpfcount_value_size) */
	uint8_t *why;	 /* per model event */
	uint8_t *at_sw;	 /* per model event: context switches (bpfcount_at_switch) */
	uint8_t *clk;	 /* per model event: a clock (bpfcount_is_clock) */
	struct brecs cur, old;
	/* The tasks wanted of the last two reads, in the map's order (keys: this one's, pkeys:
	 * the one before), and sorted (skeys): nkeys of each, room for keys_cap. */
	struct bkey *keys, *pkeys, *skeys;
	size_t nkeys, keys_cap;
	/* The last tick's sorted keys carried to this one's (sorted_keys): the tids of keys
	 * (open addressing, 1 << hbits cells of an index in keys, UINT_MAX free), the keys
	 * found there (taken), and the new order (tkeys) before the merge. */
	unsigned *hash;
	unsigned hbits;
	uint8_t *taken;
	struct bkey *tkeys;
	size_t *oldi; /* per cur record: its index in old, or SIZE_MAX */
	size_t oldi_cap;
	/* The threads whose run time the last tick read (find_hidden), by process then
	 * thread, each with its schedstat kept open (rt, nrt of them, rt_at the next one
	 * to match), and this tick's (rt2, nrt2): at most PMUTOP_BPF_RTFD_MAX. */
	struct rtfd *rt, *rt2;
	size_t nrt, nrt2, rt_at;
	struct val_delta *d; /* per model event: one task's deltas */
	/* A row's values when nothing was counted in the interval, this tick's (bpfrows.c
	 * zero_make), and whether it is made. */
	struct mstore zero;
	bool zero_ok;
	unsigned *dead; /* tids to forget once read */
	size_t ndead, capdead;
	/* per watched pid, nevents + 1: its ended threads' totals, then their slices ended
	 * (val) and begun (ena) by switches not seen */
	struct val_delta *gone;
	uint64_t lost;
	/* -- COMMAND counting its tree (not -i): the command's pid, else 0. Each process of
	 * the tree has rows of its own; the totals are the tree's, in the command's row. */
	pid_t root;
	/* The command's own thread as last read (who it is: pid, user, name, cgroup), for
	 * its totals once every task of the tree has ended and been read for the last time
	 * (the tree's counts then all in gone); root_seen says it was read. */
	struct brec root_last;
	bool root_seen;
	/* What the CPUs counted that went to no task (pmutop.bpf.h: unattr), summed over
	 * the CPUs: as last read, and at the interval's start. */
	struct val_delta *unattr, *unattr_was; /* per counted event */
	struct procinfo *pi; /* parents, state, memory, arguments: /proc, by pid */
	struct cgrows *cg;   /* --cgroups: the model's cg_rows, its process rows' sums plus
				the switches of exiting tasks, which perf -G counts */
	char note[128];
};

/* The bpf backend: per-CPU counters summed per task (and per cgroup) in BPF. */
struct bpfsource {
	struct source src; /* first: bpfsource_ops */
	struct srcbase b;
	struct bpfstate *bpf; /* the program's state, or NULL once it gave up */
	/* It started over within this interval (new events, user-only mode): what it read
	 * counted only since, so the next tick's task rows read n/c (starting). */
	bool restarted;
	/* -- COMMAND counting its tree (not -i), decided at the start (bpfstate: root). */
	bool tree;
	/* The command has exec'd, as the map read at a restart showed: it is not parked again. */
	bool execd;
	/* PMUTOP_TEST_BPF_GIVE_UP=N (tests): it gives up at its Nth tick, as if its program
	 * could no longer be read, for the app's swap to perf to be tested. 0: no. */
	unsigned long give_up;
};

/* Threads of processes that hide runs (find_hidden) whose run time is read through a
 * descriptor kept open from tick to tick; the others' by path. */
#define PMUTOP_BPF_RTFD_MAX 256

/* bpfrt.c: a tick reads run times in cur's order, from bpfrows_rt_begin to bpfrows_rt_end
 * (the descriptors kept walked once, those of threads not read again closed); task r's
 * through its schedstat kept open since the last tick, or opened now and kept: 0 or
 * -errno. */
void bpfrows_rt_begin(struct bpfstate *s);
int bpfrows_rt_read(struct bpfsource *e, const struct brec *r, uint64_t *ns);
void bpfrows_rt_end(struct bpfstate *s);
/* The run-time descriptors kept (rt, rt2) closed and freed. */
void bpfrows_rt_free(struct bpfstate *s);

/* bpfrows.c */
/* The map's contents into cur, sorted by process then thread: 0 or -errno. */
int bpfrows_snapshot(struct bpfsource *e);
/* Rows from cur against old (its previous read): intervals, or with totals the sums
 * since the start. */
void bpfrows_build(struct bpfsource *e, bool totals);
/* Task i of cur, of a watched process, ended and read for the last time: its totals go
 * to its process's gone. */
void bpfrows_gone_add(struct bpfsource *e, size_t i);
/* The command's own thread, when cur has it, as root_last (-- COMMAND's tree). */
void bpfrows_note_root(struct bpfstate *s);
/* Room for n keys in each of the key arrays: 0 or -ENOMEM. */
int bpfrows_keys_room(struct bpfstate *s, size_t n);
/* s->keys (k of them, in the map's order) sorted by process then thread into s->skeys,
 * which holds the last tick's sorted keys (was of them). */
void bpfrows_resort_keys(struct bpfstate *s, size_t k, size_t was);
/* cur becomes old. */
void bpfrows_swap(struct bpfstate *s);

#endif
