/* The interval between ticks as the user gives it: -d, the setup file's "interval" and
 * the screen's d prompt read it with this one parser, so that each refuses the same. */
#ifndef PMUTOP_INTERVAL_H
#define PMUTOP_INTERVAL_H

/* Plain decimal seconds, the whole string, from 0.1 to 3600: 0, or -EINVAL. */
int interval_parse(const char *s, double *out);

#endif
