/* The rows of a replayed tick: the tasks alive then (format 2: the tasks table; format
 * 3: the tick's block, src/recblock.h), idle, under the rows the tick stored. */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "recfmt.h"
#include "recpack.h"
#include "replaytasks.h"

static size_t arena_put(struct replay *p, const unsigned char *s)
{
	if (!s)
		return (size_t)-1;
	size_t n = strlen((const char *)s) + 1;
	if (p->alen + n > p->acap) {
		size_t cap = (p->alen + n) * 2 + 4096;
		char *a = realloc(p->arena, cap);
		if (!a)
			return (size_t)-2;
		p->arena = a;
		p->acap = cap;
	}
	memcpy(p->arena + p->alen, s, n);
	p->alen += n;
	return p->alen - n;
}

static const char *arena_str(const struct replay *p, size_t off)
{
	return off == (size_t)-1 ? NULL : p->arena + off;
}

static int tk_room(struct replay *p)
{
	if (p->ntk < p->tkcap)
		return 0;
	size_t cap = p->tkcap ? 2 * p->tkcap : 1024;
	struct ptask *t = realloc(p->tk, cap * sizeof(*t));
	if (!t)
		return -ENOMEM;
	p->tk = t;
	p->tkcap = cap;
	return 0;
}

/* Format 2: the tasks table's rows alive at the tick. */
static int load_tasks2(struct replay *p, char *err, size_t len)
{
	sqlite3_bind_int64(p->tasks, 1, (int64_t)p->seq);
	int rc;
	while ((rc = sqlite3_step(p->tasks)) == SQLITE_ROW) {
		if (tk_room(p)) {
			sqlite3_reset(p->tasks);
			return -ENOMEM;
		}
		sqlite3_stmt *st = p->tasks;
		struct ptask *t = &p->tk[p->ntk];
		memset(t, 0, sizeof(*t));
		t->id = sqlite3_column_int64(st, 0);
		int kind = sqlite3_column_int(st, 1);
		if (kind < ROW_PROC || kind > ROW_CGROUP) {
			sqlite3_reset(st);
			return replay_damaged(p, err, len, "a task of an unknown kind");
		}
		t->r.kind = (enum row_kind)kind;
		t->r.pid = sqlite3_column_int(st, 2);
		t->r.tid = sqlite3_column_int(st, 3);
		t->r.cpu = sqlite3_column_int(st, 4);
		t->r.uid = (uid_t)sqlite3_column_int64(st, 5);
		t->user = arena_put(p, sqlite3_column_text(st, 6));
		t->comm = arena_put(p, sqlite3_column_text(st, 7));
		t->cgroup = arena_put(p, sqlite3_column_text(st, 8));
		t->cmdline = arena_put(p, sqlite3_column_text(st, 11));
		if (t->user == (size_t)-2 || t->comm == (size_t)-2 || t->cgroup == (size_t)-2 ||
		    t->cmdline == (size_t)-2) {
			sqlite3_reset(st);
			return -ENOMEM;
		}
		t->r.kthread = sqlite3_column_int(st, 9) != 0;
		t->r.nthreads = (unsigned)sqlite3_column_int(st, 10);
		t->r.ppid = sqlite3_column_int(st, 12);
		t->r.rss_kb = (uint64_t)sqlite3_column_int64(st, 13);
		/* The state letter ('R'); files written before it was text hold its code (82). */
		if (sqlite3_column_type(st, 14) == SQLITE_TEXT)
			t->r.state = (char)*sqlite3_column_text(st, 14);
		else
			t->r.state = (char)sqlite3_column_int(st, 14);
		t->sample = -1;
		p->ntk++;
	}
	sqlite3_reset(p->tasks);
	return rc == SQLITE_DONE ? 0 : replay_damaged(p, err, len, sqlite3_errmsg(p->db));
}

/* Format 3: the tick's block read from its key (or from the tick read last, when it is
 * an earlier one of the same block) up to the tick; its tasks alive then. */
