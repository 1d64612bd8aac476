/* libFuzzer harness for --web-config FILE (webconfig_load, libyaml under it): the input is
 * written to a file beside copies of the fixtures' cert.pem and key.pem, which it may
 * name. Whatever the bytes: NULL with one line that starts "--web-config FILE: ", or a
 * setup that protects something (a certificate with its key, or users), never a crash. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[96], prefix[128];

static void put(const char *name, const void *buf, size_t n)
{
	char p[160];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, buf, n) != (ssize_t)n || close(fd) != 0)
		abort();
}

static void copy_fixture(const char *name)
{
	static char buf[65536];
	char p[512];
	snprintf(p, sizeof(p), "%s/webconfig/%s", PMUTOP_FIXTURES, name);
	FILE *f = fopen(p, "rbe");
	if (!f)
		abort();
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	put(name, buf, n);
}

static void remove_dir(void)
{
	static const char *const names[] = {"w.yml", "cert.pem", "key.pem"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char p[160];
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/pmutop-fuzz-webconfig-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
		copy_fixture("cert.pem");
		copy_fixture("key.pem");
		snprintf(path, sizeof(path), "%s/w.yml", dir);
		snprintf(prefix, sizeof(prefix), "--web-config %s: ", path);
	}
	put("w.yml", data, size);

	char err[512];
	memset(err, 'x', sizeof(err));
	struct webconfig *w = webconfig_load(path, err, sizeof(err));
	if (!w) {
		const char *nul = memchr(err, '\0', sizeof(err));
		if (!nul || strncmp(err, prefix, strlen(prefix)) != 0 ||
		    nul == err + strlen(prefix) || memchr(err, '\n', (size_t)(nul - err))) {
			fprintf(stderr, "bad error line '%.*s'\n", (int)sizeof(err), err);
			abort();
		}
		return 0;
	}
	const char *cert = webconfig_cert(w), *key = webconfig_key(w);
	if (!cert != !key || (!cert && webconfig_nusers(w) == 0))
		abort();
	if (cert && (!cert[0] || !key[0]))
		abort();
	webconfig_free(w);
	return 0;
}
