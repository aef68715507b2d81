/* tetrollai: the Tetroll AI. See tetrollai.h for how it decides. */
#include "tetrollai.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "botclock.h"
#include "rng.h"

#define MAX_MOVES (PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT)
#define DICE_CODES 1296		/* 6^4: sorted dice as base-6 digits */

void tetrollai_init(TetrollAi *ai)
{
	memset(ai, 0, sizeof(*ai));
	ai->clock_ms = botclock_ms;
	ai->weights = TETROLLAI_BY_PLAYERS;
	ai->p = (TetrollAiParams){
		.row_weight = 0.8,
		.future_dup = 0.6,
		.dup_ring = 0.6,
		.dead_cell = 1.5,
		.bump = 0.4,
		.track = 1.0,
		.reroll_cost = 12.0,
		.nofit = 1.0,
		.covered = 3.0,
		.fill_power = 1.0,
		.track_power = 1.5,
		.late_cells = 40,
		.max_rerolls = 2,
		.lookahead = 1,
		.lookahead_width = 6,
		.inner_width = 4,
		.parity = -1,
		.odd_rows = 4,
		.risk = 0,
		.parity_keep = 0,
		.dice_risk = 0,
		.dice_depth = 0,
		.narrow = 0,
		.deep_width = 3,
		.reroll_aware = 0,
		.mr_pending = 0.8,
		.mr_margin = 2.0,
		.mr_risk = 8.0,
		.mr_fill = 0.0,
		.mr_completed = 100.0,
		.mr_win = 40.0,
		.mr_power = 3.0,
		.mr_live = 0,
		.conrad_row = 40.0,
		.conrad_part = 30.0,
		.rollouts = 0,
		.rollout_width = 6,
		.rollout_risk = 0,
		.rollout_race = TETROLLAI_RACE_SPREAD,
		.rollout_depth = -1,
		.followup_rollouts = 0,
		.objective = TETROLLAI_SCORE,
	};
}

static bool past_deadline(const TetrollAi *ai)
{
	return ai->deadline > 0 && ai->clock_ms() > ai->deadline;
}

/* the lookahead's stop: more sheets valued this move than eval_cap, or the deadline passed */
static bool over_eval_cap(const TetrollAi *ai)
{
	return (ai->eval_cap > 0 && ai->evals - ai->move_start > ai->eval_cap) || past_deadline(ai);
}

/* See tetrollai.h. */
void tetrollai_set_rollouts(TetrollAi *ai, int n)
{
	if (ai->p.rollouts <= 0)
		return;
	ai->rollout_cap = ai->rollout_cap * n / ai->p.rollouts;
	ai->p.rollouts = n;
}

/* See tetrollai.h. */
void tetrollai_players(TetrollAi *ai, int nplayers)
{
	bool race = nplayers == 2 && ai->p.rollout_race > 0;

	if (race)
		tetrollai_set_rollouts(ai, 2 * ai->p.rollouts < TETROLLAI_MAX_ROLLOUTS ? 2 * ai->p.rollouts
									 : TETROLLAI_MAX_ROLLOUTS);
	if (ai->p.rollout_depth < 0)
		ai->p.rollout_depth = race ? TETROLLAI_RACE_DEPTH : 0;
	if (ai->weights == TETROLLAI_BY_PLAYERS)	/* measured with rollouts: below 2 s, as before */
		ai->weights = race && ai->p.rollouts > 0 ? tetrollai_margin : NULL;
}

void tetrollai_budget(TetrollAi *ai, int ms)
{
	if (ms < 300) {
		ai->p.lookahead = 0;
		ai->p.max_rerolls = 1;
		ai->p.dice_depth = 0;
		ai->eval_cap = 0;
		ai->rollout_cap = 0;
		return;
	}
	/*
	 * Searches try a copy's or #6 number's cells narrowed (as strong, and
	 * four times cheaper), and the dice decision looks one roll past the
	 * placement. From 2 s a placement is searched two rolls deep: the 12
	 * best by static value one roll deep, the best 3 of those two rolls
	 * deep (2 placements per outcome below the first roll).
	 */
	ai->p.narrow = 1;
	ai->p.dice_depth = 1;
	ai->p.lookahead = ms >= 2000 ? 2 : 1;
	ai->p.lookahead_width = ms >= 2000 ? 12 : 6;
	ai->p.deep_width = 3;
	ai->p.inner_width = 2;
	/*
	 * Playing for points, the lookahead's chance nodes are risk-seeking
	 * (an exponential utility, scale 15 points): on seeds 1..200 +1.7 ±
	 * 2.3 points and 140+ in 14 games against 9 (scale 8: +1.6, 25: +1.3).
	 */
	ai->p.risk = ai->p.objective == TETROLLAI_SCORE ? 15 : 0;
	/*
	 * From 2 s, playing for points, the placement is chosen among the best
	 * 6 at one roll by 64 rollouts each of the greedy policy to the end of
	 * the game, the same dice for every candidate (the two-roll search is
	 * then not run). 32 rollouts: on seeds 1..300 +4.0 +- 2.4 points over
	 * the two-roll search, for 3.5 times the CPU (2.5 s a game); 64: on
	 * seeds 1..354 +2.8 +- 2.0 over 32 for twice that (5.5 s a game). The
	 * eval cap below does not stop rollouts; rollout_cap (further below)
	 * bounds their widest decisions.
	 */
	ai->p.rollouts = ms >= 2000 && ai->p.objective == TETROLLAI_SCORE ? 64 : 0;
	ai->p.rollout_width = 6;
	/*
	 * With rollouts, a copy, ring or #6 number is chosen by rollouts too
	 * (among its best 6 by static value), and a candidate more than 2
	 * standard errors behind the leader (paired) after a round gets no
	 * more rollouts, the others getting its share (up to 4 times their
	 * own): on seeds 1..150 +2.6 +- 2.7 points over neither, for the same
	 * CPU (follow-ups alone +1.5 +- 2.3); through the referee over seeds
	 * 1..1000 mean 122.9 and 140+ in 13.1% (without them 120.0, 9.2%).
	 */
	ai->p.followup_rollouts = 1;
	ai->p.rollout_prune = 2;
	/*
	 * A sheet costs about 0.5 us of one core; the widest decisions of 200
	 * games valued about 370,000 sheets, most a few tens of thousands. On
	 * a 2-core machine with some twenty busy processes a bot gets perhaps a
	 * tenth of a core: 60 sheets per ms of the move (300,000 at the
	 * default 5 s) keeps a move well inside its time there, and the
	 * search stops (keeping the best so far) when it has valued more.
	 */
	ai->eval_cap = 60L * ms;
	/*
	 * Rollouts are not counted against eval_cap, but no round of them
	 * starts once a move has valued 300 sheets per ms of it (1.5 million
	 * at the default 5 s, about 0.75 s of one core): the widest decisions
	 * of 200 games with 32 rollouts valued 1.4 million sheets, of 3 games
	 * with 64 1.55 million (the cap did not bind there): it keeps the
	 * widest decisions from growing with the count.
	 */
	ai->rollout_cap = 300L * ms;
}

void tetrollai_level(TetrollAi *ai, int level)
{
	static const double noise[6] = {0, TETROLLAI_NOISE1, TETROLLAI_NOISE2, 0, 0, 0};

	ai->noise = level >= 1 && level <= 5 ? noise[level] : 0;
	if (level >= 5)
		return;
	ai->p.rollouts = 0;
	if (ai->p.lookahead > 1)
		ai->p.lookahead = 1;
	if (ai->p.lookahead_width > 6)
		ai->p.lookahead_width = 6;
	if (level <= 3) {
		ai->p.lookahead = 0;
		ai->p.dice_depth = 0;
	}
}

/* The level's noise for placement m: uniform in [-noise, noise], a hash of noise_key and m. */
static double level_noise(const TetrollAi *ai, Move m)
{
	if (ai->noise <= 0)
		return 0;
	uint64_t h = (ai->noise_key ^ (uint64_t)m) * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return ai->noise * ((double)(h >> 11) / (double)(1ULL << 53) * 2.0 - 1.0);
}

int tetrollai_objective(const char *name)
{
	static const char *const names[] = {"sputnik", "mother-russia", "conrad"};
	static const int objective[] = {TETROLLAI_SCORE, TETROLLAI_MOTHER_RUSSIA, TETROLLAI_CONRAD};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return objective[i];
	return -1;
}

/* Whether grid row y's filled cells all read x + 1 (a row 1-2-3-4-5-6 in the making). */
static bool row_in_order(const TetrollSheet *sh, int width, int y, int *filled)
{
	int f = 0;

	for (int x = 0; x < width; x++) {
		int c = sh->cell[y][x];
		if (c && c != x + 1)
			return false;
		f += c != 0;
	}
	*filled = f;
	return width == 6;
}

