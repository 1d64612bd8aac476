/* The one clock every interval is measured on: CLOCK_MONOTONIC, in seconds. A task
 * event's time_enabled is its own time on a CPU, never an interval (perf_event_open(2)):
 * intervals come from here. */
#ifndef PMUTOP_EVCLOCK_H
#define PMUTOP_EVCLOCK_H

double evclock_now(void);

#endif
