/*
 * prog-tetroll-hindsight: a yardstick for the solo objectives, not a
 * player. It asks how far the AI's eval gets when the dice are no secret:
 * each game's dice are drawn in advance (every turn's roll and two rerolls
 * of all four dice), and a beam search that sees them all plays the sheet.
 * Each turn every kept sheet is tried with the turn's roll and, each paid
 * with an open first prize, its two rerolls; every placement is applied,
 * its follow-ups (copy, rings, #6 numbers) chosen by tetrollai_settle, and
 * the sheet valued by tetrollai_eval; the best KEEP of each roll go to a
 * pool and the best WIDTH distinct sheets of the pool to the next turn.
 * Playing for Mother Russia a sheet with a completed track is dropped (it
 * can no longer reach the objective). A sheet none of whose rolls fits
 * anywhere has ended; the best ended sheet is reported (the objective
 * reached first, then for Conrad the rows reading 1-6, then the score):
 *
 *     seed=N reached=0|1 score=S bonuses=B ordered=K
 *
 * (score=none when, for Mother Russia, every sheet kept had to complete a
 * track) and at the end a line `reached R of N`. What foresight and a wide search
 * reach is not what a player reaches, who does not know the dice; rerolls
 * here are all four dice, where a player may keep some (docs/ai/tetroll.md, "What
 * foresight reaches").
 *
 * Usage: prog-tetroll-hindsight OBJECTIVE GAMES [FIRST [WIDTH [KEEP]]]
 * OBJECTIVE is sputnik, mother-russia or conrad; game g's dice come from
 * rng_seed(FIRST + g); WIDTH defaults to 500, KEEP to 16.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tetroll.h"
#include "bots/tetrollai.h"
#include "variant.h"

#define TURNS 32	/* turns a game may last (one lasts about 20) */
#define ROLLS 3		/* the turn's roll and two rerolls */

typedef struct {
	TetrollState s;
	double value;
	uint64_t hash;
} Node;

static Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];

static uint64_t sheet_hash(const TetrollSheet *sh)
{
	const unsigned char *b = (const unsigned char *)sh;
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < sizeof(*sh); i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h | 1u;	/* 0 marks an empty slot of the set below */
}

static const Node *sorting;	/* the nodes by_value's indices point into */

/* qsort: indices into `sorting`, best value first (ties by index: the same order everywhere). */
static int by_value(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	double x = sorting[i].value, y = sorting[j].value;

	return x < y ? 1 : x > y ? -1 : (i > j) - (i < j);
}

/* order[0..n): the indices of nodes[0..n), best value first. */
static void sort_nodes(const Node *nodes, int n, int *order)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	sorting = nodes;
	qsort(order, (size_t)n, sizeof(int), by_value);
}

static int completed(const TetrollState *s)
{
	int n = 0;

	for (int b = 0; b < TETROLL_BONUSES; b++)
		n += s->sheet[0].prize[b] >= TETROLL_PRIZE_FIRST;
	return n;
}

static bool reached(int objective, const TetrollState *s, int score, int ordered)
{
	if (objective == TETROLLAI_MOTHER_RUSSIA)
		return !completed(s) && score >= 80;
	if (objective == TETROLLAI_CONRAD)
		return ordered >= 4 && score >= 100;
	return score >= 140;
}

/*
 * Pay one reroll in u: cross out the open first prize whose loss the eval
 * minds least. Returns false when none can pay.
 */
static bool pay_reroll(TetrollAi *ai, TetrollState *u)
{
	int pick = -1;
	double best = 0;

	for (int b = 0; b < TETROLL_BONUSES; b++) {
		if (!tetroll_can_pay(u, 0, b))
			continue;
		TetrollState t = *u;
		t.sheet[0].prize[b] = TETROLL_PRIZE_CROSSED;
		double v = tetrollai_eval(ai, &t, 0);
		if (pick < 0 || v > best) {
			best = v;
			pick = b;
		}
	}
	if (pick < 0)
		return false;
	u->sheet[0].prize[pick] = TETROLL_PRIZE_CROSSED;
	return true;
}

/*
 * Every placement of u (stage place), settled and valued: its best `keep`
 * appended to pool. Sets *fits when u has a placement (even one dropped).
 */
static int expand(TetrollAi *ai, const TetrollState *u, int keep, Node *scratch, Node *pool, int npool, bool *fits)
{
	static int order[sizeof(moves) / sizeof(moves[0])];
	int n = variant_tetroll.legal_moves(u, 0, moves), k = 0;

	*fits |= n > 0;
	for (int i = 0; i < n; i++) {
		TetrollState *t = &scratch[k].s;
		*t = *u;
		variant_tetroll.apply(t, 0, moves[i]);
		tetrollai_settle(ai, t, 0);
		if (ai->p.objective == TETROLLAI_MOTHER_RUSSIA && completed(t))
			continue;
		scratch[k].value = tetrollai_eval(ai, t, 0);
		scratch[k].hash = sheet_hash(&t->sheet[0]);
		k++;
	}
	sort_nodes(scratch, k, order);
	for (int i = 0; i < k && i < keep; i++)
		pool[npool++] = scratch[order[i]];
	return npool;
}

