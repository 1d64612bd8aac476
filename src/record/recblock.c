/* Format 3's tick chunks: tasks gone and defined, the rows, and the block's deflate
 * stream. The layout is in recblock.h and docs/RECORDING.md. */
#include "recblock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The bytes a sync flush ends with, left out of each chunk and put back to read it. */
static const unsigned char flush_tail[4] = {0x00, 0x00, 0xff, 0xff};

/* An inflated chunk larger than this is damage (a bomb), not a tick. */
#define CHUNK_MAX ((size_t)256 << 20)

void recblock_begin(struct recpack_buf *raw, size_t ngone)
{
	raw->len = 0;
	if (recpack_grow(raw, 10) == 0)
		recpack_put_u(raw, ngone);
	else
		raw->len = (size_t)-1; /* recblock_gone and recblock_def fail */
}

int recblock_gone(struct recpack_buf *raw, int64_t prev, int64_t id)
{
	if (raw->len == (size_t)-1 || recpack_grow(raw, 10))
		return -ENOMEM;
	if (id <= prev)
		return -EINVAL;
	recpack_put_u(raw, (uint64_t)(id - prev));
	return 0;
}

int recblock_ndefs(struct recpack_buf *raw, size_t ndefs)
{
	if (raw->len == (size_t)-1 || recpack_grow(raw, 10))
		return -ENOMEM;
	recpack_put_u(raw, ndefs);
	return 0;
}

/* A string of a def: 0 NULL, 1 the previous def's; else its length after the part it
 * shares with the previous def's (job1234 after job1233: 1) + 2, that part's length
 * when the previous def has one, and the rest's bytes. */
static void put_str(struct recpack_buf *o, const char *s, const char *prev, bool have_prev)
{
	if (!s) {
		recpack_put_u(o, 0);
		return;
	}
	if (have_prev && prev && strcmp(s, prev) == 0) {
		recpack_put_u(o, 1);
		return;
	}
	size_t k = 0, n = strlen(s);
	if (have_prev && prev)
		while (s[k] && s[k] == prev[k])
			k++;
	recpack_put_u(o, n - k + 2);
	if (have_prev && prev)
		recpack_put_u(o, k);
	memcpy(o->b + o->len, s + k, n - k);
	o->len += n - k;
}

static size_t slen(const char *s)
{
	return s ? strlen(s) : 0;
}

int recblock_def(struct recpack_buf *raw, int64_t id, const struct mrow *row, int64_t prev_id,
		 const struct mrow *prev)
{
	if (raw->len == (size_t)-1 ||
	    recpack_grow(raw, 128 + slen(row->user) + slen(row->comm) + slen(row->cgroup) +
				      slen(row->cmdline)))
		return -ENOMEM;
	if (id <= prev_id)
		return -EINVAL;
	recpack_put_u(raw, (uint64_t)(id - prev_id));
	recpack_put_u(raw, (uint64_t)row->kind + (row->kthread ? 4 : 0));
	recpack_put_u(raw, recpack_zigzag((int64_t)row->pid - (prev ? (int64_t)prev->pid : 0)));
	recpack_put_u(raw, recpack_zigzag((int64_t)row->tid - row->pid));
	/* the parent from the previous def's (siblings share it), the first's from its pid */
	recpack_put_u(raw, recpack_zigzag(prev ? (int64_t)row->ppid - prev->ppid
					       : (int64_t)row->pid - row->ppid));
	recpack_put_u(raw, recpack_zigzag(row->cpu));
	recpack_put_u(raw, recpack_zigzag((int64_t)row->uid - (prev ? (int64_t)prev->uid : 0)));
	recpack_put_u(raw, row->nthreads);
	recpack_put_u(raw, row->state ? row->rss_kb : 0);
	raw->b[raw->len++] = (unsigned char)row->state;
	put_str(raw, row->user, prev ? prev->user : NULL, prev);
	put_str(raw, row->comm, prev ? prev->comm : NULL, prev);
	put_str(raw, row->cgroup, prev ? prev->cgroup : NULL, prev);
	put_str(raw, row->cmdline, prev ? prev->cmdline : NULL, prev);
	return 0;
}

