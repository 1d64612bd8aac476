/* The /metrics server. Expositions are reference counted: the published one holds a
 * reference, and each response holds one until libmicrohttpd has sent it, so a slow
 * client keeps its own text while the tick renders the next into a free buffer. The
 * gzip form of an exposition is made by the first scrape that asks for it and kept
 * beside it for the next ones. */
#include "exporter.h"
#include "listenaddr.h"

#include "evclock.h"
#include "httpgate.h"
#include "modelserve.h"
#include "modelwire.h"
#include "webconfig.h"
#include "webtls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* Every connection can hold one exposition, and one more is published. */
#define POOL_MAX (EXPORTER_MAX_CONNECTIONS + 2)

struct expo {
	struct exporter *x;
	unsigned refs;	 /* under x->mu */
	unsigned served; /* under x->mu */
	struct promtext_out out;
	pthread_mutex_t zmu; /* gz, gz_ok: written by the first scrape that wants gzip */
	struct pbuf gz[2];   /* text, OpenMetrics */
	bool gz_ok[2];
};

struct exporter {
	struct MHD_Daemon *d;
	int fd;
	unsigned port;
	char addr[INET6_ADDRSTRLEN + 8];
	pthread_mutex_t mu;
	struct expo *cur;
	struct expo *pool[POOL_MAX];
	unsigned npool;
	double build_s;
	double start_time; /* since the epoch */
	struct MHD_Response *not_found, *not_allowed, *no_host, *busy, *landing, *forbidden;
	struct webconfig *web; /* --web-config, or NULL */
	unsigned keepalive_s;
	bool exposed; /* bound beyond loopback */
	bool tls;
	struct httpgate *gate;
	struct modelserve *ms; /* GET /pmutop/v1/tick */
};

static void expo_unref(struct expo *e)
{
	pthread_mutex_lock(&e->x->mu);
	e->refs--;
	pthread_mutex_unlock(&e->x->mu);
}

static void response_done(void *cls)
{
	expo_unref(cls);
}

/* http_server_config.headers, on every response. */
static void add_headers(const struct exporter *x, struct MHD_Response *r)
{
	for (size_t i = 0; x->web && i < webconfig_nheaders(x->web); i++) {
		const char *name, *value;
		webconfig_header(x->web, i, &name, &value);
		MHD_add_response_header(r, name, value);
	}
}

/* The client certificate against client_auth_type and client_allowed_sans (the handshake
 * has verified it already; this also sees the SANs). 0, or -EACCES. */
static int client_cert_ok(const struct exporter *x, struct MHD_Connection *conn)
{
	if (!x->web || webconfig_client_auth(x->web) == WEBTLS_NO_CLIENT_CERT)
		return 0;
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!i || !i->tls_session)
		return -EACCES;
	size_t nsans;
	char *const *sans = webconfig_sans(x->web, &nsans);
	char why[128];
	return webtls_check_peer(i->tls_session, webconfig_client_auth(x->web), sans, nsans, why,
				 sizeof(why));
}

/* Basic auth as libmicrohttpd decodes it; the password is wiped before it is freed.
 * webconfig_check's answer: 1, 0, or -EBUSY. */
