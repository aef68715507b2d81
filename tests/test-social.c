/*
 * test-social: the Main Match's social layer (issue 8) as fixtures: talk
 * routing in round 1 and later (the rulebook's S-then-Z example), gifts
 * beyond three refused, trades that would break a rule refused, several
 * pieces placed with and without overlap, the -5 for several pieces
 * missed, and the challenge tome's reward and penalty.
 */
#include <glib.h>
#include <string.h>

#include "matrix.h"
#include "variants.h"

/*
 * Seven players, rounds dealt from rows of piece letters per seat:
 * round 1 SZTIOJL, round 2 ZTIOJLS, round 3 TIOJLSZ (each step a 7-cycle:
 * no repeat, no swap). The state is at the start of round `round` + 1.
 */
static void fixture(MatrixState *s, int round)
{
	static const char *const rows[3] = {"SZTIOJL", "ZTIOJLS", "TIOJLSZ"};
	VariantConfig cfg;

	variant_config_default(&variant_matrix, 7, &cfg);
	variant_matrix.init(s, &cfg);
	for (int r = 0; r < 3; r++)
		for (int p = 0; p < 7; p++)
			s->deal[r][p] = (int8_t)piece_from_letter(rows[r][p]);
	g_assert_true(deal_step_ok(7, s->deal[0], s->deal[1]));
	g_assert_true(deal_step_ok(7, s->deal[1], s->deal[2]));
	s->dealt = 3;
	s->round = (int16_t)round;
	s->stage = MATRIX_STAGE_PLACE;
	for (int p = 0; p < 7; p++) {
		s->held[p][0] = s->deal[round][p];
		s->nheld[p] = 1;
	}
	matrix_social_begin(s);
}

/* Run one side action; returns its result, lines in *out. */
static VariantSideResult act(MatrixState *s, int p, const char *text, VariantSide *out)
{
	return variant_matrix.side(s, p, text, out);
}

/* Whether out holds `line` for seat `to`. */
static gboolean sent(const VariantSide *out, int to, const char *line)
{
	for (int i = 0; i < out->n; i++)
		if (out->to[i] == to && strcmp(out->line[i], line) == 0)
			return TRUE;
	return FALSE;
}

static Move at(PieceKind kind, int rot, int x, int y)
{
	SrsPos p = {(int8_t)kind, (int8_t)rot, (int8_t)x, (int8_t)y};

	return matrix_move(&p);
}

static Move pair(Move a, Move b)
{
	SrsPos p[MATRIX_MAX_HELD];

	g_assert_cmpint(matrix_move_positions(b, p), ==, 1);
	g_assert_true(matrix_move_add(&a, &p[0]));
	return a;
}

