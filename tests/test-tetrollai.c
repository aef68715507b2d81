/* Tests for bots/tetrollai (the Tetroll AI): its rollouts and their values. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "bots/botclock.h"
#include "bots/tetrollai.h"
#include "rng.h"
#include "tetroll.h"

/*
 * A game of `players` of seed `seed` played by the greedy AI until `turns`
 * turns have begun and seat 0's shape to place is showing (stage place).
 */
static void midgame_of(TetrollState *s, int players, uint64_t seed, int turns)
{
	VariantConfig cfg;
	TetrollAi ai;
	Rng dice;
	uint32_t mask;
	VariantPhase ph;

	tetrollai_init(&ai);
	tetrollai_budget(&ai, 100);	/* greedy: quick */
	variant_config_default(&variant_tetroll, players, &cfg);
	variant_tetroll.init(s, &cfg);
	rng_seed(&dice, seed);
	while ((ph = variant_tetroll.phase(s, &mask)) != VARIANT_PHASE_OVER) {
		if (s->stage == TETROLL_STAGE_PLACE && s->current == 0 && s->turns >= turns)
			return;
		if (ph == VARIANT_PHASE_CHANCE)
			variant_tetroll.apply(s, VARIANT_CHANCE, variant_tetroll.chance_sample(s, &dice));
		else
			variant_tetroll.apply(s, s->current, tetrollai_choose(&ai, s, s->current));
	}
	g_assert_not_reached();
}

/* A solo game, as midgame_of. */
static void midgame(TetrollState *s, uint64_t seed, int turns)
{
	midgame_of(s, 1, seed, turns);
}

/* Whether seat 0 has a follow-up (copy, ring, #6 number) to decide in t. */
static bool asks_followup(const TetrollState *t)
{
	return t->current == 0 && (t->stage == TETROLL_STAGE_COPY || t->stage == TETROLL_STAGE_RING ||
				   t->stage == TETROLL_STAGE_WRITE);
}

/* Settle t's pending follow-ups with the AI's choices. */
static void placed_settle(TetrollAi *ai, TetrollState *t)
{
	while (asks_followup(t))
		variant_tetroll.apply(t, 0, tetrollai_choose(ai, t, 0));
}

/* t: s with placement number i (of the legal ones) made and its follow-ups settled by the AI. */
static void placed(TetrollAi *ai, TetrollState *t, const TetrollState *s, int i)
{
	Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
	int n = variant_tetroll.legal_moves(s, 0, moves);

	g_assert_cmpint(n, >, i);
	*t = *s;
	variant_tetroll.apply(t, 0, moves[i]);
	placed_settle(ai, t);
}

/*
 * Common random numbers: every candidate of a decision is played out with
 * the same dice, so two equal candidates are worth exactly the same (with
 * 3 rollouts of independent dice they would almost never be); the dice
 * follow from the state, so asking again gives the same worths.
 */
static void test_common_dice(void)
{
	TetrollState s, a, b, c;
	TetrollAi ai;
	double v[3], again[3];

	midgame(&s, 7, 6);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	ai.p.rollouts = 3;
	placed(&ai, &a, &s, 0);
	placed(&ai, &b, &s, 0);
	placed(&ai, &c, &s, 1);
	const TetrollState *cand[3] = {&a, &b, &c};
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, v);
	g_assert_cmpfloat(v[0], ==, v[1]);
	g_assert_cmpfloat(v[0], >, 0);
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, again);
	for (int i = 0; i < 3; i++)
		g_assert_cmpfloat(v[i], ==, again[i]);
	/* the same rollouts valued risk-seeking: at least their mean */
	ai.p.rollout_risk = 15;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, again);
	for (int i = 0; i < 3; i++)
		g_assert_cmpfloat(again[i], >=, v[i] - 1e-9);
}

/*
 * A candidate whose game is over is worth its score; playing for an
 * objective, also the objective's term for a finished game (Mother
 * Russia: a completed track costs mr_completed), as the eval values it.
 */
