/*
 * test-matrix: the Main Match's scoring as ASCII fixtures (shared and
 * unique cells, clears with shifting, holes judged after the shift, the -3
 * counted once, the -5 for a missed round), both end conditions, notation
 * and state lines, and whole games through the variant table.
 */
#include <glib.h>
#include <string.h>

#include "matrix.h"
#include "variants.h"

/* A 10 x 40 field from ASCII rows, top row first, bottom row last. */
static void field_from_ascii(Board *b, const char *const *rows, int nrows)
{
	board_init(b, 10, 40);
	for (int i = 0; i < nrows; i++) {
		int y = nrows - 1 - i;
		g_assert_cmpint((int)strlen(rows[i]), ==, 10);
		for (int x = 0; x < 10; x++)
			if (rows[i][x] == '#')
				board_set(b, x, y, true);
	}
}

static Move at(PieceKind kind, int rot, int x, int y)
{
	SrsPos p = {(int8_t)kind, (int8_t)rot, (int8_t)x, (int8_t)y};

	return matrix_move(&p);
}

/* Two pieces overlapping in two cells: 2 unique cells each. */
static void test_shared_cells(void)
{
	static const char *const rows[] = {"#........#"};
	Board b, after;
	Move m[3] = {at(PIECE_O, SRS_ROT_0, 0, 1), at(PIECE_I, SRS_ROT_L, 1, 3),
		     at(PIECE_T, SRS_ROT_0, 8, 1)};
	MatrixOutcome o[3];

	field_from_ascii(&b, rows, 1);
	g_assert_cmpint(matrix_resolve(&b, 20, 3, m, o, &after), ==, 0);
	g_assert_cmpint(o[0].unique, ==, 2);
	g_assert_cmpint(o[1].unique, ==, 2);
	g_assert_cmpint(o[2].unique, ==, 4);
	g_assert_cmpint(o[0].delta, ==, 2);
	g_assert_cmpint(o[1].delta, ==, 2);
	g_assert_cmpint(o[2].delta, ==, 4);
	/* Shared cells are filled once: 2 + 4 + 4 + 4 - 2. */
	g_assert_cmpint(board_count(&after), ==, 12);
}

/*
 * A T pointing down fills row 1 and leaves (4,0) covered; the clear takes
 * away its lid, so after the shift there is no hole: +4 +5, no -3.
 */
static void test_clear_shift_no_hole(void)
{
	static const char *const rows[] = {
		".....#....",
		"##...#####",
		"#.#..#####",
	};
	Board b, after;
	Move m[1] = {at(PIECE_T, SRS_ROT_2, 3, 1)};
	MatrixOutcome o[1];

	field_from_ascii(&b, rows, 3);
	g_assert_cmpint(matrix_resolve(&b, 20, 1, m, o, &after), ==, 1);
	g_assert_cmpint(o[0].unique, ==, 4);
	g_assert_cmpint(o[0].rows, ==, 1);
	g_assert_cmpint(o[0].hole, ==, 0);
	g_assert_cmpint(o[0].delta, ==, 9);
	/* The rows above shifted down: the cell at (5,2) is now at (5,1). */
	g_assert_true(board_get(&after, 5, 1));
	g_assert_false(board_get(&after, 5, 2));
	g_assert_true(board_get(&after, 3, 0));
	g_assert_false(board_get(&after, 4, 1));
}

/*
 * Seat 0's I clears row 1; seat 1's O, which sat on row 1, comes down onto
 * the hole at (1,0): judged after the shift, seat 1 loses 3.
 */
static void test_hole_after_shift(void)
{
	static const char *const rows[] = {
		"#########.",
		"#.########",
	};
	Board b, after;
	Move m[2] = {at(PIECE_I, SRS_ROT_L, 9, 3), at(PIECE_O, SRS_ROT_0, 1, 2)};
	MatrixOutcome o[2];
	BoardRow hole[BOARD_MAX_HEIGHT];

	field_from_ascii(&b, rows, 2);
	g_assert_cmpint(matrix_resolve(&b, 20, 2, m, o, &after), ==, 1);
	g_assert_cmpint(o[0].delta, ==, 4 + 5);
	g_assert_cmpint(o[0].hole, ==, 0);
	g_assert_cmpint(o[1].unique, ==, 4);
	g_assert_cmpint(o[1].rows, ==, 0);
	g_assert_cmpint(o[1].hole, ==, 1);
	g_assert_cmpint(o[1].delta, ==, 4 - 3);
	matrix_holes(&after, hole);
	g_assert_cmpuint(hole[0], ==, 1u << 1);
}

