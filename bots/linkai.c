/*
 * linkai: expectimax for Tetris Link. See linkai.h for the method.
 *
 * Values are in tenths of a point. The weights below were set by playing
 * the bot against bot-random and against its own depth-1 self with
 * `bin/bot-link --arena` (see bots/README.md for the numbers).
 */
#include "linkai.h"

#include "botclock.h"
#include "botlevel.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIN_BONUS 100000	/* a finished game outweighs any promise */
#define WIN_SCALE 50000		/* a sure win with LINKAI_W_SPREAD */

static const int weight_sets[][LINKAI_W_COUNT] = {
	/* fitted to who won in 2-player games by scripts/link-texel.py
	 * (docs/ai/link.md): each I left in the supply is worth most of a point */
	[LINKAI_WEIGHTS_FITTED] = {2, 5, 2, 4, 6, 0, 2, 50, 4, 9, 0, 0, 1, 1},
	/* set by hand and by paired games before them (issue 17) */
	[LINKAI_WEIGHTS_BEFORE] = {2, 6, 3, 4, 6, 0, 0, 50, 10, 0, 0, 0, 0, 0},
};

void linkai_init(LinkAi *ai)
{
	ai->depth = LINKAI_MAX_DEPTH;
	ai->root_deeper = LINKAI_ROOT_DEEPER;
	ai->hard_ms = 0;
	ai->deadline = 0;
	ai->out_of_time = false;
	ai->noise = 0;
	ai->opp_model = LINKAI_OPP_PARANOID;
	ai->mp_eval = LINKAI_MP_LEADER;
	linkai_use_weights(ai, LINKAI_WEIGHTS_FITTED);
	ai->nodes = 0;
}

void linkai_set_level(LinkAi *ai, int level)
{
	static const int depth[BOTLEVEL_MAX + 1] = {0, 1, 1, 1, 2, LINKAI_MAX_DEPTH};
	static const int noise[BOTLEVEL_MAX + 1] = {0, LINKAI_NOISE1, LINKAI_NOISE2, 0, 0, 0};

	if (level < BOTLEVEL_MIN || level > BOTLEVEL_MAX)
		level = BOTLEVEL_DEFAULT;
	ai->depth = depth[level];
	ai->noise = noise[level];
	linkai_use_weights(ai, level < BOTLEVEL_MAX ? LINKAI_WEIGHTS_BEFORE : LINKAI_WEIGHTS_FITTED);
}

void linkai_use_weights(LinkAi *ai, int set)
{
	memcpy(ai->w, weight_sets[set], sizeof(ai->w));
}

bool linkai_set_weights(LinkAi *ai, const char *list)
{
	int w[LINKAI_W_COUNT], n = 0;
	const char *p = list;

	memcpy(w, ai->w, sizeof(w));
	while (*p && n < LINKAI_W_COUNT) {
		char *end = NULL;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (errno || end == p || v < -1000 || v > 1000 || (*end && *end != ','))
			return false;
		w[n++] = (int)v;
		p = *end ? end + 1 : end;
	}
	if (*p || (n > 0 && w[LINKAI_W_LEFT] <= 0))
		return false;
	memcpy(ai->w, w, sizeof(w));
	return true;
}

static int root_of(const LinkState *s, int i)
{
	while (s->parent[i] != i)
		i = s->parent[i];
	return i;
}

static int pieces_left(const LinkState *s, int seat)
{
	int n = 0;

	for (int f = 0; f < LINK_SHAPES; f++)
		n += s->supply[seat][f];
	return n;
}

static bool is_active(const LinkState *s, int seat)
{
	return !(s->retired >> seat & 1u);
}

/*
 * The open cells along each group, in hundredths (a cell above a gap at
 * LINKAI_W_FLOAT percent), counted at the group's root piece. OUT: root[]
 * (each piece's root), open[].
 */
