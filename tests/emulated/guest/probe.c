/* probe WORKLOAD N: the lane's own perf_event_open measurements of the workload, made
 * without pmutop. They prove the ground the pmutop checks stand on (the workload's exact
 * count, the emulator's cycle model, multiplexing, unsupported events) so that a failing
 * pmutop check points at pmutop and a failing probe check at the environment.
 *
 * Output, one fact a line: "count name=NAME value=V enabled=E running=R",
 * "open name=NAME errno=ENAME", "pfm ..." and "pmu ...". */
#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_EVENTS 16
#define SYSFS_PMU "/sys/bus/event_source/devices/armv8_pmuv3"

struct ev {
	char name[64];
	struct perf_event_attr attr;
	int leader; /* index of the group leader; its own index for a leader */
	int fd;
	int err;	 /* errno of a failed open, 0 if opened */
	uint64_t val[3]; /* value, time_enabled, time_running */
};

struct evset {
	int n;
	struct ev ev[MAX_EVENTS];
};

static const char *errname(int e)
{
	switch (e) {
	case ENOENT:
		return "ENOENT";
	case EINVAL:
		return "EINVAL";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ENODEV:
		return "ENODEV";
	case EACCES:
		return "EACCES";
	case EPERM:
		return "EPERM";
	default:
		return "other";
	}
}

static struct ev *evset_add(struct evset *s, const char *name, uint32_t type, uint64_t config,
			    int new_group)
{
	struct ev *e = &s->ev[s->n];

	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->attr.size = sizeof(e->attr);
	e->attr.type = type;
	e->attr.config = config;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->leader = new_group || s->n == 0 ? s->n : s->ev[s->n - 1].leader;
	e->fd = -1;
	s->n++;
	return e;
}

/* Open every event on pid the way a counting tool does: leaders disabled and armed to
 * start at exec, members enabled so they follow their leader. */
static void evset_open(struct evset *s, pid_t pid)
{
	for (int i = 0; i < s->n; i++) {
		struct ev *e = &s->ev[i];
		int is_leader = e->leader == i;
		int group_fd = is_leader ? -1 : s->ev[e->leader].fd;

		e->attr.disabled = is_leader;
		e->attr.enable_on_exec = is_leader;
		if (!is_leader && group_fd < 0) {
			e->err = EBADF;
			continue;
		}
		e->fd = (int)syscall(SYS_perf_event_open, &e->attr, pid, -1, group_fd, 0);
		e->err = e->fd < 0 ? errno : 0;
	}
}

static void evset_report(struct evset *s, const char *set)
{
	for (int i = 0; i < s->n; i++) {
		struct ev *e = &s->ev[i];

		if (e->fd < 0) {
			printf("open set=%s name=%s errno=%s\n", set, e->name, errname(e->err));
			continue;
		}
		if (read(e->fd, e->val, sizeof(e->val)) != sizeof(e->val))
			printf("read set=%s name=%s failed\n", set, e->name);
		else
			printf("count set=%s name=%s value=%llu enabled=%llu running=%llu\n", set,
			       e->name, (unsigned long long)e->val[0],
			       (unsigned long long)e->val[1], (unsigned long long)e->val[2]);
		close(e->fd);
	}
}

/* Run "workload n" with the set's counters attached from its exec to its exit. The
 * child waits on a pipe so that the counters exist before it execs. */
