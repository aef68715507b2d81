/*
 * bot-rush: an AI for `rush` (engine/rush.h), the real-time Tetris board
 * game, and an in-process lockstep harness that measures it.
 *
 * How it works. Every decision is one greedy look at the boards:
 *
 *   - a placement is scored by what it leaves behind on the board: squares
 *     sealed into empty regions of fewer than 4 squares (never coverable:
 *     "dead"), the remainder modulo 4 of larger empty regions, the edges of
 *     the block that touch a block, a wall or the floor (tight packing),
 *     and how high it sits (fill from the bottom). Covering the top row ends
 *     the game: worth a great deal when we then have the fewest uncovered
 *     squares, forbidden otherwise.
 *   - with an empty hand we take the shape whose best placement scores best,
 *     less a little when only as many copies are left as rivals who may
 *     grab at the box now (losing the race for the last copy wastes an
 *     action), and plus a little per copy left, so that the box is used
 *     evenly (otherwise only the awkward O, S and Z are left for the top
 *     rows); in lockstep self-play these took the mean from 28 uncovered
 *     squares to 24 and then to 15. In lockstep with 3 or more players
 *     it guesses each rival's take (take_demand()) and stays out of draws
 *     for a shape it may lose: a lost draw puts a seat a block behind;
 *   - a block in hand or slot is placed where it scores best. When it fits
 *     nowhere on our board, a block in hand goes to the opponent it hurts
 *     most (a wasted action when it fits nowhere on their board either,
 *     dead squares it forces on them), or is discarded when it would help
 *     every opponent. We never give a block that fits us: it costs us an
 *     action and saves the receiver one (no take), which lost 263 to 190
 *     (147 ties) over 600 lockstep games against the same AI without
 *     gifts.
 *
 *   - near the top (at most ENDGAME_SQUARES empty below the top row) an
 *     exact search of the remaining placements replaces the greedy look:
 *     see endgame_value().
 *
 * Speed counts in real time: the placement chosen when a block is taken is
 * remembered and played at once on the next `go` if nothing it depends on
 * changed, and each game starts with a short warm-up game on the start
 * allowance (a game between fast bots can be over in a few milliseconds).
 *
 * Start reading at ai_choose(). The harness (`--harness N`) plays N seeded
 * lockstep games in this process, the AI against uniformly random play or
 * against itself, and prints per-game lines for scripts/rush-report.sh.
 * Without --harness the program is a protocol bot (bots/botio.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "botclock.h"
#include "botio.h"
#include "botlevel.h"
#include "randombot.h"
#include "rush.h"
#include "variants.h"

/* Weights of the placement score (hand-tuned in self-play). */
enum {
	W_DEAD = 40,		/* per square sealed in a region of < 4 */
	W_REM = 6,		/* per square of a larger region's remainder mod 4 */
	W_CONTACT = 6,		/* per block edge against a block, wall or floor */
	W_HEIGHT = 2,		/* per row of height of each square */
	W_TEMPO = 2 * W_DEAD,	/* an action spent on nothing */
	W_CONTEST = W_DEAD,	/* taking a copy others may grab first */
	W_CONFLICT = 200 * W_DEAD,	/* lockstep, 3+ players: a draw for a copy, lost */
	W_PLENTY = 6,		/* per copy left of a shape we take */
	W_GIFT = 2 * W_DEAD,	/* a block received saves its receiver a take */
	END_MARGIN = 8,		/* a lead this small is taken while it lasts */
	W_END_EARLY = 10000,	/* ending with a safe lead: last resort */
	W_END_GENTLE = 100000,	/* levels 1-3 ending ahead: below every other placement */
	SCORE_END_WIN = 1000000,	/* covering the top row while ahead */
	SCORE_END_LOSE = -1000000,	/* covering it while behind */
};

/*
 * The gap cost of an empty region of `size` squares (counted up to
 * REGION_CAP): squares no block can ever cover when it is smaller than a
 * block, its remainder mod 4 when it is small enough to fill exactly.
 */
#define REGION_CAP 8
static int region_cost(int size)
{
	if (size < 4)
		return W_DEAD * size;
	if (size < REGION_CAP)
		return W_REM * (size % 4);
	return 0;
}

/*
 * Squares of the empty region of b around (x, y), counted up to REGION_CAP;
 * marks those it counted in seen[], which must start empty for each region
 * (a shared one would wall a big region into false small pockets).
 */
static int region_size(const Board *b, BoardRow *seen, int x, int y)
{
	static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
	int stack[4 * REGION_CAP + 4], n = 0, size = 0;

	seen[y] |= (BoardRow)(1u << x);
	stack[n++] = y * RUSH_MAX_WIDTH + x;
	while (n && size < REGION_CAP) {
		int c = stack[--n], cx = c % RUSH_MAX_WIDTH, cy = c / RUSH_MAX_WIDTH;
		size++;
		for (int d = 0; d < 4; d++) {
			int nx = cx + dx[d], ny = cy + dy[d];
			if (nx < 0 || nx >= b->width || ny < 0 || ny >= b->height ||
			    ((seen[ny] | b->rows[ny]) >> nx & 1u))
				continue;
			seen[ny] |= (BoardRow)(1u << nx);
			stack[n++] = ny * RUSH_MAX_WIDTH + nx;
		}
	}
	return size;
}

/*
 * What placing o at (x, y) on b0 changes in gap cost: the small regions it
 * splits its region into, less what that region cost before. Only the
 * region the block lands in changes, so local floods suffice.
 */
