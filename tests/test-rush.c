/*
 * test-rush: the rules of `rush` (engine/rush.c) as ASCII fixtures after
 * the rulebook (seed 003): placement on the bottom row or against a block,
 * no overlap, no flipping, enclosed gaps; the giveaway slot; the end on the
 * top row or an empty box; scoring and shared ranks; lockstep ticks and
 * their chance order; notation and state round trips; random playouts.
 */
#include <glib.h>
#include <string.h>

#include "rush.h"
#include "variant.h"

static const Variant *V = &variant_rush;

static void new_game(RushState *s, int players, int width, int height, int box, int lockstep)
{
	VariantConfig cfg;

	variant_config_default(V, players, &cfg);
	cfg.opt[RUSH_OPT_WIDTH] = width;
	cfg.opt[RUSH_OPT_HEIGHT] = height;
	cfg.opt[RUSH_OPT_BOX] = box;
	cfg.opt[RUSH_OPT_LOCKSTEP] = lockstep;
	g_assert_cmpint(variant_config_check(V, &cfg), ==, VARIANT_OK);
	V->init(s, &cfg);
}

/*
 * Fill seat's board from rows written top row first: '#' or a piece letter
 * is a covered square, '.' uncovered.
 */
static void fixture(RushState *s, int seat, const char *const *rows)
{
	for (int r = 0; r < s->height; r++) {
		int y = s->height - 1 - r;
		g_assert_cmpint((int)strlen(rows[r]), ==, s->width);
		for (int x = 0; x < s->width; x++) {
			char c = rows[r][x];
			if (c == '.')
				continue;
			PieceKind k = c == '#' ? PIECE_O : piece_from_letter(c);
			board_set(&s->board[seat], x, y, true);
			s->cell[seat][y][x] = (uint8_t)(k + 1);
		}
	}
}

static Move parse(const RushState *s, int player, const char *text)
{
	Move m = 0;

	g_assert_true(V->move_parse(s, player, text, &m));
	return m;
}

static bool legal(const RushState *s, int player, const char *text)
{
	Move scratch[RUSH_MAX_PLACEMENTS + 64];
	Move m;

	if (!V->move_parse(s, player, text, &m))
		return false;
	return variant_move_is_legal(V, s, player, m, scratch);
}

static void play(RushState *s, int player, const char *text)
{
	g_assert_true(legal(s, player, text));
	V->apply(s, player, parse(s, player, text));
}

static int count_moves(const RushState *s, int player)
{
	Move out[RUSH_MAX_PLACEMENTS + 64];

	return V->legal_moves(s, player, out);
}

static void test_init(void)
{
	RushState s;
	uint32_t mask;

	new_game(&s, 3, 10, 20, 20, 0);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_REALTIME);
	g_assert_cmpint(mask, ==, 7);
	g_assert_cmpint(count_moves(&s, 0), ==, PIECE_COUNT);
	g_assert_true(legal(&s, 2, "take:Z"));
	g_assert_false(legal(&s, 2, "place:Z0@0,0"));
	g_assert_false(legal(&s, 2, "give:1"));
	g_assert_false(legal(&s, 2, "discard"));
	for (int p = 0; p < 3; p++)
		g_assert_cmpint(rush_uncovered(&s, p), ==, 200);
	new_game(&s, 2, 10, 20, 20, 1);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_SIMULTANEOUS);
	g_assert_cmpint(mask, ==, 3);
}

/* On an empty board only the bottom row counts: one placement per rotation
 * and column, as many as drop positions in Tetris. */
static void test_place_empty_counts(void)
{
	static const int want[PIECE_COUNT] = {17, 9, 34, 34, 34, 17, 17};
	Board b;
	Move out[RUSH_MAX_PLACEMENTS];

	board_init(&b, 10, 20);
	for (int k = 0; k < PIECE_COUNT; k++)
		g_assert_cmpint(rush_placements(&b, (PieceKind)k, out), ==, want[k]);
}

/* Figure 2: on the bottom row, or against another block by an edge; a
 * corner is not enough. No overlap, nothing outside the board. */
