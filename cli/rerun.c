/*
 * rerun: `referee rerun [--log FILE] [--sandbox MODE] LOG`, a logged game
 * played again with the same bots, seed, options and time control; the
 * new log is compared with the old one (replay_compare(),
 * referee/replay.h). Exit status 1 when they differ.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "referee/botspec.h"
#include "referee/game.h"
#include "referee/gamelog.h"
#include "referee/replay.h"
#include "referee/sandbox.h"

int cmd_rerun(int argc, char **argv)
{
	g_autofree char *out_path = NULL, *sandbox_name = NULL;
	GOptionEntry entries[] = {
		{"log", 0, 0, G_OPTION_ARG_FILENAME, &out_path, "the new game's log (default: a temp file)", "FILE"},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name,
		 "jail each bot: auto (default), on, off", "MODE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - play a logged game again and compare");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return cli_usage_error("rerun: want exactly one LOG");
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	GameSpec spec;
	game_spec_init(&spec, log->variant, log->config.nplayers, log->seed);
	spec.config = log->config;
	spec.time = log->time;
	spec.policy = log->policy;
	if (log->max_faults >= 0)
		spec.max_faults = log->max_faults;
	if (sandbox_name && !sandbox_mode_parse(sandbox_name, &spec.sandbox))
		return cli_usage_error("rerun: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
	g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	for (int p = 0; p < log->config.nplayers; p++) {
		g_autoptr(GError) err = NULL;
		BotSpec *bs = bot_spec_new(log->command[p], log->name[p], &err);
		if (!bs) {
			fprintf(stderr, "referee: rerun: seat %d: %s\n", p, err->message);
			return 1;
		}
		bs->human = strcmp(log->command[p], "human") == 0;
		bs->workdir = g_strdup(log->workdir[p]);
		g_ptr_array_add(specs, bs);
		spec.seats[p].spec = bs;
	}
	if (!out_path) {
		g_autoptr(GError) err = NULL;
		int fd = g_file_open_tmp("tetrarena-rerun-XXXXXX.log", &out_path, &err);
		if (fd < 0) {
			fprintf(stderr, "referee: %s\n", err->message);
			return 1;
		}
		close(fd);
	}
	spec.log_path = out_path;
	GameResult res;
	g_autoptr(GError) err = NULL;
	if (!game_run(&spec, &res, &err)) {
		fprintf(stderr, "referee: rerun: %s\n", err->message);
		return 1;
	}
	game_result_clear(&res);
	g_autoptr(GameLog) again = cli_load_log(out_path);
	if (!again)
		return 1;
	if (!replay_compare(log, again, &err)) {
		printf("different: %s\n", err->message);
		return 1;
	}
	printf("same: %u events (new log %s)\n", again->events->len, out_path);
	return 0;
}
