/* The bench programs' shared helpers: a monotonic clock in seconds and the order qsort
 * needs for medians; with BENCH_SPAWN, a command started held before its exec; with
 * BENCH_MODEL (model.h included first), a synthetic model of n processes x ne events.
 * Header only: a bench program builds from its one file. */
#ifndef PMUTOP_BENCHUTIL_H
#define PMUTOP_BENCHUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* qsort's order for doubles, smallest first. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#ifdef BENCH_SPAWN
#include <unistd.h>

/* cmd forked and held before its exec (as perf stat holds its workload) until a byte is
 * written to *go, so that counters can be opened on it first: its pid, or -1. */
static inline pid_t bench_spawn_held(char **cmd, int *go)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t kid = fork();
	if (kid == 0) {
		char c;
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(126);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	close(p[0]);
	if (kid < 0)
		close(p[1]);
	*go = p[1];
	return kid;
}
#endif

#ifdef BENCH_MODEL
/* A model as a tick of n processes gives it: ne events (task-clock first, then event-1
 * ...), each its own group when groups (a leader key per event), every value exact and
 * running the whole interval. */
struct bench_model {
	struct model m;
	struct mevent *ev;
	struct mgroup *gr;
	struct mrow *rows;
	struct val *v;
	struct val_delta *g;
	char (*names)[32];
	char (*comms)[16];
};

static inline void bench_model_free(struct bench_model *b)
{
	free(b->ev);
	free(b->gr);
	free(b->rows);
	free(b->v);
	free(b->g);
	free(b->names);
	free(b->comms);
}

/* 0, or -1 out of memory (b freed). */
static inline int bench_model_make(struct bench_model *b, unsigned n, unsigned ne, bool groups)
{
	*b = (struct bench_model){.ev = calloc(ne, sizeof(*b->ev)),
				  .gr = calloc(ne, sizeof(*b->gr)),
				  .rows = calloc(n, sizeof(*b->rows)),
				  .v = calloc((size_t)n * ne, sizeof(*b->v)),
				  .g = calloc((size_t)n * ne, sizeof(*b->g)),
				  .names = calloc(ne, 32),
				  .comms = calloc(n, 16)};
	if (!b->ev || !b->gr || !b->rows || !b->v || !b->g || !b->names || !b->comms) {
		bench_model_free(b);
		return -1;
	}
	for (unsigned i = 0; i < ne; i++) {
		snprintf(b->names[i], 32, i ? "event-%u" : "task-clock", i);
		b->ev[i] = (struct mevent){.name = b->names[i],
					   .key = b->names[i],
					   .group = i,
					   .role = i ? ROLE_NONE : ROLE_TASK_CLOCK};
		b->gr[i] = (struct mgroup){.first = i, .n = 1};
	}
	for (unsigned r = 0; r < n; r++) {
		snprintf(b->comms[r], 16, "proc-%u", r);
		b->rows[r] = (struct mrow){.kind = ROW_PROC,
					   .pid = (pid_t)(1000 + r),
					   .tid = (pid_t)(1000 + r),
					   .user = "root",
					   .comm = b->comms[r],
					   .cgroup = "/system.slice/some.service",
					   .cpu_pct = -1,
					   .v = b->v + (size_t)r * ne,
					   .g = b->g + (size_t)r * ne};
		for (unsigned i = 0; i < ne; i++) {
			b->v[(size_t)r * ne + i] = (struct val){.v = (double)(r * 7 + i * 1234567),
								.state = VAL_EXACT,
								.run_pm = 1000};
			b->g[(size_t)r * ne + i] =
				(struct val_delta){.ena = 1000000123, .run = 999999};
		}
	}
	b->m = (struct model){.hostname = "bench",
			      .nevents = ne,
			      .events = b->ev,
			      .ngroups = groups ? ne : 0,
			      .groups = groups ? b->gr : NULL,
			      .nrows = n,
			      .rows = b->rows,
			      .interval = 1,
			      .tick = 1};
	return 0;
}
#endif

#endif
