/* k, F7, F8 and a from the screen: signals, nice and CPUs for this machine's processes,
 * each checked against /proc first. Part of the composition (app.h). */
#include "procact.h"

#include "procaff.h"
#include "siglist.h"

/* Whether pid is still the process that started at start (0: a start the source never
 * read, a process the perf engine saw fork: then only that it is alive), read from /proc
 * now; its command in comm. Never act on a stranger that took its pid meanwhile: why not
 * in why. */
static bool still_there(pid_t pid, unsigned long long start, char *comm, const char **why)
{
	struct procfs_task info;
	*comm = '\0';
	if (procfs_task_info("", pid, pid, &info) != 0 || info.dead) {
		*why = "is gone";
		return false;
	}
	if (start && info.start_ticks != start) {
		*why = "is another process now (its pid was reused)";
		return false;
	}
	snprintf(comm, PROCFS_COMM_MAX, "%s", info.comm);
	return true;
}

/* k: the signal to the processes picked (the tagged ones, or one), each unless it is
 * gone or its pid now names another process. One line says how it went: the first
 * failure, or what was sent. */
static void send_signal(struct ui *ui, const struct ui_cmd *cmd)
{
	char msg[200] = "", nm[24], comm[PROCFS_COMM_MAX] = "";
	unsigned n = cmd->npids ? cmd->npids : 1, sent = 0;
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = cmd->npids ? cmd->pids[i] : cmd->pid;
		unsigned long long start = cmd->npids ? cmd->starts[i] : cmd->start;
		const char *why = "";
		if (!still_there(pid, start, comm, &why)) {
			if (!*msg)
				snprintf(msg, sizeof(msg), "process %d %s: no signal sent",
					 (int)pid, why);
		} else if (kill(pid, cmd->sig) != 0) {
			if (!*msg)
				snprintf(msg, sizeof(msg), "cannot signal %d: %s%s", (int)pid,
					 strerror(errno),
					 errno == EPERM
						 ? " (another user's: run as root or that user)"
						 : "");
		} else {
			sent++;
		}
	}
	size_t k = strlen(msg);
	if (n == 1 && sent)
		snprintf(msg, sizeof(msg), "sent %s to %d (%s)",
			 siglist_name(cmd->sig, nm, sizeof(nm)),
			 (int)(cmd->npids ? cmd->pids[0] : cmd->pid), comm);
	else if (n > 1)
		snprintf(msg + k, sizeof(msg) - k, "%s%s sent to %u of %u tagged", k ? "; " : "",
			 siglist_name(cmd->sig, nm, sizeof(nm)), sent, n);
	ui_message(ui, msg);
}

/* a: the process's CPUs now, for the dialog; one line when it is gone or not ours. */
static void affinity_ask(struct ui *ui, const struct ui_cmd *cmd)
{
	int cpus[1024];
	bool on[1024];
	char msg[200], comm[PROCFS_COMM_MAX];
	const char *why = "";
	int n = still_there(cmd->pid, cmd->start, comm, &why)
			? procaff_get("", cmd->pid, cpus, on, (int)(sizeof(cpus) / sizeof(cpus[0])))
			: -ESRCH;
	if (n > 0) {
		ui_affinity_open(ui, cmd->pid, cmd->start, cpus, on, (unsigned)n);
		return;
	}
	if (n == -ESRCH)
		snprintf(msg, sizeof(msg), "process %d %s: no CPUs to set", (int)cmd->pid,
			 *why ? why : "is gone");
	else
		snprintf(msg, sizeof(msg), "cannot read the CPUs of %d (%s): %s", (int)cmd->pid,
			 comm, strerror(n ? -n : ENOENT));
	ui_message(ui, msg);
}

/* The dialog's Enter: the CPUs on the process and its threads, unless its pid now names
 * another process. One line says how it went. */
static void affinity_set(struct ui *ui, const struct ui_cmd *cmd)
{
	char msg[240], comm[PROCFS_COMM_MAX];
	const char *why = "";
	unsigned done = 0, failed = 0;
	int err = still_there(cmd->pid, cmd->start, comm, &why)
			  ? procaff_set("", cmd->pid, cmd->cpus, cmd->ncpus, &done, &failed)
			  : -ESRCH;
	if (err == -ESRCH && !done)
		snprintf(msg, sizeof(msg), "process %d %s: no CPUs set", (int)cmd->pid,
			 *why ? why : "is gone");
	else if (err)
		snprintf(msg, sizeof(msg), "cannot set the CPUs of %d: %s (%u of %u threads set)%s",
			 (int)cmd->pid, strerror(-err), done, done + failed,
			 err == -EPERM ? ": another user's, run as root or that user" : "");
	else
		snprintf(msg, sizeof(msg), "%d: its %u threads now run on %u CPUs", (int)cmd->pid,
			 done, cmd->ncpus);
	ui_message(ui, msg);
}

/* F7, F8: nice + step (-1 raises the priority) for the processes picked, as renice(1)
 * does it; a failure (EPERM: raising it takes root or CAP_SYS_NICE) says one line. */
static void renice(struct ui *ui, const struct ui_cmd *cmd)
{
	char msg[200] = "", comm[PROCFS_COMM_MAX] = "";
	unsigned n = cmd->npids, done = 0;
	int was = 0, now = 0;
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = cmd->pids[i];
		const char *why = "";
		if (!still_there(pid, cmd->starts[i], comm, &why)) {
			if (!*msg)
				snprintf(msg, sizeof(msg), "process %d %s: not reniced", (int)pid,
					 why);
			continue;
		}
		errno = 0;
		int cur = getpriority(PRIO_PROCESS, (id_t)pid);
		int want = cur + cmd->step < -20  ? -20
			   : cur + cmd->step > 19 ? 19
						  : cur + cmd->step;
		if ((cur == -1 && errno) || setpriority(PRIO_PROCESS, (id_t)pid, want) != 0) {
			if (!*msg)
				snprintf(msg, sizeof(msg), "cannot renice %d: %s%s", (int)pid,
					 strerror(errno),
					 errno == EPERM || errno == EACCES
						 ? (cmd->step < 0
							    ? " (a higher priority takes root or "
							      "CAP_SYS_NICE)"
							    : " (another user's: run as root or "
							      "that user)")
						 : "");
			continue;
		}
		was = cur;
		now = want;
		done++;
	}
	size_t k = strlen(msg);
	if (n == 1 && done)
		snprintf(msg, sizeof(msg), "%d (%s) reniced: nice %d -> %d", (int)cmd->pids[0],
			 comm, was, now);
	else if (n > 1)
		snprintf(msg + k, sizeof(msg) - k, "%snice %+d for %u of %u tagged", k ? "; " : "",
			 cmd->step, done, n);
	ui_message(ui, msg);
}

void procact_run(struct ui *ui, const struct ui_cmd *cmd)
{
	if (cmd->kind == UI_SIGNAL)
		send_signal(ui, cmd);
	else if (cmd->kind == UI_RENICE)
		renice(ui, cmd);
	else if (cmd->kind == UI_AFFINITY_ASK)
		affinity_ask(ui, cmd);
	else
		affinity_set(ui, cmd);
}
