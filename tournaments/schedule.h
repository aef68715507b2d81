/*
 * schedule: who plays whom, in which seats, on which seeds.
 *
 * A schedule is a pure function of (bots, seats per game, games per
 * seating, master seed): the list of games with stable ids 0..n-1, so that
 * a game is the same game whichever other games have run, on whichever
 * machine. Round robin:
 *
 *   - every k-subset of the bots (in lexicographic order) plays
 *     `games_per_seating` rounds;
 *   - each round, the subset plays in every seating: all k! orders of its
 *     bots when k <= 4 (both orders when k = 2), the k cyclic rotations
 *     when k > 4; so each bot sits in each seat equally often;
 *   - every game of round r, whatever its subset and seating, uses the same
 *     seed, rng_derive(master, "round", r): same dice and deals, so luck
 *     cancels between seatings and between opponents;
 *   - solo play (k = 1) is the case of 1-subsets: every bot plays the same
 *     seeds.
 *
 * Ids run round-major (all games of round 0 first), so a tournament cut
 * short is still balanced up to its last round. A shard I/N is the games
 * whose id is I modulo N: the N shards are disjoint and cover the
 * schedule, and each is spread over every round.
 */
#ifndef TETRARENA_TOURNAMENTS_SCHEDULE_H
#define TETRARENA_TOURNAMENTS_SCHEDULE_H

#include <glib.h>
#include <stdint.h>

#include "engine/variant.h"

#define SCHEDULE_MAX_BOTS 64		/* ratings keep bot sets in a uint64 */
#define SCHEDULE_MAX_GAMES 10000000	/* refuse schedules larger than this */
#define SCHEDULE_PERMUTE_MAX 4		/* all seatings up to this many seats */

#define SCHEDULE_ERROR (schedule_error_quark())
GQuark schedule_error_quark(void);
typedef enum {
	SCHEDULE_ERROR_INVALID,	/* counts out of range, or too many games */
} ScheduleError;

typedef struct {
	int id;				/* 0..n-1, stable */
	int round;			/* 0..games_per_seating-1 */
	uint64_t seed;			/* the game's seed, shared by its round */
	int nseats;
	int bot[VARIANT_MAX_PLAYERS];	/* bot index in each seat */
} ScheduleGame;

typedef struct {
	int nbots, nseats, games_per_seating;
	uint64_t master_seed;
	int seatings;			/* seatings per subset */
	int n;				/* number of games */
	ScheduleGame *game;		/* n games, game[i].id == i */
} Schedule;

/*
 * Build the round robin. nbots in [1, SCHEDULE_MAX_BOTS], nseats in
 * [1, min(nbots, VARIANT_MAX_PLAYERS)], games_per_seating >= 1. Returns
 * NULL with an error when the counts are out of range or the schedule
 * would exceed SCHEDULE_MAX_GAMES games. The caller frees it.
 */
Schedule *schedule_new(int nbots, int nseats, int games_per_seating,
		       uint64_t master_seed, GError **error);
void schedule_free(Schedule *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Schedule, schedule_free)

/* The seed of every game of round `round`. */
uint64_t schedule_round_seed(uint64_t master_seed, int round);

/* Whether game `id` belongs to shard index/count (0 <= index < count). */
gboolean schedule_in_shard(int id, int index, int count);

/* How many games the schedule would have, or -1 past SCHEDULE_MAX_GAMES. */
int64_t schedule_count(int nbots, int nseats, int games_per_seating);

#endif
