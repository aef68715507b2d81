/*
 * Tests for engine/link: the worked examples of the Tetris Link rulebooks
 * as ASCII fixtures, exact placement counts, the turn cycle, and a random
 * playout property test checked against an independent, naive oracle.
 */
#include <glib.h>
#include <string.h>

#include "link.h"
#include "variant.h"

/* ---- fixtures ---------------------------------------------------------- */

/*
 * Build a game from a picture of the bottom of the tower, top row first:
 * each letter is one piece, upper case for seat 0 and lower case for
 * seat 1; '.' is empty. Pieces go in through the real placement path,
 * lowest first, and must land exactly where drawn. Scores are then reset
 * to zero so that a test sees only the move it makes.
 */
static void fixture(LinkState *s, int width, int height, const char *const *rows, int nrows)
{
	VariantConfig cfg;

	variant_config_default(&variant_link, 2, &cfg);
	cfg.opt[LINK_OPT_WIDTH] = width;
	cfg.opt[LINK_OPT_HEIGHT] = height;
	variant_link.init(s, &cfg);
	for (int placed = 0;;) {
		/* The letter whose lowest cell is lowest, ties by letter. */
		int best = -1, best_y = 999;
		for (int c = 'A'; c <= 'z'; c++) {
			if (!g_ascii_isalpha(c))
				continue;
			for (int r = nrows - 1; r >= 0; r--) {
				if (!strchr(rows[r], c))
					continue;
				int y = nrows - 1 - r;
				if (y < best_y) {
					best_y = y;
					best = c;
				}
				break;
			}
		}
		if (best < 0)
			break;
		int xs[4], ys[4], n = 0;
		for (int r = 0; r < nrows; r++)
			for (int x = 0; rows[r][x]; x++)
				if (rows[r][x] == best) {
					g_assert_cmpint(n, <, 4);
					xs[n] = x;
					ys[n] = nrows - 1 - r;
					n++;
				}
		g_assert_cmpint(n, ==, 4);
		int minx = MIN(MIN(xs[0], xs[1]), MIN(xs[2], xs[3]));
		int miny = MIN(MIN(ys[0], ys[1]), MIN(ys[2], ys[3]));
		const Orientation *all = piece_all_orientations(), *o = NULL;
		for (int i = 0; i < PIECE_ORIENTATIONS && !o; i++) {
			int hit = 0;
			for (int a = 0; a < 4; a++)
				for (int b = 0; b < 4; b++)
					hit += all[i].x[b] == xs[a] - minx && all[i].y[b] == ys[a] - miny;
			if (hit == 4)
				o = &all[i];
		}
		g_assert_nonnull(o);
		s->stage = LINK_STAGE_PLACE;
		s->current = g_ascii_isupper(best) ? 0 : 1;
		s->face = LINK_FACE_LOGO;
		Move m = link_move((PieceKind)o->kind, o->rot, minx);
		int y = -1;
		g_assert_true(link_landing(s, m, &y));
		g_assert_cmpint(y, ==, miny);
		variant_link.apply(s, s->current, m);
		placed++;
		/* Blank the letter out of the picture for the next round. */
		for (int r = 0; r < nrows; r++)
			for (char *p = strchr(rows[r], best); p; p = strchr(p, best))
				*p = '#';
		(void)placed;
	}
	for (int p = 0; p < s->nplayers; p++)
		s->score[p] = 0;
}

/* Copies the picture (fixture() marks it) and builds the state. */
#define FIXTURE(s, w, h, ...)                                                   \
	do {                                                                    \
		const char *const rows_[] = {__VA_ARGS__};                      \
		char *copy_[G_N_ELEMENTS(rows_)];                               \
		for (gsize i_ = 0; i_ < G_N_ELEMENTS(rows_); i_++)              \
			copy_[i_] = g_strdup(rows_[i_]);                        \
		fixture(s, w, h, (const char *const *)copy_, G_N_ELEMENTS(rows_)); \
		for (gsize i_ = 0; i_ < G_N_ELEMENTS(rows_); i_++)              \
			g_free(copy_[i_]);                                      \
	} while (0)

/* Let `seat` place `notation` as if it had rolled the logo; the points. */
static int play(LinkState *s, int seat, const char *notation)
{
	Move m, scratch[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];

	s->stage = LINK_STAGE_PLACE;
	s->current = (int8_t)seat;
	s->face = LINK_FACE_LOGO;
	g_assert_true(variant_link.move_parse(s, seat, notation, &m));
	g_assert_true(variant_move_is_legal(&variant_link, s, seat, m, scratch));
	int before = s->score[seat];
	int predicted = link_move_points(s, m);
	variant_link.apply(s, seat, m);
	g_assert_cmpint(s->score[seat] - before, ==, predicted);
	return s->score[seat] - before;
}

