/*
 * rush: Tetris, the real-time board game. See rush.h for the rules as
 * played here.
 *
 * Invariants of RushState: board[p] and cell[p] agree (a square is filled
 * iff its cell holds a kind); a retired seat holds nothing in hand or slot;
 * status PLAY implies some active seat has a legal action (otherwise the
 * game is over for want of blocks); pending/pending_mask mean something only
 * in status RESOLVE.
 */
#include "rush.h"

#include <assert.h>
#include <string.h>

#include "scan.h"

static const VariantOption rush_options[RUSH_OPT_COUNT] = {
	{"width", 10, 4, RUSH_MAX_WIDTH, "columns of each board"},
	{"height", 20, 4, RUSH_MAX_HEIGHT, "rows of each board"},
	{"box", 20, 1, RUSH_MAX_BOX, "copies of each of the 7 shapes in the box"},
	{"lockstep", 0, 0, 1, "1: ticks of simultaneous actions instead of real time"},
	/* Read by the referee, not the rules: see variant.h on `pace`. */
	{"pace", 100, 0, 10000, "real time: ms at least from one action of a seat to its next"},
};

Move rush_move_take(PieceKind kind)
{
	return (Move)RUSH_MOVE_TAKE | (Move)kind << 4;
}

Move rush_move_place(PieceKind kind, int rot, int x, int y)
{
	return (Move)RUSH_MOVE_PLACE | (Move)kind << 4 | (Move)rot << 8 | (Move)x << 12 |
	       (Move)y << 20;
}

Move rush_move_give(int seat)
{
	return (Move)RUSH_MOVE_GIVE | (Move)seat << 4;
}

Move rush_move_discard(void)
{
	return (Move)RUSH_MOVE_DISCARD;
}

RushMoveType rush_move_type(Move m)
{
	return (RushMoveType)(m & 0xf);
}

void rush_move_unpack(Move m, PieceKind *kind, int *rot, int *x, int *y)
{
	assert(rush_move_type(m) == RUSH_MOVE_PLACE);
	*kind = (PieceKind)((m >> 4) & 0xf);
	*rot = (int)((m >> 8) & 0xf);
	*x = (int)((m >> 12) & 0xff);
	*y = (int)((m >> 20) & 0xff);
}

int rush_move_target(Move m)
{
	assert(rush_move_type(m) == RUSH_MOVE_GIVE);
	return (int)((m >> 4) & 0xf);
}

static PieceKind move_kind(Move m)
{
	return (PieceKind)((m >> 4) & 0xf);
}

bool rush_can_place(const Board *b, const Orientation *o, int x, int y)
{
	if (!board_fits(b, o, x, y))
		return false;
	if (y == 0)
		return true;	/* the lowest cell of an orientation is at y 0 */
	for (int i = 0; i < 4; i++) {
		int cx = x + o->x[i], cy = y + o->y[i];
		if (board_get(b, cx - 1, cy) || board_get(b, cx + 1, cy) ||
		    board_get(b, cx, cy - 1) || board_get(b, cx, cy + 1))
			return true;
	}
	return false;
}

int rush_placements(const Board *b, PieceKind kind, Move *out)
{
	int n = 0;

	for (int r = 0; r < piece_rotations(kind); r++) {
		const Orientation *o = piece_orientation(kind, r);
		for (int y = 0; y + o->height <= b->height; y++)
			for (int x = 0; x + o->width <= b->width; x++)
				if (rush_can_place(b, o, x, y))
					out[n++] = rush_move_place(kind, r, x, y);
	}
	return n;
}

bool rush_fits(const Board *b, PieceKind kind)
{
	for (int r = 0; r < piece_rotations(kind); r++) {
		const Orientation *o = piece_orientation(kind, r);
		for (int y = 0; y + o->height <= b->height; y++)
			for (int x = 0; x + o->width <= b->width; x++)
				if (rush_can_place(b, o, x, y))
					return true;
	}
	return false;
}

PieceKind rush_active_block(const RushState *s, int seat)
{
	if (s->hand[seat] != PIECE_NONE)
		return (PieceKind)s->hand[seat];
	return (PieceKind)s->slot[seat];
}

