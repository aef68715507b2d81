/*
 * link: Tetris Link. See link.h for the rules as played here.
 *
 * Invariants of LinkState: `board` and `cell` agree (a cell is filled iff
 * it holds a piece index); colh[x] is board_column_height(board, x); piece[i] for i < npieces are the placed pieces
 * in the order played; parent/size form a union-find whose sets are exactly
 * the linked groups of one owner; link_total[p] is the sum of the sizes of
 * p's sets of 3 or more; score[p] is every move's gain minus penalty.
 */
#include "link.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"

static const VariantOption link_options[LINK_OPT_COUNT] = {
	{"width", 10, 4, LINK_MAX_WIDTH, "columns of the tower"},
	{"height", 20, 4, LINK_MAX_HEIGHT, "rows of the tower"},
	{"pieces", 5, 1, 25, "pieces of each shape per player"},
};

/* Free shapes in die-face order. */
static const PieceKind face_shape[LINK_SHAPES] = {
	PIECE_I, PIECE_O, PIECE_T, PIECE_L, PIECE_S
};

int link_shape_face(PieceKind free_shape)
{
	for (int f = 0; f < LINK_SHAPES; f++)
		if (face_shape[f] == free_shape)
			return f;
	return -1;
}

Move link_move(PieceKind kind, int rot, int x)
{
	return (Move)kind | (Move)rot << 4 | (Move)x << 8;
}

void link_move_unpack(Move m, PieceKind *kind, int *rot, int *x)
{
	*kind = (PieceKind)(m & 0xf);
	*rot = (int)((m >> 4) & 0xf);
	*x = (int)((m >> 8) & 0xff);
}

static const Orientation *move_orientation(Move m, int *x)
{
	PieceKind kind;
	int rot;

	link_move_unpack(m, &kind, &rot, x);
	return piece_orientation(kind, rot);
}

/*
 * Where orientation o dropped at column x comes to rest: the lowest y at
 * which each of its cells is above its column's stack. x must be in range.
 */
static int drop_y(const LinkState *s, const Orientation *o, int x)
{
	int rest = 0;

	for (int i = 0; i < 4; i++) {
		int need = s->colh[x + o->x[i]] - o->y[i];
		if (need > rest)
			rest = need;
	}
	return rest;
}

bool link_landing(const LinkState *s, Move m, int *y)
{
	int x;
	const Orientation *o = move_orientation(m, &x);

	if (x + o->width > s->width)
		return false;
	int rest = drop_y(s, o, x);
	if (rest + o->height > s->height)
		return false;
	*y = rest;
	return true;
}

int link_gaps(const LinkState *s, Move m)
{
	int x, y;
	const Orientation *o = move_orientation(m, &x);
	int gaps = 0;

	if (!link_landing(s, m, &y))
		return 0;
	/* Per column of the piece: its lowest cell, less the stack height. */
	for (int c = 0; c < o->width; c++) {
		int low = 99;
		for (int i = 0; i < 4; i++)
			if (o->x[i] == c && o->y[i] < low)
				low = o->y[i];
		gaps += y + low - s->colh[x + c];
	}
	return gaps;
}

static int find(const LinkState *s, int i)
{
	while (s->parent[i] != i)
		i = s->parent[i];
	return i;
}

static int group_value(int size)
{
	return size >= 3 ? size : 0;
}

/*
 * The distinct group roots of `owner` that share an edge with the cells of
 * orientation o at (x, y). OUT: roots[], at most 8. Returns the count.
 */
static int neighbour_groups(const LinkState *s, int owner, const Orientation *o,
			    int x, int y, int *roots)
{
	static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
	int n = 0;

	for (int i = 0; i < 4; i++) {
		for (int d = 0; d < 4; d++) {
			int cx = x + o->x[i] + dx[d], cy = y + o->y[i] + dy[d];
			if (!board_inside(&s->board, cx, cy) || !s->cell[cy][cx])
				continue;
			int p = s->cell[cy][cx] - 1;
			if (s->piece[p].owner != owner)
				continue;
			int r = find(s, p);
			bool seen = false;
			for (int k = 0; k < n; k++)
				seen |= roots[k] == r;
			if (!seen)
				roots[n++] = r;
		}
	}
	return n;
}