static void test_place_contact(void)
{
	static const char *const rows[] = {
		"......",
		"......",
		"......",
		"......",
		"..##..",
		"..##..",
	};
	RushState s;

	new_game(&s, 2, 6, 6, 20, 0);
	fixture(&s, 0, rows);
	play(&s, 0, "take:O");
	g_assert_true(legal(&s, 0, "place:O0@0,0"));	/* bottom row */
	g_assert_true(legal(&s, 0, "place:O0@4,0"));	/* bottom row, touching */
	g_assert_true(legal(&s, 0, "place:O0@2,2"));	/* on top of the block */
	g_assert_true(legal(&s, 0, "place:O0@4,1"));	/* edge against its side */
	g_assert_true(legal(&s, 0, "place:O0@0,1"));	/* edge against its left */
	g_assert_false(legal(&s, 0, "place:O0@4,2"));	/* corner only */
	g_assert_false(legal(&s, 0, "place:O0@0,2"));	/* corner only */
	g_assert_false(legal(&s, 0, "place:O0@2,3"));	/* floating above */
	g_assert_false(legal(&s, 0, "place:O0@1,0"));	/* overlap */
	g_assert_false(legal(&s, 0, "place:O0@5,0"));	/* sticks out right */
	g_assert_false(legal(&s, 0, "place:O0@2,5"));	/* sticks out of the top */
	g_assert_false(legal(&s, 0, "place:T0@0,0"));	/* not the held block */
	/* 2 on the bottom row, 3 on top, 1 raised on each side. */
	g_assert_cmpint(rush_placements(&s.board[0], PIECE_O, (Move[RUSH_MAX_PLACEMENTS]){0}), ==,
			2 + 3 + 1 + 1);
	play(&s, 0, "place:O0@4,1");
	g_assert_cmpint(rush_uncovered(&s, 0), ==, 36 - 8);
	g_assert_cmpint(s.cell[0][2][5], ==, PIECE_O + 1);
}

/* Figure 3 and colour side up: the enclosed gap is an L and only an L fills
 * it; a J (a flipped L) fits nowhere on this board. */
static void test_place_enclosed_no_flip(void)
{
	static const char *const rows[] = {
		"#####",
		"#####",
		"##.##",
		"...##",
	};
	RushState s;
	Move out[RUSH_MAX_PLACEMENTS];
	Move scratch[RUSH_MAX_PLACEMENTS + 64];

	new_game(&s, 2, 5, 4, 20, 0);
	fixture(&s, 0, rows);
	g_assert_cmpint(rush_placements(&s.board[0], PIECE_L, out), ==, 1);
	g_assert_true(out[0] == rush_move_place(PIECE_L, 0, 0, 0));
	g_assert_false(rush_fits(&s.board[0], PIECE_J));
	for (int k = 0; k < PIECE_COUNT; k++)
		g_assert_cmpint(rush_fits(&s.board[0], (PieceKind)k), ==, k == PIECE_L);
	/* Holding a J: give it away or discard it, nothing else. */
	play(&s, 0, "take:J");
	g_assert_cmpint(count_moves(&s, 0), ==, 2);
	g_assert_true(legal(&s, 0, "give:1"));
	g_assert_true(legal(&s, 0, "discard"));
	play(&s, 0, "discard");
	g_assert_cmpint(s.discarded[0], ==, 1);
	g_assert_cmpint(s.hand[0], ==, PIECE_NONE);
	/* An L fills the gap; the board is then full except nothing. */
	play(&s, 0, "take:L");
	g_assert_false(legal(&s, 0, "discard"));
	g_assert_cmpint(V->legal_moves(&s, 0, scratch), ==, 2);	/* place or give */
	g_assert_false(s.status == RUSH_STATUS_OVER);
	play(&s, 0, "place:L0@0,0");
	g_assert_cmpint(rush_uncovered(&s, 0), ==, 0);
}

/* Figure 4: one slot per board; a given block must be played next, after
 * the one in hand; it cannot be passed on. */
