/* Opening and reading one perf event group, the way tools/lib/perf/evsel.c does. */
#include "evgroup.h"

#include "evclock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct evgroup {
	unsigned n;		     /* members in the spec */
	unsigned nopen;		     /* members open, in opening order */
	int lead;		     /* leader fd, or -1 */
	int fd[EVGROUP_MAX];	     /* per spec member, -1 when not open */
	uint64_t id[EVGROUP_MAX];    /* per opened member, in opening order */
	uint8_t member[EVGROUP_MAX]; /* opening order -> spec member */
	uint8_t status[EVGROUP_MAX]; /* per spec member: enum ev_status */
	bool sw_only;		     /* software events only: always fits, siblings enabled */
	bool probe;		     /* the leader is member 0, read alone (evgroup_probe) */
	void *upage;		     /* with probe: the leader's mapped first page, or NULL */
	int map_err;		     /* why it could not be mapped (tried once), or 0 */
	bool ids_known;		     /* id[] learnt from the first read */
};

uint64_t evgroup_read_format(void)
{
	return PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
	       PERF_FORMAT_ID;
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* A target's open: a task or CPU, or (o->cgroup) a cgroup's directory on one CPU. */
static int target_open(struct perf_event_attr *attr, const struct evgroup_opts *o, int group)
{
	long fd = syscall(SYS_perf_event_open, attr, o->pid, o->cpu, group,
			  PERF_FLAG_FD_CLOEXEC | (o->cgroup ? PERF_FLAG_PID_CGROUP : 0));
	return fd < 0 ? -errno : (int)fd;
}

bool evgroup_can_inherit(bool threads_only)
{
	/* A dummy event on ourselves, user mode only: allowed at every paranoid level, so
	 * only a kernel that does not know the bits (EINVAL) says no. */
	struct perf_event_attr a = {.size = sizeof(a),
				    .type = PERF_TYPE_SOFTWARE,
				    .config = PERF_COUNT_SW_DUMMY,
				    .disabled = 1,
				    .inherit = 1,
				    .inherit_thread = threads_only,
				    .exclude_kernel = 1,
				    .exclude_hv = 1,
				    .read_format = evgroup_read_format()};
	int fd = sys_perf_event_open(&a, 0, -1, -1);
	if (fd >= 0)
		close(fd);
	return fd != -EINVAL;
}

static void attr_for(struct perf_event_attr *a, const struct evdesc *d,
		     const struct evgroup_opts *o, bool disabled)
{
	*a = d->attr;
	a->size = sizeof(*a);
	a->read_format = evgroup_read_format();
	a->disabled = disabled;
	a->enable_on_exec = o->enable_on_exec;
	a->inherit = o->inherit;
	a->inherit_thread = o->inherit && o->inherit_thread;
	/* Software events are kernel events: excluding kernel mode would zero them. */
	if (o->no_kernel || (o->user_only && !d->explicit_plm && !d->software)) {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
	}
}

static bool sw_kernel_only(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

bool evgroup_kernel_only(const struct evdesc *d)
{
	return sw_kernel_only(&d->attr);
}

/* A kernel-only event counted in user mode: that count cannot exist; a 0 would look
 * like one. */
static bool kernel_only(const struct perf_event_attr *a)
{
	return a->exclude_kernel && sw_kernel_only(a);
}

bool evgroup_spec_probeable(const struct evgroup_spec *spec)
{
	bool sw = spec->n > 0;
	for (unsigned k = 0; k < spec->n; k++)
		sw = sw && spec->ev[k].software && spec->ev[k].attr.type == PERF_TYPE_SOFTWARE;
	return sw && spec->ev[0].attr.config == PERF_COUNT_SW_TASK_CLOCK;
}

bool evgroup_spec_remote(const struct evgroup_spec *spec)
{
	for (unsigned k = 0; k < spec->n; k++)
		if (spec->ev[k].attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/* Errors that say "this target can take no more": stop opening members. */
static bool fatal_for_target(int err)
{
	return err == -ESRCH || err == -EMFILE || err == -ENFILE || err == -ENOMEM;
}

/* (A software leader opened enabled would save that ioctl, but a sibling attached to a
 * group already counting is scheduled only at the next reschedule of its context: on a
 * CPU, or a busy task alone on one, that can be never. The enable ioctl reschedules the
 * group as a whole.)
 * A leader starts disabled and switches its group on when evgroup_enable() (or the
 * task's exec) enables it. Siblings of a hardware group start disabled too, so that a
 * group larger than the PMU is accepted and then reported as never scheduled (a member
 * opened enabled would fail EINVAL instead), and are enabled one by one. A software
 * group always fits: its siblings start enabled and follow the leader, which saves an
 * ioctl (an IPI to the task's CPU) per sibling, as perf does. */
static bool starts_disabled(const struct evgroup *g)
{
	return g->lead < 0 || !g->sw_only;
}

static int open_member(struct evgroup *g, const struct evgroup_spec *spec, unsigned i,
		       const struct evgroup_opts *o)
{
	struct perf_event_attr a;
	attr_for(&a, &spec->ev[i], o, starts_disabled(g));
	/* A probed leader reads its own value; its siblings keep the group format, so a
	 * read through any of them still returns the whole group, leader first. */
	bool probe = o->probe && i == 0 && g->lead < 0;
	if (probe)
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	int fd = target_open(&a, o, g->lead);
	if (fd < 0)
		return fd;
	if (probe)
		g->probe = true;
	/* The id comes with the first read (evgroup_read): an ioctl per member less. */
	g->fd[i] = fd;
	g->id[g->nopen] = 0;
	g->ids_known = false;
	g->member[g->nopen] = (uint8_t)i;
	g->nopen++;
	if (g->lead < 0)
		g->lead = fd;
	return 0;
}

/* Does member i open on its own? Then an EINVAL in the group means the group, not the
 * event, is the problem. */
static bool opens_alone(const struct evgroup_spec *spec, unsigned i, const struct evgroup_opts *o)
{
	struct perf_event_attr a;
	attr_for(&a, &spec->ev[i], o, true);
	int fd = target_open(&a, o, -1);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* A group the PMU cannot hold never counts: every member says so, none counts alone as
 * if it were the group the user asked for. (Members opened disabled are accepted and
 * then never scheduled; with enable_on_exec some PMU drivers refuse them at open.) */
static int give_up_group(struct evgroup *g)
{
	for (unsigned i = g->n; i-- > 0;) {
		if (g->fd[i] >= 0 && g->fd[i] != g->lead)
			close(g->fd[i]);
		g->fd[i] = -1;
		g->status[i] = EVS_NOFIT;
	}
	if (g->lead >= 0)
		close(g->lead);
	g->lead = -1;
	g->nopen = 0;
	g->probe = false;
	return -E2BIG;
}

static unsigned nmapped; /* probe pages mapped now, in every group */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

int evgroup_map_probe(struct evgroup *g)
{
	if (g->upage)
		return 0;
	if (!g->probe || g->lead < 0)
		return -ENOTSUP;
	if (g->map_err)
		return g->map_err;
	if (nmapped >= EVGROUP_MAP_MAX)
		return -ENOSPC; /* not remembered: pages may be freed */
	void *p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, g->lead, 0);
	if (p == MAP_FAILED)
		return g->map_err = -errno;
	g->upage = p;
	nmapped++;
	return 0;
}

int evgroup_open(const struct evgroup_spec *spec, const struct evgroup_opts *o,
		 struct evgroup **out)
{
	struct evgroup *g = calloc(1, sizeof(*g));
	*out = g;
	if (!g)
		return -ENOMEM;
	g->n = spec->n;
	g->lead = -1;
	g->sw_only = true;
	for (unsigned i = 0; i < spec->n; i++)
		g->sw_only = g->sw_only && spec->ev[i].software;
	int first_err = 0;
	for (unsigned i = 0; i < spec->n; i++) {
		g->fd[i] = -1;
		g->status[i] = EVS_UNOPENED;
	}
	for (unsigned i = 0; i < spec->n; i++) {
		if (o->preset && o->preset[i] != EVS_OK) {
			g->status[i] = o->preset[i];
			continue;
		}
		struct perf_event_attr a;
		attr_for(&a, &spec->ev[i], o, true);
		if (kernel_only(&a)) {
			g->status[i] = EVS_KERNEL_ONLY;
			continue;
		}
		int err = open_member(g, spec, i, o);
		if (err == -EINVAL && g->nopen > 0 && opens_alone(spec, i, o))
			return give_up_group(g);
		g->status[i] = (uint8_t)ev_status_from_errno(err);
		if (err && !first_err)
			first_err = err;
		if (err && fatal_for_target(err)) {
			for (unsigned j = i + 1; j < spec->n; j++)
				g->status[j] = g->status[i];
			break;
		}
	}
	if (g->nopen == 0)
		return first_err ? first_err : -ENODATA;
	if (!o->enable_on_exec) {
		int err = evgroup_enable(g, true);
		if (err)
			return err;
	}
	return 0;
}

int evgroup_enable(struct evgroup *g, bool on)
{
	if (g->lead < 0)
		return -ENODATA;
	/* The leader alone: a group is scheduled only while its leader is on, and the
	 * siblings stay as they were for the next enable. */
	if (!on)
		return ioctl(g->lead, PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0;
	/* Disabled siblings one by one, the leader last: the group starts as a whole when
	 * its leader does. PERF_IOC_FLAG_GROUP on the leader is not enough: per-CPU
	 * siblings opened disabled would read 0 forever. */
	for (unsigned k = 0; !g->sw_only && k < g->nopen; k++) {
		int fd = g->fd[g->member[k]];
		if (fd != g->lead && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -errno;
	}
	return ioctl(g->lead, PERF_EVENT_IOC_ENABLE, 0) < 0 ? -errno : 0;
}

static int read_exact(int fd, uint64_t *buf, size_t want)
{
	ssize_t r;
	do
		r = read(fd, buf, want);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return (size_t)r < want ? -EIO : 0;
}

const volatile uint32_t *evgroup_probe_seq(const struct evgroup *g)
{
	if (!g->upage)
		return NULL;
	return &((const volatile struct perf_event_mmap_page *)g->upage)->lock;
}

/* Whether the child sleeps (in its read()): state S in /proc/PID/stat. */
static bool child_asleep(pid_t child)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	const char *s = strrchr(buf, ')');
	return s && s[1] == ' ' && s[2] == 'S';
}

/* The check's child: woken by a byte, it stays on its CPU until the parent has seen the
 * count move (*seen, shared) or 0.2 s went by, then answers and sleeps again. */
static void check_child(int go, int done, const volatile int *seen)
{
	char c;
	while (read(go, &c, 1) == 1) {
		for (double t0 = evclock_now(); !*seen && evclock_now() - t0 < 0.2;)
			;
		if (write(done, &c, 1) != 1)
			break;
	}
}

/* One run of the child, asleep first (a child still on its way back to read() would
 * take the byte without being scheduled in): whether the count moved while it was still
 * running, that is at its sched-in, not at its sched-out. */
static bool moved_at_sched_in(pid_t child, int go, int done, volatile int *seen,
			      const volatile uint32_t *seq)
{
	const struct timespec pause = {.tv_nsec = 50000};
	for (int i = 0; !child_asleep(child); i++) {
		if (i == 2000)
			return false;
		nanosleep(&pause, NULL);
	}
	uint32_t before = *seq;
	*seen = 0;
	char c = 'x';
	if (write(go, &c, 1) != 1)
		return false;
	bool moved = false;
	for (double t0 = evclock_now(); !moved && evclock_now() - t0 < 0.1;) {
		nanosleep(&pause, NULL);
		moved = *seq != before;
	}
	*seen = 1; /* the child may answer */
	ssize_t r;
	do
		r = read(done, &c, 1);
	while (r < 0 && errno == EINTR);
	return moved && r == 1;
}

static bool seq_check(pid_t child, int go, int done, volatile int *seen)
{
	struct perf_event_attr a = {.size = sizeof(a),
				    .type = PERF_TYPE_SOFTWARE,
				    .config = PERF_COUNT_SW_TASK_CLOCK,
				    .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
						   PERF_FORMAT_TOTAL_TIME_RUNNING,
				    .exclude_kernel = 1,
				    .exclude_hv = 1};
	int fd = sys_perf_event_open(&a, child, -1, -1);
	if (fd < 0)
		return false;
	void *p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	bool ok = p != MAP_FAILED;
	const volatile uint32_t *seq =
		ok ? &((volatile struct perf_event_mmap_page *)p)->lock : NULL;
	for (int i = 0; ok && i < 3; i++)
		ok = moved_at_sched_in(child, go, done, seen, seq);
	if (p != MAP_FAILED)
		munmap(p, page_size());
	close(fd);
	return ok;
}

bool evgroup_seq_works(void)
{
	static int known = -1;
	if (known >= 0)
		return known;
	known = 0;
	int go[2], done[2];
	/* -1: the descriptor MAP_ANONYMOUS takes (cppcheck knows only files') */
	volatile int *seen = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
				  // cppcheck-suppress invalidFunctionArg
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (seen == MAP_FAILED)
		return false;
	if (pipe(go)) {
		munmap((void *)seen, sizeof(int));
		return false;
	}
	if (pipe(done)) {
		close(go[0]);
		close(go[1]);
		munmap((void *)seen, sizeof(int));
		return false;
	}
	pid_t child = fork();
	if (child == 0) {
		close(go[1]);
		close(done[0]);
		check_child(go[0], done[1], seen);
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	if (child > 0)
		known = seq_check(child, go[1], done[0], seen);
	close(go[1]); /* the child's read ends: it exits */
	close(done[0]);
	if (child > 0) {
		kill(child, SIGKILL);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	munmap((void *)seen, sizeof(int));
	return known;
}

int evgroup_probe_fd(const struct evgroup *g)
{
	return g->probe && g->lead >= 0 ? g->lead : -1;
}

int evgroup_probe_read(int fd, uint64_t *value, uint64_t *enabled)
{
	if (fd < 0)
		return -ENOTSUP;
	uint64_t buf[3]; /* value, time enabled, time running */
	int err = read_exact(fd, buf, sizeof(buf));
	if (err)
		return err;
	*value = buf[0];
	*enabled = buf[1];
	return 0;
}

int evgroup_probe(struct evgroup *g, uint64_t *value, uint64_t *enabled)
{
	return evgroup_probe_read(evgroup_probe_fd(g), value, enabled);
}

int evgroup_read(struct evgroup *g, struct evread_group *out)
{
	if (g->nopen == 0)
		return -ENODATA;
	uint64_t buf[3 + 2 * EVGROUP_MAX];
	int err;
	if (g->probe && g->nopen == 1) {
		/* A probed leader alone: its own read is the group's. */
		if ((err = read_exact(g->lead, buf, 3 * sizeof(uint64_t))))
			return err;
		memset(out, 0, sizeof(*out));
		out->nr = g->n;
		out->val[0] = buf[0];
		out->ena = buf[1];
		out->run = buf[2];
		return 0;
	}
	size_t want = evread_group_words(evgroup_read_format(), g->nopen) * sizeof(uint64_t);
	/* Through the first sibling when the leader reads alone. */
	int fd = g->probe ? g->fd[g->member[1]] : g->lead;
	if ((err = read_exact(fd, buf, want)))
		return err;

	/* A group read lists the leader, then the siblings in the order they were attached
	 * (perf_group_attach adds at the tail): the opening order. The first read learns the
	 * ids from it; every later one is checked against them. */
	if (!g->ids_known && buf[0] == g->nopen) {
		for (unsigned k = 0; k < g->nopen; k++)
			g->id[k] = buf[3 + 2 * k + 1];
		g->ids_known = true;
	}
	struct evread_group raw;
	err = evread_parse_group(buf, want / sizeof(uint64_t), evgroup_read_format(), g->nopen,
				 g->id, &raw);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	out->ena = raw.ena;
	out->run = raw.run;
	out->nr = g->n;
	for (unsigned k = 0; k < g->nopen; k++)
		out->val[g->member[k]] = raw.val[k];
	return 0;
}

enum ev_status evgroup_status(const struct evgroup *g, unsigned member)
{
	return member < g->n ? (enum ev_status)g->status[member] : EVS_UNOPENED;
}

unsigned evgroup_members(const struct evgroup *g)
{
	return g->n;
}

unsigned evgroup_open_count(const struct evgroup *g)
{
	return g->nopen;
}

int evgroup_leader_fd(const struct evgroup *g)
{
	return g->lead;
}

int evgroup_member_fd(const struct evgroup *g, unsigned member)
{
	return member < g->n ? g->fd[member] : -1;
}

void evgroup_free(struct evgroup *g)
{
	if (!g)
		return;
	/* Members before the leader: closing the leader first would promote siblings. */
	for (unsigned i = g->n; i-- > 0;)
		if (g->fd[i] >= 0 && g->fd[i] != g->lead)
			close(g->fd[i]);
	if (g->upage) {
		munmap(g->upage, page_size());
		nmapped--;
	}
	if (g->lead >= 0)
		close(g->lead);
	free(g);
}
