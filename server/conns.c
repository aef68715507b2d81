/*
 * conns: the connections of `referee serve`. See conns.h.
 *
 * Each connection taken is a Conn, found again from a request by the
 * remote address object handed to soup_server_accept_iostream() (the
 * request's soup_server_message_get_remote_address() is that object).
 * A weak reference on its GSocket ends the Conn: the socket is finalized
 * when the last stream over it goes (libsoup's, a spectator's, a seat's),
 * and with it its descriptor.
 */
#include "conns.h"

#include <malloc.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

typedef struct {
	char *key;
	guint conns, spectators;
} Client;

typedef struct {
	Conns *c;
	GSocket *sock;		/* weak */
	GSocketAddress *remote;	/* the key in by_remote */
	Client *client;
	GSource *timer;
	gboolean spectator, refused;
} Conn;

struct Conns {
	SoupServer *soup;
	GSocket *listener;
	GMainContext *ctx;
	GSource *accepting, *paused;
	ConnsLimits lim;
	void (*early)(SoupServerMessage *msg, void *data);
	void *data;
	GHashTable *clients;	/* key -> Client */
	GHashTable *by_remote;	/* GSocketAddress* -> Conn */
	ConnsStats st;
	gulong started_id, read_id;
	guint closed;		/* since the last trim */
	GSource *trim;
};

/* After a crowd of connections has gone, give free memory back to the
 * system, so that the resident size falls with them. */
#define CONNS_TRIM_AFTER 256

/* ---- clients ------------------------------------------------------------- */

/* An IPv4 address; an IPv6 one's /64 (one host's usual share); an
 * IPv4-mapped IPv6 address as the IPv4 one. */
static char *client_key(GSocketAddress *remote)
{
	if (!G_IS_INET_SOCKET_ADDRESS(remote))
		return g_strdup("?");
	GInetAddress *a = g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(remote));
	const guint8 *b = g_inet_address_to_bytes(a);

	if (g_inet_address_get_family(a) == G_SOCKET_FAMILY_IPV4)
		return g_strdup_printf("%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	static const guint8 mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	if (memcmp(b, mapped, 12) == 0)
		return g_strdup_printf("%u.%u.%u.%u", b[12], b[13], b[14], b[15]);
	return g_strdup_printf("%02x%02x:%02x%02x:%02x%02x:%02x%02x::/64", b[0], b[1], b[2], b[3], b[4], b[5], b[6],
			       b[7]);
}

static void client_free(gpointer p)
{
	Client *cl = p;

	g_free(cl->key);
	g_free(cl);
}

/* ---- timers -------------------------------------------------------------- */

static void disarm(Conn *k)
{
	if (k->timer) {
		g_source_destroy(k->timer);
		g_source_unref(k->timer);
		k->timer = NULL;
	}
}

/* Past a deadline: shut the socket down; whoever waits on it (libsoup, a
 * refusal's reader) sees the end and lets it go. */
static gboolean expired(gpointer data)
{
	Conn *k = data;

	g_source_unref(k->timer);
	k->timer = NULL;
	if (!k->refused)
		k->c->st.timed_out++;
	if (k->sock)
		g_socket_shutdown(k->sock, TRUE, TRUE, NULL);
	return G_SOURCE_REMOVE;
}

static void arm(Conn *k, guint ms)
{
	disarm(k);
	k->timer = g_timeout_source_new(ms);
	g_source_set_callback(k->timer, expired, k, NULL);
	g_source_attach(k->timer, k->c->ctx);
}

/* ---- connections --------------------------------------------------------- */

static gboolean trim(gpointer data)
{
	Conns *c = data;

	malloc_trim(0);
	g_source_unref(c->trim);
	c->trim = NULL;
	return G_SOURCE_REMOVE;
}

