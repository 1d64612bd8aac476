/* scrape: the CPU cost and size of one /metrics exposition at N processes (default
 * 1,000) and E events (default 14, the default set's count), from a synthetic model:
 * each round adds one tick (promacc_update) and builds both formats (promtext_render),
 * as pmutop --listen does per tick; a scrape itself only sends the bytes built here.
 * usage: scrape [N [E [ROUNDS [TOP]]]] (TOP: --top, default N: every process per pid
 * beside its command; 0 is pmutop's default); prints the median and the sizes. Built by
 * CMake with the tests (build/tests/bench_scrape). */
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "promacc.h"
#include "promtext.h"
#define BENCH_MODEL
#include "benchutil.h"

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
	unsigned ne = argc > 2 ? (unsigned)atoi(argv[2]) : 14;
	unsigned rounds = argc > 3 ? (unsigned)atoi(argv[3]) : 200;
	unsigned top = argc > 4 ? (unsigned)atoi(argv[4]) : n;
	double *ms = calloc(rounds, sizeof(double));
	struct bench_model bm;
	if (!ms || bench_model_make(&bm, n, ne, false))
		return 1;
	struct model m = bm.m;
	struct promacc_opts o = {.top = top};
	struct promacc *a = promacc_new(&o);
	struct promtext_out out = {0};
	for (unsigned k = 0; k < rounds; k++) {
		double t0 = bench_now();
		promacc_update(a, &m, true);
		struct promtext_info in = {.version = "bench", .targets = promacc_targets(a)};
		if (promtext_render(a, &in, &out))
			return 1;
		ms[k] = (bench_now() - t0) * 1e3;
	}
	qsort(ms, rounds, sizeof(double), bench_cmp_double);
	printf("%u processes x %u events: update + both formats %.3f ms median (min %.3f, "
	       "max %.3f, %u rounds); text %zu bytes, OpenMetrics %zu bytes\n",
	       n, ne, ms[rounds / 2], ms[0], ms[rounds - 1], rounds, out.text.len, out.om.len);
	promtext_out_free(&out);
	promacc_free(a);
	bench_model_free(&bm);
	free(ms);
	return 0;
}
