/*
 * arena: play whole games in one process between BotChoose functions,
 * through the engine only: the in-process twin of a refereed game, for
 * measuring AIs quickly and as a determinism signature.
 *
 * Chance moves are drawn from an Rng seeded with the game's seed; player
 * p's own Rng is seeded with rng_derive(seed, "arena-bot", p). Each player
 * sees its state as the referee would show it: state_format for that seat,
 * then state_parse. TURN and REALTIME phases ask the lowest seat of the
 * mask; SIMULTANEOUS phases ask every seat of the mask, then apply_joint.
 * A move that is not legal is replaced by the first legal move and
 * counted in ArenaResult.illegal.
 */
#ifndef TETRARENA_BOTS_ARENA_H
#define TETRARENA_BOTS_ARENA_H

#include <stdint.h>

#include "botio.h"
#include "variant.h"

typedef struct {
	BotChoose choose;
	void *ctx;
} ArenaPlayer;

typedef struct {
	int rank[VARIANT_MAX_PLAYERS];
	int score[VARIANT_MAX_PLAYERS];
	int decisions;		/* moves asked of the players */
	int illegal;		/* moves replaced because they were not legal */
	uint64_t digest;	/* FNV-1a of every move applied, chance included */
} ArenaResult;

/*
 * Play one game of v with cfg (checked by the caller) between
 * players[0..cfg->nplayers-1], each given ms_per_move in `go`. OUT: *res.
 * Returns false when memory could not be had or the game did not end
 * within 100000 steps.
 */
bool arena_play(const Variant *v, const VariantConfig *cfg, const ArenaPlayer *players,
		uint64_t seed, int ms_per_move, ArenaResult *res);

#endif
