/*
 * ratings: strengths fitted over all games at once, so that they do not
 * depend on the order games were played or recorded in.
 *
 * Every game is a ranking of its bots (1 best, ties share a rank). The
 * model is Plackett-Luce: bot i has strength g_i, and a ranking is read as
 * a sequence of choices, the best from all, then the best of the rest, and
 * so on; a group of m tied bots chosen from the remaining set R counts as
 * each member chosen with weight 1/m, so its likelihood is
 * (prod_{G} g_i)^(1/m) / sum_{R} g. For two players this is exactly
 * Bradley-Terry with a draw as half a win and half a loss; a ranking of k
 * players also gives the same pairwise odds g_i / (g_i + g_j), so Elo
 * differences read the same way for every player count. The fit is
 * Hunter's (2004) minorization-maximization, on sufficient statistics
 * (winning weights per bot and a count per remaining set), with a weak
 * prior: each bot is given one win and one loss against a phantom of
 * strength 1, so an undefeated bot stays finite.
 *
 * Elo = 400 log10(g), shifted so that the bots' mean is 0. The 95%
 * interval of each bot is the wider of two, so that no sample claims more
 * certainty than it holds: the Laplace interval (the posterior, prior
 * included, approximated by a normal at the fit: +-1.96 standard
 * deviations from the inverse of the log-posterior's negative Hessian),
 * which never has zero width (73 wins and no loss still leave the
 * strength gap uncertain, and a bot with few games gets a wide
 * interval), and the bootstrap percentile interval (games resampled with
 * replacement by a seeded generator, so the same games give the same
 * intervals), which follows the games' real spread but collapses to a
 * point when every game went the same way. The probability that i is
 * stronger than j is the fraction of bootstrap fits in which it is (ties
 * half), or, without bootstrap, the Laplace normal's.
 *
 * Weights are kept as integers in units of 1/840 (840 is divisible by 1..8)
 * so that the statistics, and hence the point estimates, are bit for bit
 * the same whatever order the games come in.
 */
#ifndef TETRARENA_TOURNAMENTS_RATINGS_H
#define TETRARENA_TOURNAMENTS_RATINGS_H

#include <glib.h>
#include <stdint.h>

#include "engine/variant.h"

#define RATINGS_MAX_BOTS 1024	/* the Laplace step is O(n^3): 0.2 s at 500 */
/* Up to this many bots the fit is MM alone, as it always was; beyond,
 * Newton steps first (MM crawls there), and no bootstrap: 200 refits of
 * 500 bots would take minutes, and the Laplace interval holds. */
#define RATINGS_MM_BOTS 64
#define RATINGS_BOOTSTRAP 200	/* default number of bootstrap fits */
#define RATINGS_Z95 1.959964	/* the normal's 97.5% quantile */

/* One game as a ranking. */
typedef struct {
	int n;				/* participants, 2..VARIANT_MAX_PLAYERS */
	int bot[VARIANT_MAX_PLAYERS];	/* distinct bot indices */
	int rank[VARIANT_MAX_PLAYERS];	/* 1 best, ties share a rank */
} RatingsGame;

typedef struct {
	int nbots;
	double *elo;		/* nbots point estimates, mean 0 */
	double *lo, *hi;	/* nbots 95% interval bounds */
	double *los;		/* nbots*nbots: los[i*nbots+j] = P(i stronger than j) */
	int games;		/* rated games (with 2 or more participants) */
} Ratings;

/*
 * Fit `ngames` games of `nbots` bots (1..RATINGS_MAX_BOTS); games with
 * fewer than 2 participants are ignored. `bootstrap` fits (0 for none:
 * then the intervals and los are the Laplace approximation's alone) are
 * drawn with a generator seeded by `seed` (none beyond RATINGS_MM_BOTS); the resampling follows the
 * array order, so pass games in a canonical order (by game id) for
 * reproducible intervals. Always returns a new Ratings; free it with
 * ratings_free().
 */
Ratings *ratings_fit(int nbots, const RatingsGame *games, int ngames,
		     int bootstrap, uint64_t seed);
void ratings_free(Ratings *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Ratings, ratings_free)

/*
 * Seat advantage: for each seat s < nseats, the mean over games of the
 * fraction of opponents the bot in seat s finished ahead of (a tie counts
 * half); 0.5 everywhere when seats do not matter. `seat_of` gives games'
 * participants in seat order (bot[s] sits in seat s). OUT: score[nseats].
 */
void ratings_seat_scores(const RatingsGame *games, int ngames, int nseats,
			 double *score);

/* The Elo difference that a score fraction p (0 < p < 1) means. */
double ratings_elo_of_score(double p);

#endif