int main(int argc, char **argv)
{
	int objective = argc > 2 ? tetrollai_objective(argv[1]) : -1;
	long games = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	long first = argc > 3 ? strtol(argv[3], NULL, 10) : 1;
	long width = argc > 4 ? strtol(argv[4], NULL, 10) : 500;
	long keep = argc > 5 ? strtol(argv[5], NULL, 10) : 16;

	if (objective < 0 || games < 1 || width < 1 || width > 100000 || keep < 1 || keep > 1000) {
		fprintf(stderr, "usage: prog-tetroll-hindsight sputnik|mother-russia|conrad GAMES [FIRST [WIDTH [KEEP]]]\n");
		return 2;
	}
	TetrollAi ai;
	tetrollai_init(&ai);
	ai.p.objective = objective;
	tetrollai_budget(&ai, 5000);	/* the eval and follow-ups of bin/bot-tetroll at the default controls */

	size_t nset = 1;
	while (nset < 4 * (size_t)width)
		nset <<= 1;
	Node *beam = malloc(sizeof(Node) * (size_t)width);
	Node *pool = malloc(sizeof(Node) * (size_t)width * ROLLS * (size_t)keep);
	Node *scratch = malloc(sizeof(Node) * (sizeof(moves) / sizeof(moves[0])));
	uint64_t *set = malloc(sizeof(uint64_t) * nset);
	int *order = malloc(sizeof(int) * (size_t)width * ROLLS * (size_t)keep);
	if (!beam || !pool || !scratch || !set || !order) {
		fprintf(stderr, "prog-tetroll-hindsight: out of memory for width %ld\n", width);
		return 1;
	}
	long hits = 0;
	for (long g = 0; g < games; g++) {
		uint64_t seed = (uint64_t)(first + g);
		int8_t dice[TURNS][ROLLS][TETROLL_DICE];
		Rng rng;
		VariantConfig cfg;
		int nbeam = 1, best_score = 0, best_ordered = 0, best_done = 0;
		double best_rank = -1e18;
		bool best_reached = false, found = false;

		rng_seed(&rng, seed);
		for (int t = 0; t < TURNS; t++)
			for (int k = 0; k < ROLLS; k++)
				for (int i = 0; i < TETROLL_DICE; i++)
					dice[t][k][i] = (int8_t)rng_die(&rng, 6);
		variant_config_default(&variant_tetroll, 1, &cfg);
		variant_tetroll.init(&beam[0].s, &cfg);
		for (int turn = 0; turn < TURNS && nbeam; turn++) {
			int npool = 0;
			for (int b = 0; b < nbeam; b++) {
				TetrollState u = beam[b].s;
				bool fits = false;
				for (int k = 0; k < ROLLS && (k == 0 || pay_reroll(&ai, &u)); k++) {
					u.current = 0;
					memcpy(u.dice, dice[turn][k], sizeof(u.dice));
					u.ndice = TETROLL_DICE;
					u.nroll = 0;
					u.stage = TETROLL_STAGE_PLACE;
					u.nqueue = 0;
					npool = expand(&ai, &u, (int)keep, scratch, pool, npool, &fits);
				}
				if (fits)
					continue;
				/* nothing fits after every reroll it can pay: this sheet's game has ended */
				const TetrollState *e = &beam[b].s;
				int score = tetroll_score(e, 0, NULL, (int[TETROLL_BONUSES]){0});
				int ordered = tetrollai_ordered_rows(e, 0);
				bool ok = reached(objective, e, score, ordered);
				double rank = ok * 1e6 + (objective == TETROLLAI_CONRAD ? 1e3 * ordered : 0) + score;
				if (rank > best_rank) {
					found = true;
					best_rank = rank;
					best_reached = ok;
					best_score = score;
					best_ordered = ordered;
					best_done = completed(e);
				}
			}
			sort_nodes(pool, npool, order);
			memset(set, 0, sizeof(uint64_t) * nset);
			nbeam = 0;
			for (int i = 0; i < npool && nbeam < width; i++) {
				const Node *nd = &pool[order[i]];
				size_t h = (size_t)nd->hash & (nset - 1);
				while (set[h] && set[h] != nd->hash)
					h = (h + 1) & (nset - 1);
				if (set[h])
					continue;	/* the same sheet reached another way */
				set[h] = nd->hash;
				beam[nbeam++] = *nd;
			}
		}
		hits += best_reached;
		if (found)
			printf("seed=%llu reached=%d score=%d bonuses=%d ordered=%d\n", (unsigned long long)seed,
			       best_reached, best_score, best_done, best_ordered);
		else	/* Mother Russia: every sheet kept went on to complete a track */
			printf("seed=%llu reached=0 score=none\n", (unsigned long long)seed);
		fflush(stdout);
	}
	printf("reached %ld of %ld\n", hits, games);
	free(beam);
	free(pool);
	free(scratch);
	free(set);
	free(order);
	return 0;
}