int rush_uncovered(const RushState *s, int seat)
{
	return s->width * s->height - board_count(&s->board[seat]);
}

bool rush_active(const RushState *s, int seat)
{
	return !(s->retired >> seat & 1u);
}

static bool box_empty(const RushState *s)
{
	for (int k = 0; k < PIECE_COUNT; k++)
		if (s->box[k] > 0)
			return false;
	return true;
}

/* Whether seat p has any legal action (see the invariant). */
static bool can_act(const RushState *s, int p)
{
	if (!rush_active(s, p))
		return false;
	return rush_active_block(s, p) != PIECE_NONE || !box_empty(s);
}

static uint32_t acting_mask(const RushState *s)
{
	uint32_t mask = 0;

	for (int p = 0; p < s->nplayers; p++)
		if (can_act(s, p))
			mask |= 1u << p;
	return mask;
}

/* End the game if a top row is covered or nobody can act. */
static void check_end(RushState *s)
{
	if (s->status == RUSH_STATUS_OVER)
		return;
	if (s->tetris) {
		s->status = RUSH_STATUS_OVER;
		s->end = RUSH_END_TOP;
	} else if (__builtin_popcount(~s->retired & ((1u << s->nplayers) - 1u)) < (s->nplayers > 1 ? 2 : 1)) {
		/* the last seat left in a game of several: it ends at once */
		s->status = RUSH_STATUS_OVER;
		s->end = RUSH_END_RETIRED;
	} else if (!acting_mask(s)) {
		s->status = RUSH_STATUS_OVER;
		s->end = RUSH_END_EMPTY;
	}
}

static void rush_init(void *state, const VariantConfig *cfg)
{
	RushState *s = state;

	memset(s, 0, sizeof(*s));
	s->nplayers = (int8_t)cfg->nplayers;
	s->width = (int8_t)cfg->opt[RUSH_OPT_WIDTH];
	s->height = (int8_t)cfg->opt[RUSH_OPT_HEIGHT];
	s->per_shape = (int8_t)cfg->opt[RUSH_OPT_BOX];
	s->lockstep = (int8_t)cfg->opt[RUSH_OPT_LOCKSTEP];
	s->status = RUSH_STATUS_PLAY;
	s->end = RUSH_END_NONE;
	for (int k = 0; k < PIECE_COUNT; k++)
		s->box[k] = s->per_shape;
	for (int p = 0; p < RUSH_MAX_PLAYERS; p++) {
		s->hand[p] = PIECE_NONE;
		s->slot[p] = PIECE_NONE;
		board_init(&s->board[p], s->width, s->height);
	}
	check_end(s);
}

static VariantPhase rush_phase(const void *state, uint32_t *mask)
{
	const RushState *s = state;

	*mask = 0;
	switch ((RushStatus)s->status) {
	case RUSH_STATUS_PLAY:
		*mask = acting_mask(s);
		return s->lockstep ? VARIANT_PHASE_SIMULTANEOUS : VARIANT_PHASE_REALTIME;
	case RUSH_STATUS_RESOLVE:
		return VARIANT_PHASE_CHANCE;
	case RUSH_STATUS_OVER:
		break;
	}
	return VARIANT_PHASE_OVER;
}

/* Pack an order of n seats. */
static Move order_pack(const int *order, int n)
{
	Move m = 0;

	for (int i = 0; i < n; i++)
		m |= (Move)order[i] << (4 * i);
	return m;
}

/* Every permutation of n seats in lexicographic order; returns the count. */
static int all_orders(int n, Move *out)
{
	int a[RUSH_MAX_PLAYERS], count = 0;

	for (int i = 0; i < n; i++)
		a[i] = i;
	for (;;) {
		out[count++] = order_pack(a, n);
		/* Next permutation. */
		int i = n - 2;
		while (i >= 0 && a[i] >= a[i + 1])
			i--;
		if (i < 0)
			return count;
		int j = n - 1;
		while (a[j] <= a[i])
			j--;
		int t = a[i];
		a[i] = a[j];
		a[j] = t;
		for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) {
			t = a[lo];
			a[lo] = a[hi];
			a[hi] = t;
		}
	}
}

