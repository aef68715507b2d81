/*
 * server: `referee serve`'s web server. See server.h and docs/serve.md.
 *
 * One handler takes every HTTP request and dispatches on the path's
 * words; the WebSocket handler takes /ws. Connections are taken by
 * conns.c, which calls early() when a request's headers are in: a Host
 * not this server's, or a body over SERVER_BODY_MAX, is refused there
 * before the body is read.
 */
#include "server.h"

#include <string.h>
#include <sys/socket.h>

#include <libsoup/soup.h>

#include "build/server-assets.h"
#include "referee/html.h"
#include "referee/json.h"
#include "referee/replay.h"
#include "server/coach.h"
#include "seat.h"
#include "server/ladder.h"
#include "server/rules.h"

G_DEFINE_QUARK(tetrarena-server-error-quark, server_error)

/* Connections waiting to be accepted. */
#define SERVER_LISTEN_BACKLOG 1024

/* A spectator's socket send buffer (bytes; the kernel doubles it). */
#define SERVER_SPECTATOR_SNDBUF (32 * 1024)

struct Server {
	ServerConfig cfg;
	SoupServer *soup;
	Conns *conns;
	char *url;
	guint port;
	GPtrArray *hosts;	/* the Host headers taken (lowercase) */
	gboolean any_ip;	/* listening on every address: an IP with the port is fine too */
	ServeGames *games;
	Coach *coach;		/* reviews and hints (coach.h) */
	gboolean loopback;
	ServerStandings standings, report_path;
	void *tdata;
};

/* ---- the embedded files -------------------------------------------------- */

typedef struct {
	const char *name;	/* /assets/NAME */
	const unsigned char *data;
	const unsigned int *len;
	const char *type;
} Asset;

#define JS "text/javascript; charset=utf-8"
#define CSS "text/css; charset=utf-8"
static const Asset assets[] = {
	{"serve.css", server_pages_serve_css, &server_pages_serve_css_len, CSS},
	{"start.js", server_pages_start_js, &server_pages_start_js_len, JS},
	{"play.js", server_pages_play_js, &server_pages_play_js_len, JS},
	{"watch.js", server_pages_watch_js, &server_pages_watch_js_len, JS},
	{"live.js", server_pages_live_js, &server_pages_live_js_len, JS},
	{"standings.js", server_pages_standings_js, &server_pages_standings_js_len, JS},
	{"coach.js", server_pages_coach_js, &server_pages_coach_js_len, JS},
};

static void respond(SoupServerMessage *msg, guint status, const char *type, const char *body, gsize len)
{
	SoupMessageHeaders *h = soup_server_message_get_response_headers(msg);

	soup_message_headers_replace(h, "X-Content-Type-Options", "nosniff");
	soup_message_headers_replace(h, "Connection", "close");	/* one request a connection (conns.h) */
	soup_message_headers_replace(h, "Cache-Control", "no-store");
	soup_server_message_set_status(msg, status, NULL);
	soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, body, len);
}

static void respond_text(SoupServerMessage *msg, guint status, const char *text)
{
	g_autofree char *line = g_strdup_printf("%s\n", text);
	respond(msg, status, "text/plain; charset=utf-8", line, strlen(line));
}

static void respond_json(SoupServerMessage *msg, char *json)
{
	respond(msg, SOUP_STATUS_OK, "application/json", json, strlen(json));
	g_free(json);
}

/* A page: title, its data as JSON in <script id="data">, its scripts. */
static void respond_page(SoupServerMessage *msg, const char *title, const char *data, const char *const *scripts)
{
	g_autofree char *esc = g_markup_escape_text(title, -1);
	g_autoptr(GString) s = g_string_new(NULL);

	g_string_append_printf(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			       "<title>%s</title>\n<link rel=\"stylesheet\" href=\"/assets/viewer.css\">\n"
			       "<link rel=\"stylesheet\" href=\"/assets/serve.css\">\n</head>\n<body>\n"
			       "<script type=\"application/json\" id=\"data\">", esc);
	/* json_string writes `<` as \u003c: nothing in data closes the element */
	g_string_append(s, data);
	g_string_append(s, "</script>\n");
	for (int i = 0; scripts[i]; i++)
		g_string_append_printf(s, "<script src=\"/assets/%s\"></script>\n", scripts[i]);
	g_string_append(s, "</body>\n</html>\n");
	respond(msg, SOUP_STATUS_OK, "text/html; charset=utf-8", s->str, s->len);
}

