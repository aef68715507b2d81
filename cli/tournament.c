/*
 * tournament: `referee tournament [FILE] [flags]`, a round robin between
 * bots. The flags fill a TournamentConfig over the file's values
 * (tournaments/tournament.h), and tournament_run() plays it with the
 * referee's runner (tournaments/runner.h). Usage errors exit 2 with
 * "referee tournament: WHY"; the run's own exit status is returned as is.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include <errno.h>
#include <poll.h>

#include "cli.h"
#include "server/watch.h"
#include "referee/usage.h"
#include "tournaments/runner.h"
#include "tournaments/slurm.h"
#include "tournaments/tournament.h"

/* A numeric flag: not given (G_MININT), or within [min, max] into *out;
 * FALSE after saying why. */
static gboolean int_flag(const char *name, int value, int min, int max, int *out)
{
	if (value == G_MININT)
		return TRUE;
	if (value < min || value > max) {
		fprintf(stderr, "referee tournament: %s %d: want an integer from %d to %d\n", name,
			value, min, max);
		return FALSE;
	}
	*out = value;
	return TRUE;
}

static gboolean parse_shard(const char *text, int *index, int *count)
{
	g_auto(GStrv) parts = g_strsplit(text, "/", -1);
	gint64 i, n;

	if (g_strv_length(parts) != 2 ||
	    !g_ascii_string_to_signed(parts[0], 10, 0, 1000000, &i, NULL) ||
	    !g_ascii_string_to_signed(parts[1], 10, 1, 1000000, &n, NULL) || i >= n)
		return FALSE;
	*index = (int)i;
	*count = (int)n;
	return TRUE;
}

/* After the tournament: serve until Ctrl-C (or SIGTERM). The wait is
 * for a person, so it has no deadline; it wakes each second to look. */
static void serve_until_interrupt(void)
{
	int fd = cli_catch_interrupt();

	while (!cli_interrupted()) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (fd < 0)
			g_usleep(G_USEC_PER_SEC);
		else
			(void)poll(&p, 1, 1000);
	}
}

/* `--serve ADDR`: the tournament runs as usual while a server on a thread
 * of its own shows it (server/watch.h); once it has ended (not when it
 * was interrupted or failed), the server goes on, with the report, until
 * Ctrl-C. */
static int serve_tournament(TournamentConfig *cfg, const char *addr, gboolean public_ok)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	if (!cfg->output)	/* as the run will resolve it */
		cfg->output = g_strdup_printf("tournament-%s", cfg->variant_name ? cfg->variant_name : "");
	ServerConfig sc = {.listen = addr, .public_ok = public_ok, .opponents = none, .dir = cfg->output,
			   .tournament = TRUE};
	if (g_mkdir_with_parents(cfg->output, 0755) != 0) {
		fprintf(stderr, "referee tournament: cannot make %s: %s\n", cfg->output, g_strerror(errno));
		return 1;
	}
	Watch *w = watch_start(&sc, cfg->output, &error);
	if (!w) {
		fprintf(stderr, "referee tournament: --serve: %s\n", error->message);
		return g_error_matches(error, SERVER_ERROR, SERVER_ERROR_ADDRESS) ? 2 : 1;
	}
	if (!watch_loopback(w))
		fprintf(stderr, "referee tournament: --serve %s is not loopback: anyone who reaches it can watch "
			"every game and read the standings, logs and replays; there is no login and no TLS\n", addr);
	fprintf(stderr, "referee tournament: serving %s while it runs\n", watch_url(w));
	cfg->watch = watch_tournament_game;
	cfg->watch_data = w;
	int status = tournament_run(cfg, &tournament_referee_runner);
	if (status == 0) {
		fflush(stdout);
		fprintf(stderr, "referee tournament: the tournament is over; serving %s (the report: %sreport) "
			"until Ctrl-C\n", watch_url(w), watch_url(w));
		serve_until_interrupt();
	}
	watch_stop(w);
	return status;
}