static void test_ended(void)
{
	TetrollState s, t;
	TetrollAi ai;
	double v;
	int bonus[TETROLL_BONUSES];

	midgame(&s, 3, 8);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	ai.p.rollouts = 2;
	placed(&ai, &t, &s, 0);
	t.sheet[0].status = TETROLL_ENDED;
	const TetrollState *cand[1] = {&t};
	tetrollai_rollout_values(&ai, &s, 0, cand, 1, &v);
	g_assert_cmpfloat(v, ==, tetroll_score(&t, 0, NULL, bonus));

	t.sheet[0].rings[3] = t.track[3];
	t.sheet[0].prize[3] = TETROLL_PRIZE_FIRST;
	int score = tetroll_score(&t, 0, NULL, bonus);
	g_assert_cmpint(score, <, 80);
	tetrollai_rollout_values(&ai, &s, 0, cand, 1, &v);
	g_assert_cmpfloat(v, ==, score);
	ai.p.objective = TETROLLAI_MOTHER_RUSSIA;
	tetrollai_rollout_values(&ai, &s, 0, cand, 1, &v);
	g_assert_cmpfloat(v, ==, score - ai.p.mr_completed);
	g_assert_cmpfloat(v, ==, tetrollai_eval(&ai, &t, 0));
}

/*
 * Rollouts are played in rounds: past rollout_cap sheets no further round
 * starts, and the candidates are valued by the rounds played (here the
 * first, as if only TETROLLAI_ROLLOUT_ROUND rollouts had been asked for).
 */
static void test_capped(void)
{
	TetrollState s, a, b;
	TetrollAi ai;
	double capped[2], round[2], all[2];

	midgame(&s, 5, 4);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	g_assert_cmpint(ai.rollout_cap, >, 0);
	placed(&ai, &a, &s, 0);
	placed(&ai, &b, &s, 1);
	const TetrollState *cand[2] = {&a, &b};
	ai.p.rollouts = 2 * TETROLLAI_ROLLOUT_ROUND;
	ai.rollout_cap = 1;
	ai.move_start = ai.evals;
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, capped);
	long spent = ai.evals - ai.move_start;
	ai.rollout_cap = 0;
	ai.move_start = ai.evals;
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, all);
	g_assert_cmpint(ai.evals - ai.move_start, >, spent);
	ai.p.rollouts = TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, round);
	for (int i = 0; i < 2; i++) {
		g_assert_cmpfloat(capped[i], ==, round[i]);
		g_assert_cmpfloat(capped[i], !=, all[i]);
	}
}

/*
 * A deadline already past stops the rollouts after their first round, as
 * rollout_cap does, and a whole move then values far fewer sheets than
 * the same move without one; the move is still one of the legal ones.
 */
static void test_deadline(void)
{
	TetrollState s, a, b;
	TetrollAi ai;
	double late[2], round[2];
	Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];

	midgame(&s, 5, 4);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	placed(&ai, &a, &s, 0);
	placed(&ai, &b, &s, 1);
	const TetrollState *cand[2] = {&a, &b};
	ai.rollout_cap = 0;
	ai.p.rollout_prune = 0;
	ai.p.rollouts = 4 * TETROLLAI_ROLLOUT_ROUND;
	ai.deadline = botclock_ms() - 1;
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, late);
	ai.deadline = 0;
	ai.p.rollouts = TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, round);
	for (int i = 0; i < 2; i++)
		g_assert_cmpfloat(late[i], ==, round[i]);

	/* a whole move: the full search, then the same with the deadline past */
	tetrollai_budget(&ai, 5000);
	long before = ai.evals;
	Move full = tetrollai_choose(&ai, &s, 0);
	long full_evals = ai.evals - before;
	ai.deadline = botclock_ms() - 1;
	before = ai.evals;
	Move quick = tetrollai_choose(&ai, &s, 0);
	long quick_evals = ai.evals - before;
	g_assert_cmpint(quick_evals * 4, <, full_evals);
	int n = variant_tetroll.legal_moves(&s, 0, moves);
	bool legal[2] = {false, false};
	for (int i = 0; i < n; i++) {
		legal[0] |= moves[i] == full;
		legal[1] |= moves[i] == quick;
	}
	g_assert_true(legal[0] && legal[1]);
}

