/*
 * human: `referee _human`, hidden: a person at this terminal, as a bot.
 * `referee play ... human` starts the referee itself this way; the player
 * is human_main()'s, in referee/human.c.
 */
#include "cli.h"
#include "referee/human.h"

int cmd_human(int argc, char **argv)
{
	return human_main(argc, argv);
}
