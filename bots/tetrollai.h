/*
 * tetrollai: the Tetroll AI behind bin/bot-tetroll, as pure functions over
 * a TetrollState, so that the bot, the solo report driver and tests all
 * play through one choose function.
 *
 * How it decides:
 *   - a sheet is valued by tetrollai_eval(): with TetrollAi.weights, the
 *     score now plus the weights times its features (tetrollai_features,
 *     fitted to final scores by scripts/tetroll-fit.py); otherwise by the
 *     hand-set sum: the score it would have now,
 *     plus the expected worth of unfinished rows (10 less the repeats so
 *     far, less the repeats still to come, weighted by how full the row
 *     is), plus the progress on each bonus track times the prize still
 *     reachable, less penalties for empty cells no piece can reach
 *     anymore, for a ragged surface, and for the chance that the next
 *     roll selects a shape that fits nowhere (which ends the game);
 *   - a placement is valued by applying it, resolving the decisions it
 *     triggers (copy, #3 rings, #6 numbers) greedily, and valuing the sheet;
 *     with lookahead, the best few are valued again by an expectimax over
 *     the next rolls (the six shape outcomes with their exact odds, the
 *     best few placements of each searched on): one roll deep for the best
 *     lookahead_width, two rolls deep for the best deep_width of those;
 *     playing for points the chance nodes are risk-seeking (the certainty
 *     equivalent of exp(value / risk));
 *   - with rollouts (on from 2 s a move, playing for points), the best
 *     rollout_width at one roll are chosen among instead by the mean final
 *     score of games played on from each by the greedy policy
 *     (tetrollai_rollout_values), every candidate with the same dice; with
 *     rollout_prune, a candidate clearly behind after a round gets no more
 *     rollouts, and the others share what it would have played; with
 *     rollout_depth, a rollout stops that many turns on and counts the
 *     fitted forecast of the sheets it reached;
 *   - the dice decision is an expectimax over rolls and rerolls: the worth
 *     of each of the six outcomes (shapes #1..#5, joker) is its best
 *     placement looking dice_depth rolls further, computed once; a
 *     reroll's worth is the expectation over the rerolled
 *     dice of the best of keeping or rerolling again, less the value of the
 *     first prize crossed out to pay for it (the cheapest open one first),
 *     to a depth of TETROLLAI_MAX_REROLLS rerolls per turn;
 *   - copy cells, #3 rings and #6 numbers are chosen greedily by value,
 *     or with followup_rollouts (on with rollouts) among the best
 *     rollout_width by value by their rollouts, as placements are.
 *
 * Nothing here allocates or keeps state between calls: a TetrollAi holds
 * only parameters and counters (the search's scratch space is static: one
 * search at a time, as in the single-threaded bot).
 */
#ifndef TETRARENA_BOTS_TETROLLAI_H
#define TETRARENA_BOTS_TETROLLAI_H

#include "tetroll.h"
#include "variant.h"

#define TETROLLAI_MAX_REROLLS 3
#define TETROLLAI_MAX_WIDTH 32	/* most placements the lookahead re-values */
#define TETROLLAI_MAX_ROLLOUTS 256	/* most rollouts per candidate asked for (p.rollouts) */
#define TETROLLAI_RACE_SPREAD 30	/* p.rollout_race from tetrollai_init (docs/ai/tetroll.md) */
#define TETROLLAI_MAX_DEPTH 32	/* most turns a rollout plays (p.rollout_depth; a game lasts about 20) */
#define TETROLLAI_RACE_DEPTH 4	/* p.rollout_depth at 2 players racing (tetrollai_players) */
#define TETROLLAI_MAX_PLAYED 1024	/* most played of one candidate (with rollout_prune) */
#define TETROLLAI_ROLLOUT_ROUND 8	/* rollouts per candidate between two looks at rollout_cap */

/*
 * What a solo game is played for (the rulebook's solo objectives):
 *   SCORE         the most points (also "As high as Sputnik!": 140+);
 *   MOTHER_RUSSIA "For Mother Russia!": 80+ with no bonus track completed:
 *                 a completed track costs the objective, rings marked and
 *                 pending (repeats in unfinished rows) near a full track
 *                 are a risk, and first prizes pay rerolls freely;
 *   CONRAD        "Go East, Conrad!": 100+ with 4 rows reading 1-2-3-4-5-6:
 *                 the fullest rows still able to read so are valued (as
 *                 many as are still needed), finished ones more until
 *                 there are four.
 */
