/*
 * tournament: round-robin tournaments, the library behind `referee
 * tournament` and `referee merge` (their command lines: cli/tournament.c,
 * cli/merge.c).
 *
 * A tournament is a TournamentConfig (from a GKeyFile and/or flags), a
 * schedule (schedule.h), and a run loop: `concurrency` worker threads take
 * the games the journal does not hold yet, in id order, and hand each to a
 * TournamentRunner (the referee's game_run(), or a fake in tests); the main
 * thread appends every finished game to the journal as it comes back,
 * draws the progress line on stderr, keeps the watchdog and watches for
 * SIGINT/SIGTERM. At the end the standings of every game in the journal go
 * to stdout and to standings.txt, standings.json and games.csv in the
 * output directory.
 *
 * Tournament file (GKeyFile; every key optional except the bots):
 *
 *   [tournament]
 *   variant = link            # engine variant name
 *   options = width:10,pieces:5   # variant options, key:value
 *   players = 2               # seats per game (default: bots, up to the
 *                             # variant's maximum)
 *   games = 2                 # games per seating, i.e. seeds (default 2)
 *   seed = 1                  # master seed (default: drawn at random
 *                             # from the OS, below 2^53, and kept in the
 *                             # journal, which a resume reads it from)
 *   time = bank:2000,inc:100  # time control (protocol.md), over defaults
 *   policy = forfeit          # fault policy (default: the variant's)
 *   sandbox = on              # jail the bots: auto (default), on, off
 *   concurrency = 2           # games at once (default: cores / bots
 *                             # thinking at once in one game)
 *   output = out/link         # output directory (default tournament-VARIANT)
 *   pin = true                # each game's processes on one CPU (default:
 *                             # true when one bot thinks at a time)
 *   watchdog = 600            # seconds before a game counts as hung
 *   gauntlet = mybot           # a gauntlet: only the games this bot is in
 *                             # (every other bot against it, seatings and
 *                             # seeds as in the full schedule)
 *   sprt = elo0=0,elo1=30,alpha=0.05,beta=0.05
 *                             # stop when this SPRT decides (sprt.h): two
 *                             # bots, two seats, no shards; the first bot
 *                             # is the one tested
 *
 *   [bots]
 *   random = bin/bot-random   # NAME = command line
 *
 *   [bot link]                # or a bots file's group (referee/botspec.h):
 *   command = bin/bot-link    # command, workdir and per-bot limits
 *   memory = 512              # (memory MiB, cpu s, processes, ...)
 *
 * Flags override the file (see `referee tournament --help`). Relative paths
 * are taken from the current directory. Interruption: the first SIGINT or
 * SIGTERM stops starting games and waits for those in flight, a second one
 * abandons them; either way every finished game is in the journal, the
 * standings, standings.json and report.html of the games played are
 * written marked partial, and the referee prints the command that resumes.
 *
 * A bot that cannot start in its first game of the run (referee/nostart.h:
 * its program cannot be run, it exits or dies before `hello`, declines) is
 * named on stderr with the reason at once; unless keep_going, the run
 * starts no more games, leaves the games it could not start out of the
 * journal (a resume plays them, once the bot is fixed), writes partial
 * standings that name the bot and the reason, and exits 1.
 */
#ifndef TETRARENA_TOURNAMENTS_TOURNAMENT_H
#define TETRARENA_TOURNAMENTS_TOURNAMENT_H

#include <glib.h>

#include "engine/variant.h"
#include "referee/botspec.h"
#include "tournaments/journal.h"
#include "referee/gamelog.h"
#include "tournaments/schedule.h"
#include "tournaments/sprt.h"

#define TOURNAMENT_ERROR (tournament_error_quark())
GQuark tournament_error_quark(void);
typedef enum {
	TOURNAMENT_ERROR_CONFIG,	/* a bad file, flag or combination */
	TOURNAMENT_ERROR_RUN,		/* the referee failed to run a game */
} TournamentError;

