/*
 * bot-matrix: an AI for the Main Match (variant `matrix`), and an arena
 * that plays it in-process against random players or copies of itself.
 *
 * How it works. Each round every player places one piece on the same
 * board, and a cell scores only if nobody else covers it. So the bot first
 * predicts where the others will go (opponent_coverage): the pieces they
 * may hold follow from the deal rules (all distinct from ours, none
 * repeating its holder's last piece; optionally, piece_weights() counts
 * every deal that keeps all the rules); for each such piece it lists every
 * legal placement and mixes two policies, uniform (a random player) and a
 * softmax over a one-piece greedy score (a sensible player). How much each
 * opponent looks greedy is learnt during the game from their placements
 * (beliefs_update, a Bayesian log-odds per seat). The result is, per cell,
 * the probability that someone else covers it. Then each of our own
 * placements is valued (evaluate): expected unique cells, +5 for every row
 * our piece clears for sure, +5 times the chance that the others complete
 * a row we sit in, -3 if we touch a hole after the clear, and a little
 * for keeping the surface flat and low (optionally, end_value() weighs
 * ending the game when our move would end it). The best placement is
 * played; ties are broken by the bot's Rng mixed with its seat.
 *
 * Start reading at choose(). Two front ends share it: by default the bot
 * speaks the protocol (protocol.md) through botio (bots/botio.h); with
 * `--arena GAMES` it plays whole games in this process instead, the AI
 * against random players, copies of itself or its first version (quick
 * A/B measurements, scripts/matrix-report.sh -a), and re-verifies each
 * game by replaying its recorded moves through the variant table. Its
 * summary ends with a signature, a hash of every move of every game: for
 * a given command line it changes only when the rules or the AI's play
 * change (the determinism check of t7001).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botio.h"
#include "matrixsocial.h"
#include "matrix.h"
#include "rng.h"
#include "variants.h"

/* ---- weights ---------------------------------------------------------- */

typedef struct {
	double unique;	/* weight of an expected unique cell */
	double row;	/* points per cleared row */
	double hole;	/* the hole penalty */
	double bumpy;	/* per unit of surface roughness after the move */
	double height;	/* per row of the highest column after the move */
	bool infer;	/* infer the others' pieces from the deal rules */
	bool end;	/* weigh ending the game when our move ends it */
	bool learn;	/* learn each opponent's greediness */
	double temp;	/* softmax temperature of the greedy opponent model */
	double rowprob;	/* weight of rows the others may complete */
} Weights;

/*
 * Tuned in the arena against six copies of the first version
 * (baseline_weights; the fair share of wins is 1/7 = 0.143), 500-1000
 * seeded games per setting: a flatter opponent model (softmax temperature
 * 1 -> 2 -> 4: win rate 0.138 -> 0.208 -> 0.219) and a rougher-surface
 * penalty (bumpy 0.04 -> 0.1 -> 0.2 with temperature 4: 0.219 -> 0.282 ->
 * 0.292) pay; ignoring the rows the others may complete is a disaster
 * (0.042). Inference of the others' pieces (0.298 against 0.292) and end
 * play (0.290) measured no better, so they stay off (`--infer`, `--end`
 * in the arena); against random players every setting wins about 90%.
 */
static const Weights default_weights = {1.0, 5.0, 3.0, 0.2, 0.02, false, false, true, 4.0, 1.0};

/* The first version, for comparisons (`--arena ... --versus`). */
static const Weights baseline_weights = {1.0, 5.0, 3.0, 0.04, 0.02, false, false, true, 1.0, 1.0};

/* ---- opponent model ------------------------------------------------- */

typedef struct {
	double log_odds[MATRIX_MAX_PLAYERS];	/* greedy versus random, per seat */
	bool have_prev;
	MatrixState prev;			/* the state of the last decision */
	/* Pieces each seat has shown (placed) in the current block of 7. */
	int block;				/* round / DEAL_BLOCK they belong to */
	uint8_t shown[MATRIX_MAX_PLAYERS];
	int8_t my_last;				/* our piece last round, -1 */
} Beliefs;

