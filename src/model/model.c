/* The rows' storage a source writes (mstore), and small helpers over the model that
 * every writer shares. */
#include "model.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int model_role(const struct model *m, enum ev_role role)
{
	for (unsigned i = 0; i < m->nevents; i++)
		if (m->events[i].role == role)
			return (int)i;
	return -1;
}

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
			snprintf(buf, len, "killed by SIG%s%s", name,
				 WCOREDUMP(st) ? " (core)" : "");
		else
			snprintf(buf, len, "killed by signal %d", WTERMSIG(st));
	}
	return buf;
}

const char *model_notice_text(const struct model *m, char *buf, unsigned len)
{
	const char *a = m->notice && *m->notice ? m->notice : NULL;
	const char *b = m->source_notice && *m->source_notice ? m->source_notice : NULL;
	if (len)
		snprintf(buf, len, "%s%s%s", a ? a : "", a && b ? "; " : "", b ? b : "");
	return buf;
}

void mstore_free(struct mstore *s)
{
	if (!s)
		return;
	free(s->rows);
	free(s->vals);
	free(s->gds);
	memset(s, 0, sizeof(*s));
}

long mstore_reserve(struct mstore *s, size_t n, unsigned nevents, unsigned ngroups)
{
	if (s->nevents != nevents || s->ngroups != ngroups) {
		mstore_free(s);
		s->nevents = nevents;
		s->ngroups = ngroups;
	}
	if (n <= s->cap)
		return (long)s->cap;
	size_t cap = n + n / 2 + 16;
	struct mrow *rows = realloc(s->rows, cap * sizeof(*rows));
	if (rows)
		s->rows = rows;
	struct val *vals = realloc(s->vals, (cap * nevents + 1) * sizeof(*vals));
	if (vals)
		s->vals = vals;
	struct val_delta *gds = realloc(s->gds, (cap * ngroups + 1) * sizeof(*gds));
	if (gds)
		s->gds = gds;
	size_t old = s->cap;
	if (rows && vals && gds)
		s->cap = cap;
	/* The rows' value pointers move with the arrays, even when one of them could not
	 * grow (the others may have moved all the same). */
	for (size_t i = 0; i < s->cap; i++) {
		s->rows[i].v = s->vals + i * nevents;
		s->rows[i].g = s->gds + i * ngroups;
	}
	return s->cap == old ? -ENOMEM : (long)old;
}

struct mrow_w mstore_at(struct mstore *s, size_t i)
{
	return (struct mrow_w){&s->rows[i], s->vals + i * s->nevents, s->gds + i * s->ngroups};
}

struct mrow_w mstore_row(struct mstore *s, size_t i)
{
	struct mrow_w w = mstore_at(s, i);
	memset(w.r, 0, sizeof(*w.r));
	w.r->v = w.v;
	w.r->g = w.g;
	w.r->cpu = -1;
	w.r->cpu_pct = -1;
	return w;
}

void model_tasks(const struct model *m, struct model_tasks *t)
{
	*t = (struct model_tasks){.running = m->sys.have_running ? (long)m->sys.nr_running : -1};
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct mrow *r = &m->rows[i];
		if (r->kind == ROW_CGROUP && r->cgroup && r->cgroup[0])
			t->cgroups++;
		if (r->kind != ROW_PROC || r->exited)
			continue;
		if (r->kthread) {
			t->kthreads++;
		} else {
			t->procs++;
			t->threads += r->nthreads > 1 ? r->nthreads - 1 : 0;
		}
	}
}
