/*
 * rerun: `referee rerun [--log FILE] [--sandbox MODE] [--trust-log] LOG
 * [BOT...]`, a logged game played again with the same bots (or the BOTs
 * given, one a seat), seed, options and time control; the
 * new log is compared with the old one (replay_compare(),
 * referee/replay.h). Exit status 1 when they differ, with what the logs
 * tell of why (referee/differ.h).
 *
 * A log that does not verify is refused before any bot starts. Without
 * --log the new log and its stderr files go to a directory of their own
 * under TMPDIR, removed at the end whatever happens (Ctrl-C included).
 *
 * A log is untrusted input: not jailed (--sandbox off, or auto where no
 * jail can be had), the logged commands run only with --trust-log;
 * otherwise the BOTs must name them again (cli_log_trusted()).
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
static int rerun(const GameLog *log, const char *out_path, const char *sandbox_name, gboolean trust_log,
		 char **bots, gboolean kept)
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
	g_autoptr(GError) serr = NULL;
	if (!sandbox_resolve(spec.sandbox, &spec.sandbox, &serr)) {
		fprintf(stderr, "referee: rerun: %s\n", serr->message);
		return 1;
	}
	if (!bots && spec.sandbox == SANDBOX_OFF && !trust_log &&
	    !cli_log_trusted("rerun", log->path, (const char *const *)log->command, log->config.nplayers))
		return 1;
	g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	for (int p = 0; p < log->config.nplayers; p++) {
		g_autoptr(GError) err = NULL;
		const char *command = bots ? bots[p] : log->command[p];
		BotSpec *bs = bot_spec_new(command, log->name[p], &err);
		if (!bs) {
			g_autofree char *what = g_strdup_printf("rerun: seat %d", p);
			cli_error(what, err);
			return 1;
		}
		bs->human = strcmp(command, "human") == 0;
		if (!bots)
			bs->workdir = g_strdup(log->workdir[p]);
		g_ptr_array_add(specs, bs);
		spec.seats[p].spec = bs;
	}
	spec.log_path = out_path;
	spec.abort_fd = cli_catch_interrupt();
	GameResult res;
	g_autoptr(GError) err = NULL;
	if (!game_run(&spec, &res, &err)) {
		cli_error("rerun", err);
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
	/* (it quotes both logs: escaped as their text) */
	g_autofree char *shown = gamelog_escape(why, GAMELOG_ESCAPE_LINES | GAMELOG_ESCAPE_LOGGED);
	printf("different: %s", shown);
	if (!kept)
		printf("  (the new log is removed: keep it with --log FILE)\n");
	return 1;
}

int cmd_rerun(int argc, char **argv)
{
	g_autofree char *out_path = NULL, *sandbox_name = NULL;
	gboolean trust_log = FALSE;
	GOptionEntry entries[] = {
		{"log", 0, 0, G_OPTION_ARG_FILENAME, &out_path,
		 "keep the new game's log here (default: a temporary one, removed)", "FILE"},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name,
		 "jail each bot: auto (default), on, off", "MODE"},
		{"trust-log", 0, 0, G_OPTION_ARG_NONE, &trust_log, "not jailed, run the bot commands the log names all "
		 "the same (without it, name them as BOT...)", NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG [BOT...] - play a logged game again and compare");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"The same bots (the logged commands), seed, options, time control and fault\n"
		"policy. A LOG that does not verify is refused, no game played. Exit status 0\n"
		"when the rerun records the same game (moves, chance, faults, side actions,\n"
		"result; times apart), 1 when it differs: then the first differing line of\n"
		"each log, the seat, and what the logs tell of why (a bot deciding by the\n"
		"clock, its moves late or early, talk or real-time moves in another order).\n"
		"Without --log the new log goes to a directory of its own under TMPDIR,\n"
		"removed at the end. BOT...: one command a seat, run instead of the logged\n"
		"ones (in the current directory). Not jailed (--sandbox off), the logged\n"
		"commands run only with --trust-log: a log from elsewhere may name any\n"
		"command. Numbers: none.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc < 2)
		return cli_usage_error("rerun: want a LOG");
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	char **bots = argc > 2 ? argv + 2 : NULL;
	if (bots && argc - 2 != log->config.nplayers)
		return cli_usage_error("rerun: want one BOT a seat: the log has %d, not %d", log->config.nplayers,
				       argc - 2);
	g_autoptr(GError) err = NULL;
	if (!replay_verify(log, &err)) {
		g_autofree char *what = g_strdup_printf("rerun: %s does not verify, no game played", argv[1]);
		cli_error(what, err);
		return 1;
	}
	if (out_path)
		return rerun(log, out_path, sandbox_name, trust_log, bots, TRUE);
	g_autofree char *dir = g_dir_make_tmp("tetrarena-rerun-XXXXXX", &err);
	if (!dir) {
		cli_error("rerun", err);
		return 1;
	}
	g_autofree char *path = g_build_filename(dir, "rerun.log", NULL);
	int rc = rerun(log, path, sandbox_name, trust_log, bots, FALSE);
	remove_dir(dir);
	return rc;
}