static int placement_gap_cost(const Board *b0, const Orientation *o, int x, int y)
{
	static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
	Board b = *b0;
	BoardRow done[BOARD_MAX_HEIGHT] = {0}, seen[BOARD_MAX_HEIGHT];
	int after = 0, before_size = 4;

	board_place(&b, o, x, y);
	for (int i = 0; i < 4; i++) {
		for (int d = 0; d < 4; d++) {
			int nx = x + o->x[i] + dx[d], ny = y + o->y[i] + dy[d];
			if (!board_inside(&b, nx, ny) || ((done[ny] | b.rows[ny]) >> nx & 1u))
				continue;
			memset(seen, 0, sizeof(BoardRow) * (size_t)b.height);
			int size = region_size(&b, seen, nx, ny);
			for (int r = 0; r < b.height; r++)
				done[r] |= seen[r];
			after += region_cost(size);
			before_size += size;
		}
	}
	return after - region_cost(before_size < REGION_CAP ? before_size : REGION_CAP);
}

/* What the AI knows about the game around one board. */
typedef struct {
	const RushState *s;
	int seat;		/* whose board */
	int best_other;		/* fewest uncovered squares among the others,
				 * less a block each holds (it may land first) */
	bool held;		/* that seat's block was counted so */
	bool coin_ok;		/* real time: an even end may be played (see placement_score) */
	int noise;		/* weaker levels: each placement's score gets a draw in [-noise, noise] */
	bool gentle;		/* levels 1-3: ending the game ahead only as a last resort */
} View;

/*
 * The view of `seat` for a placement now, or with next_tick (lockstep: the
 * block we take now is placed next tick, when every rival taking with us
 * places too, and a rival holding a block has placed it: each is a block
 * further on either way).
 */
static View view_at(const RushState *s, int seat, bool next_tick)
{
	View v = {s, seat, 1 << 20, false, true, 0, false};
	/* In real time a hand that looks empty may have taken in the moment
	 * our go was written: then it places when we do. */
	bool may_take = false;

	for (int k = 0; k < PIECE_COUNT && (!s->lockstep || next_tick); k++)
		may_take |= s->box[k] > 0;
	for (int p = 0; p < s->nplayers; p++) {
		if (p == seat || !rush_active(s, p))
			continue;
		/* A block they hold may land before ours: in the same lockstep
		 * tick, or in real time in the same moment of the pace. */
		bool holds = may_take || rush_active_block(s, p) != PIECE_NONE;
		int u = rush_uncovered(s, p) - (holds ? 4 : 0);
		if (u < v.best_other || (u == v.best_other && holds)) {
			v.best_other = u;
			v.held = holds;
		}
	}
	return v;
}

static View view_of(const RushState *s, int seat)
{
	return view_at(s, seat, false);
}

/*
 * Whether a rival may end the game soon: some rival's blocks reach the
 * top THREAT_ROWS rows, or the I blocks our own ending needs are running
 * out. A placement covering the top row needs a block at row height - 5 or
 * above, and a block adds at most 4 rows; the go we answer may miss the
 * rival's placement of the same moment. So with a rival's highest block
 * below the top 9 rows it cannot end the game before we have taken the I
 * that ends it and flipped the coin.
 */
#define THREAT_ROWS 9
#define THREAT_I 3
#define I_RESERVE 8	/* real-time races: I blocks kept for the ending */

static bool rival_threat(const RushState *s, int seat)
{
	if (s->box[PIECE_I] < THREAT_I)
		return true;
	for (int p = 0; p < s->nplayers; p++) {
		if (p == seat || !rush_active(s, p))
			continue;
		const Board *b = &s->board[p];
		for (int y = b->height - THREAT_ROWS; y < b->height; y++)
			if (b->rows[y])
				return true;
	}
	return false;
}

/*
 * The score of placement m on the view's board (higher is better); OUT:
 * *cost the gap cost it leaves (for comparing boards with each other).
 */
static int placement_score(const View *v, Move m, int *cost)
{
	const Board *b0 = &v->s->board[v->seat];
	PieceKind k;
	int rot, x, y, contact = 0, height = 0;
	bool top = false;

	rush_move_unpack(m, &k, &rot, &x, &y);
	const Orientation *o = piece_orientation(k, rot);
	for (int i = 0; i < 4; i++) {
		int cx = x + o->x[i], cy = y + o->y[i];
		contact += cx == 0 || board_get(b0, cx - 1, cy);
		contact += cx == b0->width - 1 || board_get(b0, cx + 1, cy);
		contact += cy == 0 || board_get(b0, cx, cy - 1);
		contact += board_get(b0, cx, cy + 1);
		height += cy;
		top |= cy == b0->height - 1;
	}
	*cost = placement_gap_cost(b0, o, x, y);
	int score = W_CONTACT * contact - W_HEIGHT * height - *cost;
	if (top) {
		/* Ending the game: never when it does not win; at once when it
		 * wins but the lead is slim (two blocks the others may place
		 * would take it); with a safe lead it is a placement like any
		 * resort, so the board is packed on (solo, that is to the end). */
		int mine = rush_uncovered(v->s, v->seat) - 4;
		/* In real time a rival's block lands before ours only when the
		 * seeded order puts it first: a draw at worst, a win at best;
		 * played when the view allows it (coin_ok). */
		bool coin = !v->s->lockstep && v->held && mine == v->best_other && v->coin_ok;
		if (mine > v->best_other || (mine == v->best_other && !coin))
			score += SCORE_END_LOSE;
		else if (v->gentle)
			score -= W_END_GENTLE;	/* levels 1-3: only when no other placement is left */
		else if (v->best_other - mine <= END_MARGIN)
			score += SCORE_END_WIN - mine;
		else
			score -= W_END_EARLY;
	}
	return score;
}

