/*
 * export: `referee export --pgn DIR [-o FILE]`, a tournament's games in a
 * form other rating tools read: PGN for Ordo and BayesElo
 * (tournaments/pgn.h), on stdout or into FILE.
 */
#include <stdio.h>

#include <glib.h>

#include "cli.h"
#include "referee/usage.h"
#include "tournaments/pgn.h"

int cmd_export(int argc, char **argv)
{
	g_autofree char *pgn_dir = NULL, *output = NULL, *pgn = NULL;
	g_autoptr(GError) error = NULL;
	GOptionEntry entries[] = {
		{ "pgn", 0, 0, G_OPTION_ARG_FILENAME, &pgn_dir,
		  "The games of the tournament in DIR as PGN (two-player variants)", "DIR" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write here (default: stdout)", "FILE" },
		{ NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- export a tournament's games");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"PGN: one record per game with the tags Event, Site, Date, Round, White\n"
		"(seat 0), Black (seat 1) and Result, as Ordo and BayesElo read them:\n"
		"  referee export --pgn out/link -o link.pgn && ordo -p link.pgn\n"
		"Numbers: none.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (!pgn_dir || argc > 1)
		return cli_usage_error("export: give --pgn DIR (a tournament's output directory)");
	pgn = pgn_from_tournament(pgn_dir, &error);
	if (!pgn) {
		fprintf(stderr, "referee: export: %s\n", error->message);
		return 1;
	}
	if (output) {
		if (!g_file_set_contents(output, pgn, -1, &error)) {
			fprintf(stderr, "referee: export: %s\n", error->message);
			return 1;
		}
	} else {
		fputs(pgn, stdout);
	}
	return 0;
}
