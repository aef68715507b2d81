/*
 * tetroll: Tetroll. See tetroll.h for the rules as played here.
 *
 * Invariants of TetrollState: per sheet, bits[] and cell[] agree (bit x of
 * bits[y] is set iff cell[y][x] is non-zero); rings[b] never exceeds
 * track[b]; prize[b] is FIRST or RUNNER iff rings[b] == track[b]; the dice
 * kept are sorted ascending; in the copy, ring and write stages queue[0]
 * is the task being decided and it can be carried out (an empty grid cell
 * exists, or a bonus other than #3 has room).
 */
#include "tetroll.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "scan.h"

#define BONUS3 2	/* indices of bonuses #3 and #6 */
#define BONUS6 5

static const VariantOption tetroll_options[TETROLL_OPT_COUNT] = {
	{"width", 6, 4, TETROLL_MAX_WIDTH, "columns of the sheet"},
	{"height", 12, 4, TETROLL_MAX_HEIGHT, "rows of the sheet (below the dashed line)"},
	{"rings1", 8, 1, TETROLL_MAX_RINGS, "rings of bonus #1"},
	{"rings2", 7, 1, TETROLL_MAX_RINGS, "rings of bonus #2"},
	{"rings3", 6, 1, TETROLL_MAX_RINGS, "rings of bonus #3"},
	{"rings4", 6, 1, TETROLL_MAX_RINGS, "rings of bonus #4"},
	{"rings5", 5, 1, TETROLL_MAX_RINGS, "rings of bonus #5"},
	{"rings6", 4, 1, TETROLL_MAX_RINGS, "rings of bonus #6"},
	{"runner1", 2, 0, 16, "points of bonus #1's runner-up prize"},
	{"specials", 1, 0, 1, "1: the default special spaces, 0: a plain sheet"},
};

/* The default special-space map, top row first (rules.md). */
#define MAP_W 6
#define MAP_H 12
static const char default_map[MAP_H][MAP_W + 1] = {
	".b..B.",
	"c..b..",
	"..b...",
	"b..B..",
	".c..b.",
	"..B..b",
	"b.....",
	".b..c.",
	"..b...",
	"B..b..",
	"..c.b.",
	".b....",
};

/* Shape numbers 1..5 in order. */
static const PieceKind number_piece[5] = {PIECE_I, PIECE_O, PIECE_T, PIECE_L, PIECE_S};

PieceKind tetroll_shape_piece(int number)
{
	assert(number >= 1 && number <= 5);
	return number_piece[number - 1];
}

int tetroll_dice_shape(const int8_t dice[TETROLL_DICE])
{
	int count[7] = {0}, best = 0, nbest = 0, lowest = 7;

	for (int i = 0; i < TETROLL_DICE; i++) {
		count[dice[i]]++;
		if (dice[i] < lowest)
			lowest = dice[i];
	}
	for (int v = 1; v <= 6; v++) {
		if (count[v] > count[best]) {
			best = v;
			nbest = 1;
		} else if (best && count[v] == count[best]) {
			nbest++;
		}
	}
	/* A unique majority is a value seen more often than any other. */
	if (nbest == 1 && count[best] >= 2)
		return best;
	return lowest;
}

TetrollSpace tetroll_space(const TetrollState *s, int x, int y)
{
	if (!s->specials || y < 0 || y >= s->height)
		return TETROLL_SPACE_PLAIN;
	switch (default_map[MAP_H - 1 - y % MAP_H][x % MAP_W]) {
	case 'b':
		return TETROLL_SPACE_RING;
	case 'B':
		return TETROLL_SPACE_DOUBLE;
	case 'c':
		return TETROLL_SPACE_COPY;
	default:
		return TETROLL_SPACE_PLAIN;
	}
}

bool tetroll_row_full(const TetrollState *s, int seat, int y)
{
	return s->sheet[seat].bits[y] == (uint16_t)((1u << s->width) - 1u);
}

int tetroll_row_score(const TetrollState *s, int seat, int y)
{
	bool seen[7] = {false};
	int score = 10;

	for (int x = 0; x < s->width; x++) {
		int v = s->sheet[seat].cell[y][x];
		if (seen[v])
			score -= v;
		seen[v] = true;
	}
	return score;
}

int tetroll_score(const TetrollState *s, int seat, int *rows_out, int bonus[TETROLL_BONUSES])
{
	const TetrollSheet *sh = &s->sheet[seat];
	int rows = 0, even = 0, odd = 0, total;

	for (int y = 0; y < s->height; y++) {
		if (!tetroll_row_full(s, seat, y))
			continue;
		int r = tetroll_row_score(s, seat, y);
		rows += r;
		if (r % 2 == 0)
			even++;
		else
			odd++;
	}
	int first[TETROLL_BONUSES], runner[TETROLL_BONUSES];
	for (int b = 0; b < TETROLL_BONUSES; b++) {
		first[b] = sh->prize[b] == TETROLL_PRIZE_FIRST;
		runner[b] = sh->prize[b] == TETROLL_PRIZE_RUNNER;
	}
	bonus[0] = sh->rings[0] + 4 * first[0] + s->runner1 * runner[0];
	bonus[1] = even * (2 * first[1] + runner[1]);
	bonus[2] = 2 * sh->rings[2];
	bonus[3] = 16 * first[3] + 4 * runner[3];
	bonus[4] = odd * (4 * first[4] + 2 * runner[4]);
	bonus[5] = 3 * sh->rings[5];
	total = rows;
	for (int b = 0; b < TETROLL_BONUSES; b++)
		total += bonus[b];
	if (rows_out)
		*rows_out = rows;
	return total;
}