/* ---- the pages ------------------------------------------------------------ */

/* Which variants an opponent plays: bot-NAME, bot-NAME-baseline and
 * bot-NAME-levelL (our AIs' levels) play NAME; any other, every variant. */
static const char *opponent_variant(const char *name)
{
	for (const Variant *const *v = variant_all(); *v; v++) {
		g_autofree char *own = g_strdup_printf("bot-%s", (*v)->name);
		g_autofree char *base = g_strdup_printf("bot-%s-baseline", (*v)->name);
		g_autofree char *level = g_strdup_printf("bot-%s-level", (*v)->name);
		if (strcmp(name, own) == 0 || strcmp(name, base) == 0 ||
		    (g_str_has_prefix(name, level) && g_ascii_isdigit(name[strlen(level)]) && !name[strlen(level) + 1]))
			return (*v)->name;
	}
	return NULL;
}

static char *config_json(Server *s)
{
	GString *j = g_string_new("{\"variants\":[");

	for (const Variant *const *v = variant_all(); *v; v++) {
		if (v != variant_all())
			g_string_append_c(j, ',');
		g_string_append(j, "{\"name\":");
		json_string(j, (*v)->name);
		g_string_append(j, ",\"title\":");
		json_string(j, (*v)->title);
		g_autofree char *ai = form_default_ai(*v, games_opponent_known, s->games);
		g_string_append_printf(j, ",\"min\":%d,\"max\":%d,\"seats\":%d,\"ai\":", (*v)->min_players,
				       (*v)->max_players, form_default_seats(*v));
		json_string(j, ai);
		g_string_append(j, ",\"options\":[");
		for (int i = 0; i < (*v)->n_options; i++) {
			const VariantOption *o = &(*v)->options[i];
			g_string_append(j, i ? ",{\"key\":" : "{\"key\":");
			json_string(j, o->key);
			g_string_append_printf(j, ",\"def\":%d,\"min\":%d,\"max\":%d,\"help\":", o->def, o->min, o->max);
			json_string(j, o->help);
			g_string_append_c(j, '}');
		}
		g_string_append(j, "]}");
	}
	g_string_append(j, "],\"opponents\":[");
	for (guint i = 0; i < s->cfg.opponents->len; i++) {
		const BotSpec *b = g_ptr_array_index(s->cfg.opponents, i);
		g_string_append(j, i ? ",{\"name\":" : "{\"name\":");
		json_string(j, b->name);
		g_string_append(j, ",\"variant\":");
		json_string(j, opponent_variant(b->name));
		g_string_append_c(j, '}');
	}
	TimeControl tc;
	timectl_default(&tc);
	g_autofree char *tcs = timectl_format(&tc);
	g_string_append(j, "],\"time\":");
	json_string(j, tcs);
	g_string_append(j, ",\"clocks\":[");
	for (const FormClock *c = form_clocks; c->name; c++) {
		g_string_append(j, c == form_clocks ? "{\"name\":" : ",{\"name\":");
		json_string(j, c->name);
		g_string_append(j, ",\"words\":");
		json_string(j, c->words);
		g_string_append(j, ",\"time\":");
		json_string(j, c->time);
		g_string_append_c(j, '}');
	}
	g_string_append_c(j, ']');
	g_string_append_printf(j, ",\"tournament\":%s}", s->cfg.tournament ? "true" : "false");
	return g_string_free(j, FALSE);
}

