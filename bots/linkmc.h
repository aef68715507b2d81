/*
 * linkmc: Monte Carlo over whole games for Tetris Link (engine/link.h),
 * meant for tables of 3 and 4 players, where a search's model of the
 * other players (paranoid, max^n: linkai.h) decides the game.
 *
 * The method (flat Monte Carlo with a policy): our legal placements are
 * ordered by linkai's two-ply search (linkai_rank, with `rank`), the LINKMC_KEEP best
 * are kept, and each is played out to the end of the game many times:
 * the dice drawn from our Rng, every placement of every player (ours
 * too) the placer's best by linkai's one-ply evaluation from its own
 * side. A playout is worth 1 when we rank first alone, 1/k when k seats
 * share first place, 0 otherwise; the placement whose playouts are worth
 * most is played, ties to the better two-ply value. Playouts with the
 * same index share their dice (common random numbers), so candidates
 * are compared on the same futures. They run round-robin over the
 * candidates until LINKMC_PLAYOUTS each or until MS / LINKMC_BUDGET_PART
 * of the move's time is spent, so every candidate has the same count.
 *
 * At fewer than min_players (LINKMC_MIN_PLAYERS by default)
 * linkmc_choose is linkai_choose: at 2 players the search is right. Deterministic given the Rng and enough time; no allocation.
 */
#ifndef TETRARENA_BOTS_LINKMC_H
#define TETRARENA_BOTS_LINKMC_H

#include "linkai.h"

#define LINKMC_KEEP 6		/* root placements played out */
#define LINKMC_PLAYOUTS 150	/* playouts a candidate, at most */
#define LINKMC_BUDGET_PART 10.0	/* playouts stop at MS / this */
#define LINKMC_MIN_PLAYERS 3	/* smaller tables search instead */

typedef struct {
	LinkAi search;		/* plays tables under min_players (2 players) */
	LinkAi rank;		/* orders the root placements to play out */
	LinkAi policy;		/* plays the playouts: depth 1 */
	int keep;		/* root placements played out (LINKMC_KEEP) */
	int playouts;		/* playouts a candidate, at most (LINKMC_PLAYOUTS) */
	int min_players;	/* fewer players: linkai_choose (LINKMC_MIN_PLAYERS) */
	int played;		/* playouts a candidate the last choose made */
} LinkMc;

/*
 * Set up with linkai's defaults for the search; the rank and the policy
 * with LINKAI_WEIGHTS_BEFORE, the weights the playouts were measured with
 * (docs/ai/link.md: the fitted ones were fitted to 2-player games only).
 */
void linkmc_init(LinkMc *mc);

/* A BotChoose (ctx is a LinkMc) for variant_link states only. */
Move linkmc_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx);

#endif
