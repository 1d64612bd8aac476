/* The exporter's front door: a thread of its own accepts on the listening socket, keeps
 * one client address from taking every slot, and closes a connection whose request head
 * is not complete within a deadline, however slowly it keeps sending. No HTTP parsing here:
 * the server it hands sockets to reports where each connection is. */
#ifndef PMUTOP_HTTPGATE_H
#define PMUTOP_HTTPGATE_H

#include <stdbool.h>
#include <sys/socket.h>

struct httpgate;
struct httpgate_conn;

struct httpgate_opts {
	int listen_fd;	   /* bound and listening; the gate never closes it */
	unsigned slots;	   /* connections at once, every client together */
	unsigned per_addr; /* connections at once from one address */
	double head_s;	   /* from accept to a complete request head */
	/* From a response to the next request head complete: a connection kept alive waits
	 * this long, and is cut to make room like one waiting for its first head. */
	double idle_s;
	/* TLS is served: a first byte that is not a TLS handshake gets a plain 400 here. */
	bool tls;
	/* Hands an accepted socket to the server, which owns it from then on (and closes it
	 * when it fails). Returns 0, or -1 when the server refused it at once. */
	int (*hand)(void *cls, int fd, const struct sockaddr *sa, socklen_t len);
	void *cls;
};

/* Returns NULL with -errno in *err. Nothing is accepted before httpgate_start. */
struct httpgate *httpgate_new(const struct httpgate_opts *o, int *err);
/* Starts the thread, which hands sockets over at once (those already queued too): what
 * the server's callbacks need of the gate (its pointer) must be in place before. 0 or
 * -errno. */
int httpgate_start(struct httpgate *g);
/* Changes idle_s, for the connections answered from now on. */
void httpgate_set_idle(struct httpgate *g, double idle_s);
/* Stops accepting and closes the sockets not handed over yet. */
void httpgate_stop(struct httpgate *g);
/* After the server has closed every connection (httpgate_closed is not called after). */
void httpgate_free(struct httpgate *g);

/* Called by the server's threads about a socket it was handed: its connection started
 * (NULL: the gate gave up on that socket and let its entry go; the server should drop it;
 * one given up that still has its entry is shut down here, the entry freed when it closes),
 * ... */
struct httpgate_conn *httpgate_claim(struct httpgate *g, int fd);
/* ... a request head is complete (no deadline while it is answered), ... */
void httpgate_head_done(struct httpgate *g, struct httpgate_conn *c);
/* ... its response is sent (idle_s runs, for the next head), ... */
void httpgate_request_done(struct httpgate *g, struct httpgate_conn *c);
/* ... and it is about to be closed. Each takes NULL. */
void httpgate_closed(struct httpgate *g, struct httpgate_conn *c);

#endif