static void test_giveaway(void)
{
	RushState s;

	new_game(&s, 3, 10, 20, 20, 0);
	play(&s, 0, "take:S");
	g_assert_false(legal(&s, 0, "give:0"));	/* not to oneself */
	play(&s, 2, "take:O");
	play(&s, 1, "take:I");
	play(&s, 0, "give:1");
	g_assert_cmpint(s.slot[1], ==, PIECE_S);
	g_assert_cmpint(s.hand[0], ==, PIECE_NONE);
	g_assert_cmpint(s.given[0], ==, 1);
	/* Slot full: nobody else may give to seat 1. */
	g_assert_false(legal(&s, 2, "give:1"));
	g_assert_true(legal(&s, 2, "give:0"));
	/* Seat 1 plays its hand first: place or give the I. */
	g_assert_true(legal(&s, 1, "place:I0@0,0"));
	g_assert_true(legal(&s, 1, "give:2"));
	g_assert_false(legal(&s, 1, "place:S0@0,0"));
	play(&s, 1, "place:I0@0,0");
	/* Now the S must be placed: no take, no give. */
	g_assert_false(legal(&s, 1, "take:T"));
	g_assert_false(legal(&s, 1, "give:2"));
	g_assert_false(legal(&s, 1, "give:0"));
	g_assert_true(legal(&s, 1, "place:S0@4,0"));
	g_assert_cmpint(count_moves(&s, 1), ==,
			rush_placements(&s.board[1], PIECE_S, (Move[RUSH_MAX_PLACEMENTS]){0}));
	play(&s, 1, "place:S0@4,0");
	g_assert_cmpint(s.slot[1], ==, PIECE_NONE);
	g_assert_true(legal(&s, 1, "take:T"));
	g_assert_cmpint(rush_uncovered(&s, 1), ==, 192);
}

/* A given block that fits nowhere is discarded: the only legal action. */
static void test_giveaway_discard(void)
{
	static const char *const rows[] = {
		"#####",
		"#####",
		"##.##",
		"...##",
	};
	RushState s;
	Move out[RUSH_MAX_PLACEMENTS + 64];

	new_game(&s, 2, 5, 4, 20, 0);
	fixture(&s, 1, rows);
	play(&s, 0, "take:Z");
	play(&s, 0, "give:1");
	g_assert_cmpint(V->legal_moves(&s, 1, out), ==, 1);
	g_assert_true(out[0] == rush_move_discard());
	play(&s, 1, "discard");
	g_assert_cmpint(s.slot[1], ==, PIECE_NONE);
	g_assert_cmpint(s.discarded[1], ==, 1);
	g_assert_cmpint(count_moves(&s, 1), ==, PIECE_COUNT);
}

/* Figure 5: the game ends the moment a block covers a top-row square;
 * fewest uncovered squares wins. */
static void test_end_top_row(void)
{
	RushState s;
	uint32_t mask;
	int score[2], rank[2];

	new_game(&s, 2, 6, 5, 20, 0);
	play(&s, 0, "take:O");
	play(&s, 0, "place:O0@0,0");
	play(&s, 0, "take:O");
	play(&s, 0, "place:O0@2,0");
	play(&s, 1, "take:I");
	play(&s, 1, "place:I1@0,0");	/* rows 0-3: not yet the top row */
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_REALTIME);
	play(&s, 0, "take:T");
	play(&s, 0, "place:T1@0,2");	/* rows 2-4: covers the top row */
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, RUSH_END_TOP);
	g_assert_cmpint(s.tetris, ==, 1);
	V->scores(&s, score);
	g_assert_cmpint(score[0], ==, 30 - 12);
	g_assert_cmpint(score[1], ==, 30 - 4);
	V->ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 2);
	g_assert_cmpint(count_moves(&s, 1), ==, 0);
}

/* Place the first legal placement of the active block. */
static void place_first(RushState *s, int seat)
{
	Move out[RUSH_MAX_PLACEMENTS + 64];

	g_assert_cmpint(V->legal_moves(s, seat, out), >, 0);
	g_assert_cmpint(rush_move_type(out[0]), ==, RUSH_MOVE_PLACE);
	V->apply(s, seat, out[0]);
}

/* The box runs out and nobody holds a block: the end; ties are shared. */
static void test_end_empty_ties(void)
{
	static const char *const takes[PIECE_COUNT] = {
		"take:I", "take:O", "take:T", "take:J", "take:L", "take:S", "take:Z"
	};
	static const int seat[PIECE_COUNT] = {0, 1, 0, 1, 0, 1, 2};
	RushState s;
	uint32_t mask;
	int rank[3];

	new_game(&s, 3, 10, 20, 1, 0);
	for (int i = 0; i < PIECE_COUNT; i++) {
		play(&s, seat[i], takes[i]);
		if (seat[i] != 2)
			place_first(&s, seat[i]);
	}
	/* Seat 2 still holds the Z: the game goes on, for seat 2 alone. */
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_REALTIME);
	g_assert_cmpint(mask, ==, 4);
	g_assert_cmpint(count_moves(&s, 0), ==, 0);
	place_first(&s, 2);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, RUSH_END_EMPTY);
	V->ranking(&s, rank);
	g_assert_cmpint(rush_uncovered(&s, 0), ==, 188);
	g_assert_cmpint(rush_uncovered(&s, 1), ==, 188);
	g_assert_cmpint(rush_uncovered(&s, 2), ==, 196);
	g_assert_cmpint(rank[0], ==, 1);
	g_assert_cmpint(rank[1], ==, 1);
	g_assert_cmpint(rank[2], ==, 3);
}

