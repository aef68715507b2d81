/*
 * play: `referee play --variant NAME [options] BOT BOT...`, one game.
 *
 * Builds a GameSpec from the options (the variant, seed, time control,
 * variant options, fault policy, sandbox, bots from the command line or a
 * --bots file, `human` for this terminal) and calls game_run()
 * (referee/game.h), which plays the game and writes its log; then prints
 * the result as text or, with --json, as one JSON object. A bot that
 * could not start (referee/nostart.h) is named on stderr, with the reason
 * its log recorded, and the exit status is 1.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "engine/variant.h"
#include "referee/botspec.h"
#include "referee/game.h"
#include "referee/gamejson.h"
#include "referee/gamelog.h"
#include "referee/human.h"
#include "referee/nostart.h"
#include "referee/sandbox.h"
#include "referee/timectl.h"
#include "referee/usage.h"

static gboolean parse_seed(const char *s, guint64 *seed)
{
	return s && g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, seed, NULL);
}

/* ---- play --------------------------------------------------------------- */

static int report(const GameSpec *spec, const GameResult *res, gboolean json)
{
	if (json) {
		g_autofree char *j = gamejson_result(spec, res);
		printf("%s\n", j);
		return 0;
	}
	printf("%s, seed %" G_GUINT64_FORMAT ", ended: %s\n", spec->variant->title, spec->seed,
	       game_end_name(res->end));
	for (int p = 0; p < res->nseats; p++) {
		const GameSeatResult *r = &res->seat[p];
		GString *faults = g_string_new(NULL);
		for (int f = 0; f < GAME_FAULT_COUNT; f++)
			if (r->faults[f])
				g_string_append_printf(faults, "%s%s x%d", faults->len ? ", " : "",
						       game_fault_name(f), r->faults[f]);
		/* named as it named itself, when that differs from the
		 * name the command gave it (a script's file name) */
		g_autofree char *named = r->hello && strcmp(r->hello, r->name) != 0
					 ? g_strdup_printf("%s (%s)", r->hello, r->name) : g_strdup(r->name);
		/* (a bot's own words: escaped as the log escapes them) */
		g_autofree char *name = gamelog_escape(named, 0);
		printf("seat %d %-20s rank %d  score %4d  moves %3d  mean %.1f ms  max %.1f ms%s%s\n", p,
		       name, r->rank, r->score, r->moves, r->mean_ms, r->max_ms,
		       faults->len ? "  faults: " : "", faults->str);
		g_string_free(faults, TRUE);
	}
	if (res->log_path)
		printf("log: %s\n", res->log_path);
	return 0;
}