bool tetroll_fits(const TetrollState *s, int seat, const Orientation *o, int x, int y)
{
	const TetrollSheet *sh = &s->sheet[seat];
	bool rests = false;

	if (x < 0 || y < 0 || y >= s->height || x + o->width > s->width)
		return false;
	for (int i = 0; i < 4; i++) {
		int cx = x + o->x[i], cy = y + o->y[i];
		if ((sh->bits[cy] >> cx) & 1u)
			return false;
		if (cy == 0 || ((sh->bits[cy - 1] >> cx) & 1u))
			rests = true;
	}
	return rests;
}

Move tetroll_move_keep(void)
{
	return TETROLL_MOVE_KEEP;
}

Move tetroll_move_reroll(unsigned mask, int bonus)
{
	return TETROLL_MOVE_REROLL | (Move)mask << 4 | (Move)bonus << 8;
}

Move tetroll_move_place(PieceKind kind, int rot, int x, int y)
{
	return TETROLL_MOVE_PLACE | (Move)kind << 4 | (Move)rot << 8 | (Move)x << 12 | (Move)y << 18;
}

Move tetroll_move_copy(int x, int y)
{
	return TETROLL_MOVE_COPY | (Move)x << 12 | (Move)y << 18;
}

Move tetroll_move_ring(int bonus)
{
	return TETROLL_MOVE_RING | (Move)bonus << 4;
}

Move tetroll_move_write(int number, int x, int y)
{
	return TETROLL_MOVE_WRITE | (Move)number << 4 | (Move)x << 12 | (Move)y << 18;
}

Move tetroll_move_roll(int n, const int *values)
{
	Move m = (Move)n;

	for (int i = 0; i < n; i++)
		m |= (Move)values[i] << (4 + 4 * i);
	return m;
}

static int field(Move m, int shift, int bits)
{
	return (int)((m >> shift) & ((1u << bits) - 1u));
}

int tetroll_placements(const TetrollState *s, int seat, PieceKind shape, Move *out)
{
	const Orientation *os[8];
	int n = piece_free_orientations(shape, os), count = 0;

	for (int k = 0; k < n; k++)
		for (int y = 0; y < s->height; y++)
			for (int x = 0; x + os[k]->width <= s->width; x++)
				if (tetroll_fits(s, seat, os[k], x, y))
					out[count++] = tetroll_move_place((PieceKind)os[k]->kind,
									  os[k]->rot, x, y);
	return count;
}

bool tetroll_shape_fits(const TetrollState *s, int seat, PieceKind shape)
{
	const Orientation *os[8];
	int n = piece_free_orientations(shape, os);

	for (int k = 0; k < n; k++)
		for (int y = 0; y < s->height; y++)
			for (int x = 0; x + os[k]->width <= s->width; x++)
				if (tetroll_fits(s, seat, os[k], x, y))
					return true;
	return false;
}

bool tetroll_can_pay(const TetrollState *s, int seat, int b)
{
	return s->sheet[seat].prize[b] == TETROLL_PRIZE_OPEN;
}

static bool any_payable(const TetrollState *s, int seat)
{
	for (int b = 0; b < TETROLL_BONUSES; b++)
		if (tetroll_can_pay(s, seat, b))
			return true;
	return false;
}

static bool grid_has_empty(const TetrollState *s, int seat)
{
	for (int y = 0; y < s->height; y++)
		if (!tetroll_row_full(s, seat, y))
			return true;
	return false;
}

static bool ring_has_room(const TetrollState *s, int seat)
{
	for (int b = 0; b < TETROLL_BONUSES; b++)
		if (b != BONUS3 && s->sheet[seat].rings[b] < s->track[b])
			return true;
	return false;
}

/* Decisions triggered by one write, collected before they join the queue. */
typedef struct {
	int n;
	TetrollTask task[TETROLL_QUEUE];
} Triggered;

static void trigger(Triggered *t, int kind, int n)
{
	if (t->n < TETROLL_QUEUE)
		t->task[t->n++] = (TetrollTask){(int8_t)kind, (int8_t)n};
}

/* Track b of `seat` is full: award its prize and cross out the other's first. */
static void complete(TetrollState *s, int seat, int b, Triggered *t)
{
	TetrollSheet *sh = &s->sheet[seat];
	bool first = sh->prize[b] == TETROLL_PRIZE_OPEN;

	sh->prize[b] = first ? TETROLL_PRIZE_FIRST : TETROLL_PRIZE_RUNNER;
	if (first)
		for (int q = 0; q < s->nplayers; q++)
			if (q != seat && s->sheet[q].prize[b] == TETROLL_PRIZE_OPEN)
				s->sheet[q].prize[b] = TETROLL_PRIZE_CROSSED;
	if (b == BONUS3)
		trigger(t, TETROLL_TASK_RING, first ? 3 : 2);
	else if (b == BONUS6)
		trigger(t, TETROLL_TASK_WRITE, first ? 2 : 1);
}

static void mark(TetrollState *s, int seat, int b, int n, Triggered *t)
{
	TetrollSheet *sh = &s->sheet[seat];

	if (sh->rings[b] >= s->track[b])
		return;		/* marks beyond a full track are lost */
	sh->rings[b] = (int8_t)(sh->rings[b] + n > s->track[b] ? s->track[b] : sh->rings[b] + n);
	if (sh->rings[b] == s->track[b])
		complete(s, seat, b, t);
}