static int gain_of(const LinkState *s, int owner, const Orientation *o, int x, int y)
{
	int roots[16];
	int n = neighbour_groups(s, owner, o, x, y, roots);
	int merged = 1, before = 0;

	for (int k = 0; k < n; k++) {
		merged += s->size[roots[k]];
		before += group_value(s->size[roots[k]]);
	}
	return group_value(merged) - before;
}

static int penalty_of(int gaps)
{
	return gaps >= 2 ? 2 : gaps;
}

int link_move_points(const LinkState *s, Move m)
{
	int x, y;
	const Orientation *o = move_orientation(m, &x);

	if (!link_landing(s, m, &y))
		return 0;
	return gain_of(s, s->current, o, x, y) - penalty_of(link_gaps(s, m));
}

int link_largest_group(const LinkState *s, int seat)
{
	int best = 0;

	for (int i = 0; i < s->npieces; i++)
		if (s->piece[i].owner == seat && s->parent[i] == i && s->size[i] > best)
			best = s->size[i];
	return best;
}

/* Whether some orientation of free shape `shape` lands inside the tower. */
static bool shape_fits(const LinkState *s, PieceKind shape)
{
	const Orientation *os[8];
	int n = piece_free_orientations(shape, os);

	for (int k = 0; k < n; k++) {
		for (int x = 0; x + os[k]->width <= s->width; x++) {
			if (drop_y(s, os[k], x) + os[k]->height <= s->height)
				return true;
		}
	}
	return false;
}

bool link_can_place_any(const LinkState *s, int seat)
{
	for (int f = 0; f < LINK_SHAPES; f++)
		if (s->supply[seat][f] > 0 && shape_fits(s, face_shape[f]))
			return true;
	return false;
}

static bool active(const LinkState *s, int seat)
{
	return !(s->retired >> seat & 1u);
}

static bool anyone_can_place(const LinkState *s)
{
	for (int p = 0; p < s->nplayers; p++)
		if (active(s, p) && link_can_place_any(s, p))
			return true;
	return false;
}

/* The next active seat after `seat`, or -1 when nobody is active. */
static int next_active(const LinkState *s, int seat)
{
	for (int k = 1; k <= s->nplayers; k++) {
		int p = (seat + k) % s->nplayers;
		if (active(s, p))
			return p;
	}
	return -1;
}

/* Move on from `current`'s turn (done or skipped) to the next roll. */
static void next_turn(LinkState *s)
{
	int p = next_active(s, s->current);

	s->face = -1;
	if (p < 0 || !anyone_can_place(s)) {
		s->stage = LINK_STAGE_OVER;
		return;
	}
	s->current = (int8_t)p;
	s->stage = LINK_STAGE_ROLL;
}

/* Whether the current player has something to place for the rolled face. */
static bool turn_playable(const LinkState *s)
{
	int p = s->current;

	if (s->face == LINK_FACE_LOGO)
		return link_can_place_any(s, p);
	return s->supply[p][s->face] > 0 && shape_fits(s, face_shape[s->face]);
}

static void link_init(void *state, const VariantConfig *cfg)
{
	LinkState *s = state;

	memset(s, 0, sizeof(*s));
	s->nplayers = (int8_t)cfg->nplayers;
	s->width = (int8_t)cfg->opt[LINK_OPT_WIDTH];
	s->height = (int8_t)cfg->opt[LINK_OPT_HEIGHT];
	s->per_shape = (int8_t)cfg->opt[LINK_OPT_PIECES];
	board_init(&s->board, s->width, s->height);
	for (int p = 0; p < s->nplayers; p++)
		for (int f = 0; f < LINK_SHAPES; f++)
			s->supply[p][f] = s->per_shape;
	s->stage = LINK_STAGE_ROLLOFF;
	s->current = 0;
	s->face = -1;
	s->starter = -1;
}

static VariantPhase link_phase(const void *state, uint32_t *mask)
{
	const LinkState *s = state;

	*mask = 0;
	switch ((LinkStage)s->stage) {
	case LINK_STAGE_ROLLOFF:
	case LINK_STAGE_ROLL:
		return VARIANT_PHASE_CHANCE;
	case LINK_STAGE_PLACE:
		*mask = 1u << s->current;
		return VARIANT_PHASE_TURN;
	case LINK_STAGE_OVER:
		break;
	}
	return VARIANT_PHASE_OVER;
}

