/* Batch output. Text is for people (and diff), CSV and JSON for scripts: each value
 * carries its state and running %, never a silent zero. */
#include "batch.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

#define BATCH_MAX_COLS 96
#define BATCH_BUF (64 * 1024)
#define BATCH_ROWS_BUF (32 * 1024)
#define CELL_MAX 128 /* a cell's text, NUL included */
#define MEMO_MAX 48  /* the longest cell (padding and blank included) a memo keeps */
_Static_assert(MEMO_MAX < CELL_MAX, "a memo is copied whole within a cell's room");

/* A column's last cell, as written: most rows of a block repeat the row above (idle
 * tasks read 0 everywhere, most share a user), so a cell equal to the last one is
 * copied rather than formatted again. Keyed by the value for numbers, by the text for
 * names. */
struct cell_memo {
	bool ok;
	unsigned char len;
	struct val key;
	char src[40]; /* text columns: the text the cell was made from */
	char cell[MEMO_MAX];
};

struct batch {
	FILE *out;
	enum out_format fmt;
	struct column cols[BATCH_MAX_COLS];
	char titles[BATCH_MAX_COLS][24];
	unsigned ncols;
	struct sort_spec sort;
	bool sort_ok;
	bool header_done;
	bool cpus;
	bool fd_short;	      /* the last block had tasks short of descriptors */
	char fleet_said[512]; /* a fleet's last notice said on stderr ("": none) */
	unsigned *idx, *scratch;
	double *keys;
	size_t idx_cap;
	/* Text rows are built here and go to stdio in large pieces, not a write per cell
	 * and per pad. row_max is the longest row there can be,
	 * so that a row is written without a check per cell. */
	char *rows;
	size_t used, cap, row_max;
	struct cell_memo memo[BATCH_MAX_COLS];
	double wall; /* the block's time: seconds since the epoch, and as ISO 8601 */
	char at[40];
	char csv_tail[72]; /* ",WALL,AT\n": every CSV line of the block ends so */
};

/* The same value under another pane's title (cycles in Events and in IPC) is shown once. */
static bool has_column(const struct batch *b, const struct column *c)
{
	for (unsigned i = 0; i < b->ncols; i++) {
		const struct column *o = &b->cols[i];
		if (o->kind == c->kind && o->a == c->a && o->b == c->b && o->mul == c->mul)
			return true;
	}
	return false;
}

/* One table: the identity columns once, then each pane's own columns; COMMAND last. A
 * RUN% column is titled after its pane so that each group's can be told apart. */
static void merge(struct batch *b, const struct pane *panes, unsigned npanes)
{
	const struct column *cmd = NULL;
	for (unsigned p = 0; p < npanes; p++) {
		for (unsigned i = 0; i < panes[p].ncols && b->ncols < BATCH_MAX_COLS; i++) {
			const struct column *c = &panes[p].cols[i];
			if (c->kind == COL_COMMAND) {
				cmd = c;
				continue;
			}
			if (has_column(b, c))
				continue;
			struct column *n = &b->cols[b->ncols];
			*n = *c;
			if (c->kind == COL_RUN_PCT && strcmp(panes[p].name, "Events") != 0) {
				snprintf(b->titles[b->ncols], sizeof(b->titles[0]), "%s.RUN%%",
					 panes[p].name);
				n->title = n->name = b->titles[b->ncols];
				n->width = (int)strlen(n->title);
			}
			if (n->width < (int)strlen(n->title))
				n->width = (int)strlen(n->title);
			b->ncols++;
		}
	}
	if (cmd && b->ncols < BATCH_MAX_COLS)
		b->cols[b->ncols++] = *cmd;
	/* Each cell: its padding or its text, whichever is longer, and a blank. */
	b->row_max = sizeof(" (exited)\n");
	for (unsigned i = 0; i < b->ncols; i++) {
		size_t w = (size_t)b->cols[i].width + 1;
		b->row_max += (w > CELL_MAX ? w : CELL_MAX) + 1;
	}
}

