/* cgroup v2 paths and names, from fixtures: the mount found in mountinfo (hybrid layout,
 * an escaped blank), a task's v2 line among v1 ones, and readable names for systemd
 * units, docker, containerd, podman, CRI-O and kubepods paths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "testutil.h"

static void test_mount_and_path(void **state)
{
	(void)state;
	char root[4096], out[256];
	snprintf(root, sizeof(root), "%s", testutil_path("fixtures/cgroup"));
	assert_int_equal(cgroup_mount(root, out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/uni fied");
	assert_int_equal(cgroup_mount(root, out, 8), -ENAMETOOLONG);
	assert_int_equal(cgroup_of(root, 42, out, sizeof(out)), 0);
	assert_string_equal(out, "/system.slice/nginx.service");
	assert_int_equal(cgroup_of(root, 43, out, sizeof(out)), -ENOENT); /* v1 only */
	assert_int_equal(cgroup_of(root, 44, out, sizeof(out)), -ESRCH);
	/* This machine's own: some v2 path, from the root. */
	char mine[256];
	if (cgroup_of("", getpid(), mine, sizeof(mine)) == 0)
		assert_true(mine[0] == '/');
}

static void test_names(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"/", "/"},
		{"/system.slice/nginx.service", "nginx.service"},
		{"/user.slice/user-1000.slice/session-2.scope", "session-2.scope"},
		{"/system.slice/docker-"
		 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
		 "docker:0123456789ab"},
		{"/docker/fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210",
		 "container:fedcba987654"},
		{"/machine.slice/libpod-"
		 "aaaabbbbccccddddeeeeffff0000111122223333444455556666777788889999.scope",
		 "podman:aaaabbbbcccc"},
		{"/kubepods.slice/kubepods-burstable.slice/"
		 "kubepods-burstable-pod1f2e3d4c_5b6a_7980_a1b2_c3d4e5f60718.slice/"
		 "cri-containerd-"
		 "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9.scope",
		 "pod:1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718/containerd:0a1b2c3d4e5f"},
		{"/kubepods.slice/kubepods-besteffort.slice/"
		 "kubepods-besteffort-pod1f2e3d4c_5b6a_7980_a1b2_c3d4e5f60718.slice",
		 "pod:1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718"},
		{"/kubepods/besteffort/pod1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718/"
		 "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
		 "pod:1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718/container:0a1b2c3d4e5f"},
		{"/system.slice/crio-"
		 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
		 "crio:0123456789ab"},
		{"/mytests/pmutop-test", "pmutop-test"},
	};
	char out[128];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(cgroup_name(cases[i][0], out, sizeof(out)), cases[i][1]);
}

static void test_intern(void **state)
{
	(void)state;
	struct cgroup_names *n = cgroup_names_new();
	assert_non_null(n);
	char buf[32];
	const char *first = cgroup_names_intern(n, "/a");
	for (int i = 0; i < 500; i++) {
		snprintf(buf, sizeof(buf), "/svc%d", i);
		assert_string_equal(cgroup_names_intern(n, buf), buf);
	}
	assert_ptr_equal(cgroup_names_intern(n, "/a"), first); /* stored once, never moved */
	snprintf(buf, sizeof(buf), "/svc%d", 7);
	assert_ptr_equal(cgroup_names_intern(n, buf), cgroup_names_intern(n, "/svc7"));
	cgroup_names_free(n);
	cgroup_names_free(NULL);
}

static uint64_t ino(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_ino;
}

/* Ids to paths: any directory tree stands for a cgroup2 mount (its inodes are the ids).
 * A cgroup made after a walk is found by the next miss, but a miss walks once a gen. */
static void test_ids(void **state)
{
	(void)state;
	char mnt[] = "/tmp/pmutop-cgids-XXXXXX", path[128];
	assert_non_null(mkdtemp(mnt));
	snprintf(path, sizeof(path), "%s/a.slice", mnt);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/a.slice/b.service", mnt);
	assert_int_equal(mkdir(path, 0755), 0);
	uint64_t b = ino(path);
	struct cgroup_names *n = cgroup_names_new();
	struct cgroup_ids *c = cgroup_ids_new(mnt, n);
	assert_non_null(c);
	assert_string_equal(cgroup_ids_path(c, b, 1), "/a.slice/b.service");
	assert_ptr_equal(cgroup_ids_path(c, b, 1), cgroup_names_intern(n, "/a.slice/b.service"));
	assert_string_equal(cgroup_ids_path(c, ino(mnt), 1), "/");
	snprintf(path, sizeof(path), "%s/a.slice", mnt);
	assert_string_equal(cgroup_ids_path(c, ino(path), 1), "/a.slice");
	snprintf(path, sizeof(path), "%s/c", mnt);
	assert_int_equal(mkdir(path, 0755), 0);
	uint64_t k = ino(path);
	assert_null(cgroup_ids_path(c, k, 1)); /* walked at gen 1 already */
	assert_string_equal(cgroup_ids_path(c, k, 2), "/c");
	assert_null(cgroup_ids_path(c, 0, 3));
	cgroup_ids_free(c);
	cgroup_ids_free(NULL);
	cgroup_names_free(n);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a.slice/b.service", mnt);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a.slice", mnt);
	rmdir(path);
	rmdir(mnt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_and_path),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