/* Mark the rings of the repeats of full row y. */
static void score_row(TetrollState *s, int seat, int y, Triggered *t)
{
	bool seen[7] = {false};

	for (int x = 0; x < s->width; x++) {
		int v = s->sheet[seat].cell[y][x];
		if (seen[v])
			mark(s, seat, v - 1, 1, t);
		seen[v] = true;
	}
}

/* Put the triggered decisions in front of those already pending. */
static void push_front(TetrollState *s, const Triggered *t)
{
	int room = TETROLL_QUEUE - t->n;
	int keep = s->nqueue < room ? s->nqueue : room;

	memmove(s->queue + t->n, s->queue, (size_t)keep * sizeof(s->queue[0]));
	memcpy(s->queue, t->task, (size_t)t->n * sizeof(s->queue[0]));
	s->nqueue = (int8_t)(keep + t->n);
}

/*
 * Write number v into n cells of `seat` at once (a piece, or one cell),
 * perform the special spaces, score the rows completed, queue decisions.
 */
static void write_cells(TetrollState *s, int seat, const int *xs, const int *ys, int n, int v)
{
	TetrollSheet *sh = &s->sheet[seat];
	Triggered t = {0};
	bool full_before[4];

	for (int i = 0; i < n; i++)
		full_before[i] = ys[i] < s->height && tetroll_row_full(s, seat, ys[i]);
	for (int i = 0; i < n; i++) {
		assert(!sh->cell[ys[i]][xs[i]]);
		sh->cell[ys[i]][xs[i]] = (uint8_t)v;
		sh->bits[ys[i]] |= (uint16_t)(1u << xs[i]);
	}
	for (int i = 0; i < n; i++) {
		switch (tetroll_space(s, xs[i], ys[i])) {
		case TETROLL_SPACE_COPY:
			trigger(&t, TETROLL_TASK_COPY, v);
			break;
		case TETROLL_SPACE_RING:
			mark(s, seat, v - 1, 1, &t);
			break;
		case TETROLL_SPACE_DOUBLE:
			mark(s, seat, v - 1, 2, &t);
			break;
		case TETROLL_SPACE_PLAIN:
			break;
		}
	}
	for (int i = 0; i < n; i++) {
		bool dup = false;
		for (int j = 0; j < i; j++)
			dup |= ys[j] == ys[i];
		if (!dup && ys[i] < s->height && !full_before[i] && tetroll_row_full(s, seat, ys[i]))
			score_row(s, seat, ys[i], &t);
	}
	push_front(s, &t);
}

/* Drop the front task; unused slots stay zero, so equal states compare equal. */
static void pop(TetrollState *s)
{
	s->nqueue--;
	memmove(s->queue, s->queue + 1, (size_t)s->nqueue * sizeof(s->queue[0]));
	s->queue[s->nqueue] = (TetrollTask){0, 0};
}

static int next_playing(const TetrollState *s, int seat)
{
	for (int k = 1; k <= s->nplayers; k++) {
		int p = (seat + k) % s->nplayers;
		if (s->sheet[p].status == TETROLL_PLAYING)
			return p;
	}
	return -1;
}

static void next_turn(TetrollState *s)
{
	int p = next_playing(s, s->current);

	s->nqueue = 0;
	s->ndice = 0;
	memset(s->queue, 0, sizeof(s->queue));
	memset(s->dice, 0, sizeof(s->dice));
	if (p < 0) {
		s->stage = TETROLL_STAGE_OVER;
		s->nroll = 0;
		return;
	}
	s->current = (int8_t)p;
	s->stage = TETROLL_STAGE_ROLL;
	s->nroll = TETROLL_DICE;
	s->turns++;
}

/* After an action: the next pending decision that can be carried out, or the next turn. */
static void advance(TetrollState *s)
{
	int seat = s->current;

	while (s->nqueue) {
		const TetrollTask *t = &s->queue[0];
		bool can = t->kind == TETROLL_TASK_RING ? ring_has_room(s, seat)
							: grid_has_empty(s, seat);
		if (can && t->n > 0) {
			s->stage = t->kind == TETROLL_TASK_COPY ? TETROLL_STAGE_COPY
				 : t->kind == TETROLL_TASK_RING ? TETROLL_STAGE_RING
				 : TETROLL_STAGE_WRITE;
			return;
		}
		pop(s);		/* nothing left to do it with: lost */
	}
	next_turn(s);
}

/* The front task was carried out once: consume it. */
static void consume(TetrollState *s)
{
	assert(s->nqueue > 0);
	if (s->queue[0].kind != TETROLL_TASK_COPY && --s->queue[0].n > 0)
		return;
	pop(s);
}

/* The dice are final: place the selected shape, or end this player's game. */
static void settle_dice(TetrollState *s)
{
	int seat = s->current, shape = tetroll_dice_shape(s->dice);
	bool fits = false;

	if (shape == 6) {
		for (int n = 1; n <= 5 && !fits; n++)
			fits = tetroll_shape_fits(s, seat, number_piece[n - 1]);
	} else {
		fits = tetroll_shape_fits(s, seat, number_piece[shape - 1]);
	}
	if (fits) {
		s->stage = TETROLL_STAGE_PLACE;
		return;
	}
	s->sheet[seat].status = TETROLL_ENDED;
	next_turn(s);
}

static void sort_dice(TetrollState *s)
{
	for (int i = 1; i < s->ndice; i++)
		for (int j = i; j > 0 && s->dice[j - 1] > s->dice[j]; j--) {
			int8_t tmp = s->dice[j];
			s->dice[j] = s->dice[j - 1];
			s->dice[j - 1] = tmp;
		}
}

