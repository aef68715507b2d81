/*
 * test-srs: SRS states, wall kicks and the move generator, by exact counts
 * (rules.md's sanity check) and ASCII fixtures of spin slots.
 */
#include <glib.h>
#include <string.h>

#include "board.h"
#include "piece.h"
#include "rng.h"
#include "srs.h"

static const char letters[] = "IOTJLSZ";

/* A 10-wide board of `height` rows from ASCII rows, top row first. */
static void board_from_ascii(Board *b, int height, const char *const *rows, int nrows)
{
	board_init(b, 10, height);
	for (int i = 0; i < nrows; i++) {
		int y = nrows - 1 - i;
		g_assert_cmpint((int)strlen(rows[i]), ==, 10);
		for (int x = 0; x < 10; x++)
			if (rows[i][x] == '#')
				board_set(b, x, y, true);
	}
}

/* Landed states and distinct landed cell sets of `kind`. */
static void count(const Board *b, PieceKind kind, bool resting, int *states, int *sets)
{
	static SrsPos out[SRS_MAX_LANDINGS];
	SrsPos spawn;
	int n;
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	g_assert_true(srs_spawn(b, kind, 4, 20, &spawn));
	n = srs_landings(b, &spawn, resting, out);
	for (int i = 0; i < n; i++) {
		int x[4], y[4], id[4];
		srs_cells(&out[i], x, y);
		for (int c = 0; c < 4; c++)
			id[c] = y[c] * 10 + x[c];
		/* The cell set as its sorted cell numbers. */
		for (int c = 1; c < 4; c++)
			for (int d = c; d > 0 && id[d - 1] > id[d]; d--) {
				int t = id[d];
				id[d] = id[d - 1];
				id[d - 1] = t;
			}
		g_hash_table_add(seen, g_strdup_printf("%d,%d,%d,%d", id[0], id[1], id[2], id[3]));
		g_assert_false(srs_collides(b, &out[i]));
	}
	/* Every state is distinct. */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			g_assert_false(out[i].rot == out[j].rot && out[i].x == out[j].x &&
				       out[i].y == out[j].y);
	*states = n;
	*sets = (int)g_hash_table_size(seen);
	g_hash_table_unref(seen);
}

static void test_empty_counts(void)
{
	static const int want_states[PIECE_COUNT] = {34, 36, 34, 34, 34, 34, 34};
	static const int want_sets[PIECE_COUNT] = {17, 9, 34, 34, 34, 17, 17};
	Board b;

	board_init(&b, 10, 40);
	for (int k = 0; k < PIECE_COUNT; k++) {
		int states, sets;
		count(&b, (PieceKind)k, false, &states, &sets);
		g_test_message("%c: %d states, %d cell sets", letters[k], states, sets);
		g_assert_cmpint(states, ==, want_states[k]);
		g_assert_cmpint(sets, ==, want_sets[k]);
	}
}

/* The matrix's start: the two bottom corners filled, resting rule on. */
static void test_start_counts(void)
{
	/* Worked by hand and by an independent brute force over positions. */
	static const int want_states[PIECE_COUNT] = {8, 8, 8, 7, 7, 8, 8};
	static const int want_sets[PIECE_COUNT] = {4, 2, 8, 7, 7, 4, 4};
	Board b;

	board_init(&b, 10, 40);
	board_set(&b, 0, 0, true);
	board_set(&b, 9, 0, true);
	for (int k = 0; k < PIECE_COUNT; k++) {
		int states, sets;
		count(&b, (PieceKind)k, true, &states, &sets);
		g_assert_cmpint(states, ==, want_states[k]);
		g_assert_cmpint(sets, ==, want_sets[k]);
		/* Without the resting rule the corners change nothing. */
		count(&b, (PieceKind)k, false, &states, &sets);
		g_assert_cmpint(states, ==, k == PIECE_O ? 36 : 34);
	}
}

static void test_spawn(void)
{
	Board b;
	SrsPos p;
	int x[4], y[4];

	board_init(&b, 10, 40);
	g_assert_true(srs_spawn(&b, PIECE_T, 4, 20, &p));
	srs_cells(&p, x, y);
	g_assert_cmpint(x[0], ==, 3);
	g_assert_cmpint(y[0], ==, 20);
	g_assert_cmpint(x[3], ==, 4);
	g_assert_cmpint(y[3], ==, 21);
	/* Blocked: it rises until free. */
	board_set(&b, 4, 20, true);
	board_set(&b, 4, 21, true);
	g_assert_true(srs_spawn(&b, PIECE_T, 4, 20, &p));
	g_assert_cmpint(p.y, ==, 22);
	/* Blocked to the top: no spawn. */
	for (int y2 = 20; y2 < 40; y2++)
		board_set(&b, 4, y2, true);
	g_assert_false(srs_spawn(&b, PIECE_T, 4, 20, &p));
}

