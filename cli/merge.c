/*
 * merge: `referee merge [-o DIR] [--bootstrap N] DIR...`, tournament runs
 * (shards) combined into one set of standings by tournament_merge()
 * (tournaments/tournament.h).
 */
#include <stdio.h>

#include <glib.h>

#include "cli.h"
#include "referee/usage.h"
#include "tournaments/tournament.h"

int cmd_merge(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *output = NULL;
	int bootstrap = -1;
	g_autofree char *referee = cli_program_path();
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the merged journal and standings here", "DIR" },
		{ "bootstrap", 0, 0, G_OPTION_ARG_INT, &bootstrap, "Bootstrap fits for intervals (default: the first run's)", "N" },
		{ NULL },
	};

	ctx = g_option_context_new("DIR... - combine tournament runs (shards) into one set of standings");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"Each DIR is a tournament's output (a shard: tournament --shard I/N). The\n"
		"journals must be of one tournament; a game in two is counted once.\n"
		"Numbers: --bootstrap 0..100000 (0: no bootstrap; the intervals then come\n"
		"from the normal approximation).", FALSE, FALSE);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "referee merge: %s\n", error->message);
		return 2;
	}
	if (bootstrap != -1 && (bootstrap < 0 || bootstrap > TOURNAMENT_BOOTSTRAP_MAX)) {
		fprintf(stderr, "referee merge: --bootstrap %d: want an integer from 0 to %d\n", bootstrap,
			TOURNAMENT_BOOTSTRAP_MAX);
		return 2;
	}
	if (argc < 2) {
		fprintf(stderr, "referee merge: give one or more tournament output directories\n");
		return 2;
	}
	return tournament_merge(argv + 1, output, bootstrap, referee, TRUE);
}