static void start_page(Server *s, SoupServerMessage *msg)
{
	static const char *const scripts[] = {"common.js", "start.js", NULL};
	static const char *const tscripts[] = {"common.js", "standings.js", NULL};
	g_autofree char *data = config_json(s);

	respond_page(msg, s->cfg.tournament ? "tetrarena tournament" : "tetrarena: play and watch", data,
		     s->cfg.tournament ? tscripts : scripts);
}

/* The invite links of a game's person seats after the first:
 * [{"seat":S,"url":"/games/ID/play?seat=S&token=T"}]. */
static void invites_json(GString *j, ServeGame *g)
{
	int first = game_person(g);

	g_string_append_c(j, '[');
	for (int p = first + 1; first >= 0 && p < VARIANT_MAX_PLAYERS; p++) {
		const char *t = game_token(g, p);
		if (!t)
			continue;
		g_autofree char *url = g_strdup_printf("/games/%s/play?seat=%d&token=%s", game_id(g), p, t);
		g_string_append_printf(j, "%s{\"seat\":%d,\"url\":", j->str[j->len - 1] == '[' ? "" : ",", p);
		json_string(j, url);
		g_string_append_c(j, '}');
	}
	g_string_append_c(j, ']');
}

/* {"id":..., "seat":..., "token":...} for the play and watch pages; for
 * the first person's page (its token right), also "invites": the other
 * person seats' links, for its player to hand on. */
static char *game_page_data(ServeGame *g, int seat, const char *token)
{
	GString *j = g_string_new("{\"id\":");

	json_string(j, game_id(g));
	g_string_append_printf(j, ",\"seat\":%d,\"token\":", seat);
	json_string(j, token);
	const char *mine = game_token(g, seat);
	if (seat >= 0 && seat == game_person(g) && token && mine && strcmp(token, mine) == 0) {
		g_string_append(j, ",\"invites\":");
		invites_json(j, g);
	}
	g_string_append_c(j, '}');
	return g_string_free(j, FALSE);
}

static gboolean parse_seat(const char *text, int *seat)
{
	guint64 v;

	return text && g_ascii_string_to_unsigned(text, 10, 0, VARIANT_MAX_PLAYERS - 1, &v, NULL) && (*seat = (int)v, TRUE);
}

static void replay_page(SoupServerMessage *msg, ServeGame *g)
{
	g_autoptr(GError) err = NULL;

	if (!game_readable(g)) {
		respond_text(msg, SOUP_STATUS_NOT_FOUND, "that file is no game log");
		return;
	}
	if (!game_over(g)) {
		respond_text(msg, SOUP_STATUS_CONFLICT, "the game is not over yet: watch it at its page");
		return;
	}
	g_autoptr(GameLog) log = gamelog_read(game_log_path(g), &err);
	g_autofree char *json = log ? replay_json(log, &err) : NULL;
	if (!json) {
		respond_text(msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, err->message);
		return;
	}
	g_autofree char *title = g_strdup_printf("tetrarena %s: %s", log->variant->name, game_id(g));
	g_autofree char *page = coach_replay_page(html_replay_page(title, json));
	respond(msg, SOUP_STATUS_OK, "text/html; charset=utf-8", page, strlen(page));
}

static void log_file(SoupServerMessage *msg, ServeGame *g)
{
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!game_readable(g)) {
		respond_text(msg, SOUP_STATUS_NOT_FOUND, "that file is no game log");
		return;
	}
	if (!game_over(g) || !g_file_get_contents(game_log_path(g), &text, &len, NULL)) {
		respond_text(msg, SOUP_STATUS_CONFLICT, "the game is not over yet");
		return;
	}
	respond(msg, SOUP_STATUS_OK, "text/plain; charset=utf-8", text, len);
}

