/*
 * rng: the seeded random generator behind every die, shuffle and deal.
 *
 * The algorithm is fixed and documented so that a seed means the same game
 * on every machine and build, forever: xoshiro256** (Blackman and Vigna,
 * 2018) with its 256-bit state filled from the 64-bit seed by four steps of
 * splitmix64. Bounded integers use rejection sampling on the top bits
 * (Lemire's multiply-shift with a rejection threshold), so they are exactly
 * uniform. Changing anything here changes every recorded game: the golden
 * values in tests/test-rng.c must then fail.
 *
 * An Rng is plain data (copy it with assignment); nothing here allocates.
 */
#ifndef TETRARENA_ENGINE_RNG_H
#define TETRARENA_ENGINE_RNG_H

#include <stdint.h>

typedef struct {
	uint64_t s[4];
} Rng;

/* Seed the generator. Every 64-bit seed, 0 included, is valid. */
void rng_seed(Rng *r, uint64_t seed);

/* The next 64 raw bits. */
uint64_t rng_next(Rng *r);

/* A uniform integer in [0, n); n must be at least 1. */
uint32_t rng_below(Rng *r, uint32_t n);

/* A roll of a die with `sides` faces: uniform in [1, sides]. */
int rng_die(Rng *r, int sides);

/* Shuffle n ints in place (Fisher-Yates, from the last element down). */
void rng_shuffle(Rng *r, int *a, int n);

/*
 * Derive an independent seed for a named purpose from a master seed
 * (splitmix64 of the seed mixed with a string hash), so that, say, each
 * game of a tournament gets its own seed from the tournament's.
 */
uint64_t rng_derive(uint64_t seed, const char *purpose, uint64_t index);

#endif