/* ---- the rulebook's examples ------------------------------------------- */

static void test_three_linked_one_gap(void)
{
	/* "+3 for linking three Tetriminos, -1 for the empty field": an S
	 * lying flat beside two upright I's links all three and leaves one
	 * empty cell under its upper right end. */
	LinkState s;

	FIXTURE(&s, 10, 20,
		"AB........",
		"AB........",
		"AB........",
		"AB........");
	g_assert_cmpint(link_gaps(&s, link_move(PIECE_S, 0, 2)), ==, 1);
	g_assert_cmpint(play(&s, 0, "S0@2"), ==, 3 - 1);
	g_assert_cmpint(s.link_total[0], ==, 3);
	g_assert_cmpint(link_largest_group(&s, 0), ==, 3);
}

static void test_fourth_piece_one_gap(void)
{
	/* "+1 for the additional Tetrimino in the group, -1 for 1 empty field". */
	LinkState s;

	FIXTURE(&s, 10, 20,
		"ABC.......",
		"ABC.......",
		"ABC.......",
		"ABC.......");
	g_assert_cmpint(s.link_total[0], ==, 3);
	g_assert_cmpint(play(&s, 0, "S0@3"), ==, 1 - 1);
	g_assert_cmpint(s.link_total[0], ==, 4);
}

static void test_group_of_four_two_gaps(void)
{
	/* "+4 for the group of 4 Tetriminos, -2 for the two empty fields": a
	 * T pointing down joins a linked pair and a single; the cells beside
	 * its stem stay empty. */
	LinkState s;

	FIXTURE(&s, 10, 20,
		"AB...C....",
		"AB...C....",
		"AB...C....",
		"AB...C....");
	g_assert_cmpint(s.link_total[0], ==, 0);
	g_assert_cmpint(link_gaps(&s, link_move(PIECE_T, 2, 2)), ==, 2);
	g_assert_cmpint(play(&s, 0, "T2@2"), ==, 4 - 2);
	g_assert_cmpint(s.link_total[0], ==, 4);
}

static void test_merge_scores_only_new_pieces(void)
{
	/* Joining a scored group of three and a pair: 1 point for each piece
	 * of the grown group that had not scored, here the pair and the new
	 * piece, +3 (and -2 for the two cells under the T's arms). */
	LinkState s;

	FIXTURE(&s, 10, 20,
		"ABC...DE..",
		"ABC...DE..",
		"ABC...DE..",
		"ABC...DE..");
	g_assert_cmpint(s.link_total[0], ==, 3);
	g_assert_cmpint(play(&s, 0, "T2@3"), ==, 3 - 2);
	g_assert_cmpint(s.link_total[0], ==, 6);
	g_assert_cmpint(link_largest_group(&s, 0), ==, 6);
}

static void test_gain_and_penalty_same_move(void)
{
	/* Points won and lost in one move: a move that links a third piece
	 * but must leave two empty cells nets +3 - 2. */
	LinkState s;

	FIXTURE(&s, 10, 20,
		"A.........",
		"A.........",
		"A.........",
		"A.BBBB....");
	/* A T pointing down at x 1: its stem rests on the flat I in column
	 * 2, its bar lies on row 2, linking the upright I on the left and the
	 * flat I below; it leaves (1,0), (1,1) and (3,1) empty: -2. */
	g_assert_cmpint(link_gaps(&s, link_move(PIECE_T, 2, 1)), ==, 3);
	g_assert_cmpint(play(&s, 0, "T2@1"), ==, 3 - 2);
}

static void test_diagonal_is_not_linked(void)
{
	/* "No link (diagonal)": pieces that meet only at a corner are not
	 * linked; an edge is. Here seat 0's upper O touches its lower O only
	 * corner to corner (seat 1's O holds it up). */
	LinkState s;

	FIXTURE(&s, 10, 20,
		"..BB......",
		"..BB......",
		"AAbb......",
		"AAbb......");
	g_assert_cmpint(link_largest_group(&s, 0), ==, 1);
	LinkState t;
	FIXTURE(&t, 10, 20,
		"....B.....",
		"...BBB....",
		"AAAA......");
	g_assert_cmpint(link_largest_group(&t, 0), ==, 2);
}