static void tetroll_init(void *state, const VariantConfig *cfg)
{
	TetrollState *s = state;

	memset(s, 0, sizeof(*s));
	s->nplayers = (int8_t)cfg->nplayers;
	s->width = (int8_t)cfg->opt[TETROLL_OPT_WIDTH];
	s->height = (int8_t)cfg->opt[TETROLL_OPT_HEIGHT];
	for (int b = 0; b < TETROLL_BONUSES; b++)
		s->track[b] = (int8_t)cfg->opt[TETROLL_OPT_RINGS1 + b];
	s->runner1 = (int8_t)cfg->opt[TETROLL_OPT_RUNNER1];
	s->specials = (int8_t)cfg->opt[TETROLL_OPT_SPECIALS];
	s->current = 0;
	s->stage = TETROLL_STAGE_ROLL;
	s->nroll = TETROLL_DICE;
	s->turns = 1;
}

static VariantPhase tetroll_phase(const void *state, uint32_t *mask)
{
	const TetrollState *s = state;

	*mask = 0;
	if (s->stage == TETROLL_STAGE_OVER)
		return VARIANT_PHASE_OVER;
	if (s->stage == TETROLL_STAGE_ROLL)
		return VARIANT_PHASE_CHANCE;
	*mask = 1u << s->current;
	return VARIANT_PHASE_TURN;
}

/* Whether a reroll mask is canonical: equal dice are rerolled first-come. */
static bool mask_canonical(const TetrollState *s, unsigned mask)
{
	for (int i = 1; i < s->ndice; i++)
		if ((mask >> i & 1u) && s->dice[i] == s->dice[i - 1] && !(mask >> (i - 1) & 1u))
			return false;
	return true;
}

static int empty_cells(const TetrollState *s, int seat, int *xs, int *ys)
{
	int n = 0;

	for (int y = 0; y < s->height; y++)
		for (int x = 0; x < s->width; x++)
			if (!s->sheet[seat].cell[y][x]) {
				xs[n] = x;
				ys[n] = y;
				n++;
			}
	return n;
}

static int tetroll_legal_moves(const void *state, int player, Move *out)
{
	const TetrollState *s = state;
	int n = 0, xs[TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT], ys[TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];

	if (player == VARIANT_CHANCE) {
		if (s->stage != TETROLL_STAGE_ROLL)
			return 0;
		int k = s->nroll, total = 1, v[TETROLL_DICE];
		for (int i = 0; i < k; i++)
			total *= 6;
		for (int c = 0; c < total; c++) {
			int r = c;
			for (int i = 0; i < k; i++) {
				v[i] = r % 6 + 1;
				r /= 6;
			}
			out[n++] = tetroll_move_roll(k, v);
		}
		return n;
	}
	if (s->stage == TETROLL_STAGE_OVER || s->stage == TETROLL_STAGE_ROLL || player != s->current)
		return 0;
	switch ((TetrollStage)s->stage) {
	case TETROLL_STAGE_DICE:
		out[n++] = tetroll_move_keep();
		for (unsigned mask = 1; mask < (1u << s->ndice); mask++) {
			if (!mask_canonical(s, mask))
				continue;
			for (int b = 0; b < TETROLL_BONUSES; b++)
				if (tetroll_can_pay(s, player, b))
					out[n++] = tetroll_move_reroll(mask, b + 1);
		}
		break;
	case TETROLL_STAGE_PLACE: {
		int shape = tetroll_dice_shape(s->dice);
		for (int k = 1; k <= 5; k++)
			if (shape == 6 || shape == k)
				n += tetroll_placements(s, player, number_piece[k - 1], out + n);
		break;
	}
	case TETROLL_STAGE_COPY: {
		int e = empty_cells(s, player, xs, ys);
		for (int i = 0; i < e; i++)
			out[n++] = tetroll_move_copy(xs[i], ys[i]);
		break;
	}
	case TETROLL_STAGE_RING:
		for (int b = 0; b < TETROLL_BONUSES; b++)
			if (b != BONUS3 && s->sheet[player].rings[b] < s->track[b])
				out[n++] = tetroll_move_ring(b + 1);
		break;
	case TETROLL_STAGE_WRITE: {
		int e = empty_cells(s, player, xs, ys);
		for (int v = 1; v <= 6; v++)
			for (int i = 0; i < e; i++)
				out[n++] = tetroll_move_write(v, xs[i], ys[i]);
		break;
	}
	case TETROLL_STAGE_ROLL:
	case TETROLL_STAGE_OVER:
		break;
	}
	return n;
}

