/*
 * matrixai: the Main Match AI. See matrixai.h for the method; start
 * reading at matrixai_choose().
 */
#include "matrixai.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "botlevel.h"
#include "variants.h"

#define NEXT_KEEP 8	/* our placements looked at two rounds deep */

/*
 * Tuned in the arena against six copies of the first version
 * (matrixai_first; the fair share of wins is 1/7 = 0.143), 500-1000
 * seeded games per setting: a flatter opponent model (softmax temperature
 * 1 -> 2 -> 4: win rate 0.138 -> 0.208 -> 0.219) and a rougher-surface
 * penalty (bumpy 0.04 -> 0.1 -> 0.2 with temperature 4: 0.219 -> 0.282 ->
 * 0.292) pay; ignoring the rows the others may complete is a disaster
 * (0.042). Inference of the others' pieces (0.298 against 0.292) and end
 * play (0.290) measured no better, so they stay off. Issue 17: the next
 * piece (0.2) and the level-1 sampled model (docs/ai/matrix.md has the figures).
 */
const MatrixAiWeights matrixai_default = {1.0, 5.0, 3.0, 0.2, 0.02, false, false, true, 4.0, 1.0,
					  0.2, 0.8, 32, 0, 1};

const MatrixAiWeights matrixai_level1 = {1.0, 5.0, 3.0, 0.2, 0.02, false, false, true, 4.0, 1.0,
					 0.2, 0.8, 32, 0, 0};

const MatrixAiWeights matrixai_frozen = {1.0, 5.0, 3.0, 0.2, 0.02, false, false, true, 4.0, 1.0,
					 0, 0, 0, 0, 0};

const MatrixAiWeights matrixai_first = {1.0, 5.0, 3.0, 0.04, 0.02, false, false, true, 1.0, 1.0,
					0, 0, 0, 0, 0};

MatrixAiWeights matrixai_level(int level)
{
	static const double noise[BOTLEVEL_MAX + 1] = {0, MATRIXAI_NOISE1, MATRIXAI_NOISE2, MATRIXAI_NOISE3,
							MATRIXAI_NOISE4, 0};

	if (level < BOTLEVEL_MIN || level > BOTLEVEL_MAX)
		level = BOTLEVEL_DEFAULT;
	MatrixAiWeights w = level == BOTLEVEL_MAX ? matrixai_default : matrixai_frozen;
	w.noise = noise[level];
	if (level == BOTLEVEL_MIN)
		w.rowprob = 0;	/* level 1 does not see the rows the others may complete */
	return w;
}

/* ---- opponent model ------------------------------------------------- */

void matrixai_beliefs_init(MatrixAiBeliefs *b)
{
	memset(b, 0, sizeof(*b));
	b->my_last = -1;
}

/*
 * Note the pieces the last round's placements showed: each seat gets every
 * piece once per block, so a piece shown in this block will not come again
 * before the next one.
 */
