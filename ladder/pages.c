/*
 * pages: the ladder's pages. See pages.h.
 */
#include "pages.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "ladder/ladder.h"
#include "ladder/standings.h"
#include "ladder/events.h"
#include "referee/gamelog.h"
#include "referee/html.h"
#include "referee/replay.h"

/* Append text escaped for HTML. */
static void esc(GString *s, const char *text)
{
	g_autofree char *valid = g_utf8_make_valid(text ? text : "", -1);
	g_autofree char *e = g_markup_escape_text(valid, -1);

	g_string_append(s, e);
}

static void header(GString *s, LadderDb *d, const char *title)
{
	g_autofree char *variant = ladder_db_meta(d, "variant");
	g_autofree char *players = ladder_db_meta(d, "players");
	g_autofree char *seed = ladder_db_meta(d, "seed");

	g_string_append(s, "<h1>");
	esc(s, title);
	g_string_append(s, "</h1>\n<p id=\"header\" class=\"muted\">");
	esc(s, variant);
	g_string_append(s, ", ");
	esc(s, players);
	g_string_append(s, " players, master seed ");
	esc(s, seed);
	g_string_append(s, " &middot; <a href=\"index.html\">leaderboard</a> &middot; "
			   "<a href=\"rejected.html\">rejected submissions</a></p>\n");
}

static char *finish(GString *body, const char *title)
{
	char *page = html_static_page(title, body->str);

	g_string_free(body, TRUE);
	return page;
}

char *ladder_page_leaderboard(LadderDb *d, GError **error)
{
	return ladder_page_leaderboard_with(d, NULL, error);
}

char *ladder_page_leaderboard_with(LadderDb *d, const char *extra, GError **error)
{
	g_autoptr(LadderTableView) t = ladder_table_view_cached(d, error);

	if (!t)
		return NULL;
	GString *s = g_string_new(NULL);
	header(s, d, "tetrarena ladder");
	g_string_append_printf(s, "<p><span id=\"gamecount\">%" G_GINT64_FORMAT "</span> games; ratings are "
			       "one Bradley-Terry / Plackett-Luce fit over all of them, with 95%% intervals.</p>\n",
			       t->games);
	g_string_append(s, "<table id=\"leaderboard\">\n<tr><th>#</th><th class=\"l\">entry</th><th>rating</th>"
			   "<th>95% interval</th><th>games</th><th class=\"l\">last played</th><th>version</th>"
			   "<th class=\"l\">status</th></tr>\n");
	for (guint i = 0; i < t->rows->len; i++) {
		const LadderRow *r = g_ptr_array_index(t->rows, i);
		g_string_append_printf(s, "<tr data-bot=\"%" G_GINT64_FORMAT "\"><td>%u</td><td class=\"l\">"
				       "<a href=\"bot-%" G_GINT64_FORMAT ".html\">", r->id, i + 1, r->id);
		esc(s, r->name);
		g_string_append(s, "</a></td>");
		if (r->games)
			g_string_append_printf(s, "<td class=\"elo\">%+.0f</td><td>[%+.0f, %+.0f]</td>", r->elo, r->lo,
					       r->hi);
		else
			g_string_append(s, "<td class=\"elo\">-</td><td>-</td>");
		g_string_append_printf(s, "<td class=\"games\">%d</td><td class=\"l\">", r->games);
		esc(s, r->last ? r->last : "-");
		g_string_append_printf(s, "</td><td>%d</td><td class=\"l\">%s</td></tr>\n", r->version, r->status);
	}
	g_string_append(s, "</table>\n");
	if (extra)
		g_string_append(s, extra);
	return finish(s, "tetrarena ladder");
}

/* ---- a bot's page -------------------------------------------------------------- */