/* The best placement of k on the view's board; false when it fits nowhere. */
static bool best_placement(const View *v, PieceKind k, Move *scratch, Rng *rng, Move *best,
			   int *best_score, int *best_cost)
{
	int n = rush_placements(&v->s->board[v->seat], k, scratch), ties = 0;

	*best_score = SCORE_END_LOSE * 2;
	for (int i = 0; i < n; i++) {
		int cost, sc = placement_score(v, scratch[i], &cost) + botlevel_noise(rng, v->noise);
		/* Equal scores: each of them equally likely (reservoir). */
		if (sc > *best_score)
			ties = 1;
		else if (sc < *best_score || rng_below(rng, (uint32_t)++ties) != 0)
			continue;
		*best_score = sc;
		*best_cost = cost;
		*best = scratch[i];
	}
	return n > 0;
}

/* Scratch for placement lists, owned by the caller of ai_choose. */
typedef struct {
	Move list[RUSH_MAX_PLACEMENTS];
	bool no_gifts;		/* never give blocks away (for comparisons) */
	bool plain;		/* take by placement alone (for comparisons) */
	Rng *rng;		/* breaks ties between equal scores */
	/* Per seat, the placement planned when its block was taken: played at
	 * once while the board and the others' scores are as they were (in
	 * real time the faster bot gets more blocks). */
	int8_t plan_kind[RUSH_MAX_PLAYERS];	/* PIECE_NONE: no plan */
	int plan_other[RUSH_MAX_PLAYERS];	/* View.best_other then */
	Move plan[RUSH_MAX_PLAYERS];
	Board plan_board[RUSH_MAX_PLAYERS];
	struct Endgame *endgame;	/* the endgame search's table, made on first use */
	bool no_endgame;	/* greedy to the end (for comparisons) */
	bool no_spine;		/* no route to the top (for comparisons) */
	bool no_conflicts;	/* no model of the others' takes (today's, for comparisons) */
	int noise;		/* see View.noise */
	int pause;		/* per mille of real-time answers sent two paces after their go (levels) */
	int pace_ms;		/* the game's pace (option pace), for those */
	bool gentle;		/* levels 1-3: see View.gentle (and no_spine) */
	int gap_ms;		/* real time: at least this long between our answers (levels 1-3) */
	double last_ms;		/* botclock_ms() of our last answer this game, 0: none yet */
} Ai;

/*
 * Play at `level` (botlevel.h). Levels 4 and 5 are the whole AI (the route
 * to the top, the endgame search, the care for the box) and play every
 * legal tactic. Levels 1-3 play as people do: they build from the floor
 * (no route to the top: no_spine) and never end the game by covering the
 * top row while ahead when another placement is left (gentle: such an end
 * scores W_END_GENTLE below every other placement, so it is played only
 * as the last placement a board has; an end while behind stays
 * forbidden); in real time they leave at least RUSH_GAP_MS[level] between
 * their answers (never more than a third of the move's time), a pace a
 * person can follow: level 1 an action every 1.5 s (a block every 3 s,
 * slower than a beginner), level 2 every 1 s, level 3 every 0.6 s. In
 * real time a level below 5 is also slower, as a weaker player at the
 * table is. Before
 * RUSH_PAUSE[level] per mille of its answers (pause_draw())
 * it waits two paces from the `go` (at most a third of the move's time),
 * so that move lands a whole pace late
 * and a rival acting at every pace gains an action, the lead that wins
 * a race to the top. Levels 1 and 2 also pack worse: each placement's
 * score gets a draw of up to RUSH_NOISE2 (level 2) or RUSH_NOISE1. In
 * lockstep, where no one can be slower, only that noise is left, and
 * games between levels nearly all tie (docs/ai/rush.md, "Levels").
 */
#define RUSH_NOISE2 W_DEAD
#define RUSH_NOISE1 (4 * W_DEAD)
static const int RUSH_PAUSE[BOTLEVEL_MAX + 1] = {0, 80, 62, 36, 15, 0};
static const int RUSH_GAP_MS[BOTLEVEL_MAX + 1] = {0, 1500, 1000, 600, 0, 0};
#define RUSH_GENTLE_LEVEL 3	/* levels up to this one play as people do */
static void ai_set_level(Ai *ai, int level)
{
	ai->noise = level == 2 ? RUSH_NOISE2 : level == 1 ? RUSH_NOISE1 : 0;
	ai->pause = RUSH_PAUSE[level];
	ai->gentle = level <= RUSH_GENTLE_LEVEL;
	ai->no_spine = ai->gentle;
	ai->gap_ms = RUSH_GAP_MS[level];
}

static void ai_init(Ai *ai)
{
	struct Endgame *eg = ai->endgame;

	memset(ai, 0, sizeof(*ai));
	ai->endgame = eg;	/* kept: made once */
	for (int p = 0; p < RUSH_MAX_PLAYERS; p++)
		ai->plan_kind[p] = PIECE_NONE;
}

/* Remember placement m (a placement of the block about to be taken) for
 * seat, valid while its board and the view's best rival stay as now. */
static void plan_set(Ai *ai, const RushState *s, int seat, const View *v, Move m)
{
	PieceKind k;
	int rot, x, y;

	rush_move_unpack(m, &k, &rot, &x, &y);
	ai->plan_kind[seat] = (int8_t)k;
	ai->plan_other[seat] = v->best_other;
	ai->plan[seat] = m;
	ai->plan_board[seat] = s->board[seat];
}

/* Whether the plan of `seat` still holds for its active block k. */
static bool plan_holds(const Ai *ai, const RushState *s, int seat, const View *v, PieceKind k)
{
	return ai->plan_kind[seat] == k && ai->plan_other[seat] == v->best_other &&
	       memcmp(&ai->plan_board[seat], &s->board[seat], sizeof(Board)) == 0;
}