/* The socket is finalized: its descriptor is closed. */
static void conn_gone(gpointer data, GObject *was)
{
	Conn *k = data;
	Conns *c = k->c;

	(void)was;
	disarm(k);
	c->st.open--;
	k->client->conns--;
	if (k->spectator) {
		c->st.spectators--;
		k->client->spectators--;
	}
	if (!k->client->conns)
		g_hash_table_remove(c->clients, k->client->key);
	g_hash_table_remove(c->by_remote, k->remote);
	g_object_unref(k->remote);
	g_free(k);
	if (++c->closed >= CONNS_TRIM_AFTER && !c->trim) {
		c->closed = 0;
		c->trim = g_idle_source_new();
		g_source_set_priority(c->trim, G_PRIORITY_LOW);
		g_source_set_callback(c->trim, trim, c, NULL);
		g_source_attach(c->trim, c->ctx);
	}
}

static Conn *find(Conns *c, SoupServerMessage *msg)
{
	GSocketAddress *remote = soup_server_message_get_remote_address(msg);

	return remote ? g_hash_table_lookup(c->by_remote, remote) : NULL;
}

/* Over a cap at accept: a short answer, for a client that reads it, and
 * the connection closed. Nothing has been read from it. */
static void refuse_at_accept(Conns *c, GSocket *sock, const char *why)
{
	g_autofree char *text = g_strdup_printf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
						"Content-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
						strlen(why) + 1, why);

	c->st.refused++;
	g_socket_set_blocking(sock, FALSE);
	g_socket_send(sock, text, strlen(text), NULL, NULL);
	g_socket_close(sock, NULL);
}

static void admit(Conns *c, GSocket *sock)
{
	g_autoptr(GSocketAddress) remote = g_socket_get_remote_address(sock, NULL);
	g_autoptr(GSocketAddress) local = g_socket_get_local_address(sock, NULL);

	if (!remote || !local) {
		g_socket_close(sock, NULL);
		return;
	}
	g_autofree char *key = client_key(remote);
	Client *cl = g_hash_table_lookup(c->clients, key);
	if (c->st.open >= c->lim.max) {
		refuse_at_accept(c, sock, "too many connections: try again later");
		return;
	}
	if (cl && cl->conns >= c->lim.per_client) {
		refuse_at_accept(c, sock, "too many connections from your address");
		return;
	}
	if (!cl) {
		cl = g_new0(Client, 1);
		cl->key = g_steal_pointer(&key);
		g_hash_table_insert(c->clients, cl->key, cl);
	}
	Conn *k = g_new0(Conn, 1);
	k->c = c;
	k->sock = sock;
	k->remote = g_object_ref(remote);
	k->client = cl;
	cl->conns++;
	c->st.open++;
	g_hash_table_insert(c->by_remote, k->remote, k);
	g_object_weak_ref(G_OBJECT(sock), conn_gone, k);
	g_socket_set_timeout(sock, c->lim.idle_s);
	g_autoptr(GSocketConnection) conn = g_socket_connection_factory_create_connection(sock);
	soup_server_accept_iostream(c->soup, G_IO_STREAM(conn), local, remote, NULL);
}

static gboolean on_accept(GSocket *listener, GIOCondition cond, gpointer data);

static void accept_start(Conns *c)
{
	c->accepting = g_socket_create_source(c->listener, G_IO_IN, NULL);
	g_source_set_callback(c->accepting, G_SOURCE_FUNC(on_accept), c, NULL);
	g_source_attach(c->accepting, c->ctx);
}

static gboolean resume(gpointer data)
{
	Conns *c = data;

	g_source_unref(c->paused);
	c->paused = NULL;
	accept_start(c);
	return G_SOURCE_REMOVE;
}

/* Take what is waiting, a bounded number at a time so that the loop's
 * other work goes on under a flood. */
