/* A build without BPF (PMUTOP_BPF=OFF: no clang, bpftool or libbpf): the bpf backend
 * cannot be opened, and says why. */
#include "bpfcount.h"

#include <errno.h>

int bpfcount_open(const struct evspec_list *specs, const struct bpfcount_opts *o,
		  struct bpfcount **out)
{
	(void)specs;
	(void)o;
	*out = NULL;
	return -ENOTSUP;
}

void bpfcount_free(struct bpfcount *b)
{
	(void)b;
}

enum ev_status bpfcount_status(const struct bpfcount *b, unsigned ev)
{
	(void)b;
	(void)ev;
	return EVS_UNSUPPORTED;
}

int bpfcount_seed(struct bpfcount *b, pid_t tid, pid_t tgid, uid_t uid, unsigned flags,
		  const char *comm)
{
	(void)b, (void)tid, (void)tgid, (void)uid, (void)flags, (void)comm;
	return -ENOTSUP;
}

bool bpfcount_at_switch(const struct bpfcount *b, unsigned ev)
{
	(void)b, (void)ev;
	return false;
}

bool bpfcount_is_clock(const struct bpfcount *b, unsigned ev)
{
	(void)b, (void)ev;
	return false;
}

int bpfcount_fold(struct bpfcount *b)
{
	(void)b;
	return -ENOTSUP;
}

int bpfcount_slot(const struct bpfcount *b, unsigned ev)
{
	(void)b, (void)ev;
	return -1;
}

size_t bpfcount_value_size(const struct bpfcount *b)
{
	(void)b;
	return 0;
}

int bpfcount_read(struct bpfcount *b, const unsigned **tids, const void **vals, size_t *n)
{
	(void)b, (void)tids, (void)vals;
	*n = 0;
	return -ENOTSUP;
}

int bpfcount_forget(struct bpfcount *b, const unsigned *tids, size_t n)
{
	(void)b, (void)tids, (void)n;
	return -ENOTSUP;
}

uint64_t bpfcount_full_reads(const struct bpfcount *b)
{
	(void)b;
	return 0;
}

int bpfcount_read_cpus(struct bpfcount *b, const struct pmutop_bpf_last **cpus, int *n)
{
	(void)b, (void)cpus;
	*n = 0;
	return -ENOTSUP;
}

int bpfcount_stop(struct bpfcount *b)
{
	(void)b;
	return -ENOTSUP;
}

uint64_t bpfcount_lost(const struct bpfcount *b)
{
	(void)b;
	return 0;
}

unsigned bpfcount_max_tasks(const struct bpfcount *b)
{
	(void)b;
	return 0;
}

unsigned bpfcount_open_fds(const struct bpfcount *b)
{
	(void)b;
	return 0;
}