/* a clock that moves one ms each time it is read, so a test knows when a deadline passes */
static double counted_ms;

static double counted_clock(void)
{
	return ++counted_ms;
}

/*
 * A deadline that passes inside a round after the first drops that round:
 * the candidate that played it goes back to the rounds all have played,
 * so the three are valued by the first round alone, as if one round had
 * been asked for. The rollouts are read on the clock once before the
 * second round and once before each candidate's share of it; the deadline
 * here passes at the second candidate, after the first played its round.
 */
static void test_deadline_in_round(void)
{
	TetrollState s, t[3];
	TetrollAi ai;
	double late[3], round[3], two[3];

	midgame(&s, 5, 4);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	for (int i = 0; i < 3; i++)
		placed(&ai, &t[i], &s, i);
	const TetrollState *cand[3] = {&t[0], &t[1], &t[2]};
	ai.rollout_cap = 0;
	ai.p.rollout_prune = 0;
	ai.p.rollouts = 2 * TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, two);
	ai.p.rollouts = 4 * TETROLLAI_ROLLOUT_ROUND;
	ai.clock_ms = counted_clock;
	counted_ms = 0;
	ai.deadline = 2.5;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, late);
	g_assert_cmpfloat(counted_ms, ==, 3);
	ai.deadline = 0;
	ai.p.rollouts = TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, round);
	for (int i = 0; i < 3; i++)
		g_assert_cmpfloat(late[i], ==, round[i]);
	/* had the first candidate kept its second round, its value would differ */
	g_assert_cmpfloat(two[0], !=, round[0]);
}

/*
 * With rollout_prune, after each round from the second a candidate clearly
 * behind the leader (paired) gets no more rollouts, and the rollouts it
 * would have played go to the others. Here, of 3 candidates asked 32
 * rollouts each (a budget of 96), an ended sheet (worth its score in every
 * rollout) is dropped after 2 rounds (16 each, 48 in all), and the two
 * equal live ones share the other 48: 40 each. They are valued by their
 * mean as if 40 had been asked for; the dropped one by the leader's mean
 * plus its own mean difference to the leader over the 16 both played.
 */
static void test_pruned(void)
{
	TetrollState s, a, b, c;
	TetrollAi ai;
	double pruned[3], v16[3], v40[3];
	int bonus[TETROLL_BONUSES];

	midgame(&s, 5, 4);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	ai.rollout_cap = 0;
	ai.p.rollout_prune = 0;
	placed(&ai, &a, &s, 0);
	b = a;
	b.sheet[0].status = TETROLL_ENDED;
	c = a;
	const TetrollState *cand[3] = {&a, &b, &c};
	ai.p.rollouts = 2 * TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, v16);
	ai.p.rollouts = 5 * TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, v40);
	g_assert_cmpfloat(v16[1], ==, tetroll_score(&b, 0, NULL, bonus));
	g_assert_cmpfloat(v16[0], >, v16[1] + 10);

	ai.p.rollouts = 4 * TETROLLAI_ROLLOUT_ROUND;
	ai.p.rollout_prune = 2;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, pruned);
	g_assert_cmpfloat(pruned[0], ==, v40[0]);
	g_assert_cmpfloat(pruned[2], ==, v40[0]);
	g_assert_cmpfloat(fabs(pruned[1] - (v40[0] + v16[1] - v16[0])), <, 1e-9);

	/* no pruning while risk-seeking: the values of the rollouts asked for */
	ai.p.rollout_risk = 15;
	ai.p.rollouts = 2 * TETROLLAI_ROLLOUT_ROUND;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, pruned);
	ai.p.rollout_prune = 0;
	tetrollai_rollout_values(&ai, &s, 0, cand, 3, v16);
	for (int i = 0; i < 3; i++)
		g_assert_cmpfloat(pruned[i], ==, v16[i]);
}