static void beliefs_init(Beliefs *b)
{
	memset(b, 0, sizeof(*b));
	b->my_last = -1;
}

/*
 * Note the pieces the last round's placements showed: each seat gets every
 * piece once per block, so a piece shown in this block will not come again
 * before the next one.
 */
static void beliefs_observe(Beliefs *b, const MatrixState *s)
{
	int block = s->round / DEAL_BLOCK;

	if (block != b->block) {
		b->block = block;
		memset(b->shown, 0, sizeof(b->shown));
	}
	if (s->round == 0 || (s->round - 1) / DEAL_BLOCK != block)
		return;
	for (int q = 0; q < s->nplayers; q++) {
		SrsPos last[MATRIX_MAX_HELD];
		if (matrix_move_positions(s->last_move[q], last) == 1)
			b->shown[q] |= (uint8_t)(1u << last[0].kind);
	}
}

typedef struct {
	int n, me, mine;
	int last[MATRIX_MAX_PLAYERS];		/* last round's piece, -1 unknown */
	unsigned allowed[MATRIX_MAX_PLAYERS];	/* kinds a seat may hold now */
	int pick[MATRIX_MAX_PLAYERS];
	double count[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	double total;
	long budget;
} Enum;

/* Count the deals of the others' pieces that keep every rule we can check. */
static void enumerate(Enum *e, int q, unsigned used)
{
	if (e->budget-- <= 0)
		return;
	if (q == e->n) {
		for (int p = 0; p < e->n; p++)
			if (p != e->me && e->pick[p] >= 0)
				e->count[p][e->pick[p]] += 1;
		e->total += 1;
		return;
	}
	if (q == e->me || !e->allowed[q]) {
		e->pick[q] = q == e->me ? e->mine : -1;
		enumerate(e, q + 1, used);
		return;
	}
	for (int k = 0; k < PIECE_COUNT; k++) {
		if (!(e->allowed[q] >> k & 1u) || (used >> k & 1u))
			continue;
		/* No swap with a seat already decided (ourselves included). */
		bool swap = false;
		for (int p = 0; p < e->n; p++)
			if ((p < q || p == e->me) && e->last[p] >= 0 && e->last[q] >= 0 && e->pick[p] == e->last[q] &&
			    k == e->last[p])
				swap = true;
		if (swap)
			continue;
		e->pick[q] = k;
		enumerate(e, q + 1, used | 1u << k);
	}
}

/*
 * OUT w[q][k]: the chance that seat q holds piece k now, from the deal
 * rules: pieces differ within a round, nobody repeats their last piece or
 * one shown earlier in the block, nobody swaps with anyone; every deal that
 * keeps them counts the same. Seats that cannot be reasoned about get
 * uniform weights over the pieces other than ours.
 */
static void piece_weights(const MatrixState *s, const Beliefs *b, int me, bool infer,
			  double w[MATRIX_MAX_PLAYERS][PIECE_COUNT])
{
	static Enum e;
	int mine = matrix_piece(s, me);
	Beliefs none;

	if (!infer) {
		/* Only: not our piece, not the seat's last one. */
		beliefs_init(&none);
		none.my_last = b->my_last;
		b = &none;
	}

	memset(&e, 0, sizeof(e));
	e.n = s->nplayers;
	e.me = me;
	e.mine = mine;
	e.budget = 200000;
	for (int q = 0; q < s->nplayers; q++) {
		SrsPos last[MATRIX_MAX_HELD];
		e.last[q] = matrix_move_positions(s->last_move[q], last) == 1 ? last[0].kind : -1;
		if (q == me)
			e.last[q] = b->my_last;
		if (s->round == 0)
			e.last[q] = -1;
		e.allowed[q] = 0;
		if (q == me || (s->retired >> q & 1u))
			continue;
		for (int k = 0; k < PIECE_COUNT; k++)
			if (k != mine && k != e.last[q] && !(b->shown[q] >> k & 1u))
				e.allowed[q] |= 1u << k;
	}
	/* Retired seats still hold a piece of the deal: they are not known. */
	e.pick[me] = mine;
	enumerate(&e, 0, mine >= 0 ? 1u << mine : 0);
	for (int q = 0; q < s->nplayers; q++) {
		double sum = 0;
		for (int k = 0; k < PIECE_COUNT; k++)
			sum += w[q][k] = e.total > 0 && e.budget > 0 ? e.count[q][k] : 0;
		if (sum > 0) {
			for (int k = 0; k < PIECE_COUNT; k++)
				w[q][k] /= sum;
			continue;
		}
		for (int k = 0; k < PIECE_COUNT; k++)
			w[q][k] = k == mine ? 0 : 1.0 / (PIECE_COUNT - 1);
	}
}

static double greedy_weight(const Beliefs *b, int seat)
{
	return 1.0 / (1.0 + exp(-b->log_odds[seat]));
}

/* The one-piece score a sensible player would give a placement. */
static double greedy_score(const Board *board, int height, const SrsPos *p)
{
	Move m = matrix_move(p);
	MatrixOutcome o;
	int x[4], y[4];
	double top = 0;

	matrix_resolve(board, height, 1, &m, &o, NULL);
	srs_cells(p, x, y);
	for (int i = 0; i < 4; i++)
		top += y[i];
	return o.delta - 0.05 * top;
}

/*
 * OUT prob[i]: the chance a greedy player picks placement i of n (softmax
 * of greedy_score). Returns the scores' normaliser (unused by callers).
 */
static void greedy_policy(const Board *board, int height, const SrsPos *pos, int n,
			  double temp, double *prob)
{
	double best = -1e9, sum = 0;

	for (int i = 0; i < n; i++) {
		prob[i] = greedy_score(board, height, &pos[i]);
		if (prob[i] > best)
			best = prob[i];
	}
	for (int i = 0; i < n; i++) {
		prob[i] = exp((prob[i] - best) / temp);
		sum += prob[i];
	}
	for (int i = 0; i < n; i++)
		prob[i] /= sum;
}

/* Learn from the last round: how likely was each placement under each policy. */
static void beliefs_update(Beliefs *b, const MatrixState *now, int me, const Weights *w)
{
	static SrsPos pos[SRS_MAX_LANDINGS];
	static double prob[SRS_MAX_LANDINGS];
	const MatrixState *prev = &b->prev;

	if (!b->have_prev || now->round != prev->round + 1)
		return;
	for (int q = 0; q < now->nplayers; q++) {
		SrsPos placed[MATRIX_MAX_HELD];
		if (q == me || matrix_move_positions(now->last_move[q], placed) != 1)
			continue;
		int n = matrix_placements(prev, (PieceKind)placed[0].kind, pos);
		if (n == 0)
			continue;
		greedy_policy(&prev->board, prev->height, pos, n, w->temp, prob);
		for (int i = 0; i < n; i++) {
			if (pos[i].rot != placed[0].rot || pos[i].x != placed[0].x ||
			    pos[i].y != placed[0].y)
				continue;
			double lr = log((prob[i] + 1e-9) * n);
			b->log_odds[q] += lr;
			if (b->log_odds[q] > 8)
				b->log_odds[q] = 8;
			if (b->log_odds[q] < -8)
				b->log_odds[q] = -8;
		}
	}
}

/*
 * OUT cover[y][x]: the probability that at least one other active player
 * covers the cell this round.
 */
static void opponent_coverage(const MatrixState *s, const Beliefs *b, int me, const Weights *w,
			      double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH])
{
	static SrsPos pos[SRS_MAX_LANDINGS];
	static double prob[SRS_MAX_LANDINGS];
	/* Per piece kind: coverage under the uniform and the greedy policy. */
	static double uni[PIECE_COUNT][BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];
	static double gre[PIECE_COUNT][BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];
	double miss[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];
	bool kind_done[PIECE_COUNT] = {false};
	double wq[MATRIX_MAX_PLAYERS][PIECE_COUNT];

	piece_weights(s, b, me, w->infer, wq);
	for (int y = 0; y < s->board.height; y++)
		for (int x = 0; x < s->width; x++)
			miss[y][x] = 1.0;
	for (int q = 0; q < s->nplayers; q++) {
		if (q == me || (s->retired >> q & 1u))
			continue;
		const double *pw = wq[q];
		double g = greedy_weight(b, q);
		double qcov[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH] = {{0}};
		for (int k = 0; k < PIECE_COUNT; k++) {
			if (pw[k] < 1e-9)
				continue;
			if (!kind_done[k]) {
				memset(uni[k], 0, sizeof(uni[k]));
				memset(gre[k], 0, sizeof(gre[k]));
				int n = matrix_placements(s, (PieceKind)k, pos);
				if (n > 0)
					greedy_policy(&s->board, s->height, pos, n, w->temp, prob);
				for (int i = 0; i < n; i++) {
					int cx[4], cy[4];
					srs_cells(&pos[i], cx, cy);
					for (int c = 0; c < 4; c++) {
						uni[k][cy[c]][cx[c]] += 1.0 / n;
						gre[k][cy[c]][cx[c]] += prob[i];
					}
				}
				kind_done[k] = true;
			}
			for (int y = 0; y < s->board.height; y++)
				for (int x = 0; x < s->width; x++)
					qcov[y][x] += pw[k] * (g * gre[k][y][x] + (1 - g) * uni[k][y][x]);
		}
		for (int y = 0; y < s->board.height; y++)
			for (int x = 0; x < s->width; x++)
				miss[y][x] *= 1.0 - (qcov[y][x] > 1 ? 1 : qcov[y][x]);
	}
	for (int y = 0; y < s->board.height; y++)
		for (int x = 0; x < s->width; x++)
			cover[y][x] = 1.0 - miss[y][x];
}