static int authorized(struct exporter *x, struct MHD_Connection *conn)
{
	char *pass = NULL;
	char *user = MHD_basic_auth_get_username_password(conn, &pass);
	int ok = user && pass ? webconfig_check(x->web, user, pass) : 0;
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

/* A response of its own: libmicrohttpd adds WWW-Authenticate to the one it is given. */
static enum MHD_Result unauthorized(const struct exporter *x, struct MHD_Connection *conn)
{
	static const char body[] = "unauthorized: --web-config asks for a user and password\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body,
								 MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
	add_headers(x, r);
	enum MHD_Result ok = MHD_queue_basic_auth_fail_response(conn, "pmutop", r);
	MHD_destroy_response(r);
	return ok;
}

/* The gzip form of b, made once per exposition (deflate's level 1: most of level 6's
 * gain on this text for a fraction of its time). NULL when it cannot be made. */
static const struct pbuf *gzipped(struct expo *e, bool om)
{
	const struct pbuf *b = om ? &e->out.om : &e->out.text;
	struct pbuf *z = &e->gz[om];
	pthread_mutex_lock(&e->zmu);
	if (!e->gz_ok[om]) {
		z_stream zs = {0};
		int ok = deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
		size_t need = ok ? deflateBound(&zs, (uLong)b->len) : 0;
		if (ok && z->cap < need) {
			char *p = realloc(z->p, need);
			ok = p != NULL;
			if (p) {
				z->p = p;
				z->cap = need;
			}
		}
		if (ok) {
			zs.next_in = (Bytef *)b->p;
			zs.avail_in = (uInt)b->len;
			zs.next_out = (Bytef *)z->p;
			zs.avail_out = (uInt)z->cap;
			ok = deflate(&zs, Z_FINISH) == Z_STREAM_END;
			z->len = zs.total_out;
		}
		deflateEnd(&zs);
		e->gz_ok[om] = ok;
	}
	bool ok = e->gz_ok[om];
	pthread_mutex_unlock(&e->zmu);
	return ok ? z : NULL;
}

static struct httpgate_conn *gate_conn(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return i ? i->socket_context : NULL;
}

/* A request without a body: no Content-Length but 0, no Transfer-Encoding. */
static bool bodiless(struct MHD_Connection *conn)
{
	const char *len =
		MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	return (!len || !strcmp(len, "0")) &&
	       !MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					    MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

static bool get_or_head(const char *method)
{
	return !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);
}

/* A body of type, its encoding (NULL: none) chosen by the request's Accept-Encoding,
 * queued with the exporter's own headers; r is let go. */
static enum MHD_Result queue_body(const struct exporter *x, struct MHD_Connection *conn,
				  unsigned status, struct MHD_Response *r, const char *type,
				  const char *encoding)
{
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (encoding)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, encoding);
	add_headers(x, r);
	enum MHD_Result ok = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ok;
}

/* GET /pmutop/v1/tick?after=SEQ&wait=MS: the newest tick's model above SEQ (204 when none
 * comes within MS), 400 for a bad query. */
