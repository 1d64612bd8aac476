/* Every signal the kernel has, by number and name, for the kill menu (htop's
 * SignalsPanel): the standard ones, then the real-time ones as kill -l names them. */
#ifndef PMUTOP_SIGLIST_H
#define PMUTOP_SIGLIST_H

#include <stddef.h>

#include "menu.h"

/* Fill mn (cleared by the caller) in number order, "15 SIGTERM" and so on, each item's
 * value its number, with the selection on SIGTERM. Returns how many were added. */
unsigned siglist_fill(struct menu *mn);
/* Signal sig's name as the list shows it ("SIGTERM", "SIGRTMIN+3"), into buf; "signal N"
 * for one the list does not have. Returns buf. */
const char *siglist_name(int sig, char *buf, size_t len);

#endif
