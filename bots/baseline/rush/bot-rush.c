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
 *     squares to 24 and then to 15;
 *   - a block in hand or slot is placed where it scores best. When it fits
 *     nowhere on our board, a block in hand goes to the opponent it hurts
 *     most (a wasted action when it fits nowhere on their board either,
 *     dead squares it forces on them), or is discarded when it would help
 *     every opponent. We never give a block that fits us: it costs us an
 *     action and saves the receiver one (no take), which lost 263 to 190
 *     (147 ties) over 600 lockstep games against the same AI without
 *     gifts.
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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botio.h"
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
	W_PLENTY = 6,		/* per copy left of a shape we take */
	W_GIFT = 2 * W_DEAD,	/* a block received saves its receiver a take */
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
	int best_other;		/* fewest uncovered squares among the others */
} View;

static View view_of(const RushState *s, int seat)
{
	View v = {s, seat, 1 << 20};

	for (int p = 0; p < s->nplayers; p++) {
		if (p == seat || !rush_active(s, p))
			continue;
		/* In lockstep a block they hold may land in the same tick as ours. */
		int u = rush_uncovered(s, p) - (s->lockstep && rush_active_block(s, p) != PIECE_NONE ? 4 : 0);
		if (u < v.best_other)
			v.best_other = u;
	}
	return v;
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
		int mine = rush_uncovered(v->s, v->seat) - 4;
		score += mine < v->best_other ? SCORE_END_WIN - mine : SCORE_END_LOSE;
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
		int cost, sc = placement_score(v, scratch[i], &cost);
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
} Ai;

static void ai_init(Ai *ai)
{
	memset(ai, 0, sizeof(*ai));
	for (int p = 0; p < RUSH_MAX_PLAYERS; p++)
		ai->plan_kind[p] = PIECE_NONE;
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

static Move ai_choose_rush(Ai *ai, const RushState *s, int seat)
{
	View v = view_of(s, seat);
	PieceKind k = rush_active_block(s, seat);
	Move best = 0;
	int score, cost;

	if (k == PIECE_NONE) {
		int best_score = INT_MIN, rivals = 0, plan_score = 0;
		Move plan = 0;
		/* Those who may grab at the box with us now. */
		for (int p = 0; p < s->nplayers; p++)
			rivals += p != seat && rush_active(s, p) && rush_active_block(s, p) == PIECE_NONE;
		for (int q = 0; q < PIECE_COUNT; q++) {
			Move m = 0;
			if (s->box[q] <= 0)
				continue;
			if (!best_placement(&v, (PieceKind)q, ai->list, ai->rng, &m, &score, &cost))
				score = SCORE_END_LOSE * 3;
			/* Going for one of the last copies risks a lost action. */
			if (s->box[q] <= rivals && !ai->plain)
				score -= W_CONTEST;
			/* Use the box evenly, or its dregs are all that is left at the top. */
			if (!ai->plain)
				score += W_PLENTY * s->box[q];
			int placing = score;
			score = score * 4 + s->box[q] / 8;	/* plenty breaks ties */
			if (score > best_score) {
				best_score = score;
				best = rush_move_take((PieceKind)q);
				plan = m;
				plan_score = placing;
			}
		}
		/* Plan only ordinary placements: the end of the game is judged anew. */
		ai->plan_kind[seat] = PIECE_NONE;
		if (best_score > INT_MIN && plan_score > SCORE_END_LOSE / 4 &&
		    plan_score < SCORE_END_WIN / 4) {
			ai->plan_kind[seat] = (int8_t)((best >> 4) & 0xf);
			ai->plan_other[seat] = v.best_other;
			ai->plan[seat] = plan;
			ai->plan_board[seat] = s->board[seat];
		}
		return best;
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

static Move ai_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		      void *ctx)
{
	(void)v;
	(void)ms_left;
	Ai *ai = ctx;

	ai->rng = rng;
	return ai_choose_rush(ai, state, seat);
}

/*
 * Called on each `game` line: decline other variants, and warm up. A real
 * time game between fast bots can be over in a few milliseconds, so the
 * first moves must not pay for page faults and cold caches: play a short
 * game against ourselves now, on the start allowance, and forget it.
 */
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
	return NULL;
}

/* ---- the in-process lockstep harness ---------------------------------- */

typedef enum { SEAT_AI, SEAT_AI_NO_GIFTS, SEAT_AI_PLAIN, SEAT_RANDOM } SeatKind;

/*
 * One lockstep game on `seed`: seats of the given kinds, chance orders and
 * the random players' choices drawn from generators derived from the seed.
 * OUT: uncovered[] and rank[] per seat; returns the ticks played.
 */
static int harness_game(const SeatKind *kinds, int players, uint64_t seed, Ai *ai,
			RandomBot *rb, int *uncovered, int *rank)
{
	RushState *s = malloc(sizeof(*s));
	VariantConfig cfg;
	Rng chance, rng[RUSH_MAX_PLAYERS];
	Move joint[RUSH_MAX_PLAYERS];
	uint32_t mask;
	VariantPhase ph;

	if (!s)
		abort();
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
			if (!(mask >> p & 1u))
				continue;
			if (kinds[p] == SEAT_RANDOM) {
				joint[p] = randombot_choose(&variant_rush, s, p, 0, &rng[p], rb);
			} else {
				ai->no_gifts = kinds[p] == SEAT_AI_NO_GIFTS;
				ai->plain = kinds[p] == SEAT_AI_PLAIN;
				ai->rng = &rng[p];
				joint[p] = ai_choose_rush(ai, s, p);
			}
			if (!variant_move_is_legal(&variant_rush, s, p, joint[p], rb->scratch)) {
				fprintf(stderr, "bot-rush: harness: seat %d chose an illegal move\n", p);
				abort();
			}
		}
		variant_rush.apply_joint(s, joint, mask);
	}
	variant_rush.scores(s, uncovered);
	variant_rush.ranking(s, rank);
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
	if (strcmp(name, "random") == 0)
		return SEAT_RANDOM;
	if (strcmp(name, "nogifts") == 0)
		return SEAT_AI_NO_GIFTS;
	if (strcmp(name, "plain") == 0)
		return SEAT_AI_PLAIN;
	return SEAT_AI;
}

