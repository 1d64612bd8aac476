/* ticker: processes for the recording-size bench.
 * usage: ticker IDLE ACTIVE SECONDS [NEW_A_SECOND [LIFE_MS]]
 * Starts IDLE processes that sleep and ACTIVE processes that wake every 100 ms and do a
 * little work (so that each has a few nonzero counts every interval), for SECONDS; then
 * kills them all. With NEW_A_SECOND, that many new processes a second besides (churn),
 * each named after its number (as short-lived commands differ), working as an active one
 * does for LIFE_MS (default 1000) and exiting. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void active(void)
{
	volatile unsigned long x = 0;
	struct timespec ts = {0, 100000000};
	for (;;) {
		for (int i = 0; i < 20000; i++)
			x += (unsigned long)i;
		nanosleep(&ts, NULL);
	}
}

static void churner(int rate, int life_ms, int secs)
{
	volatile unsigned long x = 0;
	/* On a schedule (the n-th at start + n / rate), so that a slow fork does not lower
	 * the rate. */
	struct timespec start, at;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (unsigned n = 0; n < (unsigned)rate * (unsigned)secs; n++) {
		long long ns = (long long)start.tv_nsec + (long long)n * 1000000000LL / rate;
		at.tv_sec = start.tv_sec + (time_t)(ns / 1000000000LL);
		at.tv_nsec = (long)(ns % 1000000000LL);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		pid_t p = fork();
		if (p == 0) {
			char name[16];
			snprintf(name, sizeof(name), "job%u", n % 5000);
			prctl(PR_SET_NAME, name);
			struct timespec ts = {0, 100000000};
			for (int t = 0; t < life_ms / 100; t++) {
				for (int i = 0; i < 20000; i++)
					x += (unsigned long)i;
				nanosleep(&ts, NULL);
			}
			_exit(0);
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	while (wait(NULL) > 0)
		;
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: ticker IDLE ACTIVE SECONDS [NEW_A_SECOND [LIFE_MS]]\n");
		return 2;
	}
	int idle = atoi(argv[1]), act = atoi(argv[2]), secs = atoi(argv[3]);
	int rate = argc > 4 ? atoi(argv[4]) : 0, life = argc > 5 ? atoi(argv[5]) : 1000;
	if (rate > 0 && fork() == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		churner(rate, life, secs);
	}
	for (int i = 0; i < idle + act; i++) {
		pid_t p = fork();
		if (p < 0) {
			perror("fork");
			break;
		}
		if (p == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (i < act)
				active();
			for (;;)
				pause();
		}
	}
	sleep((unsigned)secs);
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	while (wait(NULL) > 0)
		;
	return 0;
}
