/* cgroup v2 paths and names (cgroup.h). */
#include "cgroup.h"

#include <ctype.h>
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

/* s[0..n) as hex digits only, at least min of them. */
static bool hex_run(const char *s, size_t n, size_t min)
{
	if (n < min)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* A container id in a component: "<prefix><64 hex>[.scope]" or bare 64 hex. Writes the
 * runtime and the id's first 12 digits; false when the component is none. */
static bool container(const char *c, size_t n, char *out, size_t len)
{
	static const struct {
		const char *prefix, *runtime;
	} kinds[] = {
		{"docker-", "docker"},
		{"cri-containerd-", "containerd"},
		{"libpod-conmon-", "conmon"},
		{"libpod-", "podman"},
		{"crio-conmon-", "conmon"},
		{"crio-", "crio"},
		{"", "container"},
	};
	if (n > 6 && strncmp(c + n - 6, ".scope", 6) == 0)
		n -= 6;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t p = strlen(kinds[i].prefix);
		if (n > p && strncmp(c, kinds[i].prefix, p) == 0 && hex_run(c + p, n - p, 32)) {
			snprintf(out, len, "%s:%.12s", kinds[i].runtime, c + p);
			return true;
		}
	}
	return false;
}

/* A kubepods pod component: "kubepods-burstable-pod<uid>.slice" (systemd driver, '_' for
 * '-') or "pod<uid>" (cgroupfs). Writes "pod:<uid>". */
static bool pod(const char *c, size_t n, char *out, size_t len)
{
	const char *p = NULL;
	for (size_t i = 0; i + 3 < n; i++)
		if (strncmp(c + i, "pod", 3) == 0 && (i == 0 || c[i - 1] == '-'))
			p = c + i + 3;
	if (!p)
		return false;
	size_t k = (size_t)(c + n - p);
	if (k > 6 && strncmp(p + k - 6, ".slice", 6) == 0)
		k -= 6;
	if (k < 8 || k > 64)
		return false;
	char uid[65];
	for (size_t i = 0; i < k; i++) {
		char ch = p[i] == '_' ? '-' : p[i];
		if (!isxdigit((unsigned char)ch) && ch != '-')
			return false;
		uid[i] = ch;
	}
	uid[k] = '\0';
	snprintf(out, len, "pod:%s", uid);
	return true;
}

const char *cgroup_name(const char *path, char *out, size_t len)
{
	if (!len)
		return out;
	out[0] = '\0';
	char podname[80] = "", ctr[64] = "";
	const char *last = NULL;
	size_t lastn = 0;
	for (const char *c = path; *c;) {
		while (*c == '/')
			c++;
		size_t n = strcspn(c, "/");
		if (!n)
			break;
		char tmp[80];
		if (container(c, n, tmp, sizeof(tmp)))
			snprintf(ctr, sizeof(ctr), "%s", tmp);
		else if (strncmp(path, "/kubepods", 9) == 0 && pod(c, n, tmp, sizeof(tmp)))
			snprintf(podname, sizeof(podname), "%s", tmp);
		last = c;
		lastn = n;
		c += n;
	}
	if (!last)
		snprintf(out, len, "/");
	else if (*podname && *ctr)
		snprintf(out, len, "%s/%s", podname, ctr);
	else if (*podname)
		snprintf(out, len, "%s", podname);
	else if (*ctr)
		snprintf(out, len, "%s", ctr);
	else /* a systemd unit ("nginx.service") or any other cgroup: its own name */
		snprintf(out, len, "%.*s", (int)lastn, last);
	return out;
}

/* A small open-addressing set of strings. */
struct cgroup_names {
	char **slot;
	size_t cap, n;
};

struct cgroup_names *cgroup_names_new(void)
{
	return calloc(1, sizeof(struct cgroup_names));
}

void cgroup_names_free(struct cgroup_names *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->cap; i++)
		free(n->slot[i]);
	free(n->slot);
	free(n);
}

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

const char *cgroup_names_intern(struct cgroup_names *n, const char *path)
{
	if (2 * (n->n + 1) > n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 64;
		char **slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return NULL;
		for (size_t i = 0; i < n->cap; i++) {
			if (!n->slot[i])
				continue;
			size_t j = hash(n->slot[i]) & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = n->slot[i];
		}
		free(n->slot);
		n->slot = slot;
		n->cap = cap;
	}
	size_t j = hash(path) & (n->cap - 1);
	for (; n->slot[j]; j = (j + 1) & (n->cap - 1))
		if (strcmp(n->slot[j], path) == 0)
			return n->slot[j];
	n->slot[j] = strdup(path);
	if (n->slot[j])
		n->n++;
	return n->slot[j];
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