static void open_cells(const LinkAi *ai, const LinkState *s, int16_t *root, int *open)
{
	const int8_t *colh = s->colh;

	for (int i = 0; i < s->npieces; i++) {
		root[i] = (int16_t)root_of(s, i);
		open[i] = 0;
	}
	/*
	 * Column by column, the empty cells from the stack up to the last one
	 * beside a taller neighbour: higher cells touch no piece.
	 */
	for (int x = 0; x < s->width; x++) {
		int side = 0;
		if (x > 0)
			side = colh[x - 1];
		if (x + 1 < s->width && colh[x + 1] > side)
			side = colh[x + 1];
		int hi = side - 1 > colh[x] ? side - 1 : colh[x];
		if (hi > s->height - 1)
			hi = s->height - 1;
		for (int y = colh[x]; y <= hi; y++) {
			int seen[3], n = 0;
			/* A cell above a gap is filled only by leaving one (a penalty). */
			int worth = y == colh[x] ? 100 : ai->w[LINKAI_W_FLOAT];
			int nb[3] = {
				x > 0 ? s->cell[y][x - 1] : 0,
				x + 1 < s->width ? s->cell[y][x + 1] : 0,
				y > 0 ? s->cell[y - 1][x] : 0,
			};
			for (int k = 0; k < 3; k++) {
				if (!nb[k])
					continue;
				int r = root[nb[k] - 1];
				bool dup = false;
				for (int j = 0; j < n; j++)
					dup |= seen[j] == r;
				if (dup)
					continue;
				seen[n++] = r;
				open[r] += worth;
			}
		}
	}
}

/* Open cells of group i as counted: at most LINKAI_W_CAP, in hundredths. */
static int capped_open(const LinkAi *ai, const int *open, int i)
{
	return open[i] < 100 * ai->w[LINKAI_W_CAP] ? open[i] : 100 * ai->w[LINKAI_W_CAP];
}

static int shape_kinds(const LinkState *s, int seat)
{
	int kinds = 0;

	for (int f = 0; f < LINK_SHAPES; f++)
		kinds += s->supply[seat][f] > 0;
	return kinds;
}

/* Every seat's value: points scored and the promise of its groups. OUT: val[]. */
static void values(const LinkAi *ai, const LinkState *s, int *val)
{
	int16_t root[LINK_MAX_PIECES];
	int open[LINK_MAX_PIECES];	/* open cells, in hundredths */
	int pot[LINK_MAX_PLAYERS] = {0};

	open_cells(ai, s, root, open);
	for (int i = 0; i < s->npieces; i++) {
		if (root[i] != i)
			continue;
		int sz = s->size[i] >= 3 ? 3 : s->size[i];
		pot[s->piece[i].owner] += ai->w[LINKAI_W_OPEN1 + sz - 1] * capped_open(ai, open, i) / 100;
	}
	for (int p = 0; p < s->nplayers; p++) {
		int left = pieces_left(s, p);
		int full = ai->w[LINKAI_W_LEFT];
		int scale = left < full ? left : full;
		/* A shape gone from the supply skips every turn its face comes up. */
		val[p] = 10 * s->score[p] + pot[p] * scale / full + link_largest_group(s, p)
			 + ai->w[LINKAI_W_SHAPES] * shape_kinds(s, p);
		for (int k = 0; k < LINK_SHAPES; k++)
			val[p] += ai->w[LINKAI_W_SUPPLY + k] * s->supply[p][k];
	}
}

void linkai_features(const LinkAi *ai, const LinkState *s, double f[][LINKAI_F_COUNT])
{
	int16_t root[LINK_MAX_PIECES];
	int open[LINK_MAX_PIECES];

	open_cells(ai, s, root, open);
	for (int p = 0; p < s->nplayers; p++) {
		memset(f[p], 0, sizeof(f[p]));
		f[p][LINKAI_F_SCORE] = s->score[p];
		f[p][LINKAI_F_LEFT] = pieces_left(s, p);
		f[p][LINKAI_F_LARGEST] = link_largest_group(s, p);
		f[p][LINKAI_F_KINDS] = shape_kinds(s, p);
		for (int k = 0; k < LINK_SHAPES; k++)
			f[p][LINKAI_F_SUPPLY + k] = s->supply[p][k];
	}
	for (int i = 0; i < s->npieces; i++) {
		if (root[i] != i)
			continue;
		int sz = s->size[i] >= 3 ? 3 : s->size[i];
		f[s->piece[i].owner][LINKAI_F_OPEN1 + sz - 1] += capped_open(ai, open, i) / 100.0;
	}
}

/*
 * A margin of v tenths as a chance of winning, scaled to +-WIN_SCALE: the
 * margin still to come is taken as logistic with a spread of
 * LINKAI_W_SPREAD tenths per square root of the pieces the tower has room
 * for (a gap left under a piece is room gone). Chance nodes then average
 * chances of winning, not margins.
 */
int linkai_room(const LinkState *s)
{
	int room = 0;

	for (int x = 0; x < s->width; x++)
		room += s->height - s->colh[x];
	return room;
}

static double spread_of(const LinkAi *ai, const LinkState *s)
{
	return ai->w[LINKAI_W_SPREAD] * sqrt(linkai_room(s) / 4.0 + 1.0);
}

