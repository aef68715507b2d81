/*
 * referee: the `referee` command.
 *
 *   referee play --variant NAME [options] BOT BOT...   play one game
 *   referee verify LOG      check a game log against the rules
 *   referee view [--step] LOG   show a logged game move by move
 *   referee view --html LOG [-o FILE]   the same as one self-contained web page
 *   referee rerun LOG       play a logged game again with the same bots
 *   referee tournament [FILE] [flags]   a round robin (tournaments/)
 *   referee merge DIR...    combine tournament shards' standings
 *
 * How it works: main() looks the first argument up in `subcommands` and
 * hands it the remaining arguments; each subcommand parses its own options
 * with GOptionContext. Exit status: 0 success, 1 a runtime failure (or a
 * verification that fails), 2 a usage error. Start reading at cmd_play():
 * it builds a GameSpec and calls game_run() (referee/game.c), which drives
 * the bots (referee/bot.c) through the variant's table (engine/variant.h)
 * and writes the log (docs/gamelog.md) that verify, view and rerun
 * (referee/replay.c) read back.
 *
 * Adding a subcommand (the tournament's `tournament` and `merge`): write
 * `int NAME_main(int argc, char **argv)` in your own module (argv[0] is the
 * subcommand's name, so GOptionContext works as usual; return the exit
 * status), include its header here and add one row to `subcommands`.
 * Nothing else here needs to change.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "referee/bot.h"
#include "referee/check.h"
#include "referee/game.h"
#include "referee/gamejson.h"
#include "referee/html.h"
#include "referee/json.h"
#include "referee/sandbox.h"
#include "referee/gamelog.h"
#include "referee/human.h"
#include "referee/replay.h"
#include "engine/variant.h"
#include "tournaments/runner.h"
#include "tournaments/tournament.h"

#define EXIT_USAGE 2

/* Print "referee: MESSAGE" and return the usage exit status. */
static int usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int usage_error(const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "referee: %s\n", msg);
	return EXIT_USAGE;
}

/* Parse a subcommand's options; on failure print the message, exit 2. */
static gboolean parse_options(GOptionContext *ctx, int *argc, char ***argv)
{
	g_autoptr(GError) err = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		fprintf(stderr, "referee: %s\n", err->message);
		return FALSE;
	}
	return TRUE;
}

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
		printf("seat %d %-20s rank %d  score %4d  moves %3d  mean %.1f ms  max %.1f ms%s%s\n", p,
		       r->name, r->rank, r->score, r->moves, r->mean_ms, r->max_ms,
		       faults->len ? "  faults: " : "", faults->str);
		g_string_free(faults, TRUE);
	}
	if (res->log_path)
		printf("log: %s\n", res->log_path);
	return 0;
}