static void beliefs_observe(MatrixAiBeliefs *b, const MatrixState *s)
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
static void piece_weights(const MatrixState *s, const MatrixAiBeliefs *b, int me, int my_last,
			  bool infer, double w[MATRIX_MAX_PLAYERS][PIECE_COUNT])
{
	static Enum e;
	int mine = matrix_piece(s, me);
	MatrixAiBeliefs none;

	if (!infer) {
		/* Only: not our piece, not the seat's last one. */
		matrixai_beliefs_init(&none);
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
			e.last[q] = my_last;
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

#define L1_MISS 0.2	/* how often a level-1 player strays from its choice */

/* The chance seat q plays its level-1 choice: w->level1, as learnt. */
static double level1_weight(const MatrixAiBeliefs *b, int q, const MatrixAiWeights *w)
{
	double p = w->level1 < 0.001 ? 0.001 : w->level1 > 0.999 ? 0.999 : w->level1;

	return 1.0 / (1.0 + exp(-(log(p / (1 - p)) + b->l1_log_odds[q])));
}

/*
 * The chances that seat q plays its level-1 choice (*p1) and its level-2
 * choice (*p2), else as level 0: a posterior over the three kinds of
 * player from the prior (w->level1 split evenly between levels 1 and 2
 * when w->level2) and the likelihood ratios learnt against level 0. With
 * level 2 off, *p1 is level1_weight() and *p2 is 0.
 */
static void model_shares(const MatrixAiBeliefs *b, int q, const MatrixAiWeights *w, double *p1,
			 double *p2)
{
	double p = w->level1 < 0.001 ? 0.001 : w->level1 > 0.999 ? 0.999 : w->level1;

	if (!w->level2) {
		*p1 = level1_weight(b, q, w);
		*p2 = 0;
		return;
	}
	double a1 = 0.5 * p * exp(b->l1_log_odds[q]), a2 = 0.5 * p * exp(b->l2_log_odds[q]);
	double tot = (1 - p) + a1 + a2;
	*p1 = a1 / tot;
	*p2 = a2 / tot;
}

/* A prediction's hit or miss, learnt into *log_odds: a player of that
 * level plays its choice, else (L1_MISS) as level 0, p0 the chance of the
 * move played under level 0. */
static void learn_hit(double *log_odds, bool hit, double p0)
{
	*log_odds += log(hit ? (1 - L1_MISS + L1_MISS * p0) / p0 : L1_MISS);
	*log_odds = *log_odds > 8 ? 8 : *log_odds < -8 ? -8 : *log_odds;
}

static double greedy_weight(const MatrixAiBeliefs *b, int seat)
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
static void beliefs_update(MatrixAiBeliefs *b, const MatrixState *now, int me, const MatrixAiWeights *w)
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
			double g = greedy_weight(b, q);
			double lr = log((prob[i] + 1e-9) * n);
			double p0 = g * prob[i] + (1 - g) / n + 1e-9;
			Move pred = b->predicted[q][placed[0].kind];
			Move pred2 = b->predicted2[q][placed[0].kind];
			if (pred)
				learn_hit(&b->l1_log_odds[q], pred == matrix_move(&pos[i]), p0);
			if (pred2)
				learn_hit(&b->l2_log_odds[q], pred2 == matrix_move(&pos[i]), p0);
			b->log_odds[q] += lr;
			if (b->log_odds[q] > 8)
				b->log_odds[q] = 8;
			if (b->log_odds[q] < -8)
				b->log_odds[q] = -8;
		}
	}
}

/* Per piece kind, on the board of one decision: what the level-0 model needs. */
typedef struct {
	int n[PIECE_COUNT];					/* legal placements */
	SrsPos pos[PIECE_COUNT][SRS_MAX_LANDINGS];
	double prob[PIECE_COUNT][SRS_MAX_LANDINGS];		/* the greedy policy */
	double uni[PIECE_COUNT][BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];	/* cover, uniform */
	double gre[PIECE_COUNT][BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];	/* cover, greedy */
} KindMaps;

/* OUT *km: every kind's placements on s and their coverage under both policies. */
static void kind_maps(const MatrixState *s, const MatrixAiWeights *w, KindMaps *km)
{
	for (int k = 0; k < PIECE_COUNT; k++) {
		int n = matrix_placements(s, (PieceKind)k, km->pos[k]);
		km->n[k] = n;
		memset(km->uni[k], 0, sizeof(km->uni[k]));
		memset(km->gre[k], 0, sizeof(km->gre[k]));
		if (n > 0)
			greedy_policy(&s->board, s->height, km->pos[k], n, w->temp, km->prob[k]);
		for (int i = 0; i < n; i++) {
			int cx[4], cy[4];
			srs_cells(&km->pos[k][i], cx, cy);
			for (int c = 0; c < 4; c++) {
				km->uni[k][cy[c]][cx[c]] += 1.0 / n;
				km->gre[k][cy[c]][cx[c]] += km->prob[k][i];
			}
		}
	}
}

/*
 * OUT cover[y][x]: the probability that at least one other active player
 * covers the cell this round, for seat `me` (whose last piece was
 * my_last), and wq[q][k] the chance seat q holds piece k.
 */
