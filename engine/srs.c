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

int srs_landings(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out)
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
