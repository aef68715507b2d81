/*
 * schedule: the round robin as a list of games (see schedule.h).
 */
#include "tournaments/schedule.h"

#include "engine/rng.h"

G_DEFINE_QUARK(tetrarena-schedule-error-quark, schedule_error)

static int64_t binomial(int n, int k)
{
	int64_t r = 1;

	if (k < 0 || k > n)
		return 0;
	for (int i = 1; i <= k; i++) {
		r = r * (n - k + i) / i;
		if (r > SCHEDULE_MAX_GAMES)
			return SCHEDULE_MAX_GAMES + 1;
	}
	return r;
}

static int seatings_for(int k)
{
	int f = 1;

	if (k > SCHEDULE_PERMUTE_MAX)
		return k;
	for (int i = 2; i <= k; i++)
		f *= i;
	return f;
}

int64_t schedule_count(int nbots, int nseats, int games_per_seating)
{
	int64_t subsets = binomial(nbots, nseats);
	int64_t n;

	if (subsets > SCHEDULE_MAX_GAMES)
		return -1;
	n = subsets * seatings_for(nseats);
	if (n > SCHEDULE_MAX_GAMES || n * games_per_seating > SCHEDULE_MAX_GAMES)
		return -1;
	return n * games_per_seating;
}

uint64_t schedule_round_seed(uint64_t master_seed, int round)
{
	return rng_derive(master_seed, "round", (uint64_t)round);
}

gboolean schedule_in_shard(int id, int index, int count)
{
	g_return_val_if_fail(count >= 1 && index >= 0 && index < count, FALSE);
	return id % count == index;
}

/* Advance a to the next permutation in lexicographic order; FALSE after
 * the last one. */
static gboolean next_permutation(int *a, int n)
{
	int i = n - 2, j = n - 1, t;

	while (i >= 0 && a[i] >= a[i + 1])
		i--;
	if (i < 0)
		return FALSE;
	while (a[j] <= a[i])
		j--;
	t = a[i], a[i] = a[j], a[j] = t;
	for (int l = i + 1, r = n - 1; l < r; l++, r--)
		t = a[l], a[l] = a[r], a[r] = t;
	return TRUE;
}

/* The seatings of one subset (sorted ascending) into out[seatings][k]. */
static void subset_seatings(const int *subset, int k, int (*out)[VARIANT_MAX_PLAYERS])
{
	int perm[VARIANT_MAX_PLAYERS];
	int n = 0;

	if (k > SCHEDULE_PERMUTE_MAX) {
		for (int r = 0; r < k; r++)
			for (int s = 0; s < k; s++)
				out[r][s] = subset[(s + r) % k];
		return;
	}
	for (int i = 0; i < k; i++)
		perm[i] = i;
	do {
		for (int s = 0; s < k; s++)
			out[n][s] = subset[perm[s]];
		n++;
	} while (next_permutation(perm, k));
}

/* Advance a k-combination of 0..n-1 in lexicographic order. */
static gboolean next_combination(int *c, int k, int n)
{
	int i = k - 1;

	while (i >= 0 && c[i] == n - k + i)
		i--;
	if (i < 0)
		return FALSE;
	c[i]++;
	for (int j = i + 1; j < k; j++)
		c[j] = c[j - 1] + 1;
	return TRUE;
}

Schedule *schedule_new(int nbots, int nseats, int games_per_seating,
		       uint64_t master_seed, GError **error)
{
	g_autoptr(Schedule) s = NULL;
	int64_t count;
	int subset[VARIANT_MAX_PLAYERS];
	int seating[24][VARIANT_MAX_PLAYERS];
	int id = 0;

	if (nbots < 1 || nbots > SCHEDULE_MAX_BOTS) {
		g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INVALID,
			    "%d bots: a tournament takes 1 to %d", nbots, SCHEDULE_MAX_BOTS);
		return NULL;
	}
	if (nseats < 1 || nseats > nbots || nseats > VARIANT_MAX_PLAYERS) {
		g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INVALID,
			    "%d players per game with %d bots: need 1 to %d",
			    nseats, nbots, MIN(nbots, VARIANT_MAX_PLAYERS));
		return NULL;
	}
	if (games_per_seating < 1) {
		g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INVALID,
			    "%d games per seating: need at least 1", games_per_seating);
		return NULL;
	}
	count = schedule_count(nbots, nseats, games_per_seating);
	if (count < 0) {
		g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INVALID,
			    "the schedule would have more than %d games", SCHEDULE_MAX_GAMES);
		return NULL;
	}
	s = g_new0(Schedule, 1);
	s->nbots = nbots;
	s->nseats = nseats;
	s->games_per_seating = games_per_seating;
	s->master_seed = master_seed;
	s->seatings = seatings_for(nseats);
	s->n = (int)count;
	s->game = g_new0(ScheduleGame, s->n);
	for (int r = 0; r < games_per_seating; r++) {
		uint64_t seed = schedule_round_seed(master_seed, r);

		for (int i = 0; i < nseats; i++)
			subset[i] = i;
		do {
			subset_seatings(subset, nseats, seating);
			for (int q = 0; q < s->seatings; q++) {
				ScheduleGame *g = &s->game[id];

				g->id = id++;
				g->round = r;
				g->seed = seed;
				g->nseats = nseats;
				for (int i = 0; i < nseats; i++)
					g->bot[i] = seating[q][i];
			}
		} while (next_combination(subset, nseats, nbots));
	}
	g_assert_cmpint(id, ==, s->n);
	return g_steal_pointer(&s);
}

void schedule_free(Schedule *s)
{
	if (!s)
		return;
	g_free(s->game);
	g_free(s);
}
