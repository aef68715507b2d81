/* arena: in-process games between bots. See arena.h. */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"

#define ARENA_MAX_STEPS 100000

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

typedef struct {
	void *state, *view;
	Move *moves;
	char *text;
} Arena;

static void arena_release(Arena *a)
{
	free(a->state);
	free(a->view);
	free(a->moves);
	free(a->text);
}

/* Ask seat p for a move in a; a legal one, counting replacements. */
static Move ask(const Variant *v, Arena *a, const VariantConfig *cfg, const ArenaPlayer *pl,
		int p, int ms, Rng *rng, ArenaResult *res)
{
	Text t;
	const void *seen = a->state;

	text_init(&t, a->text, BOTIO_LINE_MAX);
	v->state_format(a->state, p, &t);
	memset(a->view, 0, v->state_size);
	if (!t.overflow && v->state_parse(a->view, cfg, a->text))
		seen = a->view;
	Move m = pl->choose(v, seen, p, ms, rng, pl->ctx);
	res->decisions++;
	if (!variant_move_is_legal(v, a->state, p, m, a->moves)) {
		res->illegal++;
		if (v->legal_moves(a->state, p, a->moves) > 0)
			m = a->moves[0];
	}
	return m;
}

bool arena_play(const Variant *v, const VariantConfig *cfg, const ArenaPlayer *players,
		uint64_t seed, int ms_per_move, ArenaResult *res)
{
	Arena a = {
		.state = calloc(1, v->state_size),
		.view = calloc(1, v->state_size),
		.moves = calloc((size_t)v->max_moves + 1, sizeof(Move)),
		.text = malloc(BOTIO_LINE_MAX),
	};
	Rng chance, rng[VARIANT_MAX_PLAYERS];
	bool over = false;

	memset(res, 0, sizeof(*res));
	res->digest = 0xcbf29ce484222325ULL;
	if (!a.state || !a.view || !a.moves || !a.text) {
		arena_release(&a);
		return false;
	}
	rng_seed(&chance, seed);
	for (int p = 0; p < cfg->nplayers; p++)
		rng_seed(&rng[p], rng_derive(seed, "arena-bot", (uint64_t)p));
	v->init(a.state, cfg);
	for (int step = 0; step < ARENA_MAX_STEPS && !over; step++) {
		uint32_t mask;
		VariantPhase ph = v->phase(a.state, &mask);
		Move joint[VARIANT_MAX_PLAYERS] = {0};

		switch (ph) {
		case VARIANT_PHASE_OVER:
			over = true;
			break;
		case VARIANT_PHASE_CHANCE:
			joint[0] = v->chance_sample(a.state, &chance);
			res->digest = fnv(res->digest, joint[0]);
			v->apply(a.state, VARIANT_CHANCE, joint[0]);
			break;
		case VARIANT_PHASE_TURN:
		case VARIANT_PHASE_REALTIME: {
			int p = variant_mask_player(mask & -mask);
			Move m = ask(v, &a, cfg, &players[p], p, ms_per_move, &rng[p], res);
			res->digest = fnv(res->digest, m);
			v->apply(a.state, p, m);
			break;
		}
		case VARIANT_PHASE_SIMULTANEOUS:
			for (int p = 0; p < cfg->nplayers; p++) {
				if (!(mask >> p & 1u))
					continue;
				joint[p] = ask(v, &a, cfg, &players[p], p, ms_per_move, &rng[p], res);
				res->digest = fnv(res->digest, joint[p]);
			}
			v->apply_joint(a.state, joint, mask);
			break;
		}
	}
	if (over) {
		v->ranking(a.state, res->rank);
		v->scores(a.state, res->score);
	}
	arena_release(&a);
	return over;
}