struct batch *batch_new(FILE *out, enum out_format fmt, const struct pane *panes, unsigned npanes,
			const char *sort, bool reverse)
{
	struct batch *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->out = out;
	b->fmt = fmt;
	/* Whole blocks per write(), not 4 KiB pieces: a block can be a few hundred KiB.
	 * Static: stdio keeps using it until exit, after this writer is gone. */
	static char stdio_buf[BATCH_BUF];
	setvbuf(out, stdio_buf, _IOFBF, sizeof(stdio_buf));
	merge(b, panes, npanes);
	if (fmt == OUT_TEXT) {
		b->cap = BATCH_ROWS_BUF + b->row_max;
		b->rows = malloc(b->cap);
		if (!b->rows) {
			free(b);
			return NULL;
		}
	}
	b->sort_ok = true;
	const char *want = sort ? sort : "CPU%";
	for (unsigned i = 0; i < b->ncols; i++)
		if (strcasecmp(b->cols[i].name, want) == 0)
			b->sort.col = &b->cols[i];
	if (!b->sort.col && sort)
		b->sort_ok = false;
	b->sort.descending = b->sort.col ? b->sort.col->desc_first != reverse : reverse;
	return b;
}

void batch_show_cpus(struct batch *b, bool on)
{
	b->cpus = on;
}

bool batch_sort_ok(const struct batch *b)
{
	return b->sort_ok;
}

void batch_free(struct batch *b)
{
	if (!b)
		return;
	free(b->idx);
	free(b->scratch);
	free(b->keys);
	free(b->rows);
	free(b);
}

void batch_notice(struct batch *b, const char *text)
{
	/* stderr in every format: stdout stays plain text, CSV or JSON for a script. */
	(void)b;
	char safe[1024];
	text_sanitize(text, safe, sizeof(safe), true);
	fprintf(stderr, "pmutop: %s\n", safe);
}

static const char *kind_str(enum row_kind k)
{
	return k == ROW_CPU	 ? "cpu"
	       : k == ROW_THREAD ? "thread"
	       : k == ROW_CGROUP ? "cgroup"
				 : "process";
}

static void rows_flush(struct batch *b)
{
	if (b->used)
		fwrite(b->rows, 1, b->used, b->out);
	b->used = 0;
}

static bool same_val(struct val a, struct val b)
{
	/* By its bits: -0 is not 0 here, and a NaN equals its own copy. */
	uint64_t x, y;
	memcpy(&x, &a.v, sizeof(x));
	memcpy(&y, &b.v, sizeof(y));
	return x == y && a.state == b.state && a.why == b.why && a.run_pm == b.run_pm;
}

/* The text a name column's cell is made of (the user), or NULL for any other column. */
static const char *memo_text(const struct column *c, const struct mrow *r)
{
	return c->kind == COL_USER ? (r->user ? r->user : "") : NULL;
}

static bool memo_hit(const struct cell_memo *mo, bool num, struct val v, const char *text)
{
	if (!mo->ok)
		return false;
	return num ? same_val(v, mo->key) : text && strcmp(text, mo->src) == 0;
}

static void memo_keep(struct cell_memo *mo, bool num, struct val v, const char *text,
		      const char *cell, size_t len)
{
	mo->ok = false;
	if (len > sizeof(mo->cell) || (!num && (!text || strlen(text) >= sizeof(mo->src))))
		return;
	if (num)
		mo->key = v;
	else
		strcpy(mo->src, text);
	memcpy(mo->cell, cell, len);
	mo->len = (unsigned char)len;
	mo->ok = true;
}

/* One cell at p, padded to its column; returns its end. Numbers need no sanitising
 * (digits and marks only), text from other processes always does. The text is written
 * first and moved right when the column is right-aligned. */
