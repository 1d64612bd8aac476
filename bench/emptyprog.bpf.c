// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, at the two attach points of pmutop's switch path (on_switch
 * and on_arrive, events/bpf/pmutop.bpf.c): what any BPF program there costs a context
 * switch before it does anything (bench/run.sh's observer floor, issue 40 item 2). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/sched_switch")
int BPF_PROG(empty_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return 0;
}

SEC("tp_btf/sched_exit_tp")
int BPF_PROG(empty_arrive, bool is_switch)
{
	return 0;
}
