/*
 * matrixai: the Main Match AI (variant `matrix`): which placement to play
 * this round, given the state a seat sees.
 *
 * Each round every player places one piece on the same board, and a cell
 * scores only if nobody else covers it. So the AI first predicts where the
 * others will go. Level 0 (the model of the first versions): the pieces
 * they may hold follow from the deal rules (all distinct from ours, none
 * repeating its holder's last piece; optionally every deal that keeps all
 * the rules counts); for each such piece every legal placement, mixed from
 * two policies, uniform (a random player) and a softmax over a one-piece
 * greedy score (a sensible player), how greedy each opponent looks being
 * learnt during the game (a Bayesian log-odds per seat). Level 1 (issue
 * 17, `MatrixAiWeights.level1` > 0): the others are sensible players who
 * reason at level 0 themselves, so for each piece a seat may hold the AI
 * plays that seat's level-0 decision; how often a seat plays exactly that
 * is learnt as well. Level 2 (issue 33, `level2`): the others may be
 * level-1 players themselves, so for each piece a seat may hold the AI
 * also runs the level-1 AI (matrixai_level1) from that seat's view; each
 * seat is a level-0, 1 or 2 player with a posterior chance learnt from its
 * placements. Each of our placements is then valued on `samples`
 * rounds drawn from that model (the others' pieces from the deal rules,
 * each one's placement its level-2 or level-1 choice or a level-0 draw), resolved
 * with the engine's own scoring: unique cells, +5 a cleared row holding
 * our cell, -3 touching a hole; plus a little for a flat, low surface.
 * With samples 0 the value is the level-0 expectation of the first
 * versions (expected unique cells, +5 for rows we clear, +5 times the
 * chance the others complete a row we sit in, -3 a hole). The two-round
 * lookahead adds `next` times our next piece's best value on the board we
 * leave. Ties go to the Rng.
 *
 * No allocation; the state it keeps between rounds is a MatrixAiBeliefs.
 * Not reentrant (large scratch tables are static).
 */
#ifndef TETRARENA_BOTS_MATRIXAI_H
#define TETRARENA_BOTS_MATRIXAI_H

#include <stdbool.h>
#include <stdint.h>

#include "matrix.h"
#include "rng.h"

typedef struct {
	double unique;	/* weight of an expected unique cell */
	double row;	/* points per cleared row */
	double hole;	/* the hole penalty */
	double bumpy;	/* per unit of surface roughness after the move */
	double height;	/* per row of the highest column after the move */
	bool infer;	/* infer the others' pieces from the deal rules */
	bool end;	/* weigh ending the game when our move ends it */
	bool learn;	/* learn each opponent's greediness */
	double temp;	/* softmax temperature of the greedy opponent model */
	double rowprob;	/* weight of rows the others may complete */
	double next;	/* weight of the best placement of our next piece after */
	double level1;	/* prior chance an opponent plays its level-1 choice; 0 off */
	int samples;	/* sampled rounds per placement (0: level-0 expectation) */
	double noise;	/* > 0: each placement's value gets a draw in [-noise, noise] from the Rng */
	int level2;	/* 1: with level1 > 0, an opponent's predicted choice is the one this
			   AI at matrixai_level1 makes from its seat (level 2) */
} MatrixAiWeights;

/* Today's AI: level 2, sampled. */
extern const MatrixAiWeights matrixai_default;
/* The AI before level 2 (issue 33's baseline, main 17936f0): level 1, sampled. */
extern const MatrixAiWeights matrixai_level1;
/* The AI as frozen before issue 17 (bin/bot-matrix-baseline). */
extern const MatrixAiWeights matrixai_frozen;
/* The first version, for comparisons. */
extern const MatrixAiWeights matrixai_first;

/*
 * The AI at `level` (botlevel.h, 1..5): 5 matrixai_default; 4 the level-0
 * expectation (matrixai_frozen) with MATRIXAI_NOISE4 points of noise on
 * each placement's value; 3, 2 and 1 the same with MATRIXAI_NOISE3, 2 and
 * 1, and level 1 blind to the rows the others may complete (rowprob 0).
 * Set so that at one table of the five levels and bot-random (the
 * referee, default time, Plackett-Luce over the finishing order) each
 * level is over 100 Elo above the next (docs/ai/matrix.md, Levels). A level 4
 * that kept the sampled model of the others (at level 0, or level 1 with
 * fewer samples, or with noise) stayed within 90 Elo of level 5, or rated
 * with level 3. bin/bot-matrix --help spells the four noises from these.
 */
#define MATRIXAI_NOISE4 1.85
#define MATRIXAI_NOISE3 6.0
#define MATRIXAI_NOISE2 14.0
#define MATRIXAI_NOISE1 36.0
MatrixAiWeights matrixai_level(int level);

/* What the AI learns during a game; matrixai_beliefs_init for each game. */
typedef struct {
	double log_odds[MATRIX_MAX_PLAYERS];	/* greedy versus random, per seat */
	double l1_log_odds[MATRIX_MAX_PLAYERS];	/* level 1 versus level 0, learnt */
	bool have_prev;
	MatrixState prev;			/* the state of the last decision */
	/* Level-1 choices predicted last round: per seat and kind, a move. */
	Move predicted[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	/* Level 2 (w->level2): the same for the level-2 choices, and how
	 * often a seat plays them, learnt as l1_log_odds is; a seat is
	 * modelled by whichever of the two it has played more. */
	Move predicted2[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	double l2_log_odds[MATRIX_MAX_PLAYERS];
	/* Pieces each seat has shown (placed) in the current block of 7. */
	int block;				/* round / DEAL_BLOCK they belong to */
	uint8_t shown[MATRIX_MAX_PLAYERS];
	int8_t my_last;				/* our piece last round, -1 */
} MatrixAiBeliefs;

void matrixai_beliefs_init(MatrixAiBeliefs *b);

/*
 * The decision for seat `me` in a place-stage state holding one piece:
 * the best of its legal placements by w, ties (and samples) from rng.
 * Updates b from the last round. Returns 0 when it has no legal placement.
 */
Move matrixai_choose(const MatrixState *s, int me, MatrixAiBeliefs *b, const MatrixAiWeights *w,
		     Rng *rng);

#endif
