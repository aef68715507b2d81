/*
 * seat: a person's seat relayed to a WebSocket. See seat.h.
 *
 * from_ref: the read end of the Bot's input (what the referee says);
 * to_ref: the write end of the Bot's output (what the page says), with a
 * queue for when the pipe is full. Both non-blocking, watched by the main
 * loop. The transcript keeps every line from the referee; a page that
 * goes away is detached (ws NULL) and the grace timer runs until one
 * comes back.
 */
#include "seat.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

#include "referee/protocol.h"

struct WebSeat {
	int from_ref, to_ref;
	guint from_watch, to_watch;
	GString *line;		/* a line from the referee not yet complete */
	GString *transcript;	/* every line from the referee, each with its newline */
	guint lines;		/* in transcript */
	gboolean lost;		/* the transcript passed its cap: no page may come back */
	GString *out;		/* bytes for the referee not yet written */
	SoupWebsocketConnection *ws;
	gulong on_message, on_closed, on_error;
	gboolean broke;		/* the page broke the WebSocket's rules (a frame
				 * too big, a bad one): no grace */
	gboolean ever;		/* a page has connected */
	gboolean hello;		/* a page said hello: a later one resumes */
	gboolean over;		/* the page is gone for good (or never may come) */
	/* the seat's clock as its lines tell it (ms), for the grace */
	gboolean timed;
	gint64 untimed_ms, bank, inc, go_at;
	gboolean awaiting;	/* a `go` not yet answered */
	gint64 go_ms;		/* that `go`'s move time */
	guint grace;		/* the timer of a page gone away */
	char *clocks;		/* the last `web clocks` line */
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
static void detach(WebSeat *s)
{
	if (!s->ws)
		return;
	g_signal_handler_disconnect(s->ws, s->on_message);
	g_signal_handler_disconnect(s->ws, s->on_closed);
	g_signal_handler_disconnect(s->ws, s->on_error);
	g_clear_object(&s->ws);
}

static void page_gone(WebSeat *s)
{
	s->over = TRUE;
	if (s->grace)
		g_source_remove(s->grace);
	s->grace = 0;
	if (s->to_watch)
		g_source_remove(s->to_watch);
	s->to_watch = 0;
	close_fd(&s->to_ref);
	g_string_truncate(s->out, 0);
	if (s->ws && soup_websocket_connection_get_state(s->ws) == SOUP_WEBSOCKET_STATE_OPEN)
		soup_websocket_connection_close(s->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
	detach(s);
}

static void send_text(WebSeat *s, const char *line, gsize len)
{
	g_autofree char *text = g_strndup(line, len);

	if (s->ws && soup_websocket_connection_get_state(s->ws) == SOUP_WEBSOCKET_STATE_OPEN)
		soup_websocket_connection_send_text(s->ws, text);
}

/* A number after `key` in line (e.g. "bank=" in a `go` line), or -1. */
static gint64 number_after(const char *line, gsize len, const char *key)
{
	g_autofree char *text = g_strndup(line, len);
	const char *at = strstr(text, key);
	gint64 v;

	if (!at)
		return -1;
	at += strlen(key);
	gsize n = strspn(at, "0123456789");
	g_autofree char *digits = g_strndup(at, n);
	return n && g_ascii_string_to_signed(digits, 10, 0, G_MAXINT64 / 2000, &v, NULL) ? v : -1;
}

/* The seat's clock from the referee's lines: its bank and increment from
 * `game`, its bank again and a running move from each `go`. */
static void clock_referee(WebSeat *s, const char *line, gsize len)
{
	g_autofree char *text = g_strndup(line, len);
	gint64 v;
	long ms, bank;
	const char *state;

	switch (protocol_verb(text)) {
	case PROTOCOL_GAME:
		if ((v = number_after(line, len, "time=bank:")) >= 0)
			s->bank = v;
		if ((v = number_after(line, len, ",inc:")) >= 0)
			s->inc = v;
		break;
	case PROTOCOL_GO:
		if (protocol_parse_go(text, &ms, &bank, &state)) {
			s->bank = bank;
			s->go_ms = ms;
		} else {
			s->go_ms = -1;
		}
		s->awaiting = TRUE;
		s->go_at = g_get_monotonic_time();
		break;
	default:
		break;
	}
}

/* A line the page sent: a move (or resignation) stops its clock. */
static void clock_page(WebSeat *s, const char *text, gsize len)
{
	g_autofree char *line = g_strndup(text, len);
	ProtocolVerb verb = protocol_verb(line);

	if (!s->awaiting || (verb != PROTOCOL_MOVE && verb != PROTOCOL_RESIGN))
		return;
	s->awaiting = FALSE;
	s->bank = MAX(0, s->bank - (g_get_monotonic_time() - s->go_at) / 1000) + s->inc;
}

static void send_line(WebSeat *s, const char *line, gsize len)
{
	if (s->over)
		return;
	clock_referee(s, line, len);
	if (!s->lost && s->transcript->len + len + 1 > SEAT_BACKLOG_MAX) {
		s->lost = TRUE;	/* too long to give again: no page may come back */
		g_string_truncate(s->transcript, 0);
		if (!s->ws) {
			page_gone(s);
			return;
		}
	}
	if (!s->lost) {
		g_string_append_len(s->transcript, line, (gssize)len);
		g_string_append_c(s->transcript, '\n');
		s->lines++;
	}
	send_text(s, line, len);
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
	if (s->grace)
		g_source_remove(s->grace);
	s->grace = 0;
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
	{
		g_autofree char *line = g_strndup(text, len);
		if (protocol_verb(line) == PROTOCOL_HELLO)
			s->hello = TRUE;
	}
	clock_page(s, text, len);
	if (s->out->len + len + 1 > 4 * SEAT_MESSAGE_MAX) {	/* the referee is not reading */
		page_gone(s);
		return;
	}
	g_string_append_len(s->out, text, (gssize)len);
	g_string_append_c(s->out, '\n');
	flush_out(s);
}

static gboolean grace_over(gpointer data)
{
	WebSeat *s = data;

	s->grace = 0;
	page_gone(s);	/* nobody came back: the referee reads end of output */
	return G_SOURCE_REMOVE;
}

/* Its grace now (ms): the clock's time left, or the untimed grace. */
static gint64 grace_ms(const WebSeat *s)
{
	if (!s->timed)
		return s->untimed_ms;
	gint64 left = s->bank - (s->awaiting ? (g_get_monotonic_time() - s->go_at) / 1000 : 0);
	return MAX(left, SEAT_GRACE_MIN_MS);
}

/* A frame over the limit or a bad one (libsoup then closes): the seat
 * ends. A network's error (a reset) is a page gone away, with its grace. */
static void on_error(SoupWebsocketConnection *ws, GError *error, gpointer data)
{
	(void)ws;
	if (error && error->domain == SOUP_WEBSOCKET_ERROR)	/* not a network's error: the page's */
		((WebSeat *)data)->broke = TRUE;
}

/* The page went away: the seat waits for one to come back. */
static void on_closed(SoupWebsocketConnection *ws, gpointer data)
{
	WebSeat *s = data;

	(void)ws;
	detach(s);
	if (s->over || s->from_ref < 0)
		return;
	if (s->lost || s->broke) {	/* a page that broke the rules: no grace */
		page_gone(s);
		return;
	}
	if (!s->grace)
		s->grace = g_timeout_add((guint)MIN(grace_ms(s), G_MAXUINT), grace_over, s);
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
	s->transcript = g_string_new(NULL);
	s->untimed_ms = 120000;
	s->out = g_string_new(NULL);
	s->from_watch = g_unix_fd_add(s->from_ref, G_IO_IN | G_IO_HUP | G_IO_ERR, from_referee, s);
	*bot = bot_new_relay(spec, in[1], out[0]);
	return s;
}

void seat_set_grace(WebSeat *s, gboolean timed, gint64 untimed_ms)
{
	s->timed = timed;
	s->untimed_ms = untimed_ms;
}

gboolean seat_attach(WebSeat *s, SoupWebsocketConnection *ws)
{
	if (s->over || s->lost)
		return FALSE;
	if (s->ws) {	/* taken over: the first page is told, then closed */
		SoupWebsocketConnection *old = g_object_ref(s->ws);
		detach(s);
		if (soup_websocket_connection_get_state(old) == SOUP_WEBSOCKET_STATE_OPEN) {
			soup_websocket_connection_send_text(old, "web taken This seat is now played from another "
								 "page (a second tab or window); this page no "
								 "longer plays it.");
			soup_websocket_connection_close(old, 4001, "taken over");
		}
		g_object_unref(old);
	}
	if (s->grace)
		g_source_remove(s->grace);
	s->grace = 0;
	s->ws = g_object_ref(ws);
	soup_websocket_connection_set_max_incoming_payload_size(ws, SEAT_MESSAGE_MAX);
	s->on_message = g_signal_connect(ws, "message", G_CALLBACK(on_message), s);
	s->on_closed = g_signal_connect(ws, "closed", G_CALLBACK(on_closed), s);
	s->on_error = g_signal_connect(ws, "error", G_CALLBACK(on_error), s);
	s->broke = FALSE;
	/* what was said so far, a message a line; after a page that said
	 * hello, as a resumption the page replays without answering */
	if (s->ever && s->hello) {
		gint64 left = s->awaiting ? MAX(0, s->go_ms - (g_get_monotonic_time() - s->go_at) / 1000) : 0;
		g_autofree char *head = g_strdup_printf("web resume %u %s %" G_GINT64_FORMAT, s->lines,
							s->awaiting ? "pending" : "answered", left);
		send_text(s, head, strlen(head));
	}
	s->ever = TRUE;
	char *p = s->transcript->str, *end = p + s->transcript->len, *nl;
	while ((nl = memchr(p, '\n', (gsize)(end - p)))) {
		send_text(s, p, (gsize)(nl - p));
		p = nl + 1;
	}
	if (s->clocks)
		send_text(s, s->clocks, strlen(s->clocks));
	if (s->from_ref < 0 && soup_websocket_connection_get_state(ws) == SOUP_WEBSOCKET_STATE_OPEN)
		soup_websocket_connection_close(ws, SOUP_WEBSOCKET_CLOSE_NORMAL, "game over");
	return TRUE;
}

void seat_send_web(WebSeat *s, const char *line)
{
	if (s->over)
		return;
	if (g_str_has_prefix(line, "web clocks ")) {
		g_free(s->clocks);
		s->clocks = g_strdup(line);
	}
	send_text(s, line, strlen(line));
}

void seat_close(WebSeat *s)
{
	page_gone(s);
}

gboolean seat_attached(const WebSeat *s)
{
	return s->ever || s->over;
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
	g_free(s->clocks);
	g_string_free(s->line, TRUE);
	g_string_free(s->transcript, TRUE);
	g_string_free(s->out, TRUE);
	g_mutex_clear(&s->lock);
	g_free(s);
}