/*
 * With followup_rollouts, a copy, ring or #6 number is chosen by rollouts
 * among the best by static value: what it chooses is worth at least the
 * greedy choice by the same rollouts, and on some of these follow-ups it
 * chooses otherwise.
 */
static void test_followup(void)
{
	int differ = 0, seen = 0;

	for (uint64_t seed = 1; seed <= 4; seed++)
		for (int turns = 2; turns <= 10; turns += 4) {
			Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
			TetrollState s, u, r, g;
			TetrollAi ai, greedy;

			midgame(&s, seed, turns);
			tetrollai_init(&ai);
			tetrollai_budget(&ai, 5000);
			ai.p.narrow = 0;	/* settled as the greedy choice settles */
			ai.p.rollouts = 8;
			ai.p.rollout_width = 4;
			greedy = ai;
			greedy.p.followup_rollouts = 0;
			ai.p.followup_rollouts = 1;
			int n = variant_tetroll.legal_moves(&s, 0, moves), i;
			for (i = 0; i < n; i++) {	/* the first placement that asks for a follow-up */
				u = s;
				variant_tetroll.apply(&u, 0, moves[i]);
				if (asks_followup(&u))
					break;
			}
			if (i == n)
				continue;
			seen++;
			Move mr = tetrollai_choose(&ai, &u, 0), mg = tetrollai_choose(&greedy, &u, 0);
			g_assert_cmpuint(mr, ==, tetrollai_choose(&ai, &u, 0));
			if (mr == mg)
				continue;
			differ++;
			r = u;
			g = u;
			variant_tetroll.apply(&r, 0, mr);
			variant_tetroll.apply(&g, 0, mg);
			placed_settle(&greedy, &r);
			placed_settle(&greedy, &g);
			const TetrollState *cand[2] = {&r, &g};
			double v[2];
			tetrollai_rollout_values(&ai, &u, 0, cand, 2, v);
			g_assert_cmpfloat(v[0], >=, v[1]);
		}
	g_test_message("%d follow-ups, %d chosen otherwise", seen, differ);
	g_assert_cmpint(seen, >=, 10);
	g_assert_cmpint(differ, >, 0);
}

/* With rollouts on, a placement is a function of the state: two AIs choose alike. */
static void test_deterministic(void)
{
	for (int turns = 3; turns <= 12; turns += 3) {
		TetrollState s;
		TetrollAi a, b;

		midgame(&s, 11, turns);
		tetrollai_init(&a);
		tetrollai_budget(&a, 5000);
		a.p.rollouts = 4;
		a.p.rollout_width = 4;
		b = a;
		b.evals = 12345;	/* counters do not matter */
		Move m = tetrollai_choose(&a, &s, 0);
		g_assert_cmpuint(m, ==, tetrollai_choose(&b, &s, 0));
		g_assert_cmpuint(m, ==, tetrollai_choose(&a, &s, 0));
	}
}

/*
 * tetrollai_analyse (bot-tetroll --analyse, referee review): a value for
 * every legal move, finite and the same when asked again, whatever the
 * counters; at the dice stage keeping is worth the best placement the
 * search looks at, so no more than the best of the placements' values
 * once the dice are kept.
 */
