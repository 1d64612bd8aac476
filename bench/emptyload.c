/* emptyload: load bench/emptyprog.bpf.o and attach the programs named, then wait for
 * SIGTERM or SIGINT (the links go with the process). Prints "ready" once attached.
 * usage: emptyload OBJECT PROGRAM... */
#include <bpf/libbpf.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: emptyload OBJECT PROGRAM...\n", stderr);
		return 2;
	}
	/* Blocked until sigsuspend, so that a signal before it is not lost. */
	sigset_t block, wait_mask;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGINT);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	struct bpf_object *obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "emptyload: cannot open %s\n", argv[1]);
		return 1;
	}
	struct bpf_program *p;
	for (p = bpf_object__next_program(obj, NULL); p; p = bpf_object__next_program(obj, p)) {
		int want = 0;
		for (int i = 2; i < argc; i++)
			want |= strcmp(bpf_program__name(p), argv[i]) == 0;
		bpf_program__set_autoload(p, want);
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "emptyload: cannot load %s\n", argv[1]);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		p = bpf_object__find_program_by_name(obj, argv[i]);
		if (!p || !bpf_program__attach(p)) {
			fprintf(stderr, "emptyload: cannot attach %s\n", argv[i]);
			return 1;
		}
	}
	puts("ready");
	fflush(stdout);
	while (!stop)
		sigsuspend(&wait_mask);
	bpf_object__close(obj);
	return 0;
}
