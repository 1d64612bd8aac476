/* The --listen address: [ADDR:]PORT, IPv4 or [IPv6]; 127.0.0.1 when no address is given
 * (exposing the metrics beyond the machine must be typed out). No HTTP here, so a build
 * without the exporter still checks the option. */
#include "exporter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int exporter_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *len, char *err,
			  size_t errlen)
{
	char host[64] = "127.0.0.1";
	const char *port = spec;
	memset(ss, 0, sizeof(*ss));
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host))
			goto bad;
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		port = close + 2;
	} else if (strchr(spec, ':')) {
		const char *colon = strrchr(spec, ':');
		if ((size_t)(colon - spec) >= sizeof(host) ||
		    memchr(spec, ':', (size_t)(colon - spec)))
			goto bad;
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		port = colon + 1;
	}
	char *end;
	errno = 0;
	long p = port[0] >= '0' && port[0] <= '9' ? strtol(port, &end, 10) : -1;
	if (p < 0 || p > 65535 || errno || *end)
		goto bad;
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		*len = sizeof(*v4);
		return 0;
	}
	if (spec[0] == '[' && inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		*len = sizeof(*v6);
		return 0;
	}
bad:
	snprintf(err, errlen,
		 "invalid address '%s' for --listen: give [ADDR:]PORT, e.g. 9465, "
		 "127.0.0.1:9465 or [::1]:9465",
		 spec);
	return -EINVAL;
}
