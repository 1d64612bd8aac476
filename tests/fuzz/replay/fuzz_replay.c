/* libFuzzer harness for a whole recording as pmutop -r opens it: the input is written to a
 * file and goes through replay_open (format checks, the salvage of a file cut short), then
 * every tick through replay_load (the file's header and event-set rows, the tasks, the
 * packed rows) and one --sql query over `readings`. Whatever the bytes: NULL or -errno
 * with one line of error, never a crash; a loaded model is consistent (events inside
 * their groups, values in known states, strings readable). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TICKS 32

static char dir[64], path[96];

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

static void check_line(const char *err, size_t cap)
{
	const char *nul = memchr(err, '\0', cap);
	if (!nul || nul == err || memchr(err, '\n', (size_t)(nul - err))) {
		fprintf(stderr, "bad error line '%.*s'\n", (int)cap, err);
		abort();
	}
}

static size_t touch(const char *s)
{
	return s ? strlen(s) : 0;
}

static void check_row(const struct model *m, const struct mrow *r)
{
	if (r->kind > ROW_CGROUP)
		abort();
	touch(r->user), touch(r->comm), touch(r->cmdline), touch(r->cgroup);
	for (unsigned i = 0; i < m->nevents; i++)
		if (r->v[i].state > VAL_PARTIAL || r->v[i].why > WHY_SWITCH)
			abort();
	for (unsigned k = 0; k < m->ngroups; k++)
		(void)r->g[k].ena;
}

static void check_model(const struct model *m)
{
	touch(m->hostname), touch(m->kernel), touch(m->pmus), touch(m->notice), touch(m->backend);
	for (unsigned g = 0; g < m->ngroups; g++)
		if (m->groups[g].first > m->nevents ||
		    m->groups[g].n > m->nevents - m->groups[g].first)
			abort();
	for (unsigned i = 0; i < m->nevents; i++) {
		const struct mevent *e = &m->events[i];
		if (!e->name || !e->key || e->group >= m->ngroups || e->nsum > 4)
			abort();
		for (unsigned k = 0; k < e->nsum; k++)
			if (e->sum[k] >= m->nevents)
				abort();
	}
	for (unsigned i = 0; i < m->nrows; i++)
		check_row(m, &m->rows[i]);
	for (unsigned i = 0; i < m->ncpu_rows; i++)
		check_row(m, &m->cpu_rows[i]);
	for (unsigned i = 0; i < m->ncg_rows; i++)
		check_row(m, &m->cg_rows[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/pmutop-fuzz-replay-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/r.pmutop", dir);
		atexit(remove_dir);
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd) != 0)
		abort();

	memset(err, 'x', sizeof(err));
	struct replay *p = replay_open(path, err, sizeof(err));
	if (!p) {
		check_line(err, sizeof(err));
		return 0;
	}
	const char *notice = replay_notice(p);
	if (notice[0])
		check_line(notice, strlen(notice) + 1);
	uint64_t first, last, seq;
	double wfirst, wlast;
	if (replay_span(p, &first, &last, &wfirst, &wlast) == 0) {
		/* Signed, as SQLite orders them: a damaged file can hold seq -94. */
		if ((int64_t)first > (int64_t)last)
			abort();
		seq = first;
		for (int n = 0; n < MAX_TICKS; n++) {
			memset(err, 'x', sizeof(err));
			int rc = replay_load(p, seq, err, sizeof(err));
			if (rc == 0) {
				if (replay_seq(p) != seq)
					abort();
				check_model(replay_model(p));
			} else if (rc != -ENOENT && rc != -ENOMEM) {
				if (rc != -EINVAL && rc != -EIO)
					abort();
				check_line(err, sizeof(err));
			}
			uint64_t next;
			if (replay_step(p, seq, 1, &next) != 0)
				break;
			if ((int64_t)next <= (int64_t)seq)
				abort();
			seq = next;
		}
		if (replay_find(p, wfirst, &seq) != 0)
			abort();
	}
	/* --sql over the same file: the readings table reads the same packed rows. */
	FILE *out = fopen("/dev/null", "we");
	if (!out)
		abort();
	memset(err, 'x', sizeof(err));
	int rc = replay_sql(p,
			    "SELECT seq, time, at, kind, pid, tid, cpu, user, command, cgroup,"
			    " event, value, state FROM readings",
			    out, err, sizeof(err));
	if (rc != 0 && rc != -EINVAL && rc != -EIO)
		abort();
	if (rc)
		check_line(err, sizeof(err));
	fclose(out);
	replay_close(p);
	return 0;
}
