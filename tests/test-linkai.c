/* Tests for bots/linkai (the Tetris Link AI) and bots/arena (in-process games). */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "bots/arena.h"
#include "bots/linkai.h"
#include "bots/randombot.h"
#include "link.h"

/* A link state from the `go` fields after `roll=`: seat 0 to place. */
static void fixture(LinkState *s, const char *roll, const char *pieces)
{
	VariantConfig cfg;
	g_autofree char *text = g_strdup_printf(
		"players=2 width=10 height=20 stage=place current=0 roll=%s scores=0,0 "
		"supply=I5O5T5L5S5,I5O5T5L5S5 retired=- board=x pieces=%s", roll, pieces);

	variant_config_default(&variant_link, 2, &cfg);
	g_assert_true(variant_link.state_parse(s, &cfg, text));
}

static int best_points(const LinkState *s)
{
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int n = variant_link.legal_moves(s, s->current, moves), best = -99;

	for (int i = 0; i < n; i++) {
		int p = link_move_points(s, moves[i]);
		if (p > best)
			best = p;
	}
	return best;
}

/*
 * Seat 0 has a pair (two flat I pieces, left) and rolls O: an O on the
 * pair makes a group of three, +3, at depths 1 and 2 and at the default
 * (three placements see a tie here with a flat O beside the pair).
 */
static void test_takes_the_link(void)
{
	LinkState s;
	LinkAi ai;
	Rng rng;

	fixture(&s, "O", "0:I0@0,1:I0@6,0:I0@0,1:I0@6");
	g_assert_cmpint(best_points(&s), ==, 3);
	rng_seed(&rng, 1);
	for (int depth = 1; depth <= 4; depth++) {
		if (depth == 3)
			continue;
		linkai_init(&ai);
		ai.depth = depth;
		Move m = linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
		g_assert_cmpint(link_move_points(&s, m), ==, 3);
		g_assert_cmpint(ai.searched, ==, depth);
		g_assert_cmpint(ai.nodes, >, 0);
	}
}

/*
 * linkai_analyse (bot-link --analyse, referee review): every legal
 * placement in legal_moves order; two deep, each valued as linkai_rank
 * values it; three deep, the best still makes the group of three of
 * test_takes_the_link, and asking again gives the same values.
 */