typedef enum {
	TETROLLAI_SCORE,
	TETROLLAI_MOTHER_RUSSIA,
	TETROLLAI_CONRAD,
} TetrollObjective;

typedef struct {
	double row_weight;	/* share of an unfinished row's expected score counted */
	double future_dup;	/* expected penalty per empty cell per distinct number present */
	double dup_ring;	/* worth of the ring a pending repeat will mark */
	double dead_cell;	/* penalty per empty grid cell no piece can reach */
	double bump;		/* penalty per unit of surface roughness */
	double track;		/* weight of bonus-track progress */
	double reroll_cost;	/* scale of the worth of a first prize given up */
	double nofit;		/* share of the estimate above the score now lost per unit
				   of the chance the next roll fits nowhere */
	double covered;		/* penalty per empty grid cell with a number above it */
	double track_power;	/* a track counts (rings/track)^track_power of its prize */
	double race;		/* 2 players, > 0: first prizes raced (tetrollai_eval): a track
				   counts first and runner-up prizes by the chance to finish it
				   first, and this times the opponent's loss when we do */
	double risk;		/* > 0: chance nodes value outcomes risk-seeking, exp(v / risk) */
	double dice_risk;	/* > 0: the dice decision values rerolls risk-seeking, exp(value / dice_risk) */
	double parity_keep;	/* > 0: with #2/#5 won, a row keeps its parity with 0.5 + 0.5 * this^empty cells */
	double odd_rows;	/* #5's prizes are worth this many odd rows (with parity < 0) */
	double parity;		/* #2/#5 prizes: share of an unfinished row counted per parity (< 0: 4 rows) */
	double fill_power;	/* an unfinished row counts (filled/width)^fill_power of its worth */
	double mr_pending;	/* Mother Russia: share of a repeat in an unfinished row counted as a ring */
	double mr_margin;	/* rings short of a full track where the risk starts */
	double mr_risk;		/* penalty per squared ring inside that margin */
	double conrad_row;	/* Conrad: worth of a finished row reading 1-6 (up to four) */
	double conrad_part;	/* Conrad: worth of a full row still able to read so, times fill^2 */
	double mr_completed;	/* Mother Russia: cost of a completed track (the objective lost) */
	double mr_win;		/* Mother Russia: worth of a game over with the objective reached */
	double mr_power;	/* Mother Russia: a track's load charged mr_fill * (load/track)^mr_power */
	double mr_fill;		/* penalty for a track's (pending rings / track)^mr_power */
	double rollout_risk;	/* > 0: rollouts valued risk-seeking, exp(score / rollout_risk) */
	double rollout_race;	/* 2 players, > 0: rollouts play the opponent's turns too (greedy,
				   first prizes raced) and value the final margin m as
				   rollout_race x tanh(m / rollout_race) */
	double rollout_prune;	/* > 0 (and rollout_risk 0): after each round a candidate whose mean
				   difference to the leader (paired) is below 0 by more than this many
				   standard errors gets no more rollouts; theirs go to the others */
	int max_rerolls;	/* rerolls per turn the search looks at, <= TETROLLAI_MAX_REROLLS */
	int late_cells;		/* below this many empty grid cells, rerolls get cheaper */
	int lookahead;		/* rolls the placement search looks ahead (0: static value only) */
	int dice_depth;		/* rolls the dice decision looks past the placement (0: static values) */
	int narrow;		/* 1: searches try a copy or #6 number on fewer cells (narrow_cells) */
	int deep_width;		/* with lookahead > 1: placements searched that deep (best at one roll first) */
	int reroll_aware;	/* 1: the lookahead's rolls may be rerolled once (paid with a first prize) */
	int inner_width;	/* placements re-valued at each roll below the first */
	int lookahead_width;	/* placements (best by static value) the lookahead re-values */
	int mr_live;		/* Mother Russia: > 0: repeats in dead rows never mark, others count (filled/width)^mr_live */
	int objective;		/* TetrollObjective: what the eval plays for */
	int rollouts;		/* > 0: rollouts (<= TETROLLAI_MAX_ROLLOUTS) of the greedy policy per candidate */
	int rollout_width;	/* candidates (best at one roll first) the rollouts choose among */
	int rollout_depth;	/* > 0: a rollout stops after this many of our turns and is valued by the
				   fitted forecast of its sheet (tetrollai_fitted); 0: played to the end;
				   < 0 (tetrollai_init): by the players, TETROLLAI_RACE_DEPTH at 2 players
				   racing and 0 otherwise (tetrollai_players; unresolved, 0) */
	int followup_rollouts;	/* 1: with rollouts on, a copy, ring or #6 number is chosen among the
				   best rollout_width (by static value) by rollouts too */
} TetrollAiParams;