static void test_other_colour_does_not_link(void)
{
	LinkState s;

	FIXTURE(&s, 10, 20,
		"AbC.......",
		"AbC.......",
		"AbC.......",
		"AbC.......");
	g_assert_cmpint(s.link_total[0], ==, 0);
	g_assert_cmpint(link_largest_group(&s, 0), ==, 1);
	g_assert_cmpint(link_largest_group(&s, 1), ==, 1);
}

static void test_first_sz_costs_one(void)
{
	/* "A player who starts the game with an S or Z loses 1 point, since
	 * the gap is unavoidable": every S/Z placement on the empty tower. */
	LinkState s;
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	VariantConfig cfg;

	variant_config_default(&variant_link, 2, &cfg);
	variant_link.init(&s, &cfg);
	s.stage = LINK_STAGE_PLACE;
	s.current = 0;
	s.face = (int8_t)link_shape_face(PIECE_S);
	int n = variant_link.legal_moves(&s, 0, moves);
	g_assert_cmpint(n, ==, 34);
	for (int i = 0; i < n; i++)
		g_assert_cmpint(link_move_points(&s, moves[i]), ==, -1);
}

/* ---- placement counts -------------------------------------------------- */

static void test_empty_tower_counts(void)
{
	/*
	 * On the empty 10x20 tower every orientation fits at every column
	 * its bounding box allows: 10 - width + 1 positions.
	 *   I: flat (width 4) 7 + upright (width 1) 10            = 17
	 *   O: width 2                                            =  9
	 *   T: two of width 3 (8 each), two of width 2 (9 each)   = 34
	 *   L: L's 4 and J's 4 orientations, 34 each as for T     = 68
	 *   S: S and Z, each one of width 3 (8), one of width 2 (9) = 34
	 *   logo: any shape                                       = 162
	 */
	static const struct {
		int face, count;
	} want[] = {{0, 17}, {1, 9}, {2, 34}, {3, 68}, {4, 34}, {LINK_FACE_LOGO, 162}};
	LinkState s;
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	VariantConfig cfg;

	variant_config_default(&variant_link, 2, &cfg);
	variant_link.init(&s, &cfg);
	for (gsize i = 0; i < G_N_ELEMENTS(want); i++) {
		s.stage = LINK_STAGE_PLACE;
		s.face = (int8_t)want[i].face;
		g_assert_cmpint(variant_link.legal_moves(&s, 0, moves), ==, want[i].count);
		g_assert_cmpint(variant_link.legal_moves(&s, 1, moves), ==, 0);	/* not their turn */
	}
}

/* ---- the turn cycle ---------------------------------------------------- */

static void test_rolloff(void)
{
	LinkState s;
	VariantConfig cfg;
	uint32_t mask;

	variant_config_default(&variant_link, 3, &cfg);
	variant_link.init(&s, &cfg);
	g_assert_cmpint(variant_link.phase(&s, &mask), ==, VARIANT_PHASE_CHANCE);
	variant_link.apply(&s, VARIANT_CHANCE, 2);	/* seat 0 rolls T: no */
	g_assert_cmpint(s.current, ==, 1);
	variant_link.apply(&s, VARIANT_CHANCE, 0);	/* seat 1 rolls I: no */
	variant_link.apply(&s, VARIANT_CHANCE, LINK_FACE_LOGO);	/* seat 2: logo */
	g_assert_cmpint(s.starter, ==, 2);
	g_assert_cmpint(s.stage, ==, LINK_STAGE_ROLL);
	variant_link.apply(&s, VARIANT_CHANCE, 1);	/* seat 2 rolls O */
	g_assert_cmpint(variant_link.phase(&s, &mask), ==, VARIANT_PHASE_TURN);
	g_assert_cmpint(mask, ==, 1u << 2);
	g_assert_true(variant_link.move_parse(&s, 2, "O0@0", &(Move){0}));
	variant_link.apply(&s, 2, link_move(PIECE_O, 0, 0));
	g_assert_cmpint(s.current, ==, 0);	/* then round in seat order */
	g_assert_cmpint(s.stage, ==, LINK_STAGE_ROLL);
}

