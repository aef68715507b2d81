/*
 * Tests for engine/tetroll: the rulebook's worked examples as ASCII sheet
 * fixtures, exact move counts, special spaces and their chains, reroll
 * payment, the first-prize race, every bonus's end value, the end of a
 * player's game, notation and state-line round trips, and a seeded random
 * playout property test checked against an independent scorer that reads
 * only the final state lines.
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "tetroll.h"
#include "variant.h"

/* ---- fixtures ---------------------------------------------------------- */

static void new_game(TetrollState *s, int players, bool specials)
{
	VariantConfig cfg;

	variant_config_default(&variant_tetroll, players, &cfg);
	cfg.opt[TETROLL_OPT_SPECIALS] = specials;
	g_assert_cmpint(variant_config_check(&variant_tetroll, &cfg), ==, VARIANT_OK);
	variant_tetroll.init(s, &cfg);
}

/*
 * Write a picture of the bottom of seat's grid, top row first: digits are
 * numbers, '.' empty. Cells are written directly (no effects).
 */
static void draw(TetrollState *s, int seat, const char *const *rows, int nrows)
{
	TetrollSheet *sh = &s->sheet[seat];

	for (int r = 0; r < nrows; r++) {
		int y = nrows - 1 - r;
		g_assert_cmpint((int)strlen(rows[r]), ==, s->width);
		for (int x = 0; x < s->width; x++) {
			if (rows[r][x] == '.')
				continue;
			sh->cell[y][x] = (uint8_t)(rows[r][x] - '0');
			sh->bits[y] |= (uint16_t)(1u << x);
		}
	}
}

/* Put the game at seat's placement decision with these (sorted) dice. */
static void at_place(TetrollState *s, int seat, const char *dice)
{
	s->current = (int8_t)seat;
	s->ndice = TETROLL_DICE;
	s->nroll = 0;
	for (int i = 0; i < TETROLL_DICE; i++)
		s->dice[i] = (int8_t)(dice[i] - '0');
	s->stage = TETROLL_STAGE_PLACE;
}

static Move parse(const TetrollState *s, const char *text)
{
	Move m = 0;

	g_assert_true(variant_tetroll.move_parse(s, s->current, text, &m));
	return m;
}

static bool is_legal(const TetrollState *s, Move m)
{
	static Move scratch[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];

	return variant_move_is_legal(&variant_tetroll, s, s->current, m, scratch);
}

/* Play a move by notation, asserting it is legal. */
static void play(TetrollState *s, const char *text)
{
	Move m = parse(s, text);

	g_assert_true(is_legal(s, m));
	variant_tetroll.apply(s, s->current, m);
}

static void roll(TetrollState *s, const char *text)
{
	Move m = 0;

	g_assert_cmpint(s->stage, ==, TETROLL_STAGE_ROLL);
	g_assert_true(variant_tetroll.move_parse(s, VARIANT_CHANCE, text, &m));
	variant_tetroll.apply(s, VARIANT_CHANCE, m);
}

static int count_moves(const TetrollState *s)
{
	static Move out[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];

	return variant_tetroll.legal_moves(s, s->current, out);
}

/* ---- the rulebook's examples --------------------------------------------- */

static int shape_of(const char *d)
{
	int8_t dice[TETROLL_DICE];

	for (int i = 0; i < TETROLL_DICE; i++)
		dice[i] = (int8_t)(d[i] - '0');
	return tetroll_dice_shape(dice);
}

static void test_shape_selection(void)
{
	g_assert_cmpint(shape_of("2336"), ==, 3);	/* rulebook: majority */
	g_assert_cmpint(shape_of("1456"), ==, 1);	/* rulebook: all unique */
	g_assert_cmpint(shape_of("2244"), ==, 2);	/* rulebook: two pairs */
	g_assert_cmpint(shape_of("3566"), ==, 6);	/* rulebook: joker */
	g_assert_cmpint(shape_of("6666"), ==, 6);
	g_assert_cmpint(shape_of("1666"), ==, 6);
	g_assert_cmpint(shape_of("1166"), ==, 1);	/* two pairs: lowest, no joker */
	g_assert_cmpint(shape_of("4445"), ==, 4);
	g_assert_cmpint(shape_of("5555"), ==, 5);
	g_assert_cmpint(shape_of("2345"), ==, 2);
	g_assert_cmpint(shape_of("3456"), ==, 3);
	g_assert_cmpint(shape_of("1255"), ==, 5);
}