/* See tetrollai.h. */
int tetrollai_ordered_rows(const TetrollState *s, int seat)
{
	int n = 0, f;

	for (int y = 0; y < s->height; y++)
		n += row_in_order(&s->sheet[seat], s->width, y, &f) && f == s->width;
	return n;
}

/*
 * The objective's own term of the eval. MOTHER_RUSSIA: a completed track
 * costs the objective; CONRAD: each finished ordered row (up to four) and
 * the rows still able to finish so. dead: the sheet's dead cells per row
 * (dead_cells), NULL when the game is over.
 */
static double objective_term(const TetrollState *s, int seat, const TetrollAiParams *p, const uint16_t *dead)
{
	int objective = p->objective;
	bool over = !dead;
	const TetrollSheet *sh = &s->sheet[seat];
	double v = 0;

	if (objective == TETROLLAI_MOTHER_RUSSIA) {
		/*
		 * Rings marked plus those the repeats already in unfinished rows
		 * will mark when the row fills: a track that would fill costs the
		 * objective, one ring short of it is a risk.
		 */
		double pend[TETROLL_BONUSES];
		unsigned full = (1u << s->width) - 1u;
		int completed = 0;
		for (int b = 0; b < TETROLL_BONUSES; b++)
			pend[b] = sh->rings[b];
		for (int y = 0; y < s->height && !over; y++) {
			if (sh->bits[y] == full || !sh->bits[y] || (p->mr_live && dead[y]))
				continue;
			bool seen[7] = {false};
			/* mr_live: a dead row never fills; a live one counts by how full it is */
			double fill = __builtin_popcount(sh->bits[y]) / (double)s->width;
			double wgt = p->mr_live ? p->mr_pending * pow(fill, p->mr_live) : p->mr_pending;
			for (int x = 0; x < s->width; x++) {
				int c = sh->cell[y][x];
				if (c && seen[c])
					pend[c - 1] += wgt;
				seen[c] = true;
			}
		}
		for (int b = 0; b < TETROLL_BONUSES; b++) {
			if (sh->prize[b] >= TETROLL_PRIZE_FIRST) {
				completed++;
			} else if (!over) {
				double room = s->track[b] - pend[b], frac = pend[b] / s->track[b];
				v -= p->mr_fill * pow(frac, p->mr_power);
				if (room < p->mr_margin)
					v -= p->mr_risk * (p->mr_margin - room) * (p->mr_margin - room);
			}
		}
		v -= completed ? p->mr_completed : 0;
		if (over && !completed && tetroll_score(s, seat, NULL, (int[TETROLL_BONUSES]){0}) >= 80)
			v += p->mr_win;
	} else if (objective == TETROLLAI_CONRAD) {
		/*
		 * Finished rows reading 1-6 (up to four), and the rows that still
		 * can: the fullest few (as many as are still needed), valued by
		 * the square of how full they are.
		 */
		int done = 0;
		double part[TETROLL_MAX_HEIGHT];
		int np = 0;
		for (int y = 0; y < s->height; y++) {
			int f;
			if (!row_in_order(sh, s->width, y, &f))
				continue;
			if (f == s->width)
				done++;
			else if (!over)
				part[np++] = (double)f * f / (s->width * s->width);
		}
		int need = done < 4 ? 4 - done : 0;
		for (int i = 0; i < need && i < np; i++) {	/* the fullest `need`, by selection */
			int b = i;
			for (int j = i + 1; j < np; j++)
				if (part[j] > part[b])
					b = j;
			double t = part[i];
			part[i] = part[b];
			part[b] = t;
			v += p->conrad_part * part[i];
		}
		v += p->conrad_row * (done < 4 ? done : 4);
		if (over && done >= 4 && tetroll_score(s, seat, NULL, (int[TETROLL_BONUSES]){0}) >= 100)
			v += p->conrad_row;
	}
	return v;
}

/*
 * What a bonus's prize is worth at the end to seat, first prize or
 * runner-up. #2 and #5 pay per finished row of a parity: those finished,
 * and `parity` of each row still unfinished (parity < 0: four rows).
 */
static double prize_worth(const TetrollState *s, int seat, int b, bool first, double parity, double odd_rows)
{
	double even = 4, odd = odd_rows;

	if (parity >= 0) {
		unsigned full = (1u << s->width) - 1u;
		even = odd = 0;
		for (int y = 0; y < s->height; y++) {
			if (s->sheet[seat].bits[y] != full) {
				even += parity;
				odd += parity;
			} else if (tetroll_row_score(s, seat, y) % 2) {
				odd++;
			} else {
				even++;
			}
		}
	}
	switch (b) {
	case 0:
		return first ? 4 : s->runner1;
	case 1:
		return (first ? 2 : 1) * even;
	case 2:
		return (first ? 3 : 2) * 1.5;	/* rings placed where they help */
	case 3:
		return first ? 16 : 4;
	case 4:
		return (first ? 4 : 2) * odd;
	default:
		return (first ? 2 : 1) * 3.0;	/* a number that finishes a row well */
	}
}

/* ---- bitboards: the sheet as one uint16_t per row, bit x for column x ---- */

/* An orientation of a free shape as cells for the bit-parallel tests. */
typedef struct {
	int8_t w, h;
	int8_t dx[4], dy[4];
} Shape;

static Shape shapes[6][8];	/* [number 1..5][orientation] */
static int nshapes[6];

static void init_shapes(void)
{
	if (nshapes[1])
		return;
	for (int k = 1; k <= 5; k++) {
		const Orientation *os[8];
		int n = piece_free_orientations(tetroll_shape_piece(k), os);
		for (int i = 0; i < n; i++) {
			Shape *sh = &shapes[k][i];
			sh->w = os[i]->width;
			sh->h = os[i]->height;
			for (int c = 0; c < 4; c++) {
				sh->dx[c] = os[i]->x[c];
				sh->dy[c] = os[i]->y[c];
			}
		}
		nshapes[k] = n;
	}
}

/*
 * The columns x where orientation o fits with its lower-left corner at
 * (x, y): all four cells empty and one resting on row 0 or a filled cell
 * (tetroll_fits, for every x at once).
 */
static inline unsigned fit_columns(const uint16_t *bits, const Shape *o, int y, int width)
{
	unsigned blocked = 0, rest = y == 0 ? ~0u : 0;

	for (int c = 0; c < 4; c++) {
		int ry = y + o->dy[c];
		blocked |= (unsigned)bits[ry] >> o->dx[c];
		if (ry > 0)
			rest |= (unsigned)bits[ry - 1] >> o->dx[c];
	}
	return ~blocked & rest & ((1u << (width - o->w + 1)) - 1u);
}

/* Whether shape number k (1..5) fits anywhere on the sheet (tetroll_shape_fits). */
static bool shape_fits(const TetrollState *s, const uint16_t *bits, int k)
{
	for (int i = 0; i < nshapes[k]; i++) {
		const Shape *o = &shapes[k][i];
		if (o->w > s->width)
			continue;
		for (int y = 0; y < s->height; y++)
			if (fit_columns(bits, o, y, s->width))
				return true;
	}
	return false;
}

/*
 * Mark empty cells in components of fewer than four cells that do not reach
 * the top of the sheet: no piece can ever be placed there. OUT: dead, one
 * mask per row. Returns their count inside the grid.
 */
