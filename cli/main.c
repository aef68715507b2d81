/*
 * referee: the `referee` command.
 *
 *   referee play --variant NAME [options] BOT BOT...   play one game
 *   referee verify LOG      check a game log against the rules
 *   referee view [--step] LOG   show a logged game move by move
 *   referee view --html LOG [-o FILE]   the same as one self-contained web page
 *   referee rerun LOG       play a logged game again with the same bots
 *   referee check --variant NAME BOT...   check bots against the protocol
 *   referee position LOG --seat S --step N [BOT]   a logged decision asked again
 *   referee review LOG --seat S [--json]   our AI's choice and each move's cost
 *   referee tournament [FILE] [flags]   a round robin (tournaments/)
 *   referee merge DIR...    combine tournament shards' standings
 *   referee ladder SUB DIR ...   a living competition (ladder/, in SQLite)
 *   referee serve [--listen HOST:PORT]   play and watch in the browser (server/)
 *
 * How it works: main() looks the first argument up in `subcommands` and
 * hands it the remaining arguments; each subcommand, one file each in
 * cli/ (git's builtin/), parses its own options with GOptionContext and
 * calls the libraries: referee/ for one game and its log, tournaments/ for
 * many. Nothing in those libraries includes cli/. Exit status: 0 success,
 * 1 a runtime failure (or a verification that fails), 2 a usage error.
 * Start reading at cmd_play() (cli/play.c): it builds a GameSpec and calls
 * game_run() (referee/game.c), which drives the bots (referee/bot.c)
 * through the variant's table (engine/variant.h) and writes the log
 * (docs/gamelog.md) that verify, view and rerun (referee/replay.c) read
 * back.
 *
 * Adding a subcommand: write `int cmd_NAME(int argc, char **argv)` in
 * cli/NAME.c (argv[0] is the subcommand's name, so GOptionContext works as
 * usual; return the exit status), declare it in cli/cli.h and add one row
 * to `subcommands`. Nothing else here needs to change.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "engine/variant.h"
#include "referee/sandbox.h"
#include "referee/version.h"

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
	{"check", cmd_check, "check bots against the protocol, item by item (compliance)"},
	{"position", cmd_position, "put a logged decision to a bot again (a position debugger)"},
	{"review", cmd_review, "our AI as a coach: its choice and the cost of each move of a seat"},
	{"tournament", cmd_tournament, "play a round-robin tournament between bots"},
	{"merge", cmd_merge, "combine tournament runs (shards) into one set of standings"},
	{"export", cmd_export, "a tournament's games as PGN (--pgn DIR), for Ordo and BayesElo"},
	{"ladder", cmd_ladder, "an open competition that lives in SQLite (init, add, run, standings, pages)"},
	{"serve", cmd_serve, "play our bots in the browser, and watch games live (a web server)"},
	{"_human", cmd_human, NULL},
	{NULL, NULL, NULL},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: referee COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
	for (int i = 0; subcommands[i].name; i++)
		if (subcommands[i].summary)
			fprintf(out, "  %-12s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\n`referee COMMAND --help` describes each; `referee --version` the version.\n");
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
	if (argc > 0 && strcmp(argv[0], SANDBOX_GUARD_NAME) == 0)
		return sandbox_guard_main(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("referee %s\nprotocol %d\nlog format tetrarena-log %d\nvariants:", REFEREE_VERSION,
		       REFEREE_PROTOCOL, REFEREE_LOG_FORMAT);
		for (const Variant *const *v = variant_all(); *v; v++)
			printf(" %s", (*v)->name);
		printf("\n");
		return 0;
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
