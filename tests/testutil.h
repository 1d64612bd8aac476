/* Helpers shared by the cmocka programs: fixture paths and small process utilities. */
#ifndef PMUTOP_TESTUTIL_H
#define PMUTOP_TESTUTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* Absolute path of a file below tests/ (fixtures), in a static buffer. */
const char *testutil_path(const char *rel);

/* Run argv, capture stdout (up to cap-1 bytes, NUL-terminated) and return the exit
 * status as from waitpid, or -1. stderr is captured into err if non-NULL. */
int testutil_run(char *const argv[], char *out, size_t cap, char *err, size_t errcap);

/* True when the test program itself runs under valgrind (.ci/checks.sh's valgrind stage
 * sets PMUTOP_TEST_VALGRIND): a workload it forks is then slowed and touches valgrind's
 * own pages, so counts and timings of such workloads mean nothing there. */
bool testutil_under_valgrind(void);

/* Touch n fresh pages with raw system calls (mmap, one store a page, munmap) and no ASan
 * check: exactly n page faults, nothing of libc's or of a sanitizer's. _exit(3) when
 * the mapping fails (it runs in forked workers and threads). */
void testutil_touch_pages(uint32_t n);

/* This process in a mount namespace of its own where tracefs (and debugfs, which has
 * tracing/ too) is unmounted, and mounted again at /sys/kernel/tracing when mounted is
 * set: a fresh machine's or a set-up one's, whatever this one has, without touching
 * anyone else's view. Call it in a forked child. 0, or -errno (not root: skip). */
int testutil_tracefs_ns(bool mounted);

#endif