/* Retired seats rank last; the others play on; halt ends with the limit. */
static void test_retire_halt(void)
{
	RushState s;
	uint32_t mask;
	int rank[3];

	new_game(&s, 3, 10, 20, 20, 0);
	play(&s, 0, "take:O");
	play(&s, 0, "place:O0@0,0");
	play(&s, 1, "take:T");
	V->retire(&s, 0);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_REALTIME);
	g_assert_cmpint(mask, ==, 6);
	g_assert_false(legal(&s, 1, "give:0"));	/* nobody to give to */
	V->halt(&s);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, RUSH_END_LIMIT);
	V->ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 3);
	g_assert_cmpint(rank[1], ==, 1);
	g_assert_cmpint(rank[2], ==, 1);
}

/* A 2-player game whose other seat is retired ends at once. */
static void test_retire_last(void)
{
	RushState s;
	uint32_t mask;
	int rank[2];

	new_game(&s, 2, 10, 20, 20, 0);
	play(&s, 0, "take:O");
	V->retire(&s, 0);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_OVER);
	g_assert_cmpint(s.end, ==, RUSH_END_RETIRED);
	V->ranking(&s, rank);
	g_assert_cmpint(rank[0], ==, 2);
	g_assert_cmpint(rank[1], ==, 1);
}

/* Lockstep: a tick without conflicts resolves at once; every move is judged
 * against the tick's start. */
static void test_lockstep_plain(void)
{
	RushState s;
	Move moves[3];
	uint32_t mask;

	new_game(&s, 3, 10, 20, 20, 1);
	moves[0] = parse(&s, 0, "take:T");
	moves[1] = parse(&s, 1, "take:T");
	moves[2] = parse(&s, 2, "take:I");
	V->apply_joint(&s, moves, 7);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_SIMULTANEOUS);
	g_assert_cmpint(s.box[PIECE_T], ==, 18);
	g_assert_cmpint(s.hand[1], ==, PIECE_T);
	g_assert_cmpint(s.tick, ==, 1);
	/* Seat 0 gives to 2 while 2 places its I: both happen. */
	moves[0] = parse(&s, 0, "give:2");
	moves[2] = parse(&s, 2, "place:I0@0,0");
	V->apply_joint(&s, moves, 5);	/* seat 1 missed the tick */
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_SIMULTANEOUS);
	g_assert_cmpint(s.slot[2], ==, PIECE_T);
	g_assert_cmpint(s.hand[2], ==, PIECE_NONE);
	g_assert_cmpint(s.hand[1], ==, PIECE_T);
	g_assert_cmpint(rush_uncovered(&s, 2), ==, 196);
}

