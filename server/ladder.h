/*
 * ladder (server): a ladder's pages served live (`referee serve --ladder
 * DIR`, `referee ladder run DIR --serve ADDR`), under /ladder/:
 *
 *   /ladder/                    the leaderboard (index.html too), with
 *                               the games in progress the server shows
 *   /ladder/bot-ID.html         an entry's page
 *   /ladder/rejected.html       the rejected submissions
 *   /ladder/games/NNNNNN.html   a finished game's replay
 *
 * The pages are ladder/pages.h's, built for each request from the
 * database opened read-only (WAL: `ladder run` goes on writing in another
 * process), so every request sees the current state. A path names a page
 * and a number, never a file: anything else (`..`, an id that is not
 * digits) is a 404, and so is an id the ladder does not hold.
 */
#ifndef TETRARENA_SERVER_LADDER_H
#define TETRARENA_SERVER_LADDER_H

#include <glib.h>

#include "games.h"

#define SERVE_LADDER_ERROR (serve_ladder_error_quark())
GQuark serve_ladder_error_quark(void);

typedef enum {
	SERVE_LADDER_ERROR_PATH,	/* no such page */
} ServeLadderError;

typedef enum {
	SERVE_LADDER_BOARD,
	SERVE_LADDER_BOT,
	SERVE_LADDER_REJECTED,
	SERVE_LADDER_REPLAY,
} ServeLadderKind;

typedef struct {
	ServeLadderKind kind;
	gint64 id;		/* the entry's or the game's */
} ServeLadderPage;

/* The page a path names, the path being what follows "/ladder/" ("",
 * "bot-3.html", "games/000012.html"). FALSE with error (PATH). */
gboolean serve_ladder_parse(const char *path, ServeLadderPage *out, GError **error);

/* Answer a request for `path` (as serve_ladder_parse's) on the ladder in
 * `dir`, with `games` the server's registry (its games in progress are
 * listed on the leaderboard; may be NULL). Returns the HTTP status and
 * sets *body: the page (HTML) for 200, else a plain message saying what
 * is wrong. */
guint serve_ladder_respond(const char *dir, const char *path, ServeGames *games, char **body);

#endif