static enum MHD_Result serve_tick(struct exporter *x, struct MHD_Connection *conn)
{
	char why[160];
	uint64_t after, tick = 0;
	long wait;
	unsigned char *body = NULL;
	size_t len = 0;
	bool deflated = false;
	int err =
		modelserve_query(MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "after"),
				 MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "wait"),
				 &after, &wait, why, sizeof(why));
	if (!err)
		err = modelserve_take(
			x->ms, after, wait,
			modelserve_accepts_deflate(MHD_lookup_connection_value(
				conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING)),
			&body, &len, &tick, &deflated);
	unsigned status = err == -EINVAL   ? MHD_HTTP_BAD_REQUEST
			  : err == -EAGAIN ? MHD_HTTP_NO_CONTENT
			  : err		   ? MHD_HTTP_SERVICE_UNAVAILABLE
					   : MHD_HTTP_OK;
	struct MHD_Response *r =
		err ? MHD_create_response_from_buffer(err == -EINVAL ? strlen(why) : 0, why,
						      MHD_RESPMEM_MUST_COPY)
		    : MHD_create_response_from_buffer_with_free_callback(len, body, free);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	char seq[24];
	snprintf(seq, sizeof(seq), "%llu", (unsigned long long)tick);
	if (!err)
		MHD_add_response_header(r, "X-Pmutop-Tick", seq);
	return queue_body(x, conn, status, r, err ? "text/plain" : MODELWIRE_TYPE,
			  deflated ? "deflate" : NULL);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct exporter *x = cls;
	(void)upload, (void)upload_size;
	/* Called first when the head is complete: a request's progress is timed again, not
	 * the wait between requests. A GET or HEAD without a body is answered in the next
	 * call, at the end of the (empty) body, which keeps the connection alive:
	 * libmicrohttpd closes one whose response is queued in this first call. Any other
	 * request is answered now, and its connection closed, its body unread. */
	if (!*con_cls) {
		*con_cls = x;
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
					  (unsigned)EXPORTER_IDLE_SECONDS);
		if (get_or_head(method) && bodiless(conn))
			return MHD_YES;
	}
	if (!strcmp(version, MHD_HTTP_VERSION_1_1) &&
	    !MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST))
		return MHD_queue_response(conn, MHD_HTTP_BAD_REQUEST, x->no_host);
	if (client_cert_ok(x, conn))
		return MHD_queue_response(conn, MHD_HTTP_FORBIDDEN, x->forbidden);
	/* Until it is let in, a request still counts as waiting at the gate: a client whose
	 * wrong passwords queue up for bcrypt makes room for others, and meets the deadline. */
	int auth = x->web && webconfig_nusers(x->web) > 0 ? authorized(x, conn) : 1;
	if (auth < 0)
		return MHD_queue_response(conn, MHD_HTTP_SERVICE_UNAVAILABLE, x->busy);
	if (!auth)
		return unauthorized(x, conn);
	httpgate_head_done(x->gate, gate_conn(conn));
	if (!get_or_head(method))
		return MHD_queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, x->not_allowed);
	if (!strcmp(url, "/"))
		return MHD_queue_response(conn, MHD_HTTP_OK, x->landing);
	if (!strcmp(url, MODELSERVE_PATH))
		return serve_tick(x, conn);
	if (strcmp(url, "/metrics") != 0)
		return MHD_queue_response(conn, MHD_HTTP_NOT_FOUND, x->not_found);
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
	const char *enc =
		MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	bool om = promtext_wants_openmetrics(accept);
	pthread_mutex_lock(&x->mu);
	struct expo *e = x->cur;
	e->refs++;
	e->served++;
	pthread_mutex_unlock(&x->mu);
	const struct pbuf *b = om ? &e->out.om : &e->out.text;
	const struct pbuf *z = promtext_accepts_gzip(enc) ? gzipped(e, om) : NULL;
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
		z ? z->len : b->len, z ? z->p : b->p, response_done, e);
	if (!r) {
		expo_unref(e);
		return MHD_NO;
	}
	return queue_body(x, conn, MHD_HTTP_OK, r, om ? PROMTEXT_CT_OPENMETRICS : PROMTEXT_CT_TEXT,
			  z ? "gzip" : NULL);
}

static struct MHD_Response *fixed_as(const struct exporter *x, const char *body, const char *type,
				     const char *allow)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	if (r) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
		if (allow)
			MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
		add_headers(x, r);
	}
	return r;
}

static struct MHD_Response *fixed(const struct exporter *x, const char *body, const char *allow)
{
	return fixed_as(x, body, "text/plain", allow);
}

static const char landing_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pmutop exporter</title>"
	"</head>\n<body><h1>pmutop exporter</h1>\n<p>perf_event counters per command, "
	"process, cgroup and CPU: <a href=\"/metrics\">/metrics</a></p>\n</body></html>\n";

static struct expo *expo_new(struct exporter *x)
{
	struct expo *e = calloc(1, sizeof(*e));
	if (e) {
		e->x = x;
		pthread_mutex_init(&e->zmu, NULL);
	}
	return e;
}

static void expo_free(struct expo *e)
{
	promtext_out_free(&e->out);
	pbuf_free(&e->gz[0]);
	pbuf_free(&e->gz[1]);
	pthread_mutex_destroy(&e->zmu);
	free(e);
}

