/* idle: hold N idle processes (each blocked in pause()) until told to stop.
 * usage: idle N READYFILE. READYFILE is created once all N children exist. On SIGTERM,
 * SIGINT or SIGHUP every child is killed and reaped before idle exits, so the next
 * measurement starts without dying tasks; children also die with the parent
 * (PR_SET_PDEATHSIG), so a SIGKILLed idle leaves nothing behind. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: idle N READYFILE\n", stderr);
		return 2;
	}
	long n = atol(argv[1]);
	pid_t self = getpid();
	pid_t *kids = calloc((size_t)(n > 0 ? n : 1), sizeof(*kids));
	if (!kids)
		return 1;
	setpgid(0, 0);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_NAME, "bench-idle");
	/* A benchmark killed outright still ends us, and so our children. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	for (long i = 0; i < n; i++) {
		pid_t c = fork();
		if (c < 0) {
			perror("idle: fork");
			kill(0, SIGKILL);
			return 1;
		}
		if (c == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != self)
				_exit(0);
			sigprocmask(SIG_UNBLOCK, &set, NULL);
			for (;;)
				pause();
		}
		kids[i] = c;
	}
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	int sig;
	sigwait(&set, &sig);
	for (long i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (long i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	return 0;
}