/* Every cell of the piece gets the shape's number; a joker's gets 6. */
static void test_number_written(void)
{
	TetrollState s;

	new_game(&s, 1, false);
	at_place(&s, 0, "2336");
	g_assert_false(is_legal(&s, parse(&s, "I0@0:0")));	/* not the selected shape */
	play(&s, "T0@0:0");
	g_assert_cmpint(s.sheet[0].cell[0][0], ==, 3);
	g_assert_cmpint(s.sheet[0].cell[0][1], ==, 3);
	g_assert_cmpint(s.sheet[0].cell[0][2], ==, 3);
	g_assert_cmpint(s.sheet[0].cell[1][1], ==, 3);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_ROLL);

	new_game(&s, 1, false);
	at_place(&s, 0, "3566");
	g_assert_true(is_legal(&s, parse(&s, "I0@0:0")));
	g_assert_true(is_legal(&s, parse(&s, "Z0@0:0")));
	play(&s, "O0@4:0");
	g_assert_cmpint(s.sheet[0].cell[1][5], ==, 6);
}

/* The finished row 2 1 2 1 3 1: repeats 2, 1, 1 score 10 - 4 = 6 and mark #2 once, #1 twice. */
static void test_row_with_repeats(void)
{
	static const char *const rows[] = {"21213."};
	TetrollState s;
	int total, rowpts, bonus[TETROLL_BONUSES];

	new_game(&s, 1, false);
	draw(&s, 0, rows, 1);
	at_place(&s, 0, "1234");
	play(&s, "I1@5:0");
	g_assert_true(tetroll_row_full(&s, 0, 0));
	g_assert_cmpint(tetroll_row_score(&s, 0, 0), ==, 6);
	g_assert_cmpint(s.sheet[0].rings[0], ==, 2);
	g_assert_cmpint(s.sheet[0].rings[1], ==, 1);
	g_assert_cmpint(s.sheet[0].rings[2], ==, 0);
	total = tetroll_score(&s, 0, &rowpts, bonus);
	g_assert_cmpint(rowpts, ==, 6);
	g_assert_cmpint(bonus[0], ==, 2);	/* #1: a point per ring */
	g_assert_cmpint(total, ==, 8);
	/* All unique: the maximum 10, no rings. */
	static const char *const unique[] = {"24356."};
	new_game(&s, 1, false);
	draw(&s, 0, unique, 1);
	at_place(&s, 0, "1234");
	play(&s, "I1@5:0");
	g_assert_cmpint(tetroll_row_score(&s, 0, 0), ==, 10);
	for (int b = 0; b < TETROLL_BONUSES; b++)
		g_assert_cmpint(s.sheet[0].rings[b], ==, 0);
}

/*
 * The rulebook's picture: an L leaves an empty space under an overhang; an
 * I that fits there is legal although no drop could reach it.
 */
static void test_fits_under_overhang(void)
{
	static const char *const rows[] = {
		"4444..",
		"....4.",
	};
	TetrollState s;

	new_game(&s, 1, false);
	draw(&s, 0, rows, 2);
	at_place(&s, 0, "1456");
	g_assert_true(is_legal(&s, parse(&s, "I0@0:0")));
	g_assert_false(is_legal(&s, parse(&s, "I0@1:0")));	/* overlaps the 4 */
	g_assert_false(is_legal(&s, parse(&s, "I0@0:3")));	/* floats */
	g_assert_true(is_legal(&s, parse(&s, "I0@0:2")));	/* rests on the 4s */
	play(&s, "I0@0:0");
	g_assert_cmpint(s.sheet[0].cell[0][3], ==, 1);
}

/* Perft-style counts on the empty 6x12 sheet: only the bottom row supports. */
static void test_empty_sheet_counts(void)
{
	static const struct {
		const char *dice;
		int n;
	} cases[] = {
		{"1456", 9}, {"2244", 5}, {"2336", 18}, {"4445", 36}, {"5555", 18}, {"3566", 86},
	};
	TetrollState s;

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		new_game(&s, 1, true);
		at_place(&s, 0, cases[i].dice);
		g_assert_cmpint(count_moves(&s), ==, cases[i].n);
	}
	/* Chance: 6^4 first rolls. */
	new_game(&s, 1, true);
	Move out[2000];
	g_assert_cmpint(variant_tetroll.legal_moves(&s, VARIANT_CHANCE, out), ==, 1296);
}