/*
 * A T-spin triple slot: the T drops onto the ledge at x 3, slides left
 * under the overhang at (1,4) and turns clockwise; the fifth test (-1,-2)
 * puts it into the slot.
 */
static const char *const tst_slot[] = {
	".#........",
	"#.........",
	"#.########",
	"#..#######",
	"#.########",
};

static void test_tspin_triple(void)
{
	Board b;
	SrsPos p = {PIECE_T, SRS_ROT_0, 2, 3}, spawn, want = {PIECE_T, SRS_ROT_R, 1, 1};

	board_from_ascii(&b, 40, tst_slot, 5);
	g_assert_false(srs_collides(&b, &p));
	g_assert_true(srs_rotate(&b, &p, 1));
	g_assert_cmpint(p.rot, ==, SRS_ROT_R);
	g_assert_cmpint(p.x, ==, 1);
	g_assert_cmpint(p.y, ==, 1);
	/* The generator finds it from the spawn, and it rests. */
	g_assert_true(srs_spawn(&b, PIECE_T, 4, 20, &spawn));
	g_assert_true(srs_reachable(&b, &spawn, true, &want));
	/* Column 1 is covered at y 4: no straight drop gets there. */
	g_assert_true(board_get(&b, 1, 4));
	/* Counter-clockwise from the same place does not reach the slot. */
	SrsPos q = {PIECE_T, SRS_ROT_0, 2, 3};
	g_assert_true(srs_rotate(&b, &q, -1));
	g_assert_false(q.rot == SRS_ROT_R && q.x == 1 && q.y == 1);
}

/*
 * A T-spin double slot: T pointing down under the overhang at (1,2). It
 * drops upright (state R) into column 2 and turns clockwise in place; a
 * straight drop of the flat T is covered.
 */
static const char *const tsd_slot[] = {
	"##........",
	"#...######",
	"##.#######",
};

static void test_tspin_double(void)
{
	Board b;
	SrsPos spawn, want = {PIECE_T, SRS_ROT_2, 2, 1};

	board_from_ascii(&b, 40, tsd_slot, 3);
	g_assert_true(srs_spawn(&b, PIECE_T, 4, 20, &spawn));
	g_assert_true(srs_reachable(&b, &spawn, true, &want));
	SrsPos p = {PIECE_T, SRS_ROT_R, 2, 1};
	g_assert_false(srs_collides(&b, &p));
	g_assert_true(srs_rotate(&b, &p, 1));
	g_assert_cmpint(p.rot, ==, SRS_ROT_2);
	g_assert_cmpint(p.x, ==, 2);
	g_assert_cmpint(p.y, ==, 1);
	/* The flat T one row up collides with the overhang. */
	SrsPos flat = {PIECE_T, SRS_ROT_2, 2, 2};
	g_assert_true(srs_collides(&b, &flat));
}

/*
 * An I-spin: a flat I slides under the overhang at (1,5) and turns
 * clockwise; the fourth I test (-2,-1) drops it into the well in column 1.
 */
static const char *const ispin_slot[] = {
	".#........",
	"#.........",
	"#.########",
	"#.########",
	"#.########",
	"#########.",
};

static void test_ispin(void)
{
	Board b;
	SrsPos p = {PIECE_I, SRS_ROT_0, 2, 4}, spawn, want = {PIECE_I, SRS_ROT_R, 0, 3};

	board_from_ascii(&b, 40, ispin_slot, 6);
	g_assert_false(srs_collides(&b, &p));
	g_assert_true(srs_rotate(&b, &p, 1));
	g_assert_cmpint(p.rot, ==, SRS_ROT_R);
	g_assert_cmpint(p.x, ==, 0);
	g_assert_cmpint(p.y, ==, 3);
	g_assert_true(srs_spawn(&b, PIECE_I, 4, 20, &spawn));
	g_assert_true(srs_reachable(&b, &spawn, true, &want));
}

