/* Small helpers over the model that every writer shares. */
#include "model.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

const char *model_exit_text(const struct model *m, char *buf, unsigned len)
{
	int st = m->exit_status;
	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (!m->final || st < 0)
		return buf;
	if (WIFEXITED(st)) {
		snprintf(buf, len, "exit %d", WEXITSTATUS(st));
	} else if (WIFSIGNALED(st)) {
		const char *name = sigabbrev_np(WTERMSIG(st));
		if (name)
			snprintf(buf, len, "killed by SIG%s%s", name, WCOREDUMP(st) ? " (core)" : "");
		else
			snprintf(buf, len, "killed by signal %d", WTERMSIG(st));
	}
	return buf;
}