static void spectate(Server *s, SoupServerMessage *msg, ServeGame *g, GHashTable *query)
{
	const char *last = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "Last-Event-ID");
	guint64 n = 0;
	gint64 from = -1;

	if (!last && query)
		last = g_hash_table_lookup(query, "last");
	if (last && g_ascii_string_to_unsigned(last, 10, 0, G_MAXINT64 - 1, &n, NULL))
		from = (gint64)n;
	else if (last)
		from = G_MAXINT64 - 1;	/* an id never given: the full state */
	if (!conns_spectator(s->conns, msg)) {
		respond_text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "too many spectators: try again later");
		return;
	}
	/* the kernel holds little for a spectator: the rest waits in its
	 * queue, where the cap sees it */
	GSocket *sock = conns_socket(s->conns, msg);
	if (sock)
		g_socket_set_option(sock, SOL_SOCKET, SO_SNDBUF, SERVER_SPECTATOR_SNDBUF, NULL);
	GIOStream *conn = soup_server_message_steal_connection(msg);
	sse_serve(game_live(g), conn, from, &s->cfg.spectators);
}

static void new_game(Server *s, SoupServerMessage *msg)
{
	SoupMessageBody *body = soup_server_message_get_request_body(msg);
	g_autoptr(GBytes) bytes = soup_message_body_flatten(body);
	g_autoptr(GError) err = NULL;
	FormGame req;
	gsize len;
	const char *data = g_bytes_get_data(bytes, &len);

	if (!form_parse(data ? data : "", len, games_opponent_known, s->games,
			&req, &err)) {
		/* which field and why, for the start page to show beside it */
		GString *j = g_string_new("{\"field\":");
		json_string(j, req.bad_field);
		g_string_append(j, ",\"error\":");
		json_string(j, err->message);
		g_string_append_c(j, '}');
		respond(msg, SOUP_STATUS_BAD_REQUEST, "application/json", j->str, j->len);
		g_string_free(j, TRUE);
		return;
	}
	ServeGame *g = games_start(s->games, &req, &err);
	form_game_clear(&req);
	if (!g) {
		respond_text(msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, err->message);
		return;
	}
	int p = game_person(g);
	g_autofree char *where = p >= 0 ? g_strdup_printf("/games/%s/play?seat=%d&token=%s", game_id(g), p,
							  game_token(g, p))
					: g_strdup_printf("/games/%s", game_id(g));
	const char *accept = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "Accept");
	if (accept && strstr(accept, "application/json")) {	/* the start page's script */
		GString *j = g_string_new("{\"id\":");
		json_string(j, game_id(g));
		g_string_append(j, ",\"location\":");
		json_string(j, where);
		g_string_append(j, ",\"invites\":");
		invites_json(j, g);
		g_string_append_c(j, '}');
		respond_json(msg, g_string_free(j, FALSE));
		return;
	}
	soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Location", where);
	respond_text(msg, SOUP_STATUS_SEE_OTHER, where);
}

static void stats(Server *s, SoupServerMessage *msg)
{
	guint n;
	double mean, max;

	ConnsStats c;

	games_relay_stats(s->games, &n, &mean, &max);
	conns_stats(s->conns, &c);
	respond_json(msg, g_strdup_printf("{\"spectators\":%u,\"dropped\":%u,\"queued\":%" G_GSIZE_FORMAT ","
					  "\"connections\":{\"open\":%u,\"refused\":%u,\"timed_out\":%u,"
					  "\"accept_failed\":%u},\"relay\":{\"n\":%u,\"mean_us\":%.0f,"
					  "\"max_us\":%.0f}}", sse_count(), sse_dropped(), sse_queued(), c.open,
					  c.refused, c.timed_out, c.accept_failed, n, mean, max));
}

static void tournament_file(Server *s, SoupServerMessage *msg, gboolean report)
{
	g_autofree char *text = NULL;

	if (!s->standings) {
		respond_text(msg, SOUP_STATUS_NOT_FOUND, "not a tournament");
		return;
	}
	if (!report) {
		text = s->standings(s->tdata);
		respond_json(msg, text ? g_steal_pointer(&text) : g_strdup("null"));
		return;
	}
	g_autofree char *path = s->report_path(s->tdata);
	gsize len = 0;
	if (!path || !g_file_get_contents(path, &text, &len, NULL)) {
		respond_text(msg, SOUP_STATUS_NOT_FOUND, "no report yet: it is written when the tournament ends");
		return;
	}
	respond(msg, SOUP_STATUS_OK, "text/html; charset=utf-8", text, len);
}

