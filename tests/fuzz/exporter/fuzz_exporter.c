/* libFuzzer harness for the exporter's request handling (exporter.c's answer and the gate
 * in front of libmicrohttpd, httpgate.c), through a real socket: two exporters on
 * 127.0.0.1, one open and one behind --web-config basic auth (alice, "secret", a cheap
 * bcrypt), both with one exposition published. The input's first byte picks the exporter,
 * the rest is sent as it is (a request head, several, or anything), then the write side is
 * closed and every byte of the answer read.
 *
 * Checks: every answer is an HTTP/1.x status line, and a 200 only ever comes for GET or
 * HEAD of /metrics, on the auth exporter only with alice's Authorization header. What has
 * come within a deadline is checked; the deadline is no check of its own. */
#include <arpa/inet.h>
#include <crypt.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "exporter.h"
#include "promacc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DEADLINE_MS 8000
#define AUTH "YWxpY2U6c2VjcmV0" /* alice:secret */

static struct exporter *open_x, *auth_x;
static char dir[64], yml[96];

static void remove_dir(void)
{
	unlink(yml);
	rmdir(dir);
}

static struct exporter *start(const char *web)
{
	char err[512];
	struct exporter *x = exporter_new("127.0.0.1:0", web, err, sizeof(err));
	if (!x) {
		fprintf(stderr, "exporter_new: %s\n", err);
		abort();
	}
	struct promacc_opts o = {0};
	struct promacc *a = promacc_new(&o);
	struct promtext_info in = {.version = "fuzz"};
	if (!a || exporter_publish(x, a, &in) != 0)
		abort();
	promacc_free(a);
	return x;
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pmutop-fuzz-exporter-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	snprintf(yml, sizeof(yml), "%s/web.yml", dir);
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data cd = {0};
	const char *h = crypt_gensalt_rn("$2y$", 4, NULL, 0, salt, sizeof(salt))
				? crypt_rn("secret", salt, &cd, (int)sizeof(cd))
				: NULL;
	FILE *f = fopen(yml, "we");
	if (!h || h[0] != '$' || !f || fprintf(f, "basic_auth_users:\n  alice: '%s'\n", h) < 0 ||
	    fclose(f))
		abort();
	open_x = start(NULL);
	auth_x = start(yml);
}

/* What a 200 needs somewhere in the request: GET or HEAD (libmicrohttpd reads a method
 * up to a NUL: "GET\0x" is GET to it), and /metrics or the landing page's path "/" after
 * a space. */
static int asks_metrics(const char *in, size_t n)
{
	return (memmem(in, n, "GET", 3) || memmem(in, n, "HEAD", 4)) &&
	       (memmem(in, n, "/metrics", 8) || memmem(in, n, " /", 2));
}

static void check_answer(const char *in, size_t len, const char *out, size_t n, int auth)
{
	for (const char *p = out; p < out + n;) {
		if (strncmp(p, "HTTP/1.", 7) != 0 || n - (size_t)(p - out) < 12) {
			fprintf(stderr, "not a status line: '%.40s'\n", p);
			abort();
		}
		int code = atoi(p + 9);
		if (code < 100 || code > 599)
			abort();
		if (code == 200 &&
		    (!asks_metrics(in, len) || (auth && !memmem(in, len, AUTH, strlen(AUTH))))) {
			fprintf(stderr, "200 for a request that should get none\n");
			abort();
		}
		/* The next response, if the client pipelined several requests. */
		const char *next = memmem(p + 1, n - (size_t)(p + 1 - out), "\nHTTP/1.", 8);
		if (!next)
			break;
		p = next + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[1 << 20];
	if (!open_x)
		setup();
	if (size < 1)
		return 0;
	int auth = data[0] & 1;
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port =
					 htons((uint16_t)exporter_port(auth ? auth_x : open_x))};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		abort();
	/* A send cut short by the server's close is an answer too. */
	for (size_t off = 1; off < size;) {
		ssize_t w = send(fd, data + off, size - off, MSG_NOSIGNAL);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	shutdown(fd, SHUT_WR);
	size_t n = 0;
	for (;;) {
		/* A request cut short in its body is the server's until its idle timeout
		 * (EXPORTER_IDLE_SECONDS, as designed; test_it_prometheus times the gate): how
		 * soon that comes on a loaded machine says nothing about the parsing. */
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, DEADLINE_MS) != 1)
			break;
		ssize_t r = recv(fd, out + n, sizeof(out) - 1 - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n == sizeof(out) - 1)
			break;
	}
	close(fd);
	out[n] = '\0';
	check_answer((const char *)data + 1, size - 1, out, n, auth);
	return 0;
}
