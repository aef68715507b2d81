/*
 * standings: the table as text and JSON. See standings.h.
 */
#include "standings.h"

#include <string.h>

#include "ladder/ladder.h"
#include "referee/json.h"

static void row_free(LadderRow *r)
{
	g_free(r->label);
	g_free(r->name);
	g_free(r->last);
	g_free(r->suspended);
	g_free(r);
}

void ladder_table_view_free(LadderTableView *t)
{
	if (!t)
		return;
	if (t->rows)
		g_ptr_array_unref(t->rows);
	g_free(t->variant);
	g_free(t->players);
	g_free(t->seed);
	g_free(t);
}

static gint by_rating(gconstpointer a, gconstpointer b)
{
	const LadderRow *x = *(LadderRow *const *)a, *y = *(LadderRow *const *)b;

	if ((x->games > 0) != (y->games > 0))
		return x->games > 0 ? -1 : 1;
	if (x->elo != y->elo)
		return x->elo > y->elo ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static LadderRatings *fit(LadderDb *d, gint64 below, GError **error)
{
	g_autofree char *seed = ladder_db_meta(d, "seed");
	guint64 master = seed ? g_ascii_strtoull(seed, NULL, 10) : 0;

	return ladder_ratings_compute(d, below, RATINGS_BOOTSTRAP, master, error);
}

gboolean ladder_standings_refresh(LadderDb *d, gint64 slack, GError **error)
{
	gint64 finished = ladder_finished_games(d), cached = -1;
	gboolean current = FALSE;
	g_autoptr(LadderRatings) old = ladder_ratings_cached(d, &cached, &current);

	if (old && cached == finished) {
		/* games scheduled since, none finished: the same fit */
		g_autofree char *key = current ? NULL : ladder_games_key(d);
		return current || ladder_db_set_meta(d, "ratings_key", key, error);
	}
	if (old && cached < finished && finished - cached <= slack)
		return TRUE;
	g_autoptr(LadderRatings) lr = fit(d, G_MAXINT64, error);
	return lr && ladder_ratings_store(d, lr, finished, error);
}

static LadderTableView *view(LadderDb *d, gint64 below, gboolean stale_ok, GError **error)
{
	g_autoptr(LadderTableView) t = g_new0(LadderTableView, 1);
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, error);
	g_autoptr(LadderRatings) lr = NULL;

	if (!bots)
		return NULL;
	if (below == G_MAXINT64) {
		gint64 cached = -1;
		gboolean current = FALSE;
		lr = ladder_ratings_cached(d, &cached, &current);
		if (lr && !current) {
			/* behind: a run refreshes it soon; else fit now */
			g_autofree char *writer = stale_ok ? ladder_db_writer(d->dir) : NULL;
			if (!writer)
				g_clear_pointer(&lr, ladder_ratings_free);
		}
	}
	if (!lr && !(lr = fit(d, below, error)))
		return NULL;
	t->variant = ladder_db_meta(d, "variant");
	t->players = ladder_db_meta(d, "players");
	t->seed = ladder_db_meta(d, "seed");
	t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
	t->games = lr->r->games;
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT COUNT(*) FROM games WHERE finished IS NULL", error);
	if (!st)
		return NULL;
	if (sqlite3_step(st) == SQLITE_ROW)
		t->unfinished = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (guint i = 0; i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		int k = ladder_ratings_index(lr, b->id);
		LadderRow *r = g_new0(LadderRow, 1);
		r->id = b->id;
		r->label = ladder_bot_label(b);
		r->name = g_strdup(b->name);
		r->version = b->version;
		r->status = ladder_bot_status_name(b->status);
		r->suspended = g_strdup(b->suspended_why);
		if (k >= 0) {
			r->elo = lr->r->elo[k];
			r->lo = lr->r->lo[k];
			r->hi = lr->r->hi[k];
			r->games = lr->games[k];
			r->last = g_strdup(lr->last[k]);
		}
		g_ptr_array_add(t->rows, r);
	}
	g_ptr_array_sort(t->rows, by_rating);
	return g_steal_pointer(&t);
}

LadderTableView *ladder_table_view(LadderDb *d, gint64 below, GError **error)
{
	return view(d, below, FALSE, error);
}

LadderTableView *ladder_table_view_cached(LadderDb *d, GError **error)
{
	return view(d, G_MAXINT64, TRUE, error);
}

char *ladder_standings_text(LadderDb *d, gint64 below, GError **error)
{
	g_autoptr(LadderTableView) t = ladder_table_view(d, below, error);

	if (!t)
		return NULL;
	GString *s = g_string_new(NULL);
	g_string_append_printf(s, "ladder %s: %s, %s players, master seed %s; %" G_GINT64_FORMAT " games",
			       d->dir, t->variant, t->players, t->seed, t->games);
	if (t->unfinished)
		g_string_append_printf(s, " (%" G_GINT64_FORMAT " unfinished)", t->unfinished);
	g_string_append(s, "\n  #  entry                     elo  95% interval   games  last played           status\n");
	for (guint i = 0; i < t->rows->len; i++) {
		const LadderRow *r = g_ptr_array_index(t->rows, i);
		if (r->games)
			g_string_append_printf(s, "%3u  %-22s %+6.0f  [%+5.0f, %+5.0f] %6d  %-20s  %s\n", i + 1,
					       r->label, r->elo, r->lo, r->hi, r->games, r->last ? r->last : "-",
					       r->status);
		else
			g_string_append_printf(s, "%3u  %-22s      -  (no games)      %6d  %-20s  %s\n", i + 1,
					       r->label, 0, "-", r->status);
	}
	return g_string_free(s, FALSE);
}

char *ladder_standings_json(LadderDb *d, gint64 below, GError **error)
{
	g_autoptr(LadderTableView) t = ladder_table_view(d, below, error);

	if (!t)
		return NULL;
	GString *s = g_string_new("{\"variant\":");
	json_string(s, t->variant);
	g_string_append(s, ",\"players\":");
	json_string(s, t->players);
	g_string_append_printf(s, ",\"seed\":%s,\"games\":%" G_GINT64_FORMAT ",\"unfinished\":%" G_GINT64_FORMAT
			       ",\"entries\":[", t->seed, t->games, t->unfinished);
	for (guint i = 0; i < t->rows->len; i++) {
		const LadderRow *r = g_ptr_array_index(t->rows, i);
		g_string_append_printf(s, "%s{\"id\":%" G_GINT64_FORMAT ",\"label\":", i ? "," : "", r->id);
		json_string(s, r->label);
		g_string_append(s, ",\"name\":");
		json_string(s, r->name);
		g_string_append_printf(s, ",\"version\":%d,\"status\":\"%s\",\"state\":\"%s\",\"games\":%d,\"elo\":",
				       r->version, r->status, r->status, r->games);
		json_double(s, r->elo, 1);
		g_string_append(s, ",\"lo\":");
		json_double(s, r->lo, 1);
		g_string_append(s, ",\"hi\":");
		json_double(s, r->hi, 1);
		g_string_append(s, ",\"suspended\":");
		if (r->suspended)
			json_string(s, r->suspended);
		else
			g_string_append(s, "null");
		g_string_append(s, ",\"last\":");
		if (r->last)
			json_string(s, r->last);
		else
			g_string_append(s, "null");
		g_string_append_c(s, '}');
	}
	g_string_append(s, "]}\n");
	return g_string_free(s, FALSE);
}