typedef struct {
	TetrollAiParams p;
	long evals;		/* sheets valued, for `info` lines */
	/*
	 * Safety net for a loaded machine: when eval_cap > 0 and a move has
	 * valued more sheets than that, the lookahead stops re-valuing further
	 * placements (the best so far stands). Counting sheets rather than
	 * reading a clock keeps a move a function of the state.
	 */
	long eval_cap;
	/*
	 * The same for rollouts, which are played in rounds of
	 * TETROLLAI_ROLLOUT_ROUND (every candidate with the same dice): when
	 * rollout_cap > 0 and a move has valued more sheets than that after a
	 * round, no further round starts and the rounds played stand.
	 */
	long rollout_cap;
	long move_start;	/* evals when the current move began */
	/*
	 * The last net, for a machine so loaded that the caps above still
	 * take too long: when deadline > 0 (ms on clock_ms below, set by
	 * the caller for each move; bin/bot-tetroll: a third of the move's
	 * time), a search past it stops as at the caps. It binds only
	 * when the bot gets a small share of a core, and only then does the
	 * move depend on the clock.
	 */
	double deadline;
	double (*clock_ms)(void);	/* what deadline is read against: botclock_ms
					   (tetrollai_init); a test may count calls instead */
	/*
	 * Non-NULL (and playing for points, p.race 0): a playing sheet is
	 * valued by its score now plus these weights times its features
	 * (tetrollai_features) instead of the hand-set sum.
	 * TETROLLAI_BY_PLAYERS (tetrollai_init) is resolved by
	 * tetrollai_players: tetrollai_margin at 2 players racing with
	 * rollouts on, the hand-set sum otherwise (and while unresolved).
	 */
	const double *weights;
	double noise;		/* > 0: a placement's static value gets a draw in [-noise, noise]
				   points, a hash of noise_key and the move (levels 1-2) */
	uint64_t noise_key;	/* set per move by the caller, from its Rng */
} TetrollAi;

/*
 * Set the search for moves with ms milliseconds to answer (the `go`
 * line's MS): no lookahead below 300 ms, one roll from 300 ms, two rolls
 * from 2 s (playing for points: rollouts instead), with an eval cap per
 * move that a 2-core machine shared several ways still values well inside
 * the time. The same ms always gives the same settings.
 */
void tetrollai_budget(TetrollAi *ai, int ms);

/*
 * After tetrollai_budget, for a game of nplayers. At 2 players with
 * p.rollout_race > 0 (TETROLLAI_RACE_SPREAD from tetrollai_init), racing:
 * where the budget turned rollouts on, twice the rollouts (a racing
 * rollout also plays the opponent's dice, so it is noisier and costs
 * about twice as much), rollout_cap scaled to match, and weights ==
 * TETROLLAI_BY_PLAYERS becomes tetrollai_margin (docs/ai/tetroll.md:
 * measured together; without rollouts, NULL as alone); a p.rollout_depth
 * below 0 becomes TETROLLAI_RACE_DEPTH. Otherwise the rollouts stay, a
 * p.rollout_depth below 0 becomes 0 (to the end) and TETROLLAI_BY_PLAYERS
 * NULL (the hand-set sum).
 */
void tetrollai_players(TetrollAi *ai, int nplayers);

/*
 * After tetrollai_budget: where it turned rollouts on, n (1 to
 * TETROLLAI_MAX_ROLLOUTS) per candidate, rollout_cap scaled by n over the
 * count it had. Where rollouts are off, nothing changes.
 */
void tetrollai_set_rollouts(TetrollAi *ai, int n);

/*
 * Limit the search tetrollai_budget set to `level` (botlevel.h, 1..5): 5
 * leaves it; 4 no rollouts, one roll ahead at most (6 placements); 3
 * greedy (no lookahead, the dice by static values); 2 greedy with
 * TETROLLAI_NOISE2 points of noise on each placement's value, 1 with
 * TETROLLAI_NOISE1 (ai->noise_key, set per move, decides the draws). Solo
 * means, in-process, seeds 1..200 (prog-tetroll-solo level=L): 1 65.1,
 * 2 83.5, 3 101.8, 4 111.3 (5: 122.9 over 1000 referee games). Call after
 * tetrollai_budget, at every move.
 */
