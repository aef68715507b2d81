/*
 * test-standings: totals, W-D-L, crosstable, faults and times from known
 * games; solo play ranked by score per seed; the three renderings.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tournaments/standings.h"

static char *bot_names[] = { "ant", "bee", "cat", NULL };

static JournalHeader header(int nseats)
{
	JournalHeader h = { .fingerprint = (char *)"ff", .variant = (char *)"link",
			    .nseats = nseats, .total = 10, .seed = 3, .per_seating = 1,
			    .bots = bot_names };

	return h;
}

static JournalGame *game2(int id, int a, int b, int rank_a, int rank_b)
{
	JournalGame *g = g_new0(JournalGame, 1);

	g->id = id;
	g->nseats = 2;
	g->bot[0] = a;
	g->bot[1] = b;
	g->seat[0] = (JournalSeat){ .rank = rank_a, .score = 10 - rank_a, .moves = 10, .mean_ms = 1.0, .max_ms = 3.0 };
	g->seat[1] = (JournalSeat){ .rank = rank_b, .score = 10 - rank_b, .moves = 30, .mean_ms = 3.0, .max_ms = 9.0 };
	g_strlcpy(g->end, "end", sizeof(g->end));
	g_snprintf(g->log, sizeof(g->log), "games/%06d.log", id);
	return g;
}

static void test_two_player(void)
{
	JournalHeader h = header(2);
	g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(Standings) s = NULL;
	g_autofree char *text = NULL;
	JournalGame *g;

	/* ant beats bee twice, draws cat; bee beats cat; cat beats ant. */
	g_ptr_array_add(games, game2(0, 0, 1, 1, 2));
	g_ptr_array_add(games, game2(1, 1, 0, 2, 1));
	g_ptr_array_add(games, game2(2, 0, 2, 1, 1));
	g_ptr_array_add(games, game2(3, 1, 2, 1, 2));
	g = game2(4, 2, 0, 1, 2);
	g_strlcpy(g->seat[1].faults, "timeout:1+illegal:2", sizeof(g->seat[1].faults));
	g_ptr_array_add(games, g);
	s = standings_new(&h, games, 20);
	g_assert_cmpint(s->bot[0].games, ==, 4);
	g_assert_cmpint(s->bot[0].wins, ==, 2);
	g_assert_cmpint(s->bot[0].draws, ==, 1);
	g_assert_cmpint(s->bot[0].losses, ==, 1);
	g_assert_cmpfloat(s->bot[0].points, ==, 2.5);
	g_assert_cmpint(s->bot[0].faults, ==, 3);
	g_assert_cmpint(GPOINTER_TO_INT(g_hash_table_lookup(s->bot[0].fault_kinds, "illegal")), ==, 2);
	/* ant moved 10+30+10+30 times at 1 and 3 ms. */
	g_assert_cmpint(s->bot[0].moves, ==, 80);
	g_assert_cmpfloat(s->bot[0].mean_ms, ==, 2.5);
	g_assert_cmpfloat(s->bot[0].max_ms, ==, 9.0);
	/* Crosstable, row against column. */
	g_assert_cmpint(s->x_win[0 * 3 + 1], ==, 2);
	g_assert_cmpint(s->x_loss[1 * 3 + 0], ==, 2);
	g_assert_cmpint(s->x_draw[0 * 3 + 2], ==, 1);
	g_assert_cmpint(s->x_loss[0 * 3 + 2], ==, 1);
	g_assert_cmpint(s->x_games[2 * 3 + 0], ==, 2);
	/* ant is first; seat 0 won 3 of 5 with a draw: 70%. */
	g_assert_cmpint(s->order[0], ==, 0);
	g_assert_cmpfloat(s->seat_score[0], ==, 0.7);
	text = standings_text(s, "out", "bin/referee");
	g_assert_nonnull(strstr(text, "link: 3 bots, 5 of 10 games, 2 players per game"));
	g_assert_nonnull(strstr(text, "2-1-1"));
	g_assert_nonnull(strstr(text, "illegal:2 timeout:1"));
	g_assert_nonnull(strstr(text, "bin/referee rerun out/games/000004.log"));
	g_assert_nonnull(strstr(text, ", master seed 3\n"));
	g_assert_nonnull(strstr(text, "\nsandbox: not recorded\n"));
}