static void tetroll_apply(void *state, int player, Move m)
{
	TetrollState *s = state;
	int seat = s->current;

	if (player == VARIANT_CHANCE) {
		assert(s->stage == TETROLL_STAGE_ROLL);
		int k = field(m, 0, 4);
		assert(k == s->nroll && s->ndice + k == TETROLL_DICE);
		for (int i = 0; i < k; i++)
			s->dice[s->ndice++] = (int8_t)field(m, 4 + 4 * i, 4);
		s->nroll = 0;
		sort_dice(s);
		if (any_payable(s, seat))
			s->stage = TETROLL_STAGE_DICE;
		else
			settle_dice(s);
		return;
	}
	assert(player == seat);
	switch (tetroll_move_kind(m)) {
	case TETROLL_MOVE_KEEP:
		assert(s->stage == TETROLL_STAGE_DICE);
		settle_dice(s);
		return;
	case TETROLL_MOVE_REROLL: {
		unsigned mask = (unsigned)field(m, 4, 4);
		int b = field(m, 8, 4) - 1, kept = 0;
		assert(s->stage == TETROLL_STAGE_DICE && tetroll_can_pay(s, seat, b));
		for (int i = 0; i < s->ndice; i++)
			if (!(mask >> i & 1u))
				s->dice[kept++] = s->dice[i];
		s->nroll = (int8_t)(s->ndice - kept);
		s->ndice = (int8_t)kept;
		for (int i = kept; i < TETROLL_DICE; i++)
			s->dice[i] = 0;
		s->sheet[seat].prize[b] = TETROLL_PRIZE_CROSSED;
		s->stage = TETROLL_STAGE_ROLL;
		return;
	}
	case TETROLL_MOVE_PLACE: {
		const Orientation *o = piece_orientation((PieceKind)field(m, 4, 4), field(m, 8, 4));
		int x = field(m, 12, 6), y = field(m, 18, 6), xs[4], ys[4];
		assert(s->stage == TETROLL_STAGE_PLACE && tetroll_fits(s, seat, o, x, y));
		for (int i = 0; i < 4; i++) {
			xs[i] = x + o->x[i];
			ys[i] = y + o->y[i];
		}
		write_cells(s, seat, xs, ys, 4, tetroll_dice_shape(s->dice));
		s->ndice = 0;
		memset(s->dice, 0, sizeof(s->dice));
		advance(s);
		return;
	}
	case TETROLL_MOVE_COPY:
	case TETROLL_MOVE_WRITE: {
		int x = field(m, 12, 6), y = field(m, 18, 6);
		int v = tetroll_move_kind(m) == TETROLL_MOVE_COPY ? s->queue[0].n : field(m, 4, 4);
		assert(s->stage == (tetroll_move_kind(m) == TETROLL_MOVE_COPY ? TETROLL_STAGE_COPY
									    : TETROLL_STAGE_WRITE));
		consume(s);
		write_cells(s, seat, &x, &y, 1, v);
		advance(s);
		return;
	}
	case TETROLL_MOVE_RING: {
		Triggered t = {0};
		assert(s->stage == TETROLL_STAGE_RING);
		consume(s);
		mark(s, seat, field(m, 4, 4) - 1, 1, &t);
		push_front(s, &t);
		advance(s);
		return;
	}
	default:
		assert(!"unknown tetroll move");
	}
}

static Move tetroll_chance_sample(const void *state, Rng *rng)
{
	const TetrollState *s = state;
	int v[TETROLL_DICE];

	for (int i = 0; i < s->nroll; i++)
		v[i] = rng_die(rng, 6);
	return tetroll_move_roll(s->nroll, v);
}

static void tetroll_retire(void *state, int player)
{
	TetrollState *s = state;

	s->sheet[player].status = TETROLL_RETIRED;
	if (s->stage == TETROLL_STAGE_OVER)
		return;
	/* A 2-player game whose other seat is retired ends at once: the one
	 * left ranks first whatever it would still score. */
	if (s->nplayers > 1) {
		s->nqueue = 0;
		s->ndice = 0;
		memset(s->queue, 0, sizeof(s->queue));
		memset(s->dice, 0, sizeof(s->dice));
		s->stage = TETROLL_STAGE_OVER;
		s->nroll = 0;
		return;
	}
	if (player != s->current)
		return;
	next_turn(s);
}

static void tetroll_scores(const void *state, int *out)
{
	const TetrollState *s = state;
	int bonus[TETROLL_BONUSES];

	for (int p = 0; p < s->nplayers; p++)
		out[p] = tetroll_score(s, p, NULL, bonus);
}

static void tetroll_ranking(const void *state, int *rank)
{
	const TetrollState *s = state;
	int score[TETROLL_MAX_PLAYERS];

	tetroll_scores(s, score);
	for (int p = 0; p < s->nplayers; p++) {
		bool rp = s->sheet[p].status == TETROLL_RETIRED;
		rank[p] = 1;
		for (int q = 0; q < s->nplayers; q++) {
			bool rq = s->sheet[q].status == TETROLL_RETIRED;
			if ((rp && !rq) || (rp == rq && score[q] > score[p]))
				rank[p]++;
		}
	}
}

/* ---- notation ----------------------------------------------------------- */

static void tetroll_move_format(const void *state, int player, Move m, Text *out)
{
	const TetrollState *s = state;

	if (player == VARIANT_CHANCE) {
		text_puts(out, "roll:");
		for (int i = 0; i < field(m, 0, 4); i++)
			text_putc(out, (char)('0' + field(m, 4 + 4 * i, 4)));
		return;
	}
	switch (tetroll_move_kind(m)) {
	case TETROLL_MOVE_KEEP:
		text_puts(out, "keep");
		return;
	case TETROLL_MOVE_REROLL:
		text_puts(out, "reroll:");
		for (int i = 0; i < s->ndice; i++)
			if (field(m, 4, 4) >> i & 1)
				text_putc(out, (char)('0' + s->dice[i]));
		text_printf(out, ":b%d", field(m, 8, 4));
		return;
	case TETROLL_MOVE_PLACE:
		text_printf(out, "%c%d@%d:%d", piece_letter((PieceKind)field(m, 4, 4)), field(m, 8, 4),
			    field(m, 12, 6), field(m, 18, 6));
		return;
	case TETROLL_MOVE_COPY:
		text_printf(out, "copy@%d:%d", field(m, 12, 6), field(m, 18, 6));
		return;
	case TETROLL_MOVE_RING:
		text_printf(out, "ring:%d", field(m, 4, 4));
		return;
	case TETROLL_MOVE_WRITE:
		text_printf(out, "write:%d@%d:%d", field(m, 4, 4), field(m, 12, 6), field(m, 18, 6));
		return;
	default:
		text_puts(out, "?");
	}
}