/* Up to 3 cells above the dashed line; at least one must stay in the grid. */
static void test_above_the_line(void)
{
	static const char *const full[] = {"11111.", "11111.", "11111.", "11111.", "11111.",
					   "11111.", "11111.", "11111.", "11111.", "11111.",
					   "11111.", "111111"};
	TetrollState s;

	new_game(&s, 1, false);
	draw(&s, 0, full, 12);
	at_place(&s, 0, "1456");
	/* A vertical I in the last column, resting on row 0; not floating on row 5. */
	g_assert_false(is_legal(&s, parse(&s, "I1@5:5")));
	play(&s, "I1@5:1");
	g_assert_true(tetroll_row_full(&s, 0, 4));
	g_assert_false(tetroll_row_full(&s, 0, 5));
	at_place(&s, 0, "1456");
	play(&s, "I1@5:5");
	at_place(&s, 0, "1456");
	g_assert_cmpint(count_moves(&s), ==, 1);
	play(&s, "I1@5:9");	/* rows 9..12: one cell above the dashed line */
	g_assert_true(tetroll_row_full(&s, 0, 11));
	g_assert_cmpint(s.sheet[0].cell[12][5], ==, 1);
	/* The grid is full: nothing fits, even wholly above the line. */
	at_place(&s, 0, "1456");
	g_assert_false(is_legal(&s, parse(&s, "I1@5:12")));
	g_assert_cmpint(count_moves(&s), ==, 0);
	g_assert_false(tetroll_shape_fits(&s, 0, PIECE_I));
}

/* ---- special spaces and chains ------------------------------------------- */

static void test_copy_then_ring(void)
{
	TetrollState s;

	new_game(&s, 1, true);
	g_assert_cmpint(tetroll_space(&s, 1, 0), ==, TETROLL_SPACE_RING);
	g_assert_cmpint(tetroll_space(&s, 2, 1), ==, TETROLL_SPACE_COPY);
	g_assert_cmpint(tetroll_space(&s, 0, 2), ==, TETROLL_SPACE_DOUBLE);
	g_assert_cmpint(tetroll_space(&s, 4, 11), ==, TETROLL_SPACE_DOUBLE);
	g_assert_cmpint(tetroll_space(&s, 0, 11), ==, TETROLL_SPACE_PLAIN);
	/* A vertical I of 1s over the copy space at (2,1). */
	at_place(&s, 0, "1456");
	play(&s, "I1@2:0");	/* (2,3) is a ring space: one ring of #1 */
	g_assert_cmpint(s.sheet[0].rings[0], ==, 1);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_COPY);
	g_assert_cmpint(s.queue[0].n, ==, 1);
	g_assert_cmpint(count_moves(&s), ==, 72 - 4);
	g_assert_false(is_legal(&s, parse(&s, "copy@2:0")));	/* filled */
	/* The copy goes anywhere, floating too: onto the ring space (1,0)... */
	play(&s, "copy@1:0");
	g_assert_cmpint(s.sheet[0].cell[0][1], ==, 1);
	g_assert_cmpint(s.sheet[0].rings[0], ==, 2);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_ROLL);
}

static void test_double_ring_and_copy_chain(void)
{
	TetrollState s;

	new_game(&s, 1, true);
	/* Copy task for a 4 written onto the double ring at (0,2): 2 rings of #4. */
	at_place(&s, 0, "4445");
	play(&s, "L0@1:0");	/* L flat: (1,0) (2,0) (3,0) (3,1); none on a copy */
	g_assert_cmpint(s.sheet[0].rings[3], ==, 1);	/* (1,0) is a ring space */
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 4};
	play(&s, "copy@0:2");
	g_assert_cmpint(s.sheet[0].rings[3], ==, 3);
	/* A copy onto another copy space chains: (1,7) is a copy space. */
	g_assert_cmpint(tetroll_space(&s, 1, 7), ==, TETROLL_SPACE_COPY);
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 5};
	play(&s, "copy@1:7");
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_COPY);
	g_assert_cmpint(s.queue[0].n, ==, 5);
	play(&s, "copy@5:6");	/* (5,6) is a ring space: #5 */
	g_assert_cmpint(s.sheet[0].rings[4], ==, 1);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_ROLL);
}

/* A copy that completes a row scores it and marks its repeats. */
static void test_copy_completes_row(void)
{
	static const char *const rows[] = {"3.3456", "123456"};
	TetrollState s;

	new_game(&s, 1, false);
	draw(&s, 0, rows, 2);
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 3};
	play(&s, "copy@1:1");
	g_assert_cmpint(tetroll_row_score(&s, 0, 1), ==, 4);	/* 3 3 3: two repeats of 3 */
	g_assert_cmpint(s.sheet[0].rings[2], ==, 2);
}

