/*
 * match: the ladder's matchmaking, which spends games where they tell
 * most (after Halite's, docs/ladder.md "Matchmaking"). Pure: the same
 * inputs give the same table, so a ladder replays.
 *
 * For game `id` a generator seeded from the master seed and the id draws:
 *
 *   1. the table's size, uniform in [min, min(max, active entries)];
 *   2. its kind: LADDER_MATCH_TOP_PERCENT of games are `top` games, whose
 *      first seat is the least-played of the top LADDER_MATCH_TOP entries
 *      by rating (at least the table's size); the rest are `least` games,
 *      whose first seat is the least-played entry of all (ties drawn);
 *   3. each other seat from the entries not yet seated, with weight
 *      exp(-|elo - elo of the first| / LADDER_MATCH_SIGMA): opponents near
 *      it in rating, far ones rarely but never never;
 *   4. the seating order, shuffled.
 *
 * "Played" counts every game scheduled so far, finished or not; ratings
 * are the batch fit's (rate.h) over the games finished LADDER_MATCH_LAG
 * ids back, so the table does not depend on how many games run at once.
 * Past game 1024 that bound is rounded down to a multiple of about 1/64th
 * of itself (ladder_match_below), so the run refits once every so many
 * games and not before each (a fit of 200,000 games and 500 entries takes
 * seconds): the tables still depend on the game ids alone.
 */
#ifndef TETRARENA_LADDER_MATCH_H
#define TETRARENA_LADDER_MATCH_H

#include <glib.h>

#include "engine/variant.h"

#define LADDER_MATCH_TOP_PERCENT 20
#define LADDER_MATCH_TOP 4
#define LADDER_MATCH_SIGMA 150.0
#define LADDER_MATCH_LAG 16
#define LADDER_MATCH_MAX 1024	/* active entries at most (LADDER_MAX_BOTS) */

typedef struct {
	gint64 id;		/* the entry */
	gint64 played;		/* games scheduled for it so far */
	double elo;		/* its rating now */
} LadderMatchEntry;

typedef struct {
	int n;					/* seats */
	int entry[VARIANT_MAX_PLAYERS];		/* index into the entries, by seat */
	const char *kind;			/* "least" or "top" */
} LadderTable;

/* The games (id < this) whose ratings game `id`'s table is drawn with. */
gint64 ladder_match_below(gint64 id);

/*
 * Draw the table of game `id` among `n` active entries (in id order).
 * FALSE when fewer than `min_players` entries are active.
 */
gboolean ladder_match(const LadderMatchEntry *e, int n, int min_players, int max_players, guint64 master,
		      gint64 id, LadderTable *out);

#endif