/* ---- our placement ---------------------------------------------------- */


/* Surface roughness and top of a board. */
static void surface(const Board *b, int *bumpy, int *top)
{
	int prev = -1;

	*bumpy = 0;
	*top = 0;
	for (int x = 0; x < b->width; x++) {
		int h = board_column_height(b, x);
		if (prev >= 0)
			*bumpy += abs(h - prev);
		if (h > *top)
			*top = h;
		prev = h;
	}
}

#define END_STAKE 30.0	/* the value of ending a game we lead (or not) */

/*
 * The value of the game ending after this round, when our move ends it
 * (a piece wholly above the matrix, or reaching the target): good when we
 * should still lead after everyone's gains; ending it by a piece above the
 * matrix when we would not lead is bad (reaching the target is not: the
 * others would soon reach it anyway).
 */
static double end_value(const MatrixState *s, int me, double my_gain, bool above)
{
	double best_other = -1e9;

	for (int q = 0; q < s->nplayers; q++)
		if (q != me && !(s->retired >> q & 1u) && s->score[q] > best_other)
			best_other = s->score[q];
	/* Another seat gains up to 4 cells, more with a clear: allow 5. */
	if (s->score[me] + my_gain > best_other + 5)
		return END_STAKE;
	return above ? -END_STAKE : 0;
}

