/* The --listen address, in node_exporter's forms: PORT (127.0.0.1: exposing the metrics
 * beyond the machine must be typed out), :PORT (every address, IPv6 and IPv4), HOST:PORT
 * with an IPv4 address or a host name, [IPV6]:PORT. getaddrinfo reads the host; a name
 * gets its first IPv4 address, else its first, as Go's net.Listen does. No HTTP here, so
 * a build without the exporter still checks the option's form (a name is looked up only
 * when the exporter binds: parsing the command line never waits for DNS). */
#include "listenaddr.h"

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

/* spec into its host (empty: every address) and port; *v6: the host was in []. */
static int split(const char *spec, char host[static 256], long *port, bool *v6, char *err,
		 size_t errlen)
{
	const char *p = spec;
	snprintf(host, 256, "127.0.0.1");
	*v6 = false;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':')
			return bad(spec, "an IPv6 address in [] is followed by :PORT", err, errlen);
		if ((size_t)(close - spec - 1) >= 256)
			return bad(spec, "the address is too long", err, errlen);
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		p = close + 2;
		*v6 = true;
		if (!host[0] || !strcmp(host, "::"))
			host[0] = '\0';
		else if (!strchr(host, ':'))
			return bad(spec, "[] holds an IPv6 address", err, errlen);
	} else if (strchr(spec, ':')) {
		const char *colon = strrchr(spec, ':');
		if (memchr(spec, ':', (size_t)(colon - spec)))
			return bad(spec, "an IPv6 address goes in []", err, errlen);
		if ((size_t)(colon - spec) >= 256)
			return bad(spec, "the host name is too long", err, errlen);
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		p = colon + 1;
	}
	char *end;
	errno = 0;
	*port = p[0] >= '0' && p[0] <= '9' ? strtol(p, &end, 10) : -1;
	if (*port < 0 || *port > 65535 || errno || *end)
		return bad(spec, "the port is not a number from 0 to 65535", err, errlen);
	return 0;
}

/* host's address: numeric only (no name lookup) or resolved. Returns 0 or EAI_*. */
static int lookup(const char *host, bool v6, bool numeric, struct addrinfo **res)
{
	struct addrinfo hints = {.ai_family = v6 ? AF_INET6 : AF_UNSPEC,
				 .ai_socktype = SOCK_STREAM,
				 .ai_flags = numeric ? AI_NUMERICHOST : 0};
	return getaddrinfo(host, NULL, &hints, res);
}

int exporter_check_listen(const char *spec, char *err, size_t errlen)
{
	char host[256];
	long port;
	bool v6;
	int r = split(spec, host, &port, &v6, err, errlen);
	struct addrinfo *res = NULL;
	if (r || !v6 || !host[0])
		return r;
	if (lookup(host, true, true, &res))
		return bad(spec, "not an IPv6 address in []", err, errlen);
	freeaddrinfo(res);
	return 0;
}

int exporter_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *len, char *err,
			  size_t errlen)
{
	char host[256];
	long port;
	bool v6;
	memset(ss, 0, sizeof(*ss));
	int r = split(spec, host, &port, &v6, err, errlen);
	if (r)
		return r;
	if (!host[0]) {
		/* Every address: IPv6's, which takes IPv4 too (the exporter binds it so). */
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_any;
		a->sin6_port = htons((uint16_t)port);
		*len = sizeof(*a);
		return 0;
	}
	struct addrinfo *res = NULL;
	r = lookup(host, v6, v6, &res);
	if (r) {
		if (v6)
			return bad(spec, "not an IPv6 address in []", err, errlen);
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
	if (!pick || pick->ai_addrlen > sizeof(*ss) ||
	    (pick->ai_family != AF_INET && pick->ai_family != AF_INET6)) {
		freeaddrinfo(res);
		return bad(spec, "not an IP address", err, errlen);
	}
	memcpy(ss, pick->ai_addr, pick->ai_addrlen);
	*len = pick->ai_addrlen;
	freeaddrinfo(res);
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
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