static int rush_legal_moves(const void *state, int player, Move *out)
{
	const RushState *s = state;
	int n = 0;

	if (player == VARIANT_CHANCE)
		return s->status == RUSH_STATUS_RESOLVE ? all_orders(s->nplayers, out) : 0;
	if (s->status != RUSH_STATUS_PLAY || !rush_active(s, player))
		return 0;
	PieceKind k = rush_active_block(s, player);
	if (k == PIECE_NONE) {
		for (int q = 0; q < PIECE_COUNT; q++)
			if (s->box[q] > 0)
				out[n++] = rush_move_take((PieceKind)q);
		return n;
	}
	n = rush_placements(&s->board[player], k, out);
	bool fits = n > 0;
	if (s->hand[player] != PIECE_NONE)
		for (int q = 0; q < s->nplayers; q++)
			if (q != player && rush_active(s, q) && s->slot[q] == PIECE_NONE)
				out[n++] = rush_move_give(q);
	if (!fits)
		out[n++] = rush_move_discard();
	return n;
}

/* Clear the active block of p (hand first). */
static void drop_active(RushState *s, int p)
{
	if (s->hand[p] != PIECE_NONE)
		s->hand[p] = PIECE_NONE;
	else
		s->slot[p] = PIECE_NONE;
}

static void place(RushState *s, int p, Move m)
{
	PieceKind kind;
	int rot, x, y;

	rush_move_unpack(m, &kind, &rot, &x, &y);
	const Orientation *o = piece_orientation(kind, rot);
	assert(kind == rush_active_block(s, p));
	assert(rush_can_place(&s->board[p], o, x, y));
	board_place(&s->board[p], o, x, y);
	for (int i = 0; i < 4; i++) {
		s->cell[p][y + o->y[i]][x + o->x[i]] = (uint8_t)(kind + 1);
		if (y + o->y[i] == s->height - 1)
			s->tetris |= (uint8_t)(1u << p);
	}
	drop_active(s, p);
	s->placed[p]++;
}

/* Apply one move of p that needs no arbitration (not take or give). */
static void apply_own(RushState *s, int p, Move m)
{
	switch (rush_move_type(m)) {
	case RUSH_MOVE_PLACE:
		place(s, p, m);
		break;
	case RUSH_MOVE_DISCARD:
		drop_active(s, p);
		s->discarded[p]++;
		break;
	default:
		assert(!"not an own move");
	}
}

static void rush_apply_one(RushState *s, int p, Move m)
{
	switch (rush_move_type(m)) {
	case RUSH_MOVE_TAKE: {
		PieceKind k = move_kind(m);
		assert(s->box[k] > 0 && rush_active_block(s, p) == PIECE_NONE);
		s->box[k]--;
		s->hand[p] = (int8_t)k;
		s->taken[p]++;
		break;
	}
	case RUSH_MOVE_GIVE: {
		int t = rush_move_target(m);
		assert(s->hand[p] != PIECE_NONE && s->slot[t] == PIECE_NONE && t != p);
		s->slot[t] = s->hand[p];
		s->hand[p] = PIECE_NONE;
		s->given[p]++;
		break;
	}
	default:
		apply_own(s, p, m);
	}
}

/*
 * Resolve a lockstep tick in priority `order`: every move was legal at the
 * start of the tick; a take finds the box empty of its shape, or a give
 * finds its target already served this tick, only by losing to a seat
 * earlier in the order, and then does nothing.
 */
static void resolve(RushState *s, const Move *moves, uint32_t submitted, const int *order)
{
	int8_t incoming[RUSH_MAX_PLAYERS];

	for (int p = 0; p < RUSH_MAX_PLAYERS; p++)
		incoming[p] = PIECE_NONE;
	for (int i = 0; i < s->nplayers; i++) {
		int p = order[i];
		if (!(submitted >> p & 1u) || !rush_active(s, p))
			continue;
		Move m = moves[p];
		switch (rush_move_type(m)) {
		case RUSH_MOVE_TAKE: {
			PieceKind k = move_kind(m);
			if (s->box[k] > 0) {
				s->box[k]--;
				s->hand[p] = (int8_t)k;
				s->taken[p]++;
			}
			break;
		}
		case RUSH_MOVE_GIVE: {
			int t = rush_move_target(m);
			if (incoming[t] == PIECE_NONE) {
				incoming[t] = s->hand[p];
				s->hand[p] = PIECE_NONE;
				s->given[p]++;
			}
			break;
		}
		default:
			apply_own(s, p, m);
		}
	}
	for (int t = 0; t < s->nplayers; t++)
		if (incoming[t] != PIECE_NONE && rush_active(s, t))
			s->slot[t] = incoming[t];
	s->tick++;
	s->status = RUSH_STATUS_PLAY;
	s->pending_mask = 0;
	memset(s->pending, 0, sizeof(s->pending));
	check_end(s);
}

