/*
 * board: a rectangle of cells stored as one bit row per y.
 *
 * Row y is rows[y]; bit x of it is the cell (x, y). y 0 is the bottom row.
 * Widths run from 1 to BOARD_MAX_WIDTH, heights from 1 to BOARD_MAX_HEIGHT.
 * Invariant: no bit at or beyond `width` is set, and no row at or above
 * `height` is non-zero. A Board is plain data: copy it with assignment.
 */
#ifndef TETRARENA_ENGINE_BOARD_H
#define TETRARENA_ENGINE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "piece.h"

#define BOARD_MAX_WIDTH 16
#define BOARD_MAX_HEIGHT 64

typedef uint16_t BoardRow;

typedef struct {
	int8_t width, height;
	BoardRow rows[BOARD_MAX_HEIGHT];
} Board;

/* An empty board; width and height must be in range. */
void board_init(Board *b, int width, int height);

/* The bit row with every cell of a width-`width` row set. */
static inline BoardRow board_full_row(int width)
{
	return (BoardRow)((1u << width) - 1u);
}

/* Whether (x, y) is inside the board. */
static inline bool board_inside(const Board *b, int x, int y)
{
	return x >= 0 && x < b->width && y >= 0 && y < b->height;
}

/* Whether cell (x, y) is filled; cells outside the board read as empty. */
static inline bool board_get(const Board *b, int x, int y)
{
	return board_inside(b, x, y) && ((b->rows[y] >> x) & 1u);
}

/* Fill or clear one cell inside the board. */
void board_set(Board *b, int x, int y, bool filled);

/*
 * Whether orientation `o` with its bounding box's lower-left corner at
 * (x, y) lies wholly inside the board on empty cells.
 */
bool board_fits(const Board *b, const Orientation *o, int x, int y);

/*
 * Like board_fits, but cells at or above the board's top count as empty
 * and allowed (they stick out). Cells below y 0 or beside the board never fit.
 */
bool board_fits_open_top(const Board *b, const Orientation *o, int x, int y);

/* Fill the cells of `o` at (x, y); they must fit (cells above the top are dropped). */
void board_place(Board *b, const Orientation *o, int x, int y);

/*
 * Where `o`, dropped straight down in columns x..x+width-1 from above the
 * board, comes to rest: the lowest y at which it fits and from which every
 * lower position down to its stop is blocked, i.e. the y just above the
 * highest obstacle under any of its cells. The result may be high enough
 * that cells stick out of the top; check with board_fits. Returns -1 when
 * the columns are outside the board.
 */
int board_drop_y(const Board *b, const Orientation *o, int x);

/* Whether row y is completely filled. */
bool board_row_full(const Board *b, int y);

/*
 * Remove every full row, shifting the rows above down, and return a mask
 * with bit y set for each removed row (as numbered before the removal).
 */
uint64_t board_clear_full_rows(Board *b);

/* The height of column x: one more than its highest filled cell, 0 if empty. */
int board_column_height(const Board *b, int x);

/* Number of filled cells. */
int board_count(const Board *b);

#endif
