/* deal: whole blocks of the Main Match's deal. See deal.h. */
#include "deal.h"

#include <assert.h>
#include <string.h>

/* The search state of one block; cells are filled round-major. */
typedef struct {
	int n;
	const int8_t *prev;			/* round before the block, or NULL */
	int8_t (*out)[DEAL_MAX_PLAYERS];
	uint8_t used_by[DEAL_MAX_PLAYERS];	/* pieces player p has in the block */
	uint8_t used_in[DEAL_BLOCK];		/* pieces dealt in round r */
	int8_t order[DEAL_BLOCK * DEAL_MAX_PLAYERS][DEAL_BLOCK];	/* candidate order per cell */
	long nodes, budget;
} Search;

/* Player p's piece in the round before round r, or -1. */
static int before(const Search *s, int r, int p)
{
	if (r > 0)
		return s->out[r - 1][p];
	return s->prev ? s->prev[p] : -1;
}

static bool allowed(const Search *s, int r, int p, int piece)
{
	int was = before(s, r, p);

	if ((s->used_by[p] >> piece & 1u) || (s->used_in[r] >> piece & 1u) || piece == was)
		return false;
	/* No swap with a player already dealt this round. */
	for (int q = 0; q < p; q++)
		if (before(s, r, q) == piece && s->out[r][q] == was)
			return false;
	return true;
}

static bool fill(Search *s, int cell)
{
	if (cell == DEAL_BLOCK * s->n)
		return true;
	if (++s->nodes > s->budget)
		return false;
	int r = cell / s->n, p = cell % s->n;
	for (int k = 0; k < DEAL_BLOCK; k++) {
		int piece = s->order[cell][k];
		if (!allowed(s, r, p, piece))
			continue;
		s->out[r][p] = (int8_t)piece;
		s->used_by[p] |= (uint8_t)(1u << piece);
		s->used_in[r] |= (uint8_t)(1u << piece);
		if (fill(s, cell + 1))
			return true;
		s->used_by[p] &= (uint8_t)~(1u << piece);
		s->used_in[r] &= (uint8_t)~(1u << piece);
		if (s->nodes > s->budget)
			return false;
	}
	return false;
}

void deal_block(Rng *rng, int nplayers, const int8_t *prev,
		int8_t out[DEAL_BLOCK][DEAL_MAX_PLAYERS])
{
	Search s;

	assert(nplayers >= 2 && nplayers <= DEAL_MAX_PLAYERS);
	memset(&s, 0, sizeof(s));
	s.n = nplayers;
	s.prev = prev;
	s.out = out;
	/* A restart doubles the budget, so the search always ends. */
	for (s.budget = 2000;; s.budget *= 2) {
		for (int c = 0; c < DEAL_BLOCK * nplayers; c++) {
			int a[DEAL_BLOCK];
			for (int k = 0; k < DEAL_BLOCK; k++)
				a[k] = k;
			rng_shuffle(rng, a, DEAL_BLOCK);
			for (int k = 0; k < DEAL_BLOCK; k++)
				s.order[c][k] = (int8_t)a[k];
		}
		memset(s.used_by, 0, sizeof(s.used_by));
		memset(s.used_in, 0, sizeof(s.used_in));
		s.nodes = 0;
		if (fill(&s, 0))
			break;
	}
	for (int r = 0; r < DEAL_BLOCK; r++)
		for (int p = nplayers; p < DEAL_MAX_PLAYERS; p++)
			out[r][p] = -1;
}

bool deal_round_ok(int nplayers, const int8_t *r)
{
	unsigned seen = 0;

	for (int p = 0; p < nplayers; p++) {
		if (r[p] < 0 || r[p] >= DEAL_BLOCK || (seen >> r[p] & 1u))
			return false;
		seen |= 1u << r[p];
	}
	return true;
}

bool deal_step_ok(int nplayers, const int8_t *a, const int8_t *b)
{
	for (int p = 0; p < nplayers; p++) {
		if (a[p] == b[p])
			return false;
		for (int q = 0; q < nplayers; q++)
			if (q != p && a[p] == b[q] && a[q] == b[p])
				return false;
	}
	return true;
}

bool deal_block_ok(int nplayers, const int8_t *prev,
		   const int8_t block[DEAL_BLOCK][DEAL_MAX_PLAYERS])
{
	for (int r = 0; r < DEAL_BLOCK; r++) {
		if (!deal_round_ok(nplayers, block[r]))
			return false;
		const int8_t *a = r ? block[r - 1] : prev;
		if (a && !deal_step_ok(nplayers, a, block[r]))
			return false;
	}
	for (int p = 0; p < nplayers; p++) {
		unsigned seen = 0;
		for (int r = 0; r < DEAL_BLOCK; r++)
			seen |= 1u << block[r][p];
		if (seen != (1u << DEAL_BLOCK) - 1)
			return false;
	}
	return true;
}