/* A T over two holes loses 3 once. */
static void test_hole_once(void)
{
	static const char *const rows[] = {"#.#.######"};
	Board b;
	Move m[1] = {at(PIECE_T, SRS_ROT_0, 2, 1)};
	MatrixOutcome o[1];

	field_from_ascii(&b, rows, 1);
	matrix_resolve(&b, 20, 1, m, o, NULL);
	g_assert_cmpint(o[0].hole, ==, 1);
	g_assert_cmpint(o[0].delta, ==, 1);
}

/* Nothing placed: -5, and the board is unchanged. */
static void test_missed(void)
{
	static const char *const rows[] = {"#........#"};
	Board b, after;
	Move m[2] = {0, at(PIECE_O, SRS_ROT_0, 0, 1)};
	MatrixOutcome o[2];

	field_from_ascii(&b, rows, 1);
	matrix_resolve(&b, 20, 2, m, o, &after);
	g_assert_cmpint(o[0].missed, ==, 1);
	g_assert_cmpint(o[0].delta, ==, -5);
	g_assert_cmpint(o[1].delta, ==, 4);
	g_assert_cmpint(board_count(&after), ==, 6);
}

/* A game through the table, dealt from `seed`, to its first placement. */
static void start(MatrixState *s, int n, uint64_t seed)
{
	VariantConfig cfg;
	Rng rng;
	uint32_t mask;

	variant_config_default(&variant_matrix, n, &cfg);
	g_assert_cmpint(variant_config_check(&variant_matrix, &cfg), ==, VARIANT_OK);
	variant_matrix.init(s, &cfg);
	g_assert_cmpint(variant_matrix.phase(s, &mask), ==, VARIANT_PHASE_CHANCE);
	rng_seed(&rng, seed);
	variant_matrix.apply(s, VARIANT_CHANCE, variant_matrix.chance_sample(s, &rng));
	g_assert_cmpint(variant_matrix.phase(s, &mask), ==, VARIANT_PHASE_SIMULTANEOUS);
	g_assert_cmpuint(mask, ==, (1u << n) - 1);
}

/* The start board: two corners, and every legal move rests on one. */
static void test_start(void)
{
	static MatrixState s;
	static Move moves[SRS_MAX_LANDINGS];
	static const int want[PIECE_COUNT] = {8, 8, 8, 7, 7, 8, 8};

	start(&s, 7, 1);
	g_assert_cmpint(board_count(&s.board), ==, 2);
	g_assert_true(board_get(&s.board, 0, 0));
	g_assert_true(board_get(&s.board, 9, 0));
	for (int p = 0; p < 7; p++) {
		PieceKind k = matrix_piece(&s, p);
		g_assert_cmpint(variant_matrix.legal_moves(&s, p, moves), ==, want[k]);
		g_assert_cmpint(matrix_next_piece(&s, p), !=, k);
	}
}

/* The game ends after the round in which someone reaches the target. */
static void test_end_target(void)
{
	static MatrixState s;
	static Move moves[SRS_MAX_LANDINGS];
	Move joint[2];
	uint32_t mask;

	start(&s, 2, 3);
	s.score[0] = 45;
	variant_matrix.legal_moves(&s, 0, moves);
	joint[0] = moves[0];
	/* Seat 1 misses the round: -5. */
	variant_matrix.apply_joint(&s, joint, 1u);
	g_assert_cmpint(variant_matrix.phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, MATRIX_END_TARGET);
	g_assert_cmpint(s.score[0], >=, 49);
	g_assert_cmpint(s.score[1], ==, -5);
	int rank[2], tol[2], tod[2];
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 2);
	matrix_awards(&s, tol, tod);
	g_assert_cmpint(tol[0], ==, 2);
	g_assert_cmpint(tod[1], ==, 1);
	g_assert_cmpint(tod[0], ==, 0);
}

/* A piece placed wholly above the matrix ends the game. */
static void test_end_above(void)
{
	static MatrixState s;
	static Move moves[SRS_MAX_LANDINGS];
	Move joint[2] = {0, 0};
	uint32_t mask;
	SrsPos pos[MATRIX_MAX_HELD];

	start(&s, 2, 5);
	/* Rows 0..19 full but for one cell each, staggered. */
	for (int y = 0; y < 20; y++)
		s.board.rows[y] = (BoardRow)(board_full_row(10) & ~(1u << (y * 3 % 10)));
	for (int p = 0; p < 2; p++) {
		int n = variant_matrix.legal_moves(&s, p, moves);
		g_assert_cmpint(n, >, 0);
		joint[p] = moves[0];
		for (int i = 0; i < n; i++) {
			int x[4], y[4];
			matrix_move_positions(moves[i], pos);
			srs_cells(&pos[0], x, y);
			if (y[0] >= 20 && y[1] >= 20 && y[2] >= 20 && y[3] >= 20) {
				joint[p] = moves[i];
				break;
			}
		}
	}
	variant_matrix.apply_joint(&s, joint, 3u);
	g_assert_cmpint(variant_matrix.phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, MATRIX_END_ABOVE);
	g_assert_true(s.last[0].above || s.last[1].above);
}