/* Whether blocks will run out before boards fill: then a gift covers squares. */
static bool scarce(const RushState *s)
{
	int left = 0, need = 0;

	for (int k = 0; k < PIECE_COUNT; k++)
		left += s->box[k];
	for (int p = 0; p < s->nplayers; p++)
		if (rush_active(s, p))
			need += rush_uncovered(s, p) / 4;
	return left < need;
}

/*
 * How much giving k to seat `to` hurts them: the gap cost their best
 * placement adds, or a wasted action when it fits nowhere. In a scarce
 * game a block that fits is a gift of four covered squares.
 */
static int gift_harm(Ai *ai, const RushState *s, int to, PieceKind k)
{
	View v = view_of(s, to);
	Move m;
	int score, cost;

	if (!best_placement(&v, k, ai->list, ai->rng, &m, &score, &cost))
		return W_TEMPO;	/* they spend an action discarding it */
	if (score >= SCORE_END_WIN / 2)
		return -SCORE_END_WIN;	/* it would let them end the game ahead */
	/* They skip a take; when blocks run short, they gain its squares. */
	return cost - (scarce(s) ? 4 * W_DEAD : W_GIFT);
}

/* ---- the endgame: an exact search of the last blocks ------------------- */

/*
 * Near the top the greedy score can leave pockets that only a block
 * touching the top row could fill, and that block ends the game: solo, 15
 * of 200 games ended at 12 uncovered instead of 8. (8 is the floor: only
 * the last block may touch the top row, covering at most 4 of its 10
 * squares, and uncovered squares come in fours.) So when few squares below
 * the top row are left, and the others are too far behind to make the end
 * a race, we search every sequence of placements for the most blocks
 * before the game ends: endgame_value(b) = max over placements of 1 when
 * it touches the top row, else 1 + endgame_value(b with it). Boards seen
 * are kept in a small table; the work is capped by a node count (not the
 * clock), so a move stays a function of the state.
 */
#define ENDGAME_SQUARES 28	/* empty squares below the top row: search */
#define ENDGAME_NODES 200000	/* placements tried per search, at most */
#define ENDGAME_TABLE 65536

typedef struct Endgame {
	uint64_t key[ENDGAME_TABLE];	/* board hash | 1; 0: empty */
	int8_t value[ENDGAME_TABLE];
	long nodes;
	const int8_t *box;		/* copies left per shape */
	unsigned root_skip;		/* shapes not tried first (bit per PieceKind) */
	Move list[BOARD_MAX_HEIGHT][RUSH_MAX_PLACEMENTS / 4];
} Endgame;

static uint64_t board_hash(const Board *b)
{
	uint64_t h = 1469598103934665603ull;

	for (int r = 0; r < b->height; r++)
		h = (h ^ b->rows[r]) * 1099511628211ull;
	return h | 1u;
}

static int empty_below_top(const Board *b)
{
	int n = 0;

	for (int r = 0; r < b->height - 1; r++)
		n += b->width - __builtin_popcount(b->rows[r]);
	return n;
}

/* The most blocks that can still be placed on b (the last may end the
 * game); depth indexes the scratch lists. OUT: *first, the first
 * placement of such a sequence. */
static int endgame_value(Endgame *eg, const Board *b, int depth, Move *first)
{
	uint64_t key = board_hash(b);
	size_t slot = (size_t)(key % ENDGAME_TABLE);
	int bound = empty_below_top(b) / 4 + 1, best = 0;

	if (!first && eg->key[slot] == key)
		return eg->value[slot];
	for (int k = 0; k < PIECE_COUNT && best < bound && eg->nodes < ENDGAME_NODES; k++) {
		if (eg->box[k] <= 0 || (first && eg->root_skip >> k & 1u))
			continue;
		Move *list = eg->list[depth];
		int n = rush_placements(b, (PieceKind)k, list);
		for (int i = 0; i < n && best < bound && eg->nodes < ENDGAME_NODES; i++) {
			PieceKind pk;
			int rot, x, y, v = 1;
			rush_move_unpack(list[i], &pk, &rot, &x, &y);
			const Orientation *o = piece_orientation(pk, rot);
			eg->nodes++;
			if (y + o->height < b->height) {	/* not on the top row */
				Board next = *b;
				board_place(&next, o, x, y);
				v = 1 + endgame_value(eg, &next, depth + 1, NULL);
			}
			if (v > best) {
				best = v;
				if (first)
					*first = list[i];
			}
		}
	}
	if (eg->nodes < ENDGAME_NODES) {
		eg->key[slot] = key;
		eg->value[slot] = (int8_t)best;
	}
	return best;
}

/*
 * The endgame's choice for seat's board, when it applies: few squares
 * left, and no race with the others. OUT: the
 * placement to aim for; false when the search does not apply or did not
 * finish within its node cap.
 */
static bool endgame_choice(Ai *ai, const RushState *s, int seat, unsigned skip, Move *out)
{
	const Board *b = &s->board[seat];
	if (empty_below_top(b) > ENDGAME_SQUARES || ai->no_endgame)
		return false;
	if (!ai->endgame && !(ai->endgame = calloc(1, sizeof(*ai->endgame))))
		return false;
	Endgame *eg = ai->endgame;
	memset(eg->key, 0, sizeof(eg->key));
	eg->nodes = 0;
	eg->box = s->box;
	eg->root_skip = skip;
	Move first = 0;
	int blocks = endgame_value(eg, b, 0, &first);
	return blocks > 0 && eg->nodes < ENDGAME_NODES && (*out = first, true);
}

/* Whether placing m covers the top row, ending the game, while another
 * seat has fewer uncovered squares than we would (a loss). */
static bool ends_behind(const RushState *s, int seat, const View *v, Move m)
{
	PieceKind k;
	int rot, x, y;

	rush_move_unpack(m, &k, &rot, &x, &y);
	bool top = y + piece_orientation(k, rot)->height == s->board[seat].height;
	return top && rush_uncovered(s, seat) - 4 > v->best_other;
}

