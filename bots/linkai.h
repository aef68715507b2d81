/*
 * linkai: a Tetris Link player (engine/link.h), as a BotChoose.
 *
 * The search is expectimax over placements and die rolls. Two plies:
 * each of our placements, then each of the six faces the next player may
 * roll (equally likely; a roll that cannot be played skips the turn), then
 * that player's best reply by the same evaluation from their side. Three
 * plies (the default): the six placements best after two plies are
 * searched again past our own next roll, where the other player's
 * LINKAI_BEAM most promising replies are tried and the worst for us
 * counts. Four plies (the default, iterative deepening): with at least
 * LINKAI_DEEPER_MS to move, the LINKAI_ROOT_DEEPER best after three plies
 * are searched one placement deeper, each begun only while the time spent
 * plus twice the last one's stays within MS / LINKAI_BUDGET_PART (so about
 * a tenth of `go`'s time, which the bank refills by its increment); the
 * best of those searched wins. Deeper passes over the same few follow
 * while each is predicted (from the growth of the pass before) to end in
 * that budget: in practice only near the end of a game, where few
 * placements are left and the search reaches the final scores. The
 * evaluation adds to the points already scored the promise of
 * each group: the open cells (empty and reachable by a falling piece)
 * along it, weighted by what one more linked piece would gain (3 points
 * for a pair, 1 for a group of three or more), scaled by the pieces the
 * owner has left, plus LINKAI_W_SHAPES per shape still in the supply and
 * LINKAI_W_SUPPLY + k per piece of shape k left (the default weights,
 * fitted to who won by scripts/link-texel.py, value an I at most of a
 * point). It is our value less the best
 * opponent's, a margin, turned into a chance of winning: 50000 x
 * tanh(margin / 2 spread), the spread LINKAI_W_SPREAD tenths per square
 * root of the pieces the tower still has room for, plus the margin as a
 * tie-break. Chance nodes so average chances of winning: ahead, the bot
 * plays safe and shortens the game; behind, it takes risks. With little
 * time the search gets shallower: two plies under LINKAI_DEEP_MS, one
 * under LINKAI_FAST_MS, and the third ply stops early (after at least the
 * best move) once two thirds of the time given are gone. Whatever the
 * machine's load, a search still running at MS / LINKAI_HARD_PART is
 * abandoned (its root placement keeps the value of the pass before), so
 * a move never takes much more than a third of the time given.
 *
 * Deterministic at depths up to 3 with time to spare: equal values go to
 * the first move in legal_moves order; the Rng is used only for the noise
 * of the weakest levels (linkai_set_level). Past three
 * placements the depth follows the clock, as above. No allocation after linkai_init.
 */
#ifndef TETRARENA_BOTS_LINKAI_H
#define TETRARENA_BOTS_LINKAI_H

#include "link.h"
#include "rng.h"
#include "variant.h"

#define LINKAI_FAST_MS 150	/* below this, one ply */
#define LINKAI_DEEP_MS 1000	/* below this, at most two plies */
#define LINKAI_BEAM 3		/* placements searched deeper at inner nodes */
#define LINKAI_ROOT_DEEP 6	/* our placements searched past two plies */
#define LINKAI_ROOT_DEEPER 3	/* of those, searched a fourth ply in time */
#define LINKAI_DEEPER_MS 2000	/* below this, at most three plies */
#define LINKAI_BUDGET_PART 10.0	/* the fourth ply stops at MS / this */
#define LINKAI_HARD_PART 3.0	/* any search in progress is abandoned at MS / this */
#define LINKAI_GROWTH 4.0	/* a deeper pass is taken to cost at least this many times the last */
#define LINKAI_MAX_DEPTH 12

/* Weights of the evaluation, in tenths of a point. */
enum {
	LINKAI_W_OPEN1,		/* per open cell along a lone piece */
	LINKAI_W_OPEN2,		/* per open cell along a pair */
	LINKAI_W_OPEN3,		/* per open cell along a group of 3 or more */
	LINKAI_W_CAP,		/* open cells counted per group */
	LINKAI_W_LEFT,		/* promise is full with this many pieces left */
	LINKAI_W_BUMP,		/* per unit of height step between columns */
	LINKAI_W_SHAPES,	/* per shape still in a player's supply */
	LINKAI_W_FLOAT,		/* percent an open cell above a gap counts */
	LINKAI_W_SPREAD,	/* win chance: margin spread per sqrt(piece left); 0 off */
	LINKAI_W_SUPPLY,	/* per piece left in the supply, one entry per shape I O T L S */
	LINKAI_W_COUNT = LINKAI_W_SUPPLY + LINK_SHAPES
};

typedef struct {
	int depth;		/* placements searched at most: 1 greedy, 2, 3, 4, ... LINKAI_MAX_DEPTH (default) */
	int w[LINKAI_W_COUNT];	/* evaluation weights */
	int root_deeper;	/* placements searched a fourth ply (LINKAI_ROOT_DEEPER) */
	long nodes;		/* placements tried by the last choose */
	int searched;		/* the depth the last choose used */
	double hard_ms;		/* a search still running this long after the move began is
				   abandoned; 0 (the default): MS / LINKAI_HARD_PART */
	double deadline;	/* internal: monotonic ms at which a search gives up */
	bool out_of_time;	/* internal: the search in progress gave up */
	int opp_model;		/* how another player's placement is searched past the last ply:
				   LINKAI_OPP_PARANOID (default), _PLAUSIBLE, _MAXN */
	int noise;		/* > 0: each root placement's margin at one ply gets a uniform
				   draw in [-noise, noise] tenths from the Rng (levels 1-2) */
	int mp_eval;		/* with more than one opponent in play: LINKAI_MP_LEADER
				   (default), LINKAI_MP_EVERY or LINKAI_MP_FIELD */
} LinkAi;