static char *text_cell(struct cell_memo *mo, const struct column *c, const struct model *m,
		       const struct mrow *r, bool last, char *p)
{
	size_t len;
	bool num = column_is_numeric(c);
	struct val v = {0};
	const char *text = NULL;
	if (num)
		v = column_value(c, m, r);
	else
		text = memo_text(c, r);
	if ((num || text) && memo_hit(mo, num, v, text)) {
		/* The whole memo, a copy of fixed size (a few moves, where one of its length
		 * is a string copy's start-up): within the cell's room of row_max, and what
		 * is past its length the next cell or the line's end writes over. */
		memcpy(p, mo->cell, sizeof(mo->cell));
		return p + mo->len;
	}
	char *start = p;
	if (num) {
		len = column_format_val(c, v, p, CELL_MAX - 1); /* and room for the mark */
		if (val_suffix(v))
			p[len++] = val_suffix(v);
	} else {
		/* Threads under their process, as in a tree. */
		size_t indent = c->kind == COL_COMMAND && r->kind == ROW_THREAD ? 2 : 0;
		const char *name = c->kind == COL_COMMAND ? (r->comm ? r->comm : "") : text;
		if (name && strnlen(name, CELL_MAX) + indent < CELL_MAX - 1) {
			memset(p, ' ', indent);
			/* A name shorter than a cell is sanitised where it is: the bytes a copy
			 * into a buffer first would give. */
			len = indent + text_sanitize(name, p + indent, CELL_MAX - indent, true);
		} else {
			char buf[CELL_MAX];
			buf[0] = buf[1] = ' ';
			column_format(c, m, r, buf + indent, sizeof(buf) - indent);
			len = text_sanitize(buf, p, CELL_MAX, true);
		}
	}
	if (!last) {
		size_t width = (size_t)c->width + (num ? 1 : 0);
		if (c->left && len < (size_t)c->width) {
			memset(p + len, ' ', (size_t)c->width - len);
			len = (size_t)c->width;
		} else if (!c->left && len < width) {
			memmove(p + (width - len), p, len);
			memset(p, ' ', width - len);
			len = width;
		}
		p[len++] = ' ';
	}
	if (num || text)
		memo_keep(mo, num, v, text, start, len);
	return p + len;
}

static void text_row(struct batch *b, const struct model *m, const struct mrow *r, bool task)
{
	if (b->used + b->row_max > b->cap)
		rows_flush(b);
	char *p = b->rows + b->used;
	for (unsigned i = 0; i < b->ncols; i++)
		p = text_cell(&b->memo[i], &b->cols[i], m, r, i + 1 == b->ncols, p);
	if (task && r->exited)
		for (const char *s = " (exited)"; *s; s++)
			*p++ = *s;
	*p++ = '\n';
	b->used = (size_t)(p - b->rows);
}

static void text_block(struct batch *b, const struct model *m, const size_t *n_rows)
{
	char ex[64], where[128], counted[48];
	model_exit_text(m, ex, sizeof(ex));
	if (m->fleet) { /* many hosts: how many answer, not this machine's; its rows */
		snprintf(where, sizeof(where), "%u targets up, %u down", m->fleet_up,
			 m->fleet_down);
		snprintf(counted, sizeof(counted), "%u %s", m->fleet_rows,
			 m->fleet_cgroups ? "cgroups" : "commands");
	} else {
		snprintf(where, sizeof(where), "Linux %s, %d CPUs", m->kernel ? m->kernel : "?",
			 m->ncpus);
		snprintf(counted, sizeof(counted), "%u tasks", m->ntasks);
	}
	fprintf(b->out,
		"pmutop - %s, %s - %s %llu at %s, interval %.2fs (%.3fs) - "
		"%s%s%s%s%s%s%s\n",
		m->hostname ? m->hostname : "?", where, m->final ? "total" : "tick",
		(unsigned long long)m->tick, b->at, m->interval, m->elapsed, counted,
		m->backend ? " (" : "", m->backend ? m->backend : "", m->backend ? ")" : "",
		m->user_only ? " - user mode only" : "", *ex ? " - command " : "", ex);
	for (unsigned i = 0; i < b->ncols; i++) {
		const struct column *c = &b->cols[i];
		bool last = i + 1 == b->ncols;
		if (last)
			fputs(c->title, b->out);
		else if (c->left)
			fprintf(b->out, "%-*s ", c->width, c->title);
		else
			fprintf(b->out, "%*s ", c->width + (column_is_numeric(c) ? 1 : 0),
				c->title);
	}
	fputc('\n', b->out);
	for (unsigned k = 0; b->cpus && k < m->ncpu_rows; k++)
		text_row(b, m, &m->cpu_rows[k], false);
	for (size_t k = 0; k < *n_rows; k++)
		text_row(b, m, &m->rows[b->idx[k]], true);
	rows_flush(b);
	fputc('\n', b->out);
}

