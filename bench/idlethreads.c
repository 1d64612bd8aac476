/* idlethreads: hold one process of N idle threads (each blocked in pause()) until told
 * to stop: the thread-heavy machine (a JVM, a database) beside bench/idle.c's many
 * processes. usage: idlethreads N READYFILE. READYFILE is created once all N threads
 * exist; SIGTERM, SIGINT or SIGHUP end the process with every thread. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: idlethreads N READYFILE\n", stderr);
		return 2;
	}
	long n = atol(argv[1]);
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024); /* 8,000 threads in 512 MiB of stacks */
	for (long i = 1; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, &at, idle, NULL) != 0) {
			fprintf(stderr, "idlethreads: thread %ld of %ld not created\n", i + 1, n);
			return 1;
		}
	}
	FILE *f = fopen(argv[2], "w");
	if (!f)
		return 1;
	fclose(f);
	for (;;)
		pause();
}
