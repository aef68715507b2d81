/* rng: xoshiro256** seeded by splitmix64. See rng.h for why it is fixed. */
#include "rng.h"

#include <assert.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(Rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t rng_next(Rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint32_t rng_below(Rng *r, uint32_t n)
{
	assert(n >= 1);
	uint64_t m = (rng_next(r) >> 32) * n;
	uint32_t low = (uint32_t)m;

	if (low < n) {
		uint32_t threshold = (uint32_t)(-n) % n;
		while (low < threshold) {
			m = (rng_next(r) >> 32) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

int rng_die(Rng *r, int sides)
{
	assert(sides >= 1);
	return 1 + (int)rng_below(r, (uint32_t)sides);
}

void rng_shuffle(Rng *r, int *a, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(r, (uint32_t)i + 1);
		int t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

uint64_t rng_derive(uint64_t seed, const char *purpose, uint64_t index)
{
	/* FNV-1a over the purpose, then splitmix64 mixing. */
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *p = purpose; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ull;
	}
	uint64_t x = seed ^ h;
	uint64_t a = splitmix64(&x);
	x = a ^ index;
	return splitmix64(&x);
}