static int win_chance(const LinkAi *ai, const LinkState *s, int v)
{
	/* Plus the margin itself, tiny beside the chance: when the chance is
	 * sure either way, the margin still counts. */
	return (int)lround(WIN_SCALE * tanh(v / (2.0 * spread_of(ai, s)))) + v;
}

/* LINKAI_MP_EVERY: the chance of finishing ahead of each of the `n`
 * opponents' margins m[] (margin v shifted alike), multiplied, on
 * win_chance's scale (-WIN_SCALE lost for sure, +WIN_SCALE won), plus
 * the leader's margin v as the tie-break. */
static int win_chance_every(const LinkAi *ai, const LinkState *s, const int *m, int n, int v)
{
	double spread = spread_of(ai, s), p = 1.0;

	for (int i = 0; i < n; i++)
		p *= 0.5 * (1.0 + tanh(m[i] / (2.0 * spread)));
	return (int)lround(WIN_SCALE * (2.0 * p - 1.0)) + v;
}

/* linkai_evaluate with `shift` tenths added to the margin of an unfinished game. */
static int evaluate_shifted(const LinkAi *ai, const LinkState *s, int seat, int shift)
{
	int val[LINK_MAX_PLAYERS];
	int best_other = -WIN_BONUS * 10;

	if (s->stage == LINK_STAGE_OVER) {
		int rank[LINK_MAX_PLAYERS], scores[LINK_MAX_PLAYERS], best = -100000;
		bool shared = false;
		variant_link.ranking(s, rank);
		variant_link.scores(s, scores);
		for (int p = 0; p < s->nplayers; p++) {
			if (p != seat && scores[p] > best)
				best = scores[p];
			shared |= p != seat && rank[p] == 1;
		}
		int bonus = rank[seat] == 1 ? WIN_BONUS : -WIN_BONUS;
		if (ai->w[LINKAI_W_SPREAD] > 0)	/* on the win-chance scale; a tie is even */
			bonus = rank[seat] == 1 && shared ? 0 : bonus / 2;
		return bonus + 10 * (scores[seat] - best);
	}
	values(ai, s, val);
	for (int p = 0; p < s->nplayers; p++)
		if (p != seat && is_active(s, p) && val[p] > best_other)
			best_other = val[p];
	int v = val[seat] - best_other + shift;
	if (ai->w[LINKAI_W_BUMP]) {
		/* A ragged surface costs gaps to whoever places next. */
		int bump = 0;
		for (int x = 0; x + 1 < s->width; x++) {
			int d = s->colh[x] - s->colh[x + 1];
			bump += d < 0 ? -d : d;
		}
		v += (s->current == seat ? -1 : 1) * ai->w[LINKAI_W_BUMP] * bump / 4;
	}
	if (ai->w[LINKAI_W_SPREAD] <= 0)
		return v;
	/* each opponent's margin, shifted as the leader's was (shift, surface) */
	int m[LINK_MAX_PLAYERS], n = 0, sum = 0, extra = v - (val[seat] - best_other);
	if (ai->mp_eval != LINKAI_MP_LEADER)
		for (int p = 0; p < s->nplayers; p++)
			if (p != seat && is_active(s, p)) {
				m[n] = val[seat] - val[p] + extra;
				sum += m[n++];
			}
	if (n > 1 && ai->mp_eval == LINKAI_MP_EVERY)
		return win_chance_every(ai, s, m, n, v);
	if (n > 1 && ai->mp_eval == LINKAI_MP_FIELD)
		return win_chance(ai, s, sum / n);
	return win_chance(ai, s, v);
}

int linkai_evaluate(const LinkAi *ai, const LinkState *s, int seat)
{
	return evaluate_shifted(ai, s, seat, 0);
}

static double elapsed_ms(double since)
{
	return botclock_ms() - since;
}

/* Moves and their static values, best first for the one who picks. */
typedef LinkAiScored Scored;