static int cmd_play(int argc, char **argv)
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
		{"fault-policy", 0, 0, G_OPTION_ARG_STRING, &policy_name,
		 "forfeit, random or nothing (default: the variant's)", "POLICY"},
		{"cpu", 0, 0, G_OPTION_ARG_INT, &cpu, "pin the bots to this CPU", "N"},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name,
		 "jail each bot: auto (when bwrap works, else warn), on (or refuse), off", "MODE"},
		{"max-faults", 0, 0, G_OPTION_ARG_INT, &max_faults,
		 "retire a seat after this many faults in a row (default 3; 0: never)", "N"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("BOT BOT... - play one game");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Each BOT is a command line (\"python3 mybot.py\"), a bot named in --bots FILE,\n"
		"or `human` to play from this terminal.\n"
		"A crash, or --max-faults faults in a row, retire a seat under every policy but\n"
		"random: not asked again, scores nothing more, ranks last; a game of two ends\n"
		"at once. Under random the seat stays and the referee plays for it. grace is\n"
		"at least 20 ms.");
	if (!parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (!variant_name)
		return usage_error("play: --variant is required");
	const Variant *v = variant_find(variant_name);
	if (!v)
		return usage_error("play: unknown variant '%s'", variant_name);
	int nbots = argc - 1;
	if (nbots < v->min_players || nbots > v->max_players)
		return usage_error("play: %s needs %d to %d bots, got %d", v->name, v->min_players,
				   v->max_players, nbots);
	guint64 seed = ((guint64)g_random_int() << 32) | g_random_int();
	if (seed_text && !parse_seed(seed_text, &seed))
		return usage_error("play: bad --seed '%s' (want an unsigned 64-bit integer)", seed_text);
	if (cpu >= 0) {
		cpu_set_t allowed;
		if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(allowed), &allowed) != 0 ||
		    !CPU_ISSET(cpu, &allowed))
			return usage_error("play: --cpu %d: not a CPU this process may run on", cpu);
	} else if (cpu < -1) {
		return usage_error("play: --cpu %d: want a CPU number", cpu);
	}
	GameSpec spec;
	game_spec_init(&spec, v, nbots, seed);
	spec.cpu = cpu;
	if (sandbox_name && !sandbox_mode_parse(sandbox_name, &spec.sandbox))
		return usage_error("play: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
	if (max_faults < 0)
		return usage_error("play: --max-faults %d: want 0 or more", max_faults);
	spec.max_faults = max_faults;
	if (time_spec) {
		g_autoptr(GError) err = NULL;
		if (!timectl_parse(&spec.time, time_spec, &err))
			return usage_error("play: --time: %s", err->message);
	}
	for (int i = 0; options && options[i]; i++) {
		char *eq = strchr(options[i], '=');
		if (!eq)
			return usage_error("play: --option '%s': want KEY=VALUE", options[i]);
		*eq = '\0';
		VariantError ve = variant_option_set(v, &spec.config, options[i], eq + 1);
		if (ve != VARIANT_OK)
			return usage_error("play: --option %s=%s: %s", options[i], eq + 1,
					   variant_error_string(ve));
	}
	if (policy_name) {
		spec.policy = gamelog_policy_from_name(policy_name);
		if (spec.policy < 0)
			return usage_error("play: unknown --fault-policy '%s' (forfeit, random, nothing)",
					   policy_name);
	}
	g_autoptr(GHashTable) named = NULL;
	if (bots_file) {
		g_autoptr(GError) err = NULL;
		named = bot_spec_file_load(bots_file, &err);
		if (!named) {
			fprintf(stderr, "referee: %s\n", err->message);
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
			g_autoptr(GError) err = NULL;
			bs = bot_spec_new("human", "human", &err);
			bs->human = TRUE;
		} else {
			g_autoptr(GError) err = NULL;
			bs = bot_spec_new(arg, NULL, &err);
			if (!bs)
				return usage_error("play: %s", err->message);
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
			fprintf(stderr, "referee: %s\n", err->message);
			return 1;
		}
		close(fd);
		log_path = g_strdup(tmp_log);
	}
	spec.log_path = log_path;
	GameResult res;
	g_autoptr(GError) err = NULL;
	if (!game_run(&spec, &res, &err)) {
		fprintf(stderr, "referee: %s\n", err->message);
		return 1;
	}
	int rc = report(&spec, &res, json);
	game_result_clear(&res);
	return rc;
}

/* ---- verify, view, rerun ------------------------------------------------ */

static GameLog *load_log(const char *path)
{
	g_autoptr(GError) err = NULL;
	GameLog *log = gamelog_read(path, &err);

	if (!log)
		fprintf(stderr, "referee: %s\n", err->message);
	return log;
}

