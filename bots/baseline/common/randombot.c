/* randombot: uniformly random legal moves. See randombot.h. */
#include "randombot.h"

#include <stdlib.h>

bool randombot_init(RandomBot *bot)
{
	int most = 1;

	for (const Variant *const *v = variant_all(); *v; v++)
		if ((*v)->max_moves > most)
			most = (*v)->max_moves;
	bot->scratch = calloc((size_t)most, sizeof(Move));
	return bot->scratch != NULL;
}

void randombot_release(RandomBot *bot)
{
	free(bot->scratch);
	bot->scratch = NULL;
}

Move randombot_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		      void *ctx)
{
	RandomBot *bot = ctx;
	int n = v->legal_moves(state, seat, bot->scratch);

	(void)ms_left;
	return n > 0 ? bot->scratch[rng_below(rng, (uint32_t)n)] : 0;
}