static void order_unpack(Move m, int n, int *order)
{
	for (int i = 0; i < n; i++)
		order[i] = (int)((m >> (4 * i)) & 0xf);
}

static void rush_apply(void *state, int player, Move m)
{
	RushState *s = state;

	if (player == VARIANT_CHANCE) {
		int order[RUSH_MAX_PLAYERS];
		Move moves[RUSH_MAX_PLAYERS];
		assert(s->status == RUSH_STATUS_RESOLVE);
		order_unpack(m, s->nplayers, order);
		memcpy(moves, s->pending, sizeof(moves));
		resolve(s, moves, s->pending_mask, order);
		return;
	}
	assert(s->status == RUSH_STATUS_PLAY && rush_active(s, player));
	rush_apply_one(s, player, m);
	s->tick++;
	check_end(s);
}

/* Whether a lockstep tick needs the chance order: contested copies or slots. */
static bool conflicted(const RushState *s, const Move *moves, uint32_t submitted)
{
	int want[PIECE_COUNT] = {0}, gifts[RUSH_MAX_PLAYERS] = {0};

	for (int p = 0; p < s->nplayers; p++) {
		if (!(submitted >> p & 1u) || !rush_active(s, p))
			continue;
		if (rush_move_type(moves[p]) == RUSH_MOVE_TAKE)
			want[move_kind(moves[p])]++;
		else if (rush_move_type(moves[p]) == RUSH_MOVE_GIVE)
			gifts[rush_move_target(moves[p])]++;
	}
	for (int k = 0; k < PIECE_COUNT; k++)
		if (want[k] > s->box[k])
			return true;
	for (int p = 0; p < s->nplayers; p++)
		if (gifts[p] > 1)
			return true;
	return false;
}

static void rush_apply_joint(void *state, const Move *moves, uint32_t submitted)
{
	RushState *s = state;
	int order[RUSH_MAX_PLAYERS];

	assert(s->status == RUSH_STATUS_PLAY);
	if (conflicted(s, moves, submitted)) {
		s->status = RUSH_STATUS_RESOLVE;
		s->pending_mask = submitted;
		for (int p = 0; p < s->nplayers; p++)
			s->pending[p] = submitted >> p & 1u ? moves[p] : 0;
		return;
	}
	for (int i = 0; i < s->nplayers; i++)
		order[i] = i;
	resolve(s, moves, submitted, order);
}

static Move rush_chance_sample(const void *state, Rng *rng)
{
	const RushState *s = state;
	int order[RUSH_MAX_PLAYERS];

	for (int i = 0; i < s->nplayers; i++)
		order[i] = i;
	rng_shuffle(rng, order, s->nplayers);
	return order_pack(order, s->nplayers);
}

static void rush_retire(void *state, int player)
{
	RushState *s = state;

	s->retired |= 1u << player;
	s->hand[player] = PIECE_NONE;
	s->slot[player] = PIECE_NONE;
	s->pending_mask &= ~(1u << player);
	if (s->status == RUSH_STATUS_PLAY)
		check_end(s);
}

static void rush_halt(void *state)
{
	RushState *s = state;

	if (s->status == RUSH_STATUS_OVER)
		return;
	s->status = RUSH_STATUS_OVER;
	s->end = RUSH_END_LIMIT;
}

static void rush_scores(const void *state, int *out)
{
	const RushState *s = state;

	for (int p = 0; p < s->nplayers; p++)
		out[p] = rush_uncovered(s, p);
}