static int cmd_verify(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - check a game log against the rules");
	if (!parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return usage_error("verify: want exactly one LOG");
	g_autoptr(GameLog) log = load_log(argv[1]);
	if (!log)
		return 1;
	g_autoptr(GError) err = NULL;
	if (!replay_verify(log, &err)) {
		fprintf(stderr, "referee: verify: %s\n", err->message);
		return 1;
	}
	printf("%s: ok (%u events)\n", argv[1], log->events->len);
	return 0;
}

/* view --html: write the replay page to `out` ("-" for stdout). */
static int view_html(const GameLog *log, const char *out)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *json = replay_json(log, &err);
	if (!json) {
		fprintf(stderr, "referee: view: %s\n", err->message);
		return 1;
	}
	g_autofree char *base = g_path_get_basename(log->path);
	g_autofree char *title = g_strdup_printf("%s: %s", log->variant->title, base);
	g_autofree char *page = html_replay_page(title, json);
	if (g_strcmp0(out, "-") == 0) {
		fputs(page, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (!g_file_set_contents(out, page, -1, &err)) {
		fprintf(stderr, "referee: view: %s\n", err->message);
		return 1;
	}
	return 0;
}

static int cmd_view(int argc, char **argv)
{
	gboolean step = FALSE, colour = isatty(STDOUT_FILENO), no_colour = FALSE, html = FALSE;
	g_autofree char *out = NULL;
	GOptionEntry entries[] = {
		{"step", 0, 0, G_OPTION_ARG_NONE, &step, "wait for Enter between moves", NULL},
		{"no-colour", 0, 0, G_OPTION_ARG_NONE, &no_colour, "plain ASCII even on a terminal", NULL},
		{"html", 0, 0, G_OPTION_ARG_NONE, &html, "write a self-contained HTML replay (default LOG.html)", NULL},
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "with --html: the page's file (- for stdout)", "FILE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - show a logged game move by move");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return usage_error("view: want exactly one LOG");
	if (out && !html)
		return usage_error("view: -o goes with --html");
	g_autoptr(GameLog) log = load_log(argv[1]);
	if (!log)
		return 1;
	if (html) {
		if (!out)
			out = g_strdup_printf("%s.html", argv[1]);
		return view_html(log, out);
	}
	g_autoptr(GError) err = NULL;
	if (!replay_view(log, colour && !no_colour, step, stdout, stdin, &err)) {
		fflush(stdout);
		fprintf(stderr, "referee: view: %s\n", err->message);
		return 1;
	}
	return 0;
}

static int cmd_rerun(int argc, char **argv)
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
	if (!parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return usage_error("rerun: want exactly one LOG");
	g_autoptr(GameLog) log = load_log(argv[1]);
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
		return usage_error("rerun: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
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
	g_autoptr(GameLog) again = load_log(out_path);
	if (!again)
		return 1;
	if (!replay_compare(log, again, &err)) {
		printf("different: %s\n", err->message);
		return 1;
	}
	printf("same: %u events (new log %s)\n", again->events->len, out_path);
	return 0;
}

static int cmd_human(int argc, char **argv)
{
	return human_main(argc, argv);
}

/* ---- the table ---------------------------------------------------------- */

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand */
	const char *summary;			/* NULL: hidden */
} Subcommand;

static const Subcommand subcommands[] = {
	{"play", cmd_play, "play one game between bots (or a human)"},
	{"verify", cmd_verify, "check a game log against the rules"},
	{"view", cmd_view, "show a logged game move by move"},
	{"rerun", cmd_rerun, "play a logged game again, compare the outcome"},
	{"check", check_main, "check bots against the protocol, item by item (compliance)"},
	{"tournament", tournament_main, "play a round-robin tournament between bots"},
	{"merge", tournament_merge_main, "combine tournament runs (shards) into one set of standings"},
	{"_human", cmd_human, NULL},
	{NULL, NULL, NULL},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: referee COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
	for (int i = 0; subcommands[i].name; i++)
		if (subcommands[i].summary)
			fprintf(out, "  %-12s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\n`referee COMMAND --help` describes each.\n");
}

/* A signal that ends the referee ends its bots first, process groups and
 * all; then it takes its default course. */
static void on_fatal_signal(int sig)
{
	sandbox_kill_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_fatal_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

	for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
		struct sigaction sa, old;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		/* an ignored signal stays ignored (nohup, background jobs) */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (int i = 0; subcommands[i].name; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0) {
			/* Whatever a bot left running outside its process group
			 * is ours at the end, and ends with us. */
			sandbox_adopt_orphans();
			catch_fatal_signals();
			int rc = subcommands[i].run(argc - 1, argv + 1);
			sandbox_kill_all();	/* none, unless a tournament abandoned games */
			sandbox_kill_orphans();
			return rc;
		}
	fprintf(stderr, "referee: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