/*
 * A route to the top. Covering a top-row square ends the game, and a block
 * must touch the floor or a block: packing from the floor, the top is out
 * of reach until the board is nearly full, so in a race the others decide
 * when the game ends. A column of vertical I blocks against the left wall
 * (rows 0 to SPINE_ROWS - 1, packed with no gap) keeps an ending placement
 * at hand from early on: the ending rule of placement_score() then takes
 * it the moment it wins. The vertical I that grows the column, or 0 when it
 * is tall enough (or blocked), alone or not.
 */
#define SPINE_ROWS 16

static Move spine_place(const Ai *ai, const RushState *s, int seat)
{
	const Board *b = &s->board[seat];
	int h = 0;

	if (ai->no_spine)
		return 0;
	while (h < b->height && board_get(b, 0, h))
		h++;
	if (h > (b->height < SPINE_ROWS ? b->height : SPINE_ROWS) - 4)	/* (a low board: its height) */
		return 0;
	for (int y = h; y < h + 4; y++)
		if (board_get(b, 0, y))
			return 0;
	for (int rot = 0; rot < piece_rotations(PIECE_I); rot++)
		if (piece_orientation(PIECE_I, rot)->width == 1)
			return rush_move_place(PIECE_I, rot, 0, h);
	return 0;
}

/*
 * The take of a seat with an empty hand (the spine's I aside): the shape
 * whose best placement scores best, less W_CONTEST for one of the last
 * copies, plus W_PLENTY a copy left; or the first block of the endgame
 * search's sequence. With demand (lockstep, 3 or more players: how many
 * rivals will take each shape this tick, take_demand()), a shape with
 * fewer copies than takers costs W_CONFLICT times our chance of losing
 * the draw for it.
 */
typedef struct {
	bool any;		/* false: nothing to take */
	Move take;
	PieceKind kind;		/* the shape taken */
	Move plan;		/* the placement it was chosen for */
	int plan_score;		/* that placement's score */
	bool endgame;		/* chosen by the endgame search */
} TakeChoice;

static void take_choose(Ai *ai, const RushState *s, int seat, const View *v, const int *demand,
			TakeChoice *c)
{
	int best_score = INT_MIN, rivals = 0, score, cost;
	/* Those who may grab at the box with us now. */
	bool racing = false;	/* real time, with a rival, keeping the route */

	memset(c, 0, sizeof(*c));
	for (int p = 0; p < s->nplayers; p++) {
		rivals += p != seat && rush_active(s, p) && rush_active_block(s, p) == PIECE_NONE;
		racing |= p != seat && rush_active(s, p);
	}
	racing &= !s->lockstep && !ai->no_spine;
	for (int q = 0; q < PIECE_COUNT; q++) {
		Move m = 0;
		if (s->box[q] <= 0)
			continue;
		if (!best_placement(v, (PieceKind)q, ai->list, ai->rng, &m, &score, &cost))
			score = SCORE_END_LOSE * 3;
		/* In a real-time race the last I blocks are kept for
		 * the ending (the I on top of the column). */
		if (q == PIECE_I && racing && s->box[q] <= I_RESERVE && score < SCORE_END_WIN / 2)
			continue;
		int placing = score;
		if (demand) {
			/* We lose the draw for one of the copies with chance
			 * (takers - copies) / takers: an action lost, a block behind. */
			int takers = demand[q] + 1;
			if (takers > s->box[q])
				score -= W_CONFLICT * (takers - s->box[q]) / takers;
		} else if (s->box[q] <= rivals && !ai->plain) {
			/* Going for one of the last copies risks a lost action. */
			score -= W_CONTEST;
		}
		/* Use the box evenly, or its dregs are all that is left at the top. */
		if (!ai->plain)
			score += W_PLENTY * s->box[q];
		score = score * 4 + s->box[q] / 8;	/* plenty breaks ties */
		if (score > best_score) {
			best_score = score;
			c->any = true;
			c->take = rush_move_take((PieceKind)q);
			c->kind = (PieceKind)q;
			c->plan = m;
			c->plan_score = placing;
		}
	}
	/* When few squares are left the endgame search packs better
	 * than this greedy look; it may end the game later than the
	 * greedy would, never where that loses. Preferring it even to
	 * the greedy's winning end: self-play (lockstep, 400 games)
	 * 15.35 -> 11.85 uncovered; real time, 100 games each, the
	 * same within noise against bot-random (59.0% to 58.5%) and
	 * bin/bot-rush-baseline (45.5% to 46.0%). */
	Move eg;
	unsigned contested = 0;	/* with demand: shapes we may lose the draw for */
	for (int q = 0; q < PIECE_COUNT && demand; q++)
		contested |= (unsigned)(demand[q] + 1 > s->box[q]) << q;
	if (best_score > INT_MIN && endgame_choice(ai, s, seat, contested, &eg) &&
	    !ends_behind(s, seat, v, eg)) {
		PieceKind ek;
		int rot, x, y;
		rush_move_unpack(eg, &ek, &rot, &x, &y);
		c->take = rush_move_take(ek);
		c->kind = ek;
		c->plan = eg;
		c->endgame = true;
	}
}

/*
 * Lockstep with three or more players: what the rivals will take this
 * tick, as today's bot-rush would choose it from their seats (the spine's
 * I, else take_choose() without a model of others). OUT: demand[q], the
 * rivals taking shape q. A rival that is not the same program guesses
 * differently; the guess only steers us away from draws.
 */
