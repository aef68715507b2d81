/*
 * deal: the Main Match's dealing of pieces (rules.md, section `matrix`).
 *
 * Rounds come in blocks of DEAL_BLOCK = 7. In a block with n players
 * (2..7), player p receives one piece per round and every one of the 7
 * pieces once (a row of an n x 7 Latin rectangle); in each round the n
 * players receive distinct pieces (for n = 7 the block is a Latin square).
 * Between consecutive rounds, inside a block and across block boundaries,
 * nobody receives the same piece twice in a row, and no two players swap
 * (a had X and b had Y; now a has Y and b has X). For 7 players this is
 * "every cycle of the round-to-round piece map has length 3 or more"; for
 * fewer players the same two rules are applied to the pieces dealt.
 *
 * Choosing round by round can dead-end inside a block, so deal_block()
 * fills a whole block by randomized backtracking (cells in round-major
 * order, candidates in an order shuffled by the Rng), restarting with fresh
 * random orders if a search grows too long. It is a pure function of the
 * Rng state, the player count and the previous round: the same seed deals
 * the same block on every machine.
 */
#ifndef TETRARENA_ENGINE_DEAL_H
#define TETRARENA_ENGINE_DEAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"

#define DEAL_BLOCK 7		/* rounds per block, and pieces */
#define DEAL_MAX_PLAYERS 7

/*
 * Deal one block. prev[p] is player p's piece in the round before the block
 * (PieceKind values), or prev is NULL for the first block. OUT: out[r][p],
 * the piece of player p in round r of the block. Advances the Rng. Always
 * succeeds for 2..7 players.
 */
void deal_block(Rng *rng, int nplayers, const int8_t *prev,
		int8_t out[DEAL_BLOCK][DEAL_MAX_PLAYERS]);

/* Whether round `b` may follow round `a` (no repeat, no swap), n players. */
bool deal_step_ok(int nplayers, const int8_t *a, const int8_t *b);

/* Whether one round deals n distinct valid pieces. */
bool deal_round_ok(int nplayers, const int8_t *r);

/*
 * Whether a whole block keeps every rule: each round valid, each player
 * every piece once, each step ok (from prev, if not NULL).
 */
bool deal_block_ok(int nplayers, const int8_t *prev,
		   const int8_t block[DEAL_BLOCK][DEAL_MAX_PLAYERS]);

#endif
