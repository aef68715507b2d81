/*
 * botlevel: the `--level 1..5` option every AI of ours takes (bot-link,
 * bot-tetroll, bot-rush, bot-matrix), so that a person or a bots file can
 * ask for a weaker opponent: `bin/bot-link --level 2`.
 *
 * Level 5, the default, is the bot's full strength, unchanged. Lower
 * levels are chosen by each bot by limiting what it sees and how long it
 * looks (depth, rollouts, candidates) and, at the lowest, by noise added
 * to its evaluation, drawn from the Rng botio hands the bot (seeded at
 * every move by --seed, the seat and the state), so games stay
 * reproducible and differ from one another. A level never makes
 * an illegal move, nor one the bot's rules forbid (an ending that loses, a
 * win left on the board). docs/ai/ has each bot's table and its
 * calibration in Elo.
 */
#ifndef TETRARENA_BOTS_BOTLEVEL_H
#define TETRARENA_BOTS_BOTLEVEL_H

#include <stdbool.h>

#include "rng.h"

#define BOTLEVEL_MIN 1
#define BOTLEVEL_MAX 5
#define BOTLEVEL_DEFAULT BOTLEVEL_MAX	/* the strongest */

/*
 * Take `--level N` or `--level=N` out of argv[0..*argc) (the rest moved up
 * in order, argv[*argc] = NULL), leaving *level at BOTLEVEL_DEFAULT when
 * absent. A value that is not a whole number from 1 to 5, or a missing
 * one, prints one line, "NAME: bad --level 'X': want an integer from 1
 * (weakest) to 5 (strongest, the default)", and returns false (the bot
 * then exits with status 2). The last of several wins.
 */
bool botlevel_take(const char *name, int *argc, char **argv, int *level);

/* A uniform draw in [-amp, amp] from rng; 0 (and no draw) when amp <= 0. */
int botlevel_noise(Rng *rng, int amp);

#endif