/* An illegal submission scores -5 and places nothing. */
static void test_illegal(void)
{
	static MatrixState s;
	Move joint[2];
	Board before;

	start(&s, 2, 9);
	before = s.board;
	/* Floating in mid-air: well-formed, not a final position. */
	joint[0] = at(matrix_piece(&s, 0), SRS_ROT_0, 4, 10);
	/* The wrong piece. */
	PieceKind other = (PieceKind)((matrix_piece(&s, 1) + 1) % PIECE_COUNT);
	joint[1] = at(other, SRS_ROT_0, 4, 1);
	variant_matrix.apply_joint(&s, joint, 3u);
	g_assert_cmpint(s.score[0], ==, -5);
	g_assert_cmpint(s.score[1], ==, -5);
	g_assert_cmpint(board_count(&s.board), ==, board_count(&before));
	g_assert_cmpint(s.round, ==, 1);
}

static void test_notation(void)
{
	static MatrixState s;
	char buf[VARIANT_MOVE_TEXT_MAX];
	Text t;
	Move m;

	start(&s, 7, 1);
	text_init(&t, buf, sizeof(buf));
	variant_matrix.move_format(&s, 0, at(PIECE_T, SRS_ROT_R, -1, 7), &t);
	g_assert_cmpstr(buf, ==, "TR@-1,7");
	g_assert_true(variant_matrix.move_parse(&s, 0, "TR@-1,7", &m));
	g_assert_cmpuint(m, ==, at(PIECE_T, SRS_ROT_R, -1, 7));
	g_assert_true(variant_matrix.move_parse(&s, 0, "I2@4,1", &m));
	g_assert_false(variant_matrix.move_parse(&s, 0, "I2@4", &m));
	g_assert_false(variant_matrix.move_parse(&s, 0, "X0@4,1", &m));
	g_assert_false(variant_matrix.move_parse(&s, 0, "T0@4,1 ", &m));
	g_assert_false(variant_matrix.move_parse(&s, 0, "-", &m));
	g_assert_true(variant_matrix.move_parse(&s, 0, "T0@4,1+O0@0,1", &m));
	g_assert_cmpint(matrix_move_positions(m, (SrsPos[MATRIX_MAX_HELD]){0}), ==, 2);
	text_init(&t, buf, sizeof(buf));
	variant_matrix.move_format(&s, VARIANT_CHANCE, 0x573afb14c686640dULL, &t);
	g_assert_cmpstr(buf, ==, "deal 573afb14c686640d");
	g_assert_true(variant_matrix.move_parse(&s, VARIANT_CHANCE, buf, &m));
	g_assert_cmpuint(m, ==, 0x573afb14c686640dULL);
}

/*
 * Whole 7-player games with random legal moves and an occasional missed
 * round: each ends by the rules, scores add up, every state line of the
 * chance view parses back to the same line, and a player's line hides the
 * other players' pieces.
 */