/* The expected value of placing p, given the others' coverage. */
static double evaluate(const MatrixState *s, int me, const SrsPos *p,
		       double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH], const Weights *w)
{
	Move m = matrix_move(p);
	MatrixOutcome o;
	Board after;
	int x[4], y[4], bumpy, top;
	double v = 0;

	matrix_resolve(&s->board, s->height, 1, &m, &o, &after);
	srs_cells(p, x, y);
	for (int i = 0; i < 4; i++)
		v += w->unique * (1.0 - cover[y[i]][x[i]]);
	v += w->row * o.rows - w->hole * o.hole;
	/* Rows our piece sits in that the others may complete. */
	for (int i = 0; i < 4; i++) {
		bool seen = false;
		for (int j = 0; j < i; j++)
			seen |= y[j] == y[i];
		if (seen)
			continue;
		BoardRow row = s->board.rows[y[i]];
		for (int j = 0; j < 4; j++)
			if (y[j] == y[i])
				row = (BoardRow)(row | (1u << x[j]));
		BoardRow empty = (BoardRow)(board_full_row(s->width) & ~row);
		if (!empty || __builtin_popcount(empty) > 4)
			continue;
		double pr = 1;
		for (int c = 0; c < s->width; c++)
			if (empty >> c & 1u)
				pr *= cover[y[i]][c];
		v += w->rowprob * w->row * pr;
	}
	surface(&after, &bumpy, &top);
	if (w->end && (o.above || s->score[me] + v >= s->target))
		return v + end_value(s, me, v, o.above);
	v -= w->bumpy * bumpy + w->height * top;
	return v;
}