static int dead_cells(const TetrollState *s, int seat, uint16_t dead[TETROLL_ROWS])
{
	const uint16_t *bits = s->sheet[seat].bits;
	int rows = s->height + TETROLL_ABOVE, total = 0;
	unsigned full = (1u << s->width) - 1u;
	uint16_t empty[TETROLL_ROWS], reach[TETROLL_ROWS];
	bool changed = true, any_closed = false;

	for (int y = 0; y < rows; y++) {
		empty[y] = (uint16_t)(~bits[y] & full);
		reach[y] = 0;
		dead[y] = 0;
	}
	reach[rows - 1] = empty[rows - 1];
	/* Empty cells joined to the top row: sweep down and up until stable. */
	while (changed) {
		changed = false;
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < rows; i++) {
				int y = pass ? i : rows - 1 - i;
				unsigned r = reach[y];
				if (y + 1 < rows)
					r |= reach[y + 1] & empty[y];
				if (y > 0)
					r |= reach[y - 1] & empty[y];
				if (!r)
					continue;
				unsigned prev;
				do {
					prev = r;
					r |= ((r << 1) | (r >> 1)) & empty[y];
				} while (r != prev);
				if (r != reach[y]) {
					reach[y] = (uint16_t)r;
					changed = true;
				}
			}
	}
	uint16_t closed[TETROLL_ROWS];
	for (int y = 0; y < rows; y++) {
		closed[y] = empty[y] & (uint16_t)~reach[y];
		any_closed |= closed[y] != 0;
	}
	if (!any_closed)
		return 0;
	/* Each closed component: grown from its lowest cell, dead when under 4 cells. */
	for (int y0 = 0; y0 < rows; y0++) {
		while (closed[y0]) {
			uint16_t comp[TETROLL_ROWS] = {0};
			comp[y0] = (uint16_t)(closed[y0] & -closed[y0]);
			bool grew = true;
			while (grew) {
				grew = false;
				for (int y = y0; y < rows; y++) {
					unsigned r = comp[y];
					if (y + 1 < rows)
						r |= comp[y + 1] & closed[y];
					if (y > y0)
						r |= comp[y - 1] & closed[y];
					if (!r)
						continue;
					unsigned prev;
					do {
						prev = r;
						r |= ((r << 1) | (r >> 1)) & closed[y];
					} while (r != prev);
					if (r != comp[y]) {
						comp[y] = (uint16_t)r;
						grew = true;
					}
				}
			}
			int nc = 0;
			for (int y = y0; y < rows; y++)
				nc += __builtin_popcount(comp[y]);
			for (int y = y0; y < rows; y++) {
				closed[y] &= (uint16_t)~comp[y];
				if (nc < 4) {
					dead[y] |= comp[y];
					if (y < s->height)
						total += __builtin_popcount(comp[y]);
				}
			}
		}
	}
	return total;
}

/* The chance of each shape number (1..6, 6 the joker) from one roll of 4 dice. */
static const double roll_odds[7] = {
	0, 411.0 / 1296, 261.0 / 1296, 183.0 / 1296, 153.0 / 1296, 147.0 / 1296, 141.0 / 1296,
};

/* The chance that one roll (no rerolls) selects a shape that fits nowhere. */
static double miss_chance(const TetrollState *s, int seat)
{
	double miss = 0;
	bool any = false;

	for (int k = 1; k <= 5; k++) {
		if (shape_fits(s, s->sheet[seat].bits, k))
			any = true;
		else
			miss += roll_odds[k];
	}
	return any ? miss : 1.0;
}

/* How much of a track's prize counts with `rings` of `track` marked. */
static double track_share(const TetrollAiParams *p, int rings, int track)
{
	double frac = (double)rings / track;

	return p->track_power == 2.0 ? frac * frac
	     : p->track_power == 1.5 ? frac * sqrt(frac) : pow(frac, p->track_power);
}

/*
 * The hand-set value of a playing sheet (tetrollai_eval's); with feat,
 * also its features (TETROLLAI_F_*) and *nowp, the score now.
 */
static double eval_sheet(TetrollAi *ai, const TetrollState *s, int seat, double *feat, double *nowp)
{
	const TetrollSheet *sh = &s->sheet[seat];
	const TetrollAiParams *p = &ai->p;
	int rows, bonus[TETROLL_BONUSES];
	double now = tetroll_score(s, seat, &rows, bonus), v = now;
	uint16_t dead[TETROLL_ROWS];

	init_shapes();
	int ndead = dead_cells(s, seat, dead);
	if (feat) {
		memset(feat, 0, sizeof(double) * TETROLLAI_FEATURES);
		feat[TETROLLAI_F_BIAS] = 1;
		feat[TETROLLAI_F_DEAD] = ndead;
		*nowp = now;
	}
	bool even_won = sh->prize[1] >= TETROLL_PRIZE_FIRST, odd_won = sh->prize[4] >= TETROLL_PRIZE_FIRST;
	/* what a finished even or odd row adds through #2's or #5's prize */
	double even_prize = sh->prize[1] == TETROLL_PRIZE_FIRST ? 2 : even_won ? 1 : 0;
	double odd_prize = sh->prize[4] == TETROLL_PRIZE_FIRST ? 4 : odd_won ? 2 : 0;
	double w = s->width;
	unsigned full = (1u << s->width) - 1u;

	for (int y = 0; y < s->height; y++) {
		if (feat && !sh->bits[y])
			feat[TETROLLAI_F_EMPTY_ROWS]++;
		if (sh->bits[y] == full || !sh->bits[y])
			continue;
		bool seen[7] = {false};
		int f = 0, d = 0, nd = 0, distinct = 0;
		for (int x = 0; x < s->width; x++) {
			int c = sh->cell[y][x];
			if (!c)
				continue;
			f++;
			if (seen[c]) {
				d += c;
				nd++;
			} else {
				distinct++;
			}
			seen[c] = true;
		}
		double expect = 10 - d - p->future_dup * (s->width - f) * distinct / w;
		double share = p->fill_power == 1.0 ? f / w : pow(f / w, p->fill_power);
		double row = share * (p->row_weight * expect + p->dup_ring * nd);
		if ((even_won || odd_won) && p->parity_keep > 0) {
			/*
			 * #2/#5 won: the row's parity now (10 less its repeats)
			 * holds with a chance that falls with each empty cell.
			 */
			double stay = 0.5 + 0.5 * pow(p->parity_keep, s->width - f);
			double odd = (10 - d) % 2 ? stay : 1 - stay;
			row += share * (odd * odd_prize + (1 - odd) * even_prize);
		} else if (even_won || odd_won) {
			row += share * 0.5 * ((even_won ? 2 : 0) + (odd_won ? 3 : 0));
		}
		if (dead[y])
			row *= 0.2;
		v += row;
		if (feat) {
			int part = f * 5 / s->width;	/* 0..4: how full, in fifths */
			feat[TETROLLAI_F_ROWS] += row;
			feat[TETROLLAI_F_FILL + (part > 4 ? 4 : part)]++;
			feat[TETROLLAI_F_REPEATS] += nd;
			if (dead[y])
				feat[TETROLLAI_F_DEAD_ROWS]++;
		}
	}
	v -= p->dead_cell * ndead;
	/* Roughness of the column heights, and live empty cells under a number. */
	int height[TETROLL_MAX_WIDTH] = {0}, bump = 0, covered = 0;
	unsigned above = 0, seen_top = 0;
	for (int y = s->height + TETROLL_ABOVE - 1; y >= 0; y--) {
		unsigned b = sh->bits[y];
		if (y < s->height)
			covered += __builtin_popcount(~b & full & above & ~(unsigned)dead[y]);
		above |= b;
		for (unsigned nw = b & ~seen_top; nw; nw &= nw - 1)
			height[__builtin_ctz(nw)] = y + 1;
		seen_top |= b;
	}
	for (int x = 1; x < s->width; x++)
		bump += abs(height[x] - height[x - 1]);
	v -= p->bump * bump + p->covered * covered;
	if (feat) {
		int empty = 0;
		for (int y = 0; y < s->height; y++)
			empty += __builtin_popcount(~sh->bits[y] & full & ~(unsigned)dead[y]);
		for (int y = s->height; y < s->height + TETROLL_ABOVE; y++)
			feat[TETROLLAI_F_ABOVE] += __builtin_popcount(sh->bits[y]);
		feat[TETROLLAI_F_BUMP] = bump;
		feat[TETROLLAI_F_COVERED] = covered;
		feat[TETROLLAI_F_EMPTY] = empty;
		feat[TETROLLAI_F_EMPTY2] = empty * empty / 100.0;
	}
	/*
	 * If the next roll fits nowhere the game ends and everything above the
	 * score now is lost: count that share of the estimate as lost.
	 */
	if (p->nofit > 0 || feat) {
		double miss = miss_chance(s, seat);
		if (feat) {
			feat[TETROLLAI_F_MISS] = miss;
			feat[TETROLLAI_F_MISS_LOSS] = miss * (v - now);
		}
		miss *= p->nofit;
		v = now + (v - now) * (1 - (miss > 1 ? 1 : miss));
	}
	const TetrollSheet *rival = NULL;	/* p->race: the opponent still playing */
	for (int q = 0; q < s->nplayers && p->race > 0; q++)
		if (q != seat && s->sheet[q].status == TETROLL_PLAYING)
			rival = &s->sheet[q];
	for (int b = 0; b < TETROLL_BONUSES && p->objective != TETROLLAI_MOTHER_RUSSIA; b++) {
		if (sh->prize[b] >= TETROLL_PRIZE_FIRST) {
			/* Won first while the opponent plays on: its first prize is gone. */
			if (rival && sh->prize[b] == TETROLL_PRIZE_FIRST && rival->prize[b] == TETROLL_PRIZE_CROSSED)
				v += p->race * p->track * track_share(p, rival->rings[b], s->track[b]) *
				     (prize_worth(s, 1 - seat, b, true, p->parity, p->odd_rows) -
				      prize_worth(s, 1 - seat, b, false, p->parity, p->odd_rows));
			continue;
		}
		double share = track_share(p, sh->rings[b], s->track[b]);
		bool open = sh->prize[b] == TETROLL_PRIZE_OPEN;
		if (feat) {
			double frac = (double)sh->rings[b] / s->track[b];
			feat[(open ? TETROLLAI_F_OPEN : TETROLLAI_F_CROSSED) + b] =
				share * prize_worth(s, seat, b, open, p->parity, p->odd_rows);
			feat[TETROLLAI_F_RINGS + b] = frac;
			feat[TETROLLAI_F_OPEN_PRIZES] += open;
			for (int q = 0; q < s->nplayers && open; q++)
				if (q != seat && s->sheet[q].status == TETROLL_PLAYING &&
				    s->sheet[q].prize[b] == TETROLL_PRIZE_OPEN)
					feat[TETROLLAI_F_RIVAL + b] = (double)s->sheet[q].rings[b] / s->track[b];
		}
		if (open && rival && rival->prize[b] == TETROLL_PRIZE_OPEN) {
			/* A race: first with the chance the rival's rings left are more. */
			double mine = s->track[b] - sh->rings[b], theirs = s->track[b] - rival->rings[b];
			double first = theirs / (mine + theirs);
			v += p->track * share *
			     (first * prize_worth(s, seat, b, true, p->parity, p->odd_rows) +
			      (1 - first) * prize_worth(s, seat, b, false, p->parity, p->odd_rows));
			v += p->race * p->track * share * first * track_share(p, rival->rings[b], s->track[b]) *
			     (prize_worth(s, 1 - seat, b, true, p->parity, p->odd_rows) -
			      prize_worth(s, 1 - seat, b, false, p->parity, p->odd_rows));
			continue;
		}
		v += p->track * share * prize_worth(s, seat, b, open, p->parity, p->odd_rows);
	}
	if (feat)
		feat[TETROLLAI_F_HAND] = v - now;
	return v + objective_term(s, seat, p, dead);
}