/*
 * The chance of winning with several opponents in play (3-4 players;
 * with one, both are the same). LEADER (the default): the margin over
 * the best opponent, as a chance (win_chance). EVERY: the product of the
 * chances of finishing ahead of each opponent, each from its own margin
 * (independent races): a close second and third both count, where the
 * leader's margin sees only one of them. FIELD: the margin over the
 * opponents' mean.
 */
enum { LINKAI_MP_LEADER, LINKAI_MP_EVERY, LINKAI_MP_FIELD };

/*
 * Opponent models for the inner placements of other players (they matter
 * at 3-4 players; with 2, the first two pick the same placements up to
 * ties). PARANOID (the default): the LINKAI_BEAM placements worst for us
 * by our evaluation, the worst for us after the deeper search counting.
 * PLAUSIBLE: the placer's own LINKAI_BEAM best by its evaluation, the
 * worst for us among them counting (paranoid among moves it would play).
 * MAXN: only the placer's own best by its evaluation is searched on (a
 * max^n step with a static choice).
 */
enum { LINKAI_OPP_PARANOID, LINKAI_OPP_PLAUSIBLE, LINKAI_OPP_MAXN };

/* Set up with the default depth and weights. */
void linkai_init(LinkAi *ai);

/*
 * Play at `level` (botlevel.h, 1..5): 5 is linkai_init's search; 4 two
 * plies; 3 one ply (greedy); 2 one ply with noise of LINKAI_NOISE2 tenths
 * of a point; 1 with LINKAI_NOISE1. Levels 1-4 use LINKAI_WEIGHTS_BEFORE
 * (their calibration's), level 5 LINKAI_WEIGHTS_FITTED. Noise never touches a finished game,
 * so a placement that wins at once is always seen. In-process, 200 games
 * (seeds 9001 on; level 1 then at 25): level 1 against 2 won 0.19, 2 against 3 0.29, 3
 * against 4 0.345, 1 against bot-random 1.00. docs/ai/link.md has the
 * calibration through the referee.
 */
#define LINKAI_NOISE1 20
#define LINKAI_NOISE2 10
void linkai_set_level(LinkAi *ai, int level);

/*
 * The evaluation's weight sets. FITTED (linkai_init's, level 5 at 2
 * players): fitted to who won in 2-player games (scripts/link-texel.py).
 * BEFORE: the weights before them, which levels 1-4 were calibrated with
 * and the playouts at 3-4 players were measured with (linkmc.h); the
 * fit saw only 2-player games.
 */
enum { LINKAI_WEIGHTS_FITTED, LINKAI_WEIGHTS_BEFORE };
void linkai_use_weights(LinkAi *ai, int set);

/*
 * Set weights from "a,b,c,..." (a prefix of the LINKAI_W_* order); false
 * when malformed, leaving the rest unchanged.
 */
bool linkai_set_weights(LinkAi *ai, const char *list);

/* Empty cells above the stacks: what the win chance's spread shrinks with. */
int linkai_room(const LinkState *s);

/* The evaluation of s for `seat`, in tenths of a point; higher is better. */
int linkai_evaluate(const LinkAi *ai, const LinkState *s, int seat);

/*
 * What the evaluation is made of, per seat, for tuning its weights by
 * regression (scripts/link-texel.py): points scored, the open cells along
 * lone pieces, pairs and larger groups (each group's at most
 * LINKAI_W_CAP, a cell above a gap at LINKAI_W_FLOAT percent, as the
 * evaluation counts them), pieces left, the largest group, the shapes
 * still in the supply and how many of each (I O T L S) are left. OUT:
 * f[seat][LINKAI_F_*] for every seat of s.
 */
enum {
	LINKAI_F_SCORE,
	LINKAI_F_OPEN1,
	LINKAI_F_OPEN2,
	LINKAI_F_OPEN3,
	LINKAI_F_LEFT,
	LINKAI_F_LARGEST,
	LINKAI_F_KINDS,
	LINKAI_F_SUPPLY,	/* LINK_SHAPES entries, one per die face */
	LINKAI_F_COUNT = LINKAI_F_SUPPLY + LINK_SHAPES
};
void linkai_features(const LinkAi *ai, const LinkState *s, double f[][LINKAI_F_COUNT]);

/* A placement and its value for the one who ranks it. */
typedef struct {
	Move move;
	int value;
} LinkAiScored;

/*
 * Every legal placement of `seat` (the current placer of s) with its
 * two-ply value for `seat`, as linkai_choose's first pass has it, best
 * first (equal values in legal_moves order). No clock. Returns the count
 * (0 when there is none); out has room for PIECE_ORIENTATIONS x
 * LINK_MAX_WIDTH.
 */
int linkai_rank(LinkAi *ai, const LinkState *s, int seat, LinkAiScored *out);

/*
 * As linkai_rank, each placement valued `depth` placements deep (2 to
 * LINKAI_MAX_DEPTH: 2 is linkai_choose's first pass, 3 its second over
 * every placement instead of the best few, deeper as its iterative
 * deepening), in legal_moves order, no clock (bot-link --analyse); adds
 * the placements tried to ai->nodes. Returns the count.
 */
int linkai_analyse(LinkAi *ai, const LinkState *s, int seat, int depth, LinkAiScored *out);

/* A BotChoose (ctx is a LinkAi) for variant_link states only. */
Move linkai_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx);

#endif