/* A connection's start and end, in the server's threads, reported to the gate. */
static void notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		   enum MHD_ConnectionNotificationCode toe)
{
	struct exporter *x = cls;
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		httpgate_closed(x->gate, *socket_context);
		return;
	}
	/* Before the handshake, which runs in the connection's thread started after this. */
	const union MHD_ConnectionInfo *t =
		x->web ? MHD_get_connection_info(conn, MHD_CONNECTION_INFO_GNUTLS_SESSION) : NULL;
	if (t && t->tls_session)
		webtls_session_start(t->tls_session, webconfig_client_auth(x->web));
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	*socket_context = i ? httpgate_claim(x->gate, i->connect_fd) : NULL;
	if (i && !*socket_context)
		shutdown(i->connect_fd, SHUT_RDWR); /* past its deadline already */
}

/* A response sent: the connection waits for the next request, keepalive_s at most (the
 * gate's deadline too, however slowly a next head comes). */
static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct exporter *x = cls;
	(void)con_cls;
	if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, x->keepalive_s);
	httpgate_request_done(x->gate, gate_conn(conn));
}

static int hand(void *cls, int fd, const struct sockaddr *sa, socklen_t len)
{
	struct exporter *x = cls;
	return MHD_add_connection(x->d, fd, sa, len) == MHD_YES ? 0 : -1;
}

