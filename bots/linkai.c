/*
 * linkai: expectimax for Tetris Link. See linkai.h for the method.
 *
 * Values are in tenths of a point. The weights below were set by playing
 * the bot against bot-random and against its own depth-1 self with
 * `bin/bot-link --arena` (see bots/README.md for the numbers).
 */
#include "linkai.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define WIN_BONUS 100000	/* a finished game outweighs any promise */

static const int default_weights[LINKAI_W_COUNT] = {2, 6, 3, 4, 6, 0};

void linkai_init(LinkAi *ai)
{
	ai->depth = 2;
	memcpy(ai->w, default_weights, sizeof(ai->w));
	ai->nodes = 0;
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

/* Every seat's value: points scored and the promise of its groups. OUT: val[]. */
static void values(const LinkAi *ai, const LinkState *s, int *val)
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
				if (open[r] < ai->w[LINKAI_W_CAP])
					open[r]++;
			}
		}
	}
	for (int i = 0; i < s->npieces; i++) {
		if (root[i] != i)
			continue;
		int sz = s->size[i] >= 3 ? 3 : s->size[i];
		pot[s->piece[i].owner] += ai->w[LINKAI_W_OPEN1 + sz - 1] * open[i];
	}
	for (int p = 0; p < s->nplayers; p++) {
		int left = pieces_left(s, p);
		int full = ai->w[LINKAI_W_LEFT];
		int scale = left < full ? left : full;
		val[p] = 10 * s->score[p] + pot[p] * scale / full + link_largest_group(s, p);
	}
}

int linkai_evaluate(const LinkAi *ai, const LinkState *s, int seat)
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
	values(ai, s, val);
	for (int p = 0; p < s->nplayers; p++)
		if (p != seat && is_active(s, p) && val[p] > best_other)
			best_other = val[p];
	int v = val[seat] - best_other;
	if (ai->w[LINKAI_W_BUMP]) {
		/* A ragged surface costs gaps to whoever places next. */
		int bump = 0;
		for (int x = 0; x + 1 < s->width; x++) {
			int d = board_column_height(&s->board, x) - board_column_height(&s->board, x + 1);
			bump += d < 0 ? -d : d;
		}
		v += (s->current == seat ? -1 : 1) * ai->w[LINKAI_W_BUMP] * bump / 4;
	}
	return v;
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
		int theirs = linkai_evaluate(ai, &t, s->current);
		if (!any || theirs > best_theirs) {
			any = true;
			best_theirs = theirs;
			best = s->current == seat ? theirs : linkai_evaluate(ai, &t, seat);
		}
	}
	return any ? best : linkai_evaluate(ai, s, seat);
}

/* Expected value for `seat` of s, where the next player is about to roll. */
static int chance_value(LinkAi *ai, const LinkState *s, int seat)
{
	long sum = 0;

	if (s->stage != LINK_STAGE_ROLL)
		return linkai_evaluate(ai, s, seat);
	for (int f = 0; f <= LINK_FACE_LOGO; f++) {
		LinkState t = *s;
		variant_link.apply(&t, VARIANT_CHANCE, (Move)f);
		if (t.stage == LINK_STAGE_PLACE)
			sum += reply_value(ai, &t, seat);
		else
			sum += linkai_evaluate(ai, &t, seat);
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
		int val = deep ? chance_value(ai, &t, seat) : linkai_evaluate(ai, &t, seat);
		if (i == 0 || val > best) {
			best = val;
			best_move = moves[i];
		}
	}
	return best_move;
}
