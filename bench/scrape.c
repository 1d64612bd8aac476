/* scrape: the CPU cost and size of one /metrics exposition at N processes (default
 * 1,000) and E events (default 14, the default set's count), from a synthetic model:
 * each round adds one tick (promacc_update) and builds both formats (promtext_render),
 * as pmutop --listen does per tick; a scrape itself only sends the bytes built here.
 * usage: scrape [N [E [ROUNDS [TOP]]]] (TOP: --top, default N: every process per pid
 * beside its command; 0 is pmutop's default); prints the median and the sizes. Built by
 * CMake with the tests (build/tests/bench_scrape). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "promacc.h"
#include "promtext.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
	unsigned ne = argc > 2 ? (unsigned)atoi(argv[2]) : 14;
	unsigned rounds = argc > 3 ? (unsigned)atoi(argv[3]) : 200;
	unsigned top = argc > 4 ? (unsigned)atoi(argv[4]) : n;
	struct mevent *ev = calloc(ne, sizeof(*ev));
	struct mrow *rows = calloc(n, sizeof(*rows));
	struct val *v = calloc((size_t)n * ne, sizeof(*v));
	struct val_delta *g = calloc((size_t)n * ne, sizeof(*g));
	char(*names)[32] = calloc(ne, 32);
	char(*comms)[16] = calloc(n, 16);
	double *ms = calloc(rounds, sizeof(double));
	if (!ev || !rows || !v || !g || !names || !comms || !ms)
		return 1;
	for (unsigned i = 0; i < ne; i++) {
		snprintf(names[i], 32, i ? "event-%u" : "task-clock", i);
		ev[i] = (struct mevent){.name = names[i],
					.key = names[i],
					.group = i,
					.role = i ? ROLE_NONE : ROLE_TASK_CLOCK};
	}
	for (unsigned r = 0; r < n; r++) {
		snprintf(comms[r], 16, "proc-%u", r);
		rows[r] = (struct mrow){.kind = ROW_PROC,
					.pid = (pid_t)(1000 + r),
					.tid = (pid_t)(1000 + r),
					.comm = comms[r],
					.cgroup = "/system.slice/some.service",
					.v = v + (size_t)r * ne,
					.g = g + (size_t)r * ne};
		for (unsigned i = 0; i < ne; i++) {
			v[(size_t)r * ne + i] = (struct val){.v = (double)(r * 7 + i * 1234567),
							     .state = VAL_EXACT,
							     .run_pm = 1000};
			g[(size_t)r * ne + i] =
				(struct val_delta){.ena = 1000000123, .run = 999999};
		}
	}
	struct model m = {.nevents = ne, .events = ev, .nrows = n, .rows = rows};
	struct promacc_opts o = {.top = top};
	struct promacc *a = promacc_new(&o);
	struct promtext_out out = {0};
	for (unsigned k = 0; k < rounds; k++) {
		double t0 = now();
		promacc_update(a, &m, true);
		struct promtext_info in = {.version = "bench", .targets = promacc_targets(a)};
		if (promtext_render(a, &in, &out))
			return 1;
		ms[k] = (now() - t0) * 1e3;
	}
	qsort(ms, rounds, sizeof(double), cmp);
	printf("%u processes x %u events: update + both formats %.3f ms median (min %.3f, "
	       "max %.3f, %u rounds); text %zu bytes, OpenMetrics %zu bytes\n",
	       n, ne, ms[rounds / 2], ms[0], ms[rounds - 1], rounds, out.text.len, out.om.len);
	promtext_out_free(&out);
	promacc_free(a);
	return 0;
}