static int moves_for_shape(const LinkState *s, PieceKind shape, Move *out)
{
	const Orientation *os[8];
	int n = piece_free_orientations(shape, os), count = 0;

	for (int k = 0; k < n; k++) {
		for (int x = 0; x + os[k]->width <= s->width; x++) {
			if (drop_y(s, os[k], x) + os[k]->height <= s->height)
				out[count++] = link_move((PieceKind)os[k]->kind, os[k]->rot, x);
		}
	}
	return count;
}

static int link_legal_moves(const void *state, int player, Move *out)
{
	const LinkState *s = state;
	int n = 0;

	if (player == VARIANT_CHANCE) {
		if (s->stage != LINK_STAGE_ROLLOFF && s->stage != LINK_STAGE_ROLL)
			return 0;
		for (int f = 0; f <= LINK_FACE_LOGO; f++)
			out[n++] = (Move)f;
		return n;
	}
	if (s->stage != LINK_STAGE_PLACE || player != s->current)
		return 0;
	for (int f = 0; f < LINK_SHAPES; f++) {
		if (s->supply[player][f] == 0)
			continue;
		if (s->face == LINK_FACE_LOGO || s->face == f)
			n += moves_for_shape(s, face_shape[f], out + n);
	}
	return n;
}

static void place(LinkState *s, Move m)
{
	int x, y, roots[16];
	const Orientation *o = move_orientation(m, &x);
	int owner = s->current;
	int idx = s->npieces;
	int gaps = link_gaps(s, m);
	bool ok = link_landing(s, m, &y);

	assert(ok);
	(void)ok;
	int n = neighbour_groups(s, owner, o, x, y, roots);
	int before = 0, merged = 1;

	for (int k = 0; k < n; k++) {
		before += group_value(s->size[roots[k]]);
		merged += s->size[roots[k]];
		s->parent[roots[k]] = (int16_t)idx;
	}
	s->parent[idx] = (int16_t)idx;
	s->size[idx] = (int16_t)merged;
	s->link_total[owner] = (int16_t)(s->link_total[owner] - before + group_value(merged));
	s->score[owner] = (int16_t)(s->score[owner] + group_value(merged) - before - penalty_of(gaps));
	s->piece[idx] = (LinkPiece){(int8_t)owner, (int8_t)o->kind, (int8_t)o->rot,
				    (int8_t)x, (int8_t)y};
	s->npieces++;
	board_place(&s->board, o, x, y);
	for (int i = 0; i < 4; i++) {
		int cx = x + o->x[i], cy = y + o->y[i];
		s->cell[cy][cx] = (uint8_t)(idx + 1);
		if (s->colh[cx] < cy + 1)
			s->colh[cx] = (int8_t)(cy + 1);
	}
	s->supply[owner][link_shape_face(piece_free((PieceKind)o->kind))]--;
}

static void link_apply(void *state, int player, Move m)
{
	LinkState *s = state;

	if (player == VARIANT_CHANCE) {
		int face = (int)m;
		assert(face >= 0 && face <= LINK_FACE_LOGO);
		if (s->stage == LINK_STAGE_ROLLOFF) {
			if (face != LINK_FACE_LOGO) {
				s->current = (int8_t)next_active(s, s->current);
				return;
			}
			/* The winner rolls again for the first shape. */
			s->starter = s->current;
			s->stage = LINK_STAGE_ROLL;
			if (!anyone_can_place(s))
				s->stage = LINK_STAGE_OVER;
			return;
		}
		assert(s->stage == LINK_STAGE_ROLL);
		s->face = (int8_t)face;
		s->turns++;
		if (turn_playable(s))
			s->stage = LINK_STAGE_PLACE;
		else
			next_turn(s);
		return;
	}
	assert(s->stage == LINK_STAGE_PLACE && player == s->current);
	place(s, m);
	next_turn(s);
}

static Move link_chance_sample(const void *state, Rng *rng)
{
	(void)state;
	return (Move)(rng_die(rng, 6) - 1);
}

