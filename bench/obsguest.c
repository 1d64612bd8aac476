/* obsguest: one observer-effect run inside the emulated guest of bench/emucost.sh, where
 * there is no shell: the workload under one tool, as bench/run.sh's observe_one runs it
 * on the host. Prints the workload's own elapsed_s=SECONDS (guest time: under QEMU's
 * -icount the guest's clock counts instructions, so the same run gives the same time).
 *   obsguest MODE pingpong|spin|forks COUNT
 * MODE: alone; perf, perf_i, perf_a, perf_p (bench/statform: perf stat --, -i, -a, -p);
 * pmutop_cmd (pmutop --), pmutop_i (-i --), pmutop_p (-p), pmutop_sys (every task, perf
 * backend), pmutop_bpf (every task, bpf backend). -p attaches 50 ms after the workload
 * starts; the every-task modes start the workload once pmutop printed its first block.
 * The programs are looked for in OBS_BIN (default /). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SW "{task-clock,context-switches,cpu-migrations,page-faults,major-faults}"
#define RESULT "/tmp/obs.result"
#define BGOUT "/tmp/obs.bg"

static char wl[300], sf[300], pm[300]; /* the workload's, statform's and pmutop's paths */

/* pmutop's arguments up to its target: batch, the bench's interval and events. */
static int pmutop_args(char **a, const char *backend)
{
	int n = 0;
	const char *head[] = {pm, "-b", "-d", "0.1", "--backend", backend, "-e", SW};
	for (unsigned i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		a[n++] = (char *)head[i];
	return n;
}

/* Append argv w (NULL-terminated) to a at n, and the NULL. */
static void append(char **a, int n, char *const *w)
{
	while (*w)
		a[n++] = *w++;
	a[n] = NULL;
}

/* Start argv with stdout to out (NULL: /dev/null); its pid. */
static pid_t start(char *const *argv, const char *out)
{
	pid_t p = fork();
	if (p == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

static int finish(pid_t p)
{
	int st = 0;
	return p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void nap_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

static int nonempty(const char *f)
{
	struct stat s;
	return stat(f, &s) == 0 && s.st_size > 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: obsguest MODE pingpong|spin|forks COUNT\n", stderr);
		return 2;
	}
	const char *bin = getenv("OBS_BIN") ? getenv("OBS_BIN") : "";
	snprintf(wl, sizeof(wl), "%s/workload", bin);
	snprintf(sf, sizeof(sf), "%s/statform", bin);
	snprintf(pm, sizeof(pm), "%s/pmutop", bin);
	const char *m = argv[1];
	char *w[] = {wl, argv[2], argv[3], RESULT, NULL};
	char *a[24];
	int n;
	unlink(RESULT);
	int rc = 0;
	if (!strcmp(m, "alone")) {
		rc = finish(start(w, NULL));
	} else if (!strcmp(m, "perf") || !strcmp(m, "perf_i") || !strcmp(m, "perf_a")) {
		n = 0;
		a[n++] = sf;
		if (!strcmp(m, "perf_i"))
			a[n++] = "-i";
		if (!strcmp(m, "perf_a"))
			a[n++] = "-a";
		a[n++] = "--";
		append(a, n, w);
		rc = finish(start(a, NULL));
	} else if (!strcmp(m, "pmutop_cmd") || !strcmp(m, "pmutop_i")) {
		n = pmutop_args(a, "perf");
		if (!strcmp(m, "pmutop_i"))
			a[n++] = "-i";
		a[n++] = "--";
		append(a, n, w);
		rc = finish(start(a, NULL));
	} else if (!strcmp(m, "perf_p") || !strcmp(m, "pmutop_p")) {
		pid_t wp = start(w, NULL);
		char pid[16];
		snprintf(pid, sizeof(pid), "%d", (int)wp);
		nap_ms(50);
		bool ours = !strcmp(m, "pmutop_p");
		n = ours ? pmutop_args(a, "perf") : 0;
		if (!ours)
			a[n++] = sf;
		char *target[] = {"-p", pid, NULL};
		append(a, n, target);
		pid_t tool = start(a, NULL);
		rc = finish(wp);
		if (ours)
			kill(tool, SIGINT);
		finish(tool);
	} else if (!strcmp(m, "pmutop_sys") || !strcmp(m, "pmutop_bpf")) {
		a[pmutop_args(a, strcmp(m, "pmutop_bpf") ? "perf" : "bpf")] = NULL;
		unlink(BGOUT);
		pid_t tool = start(a, BGOUT);
		for (int i = 0; i < 3000 && !nonempty(BGOUT); i++)
			nap_ms(20);
		rc = finish(start(w, NULL));
		kill(tool, SIGTERM);
		finish(tool);
	} else {
		fprintf(stderr, "obsguest: unknown mode %s\n", m);
		return 2;
	}
	char line[128] = "elapsed_s=nan\n";
	FILE *f = fopen(RESULT, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			snprintf(line, sizeof(line), "elapsed_s=nan\n");
		fclose(f);
	}
	printf("%s %s %s", m, argv[2], line);
	return rc;
}
