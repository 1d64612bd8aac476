/* tickpack: what GET /pmutop/v1/tick costs at N processes (default 1,000) and E events
 * (default 14, the default set's count), from a synthetic model: the exporter's tick
 * packs it once (modelwire_put, paid by every --listen run), a --connect reader unpacks
 * it (modelwire_get). usage: tickpack [N [E [ROUNDS]]]; prints the medians and the size.
 * Built by CMake with the tests (build/tests/bench_tickpack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modelwire.h"

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
	struct mevent *ev = calloc(ne, sizeof(*ev));
	struct mgroup *gr = calloc(ne, sizeof(*gr));
	struct mrow *rows = calloc(n, sizeof(*rows));
	struct val *v = calloc((size_t)n * ne, sizeof(*v));
	struct val_delta *g = calloc((size_t)n * ne, sizeof(*g));
	char(*names)[32] = calloc(ne, 32);
	char(*comms)[16] = calloc(n, 16);
	double *put = calloc(rounds, sizeof(double)), *get = calloc(rounds, sizeof(double));
	if (!ev || !gr || !rows || !v || !g || !names || !comms || !put || !get)
		return 1;
	for (unsigned i = 0; i < ne; i++) {
		snprintf(names[i], 32, i ? "event-%u" : "task-clock", i);
		ev[i] = (struct mevent){.name = names[i], .key = names[i], .group = i};
		gr[i] = (struct mgroup){.first = i, .n = 1};
	}
	for (unsigned r = 0; r < n; r++) {
		snprintf(comms[r], 16, "proc-%u", r);
		rows[r] = (struct mrow){.kind = ROW_PROC,
					.pid = (pid_t)(1000 + r),
					.tid = (pid_t)(1000 + r),
					.user = "root",
					.comm = comms[r],
					.cgroup = "/system.slice/some.service",
					.cpu_pct = -1,
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
	struct model m = {.hostname = "bench",
			  .nevents = ne,
			  .events = ev,
			  .ngroups = ne,
			  .groups = gr,
			  .nrows = n,
			  .rows = rows,
			  .interval = 1,
			  .tick = 1};
	struct mwbuf b = {0};
	struct modelwire w = {0};
	for (unsigned k = 0; k < rounds; k++) {
		double t0 = now();
		if (modelwire_put(&m, &b))
			return 1;
		double t1 = now();
		unsigned char *copy = malloc(b.len);
		if (!copy)
			return 1;
		memcpy(copy, b.b, b.len); /* as the server's response and the client's body */
		double t2 = now();
		if (modelwire_get(&w, copy, b.len) || w.m.nrows != n)
			return 1;
		put[k] = (t1 - t0) * 1e3;
		get[k] = (now() - t2) * 1e3;
	}
	qsort(put, rounds, sizeof(double), cmp);
	qsort(get, rounds, sizeof(double), cmp);
	printf("%u processes x %u events: pack %.3f ms median (max %.3f), unpack %.3f ms "
	       "median (max %.3f), %u rounds; %zu bytes a tick\n",
	       n, ne, put[rounds / 2], put[rounds - 1], get[rounds / 2], get[rounds - 1], rounds,
	       b.len);
	mwbuf_free(&b);
	modelwire_clear(&w);
	return 0;
}
