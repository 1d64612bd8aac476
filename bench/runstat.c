/* runstat: run a command and report what it cost: user+sys CPU and peak RSS from the
 * kernel's rusage of the child, wall time, the peak count of its open descriptors
 * (sampled from /proc/PID/fd), and when the first block of its output ended (the first
 * empty line). The command's output is read through a pipe and dropped, or with -s its
 * header lines (those that start with a letter or '#': block headers and notices, not
 * table rows) are kept in a file. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"

static volatile pid_t child;

/* timeout(1) or the shell ends a run with SIGTERM: pass it on, then report as usual. */
static void forward(int sig)
{
	(void)sig;
	if (child > 0)
		kill(child, SIGTERM);
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* Descriptors the child has open now, or -1 when it is gone. */
static int count_fds(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void usage(void)
{
	fputs("usage: runstat [-o RESULT] [-s HEADERS] [-i SECONDS] -- COMMAND [ARGS]\n"
	      "  prints: cpu_s user_s sys_s maxrss_kb wall_s maxfd first_block_s status\n"
	      "  -o: write that line to RESULT instead of stderr\n"
	      "  -s: keep the output lines that start with a letter or '#' in HEADERS\n"
	      "  -i: sample /proc/PID/fd every SECONDS (default 0.2)\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *res_path = NULL, *copy_path = NULL;
	double every = 0.2;
	int opt;
	while ((opt = getopt(argc, argv, "+o:s:i:")) != -1) {
		if (opt == 'o')
			res_path = optarg;
		else if (opt == 's')
			copy_path = optarg;
		else if (opt == 'i')
			every = atof(optarg);
		else
			usage();
	}
	if (optind >= argc)
		usage();
	FILE *copy = NULL;
	if (copy_path && !(copy = fopen(copy_path, "w"))) {
		perror(copy_path);
		return 2;
	}
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		perror("pipe");
		return 2;
	}
	double t0 = bench_now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "runstat: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	child = pid;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	int maxfd = 0;
	double first_block = -1, next_sample = t0;
	char buf[65536], line[1024];
	size_t linelen = 0;
	char last = 0;
	bool text_seen = false; /* a non-empty line has ended */
	for (;;) {
		double t = bench_now();
		if (t >= next_sample) {
			int n = count_fds(pid);
			if (n > maxfd)
				maxfd = n;
			next_sample = t + every;
		}
		struct pollfd p = {.fd = pfd[0], .events = POLLIN};
		int ms = (int)((next_sample - bench_now()) * 1000) + 1;
		int r = poll(&p, 1, ms < 1 ? 1 : ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t got = read(pfd[0], buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		for (ssize_t i = 0; copy && i < got; i++) {
			if (linelen < sizeof(line))
				line[linelen++] = buf[i];
			if (buf[i] != '\n')
				continue;
			char c = line[0];
			if (c == '#' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
				fwrite(line, 1, linelen, copy);
			linelen = 0;
		}
		/* The first block ends at the first empty line (two newlines in a row). */
		for (ssize_t i = 0; first_block < 0 && i < got; i++) {
			if (buf[i] == '\n' && last == '\n' && text_seen)
				first_block = bench_now() - t0;
			if (buf[i] == '\n' && last != '\n')
				text_seen = true;
			last = buf[i];
		}
	}
	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("wait4");
			return 2;
		}
	double wall = bench_now() - t0;
	if (copy)
		fclose(copy);
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	FILE *out = res_path ? fopen(res_path, "w") : stderr;
	if (!out) {
		perror(res_path);
		return 2;
	}
	fprintf(out,
		"cpu_s=%.6f user_s=%.6f sys_s=%.6f maxrss_kb=%ld wall_s=%.6f maxfd=%d "
		"first_block_s=%.6f status=%d\n",
		tv(ru.ru_utime) + tv(ru.ru_stime), tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss,
		wall, maxfd, first_block, code);
	if (out != stderr)
		fclose(out);
	return code;
}
