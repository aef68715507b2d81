/* board: bit-row boards. See board.h for the invariant. */
#include "board.h"

#include <assert.h>
#include <string.h>

void board_init(Board *b, int width, int height)
{
	assert(width >= 1 && width <= BOARD_MAX_WIDTH);
	assert(height >= 1 && height <= BOARD_MAX_HEIGHT);
	memset(b, 0, sizeof(*b));
	b->width = (int8_t)width;
	b->height = (int8_t)height;
}

void board_set(Board *b, int x, int y, bool filled)
{
	assert(board_inside(b, x, y));
	if (filled)
		b->rows[y] = (BoardRow)(b->rows[y] | (1u << x));
	else
		b->rows[y] = (BoardRow)(b->rows[y] & ~(1u << x));
}

bool board_fits(const Board *b, const Orientation *o, int x, int y)
{
	if (x < 0 || y < 0 || x + o->width > b->width || y + o->height > b->height)
		return false;
	for (int i = 0; i < 4; i++)
		if ((b->rows[y + o->y[i]] >> (x + o->x[i])) & 1u)
			return false;
	return true;
}

bool board_fits_open_top(const Board *b, const Orientation *o, int x, int y)
{
	if (x < 0 || y < 0 || x + o->width > b->width)
		return false;
	for (int i = 0; i < 4; i++) {
		int cy = y + o->y[i];
		if (cy < b->height && ((b->rows[cy] >> (x + o->x[i])) & 1u))
			return false;
	}
	return true;
}

void board_place(Board *b, const Orientation *o, int x, int y)
{
	for (int i = 0; i < 4; i++) {
		int cy = y + o->y[i];
		if (cy >= b->height)
			continue;
		assert(!board_get(b, x + o->x[i], cy));
		board_set(b, x + o->x[i], cy, true);
	}
}

int board_drop_y(const Board *b, const Orientation *o, int x)
{
	int rest = 0;

	if (x < 0 || x + o->width > b->width)
		return -1;
	/* For each cell, the lowest y the piece may have so that this cell
	 * stays above every filled cell of its column; the piece stops at the
	 * largest of those. */
	for (int i = 0; i < 4; i++) {
		int col = x + o->x[i];
		int h = board_column_height(b, col);
		int need = h - o->y[i];
		if (need > rest)
			rest = need;
	}
	return rest;
}

bool board_row_full(const Board *b, int y)
{
	assert(y >= 0 && y < b->height);
	return b->rows[y] == board_full_row(b->width);
}

uint64_t board_clear_full_rows(Board *b)
{
	uint64_t cleared = 0;
	int to = 0;

	for (int y = 0; y < b->height; y++) {
		if (board_row_full(b, y)) {
			cleared |= (uint64_t)1 << y;
			continue;
		}
		b->rows[to++] = b->rows[y];
	}
	while (to < b->height)
		b->rows[to++] = 0;
	return cleared;
}

int board_column_height(const Board *b, int x)
{
	assert(x >= 0 && x < b->width);
	for (int y = b->height - 1; y >= 0; y--)
		if ((b->rows[y] >> x) & 1u)
			return y + 1;
	return 0;
}

int board_count(const Board *b)
{
	int n = 0;

	for (int y = 0; y < b->height; y++)
		n += __builtin_popcount(b->rows[y]);
	return n;
}