/* Round 1: anyone may talk to anyone; the message reaches only its target. */
static void test_talk_round1(void)
{
	static MatrixState s;
	VariantSide out;

	fixture(&s, 0);
	for (int p = 0; p < 7; p++)
		for (int q = 0; q < 7; q++)
			g_assert_true(matrix_may_talk(&s, p, q) == (p != q));
	g_assert_cmpint(act(&s, 0, "say 5 hello there", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(out.n, ==, 2);
	g_assert_true(sent(&out, 0, "ok say"));
	g_assert_true(sent(&out, 5, "heard 0 hello there"));
	g_assert_cmpint(act(&s, 0, "say 0 me", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_true(sent(&out, 0, "refused say self"));
	g_assert_cmpint(act(&s, 0, "say 7 x", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "unknown-seat");
	g_assert_cmpint(act(&s, 0, "shout 1 x", &out), ==, VARIANT_SIDE_NONE);
	g_assert_cmpint(act(&s, 0, "say 1", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "malformed");
}

/*
 * Later rounds, the rulebook's example: seat 0 had S in round 1 and has Z
 * in round 2, so it may talk only to the seat that had Z in round 1 (1)
 * and the seat that has S in round 2 (6). A trade does not change that.
 */
static void test_talk_later(void)
{
	static MatrixState s;
	VariantSide out;

	fixture(&s, 1);
	for (int q = 1; q < 7; q++)
		g_assert_true(matrix_may_talk(&s, 0, q) == (q == 1 || q == 6));
	g_assert_cmpint(act(&s, 0, "say 1 trade?", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 1, "heard 0 trade?"));
	g_assert_cmpint(act(&s, 0, "say 6 hi", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 0, "say 3 psst", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpint(out.n, ==, 1);
	g_assert_true(sent(&out, 0, "refused say not-partner"));
	/* Seat 0 (Z) and seat 1 (T) trade: talk partners stay those of the deal. */
	g_assert_cmpint(act(&s, 0, "offer 1 Z T", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 1, "accept 1", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(s.held[0][0], ==, PIECE_T);
	g_assert_cmpint(s.held[1][0], ==, PIECE_Z);
	for (int q = 1; q < 7; q++)
		g_assert_true(matrix_may_talk(&s, 0, q) == (q == 1 || q == 6));
	/* Every seat has exactly two partners with seven players. */
	for (int p = 0; p < 7; p++) {
		int n = 0;
		for (int q = 0; q < 7; q++)
			n += matrix_may_talk(&s, p, q);
		g_assert_cmpint(n, ==, 2);
	}
}

/* A trade: offered, accepted, pieces swapped, both told. */
static void test_trade(void)
{
	static MatrixState s;
	VariantSide out;

	fixture(&s, 1);
	g_assert_cmpint(act(&s, 0, "offer 6 Z S", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 0, "ok offer 1"));
	g_assert_true(sent(&out, 6, "offered 1 0 Z S"));
	g_assert_cmpint(act(&s, 6, "accept 1", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 6, "ok accept 1"));
	g_assert_true(sent(&out, 0, "traded 1 0 Z 6 S"));
	g_assert_true(sent(&out, 6, "traded 1 0 Z 6 S"));
	g_assert_true(sent(&out, 0, "held S"));
	g_assert_true(sent(&out, 6, "held Z"));
	g_assert_cmpint(s.nopen, ==, 0);
	/* A refused offer tells the offerer. */
	g_assert_cmpint(act(&s, 0, "offer 1 S T", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 1, "refuse 2", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 0, "closed 2 refused"));
	g_assert_cmpint(s.held[0][0], ==, PIECE_S);
}

/* Trades that would break a rule are refused, the state unchanged. */
static void test_trade_refused(void)
{
	static MatrixState s;
	static const struct {
		int seat;
		const char *text, *why;
	} cases[] = {
		{0, "offer 3 Z O", "not-partner"},	/* seat 3 is not linked to 0 */
		{0, "offer 1 S T", "not-held"},		/* 0 holds Z, not S */
		{0, "offer 0 Z T", "self"},
		{0, "offer 9 Z T", "unknown-seat"},
		{0, "offer 1 Z", "malformed"},
		{0, "offer 1 Z Q", "malformed"},
		{1, "accept 99", "unknown-id"},
		{2, "accept 1", "not-yours"},		/* offer 1 is to seat 1 */
		{1, "accept x", "malformed"},
		{0, "tome", "round-1-only"},
		{0, "offer 1 Z S", "already-open"},	/* one open offer per pair */
	};
	VariantSide out;

	fixture(&s, 1);
	g_assert_cmpint(act(&s, 0, "offer 1 Z I", &out), ==, VARIANT_SIDE_DONE);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		MatrixState before = s;
		g_assert_cmpint(act(&s, cases[i].seat, cases[i].text, &out), ==, VARIANT_SIDE_REFUSED);
		g_assert_cmpstr(out.reason, ==, cases[i].why);
		g_assert_cmpint(out.n, ==, 1);
		g_assert_cmpint(out.to[0], ==, cases[i].seat);
		g_assert_true(memcmp(&before, &s, sizeof(s)) == 0);
	}
	/* Seat 1 holds T, not the I that offer 1 wants. */
	g_assert_cmpint(act(&s, 1, "accept 1", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "not-held");
	/* Seat 1 moves: offer 1 closes, its maker is told, later actions refused. */
	variant_matrix.side_close(&s, 1, &out);
	g_assert_cmpint(out.n, ==, 1);
	g_assert_true(sent(&out, 0, "closed 1 moved"));
	g_assert_cmpint(s.nopen, ==, 0);
	g_assert_cmpint(act(&s, 0, "offer 1 Z T", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "moved");
	g_assert_cmpint(act(&s, 1, "say 0 too late", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "moved");
}

/* Gifts ignore the talk limits; the fourth gift of a seat is refused. */
static void test_gifts(void)
{
	static MatrixState s;
	VariantSide out;

	fixture(&s, 1);
	/* Seat 3 is not linked to seat 0, yet may receive its gift. */
	g_assert_false(matrix_may_talk(&s, 0, 3));
	g_assert_cmpint(act(&s, 0, "gift 3 Z", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 3, "offered 1 0 Z -"));
	g_assert_cmpint(act(&s, 3, "refuse 1", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 0, "gift 4 Z", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 0, "gift 5 Z", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(s.gifts_left[0], ==, 0);
	g_assert_cmpint(act(&s, 0, "gift 2 Z", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_true(sent(&out, 0, "refused gift no-gifts"));
	/* Seat 5 accepts: it holds two pieces, seat 0 none; the other open
	 * gift of the Z can no longer be accepted. */
	g_assert_cmpint(act(&s, 5, "accept 3", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 5, "held LZ"));
	g_assert_true(sent(&out, 0, "held -"));
	g_assert_cmpint(act(&s, 4, "accept 2", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "not-held");
	g_assert_cmpint(s.nheld[0], ==, 0);
	g_assert_cmpint(s.nheld[5], ==, 2);
	/* The count is per game: it does not come back next round. */
	Move none[7] = {0};
	variant_matrix.apply_joint(&s, none, 0);
	g_assert_cmpint(s.gifts_left[0], ==, 0);
	g_assert_cmpint(s.gifts_left[5], ==, MATRIX_GIFTS);
}

/*
 * Several pieces: seat 4 (O) gets seat 3's I in round 1. It must place both,
 * in piece order, each legal on the round's board, without overlap; seat 3
 * places nothing and loses nothing.
 */
static void test_several_pieces(void)
{
	static MatrixState s;
	static Move moves[SRS_MAX_LANDINGS];
	VariantSide out;
	Move i_right = at(PIECE_I, SRS_ROT_R, 8, 3);	/* x 9, y 1..4, on (9,0) */
	Move i_left = at(PIECE_I, SRS_ROT_R, -1, 3);	/* x 0, y 1..4, on (0,0) */
	Move o_left = at(PIECE_O, SRS_ROT_0, 0, 1);	/* (0..1, 1..2), on (0,0) */
	Move i_flat_on_o = at(PIECE_I, SRS_ROT_0, 1, 3);	/* (0..3, 3): rests on the O only */

	fixture(&s, 0);
	g_assert_cmpint(act(&s, 3, "gift 4 I", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 4, "accept 1", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 4, "held IO"));
	const Variant *v = &variant_matrix;
	g_assert_true(variant_move_is_legal(v, &s, 4, pair(i_right, o_left), moves));
	g_assert_false(variant_move_is_legal(v, &s, 4, pair(i_left, o_left), moves));	/* overlap */
	g_assert_false(variant_move_is_legal(v, &s, 4, pair(o_left, i_right), moves));	/* order */
	g_assert_false(variant_move_is_legal(v, &s, 4, o_left, moves));	/* one of two */
	g_assert_false(variant_move_is_legal(v, &s, 4, pair(i_flat_on_o, o_left), moves));
	g_assert_true(variant_move_is_legal(v, &s, 3, 0, moves));	/* `-` */
	g_assert_false(variant_move_is_legal(v, &s, 3, i_right, moves));
	/* Listed moves are legal combinations; `-` is the only one for seat 3. */
	/* The start board has 8 I placements (a vertical and a flat I on each
	 * corner, two states each) and 8 O placements (an O on each corner,
	 * four states each); an O overlaps both I cell sets on its own
	 * corner and neither on the other: 2 corners x 4 x 4 = 32 pairs. */
	int n = v->legal_moves(&s, 4, moves);
	g_assert_cmpint(n, ==, 32);
	for (int k = 0; k < n; k++)
		g_assert_true(matrix_move_legal(&s, 4, moves[k]));
	g_assert_cmpint(v->legal_moves(&s, 3, moves), ==, 1);
	g_assert_true(moves[0] == 0);
	/* Notation: `IR@8,3+O0@0,1`; `-` parses only for a seat holding none. */
	Move m;
	g_assert_true(v->move_parse(&s, 4, "IR@8,3+O0@0,1", &m));
	g_assert_true(m == pair(i_right, o_left));
	g_assert_true(v->move_parse(&s, 3, "-", &m));
	g_assert_false(v->move_parse(&s, 4, "-", &m));

	static MatrixState missed;
	missed = s;
	Move joint[7] = {0};
	joint[4] = pair(i_right, o_left);
	v->apply_joint(&s, joint, 1u << 3 | 1u << 4);
	g_assert_cmpint(s.last[4].unique, ==, 8);
	g_assert_cmpint(s.score[4], ==, 8);
	g_assert_cmpint(s.score[3], ==, 0);
	g_assert_cmpint(s.score[0], ==, -5);
	g_assert_cmpint(board_count(&s.board), ==, 10);
	/* Missing the deadline with two pieces: -5 once, nothing placed. */
	Move nothing[7] = {0};
	v->apply_joint(&missed, nothing, 1u << 3);
	g_assert_cmpint(missed.score[4], ==, -5);
	g_assert_cmpint(missed.score[3], ==, 0);
	g_assert_cmpint(board_count(&missed.board), ==, 2);
}

/* The tome: round 1 only, once; from round 2 the taker sees its pieces. */
static void test_tome_reward(void)
{
	static MatrixState s;
	VariantSide out;
	char buf[4096];
	Text t;

	fixture(&s, 0);
	g_assert_cmpint(act(&s, 0, "tome", &out), ==, VARIANT_SIDE_DONE);
	g_assert_true(sent(&out, 0, "ok tome"));
	g_assert_cmpint(act(&s, 0, "tome", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "taken");
	text_init(&t, buf, sizeof(buf));
	variant_matrix.state_format(&s, 0, &t);
	g_assert_nonnull(strstr(buf, " taken=1 tome=- "));
	g_assert_nonnull(strstr(buf, " talk=all "));
	Move none[7] = {0};
	variant_matrix.apply_joint(&s, none, 0);
	g_assert_cmpint(s.round, ==, 1);
	text_init(&t, buf, sizeof(buf));
	variant_matrix.state_format(&s, 0, &t);
	/* Rounds 2 and 3 are dealt: Z then T. */
	g_assert_nonnull(strstr(buf, " held=Z gifts=3 talk=1,6 taken=1 tome=ZT "));
	text_init(&t, buf, sizeof(buf));
	variant_matrix.state_format(&s, 1, &t);
	g_assert_nonnull(strstr(buf, " taken=0 tome=- "));
	g_assert_cmpint(act(&s, 1, "tome", &out), ==, VARIANT_SIDE_REFUSED);
	g_assert_cmpstr(out.reason, ==, "round-1-only");
}

/* A taker without 7 cleared lines cannot win: ranks and tokens. */
static void test_tome_penalty(void)
{
	static MatrixState s;
	static const int16_t scores[7] = {30, 20, 20, 10, 5, 0, -1};
	int rank[7], tol[7], tod[7];

	fixture(&s, 0);
	s.stage = MATRIX_STAGE_OVER;
	memcpy(s.score, scores, sizeof(scores));
	s.tome[0] = 1;
	s.lines[0] = 6;
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 3);
	g_assert_cmpint(rank[1], ==, 1);
	g_assert_cmpint(rank[2], ==, 1);
	g_assert_cmpint(rank[3], ==, 4);
	g_assert_cmpint(rank[6], ==, 7);
	matrix_awards(&s, tol, tod);
	g_assert_cmpint(tol[0], ==, 0);
	g_assert_cmpint(tol[1], ==, 1);
	g_assert_cmpint(tol[2], ==, 1);
	g_assert_cmpint(tod[6], ==, 1);
	/* The challenge met: the reward without the penalty. */
	s.lines[0] = 7;
	variant_matrix.ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 2);
	matrix_awards(&s, tol, tod);
	g_assert_cmpint(tol[0], ==, 2);
	/* A taker's cleared lines are counted by the rounds it plays. */
	fixture(&s, 0);
	s.tome[2] = 1;
	g_assert_true(matrix_cannot_win(&s, 2));
	g_assert_false(matrix_cannot_win(&s, 1));
}

/* The chance view keeps every seat's social fields through a parse. */
static void test_view_round_trip(void)
{
	static MatrixState s, back;
	VariantSide out;
	VariantConfig cfg;
	char a[4096], b[4096];
	Text t;

	fixture(&s, 0);
	g_assert_cmpint(act(&s, 3, "gift 4 I", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 4, "accept 1", &out), ==, VARIANT_SIDE_DONE);
	g_assert_cmpint(act(&s, 2, "tome", &out), ==, VARIANT_SIDE_DONE);
	text_init(&t, a, sizeof(a));
	variant_matrix.state_format(&s, VARIANT_CHANCE, &t);
	g_assert_nonnull(strstr(a, " held=S;Z;T;-;IO;J;L gifts=3,3,3,2,3,3,3 tomes=0,0,1,0,0,0,0 "));
	variant_config_default(&variant_matrix, 7, &cfg);
	g_assert_true(variant_matrix.state_parse(&back, &cfg, a));
	text_init(&t, b, sizeof(b));
	variant_matrix.state_format(&back, VARIANT_CHANCE, &t);
	g_assert_cmpstr(a, ==, b);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/social/talk/round1", test_talk_round1);
	g_test_add_func("/social/talk/later", test_talk_later);
	g_test_add_func("/social/trade", test_trade);
	g_test_add_func("/social/trade/refused", test_trade_refused);
	g_test_add_func("/social/gifts", test_gifts);
	g_test_add_func("/social/several-pieces", test_several_pieces);
	g_test_add_func("/social/tome/reward", test_tome_reward);
	g_test_add_func("/social/tome/penalty", test_tome_penalty);
	g_test_add_func("/social/view", test_view_round_trip);
	return g_test_run();
}