static bool parse_cell(const char **p, int *x, int *y)
{
	return scan_int(p, 0, TETROLL_MAX_WIDTH - 1, x) && *(*p)++ == ':' &&
	       scan_int(p, 0, TETROLL_ROWS - 1, y);
}

static bool tetroll_move_parse(const void *state, int player, const char *text, Move *out)
{
	const TetrollState *s = state;
	const char *p = text;
	int x, y, v;

	if (player == VARIANT_CHANCE) {
		int vals[TETROLL_DICE], n = 0;
		if (strncmp(p, "roll:", 5) != 0)
			return false;
		for (p += 5; *p; p++) {
			if (*p < '1' || *p > '6' || n == TETROLL_DICE)
				return false;
			vals[n++] = *p - '0';
		}
		if (!n)
			return false;
		*out = tetroll_move_roll(n, vals);
		return true;
	}
	if (strcmp(p, "keep") == 0) {
		*out = tetroll_move_keep();
		return true;
	}
	if (strncmp(p, "reroll:", 7) == 0) {
		unsigned mask = 0;
		for (p += 7; *p >= '1' && *p <= '6'; p++) {
			int i;
			for (i = 0; i < s->ndice; i++)
				if (s->dice[i] == *p - '0' && !(mask >> i & 1u))
					break;
			if (i == s->ndice)
				return false;
			mask |= 1u << i;
		}
		if (!mask || *p++ != ':' || *p++ != 'b' || !scan_int(&p, 1, 6, &v) || *p)
			return false;
		*out = tetroll_move_reroll(mask, v);
		return true;
	}
	if (strncmp(p, "copy@", 5) == 0) {
		p += 5;
		if (!parse_cell(&p, &x, &y) || *p)
			return false;
		*out = tetroll_move_copy(x, y);
		return true;
	}
	if (strncmp(p, "ring:", 5) == 0) {
		p += 5;
		if (!scan_int(&p, 1, 6, &v) || *p)
			return false;
		*out = tetroll_move_ring(v);
		return true;
	}
	if (strncmp(p, "write:", 6) == 0) {
		p += 6;
		if (!scan_int(&p, 1, 6, &v) || *p++ != '@' || !parse_cell(&p, &x, &y) || *p)
			return false;
		*out = tetroll_move_write(v, x, y);
		return true;
	}
	PieceKind kind = piece_from_letter(*p);
	int rot;
	if (kind == PIECE_NONE || *p < 'A' || *p > 'Z')
		return false;
	p++;
	if (!scan_int(&p, 0, piece_rotations(kind) - 1, &rot) || *p++ != '@' ||
	    !parse_cell(&p, &x, &y) || *p)
		return false;
	*out = tetroll_move_place(kind, rot, x, y);
	return true;
}

/* ---- state lines --------------------------------------------------------- */

static const char *const stage_names[] = {"roll", "dice", "place", "copy", "ring", "write", "over"};
static const char *const task_names[] = {"", "copy", "ring", "write"};
static const char *const status_names[] = {"play", "ended", "retired"};
static const char prize_chars[] = "ox12";

/*
 * One line: settings, stage, current seat, dice, selected shape, pending
 * decisions, status and scores per seat, then per seat its sheet (top row
 * first, the 3 rows above the dashed line included, '.' empty), its rings
 * per bonus and its prizes (o open, x crossed out, 1 first won, 2 runner-up
 * won).
 */
static void tetroll_state_format(const void *state, int viewer, Text *out)
{
	const TetrollState *s = state;
	int score[TETROLL_MAX_PLAYERS];

	(void)viewer;
	tetroll_scores(s, score);
	text_printf(out, "players=%d width=%d height=%d rings=", s->nplayers, s->width, s->height);
	for (int b = 0; b < TETROLL_BONUSES; b++)
		text_printf(out, "%s%d", b ? "," : "", s->track[b]);
	text_printf(out, " runner1=%d specials=%d stage=%s current=%d turn=%d dice=", s->runner1,
		    s->specials, stage_names[s->stage], s->current, s->turns);
	if (!s->ndice)
		text_putc(out, '-');
	for (int i = 0; i < s->ndice; i++)
		text_putc(out, (char)('0' + s->dice[i]));
	text_printf(out, " roll=%d shape=", s->nroll);
	if (s->ndice == TETROLL_DICE) {
		int shape = tetroll_dice_shape(s->dice);
		if (shape == 6)
			text_puts(out, "joker");
		else
			text_printf(out, "%d%c", shape, piece_letter(number_piece[shape - 1]));
	} else {
		text_putc(out, '-');
	}
	text_puts(out, " queue=");
	if (!s->nqueue)
		text_putc(out, '-');
	for (int i = 0; i < s->nqueue; i++)
		text_printf(out, "%s%s:%d", i ? "," : "", task_names[s->queue[i].kind], s->queue[i].n);
	text_puts(out, " status=");
	for (int p = 0; p < s->nplayers; p++)
		text_printf(out, "%s%s", p ? "," : "", status_names[s->sheet[p].status]);
	text_puts(out, " scores=");
	for (int p = 0; p < s->nplayers; p++)
		text_printf(out, "%s%d", p ? "," : "", score[p]);
	for (int p = 0; p < s->nplayers; p++) {
		const TetrollSheet *sh = &s->sheet[p];
		text_printf(out, " sheet%d=", p);
		for (int y = s->height + TETROLL_ABOVE - 1; y >= 0; y--) {
			for (int x = 0; x < s->width; x++)
				text_putc(out, sh->cell[y][x] ? (char)('0' + sh->cell[y][x]) : '.');
			if (y)
				text_putc(out, '/');
		}
		text_printf(out, " rings%d=", p);
		for (int b = 0; b < TETROLL_BONUSES; b++)
			text_printf(out, "%s%d", b ? "," : "", sh->rings[b]);
		text_printf(out, " prizes%d=", p);
		for (int b = 0; b < TETROLL_BONUSES; b++)
			text_putc(out, prize_chars[sh->prize[b]]);
	}
}




