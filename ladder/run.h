/*
 * run: `ladder run`, games played continuously.
 *
 * Games are scheduled by match.h one at a time: a game's row (seed, kind,
 * seats) is committed before it starts; its result, its log's path and
 * `finished` are committed in one transaction when it ends (the log is
 * flushed to disk first), with the rating history points it completes. So
 * a kill -9 at any moment loses no finished game and counts none twice: a
 * game without `finished` is played again, with its seats and seed, at the
 * start of the next run (its log written afresh); a result is recorded only
 * where `finished` is still empty.
 *
 * `jobs` games run at once, each in a worker thread calling game_run()
 * with fresh bot processes, jailed per the ladder's sandbox setting; the
 * calling thread alone writes the database. A failure of the ladder itself
 * (the database, a full disk, a log that cannot be written) stops the
 * scheduling, waits for the games in flight (recording what it can) and
 * returns the first error.
 *
 * A game's record also counts each seat's faulted games in a row: an
 * entry reaching the ladder's suspend_after is suspended in the same
 * transaction (ladder/ladder.h, LADDER_BOT_SUSPENDED) and from the next
 * game on no longer scheduled; an entry's first rating point makes its
 * `ranked` event (ladder/events.h).
 *
 * The standings' cache (ladder/standings.h) is refreshed at the start,
 * after each game recorded once it is over 2% of the finished games
 * behind, and at the end; matchmaking's ratings are refitted only when
 * ladder_match_below() moves (ladder/match.h).
 */
#ifndef TETRARENA_LADDER_RUN_H
#define TETRARENA_LADDER_RUN_H

#include <signal.h>

#include <glib.h>

#include "ladder/db.h"
#include "ladder/ladder.h"
#include "referee/gamelog.h"

typedef struct {
	int jobs;			/* games at once, >= 1 */
	gint64 games;			/* finish this many games, or 0: no bound */
	gint64 total;			/* stop when the ladder holds this many
					 * finished games, or 0: no bound */
	gint64 until;			/* wall-clock time (g_get_real_time()) to
					 * stop scheduling at, or 0: none */
	volatile sig_atomic_t *stop;	/* set (by a signal): schedule no more,
					 * finish the games in flight; or NULL */
	gboolean quiet;			/* no line per game on stderr */
	/* Watching games as they are played (`ladder run --serve`): when
	 * set, called on the worker's thread before each game (its id, its
	 * seats' entry names, its log's path); the game's log gets the tap
	 * it returns (GameSpec.log_tap, with *tap_data; NULL: no tap), as
	 * TournamentConfig.watch (tournaments/tournament.h). */
	GameLogTap (*watch)(gpointer data, int id, const char *const *names, int n, const char *log_path,
			    void **tap_data);
	gpointer watch_data;
	/* This referee's program, for admissions: when set, the requests
	 * queued in the ladder's inbox are taken before each game is
	 * scheduled (ladder/intake.h); an entry admitted or retired counts
	 * from that game on, the games in flight finish as they began. */
	const char *referee;
	/* `--on-event CMD`: each event recorded while it runs (ladder/events.h)
	 * handed to this shell command (ladder/hook.h), or NULL. */
	const char *on_event;
	/* `--slurm N`: each game a Slurm job (`referee ladder play-game DIR
	 * ID` run by `referee` above, on a node that sees DIR), N at once
	 * (jobs is N); slurm_opts: sbatch's extra arguments (NULL-terminated,
	 * or NULL). 0: games played here. */
	int slurm;
	char **slurm_opts;
} LadderRunOptions;

typedef struct {
	gint64 finished;		/* games finished and recorded */
	gint64 replayed;		/* of them, games an earlier run left unfinished */
} LadderRunStats;

/*
 * `ladder play-game DIR ID`, a job of `ladder run --slurm`: play game ID
 * as its row says (seed, seats; the ladder's settings, jailed as they
 * say), its log in DIR/games/NNNNNN.log as a run writes it, and what the
 * run records of it in DIR/games/NNNNNN.result (written whole, by a
 * rename, after the log is flushed). Writes nothing to the database: the
 * run reads the result and records the game. FALSE with error.
 */
gboolean ladder_play_game(LadderDb *d, const LadderSettings *s, gint64 id, GError **error);

/* Play as the options say. OUT: *stats. FALSE with error (LADDER_DB_ERROR_FULL
 * for a full disk) on a failure of the ladder itself. */
gboolean ladder_run(LadderDb *d, const LadderSettings *s, const LadderRunOptions *o, LadderRunStats *stats,
		    GError **error);

#endif
