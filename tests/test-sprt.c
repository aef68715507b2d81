/*
 * test-sprt: the pentanomial SPRT: parameters, bounds, the LLR against its
 * normal approximation and its symmetry, pairs from journal games, and
 * sequential runs on synthetic results with known strengths (the error
 * rates the test promises).
 */
#include <glib.h>
#include <math.h>

#include "engine/rng.h"
#include "tournaments/sprt.h"

static void test_parse(void)
{
	SprtParams p;
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;

	g_assert_true(sprt_parse("elo0=0,elo1=30", &p, &error));
	g_assert_cmpfloat(p.elo0, ==, 0);
	g_assert_cmpfloat(p.elo1, ==, 30);
	g_assert_cmpfloat(p.alpha, ==, 0.05);
	g_assert_cmpfloat(p.beta, ==, 0.05);
	g_assert_true(sprt_parse(" beta=0.1, alpha:0.02 ,elo1=5,elo0=-2.5", &p, &error));
	g_assert_cmpfloat(p.elo0, ==, -2.5);
	g_assert_cmpfloat(p.alpha, ==, 0.02);
	g_assert_cmpfloat(p.beta, ==, 0.1);
	text = sprt_format(&p);
	g_assert_cmpstr(text, ==, "elo0=-2.5,elo1=5,alpha=0.02,beta=0.1");
	static const char *const bad[] = {
		"elo0=0", "elo0=30,elo1=0", "elo0=0,elo1=0", "elo0=0,elo1=30,alpha=0",
		"elo0=0,elo1=30,beta=0.6", "elo0=0,elo1=3x", "elo0=0,elo1=30,gamma=1",
		"elo0=0,elo0=1,elo1=30", "elo0", "", "elo0=0,elo1=nan",
	};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_clear_error(&error);
		g_assert_false(sprt_parse(bad[i], &p, &error));
		g_assert_error(error, SPRT_ERROR, SPRT_ERROR_PARSE);
	}
}

static void test_bounds(void)
{
	SprtParams p = {0, 30, 0.05, 0.05};
	double lo, hi;

	sprt_bounds(&p, &lo, &hi);
	g_assert_cmpfloat_with_epsilon(lo, -2.944439, 1e-5);
	g_assert_cmpfloat_with_epsilon(hi, 2.944439, 1e-5);
	g_assert_cmpint(sprt_decide(&p, 3.0), ==, SPRT_H1);
	g_assert_cmpint(sprt_decide(&p, -3.0), ==, SPRT_H0);
	g_assert_cmpint(sprt_decide(&p, 0.5), ==, SPRT_CONTINUE);
}

static double score_of_elo(double elo)
{
	return 1 / (1 + pow(10, -elo / 400));
}

/*
 * With many pairs the LLR approaches N (s1 - s0) (2 m - s0 - s1) / (2 v),
 * m and v the mean and variance of the pair score (on a 0..1 scale).
 */
static void test_normal_approximation(void)
{
	static const int counts[][5] = {
		{300, 2000, 5000, 2100, 320}, {500, 2500, 4000, 2700, 600},
		{100, 900, 9000, 1000, 150}, {1000, 1000, 1000, 1000, 1200},
	};
	SprtParams p = {0, 5, 0.05, 0.05};
	double s0 = score_of_elo(p.elo0), s1 = score_of_elo(p.elo1);

	for (guint c = 0; c < G_N_ELEMENTS(counts); c++) {
		double n = 0, m = 0, v = 0, approx, llr;

		for (int i = 0; i < 5; i++) {
			n += counts[c][i];
			m += counts[c][i] * i / 4.0;
		}
		m /= n;
		for (int i = 0; i < 5; i++)
			v += counts[c][i] * (i / 4.0 - m) * (i / 4.0 - m);
		v /= n;
		approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
		llr = sprt_llr(&p, counts[c]);
		g_test_message("counts %d: LLR %.4f, approximation %.4f", c, llr, approx);
		g_assert_cmpfloat(fabs(llr - approx), <, 0.03 * fabs(approx) + 0.05);
	}
}

/* Mirroring the outcomes and the hypotheses negates the LLR; no pairs, 0. */
static void test_symmetry(void)
{
	static const int n[5] = {3, 7, 20, 9, 4}, mirror[5] = {4, 9, 20, 7, 3};
	static const int none[5] = {0};
	SprtParams p = {-5, 25, 0.05, 0.1}, q = {-25, 5, 0.05, 0.1};

	g_assert_cmpfloat_with_epsilon(sprt_llr(&p, n), -sprt_llr(&q, mirror), 1e-9);
	g_assert_cmpfloat(sprt_llr(&p, none), ==, 0);
	/* A stronger record never lowers the LLR. */
	int better[5] = {3, 7, 19, 10, 4};
	g_assert_cmpfloat(sprt_llr(&p, better), >, sprt_llr(&p, n));
}

static JournalGame *game(int id, int round, int bot0, int rank0, int rank1)
{
	JournalGame *g = g_new0(JournalGame, 1);

	g->id = id;
	g->round = round;
	g->nseats = 2;
	g->bot[0] = bot0;
	g->bot[1] = 1 - bot0;
	g->seat[0].rank = rank0;
	g->seat[1].rank = rank1;
	return g;
}