static void link_retire(void *state, int player)
{
	LinkState *s = state;

	s->retired |= 1u << player;
	if (s->stage == LINK_STAGE_OVER)
		return;
	/* The last seat left in a game of several wins as it stands: the
	 * game ends at once rather than be played alone. */
	if (s->nplayers > 1 && __builtin_popcount(~s->retired & ((1u << s->nplayers) - 1u)) < 2) {
		s->stage = LINK_STAGE_OVER;
		s->face = -1;
		return;
	}
	if (player != s->current)
		return;
	if (s->stage == LINK_STAGE_ROLLOFF) {
		int p = next_active(s, player);
		if (p < 0)
			s->stage = LINK_STAGE_OVER;
		else
			s->current = (int8_t)p;
		return;
	}
	next_turn(s);
}

static void link_scores(const void *state, int *out)
{
	const LinkState *s = state;

	for (int p = 0; p < s->nplayers; p++)
		out[p] = s->score[p];
}

/* Whether a ranks strictly above b: active first, then score, then largest group. */
static int compare(const LinkState *s, int a, int b)
{
	if (active(s, a) != active(s, b))
		return active(s, a) ? -1 : 1;
	if (s->score[a] != s->score[b])
		return s->score[a] > s->score[b] ? -1 : 1;
	int ga = link_largest_group(s, a), gb = link_largest_group(s, b);
	if (ga != gb)
		return ga > gb ? -1 : 1;
	return 0;
}

static void link_ranking(const void *state, int *rank)
{
	const LinkState *s = state;

	for (int p = 0; p < s->nplayers; p++) {
		rank[p] = 1;
		for (int q = 0; q < s->nplayers; q++)
			if (compare(s, q, p) < 0)
				rank[p]++;
	}
}

static const char *const face_names[] = {"I", "O", "T", "L", "S", "logo"};
static const char *const stage_names[] = {"rolloff", "roll", "place", "over"};

static const char *face_name(int face)
{
	return face >= 0 && face <= LINK_FACE_LOGO ? face_names[face] : "-";
}

static void link_move_format(const void *state, int player, Move m, Text *out)
{
	(void)state;
	if (player == VARIANT_CHANCE) {
		text_puts(out, "roll ");
		text_puts(out, face_name((int)m));
		return;
	}
	/* By hand: the referee formats every legal move for each `moves` line. */
	PieceKind kind;
	int rot, x;
	char w[5], *o = w;
	link_move_unpack(m, &kind, &rot, &x);
	*o++ = piece_letter(kind);
	*o++ = (char)('0' + rot);
	*o++ = '@';
	if (x >= 10)
		*o++ = (char)('0' + x / 10);
	*o++ = (char)('0' + x % 10);
	text_putn(out, w, (size_t)(o - w));
}

static bool link_move_parse(const void *state, int player, const char *text, Move *out)
{
	(void)state;
	const char *p = text;
	int rot, x;

	if (player == VARIANT_CHANCE) {
		int face;
		if (strncmp(p, "roll ", 5) != 0)
			return false;
		p += 5;
		if (!scan_name(&p, face_names, LINK_FACE_LOGO + 1, "", &face) || *p)
			return false;
		*out = (Move)face;
		return true;
	}
	PieceKind kind = piece_from_letter(text[0]);
	if (kind == PIECE_NONE || text[0] < 'A' || text[0] > 'Z')
		return false;
	p++;
	if (!scan_int(&p, 0, piece_rotations(kind) - 1, &rot) || !scan_char(&p, '@'))
		return false;
	if (!scan_int(&p, 0, LINK_MAX_WIDTH - 1, &x) || *p)
		return false;
	*out = link_move(kind, rot, x);
	return true;
}

/*
 * One line: settings, whose decision, die, scores, supplies, retired seats,
 * then the tower twice over: as rows of seat digits (top row first, for
 * simple bots) and as the list of pieces in the order played (exact links).
 */
