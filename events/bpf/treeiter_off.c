/* A build without BPF: the tree iterator cannot be loaded, and -- COMMAND keeps a group
 * per process of its tree. */
#include "treeiter.h"

#include <errno.h>

int treeiter_open(const uint64_t *ids, unsigned n, struct treeiter **out)
{
	(void)ids;
	(void)n;
	*out = NULL;
	return -ENOTSUP;
}

void treeiter_free(struct treeiter *t)
{
	(void)t;
}

int treeiter_read(struct treeiter *t, const struct treeiter_rec **recs, size_t *n)
{
	(void)t;
	*recs = NULL;
	*n = 0;
	return -ENOTSUP;
}

uint64_t treeiter_event_id(int fd)
{
	(void)fd;
	return 0;
}
