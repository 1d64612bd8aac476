/* The running median and a spike's start. */
#include "spike.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void spike_reset(struct spike_win *w, double rise)
{
	memset(w, 0, sizeof(*w));
	w->rise = rise > 0 ? rise : 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double spike_median(const struct spike_win *w)
{
	if (w->n < SPIKE_MIN)
		return NAN;
	double s[SPIKE_WINDOW];
	memcpy(s, w->v, w->n * sizeof(s[0]));
	qsort(s, w->n, sizeof(s[0]), cmp);
	return w->n % 2 ? s[w->n / 2] : (s[w->n / 2 - 1] + s[w->n / 2]) / 2;
}

bool spike_feed(struct spike_win *w, double x)
{
	if (isnan(x))
		return false;
	double med = spike_median(w);
	bool high = !isnan(med) && x > med + w->rise && x > SPIKE_FACTOR * med;
	bool begins = high && !w->in;
	w->in = high;
	w->v[w->at] = x;
	w->at = (w->at + 1) % SPIKE_WINDOW;
	if (w->n < SPIKE_WINDOW)
		w->n++;
	return begins;
}