/* Whether a Host header (HOST or HOST:PORT) names this server. */
static gboolean host_ok(Server *s, const char *host)
{
	for (guint i = 0; i < s->hosts->len; i++)
		if (g_ascii_strcasecmp(host, g_ptr_array_index(s->hosts, i)) == 0)
			return TRUE;
	if (!s->any_ip)
		return FALSE;
	/* an IP address is not a name a rebinding page can own */
	const char *colon = strrchr(host, ':');
	guint64 port;
	if (!colon || !g_ascii_string_to_unsigned(colon + 1, 10, 0, 65535, &port, NULL) || port != s->port)
		return FALSE;
	g_autofree char *ip = g_strndup(host, (gsize)(colon - host));
	gsize n = strlen(ip);
	if (n >= 2 && ip[0] == '[' && ip[n - 1] == ']') {
		memmove(ip, ip + 1, n - 2);
		ip[n - 2] = '\0';
	} else if (strchr(ip, ':')) {
		return FALSE;	/* an IPv6 address is written in brackets */
	}
	g_autoptr(GInetAddress) a = g_inet_address_new_from_string(ip);
	return a != NULL;
}

/* A request a browser sent from another site's page carries that site
 * as its Origin: such a page must not start games here (its bots run on
 * this machine) nor take a seat. No Origin (curl, a test client) is fine;
 * an Origin must name this server as a Host would. */
static gboolean same_origin(Server *s, SoupServerMessage *msg)
{
	SoupMessageHeaders *h = soup_server_message_get_request_headers(msg);
	const char *origin = soup_message_headers_get_one(h, "Origin");

	if (!origin)
		return TRUE;
	const char *rest = g_str_has_prefix(origin, "http://") ? origin + 7
			   : g_str_has_prefix(origin, "https://") ? origin + 8 : NULL;
	return rest && !strchr(rest, '/') && host_ok(s, rest);
}

