/* Names for cgroup v2 paths: a readable name for a systemd unit, a container or a pod,
 * and a set that stores each distinct path once. Pure string work, no syscalls. */
#include "cgroup_name.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
