/*
 * linkmc: flat Monte Carlo with a one-ply policy for link at 3-4 players.
 * See linkmc.h for the method.
 */
#include "linkmc.h"

#include "botclock.h"

void linkmc_init(LinkMc *mc)
{
	linkai_init(&mc->search);
	linkai_init(&mc->rank);
	linkai_init(&mc->policy);
	linkai_use_weights(&mc->rank, LINKAI_WEIGHTS_BEFORE);
	linkai_use_weights(&mc->policy, LINKAI_WEIGHTS_BEFORE);
	mc->policy.depth = 1;
	mc->keep = LINKMC_KEEP;
	mc->playouts = LINKMC_PLAYOUTS;
	mc->min_players = LINKMC_MIN_PLAYERS;
	mc->played = 0;
}

/* The placer's best placement by the policy's evaluation from its side. */
static Move policy_move(const LinkAi *policy, const LinkState *s, int placer)
{
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int n = variant_link.legal_moves(s, placer, moves), best = 0, best_value = 0;

	for (int i = 0; i < n; i++) {
		LinkState t = *s;
		variant_link.apply(&t, placer, moves[i]);
		int value = linkai_evaluate(policy, &t, placer);
		if (i == 0 || value > best_value) {
			best_value = value;
			best = i;
		}
	}
	return moves[best];
}

/*
 * Play s out to the end, the dice from `dice`; what it is worth to
 * `seat`, in 1/12ths (1, 2, 3 or 4 seats sharing first place all divide 12).
 */
static int playout(const LinkAi *policy, LinkState *s, int seat, Rng *dice)
{
	for (int step = 0; step < 10000; step++) {
		uint32_t mask = 0;
		VariantPhase ph = variant_link.phase(s, &mask);
		if (ph == VARIANT_PHASE_OVER)
			break;
		if (ph == VARIANT_PHASE_CHANCE) {
			variant_link.apply(s, VARIANT_CHANCE, variant_link.chance_sample(s, dice));
			continue;
		}
		int placer = s->current;
		variant_link.apply(s, placer, policy_move(policy, s, placer));
	}
	int rank[LINK_MAX_PLAYERS], first = 0;
	variant_link.ranking(s, rank);
	for (int p = 0; p < s->nplayers; p++)
		first += rank[p] == 1;
	return rank[seat] == 1 ? 12 / first : 0;
}

Move linkmc_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx)
{
	LinkMc *mc = ctx;
	const LinkState *s = state;
	LinkAiScored sc[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	long wins[PIECE_ORIENTATIONS * LINK_MAX_WIDTH] = {0};

	mc->played = 0;
	if (s->nplayers < mc->min_players || mc->keep <= 0 || mc->playouts <= 0)
		return linkai_choose(v, state, seat, ms_left, rng, &mc->search);
	double t0 = botclock_ms(), budget = ms_left / LINKMC_BUDGET_PART;
	mc->rank.nodes = 0;
	int n = linkai_rank(&mc->rank, s, seat, sc);
	if (n <= 1)
		return n == 1 ? sc[0].move : 0;
	int keep = n < mc->keep ? n : mc->keep;
	uint64_t base = rng_next(rng);
	for (int r = 0; r < mc->playouts; r++) {
		if (r > 0 && botclock_ms() - t0 > budget)
			break;
		for (int i = 0; i < keep; i++) {
			Rng dice;
			rng_seed(&dice, rng_derive(base, "linkmc-playout", (uint64_t)r));
			LinkState t = *s;
			variant_link.apply(&t, seat, sc[i].move);
			wins[i] += playout(&mc->policy, &t, seat, &dice);
		}
		mc->played = r + 1;
	}
	int best = 0;
	for (int i = 1; i < keep; i++)
		if (wins[i] > wins[best])
			best = i;
	return sc[best].move;
}
