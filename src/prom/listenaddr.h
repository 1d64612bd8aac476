/* --listen's address (listenaddr.c): parsed, checked, and whether it is loopback. */
#ifndef PMUTOP_LISTENADDR_H
#define PMUTOP_LISTENADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* "[HOST]:PORT" as node_exporter takes it: 9465 (127.0.0.1), localhost:9465,
 * 127.0.0.1:9465, 0.0.0.0:9465, [::1]:9465, [::]:9465 or :9465 (every address, IPv6 and
 * IPv4). A host name is resolved here (its first IPv4 address, else its first). Returns 0
 * or -EINVAL with one line in err. */
int exporter_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *len, char *err,
			  size_t errlen);

/* spec's form only, as --listen is parsed: a host name is not looked up. 0, or -EINVAL
 * with one line in err. */
int exporter_check_listen(const char *spec, char *err, size_t errlen);

/* ss is a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.y.z): not reachable from
 * another machine. */
bool exporter_loopback(const struct sockaddr_storage *ss);

#endif