static int bind_socket(const char *spec, struct exporter *x, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	if (exporter_parse_listen(spec, &ss, &len, err, errlen))
		return -EINVAL;
	struct sockaddr_in6 *any6 = (struct sockaddr_in6 *)&ss;
	bool any = ss.ss_family == AF_INET6 && IN6_IS_ADDR_UNSPECIFIED(&any6->sin6_addr);
	x->fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (x->fd < 0 && any && errno == EAFNOSUPPORT) { /* a kernel without IPv6 */
		struct sockaddr_in a4 = {.sin_family = AF_INET,
					 .sin_port = any6->sin6_port,
					 .sin_addr.s_addr = htonl(INADDR_ANY)};
		memcpy(&ss, &a4, sizeof(a4));
		len = sizeof(a4);
		any = false;
		x->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	int one = 1, zero = 0;
	if (x->fd < 0 || setsockopt(x->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    /* every address: IPv4's too, whatever net.ipv6.bindv6only says, as in Go */
	    (any && setsockopt(x->fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))) ||
	    bind(x->fd, (struct sockaddr *)&ss, len) || listen(x->fd, 64)) {
		int e = errno;
		snprintf(err, errlen, "cannot listen on %s: %s%s", spec, strerror(e),
			 e == EADDRINUSE ? " (choose another port)" : "");
		return -e;
	}
	len = sizeof(ss);
	getsockname(x->fd, (struct sockaddr *)&ss, &len);
	bool v6 = ss.ss_family == AF_INET6;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	char host[INET6_ADDRSTRLEN] = "?";
	inet_ntop(ss.ss_family, v6 ? (void *)&a6->sin6_addr : (void *)&a4->sin_addr, host,
		  sizeof(host));
	x->port = ntohs(v6 ? a6->sin6_port : a4->sin_port);
	x->exposed = !exporter_loopback(&ss);
	snprintf(x->addr, sizeof(x->addr), v6 ? "[%s]:%u" : "%s:%u", host, x->port);
	return 0;
}

/* libmicrohttpd's own messages (a client that sent garbage) are not the user's concern. */
static void quiet(void *cls, const char *fmt, va_list ap)
{
	(void)cls, (void)fmt, (void)ap;
}

struct exporter *exporter_new(const char *listen, const char *web_config, char *err, size_t errlen)
{
	struct exporter *x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->fd = -1;
	x->keepalive_s = EXPORTER_KEEPALIVE_SECONDS;
	pthread_mutex_init(&x->mu, NULL);
	if (web_config && !(x->web = webconfig_load(web_config, err, errlen))) {
		exporter_free(x);
		return NULL;
	}
	x->not_found = fixed(x, "not found: pmutop serves /metrics\n", NULL);
	x->not_allowed = fixed(x, "method not allowed: use GET or HEAD\n", "GET, HEAD");
	x->no_host = fixed(x, "bad request: HTTP/1.1 needs a Host header\n", NULL);
	x->busy = fixed(x, "busy checking other passwords: try again\n", NULL);
	x->landing = fixed_as(x, landing_page, "text/html; charset=utf-8", NULL);
	x->forbidden = fixed(x,
			     "forbidden: --web-config asks for a client certificate this one "
			     "does not meet\n",
			     NULL);
	if (x->busy)
		MHD_add_response_header(x->busy, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	x->start_time = (double)now.tv_sec;
	x->cur = expo_new(x);
	x->ms = modelserve_new();
	/* From the first request on, pmutop's own facts: never an empty 200 or a 503. */
	struct promtext_info facts = {.version = PMUTOP_VERSION, .start_time = x->start_time};
	if (!x->not_found || !x->not_allowed || !x->no_host || !x->busy || !x->landing ||
	    !x->forbidden || !x->cur || !x->ms || promtext_render(NULL, &facts, &x->cur->out)) {
		if (x->cur)
			expo_free(x->cur);
		x->cur = NULL;
		snprintf(err, errlen, "out of memory");
		exporter_free(x);
		return NULL;
	}
	x->cur->refs = 1;
	x->pool[x->npool++] = x->cur;
	bool tls = x->tls = x->web && webconfig_cert(x->web);
	if (tls && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "--web-config %s: this libmicrohttpd has no TLS support",
			 web_config);
		exporter_free(x);
		return NULL;
	}
	if (bind_socket(listen, x, err, errlen)) {
		exporter_free(x);
		return NULL;
	}
	struct MHD_OptionItem tls_opts[5] = {{MHD_OPTION_END, 0, NULL}};
	if (tls) {
		unsigned n = 0;
		tls_opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0,
							(void *)webconfig_key(x->web)};
		tls_opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0,
							(void *)webconfig_cert(x->web)};
		tls_opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0,
							(void *)webconfig_priorities(x->web)};
		if (webconfig_client_ca(x->web))
			tls_opts[n++] = (struct MHD_OptionItem){
				MHD_OPTION_HTTPS_MEM_TRUST, 0, (void *)webconfig_client_ca(x->web)};
		tls_opts[n] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
	}
	/* A thread per connection: a bcrypt or a TLS handshake holds up its own client only.
	 * poll(), not select(): descriptors here go far beyond FD_SETSIZE. The gate accepts
	 * and hands sockets over; the server's limit is above the gate's, whose slots are
	 * freed a moment before the server counts a connection gone. */
	x->d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
					MHD_USE_POLL | MHD_USE_ITC | MHD_USE_NO_LISTEN_SOCKET |
					MHD_USE_ERROR_LOG | (tls ? MHD_USE_TLS : 0),
				0, NULL, NULL, answer, x, MHD_OPTION_CONNECTION_LIMIT,
				EXPORTER_MHD_LIMIT, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				(size_t)EXPORTER_HEADER_MEMORY, MHD_OPTION_CONNECTION_TIMEOUT,
				(unsigned)EXPORTER_IDLE_SECONDS, MHD_OPTION_NOTIFY_CONNECTION,
				notify, x, MHD_OPTION_NOTIFY_COMPLETED, completed, x,
				MHD_OPTION_EXTERNAL_LOGGER, quiet, NULL, MHD_OPTION_ARRAY, tls_opts,
				MHD_OPTION_END);
	if (!x->d) {
		if (tls)
			snprintf(err, errlen,
				 "--web-config %s: TLS cannot start with its cert_file and "
				 "key_file (not PEM, or a key that is not the certificate's)",
				 web_config);
		else
			snprintf(err, errlen, "cannot start the HTTP server on %s", listen);
		exporter_free(x);
		return NULL;
	}
	struct httpgate_opts go = {.listen_fd = x->fd,
				   .slots = EXPORTER_MAX_CONNECTIONS,
				   .per_addr = EXPORTER_PER_ADDRESS,
				   .head_s = EXPORTER_HEAD_SECONDS,
				   .idle_s = x->keepalive_s,
				   .tls = tls,
				   .hand = hand,
				   .cls = x};
	/* x->gate is set before the gate's thread hands the first socket over: the server's
	 * callbacks read it (a scraper already waiting in the listen queue is handed at
	 * once). */
	int gerr;
	if (!(x->gate = httpgate_new(&go, &gerr)) || (gerr = httpgate_start(x->gate))) {
		snprintf(err, errlen, "cannot start the HTTP server on %s: %s", listen,
			 strerror(-gerr));
		exporter_free(x);
		return NULL;
	}
	return x;
}