/* ---- bonuses -------------------------------------------------------------- */

/* #3 completed: its 3 rings go to other bonuses one at a time, chaining into #6. */
static void test_bonus3_and_6_act_at_once(void)
{
	static const char *const rows[] = {"123.56"};
	TetrollState s;

	new_game(&s, 1, false);
	draw(&s, 0, rows, 1);
	s.sheet[0].rings[2] = 5;	/* one short of #3's 6 */
	s.sheet[0].rings[5] = 3;	/* one short of #6's 4 */
	s.sheet[0].rings[1] = 7;	/* #2 full */
	s.sheet[0].prize[1] = TETROLL_PRIZE_FIRST;
	at_place(&s, 0, "2336");
	play(&s, "T2@2:0");	/* T pointing down: (3,0) and (2,1) (3,1) (4,1); row 0 gets a 3 */
	g_assert_cmpint(s.sheet[0].prize[2], ==, TETROLL_PRIZE_FIRST);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_RING);
	g_assert_cmpint(s.queue[0].n, ==, 3);
	/* #3 itself and the full #2 cannot be chosen. */
	g_assert_cmpint(count_moves(&s), ==, 4);
	g_assert_false(is_legal(&s, parse(&s, "ring:3")));
	g_assert_false(is_legal(&s, parse(&s, "ring:2")));
	play(&s, "ring:6");	/* completes #6: its two numbers come first */
	g_assert_cmpint(s.sheet[0].prize[5], ==, TETROLL_PRIZE_FIRST);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_WRITE);
	g_assert_cmpint(s.queue[0].n, ==, 2);
	g_assert_cmpint(s.queue[1].kind, ==, TETROLL_TASK_RING);
	g_assert_cmpint(s.queue[1].n, ==, 2);
	g_assert_cmpint(count_moves(&s), ==, 6 * (72 - 9));
	play(&s, "write:4@0:11");	/* anywhere, floating */
	play(&s, "write:6@5:11");
	g_assert_cmpint(s.sheet[0].cell[11][0], ==, 4);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_RING);
	play(&s, "ring:4");
	play(&s, "ring:4");
	g_assert_cmpint(s.sheet[0].rings[3], ==, 2);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_ROLL);
	int bonus[TETROLL_BONUSES];
	tetroll_score(&s, 0, NULL, bonus);
	g_assert_cmpint(bonus[2], ==, 12);	/* 6 rings x 2 */
	g_assert_cmpint(bonus[5], ==, 12);	/* 4 rings x 3 */
}

static void test_race_for_first_prize(void)
{
	static const char *const rows[] = {"4444.."};
	TetrollState s;
	int bonus[TETROLL_BONUSES];

	new_game(&s, 2, false);
	s.sheet[0].rings[3] = 5;
	s.sheet[1].rings[3] = 5;
	draw(&s, 0, rows, 1);
	/* Seat 0 finishes row 0 with 4 4 4 4 4 4 is not possible with O; use a copy. */
	s.current = 0;
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 4};
	play(&s, "copy@4:0");
	g_assert_cmpint(s.sheet[0].prize[3], ==, TETROLL_PRIZE_OPEN);	/* row not full yet */
	s.current = 0;
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 4};
	play(&s, "copy@5:0");
	g_assert_cmpint(s.sheet[0].rings[3], ==, 6);
	g_assert_cmpint(s.sheet[0].prize[3], ==, TETROLL_PRIZE_FIRST);
	g_assert_cmpint(s.sheet[1].prize[3], ==, TETROLL_PRIZE_CROSSED);
	/* Seat 1 can no longer pay a reroll with #4. */
	g_assert_false(tetroll_can_pay(&s, 1, 3));
	g_assert_true(tetroll_can_pay(&s, 1, 0));
	/* Seat 1 finishes later: runner-up. */
	draw(&s, 1, rows, 1);
	s.current = 1;
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 2};
	play(&s, "copy@4:0");
	s.current = 1;
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 2};
	play(&s, "copy@5:0");	/* 4 4 4 4 2 2: four repeats, 10 - 14 = -4 */
	g_assert_cmpint(s.sheet[1].prize[3], ==, TETROLL_PRIZE_RUNNER);
	g_assert_cmpint(s.sheet[0].prize[3], ==, TETROLL_PRIZE_FIRST);
	tetroll_score(&s, 0, NULL, bonus);
	g_assert_cmpint(bonus[3], ==, 16);
	tetroll_score(&s, 1, NULL, bonus);
	g_assert_cmpint(bonus[3], ==, 4);
}