static void test_analyse(void)
{
	LinkState s;
	LinkAi ai;
	Move legal[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	LinkAiScored a[PIECE_ORIENTATIONS * LINK_MAX_WIDTH], r[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	LinkAiScored again[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];

	fixture(&s, "O", "0:I0@0,1:I0@6,0:I0@0,1:I0@6");
	linkai_init(&ai);
	int n = variant_link.legal_moves(&s, 0, legal);
	g_assert_cmpint(linkai_analyse(&ai, &s, 0, 2, a), ==, n);
	g_assert_cmpint(linkai_rank(&ai, &s, 0, r), ==, n);
	for (int i = 0; i < n; i++) {
		g_assert_cmpuint(a[i].move, ==, legal[i]);
		int j = 0;
		while (j < n && r[j].move != a[i].move)
			j++;
		g_assert_cmpint(j, <, n);
		g_assert_cmpint(a[i].value, ==, r[j].value);
	}
	for (int depth = 2; depth <= 3; depth++) {
		g_assert_cmpint(linkai_analyse(&ai, &s, 0, depth, a), ==, n);
		int best = 0;
		for (int i = 1; i < n; i++)
			if (a[i].value > a[best].value)
				best = i;
		g_assert_cmpint(link_move_points(&s, a[best].move), ==, 3);
		linkai_analyse(&ai, &s, 0, depth, again);
		for (int i = 0; i < n; i++) {	/* (field by field: the struct has padding) */
			g_assert_cmpuint(a[i].move, ==, again[i].move);
			g_assert_cmpint(a[i].value, ==, again[i].value);
		}
	}
}

/*
 * With the logo and a gap-free board, the AI never takes a move that
 * leaves an empty cell when a move gaining as much without one exists:
 * here every move that links the pair is a flat O or I, gap-free.
 */
static void test_no_needless_gap(void)
{
	LinkState s;
	LinkAi ai;
	Rng rng;

	fixture(&s, "logo", "0:I0@0,1:I0@6,0:I0@0,1:I0@6");
	rng_seed(&rng, 1);
	linkai_init(&ai);
	Move m = linkai_choose(&variant_link, &s, 0, 5000, &rng, &ai);
	g_assert_cmpint(link_gaps(&s, m), ==, 0);
	g_assert_cmpint(link_move_points(&s, m), ==, 3);
}

/* With less time the search gets shallower: 3, then 2, then 1 ply. */
static void test_short_time(void)
{
	LinkState s;
	LinkAi ai;
	Rng rng;

	fixture(&s, "T", "0:I0@0");
	rng_seed(&rng, 1);
	linkai_init(&ai);
	g_assert_cmpint(ai.depth, ==, LINKAI_MAX_DEPTH);
	linkai_choose(&variant_link, &s, 0, LINKAI_FAST_MS - 1, &rng, &ai);
	long shallow = ai.nodes;
	g_assert_cmpint(ai.searched, ==, 1);
	g_assert_cmpint(shallow, ==, 2 * 8 + 2 * 9);	/* T0, T2: 8 columns; T1, T3: 9 */
	linkai_choose(&variant_link, &s, 0, LINKAI_DEEP_MS - 1, &rng, &ai);
	long two = ai.nodes;
	g_assert_cmpint(ai.searched, ==, 2);
	g_assert_cmpint(two, >, shallow * 10);
	linkai_choose(&variant_link, &s, 0, LINKAI_DEEP_MS, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 3);
	long three = ai.nodes;
	linkai_choose(&variant_link, &s, 0, LINKAI_DEEPER_MS - 1, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 3);
	/* Time enough for every deep move whatever the machine's load; four
	 * placements at most (deeper is for the end of a game). */
	ai.depth = 4;
	linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 4);
	g_assert_cmpint(ai.nodes, >, two * 2);
	g_assert_cmpint(ai.nodes, >, three);
	ai.depth = 3;	/* --depth 3: never the fourth placement */
	linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 3);
}

/*
 * A search still running at the hard limit is abandoned: with the limit
 * already past, every placement keeps its static value, so the move is the
 * one-ply choice, whatever the time given.
 */
static void test_hard_limit(void)
{
	LinkState s;
	LinkAi ai;
	Rng rng;

	fixture(&s, "T", "0:I0@0");
	rng_seed(&rng, 1);
	linkai_init(&ai);
	ai.depth = 1;
	Move greedy = linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	linkai_init(&ai);
	ai.depth = 4;
	Move deep = linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 4);
	g_assert_cmpint(deep, !=, greedy);	/* the fixture must tell them apart */
	ai.hard_ms = -1;
	Move cut = linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 1);
	g_assert_cmpint(cut, ==, greedy);
}

/*
 * A tower two rows from full: 16 rows of standing I pieces and a row of
 * flat O pieces, alternating owners. `roll` is seat 0's.
 */
static void endgame(LinkState *s, const char *roll)
{
	GString *pieces = g_string_new(NULL);

	for (int layer = 0; layer < 4; layer++)
		for (int x = 0; x < 10; x++)
			g_string_append_printf(pieces, "%s%d:I1@%d", pieces->len ? "," : "", (x + layer) % 2, x);
	for (int x = 0; x < 10; x += 2)
		g_string_append_printf(pieces, ",%d:O0@%d", x / 2 % 2, x);
	fixture(s, roll, pieces->str);
	g_string_free(pieces, TRUE);
}

/*
 * Near the end the search goes deeper than four placements when time
 * allows, down to the final scores, and takes no longer for it than the
 * budget: the cost of each pass is known before it starts.
 */
static void test_endgame_deeper(void)
{
	LinkState s;
	LinkAi ai;
	Rng rng;

	endgame(&s, "logo");
	rng_seed(&rng, 1);
	linkai_init(&ai);
	ai.depth = 6;
	Move m = linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 6);
	Move scratch[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	g_assert_true(variant_move_is_legal(&variant_link, &s, 0, m, scratch));
	long deep = ai.nodes;
	ai.depth = 4;	/* --depth 4: never past the fourth placement */
	linkai_choose(&variant_link, &s, 0, 1000000, &rng, &ai);
	g_assert_cmpint(ai.searched, ==, 4);
	g_assert_cmpint(deep, >, ai.nodes);
}