/* Pairs from games: bot 0's score in both seats, incomplete rounds left out. */
static void test_pairs(void)
{
	g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) pairs = NULL;
	SprtParams p = {0, 30, 0.05, 0.05};
	SprtResult r;

	g_ptr_array_add(games, game(3, 1, 1, 1, 2));	/* round 1: bot 1 wins in seat 0 */
	g_ptr_array_add(games, game(0, 0, 0, 1, 2));	/* round 0: bot 0 wins in seat 0 */
	g_ptr_array_add(games, game(1, 0, 1, 2, 1));	/* and in seat 1 */
	g_ptr_array_add(games, game(2, 1, 0, 1, 1));	/* round 1: a draw */
	g_ptr_array_add(games, game(6, 3, 0, 2, 1));	/* round 3: half a pair */
	g_ptr_array_add(games, game(8, 4, 0, 2, 1));	/* round 4: after a gap */
	g_ptr_array_add(games, game(9, 4, 1, 1, 2));
	pairs = sprt_pairs(games);
	g_assert_cmpuint(pairs->len, ==, 3);
	g_assert_cmpint(g_array_index(pairs, SprtPair, 0).round, ==, 0);
	g_assert_cmpint(g_array_index(pairs, SprtPair, 0).outcome, ==, 4);
	g_assert_cmpint(g_array_index(pairs, SprtPair, 1).round, ==, 1);
	g_assert_cmpint(g_array_index(pairs, SprtPair, 1).outcome, ==, 1);
	g_assert_cmpint(g_array_index(pairs, SprtPair, 2).round, ==, 4);
	g_assert_cmpint(g_array_index(pairs, SprtPair, 2).outcome, ==, 0);
	/* The run stops at the gap (round 2 is missing). */
	sprt_run(&p, (SprtPair *)pairs->data, (int)pairs->len, &r);
	g_assert_cmpint(r.pairs, ==, 2);
	g_assert_cmpint(r.penta[4], ==, 1);
	g_assert_cmpint(r.penta[1], ==, 1);
	g_assert_cmpint(r.decision, ==, SPRT_CONTINUE);
}

/*
 * One sequential test on synthetic pairs: bot 0 wins a game with the
 * probability of a true Elo difference `elo`, draws with probability
 * `draw` (of what is left, symmetric). OUT: pairs used.
 */
static SprtDecision simulate(const SprtParams *p, double elo, double draw, Rng *rng, int *used)
{
	enum { MAX_PAIRS = 4000 };
	static SprtPair pairs[MAX_PAIRS];
	double s = score_of_elo(elo);
	/* win w, draw d, loss l with w + d/2 = s */
	double d = draw * 2 * MIN(s, 1 - s), w = s - d / 2;
	SprtResult r;

	for (int i = 0; i < MAX_PAIRS; i++) {
		int outcome = 0;

		for (int k = 0; k < 2; k++) {
			double u = (double)(rng_next(rng) >> 11) / 9007199254740992.0;

			outcome += u < w ? 2 : u < w + d ? 1 : 0;
		}
		pairs[i] = (SprtPair){i, outcome};
	}
	sprt_run(p, pairs, MAX_PAIRS, &r);
	*used = r.pairs;
	return r.decision;
}

/* Known strengths: the error rates stay near alpha and beta. */
static void test_known_strengths(void)
{
	static const struct {
		double elo, draw;
		SprtDecision want;
		double min_rate;
	} cases[] = {
		{0, 0, SPRT_H0, 0.9},	/* elo0: H0 at least 1 - alpha (with slack) */
		{0, 0.3, SPRT_H0, 0.9},
		{60, 0, SPRT_H1, 0.9},	/* elo1: H1 at least 1 - beta */
		{60, 0.3, SPRT_H1, 0.9},
		{-60, 0, SPRT_H0, 0.99},	/* far below elo0: nearly always H0 */
		{200, 0, SPRT_H1, 0.99},	/* far above elo1 */
	};
	SprtParams p = {0, 60, 0.05, 0.05};
	Rng rng;

	rng_seed(&rng, 2026);
	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		int runs = 200, right = 0, decided = 0;
		long pairs = 0;

		for (int t = 0; t < runs; t++) {
			int used;
			SprtDecision d = simulate(&p, cases[c].elo, cases[c].draw, &rng, &used);

			right += d == cases[c].want;
			decided += d != SPRT_CONTINUE;
			pairs += used;
		}
		g_test_message("true elo %+.0f, draws %.0f%%: %d of %d right, %.1f pairs on average",
			       cases[c].elo, 100 * cases[c].draw, right, runs, (double)pairs / runs);
		g_assert_cmpint(decided, ==, runs);
		g_assert_cmpfloat((double)right / runs, >=, cases[c].min_rate);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sprt/parse", test_parse);
	g_test_add_func("/sprt/bounds", test_bounds);
	g_test_add_func("/sprt/normal-approximation", test_normal_approximation);
	g_test_add_func("/sprt/symmetry", test_symmetry);
	g_test_add_func("/sprt/pairs", test_pairs);
	g_test_add_func("/sprt/known-strengths", test_known_strengths);
	return g_test_run();
}
