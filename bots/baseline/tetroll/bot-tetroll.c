/*
 * bot-tetroll: a Tetroll player (tetrollai.c: expectimax over rerolls,
 * sheet evaluation), speaking protocol.md through botio.c. It plays solo
 * and 2-player games; it declines every other variant.
 *
 * Start reading at choose(): it hands the state rebuilt from `go` to
 * tetrollai_choose() and reports the number of sheets it valued in an
 * `info` line.
 */
#include <stdio.h>

#include "botio.h"
#include "tetroll.h"
#include "tetrollai.h"

static const char *start(const Variant *v, const VariantConfig *cfg, int seat, void *ctx)
{
	(void)cfg;
	(void)seat;
	(void)ctx;
	return v == &variant_tetroll ? NULL : "bot-tetroll plays only tetroll";
}

static Move choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng, void *ctx)
{
	TetrollAi *ai = ctx;
	long before = ai->evals;

	(void)v;
	(void)rng;
	/* Short of time: look at one reroll at a time only (a few ms a move). */
	TetrollAiParams keep = ai->p;
	if (ms_left < 500)
		ai->p.max_rerolls = 1;
	Move m = tetrollai_choose(ai, state, seat);
	ai->p = keep;
	botio_info("evals %ld", ai->evals - before);
	return m;
}

int main(int argc, char **argv)
{
	TetrollAi ai;

	tetrollai_init(&ai);
	BotioSpec spec = {
		.name = "bot-tetroll",
		.version = "1",
		.about = "Plays Tetroll: expectimax over rerolls, greedy follow-ups, sheet evaluation.",
		.choose = choose,
		.start = start,
		.ctx = &ai,
	};
	return botio_main(&spec, argc, argv);
}