double tetrollai_features(TetrollAi *ai, const TetrollState *s, int seat, double f[TETROLLAI_FEATURES])
{
	double now = 0;

	if (s->sheet[seat].status != TETROLL_PLAYING) {
		memset(f, 0, sizeof(double) * TETROLLAI_FEATURES);
		return tetroll_score(s, seat, NULL, (int[TETROLL_BONUSES]){0});
	}
	eval_sheet(ai, s, seat, f, &now);
	return now;
}

const double tetrollai_fitted[TETROLL_MAX_PLAYERS][TETROLLAI_FEATURES] = {
	{
#include "tetroll-weights.h"
	},
	{
#include "tetroll-weights2.h"
	},
};

const double tetrollai_margin[TETROLLAI_FEATURES] = {
#include "tetroll-margin.h"
};

const double tetrollai_by_players;

const char *tetrollai_parse_weights(const char *text, double w[TETROLLAI_FEATURES])
{
	int n = 0;

	for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
		char *end;
		double v = strtod(line, &end);
		if (line[strspn(line, " \t")] == '\n' || end == line || !isfinite(v))
			return "a line that does not start with a number";
		if (n == TETROLLAI_FEATURES)
			return "more weights than features";
		w[n++] = v;
	}
	return n < TETROLLAI_FEATURES ? "fewer weights than features" : NULL;
}

/* A playing sheet valued by its score now plus the weights w times its features. */
static double weighted_value(TetrollAi *ai, const TetrollState *s, int seat, const double *w)
{
	double f[TETROLLAI_FEATURES], now = 0, v;

	eval_sheet(ai, s, seat, f, &now);
	v = now;
	for (int i = 0; i < TETROLLAI_FEATURES; i++)
		v += w[i] * f[i];
	return v;
}

double tetrollai_eval(TetrollAi *ai, const TetrollState *s, int seat)
{
	const TetrollSheet *sh = &s->sheet[seat];

	ai->evals++;
	if (sh->status != TETROLL_PLAYING)
		return tetroll_score(s, seat, NULL, (int[TETROLL_BONUSES]){0}) + objective_term(s, seat, &ai->p, NULL);
	if (ai->weights && ai->weights != TETROLLAI_BY_PLAYERS && ai->p.objective == TETROLLAI_SCORE && ai->p.race == 0)
		return weighted_value(ai, s, seat,
				      ai->weights == TETROLLAI_FITTED ? tetrollai_fitted[s->nplayers > 1] : ai->weights);
	return eval_sheet(ai, s, seat, NULL, NULL);
}

static bool deciding(const TetrollState *s, int seat)
{
	return s->current == seat && (s->stage == TETROLL_STAGE_COPY || s->stage == TETROLL_STAGE_RING ||
				      s->stage == TETROLL_STAGE_WRITE);
}

/*
 * Narrow a copy's or #6 number's cells (moves[0..n)) to those a search
 * tries: empty cells no piece can reach or with a number above them, and
 * those of the fullest unfinished rows (at most 2 empty, or the fewest).
 * Returns the count kept.
 */
static int narrow_cells(const TetrollState *s, int seat, Move *moves, int n)
{
	const TetrollSheet *sh = &s->sheet[seat];
	unsigned full = (1u << s->width) - 1u, keep_rows = 0, above = 0;
	uint16_t dead[TETROLL_ROWS], want[TETROLL_ROWS];
	int fewest = s->width;

	if (s->stage != TETROLL_STAGE_COPY && s->stage != TETROLL_STAGE_WRITE)
		return n;
	dead_cells(s, seat, dead);
	for (int y = 0; y < s->height; y++) {
		int e = s->width - __builtin_popcount(sh->bits[y]);
		if (e && e < fewest)
			fewest = e;
	}
	for (int y = s->height + TETROLL_ABOVE - 1; y >= 0; y--) {
		unsigned empty = ~(unsigned)sh->bits[y] & full;
		if (y < s->height) {
			int e = __builtin_popcount(empty);
			want[y] = (uint16_t)(empty & (dead[y] | above));
			if (e && e <= (fewest > 2 ? fewest : 2))
				want[y] = (uint16_t)empty;
			keep_rows |= want[y] != 0;
		}
		above |= sh->bits[y];
	}
	if (!keep_rows)
		return n;
	int k = 0;
	for (int i = 0; i < n; i++) {
		int x = (int)(moves[i] >> 12 & 63u), y = (int)(moves[i] >> 18 & 63u);
		if (want[y] >> x & 1u)
			moves[k++] = moves[i];
	}
	return k ? k : n;
}

/*
 * The follow-up decision (copy, ring, write) whose result values best;
 * narrow: among the cells narrow_cells() keeps (inside a search).
 */
static Move best_followup(TetrollAi *ai, const TetrollState *s, int seat, Move *moves, bool narrow)
{
	int n = variant_tetroll.legal_moves(s, seat, moves);
	double best = -INFINITY;

	if (narrow && ai->p.narrow)
		n = narrow_cells(s, seat, moves, n);
	Move pick = moves[0];
	for (int i = 0; i < n; i++) {
		TetrollState t = *s;
		variant_tetroll.apply(&t, seat, moves[i]);
		double v = tetrollai_eval(ai, &t, seat);
		if (v > best) {
			best = v;
			pick = moves[i];
		}
	}
	return pick;
}

/* Resolve every pending follow-up of `seat` greedily. */
static void settle(TetrollAi *ai, TetrollState *s, int seat, Move *moves)
{
	while (deciding(s, seat))
		variant_tetroll.apply(s, seat, best_followup(ai, s, seat, moves, true));
}

/* See tetrollai.h. */
void tetrollai_settle(TetrollAi *ai, TetrollState *s, int seat)
{
	Move moves[MAX_MOVES];

	settle(ai, s, seat, moves);
}

/*
 * The best placement in state s (stage place): OUT *best_move. Returns its
 * value, or the final score when nothing fits (the player's game ends).
 */
static double best_placement(TetrollAi *ai, const TetrollState *s, int seat, Move *best_move)
{
	Move moves[MAX_MOVES], scratch[MAX_MOVES];
	int n = variant_tetroll.legal_moves(s, seat, moves);
	double best = -INFINITY;

	if (!n) {
		int bonus[TETROLL_BONUSES];
		return tetroll_score(s, seat, NULL, bonus);
	}
	*best_move = moves[0];
	for (int i = 0; i < n; i++) {
		TetrollState t = *s;
		variant_tetroll.apply(&t, seat, moves[i]);
		settle(ai, &t, seat, scratch);
		double v = tetrollai_eval(ai, &t, seat) + level_noise(ai, moves[i]);
		if (v > best) {
			best = v;
			*best_move = moves[i];
		}
	}
	return best;
}

/* ---- dice: expectimax over rerolls ------------------------------------- */