/* Whether the bots ran jailed, loudly when some did not. */
static void test_sandbox(void)
{
	static const struct {
		JournalSandbox modes[4];
		const char *text;
	} cases[] = {
		{ { JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_ON },
		  "on (each bot in its own bwrap jail)" },
		{ { JOURNAL_SANDBOX_UNAVAILABLE, JOURNAL_SANDBOX_UNAVAILABLE, JOURNAL_SANDBOX_UNAVAILABLE,
		    JOURNAL_SANDBOX_UNAVAILABLE },
		  "off (bots ran without a jail: sandbox auto found no working bwrap)" },
		{ { JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_OFF, JOURNAL_SANDBOX_UNAVAILABLE, JOURNAL_SANDBOX_UNKNOWN },
		  "off in 2 of 4 games (bots ran without a jail: sandbox auto found no working bwrap; "
		  "sandbox off was asked for), on in 1, not recorded in 1" },
		{ { JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_ON, JOURNAL_SANDBOX_UNKNOWN },
		  "on (each bot in its own bwrap jail) in 3 of 4 games, not recorded in 1" },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		JournalHeader h = header(2);
		g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(Standings) s = NULL;
		g_autofree char *text = NULL;
		g_autofree char *line = NULL;
		g_autofree char *path = NULL;
		g_autofree char *json = NULL;
		g_autofree char *dir = g_dir_make_tmp("test-standings-XXXXXX", NULL);

		for (int i = 0; i < 4; i++) {
			JournalGame *g = game2(i, i % 3, (i + 1) % 3, 1, 2);

			g->sandbox = cases[c].modes[i];
			g_ptr_array_add(games, g);
		}
		s = standings_new(&h, games, 0);
		text = standings_sandbox_text(s);
		g_assert_cmpstr(text, ==, cases[c].text);
		g_free(text);
		text = standings_text(s, "out", "referee");
		line = g_strdup_printf("\nsandbox: %s\n", cases[c].text);
		g_assert_nonnull(strstr(text, line));
		path = g_build_filename(dir, "standings.json", NULL);
		g_assert_true(standings_write_json(s, path, NULL));
		g_assert_true(g_file_get_contents(path, &json, NULL, NULL));
		g_free(line);
		line = g_strdup_printf("\"sandbox\": { \"text\": \"%s\", \"unknown\": %d, \"on\": %d, "
				       "\"off\": %d, \"unavailable\": %d },",
				       cases[c].text, s->sandbox[0], s->sandbox[1], s->sandbox[2], s->sandbox[3]);
		g_assert_nonnull(strstr(json, line));
		g_unlink(path);
		g_rmdir(dir);
	}
}

static JournalGame *solo(int id, int round, int bot, int score)
{
	JournalGame *g = g_new0(JournalGame, 1);

	g->id = id;
	g->round = round;
	g->nseats = 1;
	g->bot[0] = bot;
	g->seat[0] = (JournalSeat){ .rank = 1, .score = score };
	return g;
}

/* Solo: the bots are compared by score on each seed. */
static void test_solo(void)
{
	JournalHeader h = header(1);
	g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(Standings) s = NULL;
	g_autofree char *top = g_dir_make_tmp("test-standings-XXXXXX", NULL);
	g_autofree char *json = g_build_filename(top, "standings.json", NULL);
	g_autofree char *csv = g_build_filename(top, "games.csv", NULL);
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;

	g_ptr_array_add(games, solo(0, 0, 0, 10));
	g_ptr_array_add(games, solo(1, 0, 1, 5));
	g_ptr_array_add(games, solo(2, 0, 2, 5));
	g_ptr_array_add(games, solo(3, 1, 0, 3));
	g_ptr_array_add(games, solo(4, 1, 1, 8));
	g_ptr_array_add(games, solo(5, 1, 2, 1));
	s = standings_new(&h, games, 20);
	g_assert_cmpfloat(s->bot[0].points, ==, 1.5);
	g_assert_cmpfloat(s->bot[1].points, ==, 1.25);
	g_assert_cmpfloat(s->bot[2].points, ==, 0.25);
	g_assert_cmpfloat(s->x_share[0 * 3 + 1] / s->x_games[0 * 3 + 1], ==, 0.5);
	g_assert_cmpfloat(s->x_share[1 * 3 + 2] / s->x_games[1 * 3 + 2], ==, 0.75);
	g_assert_cmpfloat(s->bot[0].mean_score, ==, 6.5);
	g_assert_cmpint(s->ratings->games, ==, 2);
	g_assert_cmpint(s->order[2], ==, 2);
	g_assert_true(standings_write_json(s, json, &error));
	g_assert_true(standings_write_csv(s, csv, &error));
	g_assert_true(g_file_get_contents(json, &data, NULL, NULL));
	g_assert_nonnull(strstr(data, "\"players\": 1"));
	g_assert_nonnull(strstr(data, "\"name\": \"ant\""));
	g_clear_pointer(&data, g_free);
	g_assert_true(g_file_get_contents(csv, &data, NULL, NULL));
	g_assert_true(g_str_has_prefix(data, "id,round,seed,seat,bot,rank,score,faults,moves,end,plies,log,mean_ms,max_ms\n"));
	g_assert_nonnull(strstr(data, "\n4,1,0,0,bee,1,8,-,0,,0,,0.0000,0.0000\n"));
	g_unlink(json);
	g_unlink(csv);
	g_rmdir(top);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/standings/two-player", test_two_player);
	g_test_add_func("/standings/solo", test_solo);
	g_test_add_func("/standings/sandbox", test_sandbox);
	return g_test_run();
}
