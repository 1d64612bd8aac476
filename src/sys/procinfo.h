/* What /proc says of a process beyond its counters, cached by pid for a source that does
 * not keep processes of its own (the bpf backend): its parent, name, state and resident
 * memory (read at first sight and again when it ran: a process that renames itself
 * runs) and its arguments (when asked for, again after its name changed). */
#ifndef PMUTOP_PROCINFO_H
#define PMUTOP_PROCINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"
#include "procfs.h"

/* A process's I/O totals between reads of /proc/PID/io, and whether it was tried. */
struct procinfo_io {
	bool tried;
	bool ok; /* rd, wr hold the last read */
	uint64_t rd, wr;
};

/* PRI and VIRT from a first read of its stat. */
void procinfo_more_task(struct mproc_more *x, const struct procfs_task *t);
/* The process ran: PRI and VIRT from now (its stat, just read), SHR from statm, and the
 * interval's I/O from io (MIO_NA when it cannot be read: never 0). */
void procinfo_more_ran(const char *root, pid_t pid, const struct procfs_now *now,
		       struct procinfo_io *io, struct mproc_more *x);
/* It did not run: no I/O this interval (its first read of statm and io when none was
 * made yet, so a sleeping process has them too). */
void procinfo_more_idle(const char *root, pid_t pid, struct procinfo_io *io, struct mproc_more *x);

struct procinfo_ent {
	pid_t pid, ppid;
	char state;
	uint64_t rss_kb;
	bool have_sched; /* cpu_ns and nice read */
	int nice;
	uint64_t cpu_ns;
	uint64_t start_ticks;	/* when it started, as /proc's stat; 0 unknown */
	struct mproc_more more; /* PRI, VIRT, SHR, I/O */
	struct procinfo_io io;
	char comm[PROCFS_COMM_MAX]; /* as /proc had it when last read; "" when unread */
	char *cmdline;		    /* NULL: not read */
	uint64_t cmd_hash;	    /* of the name it was read under */
	uint64_t seen;
};

struct procinfo;

struct procinfo *procinfo_new(void);
void procinfo_free(struct procinfo *p);
/* Process pid (named comm by the source) as of tick: read when new, name, state and
 * memory again when it ran, arguments when want_cmdline. NULL when out of memory. Valid
 * until the next procinfo_sweep. */
const struct procinfo_ent *procinfo_get(struct procinfo *p, const char *root, pid_t pid,
					const char *comm, bool ran, bool want_cmdline,
					uint64_t tick);
/* Process t->pid as a source's start-up just read its stat line (t, its first thread's
 * and so its own): known at tick, as procinfo_get would read it when new, which then
 * reads it again only when it ran (its arguments and I/O as when new). */
void procinfo_seed(struct procinfo *p, const struct procfs_task *t, uint64_t tick);
/* Forget the processes not asked for at tick. */
void procinfo_sweep(struct procinfo *p, uint64_t tick);

#endif