/* Lockstep: two seats want the last T; chance orders them. */
static void test_lockstep_conflict(void)
{
	RushState s, t;
	Move moves[2], out[64];
	uint32_t mask;
	Rng rng;

	new_game(&s, 2, 10, 20, 1, 1);
	moves[0] = parse(&s, 0, "take:T");
	moves[1] = parse(&s, 1, "take:T");
	V->apply_joint(&s, moves, 3);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_CHANCE);
	g_assert_cmpint(V->legal_moves(&s, VARIANT_CHANCE, out), ==, 2);
	g_assert_cmpint(count_moves(&s, 0), ==, 0);
	t = s;
	V->apply(&s, VARIANT_CHANCE, parse(&s, VARIANT_CHANCE, "order:1,0"));
	g_assert_cmpint(s.hand[1], ==, PIECE_T);
	g_assert_cmpint(s.hand[0], ==, PIECE_NONE);
	g_assert_cmpint(s.box[PIECE_T], ==, 0);
	g_assert_cmpint(s.tick, ==, 1);
	V->apply(&t, VARIANT_CHANCE, parse(&t, VARIANT_CHANCE, "order:0,1"));
	g_assert_cmpint(t.hand[0], ==, PIECE_T);
	g_assert_cmpint(t.hand[1], ==, PIECE_NONE);
	/* The sample is one of the legal orders, and both come up. */
	rng_seed(&rng, 42);
	int seen[2] = {0, 0};
	for (int i = 0; i < 64; i++) {
		Move m = V->chance_sample(&t, &rng);
		g_assert_true(m == out[0] || m == out[1]);
		seen[m == out[1]]++;
	}
	g_assert_cmpint(seen[0], >, 0);
	g_assert_cmpint(seen[1], >, 0);
	/* Two givers to one slot also need the order; four seats: 24 orders. */
	new_game(&s, 4, 10, 20, 20, 1);
	Move m4[4];
	for (int p = 0; p < 4; p++)
		m4[p] = parse(&s, p, "take:O");
	V->apply_joint(&s, m4, 15);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_SIMULTANEOUS);
	m4[0] = parse(&s, 0, "give:3");
	m4[1] = parse(&s, 1, "give:3");
	m4[2] = parse(&s, 2, "give:3");
	m4[3] = parse(&s, 3, "place:O0@0,0");
	V->apply_joint(&s, m4, 15);
	g_assert_cmpint(V->phase(&s, &mask), ==, VARIANT_PHASE_CHANCE);
	g_assert_cmpint(V->legal_moves(&s, VARIANT_CHANCE, out), ==, 24);
	V->apply(&s, VARIANT_CHANCE, parse(&s, VARIANT_CHANCE, "order:3,2,0,1"));
	g_assert_cmpint(s.slot[3], ==, PIECE_O);
	g_assert_cmpint(s.hand[2], ==, PIECE_NONE);
	g_assert_cmpint(s.hand[0], ==, PIECE_O);
	g_assert_cmpint(s.hand[1], ==, PIECE_O);
	g_assert_cmpint(s.given[2], ==, 1);
	g_assert_cmpint(s.given[0], ==, 0);
}

static void test_notation(void)
{
	RushState s;
	Move m;
	char buf[VARIANT_MOVE_TEXT_MAX];
	Text t;
	static const char *const good[] = {"take:L", "place:T3@7,12", "give:3", "discard"};
	static const char *const bad[] = {"take:X", "take:", "take:t", "place:O1@0,0",
					  "place:T0@0", "place:T0@-1,0", "give:", "give:4",
					  "discard ", "place:T0@0,0x", "", "wait", "order:0,1"};

	new_game(&s, 4, 10, 20, 20, 1);
	for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
		m = parse(&s, 1, good[i]);
		text_init(&t, buf, sizeof(buf));
		V->move_format(&s, 1, m, &t);
		g_assert_cmpstr(buf, ==, good[i]);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(V->move_parse(&s, 1, bad[i], &m));
	g_assert_false(V->move_parse(&s, VARIANT_CHANCE, "order:0,1,1,2", &m));
	g_assert_false(V->move_parse(&s, VARIANT_CHANCE, "order:0,1,2", &m));
	m = parse(&s, VARIANT_CHANCE, "order:2,0,3,1");
	text_init(&t, buf, sizeof(buf));
	V->move_format(&s, VARIANT_CHANCE, m, &t);
	g_assert_cmpstr(buf, ==, "order:2,0,3,1");
}

/* format -> parse -> format gives the same line, and the same state. */
static void check_round_trip(const RushState *s)
{
	static char a[16384], b[16384];
	RushState r;
	VariantConfig cfg;
	Text t;

	text_init(&t, a, sizeof(a));
	V->state_format(s, 0, &t);
	g_assert_false(t.overflow);
	variant_config_default(V, 2, &cfg);
	cfg.opt[RUSH_OPT_BOX] = s->per_shape;
	g_assert_true(V->state_parse(&r, &cfg, a));
	text_init(&t, b, sizeof(b));
	V->state_format(&r, 0, &t);
	g_assert_cmpstr(a, ==, b);
	g_assert_true(memcmp(&r, s, sizeof(r)) == 0);
}

/*
 * Random playouts in both modes: every legal move's notation parses back to
 * itself; the box and counters stay consistent; the game ends; states round
 * trip at every step. Returns a digest of the final states.
 */
