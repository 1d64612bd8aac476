/* Helpers shared by the cmocka programs. */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <stdio.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

const char *testutil_path(const char *rel)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf), "%s/tests/%s", PMUTOP_SOURCE_DIR, rel);
	return buf;
}

/* Read what is there; returns false at end of file. Keeps the first cap-1 bytes. */
static int drain(int fd, char *buf, size_t cap, size_t *len)
{
	char tmp[4096];
	ssize_t r = read(fd, tmp, sizeof(tmp));
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	if (buf && cap && *len + 1 < cap) {
		size_t n = (size_t)r;
		if (n > cap - 1 - *len)
			n = cap - 1 - *len;
		memcpy(buf + *len, tmp, n);
		*len += n;
		buf[*len] = '\0';
	}
	return 1;
}

int testutil_run(char *const argv[], char *out, size_t cap, char *err, size_t errcap)
{
	int po[2], pe[2];
	if (pipe(po) < 0 || pipe(pe) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(po[1]);
		close(pe[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	size_t len[2] = {0, 0};
	char *bufs[2] = {out, err};
	size_t caps[2] = {cap, errcap};
	for (int i = 0; i < 2; i++)
		if (bufs[i] && caps[i])
			bufs[i][0] = '\0';
	struct pollfd p[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain(p[i].fd, bufs[i], caps[i], &len[i])) {
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return st;
}

bool testutil_under_valgrind(void)
{
	const char *v = getenv("PMUTOP_TEST_VALGRIND");
	return v && *v && strcmp(v, "0") != 0;
}

__attribute__((no_sanitize_address)) void testutil_touch_pages(uint32_t n)
{
	if (n == 0)
		return;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)n * pg;
	long a = syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	if (a == -1)
		_exit(3);
	volatile char *p = (volatile char *)a;
	syscall(SYS_madvise, a, len, MADV_NOHUGEPAGE); /* one fault per page */
	for (uint32_t i = 0; i < n; i++)
		p[(size_t)i * pg] = 1;
	syscall(SYS_munmap, a, len);
}

int testutil_tracefs_ns(bool mounted)
{
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return -errno;
	/* Innermost first: the last lines of mountinfo are mounted last. */
	for (int pass = 0; pass < 8; pass++) {
		FILE *f = fopen("/proc/self/mountinfo", "re");
		char line[4096], dir[2048] = "", type[64];
		if (!f)
			return -errno;
		while (fgets(line, sizeof(line), f)) {
			const char *sep = strstr(line, " - ");
			char d[2048];
			if (sep && sscanf(sep, " - %63s", type) == 1 &&
			    (!strcmp(type, "tracefs") || !strcmp(type, "debugfs")) &&
			    sscanf(line, "%*s %*s %*s %*s %2047s", d) == 1)
				snprintf(dir, sizeof(dir), "%s", d);
		}
		fclose(f);
		if (!dir[0])
			break;
		if (umount2(dir, MNT_DETACH) != 0)
			return -errno;
	}
	if (mounted && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) != 0)
		return -errno;
	return 0;
}
