/* Task births, deaths and execs, system-wide, from the kernel's own records: one dummy
 * software event per CPU with attr.task and attr.comm, read from its ring buffer. This is
 * how pmutop learns of new tasks without reading /proc every tick. */
#ifndef PMUTOP_TASKWATCH_H
#define PMUTOP_TASKWATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum taskwatch_kind { TW_FORK, TW_EXIT, TW_COMM, TW_LOST };

struct taskwatch_rec {
	enum taskwatch_kind kind;
	pid_t pid, tid;	  /* pid is the thread group (process) id */
	pid_t ppid, ptid; /* TW_FORK, TW_EXIT */
	int exec;	  /* TW_COMM: the name changed by exec */
	uint64_t lost;	  /* TW_LOST: records the kernel dropped */
	char comm[16];	  /* TW_COMM */
};

typedef void (*taskwatch_cb)(void *ctx, const struct taskwatch_rec *r);

/* Parse the records in buf (n bytes, whole records as the ring buffer holds them once
 * unwrapped) and call cb for each fork, exit, comm or lost record. Returns the bytes
 * consumed (a trailing partial record is left), or -EINVAL on a malformed header. */
long taskwatch_parse(const void *buf, size_t n, taskwatch_cb cb, void *ctx);

struct taskwatch;

/* Open one watcher per CPU in cpus. Needs CAP_PERFMON (or paranoid <= 0): returns
 * -EACCES otherwise, -errno on other failures. */
int taskwatch_open(const int *cpus, int ncpus, struct taskwatch **out);
/* Deliver every pending record. Returns how many, or -errno. */
int taskwatch_drain(struct taskwatch *w, taskwatch_cb cb, void *ctx);
void taskwatch_free(struct taskwatch *w);

#endif
