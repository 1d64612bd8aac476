/* A build without libmicrohttpd (PMUTOP_EXPORTER=OFF: the emulated-PMU lane's static
 * cross build, which has no arm64 libmicrohttpd): --listen says so and exits 2. */
#include "exporter.h"

#include <stdio.h>

struct exporter *exporter_new(const char *listen, const char *web_config, char *err, size_t errlen)
{
	(void)listen;
	snprintf(err, errlen,
		 "%s: this pmutop was built without libmicrohttpd (PMUTOP_EXPORTER=OFF)",
		 web_config ? "--web-config" : "--listen");
	return NULL;
}

void exporter_free(struct exporter *x)
{
	(void)x;
}

int exporter_publish(struct exporter *x, const struct promacc *a, struct promtext_info *in)
{
	(void)x;
	(void)a;
	(void)in;
	return -1;
}

bool exporter_served(struct exporter *x)
{
	(void)x;
	return false;
}

unsigned exporter_port(const struct exporter *x)
{
	(void)x;
	return 0;
}

const char *exporter_addr(const struct exporter *x)
{
	(void)x;
	return "";
}

bool exporter_plain_beyond_loopback(const struct exporter *x)
{
	(void)x;
	return false;
}

void exporter_set_keepalive(struct exporter *x, unsigned seconds)
{
	(void)x, (void)seconds;
}

struct modelserve *exporter_modelserve(struct exporter *x)
{
	(void)x;
	return NULL;
}