/* O turns in place and never kicks. */
static void test_o_never_kicks(void)
{
	Board b;
	SrsPos p = {PIECE_O, SRS_ROT_0, 0, 0};
	int x0[4], y0[4], x1[4], y1[4];

	board_init(&b, 10, 40);
	srs_cells(&p, x0, y0);
	g_assert_true(srs_rotate(&b, &p, 1));
	srs_cells(&p, x1, y1);
	for (int i = 0; i < 4; i++) {
		bool found = false;
		for (int j = 0; j < 4; j++)
			found |= x0[i] == x1[j] && y0[i] == y1[j];
		g_assert_true(found);
	}
	g_assert_cmpint(p.rot, ==, SRS_ROT_R);
}

/* A T against the left wall kicks right. */
static void test_wall_kick(void)
{
	Board b;
	SrsPos p = {PIECE_T, SRS_ROT_R, 0, 5};

	board_init(&b, 10, 40);
	g_assert_false(srs_collides(&b, &p));
	/* R->2 at x 0 would put a cell at x -1: test 2 (+1, 0). */
	g_assert_true(srs_rotate(&b, &p, 1));
	g_assert_cmpint(p.rot, ==, SRS_ROT_2);
	g_assert_cmpint(p.x, ==, 1);
	g_assert_cmpint(p.y, ==, 5);
}

/*
 * A plain breadth-first search with the public moves, no shortcut: the
 * reference the generator must agree with. OUT final[rot][x + 2] bit y.
 */
static void reference(const Board *b, const SrsPos *spawn, bool resting,
		      uint64_t final[SRS_ROTS][BOARD_MAX_WIDTH + 4])
{
	static SrsPos queue[SRS_MAX_LANDINGS];
	uint64_t seen[SRS_ROTS][BOARD_MAX_WIDTH + 4] = {{0}};
	int head = 0, tail = 0;

	memset(final, 0, sizeof(uint64_t) * SRS_ROTS * (BOARD_MAX_WIDTH + 4));
	queue[tail++] = *spawn;
	seen[spawn->rot][spawn->x + 2] |= (uint64_t)1 << spawn->y;
	while (head < tail) {
		SrsPos p = queue[head++], next[5];
		int n = 0;
		for (int d = -1; d <= 1; d += 2) {
			next[n] = p;
			next[n].x = (int8_t)(p.x + d);
			if (!srs_collides(b, &next[n]))
				n++;
			next[n] = p;
			if (srs_rotate(b, &next[n], d))
				n++;
		}
		next[n] = p;
		next[n].y = (int8_t)(p.y - 1);
		if (!srs_collides(b, &next[n]))
			n++;
		else if (!resting || srs_rests(b, &p))
			final[p.rot][p.x + 2] |= (uint64_t)1 << p.y;
		for (int i = 0; i < n; i++) {
			uint64_t bit = (uint64_t)1 << next[i].y;
			if (seen[next[i].rot][next[i].x + 2] & bit)
				continue;
			seen[next[i].rot][next[i].x + 2] |= bit;
			queue[tail++] = next[i];
		}
	}
}

/* On ragged random boards full of overhangs the generator finds exactly
 * what the plain search finds. */
static void test_against_reference(void)
{
	static SrsPos out[SRS_MAX_LANDINGS];
	Rng rng;
	int boards = 0, total = 0;

	rng_seed(&rng, 2026);
	for (int round = 0; round < 300; round++) {
		Board b;
		int rows = 1 + (int)rng_below(&rng, 14);
		board_init(&b, 10, 40);
		for (int y = 0; y < rows; y++)
			for (int x = 0; x < 10; x++)
				if (rng_below(&rng, 100) < 55)
					board_set(&b, x, y, true);
		boards++;
		for (int k = 0; k < PIECE_COUNT; k++) {
			uint64_t want[SRS_ROTS][BOARD_MAX_WIDTH + 4], got[SRS_ROTS][BOARD_MAX_WIDTH + 4];
			SrsPos spawn;
			bool resting = round % 2 == 0;
			g_assert_true(srs_spawn(&b, (PieceKind)k, 4, 20, &spawn));
			reference(&b, &spawn, resting, want);
			int n = srs_landings(&b, &spawn, resting, out);
			memset(got, 0, sizeof(got));
			for (int i = 0; i < n; i++)
				got[out[i].rot][out[i].x + 2] |= (uint64_t)1 << out[i].y;
			g_assert_true(memcmp(want, got, sizeof(want)) == 0);
			total += n;
		}
	}
	g_test_message("%d boards, %d placements", boards, total);
}