typedef struct {
	double shape_value[7];		/* best placement per shape number 1..6 */
	double cost[TETROLL_BONUSES];	/* first prizes open to pay, cheapest first */
	int ncost;
	int depth;			/* rerolls the search allows */
	double risk;			/* > 0: rerolls valued risk-seeking, exp(v / risk) */
	double top;			/* the best shape value: exp's reference point */
	double memo[TETROLLAI_MAX_REROLLS + 1][DICE_CODES];
	bool known[TETROLLAI_MAX_REROLLS + 1][DICE_CODES];
} DiceSearch;

static int dice_code(const int8_t d[TETROLL_DICE])
{
	return ((d[0] - 1) * 6 + d[1] - 1) * 36 + (d[2] - 1) * 6 + d[3] - 1;
}

static void sort4(int8_t *d)
{
	for (int i = 1; i < TETROLL_DICE; i++)
		for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
			int8_t t = d[j];
			d[j] = d[j - 1];
			d[j - 1] = t;
		}
}

static bool mask_canonical(const int8_t *d, unsigned mask)
{
	for (int i = 1; i < TETROLL_DICE; i++)
		if ((mask >> i & 1u) && d[i] == d[i - 1] && !(mask >> (i - 1) & 1u))
			return false;
	return true;
}

static double dice_value(DiceSearch *ds, const int8_t d[TETROLL_DICE], int r);

/* Expected value after rerolling the dice of `mask` (r rerolls done before). */
static double reroll_value(DiceSearch *ds, const int8_t d[TETROLL_DICE], unsigned mask, int r)
{
	int8_t kept[TETROLL_DICE];
	int nk = 0, n = 0, total = 1;
	double sum = 0;

	for (int i = 0; i < TETROLL_DICE; i++) {
		if (mask >> i & 1u)
			n++;
		else
			kept[nk++] = d[i];
	}
	for (int i = 0; i < n; i++)
		total *= 6;
	for (int c = 0; c < total; c++) {
		int8_t nd[TETROLL_DICE];
		int rest = c;
		memcpy(nd, kept, (size_t)nk);
		for (int i = nk; i < TETROLL_DICE; i++) {
			nd[i] = (int8_t)(rest % 6 + 1);
			rest /= 6;
		}
		sort4(nd);
		double v = dice_value(ds, nd, r + 1);
		sum += ds->risk > 0 ? exp((v - ds->top) / ds->risk) : v;
	}
	if (ds->risk > 0)	/* risk-seeking: the certainty equivalent, as roll_value */
		return ds->top + ds->risk * log(sum / total) - ds->cost[r];
	return sum / total - ds->cost[r];
}

/* The worth of holding dice d with r rerolls paid this turn. */
static double dice_value(DiceSearch *ds, const int8_t d[TETROLL_DICE], int r)
{
	int code = dice_code(d);

	if (ds->known[r][code])
		return ds->memo[r][code];
	double best = ds->shape_value[tetroll_dice_shape(d)];
	if (r < ds->depth && r < ds->ncost)
		for (unsigned mask = 1; mask < 16; mask++)
			if (mask_canonical(d, mask)) {
				double v = reroll_value(ds, d, mask, r);
				if (v > best)
					best = v;
			}
	ds->known[r][code] = true;
	ds->memo[r][code] = best;
	return best;
}

/*
 * The first prizes seat can pay a reroll with, cheapest to give up first:
 * OUT cost (the worth given up) and pay (the bonus index). Returns how many.
 */
static int pay_costs(TetrollAi *ai, const TetrollState *s, int seat, double cost[TETROLL_BONUSES],
		     int pay[TETROLL_BONUSES])
{
	const TetrollSheet *sh = &s->sheet[seat];
	int n = 0, empty = 0;

	for (int y = 0; y < s->height; y++)
		empty += s->width - __builtin_popcount(sh->bits[y]);
	for (int b = 0; b < TETROLL_BONUSES; b++) {
		if (!tetroll_can_pay(s, seat, b))
			continue;
		double frac = (double)sh->rings[b] / s->track[b];
		double c = ai->p.reroll_cost *
			   (prize_worth(s, seat, b, true, ai->p.parity, ai->p.odd_rows) - prize_worth(s, seat, b, false, ai->p.parity, ai->p.odd_rows)) *
			   (0.2 + 0.8 * frac);
		/* Late in the game an unfinished track rarely gets finished. */
		if (empty < ai->p.late_cells)
			c *= (double)empty / ai->p.late_cells;
		/* Playing for no completed track, a first prize is worth little. */
		if (ai->p.objective == TETROLLAI_MOTHER_RUSSIA)
			c = 1.0;
		/* An opponent ahead on this track will likely take its first prize anyway. */
		for (int q = 0; q < s->nplayers; q++)
			if (q != seat && s->sheet[q].status == TETROLL_PLAYING &&
			    s->sheet[q].rings[b] > sh->rings[b])
				c *= 0.5;
		int i = n++;
		while (i > 0 && cost[i - 1] > c) {
			cost[i] = cost[i - 1];
			pay[i] = pay[i - 1];
			i--;
		}
		cost[i] = c;
		pay[i] = b;
	}
	return n;
}

static double place_value(TetrollAi *ai, const TetrollState *u, int seat, int depth);

static Move choose_dice(TetrollAi *ai, const TetrollState *s, int seat)
{
	static DiceSearch ds;	/* large; the bot is single-threaded */
	int pay[TETROLL_BONUSES];
	Move dummy;

	memset(&ds, 0, sizeof(ds));
	/*
	 * Each shape's worth: its best placement looking dice_depth rolls
	 * ahead; when that runs over the eval cap, all six by static value
	 * instead (values of one kind, and the same for the same state).
	 */
	int depth = ai->p.lookahead > 0 ? ai->p.dice_depth : 0;
	for (int k = 1; k <= 6; k++) {
		TetrollState t = *s;
		for (int i = 0; i < TETROLL_DICE; i++)
			t.dice[i] = (int8_t)k;
		t.stage = TETROLL_STAGE_PLACE;
		ds.shape_value[k] = depth > 0 ? place_value(ai, &t, seat, depth) : best_placement(ai, &t, seat, &dummy);
		if (depth > 0 && over_eval_cap(ai)) {
			depth = 0;
			k = 0;	/* start again, static */
		}
	}
	ds.risk = ai->p.dice_risk;
	ds.top = ds.shape_value[1];
	for (int k = 2; k <= 6; k++)
		ds.top = ds.shape_value[k] > ds.top ? ds.shape_value[k] : ds.top;
	ds.ncost = pay_costs(ai, s, seat, ds.cost, pay);
	ds.depth = ai->p.max_rerolls;
	double keep = ds.shape_value[tetroll_dice_shape(s->dice)], best = keep + 1e-9;
	unsigned best_mask = 0;
	for (unsigned mask = 1; mask < 16; mask++) {
		if (!mask_canonical(s->dice, mask))
			continue;
		double v = reroll_value(&ds, s->dice, mask, 0);
		if (v > best) {
			best = v;
			best_mask = mask;
		}
	}
	if (!best_mask)
		return tetroll_move_keep();
	return tetroll_move_reroll(best_mask, pay[0] + 1);
}

/* ---- placement: expectimax over the next rolls ------------------------ */

/* The best `keep` placements of a state, by static value, with their sheets. */
typedef struct {
	int n;				/* kept, best first */
	int legal;			/* placements in all */
	int order[TETROLLAI_MAX_WIDTH + 1];	/* slots, best first */
	Move move[TETROLLAI_MAX_WIDTH + 1];
	double value[TETROLLAI_MAX_WIDTH + 1];
	TetrollState after[TETROLLAI_MAX_WIDTH + 1];	/* the placement applied and settled */
} Ranked;

/*
 * Apply every placement of s (stage place), settle its follow-ups and value
 * the sheet; keep the best `keep` (1..TETROLLAI_MAX_WIDTH) in r.
 */
static void rank_placements(TetrollAi *ai, const TetrollState *s, int seat, int keep, Ranked *r)
{
	Move moves[MAX_MOVES], scratch[MAX_MOVES];
	int n = variant_tetroll.legal_moves(s, seat, moves);

	r->n = 0;
	r->legal = n;
	for (int i = 0; i <= keep; i++)
		r->order[i] = i;
	for (int i = 0; i < n; i++) {
		int slot = r->order[r->n < keep ? r->n : keep];	/* a free slot */
		TetrollState *t = &r->after[slot];
		*t = *s;
		variant_tetroll.apply(t, seat, moves[i]);
		settle(ai, t, seat, scratch);
		double v = tetrollai_eval(ai, t, seat);
		if (r->n == keep && v <= r->value[r->order[keep - 1]])
			continue;
		int j = r->n < keep ? r->n++ : keep - 1;
		int evicted = r->order[j];
		r->move[slot] = moves[i];
		r->value[slot] = v;
		/* slot goes to position j (evicted there goes to the free end), then bubbles up */
		if (evicted != slot)
			r->order[keep] = evicted;
		r->order[j] = slot;
		while (j > 0 && r->value[r->order[j - 1]] < v) {
			int tmp = r->order[j - 1];
			r->order[j - 1] = r->order[j];
			r->order[j] = tmp;
			j--;
		}
	}
}

