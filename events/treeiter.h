/* A command's tree read where the kernel keeps its inherited counters: each task's child
 * events of the given root events (by id), their counts and times, through a BPF task
 * iterator run on demand. Nothing is added at a context switch, so the tree's contexts
 * stay clone-able as under perf stat. Errors are -errno; nothing here prints. */
#ifndef PMUTOP_TREEITER_H
#define PMUTOP_TREEITER_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/treeiter.bpf.h"

struct treeiter;

/* Load the iterator matching the roots of ids (n of them, at most TREEITER_MAXEV).
 * Returns 0, -ENOTSUP (built without BPF), -E2BIG, -ENOENT (no kernel BTF), -EPERM, or
 * the loader's -errno. */
int treeiter_open(const uint64_t *ids, unsigned n, struct treeiter **out);
void treeiter_free(struct treeiter *t);

/* One pass over every task: recs[0..n) valid until the next call. Read the root events
 * first: the kernel then brings each running child's count up to date, and the pass,
 * which reads what is stored, sees it. 0 or -errno. */
int treeiter_read(struct treeiter *t, const struct treeiter_rec **recs, size_t *n);

/* The kernel's id of the event open on fd (PERF_EVENT_IOC_ID), or 0. */
uint64_t treeiter_event_id(int fd);

#endif
