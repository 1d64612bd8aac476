/* A process with three extra threads that sleep, for the focus end-to-end test. Prints
 * its pid, then lives until killed (at most 120 s). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	sleep(120);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, idle, NULL);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	sleep(120);
	return 0;
}