/* Negative when a ranks above b: active first, then fewer uncovered. */
static int compare(const RushState *s, int a, int b)
{
	if (rush_active(s, a) != rush_active(s, b))
		return rush_active(s, a) ? -1 : 1;
	return rush_uncovered(s, a) - rush_uncovered(s, b);
}

static void rush_ranking(const void *state, int *rank)
{
	const RushState *s = state;

	for (int p = 0; p < s->nplayers; p++) {
		rank[p] = 1;
		for (int q = 0; q < s->nplayers; q++)
			if (compare(s, q, p) < 0)
				rank[p]++;
	}
}

static char kind_char(int k)
{
	return k == PIECE_NONE ? '-' : piece_letter((PieceKind)k);
}

static void rush_move_format(const void *state, int player, Move m, Text *out)
{
	const RushState *s = state;

	if (player == VARIANT_CHANCE) {
		int order[RUSH_MAX_PLAYERS];
		order_unpack(m, s->nplayers, order);
		text_puts(out, "order:");
		for (int i = 0; i < s->nplayers; i++)
			text_printf(out, "%s%d", i ? "," : "", order[i]);
		return;
	}
	switch (rush_move_type(m)) {
	case RUSH_MOVE_TAKE:
		text_printf(out, "take:%c", kind_char(move_kind(m)));
		break;
	case RUSH_MOVE_PLACE: {
		PieceKind k;
		int rot, x, y;
		rush_move_unpack(m, &k, &rot, &x, &y);
		text_printf(out, "place:%c%d@%d,%d", kind_char(k), rot, x, y);
		break;
	}
	case RUSH_MOVE_GIVE:
		text_printf(out, "give:%d", rush_move_target(m));
		break;
	case RUSH_MOVE_DISCARD:
		text_puts(out, "discard");
		break;
	}
}


/* An upper-case piece letter at *p; advances *p. */
static bool parse_kind(const char **p, PieceKind *out)
{
	char c = **p;

	if (c < 'A' || c > 'Z' || piece_from_letter(c) == PIECE_NONE)
		return false;
	*out = piece_from_letter(c);
	(*p)++;
	return true;
}

static bool rush_move_parse(const void *state, int player, const char *text, Move *out)
{
	const RushState *s = state;
	const char *p = text;
	PieceKind k;
	int a, b, c;

	if (player == VARIANT_CHANCE) {
		int order[RUSH_MAX_PLAYERS];
		uint32_t seen = 0;
		if (strncmp(p, "order:", 6) != 0)
			return false;
		p += 6;
		for (int i = 0; i < s->nplayers; i++) {
			if ((i && *p++ != ',') || !scan_int(&p, 0, s->nplayers - 1, &order[i]) ||
			    (seen >> order[i] & 1u))
				return false;
			seen |= 1u << order[i];
		}
		if (*p)
			return false;
		*out = order_pack(order, s->nplayers);
		return true;
	}
	if (strcmp(p, "discard") == 0) {
		*out = rush_move_discard();
		return true;
	}
	if (strncmp(p, "take:", 5) == 0) {
		p += 5;
		if (!parse_kind(&p, &k) || *p)
			return false;
		*out = rush_move_take(k);
		return true;
	}
	if (strncmp(p, "give:", 5) == 0) {
		p += 5;
		if (!scan_int(&p, 0, RUSH_MAX_PLAYERS - 1, &a) || *p)
			return false;
		*out = rush_move_give(a);
		return true;
	}
	if (strncmp(p, "place:", 6) == 0) {
		p += 6;
		if (!parse_kind(&p, &k) || !scan_int(&p, 0, piece_rotations(k) - 1, &a))
			return false;
		if (*p++ != '@' || !scan_int(&p, 0, RUSH_MAX_WIDTH - 1, &b) || *p++ != ',')
			return false;
		if (!scan_int(&p, 0, RUSH_MAX_HEIGHT - 1, &c) || *p)
			return false;
		*out = rush_move_place(k, a, b, c);
		return true;
	}
	return false;
}

static const char *const status_names[] = {"play", "resolve", "over"};
static const char *const end_names[] = {"-", "top", "empty", "limit", "retired"};