static void test_skip_when_used_up(void)
{
	/* "If a player rolls a Tetrimino that he/she no longer has, his/her
	 * turn is skipped." */
	LinkState s;
	VariantConfig cfg;

	variant_config_default(&variant_link, 2, &cfg);
	variant_link.init(&s, &cfg);
	s.stage = LINK_STAGE_ROLL;
	s.current = 0;
	s.supply[0][link_shape_face(PIECE_I)] = 0;
	variant_link.apply(&s, VARIANT_CHANCE, link_shape_face(PIECE_I));
	g_assert_cmpint(s.stage, ==, LINK_STAGE_ROLL);
	g_assert_cmpint(s.current, ==, 1);
	/* The logo still lets seat 0 choose what it has. */
	s.current = 0;
	variant_link.apply(&s, VARIANT_CHANCE, LINK_FACE_LOGO);
	g_assert_cmpint(s.stage, ==, LINK_STAGE_PLACE);
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	g_assert_cmpint(variant_link.legal_moves(&s, 0, moves), ==, 162 - 17);
}

static void test_skip_when_fits_nowhere_and_end(void)
{
	/* "If a player rolls a Tetrimino that will not fit completely in the
	 * tower, his/her turn is skipped." A 4x4 tower with a 2x2 hole: the I
	 * fits nowhere, the O does; once it is in, nobody can place: the end. */
	LinkState s;
	uint32_t mask;

	FIXTURE(&s, 4, 4,
		"..aa",
		"..aa",
		"BBBB",
		"CCCC");
	s.stage = LINK_STAGE_ROLL;
	s.current = 1;
	variant_link.apply(&s, VARIANT_CHANCE, link_shape_face(PIECE_I));
	g_assert_cmpint(s.stage, ==, LINK_STAGE_ROLL);	/* skipped */
	g_assert_cmpint(s.current, ==, 0);
	variant_link.apply(&s, VARIANT_CHANCE, link_shape_face(PIECE_O));
	g_assert_cmpint(s.stage, ==, LINK_STAGE_PLACE);
	variant_link.apply(&s, 0, link_move(PIECE_O, 0, 0));
	g_assert_cmpint(variant_link.phase(&s, &mask), ==, VARIANT_PHASE_OVER);
}

static void test_tie_break_largest_group(void)
{
	/* "In case of a tie, the player with the largest group wins"; equal
	 * groups share the rank. */
	LinkState s;
	int rank[2];

	FIXTURE(&s, 10, 20,
		"ABCab.d...",
		"ABCab.d...",
		"ABCab.d...",
		"ABCab.d...");
	s.score[0] = s.score[1] = 5;
	variant_link.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 1);	/* group of 3 beats 2 */
	g_assert_cmpint(rank[1], ==, 2);
	s.score[1] = 6;
	variant_link.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 2);
	g_assert_cmpint(rank[1], ==, 1);

	LinkState t;
	FIXTURE(&t, 10, 20,
		"AB.ab.....",
		"AB.ab.....",
		"AB.ab.....",
		"AB.ab.....");
	variant_link.ranking(&t, rank);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 1);
}

static void test_retire(void)
{
	LinkState s;
	VariantConfig cfg;
	int rank[3];

	variant_config_default(&variant_link, 3, &cfg);
	variant_link.init(&s, &cfg);
	s.stage = LINK_STAGE_PLACE;
	s.current = 1;
	s.face = 0;
	s.score[1] = 50;
	variant_link.retire(&s, 1);
	g_assert_cmpint(s.stage, ==, LINK_STAGE_ROLL);
	g_assert_cmpint(s.current, ==, 2);
	variant_link.apply(&s, VARIANT_CHANCE, 0);
	variant_link.apply(&s, 2, link_move(PIECE_I, 0, 0));
	g_assert_cmpint(s.current, ==, 0);	/* seat 1 is skipped */
	variant_link.apply(&s, VARIANT_CHANCE, 0);
	variant_link.apply(&s, 0, link_move(PIECE_I, 0, 0));
	g_assert_cmpint(s.current, ==, 2);
	variant_link.ranking(&s, rank);
	g_assert_cmpint(rank[1], ==, 3);	/* last despite its score */
}

/* ---- notation ---------------------------------------------------------- */

