/*
 * bench-srs: the matrix move generator's speed. For each board of a fixed
 * set (the matrix's start, an empty field, a spin fixture and boards taken
 * from seeded games of random players), it runs srs_landings() for all
 * seven pieces over and over for a fixed time and prints placements found
 * per second and generator calls per second. Speed is measured here,
 * never asserted in tests.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "matrix.h"
#include "srs.h"
#include "variants.h"

#define BOARDS 6

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A board from a random game of 7 players after `rounds` rounds. */
static void midgame(Board *b, uint64_t seed, int rounds)
{
	static MatrixState s;
	static Move moves[SRS_MAX_LANDINGS];
	VariantConfig cfg;
	Rng deal, play;
	uint32_t mask;

	variant_config_default(&variant_matrix, 7, &cfg);
	variant_matrix.init(&s, &cfg);
	rng_seed(&deal, seed);
	rng_seed(&play, seed + 1);
	while (s.round < rounds) {
		VariantPhase ph = variant_matrix.phase(&s, &mask);
		if (ph == VARIANT_PHASE_OVER)
			break;
		if (ph == VARIANT_PHASE_CHANCE) {
			variant_matrix.apply(&s, VARIANT_CHANCE, variant_matrix.chance_sample(&s, &deal));
			continue;
		}
		Move joint[7] = {0};
		for (int p = 0; p < 7; p++) {
			int n = variant_matrix.legal_moves(&s, p, moves);
			joint[p] = n ? moves[rng_below(&play, (uint32_t)n)] : 0;
		}
		variant_matrix.apply_joint(&s, joint, mask);
	}
	*b = s.board;
}

int main(void)
{
	static SrsPos out[SRS_MAX_LANDINGS];
	static const char *const spin[] = {
		".#........", "#.........", "#.########", "#..#######", "#.########",
	};
	const char *names[BOARDS] = {"start", "empty", "tspin", "midgame-3", "midgame-6", "midgame-9"};
	Board boards[BOARDS];
	double total_found = 0, total_time = 0;

	board_init(&boards[0], 10, 40);
	board_set(&boards[0], 0, 0, true);
	board_set(&boards[0], 9, 0, true);
	board_init(&boards[1], 10, 40);
	board_init(&boards[2], 10, 40);
	for (int i = 0; i < 5; i++)
		for (int x = 0; x < 10; x++)
			if (spin[i][x] == '#')
				board_set(&boards[2], x, 4 - i, true);
	midgame(&boards[3], 11, 3);
	midgame(&boards[4], 12, 6);
	midgame(&boards[5], 13, 9);
	for (int b = 0; b < BOARDS; b++) {
		long calls = 0, found = 0;
		double t0 = now(), t;
		do {
			for (int k = 0; k < PIECE_COUNT; k++) {
				SrsPos spawn;
				if (!srs_spawn(&boards[b], (PieceKind)k, 4, 20, &spawn))
					continue;
				found += srs_landings(&boards[b], &spawn, b != 1, out);
				calls++;
			}
			t = now() - t0;
		} while (t < 0.3);
		printf("bench-srs %-10s %8.0f placements/s %8.0f generations/s (%ld per 7 pieces)\n",
		       names[b], found / t, calls / t, found * 7 / (calls ? calls : 1));
		total_found += found;
		total_time += t;
	}
	printf("bench-srs all        %8.0f placements/s\n", total_found / total_time);
	return 0;
}