/* The rating history as an SVG line with its interval as a band. */
static void history_svg(GString *s, GArray *games, GArray *elo, GArray *lo, GArray *hi)
{
	const int w = 640, h = 220, m = 40;

	if (games->len == 0) {
		g_string_append(s, "<p id=\"history\" class=\"muted\">no rating history yet (a point every K games)</p>\n");
		return;
	}
	double gmax = 1, ymin = 1e9, ymax = -1e9;
	for (guint i = 0; i < games->len; i++) {
		gmax = MAX(gmax, g_array_index(games, double, i));
		ymin = MIN(ymin, g_array_index(lo, double, i));
		ymax = MAX(ymax, g_array_index(hi, double, i));
	}
	if (ymax - ymin < 100) {
		ymin -= 50;
		ymax += 50;
	}
#define X(g) (m + (g) / gmax * (w - 2 * m))
#define Y(e) (h - m - ((e) - ymin) / (ymax - ymin) * (h - 2 * m))
	g_string_append_printf(s, "<svg id=\"history\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", w, h, w, h);
	g_string_append(s, "<polygon fill=\"#cde\" points=\"");
	for (guint i = 0; i < games->len; i++)
		g_string_append_printf(s, "%.1f,%.1f ", X(g_array_index(games, double, i)), Y(g_array_index(hi, double, i)));
	for (guint i = games->len; i-- > 0;)
		g_string_append_printf(s, "%.1f,%.1f ", X(g_array_index(games, double, i)), Y(g_array_index(lo, double, i)));
	g_string_append(s, "\"/>\n<polyline fill=\"none\" stroke=\"#036\" stroke-width=\"2\" points=\"");
	for (guint i = 0; i < games->len; i++)
		g_string_append_printf(s, "%.1f,%.1f ", X(g_array_index(games, double, i)), Y(g_array_index(elo, double, i)));
	g_string_append(s, "\"/>\n");
	for (guint i = 0; i < games->len; i++)
		g_string_append_printf(s, "<circle class=\"point\" r=\"3\" cx=\"%.1f\" cy=\"%.1f\"><title>%d games: %+.0f</title>"
				       "</circle>\n", X(g_array_index(games, double, i)),
				       Y(g_array_index(elo, double, i)), (int)g_array_index(games, double, i),
				       g_array_index(elo, double, i));
	g_string_append_printf(s, "<text x=\"%d\" y=\"%d\">%+.0f</text><text x=\"%d\" y=\"%d\">%+.0f</text>"
			       "<text x=\"%d\" y=\"%d\">games: %.0f</text>\n</svg>\n", 2, m, ymax, 2, h - m, ymin,
			       w - 120, h - 10, gmax);
#undef X
#undef Y
}

typedef struct {
	int games, wins, draws, losses;
} HeadToHead;

