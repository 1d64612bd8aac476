/* The run times of the threads whose runs the kernel hides (bpfrows.c find_hidden), read
 * through their schedstat files kept open from tick to tick. */
#include "bpfsource_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "procfs.h"

static int cmp_rt(const struct rtfd *x, const struct brec *r)
{
	return bpf_task_cmp(x->tgid, x->tid, r->tgid, r->tid);
}

void bpfrows_rt_begin(struct bpfstate *s)
{
	s->rt_at = 0;
	s->nrt2 = 0;
	if (!s->rt2) {
		s->rt2 = calloc(PMUTOP_BPF_RTFD_MAX, sizeof(*s->rt2));
		if (s->rt2 && !s->rt && !(s->rt = calloc(PMUTOP_BPF_RTFD_MAX, sizeof(*s->rt)))) {
			free(s->rt2);
			s->rt2 = NULL;
		}
	}
}

void bpfrows_rt_end(struct bpfstate *s)
{
	while (s->rt_at < s->nrt)
		close(s->rt[s->rt_at++].fd);
	struct rtfd *t = s->rt;
	s->rt = s->rt2;
	s->rt2 = t;
	s->nrt = s->nrt2;
	s->nrt2 = 0;
	s->rt_at = 0;
}

void bpfrows_rt_free(struct bpfstate *s)
{
	for (size_t i = s->rt_at; i < s->nrt; i++)
		close(s->rt[i].fd);
	for (size_t i = 0; i < s->nrt2; i++)
		close(s->rt2[i].fd);
	free(s->rt);
	free(s->rt2);
	s->rt = s->rt2 = NULL;
	s->nrt = s->nrt2 = s->rt_at = 0;
}

/* Task r's run time in /proc: through its schedstat kept open since the last tick, or
 * opened now and kept (while fewer than PMUTOP_BPF_RTFD_MAX are), else by path. A kept
 * one that no longer reads (its thread gone, the tid taken again) is opened again. */
int bpfrows_rt_read(struct bpfsource *e, const struct brec *r, uint64_t *ns)
{
	struct bpfstate *s = e->bpf;
	while (s->rt_at < s->nrt && cmp_rt(&s->rt[s->rt_at], r) < 0)
		close(s->rt[s->rt_at++].fd);
	int fd = -1, err = -ESRCH;
	if (s->rt_at < s->nrt && cmp_rt(&s->rt[s->rt_at], r) == 0) {
		fd = s->rt[s->rt_at++].fd;
		if ((err = procfs_task_runtime_fd(fd, ns)) != 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0 && (!s->rt2 || s->nrt2 == PMUTOP_BPF_RTFD_MAX))
		return procfs_task_runtime(e->b.o.root, r->tgid, r->tid, ns);
	if (fd < 0) {
		if ((fd = procfs_task_runtime_open(e->b.o.root, r->tgid, r->tid)) < 0)
			return fd;
		err = procfs_task_runtime_fd(fd, ns);
	}
	if (s->rt2 && s->nrt2 < PMUTOP_BPF_RTFD_MAX)
		s->rt2[s->nrt2++] = (struct rtfd){r->tgid, r->tid, fd};
	else
		close(fd);
	return err;
}
