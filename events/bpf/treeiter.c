/* The tree iterator's loader (libbpf, with the skeleton bpftool generates at build time):
 * the roots' ids set before load, the iterator attached once, and each pass read from a
 * new iterator descriptor. */
#include "treeiter.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "treeiter.skel.h"

struct treeiter {
	struct treeiter_bpf *skel;
	struct bpf_link *link;
	struct treeiter_rec *rec;
	size_t n, cap;
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

uint64_t treeiter_event_id(int fd)
{
	uint64_t id = 0;
	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
		return 0;
	return id;
}

int treeiter_open(const uint64_t *ids, unsigned n, struct treeiter **out)
{
	*out = NULL;
	if (n > TREEITER_MAXEV)
		return -E2BIG;
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		return -ENOENT;
	libbpf_set_print(quiet);
	struct treeiter *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	int err = 0;
	t->skel = treeiter_bpf__open();
	if (!t->skel) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	err = treeiter_bpf__load(t->skel);
	if (err)
		goto fail;
	for (unsigned i = 0; i < n; i++)
		if (bpf_map__update_elem(t->skel->maps.roots, &ids[i], sizeof(ids[i]), &i,
					 sizeof(i), BPF_ANY)) {
			err = -errno;
			goto fail;
		}
	t->link = bpf_program__attach_iter(t->skel->progs.tree_tasks, NULL);
	if (!t->link) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	*out = t;
	return 0;
fail:
	treeiter_free(t);
	return err < 0 ? err : -EINVAL;
}

void treeiter_free(struct treeiter *t)
{
	if (!t)
		return;
	bpf_link__destroy(t->link);
	treeiter_bpf__destroy(t->skel);
	free(t->rec);
	free(t);
}

static int grow(struct treeiter *t)
{
	size_t cap = t->cap ? 2 * t->cap : 256;
	struct treeiter_rec *r = realloc(t->rec, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	t->rec = r;
	t->cap = cap;
	return 0;
}

int treeiter_read(struct treeiter *t, const struct treeiter_rec **recs, size_t *n)
{
	*recs = NULL;
	*n = 0;
	int fd = bpf_iter_create(bpf_link__fd(t->link));
	if (fd < 0)
		return -errno;
	size_t have = 0; /* bytes of rec[t->n] read so far */
	int err = 0;
	t->n = 0;
	for (;;) {
		if (t->n == t->cap && (err = grow(t)) != 0)
			break;
		char *at = (char *)&t->rec[t->n] + have;
		size_t room = (t->cap - t->n) * sizeof(*t->rec) - have;
		ssize_t got = read(fd, at, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			break;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		t->n += have / sizeof(*t->rec);
		have %= sizeof(*t->rec);
	}
	close(fd);
	if (!err && have)
		err = -EPROTO;
	if (err)
		return err;
	*recs = t->rec;
	*n = t->n;
	return 0;
}
