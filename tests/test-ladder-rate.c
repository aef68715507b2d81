/*
 * test-ladder-rate: the ladder's standings fit (ladder/rate.h) on a real
 * database. Entries that have played no game take no part in it: adding
 * them leaves every other entry's rating and interval as they were (an
 * 18-0 pair once went from [+90, +475] to [-62, +627] with five new
 * entries and no game played), and they show no rating of their own.
 * The standings' cache holds that fit and says when it is behind.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>

#include "ladder/db.h"
#include "ladder/rate.h"
#include "ladder/standings.h"

static void exec(LadderDb *d, const char *sql)
{
	g_autoptr(GError) err = NULL;

	if (!ladder_db_exec(d, sql, &err))
		g_error("%s: %s", sql, err->message);
}

static void add_bot(LadderDb *d, int id)
{
	g_autofree char *sql = g_strdup_printf("INSERT INTO bots (id, name, version, command, sha256, added, status) "
					       "VALUES (%d, 'b%d', 1, 'x', '-', '2026-01-01T00:00:00Z', 'active')", id, id);
	exec(d, sql);
}

/* Game `id`: `winner` ranked 1, `loser` 2. */
static void add_game(LadderDb *d, int id, int winner, int loser)
{
	g_autofree char *sql = g_strdup_printf(
		"INSERT INTO games (id, seed, kind, scheduled, finished) VALUES (%d, %d, 'least', 't', 't');"
		"INSERT INTO seats (game, seat, bot, rank) VALUES (%d, 0, %d, 1), (%d, 1, %d, 2);",
		id, id, id, winner, id, loser);
	exec(d, sql);
}