/*
 * The win-chance weight turns the margin into a chance of winning: the
 * same sign and order as the margin, antisymmetric, inside the scale of a
 * finished game, and surer as the tower fills (the same margin counts
 * for more with less room left).
 */
static void test_win_chance(void)
{
	LinkState s, full;
	LinkAi ai, margin;

	linkai_init(&margin);
	margin.w[LINKAI_W_BUMP] = 0;
	margin.w[LINKAI_W_SPREAD] = 0;
	ai = margin;
	ai.w[LINKAI_W_SPREAD] = 10;
	fixture(&s, "S", "0:I0@0,1:O0@6,0:T0@0,1:S0@4,0:L1@8");
	int v = linkai_evaluate(&margin, &s, 0), c = linkai_evaluate(&ai, &s, 0);
	g_assert_cmpint(v, !=, 0);
	g_assert_cmpint((v > 0) - (v < 0), ==, (c > 0) - (c < 0));
	g_assert_cmpint(c, ==, -linkai_evaluate(&ai, &s, 1));
	g_assert_cmpint(abs(c), <, 45000);	/* far from sure */
	/* The same pieces on a tower with 12 rows fewer to fill. */
	full = s;
	full.height = 8;
	g_assert_cmpint(linkai_evaluate(&margin, &full, 0), ==, v);
	g_assert_cmpint(abs(linkai_evaluate(&ai, &full, 0)), >, abs(c));
	/* A finished game outweighs any lead still in play. */
	endgame(&s, "logo");
	s.stage = LINK_STAGE_OVER;
	s.score[0] = 1;
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), >=, 50000);
	g_assert_cmpint(linkai_evaluate(&ai, &s, 1), <=, -50000 + 10);
}

static void test_weights(void)
{
	LinkAi ai;

	linkai_init(&ai);
	int before[LINKAI_W_COUNT];
	memcpy(before, ai.w, sizeof(before));
	g_assert_true(linkai_set_weights(&ai, "7,8"));
	g_assert_cmpint(ai.w[LINKAI_W_OPEN1], ==, 7);
	g_assert_cmpint(ai.w[LINKAI_W_OPEN2], ==, 8);
	g_assert_cmpint(ai.w[LINKAI_W_OPEN3], ==, before[LINKAI_W_OPEN3]);
	g_assert_false(linkai_set_weights(&ai, "1,x"));
	g_assert_false(linkai_set_weights(&ai, "1,2,3,4,0"));	/* LEFT must be positive */
	g_assert_false(linkai_set_weights(&ai, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"));
	g_assert_cmpint(ai.w[LINKAI_W_OPEN1], ==, 7);
}

/* A player who has run out of a shape is worse off by the shapes weight. */
static void test_shapes_weight(void)
{
	LinkState s;
	LinkAi ai;

	linkai_init(&ai);
	linkai_use_weights(&ai, LINKAI_WEIGHTS_BEFORE);	/* no supply weights */
	ai.w[LINKAI_W_SPREAD] = 0;	/* margins, not chances, add up */
	ai.w[LINKAI_W_BUMP] = 0;
	ai.w[LINKAI_W_SHAPES] = 0;
	fixture(&s, "S", "0:I0@0,1:O0@6");
	int before = linkai_evaluate(&ai, &s, 0);
	ai.w[LINKAI_W_SHAPES] = 7;
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), ==, before);
	s.supply[1][0] = 0;	/* seat 1 has no I left */
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), ==, before + 7);
}