static void test_notation(void)
{
	LinkState s;
	VariantConfig cfg;
	Move m, moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	char buf[VARIANT_MOVE_TEXT_MAX];
	Text t;

	variant_config_default(&variant_link, 2, &cfg);
	variant_link.init(&s, &cfg);
	s.stage = LINK_STAGE_PLACE;
	s.face = LINK_FACE_LOGO;
	int n = variant_link.legal_moves(&s, 0, moves);
	for (int i = 0; i < n; i++) {
		text_init(&t, buf, sizeof(buf));
		variant_link.move_format(&s, 0, moves[i], &t);
		g_assert_true(variant_link.move_parse(&s, 0, buf, &m));
		g_assert_cmphex(m, ==, moves[i]);
	}
	static const char *const bad[] = {
		"", "T", "T0", "T0@", "T4@0", "I2@0", "X0@1", "t0@1", "T0@1 ", "T0@-1",
		"T0@99", "T00000000@1", "T0@1x", "roll T", "T-0@1", "T0@01", "T+0@1",
	};
	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(variant_link.move_parse(&s, 0, bad[i], &m));
	for (int f = 0; f <= LINK_FACE_LOGO; f++) {
		text_init(&t, buf, sizeof(buf));
		variant_link.move_format(&s, VARIANT_CHANCE, (Move)f, &t);
		g_assert_true(variant_link.move_parse(&s, VARIANT_CHANCE, buf, &m));
		g_assert_cmpint((int)m, ==, f);
	}
	g_assert_false(variant_link.move_parse(&s, VARIANT_CHANCE, "roll X", &m));
}

/* ---- random playouts against an oracle ---------------------------------- */

/* A naive re-scoring of a game from its pieces in the order played:
 * gaps by scanning each column cell by cell, groups by flood fill. */
static void oracle_scores(const LinkState *s, int *score)
{
	int owner[LINK_MAX_HEIGHT][LINK_MAX_WIDTH];
	int id[LINK_MAX_HEIGHT][LINK_MAX_WIDTH];
	int total[LINK_MAX_PLAYERS] = {0};

	memset(score, 0, sizeof(int) * LINK_MAX_PLAYERS);
	for (int y = 0; y < LINK_MAX_HEIGHT; y++)
		for (int x = 0; x < LINK_MAX_WIDTH; x++)
			owner[y][x] = id[y][x] = -1;
	for (int i = 0; i < s->npieces; i++) {
		const LinkPiece *pc = &s->piece[i];
		const Orientation *o = piece_orientation((PieceKind)pc->kind, pc->rot);
		int gaps = 0;
		for (int c = 0; c < 4; c++) {
			int x = pc->x + o->x[c], y = pc->y + o->y[c];
			g_assert_cmpint(owner[y][x], ==, -1);
			owner[y][x] = pc->owner;
			id[y][x] = i;
		}
		/* Every cell above the piece in its columns is empty (it fell
		 * straight down) and it rests on something. */
		gboolean rests = FALSE;
		for (int c = 0; c < 4; c++) {
			int x = pc->x + o->x[c], y = pc->y + o->y[c];
			for (int yy = y + 1; yy < s->height; yy++)
				g_assert_true(owner[yy][x] == -1 || id[yy][x] == i);
			rests |= y == 0 || (owner[y - 1][x] != -1 && id[y - 1][x] != i);
		}
		g_assert_true(rests);
		/* Gaps: below the lowest cell of each column down to the stack. */
		for (int x = pc->x; x < pc->x + o->width; x++) {
			int low = -1;
			for (int y = 0; y < s->height && low < 0; y++)
				if (id[y][x] == i)
					low = y;
			for (int y = low - 1; y >= 0 && owner[y][x] == -1; y--)
				gaps++;
		}
		/* Groups by flood fill over pieces. */
		int new_total[LINK_MAX_PLAYERS] = {0};
		int seen[LINK_MAX_PIECES] = {0};
		for (int p = 0; p <= i; p++) {
			if (seen[p])
				continue;
			int stack[LINK_MAX_PIECES], top = 0, size = 0;
			stack[top++] = p;
			seen[p] = 1;
			while (top) {
				int q = stack[--top];
				size++;
				for (int y = 0; y < s->height; y++)
					for (int x = 0; x < s->width; x++) {
						if (id[y][x] != q)
							continue;
						static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
						for (int k = 0; k < 4; k++) {
							int nx = x + d[k][0], ny = y + d[k][1];
							if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height)
								continue;
							int r = id[ny][nx];
							if (r < 0 || seen[r] || owner[ny][nx] != s->piece[p].owner)
								continue;
							seen[r] = 1;
							stack[top++] = r;
						}
					}
			}
			if (size >= 3)
				new_total[s->piece[p].owner] += size;
		}
		score[pc->owner] += new_total[pc->owner] - total[pc->owner] - (gaps >= 2 ? 2 : gaps);
		memcpy(total, new_total, sizeof(total));
	}
}