static void link_state_format(const void *state, int viewer, Text *out)
{
	const LinkState *s = state;

	(void)viewer;
	/* By hand, as the moves are: this line goes with every `go`. */
	text_puts(out, "players=");
	text_int(out, s->nplayers);
	text_puts(out, " width=");
	text_int(out, s->width);
	text_puts(out, " height=");
	text_int(out, s->height);
	text_puts(out, " stage=");
	text_puts(out, stage_names[s->stage]);
	text_puts(out, " current=");
	text_int(out, s->current);
	text_puts(out, " roll=");
	text_puts(out, face_name(s->face));
	text_puts(out, " scores=");
	for (int p = 0; p < s->nplayers; p++) {
		if (p)
			text_putc(out, ',');
		text_int(out, s->score[p]);
	}
	text_puts(out, " supply=");
	for (int p = 0; p < s->nplayers; p++) {
		if (p)
			text_putc(out, ',');
		for (int f = 0; f < LINK_SHAPES; f++) {
			text_putc(out, piece_letter(face_shape[f]));
			text_int(out, s->supply[p][f]);
		}
	}
	text_puts(out, " retired=");
	if (!s->retired)
		text_putc(out, '-');
	for (int p = 0, first = 1; p < s->nplayers; p++)
		if (!active(s, p)) {
			if (!first)
				text_putc(out, ',');
			text_int(out, p);
			first = 0;
		}
	/* The tower and the pieces go to local buffers first, then out in one
	 * copy: they are most of the line. */
	char rows[LINK_MAX_HEIGHT * (LINK_MAX_WIDTH + 1)], *o = rows;
	for (int y = s->height - 1; y >= 0; y--) {
		for (int x = 0; x < s->width; x++)
			*o++ = s->cell[y][x] ? (char)('0' + s->piece[s->cell[y][x] - 1].owner) : '.';
		*o++ = '/';
	}
	text_puts(out, " board=");
	text_putn(out, rows, (size_t)(o - rows) - 1);
	text_puts(out, " pieces=");
	if (!s->npieces)
		text_putc(out, '-');
	char list[LINK_MAX_PIECES * 9];	/* "3:L3@15," */
	o = list;
	for (int i = 0; i < s->npieces; i++) {
		const LinkPiece *pc = &s->piece[i];
		*o++ = (char)('0' + pc->owner);
		*o++ = ':';
		*o++ = piece_letter((PieceKind)pc->kind);
		*o++ = (char)('0' + pc->rot);
		*o++ = '@';
		if (pc->x >= 10)
			*o++ = (char)('0' + pc->x / 10);
		*o++ = (char)('0' + pc->x % 10);
		*o++ = ',';
	}
	if (o > list)
		text_putn(out, list, (size_t)(o - list) - 1);
}

static bool link_state_parse(void *state, const VariantConfig *cfg, const char *text)
{
	LinkState *s = state;
	const char *p = text;
	int v, w, h, np;
	int scores[LINK_MAX_PLAYERS] = {0};

	if (!scan_key(&p, "players") || !scan_int(&p, 2, LINK_MAX_PLAYERS, &np))
		return false;
	if (!scan_key(&p, "width") || !scan_int(&p, 4, LINK_MAX_WIDTH, &w))
		return false;
	if (!scan_key(&p, "height") || !scan_int(&p, 4, LINK_MAX_HEIGHT, &h))
		return false;
	VariantConfig c = *cfg;
	c.nplayers = np;
	c.opt[LINK_OPT_WIDTH] = w;
	c.opt[LINK_OPT_HEIGHT] = h;
	link_init(s, &c);
	if (!scan_key(&p, "stage"))
		return false;
	int stage, face;
	if (!scan_name(&p, stage_names, LINK_STAGE_OVER + 1, "", &stage))
		return false;
	if (!scan_key(&p, "current") || !scan_int(&p, 0, np - 1, &v))
		return false;
	int current = v;
	if (!scan_key(&p, "roll"))
		return false;
	if (scan_char(&p, '-'))
		face = -1;
	else if (!scan_name(&p, face_names, LINK_FACE_LOGO + 1, "", &face))
		return false;
	if (!scan_key(&p, "scores"))
		return false;
	for (int q = 0; q < np; q++)
		if ((q && !scan_char(&p, ',')) || !scan_int(&p, -9999, 9999, &scores[q]))
			return false;
	if (!scan_key(&p, "supply"))
		return false;
	for (int q = 0; q < np; q++) {
		if (q && !scan_char(&p, ','))
			return false;
		for (int f = 0; f < LINK_SHAPES; f++) {
			if (!scan_char(&p, piece_letter(face_shape[f])) || !scan_int(&p, 0, 25, &v))
				return false;
			s->supply[q][f] = (int8_t)v;
		}
	}
	if (!scan_key(&p, "retired"))
		return false;
	if (!scan_char(&p, '-')) {
		do {
			if (!scan_int(&p, 0, np - 1, &v))
				return false;
			s->retired |= 1u << v;
		} while (scan_char(&p, ','));
	}
	if (!scan_key(&p, "board"))
		return false;
	scan_skip_value(&p);	/* derived from the pieces */
	if (!scan_key(&p, "pieces"))
		return false;
	if (!scan_char(&p, '-')) {
		do {
			int owner;
			Move m;
			char buf[16];
			size_t n = 0;
			if (!scan_int(&p, 0, np - 1, &owner) || !scan_char(&p, ':'))
				return false;
			while (*p && *p != ',' && *p != ' ' && n < sizeof(buf) - 1)
				buf[n++] = *p++;
			buf[n] = '\0';
			int y;
			if (!link_move_parse(s, 0, buf, &m) || !link_landing(s, m, &y))
				return false;
			if (s->npieces >= LINK_MAX_PIECES)
				return false;
			s->current = (int8_t)owner;
			int keep[LINK_SHAPES];
			for (int f = 0; f < LINK_SHAPES; f++)
				keep[f] = s->supply[owner][f];
			s->supply[owner][link_shape_face(piece_free((PieceKind)(m & 0xf)))]++;
			place(s, m);
			for (int f = 0; f < LINK_SHAPES; f++)
				s->supply[owner][f] = (int8_t)keep[f];
		} while (scan_char(&p, ','));
	}
	while (*p == ' ')
		p++;
	if (*p)
		return false;
	s->stage = (int8_t)stage;
	s->current = (int8_t)current;
	s->face = (int8_t)face;
	if (stage != LINK_STAGE_ROLLOFF)
		s->starter = 0;
	for (int q = 0; q < np; q++)
		s->score[q] = (int16_t)scores[q];
	return true;
}

