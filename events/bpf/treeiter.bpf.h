/* The records the tree iterator (treeiter.bpf.c) writes, one per inherited event of a
 * task, read by treeiter.c. Shared by the BPF side and userspace. */
#ifndef PMUTOP_TREEITER_BPF_H
#define PMUTOP_TREEITER_BPF_H

#define TREEITER_MAXEV 32   /* root events matched (the events of a set's groups) */
#define TREEITER_MAXWALK 64 /* events of one task's context looked at */

/* Flags of a record. */
#define TREEITER_ROOT 1u /* the root event itself (on the command's first task) */

struct treeiter_rec {
	unsigned int tid, tgid;
	unsigned int idx;	  /* which root: its index in the ids the loader was given */
	unsigned int flags;	  /* TREEITER_ROOT */
	unsigned long long count; /* the task's own count */
	/* On a root: what the tree's ended tasks counted (folded in at their exit); 0 on
	 * a task's inherited event. */
	unsigned long long child;
	unsigned long long enabled, running;		 /* the event's own times */
	unsigned long long child_enabled, child_running; /* on a root: the ended tasks' */
	char comm[16];
};

#endif
