/*
 * seat: a person's seat relayed to a WebSocket. See seat.h.
 *
 * from_ref: the read end of the Bot's input (what the referee says);
 * to_ref: the write end of the Bot's output (what the page says), with a
 * queue for when the pipe is full. Both non-blocking, watched by the main
 * loop.
 */
#include "seat.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

struct WebSeat {
	int from_ref, to_ref;
	guint from_watch, to_watch;
	GString *line;		/* a line from the referee not yet complete */
	GString *backlog;	/* lines for a page not yet connected */
	GString *out;		/* bytes for the referee not yet written */
	SoupWebsocketConnection *ws;
	gulong on_message, on_closed;
	gboolean over;		/* the page is gone (or never may come) */
	GMutex lock;		/* last_message is read from the game's thread */
	gint64 last_message;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The page is gone: the referee reads end of output from now on. */
static void page_gone(WebSeat *s)
{
	s->over = TRUE;
	if (s->to_watch)
		g_source_remove(s->to_watch);
	s->to_watch = 0;
	close_fd(&s->to_ref);
	g_string_truncate(s->out, 0);
	if (s->ws) {
		g_signal_handler_disconnect(s->ws, s->on_message);
		g_signal_handler_disconnect(s->ws, s->on_closed);
		if (soup_websocket_connection_get_state(s->ws) == SOUP_WEBSOCKET_STATE_OPEN)
			soup_websocket_connection_close(s->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
		g_clear_object(&s->ws);
	}
}

static void send_line(WebSeat *s, const char *line, gsize len)
{
	if (s->over)
		return;
	if (s->ws) {
		g_autofree char *text = g_strndup(line, len);
		if (soup_websocket_connection_get_state(s->ws) == SOUP_WEBSOCKET_STATE_OPEN)
			soup_websocket_connection_send_text(s->ws, text);
		return;
	}
	if (s->backlog->len + len + 1 > SEAT_BACKLOG_MAX) {
		page_gone(s);	/* nobody came for it */
		return;
	}
	g_string_append_len(s->backlog, line, (gssize)len);
	g_string_append_c(s->backlog, '\n');
}

/* What the referee says: cut into lines, each one message. */
static gboolean from_referee(int fd, GIOCondition cond, gpointer data)
{
	WebSeat *s = data;
	char buf[65536];

	(void)cond;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return G_SOURCE_CONTINUE;
		if (n <= 0)
			break;
		g_string_append_len(s->line, buf, n);
		char *p = s->line->str, *end = p + s->line->len, *nl;
		while ((nl = memchr(p, '\n', (gsize)(end - p)))) {
			send_line(s, p, (gsize)(nl - p));
			p = nl + 1;
		}
		g_string_erase(s->line, 0, p - s->line->str);
		if (s->line->len > SEAT_MESSAGE_MAX)	/* the referee never sends one */
			g_string_truncate(s->line, 0);
	}
	/* the referee is done with the seat: the page's game is over */
	s->from_watch = 0;
	close_fd(&s->from_ref);
	if (s->ws && soup_websocket_connection_get_state(s->ws) == SOUP_WEBSOCKET_STATE_OPEN)
		soup_websocket_connection_close(s->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, "game over");
	return G_SOURCE_REMOVE;
}

static gboolean to_referee(int fd, GIOCondition cond, gpointer data);

/* Write what the pipe takes; watch for room when it is full. */
static void flush_out(WebSeat *s)
{
	while (s->out->len && s->to_ref >= 0) {
		ssize_t n = write(s->to_ref, s->out->str, s->out->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (!s->to_watch)
				s->to_watch = g_unix_fd_add(s->to_ref, G_IO_OUT | G_IO_ERR, to_referee, s);
			return;
		}
		if (n < 0) {	/* the referee closed it: nothing more to say */
			g_string_truncate(s->out, 0);
			return;
		}
		g_string_erase(s->out, 0, n);
	}
}

static gboolean to_referee(int fd, GIOCondition cond, gpointer data)
{
	WebSeat *s = data;

	(void)fd, (void)cond;
	s->to_watch = 0;
	flush_out(s);
	return G_SOURCE_REMOVE;
}

static void on_message(SoupWebsocketConnection *ws, gint type, GBytes *message, gpointer data)
{
	WebSeat *s = data;
	gsize len;
	const char *text = g_bytes_get_data(message, &len);

	(void)ws;
	if (type != SOUP_WEBSOCKET_DATA_TEXT) {
		soup_websocket_connection_close(s->ws, SOUP_WEBSOCKET_CLOSE_UNSUPPORTED_DATA, "text only");
		page_gone(s);
		return;
	}
	g_mutex_lock(&s->lock);
	s->last_message = g_get_monotonic_time();
	g_mutex_unlock(&s->lock);
	if (s->out->len + len + 1 > 4 * SEAT_MESSAGE_MAX) {	/* the referee is not reading */
		page_gone(s);
		return;
	}
	g_string_append_len(s->out, text, (gssize)len);
	g_string_append_c(s->out, '\n');
	flush_out(s);
}

static void on_closed(SoupWebsocketConnection *ws, gpointer data)
{
	(void)ws;
	page_gone(data);
}

WebSeat *seat_new(const BotSpec *spec, Bot **bot, GError **error)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "pipe: %s", g_strerror(errno));
		return NULL;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		int e = errno;
		close(in[0]), close(in[1]);
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(e), "pipe: %s", g_strerror(e));
		return NULL;
	}
	WebSeat *s = g_new0(WebSeat, 1);
	g_mutex_init(&s->lock);
	s->from_ref = in[0];
	s->to_ref = out[1];
	fcntl(s->from_ref, F_SETFL, fcntl(s->from_ref, F_GETFL) | O_NONBLOCK);
	fcntl(s->to_ref, F_SETFL, fcntl(s->to_ref, F_GETFL) | O_NONBLOCK);
	s->line = g_string_new(NULL);
	s->backlog = g_string_new(NULL);
	s->out = g_string_new(NULL);
	s->from_watch = g_unix_fd_add(s->from_ref, G_IO_IN | G_IO_HUP | G_IO_ERR, from_referee, s);
	*bot = bot_new_relay(spec, in[1], out[0]);
	return s;
}

