/*
 * bench-srs: the matrix move generator's speed. For each board of a fixed
 * set (the matrix's start, an empty field, a spin fixture and three
 * boards once taken from seeded games of random players, written out here
 * so they never depend on the generator's move order), it runs the
 * generator for all seven pieces over and over and prints generations
 * (calls) per second: "before" is srs_landings_reference(), the first
 * generator, "after" is srs_landings(). Time is the thread's CPU time, and
 * the two are timed in alternating short slices, each reporting its
 * fastest, so that a loaded machine (other jobs come and go) slows both
 * alike and little. Speed is measured here, never asserted in tests.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "srs.h"

#define BOARDS 6
#define SLICES 15	/* alternating slices per generator and board */
#define SLICE 0.02	/* seconds */

typedef int (*Generator)(const Board *, const SrsPos *, bool, SrsPos *);

typedef struct {
	const char *name;
	bool resting;
	int nrows;
	const char *rows[24];	/* top row first; '#' filled */
} Fixture;

static const Fixture fixtures[BOARDS] = {
	{"start", true, 1, {"#........#"}},
	{"empty", false, 0, {NULL}},
	{"tspin", true, 5, {".#........", "#.........", "#.########", "#..#######", "#.########"}},
	/* The board of a random 7-player matrix game, seed 11, after 3 rounds. */
	{"midgame-3", true, 10, {
		".#.....###", ".#.....###", ".###.#..#.", ".##.##..#.", "##..##..#.",
		"###.##..#.", "####.####.", "####..###.", "###....###", "###....###"}},
	/* Seed 12 after 6 rounds. */
	{"midgame-6", true, 16, {
		".#...#...#", ".#####.#.#", "..###.####", "..#######.", ".####.###.",
		".###..###.", ".########.", ".######.##", "####.####.", ".#########",
		".##...####", "###..####.", "###...####", "##...#####", "##....####",
		"#......###"}},
	/* Seed 13 after 9 rounds: the stack reaches the spawn. */
	{"midgame-9", true, 21, {
		"...##..#..", "#.#######.", "#..######.", "#########.", "#..######.",
		"##.######.", ".#######..", ".#..##.##.", "#########.", "##..###.#.",
		".#..######", ".#.#######", "######.###", ".##.#.####", ".######.##",
		"##.#..####", ".####.###.", "#####.###.", ".###.#####", "###...####",
		"###....###"}},
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Run gen for all seven pieces for `secs` of CPU time: generations per second. */
static double run(Generator gen, const Board *b, bool resting, double secs, long *found)
{
	static SrsPos out[SRS_MAX_LANDINGS];
	double t0 = now(), t;
	long calls = 0;

	do {
		for (int k = 0; k < PIECE_COUNT; k++) {
			SrsPos spawn;
			if (!srs_spawn(b, (PieceKind)k, 4, 20, &spawn))
				continue;
			*found += gen(b, &spawn, resting, out);
			calls++;
		}
		t = now() - t0;
	} while (t < secs);
	return calls / t;
}

/* Whether both generators give the same list for every piece. */
static bool same(const Board *b, bool resting)
{
	static SrsPos x[SRS_MAX_LANDINGS], y[SRS_MAX_LANDINGS];

	for (int k = 0; k < PIECE_COUNT; k++) {
		SrsPos spawn;
		if (!srs_spawn(b, (PieceKind)k, 4, 20, &spawn))
			continue;
		int n = srs_landings_reference(b, &spawn, resting, x);
		if (n != srs_landings(b, &spawn, resting, y) || memcmp(x, y, sizeof(SrsPos) * (size_t)n))
			return false;
	}
	return true;
}

int main(void)
{
	double logsum = 0, worst = 1e9;

	printf("bench-srs: generations per CPU second (one piece, all its placements), before = srs_landings_reference, after = srs_landings\n");
	printf("bench-srs %-10s %12s %12s %7s %s\n", "board", "before", "after", "ratio", "placements per 7 pieces");
	for (int i = 0; i < BOARDS; i++) {
		const Fixture *f = &fixtures[i];
		long found = 0;
		double best[2] = {0, 0};
		Board b;

		board_init(&b, 10, 40);
		for (int r = 0; r < f->nrows; r++)
			for (int x = 0; x < 10; x++)
				if (f->rows[r][x] == '#')
					board_set(&b, x, f->nrows - 1 - r, true);
		for (int s = 0; s < SLICES; s++) {
			double r0 = run(srs_landings_reference, &b, f->resting, SLICE, &found);
			double r1 = run(srs_landings, &b, f->resting, SLICE, &found);
			best[0] = r0 > best[0] ? r0 : best[0];
			best[1] = r1 > best[1] ? r1 : best[1];
		}
		double before = best[0], after = best[1], ratio = after / before;
		int per7 = 0;
		for (int k = 0; k < PIECE_COUNT; k++) {
			static SrsPos out[SRS_MAX_LANDINGS];
			SrsPos spawn;
			if (srs_spawn(&b, (PieceKind)k, 4, 20, &spawn))
				per7 += srs_landings(&b, &spawn, f->resting, out);
		}
		printf("bench-srs %-10s %12.0f %12.0f %6.2fx %d%s\n", f->name, before, after, ratio, per7,
		       same(&b, f->resting) ? "" : " (OUTPUTS DIFFER)");
		logsum += __builtin_log(ratio);
		if (ratio < worst)
			worst = ratio;
	}
	printf("bench-srs geometric mean %.2fx, worst %.2fx\n", __builtin_exp(logsum / BOARDS), worst);
	return 0;
}