static bool tetroll_state_parse(void *state, const VariantConfig *cfg, const char *text)
{
	TetrollState *s = state;
	const char *p = text;
	int v, np, w, h;
	VariantConfig c = *cfg;

	if (!scan_key(&p, "players") || !scan_int(&p, 1, TETROLL_MAX_PLAYERS, &np) ||
	    !scan_key(&p, "width") || !scan_int(&p, 4, TETROLL_MAX_WIDTH, &w) ||
	    !scan_key(&p, "height") || !scan_int(&p, 4, TETROLL_MAX_HEIGHT, &h) ||
	    !scan_key(&p, "rings"))
		return false;
	c.nplayers = np;
	c.opt[TETROLL_OPT_WIDTH] = w;
	c.opt[TETROLL_OPT_HEIGHT] = h;
	for (int b = 0; b < TETROLL_BONUSES; b++) {
		if ((b && *p++ != ',') || !scan_int(&p, 1, TETROLL_MAX_RINGS, &v))
			return false;
		c.opt[TETROLL_OPT_RINGS1 + b] = v;
	}
	if (!scan_key(&p, "runner1") || !scan_int(&p, 0, 16, &v))
		return false;
	c.opt[TETROLL_OPT_RUNNER1] = v;
	if (!scan_key(&p, "specials") || !scan_int(&p, 0, 1, &v))
		return false;
	c.opt[TETROLL_OPT_SPECIALS] = v;
	tetroll_init(s, &c);

	int stage, current, turns;
	if (!scan_key(&p, "stage") || !scan_name(&p, stage_names, 7, ",:", &stage) ||
	    !scan_key(&p, "current") || !scan_int(&p, 0, np - 1, &current) ||
	    !scan_key(&p, "turn") || !scan_int(&p, 0, 30000, &turns) ||
	    !scan_key(&p, "dice"))
		return false;
	s->stage = (int8_t)stage;
	s->current = (int8_t)current;
	s->turns = (int16_t)turns;
	s->ndice = 0;
	if (*p == '-') {
		p++;
	} else {
		while (*p >= '1' && *p <= '6' && s->ndice < TETROLL_DICE)
			s->dice[s->ndice++] = (int8_t)(*p++ - '0');
		if (!s->ndice)
			return false;
		sort_dice(s);
	}
	if (!scan_key(&p, "roll") || !scan_int(&p, 0, TETROLL_DICE, &v))
		return false;
	s->nroll = (int8_t)v;
	if ((stage == TETROLL_STAGE_ROLL) != (v > 0) ||
	    (stage == TETROLL_STAGE_ROLL && s->ndice + s->nroll != TETROLL_DICE))
		return false;
	if ((stage == TETROLL_STAGE_DICE || stage == TETROLL_STAGE_PLACE) != (s->ndice == TETROLL_DICE))
		return false;
	if (!scan_key(&p, "shape"))
		return false;
	scan_skip_value(&p);
	if (!scan_key(&p, "queue"))
		return false;
	s->nqueue = 0;
	if (*p == '-') {
		p++;
	} else {
		do {
			int kind, n;
			if (s->nqueue == TETROLL_QUEUE || !scan_name(&p, task_names, 4, ",:", &kind) ||
			    *p++ != ':' || !scan_int(&p, 1, 6, &n))
				return false;
			s->queue[s->nqueue++] = (TetrollTask){(int8_t)kind, (int8_t)n};
		} while (*p == ',' && p++);
	}
	static const int8_t stage_task[] = {0, 0, 0, TETROLL_TASK_COPY, TETROLL_TASK_RING,
					    TETROLL_TASK_WRITE, 0};
	if (stage_task[stage] ? !s->nqueue || s->queue[0].kind != stage_task[stage] : s->nqueue)
		return false;
	if (!scan_key(&p, "status"))
		return false;
	for (int q = 0; q < np; q++) {
		if ((q && *p++ != ',') || !scan_name(&p, status_names, 3, ",:", &v))
			return false;
		s->sheet[q].status = (int8_t)v;
	}
	if (!scan_key(&p, "scores"))
		return false;
	scan_skip_value(&p);
	for (int q = 0; q < np; q++) {
		TetrollSheet *sh = &s->sheet[q];
		char key[32];
		snprintf(key, sizeof(key), "sheet%d", q);
		if (!scan_key(&p, key))
			return false;
		for (int y = h + TETROLL_ABOVE - 1; y >= 0; y--) {
			for (int x = 0; x < w; x++) {
				char ch = *p++;
				if (ch == '.')
					continue;
				if (ch < '1' || ch > '6')
					return false;
				sh->cell[y][x] = (uint8_t)(ch - '0');
				sh->bits[y] |= (uint16_t)(1u << x);
			}
			if (y && *p++ != '/')
				return false;
		}
		snprintf(key, sizeof(key), "rings%d", q);
		if (!scan_key(&p, key))
			return false;
		for (int b = 0; b < TETROLL_BONUSES; b++) {
			if ((b && *p++ != ',') || !scan_int(&p, 0, s->track[b], &v))
				return false;
			sh->rings[b] = (int8_t)v;
		}
		snprintf(key, sizeof(key), "prizes%d", q);
		if (!scan_key(&p, key))
			return false;
		for (int b = 0; b < TETROLL_BONUSES; b++) {
			const char *c2 = *p ? strchr(prize_chars, *p) : NULL;
			if (!c2)
				return false;
			p++;
			sh->prize[b] = (int8_t)(c2 - prize_chars);
			bool done = sh->prize[b] >= TETROLL_PRIZE_FIRST;
			if (done != (sh->rings[b] == s->track[b]))
				return false;
		}
	}
	while (*p == ' ')
		p++;
	return *p == '\0';
}