static guint64 playout(int players, int lockstep, guint64 seed, int box)
{
	RushState s;
	static Move out[RUSH_MAX_PLACEMENTS + 64];
	Move joint[RUSH_MAX_PLAYERS];
	Rng rng;
	uint32_t mask;
	int steps = 0;
	VariantPhase ph;

	rng_seed(&rng, seed);
	new_game(&s, players, 10, 20, box, lockstep);
	while ((ph = V->phase(&s, &mask)) != VARIANT_PHASE_OVER) {
		g_assert_cmpint(++steps, <, 100000);
		if (steps % 7 == 0)
			check_round_trip(&s);
		if (ph == VARIANT_PHASE_CHANCE) {
			V->apply(&s, VARIANT_CHANCE, V->chance_sample(&s, &rng));
			continue;
		}
		g_assert_cmpint(mask, !=, 0);
		uint32_t submitted = 0;
		for (int p = 0; p < players; p++) {
			if (!(mask >> p & 1u))
				continue;
			int n = V->legal_moves(&s, p, out);
			g_assert_cmpint(n, >, 0);
			g_assert_cmpint(n, <=, V->max_moves);
			for (int i = 0; i < n; i++) {
				char buf[VARIANT_MOVE_TEXT_MAX];
				Text t;
				Move m;
				text_init(&t, buf, sizeof(buf));
				V->move_format(&s, p, out[i], &t);
				g_assert_true(V->move_parse(&s, p, buf, &m));
				g_assert_true(m == out[i]);
			}
			Move pick = out[rng_below(&rng, (uint32_t)n)];
			if (lockstep) {
				joint[p] = pick;
				submitted |= 1u << p;
			} else {
				V->apply(&s, p, pick);
				break;	/* one action, then look again */
			}
		}
		if (lockstep)
			V->apply_joint(&s, joint, submitted);
		int in_box = 0, taken = 0, held = 0, gone = 0;
		for (int k = 0; k < PIECE_COUNT; k++)
			in_box += s.box[k];
		for (int p = 0; p < players; p++) {
			taken += s.taken[p];
			held += (s.hand[p] != PIECE_NONE) + (s.slot[p] != PIECE_NONE);
			gone += s.placed[p] + s.discarded[p];
		}
		if (s.status != RUSH_STATUS_RESOLVE)
			g_assert_cmpint(in_box + taken, ==, PIECE_COUNT * box);
		g_assert_cmpint(taken, ==, held + gone);
	}
	check_round_trip(&s);
	g_assert_true(s.end == RUSH_END_TOP || s.end == RUSH_END_EMPTY);
	guint64 h = 1469598103934665603ull;
	for (int p = 0; p < players; p++)
		h = (h ^ (guint64)rush_uncovered(&s, p)) * 1099511628211ull;
	return (h ^ (guint64)s.tick) * 1099511628211ull;
}

static void test_playouts(void)
{
	for (int players = 2; players <= 4; players++) {
		for (int lockstep = 0; lockstep <= 1; lockstep++) {
			guint64 a = playout(players, lockstep, 1000 + (guint64)players, 20);
			guint64 b = playout(players, lockstep, 1000 + (guint64)players, 20);
			g_assert_true(a == b);
			playout(players, lockstep, 7 + (guint64)players, 2);
		}
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rush/init", test_init);
	g_test_add_func("/rush/place/empty-counts", test_place_empty_counts);
	g_test_add_func("/rush/place/contact", test_place_contact);
	g_test_add_func("/rush/place/enclosed-no-flip", test_place_enclosed_no_flip);
	g_test_add_func("/rush/giveaway/slot", test_giveaway);
	g_test_add_func("/rush/giveaway/discard", test_giveaway_discard);
	g_test_add_func("/rush/end/top-row", test_end_top_row);
	g_test_add_func("/rush/end/empty-ties", test_end_empty_ties);
	g_test_add_func("/rush/end/retire-halt", test_retire_halt);
	g_test_add_func("/rush/end/retire-last", test_retire_last);
	g_test_add_func("/rush/lockstep/plain", test_lockstep_plain);
	g_test_add_func("/rush/lockstep/conflict", test_lockstep_conflict);
	g_test_add_func("/rush/notation", test_notation);
	g_test_add_func("/rush/playouts", test_playouts);
	return g_test_run();
}