/* End values of every bonus, parity of negative rows, unfinished rows. */
static void test_bonus_end_values(void)
{
	static const char *const rows[] = {
		"12345.",	/* unfinished: neither even nor odd */
		"555555",	/* 10 - 25 = -15: odd */
		"666666",	/* 10 - 30 = -20: even */
		"123456",	/* 10: even */
		"112345",	/* 9: odd */
		"113345",	/* 6: even */
	};
	TetrollState s;
	int rowpts, bonus[TETROLL_BONUSES];

	new_game(&s, 1, false);
	draw(&s, 0, rows, 6);
	TetrollSheet *sh = &s.sheet[0];
	for (int b = 0; b < TETROLL_BONUSES; b++) {
		sh->rings[b] = s.track[b];
		sh->prize[b] = TETROLL_PRIZE_FIRST;
	}
	int total = tetroll_score(&s, 0, &rowpts, bonus);
	g_assert_cmpint(rowpts, ==, -15 - 20 + 10 + 9 + 6);
	g_assert_cmpint(bonus[0], ==, 8 + 4);
	g_assert_cmpint(bonus[1], ==, 3 * 2);
	g_assert_cmpint(bonus[2], ==, 6 * 2);
	g_assert_cmpint(bonus[3], ==, 16);
	g_assert_cmpint(bonus[4], ==, 2 * 4);
	g_assert_cmpint(bonus[5], ==, 4 * 3);
	g_assert_cmpint(total, ==, -10 + 12 + 6 + 12 + 16 + 8 + 12);
	for (int b = 0; b < TETROLL_BONUSES; b++)
		sh->prize[b] = TETROLL_PRIZE_RUNNER;
	tetroll_score(&s, 0, &rowpts, bonus);
	g_assert_cmpint(bonus[0], ==, 8 + 2);
	g_assert_cmpint(bonus[1], ==, 3);
	g_assert_cmpint(bonus[2], ==, 12);
	g_assert_cmpint(bonus[3], ==, 4);
	g_assert_cmpint(bonus[4], ==, 2 * 2);
	g_assert_cmpint(bonus[5], ==, 12);
	/* Unfinished tracks: only #1, #3 and #6 rings count. */
	for (int b = 0; b < TETROLL_BONUSES; b++) {
		sh->rings[b] = 2;
		sh->prize[b] = b == 1 ? TETROLL_PRIZE_CROSSED : TETROLL_PRIZE_OPEN;
	}
	tetroll_score(&s, 0, &rowpts, bonus);
	g_assert_cmpint(bonus[0], ==, 2);
	g_assert_cmpint(bonus[1], ==, 0);
	g_assert_cmpint(bonus[2], ==, 4);
	g_assert_cmpint(bonus[3], ==, 0);
	g_assert_cmpint(bonus[4], ==, 0);
	g_assert_cmpint(bonus[5], ==, 6);
}

/* ---- rerolls -------------------------------------------------------------- */

