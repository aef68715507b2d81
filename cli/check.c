/*
 * check: `referee check --variant V [options] BOT...`, bots put through
 * the protocol item by item (compliance). The command line and the items
 * are check_main()'s, in referee/check.c.
 */
#include "cli.h"
#include "referee/check.h"

int cmd_check(int argc, char **argv)
{
	return check_main(argc, argv);
}