static const char *const seat_colour[LINK_MAX_PLAYERS] = {
	"\033[41m", "\033[44m", "\033[43m", "\033[42m"	/* red blue yellow green */
};

static void link_render(const void *state, bool colour, Text *out)
{
	const LinkState *s = state;

	for (int y = s->height - 1; y >= 0; y--) {
		text_printf(out, "%2d |", y);
		for (int x = 0; x < s->width; x++) {
			int c = s->cell[y][x];
			if (!c) {
				text_puts(out, " .");
				continue;
			}
			const LinkPiece *pc = &s->piece[c - 1];
			if (colour)
				text_printf(out, "%s%d%c\033[0m", seat_colour[pc->owner], pc->owner,
					    piece_letter((PieceKind)pc->kind));
			else
				text_printf(out, "%d%c", pc->owner, piece_letter((PieceKind)pc->kind));
		}
		text_puts(out, " |\n");
	}
	text_puts(out, "   +");
	for (int x = 0; x < s->width; x++)
		text_puts(out, "--");
	text_puts(out, "-+\n    ");
	for (int x = 0; x < s->width; x++)
		text_printf(out, "%2d", x);
	text_putc(out, '\n');
	for (int p = 0; p < s->nplayers; p++) {
		text_printf(out, "seat %d: score %d, largest group %d, supply", p, s->score[p],
			    link_largest_group(s, p));
		for (int f = 0; f < LINK_SHAPES; f++)
			text_printf(out, " %c%d", piece_letter(face_shape[f]), s->supply[p][f]);
		text_puts(out, active(s, p) ? "\n" : " (retired)\n");
	}
	if (s->stage == LINK_STAGE_PLACE)
		text_printf(out, "seat %d to place, rolled %s\n", s->current, face_name(s->face));
}

const Variant variant_link = {
	.name = "link",
	.title = "Tetris Link",
	.min_players = 2,
	.max_players = LINK_MAX_PLAYERS,
	.options = link_options,
	.n_options = LINK_OPT_COUNT,
	.state_size = sizeof(LinkState),
	.max_moves = PIECE_ORIENTATIONS * LINK_MAX_WIDTH,
	.chance_public = true,
	.lower_score_wins = false,
	.fault_policy = VARIANT_FAULT_FORFEIT,
	.init = link_init,
	.phase = link_phase,
	.legal_moves = link_legal_moves,
	.apply = link_apply,
	.chance_sample = link_chance_sample,
	.apply_joint = NULL,
	.retire = link_retire,
	.halt = NULL,
	.scores = link_scores,
	.ranking = link_ranking,
	.move_format = link_move_format,
	.move_parse = link_move_parse,
	.state_format = link_state_format,
	.state_parse = link_state_parse,
	.render = link_render,
};
