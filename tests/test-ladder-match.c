/*
 * test-ladder-match: the ladder's matchmaking (ladder/match.h): a table
 * is a function of its inputs, its size stays in range, nobody sits twice,
 * the least-played entry is seated, about a fifth of games are top games,
 * and opponents come near in rating; and manifests (ladder/manifest.h)
 * are read or refused as documented.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>

#include "ladder/manifest.h"
#include "ladder/match.h"

static void field(LadderMatchEntry *e, int n)
{
	for (int i = 0; i < n; i++) {
		e[i].id = 100 + i;
		e[i].played = 10;
		e[i].elo = 400 - 80.0 * i;	/* best first, 80 apart */
	}
}

static void test_same_inputs(void)
{
	LadderMatchEntry e[8];
	LadderTable a, b;

	field(e, 8);
	for (gint64 id = 0; id < 200; id++) {
		g_assert_true(ladder_match(e, 8, 2, 4, 42, id, &a));
		g_assert_true(ladder_match(e, 8, 2, 4, 42, id, &b));
		g_assert_cmpint(a.n, ==, b.n);
		g_assert_cmpstr(a.kind, ==, b.kind);
		for (int s = 0; s < a.n; s++)
			g_assert_cmpint(a.entry[s], ==, b.entry[s]);
	}
}

static void test_sizes_and_seats(void)
{
	LadderMatchEntry e[8];
	LadderTable t;
	int sizes[VARIANT_MAX_PLAYERS + 1] = {0}, top = 0;

	field(e, 8);
	for (gint64 id = 0; id < 2000; id++) {
		g_assert_true(ladder_match(e, 8, 2, 4, 7, id, &t));
		g_assert_cmpint(t.n, >=, 2);
		g_assert_cmpint(t.n, <=, 4);
		sizes[t.n]++;
		top += g_str_equal(t.kind, "top");
		for (int s = 0; s < t.n; s++)
			for (int r = s + 1; r < t.n; r++)
				g_assert_cmpint(t.entry[s], !=, t.entry[r]);
	}
	for (int n = 2; n <= 4; n++)
		g_assert_cmpint(sizes[n], >, 500);
	g_assert_cmpint(top, >, 300);
	g_assert_cmpint(top, <, 500);
	/* too few entries: no table; a table never larger than the field */
	g_assert_false(ladder_match(e, 1, 2, 4, 7, 0, &t));
	g_assert_true(ladder_match(e, 3, 2, 7, 7, 0, &t));
	g_assert_cmpint(t.n, <=, 3);
}

static void test_least_played_and_near(void)
{
	LadderMatchEntry e[10];
	LadderTable t;
	int near = 0, games = 0;

	field(e, 10);
	e[6].played = 0;	/* a newcomer */
	for (gint64 id = 0; id < 1000; id++) {
		g_assert_true(ladder_match(e, 10, 2, 2, 9, id, &t));
		if (g_str_equal(t.kind, "least")) {
			g_assert_true(t.entry[0] == 6 || t.entry[1] == 6);
			int other = t.entry[0] == 6 ? t.entry[1] : t.entry[0];
			near += fabs(e[other].elo - e[6].elo) <= 80;
			games++;
		}
	}
	/* neighbours (2 of 9 others) are drawn far more often than 2 in 9 */
	g_assert_cmpint(near * 3, >, games);
}

static void test_manifest(void)
{
	g_autofree char *dir = g_dir_make_tmp("test-ladder-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "manifest.ini", NULL);
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(path, "[bot]\ncommand = python3 bot.py \nauthor = Ada\n", -1, NULL));
	g_autoptr(LadderManifest) m = ladder_manifest_read(path, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(m->command, ==, "python3 bot.py");
	g_assert_cmpstr(m->author, ==, "Ada");
	g_assert_null(m->name);
	static const char *const bad[] = {
		"[bot]\nname = x\n", "[bot]\ncommand = x\ncolour = red\n", "[other]\ncommand = x\n",
		"command = x\n", "[bot]\ncommand = \xff\n", "",
	};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_clear_error(&error);
		g_assert_true(g_file_set_contents(path, bad[i], -1, NULL));
		g_assert_null(ladder_manifest_read(path, &error));
		g_assert_error(error, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_INVALID);
	}
	g_remove(path);
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ladder/match/same-inputs", test_same_inputs);
	g_test_add_func("/ladder/match/sizes-and-seats", test_sizes_and_seats);
	g_test_add_func("/ladder/match/least-played-and-near", test_least_played_and_near);
	g_test_add_func("/ladder/manifest", test_manifest);
	return g_test_run();
}