static void test_random_games(void)
{
	static MatrixState s, t;
	static Move moves[SRS_MAX_LANDINGS];
	static char a[8192], b[8192];
	VariantConfig cfg;
	int ends[MATRIX_END_RETIRED + 1] = {0};

	variant_config_default(&variant_matrix, 7, &cfg);
	for (int game = 0; game < 20; game++) {
		Rng rng, play;
		uint32_t mask;
		int sum[7] = {0};
		rng_seed(&rng, 1000 + (uint64_t)game);
		rng_seed(&play, 2000 + (uint64_t)game);
		variant_matrix.init(&s, &cfg);
		for (;;) {
			VariantPhase ph = variant_matrix.phase(&s, &mask);
			if (ph == VARIANT_PHASE_OVER)
				break;
			if (ph == VARIANT_PHASE_CHANCE) {
				variant_matrix.apply(&s, VARIANT_CHANCE,
						     variant_matrix.chance_sample(&s, &rng));
				continue;
			}
			g_assert_cmpint(ph, ==, VARIANT_PHASE_SIMULTANEOUS);
			Move joint[7] = {0};
			uint32_t sub = 0;
			for (int p = 0; p < 7; p++) {
				int n = variant_matrix.legal_moves(&s, p, moves);
				if (n > 0 && rng_below(&play, 20) != 0) {
					joint[p] = moves[rng_below(&play, (uint32_t)n)];
					sub |= 1u << p;
				}
			}
			/* The chance view round-trips. */
			Text ta, tb;
			text_init(&ta, a, sizeof(a));
			variant_matrix.state_format(&s, VARIANT_CHANCE, &ta);
			g_assert_false(ta.overflow);
			g_assert_true(variant_matrix.state_parse(&t, &cfg, a));
			text_init(&tb, b, sizeof(b));
			variant_matrix.state_format(&t, VARIANT_CHANCE, &tb);
			g_assert_cmpstr(a, ==, b);
			/* A player's view parses and gives the same legal moves. */
			text_init(&ta, a, sizeof(a));
			variant_matrix.state_format(&s, 3, &ta);
			g_assert_null(strstr(a, "deal="));
			g_assert_true(variant_matrix.state_parse(&t, &cfg, a));
			g_assert_cmpint(variant_matrix.legal_moves(&t, 3, moves), ==,
					variant_matrix.legal_moves(&s, 3, moves));
			variant_matrix.apply_joint(&s, joint, sub);
			for (int p = 0; p < 7; p++)
				sum[p] += s.last[p].delta;
		}
		for (int p = 0; p < 7; p++)
			g_assert_cmpint(sum[p], ==, s.score[p]);
		g_assert_cmpint(s.end, !=, MATRIX_END_NONE);
		g_assert_cmpint(s.end, !=, MATRIX_END_ROUNDS);
		ends[s.end]++;
	}
	g_test_message("ends: target %d above %d stuck %d", ends[MATRIX_END_TARGET],
		       ends[MATRIX_END_ABOVE], ends[MATRIX_END_STUCK]);
	g_assert_cmpint(ends[MATRIX_END_TARGET] + ends[MATRIX_END_ABOVE], >, 0);
}

/* The rulebook's tokens: tied leaders 1 ToL each; no negative score, so
 * the lowest get a ToD; the chance view of a finished game names them. */
static void test_awards(void)
{
	static MatrixState s;
	static char buf[8192];
	int tol[4], tod[4], rank[4];
	Text t;

	start(&s, 4, 13);
	s.score[0] = 50;
	s.score[1] = 50;
	s.score[2] = 3;
	s.score[3] = 3;
	matrix_awards(&s, tol, tod);
	g_assert_cmpint(tol[0], ==, 1);
	g_assert_cmpint(tol[1], ==, 1);
	g_assert_cmpint(tol[2] + tol[3], ==, 0);
	g_assert_cmpint(tod[2] + tod[3], ==, 2);
	g_assert_cmpint(tod[0] + tod[1], ==, 0);
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 1);
	g_assert_cmpint(rank[2], ==, 3);
	/* Negative scores take every ToD. */
	s.score[3] = -2;
	s.score[2] = 0;
	matrix_awards(&s, tol, tod);
	g_assert_cmpint(tod[3], ==, 1);
	g_assert_cmpint(tod[2], ==, 0);
	variant_matrix.halt(&s);
	text_init(&t, buf, sizeof(buf));
	variant_matrix.state_format(&s, VARIANT_CHANCE, &t);
	g_assert_nonnull(strstr(buf, " end=halt tol=1,1,0,0 tod=0,0,0,1"));
}

/*
 * Limited communication (issue 8's rules, on today's deal): from round 2
 * on, with seven players, everyone may talk to exactly two others, and
 * the relation is symmetric.
 */
static void test_partners(void)
{
	static MatrixState s;
	VariantConfig cfg;
	Rng rng;
	uint32_t mask;
	int rounds = 0;

	variant_config_default(&variant_matrix, 7, &cfg);
	cfg.opt[MATRIX_OPT_TARGET] = 999;
	variant_matrix.init(&s, &cfg);
	rng_seed(&rng, 77);
	for (;;) {
		VariantPhase ph = variant_matrix.phase(&s, &mask);
		if (ph == VARIANT_PHASE_OVER)
			break;
		if (ph == VARIANT_PHASE_CHANCE) {
			variant_matrix.apply(&s, VARIANT_CHANCE, variant_matrix.chance_sample(&s, &rng));
			continue;
		}
		for (int p = 0; p < 7; p++) {
			int out[2], back[2];
			int n = matrix_partners(&s, p, out);
			g_assert_cmpint(n, ==, s.round == 0 ? 0 : 2);
			for (int i = 0; i < n; i++) {
				g_assert_cmpint(out[i], !=, p);
				int m = matrix_partners(&s, out[i], back);
				g_assert_true(back[0] == p || (m > 1 && back[1] == p));
			}
		}
		/* Everyone misses: the board stays empty and the game goes on. */
		Move none[7] = {0};
		variant_matrix.apply_joint(&s, none, 0);
		if (++rounds == 30)
			break;
	}
	g_assert_cmpint(rounds, ==, 30);
}

