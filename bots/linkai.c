/*
 * linkai: expectimax for Tetris Link. See linkai.h for the method.
 *
 * Values are in tenths of a point. The weights below were set by playing
 * the bot against bot-random and against its own depth-1 self with
 * `bin/bot-link --arena` (see bots/README.md for the numbers).
 */
#include "linkai.h"

#include <string.h>

#define WIN_BONUS 100000	/* a finished game outweighs any promise */
#define OPEN_CAP 4		/* open cells counted per group */

/* Tenths of a point per open cell along a group of 1, 2, 3+ pieces. */
static const int open_weight[4] = {0, 2, 6, 3};

void linkai_init(LinkAi *ai)
{
	ai->depth = 2;
	ai->nodes = 0;
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

/* Every seat's value: points scored and the promise of its groups. OUT: val[]. */
static void values(const LinkState *s, int *val)
{
	int colh[LINK_MAX_WIDTH], maxh = 0;
	int16_t root[LINK_MAX_PIECES];
	uint8_t open[LINK_MAX_PIECES];
	int pot[LINK_MAX_PLAYERS] = {0};

	for (int x = 0; x < s->width; x++) {
		colh[x] = board_column_height(&s->board, x);
		if (colh[x] > maxh)
			maxh = colh[x];
	}
	for (int i = 0; i < s->npieces; i++) {
		root[i] = (int16_t)root_of(s, i);
		open[i] = 0;
	}
	int top = maxh < s->height - 1 ? maxh : s->height - 1;
	for (int y = 0; y <= top; y++) {
		for (int x = 0; x < s->width; x++) {
			if (y < colh[x])
				continue;	/* filled, or a hole nothing can reach */
			int seen[3], n = 0;
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
				if (open[r] < OPEN_CAP)
					open[r]++;
			}
		}
	}
	for (int i = 0; i < s->npieces; i++) {
		if (root[i] != i)
			continue;
		int sz = s->size[i] >= 3 ? 3 : s->size[i];
		pot[s->piece[i].owner] += open_weight[sz] * open[i];
	}
	for (int p = 0; p < s->nplayers; p++) {
		int left = pieces_left(s, p);
		int scale = left < 6 ? left : 6;
		val[p] = 10 * s->score[p] + pot[p] * scale / 6 + link_largest_group(s, p);
	}
}

int linkai_evaluate(const LinkState *s, int seat)
{
	int val[LINK_MAX_PLAYERS];
	int best_other = -WIN_BONUS * 10;

	if (s->stage == LINK_STAGE_OVER) {
		int rank[LINK_MAX_PLAYERS], scores[LINK_MAX_PLAYERS], best = -100000;
		variant_link.ranking(s, rank);
		variant_link.scores(s, scores);
		for (int p = 0; p < s->nplayers; p++)
			if (p != seat && scores[p] > best)
				best = scores[p];
		int bonus = rank[seat] == 1 ? WIN_BONUS : -WIN_BONUS;
		return bonus + 10 * (scores[seat] - best);
	}
	values(s, val);
	for (int p = 0; p < s->nplayers; p++)
		if (p != seat && is_active(s, p) && val[p] > best_other)
			best_other = val[p];
	return val[seat] - best_other;
}

/* The value for `seat` of the best placement of the current player, by their evaluation. */
static int reply_value(LinkAi *ai, const LinkState *s, int seat)
{
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int n = variant_link.legal_moves(s, s->current, moves);
	int best = 0, best_theirs = 0;
	bool any = false;

	for (int i = 0; i < n; i++) {
		LinkState t = *s;
		variant_link.apply(&t, t.current, moves[i]);
		ai->nodes++;
		int theirs = linkai_evaluate(&t, s->current);
		if (!any || theirs > best_theirs) {
			any = true;
			best_theirs = theirs;
			best = s->current == seat ? theirs : linkai_evaluate(&t, seat);
		}
	}
	return any ? best : linkai_evaluate(s, seat);
}

/* Expected value for `seat` of s, where the next player is about to roll. */
static int chance_value(LinkAi *ai, const LinkState *s, int seat)
{
	long sum = 0;

	if (s->stage != LINK_STAGE_ROLL)
		return linkai_evaluate(s, seat);
	for (int f = 0; f <= LINK_FACE_LOGO; f++) {
		LinkState t = *s;
		variant_link.apply(&t, VARIANT_CHANCE, (Move)f);
		if (t.stage == LINK_STAGE_PLACE)
			sum += reply_value(ai, &t, seat);
		else
			sum += linkai_evaluate(&t, seat);
	}
	return (int)(sum / (LINK_FACE_LOGO + 1));
}

Move linkai_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx)
{
	LinkAi *ai = ctx;
	const LinkState *s = state;
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int n = v->legal_moves(state, seat, moves);
	int best = 0;
	Move best_move = n > 0 ? moves[0] : 0;
	bool deep = ai->depth >= 2 && ms_left >= LINKAI_FAST_MS;

	(void)rng;
	ai->nodes = 0;
	for (int i = 0; i < n; i++) {
		LinkState t = *s;
		v->apply(&t, seat, moves[i]);
		ai->nodes++;
		int val = deep ? chance_value(ai, &t, seat) : linkai_evaluate(&t, seat);
		if (i == 0 || val > best) {
			best = val;
			best_move = moves[i];
		}
	}
	return best_move;
}