/*
 * `--harness N SEED KIND...`: N games, seats of KIND (ai; nogifts and
 * plain, the AI without giveaways or taking by placement alone, for
 * comparisons; random, bot-random's policy); one line per game:
 * `game I ticks=T uncovered=U,... ranks=R,...`.
 */
static int harness_main(int argc, char **argv)
{
	SeatKind kinds[RUSH_MAX_PLAYERS];
	int players = argc - 4;
	char *end = NULL;
	long games = strtol(argv[2], &end, 10);
	unsigned long long seed;
	Ai *ai = malloc(sizeof(*ai));
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
		int unc[RUSH_MAX_PLAYERS], rank[RUSH_MAX_PLAYERS];
		int ticks = harness_game(kinds, players, rng_derive(seed, "game", (uint64_t)g), ai,
					 &rb, unc, rank);
		printf("game %ld ticks=%d uncovered=", g + 1, ticks);
		for (int p = 0; p < players; p++)
			printf("%s%d", p ? "," : "", unc[p]);
		printf(" ranks=");
		for (int p = 0; p < players; p++)
			printf("%s%d", p ? "," : "", rank[p]);
		printf("\n");
		fflush(stdout);
	}
	randombot_release(&rb);
	free(ai);
	return 0;
}

int main(int argc, char **argv)
{
	static Ai ai;

	ai_init(&ai);
	if (argc >= 2 && strcmp(argv[1], "--harness") == 0)
		return harness_main(argc, argv);
	BotioSpec spec = {
		.name = "bot-rush",
		.version = "1",
		.about = "packs its rush board tightly, picks shapes, gives bad blocks away "
			 "(--harness GAMES SEED KIND... plays in-process lockstep games)",
		.choose = ai_choose,
		.start = ai_start,
		.ctx = &ai,
	};
	return botio_main(&spec, argc, argv);
}
