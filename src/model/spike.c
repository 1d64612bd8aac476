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

/* The median of the window's distances from med (its spread), SPIKE_DEV_MIN of med at
 * least: a flat window's is not 0. */
static double spread(const struct spike_win *w, double med)
{
	double d[SPIKE_WINDOW] = {0};
	if (w->n == 0)
		return 0;
	for (unsigned i = 0; i < w->n; i++)
		d[i] = fabs(w->v[i] - med);
	qsort(d, w->n, sizeof(d[0]), cmp);
	double m = w->n % 2 ? d[w->n / 2] : (d[w->n / 2 - 1] + d[w->n / 2]) / 2;
	return m > SPIKE_DEV_MIN * fabs(med) ? m : SPIKE_DEV_MIN * fabs(med);
}

bool spike_feed(struct spike_win *w, double x)
{
	if (isnan(x))
		return false;
	double med = spike_median(w), top = med;
	for (unsigned i = 0; i < w->n; i++)
		top = w->v[i] > top ? w->v[i] : top;
	/* Above twice the median, or (a high baseline: 60% of a CPU that goes to 100%) out of
	 * the window's spread; by the rise at least, and by a tenth of the window's range:
	 * after a peak of 200, a blip of 2 is noise, not the next spike. */
	bool high = !isnan(med) && x > med + w->rise && x > med + SPIKE_SPAN * (top - med) &&
		    (x > SPIKE_FACTOR * med || x - med > SPIKE_DEVS * spread(w, med));
	bool begins = high && !w->in;
	w->in = high;
	w->v[w->at] = x;
	w->at = (w->at + 1) % SPIKE_WINDOW;
	if (w->n < SPIKE_WINDOW)
		w->n++;
	return begins;
}

/* Back from seq by up to n steps: the earliest reached. */
static uint64_t steps_back(const struct spike_src *src, uint64_t seq, unsigned n)
{
	while (n-- && src->step(src->ctx, seq, -1, &seq) == 0)
		;
	return seq;
}

/* A backward search's next block: the block values before end, from SPIKE_LEAD before. */
static void search_block(struct spike_search *s, uint64_t end)
{
	uint64_t start = steps_back(&s->src, end, s->block + SPIKE_LEAD), before;
	s->end = end;
	s->at = start;
	s->exact = steps_back(&s->src, end, s->block);
	s->from_first = s->src.step(s->src.ctx, start, -1, &before) != 0;
	s->open = false;
	spike_reset(&s->w, s->rise);
}

void spike_search_start(struct spike_search *s, const struct spike_src *src, uint64_t origin,
			int dir, double rise, unsigned block)
{
	memset(s, 0, sizeof(*s));
	s->src = *src;
	s->dir = dir > 0 ? 1 : -1;
	s->rise = rise;
	s->block = block ? block : 1;
	s->origin = origin;
	if (s->dir > 0) {
		s->at = steps_back(src, origin, SPIKE_LEAD);
		spike_reset(&s->w, rise);
	} else {
		search_block(s, origin);
	}
}

bool spike_search_run(struct spike_search *s, unsigned n)
{
	for (; n > 0; n--) {
		uint64_t seq = s->at, next;
		double x = s->src.value(s->src.ctx, seq);
		bool was = s->w.in;
		if (spike_feed(&s->w, x)) {
			s->open = true;
			s->begun = s->peak = s->last = seq;
			s->top = x;
		} else if (s->open && s->w.in && !isnan(x)) {
			s->last = seq;
			if (x > s->top) {
				s->top = x;
				s->peak = seq;
			}
		}
		bool more = s->src.step(s->src.ctx, seq, 1, &next) == 0;
		/* A spike ends at a value with a number below its threshold, or at the end. */
		bool ended = s->open && ((was && !s->w.in && !isnan(x)) || !more);
		if (ended && s->dir > 0 && s->begun > s->origin) {
			s->found = true;
			s->hit = s->peak;
			s->hit_top = s->top;
			return true;
		}
		if (ended && s->dir < 0 && s->last < s->end &&
		    (s->from_first || s->last >= s->exact)) {
			s->found = true;
			s->hit = s->peak;
			s->hit_top = s->top;
		}
		if (ended)
			s->open = false;
		if (s->dir < 0 && (!more || seq >= s->end)) {
			if (s->found || s->from_first)
				return true;
			search_block(s, s->exact);
		} else if (!more) {
			return true; /* the end of the series */
		} else {
			s->at = next;
		}
	}
	return false;
}

bool spike_search_until(struct spike_search *s, double (*now)(void *ctx), void *ctx, double until)
{
	do {
		if (spike_search_run(s, 1))
			return true;
	} while (now(ctx) < until);
	return false;
}
