/*
 * tournament: `referee tournament [FILE] [flags]`, a round robin between
 * bots (tournaments/tournament.h), its games played by the referee
 * (tournaments/runner.h).
 */
#include "cli.h"
#include "tournaments/runner.h"
#include "tournaments/tournament.h"

int cmd_tournament(int argc, char **argv)
{
	return tournament_main(argc, argv);
}