static void test_unplayed_entries(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_dir_make_tmp("test-ladder-rate-XXXXXX", &err);
	g_autofree char *path = g_build_filename(dir, "ladder", NULL);
	g_autoptr(LadderDb) d = ladder_db_create(path, &err);

	g_assert_no_error(err);
	add_bot(d, 1);
	add_bot(d, 2);
	for (int g = 1; g <= 18; g++)
		add_game(d, g, 1, 2);
	g_autoptr(LadderRatings) before = ladder_ratings_compute(d, G_MAXINT64, RATINGS_BOOTSTRAP, 7, &err);
	g_assert_no_error(err);
	g_test_message("18-0: [%+.0f, %+.0f] and [%+.0f, %+.0f]", before->r->lo[0], before->r->hi[0],
		       before->r->lo[1], before->r->hi[1]);
	g_assert_cmpfloat(before->r->lo[0], >, 0);
	for (int b = 3; b <= 7; b++)
		add_bot(d, b);
	g_autoptr(LadderRatings) after = ladder_ratings_compute(d, G_MAXINT64, RATINGS_BOOTSTRAP, 7, &err);
	g_assert_no_error(err);
	g_test_message("with 5 unplayed entries: [%+.0f, %+.0f] and [%+.0f, %+.0f]", after->r->lo[0], after->r->hi[0],
		       after->r->lo[1], after->r->hi[1]);
	g_assert_cmpint(after->nbots, ==, 7);
	for (int i = 0; i < 2; i++) {
		g_assert_cmpfloat(after->r->elo[i], ==, before->r->elo[i]);
		g_assert_cmpfloat(after->r->lo[i], ==, before->r->lo[i]);
		g_assert_cmpfloat(after->r->hi[i], ==, before->r->hi[i]);
	}
	g_assert_cmpfloat(after->r->los[0 * 7 + 1], ==, before->r->los[0 * 2 + 1]);
	for (int i = 2; i < 7; i++) {
		g_assert_cmpint(after->games[i], ==, 0);
		g_assert_cmpfloat(after->r->elo[i], ==, 0);	/* the rated entries' mean */
		g_assert_cmpfloat(after->r->los[0 * 7 + i], ==, 0.5);
	}
	/* a game for one of them: it joins the fit */
	add_game(d, 19, 3, 2);
	g_autoptr(LadderRatings) third = ladder_ratings_compute(d, G_MAXINT64, 0, 7, &err);
	g_assert_no_error(err);
	g_assert_cmpint(third->games[2], ==, 1);
	g_assert_cmpfloat(third->r->elo[2], >, third->r->elo[1]);
	g_clear_pointer(&d, ladder_db_free);
	const char *rm[] = {"rm", "-rf", dir, NULL};
	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

/*
 * The standings' cache (ladder_standings_refresh, ladder_table_view): it
 * holds the fit as computed; the table reads it while it is current;
 * a game scheduled makes it not current but not behind (the refresh only
 * renews its key); a game finished puts it behind, and a refresh with
 * slack 0 refits it while one with slack 1 leaves it.
 */
static void test_cache(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_dir_make_tmp("test-ladder-rate-XXXXXX", &err);
	g_autofree char *path = g_build_filename(dir, "ladder", NULL);
	g_autoptr(LadderDb) d = ladder_db_create(path, &err);
	gint64 finished = -1;
	gboolean current = TRUE;

	g_assert_no_error(err);
	exec(d, "INSERT INTO meta (key, value) VALUES ('seed', '7')");
	for (int b = 1; b <= 3; b++)
		add_bot(d, b);
	for (int g = 1; g <= 6; g++)
		add_game(d, g, 1 + g % 2, 3);
	g_assert_null(ladder_ratings_cached(d, &finished, &current));
	g_assert_true(ladder_standings_refresh(d, 0, &err));
	g_assert_no_error(err);
	g_autoptr(LadderRatings) fresh = ladder_ratings_compute(d, G_MAXINT64, RATINGS_BOOTSTRAP, 7, &err);
	g_autoptr(LadderRatings) cached = ladder_ratings_cached(d, &finished, &current);
	g_assert_nonnull(cached);
	g_assert_true(current);
	g_assert_cmpint(finished, ==, 6);
	g_assert_cmpint(cached->r->games, ==, 6);
	for (int i = 0; i < 3; i++) {
		g_assert_cmpfloat(cached->r->elo[i], ==, fresh->r->elo[i]);
		g_assert_cmpfloat(cached->r->lo[i], ==, fresh->r->lo[i]);
		g_assert_cmpint(cached->games[i], ==, fresh->games[i]);
	}
	/* an unfinished game: not current; the table fits anew (no writer) */
	exec(d, "INSERT INTO games (id, seed, kind, scheduled) VALUES (7, 7, 'least', 't');"
		"INSERT INTO seats (game, seat, bot) VALUES (7, 0, 1), (7, 1, 3);");
	g_clear_pointer(&cached, ladder_ratings_free);
	cached = ladder_ratings_cached(d, &finished, &current);
	g_assert_false(current);
	g_assert_true(ladder_standings_refresh(d, 0, &err));
	g_clear_pointer(&cached, ladder_ratings_free);
	cached = ladder_ratings_cached(d, &finished, &current);
	g_assert_true(current);
	g_assert_cmpint(finished, ==, 6);
	/* it finishes: behind by 1 */
	exec(d, "UPDATE games SET finished = 't' WHERE id = 7; UPDATE seats SET rank = seat + 1 WHERE game = 7;");
	g_assert_true(ladder_standings_refresh(d, 1, &err));
	g_clear_pointer(&cached, ladder_ratings_free);
	cached = ladder_ratings_cached(d, &finished, &current);
	g_assert_false(current);
	g_assert_cmpint(finished, ==, 6);
	g_autoptr(LadderTableView) t = ladder_table_view(d, G_MAXINT64, &err);
	g_assert_no_error(err);
	g_assert_cmpint(t->games, ==, 7);
	g_assert_true(ladder_standings_refresh(d, 0, &err));
	g_clear_pointer(&cached, ladder_ratings_free);
	cached = ladder_ratings_cached(d, &finished, &current);
	g_assert_true(current);
	g_assert_cmpint(finished, ==, 7);
	g_assert_cmpint(cached->games[0], ==, 4);
	g_clear_pointer(&d, ladder_db_free);
	const char *rm[] = {"rm", "-rf", dir, NULL};
	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ladder/rate/unplayed-entries", test_unplayed_entries);
	g_test_add_func("/ladder/rate/cache", test_cache);
	return g_test_run();
}
