/* workload: a fixed amount of work, timed from inside so that a tool's own start-up is
 * not counted. usage: workload pingpong|spin COUNT [RESULTFILE]
 *   pingpong: COUNT one-byte round trips between two processes over two pipes
 *             (two context switches per trip);
 *   spin:     COUNT iterations of an arithmetic loop in one process.
 * Prints elapsed_s=SECONDS to RESULTFILE (or stdout). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"

static int pingpong(long n)
{
	int a[2], b[2];
	if (pipe(a) < 0 || pipe(b) < 0)
		return -1;
	pid_t c = fork();
	if (c < 0)
		return -1;
	char x = 0;
	if (c == 0) {
		/* Only our ends stay open: a parent that dies ends our read, and us. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(a[1]);
		close(b[0]);
		for (long i = 0; i < n; i++)
			if (read(a[0], &x, 1) != 1 || write(b[1], &x, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	for (long i = 0; i < n; i++)
		if (write(a[1], &x, 1) != 1 || read(b[0], &x, 1) != 1)
			return -1;
	int st;
	waitpid(c, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static volatile uint64_t sink;

static int spin(long n)
{
	uint64_t x = 88172645463325252ull, s = 0;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		s += x % 1000003u;
	}
	sink = s;
	return 0;
}

static int forks(long n)
{
	for (long i = 0; i < n; i += 2) {
		pid_t k[2];
		for (int j = 0; j < 2; j++) {
			k[j] = fork();
			if (k[j] < 0)
				return -1;
			if (k[j] == 0) {
				static char page[16 * 4096];
				for (unsigned p = 0; p < sizeof(page); p += 4096)
					page[p] = 1;
				_exit(page[0] == 1 ? 0 : 1);
			}
		}
		for (int j = 0; j < 2; j++) {
			int st;
			if (waitpid(k[j], &st, 0) != k[j] || !WIFEXITED(st) || WEXITSTATUS(st))
				return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: workload pingpong|spin|forks COUNT [RESULTFILE]\n", stderr);
		return 2;
	}
	long n = atol(argv[2]);
	double t0 = bench_now();
	int err = -2;
	if (strcmp(argv[1], "pingpong") == 0)
		err = pingpong(n);
	else if (strcmp(argv[1], "spin") == 0)
		err = spin(n);
	else if (strcmp(argv[1], "forks") == 0)
		err = forks(n);
	double dt = bench_now() - t0;
	if (err) {
		fprintf(stderr, "workload: %s failed\n", argv[1]);
		return 1;
	}
	FILE *f = argc > 3 ? fopen(argv[3], "w") : stdout;
	if (!f)
		return 1;
	fprintf(f, "elapsed_s=%.6f\n", dt);
	return 0;
}
