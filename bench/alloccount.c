/* alloccount: an LD_PRELOAD shim that counts heap allocations per tick. A tick ends where
 * pmutop's batch writer flushes its output, once per block (any stream's fflush but
 * stderr's: the writer's stream is outstream.h's, not stdout). Counters opened in the same tick
 * (perf_event_open through syscall(2)) are counted too: a tick that opened none saw no
 * new task, so any allocation in it is a steady-state one. At exit one line per tick,
 * "ALLOCS OPENS", goes to the file named by ALLOCCOUNT_OUT. Every call goes on to glibc,
 * so nothing else changes.
 *   cc -O2 -shared -fPIC -o alloccount.so alloccount.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

#define MAX_TICKS 100000

static unsigned long count, opens;
static unsigned long ticks[MAX_TICKS][2];
static unsigned nticks;

void *malloc(size_t n)
{
	__atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	__atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	__atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
	return __libc_realloc(p, n);
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_list ap;
	va_start(ap, nr);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open)
		__atomic_fetch_add(&opens, 1, __ATOMIC_RELAXED);
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int fflush(FILE *f)
{
	static int (*real)(FILE *);
	if (!real)
		real = (int (*)(FILE *))dlsym(RTLD_NEXT, "fflush");
	if (f && f != stderr && nticks < MAX_TICKS) {
		ticks[nticks][0] = count;
		ticks[nticks++][1] = opens;
		count = opens = 0;
	}
	return real ? real(f) : EOF;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("ALLOCCOUNT_OUT");
	if (!path)
		return;
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	for (unsigned i = 0; i < nticks; i++)
		fprintf(f, "%lu %lu\n", ticks[i][0], ticks[i][1]);
	fclose(f);
}