/* Each piece left of a shape is worth its supply weight; none in the weights before the fit. */
static void test_supply_weight(void)
{
	LinkState s;
	LinkAi ai;

	linkai_init(&ai);
	g_assert_cmpint(ai.w[LINKAI_W_SUPPLY], ==, 9);	/* an I: the fitted weights */
	linkai_use_weights(&ai, LINKAI_WEIGHTS_BEFORE);
	for (int k = 0; k < LINK_SHAPES; k++)
		g_assert_cmpint(ai.w[LINKAI_W_SUPPLY + k], ==, 0);
	ai.w[LINKAI_W_SPREAD] = 0;	/* margins, not chances, add up */
	fixture(&s, "S", "0:I0@0,1:O0@6");
	int before = linkai_evaluate(&ai, &s, 0);
	g_assert_true(linkai_set_weights(&ai, "2,6,3,4,6,0,0,50,0,5,1"));
	g_assert_cmpint(ai.w[LINKAI_W_SUPPLY], ==, 5);
	g_assert_cmpint(ai.w[LINKAI_W_SUPPLY + 1], ==, 1);
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), ==, before);	/* the same supplies */
	s.supply[0][0] = 4;	/* seat 0 has placed an I: 4 against 5 */
	s.supply[1][1] = 4;	/* seat 1 an O */
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), ==, before - 5 + 1);
}

/*
 * The features the weights are fitted to (scripts/link-texel.py) make up
 * the evaluation: the margin is their difference, weighted.
 */
static void test_features(void)
{
	LinkState s;
	LinkAi ai;
	double f[LINK_MAX_PLAYERS][LINKAI_F_COUNT];

	linkai_init(&ai);
	ai.w[LINKAI_W_SPREAD] = 0;
	ai.w[LINKAI_W_FLOAT] = 100;	/* whole cells: no rounding */
	g_assert_true(linkai_set_weights(&ai, "2,6,3,4,6,0,3,100,0,4,0,2,0,1"));
	fixture(&s, "S", "0:I0@0,1:O0@6,0:T0@0,1:S0@4,0:L1@8,0:O0@0");
	s.supply[0][0] = 4;	/* I */
	s.supply[0][1] = 4;	/* O */
	s.supply[0][4] = 0;	/* S */
	s.supply[1][1] = 3;
	linkai_features(&ai, &s, f);
	g_assert_cmpfloat(f[0][LINKAI_F_LEFT], ==, 18);
	g_assert_cmpfloat(f[1][LINKAI_F_LEFT], ==, 23);
	g_assert_cmpfloat(f[0][LINKAI_F_KINDS], ==, 4);
	g_assert_cmpfloat(f[1][LINKAI_F_SUPPLY + 1], ==, 3);	/* O */
	g_assert_cmpfloat(f[0][LINKAI_F_SUPPLY + 0], ==, 4);	/* I */
	g_assert_cmpfloat(f[0][LINKAI_F_SCORE], ==, s.score[0]);
	g_assert_cmpfloat(f[0][LINKAI_F_OPEN1] + f[0][LINKAI_F_OPEN2] + f[0][LINKAI_F_OPEN3], >, 0);
	double m = 0;
	for (int p = 0; p < 2; p++) {
		double v = 10 * f[p][LINKAI_F_SCORE] + f[p][LINKAI_F_LARGEST]
			   + 3 * f[p][LINKAI_F_KINDS];
		for (int k = 0; k < 3; k++)
			v += ai.w[LINKAI_W_OPEN1 + k] * f[p][LINKAI_F_OPEN1 + k];
		for (int k = 0; k < LINK_SHAPES; k++)
			v += ai.w[LINKAI_W_SUPPLY + k] * f[p][LINKAI_F_SUPPLY + k];
		m += p == 0 ? v : -v;
	}
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), ==, (int)m);
	g_assert_cmpfloat(m, !=, 0);
}

/*
 * Open cells above a gap (beside a standing I, over an empty column) count
 * the float weight's percent: less promise when it falls, none at 0.
 */
static void test_float_weight(void)
{
	LinkState s;
	LinkAi ai;

	linkai_init(&ai);
	g_assert_cmpint(ai.w[LINKAI_W_FLOAT], ==, 50);
	ai.w[LINKAI_W_SPREAD] = 0;	/* margins, not chances, add up */
	ai.w[LINKAI_W_FLOAT] = 100;
	ai.w[LINKAI_W_CAP] = 10;	/* count them all */
	fixture(&s, "S", "0:I1@0,1:O0@6");
	int full = linkai_evaluate(&ai, &s, 0);
	ai.w[LINKAI_W_FLOAT] = 50;
	int half = linkai_evaluate(&ai, &s, 0);
	ai.w[LINKAI_W_FLOAT] = 0;
	int none = linkai_evaluate(&ai, &s, 0);
	g_assert_cmpint(full, >, half);
	g_assert_cmpint(half, >, none);
	/* Seat 1's flat O has no cell above a gap: its value does not move. */
	ai.w[LINKAI_W_FLOAT] = 100;
	int theirs = linkai_evaluate(&ai, &s, 1);
	ai.w[LINKAI_W_FLOAT] = 0;
	g_assert_cmpint(linkai_evaluate(&ai, &s, 1), ==, theirs + (full - none));
}