static gboolean on_accept(GSocket *listener, GIOCondition cond, gpointer data)
{
	Conns *c = data;

	(void)cond;
	for (int i = 0; i < 64; i++) {
		g_autoptr(GError) err = NULL;
		GSocket *sock = g_socket_accept(listener, NULL, &err);
		if (sock) {
			admit(c, sock);
			g_object_unref(sock);	/* its connection holds it, if taken */
			continue;
		}
		if (g_error_matches(err, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
			return G_SOURCE_CONTINUE;
		if (g_error_matches(err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
		    g_error_matches(err, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
			continue;	/* that client gave up before we took it */
		/* out of descriptors (or memory): the connection stays in the
		 * backlog and the socket readable; pause rather than spin */
		c->st.accept_failed++;
		g_source_unref(c->accepting);
		c->accepting = NULL;
		c->paused = g_timeout_source_new(CONNS_PAUSE_MS);
		g_source_set_callback(c->paused, resume, c, NULL);
		g_source_attach(c->paused, c->ctx);
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

/* ---- a request's clocks -------------------------------------------------- */

static void got_headers(SoupServerMessage *msg, gpointer data)
{
	Conns *c = data;
	Conn *k = find(c, msg);

	if (c->early)
		c->early(msg, c->data);	/* may refuse: k->refused */
	if (!k || k->refused)
		return;
	SoupMessageHeaders *h = soup_server_message_get_request_headers(msg);
	gboolean body = soup_message_headers_get_encoding(h) == SOUP_ENCODING_CHUNKED ||
			soup_message_headers_get_content_length(h) > 0;
	if (body && soup_server_message_get_status(msg) == 0)
		arm(k, c->lim.body_s * 1000);
	else
		disarm(k);
}

/* A request starts: for the one request a connection carries, libsoup
 * says so when it takes the connection. */
static void started(SoupServer *ss, SoupServerMessage *msg, gpointer data)
{
	Conns *c = data;
	Conn *k = find(c, msg);

	(void)ss;
	if (!k)
		return;
	arm(k, c->lim.header_s * 1000);
	g_signal_connect(msg, "got-headers", G_CALLBACK(got_headers), c);
}

static void read_all(SoupServer *ss, SoupServerMessage *msg, gpointer data)
{
	Conn *k = find(data, msg);

	(void)ss;
	if (k && !k->refused)
		disarm(k);
}

/* ---- refusing before the body -------------------------------------------- */

typedef struct {
	GIOStream *io;
	char *text;
	char buf[4096];
} Refusal;

static void refusal_end(Refusal *r)
{
	g_io_stream_close(r->io, NULL, NULL);
	g_object_unref(r->io);
	g_free(r->text);
	g_free(r);
}

static void drained(GObject *src, GAsyncResult *res, gpointer data)
{
	Refusal *r = data;
	gssize n = g_input_stream_read_finish(G_INPUT_STREAM(src), res, NULL);

	if (n <= 0) {
		refusal_end(r);
		return;
	}
	g_input_stream_read_async(G_INPUT_STREAM(src), r->buf, sizeof(r->buf), G_PRIORITY_DEFAULT, NULL, drained, r);
}

static void refused(GObject *src, GAsyncResult *res, gpointer data)
{
	Refusal *r = data;
	GSocket *sock = g_object_get_data(G_OBJECT(r->io), "conns-socket");

	if (!g_output_stream_write_all_finish(G_OUTPUT_STREAM(src), res, NULL, NULL) || !sock) {
		refusal_end(r);
		return;
	}
	/* the answer ends with our FIN; what the client still sends is read
	 * and dropped until it stops or the linger clock shuts it down */
	g_socket_shutdown(sock, FALSE, TRUE, NULL);
	g_input_stream_read_async(g_io_stream_get_input_stream(r->io), r->buf, sizeof(r->buf), G_PRIORITY_DEFAULT,
				  NULL, drained, r);
}

void conns_refuse(Conns *c, SoupServerMessage *msg, guint status, const char *text)
{
	Conn *k = find(c, msg);

	if (!k || !k->sock) {
		soup_server_message_set_status(msg, status, NULL);
		return;
	}
	k->refused = TRUE;
	Refusal *r = g_new0(Refusal, 1);
	r->io = soup_server_message_steal_connection(msg);
	g_object_set_data_full(G_OBJECT(r->io), "conns-socket", g_object_ref(k->sock), g_object_unref);
	r->text = g_strdup_printf("HTTP/1.1 %u %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
				  "X-Content-Type-Options: nosniff\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
				  status, status == SOUP_STATUS_MISDIRECTED_REQUEST ? "Misdirected Request" : soup_status_get_phrase(status),
				  strlen(text) + 1, text);
	arm(k, CONNS_LINGER_MS);
	g_output_stream_write_all_async(g_io_stream_get_output_stream(r->io), r->text, strlen(r->text),
					G_PRIORITY_DEFAULT, NULL, refused, r);
}

/* ---- the rest ------------------------------------------------------------ */

Conns *conns_new(SoupServer *soup, GSocket *listener, const ConnsLimits *lim,
		 void (*early)(SoupServerMessage *msg, void *data), void *data)
{
	Conns *c = g_new0(Conns, 1);
	struct rlimit rl;

	c->soup = g_object_ref(soup);
	c->listener = g_object_ref(listener);
	c->ctx = g_main_context_ref_thread_default();
	c->lim = *lim;
	c->early = early;
	c->data = data;
#define DEF(f, v) if (!c->lim.f) c->lim.f = v
	DEF(max, CONNS_MAX);
	DEF(per_client, CONNS_PER_CLIENT);
	DEF(spectators, CONNS_SPECTATORS);
	DEF(spectators_per_client, CONNS_SPECTATORS_PER_CLIENT);
	DEF(idle_s, CONNS_IDLE_S);
	DEF(header_s, CONNS_HEADER_S);
	DEF(body_s, CONNS_BODY_S);
	DEF(stall_s, CONNS_STALL_S);
#undef DEF
	/* each connection is a descriptor: past the limit accept fails */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		rlim_t room = rl.rlim_cur > 2 * CONNS_FD_RESERVE ? rl.rlim_cur - CONNS_FD_RESERVE : rl.rlim_cur / 2;
		if (c->lim.max > room)
			c->lim.max = (guint)room;
	}
	c->clients = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, client_free);
	c->by_remote = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_socket_set_blocking(listener, FALSE);
	c->started_id = g_signal_connect(soup, "request-started", G_CALLBACK(started), c);
	c->read_id = g_signal_connect(soup, "request-read", G_CALLBACK(read_all), c);
	accept_start(c);
	return c;
}

void conns_free(Conns *c)
{
	if (!c)
		return;
	if (c->accepting)
		g_source_destroy(c->accepting);
	g_clear_pointer(&c->accepting, g_source_unref);
	if (c->paused)
		g_source_destroy(c->paused);
	g_clear_pointer(&c->paused, g_source_unref);
	if (c->trim)
		g_source_destroy(c->trim);
	g_clear_pointer(&c->trim, g_source_unref);
	g_signal_handler_disconnect(c->soup, c->started_id);
	g_signal_handler_disconnect(c->soup, c->read_id);
	GHashTableIter it;
	gpointer key, value;
	g_hash_table_iter_init(&it, c->by_remote);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		Conn *k = value;
		disarm(k);
		g_object_weak_unref(G_OBJECT(k->sock), conn_gone, k);
		g_object_unref(k->remote);
		g_free(k);
	}
	g_hash_table_destroy(c->by_remote);
	g_hash_table_destroy(c->clients);
	g_socket_close(c->listener, NULL);
	g_object_unref(c->listener);
	g_object_unref(c->soup);
	g_main_context_unref(c->ctx);
	g_free(c);
}

const ConnsLimits *conns_limits(const Conns *c)
{
	return &c->lim;
}

void conns_stats(const Conns *c, ConnsStats *out)
{
	*out = c->st;
}

GSocket *conns_socket(Conns *c, SoupServerMessage *msg)
{
	Conn *k = find(c, msg);

	return k ? k->sock : NULL;
}

gboolean conns_spectator(Conns *c, SoupServerMessage *msg)
{
	Conn *k = find(c, msg);

	if (!k || !k->sock)
		return FALSE;
	if (k->spectator)
		return TRUE;
	if (c->st.spectators >= c->lim.spectators || k->client->spectators >= c->lim.spectators_per_client)
		return FALSE;
	k->spectator = TRUE;
	c->st.spectators++;
	k->client->spectators++;
	disarm(k);
	g_socket_set_timeout(k->sock, c->lim.stall_s);
	return TRUE;
}

void conns_websocket(Conns *c, SoupServerMessage *msg)
{
	Conn *k = find(c, msg);

	if (!k || !k->sock)
		return;
	disarm(k);
	g_socket_set_timeout(k->sock, 0);
}