char *ladder_page_bot(LadderDb *d, gint64 id, GError **error)
{
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, error);
	if (!bots)
		return NULL;
	const LadderBot *me = ladder_bots_find(bots, id);
	if (!me) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME, "no entry %" G_GINT64_FORMAT, id);
		return NULL;
	}
	g_autoptr(LadderTableView) t = ladder_table_view_cached(d, error);
	if (!t)
		return NULL;
	g_autofree char *label = ladder_bot_label(me);
	g_autofree char *title = g_strdup_printf("%s: tetrarena ladder", label);
	GString *s = g_string_new(NULL);
	header(s, d, label);
	g_string_append(s, "<table id=\"about\">\n<tr><th class=\"l\">version</th><td class=\"l\">");
	g_string_append_printf(s, "%d (%s)</td></tr>\n<tr><th class=\"l\">command</th><td class=\"l\"><code>",
			       me->version, ladder_bot_status_name(me->status));
	esc(s, me->command);
	g_string_append(s, "</code></td></tr>\n<tr><th class=\"l\">program SHA-256</th><td class=\"l hash\">");
	esc(s, me->sha256);
	g_string_append(s, "</td></tr>\n<tr><th class=\"l\">added</th><td class=\"l\">");
	esc(s, me->added);
	g_string_append(s, "</td></tr>\n");
	if (me->status == LADDER_BOT_SUSPENDED) {
		g_string_append(s, "<tr><th class=\"l\">suspended</th><td class=\"l\" id=\"suspended\">");
		esc(s, me->suspended ? me->suspended : "");
		g_string_append(s, ": ");
		esc(s, me->suspended_why ? me->suspended_why : "");
		g_string_append(s, "</td></tr>\n");
	}
	if (me->author) {
		g_string_append(s, "<tr><th class=\"l\">author</th><td class=\"l\" id=\"author\">");
		esc(s, me->author);
		g_string_append(s, "</td></tr>\n");
	}
	{
		g_autofree char *feed = ladder_events_feed_file(ladder_event_author(me->author, me->name));
		g_string_append_printf(s, "<tr><th class=\"l\">events</th><td class=\"l\"><a id=\"feed\" "
				       "href=\"feeds/%s\">the author's Atom feed</a></td></tr>\n", feed);
	}
	if (me->description) {
		g_string_append(s, "<tr><th class=\"l\">description</th><td class=\"l\">");
		esc(s, me->description);
		g_string_append(s, "</td></tr>\n");
	}
	for (guint i = 0; i < t->rows->len; i++) {
		const LadderRow *r = g_ptr_array_index(t->rows, i);
		if (r->id != id)
			continue;
		g_string_append_printf(s, "<tr><th class=\"l\">rating</th><td class=\"l\" id=\"rating\">%+.0f [%+.0f, %+.0f], "
				       "rank %u of %u, %d games</td></tr>\n", r->elo, r->lo, r->hi, i + 1, t->rows->len,
				       r->games);
	}
	/* other versions of the name */
	for (guint i = 0; i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		if (b->id == id || strcmp(b->name, me->name) != 0)
			continue;
		g_string_append_printf(s, "<tr><th class=\"l\">other version</th><td class=\"l\"><a href=\"bot-%"
				       G_GINT64_FORMAT ".html\">version %d</a> (%s)</td></tr>\n",
				       b->id, b->version, ladder_bot_status_name(b->status));
	}
	g_string_append(s, "</table>\n<h2>Rating over time</h2>\n");

	/* history */
	g_autoptr(GArray) hg = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) he = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) hl = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) hh = g_array_new(FALSE, FALSE, sizeof(double));
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT games, elo, lo, hi FROM history WHERE bot = ? ORDER BY games", error);
	if (!st) {
		g_string_free(s, TRUE);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		double v[4];
		for (int k = 0; k < 4; k++)
			v[k] = sqlite3_column_double(st, k);
		g_array_append_val(hg, v[0]);
		g_array_append_val(he, v[1]);
		g_array_append_val(hl, v[2]);
		g_array_append_val(hh, v[3]);
	}
	sqlite3_finalize(st);
	history_svg(s, hg, he, hl, hh);

	/* its games, newest first: head-to-head, recent, faults */
	st = ladder_db_prepare(d, "SELECT g.id, g.log, g.finished, me.seat, me.rank, me.score, me.faults, o.bot, o.rank "
			       "FROM seats me JOIN games g ON g.id = me.game JOIN seats o ON o.game = me.game "
			       "AND o.seat != me.seat WHERE me.bot = ? AND g.finished IS NOT NULL "
			       "ORDER BY g.id DESC, o.seat", error);
	if (!st) {
		g_string_free(s, TRUE);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	g_autoptr(GHashTable) h2h = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
	GString *recent = g_string_new(NULL), *faults = g_string_new(NULL);
	gint64 last_game = -1;
	int nrecent = 0, nfaults = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		gint64 game = sqlite3_column_int64(st, 0);
		const char *log = (const char *)sqlite3_column_text(st, 1);
		int seat = sqlite3_column_int(st, 3), rank = sqlite3_column_int(st, 4);
		gint64 opp = sqlite3_column_int64(st, 7);
		int orank = sqlite3_column_int(st, 8);
		HeadToHead *x = g_hash_table_lookup(h2h, &opp);
		if (!x) {
			gint64 *k = g_new(gint64, 1);
			*k = opp;
			x = g_new0(HeadToHead, 1);
			g_hash_table_insert(h2h, k, x);
		}
		x->games++;
		x->wins += rank < orank;
		x->draws += rank == orank;
		x->losses += rank > orank;
		const LadderBot *ob = ladder_bots_find(bots, opp);
		g_autofree char *olabel = ob ? ladder_bot_label(ob) : g_strdup("?");
		if (game != last_game) {
			if (last_game >= 0 && nrecent <= LADDER_PAGES_RECENT)
				g_string_append(recent, "</td></tr>\n");
			last_game = game;
			nrecent++;
			const char *f = (const char *)sqlite3_column_text(st, 6);
			if (nrecent <= LADDER_PAGES_RECENT) {
				g_string_append_printf(recent, "<tr><td><a href=\"games/%06" G_GINT64_FORMAT ".html\">%"
						       G_GINT64_FORMAT "</a></td><td class=\"l\">", game, game);
				esc(recent, (const char *)sqlite3_column_text(st, 2));
				g_string_append_printf(recent, "</td><td>%d</td><td>%d</td><td>%d</td><td class=\"l\">",
						       seat, rank, sqlite3_column_int(st, 5));
				esc(recent, f ? f : "-");
				g_string_append(recent, "</td><td class=\"l\">");
			}
			if (f && strcmp(f, "-") != 0 && nfaults < LADDER_PAGES_FAULTS && log) {
				g_autofree char *path = g_build_filename(d->dir, log, NULL);
				g_autoptr(GPtrArray) lines = ladder_log_faults(path, seat, 3);
				g_string_append_printf(faults, "<li><a href=\"games/%06" G_GINT64_FORMAT ".html\">game %"
						       G_GINT64_FORMAT "</a>, seat %d: ", game, game, seat);
				esc(faults, f);
				for (guint i = 0; i < lines->len; i++) {
					g_string_append(faults, "<pre>");
					esc(faults, g_ptr_array_index(lines, i));
					g_string_append(faults, "</pre>");
				}
				g_string_append(faults, "</li>\n");
				nfaults++;
			}
		}
		if (nrecent <= LADDER_PAGES_RECENT) {
			esc(recent, olabel);
			g_string_append_printf(recent, "#%d ", orank);
		}
	}
	sqlite3_finalize(st);
	if (last_game >= 0 && nrecent <= LADDER_PAGES_RECENT)
		g_string_append(recent, "</td></tr>\n");

	g_string_append(s, "<h2>Head to head</h2>\n<table id=\"h2h\">\n<tr><th class=\"l\">opponent</th><th>games</th>"
			   "<th>won</th><th>drawn</th><th>lost</th><th>score</th></tr>\n");
	for (guint i = 0; i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		HeadToHead *x = g_hash_table_lookup(h2h, &b->id);
		if (!x)
			continue;
		g_autofree char *bl = ladder_bot_label(b);
		g_string_append_printf(s, "<tr data-opponent=\"%" G_GINT64_FORMAT "\"><td class=\"l\"><a href=\"bot-%"
				       G_GINT64_FORMAT ".html\">", b->id, b->id);
		esc(s, bl);
		g_string_append_printf(s, "</a></td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%.0f%%</td></tr>\n",
				       x->games, x->wins, x->draws, x->losses,
				       100.0 * (x->wins + 0.5 * x->draws) / MAX(x->games, 1));
	}
	g_string_append(s, "</table>\n");
	g_string_append_printf(s, "<h2>Recent games</h2>\n<table id=\"recent\">\n<tr><th>game</th><th class=\"l\">"
			       "finished</th><th>seat</th><th>rank</th><th>score</th><th class=\"l\">faults</th>"
			       "<th class=\"l\">opponents (rank)</th></tr>\n%s</table>\n", recent->str);
	g_string_append_printf(s, "<h2>Faults</h2>\n%s%s%s\n", nfaults ? "<ul id=\"faults\">\n" : "",
			       nfaults ? faults->str : "<p id=\"faults\" class=\"muted\">none</p>",
			       nfaults ? "</ul>" : "");
	g_string_free(recent, TRUE);
	g_string_free(faults, TRUE);
	return finish(s, title);
}

