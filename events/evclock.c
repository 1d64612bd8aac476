/* CLOCK_MONOTONIC as seconds. */
#include "evclock.h"

#include <time.h>

double evclock_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