static int measure(struct evset *s, const char *set, const char *workload, const char *n)
{
	int go[2], status;
	char c = 0;
	pid_t pid;

	if (pipe(go) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execl(workload, workload, n, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	evset_open(s, pid);
	if (write(go[1], &c, 1) != 1)
		return -1;
	close(go[1]);
	waitpid(pid, &status, 0);
	evset_report(s, set);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The sysfs alias "event=0x08" of an armv8_pmuv3 event, as a raw config. */
static int sysfs_config(const char *alias, uint64_t *config, uint32_t *type)
{
	char path[256];
	unsigned long long v = 0;
	unsigned t = 0;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS_PMU "/events/%s", alias);
	f = fopen(path, "r");
	if (!f || fscanf(f, "event=%llx", &v) != 1) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	f = fopen(SYSFS_PMU "/type", "r");
	if (!f || fscanf(f, "%u", &t) != 1) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	*config = v;
	*type = t;
	return 0;
}

/* Encode a libpfm4 name; prints what libpfm4 made of it. */
static int pfm_encode(const char *name, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr a;
	int ret;

	memset(&arg, 0, sizeof(arg));
	memset(&a, 0, sizeof(a));
	arg.attr = &a;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		printf("pfm name=%s error=\"%s\"\n", name, pfm_strerror(ret));
		return -1;
	}
	printf("pfm name=%s type=%u config=0x%llx exclude_user=%u exclude_kernel=%u\n", name,
	       a.type, (unsigned long long)a.config, a.exclude_user, a.exclude_kernel);
	attr->type = a.type;
	attr->config = a.config;
	attr->exclude_user = a.exclude_user;
	attr->exclude_kernel = a.exclude_kernel;
	attr->exclude_hv = a.exclude_hv;
	return 0;
}

static void print_pfm_pmus(void)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	pfm_for_all_pmus(p)
	{
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present)
			printf("pmu libpfm=%s counters=%d fixed=%d\n", info.name, info.num_cntrs,
			       info.num_fixed_cntrs);
	}
}

/* Counters that fit the PMU (no multiplexing) with every spelling of "instructions",
 * and the generic events the emulated PMU lacks. */
static int probe_exact(const char *wl, const char *n)
{
	struct evset s = {0};
	struct perf_event_attr pa;
	uint64_t config;
	uint32_t type;

	evset_add(&s, "cycles:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1);
	evset_add(&s, "instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	if (sysfs_config("inst_retired", &config, &type) == 0)
		evset_add(&s, "armv8_pmuv3/inst_retired/u", type, config, 1);
	else
		printf("sysfs armv8_pmuv3/events/inst_retired missing\n");
	memset(&pa, 0, sizeof(pa));
	if (pfm_encode("arm_ac57::INST_RETIRED:u=1", &pa) == 0) {
		struct ev *e = evset_add(&s, "arm_ac57::INST_RETIRED:u=1", pa.type, pa.config, 1);
		e->attr.exclude_user = pa.exclude_user;
		e->attr.exclude_kernel = pa.exclude_kernel;
		e->attr.exclude_hv = pa.exclude_hv;
	}
	evset_add(&s, "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1);
	evset_add(&s, "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1);
	return measure(&s, "exact", wl, n);
}

/* Four groups of three: more than the 6+1 counters, so the kernel rotates them. */
static int probe_mux(const char *wl, const char *n)
{
	struct evset s = {0};

	for (int g = 0; g < 4; g++)
		for (int i = 0; i < 3; i++) {
			int cyc = (g + i) % 2;
			evset_add(&s, cyc ? "cycles:u" : "instructions:u", PERF_TYPE_HARDWARE,
				  cyc ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS,
				  i == 0);
		}
	return measure(&s, "mux", wl, n);
}

/* One group of nine: more than the PMU holds, so it must never be scheduled. */
static int probe_big(const char *wl, const char *n)
{
	struct evset s = {0};

	for (int i = 0; i < 9; i++)
		evset_add(&s, i % 2 ? "cycles:u" : "instructions:u", PERF_TYPE_HARDWARE,
			  i % 2 ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS, i == 0);
	return measure(&s, "big", wl, n);
}

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: probe WORKLOAD N\n");
		return 2;
	}
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS)
		printf("pfm initialize error=\"%s\"\n", pfm_strerror(ret));
	print_pfm_pmus();
	/* Which libpfm4 spellings mean "user mode only": the lane's -e uses one of them. */
	pfm_encode("arm_ac57::INST_RETIRED:u", &a);
	pfm_encode("arm_ac57::INST_RETIRED", &a);

	ret = probe_exact(argv[1], argv[2]);
	ret |= probe_mux(argv[1], argv[2]);
	ret |= probe_big(argv[1], argv[2]);
	return ret ? 1 : 0;
}
