/* Notices, the watched command's start, and the source chosen. */
#include "startup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "evgroup.h"
#include "evstatus.h"
#include "pmu.h"

int startup_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

/* Effective capability bits from /proc/self/status: no libcap needed for two bits. */
static bool has_cap(int bit)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long eff = 0;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> bit) & 1;
}

#define CAP_IPC_LOCK_BIT 14
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

void startup_privs(struct privs *p)
{
	p->paranoid = startup_paranoid();
	p->capable = geteuid() == 0 || has_cap(CAP_PERFMON_BIT) || has_cap(CAP_SYS_ADMIN_BIT);
	p->kernel = p->capable || p->paranoid <= 1;
	p->cpus = p->capable || p->paranoid <= 0;
	p->others = p->capable;
	p->pin = has_cap(CAP_IPC_LOCK_BIT);
}

/* The path of this binary for a setcap line, or "pmutop" when /proc cannot say. */
static void self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1 || memchr(buf, ' ', (size_t)n))
		snprintf(buf, len, "pmutop");
	else
		buf[n] = '\0';
}

/* Only what changes something at this level: lowering perf_event_paranoid to 0 gives
 * kernel mode and per-CPU counters (levels 1 and up); no level gives other users'
 * processes (ptrace rules), only capabilities do. */
void startup_privs_notice(const struct privs *p, char *buf, size_t len)
{
	char self[256], lower[96] = "";
	buf[0] = '\0';
	if (p->capable)
		return;
	self_path(self, sizeof(self));
	if (!p->kernel || !p->cpus)
		snprintf(lower, sizeof(lower), ", or sysctl -w kernel.perf_event_paranoid=0 for %s",
			 p->kernel ? "per-CPU counters" : "kernel mode and per-CPU counters");
	snprintf(buf, len,
		 "not privileged (perf_event_paranoid=%d): counting your own processes%s%s; for "
		 "everything run as root, or setcap cap_perfmon,cap_sys_ptrace+ep %s%s",
		 p->paranoid, p->kernel ? "" : " in user mode only",
		 p->cpus ? "" : ", no per-CPU counters", self, lower);
}

void startup_pid_refusal(const struct privs *p, pid_t pid, char *buf, size_t len)
{
	char self[256];
	self_path(self, sizeof(self));
	/* Above 2 the kernel refuses even one's own processes; at 2 and below only ptrace
	 * rules (its owner, or CAP_SYS_PTRACE) stand in the way, and no sysctl helps. */
	snprintf(buf, len,
		 "not allowed to count pid %d (perf_event_paranoid is %d, and ptrace rules "
		 "apply): run as root or as its owner, or setcap cap_perfmon,cap_sys_ptrace+ep "
		 "%s%s",
		 (int)pid, p->paranoid, self,
		 p->paranoid > 2 ? ", or sysctl -w kernel.perf_event_paranoid=2 for your own "
				   "processes"
				 : "");
}

void startup_mark_kernel_only(struct evset *set)
{
	for (unsigned g = 0; g < set->specs.n; g++) {
		for (unsigned k = 0; k < set->specs.g[g].n; k++) {
			if (!evgroup_kernel_only(&set->specs.g[g].ev[k]))
				continue;
			set->preset[g][k] = EVS_NOPERM;
			set->events[set->groups[g].first + k].status = WHY_NOPERM;
		}
	}
}

void startup_pmu_names(const struct pmu_set *pmus, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned i = 0; pmus && i < pmu_set_count(pmus); i++) {
		struct pmu_info info;
		if (pmu_set_info(pmus, i, &info) || !info.core || info.type < 0)
			continue;
		int n = snprintf(buf + o, len - o, "%s%s", o ? "," : "", info.name);
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
	if (!o)
		snprintf(buf, len, "none");
}

/* The first hardware event that cannot count, and why. */
static const struct mevent *first_missing(const struct evset *set)
{
	for (unsigned i = 0; i < set->nevents; i++)
		if (set->events[i].hardware && set->events[i].status != WHY_NONE)
			return &set->events[i];
	return NULL;
}

void startup_notice(const struct pmu_set *pmus, const struct evset *set, char *buf, size_t len)
{
	buf[0] = '\0';
	int types[4];
	bool have_pmu = pmus && pmu_set_core_types(pmus, types, 4) > 0;
	const struct mevent *miss = first_missing(set);
	bool any_hw = false;
	for (unsigned i = 0; i < set->nevents; i++)
		any_hw = any_hw || set->events[i].hardware;
	if (!any_hw || !miss)
		return;
	if (!have_pmu && !evset_any_hardware(set)) {
		snprintf(buf, len,
			 "no hardware PMU (a VM without PMU passthrough?): hardware "
			 "counters read n/a; showing software events");
		return;
	}
	if (!evset_any_hardware(set)) {
		snprintf(buf, len,
			 "hardware counters unavailable (%s: %s); showing software events",
			 miss->name, val_why_str((enum val_why)miss->status));
		return;
	}
	snprintf(buf, len, "%s: %s on this machine: its cells read n/a", miss->name,
		 val_why_str((enum val_why)miss->status));
}

/* SIGPIPE as whoever started pmutop left it, for the command to get it back. */
static struct sigaction inherited_pipe = {.sa_handler = SIG_DFL};

void startup_ignore_sigpipe(void)
{
	struct sigaction ign = {.sa_handler = SIG_IGN};
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &inherited_pipe);
}

/* The child's own session with tty as its controlling terminal and stdin, stdout and
 * stderr: the screen's keys and cells stay pmutop's. */
static int take_tty(const char *tty)
{
	if (setsid() < 0)
		return -1;
	int fd = open(tty, O_RDWR);
	if (fd < 0 || ioctl(fd, TIOCSCTTY, 0) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (dup2(fd, i) < 0)
			return -1;
	if (fd > 2)
		close(fd);
	return 0;
}

int startup_spawn(char **argv, const char *tty, int out, pid_t *pid, int *go, int *errfd)
{
	int g[2], e[2];
	if (pipe2(g, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(e, O_CLOEXEC) < 0) {
		int err = -errno;
		close(g[0]);
		close(g[1]);
		return err;
	}
	pid_t p = fork();
	if (p < 0) {
		int err = -errno;
		close(g[0]);
		close(g[1]);
		close(e[0]);
		close(e[1]);
		return err;
	}
	if (p == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		sigaction(SIGPIPE, &inherited_pipe, NULL); /* as pmutop was given it */
		close(g[1]);
		close(e[0]);
		char c;
		/* Wait until the counters are attached; EOF without a byte means pmutop gave up. */
		if (read(g[0], &c, 1) != 1)
			_exit(127);
		bool ok =
			out < 0 || (dup2(out, STDOUT_FILENO) >= 0 && dup2(out, STDERR_FILENO) >= 0);
		if (ok && (!tty || take_tty(tty) == 0))
			execvp(argv[0], argv);
		int err = errno;
		if (write(e[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(g[0]);
	close(e[1]);
	*pid = p;
	*go = g[1];
	*errfd = e[0];
	return 0;
}

int startup_release(int go, int errfd)
{
	char c = 'x';
	ssize_t w = write(go, &c, 1);
	close(go);
	if (w != 1) {
		close(errfd);
		return -EPIPE;
	}
	int err = 0;
	ssize_t r;
	do
		r = read(errfd, &err, sizeof(err));
	while (r < 0 && errno == EINTR);
	close(errfd);
	return r == sizeof(err) ? -err : 0;
}
