/*
 * pages: the ladder's web pages, as HTML strings (for `referee serve
 * --ladder DIR`) and as static files (`ladder pages DIR [OUT]`).
 *
 * Every page is one self-contained document in the style of the replay
 * and report pages (referee/html.h's html_static_page()), with no script
 * and no network. Links between them are relative, so a server serves
 * them from one directory:
 *
 *   index.html           the leaderboard: rank, entry, rating, 95%
 *                        interval, games, last played, version, status
 *   bot-ID.html          an entry's page: rating over time (an SVG of its
 *                        history), head-to-head against every opponent,
 *                        its recent games with their replays, its faults
 *                        with their log lines
 *   rejected.html        the rejected submissions and their reasons
 *   games/NNNNNN.html    a game's replay (referee view --html's page)
 *
 * Every text a bot or its author provided (names, commands, reasons,
 * log lines) is escaped. Each function returns a newly allocated page, or
 * NULL with error when the database cannot be read.
 */
#ifndef TETRARENA_LADDER_PAGES_H
#define TETRARENA_LADDER_PAGES_H

#include <glib.h>

#include "ladder/db.h"

/* Recent games listed on an entry's page, and faults shown. */
#define LADDER_PAGES_RECENT 30
#define LADDER_PAGES_FAULTS 20

char *ladder_page_leaderboard(LadderDb *d, GError **error);
/* The same with `extra` (HTML, or NULL) after the table: what a server
 * adds, such as its games in progress. */
char *ladder_page_leaderboard_with(LadderDb *d, const char *extra, GError **error);
/* NULL with error also when there is no entry `id`. */
char *ladder_page_bot(LadderDb *d, gint64 id, GError **error);
char *ladder_page_rejected(LadderDb *d, GError **error);

/* The replay page of game `id` (from its log). NULL with error. */
char *ladder_page_replay(LadderDb *d, gint64 id, GError **error);

/*
 * Write every page into `out` (created): the three kinds above and each
 * finished game's replay (kept when newer than its log). OUT: *count,
 * pages written. FALSE with error.
 */
gboolean ladder_pages_write(LadderDb *d, const char *out, int *count, GError **error);

#endif