static void handle(SoupServer *ss, SoupServerMessage *msg, const char *path, GHashTable *query, gpointer data)
{
	Server *s = data;
	const char *method = soup_server_message_get_method(msg);
	gboolean get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	g_auto(GStrv) w = g_strsplit(path[0] == '/' ? path + 1 : path, "/", 5);
	guint n = g_strv_length(w);

	(void)ss;
	if (s->cfg.accounts && serve_accounts_handle(s->cfg.accounts, msg, path))
		return;
	if (s->cfg.ladder && get && (n == 0 || (n == 1 && !w[0][0]) || (n == 1 && strcmp(w[0], "ladder") == 0))) {
		soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Location", "/ladder/");
		respond_text(msg, SOUP_STATUS_SEE_OTHER, "/ladder/");
	} else if (s->cfg.ladder && get && n >= 2 && strcmp(w[0], "ladder") == 0) {
		g_autofree char *body = NULL;
		guint status = serve_ladder_respond(s->cfg.ladder, strchr(path + 1, '/') + 1, s->games, &body);
		if (status == SOUP_STATUS_OK)
			respond(msg, status, "text/html; charset=utf-8", body, strlen(body));
		else
			respond_text(msg, status, body);
	} else if ((n == 0 || (n == 1 && !w[0][0])) && get) {
		start_page(s, msg);
	} else if (n <= 2 && strcmp(w[0], "rules") == 0 && get) {
		rules_respond(msg, n == 2 ? w[1] : "");
	} else if (n == 2 && strcmp(w[0], "assets") == 0 && get) {
		gsize len = 0;
		const char *viewer = html_asset(w[1], &len);
		if (viewer) {
			respond(msg, SOUP_STATUS_OK, g_str_has_suffix(w[1], ".css") ? CSS : JS, viewer, len);
			return;
		}
		for (gsize i = 0; i < G_N_ELEMENTS(assets); i++)
			if (strcmp(w[1], assets[i].name) == 0) {
				respond(msg, SOUP_STATUS_OK, assets[i].type, (const char *)assets[i].data, *assets[i].len);
				return;
			}
		respond_text(msg, SOUP_STATUS_NOT_FOUND, "no such file");
	} else if (n == 2 && strcmp(w[0], "api") == 0 && strcmp(w[1], "config") == 0 && get) {
		respond_json(msg, config_json(s));
	} else if (n == 2 && strcmp(w[0], "api") == 0 && strcmp(w[1], "games") == 0 && get) {
		respond_json(msg, games_json(s->games));
	} else if (n == 2 && strcmp(w[0], "api") == 0 && strcmp(w[1], "stats") == 0 && get) {
		stats(s, msg);
	} else if (n == 1 && strcmp(w[0], "favicon.ico") == 0 && get) {
		respond(msg, SOUP_STATUS_NO_CONTENT, "image/x-icon", "", 0);	/* none: not an error in a browser */
	} else if (n == 1 && strcmp(w[0], "standings.json") == 0 && get) {
		tournament_file(s, msg, FALSE);
	} else if (n == 1 && strcmp(w[0], "report") == 0 && get) {
		tournament_file(s, msg, TRUE);
	} else if (n == 1 && strcmp(w[0], "games") == 0 && strcmp(method, "POST") == 0 && !s->cfg.tournament &&
		   !s->cfg.ladder) {
		if (same_origin(s, msg))
			new_game(s, msg);
		else
			respond_text(msg, SOUP_STATUS_FORBIDDEN, "a game is started from this server's own start page");
	} else if (n >= 2 && n <= 3 && strcmp(w[0], "games") == 0 && get) {
		ServeGame *g = games_find(s->games, w[1]);
		const char *what = n == 3 ? w[2] : "";
		int seat = -1;
		if (!g) {
			respond_text(msg, SOUP_STATUS_NOT_FOUND, "no such game");
		} else if (!what[0] && game_earlier(g) && game_readable(g)) {
			/* a game of an earlier run has no live feed: its replay */
			g_autofree char *where = g_strdup_printf("/games/%s/replay", game_id(g));
			soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Location", where);
			respond_text(msg, SOUP_STATUS_SEE_OTHER, where);
		} else if (!what[0]) {
			static const char *const scripts[] = {"common.js", "boards.js", "live.js", "watch.js", NULL};
			g_autofree char *d = game_page_data(g, -1, NULL);
			respond_page(msg, "tetrarena: watch", d, scripts);
		} else if (strcmp(what, "events") == 0) {
			spectate(s, msg, g, query);
		} else if (strcmp(what, "play") == 0 && query && parse_seat(g_hash_table_lookup(query, "seat"), &seat)) {
			static const char *const scripts[] = {"common.js", "boards.js", "live.js", "play.js", "play-kit.js",
							      "play-link.js", "play-tetroll.js", "play-rush.js",
							      "play-matrix.js", NULL};
			g_autofree char *d = game_page_data(g, seat, g_hash_table_lookup(query, "token"));
			respond_page(msg, "tetrarena: play", d, scripts);
		} else if (strcmp(what, "replay") == 0) {
			replay_page(msg, g);
		} else if (strcmp(what, "log") == 0) {
			log_file(msg, g);
		} else if (strcmp(what, "review") == 0 || strcmp(what, "hint") == 0) {
			(what[0] == 'r' ? coach_review : coach_hint)(s->coach, msg, g, query);
		} else {
			respond_text(msg, SOUP_STATUS_NOT_FOUND, "no such page");
		}
	} else if (!get && strcmp(method, "POST") != 0) {
		respond_text(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "method not allowed");
	} else {
		respond_text(msg, SOUP_STATUS_NOT_FOUND, "no such page");
	}
}

/* When a request's headers are in, before its body is read: refuse a
 * Host that is not this server (DNS rebinding), a body too long or of
 * unknown length, at once (conns_refuse: the body is never read). */