static void test_reroll_payment(void)
{
	TetrollState s;

	new_game(&s, 2, false);
	roll(&s, "roll:4213");
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_DICE);
	g_assert_cmpint(s.dice[0], ==, 1);
	g_assert_cmpint(s.dice[3], ==, 4);
	g_assert_cmpint(count_moves(&s), ==, 1 + 15 * 6);
	/* Finished bonus (#2) and a first prize the opponent took (#5) cannot pay. */
	s.sheet[0].rings[1] = s.track[1];
	s.sheet[0].prize[1] = TETROLL_PRIZE_FIRST;
	s.sheet[0].prize[4] = TETROLL_PRIZE_CROSSED;
	g_assert_cmpint(count_moves(&s), ==, 1 + 15 * 4);
	g_assert_false(is_legal(&s, parse(&s, "reroll:4:b2")));
	g_assert_false(is_legal(&s, parse(&s, "reroll:4:b5")));
	g_assert_false(variant_tetroll.move_parse(&s, 0, "reroll:5:b1", &(Move){0}));	/* no 5 */
	play(&s, "reroll:34:b1");
	g_assert_cmpint(s.sheet[0].prize[0], ==, TETROLL_PRIZE_CROSSED);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_ROLL);
	Move out[64];
	g_assert_cmpint(variant_tetroll.legal_moves(&s, VARIANT_CHANCE, out), ==, 36);
	roll(&s, "roll:66");
	g_assert_cmpint(s.dice[2], ==, 6);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_DICE);	/* again, any number of times */
	g_assert_cmpint(count_moves(&s), ==, 1 + 11 * 3);	/* 1 2 6 6: 12 submultisets less the empty one */
	play(&s, "reroll:1266:b3");
	roll(&s, "roll:6666");
	play(&s, "reroll:6:b4");
	roll(&s, "roll:5");
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_DICE);
	play(&s, "reroll:5:b6");
	roll(&s, "roll:3");
	/* Every bonus that could pay is spent: the dice decision is skipped. */
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_PLACE);
	g_assert_cmpint(tetroll_dice_shape(s.dice), ==, 6);
	/* A crossed-out first prize leaves only the runner-up. */
	s.sheet[0].rings[0] = 7;
	static const char *const rows[] = {"1.1111"};
	draw(&s, 0, rows, 1);
	s.stage = TETROLL_STAGE_COPY;
	s.nqueue = 1;
	s.queue[0] = (TetrollTask){TETROLL_TASK_COPY, 1};
	play(&s, "copy@1:0");
	g_assert_cmpint(s.sheet[0].prize[0], ==, TETROLL_PRIZE_RUNNER);
	g_assert_cmpint(s.sheet[1].prize[0], ==, TETROLL_PRIZE_OPEN);
}

/* ---- end of a player's game ---------------------------------------------- */

static void test_end_of_a_players_game(void)
{
	/* Seat 0's grid has only single holes: an O fits nowhere, an I does. */
	static const char *const rows[] = {
		"1.1.1.", "121212", "121212", "121212", "121212", "121212",
		"121212", "121212", "121212", "121212", "121212", "121212",
	};
	TetrollState s;

	new_game(&s, 2, false);
	draw(&s, 0, rows, 12);
	for (int b = 0; b < TETROLL_BONUSES; b++)
		s.sheet[0].prize[b] = TETROLL_PRIZE_CROSSED;	/* no rerolls left */
	g_assert_false(tetroll_shape_fits(&s, 0, PIECE_O));
	g_assert_true(tetroll_shape_fits(&s, 0, PIECE_I));
	roll(&s, "roll:1256");	/* I: fits sticking out */
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_PLACE);
	play(&s, "I1@1:11");
	g_assert_cmpint(s.current, ==, 1);
	roll(&s, "roll:1234");
	play(&s, "keep");
	play(&s, "I0@0:0");
	g_assert_cmpint(s.current, ==, 0);
	roll(&s, "roll:2244");	/* O: fits nowhere */
	g_assert_cmpint(s.sheet[0].status, ==, TETROLL_ENDED);
	g_assert_cmpint(s.current, ==, 1);
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_ROLL);
	/* Seat 1 goes on alone. */
	roll(&s, "roll:2244");
	play(&s, "keep");
	play(&s, "O0@0:1");
	g_assert_cmpint(s.current, ==, 1);
	/* With rerolls left, the player may keep a shape that fits nowhere and end. */
	TetrollState t;
	new_game(&t, 1, false);
	draw(&t, 0, rows, 12);
	roll(&t, "roll:2244");
	g_assert_cmpint(t.stage, ==, TETROLL_STAGE_DICE);
	play(&t, "keep");
	g_assert_cmpint(t.stage, ==, TETROLL_STAGE_OVER);
	g_assert_cmpint(t.sheet[0].status, ==, TETROLL_ENDED);
}

static void test_retire_and_ranking(void)
{
	TetrollState s;
	int rank[2];

	new_game(&s, 2, false);
	roll(&s, "roll:1234");
	variant_tetroll.retire(&s, 0);
	/* a 2-player game whose other seat is retired ends at once */
	g_assert_cmpint(s.stage, ==, TETROLL_STAGE_OVER);
	variant_tetroll.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 2);
	g_assert_cmpint(rank[1], ==, 1);
	new_game(&s, 2, false);
	variant_tetroll.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 1);
}

/* ---- notation and state lines --------------------------------------------- */