/*
 * The AI's decision for seat `me` in a place-stage state: the best of its
 * legal placements, ties broken by the Rng. Updates the beliefs. Returns 0
 * when it has no legal placement.
 */
static Move choose(const MatrixState *s, int me, Beliefs *b, const Weights *w, Rng *rng)
{
	static SrsPos pos[SRS_MAX_LANDINGS];
	static double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];
	PieceKind k = matrix_piece(s, me);
	double best = -1e18;
	int n, pick = -1, ties = 0;

	if (w->learn)
		beliefs_update(b, s, me, w);
	beliefs_observe(b, s);
	b->prev = *s;
	b->have_prev = true;
	if (k == PIECE_NONE)
		return 0;
	b->my_last = (int8_t)k;
	n = matrix_placements(s, k, pos);
	if (n == 0)
		return 0;
	opponent_coverage(s, b, me, w, cover);
	for (int i = 0; i < n; i++) {
		double v = evaluate(s, me, &pos[i], cover, w);
		if (v > best + 1e-9) {
			best = v;
			pick = i;
			ties = 1;
		} else if (v > best - 1e-9 && rng_below(rng, (uint32_t)++ties) == 0) {
			pick = i;
		}
	}
	return matrix_move(&pos[pick]);
}

/* A random player: a uniformly random legal placement. */
static Move choose_random(const MatrixState *s, int me, Rng *rng)
{
	static Move moves[SRS_MAX_LANDINGS];
	int n = variant_matrix.legal_moves(s, me, moves);

	return n ? moves[rng_below(rng, (uint32_t)n)] : 0;
}

/* ---- arena -------------------------------------------------------------- */

#define ARENA_MAX_LOG 20000

typedef struct {
	int8_t player;		/* seat, or VARIANT_CHANCE */
	Move move;		/* 0 with player >= 0: missed */
} LogEntry;

/*
 * Replay a game's log through the variant table from a fresh state: every
 * chance move drawn again from the seed, every placement legal. True when
 * the replay ends with the same scores.
 */
static bool verify(const VariantConfig *cfg, uint64_t seed, const LogEntry *log, int nlog,
		   const int *scores)
{
	static MatrixState s;
	static Move scratch[SRS_MAX_LANDINGS];
	Rng rng;
	int i = 0, out[MATRIX_MAX_PLAYERS];
	uint32_t mask;

	rng_seed(&rng, seed);
	variant_matrix.init(&s, cfg);
	while (variant_matrix.phase(&s, &mask) != VARIANT_PHASE_OVER) {
		if (i >= nlog)
			return false;
		if (variant_matrix.phase(&s, &mask) == VARIANT_PHASE_CHANCE) {
			if (log[i].player != VARIANT_CHANCE ||
			    log[i].move != variant_matrix.chance_sample(&s, &rng))
				return false;
			variant_matrix.apply(&s, VARIANT_CHANCE, log[i++].move);
			continue;
		}
		Move joint[MATRIX_MAX_PLAYERS] = {0};
		uint32_t sub = 0;
		for (int p = 0; p < cfg->nplayers; p++) {
			if (!(mask >> p & 1u))
				continue;
			if (i >= nlog || log[i].player != p)
				return false;
			if (log[i].move) {
				if (!variant_move_is_legal(&variant_matrix, &s, p, log[i].move, scratch))
					return false;
				joint[p] = log[i].move;
				sub |= 1u << p;
			}
			i++;
		}
		variant_matrix.apply_joint(&s, joint, sub);
	}
	variant_matrix.scores(&s, out);
	for (int p = 0; p < cfg->nplayers; p++)
		if (out[p] != scores[p])
			return false;
	return i == nlog;
}

