/*
 * rate: the ladder's standings, the project's batch fit
 * (tournaments/ratings.h: Bradley-Terry for two seats, Plackett-Luce for
 * more, with 95% intervals) over every finished game, refitted whenever it
 * is asked for; and each entry's rating history, a point after every K
 * of its games (meta history_every, default 10).
 *
 * Every entry that has played takes part in the fit, replaced and
 * retired ones too: their games tell about their opponents. One that has
 * not played yet is left out, so that adding entries changes nobody's
 * rating or interval until they play: it shows 0 (the mean), no interval
 * (lo = hi = 0) and even odds.
 */
#ifndef TETRARENA_LADDER_RATE_H
#define TETRARENA_LADDER_RATE_H

#include <glib.h>

#include "ladder/db.h"
#include "tournaments/ratings.h"

typedef struct {
	int nbots;
	gint64 *id;		/* nbots entry ids, by id */
	int *games;		/* finished games of each */
	char **last;		/* when each last finished a game, or NULL */
	Ratings *r;		/* the fit, indexed as id[] */
} LadderRatings;

void ladder_ratings_free(LadderRatings *lr);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderRatings, ladder_ratings_free)

/* The index of entry `id`, or -1. */
int ladder_ratings_index(const LadderRatings *lr, gint64 id);

/*
 * Fit the finished games with id < `below` (G_MAXINT64: all) with
 * `bootstrap` resamplings (0: the Laplace intervals alone), seeded by
 * `seed`, games in id order. NULL with error.
 */
LadderRatings *ladder_ratings_compute(LadderDb *d, gint64 below, int bootstrap, guint64 seed,
				      GError **error);

/*
 * The cache (schema version 5's ratings table): store `lr`, a fit over
 * every finished game (`finished` of them, ladder_finished_games()), in
 * its own transaction; read it back, NULL (no error) when there is none
 * or the database has no such table yet (a reader of an old ladder), with
 * *finished the count it was fitted over and *current whether no game was
 * scheduled or finished since (ladder_games_key(), cheap: no count of
 * every game). A cached fit's r->los is NULL.
 */
gboolean ladder_ratings_store(LadderDb *d, const LadderRatings *lr, gint64 finished, GError **error);
LadderRatings *ladder_ratings_cached(LadderDb *d, gint64 *finished, gboolean *current);

/* "MAXID/UNFINISHED" of the games now: it changes whenever a game is
 * scheduled (MAX(id) grows) or finished (fewer unfinished), as games are
 * never deleted. Newly allocated. */
char *ladder_games_key(LadderDb *d);

/* The finished games (games are only ever finished, never unfinished). */
gint64 ladder_finished_games(LadderDb *d);

/*
 * After game `game` was recorded (inside the caller's transaction): for
 * each entry of it whose finished games are now a multiple of K, store a
 * history point from a fit over every finished game. FALSE with error.
 */
gboolean ladder_ratings_history(LadderDb *d, gint64 game, GError **error);

#endif
