/*
 * merge: `referee merge [-o DIR] DIR...`, tournament runs (shards)
 * combined into one set of standings (tournaments/tournament.h).
 */
#include "cli.h"
#include "tournaments/tournament.h"

int cmd_merge(int argc, char **argv)
{
	return tournament_merge_main(argc, argv);
}
