/*
 * linkai: a Tetris Link player (engine/link.h), as a BotChoose.
 *
 * The search is expectimax two plies deep: each of our placements, then
 * each of the six faces the next player may roll (equally likely; a roll
 * that cannot be played skips their turn), then that player's best reply
 * by the same evaluation from their side. The evaluation adds to the
 * points already scored the promise of each group: the open cells (empty
 * and reachable by a falling piece) along it, weighted by what one more
 * linked piece would gain (3 points for a pair, 1 for a group of three or
 * more), scaled by the pieces the owner has left. It is our value less the
 * best opponent's. Without enough time for the second ply (under
 * LINKAI_FAST_MS) it plays the best move of the first.
 *
 * Deterministic: equal values go to the first move in legal_moves order;
 * the Rng is not used. No allocation after linkai_init.
 */
#ifndef TETRARENA_BOTS_LINKAI_H
#define TETRARENA_BOTS_LINKAI_H

#include "link.h"
#include "rng.h"
#include "variant.h"

#define LINKAI_FAST_MS 150

/* Weights of the evaluation, in tenths of a point. */
enum {
	LINKAI_W_OPEN1,		/* per open cell along a lone piece */
	LINKAI_W_OPEN2,		/* per open cell along a pair */
	LINKAI_W_OPEN3,		/* per open cell along a group of 3 or more */
	LINKAI_W_CAP,		/* open cells counted per group */
	LINKAI_W_LEFT,		/* promise is full with this many pieces left */
	LINKAI_W_BUMP,		/* per unit of height step between columns */
	LINKAI_W_COUNT
};

typedef struct {
	int depth;		/* 1 greedy on the evaluation, 2 expectimax (default) */
	int w[LINKAI_W_COUNT];	/* evaluation weights */
	long nodes;		/* states evaluated by the last choose */
} LinkAi;

/* Set up with the default depth and weights. */
void linkai_init(LinkAi *ai);

/*
 * Set weights from "a,b,c,..." (a prefix of the LINKAI_W_* order); false
 * when malformed, leaving the rest unchanged.
 */
bool linkai_set_weights(LinkAi *ai, const char *list);

/* The evaluation of s for `seat`, in tenths of a point; higher is better. */
int linkai_evaluate(const LinkAi *ai, const LinkState *s, int seat);

/* A BotChoose (ctx is a LinkAi) for variant_link states only. */
Move linkai_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx);

#endif
