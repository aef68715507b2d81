/*
 * conns: the connections of `referee serve`, accepted here rather than by
 * libsoup, so that each is counted, capped and timed (docs/serve.md,
 * "Limits").
 *
 * At accept: a connection past the total cap, or past its client's cap
 * (a client is an IPv4 address, or an IPv6 address's /64), gets a short
 * 503 and is closed at once, before libsoup sees it. When accept itself
 * fails (out of file descriptors), accepting pauses for CONNS_PAUSE_MS
 * instead of spinning on a listening socket that stays readable.
 *
 * Then three clocks: the idle timeout (the socket's own, g_socket_set_
 * timeout: nothing read or written for that long while the server waits
 * on it, for a request or while a response is written), the header
 * timeout (from the connection's opening to the end of its request's
 * headers: libsoup starts a connection's first request when it takes the
 * connection) and the body timeout (from the end of the headers to the
 * end of the body). A connection past one is shut down and libsoup lets
 * it go. Every connection serves one request (libsoup keeps a connection
 * alive only for its own listeners): no connection idles between
 * requests.
 *
 * A spectator (conns_spectator()) is counted against the spectator caps,
 * in total and per client; its idle timeout becomes the stall timeout (a
 * write that makes no progress for that long fails). A WebSocket seat
 * (conns_websocket()) has no timeout: a person may think for long.
 *
 * All on the thread whose main context was the thread-default one at
 * conns_new().
 */
#ifndef TETRARENA_SERVER_CONNS_H
#define TETRARENA_SERVER_CONNS_H

#include <libsoup/soup.h>

/* The defaults (0 in ConnsLimits). */
#define CONNS_MAX 4096			/* connections open at once */
#define CONNS_PER_CLIENT 256		/* of them from one client */
#define CONNS_SPECTATORS 1024		/* spectators at once */
#define CONNS_SPECTATORS_PER_CLIENT 64	/* of them from one client */
#define CONNS_IDLE_S 10
#define CONNS_HEADER_S 10
#define CONNS_BODY_S 10
#define CONNS_STALL_S 20		/* a spectator's write without progress */

/* File descriptors kept for the games (bots' pipes, logs) when the cap
 * on connections is fitted under RLIMIT_NOFILE. */
#define CONNS_FD_RESERVE 256

/* How long accepting pauses when accept() fails (EMFILE and the like). */
#define CONNS_PAUSE_MS 100

/* How long a refused request's body is read and thrown away after its
 * answer (so that the answer is not lost to a reset), at most. */
#define CONNS_LINGER_MS 1000

typedef struct {
	guint max, per_client;
	guint spectators, spectators_per_client;
	guint idle_s, header_s, body_s, stall_s;
} ConnsLimits;

typedef struct {
	guint open, spectators;		/* now */
	guint refused;			/* at accept, over a cap */
	guint timed_out;		/* past the header or body timeout */
	guint accept_failed;		/* accept() failed (out of descriptors) */
} ConnsStats;

typedef struct Conns Conns;

/*
 * Accept on `listener` (bound and listening; made non-blocking here) and
 * hand each connection taken to `soup`. `lim`'s zeros are the defaults;
 * lim->max is fitted under the file-descriptor limit less
 * CONNS_FD_RESERVE. `early` is called when a request's headers are in,
 * before its body is read (it may set a status, or conns_refuse()).
 */
Conns *conns_new(SoupServer *soup, GSocket *listener, const ConnsLimits *lim,
		 void (*early)(SoupServerMessage *msg, void *data), void *data);
/* Stop accepting; connections still open (spectators, seats) are no
 * longer counted. Call after soup_server_disconnect(). */
void conns_free(Conns *c);

/* The limits in force (defaults filled in, max fitted). */
const ConnsLimits *conns_limits(const Conns *c);
void conns_stats(const Conns *c, ConnsStats *out);

/* The socket a request came on; NULL when not one of ours. */
GSocket *conns_socket(Conns *c, SoupServerMessage *msg);

/* Count the request's connection as a spectator: FALSE (not counted)
 * when a spectator cap is reached. Its timers stop; its idle timeout
 * becomes the stall timeout. */
gboolean conns_spectator(Conns *c, SoupServerMessage *msg);

/* The request's connection becomes a WebSocket: no timeout any more. */
void conns_websocket(Conns *c, SoupServerMessage *msg);

/* Answer `status` with `text` now, before the body is read (from the
 * early hook), and close the connection: the body that comes meanwhile is
 * read and thrown away for at most CONNS_LINGER_MS. */
void conns_refuse(Conns *c, SoupServerMessage *msg, guint status, const char *text);

#endif
