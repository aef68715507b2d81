/*
 * bot-random: plays a uniformly random legal move, in every variant the
 * engine knows and in every phase that asks it (turns, simultaneous
 * rounds, real-time moves alike: botio answers each `go`).
 *
 * The move is randombot_choose() (randombot.c); botio.c does the protocol.
 */
#include <stdio.h>

#include "botio.h"
#include "randombot.h"

int main(int argc, char **argv)
{
	RandomBot bot;

	if (!randombot_init(&bot)) {
		fprintf(stderr, "bot-random: out of memory\n");
		return 1;
	}
	BotioSpec spec = {
		.name = "bot-random",
		.version = "1",
		.about = "Plays a uniformly random legal move in every variant.",
		.choose = randombot_choose,
		.ctx = &bot,
	};
	int status = botio_main(&spec, argc, argv);
	randombot_release(&bot);
	return status;
}
