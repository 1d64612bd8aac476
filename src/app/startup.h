/* What happens once before the loop: the notice explaining missing counters, and
 * starting a watched command with its counters attached before its first instruction. */
#ifndef PMUTOP_STARTUP_H
#define PMUTOP_STARTUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "evset.h"
#include "source.h"
#include "srcbase.h"

struct pmu_set;
struct model;

/* One line on why hardware counters are missing, or "" when they all count. */
void startup_notice(const struct pmu_set *pmus, const struct evset *set, char *buf, size_t len);
/* Comma-separated names of the core PMUs in use ("cpu", "cpu_core,cpu_atom"). */
void startup_pmu_names(const struct pmu_set *pmus, char *buf, size_t len);

/* A reader that goes away (| head, a scraper) is an EPIPE for the output it fed, which
 * ends alone, not a signal that ends pmutop with every other output. The command
 * pmutop starts gets SIGPIPE as pmutop was given it. */
void startup_ignore_sigpipe(void);

/* Fork argv[0] stopped before exec. *go is the descriptor that releases it. tty (a pty's
 * slave) or NULL: the command in a session of its own on that terminal, or on pmutop's.
 * out >= 0: its stdout and stderr go there instead. */
int startup_spawn(char **argv, const char *tty, int out, pid_t *pid, int *go, int *errfd);
/* Let the command exec. Returns 0 once it has, or -errno why it could not. */
int startup_release(int go, int errfd);

/* perf_event_paranoid, or -100 when unreadable. */
int startup_paranoid(void);

/* What this process may count, from its capabilities and perf_event_paranoid. */
struct privs {
	int paranoid;
	bool capable; /* root, CAP_PERFMON or CAP_SYS_ADMIN: everything */
	bool kernel;  /* may count kernel mode (paranoid <= 1) */
	bool cpus;    /* may count per CPU (paranoid <= 0) */
	bool others;  /* may count other users' processes */
	bool pin;     /* CAP_IPC_LOCK: perf pages past the user's perf_event_mlock_kb
			 budget pass the memlock limit */
};

void startup_privs(struct privs *p);
/* One line saying what an unprivileged pmutop counts and how to get the rest, or "". */
void startup_privs_notice(const struct privs *p, char *buf, size_t len);
/* One line on why pid may not be counted (the source said EACCES), with what helps at
 * this paranoid level. */
void startup_pid_refusal(const struct privs *p, pid_t pid, char *buf, size_t len);
/* Software events that only happen in kernel mode (context switches, migrations) read 0
 * when kernel mode is excluded: mark them not permitted instead of showing that zero. */
void startup_mark_kernel_only(struct evset *set);

#endif