int cmd_tournament(int argc, char **argv)
{
	g_autoptr(TournamentConfig) cfg = tournament_config_new();
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *variant = NULL, *options = NULL, *time = NULL, *policy = NULL, *sandbox = NULL;
	g_autofree char *output = NULL, *shard = NULL, *seed = NULL, *sprt = NULL, *bots_file = NULL;
	g_autofree char *gauntlet = NULL, *serve = NULL;
	gboolean serve_public = FALSE;
	g_auto(GStrv) bots = NULL;
	g_auto(GStrv) option = NULL;
	g_auto(GStrv) slurm_opts = NULL;
	int slurm = G_MININT;
	/* G_MININT: not given */
	int players = G_MININT, games = G_MININT, concurrency = G_MININT, watchdog = G_MININT;
	int bootstrap = G_MININT;
	gboolean pin = FALSE, no_pin = FALSE, quiet = FALSE, keep_going = FALSE;
	GOptionEntry entries[] = {
		{ "variant", 'v', 0, G_OPTION_ARG_STRING, &variant, "The game", "NAME" },
		{ "options", 0, 0, G_OPTION_ARG_STRING, &options, "Variant options", "KEY:VALUE,..." },
		{ "option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &option, "One variant option (repeat)", "KEY=VALUE" },
		{ "players", 'p', 0, G_OPTION_ARG_INT, &players, "Seats per game", "K" },
		{ "games", 'g', 0, G_OPTION_ARG_INT, &games, "Games per seating (seeds)", "N" },
		{ "seed", 's', 0, G_OPTION_ARG_STRING, &seed,
		  "Master seed (default: the journal's, else drawn at random)", "SEED" },
		{ "time", 't', 0, G_OPTION_ARG_STRING, &time, "Time control", "bank:MS,inc:MS,..." },
		{ "policy", 0, 0, G_OPTION_ARG_STRING, &policy, "Fault policy", "forfeit|random|nothing" },
		{ "fault-policy", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &policy,
		  "The same as --policy", "POLICY" },
		{ "sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox, "Jail the bots (default auto)", "auto|on|off" },
		{ "concurrency", 'j', 0, G_OPTION_ARG_INT, &concurrency, "Games at once (default: cores)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Output directory", "DIR" },
		{ "bot", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &bots, "A bot (repeat)", "NAME=COMMAND" },
		{ "bots", 0, 0, G_OPTION_ARG_FILENAME, &bots_file,
		  "Bots from a bots file ([bot NAME] groups with limits, as `play --bots`)", "FILE" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &shard, "Play slice I of N", "I/N" },
		{ "slurm", 0, 0, G_OPTION_ARG_INT, &slurm,
		  "Submit to Slurm: an array of N shards into OUTPUT/shardI and a merge job into OUTPUT", "N" },
		{ "slurm-opt", 0, 0, G_OPTION_ARG_STRING_ARRAY, &slurm_opts,
		  "An argument for both sbatch calls (repeat): --partition=P, --time=T, ...", "ARG" },
		{ "pin", 0, 0, G_OPTION_ARG_NONE, &pin,
		  "Each game on one CPU (default for turn-based variants)", NULL },
		{ "no-pin", 0, 0, G_OPTION_ARG_NONE, &no_pin, "Never pin games to CPUs", NULL },
		{ "watchdog", 0, 0, G_OPTION_ARG_INT, &watchdog, "Seconds before a game counts as hung", "S" },
		{ "bootstrap", 0, 0, G_OPTION_ARG_INT, &bootstrap, "Bootstrap fits for intervals", "N" },
		{ "sprt", 0, 0, G_OPTION_ARG_STRING, &sprt,
		  "Stop when this sequential test of the first bot against the second decides "
		  "(pentanomial; alpha, beta default 0.05)", "elo0=A,elo1=B,alpha=X,beta=Y" },
		{ "gauntlet", 0, 0, G_OPTION_ARG_STRING, &gauntlet,
		  "Only the games this bot plays in: it against every other bot", "NAME" },
		{ "keep-going", 0, 0, G_OPTION_ARG_NONE, &keep_going,
		  "Play on when a bot cannot start (its games are forfeits); default: stop", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress line", NULL },
		{ "serve", 0, 0, G_OPTION_ARG_STRING, &serve,
		  "Serve the running tournament on the web: standings, live games, replays; after its end, until Ctrl-C (docs/serve.md)", "HOST:PORT" },
		{ "public", 0, 0, G_OPTION_ARG_NONE, &serve_public,
		  "With --serve: allow an address other than loopback (nothing there is protected)", NULL },
		{ NULL },
	};

	cfg->argv = g_strdupv(argv);
	cfg->referee = cli_program_path();
	ctx = g_option_context_new("[FILE] - play a round-robin tournament");
	g_option_context_set_summary(ctx,
		"Plays every game of a round robin between bots, N at once, recording each\n"
		"finished game in OUTPUT/journal.txt; running the same command again resumes.\n"
		"Standings go to stdout and OUTPUT/standings.{txt,json}, games to OUTPUT/games.csv.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	{
		g_autofree char *numbers = g_strdup_printf(
			"A FILE holds the same settings as a [tournament] group (README, Tournaments);\n"
			"flags override it. Ctrl-C finishes the games in flight, writes partial\n"
			"standings and report.html, and prints the command that resumes.\n"
			"\n"
			"Numbers (as in a file): -p/--players 1..%d (the variant's range); -g/--games\n"
			"1..%d; -j/--concurrency 1..%d; --watchdog 1..%d s; --bootstrap 0..%d;\n"
			"--seed 0..18446744073709551615; --shard I/N with 0 <= I < N <= 1000000;\n"
			"--slurm 1..%d shards; --sprt elo0 < elo1, alpha and beta in (0, 0.5].",
			VARIANT_MAX_PLAYERS, TOURNAMENT_GAMES_MAX, TOURNAMENT_CONCURRENCY_MAX,
			TOURNAMENT_WATCHDOG_MAX, TOURNAMENT_BOOTSTRAP_MAX, SLURM_SHARDS_MAX);
		usage_describe(ctx, numbers, TRUE, TRUE);
	}
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 2;
	}
	if (argc > 2) {
		fprintf(stderr, "referee tournament: one tournament file at most\n");
		return 2;
	}
	if (argc == 2 && !tournament_config_load(cfg, argv[1], &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 2;
	}
#define OVERRIDE(field, value) do { if (value) { g_free(cfg->field); cfg->field = g_steal_pointer(&value); } } while (0)
	OVERRIDE(variant_name, variant);
	OVERRIDE(options, options);
	for (int i = 0; option && option[i]; i++) {
		char *joined = g_strdup_printf("%s%s%s", cfg->options ? cfg->options : "",
					       cfg->options && *cfg->options ? "," : "", option[i]);

		g_free(cfg->options);
		cfg->options = joined;
	}
	OVERRIDE(time, time);
	OVERRIDE(policy, policy);
	OVERRIDE(sandbox, sandbox);
	OVERRIDE(output, output);
	OVERRIDE(sprt, sprt);
	OVERRIDE(gauntlet, gauntlet);
#undef OVERRIDE
	/* The same ranges as the file's keys (tournament.h). */
	if (!int_flag("-p/--players", players, 1, VARIANT_MAX_PLAYERS, &cfg->nseats) ||
	    !int_flag("-g/--games", games, 1, TOURNAMENT_GAMES_MAX, &cfg->games) ||
	    !int_flag("-j/--concurrency", concurrency, 1, TOURNAMENT_CONCURRENCY_MAX, &cfg->concurrency) ||
	    !int_flag("--watchdog", watchdog, 1, TOURNAMENT_WATCHDOG_MAX, &cfg->watchdog_s) ||
	    !int_flag("--bootstrap", bootstrap, 0, TOURNAMENT_BOOTSTRAP_MAX, &cfg->bootstrap))
		return 2;
	if (pin && no_pin) {
		fprintf(stderr, "referee tournament: --pin and --no-pin contradict each other\n");
		return 2;
	}
	if (pin || no_pin)
		cfg->pin = pin ? 1 : 0;
	cfg->progress = !quiet;
	cfg->keep_going = keep_going;
	if (seed && !g_ascii_string_to_unsigned(seed, 10, 0, G_MAXUINT64, &cfg->seed, NULL)) {
		fprintf(stderr, "referee tournament: --seed %s: want an unsigned integer\n", seed);
		return 2;
	}
	if (seed)
		cfg->seed_set = TRUE;
	if (shard && !parse_shard(shard, &cfg->shard_index, &cfg->shard_count)) {
		fprintf(stderr, "referee tournament: --shard %s: want I/N with 0 <= I < N\n", shard);
		return 2;
	}
	if (bots_file && !tournament_config_add_bots_file(cfg, bots_file, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 2;
	}
	for (int i = 0; bots && bots[i]; i++) {
		char *eq = strchr(bots[i], '=');

		if (!eq) {
			fprintf(stderr, "referee tournament: --bot %s: want NAME=COMMAND\n", bots[i]);
			return 2;
		}
		*eq = '\0';
		if (!tournament_config_add_bot(cfg, bots[i], eq + 1, &error)) {
			fprintf(stderr, "referee tournament: %s\n", error->message);
			return 2;
		}
	}
	if (slurm != G_MININT)
		return tournament_slurm_submit(cfg, slurm, slurm_opts);
	if (slurm_opts) {
		fprintf(stderr, "referee tournament: --slurm-opt without --slurm\n");
		return 2;
	}
	if (!serve)
		return tournament_run(cfg, &tournament_referee_runner);
	return serve_tournament(cfg, serve, serve_public);
}
