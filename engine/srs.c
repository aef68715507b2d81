/*
 * srs: rotation states, wall kicks and the move generator. See srs.h.
 *
 * The generator is a breadth-first search over positions (rot, x, y) from
 * the spawn; `seen` holds one bit per y for each (rot, x), so it never
 * allocates. Rotation points lie within two columns of the board and, for
 * positions that fit, at rows 0 .. height + 1.
 */
#include "srs.h"

#include <assert.h>
#include <string.h>

/* Cells of every state, rules.md's state 0 turned clockwise (see srs.h). */
static const int8_t offsets[PIECE_COUNT][SRS_ROTS][2][4] = {
	{ /* I */
		{{-1, 0, 1, 2}, {0, 0, 0, 0}},
		{{1, 1, 1, 1}, {1, 0, -1, -2}},
		{{2, 1, 0, -1}, {-1, -1, -1, -1}},
		{{0, 0, 0, 0}, {-2, -1, 0, 1}},
	},
	{ /* O */
		{{0, 1, 0, 1}, {0, 0, 1, 1}},
		{{0, 0, 1, 1}, {1, 0, 1, 0}},
		{{1, 0, 1, 0}, {1, 1, 0, 0}},
		{{1, 1, 0, 0}, {0, 1, 0, 1}},
	},
	{ /* T */
		{{-1, 0, 1, 0}, {0, 0, 0, 1}},
		{{0, 0, 0, 1}, {1, 0, -1, 0}},
		{{1, 0, -1, 0}, {0, 0, 0, -1}},
		{{0, 0, 0, -1}, {-1, 0, 1, 0}},
	},
	{ /* J */
		{{-1, -1, 0, 1}, {1, 0, 0, 0}},
		{{1, 0, 0, 0}, {1, 1, 0, -1}},
		{{1, 1, 0, -1}, {-1, 0, 0, 0}},
		{{-1, 0, 0, 0}, {-1, -1, 0, 1}},
	},
	{ /* L */
		{{-1, 0, 1, 1}, {0, 0, 0, 1}},
		{{0, 0, 0, 1}, {1, 0, -1, -1}},
		{{1, 0, -1, -1}, {0, 0, 0, -1}},
		{{0, 0, 0, -1}, {-1, 0, 1, 1}},
	},
	{ /* S */
		{{-1, 0, 0, 1}, {0, 0, 1, 1}},
		{{0, 0, 1, 1}, {1, 0, 0, -1}},
		{{1, 0, 0, -1}, {0, 0, -1, -1}},
		{{0, 0, -1, -1}, {-1, 0, 0, 1}},
	},
	{ /* Z */
		{{-1, 0, 0, 1}, {1, 1, 0, 0}},
		{{1, 1, 0, 0}, {1, 0, 0, -1}},
		{{1, 0, 0, -1}, {-1, -1, 0, 0}},
		{{-1, -1, 0, 0}, {-1, 0, 0, 1}},
	},
};

/*
 * Kick tests (dx, dy), y up, indexed by the state turned from and the
 * direction (0 clockwise, 1 counter-clockwise): the guideline tables.
 */