static double roll_value(TetrollAi *ai, const TetrollState *t, int seat, int depth);

/*
 * The worth of a sheet whose game ends now (nothing fitted): its score and,
 * playing for an objective, the objective's term for a finished game, as
 * tetrollai_eval values a sheet whose game is over.
 */
static double ended_value(const TetrollAi *ai, const TetrollState *s, int seat)
{
	int bonus[TETROLL_BONUSES];

	return tetroll_score(s, seat, NULL, bonus) + objective_term(s, seat, &ai->p, NULL);
}

/*
 * The worth of the best placement in u (stage place) looking `depth` rolls
 * ahead: depth 0 the static value of the best placement; deeper, the best
 * `inner_width` placements by static value are valued by roll_value.
 */
static double place_value(TetrollAi *ai, const TetrollState *u, int seat, int depth)
{
	static Ranked pool[4];	/* one per depth; the bot is single-threaded */
	Ranked *r = &pool[depth < 4 ? depth : 3];

	rank_placements(ai, u, seat, depth ? ai->p.inner_width : 1, r);
	if (!r->legal)
		return ended_value(ai, u, seat);
	if (!depth)
		return r->value[r->order[0]];
	double best = -INFINITY;
	for (int i = 0; i < r->n; i++) {
		double v = roll_value(ai, &r->after[r->order[i]], seat, depth - 1);
		if (v > best)
			best = v;
	}
	return best;
}

/* The chance of each shape number (1..6, 6 the joker) from one roll of 4 dice. */
static const double *shape_odds(void)
{
	static double odds[7];
	static bool done;

	if (done)
		return odds;
	for (int c = 0; c < DICE_CODES; c++) {
		int8_t d[TETROLL_DICE] = {(int8_t)(c / 216 + 1), (int8_t)(c / 36 % 6 + 1),
					  (int8_t)(c / 6 % 6 + 1), (int8_t)(c % 6 + 1)};
		sort4(d);
		odds[tetroll_dice_shape(d)] += 1.0 / DICE_CODES;
	}
	done = true;
	return odds;
}

/* u: t with the next roll showing shape number k for seat. */
static void with_shape(TetrollState *u, const TetrollState *t, int seat, int k)
{
	*u = *t;
	u->current = (int8_t)seat;
	for (int d = 0; d < TETROLL_DICE; d++)
		u->dice[d] = (int8_t)k;
	u->ndice = TETROLL_DICE;
	u->stage = TETROLL_STAGE_PLACE;
	u->nqueue = 0;
}

/*
 * The rolls of 4 dice as multisets, for chance nodes with a reroll: each
 * roll's odds, shape and the dice it can keep (its proper sub-multisets,
 * indices into kept_sets); each kept multiset's odds of every shape once
 * the other dice are rolled again.
 */
typedef struct {
	int n;
	int8_t v[TETROLL_DICE];
	double shape_p[7];
} KeptSet;

typedef struct {
	double p;
	int shape;
	int nsub;
	uint8_t sub[16];
} RollSet;

static KeptSet kept_sets[84];	/* 1 + 6 + 21 + 56 multisets of 0..3 dice */
static RollSet roll_sets[126];	/* multisets of 4 dice */
static int nkept_sets, nroll_sets;

static int kept_index(const int8_t *v, int n)
{
	for (int i = 0; i < nkept_sets; i++)
		if (kept_sets[i].n == n && !memcmp(kept_sets[i].v, v, (size_t)n))
			return i;
	return -1;
}

static void init_roll_sets(void)
{
	if (nroll_sets)
		return;
	for (int c = 0; c < DICE_CODES; c++) {	/* every sorted tuple of 0..4 dice, by prefix */
		int8_t d[TETROLL_DICE] = {(int8_t)(c / 216 + 1), (int8_t)(c / 36 % 6 + 1),
					  (int8_t)(c / 6 % 6 + 1), (int8_t)(c % 6 + 1)};
		int8_t sorted[TETROLL_DICE];
		memcpy(sorted, d, sizeof(d));
		sort4(sorted);
		if (memcmp(sorted, d, sizeof(d)))
			continue;
		for (int n = 0; n < TETROLL_DICE; n++) {
			if (kept_index(d, n) >= 0)
				continue;
			KeptSet *k = &kept_sets[nkept_sets++];
			k->n = n;
			memcpy(k->v, d, (size_t)n);
			int total = 1;
			for (int i = n; i < TETROLL_DICE; i++)
				total *= 6;
			for (int r = 0; r < total; r++) {
				int8_t nd[TETROLL_DICE];
				int rest = r;
				memcpy(nd, d, (size_t)n);
				for (int i = n; i < TETROLL_DICE; i++) {
					nd[i] = (int8_t)(rest % 6 + 1);
					rest /= 6;
				}
				sort4(nd);
				k->shape_p[tetroll_dice_shape(nd)] += 1.0 / total;
			}
		}
	}
	/* the 126 multisets with their odds */
	static int8_t dice_of[126][TETROLL_DICE];
	for (int c = 0; c < DICE_CODES; c++) {
		int8_t d[TETROLL_DICE] = {(int8_t)(c / 216 + 1), (int8_t)(c / 36 % 6 + 1),
					  (int8_t)(c / 6 % 6 + 1), (int8_t)(c % 6 + 1)};
		sort4(d);
		int i;
		for (i = 0; i < nroll_sets; i++)
			if (!memcmp(dice_of[i], d, sizeof(d)))
				break;
		if (i == nroll_sets) {
			memcpy(dice_of[i], d, sizeof(d));
			roll_sets[i].shape = tetroll_dice_shape(d);
			nroll_sets++;
		}
		roll_sets[i].p += 1.0 / DICE_CODES;
	}
	assert(nkept_sets == 84 && nroll_sets == 126);
	for (int i = 0; i < nroll_sets; i++) {
		RollSet *r = &roll_sets[i];
		for (unsigned mask = 1; mask < 16; mask++) {	/* mask: the dice rerolled */
			int8_t k[TETROLL_DICE];
			int n = 0;
			for (int j = 0; j < TETROLL_DICE; j++)
				if (!(mask >> j & 1u))
					k[n++] = dice_of[i][j];
			int idx = kept_index(k, n), seen = 0;
			for (int j = 0; j < r->nsub; j++)
				seen |= r->sub[j] == idx;
			if (idx >= 0 && !seen)
				r->sub[r->nsub++] = (uint8_t)idx;
		}
	}
}

/*
 * The worth of sheet t (a placement made and settled) over the next roll:
 * the six shape outcomes, the best placement of each searched depth more
 * rolls; with reroll_aware, over the 4 dice with the choice of one reroll
 * paid with the cheapest open first prize, else by the shapes' odds.
 */
static double roll_value(TetrollAi *ai, const TetrollState *t, int seat, int depth)
{
	const double *odds = shape_odds();
	double v = 0, sv[7], cost[TETROLL_BONUSES];
	int pay[TETROLL_BONUSES];

	if (t->sheet[seat].status != TETROLL_PLAYING)
		return tetrollai_eval(ai, t, seat);
	for (int k = 1; k <= 6; k++) {
		TetrollState u;
		with_shape(&u, t, seat, k);
		sv[k] = place_value(ai, &u, seat, depth);
	}
	if (ai->p.risk > 0) {
		/* risk-seeking: the certainty equivalent of an exponential utility */
		double top = sv[1];
		for (int k = 2; k <= 6; k++)
			top = sv[k] > top ? sv[k] : top;
		for (int k = 1; k <= 6; k++)
			v += odds[k] * exp((sv[k] - top) / ai->p.risk);
		return top + ai->p.risk * log(v);
	}
	if (!ai->p.reroll_aware || !pay_costs(ai, t, seat, cost, pay)) {
		for (int k = 1; k <= 6; k++)
			v += odds[k] * sv[k];
		return v;
	}
	double ek[84];
	init_roll_sets();
	for (int i = 0; i < nkept_sets; i++) {
		ek[i] = -cost[0];
		for (int k = 1; k <= 6; k++)
			ek[i] += kept_sets[i].shape_p[k] * sv[k];
	}
	for (int i = 0; i < nroll_sets; i++) {
		const RollSet *r = &roll_sets[i];
		double best = sv[r->shape];
		for (int j = 0; j < r->nsub; j++)
			if (ek[r->sub[j]] > best)
				best = ek[r->sub[j]];
		v += r->p * best;
	}
	return v;
}