/* A seat list from a mask: "0,2", or "-" when empty. */
static void format_mask(Text *out, uint32_t mask, int n)
{
	bool first = true;

	if (!mask)
		text_putc(out, '-');
	for (int p = 0; p < n; p++)
		if (mask >> p & 1u) {
			text_printf(out, "%s%d", first ? "" : ",", p);
			first = false;
		}
}

static void format_counts(Text *out, const char *key, const int16_t *v, int n)
{
	text_printf(out, " %s=", key);
	for (int p = 0; p < n; p++)
		text_printf(out, "%s%d", p ? "," : "", v[p]);
}

/*
 * One line, every field public: settings, status, the box, each seat's hand
 * and slot, counters, pending tick moves (lockstep conflicts), and each board
 * as rows top first, `.` uncovered or the letter of the covering block.
 */
static void rush_state_format(const void *state, int viewer, Text *out)
{
	const RushState *s = state;
	int n = s->nplayers;

	(void)viewer;
	text_printf(out, "players=%d width=%d height=%d mode=%s status=%s end=%s tick=%d",
		    n, s->width, s->height, s->lockstep ? "lockstep" : "realtime",
		    status_names[s->status], end_names[s->end], (int)s->tick);
	text_puts(out, " tetris=");
	format_mask(out, s->tetris, n);
	text_puts(out, " retired=");
	format_mask(out, s->retired, n);
	text_puts(out, " box=");
	for (int k = 0; k < PIECE_COUNT; k++)
		text_printf(out, "%s%c%d", k ? "," : "", piece_letter((PieceKind)k), s->box[k]);
	text_puts(out, " hands=");
	for (int p = 0; p < n; p++)
		text_printf(out, "%s%c", p ? "," : "", kind_char(s->hand[p]));
	text_puts(out, " slots=");
	for (int p = 0; p < n; p++)
		text_printf(out, "%s%c", p ? "," : "", kind_char(s->slot[p]));
	text_puts(out, " uncovered=");
	for (int p = 0; p < n; p++)
		text_printf(out, "%s%d", p ? "," : "", rush_uncovered(s, p));
	format_counts(out, "taken", s->taken, n);
	format_counts(out, "placed", s->placed, n);
	format_counts(out, "given", s->given, n);
	format_counts(out, "discarded", s->discarded, n);
	text_puts(out, " pending=");
	if (s->status != RUSH_STATUS_RESOLVE) {
		text_putc(out, '-');
	} else {
		for (int p = 0; p < n; p++) {
			if (p)
				text_putc(out, ',');
			if (s->pending_mask >> p & 1u)
				rush_move_format(s, p, s->pending[p], out);
			else
				text_putc(out, '-');
		}
	}
	for (int p = 0; p < n; p++) {
		text_printf(out, " board%d=", p);
		for (int y = s->height - 1; y >= 0; y--) {
			for (int x = 0; x < s->width; x++)
				text_putc(out, s->cell[p][y][x] ? kind_char(s->cell[p][y][x] - 1) : '.');
			if (y)
				text_putc(out, '/');
		}
	}
}



static bool parse_mask(const char **p, int n, uint32_t *out)
{
	int v;

	*out = 0;
	if (**p == '-') {
		(*p)++;
		return true;
	}
	do {
		if (!scan_int(p, 0, n - 1, &v))
			return false;
		*out |= 1u << v;
	} while (**p == ',' && (*p)++);
	return true;
}

/* A piece letter or '-' at *p. */
static bool parse_kind_or_none(const char **p, int8_t *out)
{
	PieceKind k;

	if (**p == '-') {
		(*p)++;
		*out = PIECE_NONE;
		return true;
	}
	if (!parse_kind(p, &k))
		return false;
	*out = (int8_t)k;
	return true;
}

static bool parse_kinds(const char **p, const char *key, int n, int8_t *out)
{
	if (!scan_key(p, key))
		return false;
	for (int q = 0; q < n; q++)
		if ((q && *(*p)++ != ',') || !parse_kind_or_none(p, &out[q]))
			return false;
	return true;
}

