/* A selection in a long list and the window onto it, for the browsers: lists of
 * thousands of events are never copied, only indexed. */
#ifndef PMUTOP_SCROLL_H
#define PMUTOP_SCROLL_H

#include <stdbool.h>
#include <stddef.h>

struct scroll {
	size_t n;    /* items */
	size_t sel;  /* selected item (0 when n == 0) */
	size_t top;  /* first item shown */
	size_t page; /* rows last drawn: PgUp/PgDn step */
};

/* The list now has n items: keep the selection inside it. */
void scroll_set(struct scroll *s, size_t n);
/* Up, Down, PgUp, PgDn, Home, End. Returns false for any other key. */
bool scroll_key(struct scroll *s, int key);
/* Keep the selection within a window of height rows (remembered for paging). */
void scroll_fit(struct scroll *s, size_t height);

#endif