static void test_notation(void)
{
	TetrollState s;
	char buf[VARIANT_MOVE_TEXT_MAX];
	Text t;
	static const char *const texts[] = {"keep", "T1@2:5", "J3@0:0", "copy@3:7", "ring:4",
					    "write:5@3:7"};

	new_game(&s, 1, true);
	roll(&s, "roll:5213");
	for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
		Move m = parse(&s, texts[i]);
		text_init(&t, buf, sizeof(buf));
		variant_tetroll.move_format(&s, 0, m, &t);
		g_assert_cmpstr(buf, ==, texts[i]);
	}
	Move m = parse(&s, "reroll:35:b2");
	text_init(&t, buf, sizeof(buf));
	variant_tetroll.move_format(&s, 0, m, &t);
	g_assert_cmpstr(buf, ==, "reroll:35:b2");
	static const char *const bad[] = {"", "kee", "T4@0:0", "T1@2", "T1@2:5x", "ring:7",
					  "write:0@1:1", "copy@1", "reroll::b1", "reroll:12:b0",
					  "Q0@0:0", "t0@0:0"};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(variant_tetroll.move_parse(&s, 0, bad[i], &m));
}

/* ---- random playouts ------------------------------------------------------ */

/*
 * An independent scorer: reads a state line and scores every seat from the
 * sheets, rings and prizes written there, with its own row arithmetic.
 */
static void oracle_scores(const char *line, int np, const int *track, int *score)
{
	for (int p = 0; p < np; p++) {
		char key[32];
		g_snprintf(key, sizeof(key), " sheet%d=", p);
		const char *q = strstr(line, key);
		g_assert_nonnull(q);
		q += strlen(key);
		g_auto(GStrv) rows = NULL;
		const char *end = strchr(q, ' ');
		g_autofree char *sheet = end ? g_strndup(q, (gsize)(end - q)) : g_strdup(q);
		rows = g_strsplit(sheet, "/", -1);
		int nrows = (int)g_strv_length(rows), grid = nrows - 3, even = 0, odd = 0, pts = 0;
		for (int r = 3; r < nrows; r++) {
			const char *row = rows[r];
			if (strchr(row, '.'))
				continue;
			int counts[7] = {0}, v = 10;
			for (const char *c = row; *c; c++) {
				if (counts[*c - '0']++)
					v -= *c - '0';
			}
			pts += v;
			if (abs(v) % 2 == 0)
				even++;
			else
				odd++;
		}
		(void)grid;
		g_snprintf(key, sizeof(key), " rings%d=", p);
		q = strstr(line, key) + strlen(key);
		int rings[6];
		for (int b = 0; b < 6; b++) {
			rings[b] = (int)strtol(q, (char **)&q, 10);
			q++;
		}
		g_snprintf(key, sizeof(key), " prizes%d=", p);
		q = strstr(line, key) + strlen(key);
		int first[6], runner[6];
		for (int b = 0; b < 6; b++) {
			first[b] = q[b] == '1';
			runner[b] = q[b] == '2';
			g_assert_cmpint(first[b] || runner[b], ==, rings[b] == track[b]);
		}
		pts += rings[0] + 4 * first[0] + 2 * runner[0];
		pts += even * (2 * first[1] + runner[1]);
		pts += 2 * rings[2];
		pts += 16 * first[3] + 4 * runner[3];
		pts += odd * (4 * first[4] + 2 * runner[4]);
		pts += 3 * rings[5];
		score[p] = pts;
	}
}

static void check_round_trip(const TetrollState *s, const VariantConfig *cfg)
{
	static char a[8192], b[8192];
	Text ta, tb;
	TetrollState r;

	text_init(&ta, a, sizeof(a));
	variant_tetroll.state_format(s, 0, &ta);
	g_assert_false(ta.overflow);
	memset(&r, 0x5a, sizeof(r));
	g_assert_true(variant_tetroll.state_parse(&r, cfg, a));
	text_init(&tb, b, sizeof(b));
	variant_tetroll.state_format(&r, 0, &tb);
	g_assert_cmpstr(a, ==, b);
	g_assert_true(memcmp(s, &r, sizeof(r)) == 0);
}