static void csv_prefix(struct batch *b, const struct model *m, const struct mrow *r)
{
	if (m->final)
		fputs("total,", b->out);
	else
		fprintf(b->out, "%llu,", (unsigned long long)m->tick);
	fprintf(b->out, "%.3f,%.3f,%s,", m->time, m->elapsed, kind_str(r->kind));
	if (r->kind == ROW_CPU)
		fprintf(b->out, ",,%d,,", r->cpu);
	else {
		if (r->kind == ROW_CGROUP) /* no pid: the name, and the path last */
			fputs(",,,", b->out);
		else
			fprintf(b->out, "%d,%d,,", (int)r->pid, (int)r->tid);
		text_csv_field(b->out, r->comm);
		fputc(',', b->out);
	}
}

/* A value whose why is printed: a missing one's, a partial one's, a metric's division by
 * zero, and a scaled one's that is not multiplexed (WHY_SWITCH: unscaled, running the share
 * of its time that was the task's own). */
static bool shows_why(struct val v)
{
	return v.state == VAL_NA || v.state == VAL_NC || v.state == VAL_PARTIAL ||
	       (v.state == VAL_EMPTY && v.why == WHY_DIVZERO) ||
	       (v.state == VAL_SCALED && v.why != WHY_NONE);
}

/* value,state,running,why,exited,cgroup */
static void csv_value(struct batch *b, const struct model *m, const struct mrow *r, struct val v,
		      bool count)
{
	if (val_has_number(v))
		fprintf(b->out, count ? "%.0f," : "%.4f,", v.v);
	else
		fputc(',', b->out);
	fprintf(b->out, "%s,", val_state_str(v.state));
	if (v.state != VAL_NA && v.state != VAL_EMPTY)
		fprintf(b->out, "%.2f", v.run_pm / 10.0);
	fputc(',', b->out);
	if (shows_why(v))
		text_csv_field(b->out, val_why_str(v.why));
	fputc(',', b->out);
	char ex[64];
	if (*model_exit_text(m, ex, sizeof(ex)) && r->kind == ROW_PROC)
		fputs(ex, b->out);
	else if (r->exited)
		fputs("yes", b->out);
	fputc(',', b->out);
	if (r->cgroup)
		text_csv_field(b->out, r->cgroup);
	if (m->fleet) { /* a fleet's rows (--prometheus): their host and job */
		fputc(',', b->out);
		text_csv_field(b->out, r->instance ? r->instance : "");
		fputc(',', b->out);
		text_csv_field(b->out, r->job ? r->job : "");
	}
	fputs(b->csv_tail, b->out);
}

/* Derived columns (IPC, ratios, CPU%, GHz) follow the raw events of the same row. */
static bool derived(const struct column *c)
{
	return c->kind == COL_RATIO || c->kind == COL_GHZ || c->kind == COL_CPU_PCT ||
	       c->kind == COL_RATE || c->kind == COL_METRIC;
}