/* Sort by value, descending when `max`, keeping legal_moves order among equals. */
static void sort_scored(Scored *a, int n, bool max)
{
	for (int i = 1; i < n; i++) {
		Scored x = a[i];
		int j = i;
		while (j > 0 && (max ? a[j - 1].value < x.value : a[j - 1].value > x.value)) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

static int chance_value(LinkAi *ai, const LinkState *s, int seat, int plies);

/*
 * The value for `seat` of s, where the current player places and `plies`
 * placements (this one included) are searched. The last placement is the
 * placer's best by their own evaluation; earlier ones look deeper at the
 * LINKAI_BEAM placements that look best now, maximising for `seat` and
 * minimising for anyone else.
 */
static int place_value(LinkAi *ai, const LinkState *s, int seat, int plies)
{
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	Scored sc[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int placer = s->current;
	int n = variant_link.legal_moves(s, placer, moves);

	if (n == 0)
		return linkai_evaluate(ai, s, seat);
	if (plies <= 1) {
		int best = 0, best_theirs = 0;
		for (int i = 0; i < n; i++) {
			LinkState t = *s;
			variant_link.apply(&t, placer, moves[i]);
			ai->nodes++;
			int theirs = linkai_evaluate(ai, &t, placer);
			if (i == 0 || theirs > best_theirs) {
				best_theirs = theirs;
				best = placer == seat ? theirs : linkai_evaluate(ai, &t, seat);
			}
		}
		return best;
	}
	/* Whose evaluation orders the placer's candidates. */
	bool own = placer != seat && ai->opp_model != LINKAI_OPP_PARANOID;
	for (int i = 0; i < n; i++) {
		LinkState t = *s;
		variant_link.apply(&t, placer, moves[i]);
		ai->nodes++;
		sc[i] = (Scored){moves[i], linkai_evaluate(ai, &t, own ? placer : seat)};
	}
	sort_scored(sc, n, placer == seat || own);
	int keep = n < LINKAI_BEAM ? n : LINKAI_BEAM, best = 0;
	if (own && ai->opp_model == LINKAI_OPP_MAXN)
		keep = 1;
	for (int i = 0; i < keep; i++) {
		LinkState t = *s;
		variant_link.apply(&t, placer, sc[i].move);
		int v = chance_value(ai, &t, seat, plies - 1);
		if (i == 0 || (placer == seat ? v > best : v < best))
			best = v;
	}
	return best;
}

/*
 * The expected value for `seat` of s, where the next player is about to
 * roll, searching `plies` more placements; a skipped turn uses one up.
 */
static int chance_value(LinkAi *ai, const LinkState *s, int seat, int plies)
{
	long sum = 0;

	if (s->stage != LINK_STAGE_ROLL || plies <= 0 || ai->out_of_time)
		return linkai_evaluate(ai, s, seat);
	if (ai->deadline > 0 && botclock_ms() > ai->deadline) {
		ai->out_of_time = true;
		return linkai_evaluate(ai, s, seat);
	}
	/* Every face that skips the turn leads on to the same position. */
	bool skip_known = false;
	int skip = 0;
	for (int f = 0; f <= LINK_FACE_LOGO; f++) {
		LinkState t = *s;
		variant_link.apply(&t, VARIANT_CHANCE, (Move)f);
		if (t.stage == LINK_STAGE_PLACE) {
			sum += place_value(ai, &t, seat, plies);
		} else {
			if (!skip_known)
				skip = chance_value(ai, &t, seat, plies - 1);
			skip_known = true;
			sum += skip;
		}
	}
	return (int)(sum / (LINK_FACE_LOGO + 1));
}

/*
 * The first pass: every legal placement of `seat`, two plies deep (one,
 * with the noise of weak levels, when `depth` < 2), best first. Keeps
 * whatever deadline is set. Returns the count.
 */
static int first_pass(LinkAi *ai, const LinkState *s, int seat, int depth, Rng *rng, Scored *out)
{
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int n = variant_link.legal_moves(s, seat, moves);

	for (int i = 0; i < n; i++) {
		LinkState t = *s;
		variant_link.apply(&t, seat, moves[i]);
		ai->nodes++;
		out[i] = (Scored){moves[i], depth >= 2 ? chance_value(ai, &t, seat, 1)
						   : evaluate_shifted(ai, &t, seat, botlevel_noise(rng, ai->noise))};
	}
	sort_scored(out, n, true);
	return n;
}

int linkai_rank(LinkAi *ai, const LinkState *s, int seat, LinkAiScored *out)
{
	ai->deadline = 0;
	ai->out_of_time = false;
	return first_pass(ai, s, seat, 2, NULL, out);
}

int linkai_analyse(LinkAi *ai, const LinkState *s, int seat, int depth, LinkAiScored *out)
{
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int n = variant_link.legal_moves(s, seat, moves);

	assert(depth >= 2 && depth <= LINKAI_MAX_DEPTH);
	ai->deadline = 0;
	ai->out_of_time = false;
	for (int i = 0; i < n; i++) {
		LinkState t = *s;
		variant_link.apply(&t, seat, moves[i]);
		ai->nodes++;
		out[i] = (LinkAiScored){moves[i], chance_value(ai, &t, seat, depth - 1)};
	}
	return n;
}

Move linkai_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx)
{
	LinkAi *ai = ctx;
	const LinkState *s = state;
	Scored sc[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int depth = ai->depth;

	double t0 = botclock_ms();

	ai->nodes = 0;
	ai->deadline = t0 + (ai->hard_ms != 0 ? ai->hard_ms : ms_left / LINKAI_HARD_PART);
	ai->out_of_time = false;
	if (ms_left < LINKAI_FAST_MS)
		depth = 1;
	else if (ms_left < LINKAI_DEEP_MS && depth > 2)
		depth = 2;
	else if (ms_left < LINKAI_DEEPER_MS && depth > 3)
		depth = 3;
	ai->searched = depth < 3 ? depth : 3;
	/* Every move two plies deep (one without time), best first. */
	int n = first_pass(ai, s, seat, depth, rng, sc);
	if (n == 0)
		return 0;
	if (ai->out_of_time)
		ai->searched = 1;	/* the later moves were valued statically */
	if (depth <= 2 || ai->out_of_time)
		return sc[0].move;
	/* The most promising few, deeper, while a third of the time is left. */
	int keep = n < LINKAI_ROOT_DEEP ? n : LINKAI_ROOT_DEEP;
	int done = 0;
	double three_start = elapsed_ms(t0);
	for (; done < keep; done++) {
		if (done > 0 && elapsed_ms(t0) * 3 > ms_left)
			break;
		LinkState t = *s;
		v->apply(&t, seat, sc[done].move);
		int val = chance_value(ai, &t, seat, 2);
		if (ai->out_of_time)
			break;
		sc[done].value = val;
	}
	keep = done;
	double three_ms = elapsed_ms(t0) - three_start;
	sort_scored(sc, keep, true);
	Move best_move = sc[0].move;
	/*
	 * Iterative deepening: the best few of that pass one placement deeper
	 * while the budget lasts, each started only when the one before says
	 * it will end in time.
	 */
	double budget = ms_left / LINKAI_BUDGET_PART;
	if (depth < 4)
		return best_move;
	keep = keep < ai->root_deeper ? keep : ai->root_deeper;
	int best = 0, searched = 0;
	double last = 0, pass_ms = 0;
	for (int i = 0; i < keep; i++) {
		double start = elapsed_ms(t0);
		if (i > 0 && start + 2 * last > budget)
			break;
		LinkState t = *s;
		v->apply(&t, seat, sc[i].move);
		int val = chance_value(ai, &t, seat, 3);
		if (ai->out_of_time)
			break;
		last = elapsed_ms(t0) - start;
		pass_ms += last;
		sc[i].value = val;
		searched = i + 1;
		if (i == 0 || val > best) {
			best = val;
			best_move = sc[i].move;
		}
		ai->searched = 4;
	}
	/*
	 * Deeper still while a whole pass over the same few is predicted to
	 * end within the budget: the cost of a pass grows by the factor the
	 * last one grew by (at least LINKAI_GROWTH). Near the end of a game,
	 * where few placements are left, this reaches the final scores.
	 */
	double growth = LINKAI_GROWTH;
	if (searched > 0 && three_ms > 0 && done > 0) {
		double g = (pass_ms / searched) / (three_ms / done);
		growth = g > growth ? g : growth;
	}
	if (searched == keep)
		sort_scored(sc, keep, true);
	for (int d = 5; d <= depth && searched == keep; d++) {
		double next = pass_ms * growth;
		if (elapsed_ms(t0) + next > budget)
			break;
		double start = elapsed_ms(t0);
		Scored deeper[LINKAI_ROOT_DEEP];
		for (int i = 0; i < keep && !ai->out_of_time; i++) {
			LinkState t = *s;
			v->apply(&t, seat, sc[i].move);
			deeper[i] = (Scored){sc[i].move, chance_value(ai, &t, seat, d - 1)};
		}
		if (ai->out_of_time)
			break;	/* the pass before stands */
		double took = elapsed_ms(t0) - start;
		if (pass_ms > 0 && took / pass_ms > growth)
			growth = took / pass_ms;
		pass_ms = took;
		memcpy(sc, deeper, sizeof(deeper[0]) * (size_t)keep);
		sort_scored(sc, keep, true);	/* stable: equals keep the last pass's order */
		best_move = sc[0].move;
		ai->searched = d;
	}
	return best_move;
}
