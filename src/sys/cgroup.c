/* cgroup v2: the mount, a task's cgroup, paths of cgroup ids (cgroup.h). */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evmount.h"

int cgroup_mount(const char *root, char *out, size_t len)
{
	return evmount_find(root, "cgroup2", out, len);
}

int cgroup_of(const char *root, pid_t pid, char *out, size_t len)
{
	char path[512], buf[8192];
	snprintf(path, sizeof(path), "%s/proc/%d/cgroup", root, (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int err = errno;
	close(fd);
	if (n < 0)
		return err == ESRCH ? -ESRCH : -err;
	buf[n] = '\0';
	/* The v2 line is "0::PATH"; v1 lines name their controllers. */
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "0::", 3) != 0)
			continue;
		size_t k = strcspn(l + 3, "\n");
		if (k >= len)
			return -ENAMETOOLONG;
		memcpy(out, l + 3, k);
		out[k] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* Open addressing from id to interned path, rebuilt by each walk. */
struct cgroup_ids {
	char mnt[512];
	struct cgroup_names *names;
	struct idslot {
		uint64_t id;
		const char *path;
	} * slot;
	size_t cap, n;
	uint64_t walked; /* gen of the last walk, +1 (0: never) */
};

struct cgroup_ids *cgroup_ids_new(const char *mnt, struct cgroup_names *names)
{
	struct cgroup_ids *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	snprintf(c->mnt, sizeof(c->mnt), "%s", mnt);
	c->names = names;
	return c;
}

void cgroup_ids_free(struct cgroup_ids *c)
{
	if (!c)
		return;
	free(c->slot);
	free(c);
}

static size_t id_hash(uint64_t id, size_t cap)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static bool ids_put(struct cgroup_ids *c, uint64_t id, const char *rel)
{
	if (2 * (c->n + 1) > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct idslot *slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return false;
		for (size_t i = 0; i < c->cap; i++) {
			if (!c->slot[i].path)
				continue;
			size_t j = id_hash(c->slot[i].id, cap);
			while (slot[j].path)
				j = (j + 1) & (cap - 1);
			slot[j] = c->slot[i];
		}
		free(c->slot);
		c->slot = slot;
		c->cap = cap;
	}
	const char *in = cgroup_names_intern(c->names, *rel ? rel : "/");
	if (!in)
		return false;
	size_t j = id_hash(id, c->cap);
	for (; c->slot[j].path; j = (j + 1) & (c->cap - 1))
		if (c->slot[j].id == id) {
			c->slot[j].path = in;
			return true;
		}
	c->slot[j].id = id;
	c->slot[j].path = in;
	c->n++;
	return true;
}

/* Each directory under rel (relative to the mount, "" for the root), depth first. */
static void walk(struct cgroup_ids *c, char *rel, size_t len, size_t cap, int depth)
{
	char dir[4096 + 512];
	snprintf(dir, sizeof(dir), "%s%s", c->mnt, rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		size_t k = strlen(de->d_name);
		if (len + 1 + k >= cap)
			continue;
		rel[len] = '/';
		memcpy(rel + len + 1, de->d_name, k + 1);
		/* kernfs gives each entry's inode in the listing: no stat needed. */
		if (ids_put(c, (uint64_t)de->d_ino, rel) && depth < 64)
			walk(c, rel, len + 1 + k, cap, depth + 1);
		rel[len] = '\0';
	}
	closedir(d);
}

static const char *ids_find(const struct cgroup_ids *c, uint64_t id)
{
	if (!c->cap)
		return NULL;
	for (size_t j = id_hash(id, c->cap); c->slot[j].path; j = (j + 1) & (c->cap - 1))
		if (c->slot[j].id == id)
			return c->slot[j].path;
	return NULL;
}

const char *cgroup_ids_path(struct cgroup_ids *c, uint64_t id, uint64_t gen)
{
	const char *p = ids_find(c, id);
	if (p || c->walked == gen + 1)
		return p;
	c->walked = gen + 1;
	struct stat st;
	if (stat(c->mnt, &st) == 0)
		ids_put(c, (uint64_t)st.st_ino, "");
	char rel[4096] = "";
	walk(c, rel, 0, sizeof(rel), 0);
	return ids_find(c, id);
}
