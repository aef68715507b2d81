/*
 * match: matchmaking. See match.h.
 */
#include "match.h"

#include <math.h>

#include "engine/rng.h"

/* The least-played of the candidates (cand[0..k)), ties drawn. */
static int least_played(const LadderMatchEntry *e, const int *cand, int k, Rng *rng)
{
	int ties[LADDER_MATCH_MAX];
	int nt = 0;
	gint64 best = G_MAXINT64;

	for (int i = 0; i < k; i++) {
		gint64 p = e[cand[i]].played;
		if (p < best) {
			best = p;
			nt = 0;
		}
		if (p == best && nt < LADDER_MATCH_MAX)
			ties[nt++] = cand[i];
	}
	return ties[rng_below(rng, (uint32_t)nt)];
}

gint64 ladder_match_below(gint64 id)
{
	gint64 b = id - LADDER_MATCH_LAG;

	if (b < 1024)
		return b;
	gint64 step = G_GINT64_CONSTANT(1) << (g_bit_nth_msf((gulong)b, -1) - 6);
	return b - b % step;
}

gboolean ladder_match(const LadderMatchEntry *e, int n, int min_players, int max_players, guint64 master,
		      gint64 id, LadderTable *out)
{
	Rng rng;
	int cand[LADDER_MATCH_MAX];
	gboolean seated[LADDER_MATCH_MAX] = {FALSE};

	if (n < min_players || n > LADDER_MATCH_MAX || min_players < 1)
		return FALSE;
	rng_seed(&rng, rng_derive(master, "ladder-match", (uint64_t)id));
	int hi = MIN(MIN(max_players, n), VARIANT_MAX_PLAYERS);
	out->n = min_players + (int)rng_below(&rng, (uint32_t)(hi - min_players + 1));
	gboolean top = (int)rng_below(&rng, 100) < LADDER_MATCH_TOP_PERCENT && n > out->n;
	out->kind = top ? "top" : "least";
	int k = 0;
	if (top) {
		/* the top k entries by rating (ties by id), picked in O(n k): a
		 * sort was O(n^2) at 500 entries */
		gboolean taken[LADDER_MATCH_MAX] = {FALSE};
		k = MIN(n, MAX(LADDER_MATCH_TOP, out->n));
		for (int c = 0; c < k; c++) {
			int best = -1;
			for (int i = 0; i < n; i++)
				if (!taken[i] && (best < 0 || e[i].elo > e[best].elo))
					best = i;
			taken[best] = TRUE;
			cand[c] = best;
		}
	} else {
		for (k = 0; k < n; k++)
			cand[k] = k;
	}
	int first = least_played(e, cand, k, &rng);
	seated[first] = TRUE;
	out->entry[0] = first;
	for (int s = 1; s < out->n; s++) {
		double w[LADDER_MATCH_MAX], sum = 0;
		for (int i = 0; i < n; i++) {
			w[i] = seated[i] ? 0 : exp(-fabs(e[i].elo - e[first].elo) / LADDER_MATCH_SIGMA) + 1e-3;
			sum += w[i];
		}
		/* a draw in [0, sum) from 53 random bits */
		double x = (double)(rng_next(&rng) >> 11) / 9007199254740992.0 * sum;
		int pick = -1;
		for (int i = 0; i < n; i++) {
			if (seated[i])
				continue;
			pick = i;
			if (x < w[i])
				break;
			x -= w[i];
		}
		seated[pick] = TRUE;
		out->entry[s] = pick;
	}
	rng_shuffle(&rng, out->entry, out->n);
	return TRUE;
}