static void csv_row(struct batch *b, const struct model *m, const struct mrow *r)
{
	for (unsigned e = 0; e < m->nevents; e++) {
		csv_prefix(b, m, r);
		text_csv_field(b->out, m->events[e].key);
		fputc(',', b->out);
		csv_value(b, m, r, r->v[e], true);
	}
	for (unsigned i = 0; i < b->ncols; i++) {
		if (!derived(&b->cols[i]))
			continue;
		csv_prefix(b, m, r);
		text_csv_field(b->out, b->cols[i].name);
		fputc(',', b->out);
		csv_value(b, m, r, column_value(&b->cols[i], m, r), false);
	}
}

static void json_value(struct batch *b, const char *key, struct val v, bool count, bool first)
{
	if (!first)
		fputc(',', b->out);
	text_json_string(b->out, key);
	fputs(":{\"value\":", b->out);
	if (val_has_number(v))
		fprintf(b->out, count ? "%.0f" : "%.6g", v.v); /* counts keep every digit */
	else
		fputs("null", b->out);
	fprintf(b->out, ",\"state\":\"%s\"", val_state_str(v.state));
	if (shows_why(v))
		fprintf(b->out, ",\"why\":\"%s\"", val_why_str(v.why));
	if (v.state != VAL_NA && v.state != VAL_EMPTY)
		fprintf(b->out, ",\"running\":%.2f", v.run_pm / 10.0);
	fputc('}', b->out);
}

static void json_row(struct batch *b, const struct model *m, const struct mrow *r)
{
	fputs("{\"tick\":", b->out);
	if (m->final)
		fputs("\"total\"", b->out);
	else
		fprintf(b->out, "%llu", (unsigned long long)m->tick);
	fprintf(b->out,
		",\"time\":%.3f,\"interval\":%.3f,\"wall\":%.3f,\"at\":\"%s\",\"kind\":\"%s\"",
		m->time, m->elapsed, b->wall, b->at, kind_str(r->kind));
	if (r->kind == ROW_CPU) {
		fprintf(b->out, ",\"cpu\":%d", r->cpu);
	} else if (r->kind == ROW_CGROUP) {
		fputs(",\"name\":", b->out);
		text_json_string(b->out, r->comm);
		if (r->instance) { /* a fleet's: its processes are not in Prometheus */
			fputs(",\"instance\":", b->out);
			text_json_string(b->out, r->instance);
			fputs(",\"job\":", b->out);
			text_json_string(b->out, r->job ? r->job : "");
			fputs(",\"processes\":null,\"cgroup\":", b->out);
		} else
			fprintf(b->out, ",\"processes\":%u,\"cgroup\":", r->nthreads);
		text_json_string(b->out, r->cgroup);
	} else {
		fprintf(b->out, ",\"pid\":%d,\"tid\":%d,\"user\":", (int)r->pid, (int)r->tid);
		text_json_string(b->out, r->user);
		fputs(",\"command\":", b->out);
		text_json_string(b->out, r->comm);
		if (r->instance) {
			fputs(",\"instance\":", b->out);
			text_json_string(b->out, r->instance);
			fputs(",\"job\":", b->out);
			text_json_string(b->out, r->job ? r->job : "");
		}
		if (r->cgroup) {
			fputs(",\"cgroup\":", b->out);
			text_json_string(b->out, r->cgroup);
		}
		if (r->exited)
			fputs(",\"exited\":true", b->out);
		char ex[64];
		if (*model_exit_text(m, ex, sizeof(ex)) && r->kind == ROW_PROC)
			fprintf(b->out, ",\"exit\":\"%s\"", ex);
	}
	fputs(",\"values\":{", b->out);
	for (unsigned e = 0; e < m->nevents; e++)
		json_value(b, m->events[e].key, r->v[e], true, e == 0);
	for (unsigned i = 0; i < b->ncols; i++)
		if (derived(&b->cols[i]))
			json_value(b, b->cols[i].name, column_value(&b->cols[i], m, r), false,
				   m->nevents == 0 && i == 0);
	fputs("}}\n", b->out);
}

