/*
 * A starter bot for tetrarena in C, on the bot library (bots/botio.h).
 *
 * botio speaks the whole protocol (protocol.md): it answers `game` with
 * `hello starter-c 1 moves multi`, rebuilds the engine's state from every
 * `go`, and writes the move choose() returns. It keeps no state between
 * `go` lines, so it plays many games in one process (`multi`). Write your
 * strategy in choose() below; it plays every variant the engine knows.
 *
 * Build: make (bin/bot-starter). Run:
 *     bin/referee play --variant link bin/bot-starter bin/bot-random
 */
#include <stdio.h>
#include <stdlib.h>

#include "botio.h"

/*
 * Return one of moves[0..n-1], the legal moves of `seat` in `state` (a
 * state of variant v: v->name is "link", "tetroll", ...; the engine's
 * headers engine/<variant>.h give its fields, v->move_format its
 * notation). ms_left is the time for this move; rng your own generator.
 */
static Move choose(const Variant *v, const void *state, int seat, const Move *moves, int n,
		   int ms_left, Rng *rng)
{
	(void)v, (void)state, (void)seat, (void)ms_left;
	return moves[rng_below(rng, (uint32_t)n)];
}

/* The frame: every legal move of the seat, then choose(). */
static Move frame(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		  void *ctx)
{
	Move *moves = ctx;
	int n = v->legal_moves(state, seat, moves);

	return n > 0 ? choose(v, state, seat, moves, n, ms_left, rng) : 0;
}

int main(int argc, char **argv)
{
	int most = 1;

	for (const Variant *const *v = variant_all(); *v; v++)
		if ((*v)->max_moves > most)
			most = (*v)->max_moves;
	Move *moves = calloc((size_t)most, sizeof(Move));
	if (!moves) {
		fprintf(stderr, "starter-c: out of memory\n");
		return 1;
	}
	BotioSpec spec = {
		.name = "starter-c",
		.version = "1",
		.about = "A starter bot: write choose() in bots/starter/starter.c.",
		.choose = frame,
		.ctx = moves,
	};
	int status = botio_main(&spec, argc, argv);
	free(moves);
	return status;
}
