/*
 * server: `referee serve`'s web server (libsoup-3 on the GLib main loop):
 * the start page, a person's play page and seat (a WebSocket speaking
 * protocol.md, server/seat.h), live games for spectators (Server-Sent
 * Events, server/sse.h), finished games' replays and logs, and for
 * `tournament --serve` the standings, for `serve --ladder` a ladder's
 * pages. docs/serve.md is the contract: URLs,
 * messages, events.
 *
 * Everything served comes from the binary (pages built here, scripts and
 * style embedded from referee/viewer/ and server/pages/) or from a game
 * the registry knows by id: no path from a request reaches the file
 * system. Request bodies are capped (SERVER_BODY_MAX), WebSocket messages
 * too (SEAT_MESSAGE_MAX), and so is each spectator's queue, and all of
 * them together (sse.h); connections are counted, capped and timed
 * (conns.h).
 *
 * DNS rebinding: a request's Host must be one this server is reached by
 * (127.0.0.1, localhost or [::1] with its port, the address it listens on,
 * the names of ServerConfig.names, and any IP address with its port when
 * it listens on every address); any other gets 421 before its body is
 * read. An Origin, when a request has one, must be http:// or https:// and
 * one of those too, for a new game and for a seat's WebSocket.
 */
#ifndef TETRARENA_SERVER_SERVER_H
#define TETRARENA_SERVER_SERVER_H

#include <glib.h>

#include "conns.h"
#include "games.h"
#include "sse.h"
#include "server/accounts.h"

#define SERVER_ERROR (server_error_quark())
GQuark server_error_quark(void);

typedef enum {
	SERVER_ERROR_ADDRESS,	/* --listen is not HOST:PORT, or not loopback without --public,
				 * or a --public name is not a host name */
	SERVER_ERROR_LISTEN,	/* the address cannot be listened on */
} ServerError;

/* The longest request body taken (bytes): a start form. */
#define SERVER_BODY_MAX 16384

typedef struct {
	const char *listen;	/* HOST:PORT (port 0: any free one) */
	gboolean public_ok;	/* may listen on a non-loopback address */
	const char *const *names;	/* NULL-terminated, or NULL: more names the
					 * server is reached by (a Host header's
					 * NAME or NAME:PORT), from --public=NAME */
	GPtrArray *opponents;	/* BotSpec*: the start page's opponents */
	const char *dir;	/* where games' logs go */
	SandboxMode sandbox;	/* for the opponents */
	SseLimits spectators;	/* zeros: the defaults (sse.h) */
	ConnsLimits conns;	/* zeros: the defaults (conns.h) */
	gboolean tournament;	/* serve a tournament: no start page, standings */
	const char *ladder;	/* serve this ladder's pages (server/ladder.h) at
				 * /ladder/, which / leads to; no start page */
	ServeAccounts *accounts;	/* with ladder: the authors' pages
					 * (server/accounts.h), or NULL */
} ServerConfig;

typedef struct Server Server;

/* Listen; NULL with error when the address is refused or taken. */
Server *server_new(const ServerConfig *cfg, GError **error);
void server_free(Server *s);

/* The base URL ("http://127.0.0.1:8080/"), newly allocated. */
char *server_url(Server *s);

/* Whether the address it listens on is loopback only. */
gboolean server_loopback(Server *s);

ServeGames *server_games(Server *s);

/* For a tournament: the standings as JSON (called for each request of
 * /standings.json; newly allocated, or NULL when none yet) and the
 * report's path once written (or NULL). */
typedef char *(*ServerStandings)(void *data);
void server_set_tournament(Server *s, ServerStandings standings, ServerStandings report_path, void *data);

#endif
