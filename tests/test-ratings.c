/*
 * test-ratings: the fits recover known strengths from synthetic results,
 * do not depend on game order, stay finite for undefeated bots, and give
 * intervals that cover the truth.
 */
#include <glib.h>
#include <math.h>

#include "engine/rng.h"
#include "tournaments/ratings.h"

static double uniform(Rng *r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

/* A Plackett-Luce ranking of bots[0..n-1] with strengths 10^(elo/400). */
static void sample_ranking(Rng *rng, const double *elo, RatingsGame *g)
{
	int left[VARIANT_MAX_PLAYERS];
	int nleft = g->n;

	for (int k = 0; k < g->n; k++)
		left[k] = k;
	for (int place = 1; place <= g->n; place++) {
		double total = 0, x;
		int pick = nleft - 1;

		for (int k = 0; k < nleft; k++)
			total += pow(10, elo[g->bot[left[k]]] / 400);
		x = uniform(rng) * total;
		for (int k = 0; k < nleft; k++) {
			x -= pow(10, elo[g->bot[left[k]]] / 400);
			if (x < 0) {
				pick = k;
				break;
			}
		}
		g->rank[left[pick]] = place;
		left[pick] = left[--nleft];
	}
}

static const double truth[4] = { -250, -50, 100, 200 };

static GArray *synthetic(int players, int rounds, gboolean draws, uint64_t seed)
{
	GArray *games = g_array_new(FALSE, TRUE, sizeof(RatingsGame));
	Rng rng;

	rng_seed(&rng, seed);
	for (int r = 0; r < rounds; r++) {
		RatingsGame g = { .n = players };

		/* A random set of `players` distinct bots in random seats. */
		int all[4] = { 0, 1, 2, 3 };

		rng_shuffle(&rng, all, 4);
		for (int k = 0; k < players; k++)
			g.bot[k] = all[k];
		if (draws && players == 2) {
			/* One game in ten drawn; the others won so that the
			 * expected score stays the Bradley-Terry one. */
			double p = 1 / (1 + pow(10, (truth[g.bot[1]] - truth[g.bot[0]]) / 400));
			double x = uniform(&rng);

			g.rank[0] = g.rank[1] = 1;
			if (x < p - 0.05)
				g.rank[1] = 2;
			else if (x >= p + 0.05)
				g.rank[0] = 2;
		} else {
			sample_ranking(&rng, truth, &g);
		}
		g_array_append_val(games, g);
	}
	return games;
}

static void check_recovery(int players, gboolean draws, double tol)
{
	g_autoptr(GArray) games = synthetic(players, 6000, draws, 1234 + players);
	g_autoptr(Ratings) r = ratings_fit(4, (RatingsGame *)games->data, (int)games->len, 100, 5);
	double mean = 0;

	for (int i = 0; i < 4; i++)
		mean += truth[i] / 4;
	for (int i = 0; i < 4; i++) {
		g_test_message("bot %d: elo %.1f [%.1f, %.1f] truth %.1f", i,
			       r->elo[i], r->lo[i], r->hi[i], truth[i] - mean);
		g_assert_cmpfloat(fabs(r->elo[i] - (truth[i] - mean)), <, tol);
		g_assert_cmpfloat(r->lo[i], <=, r->elo[i]);
		g_assert_cmpfloat(r->hi[i], >=, r->elo[i]);
		g_assert_cmpfloat(r->hi[i] - r->lo[i], <, 120);
	}
	/* The order is right, with near certainty. */
	g_assert_cmpfloat(r->los[3 * 4 + 0], >, 0.99);
	g_assert_cmpfloat(r->los[0 * 4 + 3], <, 0.01);
	g_assert_cmpfloat(r->los[2 * 4 + 1] + r->los[1 * 4 + 2], ==, 1.0);
}

static void test_bradley_terry(void)
{
	check_recovery(2, FALSE, 30);
}

static void test_bradley_terry_draws(void)
{
	check_recovery(2, TRUE, 30);
}

static void test_plackett_luce(void)
{
	check_recovery(3, FALSE, 30);
	check_recovery(4, FALSE, 30);
}

/* Reordering the games changes nothing in the point estimates. */
static void test_order_independent(void)
{
	g_autoptr(GArray) games = synthetic(3, 500, FALSE, 77);
	g_autoptr(GArray) reversed = g_array_new(FALSE, FALSE, sizeof(RatingsGame));
	g_autoptr(Ratings) a = NULL;
	g_autoptr(Ratings) b = NULL;

	for (int i = (int)games->len - 1; i >= 0; i--)
		g_array_append_val(reversed, g_array_index(games, RatingsGame, i));
	a = ratings_fit(4, (RatingsGame *)games->data, (int)games->len, 0, 1);
	b = ratings_fit(4, (RatingsGame *)reversed->data, (int)reversed->len, 0, 1);
	for (int i = 0; i < 4; i++)
		g_assert_cmpfloat(a->elo[i], ==, b->elo[i]);
}

/* A bot that won every game has a large but finite rating. */
static void test_undefeated(void)
{
	RatingsGame g[10];
	g_autoptr(Ratings) r = NULL;

	for (int i = 0; i < 10; i++) {
		g[i] = (RatingsGame){ .n = 2, .bot = { i % 2, 1 - i % 2 } };
		g[i].rank[i % 2] = 1;
		g[i].rank[1 - i % 2] = 2;
	}
	r = ratings_fit(2, g, 10, 50, 3);
	g_assert_true(isfinite(r->elo[0]));
	g_assert_cmpfloat(r->elo[0], >, 100);
	g_assert_cmpfloat(r->elo[0], <, 1000);
	g_assert_cmpfloat(r->elo[0], ==, -r->elo[1]);
	g_assert_cmpfloat(r->los[0 * 2 + 1], >, 0.9);
}

/* Same games and seed: same intervals; no games: all zero. */
static void test_reproducible(void)
{
	g_autoptr(GArray) games = synthetic(2, 300, TRUE, 8);
	g_autoptr(Ratings) a = ratings_fit(4, (RatingsGame *)games->data, (int)games->len, 50, 9);
	g_autoptr(Ratings) b = ratings_fit(4, (RatingsGame *)games->data, (int)games->len, 50, 9);
	g_autoptr(Ratings) none = ratings_fit(3, NULL, 0, 50, 9);

	for (int i = 0; i < 4; i++) {
		g_assert_cmpfloat(a->lo[i], ==, b->lo[i]);
		g_assert_cmpfloat(a->hi[i], ==, b->hi[i]);
	}
	for (int i = 0; i < 3; i++)
		g_assert_cmpfloat(fabs(none->elo[i]), <, 1e-9);
	g_assert_cmpint(none->games, ==, 0);
}

/*
 * No interval claims more than its games hold: 73-0-0 (where every
 * bootstrap resample is the same sample), no bootstrap at all, and one
 * game each leave intervals of real width; and with no bootstrap the
 * Laplace interval alone is about as wide as the bootstrap's and
 * covers the truth.
 */
static void test_honest_intervals(void)
{
	RatingsGame g[73];
	g_autoptr(Ratings) sweep = NULL;
	g_autoptr(Ratings) one = NULL;
	g_autoptr(GArray) games = synthetic(2, 600, FALSE, 21);
	g_autoptr(Ratings) boot = NULL;
	g_autoptr(Ratings) none = NULL;
	double mean = 0;

	for (int i = 0; i < 73; i++) {
		g[i] = (RatingsGame){ .n = 2, .bot = { i % 2, 1 - i % 2 } };
		g[i].rank[i % 2] = 1;
		g[i].rank[1 - i % 2] = 2;
	}
	sweep = ratings_fit(2, g, 73, 200, 3);
	g_test_message("73-0-0: %+.0f [%+.0f, %+.0f]", sweep->elo[0], sweep->lo[0], sweep->hi[0]);
	g_assert_cmpfloat(sweep->hi[0] - sweep->lo[0], >, 100);
	g_assert_cmpfloat(sweep->lo[0], <, sweep->elo[0]);
	g_assert_cmpfloat(sweep->hi[0], >, sweep->elo[0]);
	g_assert_cmpfloat(sweep->lo[0], >, 0);	/* still surely the stronger */
	one = ratings_fit(2, g, 1, 200, 3);
	g_test_message("1-0-0: %+.0f [%+.0f, %+.0f]", one->elo[0], one->lo[0], one->hi[0]);
	g_assert_cmpfloat(one->hi[0] - one->lo[0], >, 400);
	g_assert_cmpfloat(one->lo[0], <, 0);	/* one game proves nothing */

	boot = ratings_fit(4, (RatingsGame *)games->data, (int)games->len, 200, 5);
	none = ratings_fit(4, (RatingsGame *)games->data, (int)games->len, 0, 5);
	for (int i = 0; i < 4; i++)
		mean += truth[i] / 4;
	for (int i = 0; i < 4; i++) {
		double wb = boot->hi[i] - boot->lo[i], wn = none->hi[i] - none->lo[i];

		g_test_message("bot %d: bootstrap [%+.1f, %+.1f], none [%+.1f, %+.1f], truth %+.1f", i,
			       boot->lo[i], boot->hi[i], none->lo[i], none->hi[i], truth[i] - mean);
		g_assert_cmpfloat(wn, >, 0.6 * wb);
		g_assert_cmpfloat(wn, <, 1.6 * wb);
		g_assert_cmpfloat(none->lo[i], <=, truth[i] - mean);
		g_assert_cmpfloat(none->hi[i], >=, truth[i] - mean);
	}
	g_assert_cmpfloat(none->los[3 * 4 + 0], >, 0.99);
	g_assert_cmpfloat(fabs(none->los[1 * 4 + 2] + none->los[2 * 4 + 1] - 1.0), <, 1e-9);
}

static void test_seat_scores(void)
{
	/* Seat 0 wins 3 of 4, one draw. */
	RatingsGame g[4] = {
		{ .n = 2, .bot = { 0, 1 }, .rank = { 1, 2 } },
		{ .n = 2, .bot = { 1, 0 }, .rank = { 1, 2 } },
		{ .n = 2, .bot = { 0, 1 }, .rank = { 1, 1 } },
		{ .n = 2, .bot = { 1, 0 }, .rank = { 1, 2 } },
	};
	double s[2];

	ratings_seat_scores(g, 4, 2, s);
	g_assert_cmpfloat(fabs(s[0] - 0.875), <, 1e-12);
	g_assert_cmpfloat(fabs(s[1] - 0.125), <, 1e-12);
	g_assert_cmpfloat(fabs(ratings_elo_of_score(0.5)), <, 1e-9);
	g_assert_cmpfloat(fabs(ratings_elo_of_score(10.0 / 11) - 400), <, 1e-6);
}

/* Past RATINGS_MM_BOTS (Newton steps, then MM): 200 bots, 40,000 games of
 * 2 to 4 seats, recovered within the games' noise, intervals that cover
 * the truth, and the same fit whatever the games' order. */
static void test_many_bots(void)
{
	enum { N = 200, GAMES = 40000 };
	double elo[N], mean = 0, sq = 0;
	g_autoptr(GArray) games = g_array_new(FALSE, TRUE, sizeof(RatingsGame));
	g_autoptr(GArray) reversed = g_array_new(FALSE, TRUE, sizeof(RatingsGame));
	Rng rng;
	int covered = 0;

	rng_seed(&rng, 54);
	for (int i = 0; i < N; i++) {
		elo[i] = -400 + 800 * uniform(&rng);
		mean += elo[i] / N;
	}
	for (int i = 0; i < N; i++)
		elo[i] -= mean;
	for (int r = 0; r < GAMES; r++) {
		RatingsGame g = { .n = 2 + (int)rng_below(&rng, 3) };

		for (int k = 0; k < g.n; k++) {
			gboolean again;
			do {
				g.bot[k] = (int)rng_below(&rng, N);
				again = FALSE;
				for (int j = 0; j < k; j++)
					again |= g.bot[j] == g.bot[k];
			} while (again);
		}
		sample_ranking(&rng, elo, &g);
		g_array_append_val(games, g);
	}
	for (int r = GAMES - 1; r >= 0; r--)
		g_array_append_val(reversed, g_array_index(games, RatingsGame, r));
	g_autoptr(Ratings) a = ratings_fit(N, (RatingsGame *)games->data, GAMES, RATINGS_BOOTSTRAP, 1);
	g_autoptr(Ratings) b = ratings_fit(N, (RatingsGame *)reversed->data, GAMES, 0, 1);
	for (int i = 0; i < N; i++) {
		sq += (a->elo[i] - elo[i]) * (a->elo[i] - elo[i]);
		covered += a->lo[i] <= elo[i] && elo[i] <= a->hi[i];
		g_assert_cmpfloat(a->lo[i], <, a->elo[i]);
		g_assert_cmpfloat(fabs(a->elo[i] - b->elo[i]), <, 1e-6);
	}
	g_test_message("rms error %.1f Elo, %d of %d intervals cover the truth", sqrt(sq / N), covered, N);
	g_assert_cmpfloat(sqrt(sq / N), <, 30);
	g_assert_cmpint(covered, >=, N * 85 / 100);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ratings/bradley-terry", test_bradley_terry);
	g_test_add_func("/ratings/bradley-terry-draws", test_bradley_terry_draws);
	g_test_add_func("/ratings/plackett-luce", test_plackett_luce);
	g_test_add_func("/ratings/order-independent", test_order_independent);
	g_test_add_func("/ratings/undefeated", test_undefeated);
	g_test_add_func("/ratings/reproducible", test_reproducible);
	g_test_add_func("/ratings/seat-scores", test_seat_scores);
	g_test_add_func("/ratings/honest-intervals", test_honest_intervals);
	g_test_add_func("/ratings/many-bots", test_many_bots);
	return g_test_run();
}