static void take_demand(Ai *ai, const RushState *s, int seat, int *demand)
{
	memset(demand, 0, PIECE_COUNT * sizeof(*demand));
	for (int p = 0; p < s->nplayers; p++) {
		if (p == seat || !rush_active(s, p) || rush_active_block(s, p) != PIECE_NONE)
			continue;
		Move spine = spine_place(ai, s, p);
		if (spine && s->box[PIECE_I] > 0) {
			demand[PIECE_I]++;
			continue;
		}
		View v = view_of(s, p);
		TakeChoice c;
		v.coin_ok = rival_threat(s, p);
		take_choose(ai, s, p, &v, NULL, &c);
		if (c.any)
			demand[c.kind]++;
	}
}

static Move ai_choose_rush(Ai *ai, const RushState *s, int seat)
{
	View v = view_of(s, seat);
	PieceKind k = rush_active_block(s, seat);

	v.noise = ai->noise;
	v.gentle = ai->gentle;
	/* An even end is a coin flip (placement_score): a win, or when the
	 * rival's block lands first a draw, or a loss if that block ends
	 * the game itself. So it is played before a rival could end the
	 * game, and not sooner: waiting costs nothing until then, and any
	 * action the others waste meanwhile gives us the lead that wins
	 * outright. */
	v.coin_ok = rival_threat(s, seat);
	Move best = 0;
	int score, cost;

	Move spine = spine_place(ai, s, seat);
	if (k == PIECE_NONE && spine && s->box[PIECE_I] > 0) {
		plan_set(ai, s, seat, &v, spine);
		return rush_move_take(PIECE_I);
	}
	if (k == PIECE_I && spine) {
		ai->plan_kind[seat] = PIECE_NONE;
		return spine;
	}
	if (k == PIECE_NONE) {
		TakeChoice c;
		int demand[PIECE_COUNT];
		bool model = s->lockstep && s->nplayers >= 3 && !ai->no_conflicts;
		View vt = v;
		if (model) {
			take_demand(ai, s, seat, demand);
			vt = view_at(s, seat, true);
			vt.noise = v.noise;
			vt.gentle = v.gentle;
			vt.coin_ok = v.coin_ok;
		}
		take_choose(ai, s, seat, &vt, model ? demand : NULL, &c);
		if (c.endgame) {
			plan_set(ai, s, seat, &v, c.plan);
			return c.take;
		}
		/* Plan only ordinary placements: the end of the game is judged anew. */
		ai->plan_kind[seat] = PIECE_NONE;
		if (c.any && c.plan_score > SCORE_END_LOSE / 4 && c.plan_score < SCORE_END_WIN / 4)
			plan_set(ai, s, seat, &v, c.plan);
		return c.take;
	}
	if (plan_holds(ai, s, seat, &v, k)) {
		ai->plan_kind[seat] = PIECE_NONE;
		return ai->plan[seat];
	}
	if (best_placement(&v, k, ai->list, ai->rng, &best, &score, &cost))
		return best;
	/*
	 * It fits nowhere on our board. A block in hand may go to the opponent
	 * it hurts most instead of the discard pile: the same action for us.
	 * Giving a block that fits us measured worse in self-play (it hands
	 * the receiver a free action: they skip a take), so we never do.
	 */
	int give_to = -1, give_gain = 0;
	for (int p = 0; p < s->nplayers && s->hand[seat] != PIECE_NONE && !ai->no_gifts; p++) {
		if (p == seat || !rush_active(s, p) || s->slot[p] != PIECE_NONE)
			continue;
		int harm = gift_harm(ai, s, p, k);
		if (harm > give_gain) {
			give_gain = harm;
			give_to = p;
		}
	}
	return give_to >= 0 ? rush_move_give(give_to) : rush_move_discard();
}

/*
 * A draw in 0..999 for a pause. The bot's Rng starts every game from the
 * same seed, and the states of a race to the top are the same from game
 * to game, so the draw is mixed with the clock: a real-time game is not
 * replayed by its seeds anyway (protocol.md, "Real time"), and a level
 * that paused at the same moments in every game would lose or win every
 * game the same way.
 */
static int pause_draw(Rng *rng)
{
	uint64_t h = rng_next(rng) ^ botclock_ns();
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (int)(h % 1000);
}

/* Sleep ms milliseconds (none when ms <= 0). */
static void sleep_ms(long ms)
{
	long ns = (ms > 0 ? ms : 0) * 1000000L;
	struct timespec t = {ns / 1000000000L, ns % 1000000000L};

	while (nanosleep(&t, &t) != 0 && errno == EINTR)
		;
}

static Move ai_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		      void *ctx)
{
	(void)v;
	Ai *ai = ctx;

	ai->rng = rng;
	Move m = ai_choose_rush(ai, state, seat);
	if (ai->gap_ms > 0 && !((const RushState *)state)->lockstep) {
		/* levels 1-3: a person's pace, at least gap_ms between answers */
		double now = botclock_ms(), wait = ai->last_ms > 0 ? ai->gap_ms - (now - ai->last_ms) : ai->gap_ms;
		if (wait > ms_left / 3.0)
			wait = ms_left / 3.0;
		if (wait > 0)
			sleep_ms((long)wait);
	}
	if (ai->pause > 0 && !((const RushState *)state)->lockstep && pause_draw(rng) < ai->pause) {
		/* two paces from the go: this move lands a whole pace late */
		botio_info("slow: this move a pace late (a level below 5)");
		long ms = 2L * ai->pace_ms;
		if (ms > ms_left / 3)
			ms = ms_left / 3;	/* a slow pace and a short move time: never near the limit */
		sleep_ms(ms);
	}
	ai->last_ms = botclock_ms();
	return m;
}

/*
 * Called on each `game` line: decline other variants, and warm up. A real
 * time game between fast bots can be over in a few milliseconds, so the
 * first moves must not pay for page faults and cold caches: play a short
 * game against ourselves now, on the start allowance, and forget it.
 */