/* ---- rollouts: the greedy policy played to the end, the same dice for every candidate ---- */

#define ROLLOUT_TURNS TETROLLAI_MAX_DEPTH	/* turns a rollout may last */
#define ROLLOUT_ROLLS 3		/* a turn's roll and up to two rerolls */

/* The dice of one rollout: [turn][roll], each sorted. */
typedef int8_t RolloutDice[ROLLOUT_TURNS][ROLLOUT_ROLLS][TETROLL_DICE];

/* A hash of what seat decides from in s: its sheet, the turn and the dice. */
static uint64_t decision_hash(const TetrollState *s, int seat)
{
	const unsigned char *b = (const unsigned char *)&s->sheet[seat];
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < sizeof(s->sheet[seat]); i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	h = (h ^ (uint64_t)(uint16_t)s->turns) * 1099511628211ULL;
	for (int i = 0; i < TETROLL_DICE; i++)
		h = (h ^ (uint8_t)s->dice[i]) * 1099511628211ULL;
	return h;
}

/* The dice of rollouts 0..n-1, from a generator seeded with the decision's hash and `label`. */
static void rollout_dice(RolloutDice *rd, int n, uint64_t seed, const char *label)
{
	for (int j = 0; j < n; j++) {
		Rng r;
		rng_seed(&r, rng_derive(seed, label, (uint64_t)j));
		for (int t = 0; t < ROLLOUT_TURNS; t++)
			for (int k = 0; k < ROLLOUT_ROLLS; k++) {
				for (int i = 0; i < TETROLL_DICE; i++)
					rd[j][t][k][i] = (int8_t)rng_die(&r, 6);
				sort4(rd[j][t][k]);
			}
	}
}

/*
 * One greedy turn of `p` in u with the dice d (a roll and its rerolls):
 * the best placement by static value; when the roll fits nowhere, all four
 * dice rerolled (paid with the cheapest open first prize, up to
 * max_rerolls times). False when nothing fits: p's game is over (its
 * status is set so).
 */
static bool rollout_turn(TetrollAi *ai, TetrollState *u, int p, int8_t d[ROLLOUT_ROLLS][TETROLL_DICE], Move *scratch)
{
	double cost[TETROLL_BONUSES];
	int pay[TETROLL_BONUSES];
	Move m = 0;

	for (int k = 0;; k++) {
		u->current = (int8_t)p;
		memcpy(u->dice, d[k], sizeof(u->dice));
		u->ndice = TETROLL_DICE;
		u->nroll = 0;
		u->stage = TETROLL_STAGE_PLACE;
		u->nqueue = 0;
		best_placement(ai, u, p, &m);
		if (m)
			break;
		if (k + 1 == ROLLOUT_ROLLS || k >= ai->p.max_rerolls || !pay_costs(ai, u, p, cost, pay)) {
			u->sheet[p].status = TETROLL_ENDED;
			return false;
		}
		u->sheet[p].prize[pay[0]] = TETROLL_PRIZE_CROSSED;
	}
	variant_tetroll.apply(u, p, m);
	settle(ai, u, p, scratch);
	return true;
}

/* p's final score in u, or its static value when the game outlasted the rollout. */
static double rollout_end(TetrollAi *ai, const TetrollState *u, int p)
{
	return u->sheet[p].status != TETROLL_PLAYING ? ended_value(ai, u, p) : tetrollai_eval(ai, u, p);
}

/*
 * p's final score in u, or (still playing) its fitted forecast: the score
 * now and the points greedy play goes on to score (tetrollai_fitted, the
 * set for the game's number of players).
 */
static double rollout_forecast(TetrollAi *ai, const TetrollState *u, int p)
{
	if (u->sheet[p].status != TETROLL_PLAYING)
		return ended_value(ai, u, p);
	ai->evals++;
	return weighted_value(ai, u, p, tetrollai_fitted[u->nplayers > 1]);
}

/*
 * Play t (a placement made and settled) on with the greedy policy
 * (rollout_turn) and the dice d. Returns the final score (the static
 * value should the game outlast ROLLOUT_TURNS turns). With p.rollout_depth
 * = D > 0 the rollout stops after D turns, and a sheet still playing is
 * valued by its fitted forecast (rollout_forecast). With `od` (the
 * opponent's dice: given only with p.rollout_race > 0 at 2 players) the opponent, while its
 * game lasts, plays its turns too, before each of ours, by the same policy
 * from its side, so that the first prizes are raced for as in the game;
 * the value is then the final margin m over its score, as
 * rollout_race x tanh(m / rollout_race): near the margin itself for a
 * large rollout_race, near the chance of winning (scaled) for a small one.
 */
static double rollout(TetrollAi *ai, const TetrollState *t, int seat, RolloutDice d, int8_t (*od)[ROLLOUT_ROLLS][TETROLL_DICE])
{
	Move scratch[MAX_MOVES];
	TetrollState u = *t;
	int opp = 1 - seat, turns = ai->p.rollout_depth > 0 ? ai->p.rollout_depth : ROLLOUT_TURNS;
	bool race = od != NULL, cut = false;

	for (int turn = 0; turn < ROLLOUT_TURNS; turn++) {
		bool mine = u.sheet[seat].status == TETROLL_PLAYING, theirs = race && u.sheet[opp].status == TETROLL_PLAYING;
		if (!mine && !theirs)
			break;
		if (turn == turns) {
			cut = true;
			break;
		}
		if (theirs)
			rollout_turn(ai, &u, opp, od[turn], scratch);
		if (mine)
			rollout_turn(ai, &u, seat, d[turn], scratch);
	}
	double (*end)(TetrollAi *, const TetrollState *, int) = cut ? rollout_forecast : rollout_end;
	if (!race)
		return end(ai, &u, seat);
	double spread = ai->p.rollout_race;
	return spread * tanh((end(ai, &u, seat) - end(ai, &u, opp)) / spread);
}

/* See tetrollai.h. */
void tetrollai_rollout_values(TetrollAi *ai, const TetrollState *s, int seat, const TetrollState *const *cand, int n,
			      double *value)
{
	static RolloutDice rd[TETROLLAI_MAX_PLAYED], od[TETROLLAI_MAX_PLAYED];
	static double score[TETROLLAI_MAX_WIDTH][TETROLLAI_MAX_PLAYED];
	int runs = ai->p.rollouts < 1 ? 1 : ai->p.rollouts < TETROLLAI_MAX_ROLLOUTS ? ai->p.rollouts : TETROLLAI_MAX_ROLLOUTS;
	double risk = ai->p.rollout_risk, z = risk > 0 ? 0 : ai->p.rollout_prune;
	int played[TETROLLAI_MAX_WIDTH] = {0}, alive = n, budget = n * runs, spent = 0;
	int most = z > 0 ? (4 * runs < TETROLLAI_MAX_PLAYED ? 4 * runs : TETROLLAI_MAX_PLAYED) : runs;
	bool live[TETROLLAI_MAX_WIDTH];

	assert(n <= TETROLLAI_MAX_WIDTH);
	for (int c = 0; c < n; c++)
		live[c] = true;
	uint64_t hash = decision_hash(s, seat);
	rollout_dice(rd, most, hash, "tetrollai rollout");
	bool race = ai->p.rollout_race > 0 && s->nplayers == 2;
	if (race)
		rollout_dice(od, most, hash, "tetrollai rollout opponent");
	/* every live candidate has played the same rollouts 0..done */
	int done = 0;
	while (done < most && (alive > 1 || z <= 0 || !done) && spent < budget &&
	       (!done || ((ai->rollout_cap <= 0 || ai->evals - ai->move_start <= ai->rollout_cap) &&
			  !past_deadline(ai)))) {
		/* a round: up to ROUND more each, within `most` and the budget left shared out */
		int end = done + TETROLLAI_ROLLOUT_ROUND < most ? done + TETROLLAI_ROLLOUT_ROUND : most;
		int share = done + (budget - spent + alive - 1) / alive;
		end = end < share ? end : share;
		bool late = false;
		for (int c = 0; c < n && !late; c++) {
			if (!live[c])
				continue;
			/* past the deadline inside a round after the first: the
			 * round is dropped, every candidate keeps `done` */
			late = done > 0 && past_deadline(ai);
			for (int j = done; j < end && !late; j++)
				score[c][j] = rollout(ai, cand[c], seat, rd[j], race ? od[j] : NULL);
			played[c] = end;
		}
		if (late) {	/* the candidates this round reached go back to `done` */
			for (int c = 0; c < n; c++)
				played[c] = played[c] > done ? done : played[c];
			break;
		}
		spent += alive * (end - done);
		done = end;
		if (z <= 0 || done < 2 * TETROLLAI_ROLLOUT_ROUND)
			continue;
		/* drop the live candidates clearly behind the leader, paired rollout by rollout */
		int lead = -1;
		double lead_sum = -INFINITY;
		for (int c = 0; c < n; c++) {
			double sum = 0;
			for (int j = 0; live[c] && j < done; j++)
				sum += score[c][j];
			if (live[c] && sum > lead_sum) {
				lead_sum = sum;
				lead = c;
			}
		}
		for (int c = 0; c < n; c++) {
			if (!live[c] || c == lead)
				continue;
			double sum = 0, sq = 0;
			for (int j = 0; j < done; j++) {
				double d = score[c][j] - score[lead][j];
				sum += d;
				sq += d * d;
			}
			double mean = sum / done, var = (sq - sum * mean) / (done - 1);
			if (mean + z * sqrt((var > 0 ? var : 0) / done) < 0) {
				live[c] = false;
				alive--;
			}
		}
	}
	/*
	 * A candidate that played every rollout is valued by its mean; one
	 * dropped early by the best of those's mean plus its own mean
	 * difference to it over the rollouts both played.
	 */
	int best = -1;
	for (int c = 0; c < n; c++) {
		double top = -INFINITY, sum = 0;
		for (int j = 0; j < played[c]; j++)
			top = score[c][j] > top ? score[c][j] : top;
		for (int j = 0; j < played[c]; j++)
			sum += risk > 0 ? exp((score[c][j] - top) / risk) : score[c][j];
		value[c] = risk > 0 ? top + risk * log(sum / played[c]) : sum / played[c];
		if (played[c] == done && (best < 0 || value[c] > value[best]))
			best = c;
	}
	for (int c = 0; c < n; c++) {
		if (played[c] == done)
			continue;
		double sum = 0;
		for (int j = 0; j < played[c]; j++)
			sum += score[c][j] - score[best][j];
		value[c] = value[best] + sum / played[c];
	}
}