char *ladder_page_rejected(LadderDb *d, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT name, command, added, reason FROM rejections ORDER BY id DESC",
					     error);
	if (!st)
		return NULL;
	GString *s = g_string_new(NULL);
	header(s, d, "Rejected submissions");
	g_string_append(s, "<p>A bot is admitted once it passes <code>referee check</code> and a validation game "
			   "against copies of itself; these did not.</p>\n<table id=\"rejected\">\n<tr>"
			   "<th class=\"l\">name</th><th class=\"l\">command</th><th class=\"l\">submitted</th>"
			   "<th class=\"l\">reason</th></tr>\n");
	while (sqlite3_step(st) == SQLITE_ROW) {
		g_string_append(s, "<tr><td class=\"l\">");
		esc(s, (const char *)sqlite3_column_text(st, 0));
		g_string_append(s, "</td><td class=\"l\"><code>");
		esc(s, (const char *)sqlite3_column_text(st, 1));
		g_string_append(s, "</code></td><td class=\"l\">");
		esc(s, (const char *)sqlite3_column_text(st, 2));
		g_string_append(s, "</td><td class=\"l reason\">");
		esc(s, (const char *)sqlite3_column_text(st, 3));
		g_string_append(s, "</td></tr>\n");
	}
	sqlite3_finalize(st);
	g_string_append(s, "</table>\n");
	return finish(s, "Rejected submissions: tetrarena ladder");
}

