/* Guest /init of the emulated-PMU lane: mounts the pseudo filesystems, prints what the
 * guest has (kernel, PMUs), runs each line of /lane.plan with its output prefixed by the
 * line's tag, prints the sentinel and powers off. The host judges only these lines. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PLAN_PATH "/lane.plan"
#define PMU_DIR "/sys/bus/event_source/devices"
#define SENTINEL "PMUTOP-LANE-DONE"
#define MAX_ARGS 64
/* Guest (virtual) seconds a plan line may take. The host's timeout bounds the whole run;
 * this one keeps a hung command from hiding the results of the lines after it. */
#define STEP_TIMEOUT_S 120

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) != 0 && errno != EBUSY)
		printf("init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* The initramfs has no /dev/console node (making one needs root on the host), so the
 * kernel gave us no stdio: take the console from devtmpfs instead. */
static void setup_console(void)
{
	int fd = open("/dev/console", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Kernel messages would cut into our lines: keep them in the ring buffer (printed
	 * at the end, prefixed) and let only emergencies through. */
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 1);
}

static void print_file(const char *label, const char *path)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	printf("info|%s=%s\n", label, f ? buf : "(missing)");
}

/* One line per PMU (name and perf type) and, for the CPU PMU, its event aliases: the
 * lane's log then says what the kernel offered without needing dmesg. */
static void print_pmus(void)
{
	DIR *d = opendir(PMU_DIR);
	struct dirent *e;
	char path[512];

	if (!d) {
		printf("info|pmus=(no %s)\n", PMU_DIR);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/type", e->d_name);
		print_file(e->d_name, path);
	}
	closedir(d);

	d = opendir(PMU_DIR "/armv8_pmuv3/events");
	if (!d)
		return;
	printf("info|armv8_pmuv3 events:");
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			printf(" %s", e->d_name);
	printf("\n");
	closedir(d);
}

static void print_info(void)
{
	struct utsname u;

	if (uname(&u) == 0)
		printf("info|kernel=%s %s %s\n", u.sysname, u.release, u.machine);
	print_file("perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
	print_file("perf_event_mux_interval_ms", PMU_DIR "/armv8_pmuv3/perf_event_mux_interval_ms");
	print_pmus();
}

/* Copy a command's captured output to the console, each line behind "tag<sep>". */
static void dump(const char *tag, char sep, const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s%c%s\n", tag, sep, line);
	}
	fclose(f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void exec_child(char **argv)
{
	int in = open("/dev/null", O_RDONLY);
	int out = open("/tmp/out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err = open("/tmp/err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	sigset_t none;

	if (in < 0 || out < 0 || err < 0)
		_exit(126);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0); /* so a timeout kills the command's children too */
	dup2(in, 0);
	dup2(out, 1);
	dup2(err, 2);
	execv(argv[0], argv);
	fprintf(stderr, "init: exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Wait for pid at most STEP_TIMEOUT_S; SIGCHLD is blocked by the caller. */
static int wait_bounded(pid_t pid, int *status)
{
	struct timespec left = {.tv_sec = STEP_TIMEOUT_S};
	double deadline = now_s() + STEP_TIMEOUT_S;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 0;
		double rest = deadline - now_s();
		if (rest <= 0)
			break;
		left.tv_sec = (time_t)rest;
		left.tv_nsec = (long)((rest - left.tv_sec) * 1e9);
		sigtimedwait(&chld, NULL, &left);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, status, 0);
	return -1;
}

static void run_step(const char *tag, char **argv)
{
	double t0 = now_s();
	int status = 0;
	pid_t pid;

	printf("LANE-BEGIN %s", tag);
	for (char **a = argv; *a; a++)
		printf(" %s", *a);
	printf("\n");
	pid = fork();
	if (pid < 0) {
		printf("LANE-END %s fork-failed errno=%d\n", tag, errno);
		return;
	}
	if (pid == 0)
		exec_child(argv);
	int timed_out = wait_bounded(pid, &status) != 0;
	dump(tag, '|', "/tmp/out");
	dump(tag, '!', "/tmp/err");
	if (timed_out)
		printf("LANE-END %s timeout=%d\n", tag, STEP_TIMEOUT_S);
	else if (WIFSIGNALED(status))
		printf("LANE-END %s signal=%d\n", tag, WTERMSIG(status));
	else
		printf("LANE-END %s status=%d guest_s=%.3f\n", tag, WEXITSTATUS(status),
		       now_s() - t0);
}

/* A plan line is "tag<TAB>argv0<TAB>argv1..."; '#' starts a comment line. Tabs, not
 * spaces, so that event specs need no quoting. */
static void run_plan(void)
{
	char line[4096];
	FILE *f = fopen(PLAN_PATH, "r");

	if (!f) {
		printf("init: no %s\n", PLAN_PATH);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *argv[MAX_ARGS + 1], *save = NULL;
		int n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char *tag = strtok_r(line, "\t", &save);
		for (char *a; n < MAX_ARGS && (a = strtok_r(NULL, "\t", &save));)
			argv[n++] = a;
		argv[n] = NULL;
		if (n > 0)
			run_step(tag, argv);
	}
	fclose(f);
}

/* Warnings and worse from the kernel's ring buffer (a perf WARN_ON, say), behind
 * "kmsg|": they explain a failure without ever splitting one of our lines. */
static void dump_kernel_warnings(void)
{
	static char buf[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);

	if (n <= 0)
		return;
	buf[n] = '\0';
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (l[0] == '<' && l[1] >= '0' && l[1] <= '4')
			printf("kmsg|%s\n", l);
}

int main(void)
{
	sigset_t chld;

	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	mount_one("devtmpfs", "/dev", "devtmpfs");
	mkdir("/tmp", 01777);
	setup_console();
	setenv("PATH", "/", 1);

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	print_info();
	run_plan();
	dump_kernel_warnings();
	printf(SENTINEL "\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	/* Returning would panic the kernel; the host's timeout is the last resort. */
	for (;;)
		pause();
}