static void opponent_coverage(const MatrixState *s, const MatrixAiBeliefs *b, int me, int my_last,
			      const MatrixAiWeights *w, const KindMaps *km,
			      double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH],
			      double wq[MATRIX_MAX_PLAYERS][PIECE_COUNT])
{
	double miss[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];

	piece_weights(s, b, me, my_last, w->infer, wq);
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
			for (int y = 0; y < s->board.height; y++)
				for (int x = 0; x < s->width; x++)
					qcov[y][x] += pw[k] * (g * km->gre[k][y][x] + (1 - g) * km->uni[k][y][x]);
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
		       double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH], const MatrixAiWeights *w)
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
 * The two-round lookahead: the NEXT_KEEP placements best by val[] gain
 * w->next times the value of our next piece's best placement on the board
 * our piece leaves (the others' pieces of this round unknown, their cover
 * of next round taken to be this round's). IN/OUT: val[].
 */
static void lookahead(const MatrixState *s, int me, const SrsPos *pos, int n, double *val,
		      PieceKind k2, double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH],
		      const MatrixAiWeights *w)
{
	static SrsPos pos2[SRS_MAX_LANDINGS];
	static MatrixState t;
	static int order[SRS_MAX_LANDINGS];
	int keep = n < NEXT_KEEP ? n : NEXT_KEEP;

	for (int i = 0; i < n; i++) {
		int j = i;
		while (j > 0 && val[order[j - 1]] < val[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (int r = 0; r < keep; r++) {
		int i = order[r];
		Move m = matrix_move(&pos[i]);
		MatrixOutcome o;

		t = *s;
		matrix_resolve(&s->board, s->height, 1, &m, &o, &t.board);
		if (o.above)
			continue;	/* the game ends: nothing next */
		int n2 = matrix_placements(&t, k2, pos2);
		double best = n2 ? -1e18 : -w->hole;
		for (int j = 0; j < n2; j++) {
			double v2 = evaluate(&t, me, &pos2[j], cover, w);
			if (v2 > best)
				best = v2;
		}
		val[i] += w->next * best;
	}
	/* The rest, not looked at twice, are out. */
	for (int r = keep; r < n; r++)
		val[order[r]] = -1e17;
}

#define MAX_SAMPLES 64

static double uniform01(Rng *rng)
{
	return (double)(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * Level 1: the index in km->pos[k] of the placement seat q would choose
 * holding piece k if it reasoned as this AI does at level 0 with no
 * lookahead (w0), -1 when k has none. Ties go to the first.
 */
static int level1_choice(const MatrixState *s, const MatrixAiBeliefs *b, int me, int q, int k,
			 const MatrixAiWeights *w0, const KindMaps *km)
{
	static MatrixState t;
	static MatrixAiBeliefs bq;
	static double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];
	double wq[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	int pick = -1;
	double best = -1e18;

	if (km->n[k] == 0)
		return -1;
	t = *s;
	t.held[q][0] = (int8_t)k;
	t.nheld[q] = 1;
	/* Seat q's view: we look to it as greedy as the others look to us. */
	bq = *b;
	double sum = 0;
	int others = 0;
	for (int p = 0; p < s->nplayers; p++)
		if (p != me && !(s->retired >> p & 1u)) {
			sum += b->log_odds[p];
			others++;
		}
	bq.log_odds[me] = others ? sum / others : 0;
	/* As the frozen AI reads its deal constraint: its piece as its last. */
	opponent_coverage(&t, &bq, q, k, w0, km, cover, wq);
	for (int i = 0; i < km->n[k]; i++) {
		double v = evaluate(&t, q, &km->pos[k][i], cover, w0);
		if (v > best + 1e-9) {
			best = v;
			pick = i;
		}
	}
	return pick;
}

/*
 * Level 2: the move seat q plays holding piece k if it is this AI at
 * matrixai_level1 (level 1, sampled), from q's view of s: q's piece is
 * k, ours and every other seat's unknown; q sees the others as greedy as
 * we see them, and us as greedy as the others on average (level1_choice
 * does the same); it learns nothing here, and it does not know its next
 * piece. Its samples are drawn from a generator seeded from rng, so the
 * prediction is a function of our state. Calls matrixai_choose, whose
 * scratch tables it overwrites: call it before filling them.
 */
static Move level2_choice(const MatrixState *s, const MatrixAiBeliefs *b, int me, int q, int k, Rng *rng)
{
	static MatrixState t;
	static MatrixAiBeliefs bq;
	MatrixAiWeights wq = matrixai_level1;
	Rng rq;

	t = *s;
	for (int r = s->round; r < s->round + 2; r++) {
		t.deal[r % MATRIX_DEAL_SPAN][me] = -1;
		t.deal[r % MATRIX_DEAL_SPAN][q] = -1;
	}
	t.deal[s->round % MATRIX_DEAL_SPAN][q] = (int8_t)k;
	t.nheld[me] = 0;
	t.held[q][0] = (int8_t)k;
	t.nheld[q] = 1;
	bq = *b;
	bq.have_prev = false;
	bq.my_last = -1;
	double sum = 0, sum1 = 0;
	int others = 0;
	for (int p = 0; p < s->nplayers; p++)
		if (p != me && !(s->retired >> p & 1u)) {
			sum += b->log_odds[p];
			sum1 += b->l1_log_odds[p];
			others++;
		}
	bq.log_odds[me] = others ? sum / others : 0;
	bq.l1_log_odds[me] = others ? sum1 / others : 0;
	wq.learn = false;
	rng_seed(&rq, rng_next(rng));
	return matrixai_choose(&t, q, &bq, &wq, &rq);
}

/*
 * OUT joint[t][q] for t < w->samples: rounds of the others drawn from the
 * model (0 for us and for seats out or without a placement): seat q's
 * piece from wq (distinct pieces in one draw), its placement the level-1
 * choice l1[q][k] with the seat's learnt level-1 chance, else greedy
 * with its learnt greediness, else uniform.
 */
static void sample_rounds(const MatrixState *s, const MatrixAiBeliefs *b, int me,
			  const MatrixAiWeights *w, const KindMaps *km,
			  double wq[MATRIX_MAX_PLAYERS][PIECE_COUNT],
			  int l1[MATRIX_MAX_PLAYERS][PIECE_COUNT],
			  int l2[MATRIX_MAX_PLAYERS][PIECE_COUNT], Rng *rng,
			  Move joint[][MATRIX_MAX_PLAYERS])
{
	int mine = matrix_piece(s, me);

	for (int t = 0; t < w->samples; t++) {
		unsigned used = mine >= 0 ? 1u << mine : 0;
		for (int q = 0; q < s->nplayers; q++) {
			joint[t][q] = 0;
			if (q == me || (s->retired >> q & 1u))
				continue;
			double tot = 0;
			for (int k = 0; k < PIECE_COUNT; k++)
				tot += used >> k & 1u ? 0 : wq[q][k];
			bool any = tot <= 1e-12;	/* every piece it may hold is drawn: allow them */
			if (any)
				for (int k = 0; k < PIECE_COUNT; k++)
					tot += wq[q][k];
			if (tot <= 1e-12)
				continue;
			double u = uniform01(rng) * tot;
			int k = -1;
			for (int j = 0; j < PIECE_COUNT && k < 0; j++) {
				double pj = !any && (used >> j & 1u) ? 0 : wq[q][j];
				if (u < pj)
					k = j;
				u -= pj;
			}
			if (k < 0) {
				for (int j = PIECE_COUNT - 1; j >= 0 && k < 0; j--)
					if (wq[q][j] > 0 && (any || !(used >> j & 1u)))
						k = j;
			}
			used |= 1u << k;
			int n = km->n[k];
			if (n == 0)
				continue;
			double p1, p2;
			model_shares(b, q, w, &p1, &p2);
			int idx;
			double r = l1[q][k] >= 0 || l2[q][k] >= 0 ? uniform01(rng) : 1;
			if (l2[q][k] >= 0 && r < p2) {
				idx = l2[q][k];
			} else if (l1[q][k] >= 0 && r - p2 < p1) {
				idx = l1[q][k];
			} else if (uniform01(rng) < greedy_weight(b, q)) {
				double v = uniform01(rng);
				idx = n - 1;
				for (int i = 0; i < n; i++) {
					if (v < km->prob[k][i]) {
						idx = i;
						break;
					}
					v -= km->prob[k][i];
				}
			} else {
				idx = (int)rng_below(rng, (uint32_t)n);
			}
			joint[t][q] = matrix_move(&km->pos[k][idx]);
		}
	}
}

/*
 * The value of each of our placements on the sampled rounds: our score
 * change with everyone's pieces resolved, less the surface terms. OUT:
 * val[].
 */
static void sampled_values(const MatrixState *s, int me, const SrsPos *pos, int n,
			   const MatrixAiWeights *w, Move joint[][MATRIX_MAX_PLAYERS], double *val)
{
	MatrixOutcome out[MATRIX_MAX_PLAYERS];
	Move moves[MATRIX_MAX_PLAYERS];

	for (int i = 0; i < n; i++) {
		Move m = matrix_move(&pos[i]);
		MatrixOutcome o;
		Board after;
		int bumpy, top;
		double sum = 0;

		for (int t = 0; t < w->samples; t++) {
			memcpy(moves, joint[t], sizeof(moves));
			moves[me] = m;
			matrix_resolve(&s->board, s->height, s->nplayers, moves, out, NULL);
			sum += out[me].delta;
		}
		matrix_resolve(&s->board, s->height, 1, &m, &o, &after);
		surface(&after, &bumpy, &top);
		val[i] = sum / w->samples - w->bumpy * bumpy - w->height * top;
	}
}

Move matrixai_choose(const MatrixState *s, int me, MatrixAiBeliefs *b, const MatrixAiWeights *w,
		     Rng *rng)
{
	static SrsPos pos[SRS_MAX_LANDINGS];
	static double cover[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];
	static KindMaps km;
	static double val[SRS_MAX_LANDINGS];
	static Move joint[MAX_SAMPLES][MATRIX_MAX_PLAYERS];
	double wq[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	int l1[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	PieceKind k = matrix_piece(s, me);
	double best = -1e18;
	int n, pick = -1, ties = 0;

	if (w->learn)
		beliefs_update(b, s, me, w);
	beliefs_observe(b, s);
	b->prev = *s;
	b->have_prev = true;
	memset(b->predicted, 0, sizeof(b->predicted));
	memset(b->predicted2, 0, sizeof(b->predicted2));
	if (k == PIECE_NONE)
		return 0;
	b->my_last = (int8_t)k;
	/* Level 2: each seat's choice for each piece it may hold, first (it
	 * runs this function from their seats, over its scratch tables). */
	static Move l2move[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	int l2[MATRIX_MAX_PLAYERS][PIECE_COUNT];
	bool level2 = w->level2 && w->level1 > 0 && w->samples > 0;
	if (level2) {
		MatrixAiBeliefs keep = *b;
		kind_maps(s, w, &km);
		opponent_coverage(s, b, me, k, w, &km, cover, wq);
		for (int q = 0; q < s->nplayers; q++)
			for (int j = 0; j < PIECE_COUNT; j++)
				l2move[q][j] = q == me || (s->retired >> q & 1u) || wq[q][j] < 1e-9
						       ? 0 : level2_choice(s, &keep, me, q, j, rng);
	}
	n = matrix_placements(s, k, pos);
	if (n == 0)
		return 0;
	kind_maps(s, w, &km);
	/* As frozen: the deal constraint reads our current piece as our last. */
	opponent_coverage(s, b, me, k, w, &km, cover, wq);
	int samples = w->samples < MAX_SAMPLES ? w->samples : MAX_SAMPLES;
	if (samples > 0) {
		MatrixAiWeights w0 = *w;
		w0.next = 0;
		w0.level1 = 0;
		w0.samples = 0;
		for (int q = 0; q < s->nplayers; q++)
			for (int j = 0; j < PIECE_COUNT; j++) {
				l1[q][j] = l2[q][j] = -1;
				if (w->level1 <= 0 || q == me || (s->retired >> q & 1u) || wq[q][j] < 1e-9)
					continue;
				l1[q][j] = level1_choice(s, b, me, q, j, &w0, &km);
				if (l1[q][j] >= 0)
					b->predicted[q][j] = matrix_move(&km.pos[j][l1[q][j]]);
				/* Level 2's choice, as an index into the placements. */
				for (int i = 0; level2 && l2move[q][j] && i < km.n[j] && l2[q][j] < 0; i++)
					if (matrix_move(&km.pos[j][i]) == l2move[q][j])
						l2[q][j] = i;
				if (l2[q][j] >= 0)
					b->predicted2[q][j] = l2move[q][j];
			}
		w0 = *w;
		w0.samples = samples;
		sample_rounds(s, b, me, &w0, &km, wq, l1, l2, rng, joint);
		sampled_values(s, me, pos, n, &w0, joint, val);
	} else {
		for (int i = 0; i < n; i++)
			val[i] = evaluate(s, me, &pos[i], cover, w);
	}
	PieceKind k2 = w->next > 0 ? matrix_next_piece(s, me) : PIECE_NONE;
	if (k2 != PIECE_NONE)
		lookahead(s, me, pos, n, val, k2, cover, w);
	for (int i = 0; i < n; i++) {
		double v = val[i];
		if (w->noise > 0)
			v += w->noise * ((double)rng_below(rng, 2001) / 1000.0 - 1.0);
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