static char *game_log(LadderDb *d, gint64 id)
{
	sqlite3_stmt *st = NULL;
	char *log = NULL;

	if (sqlite3_prepare_v2(d->db, "SELECT log FROM games WHERE id = ? AND finished IS NOT NULL", -1, &st, NULL) !=
	    SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		log = g_build_filename(d->dir, (const char *)sqlite3_column_text(st, 0), NULL);
	sqlite3_finalize(st);
	return log;
}

static char *replay_of(const char *path, gint64 id, GError **error)
{
	g_autoptr(GameLog) log = gamelog_read(path, error);
	if (!log)
		return NULL;
	g_autofree char *json = replay_json(log, error);
	if (!json)
		return NULL;
	g_autofree char *title = g_strdup_printf("ladder game %" G_GINT64_FORMAT, id);
	return html_replay_page(title, json);
}

char *ladder_page_replay(LadderDb *d, gint64 id, GError **error)
{
	g_autofree char *path = game_log(d, id);

	if (!path) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME, "no finished game %" G_GINT64_FORMAT, id);
		return NULL;
	}
	return replay_of(path, id, error);
}

static gboolean write_page(const char *dir, const char *file, char *page, int *count, GError **error)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	gboolean ok = page && g_file_set_contents(path, page, -1, error);

	g_free(page);
	*count += ok;
	return ok;
}

/* OUT/feeds/: an Atom feed (ladder/events.h) for each author of an entry
 * or of an event. */
static gboolean write_feeds(LadderDb *d, const char *out, GPtrArray *bots, int *count, GError **error)
{
	g_autofree char *dir = g_build_filename(out, "feeds", NULL);
	g_autoptr(GHashTable) authors = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	if (g_mkdir_with_parents(dir, 0755) != 0)
		return ladder_db_file_error(errno, dir, error);
	for (guint i = 0; i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		g_hash_table_add(authors, g_strdup(ladder_event_author(b->author, b->name)));
	}
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT DISTINCT author FROM events", error);
	if (!st)
		return FALSE;
	while (sqlite3_step(st) == SQLITE_ROW)
		g_hash_table_add(authors, g_strdup((const char *)sqlite3_column_text(st, 0)));
	sqlite3_finalize(st);
	GHashTableIter it;
	gpointer key;
	g_hash_table_iter_init(&it, authors);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		g_autofree char *file = ladder_events_feed_file(key);
		if (!write_page(dir, file, ladder_events_atom(d, key, "../", error), count, error))
			return FALSE;
	}
	return TRUE;
}

gboolean ladder_pages_write(LadderDb *d, const char *out, int *count, GError **error)
{
	g_autofree char *games_dir = g_build_filename(out, "games", NULL);

	*count = 0;
	if (g_mkdir_with_parents(games_dir, 0755) != 0)
		return ladder_db_file_error(errno, games_dir, error);
	if (!write_page(out, "index.html", ladder_page_leaderboard(d, error), count, error) ||
	    !write_page(out, "rejected.html", ladder_page_rejected(d, error), count, error))
		return FALSE;
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, error);
	if (!bots)
		return FALSE;
	for (guint i = 0; i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		g_autofree char *file = g_strdup_printf("bot-%" G_GINT64_FORMAT ".html", b->id);
		if (!write_page(out, file, ladder_page_bot(d, b->id, error), count, error))
			return FALSE;
	}
	if (!write_feeds(d, out, bots, count, error))
		return FALSE;
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT id, log FROM games WHERE finished IS NOT NULL ORDER BY id", error);
	if (!st)
		return FALSE;
	gboolean ok = TRUE;
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		gint64 id = sqlite3_column_int64(st, 0);
		g_autofree char *log = g_build_filename(d->dir, (const char *)sqlite3_column_text(st, 1), NULL);
		g_autofree char *file = g_strdup_printf("%06" G_GINT64_FORMAT ".html", id);
		g_autofree char *page = g_build_filename(games_dir, file, NULL);
		struct stat sl, sp;
		if (stat(page, &sp) == 0 && stat(log, &sl) == 0 && sp.st_mtime > sl.st_mtime)
			continue;	/* written after the log: still its replay */
		ok = write_page(games_dir, file, replay_of(log, id, error), count, error);
	}
	sqlite3_finalize(st);
	return ok;
}