/* The evaluation is antisymmetric for two players with no raggedness term. */
static void test_evaluate_sides(void)
{
	LinkState s;
	LinkAi ai;

	linkai_init(&ai);
	ai.w[LINKAI_W_BUMP] = 0;
	fixture(&s, "S", "0:I0@0,1:O0@6,0:T0@0,1:S0@4,0:L1@8");
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), ==, -linkai_evaluate(&ai, &s, 1));
	g_assert_cmpint(linkai_evaluate(&ai, &s, 0), !=, 0);
}

/* Games against random: all won, none illegal, the same digest for the same seed. */
static void test_arena_vs_random(void)
{
	RandomBot rnd;
	LinkAi ai;
	VariantConfig cfg;
	ArenaResult r, again;

	g_assert_true(randombot_init(&rnd));
	linkai_init(&ai);
	ai.depth = 1;
	variant_config_default(&variant_link, 2, &cfg);
	for (int g = 0; g < 20; g++) {
		int mine = g % 2;
		ArenaPlayer seats[2];
		seats[mine] = (ArenaPlayer){linkai_choose, &ai};
		seats[1 - mine] = (ArenaPlayer){randombot_choose, &rnd};
		g_assert_true(arena_play(&variant_link, &cfg, seats, (uint64_t)g, 1000, &r));
		g_assert_cmpint(r.illegal, ==, 0);
		g_assert_cmpint(r.decisions, >, 10);
		g_assert_cmpint(r.rank[mine], ==, 1);
		g_assert_cmpint(r.rank[1 - mine], ==, 2);
		g_assert_true(arena_play(&variant_link, &cfg, seats, (uint64_t)g, 1000, &again));
		g_assert_true(r.digest == again.digest);
	}
	randombot_release(&rnd);
}

/* A bot that always answers an illegal move: arena replaces and counts it. */
static Move bad_choose(const Variant *v, const void *state, int seat, int ms, Rng *rng, void *ctx)
{
	(void)v, (void)state, (void)seat, (void)ms, (void)rng, (void)ctx;
	return link_move(PIECE_I, 0, 9);
}

static void test_arena_illegal(void)
{
	VariantConfig cfg;
	ArenaResult r;
	ArenaPlayer seats[3] = {{bad_choose, NULL}, {bad_choose, NULL}, {bad_choose, NULL}};

	variant_config_default(&variant_link, 3, &cfg);
	g_assert_true(arena_play(&variant_link, &cfg, seats, 5, 1000, &r));
	g_assert_cmpint(r.illegal, ==, r.decisions);
	g_assert_cmpint(r.decisions, >, 10);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/linkai/choose/takes-the-link", test_takes_the_link);
	g_test_add_func("/linkai/analyse", test_analyse);
	g_test_add_func("/linkai/choose/no-needless-gap", test_no_needless_gap);
	g_test_add_func("/linkai/choose/short-time", test_short_time);
	g_test_add_func("/linkai/choose/hard-limit", test_hard_limit);
	g_test_add_func("/linkai/choose/endgame-deeper", test_endgame_deeper);
	g_test_add_func("/linkai/evaluate/win-chance", test_win_chance);
	g_test_add_func("/linkai/evaluate/shapes", test_shapes_weight);
	g_test_add_func("/linkai/evaluate/float", test_float_weight);
	g_test_add_func("/linkai/evaluate/supply", test_supply_weight);
	g_test_add_func("/linkai/evaluate/features", test_features);
	g_test_add_func("/linkai/weights", test_weights);
	g_test_add_func("/linkai/evaluate/sides", test_evaluate_sides);
	g_test_add_func("/arena/vs-random", test_arena_vs_random);
	g_test_add_func("/arena/illegal", test_arena_illegal);
	return g_test_run();
}