#define TETROLLAI_NOISE1 24.0
#define TETROLLAI_NOISE2 9.0
void tetrollai_level(TetrollAi *ai, int level);

/* The objective named sputnik, mother-russia or conrad; -1 when unknown. */
int tetrollai_objective(const char *name);

/* The tuned defaults. */
void tetrollai_init(TetrollAi *ai);

/* How many of seat's finished rows read 1-2-3-4-5-6 ("Go East, Conrad!"). */
int tetrollai_ordered_rows(const TetrollState *s, int seat);

/* The worth of `seat`'s sheet: an estimate of its final score. */
double tetrollai_eval(TetrollAi *ai, const TetrollState *s, int seat);

/*
 * What a fitted value (TetrollAi.weights) is a weighted sum of: the
 * features of a playing sheet, each a number tetrollai_features writes at
 * its index. HAND is the hand-set value's estimate above the score now,
 * ROWS its unfinished rows' part; FILL + k counts the unfinished rows
 * with k fifths filled (0..4), OPEN + b and CROSSED + b are bonus b's
 * track share times its first prize (open) or runner-up prize (crossed
 * out), RINGS + b its track's filled share, RIVAL + b the opponent's
 * filled share of a track both still race for (2 players); EMPTY counts live empty grid
 * cells (EMPTY2 their square over 100), MISS the chance the next roll
 * fits nowhere, MISS_LOSS that times HAND before the hand-set discount.
 */
enum {
	TETROLLAI_F_BIAS,
	TETROLLAI_F_HAND,
	TETROLLAI_F_ROWS,
	TETROLLAI_F_DEAD,
	TETROLLAI_F_DEAD_ROWS,
	TETROLLAI_F_BUMP,
	TETROLLAI_F_COVERED,
	TETROLLAI_F_EMPTY,
	TETROLLAI_F_EMPTY2,
	TETROLLAI_F_EMPTY_ROWS,
	TETROLLAI_F_ABOVE,
	TETROLLAI_F_MISS,
	TETROLLAI_F_MISS_LOSS,
	TETROLLAI_F_REPEATS,
	TETROLLAI_F_OPEN_PRIZES,
	TETROLLAI_F_FILL,
	TETROLLAI_F_OPEN = TETROLLAI_F_FILL + 5,
	TETROLLAI_F_CROSSED = TETROLLAI_F_OPEN + TETROLL_BONUSES,
	TETROLLAI_F_RINGS = TETROLLAI_F_CROSSED + TETROLL_BONUSES,
	TETROLLAI_F_RIVAL = TETROLLAI_F_RINGS + TETROLL_BONUSES,
	TETROLLAI_FEATURES = TETROLLAI_F_RIVAL + TETROLL_BONUSES
};

/*
 * The features of seat's sheet, OUT f[0..TETROLLAI_FEATURES) (all 0 for
 * a sheet whose game is over). Returns its score now.
 */
double tetrollai_features(TetrollAi *ai, const TetrollState *s, int seat, double f[TETROLLAI_FEATURES]);

/*
 * The fitted weights, TETROLLAI_FEATURES of them, [0] for solo games
 * (bots/tetroll-weights.h) and [1] for 2 players (bots/tetroll-weights2.h),
 * made by scripts/tetroll-fit.py (docs/ai/tetroll.md). With
 * TetrollAi.weights == TETROLLAI_FITTED, tetrollai_eval takes the set for
 * the game's number of players.
 */
extern const double tetrollai_fitted[TETROLL_MAX_PLAYERS][TETROLLAI_FEATURES];
#define TETROLLAI_FITTED (&tetrollai_fitted[0][0])

/*
 * Weights fitted to the margin a 2-player game went on to make, on the
 * difference of the two sheets' features (bots/tetroll-margin.h,
 * scripts/tetroll-fit.py --margin): valued alone, a sheet counts its own
 * part, and the rival features price the opponent's progress on the
 * tracks both race for. The 2-player default (tetrollai_players).
 */
extern const double tetrollai_margin[TETROLLAI_FEATURES];

/* TetrollAi.weights: decided by tetrollai_players (there: the margin at 2 players racing) */
extern const double tetrollai_by_players;
#define TETROLLAI_BY_PLAYERS (&tetrollai_by_players)