static bool parse_counts(const char **p, const char *key, int n, int hi, int16_t *out)
{
	int v;

	if (!scan_key(p, key))
		return false;
	for (int q = 0; q < n; q++) {
		if ((q && *(*p)++ != ',') || !scan_int(p, 0, hi, &v))
			return false;
		out[q] = (int16_t)v;
	}
	return true;
}

static bool rush_state_parse(void *state, const VariantConfig *cfg, const char *text)
{
	RushState *s = state;
	const char *p = text;
	int n, w, h, v, mode, status, end;
	int16_t scratch[RUSH_MAX_PLAYERS];
	static const char *const modes[] = {"realtime", "lockstep"};

	if (!scan_key(&p, "players") || !scan_int(&p, 2, RUSH_MAX_PLAYERS, &n))
		return false;
	if (!scan_key(&p, "width") || !scan_int(&p, 4, RUSH_MAX_WIDTH, &w))
		return false;
	if (!scan_key(&p, "height") || !scan_int(&p, 4, RUSH_MAX_HEIGHT, &h))
		return false;
	if (!scan_key(&p, "mode") || !scan_name(&p, modes, 2, "", &mode))
		return false;
	VariantConfig c = *cfg;
	c.nplayers = n;
	c.opt[RUSH_OPT_WIDTH] = w;
	c.opt[RUSH_OPT_HEIGHT] = h;
	c.opt[RUSH_OPT_LOCKSTEP] = mode;
	if (c.opt[RUSH_OPT_BOX] < 1 || c.opt[RUSH_OPT_BOX] > RUSH_MAX_BOX)
		c.opt[RUSH_OPT_BOX] = rush_options[RUSH_OPT_BOX].def;
	rush_init(s, &c);
	if (!scan_key(&p, "status") || !scan_name(&p, status_names, 3, "", &status))
		return false;
	if (!scan_key(&p, "end") || !scan_name(&p, end_names, 5, "", &end))
		return false;
	if (!scan_key(&p, "tick") || !scan_int(&p, 0, 999999, &v))
		return false;
	s->tick = v;
	uint32_t mask;
	if (!scan_key(&p, "tetris") || !parse_mask(&p, n, &mask))
		return false;
	s->tetris = (uint8_t)mask;
	if (!scan_key(&p, "retired") || !parse_mask(&p, n, &s->retired))
		return false;
	if (!scan_key(&p, "box"))
		return false;
	for (int k = 0; k < PIECE_COUNT; k++) {
		if ((k && *p++ != ',') || *p++ != piece_letter((PieceKind)k) ||
		    !scan_int(&p, 0, RUSH_MAX_BOX, &v))
			return false;
		s->box[k] = (int8_t)v;
	}
	if (!parse_kinds(&p, "hands", n, s->hand) || !parse_kinds(&p, "slots", n, s->slot))
		return false;
	if (!parse_counts(&p, "uncovered", n, RUSH_MAX_WIDTH * RUSH_MAX_HEIGHT, scratch))
		return false;	/* derived from the boards */
	if (!parse_counts(&p, "taken", n, 30000, s->taken) ||
	    !parse_counts(&p, "placed", n, 30000, s->placed) ||
	    !parse_counts(&p, "given", n, 30000, s->given) ||
	    !parse_counts(&p, "discarded", n, 30000, s->discarded))
		return false;
	if (!scan_key(&p, "pending"))
		return false;
	if (*p == '-' && (p[1] == ' ' || !p[1])) {
		p++;
	} else {
		for (int q = 0; q < n; q++) {
			char buf[32];
			size_t len = 0;
			if (q && *p++ != ',')
				return false;
			while (*p && *p != ',' && *p != ' ' && len < sizeof(buf) - 1)
				buf[len++] = *p++;
			buf[len] = '\0';
			if (strcmp(buf, "-") == 0)
				continue;
			if (!rush_move_parse(s, q, buf, &s->pending[q]))
				return false;
			s->pending_mask |= 1u << q;
		}
	}
	for (int q = 0; q < n; q++) {
		char key[16] = "board0";
		key[5] = (char)('0' + q);
		if (!scan_key(&p, key))
			return false;
		for (int y = h - 1; y >= 0; y--) {
			for (int x = 0; x < w; x++) {
				char ch = *p++;
				if (ch == '.')
					continue;
				PieceKind k = piece_from_letter(ch);
				if (ch < 'A' || ch > 'Z' || k == PIECE_NONE)
					return false;
				s->cell[q][y][x] = (uint8_t)(k + 1);
				board_set(&s->board[q], x, y, true);
			}
			if (y && *p++ != '/')
				return false;
		}
	}
	while (*p == ' ')
		p++;
	if (*p)
		return false;
	if ((status == RUSH_STATUS_OVER) != (end != RUSH_END_NONE))
		return false;
	if (status == RUSH_STATUS_RESOLVE && !mode)
		return false;
	s->status = (int8_t)status;
	s->end = (int8_t)end;
	return true;
}