static void test_analyse(void)
{
	static Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
	static Move legal[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
	static double values[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
	static double again[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
	TetrollState s, d;
	TetrollAi ai, quick;
	Rng dice;

	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	ai.eval_cap = ai.rollout_cap = 0;
	tetrollai_init(&quick);
	tetrollai_budget(&quick, 100);	/* greedy: plays on quickly */
	for (int turns = 3; turns <= 9; turns += 3) {
		midgame(&s, 21, turns);
		int n = tetrollai_analyse(&ai, &s, 0, moves, values);
		g_assert_cmpint(n, ==, variant_tetroll.legal_moves(&s, 0, legal));
		g_assert_cmpint(n, >, 0);
		for (int i = 0; i < n; i++) {
			g_assert_cmpuint(moves[i], ==, legal[i]);
			g_assert_true(isfinite(values[i]));
		}
		ai.evals += 1000;
		g_assert_cmpint(tetrollai_analyse(&ai, &s, 0, moves, again), ==, n);
		g_assert_cmpmem(values, sizeof(double) * (size_t)n, again, sizeof(double) * (size_t)n);
	}
	/* the dice stage of seat 0's next turn: keep against the placements */
	rng_seed(&dice, 5);
	d = s;
	while (!(d.stage == TETROLL_STAGE_DICE && d.current == 0 && d.turns > s.turns)) {
		uint32_t mask;
		VariantPhase ph = variant_tetroll.phase(&d, &mask);
		g_assert_true(ph != VARIANT_PHASE_OVER);
		if (ph == VARIANT_PHASE_CHANCE)
			variant_tetroll.apply(&d, VARIANT_CHANCE, variant_tetroll.chance_sample(&d, &dice));
		else
			variant_tetroll.apply(&d, d.current, tetrollai_choose(&quick, &d, d.current));
	}
	int n = tetrollai_analyse(&ai, &d, 0, moves, values), keep = -1;
	for (int i = 0; i < n; i++)
		if (moves[i] == tetroll_move_keep())
			keep = i;
	g_assert_cmpint(keep, >=, 0);
	double kept = values[keep];
	variant_tetroll.apply(&d, 0, tetroll_move_keep());
	g_assert_cmpint(d.stage, ==, TETROLL_STAGE_PLACE);
	n = tetrollai_analyse(&ai, &d, 0, moves, values);
	double best = -INFINITY;
	for (int i = 0; i < n; i++)
		best = fmax(best, values[i]);
	g_assert_cmpfloat(kept, <=, best + 1e-9);
	g_assert_cmpfloat(kept, >, best - 30);	/* the same scale: points */
}

/*
 * tetrollai_settle resolves every pending follow-up as the greedy choice
 * does (cells not narrowed, no rollouts), and leaves a state with none
 * pending as it was.
 */
static void test_settle(void)
{
	int seen = 0;

	for (uint64_t seed = 1; seed <= 6; seed++)
		for (int turns = 2; turns <= 14; turns += 4) {
			Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
			TetrollState s, u, a, b;
			TetrollAi ai;

			midgame(&s, seed, turns);
			tetrollai_init(&ai);
			tetrollai_budget(&ai, 5000);
			ai.p.narrow = 0;
			ai.p.rollouts = 0;
			a = s;
			tetrollai_settle(&ai, &a, 0);
			g_assert_true(memcmp(&a, &s, sizeof(s)) == 0);
			int n = variant_tetroll.legal_moves(&s, 0, moves);
			for (int i = 0; i < n; i++) {
				u = s;
				variant_tetroll.apply(&u, 0, moves[i]);
				if (!asks_followup(&u))
					continue;
				seen++;
				a = u;
				b = u;
				tetrollai_settle(&ai, &a, 0);
				placed_settle(&ai, &b);
				g_assert_false(asks_followup(&a));
				g_assert_true(memcmp(&a, &b, sizeof(a)) == 0);
				break;
			}
		}
	g_assert_cmpint(seen, >=, 10);
}

/*
 * tetrollai_players: at 2 players with the race on (the default), twice
 * the rollouts and twice the rollout cap where the budget turned them on,
 * rollouts cut at TETROLLAI_RACE_DEPTH turns and (with rollouts) the
 * margin's weights;
 * solo or with the race off, the rollouts stay and they play to the end
 * on the hand-set sum; a depth or weights given stay as given.
 */
static void expect_players(const TetrollAi *ai, const TetrollAi *base, int rollouts, int depth, const double *weights)
{
	TetrollAi want = *base;

	want.p.rollouts = rollouts;
	want.rollout_cap = base->p.rollouts ? base->rollout_cap * rollouts / base->p.rollouts : base->rollout_cap;
	want.p.rollout_depth = depth;
	want.weights = weights;
	g_assert_true(memcmp(ai, &want, sizeof(want)) == 0);
}

static void test_players(void)
{
	TetrollAi ai, base;
	double w[TETROLLAI_FEATURES] = {0};

	tetrollai_init(&base);
	g_assert_cmpint(base.p.rollout_depth, <, 0);
	g_assert_true(base.weights == TETROLLAI_BY_PLAYERS);
	tetrollai_budget(&base, 5000);
	g_assert_cmpint(base.p.rollouts, ==, 64);
	g_assert_cmpfloat(base.p.rollout_race, ==, TETROLLAI_RACE_SPREAD);
	ai = base;
	tetrollai_players(&ai, 2);
	expect_players(&ai, &base, 128, TETROLLAI_RACE_DEPTH, tetrollai_margin);
	g_assert_cmpint(ai.rollout_cap, ==, 2 * base.rollout_cap);
	ai = base;
	tetrollai_players(&ai, 1);
	expect_players(&ai, &base, 64, 0, NULL);
	ai = base;
	ai.p.rollout_race = 0;
	tetrollai_players(&ai, 2);
	base.p.rollout_race = 0;
	expect_players(&ai, &base, 64, 0, NULL);
	base.p.rollout_race = TETROLLAI_RACE_SPREAD;
	/* given: a depth of 0 (to the end) or 7, the hand-set sum or other weights */
	ai = base;
	ai.p.rollout_depth = 0;
	ai.weights = NULL;
	tetrollai_players(&ai, 2);
	g_assert_cmpint(ai.p.rollout_depth, ==, 0);
	g_assert_null(ai.weights);
	ai = base;
	ai.p.rollout_depth = 7;
	ai.weights = w;
	tetrollai_players(&ai, 2);
	g_assert_cmpint(ai.p.rollout_depth, ==, 7);
	g_assert_true(ai.weights == w);
	/* below the rollouts' 2 s: no rollouts to cut, and the hand-set sum as before */
	tetrollai_init(&base);
	tetrollai_budget(&base, 1000);
	ai = base;
	tetrollai_players(&ai, 2);
	expect_players(&ai, &base, 0, TETROLLAI_RACE_DEPTH, NULL);
}

/*
 * Racing rollouts (p.rollout_race, 2 players): with the opponent's game
 * over, a rollout is worth our margin over its final score (a huge
 * rollout_race makes S tanh(m / S) the margin itself), so each candidate
 * is worth its plain rollout value less that score. With the opponent
 * playing, its turns are played too: every value lies within
 * [-rollout_race, rollout_race], asking again gives the same values, and
 * they differ from the values against the finished sheet. At 1 player
 * the parameter changes nothing.
 */
static void test_race(void)
{
	TetrollState s, a, b;
	TetrollAi ai;
	double plain[2], race[2], playing[2], again[2];
	int bonus[TETROLL_BONUSES];

	midgame_of(&s, 2, 11, 10);
	g_assert_cmpint(s.sheet[1].status, ==, TETROLL_PLAYING);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	ai.p.rollouts = 8;
	ai.p.rollout_prune = 0;
	ai.p.rollout_race = 0;	/* plain rollouts first (the default races at 2 players) */
	placed(&ai, &a, &s, 0);
	placed(&ai, &b, &s, 1);
	const TetrollState *cand[2] = {&a, &b};
	TetrollState ea = a, eb = b;
	ea.sheet[1].status = eb.sheet[1].status = TETROLL_ENDED;
	const TetrollState *ended[2] = {&ea, &eb};
	tetrollai_rollout_values(&ai, &s, 0, ended, 2, plain);
	int theirs = tetroll_score(&ea, 1, NULL, bonus);
	g_assert_cmpint(theirs, >, 0);
	ai.p.rollout_race = 1e9;
	tetrollai_rollout_values(&ai, &s, 0, ended, 2, race);
	for (int c = 0; c < 2; c++)
		g_assert_cmpfloat(fabs(race[c] - (plain[c] - theirs)), <, 1e-6);

	ai.p.rollout_race = 30;
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, playing);
	tetrollai_rollout_values(&ai, &s, 0, cand, 2, again);
	for (int c = 0; c < 2; c++) {
		g_assert_cmpfloat(fabs(playing[c]), <=, 30);
		g_assert_cmpfloat(playing[c], ==, again[c]);
	}
	tetrollai_rollout_values(&ai, &s, 0, ended, 2, race);
	g_assert_true(playing[0] != race[0] || playing[1] != race[1]);

	TetrollState solo, sa;
	midgame(&solo, 7, 6);
	ai.p.rollout_race = 0;
	placed(&ai, &sa, &solo, 0);
	const TetrollState *one[1] = {&sa};
	tetrollai_rollout_values(&ai, &solo, 0, one, 1, plain);
	ai.p.rollout_race = 30;
	tetrollai_rollout_values(&ai, &solo, 0, one, 1, race);
	g_assert_cmpfloat(plain[0], ==, race[0]);
}

/*
 * Rollouts cut after p.rollout_depth turns and valued by the fitted
 * forecast: past the game's end a cut changes nothing; a cut at 4 turns
 * values fewer sheets, stays deterministic, and forecasts what the full
 * rollouts measure: the same best and worst of four placements, and
 * within 15 points (the forecast is of level 3's greedy play, which
 * rerolls where the rollouts' does not, here about 9 points more; one
 * without the score now would be some 60 points off). Racing, the cut
 * margins stay within the spread, within 15 points of the full ones
 * (here 6 and 10 below) and in their order.
 */
static void test_depth(void)
{
	TetrollState s, r, cand_s[4], cand_r[2];
	TetrollAi ai;
	double full[4], cut[4], again[4], deep[4];

	midgame(&s, 7, 6);
	tetrollai_init(&ai);
	tetrollai_budget(&ai, 5000);
	ai.p.rollouts = 64;
	ai.p.rollout_prune = 0;
	const TetrollState *cand[4];
	for (int i = 0; i < 4; i++) {
		placed(&ai, &cand_s[i], &s, i);
		cand[i] = &cand_s[i];
	}
	long before = ai.evals;
	tetrollai_rollout_values(&ai, &s, 0, cand, 4, full);
	long full_evals = ai.evals - before;
	ai.p.rollout_depth = TETROLLAI_MAX_DEPTH;	/* no game lasts that long */
	tetrollai_rollout_values(&ai, &s, 0, cand, 4, deep);
	for (int i = 0; i < 4; i++)
		g_assert_cmpfloat(deep[i], ==, full[i]);

	ai.p.rollout_depth = 4;
	before = ai.evals;
	tetrollai_rollout_values(&ai, &s, 0, cand, 4, cut);
	long cut_evals = ai.evals - before;
	tetrollai_rollout_values(&ai, &s, 0, cand, 4, again);
	double err = 0;
	for (int i = 0; i < 4; i++) {
		g_assert_cmpfloat(cut[i], ==, again[i]);
		err += fabs(cut[i] - full[i]) / 4;
	}
	g_assert_cmpint(cut_evals, <, full_evals * 3 / 4);
	g_assert_cmpfloat(err, >, 0);
	g_assert_cmpfloat(err, <, 15);
	int best[2] = {0, 0}, worst[2] = {0, 0};
	for (int i = 1; i < 4; i++) {
		best[0] = full[i] > full[best[0]] ? i : best[0];
		best[1] = cut[i] > cut[best[1]] ? i : best[1];
		worst[0] = full[i] < full[worst[0]] ? i : worst[0];
		worst[1] = cut[i] < cut[worst[1]] ? i : worst[1];
	}
	g_assert_cmpint(best[0], ==, best[1]);
	g_assert_cmpint(worst[0], ==, worst[1]);

	/* racing: the margins of both forecasts, S tanh(m / S) */
	midgame_of(&r, 2, 11, 6);
	g_assert_cmpint(r.sheet[1].status, ==, TETROLL_PLAYING);
	ai.p.rollout_race = 30;
	ai.p.rollout_depth = 0;
	placed(&ai, &cand_r[0], &r, 0);
	placed(&ai, &cand_r[1], &r, 1);
	const TetrollState *two[2] = {&cand_r[0], &cand_r[1]};
	tetrollai_rollout_values(&ai, &r, 0, two, 2, full);
	ai.p.rollout_depth = 3;
	tetrollai_rollout_values(&ai, &r, 0, two, 2, cut);
	for (int c = 0; c < 2; c++) {
		g_assert_cmpfloat(fabs(cut[c]), <=, 30);
		g_assert_cmpfloat(cut[c], !=, full[c]);
		g_assert_cmpfloat(fabs(cut[c] - full[c]), <, 15);
	}
	g_assert_cmpint(full[0] > full[1], ==, cut[0] > cut[1]);
}

/* Rows reading 1-2-3-4-5-6 are counted when finished, in that order only. */
static void test_ordered_rows(void)
{
	static const char *const rows[] = {	/* bottom row first; '.' empty */
		"123456",	/* counted */
		"12345.",	/* unfinished */
		"213456",	/* out of order */
		"123456",	/* counted */
		"654321",	/* reversed */
		"123455",	/* a repeat */
	};
	VariantConfig cfg;
	TetrollState s;

	variant_config_default(&variant_tetroll, 1, &cfg);
	variant_tetroll.init(&s, &cfg);
	g_assert_cmpint(tetrollai_ordered_rows(&s, 0), ==, 0);
	for (int y = 0; y < (int)G_N_ELEMENTS(rows); y++)
		for (int x = 0; x < 6; x++)
			s.sheet[0].cell[y][x] = (uint8_t)(rows[y][x] == '.' ? 0 : rows[y][x] - '0');
	g_assert_cmpint(tetrollai_ordered_rows(&s, 0), ==, 2);
	s.sheet[0].cell[1][5] = 6;
	g_assert_cmpint(tetrollai_ordered_rows(&s, 0), ==, 3);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tetrollai/rollouts/common-dice", test_common_dice);
	g_test_add_func("/tetrollai/rollouts/ended", test_ended);
	g_test_add_func("/tetrollai/rollouts/capped", test_capped);
	g_test_add_func("/tetrollai/rollouts/deadline", test_deadline);
	g_test_add_func("/tetrollai/rollouts/deadline-in-round", test_deadline_in_round);
	g_test_add_func("/tetrollai/rollouts/pruned", test_pruned);
	g_test_add_func("/tetrollai/rollouts/followup", test_followup);
	g_test_add_func("/tetrollai/rollouts/deterministic", test_deterministic);
	g_test_add_func("/tetrollai/rollouts/race", test_race);
	g_test_add_func("/tetrollai/rollouts/players", test_players);
	g_test_add_func("/tetrollai/rollouts/depth", test_depth);
	g_test_add_func("/tetrollai/settle", test_settle);
	g_test_add_func("/tetrollai/analyse", test_analyse);
	g_test_add_func("/tetrollai/ordered-rows", test_ordered_rows);
	return g_test_run();
}