int cmd_play(int argc, char **argv)
{
	g_autofree char *variant_name = NULL, *seed_text = NULL, *time_spec = NULL, *log_path = NULL;
	g_autofree char *bots_file = NULL, *policy_name = NULL, *sandbox_name = NULL;
	g_auto(GStrv) options = NULL;
	gboolean json = FALSE;
	int cpu = -1, max_faults = GAME_MAX_FAULTS;
	GOptionEntry entries[] = {
		{"variant", 0, 0, G_OPTION_ARG_STRING, &variant_name, "the game (link, ...)", "NAME"},
		{"seed", 0, 0, G_OPTION_ARG_STRING, &seed_text, "the game's seed (default: random)", "N"},
		{"time", 0, 0, G_OPTION_ARG_STRING, &time_spec,
		 "time control, ms: bank:60000,inc:1000,move:5000,start:10000,grace:50,game:0", "SPEC"},
		{"option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options, "a variant option", "KEY=VALUE"},
		{"log", 0, 0, G_OPTION_ARG_FILENAME, &log_path, "write the game log here", "FILE"},
		{"json", 0, 0, G_OPTION_ARG_NONE, &json, "print the result as one JSON object", NULL},
		{"bots", 0, 0, G_OPTION_ARG_FILENAME, &bots_file, "named bots ([bot NAME] groups)", "FILE"},
		{"policy", 0, 0, G_OPTION_ARG_STRING, &policy_name,
		 "forfeit, random or nothing (default: the variant's)", "POLICY"},
		{"fault-policy", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &policy_name,
		 "the same as --policy", "POLICY"},
		{"cpu", 0, 0, G_OPTION_ARG_INT, &cpu, "pin the bots to this CPU", "N"},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name,
		 "jail each bot: auto (when bwrap works, else warn), on (or refuse), off", "MODE"},
		{"max-faults", 0, 0, G_OPTION_ARG_INT, &max_faults,
		 "retire a seat after this many faults in a row (default 3; 0: never)", "N"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("BOT BOT... - play one game");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"Each BOT is a command line (\"python3 mybot.py\"), a bot named in --bots FILE,\n"
		"or `human` to play from this terminal.\n"
		"A crash, or --max-faults faults in a row, retire a seat under every policy but\n"
		"random: not asked again, scores nothing more, ranks last; a game of two ends\n"
		"at once. Under random the seat stays and the referee plays for it. grace is\n"
		"at least 20 ms. --fault-policy is an old name of --policy. A bots file is\n"
		"[bot NAME] groups (command=, workdir=, memory= MiB, cpu= s, processes=, ...)\n"
		"or a [bots] group of NAME = COMMAND, as a tournament file holds them.\n"
		"Ctrl-C (or SIGTERM) stops the game where it stands: its log ends whole with\n"
		"`result ... reason=aborted`, the bots are killed, exit status 130 (143).\n"
		"\n"
		"Numbers: --seed 0..18446744073709551615 (default: drawn at random);\n"
		"--cpu a CPU this process may run on (0..CPUs-1); --max-faults 0..2147483647\n"
		"(default 3, 0: never retire); BOTs: the variant's range of players.", TRUE, TRUE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (!variant_name)
		return cli_usage_error("play: --variant is required");
	const Variant *v = variant_find(variant_name);
	if (!v)
		return cli_usage_error("play: unknown variant '%s'", variant_name);
	int nbots = argc - 1;
	if (nbots < v->min_players || nbots > v->max_players)
		return cli_usage_error("play: %s needs %d to %d bots, got %d", v->name, v->min_players,
				   v->max_players, nbots);
	guint64 seed = ((guint64)g_random_int() << 32) | g_random_int();
	if (seed_text && !parse_seed(seed_text, &seed))
		return cli_usage_error("play: bad --seed '%s' (want an unsigned 64-bit integer)", seed_text);
	if (cpu >= 0) {
		cpu_set_t allowed;
		if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(allowed), &allowed) != 0 ||
		    !CPU_ISSET(cpu, &allowed))
			return cli_usage_error("play: --cpu %d: not a CPU this process may run on", cpu);
	} else if (cpu < -1) {
		return cli_usage_error("play: --cpu %d: want a CPU number", cpu);
	}
	GameSpec spec;
	game_spec_init(&spec, v, nbots, seed);
	spec.cpu = cpu;
	if (sandbox_name && !sandbox_mode_parse(sandbox_name, &spec.sandbox))
		return cli_usage_error("play: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
	if (max_faults < 0)
		return cli_usage_error("play: --max-faults %d: want 0 or more", max_faults);
	spec.max_faults = max_faults;
	if (time_spec) {
		g_autoptr(GError) err = NULL;
		if (!timectl_parse(&spec.time, time_spec, &err))
			return cli_usage_error("play: --time: %s", err->message);
	}
	for (int i = 0; options && options[i]; i++) {
		char *eq = strchr(options[i], '=');
		if (!eq)
			return cli_usage_error("play: --option '%s': want KEY=VALUE", options[i]);
		*eq = '\0';
		VariantError ve = variant_option_set(v, &spec.config, options[i], eq + 1);
		char why[256];
		if (ve != VARIANT_OK)
			return cli_usage_error("play: --option %s=%s: %s", options[i], eq + 1,
					   variant_option_error_text(v, options[i], ve, why, sizeof(why)));
	}
	if (policy_name) {
		spec.policy = gamelog_policy_from_name(policy_name);
		if (spec.policy < 0)
			return cli_usage_error("play: unknown --policy '%s' (forfeit, random, nothing)",
					   policy_name);
	}
	g_autoptr(GHashTable) named = NULL;
	if (bots_file) {
		g_autoptr(GError) err = NULL;
		named = bot_spec_file_load(bots_file, &err);
		if (!named) {
			cli_error(NULL, err);
			return 1;
		}
	}
	g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	for (int i = 0; i < nbots; i++) {
		const char *arg = argv[i + 1];
		BotSpec *bs = named ? g_hash_table_lookup(named, arg) : NULL;
		if (bs) {
			bs = bot_spec_copy(bs);
		} else if (strcmp(arg, "human") == 0) {
			if (human_refusal(v, &spec.config))
				return cli_usage_error("play: %s", human_refusal(v, &spec.config));
			g_autoptr(GError) err = NULL;
			bs = bot_spec_new("human", "human", &err);
			bs->human = TRUE;
		} else {
			g_autoptr(GError) err = NULL;
			bs = bot_spec_new(arg, NULL, &err);
			if (!bs)
				return cli_usage_error("play: %s", err->message);
		}
		g_ptr_array_add(specs, bs);
		spec.seats[i].spec = bs;
	}
	g_autofree char *tmp_log = NULL;
	if (!log_path) {
		g_autoptr(GError) err = NULL;
		/* (no seed in the name: it is a secret while the game runs) */
		g_autofree char *tmpl = g_strdup_printf("tetrarena-%s-XXXXXX.log", v->name);
		int fd = g_file_open_tmp(tmpl, &tmp_log, &err);
		if (fd < 0) {
			cli_error(NULL, err);
			return 1;
		}
		close(fd);
		log_path = g_strdup(tmp_log);
	}
	spec.log_path = log_path;
	/* Ctrl-C ends the game where it stands, its log whole */
	spec.abort_fd = cli_catch_interrupt();
	GameResult res;
	g_autoptr(GError) err = NULL;
	if (!game_run(&spec, &res, &err)) {
		cli_error(NULL, err);
		return 1;
	}
	if (res.end == GAME_END_ABORTED) {
		fprintf(stderr, "referee: interrupted (%s): game aborted after %d moves, bots stopped; "
			"log %s (ends `result ... reason=aborted`)\n", cli_interrupted() == SIGINT ? "SIGINT" : "SIGTERM",
			res.plies, res.log_path ? res.log_path : "none");
		game_result_clear(&res);
		return 128 + cli_interrupted();
	}
	int rc = report(&spec, &res, json);
	/* A bot that never started makes no game: say which and why, on one
	 * line each, and fail. */
	for (int p = 0; p < res.nseats; p++) {
		const GameSeatResult *r = &res.seat[p];
		g_autofree char *why = NULL;

		if (!nostart_seat(r->faults, r->moves))
			continue;
		why = res.log_path ? nostart_reason(res.log_path, p) : g_strdup("no log to tell why");
		/* (the reason quotes the bot's stderr and the log: escaped) */
		g_autofree char *shown = gamelog_escape(why, GAMELOG_ESCAPE_LOGGED);
		fprintf(stderr, "referee: bot %s (seat %d, %s) cannot start: %s\n", r->name, p,
			spec.seats[p].spec->command, shown);
		rc = 1;
	}
	game_result_clear(&res);
	/* a signal too late to stop the game still stops a calling loop */
	return cli_interrupted() ? 128 + cli_interrupted() : rc;
}
