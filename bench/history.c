/* history: the cost of the screen's history store alone, at N rows. Builds a model of N
 * process rows over the default event set (13 events in 4 groups, as evset makes it),
 * feeds it T ticks (every value moves, a row in 50 is replaced each tick: churn), and
 * prints the CPU time per history_feed (median and max over the ticks after the first
 * two), the bytes the store holds, the growth of RSS from before the first feed, and
 * with alloccount.so preloaded, one flush of stdout per tick (its tick boundary).
 *   cc -O2 -D_GNU_SOURCE -Isrc/model -Ievents -o history bench/history.c src/model/history.c \
 *      src/model/columns.c src/model/value.c src/model/numfmt.c src/model/cgroup_name.c \
 *      src/model/model.c -lm
 *   ./history N [TICKS]        (TICKS default 50) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"

#include "history.h"

enum {
	E_TC,
	E_CS,
	E_MIGR,
	E_PF,
	E_MAJ,
	E_CYC,
	E_INS1,
	E_CREF,
	E_CMISS,
	E_INS2,
	E_BR,
	E_BMISS,
	E_INS3,
	NEV
};
#define NGRP 4

static const struct mevent events[NEV] = {
	[E_TC] = {.name = "task-clock", .key = "task-clock", .group = 0, .role = ROLE_TASK_CLOCK},
	[E_CS] = {.name = "cs", .key = "cs", .group = 0, .member = 1, .role = ROLE_CS},
	[E_MIGR] =
		{.name = "migr", .key = "migr", .group = 0, .member = 2, .role = ROLE_MIGRATIONS},
	[E_PF] = {.name = "pf", .key = "pf", .group = 0, .member = 3, .role = ROLE_FAULTS},
	[E_MAJ] = {.name = "maj", .key = "maj", .group = 0, .member = 4, .role = ROLE_MAJ_FAULTS},
	[E_CYC] = {.name = "cycles", .key = "cycles", .group = 1, .role = ROLE_CYCLES},
	[E_INS1] = {.name = "ins", .key = "ins#2", .group = 1, .member = 1, .role = ROLE_INSNS},
	[E_CREF] = {.name = "cref", .key = "cref", .group = 2, .role = ROLE_CACHE_REFS},
	[E_CMISS] = {.name = "cmiss",
		     .key = "cmiss",
		     .group = 2,
		     .member = 1,
		     .role = ROLE_CACHE_MISSES},
	[E_INS2] =
		{.name = "ins", .key = "ins#3", .group = 2, .member = 2, .role = ROLE_CACHE_INSNS},
	[E_BR] = {.name = "br", .key = "br", .group = 3, .role = ROLE_BRANCHES},
	[E_BMISS] = {.name = "bmiss",
		     .key = "bmiss",
		     .group = 3,
		     .member = 1,
		     .role = ROLE_BRANCH_MISSES},
	[E_INS3] =
		{.name = "ins", .key = "ins#4", .group = 3, .member = 2, .role = ROLE_BRANCH_INSNS},
};
static const struct mgroup groups[NGRP] = {
	{0, 5, false}, {5, 2, false}, {7, 3, false}, {10, 3, false}};

static double now_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kb(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	if (f)
		fclose(f);
	return rss * 4;
}

/* Every value moves from tick to tick. */
static void fill(struct val *v, struct val_delta *g, unsigned n, unsigned t)
{
	for (unsigned i = 0; i < n; i++) {
		struct val *rv = v + (size_t)i * NEV;
		for (unsigned e = 0; e < NEV; e++)
			rv[e] = (struct val){.v = 1e6 + (i * 7 + t * 13 + e) % 1000 * 1e3,
					     .state = VAL_EXACT,
					     .run_pm = 1000};
		for (unsigned k = 1; k < NGRP; k++)
			g[(size_t)i * NGRP + k] = (struct val_delta){1000000, 1000000, 0};
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: history N [TICKS]\n", stderr);
		return 2;
	}
	unsigned n = (unsigned)atoi(argv[1]), ticks = argc > 2 ? (unsigned)atoi(argv[2]) : 50;
	if (n == 0 || ticks < 4) {
		fputs("history: N >= 1 and TICKS >= 4\n", stderr);
		return 2;
	}
	struct mrow *rows = calloc(n, sizeof(*rows));
	struct val *v = calloc((size_t)n * NEV, sizeof(*v));
	struct val_delta *g = calloc((size_t)n * NGRP, sizeof(*g));
	double *cost = calloc(ticks, sizeof(*cost));
	if (!rows || !v || !g || !cost)
		return 1;
	for (unsigned i = 0; i < n; i++)
		rows[i] = (struct mrow){.kind = ROW_PROC,
					.pid = (pid_t)(i + 1),
					.tid = (pid_t)(i + 1),
					.v = v + (size_t)i * NEV,
					.g = g + (size_t)i * NGRP};
	struct model m = {.events = events,
			  .nevents = NEV,
			  .groups = groups,
			  .ngroups = NGRP,
			  .rows = rows,
			  .nrows = n,
			  .interval = 1,
			  .elapsed = 1};
	struct history *h = history_new();
	struct pane panes[8];
	unsigned np = columns_build_panes(&m, false, panes, 8);
	if (!h || np == 0)
		return 1;
	history_track(h, &panes[0].cols[panes[0].sort_default]);
	history_keep(h, panes, np);
	pid_t next = (pid_t)n + 1;
	fill(v, g, n, 0); /* the model's pages are in before RSS is read */
	long rss0 = rss_kb();
	for (unsigned t = 0; t < ticks; t++) {
		fill(v, g, n, t);
		for (unsigned i = t % 50; t > 0 && i < n; i += 50)
			rows[i].pid = rows[i].tid = next++; /* churn: a row in 50 is new */
		m.tick = t + 1;
		double c0 = now_cpu();
		if (history_feed(h, &m))
			return 1;
		cost[t] = now_cpu() - c0;
		fflush(stdout); /* alloccount.so's tick boundary */
	}
	long rss1 = rss_kb();
	qsort(cost + 2, ticks - 2, sizeof(*cost), bench_cmp_double);
	printf("rows %u ticks %u: history_feed median %.3f ms max %.3f ms; store %.2f MiB "
	       "(%.0f bytes/row); RSS +%.2f MiB\n",
	       n, ticks, cost[2 + (ticks - 2) / 2] * 1e3, cost[ticks - 1] * 1e3,
	       history_bytes(h) / 1048576.0, (double)history_bytes(h) / n, (rss1 - rss0) / 1024.0);
	history_free(h);
	free(rows);
	free(v);
	free(g);
	free(cost);
	return 0;
}