int recblock_deflate(struct recblock_z *w, bool key, const struct recpack_buf *raw,
		     struct recpack_buf *out)
{
	if (!w->open) {
		memset(&w->z, 0, sizeof(w->z));
		if (deflateInit2(&w->z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			return -ENOMEM;
		w->open = true;
	} else if (key && deflateReset(&w->z) != Z_OK) {
		return -EIO;
	}
	out->len = 0;
	w->z.next_in = raw->b;
	w->z.avail_in = (uInt)raw->len;
	for (;;) {
		if (recpack_grow(out, raw->len / 2 + 64))
			return -ENOMEM;
		w->z.next_out = out->b + out->len;
		w->z.avail_out = (uInt)(out->cap - out->len);
		int rc = deflate(&w->z, Z_SYNC_FLUSH);
		out->len = out->cap - w->z.avail_out;
		if (rc != Z_OK && rc != Z_BUF_ERROR)
			return -EIO;
		if (w->z.avail_in == 0 && w->z.avail_out > 0)
			break;
	}
	if (out->len < 4 || memcmp(out->b + out->len - 4, flush_tail, 4) != 0)
		return -EIO;
	out->len -= 4;
	return 0;
}

void recblock_deflate_end(struct recblock_z *w)
{
	if (w->open)
		deflateEnd(&w->z);
	w->open = false;
}

void recblock_init(struct recblock *b)
{
	memset(b, 0, sizeof(*b));
	b->key = b->seq = -1;
}

static void free_task(struct rectask *t)
{
	free(t->user);
	free(t->comm);
	free(t->cgroup);
	free(t->cmdline);
}

static void drop_tasks(struct recblock *b)
{
	for (size_t i = 0; i < b->n; i++)
		free_task(&b->t[i]);
	b->n = 0;
}

void recblock_free(struct recblock *b)
{
	drop_tasks(b);
	free(b->t);
	free(b->buf);
	if (b->zinit)
		inflateEnd(&b->z);
	recblock_init(b);
}

/* The chunk with the flush's tail put back, inflated into b->buf. */
static int inflate_chunk(struct recblock *b, bool key, const void *chunk, size_t n)
{
	if (!b->zinit) {
		memset(&b->z, 0, sizeof(b->z));
		if (inflateInit2(&b->z, -15) != Z_OK)
			return -ENOMEM;
		b->zinit = true;
	} else if (key && inflateReset(&b->z) != Z_OK) {
		return -EINVAL;
	}
	b->len = 0;
	for (int part = 0; part < 2; part++) {
		b->z.next_in = part ? (Bytef *)flush_tail : (Bytef *)chunk;
		b->z.avail_in = part ? 4 : (uInt)n;
		for (;;) {
			if (b->len == b->bufcap) {
				size_t cap = b->bufcap ? 2 * b->bufcap : 16384;
				if (cap > CHUNK_MAX)
					return -EINVAL;
				unsigned char *nb = realloc(b->buf, cap);
				if (!nb)
					return -ENOMEM;
				b->buf = nb;
				b->bufcap = cap;
			}
			b->z.next_out = b->buf + b->len;
			b->z.avail_out = (uInt)(b->bufcap - b->len);
			int rc = inflate(&b->z, Z_SYNC_FLUSH);
			b->len = b->bufcap - b->z.avail_out;
			if (rc == Z_MEM_ERROR)
				return -ENOMEM;
			if (rc != Z_OK && rc != Z_BUF_ERROR)
				return -EINVAL; /* a stream's end or damage: never in a chunk */
			if (b->z.avail_out > 0 && (b->z.avail_in == 0 || rc == Z_BUF_ERROR))
				break;
		}
		if (b->z.avail_in)
			return -EINVAL;
	}
	return 0;
}

static int get_int(const unsigned char *rec, size_t len, size_t *pos, int64_t base, int *out)
{
	uint64_t u;
	if (recpack_get_u(rec, len, pos, &u) || u > UINT64_C(1) << 34)
		return -EINVAL; /* past any difference of two ints (and no overflow below) */
	int64_t v = base + recpack_unzigzag(u);
	if (v < INT32_MIN || v > INT32_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* A string of a def (put_str): NULL, the previous def's (prev, may be NULL), or a part
 * of it and bytes of its own. */
static int get_str(const unsigned char *rec, size_t len, size_t *pos, const char *prev,
		   bool have_prev, char **out)
{
	uint64_t u, k = 0;
	*out = NULL;
	if (recpack_get_u(rec, len, pos, &u))
		return -EINVAL;
	if (u == 0)
		return 0;
	if (u == 1 && (!have_prev || !prev))
		return -EINVAL;
	size_t plen = have_prev && prev ? strlen(prev) : 0;
	if (u == 1) {
		k = plen;
		u = 2;
	} else if (have_prev && prev && (recpack_get_u(rec, len, pos, &k) || k > plen)) {
		return -EINVAL;
	}
	if (u - 2 > len - *pos)
		return -EINVAL;
	size_t n = (size_t)(u - 2);
	if (!(*out = malloc((size_t)k + n + 1)))
		return -ENOMEM;
	if (k)
		memcpy(*out, prev, (size_t)k);
	memcpy(*out + k, rec + *pos, n);
	(*out)[k + n] = '\0';
	*pos += n;
	return 0;
}

static ssize_t find(const struct recblock *b, int64_t id)
{
	size_t lo = 0, hi = b->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (b->t[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->n && b->t[lo].id == id ? (ssize_t)lo : -1;
}

const struct rectask *recblock_task(const struct recblock *b, int64_t id)
{
	ssize_t i = find(b, id);
	return i < 0 ? NULL : &b->t[i];
}

/* The ids gone, checked first (each alive, ascending), then taken out. */
static int apply_gone(struct recblock *b, size_t *pos)
{
	uint64_t n, d;
	if (recpack_get_u(b->buf, b->len, pos, &n) || n > b->n)
		return -EINVAL;
	size_t at = *pos;
	for (int pass = 0; pass < 2; pass++) {
		int64_t id = 0;
		size_t k = 0, out = 0; /* tasks kept so far, compacted in place */
		*pos = at;
		for (uint64_t i = 0; i < n; i++) {
			if (recpack_get_u(b->buf, b->len, pos, &d) || d == 0 ||
			    d > (uint64_t)(INT64_MAX - id))
				return -EINVAL;
			id += (int64_t)d;
			while (k < b->n && b->t[k].id < id) {
				if (pass)
					b->t[out] = b->t[k];
				out++;
				k++;
			}
			if (k == b->n || b->t[k].id != id)
				return -EINVAL; /* a task gone that was not alive */
			if (pass)
				free_task(&b->t[k]);
			k++;
		}
		if (pass) {
			while (k < b->n)
				b->t[out++] = b->t[k++];
			b->n = out;
		}
	}
	return 0;
}

static int apply_defs(struct recblock *b, size_t *pos)
{
	uint64_t n, u;
	const unsigned char *r = b->buf;
	size_t len = b->len;
	if (recpack_get_u(r, len, pos, &n) || n > len - *pos)
		return -EINVAL; /* a def takes bytes: more defs than bytes is damage */
	size_t first = b->n;
	for (uint64_t i = 0; i < n; i++) {
		if (b->n == b->cap) {
			size_t cap = b->cap ? 2 * b->cap : 256;
			struct rectask *t = realloc(b->t, cap * sizeof(*t));
			if (!t)
				return -ENOMEM;
			b->t = t;
			b->cap = cap;
		}
		const struct rectask *prev = b->n > first ? &b->t[b->n - 1] : NULL;
		int64_t last = b->n ? b->t[b->n - 1].id : 0;
		struct rectask t = {0};
		if (recpack_get_u(r, len, pos, &u) || u == 0 || u > (uint64_t)(INT64_MAX - last))
			return -EINVAL;
		/* ids of defs ascend past every task alive: the row's order is the id's */
		t.id = (prev ? prev->id : 0) + (int64_t)u;
		if (t.id <= last)
			return -EINVAL;
		if (recpack_get_u(r, len, pos, &u) || (u & 3) > ROW_CGROUP || u > 7)
			return -EINVAL;
		t.kind = (int)(u & 3);
		t.kthread = u & 4;
		int d;
		if (get_int(r, len, pos, prev ? prev->pid : 0, &t.pid) ||
		    get_int(r, len, pos, t.pid, &t.tid) || get_int(r, len, pos, 0, &d) ||
		    get_int(r, len, pos, 0, &t.cpu))
			return -EINVAL;
		int64_t ppid = prev ? (int64_t)prev->ppid + d : (int64_t)t.pid - d;
		if (ppid < INT32_MIN || ppid > INT32_MAX)
			return -EINVAL;
		t.ppid = (int)ppid;
		if (recpack_get_u(r, len, pos, &u) || u > UINT64_C(1) << 34)
			return -EINVAL;
		int64_t uid = (prev ? (int64_t)prev->uid : 0) + recpack_unzigzag(u);
		if (uid < 0 || uid > UINT32_MAX)
			return -EINVAL;
		t.uid = (uint32_t)uid;
		if (recpack_get_u(r, len, pos, &u) || u > UINT32_MAX)
			return -EINVAL;
		t.nthreads = (unsigned)u;
		if (recpack_get_u(r, len, pos, &t.rss) || *pos >= len)
			return -EINVAL;
		t.state = (char)r[(*pos)++];
		int rc = get_str(r, len, pos, prev ? prev->user : NULL, prev, &t.user);
		if (!rc)
			rc = get_str(r, len, pos, prev ? prev->comm : NULL, prev, &t.comm);
		if (!rc)
			rc = get_str(r, len, pos, prev ? prev->cgroup : NULL, prev, &t.cgroup);
		if (!rc)
			rc = get_str(r, len, pos, prev ? prev->cmdline : NULL, prev, &t.cmdline);
		if (rc) {
			free_task(&t);
			return rc;
		}
		b->t[b->n++] = t;
	}
	return 0;
}

int recblock_apply(struct recblock *b, int64_t seq, int64_t key, const void *chunk, size_t n)
{
	bool start = seq == key;
	if (!start && (b->key != key || b->seq + 1 != seq || b->key < 0))
		return -ESRCH;
	if (seq < key)
		return -EINVAL;
	b->key = b->seq = -1; /* until the chunk is applied whole */
	if (start)
		drop_tasks(b);
	int rc = inflate_chunk(b, start, chunk, n);
	size_t pos = 0;
	if (!rc)
		rc = apply_gone(b, &pos);
	if (!rc)
		rc = apply_defs(b, &pos);
	if (rc)
		return rc;
	b->rows = pos;
	b->key = key;
	b->seq = seq;
	return 0;
}
