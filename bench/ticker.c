/* ticker: processes for the recording-size bench. usage: ticker IDLE ACTIVE SECONDS
 * Starts IDLE processes that sleep and ACTIVE processes that wake every 100 ms and do a
 * little work (so that each has a few nonzero counts every interval), for SECONDS; then
 * kills them all. */
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

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: ticker IDLE ACTIVE SECONDS\n");
		return 2;
	}
	int idle = atoi(argv[1]), act = atoi(argv[2]), secs = atoi(argv[3]);
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