/* Background colours of the guideline: I cyan, O yellow, T magenta, J blue,
 * L orange, S green, Z red. */
static const char *const kind_colour[PIECE_COUNT] = {
	"\033[46m", "\033[43m", "\033[45m", "\033[44m", "\033[48;5;208m", "\033[42m", "\033[41m"
};

static void rush_render(const void *state, bool colour, Text *out)
{
	const RushState *s = state;
	int n = s->nplayers;

	for (int p = 0; p < n; p++)
		text_printf(out, "%s   seat %d%*s", p ? " " : "", p, 2 * s->width - 5, "");
	text_putc(out, '\n');
	for (int y = s->height - 1; y >= 0; y--) {
		for (int p = 0; p < n; p++) {
			text_printf(out, "%s%2d|", p ? " " : "", y);
			for (int x = 0; x < s->width; x++) {
				int c = s->cell[p][y][x];
				if (!c)
					text_puts(out, " .");
				else if (colour)
					text_printf(out, "%s %c\033[0m", kind_colour[c - 1], kind_char(c - 1));
				else
					text_printf(out, " %c", kind_char(c - 1));
			}
			text_putc(out, '|');
		}
		text_putc(out, '\n');
	}
	for (int p = 0; p < n; p++) {
		text_puts(out, p ? "   +" : "  +");
		for (int x = 0; x < s->width; x++)
			text_puts(out, "--");
		text_putc(out, '+');
	}
	text_putc(out, '\n');
	text_puts(out, "box:");
	for (int k = 0; k < PIECE_COUNT; k++)
		text_printf(out, " %c%d", piece_letter((PieceKind)k), s->box[k]);
	text_printf(out, "  (%s, tick %d)\n", s->lockstep ? "lockstep" : "real time", (int)s->tick);
	for (int p = 0; p < n; p++)
		text_printf(out, "seat %d: hand %c, slot %c, uncovered %d, taken %d, placed %d, "
			    "given %d, discarded %d%s\n", p, kind_char(s->hand[p]),
			    kind_char(s->slot[p]), rush_uncovered(s, p), s->taken[p], s->placed[p],
			    s->given[p], s->discarded[p], rush_active(s, p) ? "" : " (retired)");
	if (s->status == RUSH_STATUS_OVER)
		text_printf(out, "over: %s\n", end_names[s->end]);
}

const Variant variant_rush = {
	.name = "rush",
	.title = "Tetris (the real-time board game)",
	.min_players = 2,
	.max_players = RUSH_MAX_PLAYERS,
	.options = rush_options,
	.n_options = RUSH_OPT_COUNT,
	.state_size = sizeof(RushState),
	.max_moves = RUSH_MAX_PLACEMENTS + RUSH_MAX_PLAYERS + 1 + 24,
	.chance_public = true,
	.lower_score_wins = true,
	.fault_policy = VARIANT_FAULT_NOTHING,
	.init = rush_init,
	.phase = rush_phase,
	.legal_moves = rush_legal_moves,
	.apply = rush_apply,
	.chance_sample = rush_chance_sample,
	.apply_joint = rush_apply_joint,
	.retire = rush_retire,
	.halt = rush_halt,
	.scores = rush_scores,
	.ranking = rush_ranking,
	.move_format = rush_move_format,
	.move_parse = rush_move_parse,
	.state_format = rush_state_format,
	.state_parse = rush_state_parse,
	.render = rush_render,
};
