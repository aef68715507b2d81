/*
 * test-deal: the Main Match's dealing over 10,000 rounds per player count:
 * every constraint holds across blocks, blocks never dead-end, the same
 * seed deals the same pieces.
 */
#include <glib.h>
#include <string.h>

#include "deal.h"
#include "rng.h"

#define ROUNDS 10003	/* a whole number of blocks is dealt: 10,010 */

/* Deal blocks until `rounds` rounds; OUT: deal[r][p]. */
static void deal_rounds(uint64_t seed, int n, int rounds, int8_t (*deal)[DEAL_MAX_PLAYERS])
{
	Rng rng;

	rng_seed(&rng, seed);
	for (int r = 0; r < rounds; r += DEAL_BLOCK) {
		int8_t block[DEAL_BLOCK][DEAL_MAX_PLAYERS];
		deal_block(&rng, n, r ? deal[r - 1] : NULL, block);
		g_assert_true(deal_block_ok(n, r ? deal[r - 1] : NULL, block));
		memcpy(deal[r], block, sizeof(block));
	}
}

static void check_constraints(gconstpointer data)
{
	int n = GPOINTER_TO_INT(data);
	int total = (ROUNDS + DEAL_BLOCK - 1) / DEAL_BLOCK * DEAL_BLOCK;
	int8_t (*deal)[DEAL_MAX_PLAYERS] = g_malloc0_n((gsize)total, DEAL_MAX_PLAYERS);
	int counts[DEAL_BLOCK] = {0};

	deal_rounds(0x573afb14c686640dULL + (uint64_t)n, n, ROUNDS, deal);
	for (int r = 0; r < total; r++) {
		/* Distinct pieces in each round. */
		unsigned seen = 0;
		for (int p = 0; p < n; p++) {
			g_assert_cmpint(deal[r][p], >=, 0);
			g_assert_cmpint(deal[r][p], <, DEAL_BLOCK);
			g_assert_false(seen >> deal[r][p] & 1u);
			seen |= 1u << deal[r][p];
			counts[deal[r][p]]++;
		}
		if (r == 0)
			continue;
		for (int p = 0; p < n; p++) {
			/* Never the same piece twice in a row. */
			g_assert_cmpint(deal[r][p], !=, deal[r - 1][p]);
			/* No two players swap. */
			for (int q = 0; q < n; q++)
				g_assert_false(q != p && deal[r][p] == deal[r - 1][q] &&
					       deal[r][q] == deal[r - 1][p]);
		}
	}
	/* Each block gives every player every piece once. */
	for (int b = 0; b < total; b += DEAL_BLOCK)
		for (int p = 0; p < n; p++) {
			unsigned seen = 0;
			for (int r = b; r < b + DEAL_BLOCK; r++)
				seen |= 1u << deal[r][p];
			g_assert_cmpuint(seen, ==, (1u << DEAL_BLOCK) - 1);
		}
	/* Every piece is dealt as often as the others. */
	for (int k = 1; k < DEAL_BLOCK; k++)
		g_assert_cmpint(counts[k], ==, counts[0]);
	g_free(deal);
}

/* For seven players every cycle of the round-to-round map has length >= 3. */
static void check_cycles(void)
{
	int8_t deal[700][DEAL_MAX_PLAYERS];

	deal_rounds(42, 7, 700, deal);
	for (int r = 1; r < 700; r++) {
		int next[DEAL_BLOCK];
		for (int p = 0; p < 7; p++)
			next[deal[r - 1][p]] = deal[r][p];
		for (int k = 0; k < DEAL_BLOCK; k++) {
			int len = 1;
			for (int j = next[k]; j != k; j = next[j])
				len++;
			g_assert_cmpint(len, >=, 3);
		}
	}
}

static void check_same_seed(void)
{
	int8_t a[210][DEAL_MAX_PLAYERS], b[210][DEAL_MAX_PLAYERS], c[210][DEAL_MAX_PLAYERS];

	deal_rounds(7, 7, 210, a);
	deal_rounds(7, 7, 210, b);
	deal_rounds(8, 7, 210, c);
	g_assert_true(memcmp(a, b, sizeof(a)) == 0);
	g_assert_false(memcmp(a, c, sizeof(a)) == 0);
}

/* The checkers reject what the rules forbid. */
static void check_checkers(void)
{
	const int8_t a[DEAL_MAX_PLAYERS] = {0, 1, 2, 3, 4, 5, 6};
	const int8_t swap[DEAL_MAX_PLAYERS] = {1, 0, 3, 4, 5, 6, 2};
	const int8_t same[DEAL_MAX_PLAYERS] = {0, 2, 3, 4, 5, 6, 1};
	const int8_t good[DEAL_MAX_PLAYERS] = {1, 2, 0, 4, 5, 6, 3};
	const int8_t twice[DEAL_MAX_PLAYERS] = {1, 1, 0, 4, 5, 6, 3};

	g_assert_false(deal_step_ok(7, a, swap));
	g_assert_false(deal_step_ok(7, a, same));
	g_assert_true(deal_step_ok(7, a, good));
	g_assert_true(deal_round_ok(7, good));
	g_assert_false(deal_round_ok(7, twice));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (int n = 2; n <= DEAL_MAX_PLAYERS; n++) {
		char path[64];
		g_snprintf(path, sizeof(path), "/deal/constraints/%d", n);
		g_test_add_data_func(path, GINT_TO_POINTER(n), check_constraints);
	}
	g_test_add_func("/deal/cycles", check_cycles);
	g_test_add_func("/deal/same-seed", check_same_seed);
	g_test_add_func("/deal/checkers", check_checkers);
	return g_test_run();
}