static int rush_level = BOTLEVEL_DEFAULT;
static int gap_ms = -1;	/* --gap, or -1: the level's */

static const char *ai_start(const Variant *v, const VariantConfig *cfg, int seat, void *ctx)
{
	Ai *ai = ctx;
	RushState s;
	Rng rng;

	(void)seat;
	if (v != &variant_rush)
		return "bot-rush plays rush only";
	rng_seed(&rng, 1);
	ai->rng = &rng;
	variant_rush.init(&s, cfg);
	for (int i = 0; i < 40; i++) {
		uint32_t mask;
		if (variant_rush.phase(&s, &mask) == VARIANT_PHASE_OVER)
			break;
		int p = i % s.nplayers;
		if (mask >> p & 1u)
			variant_rush.apply(&s, p, ai_choose_rush(ai, &s, p));
	}
	ai_init(ai);
	ai_set_level(ai, rush_level);
	if (gap_ms >= 0)
		ai->gap_ms = gap_ms;
	ai->pace_ms = cfg->opt[RUSH_OPT_PACE];
	return NULL;
}

/* ---- the in-process lockstep harness ---------------------------------- */

typedef enum { SEAT_AI, SEAT_AI_NO_CONFLICTS, SEAT_AI_NO_GIFTS, SEAT_AI_PLAIN, SEAT_AI_GREEDY, SEAT_AI_NO_SPINE, SEAT_RANDOM, SEAT_DECLINE,
	       SEAT_LEVEL1, SEAT_LEVEL2, SEAT_LEVEL3, SEAT_LEVEL4 } SeatKind;

/* Whether placement m touches the top row of b. */
static bool touches_top(const Board *b, Move m)
{
	PieceKind k;
	int rot, x, y;

	rush_move_unpack(m, &k, &rot, &x, &y);
	const Orientation *o = piece_orientation(k, rot);
	for (int i = 0; i < 4; i++)
		if (y + o->y[i] == b->height - 1)
			return true;
	return false;
}

/*
 * Whether seat's move m ends the game early: a placement covering the top
 * row that leaves it ahead (fewer uncovered squares than every other
 * seat's) while its block had a placement below the top row.
 */
static bool ends_early(const RushState *s, int seat, Move m, Move *scratch)
{
	const Board *b = &s->board[seat];

	if (rush_move_type(m) != RUSH_MOVE_PLACE || !touches_top(b, m))
		return false;
	int mine = rush_uncovered(s, seat) - 4;
	for (int p = 0; p < s->nplayers; p++)
		if (p != seat && rush_active(s, p) && rush_uncovered(s, p) <= mine)
			return false;
	PieceKind k;
	int rot, x, y;
	rush_move_unpack(m, &k, &rot, &x, &y);
	int n = rush_placements(b, k, scratch);
	for (int i = 0; i < n; i++)
		if (!touches_top(b, scratch[i]))
			return true;
	return false;
}

/*
 * One lockstep game on `seed`: seats of the given kinds, chance orders and
 * the random players' choices drawn from generators derived from the seed.
 * OUT: uncovered[], rank[] and placed[] (blocks placed) per seat and
 * *early, how many times a seat ended the game early (ends_early());
 * returns the ticks played.
 */
static int harness_game(const SeatKind *kinds, int players, uint64_t seed, Ai *ai,
			RandomBot *rb, int *uncovered, int *rank, int *placed, int *early)
{
	RushState *s = malloc(sizeof(*s));
	VariantConfig cfg;
	Rng chance, rng[RUSH_MAX_PLAYERS];
	Move joint[RUSH_MAX_PLAYERS];
	uint32_t mask;
	VariantPhase ph;

	if (!s)
		abort();
	*early = 0;
	variant_config_default(&variant_rush, players, &cfg);
	cfg.opt[RUSH_OPT_LOCKSTEP] = 1;
	variant_rush.init(s, &cfg);
	rng_seed(&chance, rng_derive(seed, "chance", 0));
	for (int p = 0; p < players; p++)
		rng_seed(&rng[p], rng_derive(seed, "seat", (uint64_t)p));
	while ((ph = variant_rush.phase(s, &mask)) != VARIANT_PHASE_OVER) {
		if (ph == VARIANT_PHASE_CHANCE) {
			variant_rush.apply(s, VARIANT_CHANCE, variant_rush.chance_sample(s, &chance));
			continue;
		}
		for (int p = 0; p < players; p++) {
			if (kinds[p] == SEAT_DECLINE)
				mask &= ~(1u << p);	/* never acts, as under the `nothing` policy */
			if (!(mask >> p & 1u))
				continue;
			if (kinds[p] == SEAT_RANDOM) {
				joint[p] = randombot_choose(&variant_rush, s, p, 0, &rng[p], rb);
			} else {
				ai->no_gifts = kinds[p] == SEAT_AI_NO_GIFTS;
				ai->plain = kinds[p] == SEAT_AI_PLAIN;
				ai->no_endgame = kinds[p] == SEAT_AI_GREEDY;
				ai->no_spine = kinds[p] == SEAT_AI_NO_SPINE;
				ai->no_conflicts = kinds[p] == SEAT_AI_NO_CONFLICTS;
				ai->noise = 0;
				ai->gentle = false;
				ai->gap_ms = 0;
				if (kinds[p] >= SEAT_LEVEL1)
					ai_set_level(ai, 1 + (int)(kinds[p] - SEAT_LEVEL1));
				ai->rng = &rng[p];
				joint[p] = ai_choose_rush(ai, s, p);
			}
			if (!variant_move_is_legal(&variant_rush, s, p, joint[p], rb->scratch)) {
				fprintf(stderr, "bot-rush: harness: seat %d chose an illegal move\n", p);
				abort();
			}
			*early += ends_early(s, p, joint[p], rb->scratch);
		}
		variant_rush.apply_joint(s, joint, mask);
	}
	variant_rush.scores(s, uncovered);
	variant_rush.ranking(s, rank);
	for (int p = 0; p < players; p++)
		placed[p] = s->placed[p];
	if (getenv("BOT_RUSH_SHOW")) {
		static char pic[65536];
		Text t;
		text_init(&t, pic, sizeof(pic));
		variant_rush.render(s, false, &t);
		fputs(pic, stderr);
	}
	int ticks = s->tick;
	free(s);
	return ticks;
}

