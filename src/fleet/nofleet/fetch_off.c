/* A build without libcurl (PMUTOP_FLEET=OFF: the emulated-PMU lane's static cross build,
 * which has no arm64 libcurl): --connect and --connect-config say so and exit 2. */
#include "fetch.h"

#include <errno.h>
#include <stdio.h>

static void say(char *err, size_t errlen)
{
	snprintf(err, errlen, "this pmutop was built without libcurl (PMUTOP_FLEET=OFF)");
}

int fetch_cfg_load(const char *path, struct fetch_cfg **cfg, char *err, size_t errlen)
{
	(void)path;
	*cfg = NULL;
	say(err, errlen);
	return -ENOTSUP;
}

bool fetch_stop_pending(void)
{
	return false; /* no request is ever in progress */
}

void fetch_cfg_free(struct fetch_cfg *cfg)
{
	(void)cfg;
}

struct fetch *fetch_new(const struct fetch_cfg *cfg, char *err, size_t errlen)
{
	(void)cfg;
	say(err, errlen);
	return NULL;
}

int fetch_get(struct fetch *f, const char *url, long timeout_ms, char **body, size_t *len,
	      long *status, char *err, size_t errlen)
{
	(void)f, (void)url, (void)timeout_ms, (void)body, (void)len, (void)status;
	say(err, errlen);
	return -ENOTSUP;
}

char *fetch_escape(const char *s)
{
	(void)s;
	return NULL;
}

void fetch_free(struct fetch *f)
{
	(void)f;
}