/* Retired players are not asked, score nothing and rank last. */
static void test_retire(void)
{
	static MatrixState s;
	uint32_t mask;
	int rank[3];

	start(&s, 3, 11);
	variant_matrix.retire(&s, 1);
	g_assert_cmpint(variant_matrix.phase(&s, &mask), ==, VARIANT_PHASE_SIMULTANEOUS);
	g_assert_cmpuint(mask, ==, 5u);
	Move joint[3] = {0};
	variant_matrix.apply_joint(&s, joint, 0);
	g_assert_cmpint(s.score[1], ==, 0);
	g_assert_cmpint(s.score[0], ==, -5);
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[1], ==, 3);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[2], ==, 1);
	/* one seat left of three: the game ends at once */
	variant_matrix.retire(&s, 0);
	g_assert_cmpint(variant_matrix.phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, MATRIX_END_RETIRED);
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[2], ==, 1);
}

/* A 2-player game whose other seat is retired ends at once. */
static void test_retire_last(void)
{
	static MatrixState s;
	uint32_t mask;
	int rank[2];

	start(&s, 2, 11);
	variant_matrix.retire(&s, 0);
	g_assert_cmpint(variant_matrix.phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, MATRIX_END_RETIRED);
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 2);
	g_assert_cmpint(rank[1], ==, 1);
}

/* A state line whose deal gives one piece to several seats in a round
 * would make matrix_partners write past its out[2]: it does not parse.
 * (The input that once overflowed, from tests/fuzz/corpus/engine.) */
static void test_parse_repeated_deal(void)
{
	static const char bad[] = "players=3 width=10 height=20 buffer=20 target=49 round=3 stage=place scores=1,1,8 retired=- deal=III/III/III/III/III/III/III/III/III/III/III/III/III/III/III/III field=..#......./..#......./.##....##./#.##..####/###.....##/#......### last=IL@2,4;Z2@2,3;S2@7,3 gains=-1,-1,4 cleared=0 held=O gifts=3 talk=- taken=0 tome=- lines=0";
	static const char good[] = "players=3 width=10 height=20 buffer=20 target=49 round=3 stage=place scores=1,1,8 retired=- deal=IOT/SZL field=..#......./..#......./.##....##./#.##..####/###.....##/#......### last=IL@2,4;Z2@2,3;S2@7,3 gains=-1,-1,4 cleared=0 held=O gifts=3 talk=- taken=0 tome=- lines=0";
	VariantConfig cfg;
	MatrixState s;
	int partner[2];

	variant_config_default(&variant_matrix, 3, &cfg);
	g_assert_false(variant_matrix.state_parse(&s, &cfg, bad));
	g_assert_true(variant_matrix.state_parse(&s, &cfg, good));
	for (int p = 0; p < 3; p++)
		g_assert_cmpint(matrix_partners(&s, p, partner), <=, 2);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/matrix/score/shared", test_shared_cells);
	g_test_add_func("/matrix/score/clear-shift", test_clear_shift_no_hole);
	g_test_add_func("/matrix/score/hole-after-shift", test_hole_after_shift);
	g_test_add_func("/matrix/score/hole-once", test_hole_once);
	g_test_add_func("/matrix/score/missed", test_missed);
	g_test_add_func("/matrix/start", test_start);
	g_test_add_func("/matrix/end/target", test_end_target);
	g_test_add_func("/matrix/end/above", test_end_above);
	g_test_add_func("/matrix/illegal", test_illegal);
	g_test_add_func("/matrix/notation", test_notation);
	g_test_add_func("/matrix/retire", test_retire);
	g_test_add_func("/matrix/retire-last", test_retire_last);
	g_test_add_func("/matrix/awards", test_awards);
	g_test_add_func("/matrix/partners", test_partners);
	g_test_add_func("/matrix/parse-repeated-deal", test_parse_repeated_deal);
	g_test_add_func("/matrix/games", test_random_games);
	return g_test_run();
}
