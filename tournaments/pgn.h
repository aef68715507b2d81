/*
 * pgn: a tournament's games in the PGN form that Ordo and BayesElo read
 * (`referee export --pgn DIR`): one record per game of two seats, the
 * seven-tag roster (Event, Site, Date, Round, White, Black, Result) and
 * no moves, only the result as the movetext. Seat 0 is White. A draw
 * (equal ranks) is 1/2-1/2.
 */
#ifndef TETRARENA_TOURNAMENTS_PGN_H
#define TETRARENA_TOURNAMENTS_PGN_H

#include <glib.h>

/*
 * The PGN of the journal in tournament directory `dir` (its output
 * directory or a merge's), games in id order. Event is "tetrarena VARIANT
 * tournament, seed N"; Round the schedule's round plus one, then a dot
 * and the game id; Date the day the game's log was last written (UTC),
 * "????.??.??" without one. NULL with error when the journal cannot be
 * read or its games do not have two seats. Newly allocated.
 */
char *pgn_from_tournament(const char *dir, GError **error);

#endif