gboolean seat_attach(WebSeat *s, SoupWebsocketConnection *ws)
{
	if (s->ws || s->over)
		return FALSE;
	s->ws = g_object_ref(ws);
	soup_websocket_connection_set_max_incoming_payload_size(ws, SEAT_MESSAGE_MAX);
	s->on_message = g_signal_connect(ws, "message", G_CALLBACK(on_message), s);
	s->on_closed = g_signal_connect(ws, "closed", G_CALLBACK(on_closed), s);
	/* what was said before it came, a message a line */
	g_autoptr(GString) held = s->backlog;
	s->backlog = g_string_new(NULL);
	char *p = held->str, *end = p + held->len, *nl;
	while ((nl = memchr(p, '\n', (gsize)(end - p)))) {
		send_line(s, p, (gsize)(nl - p));
		p = nl + 1;
	}
	if (s->from_ref < 0 && soup_websocket_connection_get_state(ws) == SOUP_WEBSOCKET_STATE_OPEN)
		soup_websocket_connection_close(ws, SOUP_WEBSOCKET_CLOSE_NORMAL, "game over");
	return TRUE;
}

void seat_close(WebSeat *s)
{
	page_gone(s);
}

gboolean seat_attached(const WebSeat *s)
{
	return s->ws != NULL || s->over;
}

gboolean seat_over(const WebSeat *s)
{
	return s->over || s->from_ref < 0;
}

gint64 seat_last_message(WebSeat *s)
{
	g_mutex_lock(&s->lock);
	gint64 t = s->last_message;
	g_mutex_unlock(&s->lock);
	return t;
}

void seat_free(WebSeat *s)
{
	if (!s)
		return;
	page_gone(s);
	if (s->from_watch)
		g_source_remove(s->from_watch);
	close_fd(&s->from_ref);
	g_string_free(s->line, TRUE);
	g_string_free(s->backlog, TRUE);
	g_string_free(s->out, TRUE);
	g_mutex_clear(&s->lock);
	g_free(s);
}
