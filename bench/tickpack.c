/* tickpack: what GET /pmutop/v1/tick costs at N processes (default 1,000) and E events
 * (default 14, the default set's count), from a synthetic model: the exporter's tick
 * packs it once (modelwire_put, paid by every --listen run), a --connect reader unpacks
 * it (modelwire_get). usage: tickpack [N [E [ROUNDS]]]; prints the medians and the size.
 * Built by CMake with the tests (build/tests/bench_tickpack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "modelwire.h"
#define BENCH_MODEL
#include "benchutil.h"

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
	unsigned ne = argc > 2 ? (unsigned)atoi(argv[2]) : 14;
	unsigned rounds = argc > 3 ? (unsigned)atoi(argv[3]) : 200;
	double *put = calloc(rounds, sizeof(double)), *get = calloc(rounds, sizeof(double));
	struct bench_model bm;
	if (!put || !get || bench_model_make(&bm, n, ne, true))
		return 1;
	struct model m = bm.m;
	struct mwbuf b = {0};
	struct modelwire w = {0};
	for (unsigned k = 0; k < rounds; k++) {
		double t0 = bench_now();
		if (modelwire_put(&m, &b))
			return 1;
		double t1 = bench_now();
		unsigned char *copy = malloc(b.len);
		if (!copy)
			return 1;
		memcpy(copy, b.b, b.len); /* as the server's response and the client's body */
		double t2 = bench_now();
		if (modelwire_get(&w, copy, b.len) || w.m.nrows != n)
			return 1;
		put[k] = (t1 - t0) * 1e3;
		get[k] = (bench_now() - t2) * 1e3;
	}
	qsort(put, rounds, sizeof(double), bench_cmp_double);
	qsort(get, rounds, sizeof(double), bench_cmp_double);
	printf("%u processes x %u events: pack %.3f ms median (max %.3f), unpack %.3f ms "
	       "median (max %.3f), %u rounds; %zu bytes a tick\n",
	       n, ne, put[rounds / 2], put[rounds - 1], get[rounds / 2], get[rounds - 1], rounds,
	       b.len);
	mwbuf_free(&b);
	modelwire_clear(&w);
	bench_model_free(&bm);
	free(put);
	free(get);
	return 0;
}
