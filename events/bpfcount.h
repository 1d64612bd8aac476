/* The bpf backend's counters: each event of a set opened once per CPU (grouped as per
 * task), a BPF program that sums them per task at every context switch, and the per-task
 * sums read back as plain arrays. Errors are -errno; nothing here prints. */
#ifndef PMUTOP_BPFCOUNT_H
#define PMUTOP_BPFCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/pmutop.bpf.h"
#include "evspec.h"
#include "evstatus.h"

struct bpfcount;

struct bpfcount_opts {
	const int *cpus; /* online CPUs */
	int ncpus;
	bool user_only;	    /* exclude kernel mode on events without :u/:k */
	bool no_kernel;	    /* exclude kernel mode everywhere */
	unsigned max_tasks; /* entries of the preallocated task map */
	/* tasks a CPU lists as written in a tick before a tick reads every entry (0: the
	 * program's PMUTOP_BPF_LIST; tests make it small) */
	unsigned list_cap;
	/* per group and member: a status known in advance (EVS_OK = try), or NULL */
	const uint8_t (*preset)[EVGROUP_MAX];
	/* a command's tree is seeded (PMUTOP_BPF_TREE): the fork program is loaded for it,
	 * else not (its verification is some 15 ms of the start) */
	bool tree;
};

/* Open the groups of specs on every CPU, load the BPF program and attach it. Returns 0,
 * -ENOTSUP (built without BPF), -E2BIG (more than PMUTOP_BPF_MAXEV events), -ENOEXEC
 * (the kernel refused the program or a map as too large for the set), -ENOENT
 * (no kernel BTF), -EPERM (BPF not allowed), -EMFILE, or the loader's -errno. */
int bpfcount_open(const struct evspec_list *specs, const struct bpfcount_opts *o,
		  struct bpfcount **out);
void bpfcount_free(struct bpfcount *b);

/* Event ev's status (members numbered across groups in order): EVS_OK when it opened on
 * some CPU (a hybrid core PMU's event opens on its kind of CPU only), else the first
 * failure's. */
enum ev_status bpfcount_status(const struct bpfcount *b, unsigned ev);

/* A task that existed before the program was attached, entered with zero sums so that
 * it has a row before it next runs. flags (pmutop.bpf.h): PMUTOP_BPF_KTHREAD, and for a
 * command PMUTOP_BPF_TREE (opened with tree: the tasks it forks join it, and theirs) and
 * PMUTOP_BPF_PRE_EXEC. 0, -EEXIST (it is in already, with those flags added), -E2BIG
 * (map full). */
int bpfcount_seed(struct bpfcount *b, pid_t tid, pid_t tgid, uid_t uid, unsigned flags,
		  const char *comm);

/* Event ev counts context switches: a task's own switch is credited to it at the switch
 * the program sees it leave by (pmutop.bpf.h: cut). */
bool bpfcount_at_switch(const struct bpfcount *b, unsigned ev);

/* Event ev is a clock (task-clock, cpu-clock), counted from the kernel clock over each
 * slice (pmutop.bpf.h: t_in, win). */
bool bpfcount_is_clock(const struct bpfcount *b, unsigned ev);

/* Count the slices running now on every CPU into their tasks. */
int bpfcount_fold(struct bpfcount *b);

/* Event ev's slot in the tasks' and the CPUs' sums (pmutop.bpf.h: ev[]), or -1 when no
 * CPU counts it. */
int bpfcount_slot(const struct bpfcount *b, unsigned ev);

/* The size of a task's value: PMUTOP_BPF_TASK_SIZE(slots). */
size_t bpfcount_value_size(const struct bpfcount *b);

/* Every task's sums: tids[i] and the value at vals + i * size (bpfcount_value_size,
 * bpfcount_task), n of them, valid until the next call. 0 or -errno. Read after a fold,
 * only the entries written since the last read are read again (the program lists them);
 * the others keep their values. Every entry is read (in batches) at the first read, after
 * a seed, a read with no fold or two folds before it, and when more tasks ran on a CPU
 * than its list holds. */
int bpfcount_read(struct bpfcount *b, const unsigned **tids, const void **vals, size_t *n);

/* Value i of a read whose values are size bytes. */
static inline const struct pmutop_bpf_task *bpfcount_task(const void *vals, size_t size, size_t i)
{
	return (const struct pmutop_bpf_task *)((const char *)vals + i * size);
}

/* Drop tasks from the map (ended, and read for the last time). */
int bpfcount_forget(struct bpfcount *b, const unsigned *tids, size_t n);

/* Reads that read every entry, since the start. */
uint64_t bpfcount_full_reads(const struct bpfcount *b);

/* Each possible CPU's sums apart from the tasks' (pmutop.bpf.h: idle, unattr, gaps,
 * ev - base), n of them, indexed by CPU number, valid until the next call. The first
 * read that finds a switch not seen (gaps) attaches the program at the end of
 * __schedule, where a task brought in by one begins its slice whole; until then it is
 * cut (one program a switch where the kernel reports every switch). 0 or -errno. */
int bpfcount_read_cpus(struct bpfcount *b, const struct pmutop_bpf_last **cpus, int *n);

/* Stop summing at switches, exits, execs and forks (the sums stay as they are;
 * bpfcount_fold still counts): a still picture, in which each CPU's counters equal its
 * tasks' sums plus idle and unattr. */
int bpfcount_stop(struct bpfcount *b);

/* Slices not counted because the task map was full, since the start. */
uint64_t bpfcount_lost(const struct bpfcount *b);
unsigned bpfcount_max_tasks(const struct bpfcount *b);
/* Descriptors held: counters, maps, programs and links. */
unsigned bpfcount_open_fds(const struct bpfcount *b);

#endif
