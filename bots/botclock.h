/*
 * botclock: the monotonic clock for bots, in one place. AIs bound a search
 * by it where counting work is not enough (a loaded machine), and bench
 * harnesses time games by it. Never the wall clock: it jumps.
 */
#ifndef TETRARENA_BOTS_BOTCLOCK_H
#define TETRARENA_BOTS_BOTCLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds */
uint64_t botclock_ns(void);

/* CLOCK_MONOTONIC in milliseconds, with their fraction */
double botclock_ms(void);

#endif