/* Out of descriptors is a notice as the others, when it begins and when it ends: the
 * n/c (fd limit) cells and the why field say which tasks, at each tick. */
static void fd_notice(struct batch *b, const struct model *m)
{
	if ((m->nfd_short > 0) == b->fd_short)
		return;
	b->fd_short = m->nfd_short > 0;
	char text[256];
	if (b->fd_short)
		snprintf(text, sizeof(text),
			 "%u tasks not counted (n/c): out of file descriptors; raise the limit "
			 "(ulimit -Hn, LimitNOFILE=) or watch fewer tasks (-p, -e with fewer "
			 "events)",
			 m->nfd_short);
	else
		snprintf(text, sizeof(text),
			 "every task counted again: enough file descriptors now");
	batch_notice(b, text);
}

/* A fleet's notice (--prometheus: targets down, Prometheus not answering) on stderr
 * when it changes, and when it ends: the rows say n/c at each tick. */
static void fleet_notice(struct batch *b, const struct model *m)
{
	const char *n = m->fleet && m->source_notice ? m->source_notice : "";
	if (!m->fleet || !strncmp(n, b->fleet_said, sizeof(b->fleet_said) - 1))
		return;
	bool was = b->fleet_said[0];
	snprintf(b->fleet_said, sizeof(b->fleet_said), "%s", n);
	if (n[0] || was)
		batch_notice(b, n[0] ? n : "Prometheus answering and every target up again");
}

int batch_write(struct batch *b, const struct model *m, double wall)
{
	b->wall = wall;
	errno = 0; /* a failure below says its own errno, not an older one */
	text_iso_time(wall, b->at, sizeof(b->at));
	snprintf(b->csv_tail, sizeof(b->csv_tail), ",%.3f,%s\n", wall, b->at);
	fd_notice(b, m);
	fleet_notice(b, m);
	if (m->nrows > b->idx_cap) {
		size_t cap = m->nrows + m->nrows / 2 + 64;
		unsigned *idx = realloc(b->idx, cap * sizeof(*idx));
		if (idx)
			b->idx = idx;
		unsigned *scr = realloc(b->scratch, 2 * cap * sizeof(*scr));
		if (scr)
			b->scratch = scr;
		double *keys = realloc(b->keys, cap * sizeof(*keys));
		if (keys)
			b->keys = keys;
		if (!idx || !scr || !keys)
			return -ENOMEM;
		b->idx_cap = cap;
	}
	size_t n = m->nrows ? sort_rows_r(m, &b->sort, b->idx, b->scratch, b->keys) : 0;
	if (b->fmt == OUT_CSV && !b->header_done)
		fputs(m->fleet ? "tick,time,interval,kind,pid,tid,cpu,command,event,value,state,"
				 "running,why,exited,cgroup,instance,job,wall,at\n"
			       : "tick,time,interval,kind,pid,tid,cpu,command,event,value,state,"
				 "running,why,exited,cgroup,wall,at\n",
		      b->out);
	b->header_done = true;
	if (b->fmt == OUT_TEXT) {
		text_block(b, m, &n);
	} else {
		for (unsigned k = 0; b->cpus && k < m->ncpu_rows; k++)
			(b->fmt == OUT_CSV ? csv_row : json_row)(b, m, &m->cpu_rows[k]);
		for (size_t k = 0; k < n; k++)
			(b->fmt == OUT_CSV ? csv_row : json_row)(b, m, &m->rows[b->idx[k]]);
	}
	if (fflush(b->out) != 0 || ferror(b->out))
		return -(errno ? errno : EIO);
	return 0;
}
