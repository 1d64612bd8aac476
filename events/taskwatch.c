/* Fork/exit/comm records from per-CPU dummy events (the way perf record tracks tasks). */
#include "taskwatch.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TW_DATA_PAGES 32 /* 128 KiB per CPU: a fork storm between two ticks fits */

struct tw_ring {
	int fd;
	void *base;
	size_t data_size;
};

struct taskwatch {
	int n;
	size_t page;
	unsigned char *scratch; /* one record, unwrapped when it straddles the end */
	struct tw_ring ring[];
};

struct task_body {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

static void deliver_task(enum taskwatch_kind kind, const unsigned char *p, size_t len,
			 taskwatch_cb cb, void *ctx)
{
	struct task_body b;
	if (len < sizeof(struct perf_event_header) + sizeof(b))
		return;
	memcpy(&b, p + sizeof(struct perf_event_header), sizeof(b));
	struct taskwatch_rec r = {.kind = kind,
				  .pid = (pid_t)b.pid,
				  .tid = (pid_t)b.tid,
				  .ppid = (pid_t)b.ppid,
				  .ptid = (pid_t)b.ptid};
	cb(ctx, &r);
}

static void deliver_comm(const struct perf_event_header *h, const unsigned char *p, taskwatch_cb cb,
			 void *ctx)
{
	size_t off = sizeof(*h) + 2 * sizeof(uint32_t);
	if (h->size < off + 1)
		return;
	uint32_t ids[2];
	memcpy(ids, p + sizeof(*h), sizeof(ids));
	struct taskwatch_rec r = {.kind = TW_COMM,
				  .pid = (pid_t)ids[0],
				  .tid = (pid_t)ids[1],
				  .exec = !!(h->misc & PERF_RECORD_MISC_COMM_EXEC)};
	size_t max = h->size - off < sizeof(r.comm) - 1 ? h->size - off : sizeof(r.comm) - 1;
	memcpy(r.comm, p + off, max);
	r.comm[max] = '\0';
	cb(ctx, &r);
}

long taskwatch_parse(const void *buf, size_t n, taskwatch_cb cb, void *ctx)
{
	const unsigned char *p = buf;
	size_t off = 0;
	while (n - off >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h))
			return -EINVAL;
		if (h.size > n - off)
			break;
		const unsigned char *rec = p + off;
		switch (h.type) {
		case PERF_RECORD_FORK:
			deliver_task(TW_FORK, rec, h.size, cb, ctx);
			break;
		case PERF_RECORD_EXIT:
			deliver_task(TW_EXIT, rec, h.size, cb, ctx);
			break;
		case PERF_RECORD_COMM:
			deliver_comm(&h, rec, cb, ctx);
			break;
		case PERF_RECORD_LOST:
			if (h.size >= sizeof(h) + 16) {
				struct taskwatch_rec r = {.kind = TW_LOST};
				memcpy(&r.lost, rec + sizeof(h) + 8, sizeof(r.lost));
				cb(ctx, &r);
			}
			break;
		default:
			break;
		}
		off += h.size;
	}
	return (long)off;
}

static int open_ring(struct tw_ring *r, int cpu, size_t page)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.task = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.sample_id_all = 0;
	a.watermark = 1;
	a.wakeup_watermark = TW_DATA_PAGES * page / 2;
	a.exclude_kernel = 0;
	long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	r->fd = (int)fd;
	r->data_size = TW_DATA_PAGES * page;
	r->base = mmap(NULL, page + r->data_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		int err = -errno;
		close(r->fd);
		r->fd = -1;
		r->base = NULL;
		return err;
	}
	return 0;
}

int taskwatch_open(const int *cpus, int ncpus, struct taskwatch **out)
{
	*out = NULL;
	struct taskwatch *w = calloc(1, sizeof(*w) + (size_t)ncpus * sizeof(w->ring[0]));
	if (!w)
		return -ENOMEM;
	w->page = (size_t)sysconf(_SC_PAGESIZE);
	w->scratch = malloc(65536);
	if (!w->scratch) {
		free(w);
		return -ENOMEM;
	}
	for (int i = 0; i < ncpus; i++) {
		int err = open_ring(&w->ring[i], cpus[i], w->page);
		if (err) {
			taskwatch_free(w);
			return err;
		}
		w->n = i + 1;
	}
	*out = w;
	return 0;
}

static int drain_ring(struct taskwatch *w, struct tw_ring *r, taskwatch_cb cb, void *ctx)
{
	struct perf_event_mmap_page *meta = r->base;
	const unsigned char *data = (const unsigned char *)r->base + w->page;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	int count = 0;
	while (tail < head) {
		size_t off = tail % r->data_size;
		struct perf_event_header h;
		/* The header itself may straddle the end of the buffer. */
		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(off + i) % r->data_size];
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		const unsigned char *rec = data + off;
		if (off + h.size > r->data_size) {
			size_t first = r->data_size - off;
			memcpy(w->scratch, data + off, first);
			memcpy(w->scratch + first, data, h.size - first);
			rec = w->scratch;
		}
		taskwatch_parse(rec, h.size, cb, ctx);
		tail += h.size;
		count++;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return count;
}

int taskwatch_drain(struct taskwatch *w, taskwatch_cb cb, void *ctx)
{
	int total = 0;
	for (int i = 0; i < w->n; i++)
		total += drain_ring(w, &w->ring[i], cb, ctx);
	return total;
}

void taskwatch_free(struct taskwatch *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->n; i++) {
		if (w->ring[i].base)
			munmap(w->ring[i].base, w->page + w->ring[i].data_size);
		if (w->ring[i].fd >= 0)
			close(w->ring[i].fd);
	}
	free(w->scratch);
	free(w);
}