/* Of r's sheets order[0..w) (w > 1), the index into order of the best by their rollouts. */
static int rollout_pick(TetrollAi *ai, const TetrollState *s, int seat, const Ranked *r, const int *order, int w)
{
	const TetrollState *cand[TETROLLAI_MAX_WIDTH] = {0};	/* (gcc 12 cannot tell the loop fills w) */
	double rv[TETROLLAI_MAX_WIDTH];
	int pick = 0;

	assert(w > 1 && w <= TETROLLAI_MAX_WIDTH);
	for (int i = 0; i < w; i++)
		cand[i] = &r->after[order[i]];
	tetrollai_rollout_values(ai, s, seat, cand, w, rv);
	for (int i = 1; i < w; i++)
		if (rv[i] > rv[pick])
			pick = i;
	return pick;
}

/*
 * Placement with lookahead: each of the best lookahead_width placements by
 * static value is valued again by roll_value one roll deep; with
 * lookahead > 1, the best deep_width of those by that value are valued
 * again `lookahead` rolls deep, best first, while the eval cap lasts, and
 * the best of those so valued is played.
 */
static Move place_lookahead(TetrollAi *ai, const TetrollState *s, int seat)
{
	static Ranked top;
	int keep = ai->p.lookahead_width, order[TETROLLAI_MAX_WIDTH];
	double v1[TETROLLAI_MAX_WIDTH + 1];

	if (keep < 1)
		keep = 1;
	if (keep > TETROLLAI_MAX_WIDTH)
		keep = TETROLLAI_MAX_WIDTH;
	rank_placements(ai, s, seat, keep, &top);
	int n = 0;
	for (int i = 0; i < top.n; i++) {
		if (i > 0 && over_eval_cap(ai))
			break;	/* out of budget: the best re-valued so far stands */
		int slot = top.order[i], j = n++;
		v1[slot] = roll_value(ai, &top.after[slot], seat, 0);
		while (j > 0 && v1[order[j - 1]] < v1[slot]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = slot;
	}
	if (n > 1 && ai->p.rollouts > 0 && ai->p.rollout_width > 1) {
		/* the best rollout_width at one roll, by their rollouts */
		int w = n < ai->p.rollout_width ? n : ai->p.rollout_width;
		return top.move[order[rollout_pick(ai, s, seat, &top, order, w)]];
	}
	if (ai->p.lookahead < 2 || n < 2)
		return top.move[order[0]];
	double best = -INFINITY;
	Move pick = top.move[order[0]];
	for (int i = 0; i < n && i < ai->p.deep_width; i++) {
		if (i > 0 && over_eval_cap(ai))
			break;
		int slot = order[i];
		double v = roll_value(ai, &top.after[slot], seat, ai->p.lookahead - 1);
		if (v > best) {
			best = v;
			pick = top.move[slot];
		}
	}
	return pick;
}

/*
 * A follow-up (copy, ring or #6 number) chosen by rollouts: the best
 * rollout_width by static value (each settled: a further follow-up
 * greedily) are each played on to the end as a placement's are.
 */
static Move followup_rollouts(TetrollAi *ai, const TetrollState *s, int seat)
{
	static Ranked top;
	int w = ai->p.rollout_width < 1 ? 1 : ai->p.rollout_width < TETROLLAI_MAX_WIDTH ? ai->p.rollout_width : TETROLLAI_MAX_WIDTH;

	rank_placements(ai, s, seat, w, &top);
	return top.move[top.order[top.n > 1 ? rollout_pick(ai, s, seat, &top, top.order, top.n) : 0]];
}

/* See tetrollai.h. */
int tetrollai_analyse(TetrollAi *ai, const TetrollState *s, int seat, Move *moves, double *values)
{
	static DiceSearch ds;	/* large; the bot is single-threaded */
	Move scratch[MAX_MOVES];
	int pay[TETROLL_BONUSES];
	int n = variant_tetroll.legal_moves(s, seat, moves);

	ai->move_start = ai->evals;
	if (s->stage != TETROLL_STAGE_DICE) {
		for (int i = 0; i < n; i++) {
			TetrollState t = *s;
			variant_tetroll.apply(&t, seat, moves[i]);
			settle(ai, &t, seat, scratch);
			values[i] = roll_value(ai, &t, seat, 0);
		}
		return n;
	}
	memset(&ds, 0, sizeof(ds));
	for (int k = 1; k <= 6; k++) {
		TetrollState t = *s;
		for (int i = 0; i < TETROLL_DICE; i++)
			t.dice[i] = (int8_t)k;
		t.stage = TETROLL_STAGE_PLACE;
		ds.shape_value[k] = place_value(ai, &t, seat, 1);
	}
	ds.risk = ai->p.dice_risk;
	ds.top = ds.shape_value[1];
	for (int k = 2; k <= 6; k++)
		ds.top = ds.shape_value[k] > ds.top ? ds.shape_value[k] : ds.top;
	ds.ncost = pay_costs(ai, s, seat, ds.cost, pay);
	ds.depth = ai->p.max_rerolls;
	for (int i = 0; i < n; i++) {
		if (tetroll_move_kind(moves[i]) != TETROLL_MOVE_REROLL) {
			values[i] = ds.shape_value[tetroll_dice_shape(s->dice)];
			continue;
		}
		unsigned mask = (unsigned)(moves[i] >> 4 & 15u);
		int bonus = (int)(moves[i] >> 8 & 15u) - 1, j = 0;
		while (j < ds.ncost && pay[j] != bonus)
			j++;
		/* reroll_value pays the cheapest prize; this move pays its own */
		values[i] = reroll_value(&ds, s->dice, mask, 0) + (j < ds.ncost ? ds.cost[0] - ds.cost[j] : 0);
	}
	return n;
}

Move tetrollai_choose(TetrollAi *ai, const TetrollState *s, int seat)
{
	Move moves[MAX_MOVES], m = 0;

	ai->move_start = ai->evals;
	switch ((TetrollStage)s->stage) {
	case TETROLL_STAGE_DICE:
		return choose_dice(ai, s, seat);
	case TETROLL_STAGE_PLACE:
		if (ai->p.lookahead)
			return place_lookahead(ai, s, seat);
		best_placement(ai, s, seat, &m);
		return m;
	case TETROLL_STAGE_COPY:
	case TETROLL_STAGE_RING:
	case TETROLL_STAGE_WRITE:
		if (ai->p.rollouts > 0 && ai->p.followup_rollouts)
			return followup_rollouts(ai, s, seat);
		return best_followup(ai, s, seat, moves, false);
	case TETROLL_STAGE_ROLL:
	case TETROLL_STAGE_OVER:
		break;
	}
	assert(!"tetrollai_choose: not a decision of this seat");
	return 0;
}