static void early(SoupServerMessage *msg, void *data)
{
	Server *s = data;
	SoupMessageHeaders *h = soup_server_message_get_request_headers(msg);
	const char *host = soup_message_headers_get_one(h, "Host");
	goffset len = soup_message_headers_get_content_length(h);

	if (soup_server_message_get_status(msg) != 0)
		return;		/* libsoup refused it already */
	if (host && !host_ok(s, host))
		conns_refuse(s->conns, msg, SOUP_STATUS_MISDIRECTED_REQUEST,
			     "this server is not reached by that name (its Host): see docs/serve.md, --public=NAME");
	else if (soup_message_headers_get_encoding(h) == SOUP_ENCODING_CHUNKED)
		conns_refuse(s->conns, msg, SOUP_STATUS_LENGTH_REQUIRED, "a request body needs a Content-Length");
	else if (len > serve_accounts_body_max(s->cfg.accounts, g_uri_get_path(soup_server_message_get_uri(msg)), SERVER_BODY_MAX))
		conns_refuse(s->conns, msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "the request body is too long");
}

static void websocket(SoupServer *ss, SoupServerMessage *msg, const char *path, SoupWebsocketConnection *ws,
		      gpointer data)
{
	Server *s = data;
	GUri *uri = soup_server_message_get_uri(msg);
	const char *q = g_uri_get_query(uri);
	g_autoptr(GHashTable) query = q ? soup_form_decode(q) : NULL;
	ServeGame *g = query ? games_find(s->games, g_hash_table_lookup(query, "game")) : NULL;
	int seat = -1;

	(void)ss, (void)path;
	conns_websocket(s->conns, msg);	/* a person may think for long */
	if (!same_origin(s, msg))
		soup_websocket_connection_close(ws, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION,
						"a seat is taken from this server's own play page");
	else if (!g || !parse_seat(g_hash_table_lookup(query, "seat"), &seat) ||
	    !games_attach(s->games, g, seat, g_hash_table_lookup(query, "token"), ws))
		soup_websocket_connection_close(ws, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION,
						"no such seat, a wrong token, or the seat is over");
}

/* ---- the server ----------------------------------------------------------- */

/* Whether a --public name has its port: NAME:PORT, [IPV6]:PORT. */
static gboolean has_port(const char *n)
{
	const char *c = strrchr(n, ':');

	if (!c)
		return FALSE;
	return n[0] == '[' ? c > n && c[-1] == ']' : TRUE;
}

