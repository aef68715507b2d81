/*
 * rerun: `referee rerun [--log FILE] [--sandbox MODE] LOG`, a logged game
 * played again with the same bots, seed, options and time control; the
 * new log is compared with the old one (replay_compare(),
 * referee/replay.h). Exit status 1 when they differ, with what the logs
 * tell of why (referee/differ.h).
 *
 * A log that does not verify is refused before any bot starts. Without
 * --log the new log and its stderr files go to a directory of their own
 * under TMPDIR, removed at the end whatever happens (Ctrl-C included).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "referee/botspec.h"
#include "referee/differ.h"
#include "referee/game.h"
#include "referee/gamelog.h"
#include "referee/replay.h"
#include "referee/sandbox.h"
#include "referee/usage.h"

/* Remove a directory of files (the temporary one this made). */
static void remove_dir(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_unlink(path);
	}
	g_rmdir(dir);
}

/* Play the game of `log` again into out_path and compare. */
static int rerun(const GameLog *log, const char *out_path, const char *sandbox_name, gboolean kept)
{
	GameSpec spec;
	game_spec_init(&spec, log->variant, log->config.nplayers, log->seed);
	spec.config = log->config;
	spec.time = log->time;
	for (int p = 0; p < log->config.nplayers; p++)
		if (log->seat_timed & (1u << p)) {
			spec.seats[p].timed = TRUE;
			spec.seats[p].time = log->seat_time[p];
		}
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
	spec.log_path = out_path;
	spec.abort_fd = cli_catch_interrupt();
	GameResult res;
	g_autoptr(GError) err = NULL;
	if (!game_run(&spec, &res, &err)) {
		fprintf(stderr, "referee: rerun: %s\n", err->message);
		return 1;
	}
	gboolean aborted = res.end == GAME_END_ABORTED;
	game_result_clear(&res);
	if (aborted) {
		fprintf(stderr, "referee: rerun: interrupted (%s): the rerun was aborted\n",
			cli_interrupted() == SIGINT ? "SIGINT" : "SIGTERM");
		return 128 + cli_interrupted();
	}
	g_autoptr(GameLog) again = cli_load_log(out_path);
	if (!again)
		return 1;
	guint ia, ib;
	if (!replay_first_difference(log, again, &ia, &ib)) {
		printf("same: %u events%s%s%s\n", again->events->len, kept ? " (new log " : "",
		       kept ? out_path : "", kept ? ")" : "");
		return 0;
	}
	if (replay_aborted(log) && ia < log->events->len &&
	    ((const GameLogEvent *)g_ptr_array_index(log->events, ia))->kind == GAMELOG_RESULT) {
		printf("same up to line %d, where the game was aborted (its result says reason=aborted)\n",
		       ((const GameLogEvent *)g_ptr_array_index(log->events, ia))->lineno);
		return 0;
	}
	if (!kept) {
		/* (a path about to be removed names nothing) */
		g_free(again->path);
		again->path = g_strdup("(rerun)");
	}
	g_autofree char *why = differ_explain(log, again);
	printf("different: %s", why);
	if (!kept)
		printf("  (the new log is removed: keep it with --log FILE)\n");
	return 1;
}

int cmd_rerun(int argc, char **argv)
{
	g_autofree char *out_path = NULL, *sandbox_name = NULL;
	GOptionEntry entries[] = {
		{"log", 0, 0, G_OPTION_ARG_FILENAME, &out_path,
		 "keep the new game's log here (default: a temporary one, removed)", "FILE"},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name,
		 "jail each bot: auto (default), on, off", "MODE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - play a logged game again and compare");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"The same bots (the logged commands), seed, options, time control and fault\n"
		"policy. A LOG that does not verify is refused, no game played. Exit status 0\n"
		"when the rerun records the same game (moves, chance, faults, side actions,\n"
		"result; times apart), 1 when it differs: then the first differing line of\n"
		"each log, the seat, and what the logs tell of why (a bot deciding by the\n"
		"clock, its moves late or early, talk or real-time moves in another order).\n"
		"Without --log the new log goes to a directory of its own under TMPDIR,\n"
		"removed at the end. Numbers: none.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return cli_usage_error("rerun: want exactly one LOG");
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	g_autoptr(GError) err = NULL;
	if (!replay_verify(log, &err)) {
		fprintf(stderr, "referee: rerun: %s does not verify, no game played: %s\n", argv[1], err->message);
		return 1;
	}
	if (out_path)
		return rerun(log, out_path, sandbox_name, TRUE);
	g_autofree char *dir = g_dir_make_tmp("tetrarena-rerun-XXXXXX", &err);
	if (!dir) {
		fprintf(stderr, "referee: rerun: %s\n", err->message);
		return 1;
	}
	g_autofree char *path = g_build_filename(dir, "rerun.log", NULL);
	int rc = rerun(log, path, sandbox_name, FALSE);
	remove_dir(dir);
	return rc;
}