static SeatKind seat_kind(const char *name)
{
	static const struct { const char *name; SeatKind kind; } kinds[] = {
		{"random", SEAT_RANDOM}, {"noconflicts", SEAT_AI_NO_CONFLICTS}, {"nogifts", SEAT_AI_NO_GIFTS}, {"plain", SEAT_AI_PLAIN},
		{"nospine", SEAT_AI_NO_SPINE}, {"greedy", SEAT_AI_GREEDY}, {"decline", SEAT_DECLINE},
		{"level1", SEAT_LEVEL1}, {"level2", SEAT_LEVEL2}, {"level3", SEAT_LEVEL3}, {"level4", SEAT_LEVEL4},
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(name, kinds[i].name) == 0)
			return kinds[i].kind;
	return SEAT_AI;
}

/*
 * `--harness N SEED KIND...`: N games, seats of KIND (ai; nogifts and
 * plain, the AI without giveaways or taking by placement alone, for
 * comparisons; noconflicts, the AI without its guess of the others'
 * takes (3-4 players: the take before issue 33); greedy, the AI without
 * its endgame search; level1 to
 * level4, the AI at that --level (ai is level 5); random,
 * bot-random's policy; decline, a seat that never
 * acts, as a bot that declined under the `nothing` policy: solo play); one line per game:
 * `game I ticks=T uncovered=U,... ranks=R,...`.
 */
static int harness_main(int argc, char **argv)
{
	SeatKind kinds[RUSH_MAX_PLAYERS];
	int players = argc - 4;
	char *end = NULL;
	long games = strtol(argv[2], &end, 10);
	unsigned long long seed;
	Ai *ai = calloc(1, sizeof(*ai));
	RandomBot rb;

	if (*end || games < 1 || games > 100000 || players < 2 || players > RUSH_MAX_PLAYERS) {
		fprintf(stderr, "usage: bot-rush --harness GAMES SEED KIND KIND [KIND KIND]\n");
		return 2;
	}
	seed = strtoull(argv[3], &end, 10);
	if (*end || !ai || !randombot_init(&rb)) {
		fprintf(stderr, "bot-rush: bad seed or out of memory\n");
		return 2;
	}
	ai_init(ai);
	for (int p = 0; p < players; p++)
		kinds[p] = seat_kind(argv[4 + p]);
	for (long g = 0; g < games; g++) {
		int unc[RUSH_MAX_PLAYERS], rank[RUSH_MAX_PLAYERS], placed[RUSH_MAX_PLAYERS], early;
		int ticks = harness_game(kinds, players, rng_derive(seed, "game", (uint64_t)g), ai,
					 &rb, unc, rank, placed, &early);
		printf("game %ld ticks=%d uncovered=", g + 1, ticks);
		for (int p = 0; p < players; p++)
			printf("%s%d", p ? "," : "", unc[p]);
		printf(" ranks=");
		for (int p = 0; p < players; p++)
			printf("%s%d", p ? "," : "", rank[p]);
		printf(" placed=");
		for (int p = 0; p < players; p++)
			printf("%s%d", p ? "," : "", placed[p]);
		printf(" early_ends=%d\n", early);
		fflush(stdout);
	}
	randombot_release(&rb);
	free(ai->endgame);
	free(ai);
	return 0;
}

int main(int argc, char **argv)
{
	static Ai ai;

	ai_init(&ai);
	if (argc >= 2 && strcmp(argv[1], "--harness") == 0)
		return harness_main(argc, argv);
	if (!botlevel_take("bot-rush", &argc, argv, &rush_level))
		return 2;
	ai_set_level(&ai, rush_level);
	/* --gap MS: the least time between answers in real time (the level's) */
	int n = 0;
	for (int i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "--gap") && i + 1 < argc) {
			char *end;
			errno = 0;
			long ms = strtol(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end || ms < 0 || ms > 60000) {
				fprintf(stderr, "bot-rush: bad --gap '%s': want milliseconds from 0 to 60000\n", argv[i]);
				return 2;
			}
			gap_ms = (int)ms;
			continue;
		}
		argv[n++] = argv[i];
	}
	argv[n] = NULL;
	argc = n;
	BotioSpec spec = {
		.name = "bot-rush",
		.version = "1",
		.about = "packs its rush board tightly, picks shapes, gives bad blocks away "
			 "(--harness GAMES SEED KIND... plays in-process lockstep games)\n"
			 "  --level L  strength, 1 (weakest) to 5 (the default, the whole AI): in real time\n"
			 "             levels 4 to 1 answer 1.5, 3.6, 6.2 and 8% of their moves a pace\n"
			 "             late; 2 and 1 also pack with noise. 1 to 3 play as people do: they\n"
			 "             build from the floor (no column of I blocks to the top) and end\n"
			 "             the game ahead only with the last placement left, at a pace a\n"
			 "             person can follow (the gap below)\n"
			 "  --gap MS   in real time, at least MS between answers (at most a third of\n"
			 "             the move's time); default by level: 1 1500, 2 1000, 3 600, else 0",
		.choose = ai_choose,
		.start = ai_start,
		.ctx = &ai,
	};
	return botio_main(&spec, argc, argv);
}
