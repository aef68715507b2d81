/*
 * verify: `ladder verify`, every finished game's log checked against the
 * rules and against the database.
 *
 * For each game with a result: its log exists, replays through the rules
 * (replay_verify(), referee/replay.h), and records the game the database
 * holds: the same seed, the same entries in the same seats (their labels),
 * and the same ranks and scores. Games scheduled but unfinished are
 * counted (the next `ladder run` plays them) and are no failure; a
 * finished game with a seat lacking its rank is. SQLite's own
 * `PRAGMA integrity_check` runs first.
 */
#ifndef TETRARENA_LADDER_VERIFY_H
#define TETRARENA_LADDER_VERIFY_H

#include <glib.h>

#include "ladder/db.h"

typedef struct {
	gint64 verified;	/* finished games whose log checks out */
	gint64 unfinished;	/* scheduled, no result yet */
	gboolean integrity_ok;	/* PRAGMA integrity_check said ok */
	GPtrArray *problems;	/* strings, one per failing game (and the
				 * integrity check's complaints) */
} LadderVerify;

void ladder_verify_clear(LadderVerify *v);

/* Verify the ladder. OUT: *v (clear it). FALSE with error only when the
 * database cannot be read; failing games are in v->problems. */
gboolean ladder_verify(LadderDb *d, LadderVerify *v, GError **error);

/* One game's log (`log` relative to `dir`) checked as above against what
 * is to be recorded: seed, the n seats' labels, ranks and scores. NULL
 * when it checks out, else why (newly allocated). (`ladder run --slurm`
 * checks each job's log so before recording it.) */
char *ladder_verify_game(const char *dir, const char *log, guint64 seed, int n, char *const *label,
			 const int *rank, const int *score);

#endif