typedef struct {
	int games;
	uint64_t seed;
	int players;
	bool self;		/* opponents are copies of the AI, not random */
	bool verify;
	bool show;		/* print the final board of each game */
	bool transcript;	/* print the protocol lines seat 0 would see */
	bool versus;		/* opponents are the baseline AI */
	Weights ai;		/* the AI under test */
	int target;		/* the target option, 0 for its default */
} Arena;

static int arena(const Arena *a)
{
	static MatrixState s;
	static LogEntry log[ARENA_MAX_LOG];
	static Beliefs beliefs[MATRIX_MAX_PLAYERS];
	static char text[1 << 16];
	VariantConfig cfg;
	double points = 0, wins = 0, rounds = 0;
	uint64_t signature = 1469598103934665603ULL;	/* FNV-1a over every game's moves */
	int verified = 0, ends[MATRIX_END_RETIRED + 1] = {0};

	variant_config_default(&variant_matrix, a->players, &cfg);
	if (a->target)
		cfg.opt[MATRIX_OPT_TARGET] = a->target;
	for (int g = 0; g < a->games; g++) {
		uint64_t seed = rng_derive(a->seed, "matrix-arena", (uint64_t)g);
		int ai = g % a->players;	/* the AI's seat rotates */
		Rng deal, play;
		uint32_t mask;
		int nlog = 0, scores[MATRIX_MAX_PLAYERS], rank[MATRIX_MAX_PLAYERS];

		rng_seed(&deal, seed);
		rng_seed(&play, rng_derive(seed, "play", 0));
		variant_matrix.init(&s, &cfg);
		for (int p = 0; p < a->players; p++)
			beliefs_init(&beliefs[p]);
		if (a->transcript) {
			printf("tetrarena 1\ngame %d variant=matrix seat=0 players=%d options=", g + 1,
			       a->players);
			for (int o = 0; o < MATRIX_OPT_COUNT; o++)
				printf("%s%s:%d", o ? "," : "", variant_matrix.options[o].key, cfg.opt[o]);
			printf(" time=bank:60000,inc:1000,move:5000,start:10000\n"
			       "hello bot-matrix 1.0 multi\n");
		}
		for (;;) {
			VariantPhase ph = variant_matrix.phase(&s, &mask);
			if (ph == VARIANT_PHASE_OVER || nlog + a->players + 1 > ARENA_MAX_LOG)
				break;
			if (ph == VARIANT_PHASE_CHANCE) {
				Move m = variant_matrix.chance_sample(&s, &deal);
				log[nlog++] = (LogEntry){VARIANT_CHANCE, m};
				variant_matrix.apply(&s, VARIANT_CHANCE, m);
				continue;
			}
			Move joint[MATRIX_MAX_PLAYERS] = {0};
			uint32_t sub = 0;
			for (int p = 0; p < a->players; p++) {
				if (!(mask >> p & 1u))
					continue;
				/* Each player decides on its own view of the state. */
				static MatrixState view;
				Text t;
				text_init(&t, text, sizeof(text));
				variant_matrix.state_format(&s, p, &t);
				if (t.overflow || !variant_matrix.state_parse(&view, &cfg, text)) {
					fprintf(stderr, "arena: state line does not parse\n");
					return 1;
				}
				if (p == ai || a->self)
					joint[p] = choose(&view, p, &beliefs[p], &a->ai, &play);
				else if (a->versus)
					joint[p] = choose(&view, p, &beliefs[p], &baseline_weights, &play);
				else
					joint[p] = choose_random(&view, p, &play);
				if (joint[p])
					sub |= 1u << p;
				log[nlog++] = (LogEntry){(int8_t)p, joint[p]};
				if (a->transcript && p == 0) {
					char mv[VARIANT_MOVE_TEXT_MAX];
					Text tm;
					text_init(&tm, mv, sizeof(mv));
					variant_matrix.move_format(&s, p, joint[p], &tm);
					printf("go 5000 %s\nmove %s\n", text, mv);
				}
			}
			variant_matrix.apply_joint(&s, joint, sub);
			for (int p = 0; a->transcript && p < a->players; p++) {
				char mv[VARIANT_MOVE_TEXT_MAX];
				Text tm;
				text_init(&tm, mv, sizeof(mv));
				variant_matrix.move_format(&s, p, joint[p], &tm);
				if (joint[p])
					printf("update %d %s\n", p, mv);
				else
					printf("update fault %d timeout\n", p);
			}
		}
		if (variant_matrix.phase(&s, &mask) != VARIANT_PHASE_OVER) {
			fprintf(stderr, "arena: game %d did not finish\n", g);
			return 1;
		}
		variant_matrix.scores(&s, scores);
		variant_matrix.ranking(&s, rank);
		for (int i = 0; i < nlog; i++)
			for (int k = 0; k < 8; k++)
				signature = (signature ^ ((log[i].move >> (8 * k)) & 0xff)) * 1099511628211ULL;
		if (a->verify) {
			if (!verify(&cfg, seed, log, nlog, scores)) {
				fprintf(stderr, "arena: game %d does not verify\n", g);
				return 1;
			}
			verified++;
		}
		ends[s.end]++;
		rounds += s.round;
		printf("game %d seed=%016llx ai=%d rounds=%d end=%s scores=", g,
		       (unsigned long long)seed, ai, s.round, matrix_end_name(s.end));
		for (int p = 0; p < a->players; p++)
			printf("%s%d", p ? "," : "", scores[p]);
		printf(" ranks=");
		for (int p = 0; p < a->players; p++)
			printf("%s%d", p ? "," : "", rank[p]);
		printf("\n");
		if (a->show) {
			Text t;
			text_init(&t, text, sizeof(text));
			variant_matrix.render(&s, false, &t);
			fputs(text, stdout);
		}
		points += scores[ai];
		if (rank[ai] == 1) {
			int tied = 0;
			for (int p = 0; p < a->players; p++)
				tied += rank[p] == 1;
			wins += 1.0 / tied;	/* a shared win counts its share */
		}
	}
	printf("summary games=%d players=%d opponents=%s mean_points=%.2f win_rate=%.3f "
	       "mean_rounds=%.1f ends=target:%d,above:%d,stuck:%d,rounds:%d verified=%d "
	       "signature=%016llx\n",
	       a->games, a->players, a->self ? "self" : a->versus ? "baseline" : "random",
	       points / a->games,
	       wins / a->games, rounds / a->games, ends[MATRIX_END_TARGET],
	       ends[MATRIX_END_ABOVE], ends[MATRIX_END_STUCK], ends[MATRIX_END_ROUNDS],
	       verified, (unsigned long long)signature);
	return 0;
}

