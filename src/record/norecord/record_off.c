/* A build without libsqlite3 (PMUTOP_RECORD=OFF: the emulated-PMU lane's static cross
 * build): -w and -r say so and exit 2. */
#include <errno.h>
#include <stdio.h>

#include "record.h"
#include "recsql.h"
#include "replay.h"
#include "replayend.h"

static const char NOSQL[] = "this pmutop was built without SQLite (PMUTOP_RECORD=OFF)";

struct recorder *recorder_open(const char *path, const struct record_opts *o, char *err,
			       size_t errlen)
{
	(void)o;
	snprintf(err, errlen, "-w %s: %s", path, NOSQL);
	return NULL;
}

int recorder_write(struct recorder *r, const struct model *m, double wall, char *err, size_t errlen)
{
	(void)r;
	(void)m;
	(void)wall;
	snprintf(err, errlen, "%s", NOSQL);
	return -1;
}

uint64_t recorder_ticks(const struct recorder *r)
{
	(void)r;
	return 0;
}

void recorder_close(struct recorder *r)
{
	(void)r;
}

struct replay *replay_open(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "-r %s: %s", path, NOSQL);
	return NULL;
}

void replay_close(struct replay *p)
{
	(void)p;
}

int replay_span(struct replay *p, uint64_t *first, uint64_t *last, double *wfirst, double *wlast)
{
	(void)p;
	*first = *last = 0;
	*wfirst = *wlast = 0;
	return -1;
}

int replay_recorded(struct replay *p, bool *threads, bool *cpus)
{
	(void)p;
	*threads = *cpus = false;
	return -ENOTSUP;
}

int replay_step(struct replay *p, uint64_t seq, int dir, uint64_t *out)
{
	(void)p;
	(void)seq;
	(void)dir;
	(void)out;
	return -1;
}

int replay_find(struct replay *p, double wall, uint64_t *out)
{
	(void)p;
	(void)wall;
	(void)out;
	return -1;
}

int replay_load(struct replay *p, uint64_t seq, char *err, size_t errlen)
{
	(void)p;
	(void)seq;
	snprintf(err, errlen, "%s", NOSQL);
	return -1;
}

const struct model *replay_model(const struct replay *p)
{
	(void)p;
	return NULL;
}

double replay_wall(const struct replay *p)
{
	(void)p;
	return 0;
}

bool replay_unclosed(const struct replay *p)
{
	(void)p;
	return false;
}

bool replay_being_written(const struct replay *p)
{
	(void)p;
	return false;
}

uint64_t replay_missing_upto(const struct replay *p, uint64_t seq)
{
	(void)p;
	return seq;
}

uint64_t replay_seq(const struct replay *p)
{
	(void)p;
	return 0;
}

bool replay_user_events(const struct replay *p)
{
	(void)p;
	return false;
}

const char *replay_notice(const struct replay *p)
{
	(void)p;
	return "";
}

int replay_sql(struct replay *p, const char *sql, FILE *out, char *err, size_t errlen)
{
	(void)p;
	(void)sql;
	(void)out;
	snprintf(err, errlen, "%s", NOSQL);
	return -1;
}

int recsql_run(const char *path, const char *sql, FILE *out, char *err, size_t errlen)
{
	(void)sql;
	(void)out;
	snprintf(err, errlen, "-r %s: %s", path, NOSQL);
	return -1;
}