Server *server_new(const ServerConfig *cfg, GError **error)
{
	g_autofree char *host = NULL;
	const char *colon = strrchr(cfg->listen, ':');
	guint64 port;

	if (!colon || colon == cfg->listen ||
	    !g_ascii_string_to_unsigned(colon + 1, 10, 0, 65535, &port, NULL)) {
		g_set_error(error, SERVER_ERROR, SERVER_ERROR_ADDRESS, "--listen %s: want HOST:PORT (127.0.0.1:8080)",
			    cfg->listen);
		return NULL;
	}
	host = g_strndup(cfg->listen, (gsize)(colon - cfg->listen));
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	g_autoptr(GInetAddress) ip = g_inet_address_new_from_string(host);
	if (!ip) {
		g_set_error(error, SERVER_ERROR, SERVER_ERROR_ADDRESS, "--listen %s: %s is not an IP address",
			    cfg->listen, host);
		return NULL;
	}
	gboolean loopback = g_inet_address_get_is_loopback(ip);
	if (!loopback && !cfg->public_ok) {
		g_set_error(error, SERVER_ERROR, SERVER_ERROR_ADDRESS,
			    "--listen %s is not a loopback address: anyone who can reach it could start games "
			    "(bots run on this machine) and watch them; add --public to mean it", cfg->listen);
		return NULL;
	}
	for (const char *const *n = cfg->names; n && *n; n++)
		if (!**n || strlen(*n) > 255 || strspn(*n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") !=
							  strlen(*n)) {
			g_set_error(error, SERVER_ERROR, SERVER_ERROR_ADDRESS,
				    "--public=%s: want a host name (or NAME:PORT) the server is reached by", *n);
			return NULL;
		}
	Server *s = g_new0(Server, 1);
	s->cfg = *cfg;
	s->loopback = loopback;
	s->soup = soup_server_new("server-header", "tetrarena", NULL);
	s->games = games_new(cfg->dir, cfg->opponents, cfg->sandbox);
	s->coach = coach_new(cfg->sandbox, !cfg->tournament && !cfg->ladder);
	s->hosts = g_ptr_array_new_with_free_func(g_free);
	soup_server_add_handler(s->soup, NULL, handle, s, NULL);
	soup_server_add_websocket_handler(s->soup, "/ws", NULL, NULL, websocket, s, NULL);
	/* our own socket, and our own accepting (conns.h): a listen backlog
	 * for a crowd of spectators arriving at once (GLib's default is 10;
	 * past it connections wait seconds), caps and timeouts */
	g_autoptr(GSocketAddress) addr = g_inet_socket_address_new(ip, (guint16)port);
	g_autoptr(GSocket) sock = g_socket_new(g_inet_address_get_family(ip), G_SOCKET_TYPE_STREAM,
					       G_SOCKET_PROTOCOL_TCP, error);
	if (sock) {
		g_socket_set_listen_backlog(sock, SERVER_LISTEN_BACKLOG);
		g_socket_set_option(sock, SOL_SOCKET, SO_REUSEADDR, 1, NULL);
	}
	g_autoptr(GSocketAddress) bound = NULL;
	if (!sock || !g_socket_bind(sock, addr, TRUE, error) || !g_socket_listen(sock, error) ||
	    !(bound = g_socket_get_local_address(sock, error))) {
		if (error && *error)
			g_prefix_error(error, "%s: ", cfg->listen);
		server_free(s);
		return NULL;
	}
	s->port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
	g_autofree char *ips = g_inet_address_to_string(ip);
	gboolean v6 = g_inet_address_get_family(ip) == G_SOCKET_FAMILY_IPV6;
	g_autofree char *hostport = v6 ? g_strdup_printf("[%s]:%u", ips, s->port) : g_strdup_printf("%s:%u", ips, s->port);
	s->url = g_strdup_printf("http://%s/", hostport);
	s->any_ip = g_inet_address_get_is_any(ip);
	const char *const loop[] = {"127.0.0.1", "localhost", "[::1]", NULL};
	for (int i = 0; loop[i]; i++) {
		g_ptr_array_add(s->hosts, g_strdup_printf("%s:%u", loop[i], s->port));
		if (s->port == 80)
			g_ptr_array_add(s->hosts, g_strdup(loop[i]));
	}
	g_ptr_array_add(s->hosts, g_strdup(hostport));
	for (const char *const *n = cfg->names; n && *n; n++) {
		g_ptr_array_add(s->hosts, g_strdup(*n));
		if (!has_port(*n))
			g_ptr_array_add(s->hosts, g_strdup_printf("%s:%u", *n, s->port));
	}
	s->conns = conns_new(s->soup, sock, &cfg->conns, early, s);
	return s;
}

void server_free(Server *s)
{
	if (!s)
		return;
	soup_server_disconnect(s->soup);
	conns_free(s->conns);
	coach_free(s->coach);
	g_object_unref(s->soup);
	games_free(s->games);
	if (s->hosts)
		g_ptr_array_free(s->hosts, TRUE);
	g_free(s->url);
	g_free(s);
}

char *server_url(Server *s)
{
	return g_strdup(s->url);
}

gboolean server_loopback(Server *s)
{
	return s->loopback;
}

ServeGames *server_games(Server *s)
{
	return s->games;
}

void server_set_tournament(Server *s, ServerStandings standings, ServerStandings report_path, void *data)
{
	s->standings = standings;
	s->report_path = report_path;
	s->tdata = data;
}
