/* One perf event group open on one target (a task, or a CPU): open, enable, read, close.
 * Errors are -errno; nothing here prints. */
#ifndef PMUTOP_EVGROUP_H
#define PMUTOP_EVGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "evread.h"
#include "evspec.h"
#include "evstatus.h"

struct evgroup;

struct evgroup_opts {
	pid_t pid;	       /* task (tid), or -1 with cpu >= 0 for a CPU; with cgroup, the
				  cgroup directory's descriptor */
	bool cgroup;	       /* count the tasks of cgroup pid on CPU cpu (perf stat -G) */
	int cpu;	       /* -1 for a task on any CPU */
	bool enable_on_exec;   /* counting starts at the task's next exec */
	bool inherit;	       /* count children forked after opening, too */
	bool inherit_thread;   /* with inherit: threads only, not child processes */
	bool user_only;	       /* exclude kernel mode on events without an explicit :u/:k */
	bool no_kernel;	       /* exclude kernel mode on every event (not allowed to count
				  it: perf_event_paranoid >= 2 without CAP_PERFMON) */
	const uint8_t *preset; /* per member: an ev_status known in advance (EVS_OK = try);
				  members with another status are not opened */
	bool probe;	       /* member 0 leads with a read of its own (evgroup_probe()); the
				  group is read through a sibling */
};

/* Mapped probe pages at once, at most: each pins a page of kernel memory. */
#define EVGROUP_MAP_MAX 4096

/* Open spec's members as one group: all disabled, then enabled member by member, the
 * leader last (or all at the task's exec). A member that fails keeps its status and the rest still
 * open; when the leader fails the next member leads. *out always gets a group (unless -ENOMEM) so
 * that statuses can be shown. Returns 0 when at least one member counts, -E2BIG when the group
 * cannot be held by the PMU as a whole (every member EVS_NOFIT, none open), else the first member's
 * -errno (-ESRCH: the task is gone, -EMFILE: out of descriptors). */
int evgroup_open(const struct evgroup_spec *spec, const struct evgroup_opts *o,
		 struct evgroup **out);

/* Exactly one read(): the group's times and values in spec member order. Members that
 * are not open read 0 and must be judged by evgroup_status(). Returns 0, -ENODATA when
 * no member is open, or -errno. */
int evgroup_read(struct evgroup *g, struct evread_group *out);

/* The leader's value and time enabled alone, by one read() cheaper than the group's (one
 * event's, not the group's): for a task whose software group is led by task-clock, both
 * unchanged mean the task has not run, so no event of it has counted. -ENOTSUP unless
 * opened with probe and led by member 0. */
int evgroup_probe(struct evgroup *g, uint64_t *value, uint64_t *enabled);
/* The same probe by descriptor, for a caller that keeps it beside its own hot data:
 * evgroup_probe_fd() is the leader's (-1 unless opened with probe), valid until the
 * group is freed. */
int evgroup_probe_fd(const struct evgroup *g);
int evgroup_probe_read(int fd, uint64_t *value, uint64_t *enabled);

/* Map the probed leader's first page (struct perf_event_mmap_page alone, no ring), for
 * evgroup_probe_seq(). 0 (also when mapped already), -ENOTSUP without a probe, -ENOSPC
 * past EVGROUP_MAP_MAX pages (tried again next time), or mmap's -errno (-EPERM past
 * the locked-memory limit: returned again without a new try). */
int evgroup_map_probe(struct evgroup *g);
/* Without a syscall: the sequence count of the probed leader's mapped page (struct
 * perf_event_mmap_page's lock), or NULL when it is not mapped. The kernel rewrites that
 * page whenever it schedules the leader in, that is whenever its task runs (where
 * evgroup_seq_works() says so): a count that has not moved since before a read that
 * found the task idle means the task has not run since. Valid until the group is freed. */
const volatile uint32_t *evgroup_probe_seq(const struct evgroup *g);
/* Whether this kernel does rewrite the page of a task's software event each time the
 * task is scheduled in: tried once on a child process (three runs; each must move the
 * count while the child is still on its CPU, not at its sched-out) and remembered.
 * False when the event cannot be opened or mapped. */
bool evgroup_seq_works(void);

/* Enable (the disabled members, the leader last) or disable (the leader: the group is
 * off while it is) the whole group. */
int evgroup_enable(struct evgroup *g, bool on);

enum ev_status evgroup_status(const struct evgroup *g, unsigned member);
unsigned evgroup_members(const struct evgroup *g);
unsigned evgroup_open_count(const struct evgroup *g);
/* Descriptors this group holds. */
int evgroup_leader_fd(const struct evgroup *g);
/* Member's own descriptor (spec order), or -1 when it is not open. */
int evgroup_member_fd(const struct evgroup *g, unsigned member);

void evgroup_free(struct evgroup *g);

/* Whether spec can be a task's probed group (evgroup_opts.probe): every member a
 * software event (never multiplexed: it counts whenever its task runs, and only then),
 * led by task-clock. */
bool evgroup_spec_probeable(const struct evgroup_spec *spec);
/* Whether a member of spec may count into a task while that task sleeps: a tracepoint
 * (sched_wakeup is delivered to the task it names, not to the one running). A set with
 * such a group can probe none: an idle task's counts may still move. */
bool evgroup_spec_remote(const struct evgroup_spec *spec);
/* Whether d happens only in kernel mode (context switches and migrations happen in the
 * scheduler): counted in user mode only it reads 0 whatever the task does. */
bool evgroup_kernel_only(const struct evdesc *d);

/* Can this kernel count a task with its future threads in one group (inherit, and with
 * threads_only inherit_thread, Linux 5.13), read as a group? */
bool evgroup_can_inherit(bool threads_only);

/* The read_format every group uses. */
uint64_t evgroup_read_format(void);

#endif
