/*
 * verify: `referee verify LOG`, a game log checked against the rules
 * (replay_verify(), referee/replay.h) without the bots.
 */
#include <stdio.h>

#include <glib.h>

#include "cli.h"
#include "referee/gamelog.h"
#include "referee/replay.h"
#include "referee/usage.h"

int cmd_verify(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - check a game log against the rules");
	usage_describe(ctx,
		"Replays LOG through the rules (docs/gamelog.md, What verify checks): exit 0\n"
		"and `LOG: ok`, or `LOG:LINE: why` and exit 1 at the first line that does not\n"
		"check out. A game aborted by Ctrl-C checks out as `ok, an aborted game`.\n"
		"Numbers: none.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return cli_usage_error("verify: want exactly one LOG");
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	g_autoptr(GError) err = NULL;
	if (!replay_verify(log, &err)) {
		cli_error("verify", err);
		return 1;
	}
	if (replay_aborted(log))
		printf("%s: ok, an aborted game: valid up to its result, stopped before its end (%u events)\n",
		       argv[1], log->events->len);
	else
		printf("%s: ok (%u events)\n", argv[1], log->events->len);
	return 0;
}
