/*
 * randombot: a uniformly random legal move in any variant, as a BotChoose
 * for bin/bot-random and as the random opponent of in-process harnesses
 * and tests.
 */
#ifndef TETRARENA_BOTS_RANDOMBOT_H
#define TETRARENA_BOTS_RANDOMBOT_H

#include "rng.h"
#include "variant.h"

typedef struct {
	Move *scratch;		/* room for the largest max_moves of any variant */
} RandomBot;

/* Allocate the scratch list; false when out of memory. */
bool randombot_init(RandomBot *bot);

/* Free the scratch list. */
void randombot_release(RandomBot *bot);

/*
 * A BotChoose (ctx is a RandomBot): one of legal_moves(state, seat), each
 * with the same chance, drawn from rng; 0 when there is none.
 */
Move randombot_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		      void *ctx);

#endif