static void test_random_playouts(void)
{
	static Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];
	static char line[8192], mtext[VARIANT_MOVE_TEXT_MAX];
	int games = g_test_slow() ? 20000 : 3000;
	long total_moves = 0;
	int max_score = -999, firsts = 0;

	for (int g = 0; g < games; g++) {
		int np = g % 3 == 0 ? 2 : 1;
		VariantConfig cfg;
		TetrollState s;
		Rng rng;
		uint32_t mask;
		int steps = 0;

		variant_config_default(&variant_tetroll, np, &cfg);
		variant_tetroll.init(&s, &cfg);
		rng_seed(&rng, (uint64_t)g);
		VariantPhase ph;
		while ((ph = variant_tetroll.phase(&s, &mask)) != VARIANT_PHASE_OVER) {
			g_assert_cmpint(++steps, <, 5000);
			if (g % 50 == 0 && steps % 3 == 0)
				check_round_trip(&s, &cfg);
			if (ph == VARIANT_PHASE_CHANCE) {
				Move m = variant_tetroll.chance_sample(&s, &rng);
				variant_tetroll.apply(&s, VARIANT_CHANCE, m);
				continue;
			}
			g_assert_cmpint(ph, ==, VARIANT_PHASE_TURN);
			int p = variant_mask_player(mask);
			int n = variant_tetroll.legal_moves(&s, p, moves);
			g_assert_cmpint(n, >, 0);
			g_assert_cmpint(n, <=, variant_tetroll.max_moves);
			/* Rerolls would be chosen nearly always: take them a third of the time. */
			Move m;
			if (s.stage == TETROLL_STAGE_DICE && rng_below(&rng, 3))
				m = moves[0];
			else
				m = moves[rng_below(&rng, (uint32_t)n)];
			if (g % 50 == 1) {
				Text t;
				Move back = 0;
				text_init(&t, mtext, sizeof(mtext));
				variant_tetroll.move_format(&s, p, m, &t);
				g_assert_null(strchr(mtext, ' '));
				g_assert_null(strchr(mtext, ','));
				g_assert_true(variant_tetroll.move_parse(&s, p, mtext, &back));
				g_assert_true(back == m);
			}
			variant_tetroll.apply(&s, p, m);
			total_moves++;
		}
		for (int p = 0; p < np; p++) {
			g_assert_cmpint(s.sheet[p].status, ==, TETROLL_ENDED);
			for (int b = 0; b < TETROLL_BONUSES; b++)
				firsts += s.sheet[p].prize[b] == TETROLL_PRIZE_FIRST;
		}
		/* Only one player can hold a first prize. */
		if (np == 2)
			for (int b = 0; b < TETROLL_BONUSES; b++)
				g_assert_false(s.sheet[0].prize[b] == TETROLL_PRIZE_FIRST &&
					       s.sheet[1].prize[b] == TETROLL_PRIZE_FIRST);
		Text t;
		text_init(&t, line, sizeof(line));
		variant_tetroll.state_format(&s, VARIANT_CHANCE, &t);
		int want[2], got[2], track[6];
		for (int b = 0; b < 6; b++)
			track[b] = s.track[b];
		oracle_scores(line, np, track, want);
		variant_tetroll.scores(&s, got);
		for (int p = 0; p < np; p++) {
			g_assert_cmpint(got[p], ==, want[p]);
			max_score = MAX(max_score, got[p]);
		}
	}
	g_assert_cmpint(firsts, >, 0);
	g_test_message("%d games, %ld moves, best score %d, %d first prizes", games, total_moves,
		       max_score, firsts);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tetroll/rulebook/shape-selection", test_shape_selection);
	g_test_add_func("/tetroll/rulebook/number-written", test_number_written);
	g_test_add_func("/tetroll/rulebook/row-with-repeats", test_row_with_repeats);
	g_test_add_func("/tetroll/rulebook/fits-under-overhang", test_fits_under_overhang);
	g_test_add_func("/tetroll/count/empty-sheet", test_empty_sheet_counts);
	g_test_add_func("/tetroll/place/above-the-line", test_above_the_line);
	g_test_add_func("/tetroll/special/copy-then-ring", test_copy_then_ring);
	g_test_add_func("/tetroll/special/double-and-copy-chain", test_double_ring_and_copy_chain);
	g_test_add_func("/tetroll/special/copy-completes-row", test_copy_completes_row);
	g_test_add_func("/tetroll/bonus/3-and-6-act-at-once", test_bonus3_and_6_act_at_once);
	g_test_add_func("/tetroll/bonus/race", test_race_for_first_prize);
	g_test_add_func("/tetroll/bonus/end-values", test_bonus_end_values);
	g_test_add_func("/tetroll/reroll/payment", test_reroll_payment);
	g_test_add_func("/tetroll/end/players-game", test_end_of_a_players_game);
	g_test_add_func("/tetroll/retire", test_retire_and_ranking);
	g_test_add_func("/tetroll/notation", test_notation);
	g_test_add_func("/tetroll/playout/random", test_random_playouts);
	return g_test_run();
}