void exporter_free(struct exporter *x)
{
	if (!x)
		return;
	httpgate_stop(x->gate); /* no socket is handed over after this */
	modelserve_close(x->ms);
	if (x->d)
		MHD_stop_daemon(x->d); /* waits for its threads: no response is left */
	httpgate_free(x->gate);
	modelserve_free(x->ms);
	if (x->fd >= 0)
		close(x->fd);
	for (unsigned i = 0; i < x->npool; i++)
		expo_free(x->pool[i]);
	if (x->not_found)
		MHD_destroy_response(x->not_found);
	if (x->not_allowed)
		MHD_destroy_response(x->not_allowed);
	if (x->no_host)
		MHD_destroy_response(x->no_host);
	if (x->busy)
		MHD_destroy_response(x->busy);
	if (x->landing)
		MHD_destroy_response(x->landing);
	if (x->forbidden)
		MHD_destroy_response(x->forbidden);
	webconfig_free(x->web);
	pthread_mutex_destroy(&x->mu);
	free(x);
}

/* A buffer no response holds, or a new one. */
static struct expo *free_expo(struct exporter *x)
{
	struct expo *e = NULL;
	pthread_mutex_lock(&x->mu);
	for (unsigned i = 0; i < x->npool && !e; i++)
		if (x->pool[i]->refs == 0)
			e = x->pool[i];
	if (!e && x->npool < POOL_MAX) {
		e = expo_new(x);
		if (e)
			x->pool[x->npool++] = e;
	}
	if (e)
		e->refs = 1; /* ours while we write it */
	pthread_mutex_unlock(&x->mu);
	return e;
}

int exporter_publish(struct exporter *x, const struct promacc *a, struct promtext_info *in)
{
	struct expo *e = free_expo(x);
	if (!e)
		return -ENOMEM;
	double t0 = evclock_now();
	in->build_seconds = x->build_s;
	in->start_time = x->start_time;
	int err = promtext_render(a, in, &e->out);
	x->build_s = evclock_now() - t0;
	e->gz_ok[0] = e->gz_ok[1] = false; /* no response holds e: no scrape reads them */
	pthread_mutex_lock(&x->mu);
	if (err) {
		e->refs = 0;
	} else {
		e->served = 0;
		x->cur->refs--;
		x->cur = e;
	}
	pthread_mutex_unlock(&x->mu);
	return err;
}

bool exporter_served(struct exporter *x)
{
	pthread_mutex_lock(&x->mu);
	bool s = x->cur->served > 0;
	pthread_mutex_unlock(&x->mu);
	return s;
}

struct modelserve *exporter_modelserve(struct exporter *x)
{
	return x->ms;
}

unsigned exporter_port(const struct exporter *x)
{
	return x->port;
}

const char *exporter_addr(const struct exporter *x)
{
	return x->addr;
}

bool exporter_plain_beyond_loopback(const struct exporter *x)
{
	return x->exposed && !x->tls;
}

void exporter_set_keepalive(struct exporter *x, unsigned seconds)
{
	x->keepalive_s = seconds;
	httpgate_set_idle(x->gate, seconds);
}
