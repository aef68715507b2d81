/*
 * ladder (server): a ladder's pages served live. See ladder.h.
 */
#include "server/ladder.h"

#include <string.h>

#include <libsoup/soup.h>

#include "ladder/db.h"
#include "ladder/ladder.h"
#include "ladder/pages.h"

G_DEFINE_QUARK(tetrarena-serve-ladder-error-quark, serve_ladder_error)

/* Digits between `prefix` and `suffix` (the whole of `word`): *id. */
static gboolean number_in(const char *word, const char *prefix, const char *suffix, gint64 *id)
{
	gsize lp = strlen(prefix), ls = strlen(suffix), lw = strlen(word);
	guint64 v;

	if (lw <= lp + ls || lw - lp - ls > 18 || strncmp(word, prefix, lp) != 0 || strcmp(word + lw - ls, suffix) != 0)
		return FALSE;
	g_autofree char *digits = g_strndup(word + lp, lw - lp - ls);
	for (const char *c = digits; *c; c++)
		if (!g_ascii_isdigit(*c))
			return FALSE;
	if (!g_ascii_string_to_unsigned(digits, 10, 0, G_MAXINT64, &v, NULL))
		return FALSE;
	*id = (gint64)v;
	return TRUE;
}

gboolean serve_ladder_parse(const char *path, ServeLadderPage *out, GError **error)
{
	const char *slash = strchr(path, '/');

	out->id = 0;
	if (path[0] == '\0' || strcmp(path, "index.html") == 0)
		out->kind = SERVE_LADDER_BOARD;
	else if (strcmp(path, "rejected.html") == 0)
		out->kind = SERVE_LADDER_REJECTED;
	else if (!slash && number_in(path, "bot-", ".html", &out->id))
		out->kind = SERVE_LADDER_BOT;
	else if (slash && slash - path == 5 && strncmp(path, "games", 5) == 0 && !strchr(slash + 1, '/') &&
		 number_in(slash + 1, "", ".html", &out->id))
		out->kind = SERVE_LADDER_REPLAY;
	else {
		g_autofree char *valid = g_utf8_make_valid(path, (gssize)MIN(strlen(path), 200));
		g_set_error(error, SERVE_LADDER_ERROR, SERVE_LADDER_ERROR_PATH,
			    "no such ladder page: %s (the pages are /ladder/, bot-ID.html, rejected.html and "
			    "games/NNNNNN.html)", valid);
		return FALSE;
	}
	return TRUE;
}

static void live_item(ServeGame *g, void *data)
{
	GString *s = data;

	if (game_over(g))
		return;
	g_autofree char *valid = g_utf8_make_valid(game_title(g), -1);
	g_autofree char *title = g_markup_escape_text(valid, -1);
	g_string_append_printf(s, "<li><a href=\"/games/%s\">%s</a> (%" G_GINT64_FORMAT " steps so far)</li>\n",
			       game_id(g), title, live_game_steps(game_live(g)));
}

/* The games in progress, as a section of the leaderboard. */
static char *live_section(ServeGames *games)
{
	GString *s = g_string_new("<h2>Games in progress</h2>\n<ul id=\"live\">\n");
	gsize empty = s->len;

	if (games)
		games_foreach(games, live_item, s);
	if (s->len == empty)
		g_string_append(s, "<li class=\"muted\">none now (`referee ladder run DIR --serve ADDR` shows the "
				   "games as they are played)</li>\n");
	g_string_append(s, "</ul>\n");
	return g_string_free(s, FALSE);
}

guint serve_ladder_respond(const char *dir, const char *path, ServeGames *games, char **body)
{
	g_autoptr(GError) err = NULL;
	ServeLadderPage p;

	if (!serve_ladder_parse(path, &p, &err)) {
		*body = g_strdup(err->message);
		return SOUP_STATUS_NOT_FOUND;
	}
	g_autoptr(LadderDb) d = ladder_db_open(dir, FALSE, &err);
	if (!d) {
		*body = g_strdup_printf("the ladder cannot be read: %s", err->message);
		return SOUP_STATUS_SERVICE_UNAVAILABLE;
	}
	g_autofree char *live = NULL;
	switch (p.kind) {
	case SERVE_LADDER_BOARD:
		live = live_section(games);
		*body = ladder_page_leaderboard_with(d, live, &err);
		break;
	case SERVE_LADDER_BOT:
		*body = ladder_page_bot(d, p.id, &err);
		break;
	case SERVE_LADDER_REJECTED:
		*body = ladder_page_rejected(d, &err);
		break;
	case SERVE_LADDER_REPLAY:
		*body = ladder_page_replay(d, p.id, &err);
		break;
	}
	if (*body)
		return SOUP_STATUS_OK;
	gboolean missing = g_error_matches(err, LADDER_ERROR, LADDER_ERROR_NAME);
	*body = missing ? g_strdup_printf("%s in this ladder", err->message)
			: g_strdup_printf("the ladder cannot be read: %s", err->message);
	return missing ? SOUP_STATUS_NOT_FOUND : SOUP_STATUS_INTERNAL_SERVER_ERROR;
}