static int load_tasks3(struct replay *p, char *err, size_t len)
{
	struct recblock *b = &p->blk;
	int64_t seq = (int64_t)p->seq;
	int64_t from = b->key == p->key && b->seq >= p->key && b->seq <= seq ? b->seq + 1 : p->key;
	if (seq < p->key)
		return replay_damaged(p, err, len, "a tick before its block");
	sqlite3_bind_int64(p->chunks, 1, from);
	sqlite3_bind_int64(p->chunks, 2, seq);
	int rc, ret = 0;
	int64_t want = from;
	while (!ret && (rc = sqlite3_step(p->chunks)) == SQLITE_ROW) {
		int64_t s = sqlite3_column_int64(p->chunks, 0);
		if (s != want || sqlite3_column_int64(p->chunks, 1) != p->key) {
			ret = replay_damaged(p, err, len, "a tick of its block is missing");
			break;
		}
		const void *chunk = sqlite3_column_blob(p->chunks, 2);
		int n = sqlite3_column_bytes(p->chunks, 2);
		p->blk_sum = recfmt_chunk_sum(s == p->key ? 0 : p->blk_sum, chunk, (size_t)n);
		ret = recblock_apply(b, s, p->key, chunk ? chunk : "", (size_t)n);
		if (ret == -ENOMEM)
			break;
		if (ret)
			ret = replay_damaged(p, err, len, "a tick's rows cannot be read");
		want++;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = replay_damaged(p, err, len, sqlite3_errmsg(p->db));
	sqlite3_reset(p->chunks);
	if (!ret && b->seq != seq)
		ret = replay_damaged(p, err, len, "a tick of its block is missing");
	if (ret) {
		b->key = b->seq = -1;
		return ret;
	}
	for (size_t k = 0; k < b->n; k++) {
		const struct rectask *rt = &b->t[k];
		if (tk_room(p))
			return -ENOMEM;
		struct ptask *t = &p->tk[p->ntk];
		memset(t, 0, sizeof(*t));
		t->id = rt->id;
		t->r.kind = (enum row_kind)rt->kind;
		t->r.pid = rt->pid;
		t->r.tid = rt->tid;
		t->r.ppid = rt->ppid;
		t->r.cpu = rt->cpu;
		t->r.uid = (uid_t)rt->uid;
		t->r.kthread = rt->kthread;
		t->r.nthreads = rt->nthreads;
		t->r.rss_kb = rt->rss;
		t->r.state = rt->state;
		t->user = arena_put(p, (const unsigned char *)rt->user);
		t->comm = arena_put(p, (const unsigned char *)rt->comm);
		t->cgroup = arena_put(p, (const unsigned char *)rt->cgroup);
		t->cmdline = arena_put(p, (const unsigned char *)rt->cmdline);
		if (t->user == (size_t)-2 || t->comm == (size_t)-2 || t->cgroup == (size_t)-2 ||
		    t->cmdline == (size_t)-2)
			return -ENOMEM;
		t->sample = -1;
		p->ntk++;
	}
	return 0;
}

/* The model's order: processes by pid, each followed by its threads by tid; cgroup rows
 * as first seen; CPUs by number. Sorts are total, so every output reads as live. */
static int by_row(const void *x, const void *y)
{
	const struct ptask *a = x, *b = y;
	int ca = a->r.kind == ROW_CPU ? 2 : a->r.kind == ROW_CGROUP ? 1 : 0;
	int cb = b->r.kind == ROW_CPU ? 2 : b->r.kind == ROW_CGROUP ? 1 : 0;
	if (ca != cb)
		return ca - cb;
	if (ca == 2)
		return a->r.cpu < b->r.cpu ? -1 : a->r.cpu > b->r.cpu;
	if (ca == 0) {
		if (a->r.pid != b->r.pid)
			return a->r.pid < b->r.pid ? -1 : 1;
		int ta = a->r.kind == ROW_THREAD, tb = b->r.kind == ROW_THREAD;
		if (ta != tb)
			return ta - tb;
		if (a->r.tid != b->r.tid)
			return a->r.tid < b->r.tid ? -1 : 1;
	}
	return a->id < b->id ? -1 : a->id > b->id;
}

static struct ptask *task_by_id(struct replay *p, int64_t id)
{
	size_t lo = 0, hi = p->ntk;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->tk[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->ntk && p->tk[lo].id == id ? &p->tk[lo] : NULL;
}

static int by_id(const void *x, const void *y)
{
	const struct ptask *a = x, *b = y;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* A row as idle: every value zero with the tick's usual cells, no group time. */
static void idle_values(struct replay *p, struct mrow_w w)
{
	for (unsigned i = 0; i < p->m.nevents; i++)
		w.v[i] = (struct val){.v = 0,
				      .state = p->usual[i].state,
				      .why = p->usual[i].why,
				      .run_pm = p->usual[i].run_pm};
	for (unsigned g = 0; g < p->m.ngroups; g++)
		w.g[g] = (struct val_delta){0, 0, 0};
	w.r->cpu_pct = -1;
}

/* A stored row over its task's idle one: its values, cells, CPU%, memory and state. */
static int stored_row(struct replay *p, struct mrow_w w, const struct recpack_row *pr, char *err,
		      size_t len)
{
	if (pr->cells) {
		char text[8192];
		if (pr->ncells >= sizeof(text))
			return replay_damaged(p, err, len, "a row's cells cannot be read");
		memcpy(text, pr->cells, pr->ncells);
		text[pr->ncells] = '\0';
		if (recfmt_parse_cells(text, w.v, p->m.nevents))
			return replay_damaged(p, err, len, "a row's cells cannot be read");
	}
	w.r->exited = pr->exited;
	w.r->cpu_pct = pr->cpu_pct;
	/* Memory and state as it ran then (the task's row holds them at rest). */
	if (pr->mem) {
		w.r->rss_kb = pr->rss_kb;
		w.r->state = pr->state;
	}
	return 0;
}

static bool own_cg(const struct replay *p, const struct ptask *t)
{
	return p->cg_own && t->r.kind == ROW_CGROUP;
}

static struct mstore *store_of(struct replay *p, const struct ptask *t)
{
	return t->r.kind == ROW_CPU ? &p->cpus : own_cg(p, t) ? &p->cgs : &p->rows;
}

/* The rows of the loaded tick: every task alive then, idle, then the stored rows of its
 * record over them. */
static int build_rows(struct replay *p, const unsigned char *rec, size_t reclen, char *err,
		      size_t len)
{
	struct model *m = &p->m;
	size_t nt = 0, nc = 0, ng = 0;
	if (p->ntk)
		qsort(p->tk, p->ntk, sizeof(*p->tk), by_row);
	/* Cgroup rows beside process rows are the cgroups the source counted itself (the
	 * model's cg_rows); alone, they are -G's rows. */
	p->cg_own = false;
	for (size_t k = 0; k < p->ntk && !p->cg_own; k++)
		p->cg_own = p->tk[k].r.kind == ROW_PROC || p->tk[k].r.kind == ROW_THREAD;
	for (size_t k = 0; k < p->ntk; k++)
		p->tk[k].sample = (long)(p->tk[k].r.kind == ROW_CPU ? nc++
					 : own_cg(p, &p->tk[k])	    ? ng++
								    : nt++);
	if (mstore_reserve(&p->rows, nt, m->nevents, m->ngroups) < 0 ||
	    mstore_reserve(&p->cpus, nc, m->nevents, m->ngroups) < 0 ||
	    mstore_reserve(&p->cgs, ng, m->nevents, m->ngroups) < 0)
		return -ENOMEM;
	for (size_t k = 0; k < p->ntk; k++) {
		struct ptask *t = &p->tk[k];
		struct mstore *s = store_of(p, t);
		struct mrow_w w = mstore_row(s, (size_t)t->sample);
		const struct val *v = w.r->v;
		const struct val_delta *g = w.r->g;
		*w.r = t->r;
		w.r->v = v;
		w.r->g = g;
		w.r->user = arena_str(p, t->user);
		w.r->comm = arena_str(p, t->comm);
		w.r->cgroup = arena_str(p, t->cgroup);
		w.r->cmdline = arena_str(p, t->cmdline);
		idle_values(p, w);
	}
	m->rows = p->rows.rows;
	m->nrows = (unsigned)nt;
	m->cpu_rows = p->cpus.rows;
	m->ncpu_rows = (unsigned)nc;
	m->cg_rows = p->cgs.rows;
	m->ncg_rows = (unsigned)ng;
	/* Stored rows by task id: the tasks sorted by id once more, their row slots kept. */
	if (p->ntk)
		qsort(p->tk, p->ntk, sizeof(*p->tk), by_id);
	size_t pos = 0;
	int64_t prev = 0;
	struct recpack_row pr;
	/* Format 3's rows are by column: read whole first. */
	if (p->fmt >= 3) {
		int rc = recpack_get_tick(rec, reclen, m->nevents, m->ngroups, &p->ptick);
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			return replay_damaged(p, err, len, "a tick's rows cannot be read");
	}
	for (;;) {
		/* Decoded aside: the task's row is found by the id the record names. */
		int rc;
		if (p->fmt >= 3) {
			rc = pos < p->ptick.n;
			if (rc) {
				pr = p->ptick.rows[pos];
				memcpy(p->sv, &p->ptick.v[pos * (m->nevents + 1)],
				       m->nevents * sizeof(*p->sv));
				memcpy(p->sg, &p->ptick.g[pos * (m->ngroups + 1)],
				       m->ngroups * sizeof(*p->sg));
				pos++;
			}
		} else {
			rc = recpack_next_fmt((unsigned)p->fmt, rec, reclen, &pos, prev, &pr, p->sv,
					      m->nevents, p->sg, m->ngroups);
		}
		if (rc == 0)
			return 0;
		if (rc < 0)
			return replay_damaged(p, err, len, "a tick's rows cannot be read");
		prev = pr.task;
		struct ptask *t = task_by_id(p, pr.task);
		if (!t)
			return replay_damaged(p, err, len, "a row of a task not alive then");
		struct mrow_w w = mstore_at(store_of(p, t), (size_t)t->sample);
		for (unsigned i = 0; i < m->nevents; i++)
			w.v[i].v = p->sv[i].v;
		for (unsigned g = 0; g < m->ngroups; g++)
			w.g[g] = p->sg[g];
		if ((rc = stored_row(p, w, &pr, err, len)))
			return rc;
	}
}

int replay_rows(struct replay *p, char *err, size_t len)
{
	p->ntk = 0;
	p->alen = 0;
	if (p->fmt >= 3) {
		int rc = load_tasks3(p, err, len);
		if (rc)
			return rc;
		return build_rows(p, p->blk.buf + p->blk.rows, p->blk.len - p->blk.rows, err, len);
	}
	int rc = load_tasks2(p, err, len);
	return rc ? rc : build_rows(p, p->rec, p->reclen, err, len);
}