/* ---- picture ------------------------------------------------------------- */

/* The sheet's special spaces, for drawing (variant.h, layout). */
static void tetroll_layout(const void *state, Text *out)
{
	const TetrollState *t = state;
	static const char mark[] = {
		[TETROLL_SPACE_PLAIN] = '.', [TETROLL_SPACE_RING] = 'r',
		[TETROLL_SPACE_DOUBLE] = 'd', [TETROLL_SPACE_COPY] = 'c',
	};

	for (int y = t->height - 1; y >= 0; y--) {
		for (int x = 0; x < t->width; x++)
			text_putc(out, mark[tetroll_space(t, x, y)]);
		if (y)
			text_putc(out, '/');
	}
}

static void tetroll_render(const void *state, bool colour, Text *out)
{
	const TetrollState *s = state;
	static const char *const num_colour[7] = {
		"", "\033[36m", "\033[33m", "\033[35m", "\033[34m", "\033[32m", "\033[31m"
	};

	for (int p = 0; p < s->nplayers; p++)
		text_printf(out, "   seat %d%*s", p, 2 * s->width + 1, "");
	text_putc(out, '\n');
	for (int y = s->height + TETROLL_ABOVE - 1; y >= 0; y--) {
		for (int p = 0; p < s->nplayers; p++) {
			const TetrollSheet *sh = &s->sheet[p];
			if (y < s->height)
				text_printf(out, "%2d |", y);
			else
				text_puts(out, "   :");
			for (int x = 0; x < s->width; x++) {
				int v = sh->cell[y][x];
				if (v) {
					if (colour)
						text_printf(out, " %s%d\033[0m", num_colour[v], v);
					else
						text_printf(out, " %d", v);
					continue;
				}
				static const char space_char[] = ".bBc";
				text_printf(out, " %c", y < s->height ? space_char[tetroll_space(s, x, y)] : ' ');
			}
			if (y < s->height && tetroll_row_full(s, p, y))
				text_printf(out, " |%3d  ", tetroll_row_score(s, p, y));
			else
				text_puts(out, " |     ");
		}
		text_putc(out, '\n');
		if (y == s->height) {
			for (int p = 0; p < s->nplayers; p++) {
				text_puts(out, "   -");
				for (int x = 0; x < s->width; x++)
					text_puts(out, "--");
				text_puts(out, "-+     ");
			}
			text_putc(out, '\n');
		}
	}
	for (int p = 0; p < s->nplayers; p++) {
		const TetrollSheet *sh = &s->sheet[p];
		int rows, bonus[TETROLL_BONUSES], total = tetroll_score(s, p, &rows, bonus);
		text_printf(out, "seat %d: %d points (rows %d", p, total, rows);
		for (int b = 0; b < TETROLL_BONUSES; b++)
			text_printf(out, ", #%d %d", b + 1, bonus[b]);
		text_printf(out, ")%s\n  tracks", sh->status == TETROLL_PLAYING ? ""
			    : sh->status == TETROLL_ENDED ? ", game ended" : ", retired");
		for (int b = 0; b < TETROLL_BONUSES; b++) {
			static const char *const prize_words[] = {"", " first crossed", " FIRST", " runner-up"};
			text_printf(out, "  #%d %d/%d%s", b + 1, sh->rings[b], s->track[b],
				    prize_words[sh->prize[b]]);
		}
		text_putc(out, '\n');
	}
	if (s->stage != TETROLL_STAGE_OVER && s->stage != TETROLL_STAGE_ROLL) {
		text_printf(out, "seat %d to %s, dice", s->current, stage_names[s->stage]);
		for (int i = 0; i < s->ndice; i++)
			text_printf(out, " %d", s->dice[i]);
		if (s->nqueue)
			text_printf(out, ", pending %s %d", task_names[s->queue[0].kind], s->queue[0].n);
		text_putc(out, '\n');
	}
}

const Variant variant_tetroll = {
	.name = "tetroll",
	.title = "Tetroll",
	.min_players = 1,
	.max_players = TETROLL_MAX_PLAYERS,
	.options = tetroll_options,
	.n_options = TETROLL_OPT_COUNT,
	.state_size = sizeof(TetrollState),
	.max_moves = PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT,
	.chance_public = true,
	.lower_score_wins = false,
	.fault_policy = VARIANT_FAULT_FORFEIT,
	.init = tetroll_init,
	.phase = tetroll_phase,
	.legal_moves = tetroll_legal_moves,
	.apply = tetroll_apply,
	.chance_sample = tetroll_chance_sample,
	.apply_joint = NULL,
	.retire = tetroll_retire,
	.halt = NULL,
	.scores = tetroll_scores,
	.ranking = tetroll_ranking,
	.move_format = tetroll_move_format,
	.move_parse = tetroll_move_parse,
	.state_format = tetroll_state_format,
	.state_parse = tetroll_state_parse,
	.render = tetroll_render,
	.layout = tetroll_layout,
};
