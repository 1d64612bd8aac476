/* A process whose name tries to steer the terminal: it renames itself (the kernel's
 * comm, as ps and pmutop read it) to ESC [31m evil BEL, then waits to be seen. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
	if (prctl(PR_SET_NAME, "\033[31mevil\a", 0, 0, 0) != 0) {
		perror("prctl");
		return 1;
	}
	/* Busy now and then, so that it sorts near the top by CPU%. */
	for (int i = 0; i < 600; i++) {
		for (volatile long k = 0; k < 20000000; k++)
			;
		usleep(50000);
	}
	return 0;
}
