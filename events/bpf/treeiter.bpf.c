// SPDX-License-Identifier: GPL-2.0
/* A task iterator over every task: for each inherited event of a task whose parent is one
 * of the roots given (matched by id, in a map), a record of its count and times, written to the
 * iterator's seq_file. The kernel keeps those events in the task's perf context; nothing
 * here runs at a context switch. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "treeiter.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* The roots' ids to their index, filled by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TREEITER_MAXEV);
	__type(key, unsigned long long);
	__type(value, unsigned int);
} roots SEC(".maps");

/* Before Linux 6.2 a task had one context per kind of PMU (an array). */
struct task_struct___ctxarr {
	struct perf_event_context *perf_event_ctxp[2];
} __attribute__((preserve_access_index));

static __always_inline void walk(struct seq_file *seq, struct task_struct *task,
				 struct perf_event_context *pc)
{
	if (!pc)
		return;
	struct list_head *head = &pc->event_list;
	struct list_head *pos = BPF_CORE_READ(pc, event_list.next);
	struct treeiter_rec r = {};
	r.tid = BPF_CORE_READ(task, pid);
	r.tgid = BPF_CORE_READ(task, tgid);
	bpf_probe_read_kernel_str(r.comm, sizeof(r.comm), &task->comm);
#pragma clang loop unroll(disable)
	for (int i = 0; i < TREEITER_MAXWALK && pos && pos != head; i++) {
		struct perf_event *ev = container_of(pos, struct perf_event, event_entry);
		struct perf_event *parent = BPF_CORE_READ(ev, parent);
		unsigned long long id = parent ? BPF_CORE_READ(parent, id) : BPF_CORE_READ(ev, id);
		unsigned int *k = bpf_map_lookup_elem(&roots, &id);
		if (k) {
			r.idx = *k;
			r.flags = parent ? 0 : TREEITER_ROOT;
			BPF_CORE_READ_INTO(&r.count, ev, count);
			r.child = r.child_enabled = r.child_running = 0;
			if (!parent) {
				BPF_CORE_READ_INTO(&r.child, ev, child_count);
				BPF_CORE_READ_INTO(&r.child_enabled, ev, child_total_time_enabled);
				BPF_CORE_READ_INTO(&r.child_running, ev, child_total_time_running);
			}
			r.enabled = BPF_CORE_READ(ev, total_time_enabled);
			r.running = BPF_CORE_READ(ev, total_time_running);
			bpf_seq_write(seq, &r, sizeof(r));
		}
		pos = BPF_CORE_READ(pos, next);
	}
}

SEC("iter/task")
int tree_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	if (!task)
		return 0;
	if (bpf_core_field_size(task->perf_event_ctxp) == sizeof(void *)) {
		walk(ctx->meta->seq, task, BPF_CORE_READ(task, perf_event_ctxp));
	} else {
		struct task_struct___ctxarr *old = (void *)task;
		walk(ctx->meta->seq, task, BPF_CORE_READ(old, perf_event_ctxp[0]));
	}
	return 0;
}
