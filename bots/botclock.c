/*
 * botclock: the monotonic clock for bots. See botclock.h for the contract.
 */
#include "botclock.h"

#include <time.h>

uint64_t botclock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double botclock_ms(void)
{
	return (double)botclock_ns() / 1e6;
}