typedef struct {
	char *variant_name;
	const Variant *variant;
	char *options;		/* "key:value,..." as given, or NULL */
	VariantConfig config;	/* checked; nplayers = seats per game */
	int nseats;		/* 0 until resolved */
	int games;		/* per seating */
	guint64 seed;		/* the master seed, when seed_set */
	gboolean seed_set;	/* given (file or flag); FALSE: the journal's
				 * on resume, else drawn at random */
	char *time;		/* time control text, NULL for the defaults */
	char *policy;		/* fault policy name, NULL for the variant's */
	char *sandbox;		/* auto, on, off; NULL: auto (not part of the
				 * tournament's identity) */
	int concurrency;	/* 0 until resolved */
	int busy_per_game;	/* bots that think at once in one game */
	char *output;
	int shard_index, shard_count;	/* count 1: everything */
	GPtrArray *bot_names;	/* char*, owned */
	GPtrArray *bot_commands;	/* char*, owned */
	GPtrArray *bot_specs;	/* BotSpec*, owned, or NULL where the bot came
				 * as a bare command: from [bot NAME] groups
				 * (bots file format, referee/botspec.h) with
				 * their limits and workdir */
	int pin;		/* 1: each game's processes on one CPU (worker
				 * i on the i-th allowed CPU, round); 0: never;
				 * -1 until
				 * resolved: 1 when one bot thinks at a time */
	int watchdog_s;		/* 0 until resolved */
	int bootstrap;		/* bootstrap fits for intervals */
	char *gauntlet;		/* a bot's name: play only the games it sits
				 * in (seatings and seeds as usual), or NULL */
	int gauntlet_bot;	/* its index once resolved, else -1 */
	char *sprt;		/* SPRT parameters as given, canonical once
				 * resolved; NULL: play the whole schedule */
	SprtParams sprt_params;	/* parsed, when sprt is set */
	gboolean keep_going;	/* play on when a bot cannot start in its
				 * first game (its games are forfeits); FALSE:
				 * stop the run there (referee/nostart.h) */
	gboolean progress;	/* draw the progress line */
	gboolean print;		/* standings to stdout at the end */
	/* Watching games as they are played (`tournament --serve`): when
	 * set, the referee runner calls it on the worker's thread before each
	 * game (its schedule id, its seats' bot names, its log's path) and
	 * gives the game's log the tap it returns (GameSpec.log_tap, with
	 * *tap_data; NULL: no tap). The game has ended when the tap is
	 * closed (bytes NULL). */
	GameLogTap (*watch)(gpointer data, int id, const char *const *names, int n, const char *log_path,
			    void **tap_data);
	gpointer watch_data;
	gpointer runner_data;	/* the runner's, set by its prepare() */
	GDestroyNotify runner_data_free;
	char **argv;		/* the command line, for the resume hint */
	char *referee;		/* argv[0], for replay hints */
} TournamentConfig;

/* The ranges of the numbers, in files and flags alike. */
#define TOURNAMENT_GAMES_MAX 1000000
#define TOURNAMENT_CONCURRENCY_MAX 1024
#define TOURNAMENT_WATCHDOG_MAX 1000000	/* seconds */
#define TOURNAMENT_BOOTSTRAP_MAX 100000

/* Random master seeds are drawn below 2^53, so that they stay exact as
 * JSON numbers (standings.json, report.html): 53 bits are still far too
 * many to guess or to ship the dice of. */
#define TOURNAMENT_SEED_MASK ((G_GUINT64_CONSTANT(1) << 53) - 1)

/* A master seed from the OS's random source (getrandom(2)), below 2^53. */
guint64 tournament_draw_seed(void);

TournamentConfig *tournament_config_new(void);
void tournament_config_free(TournamentConfig *cfg);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TournamentConfig, tournament_config_free)

/* Read a tournament file over cfg's current values. FALSE with error
 * naming the file and key. */
gboolean tournament_config_load(TournamentConfig *cfg, const char *path, GError **error);

/* Add a bot; FALSE with error on a bad or duplicate name. */
gboolean tournament_config_add_bot(TournamentConfig *cfg, const char *name,
				   const char *command, GError **error);

/* Add a copy of a bot spec (its name, command, workdir and limits); the
 * same checks. */
gboolean tournament_config_add_bot_spec(TournamentConfig *cfg, const BotSpec *spec,
					GError **error);

/* Add every bot of a bots file ([bot NAME] groups and/or [bots]); FALSE
 * with error naming the file. */
gboolean tournament_config_add_bots_file(TournamentConfig *cfg, const char *path, GError **error);

/* Hand the runner's data to cfg, which frees it with cfg. */
void tournament_config_set_runner_data(TournamentConfig *cfg, gpointer data,
				       GDestroyNotify free_func);

/* How games are played: the referee, or a fake. */
typedef struct {
	/* Check the runner's part of cfg (time control, policy) and fill
	 * defaults (watchdog). OUT: *canonical, text that enters the
	 * fingerprint (normalised time control and policy). */
	gboolean (*prepare)(TournamentConfig *cfg, char **canonical, GError **error);
	/* Per-worker state (kept bot processes), created and freed on the
	 * worker's thread. */
	gpointer (*worker_new)(const TournamentConfig *cfg, int worker);
	void (*worker_free)(gpointer state);
	/* Play one game; fill out->seat[], end, plies (the rest is set by
	 * the caller). left[k]: the most games seat k's bot can still play
	 * in this run, this one included (what a process started for it now
	 * may play). `cpu` >= 0: pin to it. FALSE with error only when the
	 * referee cannot work. */
	gboolean (*play)(gpointer state, const TournamentConfig *cfg, const ScheduleGame *g,
			 const int *left, const char *log_path, int cpu, JournalGame *out, GError **error);
} TournamentRunner;

/*
 * Resolve defaults, check everything, and play what the journal in
 * cfg->output does not hold yet. Returns the exit status: 0 when the
 * schedule (or shard) is complete and the standings are written, 1 on a
 * failure or a bot that cannot start (message on stderr), 130 when
 * interrupted (with the resume command on stderr).
 */
int tournament_run(TournamentConfig *cfg, const TournamentRunner *runner);

/*
 * Combine the journals of several output directories (same fingerprint)
 * into one set of standings, on stdout when `print`; with `output`, write the
 * merged journal and standings files there. `bootstrap` < 0: the number
 * the first journal's run used. A directory without a readable journal,
 * or games of the schedule that no journal holds, make the standings
 * partial, with notes naming what is missing (a shard missing or
 * unfinished, by game id modulo the shard count), on stderr too. Returns
 * the exit status: 0 for complete standings, 1 otherwise.
 */
int tournament_merge(char **dirs, const char *output, int bootstrap, const char *referee,
		     gboolean print);

#endif