/*
 * Parse weights written as scripts/tetroll-fit.py writes them (one number
 * at the start of each line, the rest of the line ignored) into
 * w[0..TETROLLAI_FEATURES). Returns NULL, or what is wrong with text.
 */
const char *tetrollai_parse_weights(const char *text, double w[TETROLLAI_FEATURES]);

/*
 * The move for `seat`, which must be deciding in `s` (any of the dice,
 * place, copy, ring and write stages). Always a legal move.
 */
Move tetrollai_choose(TetrollAi *ai, const TetrollState *s, int seat);

/*
 * The analysis of a decision (bot-tetroll --analyse, for `referee
 * review`): every legal move of `seat` in s (deciding, any stage), OUT
 * moves[0..n) in legal_moves order with OUT values[0..n), each the worth
 * one roll ahead in points as the search values them: a placement or a
 * follow-up applied, its follow-ups settled (tetrollai_settle), then the
 * expectation over the next roll of the best placement's static value
 * (as level 4's lookahead values its candidates); keeping the dice, the
 * best placement of the shape they select so valued; a reroll, the
 * expectimax over the rerolled dice and further rerolls (as the dice
 * decision), less the worth of the first prize it crosses out. No clock
 * and no eval cap (set ai->eval_cap and ai->deadline to 0): a function of
 * s and ai->p. moves and values have room for 8 x TETROLL_MAX_WIDTH x
 * TETROLL_MAX_HEIGHT. Returns n.
 */
int tetrollai_analyse(TetrollAi *ai, const TetrollState *s, int seat, Move *moves, double *values);

/*
 * Resolve every follow-up `seat` has pending in s (copy, #3 rings, #6
 * numbers; s in stage place once they are done) as the search does
 * inside a placement's value: each the best by static value, a copy's or
 * #6 number's cells narrowed with p.narrow.
 */
void tetrollai_settle(TetrollAi *ai, TetrollState *s, int seat);

/*
 * The rollout worth of each of the n sheets cand[0..n) (placements of
 * seat's made from s and settled): p.rollouts (1 to
 * TETROLLAI_MAX_ROLLOUTS) games played on from each by the greedy policy
 * (the best placement by static value; all four dice rerolled, paid with
 * the cheapest open first prize, only when the roll fits nowhere) to the
 * end. Rollout j rolls the same dice for every candidate (common random
 * numbers: equal sheets are worth exactly the same, and the differences
 * measure the sheets more than the luck), drawn from a generator seeded
 * with a hash of seat's sheet, the turn and the dice in s: the worths are
 * a function of s and cand. Valued by the mean score, or with
 * p.rollout_risk > 0 by the certainty equivalent of exp(score /
 * rollout_risk). At 2 players with p.rollout_race = S > 0 the opponent
 * plays its turns too (the same policy from its side, its own common
 * dice), so first prizes are raced for, and a rollout is worth the final
 * margin m over the opponent's score as S tanh(m / S). With
 * p.rollout_depth = D > 0 a rollout stops after D of seat's turns (each
 * after the opponent's, racing), and a sheet still playing counts its
 * fitted forecast instead of its final score: the score now plus
 * tetrollai_fitted (the set for the game's players) times its features.
 * Played in rounds of TETROLLAI_ROLLOUT_ROUND rollouts of
 * every candidate; no round starts once the move has valued more than
 * rollout_cap sheets (> 0), and every candidate is valued by the same
 * rounds. Not stopped by the eval cap. Past ai->deadline (> 0) no round
 * starts, and a round after the first that is under way is dropped
 * before its next candidate: every candidate keeps the rounds all played.
 * With p.rollout_prune = z > 0 (and no rollout_risk), after each round
 * from the second a candidate whose mean difference to the leader (the
 * best mean), rollout by rollout, is below 0 by more than z standard
 * errors plays no more; the budget of n x p.rollouts in all is shared out
 * among the rest (at most 4 x p.rollouts or TETROLLAI_MAX_PLAYED each),
 * and the rounds stop when one is left. Those that played every round are
 * valued by their mean; one dropped by the best of those's mean plus its
 * own mean difference to it over the rollouts both played. OUT:
 * value[0..n).
 */
void tetrollai_rollout_values(TetrollAi *ai, const TetrollState *s, int seat, const TetrollState *const *cand, int n,
			      double *value);

#endif
