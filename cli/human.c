/*
 * human: `referee _human`, hidden: a person at this terminal, as a bot.
 * `referee play ... human` starts the referee itself this way (the jail's
 * launcher, referee/sandbox.c). It takes no options or arguments; the
 * player is human_run()'s, in referee/human.c.
 */
#include <glib.h>

#include "cli.h"
#include "referee/human.h"

int cmd_human(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new("- play as the person at this terminal (hidden: "
							     "`referee play ... human` runs it)");

	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc > 1)
		return cli_usage_error("_human: takes no arguments");
	return human_run();
}