static void check_roundtrip(const LinkState *s)
{
	static char a[65536], b[65536];
	Text t;
	LinkState copy;
	VariantConfig cfg;

	variant_config_default(&variant_link, s->nplayers, &cfg);
	text_init(&t, a, sizeof(a));
	variant_link.state_format(s, 0, &t);
	g_assert_false(t.overflow);
	g_assert_true(variant_link.state_parse(&copy, &cfg, a));
	text_init(&t, b, sizeof(b));
	variant_link.state_format(&copy, 0, &t);
	g_assert_cmpstr(a, ==, b);
	for (int p = 0; p < s->nplayers; p++)
		g_assert_cmpint(copy.link_total[p], ==, s->link_total[p]);
}

static void test_random_playouts(void)
{
	int games = g_test_slow() ? 6000 : 3000;
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	long total_moves = 0;

	for (int g = 0; g < games; g++) {
		int np = 2 + g % 3;
		LinkState s;
		VariantConfig cfg;
		Rng rng;
		uint32_t mask;
		int steps = 0;

		rng_seed(&rng, (uint64_t)g);
		variant_config_default(&variant_link, np, &cfg);
		variant_link.init(&s, &cfg);
		for (;;) {
			VariantPhase ph = variant_link.phase(&s, &mask);
			g_assert_cmpint(++steps, <, 100000);
			if (ph == VARIANT_PHASE_OVER)
				break;
			if (ph == VARIANT_PHASE_CHANCE) {
				variant_link.apply(&s, VARIANT_CHANCE, variant_link.chance_sample(&s, &rng));
				continue;
			}
			g_assert_cmpint(ph, ==, VARIANT_PHASE_TURN);
			int seat = variant_mask_player(mask);
			int n = variant_link.legal_moves(&s, seat, moves);
			g_assert_cmpint(n, >, 0);
			g_assert_cmpint(n, <=, variant_link.max_moves);
			Move m = moves[rng_below(&rng, (uint32_t)n)];
			if (g % 97 == 0 && steps % 7 == 0)
				check_roundtrip(&s);
			variant_link.apply(&s, seat, m);
			total_moves++;
			for (int p = 0; p < np; p++)
				for (int f = 0; f < LINK_SHAPES; f++)
					g_assert_cmpint(s.supply[p][f], >=, 0);
		}
		/* It ended because nobody can place anything they have. */
		for (int p = 0; p < np; p++)
			g_assert_false(link_can_place_any(&s, p));
		int score[LINK_MAX_PLAYERS], got[LINK_MAX_PLAYERS];
		oracle_scores(&s, score);
		variant_link.scores(&s, got);
		for (int p = 0; p < np; p++)
			g_assert_cmpint(got[p], ==, score[p]);
		/* Supplies account for every piece. */
		int pieces = 0;
		for (int p = 0; p < np; p++)
			for (int f = 0; f < LINK_SHAPES; f++)
				pieces += s.per_shape - s.supply[p][f];
		g_assert_cmpint(pieces, ==, s.npieces);
	}
	g_test_message("%d games, %ld moves", games, total_moves);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/link/rulebook/three-linked-one-gap", test_three_linked_one_gap);
	g_test_add_func("/link/rulebook/fourth-piece-one-gap", test_fourth_piece_one_gap);
	g_test_add_func("/link/rulebook/group-of-four-two-gaps", test_group_of_four_two_gaps);
	g_test_add_func("/link/rulebook/merge-scores-new-pieces", test_merge_scores_only_new_pieces);
	g_test_add_func("/link/rulebook/gain-and-penalty", test_gain_and_penalty_same_move);
	g_test_add_func("/link/rulebook/diagonal", test_diagonal_is_not_linked);
	g_test_add_func("/link/rulebook/other-colour", test_other_colour_does_not_link);
	g_test_add_func("/link/rulebook/first-sz-costs-one", test_first_sz_costs_one);
	g_test_add_func("/link/rulebook/skip-used-up", test_skip_when_used_up);
	g_test_add_func("/link/rulebook/skip-fits-nowhere-and-end", test_skip_when_fits_nowhere_and_end);
	g_test_add_func("/link/rulebook/tie-break", test_tie_break_largest_group);
	g_test_add_func("/link/count/empty-tower", test_empty_tower_counts);
	g_test_add_func("/link/rolloff", test_rolloff);
	g_test_add_func("/link/retire", test_retire);
	g_test_add_func("/link/notation", test_notation);
	g_test_add_func("/link/playout/random", test_random_playouts);
	return g_test_run();
}