static const int8_t kicks_jlstz[SRS_ROTS][2][5][2] = {
	/* 0->R, 0->L */
	{{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}},
	 {{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},
	/* R->2, R->0 */
	{{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}},
	 {{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},
	/* 2->L, 2->R */
	{{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}},
	 {{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},
	/* L->0, L->2 */
	{{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}},
	 {{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}},
};

static const int8_t kicks_i[SRS_ROTS][2][5][2] = {
	/* 0->R, 0->L */
	{{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}},
	 {{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},
	/* R->2, R->0 */
	{{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}},
	 {{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},
	/* 2->L, 2->R */
	{{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}},
	 {{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},
	/* L->0, L->2 */
	{{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}},
	 {{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},
};

char srs_rot_letter(int rot)
{
	static const char letters[SRS_ROTS] = {'0', 'R', '2', 'L'};

	return rot >= 0 && rot < SRS_ROTS ? letters[rot] : '?';
}

int srs_rot_from_letter(char c)
{
	switch (c) {
	case '0':
		return SRS_ROT_0;
	case 'R':
	case 'r':
	case '1':
		return SRS_ROT_R;
	case '2':
		return SRS_ROT_2;
	case 'L':
	case 'l':
	case '3':
		return SRS_ROT_L;
	}
	return -1;
}

void srs_offsets(PieceKind kind, int rot, int dx[4], int dy[4])
{
	assert(kind >= 0 && kind < PIECE_COUNT && rot >= 0 && rot < SRS_ROTS);
	for (int i = 0; i < 4; i++) {
		dx[i] = offsets[kind][rot][0][i];
		dy[i] = offsets[kind][rot][1][i];
	}
}

void srs_cells(const SrsPos *p, int x[4], int y[4])
{
	srs_offsets((PieceKind)p->kind, p->rot, x, y);
	for (int i = 0; i < 4; i++) {
		x[i] += p->x;
		y[i] += p->y;
	}
}

static bool collides_at(const Board *b, int kind, int rot, int x, int y)
{
	const int8_t (*o)[4] = offsets[kind][rot];

	for (int i = 0; i < 4; i++) {
		int cx = x + o[0][i], cy = y + o[1][i];
		if (cx < 0 || cx >= b->width || cy < 0 || cy >= b->height)
			return true;
		if ((b->rows[cy] >> cx) & 1u)
			return true;
	}
	return false;
}

bool srs_collides(const Board *b, const SrsPos *p)
{
	return collides_at(b, p->kind, p->rot, p->x, p->y);
}

/* The kicked position of a turn, or false; no change to *p on failure. */
static bool turn(const Board *b, int kind, int rot, int dir, int x, int y, SrsPos *to)
{
	int next = (rot + (dir > 0 ? 1 : 3)) % SRS_ROTS;
	int d = dir > 0 ? 0 : 1;
	int tests = kind == PIECE_O ? 1 : 5;
	const int8_t (*k)[2] = kind == PIECE_I ? kicks_i[rot][d] : kicks_jlstz[rot][d];

	for (int t = 0; t < tests; t++) {
		int nx = x + k[t][0], ny = y + k[t][1];
		if (!collides_at(b, kind, next, nx, ny)) {
			*to = (SrsPos){(int8_t)kind, (int8_t)next, (int8_t)nx, (int8_t)ny};
			return true;
		}
	}
	return false;
}

bool srs_rotate(const Board *b, SrsPos *p, int dir)
{
	assert(dir == 1 || dir == -1);
	return turn(b, p->kind, p->rot, dir, p->x, p->y, p);
}

bool srs_spawn(const Board *b, PieceKind kind, int x, int y, SrsPos *out)
{
	for (; y < b->height; y++) {
		*out = (SrsPos){(int8_t)kind, SRS_ROT_0, (int8_t)x, (int8_t)y};
		if (!srs_collides(b, out))
			return true;
	}
	return false;
}

bool srs_rests(const Board *b, const SrsPos *p)
{
	int x[4], y[4];

	srs_cells(p, x, y);
	for (int i = 0; i < 4; i++)
		if (y[i] > 0 && board_get(b, x[i], y[i] - 1))
			return true;
	return false;
}

#define SEEN_X (BOARD_MAX_WIDTH + 4)	/* rotation point x + 2 */
#define OPEN_SKIP 4	/* rows above the stack where no cell can reach it */

int srs_landings_reference(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out)
{
	uint64_t seen[SRS_ROTS][SEEN_X];
	SrsPos queue[SRS_MAX_LANDINGS];
	int head = 0, tail = 0, n = 0;
	const int kind = spawn->kind;

	int top = b->height;	/* rows from `top` up are empty */

	assert(b->height <= 62);
	if (srs_collides(b, spawn))
		return 0;
	memset(seen, 0, sizeof(seen));
	while (top > 0 && !b->rows[top - 1])
		top--;
	if (spawn->y >= top + OPEN_SKIP + 1 && spawn->y + 2 < b->height) {
		/*
		 * Shortcut: above the stack every in-bounds position is reachable
		 * (turn at the spawn, slide, drop), and none is final. Mark every
		 * row from top + OPEN_SKIP up as seen, and start from all the
		 * positions in its two lowest rows: rotations from higher rows
		 * (kicks move at most 2 down) land in those rows or above.
		 */
		for (int r = 0; r < SRS_ROTS; r++)
			for (int x = -2; x < b->width + 2; x++) {
				seen[r][x + 2] = ~(uint64_t)0 << (top + OPEN_SKIP);
				for (int y = top + OPEN_SKIP; y < top + OPEN_SKIP + 2; y++)
					if (!collides_at(b, kind, r, x, y))
						queue[tail++] = (SrsPos){(int8_t)kind, (int8_t)r,
									 (int8_t)x, (int8_t)y};
			}
	} else {
		seen[spawn->rot][spawn->x + 2] |= (uint64_t)1 << spawn->y;
		queue[tail++] = *spawn;
	}
	while (head < tail) {
		SrsPos p = queue[head++];
		SrsPos next[5];
		int nn = 0;

		if (!collides_at(b, kind, p.rot, p.x - 1, p.y))
			next[nn++] = (SrsPos){p.kind, p.rot, (int8_t)(p.x - 1), p.y};
		if (!collides_at(b, kind, p.rot, p.x + 1, p.y))
			next[nn++] = (SrsPos){p.kind, p.rot, (int8_t)(p.x + 1), p.y};
		if (!collides_at(b, kind, p.rot, p.x, p.y - 1)) {
			next[nn++] = (SrsPos){p.kind, p.rot, p.x, (int8_t)(p.y - 1)};
		} else if (!resting || srs_rests(b, &p)) {
			out[n++] = p;
		}
		if (turn(b, kind, p.rot, 1, p.x, p.y, &next[nn]))
			nn++;
		if (turn(b, kind, p.rot, -1, p.x, p.y, &next[nn]))
			nn++;
		for (int i = 0; i < nn; i++) {
			uint64_t bit = (uint64_t)1 << next[i].y;
			uint64_t *s = &seen[next[i].rot][next[i].x + 2];
			if (*s & bit)
				continue;
			*s |= bit;
			queue[tail++] = next[i];
		}
	}
	return n;
}


/*
 * The generator: the same breadth-first search, node for node, as
 * srs_landings_reference() (so the same output in the same order), with
 * every collision test made a bit test. `fit` holds, for each rotation r
 * and rotation point column x (index x + FX), one bit per row y: set when
 * the piece fits at (r, x, y). It is built a column at a time from the
 * board's columns with shifts, so a move, a drop or a kick test costs one
 * load, shift and mask instead of four cell lookups. The search is
 * compiled once per piece and, within it, once per rotation state, so
 * cell offsets, kick tests and their count are constants.
 */
#define FX 3	/* rotation point x + FX >= 0, for x down to -1 and kicks 2 further */
#define FCOLS (BOARD_MAX_WIDTH + 2 * FX)
#define INLINE static inline __attribute__((always_inline))

/* A queued position: rotation << 11 | column index << 6 | y. */
typedef uint16_t Node;

typedef struct {
	uint64_t fit[SRS_ROTS][FCOLS];
	uint64_t open[SRS_ROTS][FCOLS];	/* fit and not yet queued */
	Node queue[SRS_MAX_LANDINGS];
	int tail;
} Search;

INLINE Node node(int r, int c, int y)
{
	return (Node)(r << 11 | c << 6 | y);
}

/* Queue (r, c, y) if it fits and is not queued yet. */
INLINE void visit(Search *s, int r, int c, int y)
{
	const uint64_t bit = (uint64_t)1 << y;

	if (s->open[r][c] & bit) {
		s->open[r][c] &= ~bit;
		s->queue[s->tail++] = node(r, c, y);
	}
}

/*
 * OUT fit[r][c] for the rotation point columns c where every cell of state
 * r is inside the board; the caller has zeroed the rest. col[x]: bit y
 * where cell (x, y) is filled or at or above the board's top.
 */
INLINE void fit_rot(const uint64_t *col, int w, int kind, int r, uint64_t *fit)
{
	const int8_t (*o)[4] = offsets[kind][r];
	int lo = -o[0][0], hi = w - 1 - o[0][0];

	for (int i = 1; i < 4; i++) {
		if (-o[0][i] > lo)
			lo = -o[0][i];
		if (w - 1 - o[0][i] < hi)
			hi = w - 1 - o[0][i];
	}
	for (int x = lo; x <= hi; x++) {
		uint64_t bad = 0;

		/* Row y is blocked where cell row y + dy is (rows below 0 are). */
		for (int i = 0; i < 4; i++) {
			const uint64_t m = col[x + o[0][i]];
			const int dy = o[1][i];

			if (dy > 0)
				bad |= m >> dy | ~(~(uint64_t)0 >> dy);
			else if (dy < 0)
				bad |= m << -dy | (((uint64_t)1 << -dy) - 1);
			else
				bad |= m;
		}
		fit[x + FX] = ~bad;
	}
}

INLINE void fit_sets(const Board *b, int top, int kind, uint64_t fit[SRS_ROTS][FCOLS])
{
	uint64_t col[BOARD_MAX_WIDTH];
	const uint64_t above = ~(uint64_t)0 << b->height;	/* height <= 62 */
	const int w = b->width;

	for (int x = 0; x < w; x++)
		col[x] = above;
	for (int y = 0; y < top; y++) {
		unsigned row = b->rows[y];

		while (row) {
			col[__builtin_ctz(row)] |= (uint64_t)1 << y;
			row &= row - 1;
		}
	}
	memset(fit, 0, sizeof(uint64_t) * SRS_ROTS * FCOLS);
	fit_rot(col, w, kind, SRS_ROT_0, fit[SRS_ROT_0]);
	if (kind == PIECE_O) {
		/* The same cells in every state. */
		for (int r = 1; r < SRS_ROTS; r++)
			memcpy(fit[r], fit[0], sizeof(fit[r]));
		return;
	}
	fit_rot(col, w, kind, SRS_ROT_R, fit[SRS_ROT_R]);
	if (kind == PIECE_I || kind == PIECE_S || kind == PIECE_Z) {
		/*
		 * State 2 covers the cells of state 0 one row down, and L those
		 * of R one column left: (2, x, y) fits where (0, x, y - 1) does,
		 * (L, x, y) where (R, x - 1, y) does.
		 */
		for (int c = 0; c < FCOLS; c++)
			fit[SRS_ROT_2][c] = fit[SRS_ROT_0][c] << 1;
		for (int c = 1; c < FCOLS; c++)
			fit[SRS_ROT_L][c] = fit[SRS_ROT_R][c - 1];
		return;
	}
	fit_rot(col, w, kind, SRS_ROT_2, fit[SRS_ROT_2]);
	fit_rot(col, w, kind, SRS_ROT_L, fit[SRS_ROT_L]);
}

/* Whether `kind` in state r at (x, y) rests on a filled cell (srs_rests()). */
INLINE bool rests_at(const Board *b, int kind, int r, int x, int y)
{
	const int8_t (*o)[4] = offsets[kind][r];

	for (int i = 0; i < 4; i++) {
		int cy = y + o[1][i] - 1;

		if (cy >= 0 && (b->rows[cy] >> (x + o[0][i]) & 1u))
			return true;
	}
	return false;
}

/* Turn (r, c, y) in direction d (0 clockwise): queue the first test that fits. */
INLINE void expand_turn(Search *s, int kind, int r, int d, int c, int y)
{
	const int next = (r + (d == 0 ? 1 : 3)) % SRS_ROTS;
	const int8_t (*k)[2] = kind == PIECE_I ? kicks_i[r][d] : kicks_jlstz[r][d];
	const int tests = kind == PIECE_O ? 1 : 5;

	for (int t = 0; t < tests; t++) {
		const int nc = c + k[t][0], ny = y + k[t][1];

		if ((unsigned)ny < 64 && (s->fit[next][nc] >> ny & 1)) {
			visit(s, next, nc, ny);
			return;
		}
	}
}

/* Dequeued (r, c, y): left, right, down (or report it), both turns, in the reference's order. */
INLINE int expand(Search *s, const Board *b, bool resting, int kind, int r, int c, int y, SrsPos *out)
{
	const uint64_t bit = (uint64_t)1 << y;
	int found = 0;

	visit(s, r, c - 1, y);
	visit(s, r, c + 1, y);
	if (s->fit[r][c] & bit >> 1) {
		visit(s, r, c, y - 1);
	} else if (!resting || rests_at(b, kind, r, c - FX, y)) {
		*out = (SrsPos){(int8_t)kind, (int8_t)r, (int8_t)(c - FX), (int8_t)y};
		found = 1;
	}
	expand_turn(s, kind, r, 0, c, y);
	expand_turn(s, kind, r, 1, c, y);
	return found;
}

INLINE int search(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out, int kind)
{
	Search s;
	int head = 0, n = 0, top = b->height;

	while (top > 0 && !b->rows[top - 1])
		top--;
	fit_sets(b, top, kind, s.fit);
	memcpy(s.open, s.fit, sizeof(s.open));
	s.tail = 0;
	if (spawn->y >= top + OPEN_SKIP + 1 && spawn->y + 2 < b->height) {
		/* The reference's shortcut, in its order. */
		const int y0 = top + OPEN_SKIP;

		for (int r = 0; r < SRS_ROTS; r++)
			for (int c = FX - 2; c < b->width + FX + 2; c++) {
				s.open[r][c] &= ~(~(uint64_t)0 << y0);
				for (int y = y0; y < y0 + 2; y++)
					if (s.fit[r][c] >> y & 1)
						s.queue[s.tail++] = node(r, c, y);
			}
	} else {
		visit(&s, spawn->rot, spawn->x + FX, spawn->y);
	}
	while (head < s.tail) {
		const Node p = s.queue[head++];
		const int c = p >> 6 & 31, y = p & 63;

		switch (p >> 11) {
		case SRS_ROT_0:
			n += expand(&s, b, resting, kind, SRS_ROT_0, c, y, &out[n]);
			break;
		case SRS_ROT_R:
			n += expand(&s, b, resting, kind, SRS_ROT_R, c, y, &out[n]);
			break;
		case SRS_ROT_2:
			n += expand(&s, b, resting, kind, SRS_ROT_2, c, y, &out[n]);
			break;
		default:
			n += expand(&s, b, resting, kind, SRS_ROT_L, c, y, &out[n]);
			break;
		}
	}
	return n;
}

/* One search per piece, each with its piece's constants. */
#define SEARCH(K) \
	static int search_##K(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out) \
	{ \
		return search(b, spawn, resting, out, PIECE_##K); \
	}
SEARCH(I)
SEARCH(O)
SEARCH(T)
SEARCH(J)
SEARCH(L)
SEARCH(S)
SEARCH(Z)

int srs_landings(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out)
{
	static int (*const by_kind[PIECE_COUNT])(const Board *, const SrsPos *, bool, SrsPos *) = {
		[PIECE_I] = search_I, [PIECE_O] = search_O, [PIECE_T] = search_T, [PIECE_J] = search_J,
		[PIECE_L] = search_L, [PIECE_S] = search_S, [PIECE_Z] = search_Z,
	};

	assert(b->height <= 62);
	if (srs_collides(b, spawn))
		return 0;
	return by_kind[spawn->kind](b, spawn, resting, out);
}

bool srs_reachable(const Board *b, const SrsPos *spawn, bool resting, const SrsPos *p)
{
	SrsPos all[SRS_MAX_LANDINGS];
	int n;

	if (p->kind != spawn->kind || srs_collides(b, p))
		return false;
	n = srs_landings(b, spawn, resting, all);
	for (int i = 0; i < n; i++)
		if (all[i].rot == p->rot && all[i].x == p->x && all[i].y == p->y)
			return true;
	return false;
}
