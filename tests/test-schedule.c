/*
 * test-schedule: round-robin schedules are complete, balanced, stable and
 * shard cleanly.
 */
#include <glib.h>

#include "tournaments/schedule.h"

/* Every bot sits in every seat equally often; every subset plays equally
 * often; every seating of a subset appears once per round. */
static void check_balanced(int nbots, int nseats, int games)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Schedule) s = schedule_new(nbots, nseats, games, 42, &error);
	g_autofree int *seat_count = g_new0(int, nbots * nseats);
	g_autoptr(GHashTable) seatings = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) subsets = g_hash_table_new(g_int64_hash, g_int64_equal);
	g_autofree gint64 *masks = NULL;
	int64_t expect = schedule_count(nbots, nseats, games);

	g_assert_no_error(error);
	g_assert_nonnull(s);
	g_assert_cmpint(s->n, ==, expect);
	masks = g_new0(gint64, s->n);
	for (int i = 0; i < s->n; i++) {
		const ScheduleGame *g = &s->game[i];
		GString *key = g_string_new(NULL);
		guint64 mask = 0;

		g_assert_cmpint(g->id, ==, i);
		g_assert_cmpint(g->nseats, ==, nseats);
		g_assert_true(g->seed == schedule_round_seed(42, g->round));
		g_string_append_printf(key, "%d:", g->round);
		for (int k = 0; k < nseats; k++) {
			g_assert_cmpint(g->bot[k], >=, 0);
			g_assert_cmpint(g->bot[k], <, nbots);
			g_assert_false(mask & (G_GUINT64_CONSTANT(1) << g->bot[k]));
			mask |= G_GUINT64_CONSTANT(1) << g->bot[k];
			seat_count[g->bot[k] * nseats + k]++;
			g_string_append_printf(key, "%d,", g->bot[k]);
		}
		/* No seating repeats within a round. */
		g_assert_false(g_hash_table_contains(seatings, key->str));
		g_hash_table_add(seatings, g_string_free(key, FALSE));
		masks[i] = (gint64)mask;
		g_hash_table_replace(subsets, &masks[i],
				     GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(subsets, &masks[i])) + 1));
		/* Ids run round-major. */
		if (i > 0)
			g_assert_cmpint(s->game[i - 1].round, <=, g->round);
	}
	for (int b = 0; b < nbots; b++)
		for (int k = 0; k < nseats; k++)
			g_assert_cmpint(seat_count[b * nseats + k], ==, seat_count[0]);
	{
		GHashTableIter it;
		gpointer v;
		int first = -1;

		g_hash_table_iter_init(&it, subsets);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			if (first < 0)
				first = GPOINTER_TO_INT(v);
			g_assert_cmpint(GPOINTER_TO_INT(v), ==, first);
			g_assert_cmpint(first, ==, s->seatings * games);
		}
	}
}

static void test_two_player(void)
{
	g_autoptr(Schedule) s = schedule_new(4, 2, 3, 7, NULL);

	g_assert_nonnull(s);
	/* 6 pairs, both orders, 3 seeds. */
	g_assert_cmpint(s->n, ==, 6 * 2 * 3);
	g_assert_cmpint(s->seatings, ==, 2);
	/* The first two games are the same pair with seats swapped, same seed. */
	g_assert_cmpint(s->game[0].bot[0], ==, s->game[1].bot[1]);
	g_assert_cmpint(s->game[0].bot[1], ==, s->game[1].bot[0]);
	g_assert_true(s->game[0].seed == s->game[1].seed);
	g_assert_true(s->game[0].seed != s->game[12].seed);
	check_balanced(4, 2, 3);
	check_balanced(7, 2, 1);
}

static void test_multi_player(void)
{
	g_autoptr(Schedule) s = schedule_new(4, 4, 1, 7, NULL);
	g_autoptr(Schedule) s7 = schedule_new(7, 7, 2, 7, NULL);

	g_assert_cmpint(s->n, ==, 24);
	g_assert_cmpint(s7->seatings, ==, 7);
	g_assert_cmpint(s7->n, ==, 14);
	check_balanced(4, 3, 2);
	check_balanced(5, 4, 1);
	check_balanced(6, 5, 1);
	check_balanced(8, 7, 1);
	check_balanced(3, 3, 2);
}

static void test_solo(void)
{
	g_autoptr(Schedule) s = schedule_new(3, 1, 4, 9, NULL);

	g_assert_cmpint(s->n, ==, 12);
	/* Every bot plays every seed. */
	for (int r = 0; r < 4; r++)
		for (int b = 0; b < 3; b++) {
			g_assert_cmpint(s->game[r * 3 + b].bot[0], ==, b);
			g_assert_true(s->game[r * 3 + b].seed == schedule_round_seed(9, r));
		}
	check_balanced(3, 1, 4);
}

/* The same inputs give the same schedule; a different master seed changes
 * only the seeds. */
static void test_stable(void)
{
	g_autoptr(Schedule) a = schedule_new(5, 3, 2, 1, NULL);
	g_autoptr(Schedule) b = schedule_new(5, 3, 2, 1, NULL);
	g_autoptr(Schedule) c = schedule_new(5, 3, 2, 2, NULL);

	g_assert_cmpint(a->n, ==, b->n);
	for (int i = 0; i < a->n; i++) {
		g_assert_true(a->game[i].seed == b->game[i].seed);
		g_assert_true(a->game[i].seed != c->game[i].seed);
		for (int k = 0; k < 3; k++) {
			g_assert_cmpint(a->game[i].bot[k], ==, b->game[i].bot[k]);
			g_assert_cmpint(a->game[i].bot[k], ==, c->game[i].bot[k]);
		}
	}
}

static void test_shards(void)
{
	g_autoptr(Schedule) s = schedule_new(5, 2, 2, 3, NULL);

	for (int n = 1; n <= 4; n++)
		for (int id = 0; id < s->n; id++) {
			int owners = 0;

			for (int i = 0; i < n; i++)
				owners += schedule_in_shard(id, i, n) ? 1 : 0;
			g_assert_cmpint(owners, ==, 1);
		}
}

static void test_invalid(void)
{
	GError *error = NULL;

	g_assert_null(schedule_new(2, 3, 1, 0, &error));
	g_assert_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_null(schedule_new(0, 1, 1, 0, &error));
	g_clear_error(&error);
	g_assert_null(schedule_new(4, 2, 0, 0, &error));
	g_clear_error(&error);
	g_assert_null(schedule_new(64, 8, 1000, 0, &error));
	g_assert_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INVALID);
	g_clear_error(&error);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/schedule/two-player", test_two_player);
	g_test_add_func("/schedule/multi-player", test_multi_player);
	g_test_add_func("/schedule/solo", test_solo);
	g_test_add_func("/schedule/stable", test_stable);
	g_test_add_func("/schedule/shards", test_shards);
	g_test_add_func("/schedule/invalid", test_invalid);
	return g_test_run();
}