/*
 * srs_landings() against srs_landings_reference(), the first generator:
 * the same list in the same order (the matrix's legal moves, and so every
 * seeded game, follow it), on boards of every width and of heights up to
 * 62 rows: ragged random fields, stacks with holes and overhangs, stacks
 * up to the spawn and beyond, from spawns at several heights.
 */
static void random_board(Rng *rng, Board *b)
{
	int w = 4 + (int)rng_below(rng, BOARD_MAX_WIDTH - 3);
	int h = 6 + (int)rng_below(rng, 57);
	int style = (int)rng_below(rng, 3);

	board_init(b, w, h);
	if (style == 0) {
		/* Ragged rows of random density up to a random height. */
		int rows = (int)rng_below(rng, (uint32_t)h + 1), density = 20 + (int)rng_below(rng, 70);
		for (int y = 0; y < rows; y++)
			for (int x = 0; x < w; x++)
				if ((int)rng_below(rng, 100) < density)
					board_set(b, x, y, true);
	} else if (style == 1) {
		/* Columns of random heights with holes punched in them. */
		for (int x = 0; x < w; x++) {
			int ch = (int)rng_below(rng, (uint32_t)h + 1);
			for (int y = 0; y < ch; y++)
				if (rng_below(rng, 100) < 85)
					board_set(b, x, y, true);
		}
	} else {
		/* A full stack with a few wells and tunnels cut into it. */
		int rows = (int)rng_below(rng, (uint32_t)h + 1);
		for (int y = 0; y < rows; y++)
			for (int x = 0; x < w; x++)
				board_set(b, x, y, true);
		for (int cut = (int)rng_below(rng, 12); cut > 0; cut--) {
			int x = (int)rng_below(rng, (uint32_t)w), y = (int)rng_below(rng, (uint32_t)h);
			int len = 1 + (int)rng_below(rng, 6);
			bool across = rng_below(rng, 2);
			for (int i = 0; i < len; i++)
				if (board_inside(b, across ? x + i : x, across ? y : y - i))
					board_set(b, across ? x + i : x, across ? y : y - i, false);
		}
	}
}

static void test_against_first_generator(void)
{
	static SrsPos want[SRS_MAX_LANDINGS], got[SRS_MAX_LANDINGS];
	Rng rng;
	long calls = 0, total = 0;

	rng_seed(&rng, 17);
	for (int round = 0; round < 3000; round++) {
		Board b;
		random_board(&rng, &b);
		int sx = (b.width - 1) / 2, sy = b.height / 2 + (int)rng_below(&rng, (uint32_t)(b.height + 1) / 2);
		for (int k = 0; k < PIECE_COUNT; k++) {
			SrsPos spawn;
			if (!srs_spawn(&b, (PieceKind)k, sx, sy, &spawn))
				continue;
			for (int resting = 0; resting < 2; resting++) {
				int n = srs_landings_reference(&b, &spawn, resting, want);
				g_assert_cmpint(srs_landings(&b, &spawn, resting, got), ==, n);
				g_assert_true(memcmp(want, got, sizeof(SrsPos) * (size_t)n) == 0);
				calls++;
				total += n;
			}
		}
	}
	g_test_message("%ld generations, %ld placements", calls, total);
	g_assert_cmpint(calls, >, 20000);
}

static void test_rot_letters(void)
{
	for (int r = 0; r < SRS_ROTS; r++)
		g_assert_cmpint(srs_rot_from_letter(srs_rot_letter(r)), ==, r);
	g_assert_cmpint(srs_rot_from_letter('x'), ==, -1);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/srs/landings/empty", test_empty_counts);
	g_test_add_func("/srs/landings/start", test_start_counts);
	g_test_add_func("/srs/spawn", test_spawn);
	g_test_add_func("/srs/kick/tspin-triple", test_tspin_triple);
	g_test_add_func("/srs/kick/tspin-double", test_tspin_double);
	g_test_add_func("/srs/kick/ispin", test_ispin);
	g_test_add_func("/srs/kick/o", test_o_never_kicks);
	g_test_add_func("/srs/kick/wall", test_wall_kick);
	g_test_add_func("/srs/rot-letters", test_rot_letters);
	g_test_add_func("/srs/landings/reference", test_against_reference);
	g_test_add_func("/srs/landings/first-generator", test_against_first_generator);
	return g_test_run();
}