/* ---- protocol ------------------------------------------------------------ */

/* botio's start hook: matrix only; a fresh memory for every game. */
static const char *protocol_start(const Variant *v, const VariantConfig *cfg, int seat,
				  void *ctx)
{
	(void)cfg;
	(void)seat;
	if (v != &variant_matrix)
		return "this bot plays only matrix";
	beliefs_init(ctx);
	return NULL;
}

static Move protocol_choose(const Variant *v, const void *state, int seat, int ms_left,
			    Rng *rng, void *ctx)
{
	Rng own;

	(void)v;
	(void)ms_left;
	/*
	 * Ties are common (an O's four states, mirror images): copies of this
	 * bot started with the same seed must not break them alike, or they
	 * pile onto the same cells. Mix the seat into the tie-breaking.
	 */
	rng_seed(&own, rng_next(rng) ^ rng_derive((uint64_t)seat, "matrix-seat", 0));
	const MatrixState *s = state;
	if (s->stage == MATRIX_STAGE_PLACE && s->nheld[seat] != 1) {
		/* Several pieces (or none) after trades and gifts (matrixsocial.h). */
		Move best;
		matrixsocial_value(s, seat, s->held[seat], s->nheld[seat], &best);
		return best;
	}
	return choose(state, seat, ctx, &default_weights, &own);
}

