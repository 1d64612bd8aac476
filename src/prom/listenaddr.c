/* The --listen address, in node_exporter's forms: PORT (127.0.0.1: exposing the metrics
 * beyond the machine must be typed out), :PORT (every address, IPv6 and IPv4), HOST:PORT
 * with an IPv4 address or a host name, [IPV6]:PORT. getaddrinfo reads the host; a name
 * gets its first IPv4 address, else its first, as Go's net.Listen does. No HTTP here, so
 * a build without the exporter still checks the option. */
#include "exporter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *spec, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "invalid address '%s' for --listen: %s; give PORT or [HOST]:PORT, e.g. "
		 "9465, localhost:9465, 127.0.0.1:9465, [::1]:9465 or :9465 (every address)",
		 spec, why);
	return -EINVAL;
}

int exporter_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *len, char *err,
			  size_t errlen)
{
	char host[256] = "127.0.0.1";
	const char *port = spec;
	bool v6 = false;
	memset(ss, 0, sizeof(*ss));
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':')
			return bad(spec, "an IPv6 address in [] is followed by :PORT", err, errlen);
		if ((size_t)(close - spec - 1) >= sizeof(host))
			return bad(spec, "the address is too long", err, errlen);
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		port = close + 2;
		v6 = true;
	} else if (strchr(spec, ':')) {
		const char *colon = strrchr(spec, ':');
		if (memchr(spec, ':', (size_t)(colon - spec)))
			return bad(spec, "an IPv6 address goes in []", err, errlen);
		if ((size_t)(colon - spec) >= sizeof(host))
			return bad(spec, "the host name is too long", err, errlen);
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		port = colon + 1;
	}
	char *end;
	errno = 0;
	long p = port[0] >= '0' && port[0] <= '9' ? strtol(port, &end, 10) : -1;
	if (p < 0 || p > 65535 || errno || *end)
		return bad(spec, "the port is not a number from 0 to 65535", err, errlen);
	if (!host[0] || (v6 && !strcmp(host, "::"))) {
		/* Every address: IPv6's, which takes IPv4 too (the exporter binds it so). */
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_any;
		a->sin6_port = htons((uint16_t)p);
		*len = sizeof(*a);
		return 0;
	}
	if (v6 && !strchr(host, ':'))
		return bad(spec, "[] holds an IPv6 address", err, errlen);
	struct addrinfo hints = {.ai_family = v6 ? AF_INET6 : AF_UNSPEC,
				 .ai_socktype = SOCK_STREAM,
				 .ai_flags = v6 ? AI_NUMERICHOST : 0};
	struct addrinfo *res = NULL;
	int r = getaddrinfo(host, NULL, &hints, &res);
	if (r) {
		snprintf(err, errlen, "cannot resolve '%s' of --listen %s: %s", host, spec,
			 r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
		return -EINVAL;
	}
	const struct addrinfo *pick = res;
	for (const struct addrinfo *a = res; a; a = a->ai_next)
		if (a->ai_family == AF_INET) {
			pick = a;
			break;
		}
	if (pick->ai_addrlen > sizeof(*ss) ||
	    (pick->ai_family != AF_INET && pick->ai_family != AF_INET6)) {
		freeaddrinfo(res);
		return bad(spec, "not an IP address", err, errlen);
	}
	memcpy(ss, pick->ai_addr, pick->ai_addrlen);
	*len = pick->ai_addrlen;
	freeaddrinfo(res);
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)p);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)p);
	return 0;
}

bool exporter_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
	if (ss->ss_family != AF_INET6)
		return false;
	const struct in6_addr *a = &((const struct sockaddr_in6 *)ss)->sin6_addr;
	return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}