/* Bounded decimal from argv; exits with status 2 on a bad value. */
static long arg_long(const char *s, long lo, long hi)
{
	char *end = NULL;
	long v = strtol(s, &end, 0);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "bot-matrix: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bot-matrix [--no-talk]     play over the protocol on stdin/stdout\n"
		"                                  (--no-talk: no trades or gifts)\n"
		"       bot-matrix --arena GAMES [--seed N] [--players N] [--self]\n"
		"                  [--verify] [--show] [--transcript] [--target N] [--versus]\n"
		"                  [--infer] [--end] [--no-learn]\n"
		"  --arena plays GAMES in-process games: the AI against random players\n"
		"  (or, with --self, against copies of itself), its seat rotating, and\n"
		"  prints one line per game and a summary of the AI's points and wins.\n"
		"  --versus: the opponents are the first version of the AI.\n"
		"  --infer, --end, --no-learn: switch a feature of the AI under test.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	Arena a = {.seed = 1, .players = 7, .ai = default_weights};
	bool arena_mode = false;

	for (int i = 1; i < argc; i++)
		arena_mode |= strcmp(argv[i], "--arena") == 0;
	for (int i = 1; arena_mode && i < argc; i++) {
		if (strcmp(argv[i], "--arena") == 0 && i + 1 < argc) {
			a.games = (int)arg_long(argv[++i], 1, 1000000);
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			a.seed = (uint64_t)arg_long(argv[++i], 0, INT64_MAX);
		} else if (strcmp(argv[i], "--players") == 0 && i + 1 < argc) {
			a.players = (int)arg_long(argv[++i], 2, MATRIX_MAX_PLAYERS);
		} else if (strcmp(argv[i], "--self") == 0) {
			a.self = true;
		} else if (strcmp(argv[i], "--verify") == 0) {
			a.verify = true;
		} else if (strcmp(argv[i], "--show") == 0) {
			a.show = true;
		} else if (strcmp(argv[i], "--temp") == 0 && i + 1 < argc) {
			a.ai.temp = arg_long(argv[++i], 1, 1000) / 10.0;
		} else if (strcmp(argv[i], "--bumpy") == 0 && i + 1 < argc) {
			a.ai.bumpy = arg_long(argv[++i], 0, 1000) / 100.0;
		} else if (strcmp(argv[i], "--height") == 0 && i + 1 < argc) {
			a.ai.height = arg_long(argv[++i], 0, 1000) / 100.0;
		} else if (strcmp(argv[i], "--rowprob") == 0 && i + 1 < argc) {
			a.ai.rowprob = arg_long(argv[++i], 0, 1000) / 10.0;
		} else if (strcmp(argv[i], "--infer") == 0) {
			a.ai.infer = true;
		} else if (strcmp(argv[i], "--end") == 0) {
			a.ai.end = true;
		} else if (strcmp(argv[i], "--no-learn") == 0) {
			a.ai.learn = false;
		} else if (strcmp(argv[i], "--versus") == 0) {
			a.versus = true;
		} else if (strcmp(argv[i], "--transcript") == 0) {
			a.transcript = true;
		} else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
			a.target = (int)arg_long(argv[++i], 1, 999);
		} else {
			usage();
		}
	}
	if (arena_mode)
		return arena(&a);
	/* Protocol mode: botio does the lines (and --seed, --help). */
	static Beliefs beliefs;
	static MatrixSocial social;
	/* --no-talk (first argument): ignore the table talk, for comparisons. */
	bool talk = !(argc > 1 && strcmp(argv[1], "--no-talk") == 0);
	if (!talk) {
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	/* Unbuffered: the table talk polls the descriptor (matrixsocial.c). */
	setvbuf(stdin, NULL, _IONBF, 0);
	matrixsocial_init(&social);
	BotioSpec spec = {
		.name = "bot-matrix",
		.version = "1",
		.about = "The Main Match AI (matrix). With --arena GAMES: in-process games, see --arena --help.",
		.choose = protocol_choose,
		.start = protocol_start,
		.ctx = &beliefs,
		.side = talk ? matrixsocial_side : NULL,
		.side_ctx = &social,
	};
	return botio_main(&spec, argc, argv);
}
